"""The full-screen game left by a signal or by Ctrl-C gives the terminal back as it was and
exits with 128 + the signal's number (cli/tui.py ``run_ui``): a kill used to leave the
terminal with no echo, in the alternate screen; Ctrl-C exited 0."""

from __future__ import annotations

import contextlib
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
from tests.cli.test_pty_interrupt import _child_setup
from tests.cli.test_pty_plain import screen_text


def run_until_shown(tmp_path: Path) -> tuple[subprocess.Popen[bytes], int, list[int]]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color"}
    env.pop("CRYPTCRAWL_DEBUG", None)
    master, slave = os.openpty()
    before = termios.tcgetattr(slave)
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "cli", "play", "--players", "3", "--seed", "tui-signal",
             "--data-dir", str(tmp_path / "data"), "--turn-timeout", "30"],
            stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=env,
            preexec_fn=_child_setup)
    finally:
        os.close(slave)
    raw = b""
    deadline = time.monotonic() + 60
    while b"Choose" not in raw and b"your card" not in raw.lower():
        if time.monotonic() > deadline:
            proc.kill()
            proc.wait(timeout=10)
            os.close(master)
            raise AssertionError(screen_text(raw)[-2000:])
        if select.select([master], [], [], 1.0)[0]:
            raw += os.read(master, 65536)
    return proc, master, before


def finish(proc: subprocess.Popen[bytes], master: int) -> tuple[int, str, list[int]]:
    raw = b""
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


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pseudo-terminals")
@pytest.mark.parametrize(("how", "code"), [("SIGTERM", 143), ("SIGHUP", 129), ("SIGINT", 130),
                                           ("ctrl-c", 130)])
def test_the_screen_left_by_a_signal_gives_the_terminal_back(
        tmp_path: Path, how: str, code: int) -> None:
    proc, master, before = run_until_shown(tmp_path)
    if how == "ctrl-c":
        os.write(master, b"\x03")
    else:
        proc.send_signal(getattr(signal, how))
    got, text, after = finish(proc, master)
    assert got == code, text[-2000:]
    assert "you left the game" in text, text[-2000:]
    assert "Traceback" not in text, text[-2000:]
    flags = termios.ECHO | termios.ICANON
    assert after[3] & flags == before[3] & flags  # echo and line editing are back
    assert list((tmp_path / "data" / "matches").glob("*.crawl")), "the match file is kept"
