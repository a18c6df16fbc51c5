"""Dungeons of Kards taught on the screen (issue 48): each character's numbers and ability
before the pick (full screen and line mode); the lines under the map use the window's width
and are never cut; a typed move refused is followed by the moves allowed now."""

from __future__ import annotations

import io
from typing import Any

from cli.games import make_ui
from cli.netplay import NetGame, NetOptions
from cli.play import Console
from cli.plugin import Frame, Seating
from cli.text import text_of
from engine.games import get_game
from engine.sim import Dealer, play_out
from tests.cli.games.cursor import NoLive


def _states(seed: bytes = b"learn kards") -> list[Any]:
    spec = get_game("kards")
    states: list[Any] = []
    play_out(spec.new(players=3), [spec.bots["random"]() for _ in range(3)], Dealer(seed),
             on_state=states.append)
    return [s for s in states if getattr(s.waiting, "seat", None) is not None]


def _ui(seat: int) -> Any:
    return make_ui("kards", 3, {}, Seating(tuple("you" if s == seat else f"Bot {s}"
                                                 for s in range(3)), seat, "me"))


def test_the_pick_shows_each_characters_numbers_and_ability() -> None:
    state = next(s for s in _states() if s.view(s.waiting.seat).phase == "pick")
    seat = state.waiting.seat
    ui = _ui(seat)
    view = state.view(seat)
    board = " ".join(" ".join(text_of(r) for r in ui.board(view, Frame(
        80, NoLive(), ui.inputs(state, seat)))).split())
    line = " ".join(" ".join(ui.choices_lines(state, seat, view)).split())
    assert "Warrior, life 13, AP 2, ATK 11 DEF 16 DMG 3 at full life; ability Battle Fury: " \
           "+2 damage for 2 rounds; it costs 2 life" in line, line
    assert "Warrior: life 13 AP 2 ATK 11 DEF 16 DMG 3; Battle Fury: +2 DMG 2 rd (-2 life)" \
        in board, board


def test_the_lines_under_the_map_use_the_window_and_are_not_cut() -> None:
    for state in _states()[40::25]:
        seat = state.waiting.seat
        ui = _ui(seat)
        view = state.view(seat)
        model = ui.inputs(state, seat)
        for width in (80, 120):
            rows = [text_of(r) for r in ui.board(view, Frame(width, NoLive(), model,
                                                                  height=24))]
            assert all(len(r) <= width for r in rows), (width, rows)
            assert not any(r.endswith("...") for r in rows)

    # A crowded cell: every figure's whole panel under the cursor (it was cut at 3 lines).
    crowded = 0
    for state in _states(b"crowded kards"):
        seat = state.waiting.seat
        view = state.view(seat)
        cells: dict[Any, int] = {}
        for f in (*view.characters, *view.monsters):
            if f.at is not None:
                cells[tuple(f.at)] = cells.get(tuple(f.at), 0) + 1
        full = [at for at, n in cells.items() if n >= 2]
        if not full:
            continue
        ui = _ui(seat)
        model = ui.inputs(state, seat)
        model.at = (full[0][1], full[0][0])
        rows = [text_of(r) for r in ui.board(view, Frame(80, NoLive(), model))]
        text = " ".join(" ".join(rows).split())
        figures = [f for f in (*view.characters, *view.monsters)
                   if f.at is not None and tuple(f.at) == full[0]]
        assert all(f.name in text.split("Cursor ", 1)[1] for f in figures), text
        crowded += 1
        if crowded >= 3:
            break
    assert crowded


def test_a_refused_typed_move_lists_what_is_allowed_now() -> None:
    state = next(s for s in _states() if s.view(s.waiting.seat).phase == "main")
    seat = state.waiting.seat
    out = io.StringIO()
    game = NetGame(NetOptions(players=3, bots=2, game="kards"),
                   Console(io.StringIO(), out))
    game.seat_table("kards", {}, ["Ana", "Bo", "Cy"], seat)
    moves = game.plugin.choices(state, seat)
    game.console.inp = io.StringIO(f"fly away\n{moves[0]}\n")
    assert game._choose_blocking(state, seat) == moves[0]
    said = " ".join(out.getvalue().split())
    assert ("Allowed now: " + ", ".join(moves) + ".") in said or (
        f"({len(moves)} moves are allowed now.)" in said), said


def test_a_move_made_at_once_because_it_was_the_only_one_is_said() -> None:
    from cli.record import file_ui, replayed
    from protocol.mesh import MeshGame, Network
    from protocol.wire.transcript import read_transcript

    net = Network(3, MeshGame("kards", (("round_cap", 10),)), b"made at once")
    net.pump()
    t = read_transcript(net.match_file(0))
    _, story = replayed(t, file_ui(t))
    assert story is not None
    lines = " ".join(story.lines())
    assert "(Made at once, as the only move there was: P" in lines
    notes = lines.split("(Made at once, as the only move there was: ")[1:]
    assert not any(n.split(")")[1].strip(" .;").startswith(("end", "equip done"))
                   for n in notes)  # (routine moves made at once are no news)
