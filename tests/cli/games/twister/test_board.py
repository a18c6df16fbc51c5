"""Dungeon Twister's table as text (cli/games/twister/render.py): golden screens of seeded
games, 80 columns and ASCII, and no face-down token's identity shown to anyone but its owner.

Regenerate the golden files after an intended change of what is shown::

    CRYPTCRAWL_UPDATE_GOLDEN=1 python -m pytest -q tests/cli/games/twister/test_board.py
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cli.games import make_ui
from cli.games.twister import render
from cli.plugin import Seating
from engine.games import get_game
from engine.sim import Dealer, play_out
from engine.twister.data import KINDS
from tests.cli.games.golden import check_golden

GOLDEN = Path(__file__).parent / "golden"


def _states(seed: bytes) -> dict[str, Any]:
    """The first state of each phase of a seeded random game, and the last."""
    spec = get_game("twister")
    seen: dict[str, Any] = {}
    run = play_out(spec.new(players=2), [spec.bots["random"]() for _ in range(2)],
                   Dealer(seed), on_state=lambda s: seen.setdefault(
                       f"{s.phase}-{s.turn}" if s.phase == "action" else s.phase, s))
    seen["over"] = run.state
    return seen


@pytest.mark.parametrize("phase", ["place", "action-9", "over"])
def test_golden_tables(phase: str) -> None:
    state = _states(b"twister-board")[phase]
    ui = make_ui("twister", 2, {}, Seating(("you", "Bob"), 0, "me"))
    text = "\n".join(ui.table(state.view(0))) + "\n"
    check_golden(GOLDEN, f"{phase}.txt", text)
    assert all(len(line) <= 79 and line.isascii() for line in text.splitlines())


def test_face_down_tokens_only_their_owner_sees() -> None:
    """At every phase, a seat's table names its own face-down tokens (on the board and in its
    list) and shows the other side's as ``??``; a spectator's table names none."""
    owned = 0
    for state in _states(b"twister-board/leaks").values():
        for seat in (0, 1, None):
            view = state.spectator_view() if seat is None else state.view(seat)
            lines = render.render_table(view, ("A", "B"))
            text = "\n".join(lines)
            board = render.render_board(view.state)
            mine = dict(state.knowledge[seat].sealed) if seat is not None else {}
            unopened = {k: v for k, v in mine.items() if k not in state.opened(seat or 0)}
            assert ("only you know" in text) == bool(unopened and seat is not None)
            owned += bool(unopened)
            for side in (0, 1):
                for y in (1, 3, 6, 8):
                    slot = f"start.{side}.{y}"
                    if not state.teamed or slot in state.opened(side):
                        continue
                    x = 0 if side == 0 else 21
                    row = lines[lines.index(board[0]) + 2 + 2 * y]
                    cell = row[4 + 3 * x:6 + 3 * x]
                    if side == seat:
                        assert cell[1] == "?" and cell[0] != "?", cell
                    else:
                        assert cell == "??", (seat, side, cell)
    assert owned


def test_a_square_shows_who_stands_there() -> None:
    state = _states(b"twister-board")["over"]
    occupancy = state.occupancy()
    board = render.render_board(state)
    for sq, tokens in occupancy.items():
        x, y = sq % 22, sq // 22
        row = board[2 + 2 * y]
        cell = row[4 + 3 * x:6 + 3 * x]
        standing = [t for t in tokens if state.tokens[t].carrier < 0]
        first = standing[0] if standing else tokens[0]
        kind = KINDS[first % 14]
        letter = render.LETTER.get(kind) or render.SIGN[kind]
        assert cell[0].lower() == letter.lower() or any(
            (render.LETTER.get(KINDS[t % 14]) or "") == cell[0].lower() for t in standing), (
            sq, cell, tokens)
