"""Dungeon Twister full screen (cli/games/twister/screen.py): the map beside the room under the
cursor, golden screens of seeded games, every legal action reachable with the cursor and Tab,
the preview of a move, and a whole match against a bot over loopback peers played with the keys
on a pseudo-terminal, then verified.

Regenerate the golden files after an intended change of what is shown::

    CRYPTCRAWL_UPDATE_GOLDEN=1 python -m pytest -q tests/cli/games/twister/test_screen.py
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cli.games import make_ui
from cli.games.twister import render, screen
from cli.inputs import BoardCursor, KeyChoice, PlanBuilder
from cli.plugin import Frame, Seating
from cli.text import text_of
from engine.games import get_game
from engine.sim import Dealer, play_out
from engine.twister.data import square_name
from tests.cli.games.cursor import NoLive, assert_verifies, reach, selected, xy_cell
from tests.cli.games.golden import check_golden
from tests.cli.terminal import Terminal, terminal

__all__ = ["terminal"]

GOLDEN = Path(__file__).parent / "golden"


def _states(seed: bytes) -> dict[str, Any]:
    spec = get_game("twister")
    seen: dict[str, Any] = {}
    play_out(spec.new(players=2), [spec.bots["random"]() for _ in range(2)], Dealer(seed),
             on_state=lambda s: seen.setdefault(f"{s.phase}-{s.turn}", s))
    return seen


def _screen(state: Any, keys: list[str]) -> tuple[str, Any]:
    seat = getattr(state.waiting, "seat", 0)
    ui = make_ui("twister", 2, {}, Seating(("you", "Bob") if seat == 0 else ("Ann", "you"),
                                            seat, "me"))
    model = ui.inputs(state, seat)
    for key in keys:
        assert model.press(key) is not None, key
    view = state.view(seat)
    lines = [*ui.title(view, 80), *ui.board(view, Frame(80, NoLive(), model))]
    return "\n".join(text_of(line).rstrip() for line in lines) + "\n", model


@pytest.mark.parametrize(("phase", "keys"), [
    ("place-0", ["space", "tab"]),
    ("action-9", ["space", "tab"]),
    ("action-9", ["right", "down", "tab", "tab", "tab"]),
])
def test_golden_screens(phase: str, keys: list[str]) -> None:
    text, _ = _screen(_states(b"twister-board")[phase], keys)
    check_golden(GOLDEN, f"screen-{phase}-{'-'.join(keys)}.txt", text)
    assert all(len(line) <= 80 and line.isascii() for line in text.splitlines())
    assert len(text.splitlines()) <= 14  # (title, the map's 11 rows, the cursor's square)


def test_the_inputs_of_each_step() -> None:
    states = _states(b"twister-board")
    assert isinstance(_screen(states["team-0"], [])[1], PlanBuilder)
    text, model = _screen(states["card-2"], [])
    assert isinstance(model, KeyChoice)
    assert all(move.startswith("card ") for move in model.choices.values())
    text, model = _screen(states["action-9"], [])
    assert isinstance(model, BoardCursor)
    assert "Cursor " in text


@pytest.mark.parametrize("phase", ["place-0", "action-5", "action-9", "action-15"])
def test_every_legal_move_is_reached_with_the_cursor_and_tab(phase: str) -> None:
    state = _states(b"twister-board")[phase]
    seat = state.waiting.seat
    ui = make_ui("twister", 2, {}, Seating(("A", "B"), seat))
    moves = ui.choices(state, seat)
    assert moves
    for move in moves:
        model = ui.inputs(state, seat)
        assert isinstance(model, BoardCursor)
        assert reach(model, move, xy_cell), move


def test_a_pick_no_move_makes_is_refused_and_the_preview_shows_the_move() -> None:
    state = _states(b"twister-board")["action-9"]
    _, model = _screen(state, [])
    assert isinstance(model, BoardCursor)
    empty = next(name for name in (square_name(sq) for sq in range(220))
                 if not any(name in cells[0] for cells in
                            (t for t in model.moves.values() if t)))
    x, y = (int(v) for v in empty.split(","))
    model.at = (y, x)
    assert "No move of yours starts there" in (model.press("space") or "")
    model.at = (0, 0)
    moving = next(m for m, t in model.moves.items() if m.startswith("move ") and len(t) >= 2
                  and t[0] != t[-1])
    assert reach(model, moving, xy_cell)
    seat = state.waiting.seat
    after = screen.preview(state, seat, moving)
    assert after is not None
    token = moving.split()[1]
    end = next(w for w in reversed(moving.split()) if re.match(r"^[0-9]+,[0-9]+$", w))
    assert square_name(screen.token_squares(after)[token]) == end


# --------------------------------------------------------------------------- a whole match


def _status(text: str) -> str:
    rows = [row for row in text.splitlines() if row.startswith(" YOUR MOVE")]
    return rows[-1] if rows else ""


def _type(term: Terminal) -> None:
    """A move typed in the notation (``:``): a wrong one is refused with the engine's reason
    and kept for correcting; ``end`` is then locked in."""
    term.send(b":")
    term.steady("Type your move in the game's notation")
    term.send(b"quit now")  # (q and the rest go into the text)
    term.steady("Choosing: quit now_")
    term.send(b"\r")
    text = term.steady("unknown action 'quit now'")
    assert "Leave?" not in text, text
    term.send(b"\x7f" * 8 + b"end")
    term.steady("Choosing: end_")
    term.send(b"\r")


def _answer(term: Terminal, note: str, turn: int) -> None:
    """One decision by keys, as a person makes it (see the module)."""
    if "Space picks a token" in note and turn < 0:
        _type(term)
        return
    if "your team" in note:
        keys = [b"1", b"2", b"3", b"4"]
    elif "card by its digit" in note:
        keys = [bytes([c]) for c in b"6543210"]  # (the last legal digit stays chosen)
    elif "Space picks a token" in note and turn % 2:
        keys = [b" ", b"\t"]  # a move of the token under the cursor
    else:
        keys = [b"\t"]  # the first move left
    for key in keys:
        term.send(key)
    term.steady(selected)
    term.send(b"\r")


def test_a_whole_match_against_a_bot_played_with_the_keys(
        terminal: Callable[..., Terminal], tmp_path: Path) -> None:
    out = tmp_path / "twister.crawl"
    term = terminal(["play", "--game", "twister", "--bots", "1", "--option", "turn_cap=4",
                     "--data-dir", str(tmp_path / "data"), "--out", str(out),
                     "--timeouts", "120,120,120,60"], 80, 24)
    deadline = time.monotonic() + 300
    decisions = 0
    typed_once = False
    seen: set[str] = set()
    while time.monotonic() < deadline:
        text = term.steady(lambda s: "The match is over" in s or (
            "YOUR MOVE" in s and not selected(s) and "Locked in" not in s))
        if "The match is over" in text:
            break
        note = _status(text)
        seen.add(note.split(":")[1].split("(")[0].strip() if ":" in note else note)
        typed = "Space picks a token" in note and not typed_once
        typed_once = typed_once or typed
        _answer(term, note, -1 if typed else decisions)
        decisions += 1
        term.wait(lambda s: not selected(s))
    text = term.steady("The match is over")
    assert "Final standings" in text
    assert decisions >= 12 and typed_once, decisions  # (team, 10 placements, cards and actions)
    assert any("your team" in s for s in seen) and any("Space picks" in s for s in seen), seen
    term.send(b"q")
    assert term.finished() == 0, term.text()
    assert_verifies(out)


def test_a_tall_window_shows_the_whole_board_with_its_walls() -> None:
    state = _states(b"twister-board")["action-9"]
    seat = state.waiting.seat
    ui = make_ui("twister", 2, {}, Seating(("you", "Bob"), seat, "me"))
    model = ui.inputs(state, seat)
    assert isinstance(model, BoardCursor)
    model.press("space")
    model.press("tab")
    view = state.view(seat)
    small = [text_of(line) for line in ui.board(view, Frame(120, NoLive(), model, height=30))]
    tall = [text_of(line) for line in ui.board(view, Frame(120, NoLive(), model, height=40))]
    assert len(small) <= 13 and len(tall) >= 23  # (map and room; the whole board)
    whole = render.render_board(
        screen.preview(state, seat, model.draft()),
        render.hidden_starts(state, seat, view.mine))
    assert [line[:len(row)] for line, row in zip(tall, whole, strict=False)] == whole
    assert any(line.startswith("Cursor ") for line in tall) and "(after)" in "\n".join(tall)
    assert all(len(line) <= 100 for line in tall)
