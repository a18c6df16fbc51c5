"""Paper Dungeons bots (placeholder while the engine is built)."""

from __future__ import annotations

from typing import Any

from engine.paper.actions import PaperAction, Plan
from engine.paper.plans import die_uses, usable_dice
from engine.paper.resolve import Work
from engine.paper.sheet import BOARDS
from engine.paper.view import PaperView
from engine.stream import HashStream


class RandomBot:
    name = "random"

    def choose(self, view: PaperView, key: bytes) -> PaperAction:
        stream = HashStream(key)
        if view.legal:
            return view.legal[stream.below(len(view.legal))]
        assert view.seat is not None
        w = Work(view.sheet, BOARDS[view.dungeon])
        dice = list(usable_dice(view.roll))
        uses = []
        for _ in range(3):
            d = dice.pop(stream.below(len(dice)))
            options = die_uses(w, d, view.roll[d - 1])
            u, w = options[stream.below(len(options))]
            uses.append(u)
        return Plan(tuple(uses))


def zombie_bot() -> Any:
    return RandomBot()


BOTS = {"random": RandomBot}
