"""The registry of games: a name, the module that declares the game's :class:`GameSpec` as
``SPEC``.  Adding a game is one line here; a game module is imported only when asked for."""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from typing import Any, Final

from engine.core import Entry, GameSpec, GameState, UnknownGameError, apply_entry

GAMES: Final[Mapping[str, str]] = {
    "kards": "engine.kards",
    "paper": "engine.paper",
    "raiders": "engine.raiders",
    "twister": "engine.twister",
}

_extra: dict[str, GameSpec] = {}  # games registered at run time (the tests' toy games)


def register(spec: GameSpec) -> GameSpec:
    """Register a game that has no line in :data:`GAMES` (a test's own game)."""
    _extra[spec.name] = spec
    return spec


def get_game(name: str) -> GameSpec:
    """The spec of the game called ``name``; :class:`UnknownGameError` naming the known ones."""
    spec = _extra.get(name)
    if spec is not None:
        return spec
    path = GAMES.get(name)
    if path is None:
        known = ", ".join(games()) or "none"
        raise UnknownGameError(f"unknown game {name!r} (known: {known})")
    found: GameSpec = importlib.import_module(path).SPEC
    return found


def games() -> tuple[str, ...]:
    """The names of every game this program has."""
    return tuple(sorted({*GAMES, *_extra}))


def replay(
    game: str, entries: Iterable[Entry], *, options: Mapping[str, Any] | None = None,
    start: GameState[Any] | None = None,
) -> GameState[Any]:
    """Rebuild a state from a history, through the checked API only."""
    state = start if start is not None else get_game(game).new(**dict(options or {}))
    for entry in entries:
        state = apply_entry(state, entry)
    return state
