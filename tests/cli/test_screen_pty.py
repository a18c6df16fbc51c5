"""The full screen as a person sees it: ``cryptcrawl`` on a pseudo-terminal, rendered by a
terminal emulator (tests/cli/terminal.py), at 80x24 and 120x40.

Whole matches played with keys (select, then Enter): after every room the newest result is on
the screen; the screen is one clean frame (one title, one status, the hints at the bottom, no
lobby line drawn into it) at a LAN start, after a rematch and after a kill -9 and ``resume``;
the end screen names the winner, the match file and a command that checks it as the program
was started; hints and messages fit; help scrolls and closes with Esc; a window too small says
how large it must be and keys do nothing; the bell rings for your move unless ``--no-bell``.
"""

from __future__ import annotations

import re
import shlex
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from protocol.wire.messages import Kind
from protocol.wire.transcript import read_transcript
from tests.cli.terminal import Terminal, terminal

__all__ = ["terminal"]

SIZES = [(80, 24), (120, 40)]
OVER = "The match is over"
WINNER = re.compile(r"You win with|wins with|Shared win:|Nobody wins")


def where(screen: str) -> tuple[int, int] | None:
    """(level, room) the screen shows, or None."""
    level = re.search(r"^ Level ([0-9])/5 ", screen, re.M)
    room = re.search(r"^ Room ([0-9]) of 5\.", screen, re.M)
    return (int(level.group(1)), int(room.group(1))) if level and room else None


def room_names(screen: str) -> dict[int, str]:
    """The rooms of the title row: position -> name (as the result line names it)."""
    rows = screen.splitlines()
    title = " ".join(rows[:next(i for i, r in enumerate(rows) if r.startswith("───"))])
    cells = re.findall(r"(?:^ Level [0-9]/5 | \| )([1-5]) ([^|]+)", title)
    return {int(pos): name.strip() for pos, name in cells}


def clean_frame(term: Terminal) -> None:
    """One frame, drawn once: the title on the first row, the rule under it, exactly one status
    line, the key hints on the last row, nothing of the line-mode lobby on the screen."""
    rows = term.rows()
    text = "\n".join(rows)
    assert rows[0].startswith(" Level "), text
    assert not re.search(r"(?:^|\| )([1-5]) \1 ", rows[0]), text  # each room number once
    rule = rows.index("─" * term.columns)
    assert rule in (1, 2), text  # (a long row of rooms takes two rows)
    status = [r for r in rows if r.startswith((" YOUR MOVE", " Waiting for"))]
    assert len(status) == 1, text
    assert rows[-1].rstrip().endswith("q leave"), text
    assert sum(r.startswith(" Level ") for r in rows) == 1, text
    for lobby in ("is open on port", "Others join with", "Resuming ", "seats taken"):
        assert lobby not in text, (lobby, text)


def play_rooms(term: Terminal, rooms: int = 99, *,
               each: Callable[[Terminal], None] = clean_frame) -> str:
    """Play ``rooms`` of my decisions (or to the end) with keys: the highest power card in the
    hand, selected, then locked in with Enter.  At each decision, the result of the room
    before is on the screen (the log follows its newest line), and ``each(term)`` holds."""
    seen: dict[tuple[int, int], str] = {}  # (level, room) -> the room's name
    for _ in range(rooms):
        screen = term.steady(lambda s: OVER in s or ("YOUR MOVE" in s and where(s) is not None))
        if OVER in screen:
            return screen
        at = where(screen)
        assert at is not None
        level, room = at
        for pos, name in room_names(screen).items():
            if not name.startswith("["):
                seen[(level, pos)] = name
        before = (level, room - 1) if room > 1 else (level - 1, 5)
        if before in seen:
            assert f"Room {before[1]}, {seen[before]}:" in screen, (before, screen)
        each(term)
        hand = re.search(r"^Your cards: ([0-9 ]+)", screen, re.M)
        assert hand, screen
        card = max(hand.group(1).split())
        term.send(card.encode())
        term.steady(lambda s, c=card, at=at: f"Selected: play {c}." in s and where(s) == at)
        term.send(b"\r")
        term.steady(lambda s, at=at: OVER in s or where(s) != at)
    return term.text()


