"""The match: signed feeds in, one engine state out, the same on every honest peer.

:class:`MatchCore` is fed verified messages in any arrival order and consumes them in a
**canonical order**: it always knows what the engine waits for, and takes from each seat's feed,
in sequence, only a message that the current point accepts from that seat.  So every honest peer
holds the same public state, whatever order the network delivered things in.  The same rules
apply to every seat, the local one included (h11's rule: no special treatment of our own
messages); :class:`LocalSeat` only adds what the local seat must *send*.

What each seat owes is the first row of :data:`TRANSITIONS` whose condition holds (the table is
in docs/protocol.md, generated from the code).  Rows of phase ``any`` come first: the torch
round (TORCH from the torch user, a DELIVERY from every other contributor, KEY_RELEASE at the end
of the row) and the absent-seat procedure (RECLAIM, WELCOME).  A seat's next message is consumed
when its kind is one that some applicable row names, or it is an ABSENT vote (accepted at any
time), or the seat is absent (its stale messages are skipped until its RECLAIM).

A message that cannot be what its seat owes makes that seat **misbehave**: a
:class:`PeerMisbehaved` event with the offending message as evidence; its feed is not read
further and it is replaced by its zombie.  Nothing here raises on bad input from a peer.

**Absent seats** (F6).  A seat the match has waited for past the turn timeout is reported
(:class:`SeatsOverdue`: ask every peer for the message); past the silence timeout too, every
other peer's local seat votes (ABSENT, naming the seat and the number of its messages consumed).
When every other live seat has voted for the same point, the seat is **replaced**: every peer
computes its decisions with the game's bot, keyed by public data only (a "zombie"); the chance
events it committed to but did not reveal are drawn again under a new event id (``L2.R4~1``)
from the remaining seats, except secrets it had already delivered to a torch user, which that
user publishes by releasing its key.  A replaced seat may send RECLAIM; every live seat answers
WELCOME, and the seat plays again from the first decision step at which every live decider had
welcomed it before its own first message of that step — a point fixed by the feeds alone.
"""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.core import (
    Chance,
    ChanceEvent,
    EngineError,
    GameState,
    Over,
    Simultaneous,
    Turn,
    Visibility,
)
from engine.games import get_game
from engine.sim import bot_key
from engine.stream import sample_index
from protocol.crypto import (
    SAMPLER,
    ZOMBIE_DOMAIN,
    H,
    SeatSecrets,
    chance_commitment,
    chance_outcome,
    chance_set_digest,
    commit_set_digest,
    play_commitment,
    transcript_digest,
)
from protocol.delivery import check_secrets, open_delivery, seal_delivery, torch_key
from protocol.errors import BadMessage, LocalProtocolError
from protocol.feed import Equivocation, Feed
from protocol.header import Header, SignedHeader
from protocol.messages import (
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
    Message,
    ReclaimBody,
    RevealBody,
    TorchBody,
    WelcomeBody,
    sign_message,
)

NO_STATE: Final = bytes(32)


# --------------------------------------------------------------------------- events


@dataclass(frozen=True)
class ChanceResolved:
    event: str
    outcome: str
    missing: tuple[int, ...] = ()  # seats that did not contribute (replaced when committed)


@dataclass(frozen=True)
class ChanceRedrawn:
    """A replaced seat's secret for ``event`` is lost: it is drawn again as ``new_id`` from the
    remaining seats, and whatever a torch showed of it is void."""

    event: str
    new_id: str


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
    zombie: bool = False  # computed by every peer for a replaced seat


@dataclass(frozen=True)
class PeerMisbehaved:
    """``seat`` broke the rules; ``evidence`` holds the signed message(s) that prove it."""

    seat: int
    reason: str
    evidence: tuple[Message, ...]


@dataclass(frozen=True)
class SeatsOverdue:
    """``seats`` owe a message for ``step`` since ``since`` and the turn timeout has passed: the
    driver asks every peer for their missing messages (they may only be delayed)."""

    seats: tuple[int, ...]
    step: str
    since: float


@dataclass(frozen=True)
class SeatTimedOut:
    """``seat`` stayed silent past the silence timeout too: the local seat votes it absent at
    ``count`` (the number of its messages consumed)."""

    seat: int
    count: int
    step: str


@dataclass(frozen=True)
class SeatReplaced:
    """Every other live seat voted ``seat`` absent (``reason``): its zombie plays from now."""

    seat: int
    count: int
    reason: str


@dataclass(frozen=True)
class SeatReclaimed:
    """``seat`` plays again from ``step``."""

    seat: int
    step: str


@dataclass(frozen=True)
class TorchKeyReleased:
    """The torch user of ``round`` published its key; every delivery of the round was opened
    and checked (``bad``: the deliverers whose delivery lied)."""

    round: str
    seat: int
    bad: tuple[int, ...]


@dataclass(frozen=True)
class PrivateKnowledge:
    """What the local seat's torch showed it (event id -> card): known to it alone."""

    seat: int
    round: str
    knowledge: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class MatchEnded:
    """The engine reached its end: the result, the final public digest and the transcript
    digest every live seat now signs in its END message."""

    winners: tuple[int, ...]
    digest: bytes
    transcript: bytes = b""


@dataclass(frozen=True)
class ResultSigned:
    """Every live seat signed the same final state and transcript: the match is agreed."""

    winners: tuple[int, ...]
    digest: bytes
    transcript: bytes


@dataclass(frozen=True)
class ForkSuspected:
    """``seat``'s REVEAL for ``step`` names other commitments than this peer holds: some seat
    showed different commitments to different peers.  Nobody is blamed yet; the driver sends
    ``held`` (the COMMIT messages this peer holds for the step) to every peer, so that the two
    signed versions meet and prove the fork."""

    step: str
    seat: int
    held: tuple[Message, ...]


Event = (ChanceResolved | ChanceRedrawn | PlayCommitted | PlayRevealed | ActionTaken
         | PeerMisbehaved | SeatsOverdue | SeatTimedOut | SeatReplaced | SeatReclaimed
         | TorchKeyReleased | PrivateKnowledge | MatchEnded | ResultSigned | ForkSuspected)


def new_game_state(header: SignedHeader) -> GameState[Any]:
    """The engine state a header describes (its game and options); a header naming a game,
    engine or sampler version this program does not have is refused with the reason."""
    return game_state_for(header.header)


def game_state_for(h: Header) -> GameState[Any]:
    """:func:`new_game_state` for a header not signed yet (a lobby checks it before signing)."""
    try:
        spec = get_game(h.game)
    except EngineError as exc:
        raise BadMessage(f"this program cannot play the header's game: {exc}") from None
    if spec.engine_version != h.engine:
        raise BadMessage(f"the header asks for engine {h.engine!r}; this program has "
                         f"{spec.engine_version!r}")
    if h.sampler != SAMPLER:
        raise BadMessage(f"the header asks for sampler {h.sampler!r}; this program has "
                         f"{SAMPLER!r}")
    options = dict(h.options)
    known = inspect.signature(spec.new).parameters
    if not any(p.kind is p.VAR_KEYWORD for p in known.values()):
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise BadMessage(f"the header's options do not suit {spec.title}: no option "
                             f"{unknown[0]!r} (it has {', '.join(sorted(known)) or 'none'})")
    if "players" in options and options["players"] != len(h.seats):
        raise BadMessage(f"the header's options say {options['players']!r} players, but it has "
                         f"{len(h.seats)} seats")
    try:
        return spec.new(**options)
    except (TypeError, ValueError) as exc:
        raise BadMessage(f"the header's options do not suit {spec.title}: {exc}") from None


def zombie_action(state: GameState[Any], seat: int, match_id: bytes, step: str) -> Any:
    """The decision every peer computes for a replaced seat: the game's strongest bot on the
    seat's public view, keyed by the match id and the step (public data only).  A zombie never
    takes a free action (it holds no torch key)."""
    public = state.public()
    spec = get_game(state.game)
    factory = spec.zombie or spec.bots.get("heuristic") or next(iter(spec.bots.values()))
    key = bot_key(H(ZOMBIE_DOMAIN, match_id), step, seat, 0)
    choice = factory().choose(public.view(seat), key)
    if not spec.free_action(public, seat, choice):
        return choice
    plain = [a for a in public.legal_actions(seat) if not spec.free_action(public, seat, a)]
    return plain[sample_index(key, len(plain))] if plain else choice


# --------------------------------------------------------------------------- the core


@dataclass
class _Step:
    """Commit–reveal bookkeeping of one decision step."""

    name: str
    seats: frozenset[int]
    commitments: dict[int, bytes] = field(default_factory=dict)
    reveals: dict[int, tuple[str, Message]] = field(default_factory=dict)
    # For each live seat's first message of the step: the reclaiming seats it had welcomed.
    first: dict[int, frozenset[int]] = field(default_factory=dict)
    settled_rejoins: bool = False
    # Caches: the live deciders (by the absent seats they were worked out for), and the
    # digest of the commitments held (by those commitments).
    deciders: tuple[tuple[int, ...], frozenset[int]] | None = None
    held: tuple[tuple[bytes | None, ...], bytes] | None = None


@dataclass
class TorchRound:
    """One torch use: the torch user, the hidden events it is owed (protocol ids), its key,
    the deliveries, and the release."""

    id: str
    seat: int
    events: tuple[str, ...]
    deliverers: dict[int, tuple[str, ...]]  # seat -> the events it contributed to
    torch: Message | None = None
    public_key: bytes = b""
    deliveries: dict[int, Message] = field(default_factory=dict)
    release: Message | None = None
    private_key: bytes = b""
    void: bool = False
    due: bool = False  # the row is over: the key must be published before anything else
    publish: bool = False  # a deliverer was replaced: publish its secrets soon

    @property
    def complete(self) -> bool:
        return self.torch is not None and set(self.deliveries) >= set(self.deliverers)

    @property
    def open(self) -> bool:
        return not self.void and self.release is None


@dataclass(frozen=True)
class Absence:
    count: int  # the seat's messages consumed when it was replaced
    reason: str
    final: bool  # replaced for misbehaviour: no reclaim


