"""Paper Dungeons (Leandro Pires, MeepleBR 2020): a roll-and-write for 1 to 8 players who all
plan at once.  Rules as implemented: docs/rules/paper.md."""

from engine.core import GameSpec, OptionSpec
from engine.paper.actions import (
    Answer,
    PaperAction,
    Plan,
    RewardChoice,
    SetupChoice,
    Use,
    format_action,
    parse_action,
)
from engine.paper.bots import BOTS, zombie_bot
from engine.paper.data import STORIES
from engine.paper.levels import LEVELS, easy_bot
from engine.paper.position import from_position, to_position
from engine.paper.records import Phase
from engine.paper.state import VARIANTS, PaperState, new_game
from engine.paper.strong import StrongBot
from engine.paper.view import PaperView, make_view
from engine.plugin import bind

bind("paper", view=make_view, to_position=to_position, from_position=from_position)

OPTIONS = (
    OptionSpec("missions", True, "play with 3 missions (off: the 'no missions' variant for "
               "first games)"),
    OptionSpec("missing_gems", False, "the missing-gems variant: after the season I and II "
               "fights, the villain's two gems vanish where uncollected (always on in solo)"),
    OptionSpec("story", "off", "story mode: play a chapter of a story (urban-heroes A,B,C; "
               "mummy-of-hamnapta D,E,F; terrors-of-the-tower G,H,I; around-the-kingdom J,K,L)",
               choices=("off", *STORIES)),
    OptionSpec("chapter", 1, "the story's chapter, 1 to 3 (its dungeon card)", bounds=(1, 3)),
)

SPEC = GameSpec(
    name="paper",
    title="Paper Dungeons",
    players=(1, 2, 3, 4, 5, 6, 7, 8),
    variants=VARIANTS,
    new=new_game,
    from_position=from_position,
    engine_version="paper/1",
    bots={**BOTS, "easy": easy_bot, "strong": StrongBot},
    levels=LEVELS,
    zombie=zombie_bot,
    options=OPTIONS,
    decks=True,
)

__all__ = [
    "SPEC", "Answer", "PaperAction", "PaperState", "PaperView", "Phase", "Plan",
    "RewardChoice", "SetupChoice", "Use", "format_action", "from_position", "make_view",
    "new_game", "parse_action", "to_position",
]
