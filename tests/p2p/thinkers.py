"""Bots for the tests of a bot that thinks in a child process (``BotDecider(make=...)``): the
child imports them by name, so they live in a module of their own, light to import."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from engine.games import get_game

HELD = "CRYPTCRAWL_TEST_HELD"  # the environment variable naming the held bot's files


class Held:
    """A searching bot that thinks until it is let go: it creates ``$HELD.started``, waits
    until ``$HELD.go`` exists (at most 30 s), then plays the first legal action."""

    name = "held"
    searches = True

    def choose(self, view: Any, key: bytes) -> Any:
        base = os.environ[HELD]
        Path(base + ".started").touch()
        for _ in range(3000):
            if Path(base + ".go").exists():
                break
            time.sleep(0.01)
        return view.legal[0]


def held(game: str) -> Held:
    return Held()


def small_strong(game: str) -> Any:
    """The game's strong bot on a tiny budget."""
    bot = get_game(game).bots["strong"]()
    bot.iterations = 6
    return bot