class MatchCore:
    """Consumes every seat's feed in canonical order and drives the engine."""

    def __init__(self, header: SignedHeader, *, turn_timeout: float = 90.0,
                 silence_timeout: float = 60.0, wait_at_dead_ends: bool = False) -> None:
        self.header = header
        self.turn_timeout = turn_timeout
        self.silence_timeout = silence_timeout
        # A live peer's core settles a dead end of crossed votes only once it has lasted a
        # turn timeout (messages still on their way may change it: a vote of a seat whose
        # own message is in hand); a replay of a file, which holds them all, at once.
        self.wait_at_dead_ends = wait_at_dead_ends
        self._dead_end_seen: tuple[object, ...] = ()
        self._dead_end_due: tuple[object, ...] = ()
        self.now = 0.0
        self._wait_key: tuple[object, ...] = ()
        self._owing: tuple[int, ...] | None = None
        self._digest_cache: tuple[tuple[int, int], bytes] | None = None
        self._wait_since = 0.0
        self._overdue_reported: tuple[object, ...] = ()
        self._timed_out_reported: tuple[object, ...] = ()
        self._digested: GameState[Any] | None = None
        self._digest = NO_STATE
        self.match_id = header.match_id
        self.keys = tuple(seat.key for seat in header.header.seats)
        self.n = len(self.keys)
        self.state = new_game_state(header)
        self.feeds = [Feed(s, key, self.match_id) for s, key in enumerate(self.keys)]
        self.cursor = [0] * self.n  # next unconsumed message per feed
        self.taken = 0  # messages consumed in all (the sum of the cursors)
        self._unsettled = True  # _settle may have something to do (see _consume_all)
        self.blocked: dict[int, PeerMisbehaved] = {}
        # Chance: commitments and secrets by protocol event id (an engine id, or a re-draw's).
        self.chance_commitments: dict[str, dict[int, bytes]] = {}
        self.chance_count = 0  # chance commitments held, in all
        self.chance_secrets: dict[str, dict[int, bytes]] = {}
        self.closed: set[str] = set()  # ids whose commitments are all in (contributors fixed)
        self.resolved: set[str] = set()  # ids whose outcome is known
        self.alias: dict[str, str] = {}  # engine event id -> its current protocol id
        self.dead: set[str] = set()  # protocol ids drawn again (their secrets are void)
        self.published: dict[str, dict[int, bytes]] = {}  # secrets opened by released keys
        self.digest_rounds = 0  # CHANCE_DIGEST rounds completed
        self.covered = 0  # chance commitments covered by the last digest round
        self.digests: dict[int, bytes] = {}  # this round's digests, per seat
        self.step: _Step | None = None
        self._step_start: GameState[Any] | None = None  # the state when the step began
        self._step_digest: bytes | None = None
        # Torch rounds.
        self.rounds: dict[str, TorchRound] = {}
        self._live: list[TorchRound] = []  # the rounds not finished yet (see _live_rounds)
        self.shown: dict[int, set[str]] = {}  # seat -> protocol ids already in its rounds
        # Absent seats.
        self.absent: dict[int, Absence] = {}
        # Votes, read ahead of the cursor as soon as they are in a feed: (seat, count) -> voter
        # -> 1 absent / 0 present (a voter's first vote on a point is the one that counts).
        self.ballots: dict[tuple[int, int], dict[int, int]] = {}
        self.cast: dict[tuple[int, int], set[int]] = {}  # absent votes consumed in order
        # (seat, count, voter) -> the sequence number of the voter's first vote on that point.
        self.ballot_at: dict[tuple[int, int, int], int] = {}
        # Points kept "present" to break a dead end of crossed votes (see _crossed_votes).
        self.acquitted: set[tuple[int, int]] = set()
        # (seat, count) -> the seats that signed it silent there at a dead end (see _silenced).
        self.settles: dict[tuple[int, int], set[int]] = {}
        self._behind_seen: set[tuple[int, int, int]] = set()  # see replaced_behind
        # (seat, voter) -> the latest point a vote of that voter made this peer rebuild for.
        self.behind_top: dict[tuple[int, int], int] = {}
        self.replaced_at: dict[int, int] = {}  # seat -> the count it was last replaced at
        # Points whose message was taken while votes were void (see _take): votes on them are
        # spent.
        self.spent: set[tuple[int, int]] = set()
        self._scanned = [0] * self.n
        self.overdue: dict[int, int] = {}  # seat -> count the local clock found it overdue at
        self.timed_out: dict[int, int] = {}  # seat -> count the local clock timed it out at
        self.reclaims: dict[int, int] = {}  # replaced seat -> since, its RECLAIM consumed
        self.welcomed: dict[int, set[int]] = {}  # reclaiming seat -> seats that welcomed it
        self.stale: list[Message] = []  # messages skipped: a replaced seat's, stale votes
        self.shortfalls: list[str] = []  # every point played with fewer contributors
        self.events: list[Event] = []
        self.equivocations: list[Equivocation] = []
        # seat -> the sequence number of its first proven fork: its messages from there on never
        # count, and it is replaced at that point (the same on every peer, whoever saw the fork
        # first; a peer that had consumed past it rebuilds, see fork_behind).
        self.forked: dict[int, int] = {}
        self._suspected: set[tuple[str, int]] = set()
        # seat -> (cursor, taken, seats replaced) when its next message last failed to fit for
        # a reason the kind does not show (see unfit).
        self._unfit_at: dict[int, tuple[int, int, int]] = {}
        self.ended = False  # the engine reached its end
        self.signed = False  # every live seat signed the result (END)
        self.final: MatchEnded | None = None
        self.end_signatures: dict[int, Message] = {}
        # Each seat's last consumed message of the kinds that drive the engine: the heads the
        # transcript digest covers (optional messages, such as votes, may be consumed earlier
        # or later on different peers, so they cannot count).
        self.core_head = [self.match_id] * self.n
        # Early turns: a face-down card turned as soon as the step before it resolves, its
        # secrets revealed with the step's plays (no decision can come in between).  Per engine
        # state, the event (engine id) the current step turns early, or None; and per event,
        # the digest its early reveals carry (the step's, which they were signed in).
        self._early: tuple[GameState[Any], tuple[str, frozenset[int]] | None] | None = None
        self.early_state: dict[str, set[bytes]] = {}
        self._open_rounds()

    # ------------------------------------------------------------------ input

    def receive(self, message: Message, now: float | None = None, *,
                verified: bool = False) -> list[Event]:
        """Add a message to its feed and advance as far as the feeds allow.
        Returns the events this caused (misbehaviour included); never raises for bad input.
        ``now`` (any monotonic clock, in seconds) dates what the match waits for;
        ``verified``: the caller already checked the signature with the seat's key."""
        if now is not None:
            self.now = now
        start = len(self.events)
        if not 0 <= message.seat < self.n:
            return []
        try:
            result = self.feeds[message.seat].add(message, verified=verified)
        except BadMessage as exc:
            self._misbehave(message.seat, str(exc), message, stop=False)
            return self.events[start:]
        if result.equivocation is not None:
            self.equivocations.append(result.equivocation)
            pair = (result.equivocation.first, result.equivocation.second)
            # Replaced at the forked sequence number itself, once a message is due there
            # (_settle): the one point every peer agrees on, whichever version it took and
            # whenever the proof reached it.
            self._misbehave(message.seat, f"equivocation at sequence number {message.seq}",
                            *pair, stop=False)
            self._mark_fork(message.seat, message.seq)
        self.advance()
        return self.events[start:]

    # ------------------------------------------------------------------ the timers

    def live(self, seat: int) -> bool:
        return seat not in self.absent

    def live_seats(self) -> tuple[int, ...]:
        return tuple(s for s in range(self.n) if s not in self.absent)

    def owing(self) -> tuple[int, ...]:
        """The seats the match waits for now: their next message is due and not in hand, or
        they owe a vote that is not in hand (its next message may be, held up by a vote on
        it — then the vote it owes is what can decide); and, when no seat lacks a message it
        owes, the seats :meth:`stuck` on a message in hand that cannot be taken."""
        lacking = self._lacking()
        owing = set(lacking)
        if self.ballots:
            owing.update(s for s in self.live_seats() if self._owes_vote(s))
        if not self._lacking_unvoted(lacking):
            owing.update(s for s in self.live_seats() if self._stuck(s))
        return tuple(sorted(owing))

    def _lacking(self) -> list[int]:
        """Live seats blocked, or owing a message that is not in hand — votes aside: a vote
        owed on a stuck seat must not make it look unstuck to the very seats that owe it."""
        return [s for s in self.live_seats() if s in self.blocked
                or (self.expects(s, votes=False) is not None and self._next(s) is None)]

    def _lacking_unvoted(self, lacking: list[int]) -> bool:
        """Does a seat of ``lacking`` lack a message it owes with no vote on it yet?  A seat
        already voted absent there is the vote's case: a stuck seat's vote may be the one it
        needs (a REVEAL in place of a COMMIT waits for the missing commitment of a seat under
        a vote, and its sender never votes)."""
        return any(s in self.blocked or self.presence(s) not in ("pending", "absent")
                   for s in lacking)

    def unfit(self, seat: int) -> bool:
        """Live ``seat``'s next message is in hand but cannot be taken where it stands, votes
        aside: of a kind it may not send now (an overlay message for nothing open, a REVEAL
        where its COMMIT is due and commitments are missing), or — at this very state, none
        taken since — a reveal whose commitment set matches none held.  An honest message is
        unfit only while this peer lacks something its sender had seen."""
        message = self._next(seat)
        if message is None or seat in self.reclaims or seat in self.absent or (
                message.kind is Kind.ABSENT):
            return False
        if not self.accepts(seat, message.kind):
            # (A stale message, skipped where it stands, is no reason to vote its seat out.)
            return not self._stale(seat, message)
        return self._unfit_at.get(seat) == self._unfit_key(seat)

    def _unfit_key(self, seat: int) -> tuple[int, int, int]:
        """The state an unfit verdict on ``seat``'s next message holds for (see unfit)."""
        return self.cursor[seat], self.taken, len(self.absent)

    def stuck(self, seat: int) -> bool:
        """The match needs ``seat``'s message and its next one is :meth:`unfit`, while no seat
        lacks a message it owes but those already voted absent there — nothing any seat owes
        can make it fit.  A stuck seat is owed:
        its timers run, and once timed out it is voted absent like a silent one (a cheat's
        message that never fits would otherwise stop the match, with no timer running), and
        this peer does not answer "present" for it."""
        return self._stuck(seat) and not self._lacking_unvoted(self._lacking())

    def _stuck(self, seat: int) -> bool:
        return self._needed(seat) and self.unfit(seat)

    def _note_wait(self) -> None:
        # The wait restarts whenever the match moves (a message consumed, a seat replaced);
        # who it waits for is worked out only when a timer is asked for.
        key = self._wait_state()
        if key != self._wait_key:
            self._wait_key = key
            self._wait_since = self.now
            self._owing = None

    def _wait_state(self) -> tuple[object, ...]:
        return (id(self.state), self.taken, len(self.absent), len(self.ballots))

    def _dead_end_waits(self) -> bool:
        """A dead end of crossed votes is held back here, in this wait, until the turn timeout
        (see ``wait_at_dead_ends``)."""
        key = self._wait_key
        return bool(key) and self._dead_end_seen == key and self._dead_end_due != key

    def _owing_now(self) -> tuple[int, ...]:
        if self._owing is None:
            self._owing = self.owing()
        return self._owing

    def get_timer(self) -> float | None:
        """When the next timeout falls (None: the match waits for nobody)."""
        if self.signed or not self._wait_key:
            return None
        if not self._owing_now():
            return self._wait_since + self.turn_timeout if self._dead_end_waits() else None
        if self._overdue_reported != self._wait_key:
            return self._wait_since + self.turn_timeout
        if self._timed_out_reported != self._wait_key:
            return self._wait_since + self.turn_timeout + self.silence_timeout
        return None

    def handle_timer(self, now: float) -> list[Event]:
        """Report overdue seats once per wait (:class:`SeatsOverdue`: ask every peer for the
        message), then, after the silence timeout, time them out (:class:`SeatTimedOut`: the
        local seat votes them absent); or break a dead end of crossed votes held back for a
        turn timeout (``wait_at_dead_ends``)."""
        self.now = now
        start = len(self.events)
        key = self._wait_key
        seats = self._owing_now() if key else ()
        if (not seats and not self.signed and self._dead_end_waits()
                and now >= self._wait_since + self.turn_timeout):
            self._dead_end_due = key  # it lasted: settle it (_break_crossed_votes)
            self.advance()
            return self.events[start:]
        if self.signed or not seats:
            return []
        where = self.where()
        if now >= self._wait_since + self.turn_timeout and self._overdue_reported != key:
            self._overdue_reported = key
            for seat in seats:
                self.overdue[seat] = self.cursor[seat]
            self.events.append(SeatsOverdue(tuple(seats), str(where), self._wait_since))
        if (now >= self._wait_since + self.turn_timeout + self.silence_timeout
                and self._timed_out_reported != key):
            self._timed_out_reported = key
            for seat in seats:
                self.timed_out[seat] = self.cursor[seat]
                self.events.append(SeatTimedOut(seat, self.cursor[seat], str(where)))
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
        self._know_votes_behind()
        return self.events[start:]

    def _mark_fork(self, seat: int, seq: int) -> None:
        self.forked[seat] = min(seq, self.forked.get(seat, seq))
        self._owing = None
        self._unsettled = True

    def fork_behind(self) -> bool:
        """This core consumed a live seat's message at or past the point where that seat's
        feed was proved forked: it holds a state the others may not (they stop at the fork),
        so the driver must rebuild it from the feeds (:meth:`adopt`), which stops there."""
        return bool(self.forked) and any(self.live(s) and self.cursor[s] > k
                                         for s, k in self.forked.items())

    # ------------------------------------------------------------------ helpers

    def _misbehave(self, seat: int, reason: str, *evidence: Message, stop: bool = True,
                   replace: bool = True) -> None:
        event = PeerMisbehaved(seat, reason, tuple(evidence))
        self.events.append(event)
        if stop and seat not in self.blocked:
            self.blocked[seat] = event
            self._owing = None  # a blocked seat is owing: its timers run
            if replace and seat not in self.absent:
                self._replace(seat, reason, final=True)

    def _next(self, seat: int) -> Message | None:
        if seat in self.blocked or (seat in self.forked and self.cursor[seat] >= self.forked[seat]):
            return None
        return self.feeds[seat].at(self.cursor[seat])

    def _take(self, seat: int) -> None:
        if self.ballots and self._votes_void():
            # Taken while votes are void (two seats left): a vote on this point is spent — it
            # no longer holds its voter's later messages, even if a replaced seat reclaims and
            # three seats are live again (nobody would answer "present" for a message the
            # match took without a vote).
            self.cast.pop((seat, self.cursor[seat]), None)
            self.spent.add((seat, self.cursor[seat]))
        self.cursor[seat] += 1
        self.taken += 1

    def public_digest(self) -> bytes:
        state = self.state
        if self._digested is not state:  # states are immutable: one digest per state
            self._digested = state
            self._digest = (self._step_digest if state is self._step_start
                            and self._step_digest is not None else state.digest())
        return self._digest

    def expects(self, seat: int, *, votes: bool = True) -> Kind | None:
        """What ``seat`` owes next (None: nothing now), by the first row of
        :data:`TRANSITIONS` that applies (``votes=False``: leaving its votes aside)."""
        if seat in self.absent:
            return None
        # With no torch round live, no seat reclaiming and no vote, no row of phase ``any`` can
        # apply (each asks for one of these): only the phase's own rows are looked at.
        quiet = not self.reclaims and not self.ballots and not self._live_rounds()
        for row in (_PHASE_ROWS if quiet else _ROWS_IN)[self.phase()]:
            if (votes or row.expect is not Kind.ABSENT) and row.when(self, seat):
                return row.expect
        return None

    def _votes_void(self) -> bool:
        """Only two seats are live (or fewer): no vote can pass (it needs two voters, and a
        match is between at least two seats), so votes hold nothing up.  Two seats left that
        time each other out at once would otherwise each wait for the vote on the other for
        good: each seat's message for the vote on it, each voter's for its own vote."""
        return len(self.absent) + 2 >= self.n

    def _needed(self, seat: int) -> bool:
        """The match needs ``seat``'s next message now (votes aside)."""
        return seat in self.blocked or self.expects(seat, votes=False) is not None

    def _owes_vote(self, seat: int) -> bool:
        """Another live seat was voted absent where the match needs its message, and ``seat``
        has not voted on it (a silent voter would stall the vote: so it is owed, and timed)."""
        if self._votes_void():
            return False
        for (target, count), ballot in self.ballots.items():
            if (target != seat and seat not in ballot and self.live(target)
                    and self.cursor[target] == count and 1 in ballot.values()
                    and self._needed(target)):
                return True
        return False

    def _phase_expects(self, seat: int) -> Kind | None:
        phase = self.phase()
        for row in TRANSITIONS:
            if row.phase == phase and row.when(self, seat):
                return row.expect
        return None

    def accepts(self, seat: int, kind: Kind) -> bool:
        """May ``seat``'s next message be of ``kind`` now?  Yes for any applicable row's kind
        (its own order of two owed messages is its business), a free action before a
        commitment, an early key release, a vote.  Only the rows that owe ``kind`` are
        evaluated."""
        if kind is Kind.ABSENT:
            return True
        if kind is Kind.ACT and self.accepts(seat, Kind.COMMIT):
            return True  # a free action (a torch peek) before the commitment
        if kind is Kind.KEY_RELEASE and any(r.seat == seat and r.torch is not None and r.open
                                            for r in self._live_rounds()):
            return True
        phase = self.phase()
        if kind is Kind.REVEAL and phase == SIMULTANEOUS and self.may_reveal_directly(seat):
            return True  # its REVEAL in place of its COMMIT: every other commitment is held
        return any(row.when(self, seat) for row in _ROWS_OWING_IN[phase][kind])

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

    # Conditions of the transition table (each: does ``seat`` owe the row's message now?).

    def _live_rounds(self) -> list[TorchRound]:
        """The torch rounds something may still be owed in, in the order they opened: a round
        that is void, or released with every delivery in, is finished — no seat owes it
        anything, and nothing can be done to it (every use of a round below asks for one that
        is open, or owes a TORCH, a DELIVERY or a release).  Usually none: no torch is in use."""
        live = self._live
        if live and any(r.void or (r.release is not None and r.complete) for r in live):
            live = self._live = [r for r in live
                                 if not (r.void or (r.release is not None and r.complete))]
        return live

    def _owes_torch(self, seat: int) -> bool:
        return bool(self._live) and any(r.seat == seat and r.torch is None and not r.void
                                        for r in self._live_rounds())

    def _owes_release(self, seat: int) -> bool:
        return bool(self._live) and any(r.seat == seat and r.due and r.open and r.complete
                                        for r in self._live_rounds())

    def _owes_delivery(self, seat: int) -> bool:
        return self._delivery_round(seat) is not None

    def _delivery_round(self, seat: int) -> TorchRound | None:
        for r in self._live_rounds():
            if (not r.void and r.torch is not None and seat in r.deliverers
                    and seat not in r.deliveries):
                return r
        return None

    def _owes_welcome(self, seat: int) -> bool:
        return bool(self.reclaims) and any(seat not in self.welcomed.get(x, set())
                                           for x in self.reclaims)

    def _waits_for_torch(self, seat: int) -> bool:
        """The torch user's decisions wait for its round (key sent, every delivery in)."""
        return bool(self._live) and any(r.seat == seat and not r.void and not r.complete
                                        for r in self._live_rounds())

    def _gated(self, seat: int) -> bool:
        return self._owes_torch(seat) or self._owes_release(seat)

    def _uncommitted_chance(self, seat: int) -> bool:
        wanted = self._wanted_commitments()
        return bool(wanted) and seat not in self.chance_commitments.get(wanted[0], {}) and (
            not self._gated(seat))

    def _unrevealed_chance(self, seat: int) -> bool:
        event = self._chance_id()
        return (event in self.closed and seat in self.chance_commitments.get(event, {})
                and seat not in self.chance_secrets.get(event, {}) and not self._gated(seat))

    def _undigested(self, seat: int) -> bool:
        return seat not in self.digests and not self._gated(seat)

    def _turn_of(self, seat: int) -> bool:
        w = self.state.waiting
        return (isinstance(w, Turn) and w.seat == seat and not self._gated(seat)
                and not self._waits_for_torch(seat))

    def _uncommitted_play(self, seat: int) -> bool:
        step = self._simultaneous_step()
        return (seat in self._deciders(step) and seat not in step.commitments
                and not self._gated(seat) and not self._waits_for_torch(seat))

    def _unrevealed_play(self, seat: int) -> bool:
        step = self._simultaneous_step()
        deciders = self._deciders(step)
        return (seat in deciders and step.settled_rejoins
                and all(s in step.commitments for s in deciders)
                and seat not in step.reveals and not self._gated(seat))

    def may_reveal_directly(self, seat: int) -> bool:
        """``seat`` owes its COMMIT and every other live decider's commitment is held: it may
        send its REVEAL instead, which commits and opens at once (a direct reveal, protocol.md
        §7.1) — nobody can change a play any more, so nobody can profit from seeing it."""
        if not self._uncommitted_play(seat):
            return False
        step = self._simultaneous_step()
        return all(s in step.commitments for s in self._deciders(step) if s != seat)

    def _direct_reveal_fault(self, seat: int) -> str | None:
        """Why ``seat``'s REVEAL in place of its COMMIT cannot be an honest seat's, whatever
        arrives later; None if it may be (it is then taken once every other live decider's
        commitment is in, and waits until then).  An honest seat reveals at once only when it
        holds every other commitment and nobody reclaims (§8.2).  So, when the reveal is its
        first message of the step, it has not welcomed a seat that still reclaims (a reclaim
        ends only when the seat rejoins, at a step every live decider's first message settles:
        here the reveal's own, so the reclaim was pending when it decided — after an earlier
        free action of the step the rejoin may have settled where it decided and not yet
        here); and it has delivered its secrets to the torch round of every decider whose
        commitment it held (that decider commits only once its round is complete).  Waiting
        in those cases could wait for good: the missing commitment waits for this very seat,
        or the reclaiming seat for its rejoin."""
        step = self._simultaneous_step()
        if seat not in step.first:
            for x, welcomers in self.welcomed.items():  # (the seats reclaiming now)
                if seat in welcomers:
                    return (f"revealed at once while seat {x}, which it welcomed back, reclaims "
                            "(it could rejoin the step after seeing the play)")
        missing = {s for s in self._deciders(step) if s != seat and s not in step.commitments}
        for r in self._live_rounds():
            if (r.seat in missing and r.torch is not None and not r.void
                    and seat in r.deliverers and seat not in r.deliveries):
                return (f"revealed at once before delivering to seat {r.seat}'s torch round, "
                        f"so it cannot have held seat {r.seat}'s commitment")
        return None

    def early_turn(self) -> str | None:
        """The face-down card (its protocol id) the current simultaneous step turns next once
        it resolves (``GameState.turned_next``), when its commitments are closed; None
        otherwise, and when a seat may still decide something before the card is turned (a
        follow-up).  Its secrets are revealed as soon as every live decider of the step has
        committed: nobody can act on them any more.  (Letting some contributors keep their
        secrets while the others reveal would let a follow-up decider and one keeper together
        see the card early: a coalition short of all.)"""
        state = self.state
        if self._early is None or self._early[0] is not state:  # per state: the engine's part
            turned = (state.turned_next() if isinstance(state.waiting, Simultaneous)
                      else None)
            self._early = (state, turned)
        turned = self._early[1]
        if turned is None or turned[1] or self._digest_due():
            return None  # (nobody may decide between: else a follow-up could see the card)
        event = self.alias.get(turned[0], turned[0])
        return event if event in self.closed and event not in self.resolved else None

    def early_secret_owed(self, seat: int) -> str | None:
        """The early turn (protocol id) whose secret ``seat`` contributes and has not revealed
        yet; None if there is none."""
        event = self.early_turn()
        if event is None or seat not in self.chance_commitments.get(event, {}) or (
                seat in self.chance_secrets.get(event, {})):
            return None
        return event

    def _unrevealed_early(self, seat: int) -> bool:
        if self.early_secret_owed(seat) is None:
            return False
        step = self._simultaneous_step()
        deciders = self._deciders(step)
        return (step.settled_rejoins and all(s in step.commitments for s in deciders)
                and (seat not in deciders or seat in step.reveals) and not self._gated(seat))

    def _unsigned_result(self, seat: int) -> bool:
        return self.ended and seat not in self.end_signatures and not self._gated(seat)

    def _chance_id(self) -> str:
        w = self.state.waiting
        assert isinstance(w, Chance)
        return self.alias.get(w.event.id, w.event.id)

    def _wanted_commitments(self) -> tuple[str, ...]:
        """The protocol ids every live seat must commit to now (one batch)."""
        return tuple(a for a in (self.alias.get(e, e) for e in self.state.upcoming_events())
                     if a not in self.closed)

    def _simultaneous_step(self) -> _Step:
        w = self.state.waiting
        assert isinstance(w, Simultaneous)
        return self._current_step(w)

    def _deciders(self, step: _Step) -> frozenset[int]:
        absent = tuple(self.absent)  # (seats are only ever added or removed: this names the set)
        if step.deciders is None or step.deciders[0] != absent:
            step.deciders = (absent, frozenset(s for s in step.seats if s not in self.absent))
        return step.deciders[1]

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
            # (often the state public_digest() just digested: the step began there)
            self._step_digest = self._digest if start is self._digested else start.digest()
        return self._step_digest

    def chance_digest(self) -> bytes:
        """The digest of every chance commitment held (commitments only ever grow, so the
        count and the round name the set)."""
        key = (self.digest_rounds, self.chance_count)
        if self._digest_cache is None or self._digest_cache[0] != key:
            entries = [(event, seat, c) for event, by_seat in self.chance_commitments.items()
                       for seat, c in by_seat.items()]
            digest = chance_set_digest(self.match_id, min(self.digest_rounds + 1, 5), entries)
            self._digest_cache = (key, digest)
        return self._digest_cache[1]

    def where(self) -> str:
        """The point the match is at, in words (a step or a chance event)."""
        w = self.state.waiting
        if isinstance(w, Chance):
            return self._chance_id()
        return str(getattr(w, "step", "the end"))

    # ------------------------------------------------------------------ the canonical loop

    def advance(self) -> None:
        """Consume every message that fits the current state, seat by seat, until none does."""
        self._consume_all()
        if not self.signed:
            self._note_wait()

    def _consume_all(self) -> None:
        while True:
            self._consume_pass()
            if self.signed:
                return
            if any(k < self.cursor[s] and k < len(self.feeds[s].chain)
                   for s, k in enumerate(self._scanned)):
                continue  # a RECLAIM was taken: read the votes after it (_index_ballots)
            # Only once nothing more can be taken: a dead end of crossed votes is then the
            # same on every peer that reaches it (see _crossed_votes).
            # (A settled point first: it was signed at a dead end that a peer holding fewer
            # messages may have broken already, and a crossed-votes dead end here would not
            # change what every signer saw.)
            if not self.ballots or self._taken_under_vote() or not (
                    (self.settles and self._break_silence()) or self._break_crossed_votes()):
                return

    def _consume_pass(self) -> None:
        self._index_ballots()
        if self._unsettled:
            # (Only a fork proved or a vote read since the last settling can give it something
            # to do: every other change is a consumption, which is settled at once.)
            self._settle()
        chains, cursor = [feed.chain for feed in self.feeds], self.cursor
        progress = True
        while progress and not self.signed:
            progress = False
            for seat in range(self.n):
                if len(chains[seat]) <= cursor[seat]:
                    continue  # (nothing of its to take: the common case, checked cheaply)
                message = self._next(seat)
                if message is None:
                    continue
                before = len(self.absent)
                if self._consume(seat, message) or len(self.absent) != before:
                    progress = True  # consumed, or its sender was replaced for it
                    self._settle()
                    if self.signed:
                        return

    _OVERLAY: Final = frozenset({Kind.TORCH, Kind.DELIVERY, Kind.KEY_RELEASE, Kind.ABSENT,
                                 Kind.RECLAIM, Kind.WELCOME})

    def _dead_round(self, body: TorchBody | DeliveryBody | KeyReleaseBody) -> bool:
        """Is ``body`` (a torch round's message) for a round that can never open: not open
        here and named by an event drawn again (``torch.<seat>.<first event>``)?"""
        name = body.round
        if name in self.rounds:
            return False
        parts = name.split(".", 2)
        return len(parts) == 3 and parts[0] == "torch" and parts[2] in self.dead

    def _consume(self, seat: int, message: Message) -> bool:
        kind = message.kind
        body = message.content
        if seat in self.absent:
            return self._consume_absent(seat, message)
        if seat in self.reclaims:
            return False  # a reclaiming seat waits until it rejoins
        if self.ballots and self.presence(seat) in ("pending", "absent") and not (
                kind is Kind.END and self.ended):
            # Voted absent by some: its message waits for the vote's outcome.  Not an END:
            # at the end the vote can only be about that END, which is here — a seat timed out
            # just before its END came in would otherwise hold the result up until someone
            # answered "present", which the seats that already saw every END may never do.
            return False
        if self.cast and kind is not Kind.ABSENT and self._after_vote(seat):
            return False  # it voted a seat absent: what it sent next waits for the outcome
        if self._stale(seat, message):
            self.stale.append(message)
            self._take(seat)
            return True
        if isinstance(body, ChanceRevealBody) and self._early_reveal_state(body, message):
            # An early turn's reveal consumed after the step it was sent in (this peer saw the
            # step resolve first): it was owed when sent, so it is taken now, whatever the
            # seat owes since (a follow-up, a torch message the step's resolution called for).
            event = body.secrets[0][0]
            w = self.state.waiting
            if event == self.early_turn() or (isinstance(w, Chance) and event == self._chance_id()):
                if seat in self.chance_secrets.get(event, {}):
                    self._misbehave(seat, f"revealed its secret for {event} twice", message)
                    return False
                done = self._chance_reveal(seat, message, body, event)
                if done:
                    self.core_head[seat] = message.hash
                return done
        if not self.accepts(seat, kind):
            # An optional message may have been sent before this peer got to its point (a
            # delivery before the torch message arrived): it waits.  So does a message when
            # the phase owes nothing of its seat yet, and a direct reveal until every other
            # decider's commitment is in.  Otherwise it is the wrong message.
            if kind is Kind.REVEAL and self._phase_expects(seat) is Kind.COMMIT:
                fault = self._direct_reveal_fault(seat)
                if fault is None or self._vote_pending():
                    return False
                self._misbehave(seat, fault, message)
                return False
            expected = None if kind in self._OVERLAY else self._phase_expects(seat)
            if expected is None or self._vote_pending():
                return False
            self._misbehave(seat, f"sent {kind.name} where {expected.name} was due", message)
            return False
        if kind not in self._OVERLAY and message.state != self.step_state and not (
                isinstance(body, ChanceRevealBody) and self._early_reveal_state(body, message)):
            if self._vote_pending() or (isinstance(body, ChanceRevealBody)
                                        and self.early_turn() is not None):
                # (A chance reveal of an early turn signed after its sender saw the step
                # resolved carries the state after it: it waits until this peer sees that too.)
                return False  # it may have seen a seat replaced that this peer has not yet
            self._misbehave(seat, "its message carries another public state digest than the "
                            "match is in (its engine diverged, or it lies)", message)
            return False
        if kind in CORE_KINDS:
            done = self._consume_core(seat, message)
            if done and kind is not Kind.END:
                self.core_head[seat] = message.hash
            return done
        if isinstance(body, AbsentBody):
            return self._absent_vote(seat, message, body)
        if isinstance(body, TorchBody):
            return self._torch(seat, message, body)
        if isinstance(body, DeliveryBody):
            return self._delivery(seat, message, body)
        if isinstance(body, KeyReleaseBody):
            return self._key_release(seat, message, body)
        if isinstance(body, WelcomeBody):
            return self._welcome(seat, message, body)
        return False

    def _early_reveal_state(self, body: ChanceRevealBody, message: Message) -> bool:
        """A chance reveal of an early turn, consumed after the step it was sent in (in a
        later step, or once the card is posed), carries the digest of that step."""
        return message.state in self.early_state.get(body.secrets[0][0], ())

    def _consume_core(self, seat: int, message: Message) -> bool:
        body = message.content
        w = self.state.waiting
        if isinstance(body, ChanceCommitBody):
            return self._chance_commit(seat, message, body)
        if isinstance(body, ChanceRevealBody):
            if isinstance(w, Chance):
                return self._chance_reveal(seat, message, body, self._chance_id())
            early = self.early_turn()
            assert early is not None  # accepts() takes CHANCE_REVEAL only then
            return self._chance_reveal(seat, message, body, early)
        if isinstance(body, ChanceDigestBody):
            return self._chance_digest(seat, message, body)
        if isinstance(body, ActBody):
            assert isinstance(w, Simultaneous | Turn)
            if isinstance(w, Simultaneous):
                self._first_of_step(seat)
            else:
                self._rejoin_at_turn(seat, w.step)
            return self._act(seat, message, body, w.step)
        if isinstance(body, CommitBody):
            assert isinstance(w, Simultaneous)
            self._first_of_step(seat)
            return self._commit(seat, message, body, w.step)
        if isinstance(body, RevealBody):
            assert isinstance(w, Simultaneous)
            return self._reveal(seat, message, body, w.step)
        if isinstance(body, EndBody):
            return self._end(seat, message, body)
        self._misbehave(seat, f"{message.kind.name} is not expected now", message)
        return False

    # ------------------------------------------------------------------ absent seats

    def _consume_absent(self, seat: int, message: Message) -> bool:
        """A replaced seat's feed: stale messages are skipped; its RECLAIM is taken."""
        absence = self.absent[seat]
        body = message.content
        if (isinstance(body, ReclaimBody) and body.since == absence.count
                and not absence.final and seat not in self.reclaims):
            self.reclaims[seat] = body.since
            self.welcomed[seat] = set()
            self._take(seat)
            return True
        if seat in self.reclaims:
            return False  # after its reclaim, it waits to rejoin
        self.stale.append(message)
        self._take(seat)
        return True

    def _absent_vote(self, seat: int, message: Message, body: AbsentBody) -> bool:
        # A present vote counts from the moment it is in a feed (see _index_ballots); an
        # absent vote counts once consumed in its feed's order (it is *cast*): so a seat is
        # replaced after every voter's messages before its vote, and before any after it.
        self._take(seat)
        target = body.seat
        # A vote on a point this peer has not reached yet (the target's earlier messages still
        # to come) is cast all the same: it counts when the target gets there.
        # (A vote on a message this peer already consumed is cast too: this peer may be the
        # voted seat's own, which consumed it at once — see replaced_behind.)
        if (body.absent == 1 and target != seat and 0 <= target < self.n
                and self.live(target) and body.count > self.replaced_at.get(target, -1)
                and not (self.cursor[target] > body.count and self._votes_void())):
            # (Not on a message taken while votes are void — two seats left, see _take: the
            # vote is spent, even if a replaced seat reclaims and three seats are live again.)
            self.cast.setdefault((target, body.count), set()).add(seat)
        return True

    def _after_vote(self, seat: int) -> bool:
        """``seat`` cast an absent vote still undecided: its later messages wait for it."""
        if self._votes_void():
            return False
        for (target, count), voters in self.cast.items():
            # (A vote on a seat the match no longer needs there is dormant: it completes if
            # the match comes to need that seat again at the same point.)
            if seat not in voters or not self.live(target):
                continue
            cursor = self.cursor[target]
            if cursor < count:
                return True
            if cursor == count and self._needed(target) and self.presence(target) != "present":
                return True
            if cursor > count and not self._answered_present(target, count):
                # This peer consumed the message the vote says is missing: until a seat that
                # holds it says so (present), the voter's later messages wait — they may
                # follow a replacement this peer has not seen.
                return True
        return False

    def _index_ballots(self) -> None:
        """Read every vote ahead of the cursors — but not past a RECLAIM not yet taken: what a
        seat votes after its RECLAIM, it votes as a replaced seat, and it counts only once
        that RECLAIM is taken here (a seat that is live here and has not reclaimed yet would
        otherwise answer, say, "present" from its replaced view, and whether that answer came
        before or after the others' votes replaced it would depend on arrival order)."""
        scanned = self._scanned
        for seat, feed in enumerate(self.feeds):
            messages = feed.chain
            if len(messages) == scanned[seat]:
                continue
            index = scanned[seat]
            while index < len(messages):
                message = messages[index]
                body = message.content
                if isinstance(body, AbsentBody) and body.seat != seat and body.seat < self.n:
                    ballot = self.ballots.setdefault((body.seat, body.count), {})
                    if body.absent == 2:
                        self.settles.setdefault((body.seat, body.count), set()).add(seat)
                    elif seat not in ballot:
                        ballot[seat] = body.absent
                        self.ballot_at[(body.seat, body.count, seat)] = message.seq
                    self._unsettled = True
                elif isinstance(body, ReclaimBody) and index >= self.cursor[seat]:
                    break
                index += 1
            scanned[seat] = index

    def _under_vote(self, seat: int) -> bool:
        voters = self.cast.get((seat, self.cursor[seat]), set())
        return any(voter != seat and self.live(voter) for voter in voters)

    def _answered_present(self, seat: int, count: int) -> bool:
        """A live seat other than ``seat`` voted "present" on its message ``count`` (it holds
        it), or the point was kept to break crossed votes (see :meth:`_crossed_votes`)."""
        if (seat, count) in self.acquitted:
            return True
        ballot = self.ballots.get((seat, count))
        return ballot is not None and any(
            verdict == 0 and voter != seat and self.live(voter)
            and not (self.settles and self._silenced(voter))
            for voter, verdict in ballot.items())

    def presence(self, seat: int) -> str:
        """The vote on live ``seat`` at its next message: ``none`` (no vote), ``pending`` (some
        seat voted it absent; its message, even if held, waits for the others), ``present``
        (some live seat holds the message: it is consumed as usual) or ``absent`` (every other
        live seat voted it absent: it is replaced).  A function of the feeds alone."""
        ballot = self.ballots.get((seat, self.cursor[seat]))
        if not ballot or self._votes_void():
            return "none"
        if self._answered_present(seat, self.cursor[seat]):
            return "present"
        live = {v: verdict for v, verdict in ballot.items() if v != seat and self.live(v)}
        # Seats themselves voted absent need not vote (two seats may go silent at once) — but
        # at least two seats must vote: a seat cut off from everyone times every other seat
        # out and votes them all absent, and its vote alone must not replace anyone.
        needed = {s for s in self.live_seats() if s != seat and not self._under_vote(s)}
        cast = self.cast.get((seat, self.cursor[seat]), set())
        if len(needed) >= 2 and needed <= cast:
            return "absent"
        return "pending" if live else "none"

    def replaced_behind(self, seat: int) -> bool:
        """A live other seat voted ``seat`` absent at a message this peer had already consumed
        (``seat``'s own, say, signed here before the vote arrived), and no live seat answered
        "present": the feeds may put ``seat``'s message after a replacement, or after another
        vote's outcome, where this peer took it at once — its state may be ahead of what the
        feeds say.  A peer playing ``seat`` then rebuilds its core from the feeds
        (:meth:`adopt`), which reads the votes ahead and reaches the state every peer reaches
        (it reclaims if replaced).  Each vote answers True once (so a rebuilt core, which
        :meth:`adopt` leaves knowing every vote it holds, is not rebuilt again for it).
        (Every other seat's vote used to be needed, and none while votes are void — but a
        seat that replaced another on its own vote, which the feeds say was cast while it
        was itself under a vote, then never rebuilt: with two seats left in its view, votes
        are void.)"""
        if not self.ballots or not self.live(seat):
            return False  # (no vote at all: the common case)
        found = False
        for (target, count), ballot in self.ballots.items():
            if target != seat or not self._taken_unanswered(seat, count):
                continue
            for voter in self._absent_voters(seat, ballot):
                if (seat, count, voter) not in self._behind_seen:
                    self._behind_seen.add((seat, count, voter))
                    # A voter votes on a seat's points in the order it reaches them: a vote on
                    # a point before one of its votes that already made this peer rebuild is
                    # no news (a cheat signing one vote per message taken, last first, would
                    # otherwise make the peer replay the match once per vote).
                    if count > self.behind_top.get((seat, voter), -1):
                        self.behind_top[(seat, voter)] = count
                        found = True
        return found

    def _taken_under_vote(self) -> bool:
        """This core took a live seat's message that a live other seat voted absent, with no
        live seat answering "present" (and not while votes were void): the feeds may put that
        message after the vote's outcome, so this state may be ahead of what they give.  A dead
        end seen from here is not one the feeds give: it is not broken until the peer has
        answered "present" (another seat's message) or rebuilt (its own, replaced_behind).
        Before, three messages that filled a gap in a feed at once could vote, break a dead end
        and blame a seat within one receive, before the peer could rebuild."""
        return any(self.live(target) and (target, count) not in self.spent
                   and self._taken_unanswered(target, count)
                   and bool(self._absent_voters(target, ballot))
                   for (target, count), ballot in self.ballots.items())

    def _taken_unanswered(self, seat: int, count: int) -> bool:
        """``seat``'s message ``count`` is taken here, after its last replacement (one already
        applied, then reclaimed, spends the votes before it), and no live seat answered
        "present" for it."""
        return self.replaced_at.get(seat, -1) < count < self.cursor[seat] and (
            not self._answered_present(seat, count))

    def _absent_voters(self, seat: int, ballot: dict[int, int]) -> list[int]:
        """The live seats other than ``seat`` whose first vote in ``ballot`` is absent."""
        return [voter for voter, verdict in ballot.items()
                if verdict == 1 and voter != seat and self.live(voter)]

    def _know_votes_behind(self) -> None:
        """Take every vote held as seen by :meth:`replaced_behind` (this core's state is the
        feeds' own: it was just built from them)."""
        for (target, count), ballot in self.ballots.items():
            for voter in ballot:
                self._behind_seen.add((target, count, voter))

    def _crossed_votes(self) -> tuple[int, int, tuple[int, ...]] | None:
        """A dead end of crossed votes (protocol.md §7.6 item 7): the seat to keep, its point,
        and every seat held up; or None.

        Looked at only once nothing more can be taken.  A dead end: nobody owes a message this
        peer lacks (so no timer runs, and an honest seat casts no new vote); at least two live
        seats are held up by a vote (``pending``: the match needs their message, or one is in
        hand and waits — a late vote, say, of a seat voted absent for not voting); and every
        held-up point has an absent *first* vote from every other live seat (so none can turn
        present, and none can pass: each waits for voters whose own messages wait for a vote).
        First votes never change and nothing else can move, so every peer that gets there holds
        the same set, whatever it receives later.  Kept: the lowest held-up seat whose first
        vote on another held-up point lies in its own feed *after* its voted message — proof
        it sent that message, and voted in a match where the other seat was missing.  (Honest
        seats always give one: of two seats that voted each other absent, one signed its vote
        without the other's message before it, so not both votes can lie before the voters'
        own voted messages.)"""
        if self._votes_void():
            return None
        points = [(t, c) for (t, c) in self.ballots if self.cursor[t] == c and self.live(t)]
        if len(points) < 2:
            return None  # (the common case: every vote is about a point passed)
        held = {t: c for t, c in points if self.presence(t) == "pending"
                and (self._next(t) is not None or self._needed(t))}
        if len(held) < 2 or self.owing():
            return None
        live = self.live_seats()
        for target, count in held.items():
            ballot = self.ballots[(target, count)]
            if any(ballot.get(v) != 1 for v in live if v != target):
                return None
        for seat in sorted(held):
            if any(self.ballot_at[(t, c, seat)] > held[seat]
                   for t, c in held.items() if t != seat):
                return seat, held[seat], tuple(sorted(held))
        return None

    def _break_crossed_votes(self) -> bool:
        """Keep the seat :meth:`_crossed_votes` names: its message is taken as if a seat had
        answered "present"; its own votes then count, and the old rules go on."""
        found = self._crossed_votes()
        if found is None:
            return False
        if self.wait_at_dead_ends and self._dead_end_due != self._wait_state():
            self._dead_end_seen = self._wait_state()
            # (Who is owed was cached for this wait, maybe before the last message came in:
            # at a dead end nobody is, and the held-back timer must be the one that runs.)
            self._owing = None
            return False
        if self.settles and self._pending_settlement() is not None:
            # A seat signed a settlement here (§7.6 item 8): a peer holding every signature
            # replaces its seat before it looks for crossed votes, so this dead end waits for
            # the settlement — a peer short of a signature would otherwise keep a seat where
            # the others replace one.  The local seat joins it (silent_dead_end).
            return False
        seat, count, held = found
        self.acquitted.add((seat, count))
        self.shortfalls.append(
            f"seat {seat} kept at its message {count}: seats "
            + ", ".join(map(str, held)) + " voted each other absent at once (crossed votes)")
        self._owing = None
        self._unsettled = True
        return True

    def _all_voted_absent(self, seat: int) -> bool:
        """Every other live seat's first vote on live ``seat`` at its cursor is absent (first
        votes never change: once true, it stays true while the cursors stay)."""
        ballot = self.ballots.get((seat, self.cursor[seat]))
        return ballot is not None and self.live(seat) and all(
            ballot.get(v) == 1 for v in self.live_seats() if v != seat)

    def _held_up(self, seat: int) -> bool:
        return self.presence(seat) == "pending" and (
            self._next(seat) is not None or self._needed(seat))

    def _silent_candidate(self, seat: int) -> bool:
        """Voted absent by every other live seat, and held up by it — its message needed or in
        hand, or a vote it owes (a seat that owes only a vote is voted absent for it)."""
        return self._all_voted_absent(seat) and (
            self._held_up(seat) or (self.presence(seat) == "pending" and self._owes_vote(seat)))

    def silent_dead_end(self) -> tuple[int, int] | None:
        """The point to settle (protocol.md §7.6 item 8), once this wait has run both timeouts:
        nothing more can be taken, exactly one live seat — ``seat`` at ``count`` — is held up
        and voted absent by every other live seat, every other live seat is held up by the
        votes of all the rest but ``seat`` (or not voted on at all; at least one is held up),
        nobody else owes a message this peer lacks, and no dead end of crossed votes is there
        to break.  A seat that crashed while the links between the others stalled past both
        timeouts leaves this: the others voted each other absent, and the votes the crashed
        seat owes on them never come.  Or: a point another seat already signed, still the
        match's, once this wait has lasted (a peer joins a settlement).  Its local seat signs
        ABSENT ``[seat, count, 2]``; the point is settled once every other live seat signed it
        (:meth:`_silenced`)."""
        if self.signed or not self.ballots or self._votes_void() or not self._wait_key:
            return None
        lasted = self._wait_key in (self._timed_out_reported, self._dead_end_due)
        pending = self._pending_settlement()
        if pending is not None:
            # Another seat signed one: join it once this wait has lasted (both timeouts, or a
            # dead end of crossed votes held a turn timeout — that dead end now waits for the
            # settlement, see _break_crossed_votes).
            return pending if lasted else None
        if self._timed_out_reported != self._wait_key:
            return None
        live = self.live_seats()
        silent = [t for t in live if self._silent_candidate(t)]
        if len(silent) != 1:
            return None
        seat = silent[0]
        # Every other live seat is either held up, voted absent by every live seat but itself
        # and ``seat`` — a dead end of crossed votes but for the votes ``seat`` owes — or not
        # voted on at all (it waits on the held-up ones); at least one is held up.  (Two seats
        # cut off from a third that still reaches them each see the other silent, and sign;
        # neither settlement completes without the third seat, and a pending settlement makes
        # a later dead end of crossed votes wait for it, see _break_crossed_votes.)
        held = 0
        for other in live:
            if other == seat:
                continue
            ballot = self.ballots.get((other, self.cursor[other]), {})
            if not self._held_up(other):
                if any(v != other for v in ballot):
                    return None  # (voted on, yet not held up: it may still move)
                continue
            held += 1
            if any(ballot.get(v) != 1 for v in live if v not in (seat, other)):
                return None
        if not held:
            return None
        if any(s != seat for s in self.owing()) or self._crossed_votes() is not None:
            return None
        return seat, self.cursor[seat]

    def _pending_settlement(self) -> tuple[int, int] | None:
        """The lowest point some live seat signed silent that is still the match's: its seat
        live at that count and voted absent there by every other live seat (first votes)."""
        for (seat, count), signers in sorted(self.settles.items()):
            if (self.live(seat) and self.cursor[seat] == count
                    and any(v != seat and self.live(v) for v in signers)
                    and self._all_voted_absent(seat)):
                return seat, count
        return None

    def _silenced(self, seat: int) -> bool:
        """Live ``seat`` is at a point every other live seat (at least two) signed silent, and
        every one of them voted it absent there: it is replaced once nothing else can be taken
        (:meth:`_break_silence`), and meanwhile its own "present" answers count for nothing —
        the signers settled without them, and a replay that holds them must reach the same
        point."""
        count = self.cursor[seat]
        signers = self.settles.get((seat, count))
        if not signers or not self.live(seat):
            return False
        others = [v for v in self.live_seats() if v != seat]
        return len(others) >= 2 and all(v in signers for v in others) and (
            self._all_voted_absent(seat))

    def _break_silence(self) -> bool:
        """Replace the lowest seat :meth:`_silenced` whose point is held up (looked at only once
        nothing more can be taken, as a dead end of crossed votes is)."""
        for seat in self.live_seats():
            # (Only where nobody else owes a message this core lacks, as where it was signed:
            # a core stuck for want of another seat's message is not at the settled point.)
            # (_silenced asks for three live seats or more: votes are not void.)
            if self._silenced(seat) and self._silent_candidate(seat) and all(
                    s == seat for s in self.owing()):
                count = self.cursor[seat]
                self._replace(seat, f"absent: silent at its message {count}, settled: every "
                              "other seat signed it at a dead end", final=False)
                self._owing = None
                self._unsettled = True
                return True
        return False

    def _vote_pending(self) -> bool:
        """Some seat is being voted absent: a message that does not fit may come from a seat
        that already saw the outcome, so it waits instead of being blamed."""
        return any(self.live(t) and self.cursor[t] == c and self.presence(t) in (
            "pending", "absent") for (t, c) in self.ballots)

    def _votes_complete(self) -> tuple[int, int] | None:
        for target, count in sorted(self.ballots):
            # Only once the match needs its message: the point the honest voters saw (votes
            # can be read ahead of time, from a file, say).
            # (Never with two seats left: presence() is then "none", see _votes_void.)
            if self.live(target) and self.cursor[target] == count and self._needed(target) and (
                    self.presence(target) == "absent"):
                return target, count
        return None

    def _replace(self, seat: int, reason: str, *, final: bool) -> None:
        """``seat`` is replaced by its zombie: votes and reclaims about it end, the chance
        secrets it still owed are recovered from a torch user or drawn again."""
        count = self.cursor[seat]
        self.absent[seat] = Absence(count, reason, final)
        # The votes that replaced it are spent (later ones on those points are stale).
        self.replaced_at[seat] = max(count, self.replaced_at.get(seat, -1))
        for key in [k for k in self.cast if k[0] == seat and k[1] <= count]:
            del self.cast[key]
        self.reclaims.pop(seat, None)
        self.welcomed.pop(seat, None)
        for welcomers in self.welcomed.values():
            welcomers.discard(seat)
        self.events.append(SeatReplaced(seat, count, reason))
        for r in self._live_rounds():
            if r.seat == seat and r.open:
                r.void = True  # its torch round ends unreleased (the verifier notes it)
            elif r.open and seat in r.deliverers and seat in r.deliveries:
                r.publish = True  # the torch user publishes the secrets it holds
            elif r.open and seat in r.deliverers:
                del r.deliverers[seat]
        self._use_published(seat)
        self._redraw_lost()
        if self.ended and not self.signed:
            return
        # Commitments collected without it may now be complete.
        self._close_collections()

    def _use_published(self, seat: int) -> None:
        """A replaced seat's secrets that a torch user published count as revealed."""
        for event, by_seat in self.published.items():
            if seat in by_seat and event not in self.resolved:
                held = self.chance_secrets.setdefault(event, {})
                if seat not in held:
                    held[seat] = by_seat[seat]
                    self.shortfalls.append(f"{event}: seat {seat}'s secret taken from its torch "
                                           "delivery (it left before revealing it)")

    def _recoverable(self, seat: int, event: str) -> bool:
        """Will a torch user publish ``seat``'s secret for ``event`` (it delivered it)?"""
        return any(r.open and seat in r.deliveries and event in r.deliverers.get(seat, ())
                   and r.seat not in self.absent for r in self._live_rounds())

    def _redraw_lost(self) -> None:
        """Draw again every unresolved event a replaced seat contributed to and whose secret
        is neither revealed nor on its way (a torch user's release)."""
        engine_ids = {a: e for e, a in self.alias.items()}
        for event_id, by_seat in list(self.chance_commitments.items()):
            if event_id in self.resolved:
                continue
            lost = [s for s in by_seat if s in self.absent
                    and s not in self.chance_secrets.get(event_id, {})
                    and not self._recoverable(s, event_id)]
            if not lost:
                continue
            engine_id = engine_ids.get(event_id, event_id)
            if self.alias.get(engine_id, engine_id) != event_id:
                continue  # already drawn again
            k = 1
            while f"{engine_id}~{k}" in self.chance_commitments:
                k += 1
            new_id = f"{engine_id}~{k}"
            self.alias[engine_id] = new_id
            self.resolved.add(event_id)
            self.dead.add(event_id)
            self.shortfalls.append(f"{engine_id} drawn again as {new_id} (seat "
                                   + ", ".join(str(s) for s in lost) + " left with its secret)")
            self.events.append(ChanceRedrawn(engine_id, new_id))

    def _close_collections(self) -> None:
        live = set(self.live_seats())
        for event_id, by_seat in self.chance_commitments.items():
            if event_id not in self.closed and live <= set(by_seat):
                self.closed.add(event_id)

    def _welcome(self, seat: int, message: Message, body: WelcomeBody) -> bool:
        absence = self.absent.get(body.seat)
        if body.seat not in self.reclaims and 0 <= body.seat < self.n and (
                (absence is not None and absence.count == body.since and not absence.final)
                or (absence is None and self.cursor[body.seat] <= body.since)):
            # The RECLAIM it answers is not taken here yet — its seat's feed is behind, or
            # the votes that replace the seat at ``since`` are: it waits for them.  Taken now,
            # it would be stale here and count on a peer that took the RECLAIM first (it is
            # taken at all only because another seat reclaims too).  Once the seat is past
            # ``since`` here, or was replaced elsewhere, it is stale.
            return False
        self._take(seat)
        if body.seat in self.reclaims and self.reclaims[body.seat] == body.since:
            self.welcomed[body.seat].add(seat)
        else:
            self.stale.append(message)
        return True

    def _first_of_step(self, seat: int, *, welcoming: bool = True) -> None:
        """Record, at a live seat's first message of a step, whom it had welcomed (nobody,
        without ``welcoming``: a direct reveal)."""
        step = self.step
        if step is not None and seat not in step.first:
            step.first[seat] = frozenset(x for x, w in self.welcomed.items()
                                         if welcoming and seat in w)

    def _settle_rejoins(self, step: _Step) -> None:
        """Once every live decider's first message of the step is in: a reclaiming seat that
        every one of them had welcomed plays again from this step."""
        if step.settled_rejoins:
            return
        deciders = self._deciders(step)
        if not all(s in step.first for s in deciders):
            return
        step.settled_rejoins = True
        for x in sorted(self.reclaims):
            if x in step.seats and deciders and all(x in step.first[s] for s in deciders):
                del self.reclaims[x]
                del self.welcomed[x]
                del self.absent[x]
                self.events.append(SeatReclaimed(x, step.name))

    def _rejoin_at_turn(self, seat: int, step: str) -> None:
        """A turn has one decider: a reclaiming seat it had welcomed before its action plays
        again from this turn on (the feeds fix the point: the welcome precedes the action)."""
        for x in sorted(self.reclaims):
            if seat in self.welcomed.get(x, set()):
                del self.reclaims[x]
                del self.welcomed[x]
                del self.absent[x]
                self.events.append(SeatReclaimed(x, step))

    # ------------------------------------------------------------------ torch rounds

    def _open_rounds(self) -> None:
        """Open a torch round for every seat the engine owes hidden events it has not been
        sent yet (a torch used as a free action or played as a room card)."""
        for request in self.state.knowledge_requests():
            seat = request.seat
            ids = tuple(self.alias.get(e, e) for e in request.events)
            shown = self.shown.setdefault(seat, set())
            new = tuple(a for a in ids if a not in shown and a in self.closed)
            if not new:
                continue
            shown.update(new)
            if seat in self.absent:
                continue  # a zombie never looks
            deliverers = {}
            for d in self.live_seats():
                if d == seat:
                    continue
                mine = tuple(a for a in new if d in self.chance_commitments.get(a, {}))
                if mine:
                    deliverers[d] = mine
            # Named by its seat and first event: the same on every peer whatever order two
            # torches of one step were consumed in.
            round_id = f"torch.{seat}.{new[0]}"
            self.rounds[round_id] = TorchRound(round_id, seat, new, deliverers)
            self._live.append(self.rounds[round_id])

    def _torch(self, seat: int, message: Message, body: TorchBody) -> bool:
        r = self.rounds.get(body.round)
        if r is None or r.seat != seat or r.torch is not None or r.void:
            self._misbehave(seat, f"sent TORCH for round {body.round!r}, not its own open one",
                            message)
            return False
        if body.events != r.events:
            self._misbehave(seat, f"its TORCH names {list(body.events)}, not the round's "
                            f"{list(r.events)}", message)
            return False
        r.torch = message
        r.public_key = body.public_key
        self._take(seat)
        return True

    def _stale(self, seat: int, message: Message) -> bool:
        """A live seat's message that is skipped as harmless where it stands:
        - a chance reveal, or a torch round's message, sent before its sender saw the event
          drawn again (a torch round over an event drawn again never opens: its rounds are
          named by the new ids; a fork can do that after the torch messages were signed — the
          forker is replaced at its fork, which may come before them, and its secrets for the
          row are lost);
        - a DELIVERY signed before its sender saw the torch user replaced (a point settled at a
          dead end falls before messages of the signers that waited): the round is void and
          its events are drawn again."""
        body = message.content
        if self.dead and (
                (isinstance(body, ChanceRevealBody) and body.secrets[0][0] in self.dead)
                or (isinstance(body, TorchBody | DeliveryBody | KeyReleaseBody)
                    and self._dead_round(body))):
            return True
        if isinstance(body, DeliveryBody):
            r = self.rounds.get(body.round)
            return r is not None and r.void and seat not in r.deliveries
        return False

    def _delivery(self, seat: int, message: Message, body: DeliveryBody) -> bool:
        r = self.rounds.get(body.round)
        if r is None or r.torch is None:
            return False  # a round this peer has not got to yet: it waits
        if r.void or seat not in r.deliverers or seat in r.deliveries:
            self._misbehave(seat, f"sent a DELIVERY for round {body.round!r}, not one it owes",
                            message)
            return False
        r.deliveries[seat] = message
        self._take(seat)
        if r.release is not None:  # late: the key is out already, so check it now
            secrets = self.open_round_delivery(r, seat, r.private_key)
            if secrets is None:
                self._misbehave(seat, f"its delivery to seat {r.seat}'s torch ({r.id}) lies: it "
                                "does not hold its committed secrets", message, r.torch,
                                r.release, stop=False)
            for event, secret in secrets or ():
                self.published.setdefault(event, {})[seat] = secret
        return True

    def _key_release(self, seat: int, message: Message, body: KeyReleaseBody) -> bool:
        r = self.rounds.get(body.round)
        if r is None or r.seat != seat or r.torch is None or not r.open:
            self._misbehave(seat, f"released a key for round {body.round!r}, not its own open "
                            "one", message)
            return False
        assert r.torch is not None
        try:
            _private, public = torch_key(body.private_key)
        except LocalProtocolError:
            public = b""
        if public != r.public_key:
            self._misbehave(seat, "its released torch key is not the one its TORCH named",
                            r.torch, message)
            return False
        r.release = message
        r.private_key = body.private_key
        self._take(seat)
        bad = []
        for deliverer, delivery in sorted(r.deliveries.items()):
            secrets = self.open_round_delivery(r, deliverer, body.private_key)
            if secrets is None:
                bad.append(deliverer)
                # Blamed with the proof, but neither stopped nor replaced: the proof sits in
                # another seat's feed, unordered with the liar's own messages, so peers would
                # disagree on which of those count (docs/protocol.md §7.5).  The lie cost the
                # torch user its view; the file names the liar.
                self._misbehave(deliverer, f"its delivery to seat {seat}'s torch "
                                f"({r.id}) lies: it does not hold its committed secrets",
                                delivery, r.torch, message, stop=False)
                continue
            for event, secret in secrets:
                self.published.setdefault(event, {})[deliverer] = secret
            if deliverer in self.absent:  # published on its behalf
                self._use_published(deliverer)
        self.events.append(TorchKeyReleased(r.id, seat, tuple(bad)))
        self._redraw_lost()
        return True

    def open_round_delivery(self, r: TorchRound, deliverer: int,
                            private_key: bytes) -> tuple[tuple[str, bytes], ...] | None:
        """Open and check one delivery of round ``r`` (None: it lies or does not open)."""
        delivery = r.deliveries[deliverer].content
        assert isinstance(delivery, DeliveryBody)
        events = r.deliverers.get(deliverer, ())
        try:
            secrets = open_delivery(private_key, delivery.sealed, match_id=self.match_id,
                                    torch_seat=r.seat, deliverer=deliverer,
                                    deliverer_key=self.keys[deliverer], events=events)
            check_secrets(secrets, match_id=self.match_id, deliverer_key=self.keys[deliverer],
                          commitments={e: self.chance_commitments.get(e, {}).get(deliverer, b"")
                                       for e in events})
        except BadMessage:
            return None
        return secrets

    # ------------------------------------------------------------------ the other messages

    def _chance_commit(self, seat: int, message: Message, body: ChanceCommitBody) -> bool:
        wanted = set(self._wanted_commitments())
        events = [e for e, _ in body.commitments]
        if set(events) != wanted:
            if self._vote_pending():
                return False  # it may have seen an event drawn again that this peer has not
            self._misbehave(seat, f"committed to {sorted(events)}, not {sorted(wanted)}", message)
            return False
        for event, commitment in body.commitments:
            self.chance_commitments.setdefault(event, {})[seat] = commitment
        self.chance_count += len(body.commitments)
        self._take(seat)
        self._close_collections()
        return True

    def _chance_reveal(self, seat: int, message: Message, body: ChanceRevealBody,
                       event: str) -> bool:
        if [e for e, _ in body.secrets] != [event]:
            self._misbehave(seat, f"revealed {[e for e, _ in body.secrets]}, not [{event!r}]",
                            message)
            return False
        if not self._open_secret(seat, message, event, body.secrets[0][1]):
            return False
        self._take(seat)
        return True

    def _open_secret(self, seat: int, message: Message, event: str, secret: bytes) -> bool:
        """Hold ``seat``'s secret for ``event`` if it opens its commitment; else blame it."""
        expected = chance_commitment(self.match_id, event, self.keys[seat], secret)
        if expected != self.chance_commitments[event][seat]:
            self._misbehave(seat, f"its secret for {event} does not open its commitment",
                            message)
            return False
        self.chance_secrets.setdefault(event, {})[seat] = secret
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
        self._open_rounds()
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
        commitment = play_commitment(self.match_id, step, self.keys[seat], body.action,
                                     body.salt)
        # A direct reveal (accepts() checked every other commitment is held) is its own
        # commitment: it opens it by construction.
        direct = seat not in self.step.commitments
        if not self._commit_set_fits(step, body.commit_set,
                                     (seat, commitment) if direct else None):
            # The revealer holds other commitments than we do: someone showed different
            # commitments to different peers.  Who is not known yet — the driver sends what
            # this peer holds to every peer (ForkSuspected), the two signed versions meet in
            # some feed and prove it — so nobody is blamed here; the reveal waits.
            if (step, seat) not in self._suspected:
                self._suspected.add((step, seat))
                self.events.append(ForkSuspected(step, seat, self._step_commits(step)))
            self._unfit_at[seat] = self._unfit_key(seat)
            return False
        if not direct and commitment != self.step.commitments[seat]:
            self._misbehave(seat, "its reveal does not open its commitment", message)
            return False
        try:
            # Legal, and a card of the joint decision: a free action (a torch peek) is taken on
            # its own, so a play that reveals one is as illegal as any other (the joint apply
            # would refuse it, on every peer and in the verifier).
            self.state.check_joint(seat, self.state.parse_action(seat, body.action))
        except EngineError as exc:
            self._misbehave(seat, f"revealed an illegal action {body.action!r}: {exc}",
                            message)
            return False
        if direct:
            fault = self._direct_reveal_fault(seat)
            if fault is not None:
                if not self._vote_pending():
                    self._misbehave(seat, fault, message)
                return False
        if body.chance and not self._early_secret(seat, message, body.chance[0]):
            return False
        if direct:
            # Its first message of the step, unless a free action came first: it welcomed
            # nobody back for this step, so no reclaiming seat can join it after seeing a play.
            self._first_of_step(seat, welcoming=False)
            self.step.commitments[seat] = commitment
            self.events.append(PlayCommitted(step, seat))
        self.step.reveals[seat] = (body.action, message)
        self._take(seat)
        self.events.append(PlayRevealed(step, seat, body.action))
        return True

    def _early_secret(self, seat: int, message: Message, entry: tuple[str, bytes]) -> bool:
        """The secret a REVEAL carries for the step's early turn: it must be for that card, owed
        by the seat, and open its commitment."""
        event, secret = entry
        if event in self.dead:
            # Signed before its sender saw the card drawn again (a contributor was replaced):
            # harmless, like a stale CHANCE_REVEAL; the play still counts.
            return True
        if event != self.early_secret_owed(seat):
            self._misbehave(seat, f"revealed a secret for {event} with its play, where none "
                            "was due", message)
            return False
        return self._open_secret(seat, message, event, secret)

    def _commit_set_fits(self, step: str, commit_set: bytes,
                         direct: tuple[int, bytes] | None = None) -> bool:
        """Does a reveal's commitment set match the commitments held for ``step`` (with
        ``direct``, a direct reveal's seat and commitment, among them)?  A replaced seat's
        entry may be any version (or none): a reveal signed before the replacement reached its
        sender holds what that sender saw, and a replaced seat's play is its zombie's, whatever
        it committed."""
        current = self.step
        assert current is not None
        commitments = current.commitments
        if direct is not None:
            commitments = {**commitments, direct[0]: direct[1]}
        held = tuple(commitments.get(s) for s in range(self.n))
        if current.held is None or current.held[0] != held:
            current.held = (held, commit_set_digest(self.match_id, step, held))
        if current.held[1] == commit_set:
            return True
        options: list[list[bytes | None]] = []
        for s in range(self.n):
            if s not in self.absent:
                options.append([held[s]])
                continue
            versions = {held[s], None}
            for proof in self.feeds[s].equivocations:
                for m in (proof.first, proof.second):
                    version = self._committed_by(m, step)
                    if version is not None:
                        versions.add(version)
            options.append(sorted(versions, key=lambda v: v or b""))
        return any(commit_set_digest(self.match_id, step, list(choice)) == commit_set
                   for choice in itertools.product(*options))

    def _committed_by(self, message: Message, step: str) -> bytes | None:
        """The commitment ``message`` makes for ``step``: a COMMIT's, or a direct reveal's (a
        REVEAL of a seat with no COMMIT for the step before it in its feed); else None."""
        body = message.content
        if isinstance(body, CommitBody) and body.step == step:
            return body.commitment
        if isinstance(body, RevealBody) and body.step == step and not any(
                isinstance(m.content, CommitBody) and m.content.step == step
                for m in self.feeds[message.seat].messages[:message.seq]):
            return play_commitment(self.match_id, step, self.keys[message.seat], body.action,
                                   body.salt)
        return None

    def _step_commits(self, step: str) -> tuple[Message, ...]:
        """The messages that hold the commitments this peer has for ``step`` — COMMITs, or
        direct reveals — one per feed, the newest."""
        out = []
        for feed in self.feeds:
            for m in reversed(feed.messages):
                if self._committed_by(m, step) is not None:
                    out.append(m)
                    break
        return tuple(out)

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

    def _set_state(self, state: GameState[Any]) -> None:
        self.state = state
        self._open_rounds()
        self._mark_due()

    def _mark_due(self) -> None:
        """A round's key is due once none of its events is still hidden (the row is over)."""
        over = None
        for r in self._live_rounds():
            if r.open and not r.due:
                if over is None:
                    over = isinstance(self.state.waiting, Over)
                if over or all(e in self.resolved for e in r.events):
                    r.due = True

    def _settle(self) -> None:
        """Apply whatever is now complete: a fork, a vote, a chance outcome, a digest round, a
        joint reveal, a zombie's decision."""
        self._unsettled = False
        while True:
            if self.signed:
                return
            # A forked seat is replaced where its forked message is due: not merely when its
            # cursor reaches the fork, which depends on the order the other seats' messages
            # were taken in (a play it opened just before would then be its zombie's on one
            # peer and its own on another).
            fork = next((s for s, k in sorted(self.forked.items())
                         if self.live(s) and self.cursor[s] == k
                         and self.expects(s) is not None), None) if self.forked else None
            if fork is not None:
                self._replace(fork, f"equivocation at sequence number {self.forked[fork]}",
                              final=True)
                continue
            complete = self._votes_complete() if self.ballots else None
            if complete is not None:
                seat, count = complete
                self._replace(seat, f"absent: silent at its message {count}", final=False)
                continue
            w = self.state.waiting
            if isinstance(w, Over):
                if not self.ended:
                    self.ended = True
                    self._mark_due()
                    heads = list(self.core_head)
                    self.final = MatchEnded(tuple(sorted(w.outcome.winners)),
                                            self.public_digest(),
                                            transcript_digest(self.match_id, heads))
                    self.events.append(self.final)
                live = self.live_seats()
                if live and all(s in self.end_signatures for s in live) and not any(
                        self._owes_release(s) for s in live):
                    assert self.final is not None
                    self.signed = True
                    self.events.append(ResultSigned(self.final.winners, self.final.digest,
                                                    self.final.transcript))
                return
            if isinstance(w, Chance):
                if not self._settle_chance(w.event):
                    return
                continue
            if self._digest_due():
                live = self.live_seats()
                if not all(s in self.digests for s in live):
                    return
                self.digest_rounds += 1
                self.covered = self.chance_count
                self.digests = {}
                continue
            if isinstance(w, Turn):
                if w.seat not in self.absent:
                    return
                action = zombie_action(self.state, w.seat, self.match_id, w.step)
                text = self.state.format_action(action)
                self._set_state(self.state.apply(w.seat, action))
                self.shortfalls.append(f"{w.step}: seat {w.seat} played by its zombie")
                self.events.append(ActionTaken(w.step, w.seat, text, zombie=True))
                continue
            if isinstance(w, Simultaneous):
                step = self._current_step(w)
                if not step.settled_rejoins:
                    self._settle_rejoins(step)
                    if not step.settled_rejoins:
                        return
                    continue  # who owes what changed (reveals are owed now): look again
                deciders = self._deciders(step)
                if any(s not in step.reveals for s in deciders):
                    return
                actions = {s: self.state.parse_action(s, a) for s, (a, _) in step.reveals.items()
                           if s in deciders}
                for s in sorted(step.seats - deciders):
                    actions[s] = zombie_action(self.state, s, self.match_id, w.step)
                    text = self.state.format_action(actions[s])
                    self.shortfalls.append(f"{w.step}: seat {s} played by its zombie")
                    self.events.append(ActionTaken(w.step, s, text, zombie=True))
                try:
                    new_state = self.state.apply_joint(actions)
                except EngineError as exc:  # legal one by one, illegal together: impossible
                    raise AssertionError(f"joint reveal refused: {exc}") from exc
                early = self.early_turn()
                if early is not None:
                    self.early_state.setdefault(early, set()).add(self.step_state)
                self.step = None
                self._set_state(new_state)
                continue
            return

    def _settle_chance(self, event: ChanceEvent) -> bool:
        """Resolve the pending chance event if every contributor's secret is in."""
        event_id = self.alias.get(event.id, event.id)
        if event_id not in self.closed:
            return False
        secrets = self.chance_secrets.get(event_id, {})
        committed = self.chance_commitments.get(event_id, {})
        if len(secrets) < len(committed):  # (secrets are held only for seats that committed)
            return False
        contributors = sorted(committed)
        if not contributors or any(s not in secrets for s in contributors):
            return False
        posed = event if event_id == event.id else ChanceEvent(event_id, event.outcomes,
                                                                event.visibility)
        outcome = chance_outcome(posed, [secrets[s] for s in contributors])
        self.resolved.add(event_id)
        missing = tuple(s for s in range(self.n) if s not in contributors)
        if missing:
            self.shortfalls.append(f"{event_id} drawn without seat "
                                   + ", ".join(str(s) for s in missing))
        self._set_state(self.state.apply_chance(event.id, outcome))
        self.events.append(ChanceResolved(event.id, outcome, missing))
        return True


