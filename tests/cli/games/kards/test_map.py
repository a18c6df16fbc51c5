"""Dungeons of Kards' table as text (cli/games/kards/render.py): golden tables of seeded games
(a 4-seat arena on the 7x7 map, 8 seats on the 9x9), 80 columns and ASCII, every figure on
its cell, and a guardian's peek shown to the seat that looked only.

Regenerate the golden files after an intended change of what is shown::

    CRYPTCRAWL_UPDATE_GOLDEN=1 python -m pytest -q tests/cli/games/kards/test_map.py
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cli.charset import to_ascii
from cli.games import make_ui
from cli.games.kards import render
from cli.plugin import Seating
from cli.text import seat_letter
from engine.games import get_game
from engine.sim import Dealer, play_out
from tests.cli.games.golden import check_golden

GOLDEN = Path(__file__).parent / "golden"


def _run(seed: bytes, players: int) -> list[Any]:
    spec = get_game("kards")
    states: list[Any] = []
    play_out(spec.new(players=players), [spec.bots["random"]() for _ in range(players)],
             Dealer(seed), on_state=states.append)
    return states


@pytest.mark.parametrize(("players", "at"), [(4, 0), (4, 120), (8, 200)])
def test_golden_tables(players: int, at: int) -> None:
    states = _run(b"kards-map", players)
    state = states[min(at, len(states) - 1)]
    labels = ("you", *(f"Bot {i}" for i in range(1, players)))
    ui = make_ui("kards", players, {}, Seating(labels, 0, "me"))
    text = "\n".join(ui.table(state.view(0))) + "\n"
    check_golden(GOLDEN, f"{players}p-{at}.txt", text)
    assert all(len(line) <= 79 for line in text.splitlines())
    # (the engine's log may hold ≤ or →: an ASCII terminal gets a likeness of each)
    assert all("?" not in to_ascii(line) for line in text.splitlines() if "?" not in line)


def test_every_figure_stands_on_its_cell() -> None:
    for state in _run(b"kards-map/figures", 4)[::25]:
        view = state.view(0)
        board = render.render_map(view)
        for c in view.characters:
            if c.at is None:
                continue
            x, y = c.at
            row = board[3 + 3 * y]
            cell = row[4 + 8 * x:4 + 8 * x + render.CELL]
            assert seat_letter(c.seat) in cell.split() or "+" in cell, (c.card, c.at, cell)
        for m in view.monsters:
            x, y = m.at
            row = board[3 + 3 * y]
            cell = row[4 + 8 * x:4 + 8 * x + render.CELL]
            assert render.monster_code(m.card) in cell.split() or "+" in cell, (m.card, cell)


def test_a_peek_is_shown_to_the_seat_that_looked_only() -> None:
    seen = 0
    for seed in (b"kards-peek/1", b"kards-peek/2", b"kards-peek/3"):
        for state in _run(seed, 4):
            views = [state.view(s) for s in range(4)]
            for looker, view in enumerate(views):
                for _event, card in view.peeked:
                    seen += 1
                    for other in range(4):
                        text = "\n".join(render.render_table(views[other], "ABCD"))
                        line = [x for x in text.splitlines() if "guardian showed" in x]
                        assert bool(line) == (other == looker) or views[other].peeked
                    spectator = "\n".join(render.render_table(state.spectator_view(), "ABCD"))
                    assert "guardian showed" not in spectator
                    assert card  # (the card is named in the looker's line)
    assert seen, "these seeded games hold guardian peeks"
