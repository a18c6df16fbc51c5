"""Dungeons of Kards bots (filled in below)."""

from __future__ import annotations

from engine.kards.actions import Action
from engine.kards.view import KardsView
from engine.sim import LegalView
from engine.stream import sample_index


class RandomBot:
    """Uniform among the legal actions."""

    name = "random"
    reads_view = False

    def choose(self, view: KardsView | LegalView, key: bytes) -> Action:
        legal: tuple[Action, ...] = view.legal
        if not legal:
            raise ValueError(f"seat {view.seat} has no decision")
        return legal[sample_index(key, len(legal))]


BOTS = {"random": RandomBot}


def zombie_bot() -> RandomBot:
    return RandomBot()
