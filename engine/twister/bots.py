"""Dungeon Twister bots (placeholder while the engine is built)."""

from __future__ import annotations

from typing import Any

from engine.stream import sample_index


class RandomBot:
    """Uniform among the legal actions."""

    name = "random"
    reads_view = False

    def choose(self, view: Any, key: bytes) -> Any:
        legal = view.legal
        if not legal:
            raise ValueError(f"seat {view.seat} has no decision")
        return legal[sample_index(key, len(legal))]


BOTS = {"random": RandomBot}