# --------------------------------------------------------------------------- the transition table

ANY: Final = "any"
CHANCE: Final = "chance"
DIGEST: Final = "digest round"
SIMULTANEOUS: Final = "simultaneous"
TURN: Final = "turn"
OVER: Final = "over"

CORE_KINDS: Final = frozenset({Kind.COMMIT, Kind.REVEAL, Kind.CHANCE_COMMIT, Kind.CHANCE_REVEAL,
                               Kind.CHANCE_DIGEST, Kind.ACT, Kind.END})
"""The kinds that drive the engine (the others are the torch round and absent-seat overlay)."""


@dataclass(frozen=True)
class Transition:
    """In protocol ``phase`` (``any``: every phase), a live seat for which ``when`` holds owes
    message ``expect``; consuming it leads to ``then`` (in words, for the docs).  A seat that
    owes several sends them in the table's order, but a peer accepts them in any order (the
    seat may have sent one before it could see the other was owed)."""

    phase: str
    condition: str
    when: Callable[[MatchCore, int], bool]
    expect: Kind
    then: str


# The same rules for every seat, local or remote (h11's rule).  MatchCore.expects reads this
# table; docs/protocol.md shows it, generated by describe_transitions() (a test keeps the two in
# step).
TRANSITIONS: Final = (
    Transition(ANY, "a torch round is open for it and it has not named its key",
               MatchCore._owes_torch, Kind.TORCH,
               "its key is held; every other contributor now owes a DELIVERY; its own "
               "decisions wait"),
    Transition(ANY, "every event of its torch round has been turned (the row is over), every "
               "delivery is in, and it has not published the round's key",
               MatchCore._owes_release, Kind.KEY_RELEASE,
               "every delivery is opened and checked, a lying deliverer is blamed; its own "
               "decisions wait until then"),
    Transition(ANY, "a replaced seat reclaimed and it has not welcomed it",
               MatchCore._owes_welcome, Kind.WELCOME,
               "the reclaiming seat plays again at the first step every live decider welcomed "
               "it before its own first message of that step"),
    Transition(ANY, "contributed to a torch round's events and has not delivered its secrets",
               MatchCore._owes_delivery, Kind.DELIVERY,
               "when every delivery is in, the torch user's decisions go on"),
    Transition(CHANCE, "has not committed to the pending event", MatchCore._uncommitted_chance,
               Kind.CHANCE_COMMIT, "its commitments to every upcoming event are held"),
    Transition(CHANCE, "every live seat has committed; it has not revealed",
               MatchCore._unrevealed_chance, Kind.CHANCE_REVEAL,
               "when all contributors' secrets are in: the outcome is computed and the engine "
               "moves on"),
    Transition(DIGEST, "has not signed the digest of the chance commitments",
               MatchCore._undigested, Kind.CHANCE_DIGEST,
               "when all live seats' digests match: the round is closed and decisions begin"),
    Transition(SIMULTANEOUS, "decides in the step and has not committed",
               MatchCore._uncommitted_play, Kind.COMMIT,
               "its commitment is held (a free action, ACT, may come first)"),
    Transition(SIMULTANEOUS, "every live decider has committed; it has not revealed",
               MatchCore._unrevealed_play, Kind.REVEAL,
               "when all reveals open their commitments: the engine applies them together, "
               "with the zombies' decisions"),
    Transition(SIMULTANEOUS, "every live decider has committed; it has revealed its play (or "
               "does not decide); the step is followed at once by turning a face-down card, "
               "with no decision in between (an early turn); it has not revealed that card's "
               "secret", MatchCore._unrevealed_early, Kind.CHANCE_REVEAL,
               "the secret is held; the card is turned as soon as the step resolves, without "
               "a chance phase of its own"),
    Transition(TURN, "it is its turn", MatchCore._turn_of, Kind.ACT,
               "the engine applies the action (a free action keeps the turn)"),
    Transition(OVER, "has not signed the result", MatchCore._unsigned_result, Kind.END,
               "when every live seat has signed the same final state and transcript: the "
               "result is agreed"),
    Transition(ANY, "another seat was voted absent where the match needs its message, and "
               "it has not voted on that point", MatchCore._owes_vote, Kind.ABSENT,
               "when every other live seat voted absent: the seat is replaced; when one holds "
               "the message (present): it is consumed as usual"),
)


