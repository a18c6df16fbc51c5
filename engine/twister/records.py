"""The immutable pieces a Dungeon Twister state is made of (named tuples: cheap, compared by
value).  Token positions use these codes besides a square index (>= 0)."""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from engine.twister.data import ACTION_CARDS, COMBAT_CARDS, JUMP_CARDS

HIDDEN: Final = -1  # face down (on a slot or a starting square), or not placed yet
ELIMINATED: Final = -2  # a character killed (its owner's opponent scored)
ESCAPED: Final = -3  # a character that left through the opponent's line (and scored)
REMOVED: Final = -4  # out of the game otherwise: an object used, carried out or fallen; a
#                      wounded character carried out
GONE_WORDS: Final = {ELIMINATED: "eliminated", ESCAPED: "escaped", REMOVED: "removed"}


class Tok(NamedTuple):
    """One token's public state.  A carried token's ``at`` is its carrier's square."""

    at: int = HIDDEN
    carrier: int = -1  # the character carrying it
    load: int = -1  # the token it carries (characters only)
    wounded: bool = False
    hurt: bool = False  # wounded this turn
    healed: bool = False  # healed or regenerated this turn
    potion: int = 0  # Speed Potion AP left this turn (characters only)


class Player(NamedTuple):
    """One seat's public state.  ``opened`` are the seat's sealed values opened so far, as
    (slot, kind), in the order they were opened."""

    vp: int = 0
    hand: tuple[int, ...] = ACTION_CARDS  # action cards in hand (face up)
    combat: tuple[int, ...] = COMBAT_CARDS  # combat cards in hand (deducible, so public)
    jumps: int = JUMP_CARDS
    placed: int = 0  # face-down room tokens placed at set-up (0..10)
    opened: tuple[tuple[str, str], ...] = ()


class Know(NamedTuple):
    """One seat's private knowledge: its own sealed values not opened yet (slot, kind), whether
    it has committed its starting team (before the team step resolves), and its committed but
    unrevealed combat card (-1 none)."""

    sealed: tuple[tuple[str, str], ...] = ()
    team: bool = False
    card: int = -1


NO_KNOWLEDGE: Final = Know()


class Reveal(NamedTuple):
    """A reveal in progress: the slot, the tokens lifted from it (known once opened), and those
    the active seat (``mine``) and the other seat (``theirs``: the active seat's objects) still
    have to place."""

    slot: int
    lifted: tuple[int, ...] = ()
    mine: tuple[int, ...] = ()
    theirs: tuple[int, ...] = ()


class Fight(NamedTuple):
    """A combat waiting for its cards: the attacker, the target and the participants (the
    chain of §5.5 step 2, R7, A15), attackers first."""

    attacker: int
    target: int
    attackers: tuple[int, ...]
    defenders: tuple[int, ...]


class Ending(NamedTuple):
    """Why the match is ending or has ended: ``reason`` is ``vp`` (5 VP; ``winner``), ``cap``
    (the turn cap), ``draw`` (agreed), ``resign`` or ``forfeit``, as it first happened; the seats
    that resigned and forfeited.  The result is computed once the end openings are in."""

    reason: str = ""
    winner: int = -1
    resigned: tuple[int, ...] = ()
    forfeited: tuple[int, ...] = ()


NO_ENDING: Final = Ending()


def _with(items: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    """``items`` with the one at ``i`` replaced by ``value``."""
    out = list(items)
    out[i] = value
    return tuple(out)
