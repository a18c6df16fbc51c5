"""What the command prints for a person: "did you mean", the check command as the program was
started, no raw errno, which interrupted match ``resume`` takes."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cli import args as cli_args
from cli.lan import pick_unfinished
from cli.netplay import NetOptions
from p2p.store import StoreError
from tests.cli.test_command import ROOT, cryptcrawl
from tests.cli.test_lan import CARDS


@pytest.mark.parametrize(("typed", "meant"), [("plya", "play"), ("verfy", "verify"),
                                               ("mathces", "matches")])
def test_a_command_typo_gets_a_did_you_mean(typed: str, meant: str) -> None:
    result = cryptcrawl(typed)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert f"did you mean '{meant}'?" in result.stderr


def test_no_suggestion_for_what_is_not_close() -> None:
    assert "did you mean" not in cryptcrawl("teleport").stderr


def test_invocation_names_the_program_as_it_was_started(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = tmp_path / "bin" / "cryptcrawl"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    monkeypatch.setitem(sys.modules, "__main__", type(sys)("__main__"))  # (no -m spec)
    monkeypatch.setattr(sys, "argv", [str(script), "play"])
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    assert cli_args.invocation() == str(script)  # not on PATH: its path
    monkeypatch.setenv("PATH", f"{script.parent}:/usr/bin:/bin")
    assert cli_args.invocation() == "cryptcrawl"  # on PATH: its name
    module = type(sys)("__main__")
    module.__spec__ = type("Spec", (), {"name": "cli.__main__"})()  # type: ignore[assignment]
    monkeypatch.setitem(sys.modules, "__main__", module)
    command = cli_args.invocation()
    assert command.endswith(" -m cli") and shutil.which(shlex.split(command)[0])


def test_the_printed_check_command_works_without_cryptcrawl_on_path(tmp_path: Path) -> None:
    """As after the README's Quick start: ``.venv/bin/cryptcrawl`` with the venv not on PATH
    (before: "Check it: cryptcrawl verify ..." and "command not found")."""
    script = Path(sys.executable).parent / "cryptcrawl"
    if not script.exists():  # (the test venv always has it: pip install -e '.[test]')
        pytest.fail(f"no console script at {script}: install the project (pip install -e .)")
    env = {**os.environ, "PATH": "/usr/bin:/bin"}
    env.pop("PYTHONPATH", None)
    played = subprocess.run(
        [str(script), "play", "--plain", "--players", "3", "--data-dir", str(tmp_path),
         "--timeouts", "30,30,30,20"], input=CARDS, text=True, capture_output=True, env=env,
        cwd=tmp_path, timeout=150, check=False)
    assert played.returncode == 0, played.stdout[-1500:] + played.stderr
    [command] = re.findall(r"^Check it: (.+)$", played.stdout, re.M)
    assert not command.startswith("cryptcrawl "), command
    check = subprocess.run(shlex.split(command), text=True, capture_output=True, env=env,
                           cwd="/", timeout=120, check=False)
    assert check.returncode == 0 and "VALID" in check.stdout, check.stdout + check.stderr


def test_join_says_why_without_a_raw_errno(tmp_path: Path) -> None:
    result = cryptcrawl("join", "127.0.0.1:9", "--data-dir", str(tmp_path), "--plain")
    assert result.returncode == 1, result.stderr
    assert result.stderr.count("\n") == 1
    assert "[Errno" not in result.stderr and "Connect call failed" not in result.stderr
    assert "cannot reach a table at 127.0.0.1:9: Connection refused" in result.stderr


def test_a_joiner_is_told_the_bots_run_on_the_hosts_machine() -> None:
    assert "host's machine" in NetOptions(role="join").bots_where
    assert "this machine" not in NetOptions(role="join").bots_where
    assert "this machine" in NetOptions(role="play", bots=2).bots_where
    assert NetOptions(role="host", bots=0).bots_where == ""


def _unfinished(folder: Path, stem: str, when: float) -> None:
    (folder / f"{stem}.seed").write_bytes(b"s" * 32)
    (folder / f"{stem}.crawl").write_bytes(b"x")
    os.utime(folder / f"{stem}.crawl", (when, when))
    os.utime(folder / f"{stem}.seed", (when - 100, when - 100))


def test_resume_takes_the_match_played_last_or_the_one_named(tmp_path: Path) -> None:
    folder = tmp_path / "matches"
    folder.mkdir()
    now = time.time()
    _unfinished(folder, "ffff000011112222", now - 3000)  # sorts last, played long ago
    _unfinished(folder, "0000aaaabbbbcccc", now - 10)  # played last
    _unfinished(folder, "0000dddd00000000", now - 2000)
    assert pick_unfinished(tmp_path).path.stem == "0000aaaabbbbcccc"
    assert pick_unfinished(tmp_path, "ffff").path.stem == "ffff000011112222"
    assert pick_unfinished(tmp_path, "0000D").path.stem == "0000dddd00000000"
    with pytest.raises(StoreError, match="give more of the id"):
        pick_unfinished(tmp_path, "0000")
    with pytest.raises(StoreError, match="no interrupted match '1234'"):
        pick_unfinished(tmp_path, "1234")


def test_resume_with_an_id_that_names_nothing_is_one_line(tmp_path: Path) -> None:
    result = cryptcrawl("resume", "abcd", "--data-dir", str(tmp_path), "--plain")
    assert result.returncode == 1 and result.stderr.count("\n") == 1
    assert "no interrupted match" in result.stderr
    assert ROOT.is_dir()