# The rows that apply in each phase, in table order; and for each kind, the rows that owe it.
_ROWS_IN: Final[dict[str, tuple[Transition, ...]]] = {
    phase: tuple(t for t in TRANSITIONS if t.phase in (phase, ANY))
    for phase in (CHANCE, DIGEST, SIMULTANEOUS, TURN, OVER)}
_ROWS_OWING_IN: Final[dict[str, dict[Kind, tuple[Transition, ...]]]] = {
    phase: {kind: tuple(t for t in rows if t.expect is kind) for kind in Kind}
    for phase, rows in _ROWS_IN.items()}
_PHASE_ROWS: Final[dict[str, tuple[Transition, ...]]] = {
    phase: tuple(t for t in TRANSITIONS if t.phase == phase) for phase in _ROWS_IN}
_ROWS_OWING: Final[dict[Kind, tuple[Transition, ...]]] = {
    kind: tuple(t for t in TRANSITIONS if t.expect is kind) for kind in Kind}


def describe_transitions() -> str:
    """The transition table as a Markdown table (docs/protocol.md shows exactly this)."""
    lines = ["| phase | a live seat that … | must send | then |", "|---|---|---|---|"]
    for t in TRANSITIONS:
        lines.append(f"| {t.phase} | {t.condition} | {t.expect.name} | {t.then} |")
    return "\n".join(lines)


