"""Dungeons of Kards actions and their text notation (rules reference §8, suggested notation).

An action is a verb and its arguments, written as words separated by spaces.  The canonical
notation (what :func:`format_action` writes and the history stores):

==============================  ==============================================================
``pick mage``                   set-up: take a character card (two copies: ``pick B-mage``)
``gate D02``                    Arena set-up: start on a free gate
``equip longsword``             equip phase: equip a carried weapon or pet
``equip done``                  end the equip phase
``explore``                     Walk: reveal a dungeon card and place it at an exit
``place E``                     place the revealed card at that exit of your card
``place 4,2``                   an event's card: place it on cell (x, y)
``move N E``                    Walk: a path of 1..AP steps (the canonical path: shortest,
                                then N, E, S, W first)
``search``                      Walk, safety valve (ruling 13): draw an orange card here
``wait``                        end the turn without acting (out of combat, or stunned)
``attack skeleton``             Attack action, and each attack's target
``mist double``, ``mist single``  a mist token: 2×AP or AP attacks
``ability frost_bind warden``   use the ability on a target (a figure's card id)
``hop D05 gold``                portal hop, paying 1 gold (or ``life``)
``stone restoration_4 mage``    use a magic stone: restoration (target), resurrection (a
                                defeated ally), ``stone portal_stone D05`` (a destination)
``stone resurrection#1``        save yourself at 0 life (ruling 18)
``fall``                        do not save yourself
``keep``                        keep a stone just drawn (not used at once)
``service heal``                yellow portal: ``heal`` (2 gold), ``recharge`` (6 gold),
                                ``resurrect cleric`` (5 gold)
``choose life``                 an event's choice: ``life`` or ``ability``
``recruit ranger``              solo programmed help: take an ally (or ``recruit none``)
``end``                         end the turn (after the action's free-action window)
==============================  ==============================================================

Parsing ignores case and extra spaces.  ``state.parse_action(seat, text)`` also accepts a move
written as its destination (``move D23`` or ``move 3,4``) or by any legal path, a character
kind for a copy (``pick mage``), and ``attack`` or ``ability`` with the only possible target
left out; each becomes its canonical action.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from engine.core import InvalidActionError
from engine.kards.cards import PACKS, SIDES

VERBS: Final = ("pick", "gate", "equip", "explore", "place", "move", "search", "wait", "end",
                "attack", "mist", "ability", "hop", "stone", "fall", "keep", "service",
                "choose", "recruit")
_NO_ARGS: Final = frozenset({"explore", "search", "wait", "end", "fall", "keep"})
WORDS: Final = frozenset({"done", "none", "gold", "life", "double", "single", "heal",
                          "recharge", "resurrect", "ability"})

# Every card id of both packs, by its lower-case spelling.
_IDS: Final[dict[str, str]] = {}
for _pack in PACKS.values():
    for _group in (_pack.characters, _pack.dungeon, _pack.orange, _pack.treasures,
                   (_pack.portal_stone, _pack.boss), _pack.removed):
        for _card in _group:
            _IDS[_card.lower()] = _card
_ABILITIES: Final = frozenset({"battle_fury", "challenge", "smoke_bomb", "frost_bind",
                               "mending_light", "hunters_mark"})


class Action(NamedTuple):
    """A verb and its arguments (canonical spellings).  Immutable, compared by value."""

    verb: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return format_action(self)

    def __repr__(self) -> str:
        return f"Action({self.verb!r}, {self.args!r})"


def format_action(action: Action) -> str:
    return " ".join((action.verb, *action.args))


HELP = "e.g. explore, move N E, attack skeleton, equip done, end (see the notation in the docs)"


def _bad(text: str, why: str) -> InvalidActionError:
    shown = text if len(text) <= 30 else text[:27] + "..."
    return InvalidActionError(f"unknown action {shown!r}: {why}")


def _word(token: str) -> str:
    """A token's canonical spelling: a card id, a direction, a cell, or a word."""
    low = token.lower()
    card = _IDS.get(low)
    if card is not None:
        return card
    if low.upper() in SIDES:
        return low.upper()
    if low in WORDS or low in _ABILITIES:
        return low
    parts = low.split(",")
    if len(parts) == 2 and all(p.isdigit() and len(p) <= 2 for p in parts):
        return f"{int(parts[0])},{int(parts[1])}"
    return ""


def parse_action(text: object) -> Action:
    """Parse notation (no state needed); raises :class:`InvalidActionError` for text that is no
    action of this game.  Whether it is legal now is the state's business."""
    if not isinstance(text, str):
        raise InvalidActionError(f"an action is text, not {type(text).__name__}")
    tokens = text.split()
    if not tokens:
        raise _bad(text, "it is empty; " + HELP)
    if len(tokens) > 8 or len(text) > 200:
        raise _bad(text, "too long")
    verb = tokens[0].lower()
    if verb not in VERBS:
        raise _bad(text, HELP)
    args = []
    for token in tokens[1:]:
        word = _word(token)
        if not word:
            raise _bad(text, f"{token[:20]!r} is no card, direction, cell or keyword")
        args.append(word)
    if verb in _NO_ARGS and args:
        raise _bad(text, f"{verb!r} takes nothing after it")
    if verb == "move" and not args:
        raise _bad(text, "a move needs a path such as 'move N E' or a destination card")
    if verb in ("pick", "gate", "equip", "place", "mist", "choose", "recruit",
                "service") and not args:
        raise _bad(text, f"{verb!r} needs something after it")
    return Action(verb, tuple(args))


def is_free(state: object, seat: int, action: Any) -> bool:
    """No action of this game is free in the protocol's sense: every decision, the rules'
    free actions (stones, hops, services) included, is a turn of its own, taken in the open,
    that moves the game to its next decision."""
    return False
