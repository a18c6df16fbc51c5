"""Helpers for the Dungeon Twister tests: positions on the example layout L (rules §12), and
reading states through the public API (the JSON position, ``waiting``, views)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.core import GameState, Over
from engine.sim import Dealer, GameRun, play_out
from engine.twister import TwisterState, from_position, new_game
from engine.twister.bots import RandomBot

# Example layout L: every room face up at orientation 0 (rules §12).
LAYOUT_L = ("3B", "1A", "1B", "3A", "4A", "2A", "4B", "2B")


def layout_l(**orientations: int) -> list[dict[str, Any]]:
    return [{"room": room, "orientation": orientations.get(room, 0)} for room in LAYOUT_L]


def position(tokens: Mapping[str, Mapping[str, Any]], *, active: int = 0, ap: int = 3,
             rooms: list[Any] | None = None, **extra: Any) -> TwisterState:
    """A state in the action phase of turn 3 (the active seat has played an action card
    worth ``ap``) on layout L, with only the listed tokens on the board."""
    data: dict[str, Any] = {
        "game": "twister", "phase": "action", "turn": 3, "active": active, "ap": ap,
        "acts": 1, "highest": 5, "rooms": rooms if rooms is not None else layout_l(),
        "tokens": {name: dict(entry) for name, entry in tokens.items()},
    }
    data.update(extra)
    return from_position(data)


def pos(state: GameState[Any]) -> dict[str, Any]:
    data = state.to_position()
    assert isinstance(data, dict)
    return data


def at(state: GameState[Any], token: str) -> Any:
    """Where a token is: [x, y], or 'eliminated' / 'escaped' / 'removed' / None (face down)."""
    entry = pos(state)["tokens"].get(token)
    return None if entry is None else entry["at"]


def token(state: GameState[Any], name: str) -> dict[str, Any]:
    return dict(pos(state)["tokens"][name])


def vp(state: GameState[Any]) -> list[int]:
    return [s["vp"] for s in pos(state)["seats"]]


def act(state: TwisterState, seat: int, text: str) -> TwisterState:
    return state.apply(seat, state.parse_action(seat, text))


def fight(state: TwisterState, west: int, east: int) -> TwisterState:
    """Both seats' combat cards, revealed together."""
    return state.apply_joint({0: state.parse_action(0, f"combat {west}"),
                              1: state.parse_action(1, f"combat {east}")})


def outcome(state: GameState[Any]) -> Any:
    w = state.waiting
    assert isinstance(w, Over), f"the game is not over: waiting {w}"
    return w.outcome


def random_game(seed: int | str, *, turn_cap: int = 60,
                on_state: Callable[[GameState[Any]], None] | None = None) -> GameRun:
    return play_out(new_game(turn_cap=turn_cap), [RandomBot(), RandomBot()],
                    Dealer(f"tests/twister/{seed}".encode()), on_state=on_state)
