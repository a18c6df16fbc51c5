"""The phases of a Dungeon Twister state, by name (the order of play is in
:mod:`engine.twister.state`'s docstring)."""

from __future__ import annotations

from typing import Final

TEAM: Final = "team"
PLACER: Final = "placer"
PLACE: Final = "place"
TEAM_OPEN: Final = "team_open"
FIRST: Final = "first"
CARD: Final = "card"
ACTION: Final = "action"
REVEAL: Final = "reveal"
OPEN: Final = "open"
PUT: Final = "put"
COMBAT: Final = "combat"
END_OPEN: Final = "end_open"
OVER: Final = "over"
PHASES: Final = (TEAM, PLACER, PLACE, TEAM_OPEN, FIRST, CARD, ACTION, REVEAL, OPEN, PUT, COMBAT,
                 END_OPEN, OVER)
OPENING_PHASES: Final = (TEAM_OPEN, OPEN, END_OPEN)
