"""The local seat: what this peer's own seat must send, persisted by the caller before sending.

:class:`LocalSeat` reads the match core (the same rules as for every other seat) and writes the
bodies it owes: each mechanism's writers (:mod:`protocol.mechanisms.chance`,
:mod:`protocol.mechanisms.knowledge`) for
its own kinds, the decisions here (it asks ``decide``), and the votes.  It also opens the
deliveries of its own private-knowledge rounds and computes what they show."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.core import Chance as ChancePending
from engine.core import ChanceEvent, EngineError, GameState, Openings, Over, Simultaneous, Turn
from protocol.crypto import (
    SeatSecrets,
    chance_outcome,
    commit_set_digest,
    play_commitment,
    replaced_head,
    sealed_commitment,
)
from protocol.deck import DeckSeat
from protocol.errors import LocalProtocolError
from protocol.match.events import Event, PrivateKnowledge
from protocol.match.game import is_free
from protocol.mechanisms import chance as chance_bodies
from protocol.mechanisms import knowledge as round_bodies
from protocol.mechanisms.knowledge import KnowledgeRound, round_private
from protocol.wire.messages import (
    CORE_KINDS,
    OFFERS,
    AbsentBody,
    ActBody,
    AnswerBody,
    ClaimBody,
    CommitBody,
    EndBody,
    KeyReleaseBody,
    Kind,
    LeaveBody,
    Message,
    OfferBody,
    OpenBody,
    ReclaimBody,
    ResignBody,
    ResumeBody,
    RevealBody,
    WelcomeBody,
    sign_message,
)

if TYPE_CHECKING:
    from protocol.match.core import MatchCore

Decide = Callable[[GameState[Any], int], str]  # the local seat's choice, in notation

# What a leaving seat still sends when owed: it opens what it committed to (protocol.md §7.7).
_OPENINGS = frozenset({Kind.REVEAL, Kind.CHANCE_REVEAL, Kind.DELIVERY, Kind.KEY_RELEASE,
                       Kind.OPEN})
# The stored choices (protocol.md §8.1) also hold the seat's sealed values ("sealed SLOT" ->
# value) and the slots a pending commitment seals ("slots STEP" -> the slots, space-separated).
_SEALED_KEY = "sealed "
_SLOTS_KEY = "slots "


class _Unknown(Exception):
    pass


def bot_answer(offerer: int, what: str) -> bool:
    """How a bot answers an offer (protocol.md §7.7): it agrees to a pause, never to a draw."""
    return what == "pause"


class DecisionPending(Exception):
    """Raised by a ``decide`` function whose answer is not ready yet (a person still
    choosing): the local seat sends nothing now and asks again later."""


class LocalSeat:
    """The local seat: what it must send next, persisted by the caller before sending."""

    def __init__(self, core: MatchCore, seat: int, private_key: Ed25519PrivateKey,
                 seed: bytes, decide: Decide) -> None:
        self.core = core
        self.seat = seat
        self.key = private_key
        self.seed = seed
        self.secrets = SeatSecrets(seed, core.match_id, core.keys[seat])
        core.decks.attach(DeckSeat(seat, seed, core.match_id))
        self.decide = decide
        self.sent: list[Message] = []
        self.pending_reveal: dict[str, tuple[str, bytes]] = {}
        self._unopened: dict[str, CommitBody] = {}  # restored commitments not reopened yet
        # Its sealed values (slot -> value), and the slots each pending commitment seals.
        self.sealed_values: dict[str, str] = {}
        self.step_slots: dict[str, tuple[str, ...]] = {}
        # Called with every pending choice (step -> action) before a COMMIT is returned, so
        # the driver stores them (privately) before the COMMIT is persisted: a restart then
        # reopens the commitment without searching the step's actions (protocol.md §8.1).
        self.remember: Callable[[Mapping[str, str]], None] | None = None
        self.knowledge: dict[str, str] = {}  # what its rounds showed: engine id -> outcome
        self.events: list[Event] = []  # PrivateKnowledge, for the driver
        self._opened: set[str] = set()  # its rounds whose deliveries it has opened
        self._prove: set[str] = set()  # its rounds with a lying delivery: release at once
        self._voted: set[tuple[int, int]] = set()
        # Points whose "present" answer is held back (see _present_vote): since when.
        self._withheld: dict[tuple[int, int], float] = {}
        # Replaced for silence, it sends no RECLAIM while this is set: the driver of a person's
        # seat sets it when the person let the timeouts run out, and clears it when they
        # answer again (the bot plays meanwhile, without a timeout in every step).
        self.hold_reclaim = False
        # Version 2: the person leaves the match for good (:meth:`leave`); ``left`` once its
        # LEAVE is signed — it sends nothing more.
        self.leaving = False
        self.resigning = False  # (leaving by a RESIGN)
        self.left = False
        self._claimed = False  # its CLAIM is signed (version 2: once)
        # Version 2 agreements (protocol.md §7.7): how this seat answers an offer — yes, no,
        # or None while its person decides; an offer or a resume to send; offers answered.
        self.answering: Callable[[int, str], bool | None] = bot_answer
        self._offering: str | None = None
        self._resuming = False
        self._answered: set[tuple[int, int]] = set()
        self._delivered: dict[str, dict[int, bytes]] = {}  # secrets its rounds were sent
        self._rounds_seen = 0  # the core's rounds looked at so far (for _learn)
        self._mine: list[KnowledgeRound] = []  # its own rounds among them, not opened yet

    def restore(self, persisted: list[Message],
                choices: Mapping[str, str] | None = None) -> list[Message]:
        """After a restart: take back the messages this seat persisted (its own feed, from
        the match file) and return them to be sent again — the same bytes, so peers see
        harmless duplicates, never a second message under a sequence number.  A commitment
        whose reveal is still owed is reopened: the salt derives from the seed, and the action
        is the stored choice (``choices``, step -> action, as :attr:`remember` was given it)
        if it opens the commitment, else found among the step's legal actions where the game
        lists them."""
        for i, message in enumerate(persisted):
            if message.seat != self.seat or message.seq != i:
                raise LocalProtocolError("the persisted feed is not this seat's, in order")
        self.sent = list(persisted)
        # (A seat that left sends nothing more, after a restart too.)
        self.left = self.leaving = any(m.kind in (Kind.LEAVE, Kind.RESIGN) for m in persisted)
        self.pending_reveal = {}
        self._unopened = {}
        choices = choices or {}
        self.sealed_values = {k[len(_SEALED_KEY):]: v for k, v in choices.items()
                              if k.startswith(_SEALED_KEY)}
        self.step_slots = {k[len(_SLOTS_KEY):]: tuple(v.split()) for k, v in choices.items()
                           if k.startswith(_SLOTS_KEY)}
        revealed = {m.content.step for m in persisted if isinstance(m.content, RevealBody)}
        for message in persisted:
            body = message.content
            if isinstance(body, CommitBody) and body.step not in revealed:
                stored = choices.get(body.step)
                salt = self.secrets.salt_for(body.step)
                if isinstance(stored, str) and play_commitment(
                        self.core.match_id, body.step, self.core.keys[self.seat], stored,
                        salt, self._sealed_for(body.step)) == body.commitment:
                    self.pending_reveal[body.step] = (stored, salt)
                    continue
                try:
                    self.pending_reveal[body.step] = self._reopen(body)
                except LocalProtocolError:
                    # Not at its step yet (a core rebuilt from the feeds may stop before it,
                    # the seat under a vote): reopened when its reveal is due.  (A commitment
                    # skipped as stale — the seat was replaced meanwhile — never is.)
                    self._unopened[body.step] = body
            if isinstance(body, AbsentBody):
                self._voted.add((body.seat, body.count))
            if isinstance(body, AnswerBody):
                self._answered.add((body.seat, body.seq))
        return list(persisted)

    def behind(self) -> bool:
        """The core took a message the feeds do not let it take where it did: this seat's own,
        before another seat's vote on it came in (:meth:`MatchCore.replaced_behind`), or a
        seat's message past the point its feed was proved forked (:meth:`MatchCore.fork_behind`).
        The driver then rebuilds (:meth:`rebuilt`)."""
        return self.core.replaced_behind(self.seat) or self.core.fork_behind()

    def rebuilt(self) -> LocalSeat:
        """This seat on a core rebuilt from the feeds, as the verifier would build it (a fresh
        core adopts every feed; the seat takes its own feed back), with the same settings,
        clock, findings of the clock and ``decide``."""
        old = self.core
        core = type(old)(old.header, config=old.config)
        core.now = old.now
        # What this peer's clock found stays found (a seat it timed out at a message it still
        # lacks is still timed out there): the rebuilt core does not wait both timeouts again.
        core.clock.overdue = dict(old.clock.overdue)
        core.clock.timed_out = dict(old.clock.timed_out)
        core.votes.behind_top = dict(old.votes.behind_top)
        core.adopt(dict(enumerate(old.feeds)))
        local = LocalSeat(core, self.seat, self.key, self.seed, self.decide)
        # Every message this seat signed, those not fed back to its core yet too: a seat that
        # signed its message N and lost it in the rebuild would sign another N (a fork).
        local.restore(list(self.sent), self.stored())
        local.hold_reclaim = self.hold_reclaim
        local.remember = self.remember
        local._withheld = dict(self._withheld)  # (the clock of an answer held back runs on)
        return local

    def answer_due(self) -> float | None:
        """When the next "present" answer held back (:meth:`_present_vote`) falls due, if one
        still lies ahead of the core's clock.  The driver wakes the seat then, even if the core
        waits for nobody, and looks whether it is :meth:`lagging` (the voters went on: the feeds
        may replace a seat this core did not)."""
        window, now = self._hold_window(), self.core.now
        due = [since + window for point, since in self._withheld.items()
               if point not in self._voted and since + window > now]
        return min(due) if due else None

    def _hold_window(self) -> float:
        """How long a "present" answer is held back: both timeouts (turn, then silence)."""
        config = self.core.config
        return config.turn_timeout + config.silence_timeout

    def lagging(self) -> LocalSeat | None:
        """After both timeouts of a wait: this seat on a core rebuilt from the feeds, if that
        core is somewhere else than this one; else None.  The order messages came in can
        leave a live core short of what the same feeds give taken whole; the driver then takes
        the rebuilt seat instead, as it does after :meth:`behind`."""
        local = self.rebuilt()
        old, new = self.core, local.core
        if (tuple(old.cursor), sorted(old.absent), old.public_digest(), bool(old.signed)) == (
                tuple(new.cursor), sorted(new.absent), new.public_digest(), bool(new.signed)):
            return None
        return local

    def stored(self) -> dict[str, str]:
        """What the driver stores privately (:attr:`remember`): each pending choice (step ->
        action), the seat's sealed values and the slots each pending commitment seals."""
        out = {step: action for step, (action, _) in self.pending_reveal.items()}
        out.update({_SEALED_KEY + slot: value for slot, value in self.sealed_values.items()})
        out.update({_SLOTS_KEY + step: " ".join(slots) for step, slots in self.step_slots.items()
                    if slots and step in self.pending_reveal})
        return out

    def _sealed_for(self, step: str) -> tuple[tuple[str, bytes], ...]:
        """The sealed commitments of this seat's play in ``step`` (none if it seals none)."""
        return self._commitments(self.step_slots.get(step, ()))

    def _commitments(self, slots: tuple[str, ...]) -> tuple[tuple[str, bytes], ...]:
        core = self.core
        return tuple((slot, sealed_commitment(core.match_id, slot, core.keys[self.seat],
                                              self.sealed_values[slot],
                                              self.secrets.sealed_salt(slot)))
                     for slot in slots)

    def _reopen(self, body: CommitBody) -> tuple[str, bytes]:
        """The action and salt of a commitment whose choice was not stored: found among the
        step's legal actions — where the game lists them (a plan among 10⁵ is not searched)."""
        salt = self.secrets.salt_for(body.step)
        state = self.core.state
        if not state.lists_actions(self.seat):
            raise LocalProtocolError(f"cannot reopen the commitment of step {body.step}: its "
                                     "choice was not stored, and the step's actions are too "
                                     "many to search")
        for action in state.legal_actions(self.seat):
            text = state.format_action(action)
            if play_commitment(self.core.match_id, body.step, self.core.keys[self.seat], text,
                               salt, ()) == body.commitment:
                return text, salt
        raise LocalProtocolError(f"cannot reopen the commitment of step {body.step}: the "
                                 "match state is not the one it was made in")

    def sign_next(self, kind: Kind, body: Any) -> Message:
        """Sign the next message of this seat's feed (chained, numbered, carrying the step's
        public digest) and record it as sent."""
        core = self.core
        prev = self.sent[-1].hash if self.sent else core.match_id
        heads = core.vouching.expected(self.seat, kind, body) if core.version >= 2 else ()
        message = sign_message(self.key, match_id=core.match_id, seat=self.seat,
                               seq=len(self.sent), prev=prev, kind=kind, state=core.step_state,
                               body=body, heads=heads, version=core.version)
        self.sent.append(message)
        return message

    def take_events(self) -> list[Event]:
        out, self.events = self.events, []
        return out

    # ------------------------------------------------------------------ private knowledge

    def round_private(self, round_id: str) -> bytes:
        return round_private(self.secrets, round_id, self.core.naming)

    def _learn(self) -> None:
        """Open the deliveries of this seat's complete rounds: check each against its
        commitments, and compute the hidden outcomes it may now see."""
        core = self.core
        chance, knowledge = core.chance, core.knowledge
        rounds = knowledge.rounds
        if len(rounds) != self._rounds_seen:  # (rounds are only ever added)
            self._mine.extend(r for r in list(rounds.values())[self._rounds_seen:]
                              if r.seat == self.seat)
            self._rounds_seen = len(rounds)
        if not self._mine:
            return
        self._mine = [r for r in self._mine if r.id not in self._opened and not r.void]
        for r in list(self._mine):
            if not r.complete:
                continue
            self._opened.add(r.id)
            private = self.round_private(r.id)
            delivered = self._delivered
            for deliverer in r.deliveries:
                secrets = knowledge.open_delivery(r, deliverer, private)
                if secrets is None:
                    self._prove.add(r.id)  # publish the key: the lie is then plain to all
                    break
                for event, secret in secrets:
                    delivered.setdefault(event, {})[deliverer] = secret
            if r.id in self._prove:
                continue
            for event in r.events:
                if self.seat in chance.commitments.get(event, {}):
                    delivered.setdefault(event, {})[self.seat] = self.secrets.chance_secret(event)

            def choose(event: ChanceEvent) -> str:
                protocol_id = chance.alias.get(event.id, event.id)
                contributors = sorted(chance.commitments.get(protocol_id, {}))
                secrets = self._delivered.get(protocol_id, {})
                if not contributors or any(s not in secrets for s in contributors):
                    raise _Unknown
                posed = ChanceEvent(protocol_id, event.outcomes, event.visibility)
                return chance_outcome(posed, [secrets[s] for s in contributors])

            try:
                shown = core.state.preview_hidden(choose)
            except _Unknown:
                continue  # a contributor left: its secret is gone, the event will be re-drawn
            mine = {e: card for e, card in shown.items() if chance.alias.get(e, e) in r.events}
            self.knowledge.update(mine)
            self.events.append(PrivateKnowledge(self.seat, r.id, tuple(sorted(mine.items()))))

    def _forget(self) -> None:
        """Knowledge of events drawn again, or turned, is void."""
        core = self.core
        if not self.knowledge:
            return
        owed: set[str] = set()
        for request in core.state.knowledge_requests():
            if request.seat == self.seat:
                owed.update(request.events)
        mine = {a for r in core.knowledge.rounds.values() if r.seat == self.seat
                for a in r.events}
        for event in list(self.knowledge):
            if event not in owed or core.chance.alias.get(event, event) not in mine:
                del self.knowledge[event]

    def decision_state(self) -> GameState[Any]:
        """The state the local seat decides on: the shared one with its private knowledge."""
        state = self.core.state
        cards = self.core.decks.hand()
        if cards:
            with contextlib.suppress(EngineError):
                state = state.learn(self.seat, cards)
        if self.sealed_values:
            # Its own sealed values not opened yet: a bot places the tokens it still holds.
            opened, void = self.core.sealed.opened[self.seat], self.core.sealed.void[self.seat]
            own = {slot: value for slot, value in self.sealed_values.items()
                   if slot not in opened and slot not in void}
            if own:
                with contextlib.suppress(EngineError):
                    state = state.learn(self.seat, own)
        owed = [r for r in state.knowledge_requests() if r.seat == self.seat]
        if owed and owed[0].events and set(owed[0].events) <= set(self.knowledge):
            try:
                return state.learn(self.seat, {e: self.knowledge[e] for e in owed[0].events})
            except EngineError:
                return state
        return state

    # ------------------------------------------------------------------ what to send

    def leave(self, *, resign: bool = False) -> None:
        """Leave the match for good (version 2, protocol.md §7.7): the seat first sends the
        openings it owes now — a REVEAL, a chance reveal, a delivery, a key release — so that
        no commitment of its is left unopened where it could be, then its LEAVE (``resign``:
        its RESIGN, the game's resignation), and nothing after.  Its zombie plays on from its
        next message due."""
        if self.core.version < 2:
            raise LocalProtocolError("a version 1 match has no LEAVE or RESIGN")
        self.leaving = True
        self.resigning = self.resigning or resign

    def offer(self, what: str) -> None:
        """Offer every other live seat a draw or a pause (version 2, protocol.md §7.7): the
        OFFER goes out where a message of this seat that drives the engine is next due."""
        if self.core.version < 2:
            raise LocalProtocolError("a version 1 match has no offers")
        if what not in OFFERS:
            raise LocalProtocolError(f"one offers a {' or a '.join(OFFERS)}, not {what!r}")
        self._offering = what

    def resume(self) -> None:
        """End an agreed pause (version 2): a RESUME goes out if the match is paused."""
        self._resuming = True

    def _agreement(self) -> Message | None:
        """The ANSWER, OFFER or RESUME this seat sends now, if any."""
        core, seat = self.core, self.seat
        if core.version < 2 or core.ending.ended:
            return None
        agreements = core.agreements
        for offer in sorted(agreements.offers.values(), key=lambda o: o.seat):
            slot = (offer.seat, offer.seq)
            if offer.seat == seat or slot in self._answered or seat in agreements.answers.get(
                    slot, {}):
                continue
            yes = self.answering(offer.seat, offer.what)
            if yes is None:
                continue  # (its person decides)
            self._answered.add(slot)
            named = core.feeds[offer.seat].chain[offer.seq].hash if core.version >= 3 else b""
            return self.sign_next(Kind.ANSWER, AnswerBody(offer.seat, offer.seq, int(yes),
                                                          named))
        if (self._offering is not None and not agreements.holds(seat)
                and core.cursor[seat] == core.feeds[seat].next_seq
                and core.expects(seat, votes=False) in CORE_KINDS):
            what, self._offering = self._offering, None
            return self.sign_next(Kind.OFFER, OfferBody(what))
        if self._resuming:
            self._resuming = False
            if agreements.paused:
                return self.sign_next(Kind.RESUME, ResumeBody())
        return None

    def _leave_now(self) -> list[Message]:
        """While leaving: the next opening the seat owes, else its LEAVE (or RESIGN)."""
        core, seat = self.core, self.seat
        if seat not in core.absent and not core.ending.ended:
            for r in core.knowledge.live():
                if r.seat == seat and r.open and r.key_message is not None and (
                        r.id in self._prove or r.publish):
                    return [self.sign_next(Kind.KEY_RELEASE,
                                           KeyReleaseBody(r.id, self.round_private(r.id)))]
            expected = core.expects(seat, votes=False)
            if expected in _OPENINGS:
                try:
                    body = self._body(expected)
                except DecisionPending:
                    body = None
                if body is not None:
                    return [self.sign_next(*body)]
        self.left = True
        if core.ending.ended:
            return []  # (the match is over: nothing to leave)
        if self.resigning:
            return [self.sign_next(Kind.RESIGN, ResignBody())]
        return [self.sign_next(Kind.LEAVE, LeaveBody())]

    def messages_to_send(self) -> list[Message]:
        """The messages the local seat owes now (each to be persisted, then sent to all and
        fed back to the core like any other)."""
        core = self.core
        seat = self.seat
        held = core.feeds[seat].next_seq
        if held < len(self.sent) or self.left:
            return []  # our last message has not been fed back yet (or it left)
        if self.leaving and core.cursor[seat] == held:
            return self._leave_now()
        if core.cursor[seat] < held:
            # Our own messages wait to be consumed (under a vote, after a rebuild): nothing
            # else is sent, but votes still are — whether this peer holds another seat's
            # message, or timed it out, does not depend on where its own feed is taken.
            vote = self._vote() if seat not in core.absent else None
            if vote is not None:
                return self._cast(vote)
            answer = self._agreement() if seat not in core.absent else None
            return [] if answer is None else [answer]
        if seat in core.absent:
            # Replaced here, it still answers "present" for a seat whose message it holds:
            # the others may not have replaced it yet, and then its answer is the vote their
            # match waits for (with three seats, the only one left).
            present = self._present_vote()
            if present is not None:
                return self._cast(present)
            absence = core.absent[seat]
            if absence.final or seat in core.seats.reclaims or self.hold_reclaim:
                return []
            return [self.sign_next(Kind.RECLAIM, ReclaimBody(absence.count))]
        if seat in core.seats.reclaims:
            return []
        self._learn()
        self._forget()
        vote = self._vote()
        if vote is not None:
            return self._cast(vote)
        for r in core.knowledge.live():
            if r.seat == seat and r.open and r.key_message is not None and (
                    r.id in self._prove or r.publish):
                return [self.sign_next(Kind.KEY_RELEASE,
                                       KeyReleaseBody(r.id, self.round_private(r.id)))]
        agreement = self._agreement()
        if agreement is not None:
            return [agreement]
        claim = self._claim()
        if claim is not None:
            return [self.sign_next(Kind.CLAIM, claim)]
        expected = core.expects(seat)
        if expected is None:
            return []
        try:
            body = self._body(expected)
        except DecisionPending:
            return []
        return [] if body is None else [self.sign_next(*body)]

    def _claim(self) -> ClaimBody | None:
        """Version 2 (protocol.md §7.7): with two seats live, votes are void, so a silent other
        seat is claimed instead — once the local clock timed it out (both timeouts) where it
        owes a message, this seat holds none of its past that point, and owes none itself."""
        core, seat = self.core, self.seat
        if core.version < 2 or self._claimed or core.ending.ended or not core.clock.timed_out:
            return None
        live = core.live_seats()
        if len(live) != 2 or seat not in live or not all(
                a.final for a in core.absent.values()):
            # (A seat replaced for silence may still come back, and its reclaim makes votes
            # possible again: a link that heals must not find the match claimed.)
            return None
        other = live[1] if live[0] == seat else live[0]
        count = core.cursor[other]
        # (A message of the other's held there that can never be taken — stuck — does not
        # stop the claim: the claim then crosses it, and the match is abandoned.)
        if (core.clock.timed_out.get(other) != count
                or (len(core.feeds[other].messages) != count and not core.stuck(other))
                or core.expects(other) is None or core.expects(seat, votes=False) is not None):
            return None
        self._claimed = True
        return ClaimBody(other, count)

    def _cast(self, vote: AbsentBody) -> list[Message]:
        self._voted.add((vote.seat, vote.count))
        return [self.sign_next(Kind.ABSENT, vote)]

    def _present_vote(self) -> AbsentBody | None:
        """Answer another seat's vote "present" if this peer holds the message it is about."""
        core = self.core
        for (target, count), ballot in sorted(core.votes.ballots.items()):
            if (target == self.seat or (target, count) in self._voted or self.seat in ballot
                    or not core.live(target)):
                continue
            if len(core.feeds[target].messages) > count and not (
                    core.cursor[target] == count and core.stuck(target)):
                # (Not for a message it holds that cannot be taken: stuck, it is voted out.)
                if self._went_on_without(target, count, ballot):
                    # A voter already replaced the seat there and played on (its signed heads
                    # name the replacement): "present" now could only part the match — the
                    # feeds, taken whole, would keep a seat the voters' side went on without.
                    # Held back for both timeouts: a lone liar's mark only delays the answer.
                    since = self._withheld.setdefault((target, count), core.now)
                    if core.now < since + self._hold_window():
                        continue  # (the driver wakes the seat then: answer_due)
                return AbsentBody(target, count, 0)
        return None

    def _went_on_without(self, target: int, count: int, ballot: dict[int, int]) -> bool:
        """A live seat that voted ``target`` absent at ``count`` has signed, after that vote, a
        message whose heads carry ``target``'s replacement mark at ``count`` (protocol.md §7.10):
        it replaced ``target`` there and went on."""
        core = self.core
        mark = replaced_head(core.match_id, target, count)
        for voter, verdict in ballot.items():
            if verdict != 1 or voter == target or not core.live(voter):
                continue
            after = core.votes.ballot_at.get((target, count, voter), -1)
            if any(len(m.heads) > target and m.heads[target] == mark
                   for m in core.feeds[voter].messages[after + 1:]):
                return True
        return False

    def _vote(self) -> AbsentBody | None:
        """Answer another seat's vote (present if this peer holds the message), or vote a
        seat absent that the local clock timed out."""
        core = self.core
        votes, clock = core.votes, core.clock
        if not votes.ballots and not clock.timed_out:
            return None  # (the common case, at once)
        present = self._present_vote()
        if present is not None:
            # (Even with two seats left: a seat cut off from both, since replaced, voted them
            # absent; without these answers a replay of the file, which reads its votes ahead
            # of its replacement, would wait on them for good.)
            return present
        if votes.void():
            return None  # no absent vote can pass (two seats left): none is cast
        # Absent: once the local clock timed the seat out — or found it overdue, when another
        # seat's vote already waits for ours (answering fast keeps us from looking silent).
        candidates = dict(clock.timed_out)
        for (target, count), ballot in votes.ballots.items():
            if 1 in ballot.values() and clock.overdue.get(target) == count:
                candidates.setdefault(target, count)
        for target, count in sorted(candidates.items()):
            if (target != self.seat and core.live(target) and core.cursor[target] == count
                    and (target, count) not in self._voted
                    and (len(core.feeds[target].messages) <= count
                         or target in core.seats.blocked or core.stuck(target))):
                return AbsentBody(target, count, 1)
        point = core.silent_dead_end()
        if point is not None and point[0] != self.seat and (
                self.seat not in votes.settles.get(point, ())):
            return AbsentBody(*point, 2)
        return None

    def _body(self, expected: Kind) -> tuple[Kind, Any] | None:
        core = self.core
        seat = self.seat
        w = core.state.waiting
        if expected is Kind.ABSENT:
            return None  # answered by _vote as soon as it can (its own timer, or it holds it)
        if expected is Kind.ANSWER:
            return None  # answered by _agreement once its person (or its bot) decides
        if expected is Kind.SEAL_KEY:
            return Kind.SEAL_KEY, round_bodies.key_body(core.knowledge, seat, self.secrets)
        if expected is Kind.KEY_RELEASE:
            return Kind.KEY_RELEASE, round_bodies.release_body(core.knowledge, seat,
                                                               self.secrets)
        if expected is Kind.WELCOME:
            reclaims = core.seats.reclaims
            x = next(x for x in sorted(reclaims) if seat not in core.seats.welcomed[x])
            return Kind.WELCOME, WelcomeBody(x, reclaims[x])
        if expected is Kind.DELIVERY:
            return Kind.DELIVERY, round_bodies.delivery_body(core.knowledge, seat, self.secrets,
                                                             self.key, core.match_id)
        if expected is Kind.CHANCE_COMMIT:
            return Kind.CHANCE_COMMIT, chance_bodies.commit_body(
                core.chance, self.secrets, core.keys[seat], core.match_id, seat)
        if expected is Kind.CHANCE_REVEAL:
            return Kind.CHANCE_REVEAL, chance_bodies.reveal_body(core.chance, self.secrets,
                                                                 core.version)
        if expected is Kind.CHANCE_DIGEST:
            return Kind.CHANCE_DIGEST, chance_bodies.digest_body(core.chance)
        if expected is Kind.ACT:
            assert isinstance(w, Turn)
            action, parsed, slots = self._decided(seat)
            return Kind.ACT, ActBody(w.step, action, self._commitments(slots),
                                     self._pool_secret(parsed))
        if expected is Kind.COMMIT:
            assert isinstance(w, Simultaneous)
            action, parsed, slots = self._decided(seat)
            if is_free(core.state, seat, parsed):
                return Kind.ACT, ActBody(w.step, action, self._commitments(slots))
            salt = self.secrets.salt_for(w.step)
            self.step_slots[w.step] = slots
            commitment = play_commitment(core.match_id, w.step, core.keys[seat], action, salt,
                                         self._commitments(slots))
            if not core.seats.reclaims and core.may_reveal_directly(seat):
                # The last to decide: every other play is committed, so it reveals at once
                # (one message instead of two; protocol.md §7.1).  Not while a seat reclaims:
                # it could still join this step after seeing the play.
                return self._reveal_body(w.step, action, salt, commitment)
            self.pending_reveal[w.step] = (action, salt)
            if self.remember is not None:
                self.remember(self.stored())
            return Kind.COMMIT, CommitBody(w.step, commitment)
        if expected is Kind.DECK:
            deck = core.decks.next_body(seat)
            return None if deck is None else (Kind.DECK, deck)
        if expected is Kind.OPEN:
            opening = self._open_body(w)
            if opening is None:
                return None
            if isinstance(w, Openings) and core.decks.decks:
                # The dealt cards it shows go first, each with the deck's open (§7.13).
                values = {slot: value for slot, value, _ in opening.values}
                for event in core.state.opening_claims(seat, values):
                    card = core.decks.preopen_body(seat, event)
                    if card is not None:
                        return Kind.DECK, card
            return Kind.OPEN, opening
        if expected is Kind.END:
            final = core.ending.final
            assert final is not None
            return Kind.END, EndBody(final.digest, core.ending.end_transcript())
        if expected is Kind.REVEAL:
            assert isinstance(w, Simultaneous)
            opened = self.pending_reveal.pop(w.step, None)
            action, salt = opened or self._reopen(self._unopened.pop(w.step))
            return self._reveal_body(w.step, action, salt, None)
        return None

    def _decided(self, seat: int) -> tuple[str, Any, tuple[str, ...]]:
        """The local decision, in the engine's canonical notation (one action, one string:
        protocol.md §7.1), parsed, and the slots it seals: a decision with private parts (a
        token's identity) is split into the public action every peer applies and its sealed
        values, kept here (and stored, :attr:`remember`, before its message is sent)."""
        core = self.core
        state = core.state
        mine = self.decision_state()
        chosen = self.decide(mine, seat)
        try:
            text = mine.format_action(mine.parse_action(seat, chosen))
            public, values = state.split_private(seat, text)
            parsed = state.parse_action(seat, public)
        except EngineError as exc:
            raise LocalProtocolError(f"the local seat chose an illegal action: {exc}") from exc
        slots = tuple(slot for slot, _ in values)
        if slots != tuple(state.sealed_by(seat, parsed)):
            raise LocalProtocolError(f"the engine seals {slots} but names "
                                     f"{state.sealed_by(seat, parsed)}")
        if values:
            self.sealed_values.update(values)
            if self.remember is not None:
                self.remember(self.stored())
        return state.format_action(parsed), parsed, slots

    def _pool_secret(self, action: Any) -> tuple[str, bytes] | None:
        """The secret this seat's turn action carries for the pool slot of the dice it poses
        (protocol.md §7.12: the decider's reveal rides in its decision), if it poses one."""
        chance, seat = self.core.chance, self.seat
        if not chance.pooled:
            return None
        try:
            after = self.core.state.apply(seat, action)
        except EngineError:
            return None
        w = after.waiting
        slot = f"pool.{chance.pool_used}"
        if (isinstance(w, ChancePending) and chance.pooled_event(w.event)
                and seat in chance.commitments.get(slot, {})):
            return slot, self.secrets.chance_secret(slot)
        return None

    def _open_body(self, w: object) -> OpenBody | None:
        """The OPEN this seat owes: the slots the engine asks (in an Openings wait), or every
        slot it sealed and has not opened (the END round's audit).  None if it lost a value
        (a restart without its stored choices): it cannot open, and is replaced in time."""
        sealed = self.core.sealed
        if isinstance(w, Openings):
            slots = next(r.slots for r in w.requests if r.seat == self.seat)
        else:
            assert isinstance(w, Over)
            slots = sealed.unopened(self.seat)
        if any(slot not in self.sealed_values for slot in slots):
            return None
        return OpenBody(tuple((slot, self.sealed_values[slot], self.secrets.sealed_salt(slot))
                              for slot in slots))

    def _reveal_body(self, step_name: str, action: str, salt: bytes,
                     direct: bytes | None) -> tuple[Kind, RevealBody]:
        """The REVEAL of ``action``: with the digest of the commitments held (``direct``: the
        seat's own, not sent before) and the secret of the step's early turn, if it owes one."""
        core = self.core
        step = core.steps.current
        assert step is not None
        held = [step.commitments.get(s) for s in range(core.n)]
        if direct is not None:
            held[self.seat] = direct
        early = core.chance.early_secret_owed(self.seat)  # it goes with the play (§7.4)
        chance: tuple[tuple[str, bytes], ...] = ()
        chance_set = b""
        if early is not None:
            chance = ((early, self.secrets.chance_secret(early)),)
            if core.version >= 2:
                chance_set = core.chance.open_digest((early,))
        return Kind.REVEAL, RevealBody(step_name, action, salt,
                                       commit_set_digest(core.match_id, step_name, held), chance,
                                       chance_set, self._sealed_for(step_name))
