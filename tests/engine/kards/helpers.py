"""Shared helpers for the Dungeons of Kards engine tests: read states through the documented
position and the public API only."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.core import Chance, GameState, Over, Turn
from engine.games import get_game
from engine.kards import KardsState, from_position
from engine.kards.bots import RandomBot
from engine.sim import Dealer, GameRun, play_out

MODES: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 4, "team_size": 2},
    {"players": 6, "team_size": 3},
    {"players": 8},
    {"players": 2, "mode": "coop"},
    {"players": 4, "mode": "coop", "copies": 2},
    {"players": 1},
    {"players": 1, "solo_help": "random"},
    {"players": 1, "solo_help": "programmed", "copies": 2},
    {"players": 2, "counter_budget": True, "events": False, "abilities": False},
]


def mode_id(opts: Mapping[str, Any]) -> str:
    return "-".join(f"{k}={v}" for k, v in opts.items())


def pos(state: GameState[Any]) -> dict[str, Any]:
    data = state.to_position()
    assert isinstance(data, dict)
    return data


def char(state: GameState[Any], card: str) -> dict[str, Any]:
    for c in pos(state)["characters"]:
        if c["card"] == card:
            return dict(c)
    raise AssertionError(f"no character {card}")


def monster(state: GameState[Any], card: str) -> dict[str, Any] | None:
    for m in pos(state)["monsters"]:
        if m["card"] == card:
            return dict(m)
    return None


def life(state: GameState[Any], card: str) -> int:
    found = monster(state, card)
    if found is not None:
        return int(found["life"])
    return int(char(state, card)["life"])


def act(state: KardsState, text: str) -> KardsState:
    """The waiting seat's decision, in notation, through the checked API."""
    w = state.waiting
    assert isinstance(w, Turn), f"expected a decision, waiting {w}"
    return state.apply(w.seat, state.parse_action(w.seat, text))


def roll(state: KardsState, outcome: str, kind: str = "") -> KardsState:
    """Feed the pending chance event ``outcome`` (checking its id ends with ``kind``)."""
    w = state.waiting
    assert isinstance(w, Chance), f"expected a chance event, waiting {w}"
    assert w.event.id.endswith(kind), f"expected a {kind} event, got {w.event.id}"
    return state.apply_chance(w.event.id, outcome)


def waiting_event(state: GameState[Any]) -> str:
    w = state.waiting
    assert isinstance(w, Chance), f"expected a chance event, waiting {w}"
    return w.event.id


def legal(state: KardsState) -> list[str]:
    w = state.waiting
    assert isinstance(w, Turn), f"expected a decision, waiting {w}"
    return [state.format_action(a) for a in state.legal_actions(w.seat)]


def load(data: Mapping[str, Any]) -> KardsState:
    return from_position(dict(data))


def outcome(state: GameState[Any]) -> Any:
    w = state.waiting
    assert isinstance(w, Over), f"the game is not over: waiting {w}"
    return w.outcome


def random_game(seed: str, options: Mapping[str, Any], *,
                on_state: Callable[[GameState[Any]], None] | None = None,
                record: bool = True) -> GameRun:
    state = get_game("kards").new(**options)
    return play_out(state, [RandomBot() for _ in range(int(options["players"]))],
                    Dealer(f"tests/kards/{seed}".encode()), on_state=on_state, record=record)
