"""The orange deck as hidden segments with a public tail (rules reference §3 step 7, §8,
ruling 23), without ever fixing an order.

Set-up shuffles the orange cards and splits them: the top half gets ⌊m/2⌋ cards, the bottom
half the rest plus the Portal Stone.  Which cards went to the top half is unknown to everyone,
so the engine keeps that split *lazy*:

* ``pool``: the original cards never drawn yet.  ``top_unknown`` of them lie in the top half
  (nobody knows which), the others in the bottom half.
* ``top_known`` / ``bottom_known``: cards known to lie in a half (shuffled back into it, the
  Portal Stone in the bottom half).
* ``tail``: the public, ordered bottom of the deck (cards put "on the bottom").

A draw from the top half is uniform over the top half's cards, which are the known ones plus a
uniformly random ``top_unknown``-subset of the pool.  So a known card comes next with
probability 1/t (t = the top half's size) and a given pool card with probability
``top_unknown``/(t · |pool|): the event lists each known card ``|pool|`` times and each pool card
``top_unknown`` times (divided by their gcd), so every outcome is equally likely.  With nothing
shuffled back (the usual case) it is simply uniform over the pool.  Once the top half is empty,
the whole pool lies in the bottom half and a draw is uniform over the bottom half's cards.
With both halves empty a draw takes the tail's first card, which needs no chance.

A peeked top card (the Friendly guardian) freezes the next draw: ``top_event`` is that chance
event, posed exactly as when it was set up; cards shuffled back afterwards go below it.
"""

from __future__ import annotations

from math import gcd
from typing import NamedTuple

from engine.core import ChanceEvent, Visibility


class Orange(NamedTuple):
    pool: tuple[str, ...]  # in pack order
    top_unknown: int
    top_known: tuple[str, ...]
    bottom_known: tuple[str, ...]
    tail: tuple[str, ...]
    top_event: tuple[str, tuple[str, ...]] | None = None  # (event id, outcomes) once peeked

    @property
    def top_size(self) -> int:
        return self.top_unknown + len(self.top_known)

    @property
    def bottom_size(self) -> int:
        return len(self.pool) - self.top_unknown + len(self.bottom_known)

    @property
    def hidden(self) -> int:
        """Cards in the hidden segments."""
        return len(self.pool) + len(self.top_known) + len(self.bottom_known)

    @property
    def size(self) -> int:
        return self.hidden + len(self.tail)

    def outcomes(self) -> tuple[str, ...]:
        """The equally likely outcomes of the next draw from the hidden segments (empty when
        they are empty: the tail is public).  A peeked draw keeps its frozen outcomes."""
        if self.top_event is not None:
            return self.top_event[1]
        if self.top_size:
            u, known, pool = self.top_unknown, self.top_known, self.pool
            if not known:
                return pool
            if not u:
                return known
            g = gcd(len(pool), u)
            return (*(c for c in known for _ in range(len(pool) // g)),
                    *(c for c in pool for _ in range(u // g)))
        return (*self.pool, *self.bottom_known)

    def take(self, card: str) -> Orange:
        """The deck after ``card`` was drawn from the hidden segments (its segment shrinks)."""
        if self.top_size:
            if card in self.top_known:
                i = self.top_known.index(card)
                return self._replace(top_known=self.top_known[:i] + self.top_known[i + 1:],
                                     top_event=None)
            return self._replace(pool=_without(self.pool, card),
                                 top_unknown=self.top_unknown - 1, top_event=None)
        if card in self.bottom_known:
            return self._replace(bottom_known=_without(self.bottom_known, card), top_event=None)
        return self._replace(pool=_without(self.pool, card), top_event=None)

    def take_tail(self) -> tuple[str, Orange]:
        return self.tail[0], self._replace(tail=self.tail[1:])

    def shuffle_back(self, card: str, *, bottom: bool = False) -> Orange:
        """Ruling 23: into the current hidden segment (the top half while it has cards, else
        the bottom half); with both halves empty the tail and the card become one new hidden
        segment.  ``bottom``: the Portal Stone always goes into the bottom half (A-04)."""
        if self.top_size and not bottom:
            return self._replace(top_known=(*self.top_known, card))
        if self.top_size or self.bottom_size:
            return self._replace(bottom_known=(*self.bottom_known, card))
        return self._replace(bottom_known=(*self.tail, card), tail=())

    def to_tail(self, *cards: str) -> Orange:
        return self._replace(tail=(*self.tail, *cards))


def orange_event(event_id: str, outcomes: tuple[str, ...], hidden: bool) -> ChanceEvent:
    return ChanceEvent(event_id, outcomes, Visibility.HIDDEN if hidden else Visibility.PUBLIC)


def _without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1:]


def new_orange(cards: tuple[str, ...], portal_stone: str) -> Orange:
    """Set-up step 7: ⌊m/2⌋ cards on top, the rest and the Portal Stone below."""
    return Orange(cards, len(cards) // 2, (), (portal_stone,), ())
