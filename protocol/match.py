"""The match: signed feeds in, one engine state out, the same on every honest peer.

:class:`MatchCore` is fed verified messages in any arrival order and consumes them in a
**canonical order**: it always knows what the engine waits for, and takes from each seat's feed,
in sequence, only the message that the current step expects of that seat.  So every honest peer
holds the same public state, whatever order the network delivered things in.  The same rules
apply to every seat, the local one included (h11's rule: no special treatment of our own
messages); :class:`Seat` only adds what the local seat must *send*.

What each engine state expects (``Expect``):

=====================  ==========================================================================
engine waits for       every seat's next message must be
=====================  ==========================================================================
Chance(event)          CHANCE_COMMIT of exactly ``state.upcoming_events()`` if the seat has not
                       committed to the event yet; then CHANCE_REVEAL of that one event, once
                       every seat's commitment is held
a decision, with new   CHANCE_DIGEST over every chance commitment held (the round number as its
chance commitments     level), before anything else of that step
Simultaneous(step)     optional ACT(step, free action) — a torch peek — then COMMIT(step), then,
                       once every deciding seat's commitment is held, REVEAL(step, action, salt,
                       digest of the commitments held)
Turn(step, seat)       ACT(step, action) from that seat (a free action keeps the turn)
Over                   nothing (the END round is protocol core II)
=====================  ==========================================================================

A message that cannot be what its seat owes makes that seat **misbehave**: a
:class:`PeerMisbehaved` event with the offending message as evidence, and its feed is not read
further.  Nothing here raises on bad input from a peer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.core import (
    Chance,
    EngineError,
    GameState,
    Over,
    Simultaneous,
    Turn,
    Visibility,
    get_game,
)
from protocol.crypto import (
    SAMPLER,
    SeatSecrets,
    chance_commitment,
    chance_outcome,
    chance_set_digest,
    commit_set_digest,
    play_commitment,
    transcript_digest,
)
from protocol.errors import BadMessage, LocalProtocolError
from protocol.feed import Equivocation, Feed
from protocol.header import SignedHeader
from protocol.messages import (
    ActBody,
    ChanceCommitBody,
    ChanceDigestBody,
    ChanceRevealBody,
    CommitBody,
    EndBody,
    Kind,
    Message,
    RevealBody,
    sign_message,
)

NO_STATE: Final = bytes(32)


# --------------------------------------------------------------------------- events


@dataclass(frozen=True)
class ChanceResolved:
    event: str
    outcome: str


@dataclass(frozen=True)
class PlayCommitted:
    step: str
    seat: int


@dataclass(frozen=True)
class PlayRevealed:
    step: str
    seat: int
    action: str


@dataclass(frozen=True)
class ActionTaken:
    step: str
    seat: int
    action: str


@dataclass(frozen=True)
class PeerMisbehaved:
    """``seat`` broke the rules; ``evidence`` holds the signed message(s) that prove it."""

    seat: int
    reason: str
    evidence: tuple[Message, ...]


@dataclass(frozen=True)
class SeatsOverdue:
    """``seats`` owe a message for ``step`` since ``since`` and the turn timeout has passed.
    (Protocol core II acts on it: request the message from every peer, then the absent-seat
    procedure.)"""

    seats: tuple[int, ...]
    step: str
    since: float


@dataclass(frozen=True)
class MatchEnded:
    """The engine reached its end: the result, the final public digest and the transcript
    digest every seat now signs in its END message."""

    winners: tuple[int, ...]
    digest: bytes
    transcript: bytes = b""


@dataclass(frozen=True)
class ResultSigned:
    """Every seat signed the same final state and transcript: the match is agreed."""

    winners: tuple[int, ...]
    digest: bytes
    transcript: bytes


Event = (ChanceResolved | PlayCommitted | PlayRevealed | ActionTaken | PeerMisbehaved
         | SeatsOverdue | MatchEnded | ResultSigned)


ENGINE_VERSIONS: Final = {"raiders": "raiders/1"}  # the engine rules this program plays


def new_game_state(header: SignedHeader) -> GameState[Any]:
    """The engine state a header describes (its game and options); a header naming a game,
    engine or sampler version this program does not have is refused with the reason."""
    h = header.header
    try:
        spec = get_game(h.game)
    except EngineError as exc:
        raise BadMessage(f"this program cannot play the header's game: {exc}") from None
    if ENGINE_VERSIONS.get(h.game) != h.engine:
        raise BadMessage(f"the header asks for engine {h.engine!r}; this program has "
                         f"{ENGINE_VERSIONS.get(h.game)!r}")
    if h.sampler != SAMPLER:
        raise BadMessage(f"the header asks for sampler {h.sampler!r}; this program has "
                         f"{SAMPLER!r}")
    options = dict(h.options)
    try:
        return spec.new(**options)
    except (TypeError, ValueError) as exc:
        raise BadMessage(f"the header's options do not suit {spec.title}: {exc}") from None


# --------------------------------------------------------------------------- the core


@dataclass
class _Step:
    """Commit–reveal bookkeeping of one decision step."""

    name: str
    seats: frozenset[int]
    commitments: dict[int, bytes] = field(default_factory=dict)
    reveals: dict[int, tuple[str, Message]] = field(default_factory=dict)


class MatchCore:
    """Consumes every seat's feed in canonical order and drives the engine."""

    def __init__(self, header: SignedHeader, *, turn_timeout: float = 90.0) -> None:
        self.header = header
        self.turn_timeout = turn_timeout
        self.now = 0.0
        self._wait_key: tuple[object, ...] = ()
        self._wait_since = 0.0
        self._overdue_reported: tuple[object, ...] = ()
        self._digested: GameState[Any] | None = None
        self._digest = NO_STATE
        self.match_id = header.match_id
        self.keys = tuple(seat.key for seat in header.header.seats)
        self.n = len(self.keys)
        self.state = new_game_state(header)
        self.feeds = [Feed(s, key, self.match_id) for s, key in enumerate(self.keys)]
        self.cursor = [0] * self.n  # next unconsumed message per feed
        self.blocked: dict[int, PeerMisbehaved] = {}
        self.chance_commitments: dict[str, dict[int, bytes]] = {}
        self.chance_count = 0  # chance commitments held, in all
        self.chance_secrets: dict[str, dict[int, bytes]] = {}
        self.digest_rounds = 0  # CHANCE_DIGEST rounds completed
        self.covered = 0  # chance commitments covered by the last digest round
        self.digests: dict[int, bytes] = {}  # this round's digests, per seat
        self.step: _Step | None = None
        self._step_start: GameState[Any] | None = None  # the state when the step began
        self._step_digest: bytes | None = None
        self.events: list[Event] = []
        self.equivocations: list[Equivocation] = []
        self.ended = False  # the engine reached its end
        self.signed = False  # every seat signed the result (END)
        self.final: MatchEnded | None = None
        self.end_signatures: dict[int, Message] = {}

    # ------------------------------------------------------------------ input

    def receive(self, message: Message, now: float | None = None) -> list[Event]:
        """Add a verified message to its feed and advance as far as the feeds allow.
        Returns the events this caused (misbehaviour included); never raises for bad input.
        ``now`` (any monotonic clock, in seconds) dates what the match waits for."""
        if now is not None:
            self.now = now
        start = len(self.events)
        if not 0 <= message.seat < self.n:
            return []
        try:
            result = self.feeds[message.seat].add(message)
        except BadMessage as exc:
            self._misbehave(message.seat, str(exc), message, stop=False)
            return self.events[start:]
        if result.equivocation is not None:
            self.equivocations.append(result.equivocation)
            pair = (result.equivocation.first, result.equivocation.second)
            self._misbehave(message.seat, f"equivocation at sequence number {message.seq}",
                            *pair)
        self.advance()
        return self.events[start:]

    # ------------------------------------------------------------------ the timer

    def owing(self) -> tuple[int, ...]:
        """The seats the match waits for now (their next message is due and not in hand)."""
        return tuple(s for s in range(self.n) if s not in self.blocked
                     and self.expects(s) is not None and self._next(s) is None)

    def _wait_state(self) -> tuple[object, ...]:
        w = self.state.waiting
        where = getattr(w, "step", None) or getattr(getattr(w, "event", None), "id", "")
        return (self.phase(), where, self.owing())

    def _note_wait(self) -> None:
        key = self._wait_state()
        if key != self._wait_key:
            self._wait_key = key
            self._wait_since = self.now

    def get_timer(self) -> float | None:
        """When the seats the match waits for become overdue (None: it waits for nobody)."""
        if self.signed or not self._wait_key or not self._wait_key[2]:
            return None
        return self._wait_since + self.turn_timeout

    def handle_timer(self, now: float) -> list[Event]:
        """Report overdue seats once per wait (a :class:`SeatsOverdue` event)."""
        self.now = now
        deadline = self.get_timer()
        if deadline is None or now < deadline or self._overdue_reported == self._wait_key:
            return []
        self._overdue_reported = self._wait_key
        _phase, where, seats = self._wait_key
        event = SeatsOverdue(tuple(seats), str(where), self._wait_since)  # type: ignore[arg-type]
        self.events.append(event)
        return [event]

    def adopt(self, feeds: dict[int, Feed]) -> list[Event]:
        """Take over feeds that were already verified (a match file read by the transcript
        reader) instead of receiving their messages one by one, and advance."""
        for seat, feed in feeds.items():
            if feed.match_id != self.match_id or feed.seat != seat or (
                    not 0 <= seat < self.n or feed.public_key != self.keys[seat]):
                raise LocalProtocolError(f"feed of seat {seat} is not one of this match")
            self.feeds[seat] = feed
        start = len(self.events)
        self.advance()
        return self.events[start:]

    # ------------------------------------------------------------------ helpers

    def _misbehave(self, seat: int, reason: str, *evidence: Message, stop: bool = True) -> None:
        event = PeerMisbehaved(seat, reason, tuple(evidence))
        self.events.append(event)
        if stop and seat not in self.blocked:
            self.blocked[seat] = event

    def _next(self, seat: int) -> Message | None:
        if seat in self.blocked:
            return None
        messages = self.feeds[seat].messages
        i = self.cursor[seat]
        return messages[i] if i < len(messages) else None

    def _take(self, seat: int) -> None:
        self.cursor[seat] += 1

    def public_digest(self) -> bytes:
        state = self.state
        if self._digested is not state:  # states are immutable: one digest per state
            self._digested = state
            self._digest = state.digest()
        return self._digest

    def expects(self, seat: int) -> Kind | None:
        """What the state waits for from ``seat`` next (None: nothing now), by the first row of
        :data:`TRANSITIONS` that applies."""
        phase = self.phase()
        for row in TRANSITIONS:
            if row.phase == phase and row.when(self, seat):
                return row.expect
        return None

    def phase(self) -> str:
        """The protocol phase: what the engine waits for, with the digest round in between."""
        w = self.state.waiting
        if isinstance(w, Over):
            return OVER
        if isinstance(w, Chance):
            if w.event.visibility is Visibility.PRIVATE:
                raise LocalProtocolError(
                    f"chance event {w.event.id} is private (a card dealt to one hand): that "
                    "needs a dealer-free deck, which this protocol version does not have yet")
            return CHANCE
        if self._digest_due():
            return DIGEST
        return TURN if isinstance(w, Turn) else SIMULTANEOUS

    # Conditions of the transition table (each: may ``seat`` send the row's message now?).

    def _uncommitted_chance(self, seat: int) -> bool:
        return seat not in self.chance_commitments.get(self._chance_id(), {})

    def _unrevealed_chance(self, seat: int) -> bool:
        event = self._chance_id()
        return (len(self.chance_commitments.get(event, {})) == self.n
                and seat not in self.chance_secrets.get(event, {}))

    def _undigested(self, seat: int) -> bool:
        return seat not in self.digests

    def _turn_of(self, seat: int) -> bool:
        w = self.state.waiting
        return isinstance(w, Turn) and w.seat == seat

    def _uncommitted_play(self, seat: int) -> bool:
        step = self._simultaneous_step()
        return seat in step.seats and seat not in step.commitments

    def _unrevealed_play(self, seat: int) -> bool:
        step = self._simultaneous_step()
        return (seat in step.seats and len(step.commitments) == len(step.seats)
                and seat not in step.reveals)

    def _unsigned_result(self, seat: int) -> bool:
        return self.ended and seat not in self.end_signatures

    def _chance_id(self) -> str:
        w = self.state.waiting
        assert isinstance(w, Chance)
        return w.event.id

    def _simultaneous_step(self) -> _Step:
        w = self.state.waiting
        assert isinstance(w, Simultaneous)
        return self._current_step(w)

    def _digest_due(self) -> bool:
        return self.chance_count > self.covered

    def _current_step(self, w: Simultaneous) -> _Step:
        if self.step is None or self.step.name != w.step:
            self.step = _Step(w.step, w.seats)
            self._step_start = self.state
            self._step_digest = None
        return self.step

    @property
    def step_state(self) -> bytes:
        """The public digest at the start of the current step (what messages of the step carry,
        the same on every honest peer whatever free actions arrived since); outside a
        simultaneous step, the current public digest."""
        start = self._step_start if self.step is not None else None
        if start is None:
            return self.public_digest()
        if self._step_digest is None:
            self._step_digest = start.digest()
        return self._step_digest

    def chance_digest(self) -> bytes:
        entries = [(event, seat, c) for event, by_seat in self.chance_commitments.items()
                   for seat, c in by_seat.items()]
        return chance_set_digest(self.match_id, min(self.digest_rounds + 1, 5), entries)

    # ------------------------------------------------------------------ the canonical loop

    def advance(self) -> None:
        """Consume every message that fits the current state, seat by seat, until none does."""
        self._consume_all()
        if not self.signed:
            self._note_wait()

    def _consume_all(self) -> None:
        progress = True
        while progress and not self.signed:
            progress = False
            for seat in range(self.n):
                message = self._next(seat)
                if message is None:
                    continue
                expected = self.expects(seat)
                if expected is None:
                    continue
                if self._consume(seat, message, expected):
                    progress = True
                    self._settle()
                    if self.signed:
                        return

    def _consume(self, seat: int, message: Message, expected: Kind) -> bool:
        kind = message.kind
        body = message.content
        w = self.state.waiting
        # A free action (an ACT in a simultaneous step, before the seat commits).
        if kind is Kind.ACT and expected is Kind.COMMIT and isinstance(w, Simultaneous):
            assert isinstance(body, ActBody)
            if message.state != self.step_state:
                self._misbehave(seat, "its message carries another public state digest than "
                                "the match is in (its engine diverged, or it lies)", message)
                return False
            return self._act(seat, message, body, w.step)
        if kind is not expected:
            self._misbehave(seat, f"sent {kind.name} where {expected.name} was due", message)
            return False
        if message.state != self.step_state:
            self._misbehave(seat, "its message carries another public state digest than the "
                            "match is in (its engine diverged, or it lies)", message)
            return False
        if isinstance(body, ChanceCommitBody):
            return self._chance_commit(seat, message, body)
        if isinstance(body, ChanceRevealBody):
            assert isinstance(w, Chance)
            return self._chance_reveal(seat, message, body, w.event.id)
        if isinstance(body, ChanceDigestBody):
            return self._chance_digest(seat, message, body)
        if isinstance(body, ActBody):
            assert isinstance(w, Turn)
            return self._act(seat, message, body, w.step)
        if isinstance(body, CommitBody):
            assert isinstance(w, Simultaneous)
            return self._commit(seat, message, body, w.step)
        if isinstance(body, RevealBody):
            assert isinstance(w, Simultaneous)
            return self._reveal(seat, message, body, w.step)
        if isinstance(body, EndBody):
            return self._end(seat, message, body)
        self._misbehave(seat, f"{kind.name} is not expected in a match yet", message)
        return False

    def _chance_commit(self, seat: int, message: Message, body: ChanceCommitBody) -> bool:
        wanted = set(self.state.upcoming_events())
        events = [e for e, _ in body.commitments]
        if set(events) != wanted:
            self._misbehave(seat, f"committed to {sorted(events)}, not {sorted(wanted)}", message)
            return False
        for event in events:
            if seat in self.chance_commitments.get(event, {}):
                self._misbehave(seat, f"committed twice to {event}", message)
                return False
        for event, commitment in body.commitments:
            self.chance_commitments.setdefault(event, {})[seat] = commitment
        self.chance_count += len(body.commitments)
        self._take(seat)
        return True

    def _chance_reveal(self, seat: int, message: Message, body: ChanceRevealBody,
                       event: str) -> bool:
        if [e for e, _ in body.secrets] != [event]:
            self._misbehave(seat, f"revealed {[e for e, _ in body.secrets]}, not [{event!r}]",
                            message)
            return False
        secret = body.secrets[0][1]
        expected = chance_commitment(self.match_id, event, self.keys[seat], secret)
        if expected != self.chance_commitments[event][seat]:
            self._misbehave(seat, f"its secret for {event} does not open its commitment",
                            message)
            return False
        self.chance_secrets.setdefault(event, {})[seat] = secret
        self._take(seat)
        return True

    def _chance_digest(self, seat: int, message: Message, body: ChanceDigestBody) -> bool:
        if body.digest != self.chance_digest():
            # The seat holds other chance commitments than we do: someone forked a commitment.
            # As with a reveal's commitment set, nobody is blamed yet: the two signed versions
            # meet in some feed (relays forward every verified message) and prove who forked.
            # Until then the round waits — and no face-down room can be peeked or turned.
            return False
        self.digests[seat] = body.digest
        self._take(seat)
        return True

    def _act(self, seat: int, message: Message, body: ActBody, step: str) -> bool:
        if body.step != step:
            self._misbehave(seat, f"acted in step {body.step!r} during {step!r}", message)
            return False
        try:
            action = self.state.parse_action(seat, body.action)
            new_state = self.state.apply(seat, action)
        except EngineError as exc:
            self._misbehave(seat, f"illegal action {body.action!r}: {exc}", message)
            return False
        w = self.state.waiting
        if isinstance(w, Simultaneous) and not isinstance(new_state.waiting, Simultaneous):
            self._misbehave(seat, "played a card in the open in a simultaneous step", message)
            return False
        if isinstance(w, Simultaneous) and new_state.waiting != w and seat not in getattr(
                new_state.waiting, "pending", ()):
            self._misbehave(seat, "an open action in a simultaneous step must be a free "
                            "action (it committed a card without a commitment)", message)
            return False
        self.state = new_state
        self._take(seat)
        self.events.append(ActionTaken(step, seat, body.action))
        return True

    def _commit(self, seat: int, message: Message, body: CommitBody, step: str) -> bool:
        if body.step != step:
            self._misbehave(seat, f"committed for step {body.step!r} during {step!r}", message)
            return False
        assert self.step is not None
        self.step.commitments[seat] = body.commitment
        self._take(seat)
        self.events.append(PlayCommitted(step, seat))
        return True

    def _reveal(self, seat: int, message: Message, body: RevealBody, step: str) -> bool:
        assert self.step is not None
        if body.step != step:
            self._misbehave(seat, f"revealed for step {body.step!r} during {step!r}", message)
            return False
        held = commit_set_digest(self.match_id, step,
                                 [self.step.commitments.get(s) for s in range(self.n)])
        if body.commit_set != held:
            # The revealer holds other commitments than we do: someone showed different
            # commitments to different peers.  Who is not known yet — the two signed versions
            # will meet in some feed (relays forward every verified message) and prove it — so
            # nobody is blamed here; the reveal waits.
            return False
        commitment = play_commitment(self.match_id, step, self.keys[seat], body.action,
                                     body.salt)
        if commitment != self.step.commitments[seat]:
            self._misbehave(seat, "its reveal does not open its commitment", message)
            return False
        try:
            self.state.parse_action(seat, body.action)
        except EngineError as exc:
            self._misbehave(seat, f"revealed an illegal action {body.action!r}: {exc}",
                            message)
            return False
        self.step.reveals[seat] = (body.action, message)
        self._take(seat)
        self.events.append(PlayRevealed(step, seat, body.action))
        return True

    def _end(self, seat: int, message: Message, body: EndBody) -> bool:
        assert self.final is not None
        if body.final_state != self.final.digest or body.transcript != self.final.transcript:
            self._misbehave(seat, "its END signs another final state or transcript than the "
                            "match's (a wrong claim of the result)", message)
            return False
        self.end_signatures[seat] = message
        self._take(seat)
        return True

    # ------------------------------------------------------------------ completing a step

    def _settle(self) -> None:
        """Apply whatever is now complete: a chance outcome, a digest round, a joint reveal."""
        while True:
            w = self.state.waiting
            if isinstance(w, Over):
                if not self.ended:
                    self.ended = True
                    heads = [self.feeds[s].messages[self.cursor[s] - 1].hash
                             if self.cursor[s] else self.match_id for s in range(self.n)]
                    self.final = MatchEnded(tuple(sorted(w.outcome.winners)),
                                            self.public_digest(),
                                            transcript_digest(self.match_id, heads))
                    self.events.append(self.final)
                if not self.signed and len(self.end_signatures) == self.n:
                    assert self.final is not None
                    self.signed = True
                    self.events.append(ResultSigned(self.final.winners, self.final.digest,
                                                    self.final.transcript))
                return
            if isinstance(w, Chance):
                event = w.event
                secrets = self.chance_secrets.get(event.id, {})
                if len(secrets) < self.n:
                    return
                outcome = chance_outcome(event, [secrets[s] for s in range(self.n)])
                self.state = self.state.apply_chance(event.id, outcome)
                self.events.append(ChanceResolved(event.id, outcome))
                continue
            if self._digest_due():
                if len(self.digests) < self.n:
                    return
                self.digest_rounds += 1
                self.covered = self.chance_count
                self.digests = {}
                continue
            if isinstance(w, Simultaneous):
                step = self._current_step(w)
                if len(step.reveals) < len(step.seats):
                    return
                actions = {s: self.state.parse_action(s, a) for s, (a, _) in step.reveals.items()}
                try:
                    self.state = self.state.apply_joint(actions)
                except EngineError as exc:  # legal one by one, illegal together: impossible
                    raise AssertionError(f"joint reveal refused: {exc}") from exc
                self.step = None
                continue
            return


