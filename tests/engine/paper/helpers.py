"""Shared helpers for the Paper Dungeons engine tests: positions, plans, whole games.

States are read through the public API (positions, ``waiting``, views, outcomes) and the
engine's public functions; no private attribute is touched.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import GameState, Over
from engine.paper import PaperState, from_position, new_game
from engine.paper.actions import lenient_uses
from engine.paper.bots import RandomBot
from engine.paper.data import ROOM_NAMES
from engine.paper.position import sheet_from_json
from engine.paper.resolve import play_uses
from engine.paper.sheet import BOARDS, Sheet
from engine.sim import Dealer, GameRun, play_out

ROLL = ("warrior", "wizard", "cleric", "rogue", "warrior", "wizard")  # no skull, no clover


def position(state: GameState[Any]) -> dict[str, Any]:
    data = state.to_position()
    assert isinstance(data, dict)
    return data


def seat(state: GameState[Any], i: int) -> dict[str, Any]:
    seats: list[dict[str, Any]] = position(state)["seats"]
    return seats[i]


def at(phase: str, seats: Sequence[Mapping[str, Any]], *, dungeon: str = "A",
       round_no: int = 1, roll: Sequence[str] | None = None, missions: Sequence[str] = (),
       **extra: Any) -> PaperState:
    """A state from a short position (no missions unless given)."""
    data: dict[str, Any] = {
        "players": len(seats), "phase": phase, "dungeon": dungeon, "round": round_no,
        "seats": [dict(s) for s in seats], "missions": list(missions),
        "options": {"missions": bool(missions), **extra.pop("options", {})},
    }
    if roll is not None:
        data["roll"] = list(roll)
    data.update(extra)
    return from_position(data)


def sheet(dungeon: str = "A", **fields: Any) -> Sheet:
    return sheet_from_json(fields, "sheet", dungeon)


def play(sheet_: Sheet, text: str, roll: Sequence[str] = ROLL, dungeon: str = "A") -> Sheet:
    """Play uses written leniently as 'use; use; ...' (fragments allowed) on a sheet."""
    return play_uses(sheet_, lenient_uses(text), BOARDS[dungeon], roll)


def rooms(mask: int) -> list[str]:
    return [ROOM_NAMES[i] for i in range(42) if mask >> i & 1]


def random_game(players: int, seed: bytes, **options: Any) -> GameRun:
    return play_out(new_game(players, **options), [RandomBot() for _ in range(players)],
                    Dealer(seed))


def outcome_of(state: GameState[Any]) -> Any:
    w = state.waiting
    assert isinstance(w, Over)
    return w.outcome
