"""Deciders: a bot's choice for a seat, from the game's registered bots and a hash stream."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from engine.core import GameState
from engine.games import get_game
from engine.sim import bot_input, bot_key

Decider = Callable[[GameState[Any], int], str]
AsyncDecider = Callable[[GameState[Any], int], Awaitable[str]]


def bot_decider(name: str, seed: bytes) -> Decider:
    """The game's bot ``name`` (of :attr:`GameSpec.bots`; "": its :attr:`GameSpec.default_bot`):
    its choice from the seat's view and a hash stream (never ``random``)."""
    bots: dict[str, Any] = {}
    tries: dict[tuple[str, int], int] = {}

    def decide(state: GameState[Any], seat: int) -> str:
        bot = bots.get(state.game)
        if bot is None:
            spec = get_game(state.game)
            bot = bots[state.game] = spec.bots[name or spec.default_bot]()
        step = str(getattr(state.waiting, "step", ""))
        n = tries.get((step, seat), 0)
        tries[(step, seat)] = n + 1
        return state.format_action(bot.choose(bot_input(bot, state, seat, step),
                                              bot_key(seed, step, seat, n)))
    return decide
