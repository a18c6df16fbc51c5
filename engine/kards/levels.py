"""The bots behind the levels people choose (engine.core.LEVELS): ``easy`` is the heuristic
with a handicap (a random legal action one decision in three), ``normal`` the heuristic, and
``strong`` the search of :mod:`engine.kards.strong`."""

from __future__ import annotations

from typing import Final

from engine.handicap import Handicap
from engine.kards.bots import HeuristicBot

LEVELS: Final = {"easy": "easy", "normal": "heuristic", "strong": "strong"}


def easy_bot() -> Handicap:
    """The ``easy`` level."""
    return Handicap(HeuristicBot(), 3)
