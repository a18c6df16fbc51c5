"""The pure Python engine and the native (mypyc) build play the same games to the same results.

CI runs this file under both builds (.ci/run).  Under either build the games of
tests/engine/builds.py must end with the recorded digests; under the native build a pure copy of
the engine (its ``.py`` files only, in a temporary folder) plays them again beside it, so the
two builds are compared in one run.  Regenerate the record after an intended change of the
rules or the bots with ``python -m tests.engine.builds --write``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.engine import builds

ROOT = Path(__file__).resolve().parents[2]
HOW = "if the change is intended: python -m tests.engine.builds --write"


@pytest.fixture(scope="module")
def played() -> dict[str, str]:
    return builds.digests()


def test_this_build_plays_the_recorded_games(played: dict[str, str]) -> None:
    recorded = json.loads(builds.RECORD.read_text())
    wrong = sorted(k for k in recorded if played.get(k) != recorded[k])
    assert set(played) == set(recorded), HOW
    assert not wrong, (f"the {'native' if builds.native() else 'pure'} build ends "
                       f"{len(wrong)} games elsewhere, e.g. {wrong[:3]}; {HOW}")


def test_the_native_build_plays_alike_with_a_pure_copy_beside_it(
        tmp_path: Path, played: dict[str, str]) -> None:
    """Under the native build: a pure copy of the engine, in its own process, plays the same
    games to the same digests.  (Under the pure build this copy is the build itself: the test
    then checks that the copy is pure and agrees, which keeps it honest either way.)"""
    copy = tmp_path / "pure"
    shutil.copytree(ROOT / "engine", copy / "engine",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    shutil.copytree(ROOT / "tests" / "engine", copy / "tests" / "engine",
                    ignore=shutil.ignore_patterns("__pycache__", "test_*.py"))
    (copy / "tests" / "__init__.py").write_text("")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-m", "tests.engine.builds"], cwd=copy, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    pure = json.loads(done.stdout)
    assert Path(pure["engine"]) == copy and pure["native"] is False  # the copy, all pure
    assert pure["digests"] == played
