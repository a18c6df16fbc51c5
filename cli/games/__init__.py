"""The registry of client plug-ins: a game's name, the module whose ``UI`` is its
:class:`cli.plugin.GameUI`.  Adding a game's client is one line here; a plug-in module is imported
only when its game is played, shown or summed up.

A game the engine has but no plug-in serves (a test's toy game with no client) is shown by the
generic :class:`cli.plugin.GameUI`, from the engine's views and notation alone.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from cli.plugin import GameUI, Seating

CLIENTS: Final[Mapping[str, str]] = {
    "kards": "cli.games.kards",
    "paper": "cli.games.paper",
    "raiders": "cli.games.raiders",
    "twister": "cli.games.twister",
}

DEFAULT_GAME: Final = "raiders"
"""What ``play`` and ``host`` play without ``--game``."""

_extra: dict[str, type[GameUI]] = {}  # plug-ins registered at run time (the tests' toy games)


def register(game: str, ui: type[GameUI]) -> type[GameUI]:
    """Register the plug-in of a game that has no line in :data:`CLIENTS` (a test's own)."""
    _extra[game] = ui
    return ui


def find_ui(game: str) -> type[GameUI]:
    """The plug-in class of ``game`` (the generic one if it has none)."""
    found = _extra.get(game)
    if found is not None:
        return found
    path = CLIENTS.get(game)
    if path is None:
        from cli.plugin import GameUI

        return GameUI
    ui: type[GameUI] = importlib.import_module(path).UI
    return ui


def has_plugin(game: str) -> bool:
    return game in _extra or game in CLIENTS


def make_ui(game: str, players: int, options: Mapping[str, Any],
            seating: Seating | None = None) -> GameUI:
    """A plug-in for one table: ``game`` with ``players`` seats and its ``options`` (the
    header's; ``players`` among them is ignored)."""
    from cli.plugin import Seating
    from engine.games import get_game

    chosen = {k: v for k, v in options.items() if k != "players"}
    return find_ui(game)(get_game(game), players, chosen, seating or Seating())
