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

import pytest

from tests.cli.test_command import ROOT
from tests.cli.test_pty_plain import screen_text


def _child_setup() -> None:  # pragma: no cover (runs in the child)
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # (whatever the test runner ignores)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pseudo-terminals")
def test_ctrl_c_at_the_card_prompt_ends_the_game_at_once(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "dumb"}
    env.pop("CRYPTCRAWL_DEBUG", None)
    data = tmp_path / "data"
    master, slave = os.openpty()
    before = termios.tcgetattr(slave)
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "cli", "play", "--players", "3", "--seed", "ctrl-c",
             "--data-dir", str(data), "--turn-timeout", "30"],
            stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=env,
            preexec_fn=_child_setup)
    finally:
        os.close(slave)
    raw = b""
    try:
        deadline = time.monotonic() + 60
        while b"your card> " not in raw:
            assert time.monotonic() < deadline, screen_text(raw)[-2000:]
            ready, _, _ = select.select([master], [], [], 1.0)
            if ready:
                raw += os.read(master, 65536)
        os.write(master, b"\x03")  # Ctrl-C
        code = proc.wait(timeout=15)
        with contextlib.suppress(OSError):
            while select.select([master], [], [], 0.2)[0]:
                chunk = os.read(master, 65536)
                if not chunk:
                    break
                raw += chunk
        after = termios.tcgetattr(master)
    finally:
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        os.close(master)
    text = screen_text(raw)
    assert code == 130, text[-2000:]
    assert "interrupted; you left the game" in text, text[-2000:]
    assert "Traceback" not in text and "Fatal Python error" not in text, text[-2000:]
    # Echo and line editing are back as they were before the game (lflag: ECHO, ICANON).
    assert after[3] & (termios.ECHO | termios.ICANON) == before[3] & (
        termios.ECHO | termios.ICANON)
    assert list((data / "matches").glob("*.crawl")), "the match file is kept"
