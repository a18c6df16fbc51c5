"""The full-screen game left by a signal or by Ctrl-C gives the terminal back as it was and
exits with 128 + the signal's number (cli/tui.py ``run_ui``): a kill used to leave the
terminal with no echo, in the alternate screen; Ctrl-C exited 0."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest

from tests.cli.test_pty_interrupt import finish, same_line_settings, spawn


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pseudo-terminals")
@pytest.mark.parametrize(("how", "code"), [("SIGTERM", 143), ("SIGHUP", 129), ("SIGINT", 130),
                                           ("ctrl-c", 130)])
def test_the_screen_left_by_a_signal_gives_the_terminal_back(
        tmp_path: Path, how: str, code: int) -> None:
    proc, master, before = spawn(tmp_path, "xterm-256color", "tui-signal",
                                 (b"Choose", b"your card", b"Your card"))
    if how == "ctrl-c":
        os.write(master, b"\x03")
    else:
        proc.send_signal(getattr(signal, how))
    got, text, after = finish(proc, master)
    assert got == code, text[-2000:]
    assert "you left the game" in text, text[-2000:]
    assert "Traceback" not in text, text[-2000:]
    assert same_line_settings(before, after)  # echo and line editing are back
    assert list((tmp_path / "data" / "matches").glob("*.crawl")), "the match file is kept"
