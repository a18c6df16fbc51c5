"""ASCII-only terminals (cli/charset.py): every line in ASCII, the full screen keeping its
columns — for every game, since the frame and the console do it, not the plug-ins."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from cli.charset import ascii_only, to_ascii
from cli.play import Console
from cli.screen import Screen, plain, text_of
from tests.cli.terminal import Terminal, terminal
from tests.cli.test_command import ROOT

__all__ = ["terminal"]


def test_each_character_becomes_one_ascii_character() -> None:
    assert to_ascii("cryptcrawl: Dungeon Raiders — the match is over") == (
        "cryptcrawl: Dungeon Raiders - the match is over")
    assert to_ascii("─" * 5 + "José “Ann’s” …") == "-----Jose \"Ann's\" ."
    assert to_ascii("日本") == "??"
    assert len(to_ascii("é─—…日")) == 5


def test_which_terminals_are_ascii_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CRYPTCRAWL_ASCII", raising=False)
    ascii_stream = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    utf8 = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    assert ascii_only(ascii_stream) and not ascii_only(utf8)
    assert ascii_only(io.TextIOWrapper(io.BytesIO(), encoding="latin-1"))  # (no box drawing)
    assert not ascii_only(io.StringIO())  # (a buffer holds any text)
    monkeypatch.setenv("CRYPTCRAWL_ASCII", "1")
    assert ascii_only(utf8)
    monkeypatch.setenv("CRYPTCRAWL_ASCII", "0")
    assert not ascii_only(ascii_stream)


def test_the_frame_and_the_console_write_ascii_there() -> None:
    screen = Screen(title=lambda w: [plain(" Café — Level 1")], board=lambda w: [],
                    status=lambda w: [plain(" YOUR MOVE")], hints=lambda w: [],
                    on_key=lambda k: None, keys=[], help_text=lambda: "", ascii=True)
    rows = [text_of(r) for r in screen.lines(80, 24)]
    assert rows[0] == " Cafe - Level 1" and rows[1] == "-" * 80
    assert all(row.isascii() for row in rows)
    out = io.TextIOWrapper(io.BytesIO(), encoding="ascii", errors="strict")
    console = Console(io.StringIO(), out)
    console.say("A you (José) — 3 coins")
    out.flush()
    assert out.buffer.getvalue() == b"A you (Jose) - 3 coins\n"  # type: ignore[attr-defined]


def test_line_mode_on_an_ascii_terminal() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "ascii"}
    env.pop("CRYPTCRAWL_ASCII", None)
    done = subprocess.run([sys.executable, "-m", "cli", "play", "--players", "3", "--name",
                           "José", "--seed", "s", "--deal-seed", "d"], input=b"q\ny\n",
                          capture_output=True, cwd=ROOT, env=env, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert b"A you (Jose)" in done.stdout and done.stdout.isascii()


def test_the_full_screen_on_an_ascii_terminal(terminal: Callable[..., Terminal],
                                              tmp_path: Path) -> None:
    term = terminal(["play", "--players", "3", "--data-dir", str(tmp_path), "--no-bell",
                     "--timeouts", "60,60,60,40"], 80, 24, env={"CRYPTCRAWL_ASCII": "1"})
    screen = term.steady(lambda s: "YOUR MOVE" in s and "Your cards" in s)
    rows = screen.splitlines()
    assert "-" * 80 in rows, screen
    term.send(b"?")
    term.steady("Keys (full screen)")
    assert bytes(term.raw).isascii()  # escapes and text alike: nothing beyond ASCII
