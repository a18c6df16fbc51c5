"""Shared helpers for the Dungeon Raiders engine tests.

Everything here reads states through the public API only: the documented JSON position
(``to_position``), ``waiting``, ``view`` and the outcome.  No private attribute is touched.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.core import GameState, Over, Simultaneous, Turn
from engine.raiders import RaidersState, from_position, new_game, parse_action
from engine.raiders.bots import RandomBot
from engine.sim import Dealer, GameRun, play_out

ITEM_NAMES = ("torch", "crystal", "key", "sword")
POWER = ("1", "2", "3", "4", "5")


# ---------------------------------------------------------------------- reading a state


def position(state: GameState[Any]) -> dict[str, Any]:
    data = state.to_position()
    assert isinstance(data, dict)
    return data


def seats(state: GameState[Any]) -> list[dict[str, Any]]:
    return list(position(state)["seats"])


def coins(state: GameState[Any]) -> list[int]:
    return [s["coins"] for s in seats(state)]


def wounds(state: GameState[Any]) -> list[int]:
    return [s["wounds"] for s in seats(state)]


def items(state: GameState[Any], seat: int) -> dict[str, int]:
    return dict(seats(state)[seat]["items"])


def used(state: GameState[Any]) -> list[list[int]]:
    return [list(s["used"]) for s in seats(state)]


def eliminated(state: GameState[Any]) -> list[bool]:
    return [s["eliminated"] for s in seats(state)]


def supply(state: GameState[Any]) -> dict[str, int]:
    return dict(position(state)["supply"])


def last(state: GameState[Any]) -> dict[str, Any]:
    data = position(state)["last"]
    assert data is not None, "no room has been resolved yet"
    return dict(data)


def outcome(state: GameState[Any]) -> Any:
    w = state.waiting
    assert isinstance(w, Over), f"the game is not over: waiting {w}"
    return w.outcome


def statuses(state: GameState[Any]) -> list[str]:
    return [st.status for st in sorted(outcome(state).standings, key=lambda st: st.seat)]


# ---------------------------------------------------------------------- acting


def play_joint(state: RaidersState, cards: Mapping[int, str]) -> RaidersState:
    """Apply a simultaneous step: ``{seat: notation}``."""
    return state.apply_joint({s: parse_action(text) for s, text in cards.items()})


def play(state: RaidersState, seat: int, text: str) -> RaidersState:
    """One seat's decision, parsed with the checked notation."""
    return state.apply(seat, state.parse_action(seat, text))


def play_turns(state: RaidersState, turns: list[tuple[int, str]]) -> RaidersState:
    """Tactical: each (seat, notation) in order, asserting that it is that seat's turn."""
    for seat, text in turns:
        w = state.waiting
        assert isinstance(w, Turn), f"expected a turn, waiting {w}"
        assert w.seat == seat, f"expected seat {seat}'s turn, it is seat {w.seat}'s"
        state = play(state, seat, text)
    return state


def pending_seats(state: GameState[Any]) -> frozenset[int]:
    w = state.waiting
    if isinstance(w, Simultaneous | Turn):
        return w.pending
    return frozenset()


# ---------------------------------------------------------------------- random games


def dealer_for(seed: int | str) -> Dealer:
    return Dealer(f"tests/{seed}".encode())


def random_game(
    seed: int | str,
    players: int,
    variant: str,
    *,
    on_state: Callable[[GameState[Any]], None] | None = None,
    record: bool = True,
) -> GameRun:
    """A complete game of RandomBots, fully determined by (seed, players, variant)."""
    state = new_game(players, variant)
    return play_out(state, [RandomBot() for _ in range(players)], dealer_for(seed),
                    on_state=on_state, record=record)


def load(data: Mapping[str, Any]) -> RaidersState:
    return from_position(dict(data))