# --------------------------------------------------------------------------- the transition table

CHANCE: Final = "chance"
DIGEST: Final = "digest round"
SIMULTANEOUS: Final = "simultaneous"
TURN: Final = "turn"
OVER: Final = "over"


@dataclass(frozen=True)
class Transition:
    """In protocol ``phase``, a seat for which ``when`` holds owes message ``expect``;
    consuming it leads to ``then`` (in words, for the docs)."""

    phase: str
    condition: str
    when: Callable[[MatchCore, int], bool]
    expect: Kind
    then: str


# The same rules for every seat, local or remote (h11's rule).  MatchCore.expects reads this
# table; docs/protocol.md shows it, generated by describe_transitions() (a test keeps the two in
# step).
TRANSITIONS: Final = (
    Transition(CHANCE, "has not committed to the pending event", MatchCore._uncommitted_chance,
               Kind.CHANCE_COMMIT, "its commitments to every upcoming event are held"),
    Transition(CHANCE, "every seat has committed; it has not revealed",
               MatchCore._unrevealed_chance, Kind.CHANCE_REVEAL,
               "when all secrets are in: the outcome is computed and the engine moves on"),
    Transition(DIGEST, "has not signed the digest of the chance commitments",
               MatchCore._undigested, Kind.CHANCE_DIGEST,
               "when all digests match: the round is closed and decisions begin"),
    Transition(SIMULTANEOUS, "decides in the step and has not committed",
               MatchCore._uncommitted_play, Kind.COMMIT,
               "its commitment is held (a free action, ACT, may come first)"),
    Transition(SIMULTANEOUS, "every decider has committed; it has not revealed",
               MatchCore._unrevealed_play, Kind.REVEAL,
               "when all reveals open their commitments: the engine applies them together"),
    Transition(TURN, "it is its turn", MatchCore._turn_of, Kind.ACT,
               "the engine applies the action (a free action keeps the turn)"),
    Transition(OVER, "has not signed the result", MatchCore._unsigned_result, Kind.END,
               "when every seat has signed the same final state and transcript: the result "
               "is agreed"),
)


