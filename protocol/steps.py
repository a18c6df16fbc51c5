"""Decisions (F1, F2, F7; protocol.md §7.1): commit–reveal of a simultaneous step, and the open
actions of a turn.

In a simultaneous step every live decider commits ``H(domain, match id, step, key, action,
salt)`` (a free action, ACT, may come first); once every commitment is held, each reveals, with
the digest of the commitments it holds (a mismatch is a suspected fork: nobody is blamed until
two signed versions meet); the last decider may reveal at once in place of its COMMIT (a direct
reveal).  When every reveal is in, the engine applies them together, with the zombies' decisions.

:class:`Steps` owns the current step's bookkeeping and the handlers of COMMIT, REVEAL and ACT; the
match core applies what they return to the engine state (it alone changes the state)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from engine.core import EngineError, GameState, Simultaneous, Turn
from protocol.crypto import commit_set_digest, play_commitment
from protocol.errors import Fault, Mismatch
from protocol.match.events import (
    ActionTaken,
    Event,
    ForkSuspected,
    PlayCommitted,
    PlayRevealed,
    SeatForfeited,
)
from protocol.match.game import forfeit_plays_on, forfeits_replaced, zombie_action
from protocol.mechanisms.absence import Seats
from protocol.mechanisms.chance import Chance
from protocol.mechanisms.knowledge import KnowledgeRounds
from protocol.mechanisms.sealed import Sealed
from protocol.wire.feed import Feed
from protocol.wire.messages import ActBody, CommitBody, Message, RevealBody


@dataclass
class Step:
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
    # The hash of each decider's message that committed (a COMMIT, or a direct REVEAL): what
    # a version 2 REVEAL vouches for (protocol.md §7.10).
    commit_messages: dict[int, bytes] = field(default_factory=dict)


class Steps:
    """The current decision step and its handlers."""

    def __init__(self, *, match_id: bytes, keys: tuple[bytes, ...], seats: Seats,
                 chance: Chance, knowledge: KnowledgeRounds,
                 state: Callable[[], GameState[Any]], step_state: Callable[[], bytes],
                 feeds: Sequence[Feed], emit: Callable[[Event], None], shortfalls: list[str],
                 mark_unfit: Callable[[int], None], heads: Callable[[], tuple[bytes, ...]],
                 version: int, sealed: Sealed) -> None:
        self._match_id = match_id
        self._keys = keys
        self._n = len(keys)
        self._seats = seats
        self._chance = chance
        self._knowledge = knowledge
        self._state = state
        self._step_state = step_state
        self._feeds = feeds
        self._emit = emit
        self._shortfalls = shortfalls
        self._heads = heads
        self._version = version
        self._sealed = sealed
        # Every seat's feed head when the current (or last) decision step began: what every
        # message of the step but a REVEAL carries (version 2).
        self.anchor_heads: tuple[bytes, ...] = heads()
        self._mark_unfit = mark_unfit
        self.current: Step | None = None
        # Told of every joint decision applied (the state before it, the actions): the core
        # asks which dealt cards they show (protocol.md §7.13).
        self.on_claims: Callable[[GameState[Any], dict[int, Any]], None] | None = None
        self.start: GameState[Any] | None = None  # the state when the step began
        self.start_digest: bytes | None = None
        self._suspected: set[tuple[str, int]] = set()

    def of(self, w: Simultaneous) -> Step:
        """The bookkeeping of step ``w`` (begun now if it is new)."""
        if self.current is None or self.current.name != w.step:
            self.current = Step(w.step, w.seats)
            self.start = self._state()
            self.start_digest = None
            self.anchor_heads = self._heads()
        return self.current

    def begin_turn(self) -> None:
        """A turn's state began (each open action of a turn begins the next)."""
        self.anchor_heads = self._heads()

    def reveal_heads(self) -> tuple[bytes, ...]:
        """The heads a REVEAL of the current step carries: the step's, with each seat that
        committed named by its committing message."""
        step = self.current
        base = self.anchor_heads
        if step is None:
            return base
        return tuple(step.commit_messages.get(s, base[s]) for s in range(len(base)))

    def simultaneous(self) -> Step:
        w = self._state().waiting
        assert isinstance(w, Simultaneous)
        return self.of(w)

    def deciders(self, step: Step) -> frozenset[int]:
        absent = tuple(self._seats.absent)  # (seats are only added or removed: this names the set)
        if step.deciders is None or step.deciders[0] != absent:
            step.deciders = (absent, frozenset(s for s in step.seats
                                               if s not in self._seats.absent))
        return step.deciders[1]

    # ------------------------------------------------------------------ settling

    def resign(self, state: GameState[Any], seats: Iterable[int]) -> GameState[Any]:
        """Version 2 (protocol.md §7.7): of ``seats`` (replaced seats at a decision), those
        replaced after a RESIGN resign here, at their first decision since — a point every peer
        reaches only with the seat replaced, and where the state changes at once.  A game
        without a resignation rule (or one that refuses it) leaves the seat to its zombie,
        noted.  In a game whose replaced seats forfeit (``GameSpec.replaced``), every other
        replaced seat forfeits here instead, for good.  A seat found withholding (version 2,
        :mod:`protocol.mechanisms.withholding`) forfeits here, replaced or live again — for good unless
        the game keeps a forfeited seat in play (``GameSpec.forfeit_plays_on``)."""
        for seat in seats:
            withheld = self._seats.to_forfeit.pop(seat, None)
            if withheld is not None:
                self._seats.to_resign.discard(seat)
                try:
                    state = state.forfeit(seat)
                except EngineError as exc:
                    self._shortfalls.append(f"seat {seat} did not forfeit ({exc})")
                    continue
                if not forfeit_plays_on(state):
                    self._seats.forfeited(seat)
                self._shortfalls.append(f"seat {seat} forfeited where it was to decide: it "
                                        f"withheld {withheld}")
                self._emit(SeatForfeited(seat, withheld))
            elif seat not in self._seats.absent:
                continue  # (a live seat: only a withholder's forfeit applies to it)
            elif seat in self._seats.to_resign:
                self._seats.to_resign.discard(seat)
                try:
                    state = state.resign(seat)
                except EngineError as exc:
                    self._shortfalls.append(f"seat {seat} was not resigned ({exc}): its zombie "
                                            "plays it")
            elif self._version >= 2 and forfeits_replaced(state, seat):
                why = (f"{state.game} has no zombie" if state.zombie_plays(seat) else
                       "no zombie can make this decision (it needs what only the seat knew)")
                try:
                    state = state.forfeit(seat)
                except EngineError as exc:  # (out already: nothing to forfeit)
                    self._shortfalls.append(f"seat {seat} did not forfeit ({exc})")
                    continue
                self._seats.forfeited(seat)
                self._shortfalls.append(f"seat {seat} forfeited where it was to decide: {why}")
        return state

    def settle_turn(self, w: Turn) -> GameState[Any] | None:
        """A replaced seat's turn: the state after its zombie's action (None: a live seat's,
        unless it owes a withholder's forfeit: the state after it)."""
        if w.seat not in self._seats.absent:
            if w.seat in self._seats.to_forfeit:
                state = self._state()
                forfeited = self.resign(state, (w.seat,))
                return forfeited if forfeited is not state else None
            return None
        state = self._state()
        resigned = self.resign(state, (w.seat,))
        if resigned is not state:
            return resigned
        action = zombie_action(state, w.seat, self._match_id, w.step)
        new_state = state.apply(w.seat, action)
        self._shortfalls.append(f"{w.step}: seat {w.seat} played by its zombie")
        self._emit(ActionTaken(w.step, w.seat, state.format_action(action), zombie=True))
        return new_state

    def settle_step(self, w: Simultaneous) -> GameState[Any] | Literal[True] | None:
        """Settle the rejoins of step ``w`` (True once done: who owes what changed), then, once
        every live decider revealed, the state after the joint decision with the zombies';
        None while it waits."""
        step = self.of(w)
        if not step.settled_rejoins:
            self._seats.settle_rejoins(step, step.name, step.seats, self.deciders(step))
            return True if step.settled_rejoins else None
        deciders = self.deciders(step)
        if any(s not in step.reveals for s in deciders):
            return None
        for s in sorted(step.seats - set(step.reveals)):
            if s in step.commitments:  # committed, replaced before its reveal was taken
                self._seats.withheld(s, f"its REVEAL of {step.name}")
        state = self.resign(self._state(), sorted(
            (step.seats - set(step.reveals)) | (step.seats & set(self._seats.to_forfeit))))
        w2 = state.waiting
        if not (isinstance(w2, Simultaneous) and w2.step == w.step):
            self.current = None  # (the resignations ended the step, or the game)
            return state
        # (Version 2: a seat replaced after its reveal was taken plays what it revealed — its
        # play is public and binding, and whether the replacement came before or after the
        # step applied must not change the step.)
        step.seats = w2.seats
        actions = {s: state.parse_action(s, a) for s, (a, _) in step.reveals.items()
                   if s in deciders or (self._version >= 2 and s in step.seats)}
        for s in sorted(step.seats - set(actions)):
            actions[s] = zombie_action(state, s, self._match_id, w.step)
            self._shortfalls.append(f"{w.step}: seat {s} played by its zombie")
            self._emit(ActionTaken(w.step, s, state.format_action(actions[s]), zombie=True))
        try:
            new_state = state.apply_joint(actions)
        except EngineError as exc:  # legal one by one, illegal together: impossible
            raise AssertionError(f"joint reveal refused: {exc}") from exc
        self._chance.note_early_turn(self._step_state)
        self.current = None
        if self.on_claims is not None:
            self.on_claims(state, actions)
        return new_state

    # ------------------------------------------------------------------ what a seat owes

    def owes_act(self, seat: int) -> bool:
        """It is its turn."""
        w = self._state().waiting
        return isinstance(w, Turn) and w.seat == seat

    def owes_commit(self, seat: int) -> bool:
        """It decides in the step and has not committed."""
        step = self.simultaneous()
        return seat in self.deciders(step) and seat not in step.commitments

    def owes_reveal(self, seat: int) -> bool:
        """Every live decider has committed; it has not revealed."""
        step = self.simultaneous()
        deciders = self.deciders(step)
        return (seat in deciders and step.settled_rejoins
                and all(s in step.commitments for s in deciders)
                and seat not in step.reveals)

    def owes_early_secret(self, seat: int) -> bool:
        """Every live decider has committed and it revealed (or does not decide): the secret
        of the step's early turn is due from it."""
        if self._chance.early_secret_owed(seat) is None:
            return False
        step = self.simultaneous()
        deciders = self.deciders(step)
        return (step.settled_rejoins and all(s in step.commitments for s in deciders)
                and (seat not in deciders or seat in step.reveals))

    def others_committed(self, seat: int) -> bool:
        """Every live decider but ``seat`` has committed."""
        step = self.simultaneous()
        return all(s in step.commitments for s in self.deciders(step) if s != seat)

    def direct_reveal_fault(self, seat: int) -> str | None:
        """Why ``seat``'s REVEAL in place of its COMMIT cannot be an honest seat's, whatever
        arrives later; None if it may be (protocol.md §7.1: it is then taken once every other
        live decider's commitment is in, and waits until then)."""
        found = self.direct_reveal_proof(seat)
        return None if found is None else found[0]

    def direct_reveal_proof(self, seat: int) -> tuple[str, int] | None:
        """:meth:`direct_reveal_fault`, with the other seat it rests on: the one reclaiming, or
        the one whose private-knowledge round ``seat`` has not delivered to (only a vote on
        that seat, or on ``seat``, could still change it)."""
        step = self.simultaneous()
        if seat not in step.first:
            for x, welcomers in self._seats.welcomed.items():  # (the seats reclaiming now)
                if seat in welcomers:
                    return (f"revealed at once while seat {x}, which it welcomed back, reclaims "
                            "(it could rejoin the step after seeing the play)"), x
        missing = {s for s in self.deciders(step) if s != seat and s not in step.commitments}
        owner = self._knowledge.undelivered(seat, missing)
        if owner is not None:
            return self._knowledge.naming.revealed_before_delivering(owner), owner
        return None

    # ------------------------------------------------------------------ handlers

    def on_act(self, seat: int, message: Message, body: ActBody,
               step: str) -> GameState[Any]:
        """The state after ``seat``'s open action (or a fault)."""
        state = self._state()
        if body.step != step:
            raise Fault(f"acted in step {body.step!r} during {step!r}", message)
        try:
            action = state.parse_action(seat, body.action)
            new_state = state.apply(seat, action)
        except EngineError as exc:
            raise Fault(f"illegal action {body.action!r}: {exc}", message) from None
        self._check_notation(state, action, body.action, message)
        self._sealed.check(state, seat, action, body.sealed, message)
        w = state.waiting
        if isinstance(w, Simultaneous) and not isinstance(new_state.waiting, Simultaneous):
            raise Fault("played a card in the open in a simultaneous step", message)
        if isinstance(w, Simultaneous) and new_state.waiting != w and seat not in getattr(
                new_state.waiting, "pending", ()):
            raise Fault("an open action in a simultaneous step must be a free action (it "
                        "committed a card without a commitment)", message)
        if body.pool is not None:
            self._chance.act_secret(seat, message, body.pool[0], body.pool[1], new_state)
        self._sealed.record(seat, body.sealed, message)
        self._emit(ActionTaken(step, seat, body.action))
        return new_state

    def on_commit(self, seat: int, message: Message, body: CommitBody, step: str) -> bool:
        if body.step != step:
            raise Fault(f"committed for step {body.step!r} during {step!r}", message)
        assert self.current is not None
        self.current.commitments[seat] = body.commitment
        self.current.commit_messages[seat] = message.hash
        self._emit(PlayCommitted(step, seat))
        return True

    def on_reveal(self, seat: int, message: Message, body: RevealBody, step: str) -> bool:
        current = self.current
        assert current is not None
        if body.step != step:
            raise Fault(f"revealed for step {body.step!r} during {step!r}", message)
        commitment = play_commitment(self._match_id, step, self._keys[seat], body.action,
                                     body.salt, body.sealed)
        # A direct reveal (the core checked every other commitment is held) is its own
        # commitment: it opens it by construction.
        direct = seat not in current.commitments
        if not self._commit_set_fits(step, body.commit_set,
                                     (seat, commitment) if direct else None):
            if message.version >= 2 and not any(
                    s in self._seats.absent and s in current.commitments
                    for s in current.seats if s != seat):
                # Its heads matched: it vouched for the very COMMIT messages held here.  (A
                # replaced seat's entry in the heads may name any version of its message:
                # when a replaced seat committed here, the revealer may hold another version
                # of that forker's COMMIT, whose proof is on its way — then it waits, below.)
                if direct:
                    raise Fault("its reveal does not open its commitment (the commitment set "
                                "it signed names another)", message)
                raise Fault("its reveal names other commitments than the feeds it vouched for "
                            "hold", message)
            # The revealer holds other commitments than we do: someone showed different
            # commitments to different peers.  Who is not known yet — the driver sends what
            # this peer holds to every peer (ForkSuspected), the two signed versions meet in
            # some feed and prove it — so nobody is blamed here; the reveal waits.
            if (step, seat) not in self._suspected:
                self._suspected.add((step, seat))
                self._emit(ForkSuspected(step, seat, self.step_commits(step)))
            self._mark_unfit(seat)
            return False
        if not direct and commitment != current.commitments[seat]:
            raise Fault("its reveal does not open its commitment", message)
        state = self._state()
        try:
            # Legal, and a part of the joint decision: a free action is taken on its own, so a
            # play that reveals one is as illegal as any other (the joint apply would refuse
            # it, on every peer and in the verifier).
            parsed = state.parse_action(seat, body.action)
            state.check_joint(seat, parsed)
        except EngineError as exc:
            raise Fault(f"revealed an illegal action {body.action!r}: {exc}", message) from None
        self._check_notation(state, parsed, body.action, message)
        self._sealed.check(state, seat, parsed, body.sealed, message)
        if direct:
            fault = self.direct_reveal_fault(seat)
            if fault is not None:
                raise Mismatch(fault, message)
        if body.chance:
            self._early_secret(seat, message, body)
        if direct:
            # Its first message of the step, unless a free action came first: it welcomed
            # nobody back for this step, so no reclaiming seat can join it after seeing a play.
            self._seats.first_of_step(current, seat, welcoming=False)
            current.commitments[seat] = commitment
            current.commit_messages[seat] = message.hash
            self._emit(PlayCommitted(step, seat))
        current.reveals[seat] = (body.action, message)
        self._sealed.record(seat, body.sealed, message)
        self._emit(PlayRevealed(step, seat, body.action))
        return True

    @staticmethod
    def _check_notation(state: GameState[Any], action: Any, text: str, message: Message) -> None:
        """Version 2: one action, one string — the text signed (and committed to) must be the
        engine's canonical notation of the action it names (protocol.md §7.1)."""
        if message.version < 2:
            return
        canonical = state.format_action(action)
        if canonical != text:
            raise Fault(f"illegal action {text[:40]!r}: not the engine's notation of it "
                        f"({canonical[:40]!r})", message)

    def _early_secret(self, seat: int, message: Message, body: RevealBody) -> None:
        """The secret a REVEAL carries for the step's early turn: it must be for that event,
        owed by the seat, and open its commitment."""
        event, secret = body.chance[0]
        if event in self._chance.dead:
            # Signed before its sender saw the event drawn again (a contributor was replaced):
            # harmless, like a stale CHANCE_REVEAL; the play still counts.
            return
        if event != self._chance.early_secret_owed(seat):
            raise Fault(f"revealed a secret for {event} with its play, where none was due",
                        message)
        if message.version >= 2 and body.chance_set != self._chance.open_digest((event,)):
            raise Fault(f"its reveal of {event} names other commitments than the feeds it "
                        "vouched for hold", message)
        self._chance.open_secret(seat, message, event, secret)

    def _commit_set_fits(self, step: str, commit_set: bytes,
                         direct: tuple[int, bytes] | None = None) -> bool:
        """Does a reveal's commitment set match the commitments held for ``step`` (with
        ``direct``, a direct reveal's seat and commitment, among them)?  A replaced seat's
        entry may be any version (or none): a reveal signed before the replacement reached its
        sender holds what that sender saw, and a replaced seat's play is its zombie's, whatever
        it committed."""
        current = self.current
        assert current is not None
        commitments = current.commitments
        if direct is not None:
            commitments = {**commitments, direct[0]: direct[1]}
        held = tuple(commitments.get(s) for s in range(self._n))
        if current.held is None or current.held[0] != held:
            current.held = (held, commit_set_digest(self._match_id, step, held))
        if current.held[1] == commit_set:
            return True
        options: list[list[bytes | None]] = []
        for s in range(self._n):
            if s not in self._seats.absent:
                options.append([held[s]])
                continue
            versions = {held[s], None}
            for proof in self._feeds[s].equivocations:
                for m in (proof.first, proof.second):
                    version = self.committed_by(m, step)
                    if version is not None:
                        versions.add(version)
            options.append(sorted(versions, key=lambda v: v or b""))
        return any(commit_set_digest(self._match_id, step, list(choice)) == commit_set
                   for choice in itertools.product(*options))

    def committed_by(self, message: Message, step: str) -> bytes | None:
        """The commitment ``message`` makes for ``step``: a COMMIT's, or a direct reveal's (a
        REVEAL of a seat with no COMMIT for the step before it in its feed); else None."""
        body = message.content
        if isinstance(body, CommitBody) and body.step == step:
            return body.commitment
        if isinstance(body, RevealBody) and body.step == step and not any(
                isinstance(m.content, CommitBody) and m.content.step == step
                for m in self._feeds[message.seat].messages[:message.seq]):
            return play_commitment(self._match_id, step, self._keys[message.seat], body.action,
                                   body.salt, body.sealed)
        return None

    def step_commits(self, step: str) -> tuple[Message, ...]:
        """The messages that hold the commitments this peer has for ``step`` — COMMITs, or
        direct reveals — one per feed, the newest."""
        out = []
        for feed in self._feeds:
            for m in reversed(feed.messages):
                if self.committed_by(m, step) is not None:
                    out.append(m)
                    break
        return tuple(out)
