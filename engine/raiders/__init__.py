"""Dungeon Raiders (Phil Walker-Harding, Devir edition) for 3 to 5 players."""

from engine.core import GameSpec
from engine.plugin import bind
from engine.raiders.actions import PEEK, PLAY, Action, format_action, is_free, parse_action
from engine.raiders.bots import BOTS, zombie_bot
from engine.raiders.levels import LEVELS, easy_bot
from engine.raiders.position import from_position, to_position
from engine.raiders.records import Phase
from engine.raiders.state import RaidersState, new_game
from engine.raiders.strong import strong_bot
from engine.raiders.view import RaidersView, make_view

bind("raiders", view=make_view, to_position=to_position, from_position=from_position)

SPEC = GameSpec(
    name="raiders",
    title="Dungeon Raiders",
    players=(3, 4, 5),
    variants=("basic", "tactical"),
    new=new_game,
    from_position=from_position,
    bots={**BOTS, "easy": easy_bot, "strong": strong_bot},
    levels=LEVELS,
    zombie=zombie_bot,
    engine_version="raiders/1",
    free_action=is_free,
    forfeit_plays_on=True,
)

__all__ = [
    "PEEK", "PLAY", "SPEC", "Action", "Phase", "RaidersState", "RaidersView", "format_action",
    "from_position", "make_view", "new_game", "parse_action", "to_position",
]