def end_screen(term: Terminal, *, rematch: bool) -> str:
    screen = term.wait(OVER)
    assert "Final scores" in screen and WINNER.search(screen), screen
    assert "The match file:" in screen and "Check it:" in screen, screen
    hints = term.rows()[-1]
    assert hints.rstrip().endswith("PgUp/PgDn the match's log"), screen  # (the end's log)
    assert ("r rematch" in screen) is rematch, screen
    return screen


def check_command(term: Terminal) -> None:
    """The "Check it:" command printed after the screen closed works as printed."""
    raw = term.raw.decode(errors="replace")
    found = re.findall(r"Check it: ([^\r\n]+)", raw)
    assert found, raw[-2000:]
    done = subprocess.run(shlex.split(found[-1]), capture_output=True, text=True, timeout=120,
                          cwd="/", check=False)
    assert done.returncode == 0 and "VALID" in done.stdout, done.stdout + done.stderr


@pytest.mark.slow  # (whole matches on a terminal by default: tests/cli/test_tui.py)
def test_whole_match_at_both_sizes_shows_each_result_and_the_winner(
        terminal: Callable[..., Terminal], tmp_path: Path) -> None:
    for columns, lines in SIZES:
        data = tmp_path / f"{columns}x{lines}"
        term = terminal(["play", "--players", "3", "--data-dir", str(data),
                         "--timeouts", "60,60,60,40"], columns, lines)
        play_rooms(term)
        end_screen(term, rematch=True)
        term.send(b"q")
        assert term.finished() == 0, term.text()
        assert b"\x07" in term.raw  # the bell rang for my moves
        check_command(term)


@pytest.mark.slow  # (whole matches on a terminal by default: tests/cli/test_tui.py)
@pytest.mark.mdns
def test_lan_start_rematch_and_resume_draw_one_clean_frame(
        terminal: Callable[..., Terminal], tmp_path: Path) -> None:
    """``host`` (its bots at the other seats, advertised on loopback only): the lobby's lines
    in line mode, then a clean full screen; the end screen's rematch; a kill -9 in the rematch
    and ``resume``: a clean screen again, every room's result shown, to the end."""
    data = str(tmp_path / "host")
    term = terminal(["host", "--players", "3", "--bots", "2", "--interface", "127.0.0.1",
                     "--yes", "--data-dir", data, "--timeouts", "60,60,60,40", "--name", "Ann"])
    play_rooms(term)
    end_screen(term, rematch=True)
    term.send(b"r")  # the rematch: the table opens again, the bots sit down again
    term.wait(lambda s: "YOUR MOVE" in s and where(s) == (1, 1))
    play_rooms(term, 3)
    term.close()  # kill -9, in the middle of the rematch
    again = terminal(["resume", "--data-dir", data])
    screen = play_rooms(again)
    assert "A you (Ann)" in screen or "A you (Ann)" in again.text()  # the match's --name
    end_screen(again, rematch=False)
    again.send(b"q")
    assert again.finished() == 0, again.text()
    check_command(again)


