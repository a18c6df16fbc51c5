"""Agreements (version 2, protocol.md §7.7): a draw or a pause that every live seat agrees to.

A seat OFFERs one where a message of its that drives the engine is due; the OFFER is taken
there and nowhere else, so every peer takes it in the same engine state.  From then on the
engine waits — no state change — until every other live seat has ANSWERed, and the offerer's
later messages wait too; answers are read ahead of the cursors, as votes are, so an answer
behind a message that waits is never stuck.  A decline ends the offer; an agreement applies it
in that same state: a draw ends the game with the game's drawn result, a pause stops every
timer until a seat RESUMEs.  The core (:class:`~protocol.match.core.MatchCore`) owns one
:class:`Agreements`, which acts on the core's state, feeds and ending as its other handlers
do."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.core import EngineError, Over
from protocol.crypto import replaced_head
from protocol.match.events import MatchResumed, OfferMade, OfferSettled
from protocol.wire.messages import CORE_KINDS, AnswerBody, Message, OfferBody

if TYPE_CHECKING:
    from protocol.match.core import MatchCore


@dataclass(frozen=True)
class Offer:
    """A standing offer: ``seat``'s OFFER, its message ``seq``, of ``what``."""

    seat: int
    seq: int
    what: str


class Agreements:
    """OFFER, ANSWER and RESUME, for :class:`~protocol.match.core.MatchCore`."""

    def __init__(self, core: MatchCore) -> None:
        self._core = core
        self.offers: dict[int, Offer] = {}  # offerer -> its offer, taken and not settled
        # (offerer, seq) -> answerer -> (yes, the answer's seq): every answer to a chained
        # OFFER, read ahead of the cursors (the first of each seat counts).
        self.answers: dict[tuple[int, int], dict[int, tuple[bool, int]]] = {}
        self._scanned = [0] * core.n
        self.paused = False  # a pause was agreed and nobody resumed since: no timer runs
        # An agreed draw: the heads its END round signs — for each live seat its last message
        # that drove the engine before its OFFER or ANSWER — raw (the transcript's) and as
        # ENDs name them (a replaced seat by its mark).
        self.draw_heads: tuple[tuple[bytes, ...], tuple[bytes, ...]] | None = None

    # ------------------------------------------------------------------ reading ahead

    def index(self) -> bool:
        """Read every ANSWER chained since, ahead of the cursors — but not past one whose OFFER
        is not chained yet (it is read once it is).  True if an answer was read."""
        core = self._core
        read = False
        for seat, feed in enumerate(core.feeds):
            chain = feed.chain
            index = self._scanned[seat]
            while index < len(chain):
                body = chain[index].content
                if isinstance(body, AnswerBody) and body.seat != seat and body.seat < core.n:
                    target = core.feeds[body.seat].chain
                    if len(target) <= body.seq:
                        break
                    if isinstance(target[body.seq].content, OfferBody):
                        self.answers.setdefault((body.seat, body.seq), {}).setdefault(
                            seat, (body.yes == 1, index))
                        read = True
                index += 1
            self._scanned[seat] = index
        return read

    # ------------------------------------------------------------------ the table

    def owes_answer(self, seat: int) -> bool:
        """Another seat's offer stands and ``seat`` has not answered it."""
        return any(o.seat != seat and seat not in self.answers.get((o.seat, o.seq), {})
                   for o in self.offers.values())

    def holds(self, seat: int) -> bool:
        """``seat``'s offer stands: its later messages wait until it is settled."""
        return seat in self.offers

    # ------------------------------------------------------------------ handlers

    def offer(self, seat: int, message: Message) -> bool:
        """Live ``seat``'s OFFER at its cursor: taken where a message of its that drives the
        engine is due (it waits until then); stale once the game is over."""
        core = self._core
        body = message.content
        assert isinstance(body, OfferBody)
        if core.ending.ended or isinstance(core.state.waiting, Over):
            core.stale.append(message)
            core._take(seat)
            return True
        if core.expects(seat, votes=False) not in CORE_KINDS:
            return False
        core._take(seat)
        self.offers[seat] = Offer(seat, message.seq, body.what)
        core.events.append(OfferMade(seat, message.seq, body.what))
        core.clock.owing = None
        core._unsettled = True
        return True

    def answer(self, seat: int, message: Message) -> bool:
        """``seat``'s ANSWER at its cursor (what it says was read ahead): it must name another
        seat of the match; it waits while the slot it names is not chained here, and is stale
        if that slot holds no OFFER (an answer to nothing counts for nothing)."""
        core = self._core
        body = message.content
        assert isinstance(body, AnswerBody)
        if body.seat == seat or body.seat >= core.n:
            core._misbehave(seat, f"an answer to no offer: seat {body.seat} is "
                            f"{'itself' if body.seat == seat else 'not a seat of the match'}",
                            message)
            return False
        target = core.feeds[body.seat].chain
        if len(target) <= body.seq:
            return False
        if not isinstance(target[body.seq].content, OfferBody):
            core.stale.append(message)
        core._take(seat)
        return True

    def resume(self, seat: int, message: Message) -> bool:
        """Live ``seat``'s RESUME: it ends the pause (stale if none is agreed)."""
        core = self._core
        if self.paused and not core.ending.ended:
            self.paused = False
            core.events.append(MatchResumed(seat))
            core.clock.owing = None
        else:
            core.stale.append(message)
        core._take(seat)
        return True

    # ------------------------------------------------------------------ settling

    def settle(self) -> bool:
        """Settle the lowest offerer's offer that can be: it lapses if its seat was replaced or
        the match ended; it is declined once a live seat asked declines; it is agreed once every
        live seat asked accepts.  True if one was settled."""
        core = self._core
        for seat in sorted(self.offers):
            offer = self.offers[seat]
            if not core.live(seat) or core.ending.ended:
                self._settled(offer, False, why="its seat was replaced" if not core.live(seat)
                              else "the match ended")
                return True
            asked = [s for s in core.live_seats() if s != seat]
            said = self.answers.get((seat, offer.seq), {})
            declined = tuple(s for s in asked if s in said and not said[s][0])
            if declined:
                self._settled(offer, False, declined)
                return True
            if all(s in said for s in asked):
                self._agreed(offer)
                return True
        return False

    def _agreed(self, offer: Offer) -> None:
        core = self._core
        if offer.what == "pause":
            self.paused = True
            self._settled(offer, True)
            return
        try:
            drawn = core.state.agree_draw()
        except EngineError as exc:
            self._settled(offer, False, why=str(exc))
            return
        self._settled(offer, True)
        self.draw_heads = self._heads(offer)
        core.ending.agreed = True  # (what a live seat sent since, before it saw it, is stale)
        core._apply(drawn)

    def _heads(self, offer: Offer) -> tuple[tuple[bytes, ...], tuple[bytes, ...]]:
        """The heads of an agreed draw: each live seat's last message that drove the engine
        before its OFFER or ANSWER — a point its feed fixes, whatever was taken here when the
        last answer came — and each replaced seat's as it stands."""
        core = self._core
        said = self.answers[(offer.seat, offer.seq)]
        raw = list(core.ending.core_head)
        marked = list(core.heads())
        for seat in core.live_seats():
            before = offer.seq if seat == offer.seat else said[seat][1]
            chain = core.feeds[seat].chain
            raw[seat] = marked[seat] = next(
                (m.hash for m in reversed(chain[:before]) if m.kind in CORE_KINDS),
                core.match_id)
        if core.version < 2:
            marked = raw
        else:
            for seat, absence in core.absent.items():
                marked[seat] = replaced_head(core.match_id, seat, absence.count)
        return tuple(raw), tuple(marked)

    def _settled(self, offer: Offer, agreed: bool, declined: tuple[int, ...] = (),
                 why: str = "") -> None:
        core = self._core
        del self.offers[offer.seat]
        core.events.append(OfferSettled(offer.seat, offer.seq, offer.what, agreed, declined,
                                        why))
        core.clock.owing = None
        core._unsettled = True
