"""What ends a seat's part in a match, or the match, before the game's own end (version 2,
protocol.md §7.7): a LEAVE, a RESIGN, a CLAIM, and the floor — a match plays on only while two
seats are live — and the door to the other messages a seat sends of its own accord (the offers,
answers and resumes of :mod:`protocol.mechanisms.agreements`).  The core's handlers for them
(:class:`~protocol.match.core.MatchCore` owns one :class:`Departures`, which acts on the core's
seats, feeds and ending as its other handlers do)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import GameState, Over
from protocol.match.events import MatchClaimed, SeatLeft
from protocol.mechanisms.floor import below_floor, floor_reached, forfeit_result, openings_first
from protocol.wire.messages import (
    CORE_KINDS,
    AnswerBody,
    ClaimBody,
    Kind,
    LeaveBody,
    Message,
    OfferBody,
    ResignBody,
    ResumeBody,
)

if TYPE_CHECKING:
    from protocol.match.core import MatchCore


class Departures:
    """LEAVE, RESIGN, CLAIM and the floor, for :class:`~protocol.match.core.MatchCore`."""

    def __init__(self, core: MatchCore) -> None:
        self._core = core

    def leave(self, seat: int, *, resign: bool = False) -> None:
        """``seat``'s LEAVE (or RESIGN) was taken (version 2, protocol.md §7.7)."""
        core = self._core
        resign = resign and core.live(seat)
        core.seats.on_leave(seat, core.cursor[seat], resign=resign)
        core.vouching.note_departure(seat)
        core.events.append(SeatLeft(seat, core.cursor[seat], resign))
        core._unsettled = True

    def depart(self, seat: int) -> None:
        """A live seat that left has a message due right after its LEAVE or RESIGN: it is
        replaced for good there.  After a RESIGN the game's resignation rule applies at the
        seat's first decision from there (its zombie's first), where every peer's state
        changes at once (:meth:`~protocol.mechanisms.steps.Steps.resign_or_zombie`)."""
        core = self._core
        resigned = seat in core.seats.resigning
        kind = "RESIGN" if resigned else "LEAVE"
        core._replace(seat, f"{'resigned' if resigned else 'left the match'} (its {kind} is its "
                      f"message {core.cursor[seat] - 1})", final=True, left=True,
                      resigned=resigned)
        if resigned:
            core.seats.to_resign.add(seat)

    def claim(self, seat: int, message: Message, body: ClaimBody) -> bool:
        """Live ``seat``'s CLAIM on the other live seat (version 2, protocol.md §7.7): it waits
        until that seat's cursor is at the claimed count.  Past it, the two crossed; at it, the
        claim is false unless the claimed seat owes a message and the claimant none, and a
        message of the claimed seat held there crossed it.  Crossed, the match is abandoned
        (the claimant replaced, nobody blamed); otherwise the claimed seat is replaced and the
        match ends there (the floor).  After the end, or once the claimed seat was replaced, a
        claim is stale."""
        core = self._core
        other, count = body.seat, body.count
        if core.ending.ended or (0 <= other < core.n and other != seat
                                 and not core.live(other)):
            core.stale.append(message)
            core._take(seat)
            return True
        if other == seat or other >= core.n:
            core._misbehave(seat, f"a false claim: on seat {other}, not another seat of the "
                            "match", message)
            return False
        if len(core.live_seats()) > 2 or core.cursor[other] < count:
            return False  # (a replacement it saw, or messages of the other, not taken yet)
        # Taken past the claimed point here: the two crossed.  At the point: a false claim is
        # its claimant's fault, whatever else is held; otherwise a message of the claimed seat
        # held there crossed it.
        crossed = core.cursor[other] > count
        if not crossed:
            if core.expects(other) is None:
                core._misbehave(seat, f"a false claim: seat {other} owed nothing at its "
                                f"message {count}", message)
                return False
            if core.expects(seat, votes=False) is not None:
                core._misbehave(seat, f"a false claim on seat {other}: it owed a message "
                                "itself", message)
                return False
            crossed = len(core.feeds[other].messages) > count
        core._take(seat)
        claim = MatchClaimed(seat, other, count, crossed)
        core.ending.claim = claim
        core.events.append(claim)
        if crossed:
            core._replace(seat, f"its claim on seat {other} crossed seat {other}'s message "
                          f"{count}", final=True, left=True, forfeit=False)
        else:
            core._replace(other, f"claimed by seat {seat}: silent where its message {count} "
                          "was owed", final=True, left=True)
        return True

    def floor(self, seat: int, count: int, reason: str, *, forfeit: bool = True) -> None:
        """Version 2 (:mod:`protocol.mechanisms.floor`): the replacement of ``seat`` that leaves
        fewer than
        two live seats ends the match here, with the game's forfeit result or abandoned; the
        END round begins at once.  From here a live seat's messages other than its END, the
        keys it owes and votes are stale (sent before it saw the end; its core messages still
        count as its head, which its END names), and no replaced seat reclaims."""
        core = self._core
        live = core.live_seats()
        if core.ending.ended or core.ending.floor is not None or not below_floor(
                core.version, live):
            return
        floor = floor_reached(seat, count, reason, core.seats.absent, live)
        core.ending.floor = floor
        core.ending.cut = True
        core.events.append(floor)
        core.seats.reclaims.clear()
        core.seats.welcomed.clear()
        if isinstance(core.state.waiting, Over):  # (a RESIGN ended the game: its result)
            over: GameState[Any] | None = core.state
        else:
            over = forfeit_result(core.state, seat, core.seats.absent) if forfeit else None
            if over is not None:
                core._apply(over)
            elif forfeit:
                opening = openings_first(core.state, seat, core.seats.absent, live)
                if opening is not None:
                    # The openings due at the end come first (protocol.md §7.11): the END
                    # round begins once the state is over (MatchCore._settle).
                    core._apply(opening)
                    core._unsettled = True
                    return
        core._mark_due()
        w = core.state.waiting
        core.events.append(core.ending.reach(
            w.outcome.winners if isinstance(w, Over) else (), core.public_digest(),
            core.heads(), abandoned=over is None))
        core.clock.owing = None
        core._unsettled = True

    def abandon(self) -> None:
        """Below two live seats, the openings due at the end led elsewhere than the game's
        end: the match is abandoned in the state it is in."""
        core = self._core
        core._mark_due()
        core.events.append(core.ending.reach((), core.public_digest(), core.heads(),
                                             abandoned=True))
        core.clock.owing = None

    def own_accord(self, seat: int, message: Message) -> bool | None:
        """Live ``seat``'s next message, if it is one a seat sends of its own accord — a LEAVE,
        a RESIGN, a CLAIM, an OFFER, an ANSWER, a RESUME — or any message after the match ended
        at the floor or by an agreed draw: handled here (True: taken or skipped; False: it
        waits).  None: none of these (protocol.md §6.4 step 3)."""
        core = self._core
        body = message.content
        if isinstance(body, LeaveBody | ResignBody):
            if core.ending.ended:  # (the match is over: there is nothing to leave)
                core.stale.append(message)
            core._take(seat)
            if not core.ending.ended:
                self.leave(seat, resign=isinstance(body, ResignBody))
            return True
        if isinstance(body, ClaimBody):
            return self.claim(seat, message, body)
        if self.after_floor(seat, message):
            core.stale.append(message)
            if message.kind in CORE_KINDS:
                core.ending.core_head[seat] = message.hash  # (its END names it: §7.7)
            core._take(seat)
            return True
        if isinstance(body, OfferBody):
            return core.agreements.offer(seat, message)
        if isinstance(body, AnswerBody):
            return core.agreements.answer(seat, message)
        if isinstance(body, ResumeBody):
            return core.agreements.resume(seat, message)
        return None

    def after_floor(self, seat: int, message: Message) -> bool:
        """A live seat's message after the match ended at the floor or by an agreed draw
        (§7.7) that is stale: any but its END, a vote, a key release it may send, an OPEN of
        exactly the values the openings due at the end ask of it, or its audit (§7.11)."""
        core = self._core
        kind = message.kind
        if kind is Kind.OPEN and (core.ending.cut or core.ending.agreed):
            if not core.ending.ended:
                return not core.sealed.fits(seat, message.content)
            if core.ending.agreed and core.accepts(seat, Kind.OPEN):
                return False  # (its audit: §7.11)
        return ((core.ending.cut or core.ending.agreed) and kind not in (Kind.END, Kind.ABSENT)
                and not (kind is Kind.KEY_RELEASE and core.accepts(seat, kind)))
