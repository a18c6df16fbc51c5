"""The match: signed feeds in, one engine state out, the same on every honest peer.

:class:`MatchCore` is fed verified messages in any arrival order and consumes them in a
**canonical order**: it always knows what the engine waits for, and takes from each seat's feed,
in sequence, only a message that the current point accepts from that seat.  So every honest peer
holds the same public state, whatever order the network delivered things in.  The same rules
apply to every seat, the local one included (h11's rule: no special treatment of our own
messages); :class:`~protocol.match.seat.LocalSeat` only adds what the local seat must *send*.

The core composes one object per mechanism (``absence``, ``chance``, ``knowledge``, ``steps``,
``votes``, ``settlement``, ``forks``, ``ending``, ``wait``), each owning its state, its "owes"
predicates and its handlers; what each seat owes is the first row of
:data:`~protocol.match.table.TRANSITIONS` that applies.  The core alone holds the feeds and cursors,
consumes messages, changes the engine state (:meth:`MatchCore._apply`), settles what is complete
(:meth:`MatchCore._settle`), replaces seats (:meth:`MatchCore._replace`) and turns a fault into
:class:`PeerMisbehaved` (:meth:`MatchCore._handle`).  Nothing here raises on bad input from a
peer.  This module is also the façade: drivers import the core, the local seat and the events
from here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Final

from engine.core import Chance as ChancePending
from engine.core import GameState, Openings, Over, Simultaneous, Turn, Visibility
from engine.games import get_game
from protocol.deck import DeckMessageBody
from protocol.errors import BadMessage, Fault, LocalProtocolError, Mismatch
from protocol.match.admission import Admission
from protocol.match.completion import settle
from protocol.match.events import (
    ActionTaken,
    ChanceRedrawn,
    ChanceResolved,
    Event,
    FloorReached,
    ForkSuspected,
    HeadsDisputed,
    MatchClaimed,
    MatchEnded,
    PeerMisbehaved,
    PlayCommitted,
    PlayRevealed,
    PrivateKnowledge,
    ResultSigned,
    RoundKeyReleased,
    SeatForfeited,
    SeatLeft,
    SeatReclaimed,
    SeatReplaced,
    SeatsOverdue,
    SeatTimedOut,
)
from protocol.match.game import game_state_for, new_game_state, zombie_action
from protocol.match.seat import Decide, DecisionPending, LocalSeat
from protocol.match.table import (
    CHANCE,
    DIGEST,
    OVER,
    OVERLAY,
    SIMULTANEOUS,
    TRANSITIONS,
    TURN,
    Transition,
    describe_transitions,
)
from protocol.match.timing import MatchConfig, WaitClock, Waiting
from protocol.mechanisms.absence import Absence, Seats
from protocol.mechanisms.agreements import Agreements
from protocol.mechanisms.chance import Chance
from protocol.mechanisms.deals import Decks
from protocol.mechanisms.departures import Departures
from protocol.mechanisms.ending import Ending
from protocol.mechanisms.forks import Forks
from protocol.mechanisms.knowledge import KnowledgeRound, KnowledgeRounds
from protocol.mechanisms.late import Late
from protocol.mechanisms.sealed import Sealed
from protocol.mechanisms.settlements import Settlement
from protocol.mechanisms.steps import Step, Steps
from protocol.mechanisms.votes import Votes
from protocol.mechanisms.vouching import Vouching
from protocol.mechanisms.withholding import Withholding
from protocol.wire.feed import Equivocation, Feed
from protocol.wire.header import SignedHeader
from protocol.wire.messages import (
    CORE_KINDS,
    AbsentBody,
    ActBody,
    ChanceCommitBody,
    ChanceDigestBody,
    ChanceRevealBody,
    CommitBody,
    DeliveryBody,
    EndBody,
    KeyReleaseBody,
    Kind,
    LeaveBody,
    Message,
    OpenBody,
    ResignBody,
    RevealBody,
    SealKeyBody,
    WelcomeBody,
)
from protocol.wire.naming import naming

NO_STATE: Final = bytes(32)


class MatchCore:
    """Consumes every seat's feed in canonical order and drives the engine."""

    def __init__(self, header: SignedHeader, *, config: MatchConfig | None = None,
                 turn_timeout: float | None = None, silence_timeout: float | None = None,
                 wait_at_dead_ends: bool | None = None) -> None:
        base = config or MatchConfig()
        self.config = dataclasses.replace(
            base,
            turn_timeout=base.turn_timeout if turn_timeout is None else turn_timeout,
            silence_timeout=base.silence_timeout if silence_timeout is None else silence_timeout,
            wait_at_dead_ends=(base.wait_at_dead_ends if wait_at_dead_ends is None
                               else wait_at_dead_ends))
        self.header = header
        self.match_id = header.match_id
        self.keys = tuple(seat.key for seat in header.header.seats)
        self.n = len(self.keys)
        self.state = new_game_state(header)
        self.version = header.header.protocol
        self.naming = naming(self.version)
        self.feeds = [Feed(s, key, self.match_id, self.version)
                      for s, key in enumerate(self.keys)]
        self.cursor = [0] * self.n  # next unconsumed message per feed
        self.taken = 0  # messages consumed in all (the sum of the cursors)
        self._unsettled = True  # _settle may have something to do (see _consume_all)
        self.events: list[Event] = []
        self.stale: list[Message] = []  # messages skipped: a replaced seat's, stale votes
        self.shortfalls: list[str] = []  # every point played with fewer contributors
        self._digested: GameState[Any] | None = None
        self._digest = NO_STATE
        # Called with every new engine state / every message taken, in order (a replay's walker).
        self.state_observers: list[Callable[[GameState[Any]], None]] = []
        self.take_observers: list[Callable[[Message], None]] = []
        emit = self.events.append
        self.waiting = Waiting(self)
        self.clock = WaitClock(self.config, lambda seats: max(map(self.turn_timeout, seats)),
                               self.waiting.grace)
        self.seats = Seats(self.n, emit, withholding_forfeits=self.version >= 2,
                           match_id=self.match_id, version=self.version)
        self.forks = Forks()
        self.ending = Ending(self.match_id, self.n)
        self.chance = Chance(match_id=self.match_id, keys=self.keys, seats=self.seats,
                             state=lambda: self.state, emit=emit, shortfalls=self.shortfalls,
                             naming=self.naming, pooled=self.version >= 2 and get_game(
                                 header.header.game).dice_pools)
        self.knowledge = KnowledgeRounds(match_id=self.match_id, keys=self.keys,
                                         seats=self.seats, chance=self.chance, emit=emit,
                                         naming=self.naming)
        self.chance.judge = Withholding(seats=self.seats, chance=self.chance, version=self.version,
                                        knowledge=self.knowledge, feeds=self.feeds).judge
        self.sealed = Sealed(match_id=self.match_id, keys=self.keys, seats=self.seats,
                             ending=self.ending, state=lambda: self.state, emit=emit,
                             shortfalls=self.shortfalls)
        self.decks = Decks(match_id=self.match_id, keys=self.keys, seats=self.seats,
                           state=lambda: self.state, emit=emit, shortfalls=self.shortfalls,
                           base_heads=lambda: self.steps.anchor_heads, ending=self.ending,
                           opening_held=lambda seat: seat in self.sealed.held, feeds=self.feeds)
        self.sealed.decks = self.decks
        self.steps = Steps(match_id=self.match_id, keys=self.keys, seats=self.seats,
                           chance=self.chance, knowledge=self.knowledge,
                           state=lambda: self.state, step_state=lambda: self.step_state,
                           feeds=self.feeds, emit=emit, shortfalls=self.shortfalls,
                           mark_unfit=self.waiting.mark_unfit, heads=self.heads,
                           version=self.version, sealed=self.sealed)
        self.steps.on_claims = self.decks.on_actions
        self.vouching = Vouching(match_id=self.match_id, n=self.n, feeds=self.feeds,
                                 seats=self.seats, chance=self.chance, steps=self.steps,
                                 ending=self.ending, emit=emit, mark_unfit=self.waiting.mark_unfit,
                                 decks=self.decks, agreed=lambda: (
                                     self.agreements.draw_heads if self.version >= 3 else None))
        self.votes = Votes(seats=self.seats, feeds=self.feeds, cursor=self.cursor,
                           progress=self, shortfalls=self.shortfalls, match_id=self.match_id)
        self.settlement = Settlement(seats=self.seats, votes=self.votes, cursor=self.cursor,
                                     progress=self)
        self.votes.silenced = self.settlement.silenced
        self.late = Late(feeds=self.feeds, cursor=self.cursor, votes=self.votes,
                         ending=self.ending, seats=self.seats)
        self.agreements = Agreements(self)  # draws and pauses by agreement (§7.7)
        self.admission = Admission(
            state=lambda: self.state, chance=self.chance, knowledge=self.knowledge,
            steps=self.steps, seats=self.seats, votes=self.votes,
            ending=self.ending, agreements=self.agreements, owners={
                Seats: self.seats, Chance: self.chance, KnowledgeRounds: self.knowledge,
                Steps: self.steps, Votes: self.votes, Ending: self.ending, Sealed: self.sealed,
                Agreements: self.agreements, Decks: self.decks}, decks=self.decks)
        self.departures = Departures(self)  # LEAVE, CLAIM and the floor (§7.7)
        self.knowledge.open_rounds(self.state)
        self._pose(self.state)

    # ------------------------------------------------------------------ read-only views

    def heads(self) -> tuple[bytes, ...]:
        """Every seat's core head (the match id for none), or its replacement mark (v2)."""
        absent = self.seats.absent
        if not absent or self.version < 2:
            return tuple(self.ending.core_head)
        return tuple(self.seats.mark(s) if s in absent else h
                     for s, h in enumerate(self.ending.core_head))

    @property
    def disputes(self) -> list[HeadsDisputed]:
        return self.vouching.disputes

    @property
    def now(self) -> float:
        return self.clock.now

    @now.setter
    def now(self, value: float) -> None:
        self.clock.now = value

    @property
    def absent(self) -> dict[int, Absence]:
        return self.seats.absent

    @property
    def blocked(self) -> dict[int, PeerMisbehaved]:
        return self.seats.blocked

    @property
    def ballots(self) -> dict[tuple[int, int], dict[int, int]]:
        return self.votes.ballots

    @property
    def rounds(self) -> dict[str, KnowledgeRound]:
        return self.knowledge.rounds

    @property
    def step(self) -> Step | None:
        return self.steps.current

    @property
    def signed(self) -> bool:
        return self.ending.signed

    @property
    def final(self) -> MatchEnded | None:
        return self.ending.final

    @property
    def end_signatures(self) -> dict[int, Message]:
        return self.ending.end_signatures

    @property
    def equivocations(self) -> list[Equivocation]:
        return self.forks.equivocations

    # ------------------------------------------------------------------ input

    def receive(self, message: Message, now: float | None = None, *,
                verified: bool = False) -> list[Event]:
        """Add a message to its feed and advance as far as the feeds allow; the events this
        caused (misbehaviour included).  Never raises for bad input.  ``now``: any monotonic
        clock, in seconds; ``verified``: the caller checked the signature already."""
        if now is not None:
            self.clock.now = now
        start = len(self.events)
        if not 0 <= message.seat < self.n:
            return []
        claim = self.ending.claim
        if claim is not None and not claim.contested and message.seat == claim.seat and (
                message.seq >= claim.count):
            return []  # (after its seat's match was claimed: the claim rests on its absence)
        try:
            result = self.feeds[message.seat].add(message, verified=verified)
        except BadMessage as exc:
            self._misbehave(message.seat, str(exc), message, stop=False)
            return self.events[start:]
        if result.equivocation is not None:
            self.forks.equivocations.append(result.equivocation)
            pair = (result.equivocation.first, result.equivocation.second)
            # Replaced at the forked sequence number itself, once a message is due there
            # (_settle): the one point every peer agrees on, whichever version it took and
            # whenever the proof reached it.
            self._misbehave(message.seat, f"equivocation at sequence number {message.seq}",
                            *pair, stop=False)
            self._mark_fork(message.seat, message.seq)
        self.advance()
        return self.events[start:]

    def adopt(self, feeds: dict[int, Feed]) -> list[Event]:
        """Take over feeds that were already verified (a match file read by the transcript
        reader) instead of receiving their messages one by one, and advance."""
        for seat, feed in feeds.items():
            if feed.match_id != self.match_id or feed.seat != seat or (
                    not 0 <= seat < self.n or feed.public_key != self.keys[seat]):
                raise LocalProtocolError(f"feed of seat {seat} is not one of this match")
            self.feeds[seat] = feed
            for proof in feed.equivocations:
                self._mark_fork(seat, proof.seq)
        start = len(self.events)
        self.advance()
        self.votes.know_votes_behind()
        return self.events[start:]

    # ------------------------------------------------------------------ who is owed

    def live(self, seat: int) -> bool:
        return self.seats.live(seat)

    def live_seats(self) -> tuple[int, ...]:
        return self.seats.live_seats()

    def owing(self) -> tuple[int, ...]:
        """The seats the match waits for now (:meth:`Waiting.owing`)."""
        return self.waiting.owing()

    def unfit(self, seat: int) -> bool:
        """``seat``'s next message is in hand but cannot be taken (:meth:`Waiting.unfit`)."""
        return self.waiting.unfit(seat)

    def stuck(self, seat: int) -> bool:
        """The match needs ``seat``'s message and it is unfit (:meth:`Waiting.stuck`)."""
        return self.waiting.stuck(seat)

    def needed(self, seat: int) -> bool:
        """The match needs ``seat``'s next message now (votes aside)."""
        return self.waiting.needed(seat)

    # ------------------------------------------------------------------ the timers

    def turn_timeout(self, seat: int) -> float:
        """The turn timeout ``seat`` is owed under now (:meth:`Waiting.turn_timeout`)."""
        return self.waiting.turn_timeout(seat)

    def get_timer(self) -> float | None:
        """When the next timeout falls (None: the match waits for nobody)."""
        return self.waiting.get_timer()

    def handle_timer(self, now: float) -> list[Event]:
        """Overdue and timed-out seats at ``now`` (:meth:`Waiting.handle_timer`)."""
        return self.waiting.handle_timer(now)

    def silent_dead_end(self) -> tuple[int, int] | None:
        """The point the local seat signs silent (:meth:`Waiting.silent_dead_end`)."""
        return self.waiting.silent_dead_end()

    # ------------------------------------------------------------------ forks

    def _mark_fork(self, seat: int, seq: int) -> None:
        self.forks.mark(seat, seq)
        self.clock.owing = None
        self._unsettled = True

    def fork_behind(self) -> bool:
        """This core consumed a live seat's message at or past the point where that seat's
        feed was proved forked: it holds a state the others may not (they stop at the fork),
        so the driver must rebuild it from the feeds (:meth:`adopt`), which stops there."""
        return self.forks.behind(self.cursor)

    def replaced_behind(self, seat: int) -> bool:
        """A live other seat voted ``seat`` absent at a message this peer had already consumed,
        and no live seat answered "present": a peer playing ``seat`` rebuilds its core from the
        feeds (:meth:`adopt`).  Each vote answers True once."""
        return self.votes.replaced_behind(seat)

    # ------------------------------------------------------------------ helpers

    def _misbehave(self, seat: int, reason: str, *evidence: Message, stop: bool = True,
                   replace: bool = True) -> None:
        event = PeerMisbehaved(seat, reason, tuple(evidence))
        self.events.append(event)
        if stop and seat not in self.seats.blocked:
            self.seats.blocked[seat] = event
            self.clock.owing = None  # a blocked seat is owing: its timers run
            if replace and seat not in self.seats.absent:
                self._replace(seat, reason, final=True)

    def next_message(self, seat: int) -> Message | None:
        if seat in self.seats.blocked or self.forks.stops(seat, self.cursor[seat]):
            return None
        return self.feeds[seat].at(self.cursor[seat])

    def _take(self, seat: int) -> None:
        for observe in self.take_observers:
            observe(self.feeds[seat].chain[self.cursor[seat]])
        self.votes.on_take(seat)
        self.cursor[seat] += 1
        self.taken += 1

    def public_digest(self) -> bytes:
        state = self.state
        if self._digested is not state:  # states are immutable: one digest per state
            self._digested = state
            steps = self.steps
            self._digest = (steps.start_digest if state is steps.start
                            and steps.start_digest is not None else state.digest())
        return self._digest

    @property
    def step_state(self) -> bytes:
        """The public digest at the start of the current step (what messages of the step carry,
        the same on every honest peer whatever free actions arrived since); outside a
        simultaneous step, the current public digest."""
        steps = self.steps
        start = steps.start if steps.current is not None else None
        if start is None:
            return self.public_digest()
        if steps.start_digest is None:
            # (often the state public_digest() just digested: the step began there)
            steps.start_digest = self._digest if start is self._digested else start.digest()
        return steps.start_digest

    def expects(self, seat: int, *, votes: bool = True) -> Kind | None:
        """What ``seat`` owes next (None: nothing now; ``votes=False``: its votes aside)."""
        return self.admission.expects(seat, votes=votes)

    def accepts(self, seat: int, kind: Kind) -> bool:
        """May ``seat``'s next message be of ``kind`` now?"""
        return self.admission.accepts(seat, kind)

    def may_reveal_directly(self, seat: int) -> bool:
        return self.admission.may_reveal_directly(seat)

    def phase(self) -> str:
        return self.admission.phase()

    def where(self) -> str:
        return self.admission.where()

    # ------------------------------------------------------------------ the canonical loop

    def advance(self) -> None:
        """Consume every message that fits the current state, seat by seat, until none does."""
        self._consume_all()
        if not self.ending.signed:
            self.waiting.note()

    def _consume_all(self) -> None:
        votes = self.votes
        while True:
            self._consume_pass()
            if self.ending.signed:
                return
            if votes.unread():
                continue  # a RECLAIM was taken: read the votes after it
            # Only once nothing more can be taken (a dead end is then the same on every peer
            # that reaches it, protocol.md §7.6); a settled point before crossed votes.
            if not votes.ballots or votes.taken_under_vote() or not (
                    (votes.settles and self._break_silence()) or self._break_crossed_votes()):
                return

    def _consume_pass(self) -> None:
        if self.votes.index() | self.agreements.index():
            self._unsettled = True
        if self._unsettled:  # (a fork proved or a vote read since: else nothing to settle)
            self._settle()
        chains, cursor = [feed.chain for feed in self.feeds], self.cursor
        progress = True
        while progress and not self.ending.signed:
            progress = False
            for seat in range(self.n):
                if len(chains[seat]) <= cursor[seat]:
                    continue  # (nothing of its to take: the common case, checked cheaply)
                message = self.next_message(seat)
                if message is None:
                    continue
                before = len(self.seats.absent)
                if self._consume(seat, message) or len(self.seats.absent) != before:
                    progress = True  # consumed, or its sender was replaced for it
                    self._settle()
                    if self.ending.signed:
                        return

    def _break_silence(self) -> bool:
        """Replace the seat the settlement names (protocol.md §7.6 item 8)."""
        seat = self.settlement.to_replace()
        if seat is None:
            return False
        count = self.cursor[seat]
        self._replace(seat, f"absent: silent at its message {count}, settled: every other seat "
                      "signed it at a dead end", final=False)
        self.clock.owing = None
        self._unsettled = True
        return True

    def _break_crossed_votes(self) -> bool:
        """Break a dead end of crossed votes (protocol.md §7.6 item 7), unless a live peer
        holds it back a turn timeout first."""
        if not self.votes.break_crossed(lambda: self.clock.hold_dead_end(self.waiting.state_key()),
                                        lambda: self.settlement.pending() is not None):
            return False
        self.clock.owing = None
        self._unsettled = True
        return True

    def _handle(self, seat: int, call: Callable[[], bool]) -> bool:
        """Run a mechanism's handler for ``seat``'s next message: taken (True), waiting
        (False), or a fault — the one place a fault becomes :class:`PeerMisbehaved`."""
        try:
            taken = call()
        except Mismatch as fault:
            if not self.votes.pending():  # (signed without a departure: §9.2 item 4b)
                self.vouching.note_unseen_departure(seat, fault.evidence)
                self._misbehave(seat, fault.reason, *fault.evidence)
            return False
        except Fault as fault:
            self._misbehave(seat, fault.reason, *fault.evidence)
            return False
        if taken:
            self._take(seat)
        return taken

    def _handle_fault(self, seat: int, check: Callable[[], bool]) -> bool:
        """A check of ``seat``'s next message before it is handled: True if it passes, False
        if it waits or is a fault (blamed here)."""
        try:
            return check()
        except Fault as fault:
            self._misbehave(seat, fault.reason, *fault.evidence)
            return False

    def _consume(self, seat: int, message: Message) -> bool:
        kind = message.kind
        body = message.content
        seats, votes, chance = self.seats, self.votes, self.chance
        if isinstance(body, LeaveBody | ResignBody) and seat in seats.absent and (
                not self.ending.ended):
            # (Replaced already: it will not reclaim; a reclaim it made ends.  Its zombie plays
            # on: a replaced seat's RESIGN is a LEAVE.)
            self._take(seat)
            self.departures.leave(seat)
            return True
        if seat in seats.absent:
            verdict = ("stale" if self.ending.floor is not None
                       else seats.on_replaced_seat_message(seat, body))
            if verdict == "wait":
                return False  # after its reclaim, it waits to rejoin
            if verdict == "stale":
                self.stale.append(message)
            self._take(seat)
            return True
        if seat in seats.reclaims:
            return False  # a reclaiming seat waits until it rejoins
        if votes.ballots and votes.presence(seat) in ("pending", "absent") and not (
                kind is Kind.END and self.ending.ended) and not self.late.holds_nothing(seat):
            # Voted absent by some: its message waits for the vote's outcome.  Not an END:
            # at the end the vote can only be about that END, which is here.
            return False
        if votes.cast and kind is not Kind.ABSENT and votes.after_vote(seat):
            return False  # it voted a seat absent: what it sent next waits for the outcome
        if seat in seats.leaving:
            return False  # it left: replaced where its next message is due, which waits
        if self.agreements.holds(seat) or (kind is Kind.ACT and self.agreements.offers):
            return False  # an offer stands: its offerer's later messages and actions wait
        handled = self.departures.own_accord(seat, message)
        if handled is not None:
            return handled
        if self.knowledge.stale(seat, message.content):
            self.stale.append(message)
            self._take(seat)
            return True
        if isinstance(body, DeckMessageBody):
            place = self.decks.place(seat, body)
            if place == "stale":  # (a body of a deal that restarted since it was signed)
                self.stale.append(message)
                self._take(seat)
                return True
            if place == "later":
                return False  # (its deck's stage, or its show, is not reached here yet)
        if isinstance(body, ChanceRevealBody) and chance.early_reveal_state(body, message):
            # An early turn's reveal consumed after the step it was sent in: it was owed when
            # sent, so it is taken now, whatever the seat owes since.
            event = body.secrets[0][0]
            w = self.state.waiting
            if event == chance.early_turn() or (
                    isinstance(w, ChancePending) and event == chance.pending_id()):
                if chance.revealed(seat, event):
                    self._misbehave(seat, f"revealed its secret for {event} twice", message)
                    return False
                done = self._handle(seat, lambda: chance.on_reveal(seat, message, body, event))
                if done:
                    self.ending.core_head[seat] = message.hash
                return done
        if not self.accepts(seat, kind):
            # An optional message sent before this peer got to its point waits; so does a
            # message when the phase owes nothing of its seat yet, and a direct reveal until
            # every other commitment is in.  Otherwise it is the wrong message.
            if kind is Kind.REVEAL and self.admission.phase_expects(seat) is Kind.COMMIT:
                proof = self.steps.direct_reveal_proof(seat)
                # (Version 2: only a vote on the seats the proof rests on can undo it — a
                # vote on another seat, read ahead from a file or not yet arrived, must not
                # decide whether it is taken.)
                if proof is None or (votes.pending() if self.version < 2
                                     else votes.pending_on((seat, proof[1]))):
                    return False
                self._misbehave(seat, proof[0], message)
                return False
            expected = None if kind in OVERLAY else self.admission.phase_expects(seat)
            if expected is None or self.late.votes_pending():
                return False
            if self.version >= 2 and kind in CORE_KINDS and not self._handle_fault(
                    seat, lambda: self.vouching.vouches(seat, message)):
                return False  # (its sender saw another match: a dispute, or a split)
            self.vouching.note_unvouched(seat, message)
            self._misbehave(seat, f"sent {self.naming.kind_name(kind)} where "
                            f"{self.naming.kind_name(expected)} was due",
                            message)
            return False
        if self.version >= 2 and kind in CORE_KINDS and not self._handle_fault(
                seat, lambda: self.vouching.vouches(seat, message)):
            return False
        if kind not in OVERLAY and message.state != self.step_state and not (
                isinstance(body, ChanceRevealBody) and chance.early_reveal_state(body, message)):
            if self.late.votes_pending() or (isinstance(body, ChanceRevealBody)
                                         and chance.early_turn() is not None):
                # (A chance reveal of an early turn signed after its sender saw the step
                # resolved carries the state after it: it waits until this peer sees that too.)
                return False  # it may have seen a seat replaced that this peer has not yet
            self.vouching.note_unvouched(seat, message, self.chance.uncovered)
            self._misbehave(seat, "its message carries another public state digest than the "
                            "match is in (its engine diverged, or it lies)", message)
            return False
        if kind in CORE_KINDS:
            done = self._consume_core(seat, message)
            if done and kind is not Kind.END:
                self.ending.core_head[seat] = message.hash
            return done
        if isinstance(body, AbsentBody):
            return self._handle(seat, lambda: votes.on_vote(seat, message))
        if isinstance(body, SealKeyBody):
            return self._handle(seat, lambda: self.knowledge.on_key(seat, message, body))
        if isinstance(body, DeliveryBody):
            r = self.knowledge.rounds.get(body.round)
            key_message = None if r is None else r.key_message
            if (message.version >= 2 and r is not None and key_message is not None
                    and not self._handle_fault(seat, lambda: self.vouching.names_key(
                        seat, message, r.seat, body.key_message, key_message))):
                return False
            return self._handle(seat, lambda: self.knowledge.on_delivery(seat, message, body))
        if isinstance(body, KeyReleaseBody):
            return self._handle(seat, lambda: self.knowledge.on_release(seat, message, body))
        if isinstance(body, WelcomeBody):
            welcome = seats.on_welcome(seat, body, self.cursor.__getitem__)
            if welcome == "wait":
                # Honest only while this peer lacks the RECLAIM it answers: until anything
                # else is taken its seat is owed (timed), as a seat stuck on a reveal is.
                self.waiting.mark_unfit(seat)
                return False
            if welcome == "stale":
                self.stale.append(message)
            self._take(seat)
            return True
        return False

    def _consume_core(self, seat: int, message: Message) -> bool:
        body = message.content
        w = self.state.waiting
        chance, steps = self.chance, self.steps
        if isinstance(body, ChanceCommitBody):
            return self._handle(seat, lambda: chance.on_commit(seat, message, body))
        if isinstance(body, ChanceRevealBody):
            if isinstance(w, ChancePending):
                event = chance.pending_id()
            else:
                early = chance.early_turn()
                assert early is not None  # accepts() takes CHANCE_REVEAL only then
                event = early
            return self._handle(seat, lambda: chance.on_reveal(seat, message, body, event))
        if isinstance(body, ChanceDigestBody):
            if self._handle(seat, lambda: chance.on_digest(seat, message, body)):
                return True
            # Another digest than this peer's: honest only while this peer lacks a version of a
            # commitment its sender holds, as a reveal's other commitment set — its seat is owed.
            self.waiting.mark_unfit(seat)
            return False
        if isinstance(body, ActBody):
            assert isinstance(w, Simultaneous | Turn)
            if isinstance(w, Simultaneous):
                if steps.current is not None:
                    self.seats.first_of_step(steps.current, seat)
            else:
                self.seats.rejoin_at_turn(seat, w.step)
            try:
                new_state = steps.on_act(seat, message, body, w.step)
            except Fault as fault:
                self._misbehave(seat, fault.reason, *fault.evidence)
                return False
            self.ending.core_head[seat] = message.hash  # (before: a next turn's heads name it)
            if self.decks.decks:
                action = self.state.parse_action(seat, body.action)
                self.decks.on_actions(self.state, {seat: action})
            self._apply(new_state, turned=False)
            self._take(seat)
            return True
        if isinstance(body, CommitBody):
            assert isinstance(w, Simultaneous)
            if steps.current is not None:
                self.seats.first_of_step(steps.current, seat)
            return self._handle(seat, lambda: steps.on_commit(seat, message, body, w.step))
        if isinstance(body, RevealBody):
            assert isinstance(w, Simultaneous)
            return self._handle(seat, lambda: steps.on_reveal(seat, message, body, w.step))
        if isinstance(body, EndBody):
            return self._handle(seat, lambda: self.ending.on_end(seat, message, body))
        if isinstance(body, OpenBody):
            return self._handle(seat, lambda: self.sealed.on_open(seat, message, body))
        if isinstance(body, DeckMessageBody):
            return self._consume_deck(seat, message, body)
        self._misbehave(seat, f"{self.naming.kind_name(message.kind)} is not expected now", message)
        return False

    def _consume_deck(self, seat: int, message: Message, body: DeckMessageBody) -> bool:
        """A DECK message: taken, waiting (a step that may fit later), or stale (a body of a
        deal that restarted: taken, and set aside)."""
        try:
            taken = self.decks.on_deck(seat, message, body)
        except Fault as fault:
            self._misbehave(seat, fault.reason, *fault.evidence)
            return False
        if taken is None:
            self.stale.append(message)
        if taken is not False:
            self._take(seat)
        return taken is not False

    # ------------------------------------------------------------------ changes of state

    def _apply(self, state: GameState[Any], *, turned: bool = True) -> None:
        """The one place the engine state changes: rounds the new state owes open, and (unless
        an open action made it, which turns nothing: ``turned``) rounds whose events are all
        turned owe their key."""
        self.state = state
        self.ending.state_changed()
        self._pose(state)
        self.knowledge.open_rounds(state)
        if isinstance(state.waiting, Turn | Openings):
            self.steps.begin_turn()
        if turned:
            self._mark_due()
        for observe in self.state_observers:
            observe(state)

    def _pose(self, state: GameState[Any]) -> None:
        """A die posed takes its pool slot; a decision pending ends the dice round (§7.12)."""
        w = state.waiting
        if isinstance(w, ChancePending):
            if w.event.visibility is Visibility.PRIVATE:
                self.decks.pose(state)
            else:
                self.chance.pose(w.event)
        else:
            self.chance.end_round()

    def _mark_due(self) -> None:
        self.knowledge.mark_due(self._over)

    def _over(self) -> bool:
        """The engine reached its end, or the match ended below two live seats (§7.7)."""
        return isinstance(self.state.waiting, Over) or self.ending.floor is not None

    def _replace(self, seat: int, reason: str, *, final: bool, left: bool = False,
                 forfeit: bool = True, resigned: bool = False) -> None:
        """``seat`` is replaced by its zombie; each mechanism hears of it, in this order: the
        seats (its reclaim ends), the votes that replaced it (spent), the private-knowledge
        rounds (its own ends, one it delivered to publishes), the chance secrets it still owed
        (recovered from a published key, or drawn again), and the collections of commitments
        that may now be complete."""
        count = self.cursor[seat]
        self.seats.replace(seat, count, reason, final=final, left=left, resigned=resigned)
        self.votes.on_replaced(seat, count)
        self.events.append(SeatReplaced(seat, count, reason))
        self.knowledge.on_replaced(seat)
        self.decks.on_replaced(seat)
        self.chance.use_published(seat)
        self.chance.redraw_lost(self.knowledge.recoverable)
        if self.ending.ended and not self.ending.signed:
            return
        self.chance.close_collections()
        self.departures.floor(seat, count, reason, forfeit=forfeit)

    def _settle(self) -> None:
        """Apply whatever is now complete (:func:`protocol.match.completion.settle`)."""
        self._unsettled = False
        settle(self)

__all__ = [
    "CHANCE", "CORE_KINDS", "DIGEST", "NO_STATE", "OVER", "SIMULTANEOUS", "TRANSITIONS", "TURN",
    "Absence", "ActionTaken", "ChanceRedrawn", "ChanceResolved", "Decide", "DecisionPending",
    "Event", "FloorReached", "ForkSuspected", "HeadsDisputed", "KnowledgeRound", "LocalSeat",
    "MatchClaimed",
    "MatchConfig", "MatchCore",
    "MatchEnded", "PeerMisbehaved", "PlayCommitted", "PlayRevealed", "PrivateKnowledge",
    "ResultSigned", "RoundKeyReleased", "SeatForfeited", "SeatLeft", "SeatReclaimed",
    "SeatReplaced", "SeatTimedOut",
    "SeatsOverdue", "Transition", "describe_transitions", "game_state_for", "new_game_state",
    "zombie_action",
]
