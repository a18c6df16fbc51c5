"""Ctrl-C at the card prompt of the line mode ends ``cryptcrawl play`` at once: exit status
130, one line saying so, the terminal's settings as they were, the match file kept.

The prompt reads the terminal in a thread of its own (cli/play.py ``in_reader``); it used to be
a thread of the event loop's default executor, which the loop waits for on the way out, so
Ctrl-C did nothing until the player pressed Enter.  The child gets the pseudo-terminal as its
controlling terminal, so the Ctrl-C typed is a real SIGINT from the terminal driver."""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import signal
import subprocess
import sys
import termios
import time
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_command import ROOT
from tests.cli.test_pty_plain import screen_text


def _child_setup() -> None:  # pragma: no cover (runs in the child)
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # (whatever the test runner ignores)


def spawn(tmp_path: Path, term: str, seed: str, shown: tuple[bytes, ...]
          ) -> tuple[subprocess.Popen[bytes], int, list[Any]]:
    """``cryptcrawl play`` (three seats) on a pseudo-terminal that is its controlling
    terminal, run until one of ``shown`` is on the screen; the child, the terminal's master
    side and the terminal's settings before the game."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": term}
    env.pop("CRYPTCRAWL_DEBUG", None)
    master, slave = os.openpty()
    before = termios.tcgetattr(slave)
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "cli", "play", "--players", "3", "--seed", seed,
             "--data-dir", str(tmp_path / "data"), "--timeouts", "30,30,30,20"],
            stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=env,
            preexec_fn=_child_setup)
    finally:
        os.close(slave)
    raw = b""
    deadline = time.monotonic() + 60
    while not any(mark in raw for mark in shown):
        if time.monotonic() > deadline:
            finish(proc, master)
            raise AssertionError(screen_text(raw)[-2000:])
        if select.select([master], [], [], 1.0)[0]:
            raw += os.read(master, 65536)
    return proc, master, before


def finish(proc: subprocess.Popen[bytes], master: int) -> tuple[int, str, list[Any]]:
    """Wait for the child's exit (killing it after 20 s); its status, what it wrote last
    and the terminal's settings then."""
    raw = b""
    code = -1
    try:
        code = proc.wait(timeout=20)
        with contextlib.suppress(OSError):
            while select.select([master], [], [], 0.2)[0]:
                chunk = os.read(master, 65536)
                if not chunk:
                    break
                raw += chunk
        return code, screen_text(raw), termios.tcgetattr(master)
    finally:
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        os.close(master)


def same_line_settings(before: list[Any], after: list[Any]) -> bool:
    """Echo and line editing (ECHO, ICANON) as they were."""
    flags = termios.ECHO | termios.ICANON
    return bool(after[3] & flags == before[3] & flags)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pseudo-terminals")
def test_ctrl_c_at_the_card_prompt_ends_the_game_at_once(tmp_path: Path) -> None:
    proc, master, before = spawn(tmp_path, "dumb", "ctrl-c", (b"your card> ",))
    os.write(master, b"\x03")  # Ctrl-C
    code, text, after = finish(proc, master)
    assert code == 130, text[-2000:]
    assert "interrupted; you left the game" in text, text[-2000:]
    assert "Traceback" not in text and "Fatal Python error" not in text, text[-2000:]
    assert same_line_settings(before, after)
    assert list((tmp_path / "data" / "matches").glob("*.crawl")), "the match file is kept"
