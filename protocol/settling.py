"""Settling (protocol.md §6.4): after every message consumed, apply whatever is now complete —
a fork, a departure, a vote, an agreement, the floor, the end, a chance outcome, a digest round,
openings, a zombie's turn, a joint reveal — until nothing is.  The match core calls it; every
change of state goes through the core (``_apply``, ``_replace``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import Chance as ChancePending
from engine.core import Openings, Over, Simultaneous, Turn, Visibility
from protocol.match.admission import ending_openings

if TYPE_CHECKING:
    from protocol.match.core import MatchCore


def settle(core: MatchCore) -> None:
    """Apply whatever is now complete, in this order: a fork, a vote, the end, a chance
    outcome, a digest round, openings, a zombie's turn, a joint reveal."""
    while True:
        if core.ending.signed:
            return
        # A forked seat is replaced where its forked message is due (not merely when its
        # cursor reaches the fork, which depends on the order of the other feeds).
        fork = core.forks.due(core.live, core.cursor, core.expects)
        if fork is not None:
            core._replace(fork, f"equivocation at sequence number {core.forks.forked[fork]}",
                          final=True)
            continue
        leaver = core.seats.leaver_due(core.cursor.__getitem__, core.expects)
        if leaver is not None:
            core.departures.depart(leaver)
            continue
        complete = core.votes.complete() if core.votes.ballots else None
        if complete is not None:
            seat, count = complete
            core._replace(seat, f"absent: silent at its message {count}", final=False)
            continue
        if core.agreements.offers:
            if core.agreements.settle():
                continue
            return  # an offer stands: the engine waits for the answers
        w = core.state.waiting
        if (core.ending.floor is not None and not core.ending.ended
                and not isinstance(w, Openings | Over)):
            # (Below two live seats only the openings due at the end are taken: §7.11.)
            core.departures.abandon()
            continue
        if core.decks.shows and not core.ending.ended:
            shown = core.decks.settle_show()
            if shown is None:
                return
            core._apply(shown)
            continue
        if isinstance(w, Over) or core.ending.abandoned:
            if not core.ending.ended:
                assert isinstance(w, Over)  # (an abandoned match ended at the floor)
                core._mark_due()
                drawn = core.agreements.draw_heads  # (an agreed draw fixed its heads)
                core.events.append(core.ending.reach(
                    w.outcome.winners, core.public_digest(),
                    core.heads() if drawn is None else drawn[1],
                    covered=None if drawn is None else drawn[0]))
            agreed = core.ending.agree(core.live_seats(), (
                core.knowledge.owes_release if not core.ending.cut
                else lambda _: False))  # (the floor: §7.7)
            if agreed is not None:
                core.events.append(agreed)
            return
        if isinstance(w, ChancePending) and w.event.visibility is Visibility.PRIVATE:
            dealt = core.decks.settle(w)
            if dealt is None:
                return
            core._apply(dealt)
            continue
        if isinstance(w, ChancePending):
            found = core.chance.resolve(w.event)
            if found is None:
                return
            outcome, resolved = found
            core._apply(core.state.apply_chance(w.event.id, outcome))
            core.events.append(resolved)
            continue
        if isinstance(w, Openings) and ending_openings(core.ending):
            opened = core.sealed.settle(w)  # (no digest round once the match ends: §7.7)
            if opened is None:
                return
            core._apply(opened)
            continue
        closed = core.chance.close_digest_round()
        if closed is not None:
            if not closed:
                return
            continue
        if isinstance(w, Openings):
            opened = core.sealed.settle(w)
            if opened is None:
                return
            core._apply(opened)
            continue
        if isinstance(w, Turn | Simultaneous):
            settled = (core.steps.settle_turn(w) if isinstance(w, Turn)
                       else core.steps.settle_step(w))
            if settled is None:
                return
            if settled is not True:
                core._apply(settled)
            continue
        return
