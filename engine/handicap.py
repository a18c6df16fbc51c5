"""A handicap for the ``easy`` level: a bot that now and then plays any legal action.

People expect an easy bot to play sensible moves most of the time and to blunder now and then
(lichess's lowest levels), not to play at random.  :class:`Handicap` wraps a game's bot: one
decision in ``one_in`` (drawn from the decision's own hash stream) it plays a uniformly random
legal action instead of the bot's; where a step lists no actions (a plan among too many to list)
it always plays the bot's.  Nothing here names a game.
"""

from __future__ import annotations

from typing import Any

from engine.sim import Bot
from engine.stream import HashStream, derive_key


class Handicap:
    """``bot``, except that one decision in ``one_in`` is a random legal action."""

    def __init__(self, bot: Bot, one_in: int, name: str = "easy") -> None:
        if one_in < 1:
            raise ValueError("a handicap is one decision in 1 or more")
        self.bot = bot
        self.one_in = one_in
        self.name = name
        self.reads_view = getattr(bot, "reads_view", True)

    def choose(self, view: Any, key: bytes) -> Any:
        legal = view.legal
        if len(legal) > 1:
            stream = HashStream(derive_key(b"cryptcrawl/handicap/v1", key))
            if stream.below(self.one_in) == 0:
                return legal[stream.below(len(legal))]
        return self.bot.choose(view, key)


__all__ = ["Handicap"]
