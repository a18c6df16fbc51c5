"""Dungeons of Kards full screen (cli/games/kards/screen.py): the compact map with the
characters' column, the cell under the cursor in words; golden screens of seeded games (4 seats
on the 7x7 map, 8 on the 9x9), every legal move reachable with the cursor and Tab, every figure
on its cell; and a 2-seat arena against a bot over loopback peers played with the keys on a
pseudo-terminal, then verified.

Regenerate the golden files after an intended change of what is shown::

    CRYPTCRAWL_UPDATE_GOLDEN=1 python -m pytest -q tests/cli/games/kards/test_screen.py
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cli.games import make_ui
from cli.games.kards import render
from cli.inputs import BoardCursor
from cli.plugin import Frame, Seating
from cli.text import seat_letter, text_of
from engine.games import get_game
from engine.sim import Dealer, play_out
from tests.cli.games.cursor import NoLive, assert_verifies, reach, selected, xy_cell
from tests.cli.games.golden import check_golden
from tests.cli.terminal import Terminal, terminal

__all__ = ["terminal"]

GOLDEN = Path(__file__).parent / "golden"


def _deciding(players: int, seed: bytes) -> list[Any]:
    """The states of a seeded random game where one seat decides."""
    spec = get_game("kards")
    states: list[Any] = []
    play_out(spec.new(players=players), [spec.bots["random"]() for _ in range(players)],
             Dealer(seed), on_state=states.append)
    return [s for s in states if getattr(s.waiting, "seat", None) is not None]


def _ui(state: Any, players: int) -> tuple[Any, int]:
    seat = state.waiting.seat
    labels = tuple("you" if s == seat else f"Bot {s}" for s in range(players))
    return make_ui("kards", players, {}, Seating(labels, seat, "me")), seat


def _screen(state: Any, players: int, keys: list[str]) -> tuple[str, BoardCursor]:
    ui, seat = _ui(state, players)
    model = ui.inputs(state, seat)
    assert isinstance(model, BoardCursor)
    for key in keys:
        assert model.press(key) is not None, key
    view = state.view(seat)
    lines = [*ui.title(view, 80), *ui.board(view, Frame(80, NoLive(), model))]
    return "\n".join(text_of(line).rstrip() for line in lines) + "\n", model


@pytest.mark.parametrize(("players", "at", "keys"), [
    (4, 0, ["tab"]), (4, 40, ["space", "tab"]), (8, 60, ["up", "space", "tab"])])
def test_golden_screens(players: int, at: int, keys: list[str]) -> None:
    states = _deciding(players, b"kards-map")
    text, _ = _screen(states[min(at, len(states) - 1)], players, keys)
    check_golden(GOLDEN, f"screen-{players}p-{at}-{'-'.join(keys)}.txt", text)
    assert all(len(line) <= 80 and line.isascii() for line in text.splitlines())


@pytest.mark.parametrize("players", [2, 4, 8])
def test_every_legal_move_is_reached_and_every_figure_is_on_its_cell(players: int) -> None:
    states = _deciding(players, b"kards-screen")
    assert len(states) > 20
    for state in states[::7]:
        ui, seat = _ui(state, players)
        moves = ui.choices(state, seat)
        for move in moves:
            model = ui.inputs(state, seat)
            assert isinstance(model, BoardCursor)
            assert reach(model, move, xy_cell), move
        view = state.view(seat)
        text, model = _screen(state, players, [])
        rows = [r for r in text.splitlines() if re.match(r"^ ?[0-9] [|= ]", r)]
        assert len(rows) == view.size
        width = 8 if view.size <= 7 else 7
        for c in view.characters:
            if c.at is not None:
                x, y = c.at
                cell = rows[y][3 + x * width + 1: 3 + (x + 1) * width]
                assert seat_letter(c.seat) in cell or "+" in cell, (c, rows[y])
        for m in view.monsters:
            x, y = m.at
            cell = rows[y][3 + x * width + 1: 3 + (x + 1) * width]
            assert render.monster_code(m.card) in cell or "+" in cell, (m, rows[y])


# --------------------------------------------------------------------------- a whole match


def test_a_two_seat_arena_against_a_bot_played_with_the_keys(
        terminal: Callable[..., Terminal], tmp_path: Path) -> None:
    out = tmp_path / "kards.crawl"
    term = terminal(["play", "--game", "kards", "--players", "2", "--bots", "1", "--option",
                     "round_cap=3", "--data-dir", str(tmp_path / "data"), "--out", str(out),
                     "--timeouts", "120,120,120,60"], 80, 24)
    deadline = time.monotonic() + 300
    decisions = 0
    while time.monotonic() < deadline:
        text = term.steady(lambda s: "The match is over" in s or (
            "YOUR MOVE" in s and not selected(s) and "Locked in" not in s))
        if "The match is over" in text:
            break
        # (The cell under the cursor in words; at the pick, every character's numbers.)
        assert "Cursor " in text or "Warrior: life 13 AP 2 ATK 11" in text, text
        # Every other decision: Space on the cell under the cursor (the character deciding)
        # first, then the first move Tab gives; else Tab alone.
        if decisions % 2:
            def took(s: str) -> bool:
                return "Choosing:" in s or selected(s) or "No move of yours" in s
            term.send(b" ")
            # (Once in about twenty such matches beside a busy machine, a Space pressed as the
            # decision's screen had just been drawn showed nothing; the cause is not found.
            # Pressed again, it must take.)
            try:
                term.steady(took, timeout=10)
            except pytest.fail.Exception:
                term.send(b" ")
                term.steady(took)
        term.send(b"\t")
        term.steady(selected)
        term.send(b"\r")
        decisions += 1
        term.wait(lambda s: not selected(s))
    text = term.steady("The match is over")
    assert "Final standings" in text and decisions >= 3, (decisions, text)
    term.send(b"q")
    assert term.finished() == 0, term.text()
    assert_verifies(out)


def test_a_tall_window_shows_the_map_with_every_wall() -> None:
    state = _deciding(4, b"kards-map")[40]
    ui, seat = _ui(state, 4)
    model = ui.inputs(state, seat)
    assert isinstance(model, BoardCursor)
    view = state.view(seat)
    small = [text_of(line) for line in ui.board(view, Frame(120, NoLive(), model, height=30))]
    tall = [text_of(line) for line in ui.board(view, Frame(120, NoLive(), model, height=40))]
    whole = render.render_map(view)
    assert len(small) < len(whole) and len(tall) > len(whole)
    assert [line[:len(row)].rstrip() for line, row in zip(tall, whole, strict=False)] == whole
    assert any(line.startswith("Cursor ") for line in tall)
    eight = _deciding(8, b"kards-map")[60]  # (the 9x9 map needs more than 40 rows)
    ui8, seat8 = _ui(eight, 8)
    rows = ui8.board(eight.view(seat8), Frame(120, NoLive(), ui8.inputs(eight, seat8),
                                              height=40))
    assert len(rows) < len(render.render_map(eight.view(seat8)))
