"""Paper Dungeons' table as text (cli/games/paper/render.py): golden sheets of a seeded game,
80 columns and ASCII, the grid drawn from the dungeon card, and a seat's dealt cards shown to
that seat only (never to another seat or a spectator).

Regenerate the golden files after an intended change of what is shown::

    CRYPTCRAWL_UPDATE_GOLDEN=1 python -m pytest -q tests/cli/games/paper/test_sheet.py
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cli.games import make_ui
from cli.games.paper import render
from cli.plugin import Seating
from engine.games import get_game
from engine.paper.data import ROOM_NAMES
from engine.paper.sheet import BOARDS
from engine.sim import Dealer, play_out
from tests.cli.games.golden import check_golden

GOLDEN = Path(__file__).parent / "golden"


def _states(seed: bytes, players: int = 3) -> dict[str, Any]:
    """The first state of each step of a seeded random game, and the last."""
    spec = get_game("paper")
    seen: dict[str, Any] = {}

    def note(s: Any) -> None:
        seen.setdefault(str(getattr(s.waiting, "step", s.phase)), s)

    run = play_out(spec.new(players=players), [spec.bots["random"]() for _ in range(players)],
                   Dealer(seed), on_state=note)
    seen["over"] = run.state
    return seen


@pytest.mark.parametrize("step", ["setup", "R4.plan", "over"])
def test_golden_sheets(step: str) -> None:
    state = _states(b"paper-sheet")[step]
    ui = make_ui("paper", 3, {}, Seating(("you", "Bot 1", "Bot 2"), 0, "me"))
    text = "\n".join(ui.table(state.view(0))) + "\n"
    check_golden(GOLDEN, f"{step.replace('.', '-')}.txt", text)
    assert all(len(line) <= 79 and line.isascii() for line in text.splitlines())


def test_dealt_cards_reach_their_owner_only() -> None:
    """At every step, a seat's table lists its dealt cards while they are secret, and no other
    seat's table (nor a spectator's) names a card dealt to someone else and not yet shown."""
    shown_to_owner = 0
    for state in _states(b"paper-sheet/leaks", 4).values():
        for viewer in (0, 1, 2, 3, None):
            view = state.spectator_view() if viewer is None else state.view(viewer)
            text = "\n".join(render.render_table(view, ("A", "B", "C", "D")))
            for owner in range(4):
                own = state.view(owner)
                secret = [c for c in (*own.powers, *own.objectives) if c]
                public = {s.sheet.power for s in own.seats} | {s.objective for s in own.seats}
                for card in secret:
                    if card in public:
                        continue
                    if viewer == owner:
                        assert card in text
                        shown_to_owner += 1
                    else:
                        assert card not in text.replace(",", " ").split(), (viewer, owner, card)
        assert "Dealt to you" not in "\n".join(
            render.render_table(state.spectator_view(), ("A", "B", "C", "D")))
    assert shown_to_owner


def test_the_grid_draws_the_dungeon_card() -> None:
    """Walls of the card are drawn between the rooms they separate, and the lairs carry their
    season's digit."""
    board = BOARDS["B"]
    grid = render.render_grid(None, board)
    row_line = {row: grid[2 + 2 * (7 - row)] for row in range(1, 8)}
    # C2|D2 is a wall of card B: between columns C and D of row 2.
    line = row_line[2]
    sep = 3 + 1 + 3 * (render.CELL + 1) - 1
    assert line[sep] == "|", line
    for k, room in enumerate(board.lairs):
        name = ROOM_NAMES[room]
        column = "ABCDEF".index(name[0])
        cell = row_line[int(name[1])][4 + column * (render.CELL + 1):][:render.CELL]
        assert cell[1] == str(k + 1), (name, cell)


def test_sheet_b_shows_another_seats_sheet() -> None:
    """Line mode's ``sheet B``: another seat's grid and numbers; an unknown seat is one line;
    anything else is left to be read as a move."""
    state = _states(b"paper-sheet")["R4.plan"]
    ui = make_ui("paper", 3, {}, Seating(("you", "Bot 1", "Bot 2"), 0, "me"))
    view = state.view(0)
    shown = ui.command(view, "sheet B")
    assert shown is not None and shown[0].startswith("Bot 1: ")
    assert any(line.startswith(" 7 |") for line in shown)
    assert ui.command(view, "SHEET bot 2") is not None
    other = view.seats[1].sheet
    assert render.render_grid(other, BOARDS[view.dungeon])[3] in shown
    missing = ui.command(view, "sheet Z")
    assert missing is not None and len(missing) == 1 and "A you, B Bot 1, C Bot 2" in missing[0]
    assert ui.command(view, "4 move C2 C3") is None
    assert "sheet B" in ui.line_help
