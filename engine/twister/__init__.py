"""Dungeon Twister (Christophe Boelinger, Asmodée 2004) for 2 players, with the project's own
eight rooms (rules/dungeon-twister.md; docs/rules/twister.md)."""

from engine.core import GameSpec, OptionSpec
from engine.plugin import bind
from engine.twister.actions import Action, format_action, parse_action
from engine.twister.bots import BOTS
from engine.twister.levels import LEVELS, easy_bot
from engine.twister.position import from_position, to_position
from engine.twister.state import TURN_CAP, TwisterState, new_game
from engine.twister.strong import strong_bot
from engine.twister.view import TwisterView, make_view

bind("twister", view=make_view, to_position=to_position, from_position=from_position)

SPEC = GameSpec(
    name="twister",
    title="Dungeon Twister",
    players=(2,),
    variants=(),
    new=new_game,
    from_position=from_position,
    bots={**BOTS, "easy": easy_bot, "strong": strong_bot},
    levels=LEVELS,
    engine_version="twister/1",
    options=(OptionSpec(
        "turn_cap", TURN_CAP, bounds=(2, 1000), off=True,
        help="the game ends when this turn ends (an even number; off: never); at the cap, "
             "more VP wins and equal VP is a draw"),),
    replaced="forfeit",
)

__all__ = [
    "SPEC", "Action", "TwisterState", "TwisterView", "format_action", "from_position",
    "make_view", "new_game", "parse_action", "to_position",
]
