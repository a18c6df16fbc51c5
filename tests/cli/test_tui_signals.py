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


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pseudo-terminals")
def test_the_screen_is_drawn_again_after_a_stop_and_a_continue(tmp_path: Path) -> None:
    """Issue 48: after Ctrl-Z and fg (a stop, then SIGCONT) the whole screen is drawn again —
    the terminal was the shell's meanwhile — not only what changed."""
    import time

    from tests.cli.terminal import Terminal

    term = Terminal(["play", "--players", "3", "--data-dir", str(tmp_path),
                     "--timeouts", "60,60,60,60"], 80, 24)
    try:
        term.wait("YOUR MOVE")
        seen = len(term.raw)
        os.kill(term.pid, signal.SIGSTOP)
        os.kill(term.pid, signal.SIGCONT)
        deadline = time.monotonic() + 30
        # (Wait for the whole screen drawn again: a clock tick redraws the status line,
        # YOUR MOVE included, and may come first under load.)
        def redrawn() -> bool:
            again = bytes(term.raw[seen:])
            return b"\x1b[?1049h" in again and b"YOUR MOVE" in again.split(b"\x1b[?1049h")[-1]

        while time.monotonic() < deadline and not redrawn():
            term.pump(0.2)
        assert redrawn(), bytes(term.raw[seen:])[-400:]
    finally:
        term.close()


@pytest.mark.slow  # (a whole short match first: about 10 s)
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pseudo-terminals")
def test_a_hang_up_on_the_end_screen_ends_the_program(tmp_path: Path) -> None:
    """Issue 48: a ``play`` on its end screen whose terminal hangs up exits (129)."""
    from tests.cli.games.cursor import selected
    from tests.cli.terminal import Terminal

    term = Terminal(["play", "--game", "kards", "--players", "2", "--bots", "1", "--option",
                     "round_cap=1", "--data-dir", str(tmp_path), "--timeouts",
                     "60,60,60,60"], 80, 24)
    try:
        while True:
            text = term.steady(lambda s: "The match is over" in s or (
                "YOUR MOVE" in s and not selected(s) and "Locked in" not in s))
            if "The match is over" in text:
                break
            term.send(b"\t")
            term.steady(selected)
            term.send(b"\r")
            term.wait(lambda s: not selected(s))
        os.kill(term.pid, signal.SIGHUP)
        assert term.finished(timeout=30) == 129
    finally:
        term.close()
