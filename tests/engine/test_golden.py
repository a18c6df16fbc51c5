"""Golden playthroughs: a fixed-seed game must replay to exactly the recorded text.

A failure means the engine, the views, the bots or the dealer behave differently from when the
files were written.  If the change is intended, regenerate and review the diff::

    python -m tests.engine.regen_golden
"""

from __future__ import annotations

import pytest

from tests.engine.regen_golden import GAMES, GOLDEN_DIR, render

HOW = "if the change is intended, regenerate with: python -m tests.engine.regen_golden"


@pytest.mark.parametrize(("name", "players", "variant", "seed"), GAMES,
                         ids=[g[0] for g in GAMES])
def test_golden_playthrough(name: str, players: int, variant: str, seed: bytes) -> None:
    path = GOLDEN_DIR / name
    assert path.exists(), f"{path} is missing; {HOW}"
    expected = path.read_text(encoding="utf-8").splitlines()
    actual = render(players, variant, seed).splitlines()
    for number, (want, got) in enumerate(zip(expected, actual, strict=False), start=1):
        if want != got:
            pytest.fail(f"{name} differs at line {number}:\n  file:   {want[:300]}\n"
                        f"  engine: {got[:300]}\n{HOW}")
    assert len(actual) == len(expected), (
        f"{name}: {len(expected)} lines in the file, {len(actual)} now; {HOW}")


def test_golden_files_stay_small() -> None:
    for name, *_ in GAMES:
        assert (GOLDEN_DIR / name).stat().st_size < 420_000, name
