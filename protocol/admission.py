"""Admission: what the current point owes and accepts of each seat — the transition table
(:mod:`protocol.match.table`) applied to the mechanisms' predicates and its columns."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.core import Chance as ChancePending
from engine.core import GameState, Openings, Over, Turn, Visibility
from protocol.match.table import (
    CHANCE,
    DEAL,
    DIGEST,
    OPENINGS,
    OVER,
    PHASE_ROWS,
    ROWS_IN,
    ROWS_OWING_IN,
    SIMULTANEOUS,
    TURN,
    Transition,
)
from protocol.mechanisms.absence import Seats
from protocol.mechanisms.agreements import Agreements
from protocol.mechanisms.chance import Chance
from protocol.mechanisms.deals import Decks
from protocol.mechanisms.ending import Ending
from protocol.mechanisms.knowledge import KnowledgeRounds
from protocol.mechanisms.steps import Steps
from protocol.mechanisms.votes import Votes
from protocol.wire.messages import Kind


def ending_openings(ending: Ending | None) -> bool:
    """The match ends (at the floor, or by an agreed draw) and only the openings due at the
    end are taken before its END (§7.7, §7.11)."""
    return ending is not None and (ending.cut or ending.agreed) and not ending.ended


class Admission:
    """The table, applied: the phase, what each seat owes, and what its next message may be."""

    def __init__(self, *, state: Callable[[], GameState[Any]], chance: Chance,
                 knowledge: KnowledgeRounds, steps: Steps, seats: Seats, votes: Votes,
                 owners: Mapping[type, Any], ending: Ending | None = None,
                 agreements: Agreements | None = None, decks: Decks | None = None) -> None:
        self._state = state
        self._chance = chance
        self._knowledge = knowledge
        self._steps = steps
        self._seats = seats
        self._votes = votes
        self._ending = ending  # (the floor, §7.7: the match ends below two live seats)
        self._owners = owners  # the mechanism each row of the table asks
        self._agreements = agreements
        self._decks = decks

    def expects(self, seat: int, *, votes: bool = True) -> Kind | None:
        """What ``seat`` owes next (None: nothing now), by the first row of
        :data:`TRANSITIONS` that applies (``votes=False``: leaving its votes aside)."""
        if seat in self._seats.absent:
            return None
        ending = self._ending
        if ending is not None and ending.cut and ending.ended:
            # The floor (§7.7): a live seat owes the keys it must publish, then its END, and
            # nothing else (what it would owe besides is stale now).
            if self._knowledge.owes_release(seat):
                return Kind.KEY_RELEASE
            return Kind.END if ending.owes(seat) else None
        # With no round live, no seat reclaiming and no vote, no row of phase ``any`` can
        # apply (each asks for one of these): only the phase's own rows are looked at.
        quiet = (not self._seats.reclaims and not self._votes.ballots
                 and not self._knowledge.live()
                 and (self._agreements is None or not self._agreements.offers))
        for row in (PHASE_ROWS if quiet else ROWS_IN)[self.phase()]:
            if (votes or row.expect is not Kind.ABSENT) and self.applies(row, seat):
                return row.expect
        return None

    def applies(self, row: Transition, seat: int) -> bool:
        """Does ``row`` apply to ``seat``: its mechanism's predicate, and its columns."""
        knowledge = self._knowledge
        return (row.when(self._owners[row.owner], seat)
                and (not row.gated or not knowledge.gated(seat))
                and (not row.decision or not knowledge.waits(seat)))

    def phase_expects(self, seat: int) -> Kind | None:
        for row in PHASE_ROWS[self.phase()]:
            if self.applies(row, seat):
                return row.expect
        return None

    def accepts(self, seat: int, kind: Kind) -> bool:
        """May ``seat``'s next message be of ``kind`` now?  Yes for any applicable row's kind
        (its own order of two owed messages is its business), a free action before a
        commitment, an early key release, a vote.  Only the rows that owe ``kind`` are
        evaluated."""
        if kind is Kind.ABSENT:
            return True
        ending = self._ending
        if (kind is Kind.END and ending is not None and ending.cut
                and ending.owes(seat)):
            return True  # (the floor: whether a key is still owed may differ by arrival order)
        if kind is Kind.ACT and self.accepts(seat, Kind.COMMIT):
            return True  # a free action before the commitment
        if kind is Kind.KEY_RELEASE and self._knowledge.may_release(seat):
            return True
        if kind is Kind.DECK and self._decks is not None and self._decks.may_preopen(seat):
            return True  # (a dealt card its coming OPEN shows: §7.13)
        phase = self.phase()
        if kind is Kind.REVEAL and phase == SIMULTANEOUS and self.may_reveal_directly(seat):
            return True  # its REVEAL in place of its COMMIT: every other commitment is held
        return any(self.applies(row, seat) for row in ROWS_OWING_IN[phase][kind])

    def may_reveal_directly(self, seat: int) -> bool:
        """``seat`` owes its COMMIT and every other live decider's commitment is held: it may
        send its REVEAL instead, which commits and opens at once (a direct reveal, protocol.md
        §7.1) — nobody can change a play any more, so nobody can profit from seeing it."""
        knowledge = self._knowledge
        if not (self._steps.owes_commit(seat) and not knowledge.gated(seat)
                and not knowledge.waits(seat)):
            return False
        return self._steps.others_committed(seat)

    def phase(self) -> str:
        """The protocol phase: what the engine waits for, with the digest round in between."""
        w = self._state().waiting
        if self._decks is not None and self._decks.shows and (
                self._ending is None or not self._ending.ended):
            return DEAL  # (an open owed after an action comes before anything else)
        if isinstance(w, Over) or (self._ending is not None and self._ending.abandoned):
            return OVER
        if isinstance(w, ChancePending):
            return DEAL if w.event.visibility is Visibility.PRIVATE else CHANCE
        if isinstance(w, Openings) and ending_openings(self._ending):
            return OPENINGS  # (the match is ending: no digest round, §7.7)
        if self._chance.digest_due():
            return DIGEST
        if isinstance(w, Openings):
            return OPENINGS
        return TURN if isinstance(w, Turn) else SIMULTANEOUS

    def where(self) -> str:
        """The point the match is at: a step or a chance event."""
        w = self._state().waiting
        if self._decks is not None and self._decks.dealing():
            return "the deal"
        if isinstance(w, ChancePending):
            return self._chance.pending_id()
        if isinstance(w, Openings):
            return "the openings"
        return str(getattr(w, "step", "the end"))