# --------------------------------------------------------------------------- a local seat


Decide = Callable[[GameState[Any], int], str]  # the local seat's choice, in notation


class _Unknown(Exception):
    pass


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
        self.decide = decide
        self.sent: list[Message] = []
        self.pending_reveal: dict[str, tuple[str, bytes]] = {}
        self._unopened: dict[str, CommitBody] = {}  # restored commitments not reopened yet
        self.knowledge: dict[str, str] = {}  # what its torches showed: engine id -> card
        self.events: list[Event] = []  # PrivateKnowledge, for the driver
        self._opened: set[str] = set()  # its torch rounds whose deliveries it has opened
        self._prove: set[str] = set()  # its rounds with a lying delivery: release at once
        self._voted: set[tuple[int, int]] = set()
        # Replaced for silence, it sends no RECLAIM while this is set: the driver of a person's
        # seat sets it when the person let the timeouts run out, and clears it when they
        # answer again (the bot plays meanwhile, without a timeout in every step).
        self.hold_reclaim = False
        self._delivered: dict[str, dict[int, bytes]] = {}  # secrets its torches were sent
        self._rounds_seen = 0  # the core's torch rounds looked at so far (for _learn)
        self._mine: list[TorchRound] = []  # its own rounds among them, not opened yet

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
        self._unopened = {}
        revealed = {m.content.step for m in persisted if isinstance(m.content, RevealBody)}
        for message in persisted:
            body = message.content
            if isinstance(body, CommitBody) and body.step not in revealed:
                try:
                    self.pending_reveal[body.step] = self._reopen(body)
                except LocalProtocolError:
                    # Not at its step yet (a core rebuilt from the feeds may stop before it,
                    # the seat under a vote): reopened when its reveal is due.  (A commitment
                    # skipped as stale — the seat was replaced meanwhile — never is.)
                    self._unopened[body.step] = body
            if isinstance(body, AbsentBody):
                self._voted.add((body.seat, body.count))
        return list(persisted)

    def behind(self) -> bool:
        """The core took a message the feeds do not let it take where it did: this seat's own,
        before another seat's vote on it came in (:meth:`MatchCore.replaced_behind`), or a
        seat's message past the point its feed was proved forked (:meth:`MatchCore.fork_behind`).
        The driver then rebuilds (:meth:`rebuilt`)."""
        return self.core.replaced_behind(self.seat) or self.core.fork_behind()

    def rebuilt(self) -> LocalSeat:
        """This seat on a core rebuilt from the feeds, as the verifier would build it (a fresh
        core adopts every feed; the seat takes its own feed back), with the same timeouts,
        clock, findings of the clock and ``decide``."""
        old = self.core
        core = MatchCore(old.header, turn_timeout=old.turn_timeout,
                         silence_timeout=old.silence_timeout,
                         wait_at_dead_ends=old.wait_at_dead_ends)
        core.now = old.now
        # What this peer's clock found stays found (a seat it timed out at a message it still
        # lacks is still timed out there): the rebuilt core does not wait both timeouts again.
        core.overdue, core.timed_out = dict(old.overdue), dict(old.timed_out)
        core.behind_top = dict(old.behind_top)
        core.adopt(dict(enumerate(old.feeds)))
        local = LocalSeat(core, self.seat, self.key, self.seed, self.decide)
        local.restore(list(old.feeds[self.seat].messages))
        local.hold_reclaim = self.hold_reclaim
        return local

    def lagging(self) -> LocalSeat | None:
        """After both timeouts of a wait: this seat on a core rebuilt from the feeds, if that
        core is somewhere else than this one; else None.  The order messages came in can
        leave a live core short of what the same feeds give taken whole — a vote decided
        here before an answer that, in the feeds, counts — and then it can wait for good
        while the others finish (a restart, which rebuilds, would end it).  The driver takes
        the rebuilt seat instead, as it does after :meth:`behind`; the rebuilt core is the
        verifier's reading of the very file this peer keeps (a dead end of crossed votes in
        it is held a turn timeout from now, as any live peer holds one)."""
        local = self.rebuilt()
        old, new = self.core, local.core
        if (tuple(old.cursor), sorted(old.absent), old.public_digest(), bool(old.signed)) == (
                tuple(new.cursor), sorted(new.absent), new.public_digest(), bool(new.signed)):
            return None
        return local

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

    def take_events(self) -> list[Event]:
        out, self.events = self.events, []
        return out

    # ------------------------------------------------------------------ private knowledge

    def torch_private(self, round_id: str) -> bytes:
        return torch_key(self.secrets.torch_randomness(round_id))[0]

    def _learn(self) -> None:
        """Open the deliveries of this seat's complete torch rounds: check each against its
        commitments, and compute the face-down rooms it may now see."""
        core = self.core
        rounds = core.rounds
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
            private = self.torch_private(r.id)
            delivered = self._delivered
            for deliverer in r.deliveries:
                secrets = core.open_round_delivery(r, deliverer, private)
                if secrets is None:
                    self._prove.add(r.id)  # publish the key: the lie is then plain to all
                    break
                for event, secret in secrets:
                    delivered.setdefault(event, {})[deliverer] = secret
            if r.id in self._prove:
                continue
            for event in r.events:
                if self.seat in core.chance_commitments.get(event, {}):
                    delivered.setdefault(event, {})[self.seat] = self.secrets.chance_secret(event)

            def choose(event: ChanceEvent) -> str:
                protocol_id = core.alias.get(event.id, event.id)
                contributors = sorted(core.chance_commitments.get(protocol_id, {}))
                secrets = self._delivered.get(protocol_id, {})
                if not contributors or any(s not in secrets for s in contributors):
                    raise _Unknown
                posed = ChanceEvent(protocol_id, event.outcomes, event.visibility)
                return chance_outcome(posed, [secrets[s] for s in contributors])

            try:
                shown = core.state.preview_hidden(choose)
            except _Unknown:
                continue  # a contributor left: its secret is gone, the room will be re-drawn
            mine = {e: card for e, card in shown.items() if core.alias.get(e, e) in r.events}
            self.knowledge.update(mine)
            self.events.append(PrivateKnowledge(self.seat, r.id, tuple(sorted(mine.items()))))

    def _forget(self) -> None:
        """Torch knowledge of events drawn again, or turned, is void."""
        core = self.core
        if not self.knowledge:
            return
        owed: set[str] = set()
        for request in core.state.knowledge_requests():
            if request.seat == self.seat:
                owed.update(request.events)
        mine = {a for r in core.rounds.values() if r.seat == self.seat for a in r.events}
        for event in list(self.knowledge):
            if event not in owed or core.alias.get(event, event) not in mine:
                del self.knowledge[event]

    def decision_state(self) -> GameState[Any]:
        """The state the local seat decides on: the shared one with its torch knowledge."""
        state = self.core.state
        owed = [r for r in state.knowledge_requests() if r.seat == self.seat]
        if owed and owed[0].events and set(owed[0].events) <= set(self.knowledge):
            try:
                return state.learn(self.seat, {e: self.knowledge[e] for e in owed[0].events})
            except EngineError:
                return state
        return state

    # ------------------------------------------------------------------ what to send

    def messages_to_send(self) -> list[Message]:
        """The messages the local seat owes now (each to be persisted, then sent to all and
        fed back to the core like any other)."""
        core = self.core
        seat = self.seat
        held = core.feeds[seat].next_seq
        if held < len(self.sent):
            return []  # our last message has not been fed back yet
        if core.cursor[seat] < held:
            # Our own messages wait to be consumed (under a vote, after a rebuild): nothing
            # else is sent, but votes still are — whether this peer holds another seat's
            # message, or timed it out, does not depend on where its own feed is taken.
            vote = self._vote() if seat not in core.absent else None
            return [] if vote is None else self._cast(vote)
        if seat in core.absent:
            # Replaced here, it still answers "present" for a seat whose message it holds:
            # the others may not have replaced it yet, and then its answer is the vote their
            # match waits for (with three seats, the only one left).
            present = self._present_vote()
            if present is not None:
                return self._cast(present)
            absence = core.absent[seat]
            if absence.final or seat in core.reclaims or self.hold_reclaim:
                return []
            return [self.sign_next(Kind.RECLAIM, ReclaimBody(absence.count))]
        if seat in core.reclaims:
            return []
        self._learn()
        self._forget()
        vote = self._vote()
        if vote is not None:
            return self._cast(vote)
        for r in core._live_rounds():
            if r.seat == seat and r.open and r.torch is not None and (
                    r.id in self._prove or r.publish):
                return [self.sign_next(Kind.KEY_RELEASE,
                                       KeyReleaseBody(r.id, self.torch_private(r.id)))]
        expected = core.expects(seat)
        if expected is None:
            return []
        try:
            body = self._body(expected)
        except DecisionPending:
            return []
        return [] if body is None else [self.sign_next(*body)]

    def _cast(self, vote: AbsentBody) -> list[Message]:
        self._voted.add((vote.seat, vote.count))
        return [self.sign_next(Kind.ABSENT, vote)]

    def _present_vote(self) -> AbsentBody | None:
        """Answer another seat's vote "present" if this peer holds the message it is about."""
        core = self.core
        for (target, count), ballot in sorted(core.ballots.items()):
            if (target == self.seat or (target, count) in self._voted or self.seat in ballot
                    or not core.live(target)):
                continue
            if len(core.feeds[target].messages) > count and not (
                    core.cursor[target] == count and core.stuck(target)):
                # (Not for a message it holds that cannot be taken: stuck, it is voted out.)
                return AbsentBody(target, count, 0)
        return None

    def _vote(self) -> AbsentBody | None:
        """Answer another seat's vote (present if this peer holds the message), or vote a
        seat absent that the local clock timed out."""
        core = self.core
        if not core.ballots and not core.timed_out:
            return None  # (the common case, at once)
        present = self._present_vote()
        if present is not None:
            # (Even with two seats left: a seat cut off from both, since replaced, voted them
            # absent; without these answers a replay of the file, which reads its votes ahead
            # of its replacement, would wait on them for good.)
            return present
        if core._votes_void():
            return None  # no absent vote can pass (two seats left): none is cast
        # Absent: once the local clock timed the seat out — or found it overdue, when another
        # seat's vote already waits for ours (answering fast keeps us from looking silent).
        candidates = dict(core.timed_out)
        for (target, count), ballot in core.ballots.items():
            if 1 in ballot.values() and core.overdue.get(target) == count:
                candidates.setdefault(target, count)
        for target, count in sorted(candidates.items()):
            if (target != self.seat and core.live(target) and core.cursor[target] == count
                    and (target, count) not in self._voted
                    and (len(core.feeds[target].messages) <= count or target in core.blocked
                         or core.stuck(target))):
                return AbsentBody(target, count, 1)
        point = core.silent_dead_end()
        if point is not None and point[0] != self.seat and (
                self.seat not in core.settles.get(point, ())):
            return AbsentBody(*point, 2)
        return None

    def _body(self, expected: Kind) -> tuple[Kind, Any] | None:
        core = self.core
        seat = self.seat
        w = core.state.waiting
        if expected is Kind.ABSENT:
            return None  # answered by _vote as soon as it can (its own timer, or it holds it)
        if expected is Kind.TORCH:
            r = next(r for r in core.rounds.values()
                     if r.seat == seat and r.torch is None and not r.void)
            public = torch_key(self.secrets.torch_randomness(r.id))[1]
            return Kind.TORCH, TorchBody(r.id, r.events, public)
        if expected is Kind.KEY_RELEASE:
            r = next(r for r in core.rounds.values()
                     if r.seat == seat and r.due and r.open and r.complete)
            return Kind.KEY_RELEASE, KeyReleaseBody(r.id, self.torch_private(r.id))
        if expected is Kind.WELCOME:
            x = next(x for x in sorted(core.reclaims) if seat not in core.welcomed[x])
            return Kind.WELCOME, WelcomeBody(x, core.reclaims[x])
        if expected is Kind.DELIVERY:
            owed = core._delivery_round(seat)
            assert owed is not None
            secrets = tuple((e, self.secrets.chance_secret(e)) for e in owed.deliverers[seat])
            sealed = seal_delivery(self.key, owed.public_key, match_id=core.match_id,
                                   torch_seat=owed.seat, deliverer=seat, secrets=secrets)
            return Kind.DELIVERY, DeliveryBody(owed.id, sealed)
        if expected is Kind.CHANCE_COMMIT:
            return Kind.CHANCE_COMMIT, ChanceCommitBody(tuple(
                (e, chance_commitment(core.match_id, e, core.keys[seat],
                                      self.secrets.chance_secret(e)))
                for e in core._wanted_commitments()))
        if expected is Kind.CHANCE_REVEAL:
            early = core.early_turn()
            e = core._chance_id() if early is None else early
            return Kind.CHANCE_REVEAL, ChanceRevealBody(((e, self.secrets.chance_secret(e)),))
        if expected is Kind.CHANCE_DIGEST:
            level = min(core.digest_rounds + 1, 5)
            return Kind.CHANCE_DIGEST, ChanceDigestBody(level, core.chance_digest())
        if expected is Kind.ACT:
            assert isinstance(w, Turn)
            action = self.decide(self.decision_state(), seat)
            return Kind.ACT, ActBody(w.step, action)
        if expected is Kind.COMMIT:
            assert isinstance(w, Simultaneous)
            action = self.decide(self.decision_state(), seat)
            try:
                parsed = core.state.parse_action(seat, action)
            except EngineError as exc:
                raise LocalProtocolError(f"the local seat chose an illegal action: {exc}") from exc
            if get_game(core.state.game).free_action(core.state, seat, parsed):
                return Kind.ACT, ActBody(w.step, action)
            salt = self.secrets.salt_for(w.step)
            commitment = play_commitment(core.match_id, w.step, core.keys[seat], action, salt)
            if not core.reclaims and core.may_reveal_directly(seat):
                # The last to decide: every other play is committed, so it reveals at once
                # (one message instead of two; protocol.md §7.1).  Not while a seat reclaims:
                # it could still join this step after seeing the play.
                return self._reveal_body(w.step, action, salt, commitment)
            self.pending_reveal[w.step] = (action, salt)
            return Kind.COMMIT, CommitBody(w.step, commitment)
        if expected is Kind.END:
            final = core.final
            assert final is not None
            return Kind.END, EndBody(final.digest, final.transcript)
        if expected is Kind.REVEAL:
            assert isinstance(w, Simultaneous)
            opened = self.pending_reveal.pop(w.step, None)
            action, salt = opened or self._reopen(self._unopened.pop(w.step))
            return self._reveal_body(w.step, action, salt, None)
        return None

    def _reveal_body(self, step_name: str, action: str, salt: bytes,
                     direct: bytes | None) -> tuple[Kind, RevealBody]:
        """The REVEAL of ``action``: with the digest of the commitments held (``direct``: the
        seat's own, not sent before) and the secret of the step's early turn, if it owes one."""
        core = self.core
        step = core.step
        assert step is not None
        held = [step.commitments.get(s) for s in range(core.n)]
        if direct is not None:
            held[self.seat] = direct
        early = core.early_secret_owed(self.seat)  # it goes with the play (protocol.md §7.4)
        chance: tuple[tuple[str, bytes], ...] = ()
        if early is not None:
            chance = ((early, self.secrets.chance_secret(early)),)
        return Kind.REVEAL, RevealBody(step_name, action, salt,
                                       commit_set_digest(core.match_id, step_name, held), chance)