def test_help_small_window_and_no_bell(terminal: Callable[..., Terminal],
                                       tmp_path: Path) -> None:
    term = terminal(["play", "--players", "3", "--data-dir", str(tmp_path), "--no-bell",
                     "--timeouts", "60,60,60,40"], 70, 20)
    # (A frame comes in pieces: wait for the text in full, not for its first words.)
    term.wait(lambda s: "Window too small" in s and "at least 80x24" in " ".join(s.split()))
    term.send(b"5")
    term.send(b"\r")  # keys do nothing while the window is too small
    # (Both read while it was: no race with the resize.)
    term.wait(lambda s: "Ignored: 2 keys" in " ".join(s.split()))
    term.resize(80, 24)
    screen = term.wait(lambda s: "YOUR MOVE" in s and "locked in" in s)  # the bots chose
    assert where(screen) == (1, 1) and "Selected" not in screen and "Locked in" not in screen
    assert re.search(r"YOUR MOVE \([0-9]+ s left\)", screen), screen  # the decision's clock
    # An illegal key: the reason in full, not cut at the edge.
    term.send(b"T")
    screen = term.wait(lambda s: "illegal" in s or "Selected: play torch" in s)
    # Help: the keys, then the rules; PgDn scrolls to the end; Esc closes it.
    term.send(b"?")
    # (The help is drawn in pieces: wait for the frame, not for its first line.)
    screen = term.wait(lambda s: "Keys (full screen)" in s and "Esc close the help" in s)
    for _ in range(12):
        if "Fainting and ties" in term.text():
            break
        term.send(b"\x1b[6~")
        term.settle(0.3)
    term.wait(lambda s: "Fainting and ties" in s
              and "3 players only a unique" in " ".join(s.split()))
    term.send(b"\x1b")
    # (The table is redrawn in pieces too: wait until its hints are back on the last row.)
    term.steady(lambda s: "Your cards" in s and "Keys (full screen)" not in s
                and s.splitlines()[-1].rstrip().endswith("q leave"))
    clean_frame(term)
    assert b"\x07" not in term.raw  # --no-bell


def test_an_illegal_key_says_why_in_full(terminal: Callable[..., Terminal],
                                         tmp_path: Path) -> None:
    """At 120 columns the reason used to be cut to "illegal '"; at 80 the hints lost "? help"
    and "q leave"."""
    for columns, lines in SIZES:
        term = terminal(["play", "--players", "3", "--data-dir", str(tmp_path / str(columns)),
                         "--timeouts", "60,60,60,40"], columns, lines)
        play_rooms(term, 1)  # plays the 5
        term.wait(lambda s: "YOUR MOVE" in s and where(s) == (1, 2))
        term.send(b"5")
        screen = term.wait(lambda s: "illegal 'play 5': you already played your 5 in this "
                           "level" in " ".join(s.split()) and "? help" in s)
        rows = term.rows()
        assert "? help" in screen and rows[-1].rstrip().endswith("q leave"), screen
        term.close()


@pytest.mark.mdns
def test_leaving_a_lan_match_says_so_in_the_terminal(terminal: Callable[..., Terminal],
                                                     tmp_path: Path) -> None:
    """The screen is closed before the last words are written: they reach the terminal, not
    the screen's log (which captures console writes while it runs)."""
    term = terminal(["host", "--players", "3", "--bots", "2", "--interface", "127.0.0.1",
                     "--yes", "--data-dir", str(tmp_path)])
    term.steady("YOUR MOVE")
    term.send(b"q")
    screen = term.steady("l leave for good")  # (at a LAN table: for good, or step away)
    assert "s step away" in screen and "Leave? l: leave for good" in screen, screen
    term.send(b"y")  # (not an answer here: it stays)
    term.steady("YOUR MOVE")
    term.send(b"q")
    term.steady("l leave for good")
    term.send(b"l")
    # The seat is out; the screen stays, read-only, to take the rest of the match (issue 48)
    # until its end, or until q.
    term.steady("You are out of this match")
    term.send(b"q")
    assert term.finished() == 0
    after = bytes(term.raw).rsplit(b"\x1b[?1049l", 1)[-1]  # once the full screen is gone
    assert b"You left; your copy of the match stops where it was" in after, bytes(
        term.raw[-500:])
    path = next((tmp_path / "matches").glob("*.crawl"))
    leave = [m for m in read_transcript(path.read_bytes()).feeds[0].messages
             if m.kind is Kind.LEAVE]
    assert len(leave) == 1, "the LEAVE is in the host's own file"
