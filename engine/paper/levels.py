"""The bots behind the levels people choose (engine.core.LEVELS): ``easy`` is a short greedy
plan (the search with beam 1 and 40 evaluated uses: it looks at the first few dice only),
``normal`` the search bot, and ``strong`` the mission-racing search of
:mod:`engine.paper.strong`."""

from __future__ import annotations

from typing import Final

from engine.paper.bots import SearchBot

LEVELS: Final = {"easy": "easy", "normal": "search", "strong": "strong"}


def easy_bot() -> SearchBot:
    """The ``easy`` level."""
    bot = SearchBot(budget=40, beam=1)
    bot.name = "easy"
    return bot