def describe_transitions() -> str:
    """The transition table as a Markdown table (docs/protocol.md shows exactly this)."""
    lines = ["| phase | a seat that … | must send | then |", "|---|---|---|---|"]
    for t in TRANSITIONS:
        lines.append(f"| {t.phase} | {t.condition} | {t.expect.name} | {t.then} |")
    return "\n".join(lines)


# --------------------------------------------------------------------------- a local seat


Decide = Callable[[GameState[Any], int], str]  # the local seat's choice, in notation


class LocalSeat:
    """The local seat: what it must send next, persisted by the caller before sending."""

    def __init__(self, core: MatchCore, seat: int, private_key: Ed25519PrivateKey,
                 seed: bytes, decide: Decide) -> None:
        self.core = core
        self.seat = seat
        self.key = private_key
        self.secrets = SeatSecrets(seed, core.match_id, core.keys[seat])
        self.decide = decide
        self.sent: list[Message] = []
        self.pending_reveal: dict[str, tuple[str, bytes]] = {}

    def restore(self, persisted: list[Message]) -> list[Message]:
        """After a restart: take back the messages this seat persisted (its own feed, from
        the match file) and return them to be sent again — the same bytes, so peers see
        harmless duplicates, never a second message under a sequence number.  A commitment
        whose reveal is still owed is reopened without storing the choice anywhere: the salt
        derives from the seed, and the action is found among the step's legal actions."""
        for i, message in enumerate(persisted):
            if message.seat != self.seat or message.seq != i:
                raise LocalProtocolError("the persisted feed is not this seat's, in order")
        self.sent = list(persisted)
        self.pending_reveal = {}
        revealed = {m.content.step for m in persisted if isinstance(m.content, RevealBody)}
        for message in persisted:
            body = message.content
            if isinstance(body, CommitBody) and body.step not in revealed:
                self.pending_reveal[body.step] = self._reopen(body)
        return list(persisted)

    def _reopen(self, body: CommitBody) -> tuple[str, bytes]:
        salt = self.secrets.salt_for(body.step)
        state = self.core.state
        for action in state.legal_actions(self.seat):
            text = state.format_action(action)
            if play_commitment(self.core.match_id, body.step, self.core.keys[self.seat], text,
                               salt) == body.commitment:
                return text, salt
        raise LocalProtocolError(f"cannot reopen the commitment of step {body.step}: the "
                                 "match state is not the one it was made in")

    def sign_next(self, kind: Kind, body: Any) -> Message:
        """Sign the next message of this seat's feed (chained, numbered, carrying the step's
        public digest) and record it as sent."""
        prev = self.sent[-1].hash if self.sent else self.core.match_id
        state = self.core.step_state
        message = sign_message(self.key, match_id=self.core.match_id, seat=self.seat,
                               seq=len(self.sent), prev=prev, kind=kind, state=state, body=body)
        self.sent.append(message)
        return message

    def messages_to_send(self) -> list[Message]:
        """The messages the local seat owes now (each to be persisted, then sent to all and
        fed back to the core like any other)."""
        core = self.core
        seat = self.seat
        if len(core.feeds[seat].messages) < len(self.sent):
            return []  # our last message has not been fed back yet
        expected = core.expects(seat)
        if expected is None or core.cursor[seat] < len(core.feeds[seat].messages):
            return []
        w = core.state.waiting
        if expected is Kind.CHANCE_COMMIT:
            body = ChanceCommitBody(tuple(
                (e, chance_commitment(core.match_id, e, core.keys[seat],
                                      self.secrets.chance_secret(e)))
                for e in core.state.upcoming_events()))
            return [self.sign_next(Kind.CHANCE_COMMIT, body)]
        if expected is Kind.CHANCE_REVEAL:
            assert isinstance(w, Chance)
            e = w.event.id
            return [self.sign_next(Kind.CHANCE_REVEAL,
                               ChanceRevealBody(((e, self.secrets.chance_secret(e)),)))]
        if expected is Kind.CHANCE_DIGEST:
            level = min(core.digest_rounds + 1, 5)
            digest = ChanceDigestBody(level, core.chance_digest())
            return [self.sign_next(Kind.CHANCE_DIGEST, digest)]
        if expected is Kind.ACT:
            assert isinstance(w, Turn)
            action = self.decide(core.state, seat)
            return [self.sign_next(Kind.ACT, ActBody(w.step, action))]
        if expected is Kind.COMMIT:
            assert isinstance(w, Simultaneous)
            action = self.decide(core.state, seat)
            try:
                parsed = core.state.parse_action(seat, action)
            except EngineError as exc:
                raise LocalProtocolError(f"the local seat chose an illegal action: {exc}") from exc
            if getattr(parsed, "kind", "") == "peek":
                return [self.sign_next(Kind.ACT, ActBody(w.step, action))]
            salt = self.secrets.salt_for(w.step)
            self.pending_reveal[w.step] = (action, salt)
            commitment = play_commitment(core.match_id, w.step, core.keys[seat], action, salt)
            return [self.sign_next(Kind.COMMIT, CommitBody(w.step, commitment))]
        if expected is Kind.END:
            final = core.final
            assert final is not None
            return [self.sign_next(Kind.END, EndBody(final.digest, final.transcript))]
        if expected is Kind.REVEAL:
            assert isinstance(w, Simultaneous)
            action, salt = self.pending_reveal.pop(w.step)
            step = core.step
            assert step is not None
            held = commit_set_digest(core.match_id, w.step,
                                     [step.commitments.get(s) for s in range(core.n)])
            return [self.sign_next(Kind.REVEAL, RevealBody(w.step, action, salt, held))]
        return []
