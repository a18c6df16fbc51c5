"""Dungeons of Kards (cryptcrawl original pack): Arena 1v1, teams and free-for-all up to 8,
co-op campaign for 2 to 4, solo campaign."""

from __future__ import annotations

from typing import Final

from engine.core import GameSpec, OptionSpec
from engine.kards.actions import Action, format_action, is_free, parse_action
from engine.kards.bots import BOTS, zombie_bot
from engine.kards.cards import PACK
from engine.kards.levels import LEVELS, easy_bot
from engine.kards.position import from_position, to_position
from engine.kards.state import KardsState, new_game
from engine.kards.strong import strong_bot
from engine.kards.view import KardsView, make_view
from engine.plugin import bind

bind("kards", view=make_view, to_position=to_position, from_position=from_position)


class RoundCapOption(OptionSpec):
    """``round_cap``: a number of rounds, or ``off`` (read as 0)."""

    def parse(self, text: str) -> str | int | bool:
        if text.strip().lower() == "off":
            return 0
        return super().parse(text)


OPTIONS: Final = (
    OptionSpec("mode", "auto", "arena (1v1, teams, free-for-all), coop (2-4) or solo; auto: "
               "solo for 1 player, else arena", choices=("auto", "arena", "coop", "solo")),
    OptionSpec("copies", "auto", "copies of the pack: 1 (7x7 map, up to 4 characters) or 2 "
               "(9x9, up to 8); auto: 2 above 4 players", choices=("auto", "1", "2")),
    OptionSpec("team_size", 1, "Arena: players per team (1: every player for itself; 2: 2v2, "
               "2v2v2...; 3: 3v3; 4: 4v4)", bounds=(1, 4)),
    OptionSpec("events", True, "the events at every 5th revealed dungeon card (10th with two "
               "copies)"),
    OptionSpec("abilities", True, "the characters' special abilities"),
    OptionSpec("solo_help", "none", "solo allies: none, random (shuffled into the orange deck) "
               "or programmed (one per 5 revealed cards)",
               choices=("none", "random", "programmed")),
    OptionSpec("counter_budget", False, "ruling 2's counter budget: at most AP "
               "counter-attacks per figure per turn (off: after every attack survived)"),
    RoundCapOption("round_cap", 40, "off, or the rounds after which the game ends (Arena: a "
                   "draw among the teams in play; campaign: a loss)", bounds=(1, 999)),
)

SPEC = GameSpec(
    name="kards",
    title="Dungeons of Kards",
    players=(1, 2, 3, 4, 5, 6, 7, 8),
    variants=(),
    new=new_game,
    from_position=from_position,
    engine_version="kards/1",
    bots={**BOTS, "easy": easy_bot, "strong": strong_bot},
    levels=LEVELS,
    zombie=zombie_bot,
    free_action=is_free,
    options=OPTIONS,
    dice_pools=True,  # (its hundreds of dice: protocol.md §7.12)
)

__all__ = [
    "OPTIONS", "PACK", "SPEC", "Action", "KardsState", "KardsView", "format_action",
    "from_position", "make_view", "new_game", "parse_action", "to_position",
]
