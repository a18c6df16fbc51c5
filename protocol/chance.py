"""Chance (F3, protocol.md §7.2–7.4): every live seat commits a fresh secret to each chance event
before any secret is revealed; the outcome is computed from every contributor's secret; a digest
round over the commitments held comes before the decisions that may reveal hidden events, so a
forked commitment shows before anything hidden is seen; a seat replaced while holding a secret
nobody else can publish makes its event drawn again under a new id.  In a game with dice pools
(§7.12) the public dice are drawn from slots ``pool.<k>`` committed ahead in batches: every die
a decision poses takes that decision's slot (the decider's secret rides in its ACT), so a die
costs one reveal per seat, one round after the decision.

:class:`Chance` owes its state and its handlers; the match core routes messages to it and asks it
what each seat owes (its predicates name no gate: the transition table's columns add them)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core import Chance as Pending
from engine.core import ChanceEvent, GameState, Simultaneous, Visibility
from protocol.crypto import (
    SeatSecrets,
    chance_commitment,
    chance_open_digest,
    chance_outcome,
    chance_set_digest,
)
from protocol.errors import Fault, Mismatch
from protocol.match.events import ChanceRedrawn, ChanceResolved, Event
from protocol.mechanisms.absence import Seats
from protocol.wire.messages import (
    MAX_STAGE,
    ChanceCommitBody,
    ChanceDigestBody,
    ChanceRevealBody,
    Message,
)
from protocol.wire.naming import Naming

POOL_BATCH = 16
"""Dice-pool slots a seat commits to in one CHANCE_COMMIT (protocol.md §7.12)."""
POOL_LOW = 8
"""A new batch is owed once fewer closed slots than this are left unused."""


def is_pool_slot(event_id: str) -> bool:
    """Is ``event_id`` a dice-pool slot (``pool.<k>``)?"""
    return event_id.startswith("pool.") and event_id[5:].isdigit()


class Chance:
    """Commitments, secrets and outcomes of chance events, by protocol event id (an engine id, or
    a re-draw's ``<id>~<k>``)."""

    def __init__(self, *, match_id: bytes, keys: tuple[bytes, ...], seats: Seats,
                 state: Callable[[], GameState[Any]], emit: Callable[[Event], None],
                 shortfalls: list[str], naming: Naming, pooled: bool = False) -> None:
        self._naming = naming
        self._match_id = match_id
        self._keys = keys
        self._n = len(keys)
        self._seats = seats
        self._state = state
        self._emit = emit
        self._shortfalls = shortfalls
        self.commitments: dict[str, dict[int, bytes]] = {}
        # events -> (count, digest): open_digest as of ``count`` commitments held
        self._opened: dict[tuple[str, ...], tuple[int, bytes]] = {}
        self.count = 0  # chance commitments held, in all
        self.secrets: dict[str, dict[int, bytes]] = {}
        self.closed: set[str] = set()  # ids whose commitments are all in (contributors fixed)
        self.resolved: set[str] = set()  # ids whose outcome is known
        self.alias: dict[str, str] = {}  # engine event id -> its current protocol id
        self.dead: set[str] = set()  # protocol ids drawn again (their secrets are void)
        self.published: dict[str, dict[int, bytes]] = {}  # secrets opened by released keys
        self.digest_rounds = 0  # CHANCE_DIGEST rounds completed
        self.covered = 0  # chance commitments covered by the last digest round
        self.digests: dict[int, bytes] = {}  # this round's digests, per seat
        self._digest_cache: tuple[tuple[int, int], bytes] | None = None
        # Early turns: a face-down event turned as soon as the step before it resolves, its
        # secrets revealed with the step's plays (no decision can come in between).  Per engine
        # state, the event (engine id) the current step turns early, or None; and per event,
        # the digests its early reveals carry (the step's, which they were signed in).
        self._early: tuple[GameState[Any], tuple[str, frozenset[int]] | None] | None = None
        self.early_state: dict[str, set[bytes]] = {}
        # For each event, the hash of each contributor's message that committed to it (what a
        # version 2 reveal of it vouches for, protocol.md §7.10).
        self.commit_messages: dict[str, dict[int, bytes]] = {}
        # Outcomes resolved while some commitment was not covered by a digest round: (event,
        # contributors), since the last digest round (a version 1 verdict disputes with them).
        self.uncovered: list[tuple[str, tuple[int, ...]]] = []
        # Re-draws whose commitments are not closed yet: new id -> (the dead id, the seats
        # whose lost secrets made it, the engine id); once closed, ``judge`` (version 2) says
        # which of those seats withheld (protocol.md §7.7, "Withholding forfeits").
        self.redrawn_for: dict[str, tuple[str, tuple[int, ...], str]] = {}
        self.judge: Callable[[str, str, tuple[int, ...], str], None] | None = None
        # Dice pools (protocol.md §7.12): the game draws its public events from slots
        # ``pool.<k>`` committed ahead in batches; ``pool_used`` slots are taken (or burned);
        # ``pool_round`` is the slot of the dice posed since the last decision.
        self.pooled = pooled
        self.pool_used = 0
        self.pool_round: str | None = None
        self.pool_count = 0  # pool commitments held (outside every digest round)
        self._pool_top = 0  # (below it every slot is closed)

    # ------------------------------------------------------------------ where chance stands

    def pending_id(self) -> str:
        """The protocol id of the event the engine waits for."""
        w = self._state().waiting
        assert isinstance(w, Pending)
        return self.alias.get(w.event.id, w.event.id)

    def wanted(self) -> tuple[str, ...]:
        """The protocol ids every live seat must commit to now (one batch): the engine's, and
        in a game with dice pools the next pool batch if the die posed now has no closed slot
        (the pool ran dry: its refill is owed before each decision, :meth:`owes_pool_commit`)."""
        state = self._state()
        events = tuple(a for a in (self.alias.get(e, e) for e in state.upcoming_events())
                       if a not in self.closed and not is_pool_slot(a))
        w = state.waiting
        if not self.pooled or not isinstance(w, Pending):
            return events
        # (A refill waits for the next decision, unless the die posed now needs it: its
        # reveals go first, so a die takes one round after the decision that poses it.)
        slot = self.alias.get(w.event.id)
        if slot is None or not is_pool_slot(slot) or slot in self.closed:
            return events
        return events + self.pool_wanted()

    def pool_wanted(self) -> tuple[str, ...]:
        """The next batch of pool slots, when fewer than :data:`POOL_LOW` closed slots are
        left unused (none otherwise, and in a game without pools)."""
        if not self.pooled:
            return ()
        while f"pool.{self._pool_top}" in self.closed:
            self._pool_top += 1
        top = self._pool_top
        if top - self.pool_used >= POOL_LOW:
            return ()
        return tuple(f"pool.{k}" for k in range(top, top + POOL_BATCH))

    def pooled_event(self, event: ChanceEvent) -> bool:
        """Is ``event`` drawn from the pool: a public event of a game with pools, with no
        commitments of its own (one committed as an upcoming event keeps them)?"""
        return (self.pooled and event.visibility is Visibility.PUBLIC
                and event.id not in self.commitments)

    def pose(self, event: ChanceEvent) -> None:
        """The engine poses ``event``: a pooled event takes the slot of the dice posed since
        the last decision, else the next unused slot (slots a replaced seat committed to and
        cannot open are burned first)."""
        if event.id in self.alias or not self.pooled_event(event):
            return
        slot = self.pool_round
        if slot is None or slot in self.dead:
            while True:
                slot = f"pool.{self.pool_used}"
                self.pool_used += 1
                committed = self.commitments.get(slot, {})
                held = self.secrets.get(slot, {})
                if not (slot in self.closed and any(
                        s in self._seats.absent and s not in held for s in committed)):
                    break
                self.dead.add(slot)  # (burned: a contributor is gone with its secret)
                self._shortfalls.append(f"{slot} burned (seat " + ", ".join(
                    str(s) for s in sorted(committed) if s in self._seats.absent
                    and s not in held) + " committed to it and left with its secret)")
            self.pool_round = slot
        self.alias[event.id] = slot

    def end_round(self) -> None:
        """A decision is pending: the next die posed takes a new slot."""
        self.pool_round = None

    def owes_pool_commit(self, seat: int) -> bool:
        """The pool runs low and it has not committed to the next batch."""
        wanted = self.pool_wanted()
        return bool(wanted) and seat not in self.commitments.get(wanted[0], {})

    def act_secret(self, seat: int, message: Message, slot: str, secret: bytes,
                   after: GameState[Any]) -> None:
        """An ACT's pool secret (§7.12): the action must pose a die drawn from the pool, the
        slot must be the one it takes, and the secret must open the seat's commitment to it."""
        w = after.waiting
        if not (isinstance(w, Pending) and self.pooled_event(w.event)):
            raise Fault(f"revealed a pool secret for {slot} with its action, where none was due "
                        "(the action poses no die from the pool)", message)
        if slot != f"pool.{self.pool_used}":
            raise Fault(f"revealed its secret for {slot} where its action takes "
                        f"pool.{self.pool_used}", message)
        if seat not in self.commitments.get(slot, {}):
            raise Fault(f"revealed a secret for {slot} where it holds no commitment of its "
                        "own", message)
        self.open_secret(seat, message, slot, secret)

    def digest_due(self) -> bool:
        return self.count > self.covered

    def digest(self) -> bytes:
        """The digest of every chance commitment held (commitments only ever grow, so the
        count and the round name the set)."""
        key = (self.digest_rounds, self.count)
        if self._digest_cache is None or self._digest_cache[0] != key:
            entries = [(event, seat, c) for event, by_seat in self.commitments.items()
                       if not is_pool_slot(event) for seat, c in by_seat.items()]
            digest = chance_set_digest(self._match_id, min(self.digest_rounds + 1, MAX_STAGE),
                                       entries)
            self._digest_cache = (key, digest)
        return self._digest_cache[1]

    def early_turn(self) -> str | None:
        """The hidden event (its protocol id) the current simultaneous step turns next once it
        resolves (``GameState.turned_next``), when its commitments are closed; None otherwise,
        and when a seat may still decide something before the event is turned (a follow-up).
        Its secrets are revealed as soon as every live decider of the step has committed:
        nobody can act on them any more.  (Letting some contributors keep their secrets while
        the others reveal would let a follow-up decider and one keeper together see the event
        early: a coalition short of all.)"""
        state = self._state()
        if self._early is None or self._early[0] is not state:  # per state: the engine's part
            turned = (state.turned_next() if isinstance(state.waiting, Simultaneous)
                      else None)
            self._early = (state, turned)
        turned = self._early[1]
        if turned is None or turned[1] or self.digest_due():
            return None  # (nobody may decide between: else a follow-up could see the event)
        event = self.alias.get(turned[0], turned[0])
        return event if event in self.closed and event not in self.resolved else None

    def early_secret_owed(self, seat: int) -> str | None:
        """The early turn (protocol id) whose secret ``seat`` contributes and has not revealed
        yet; None if there is none."""
        event = self.early_turn()
        if event is None or seat not in self.commitments.get(event, {}) or (
                seat in self.secrets.get(event, {})):
            return None
        return event

    def early_reveal_state(self, body: ChanceRevealBody, message: Message) -> bool:
        """A chance reveal of an early turn, consumed after the step it was sent in (in a
        later step, or once the event is posed), carries the digest of that step."""
        return message.state in self.early_state.get(body.secrets[0][0], ())

    def note_early_turn(self, step_state: Callable[[], bytes]) -> None:
        """The step resolves now: its early turn's reveals carry ``step_state()``."""
        early = self.early_turn()
        if early is not None:
            self.early_state.setdefault(early, set()).add(step_state())

    # ------------------------------------------------------------------ what a seat owes

    def batch_of(self, seat: int) -> tuple[str, ...]:
        """The ids ``seat``'s CHANCE_COMMIT must name now: those of the batch it has not
        committed to (in a decision phase, the pool's next batch)."""
        batch = self.wanted() if isinstance(self._state().waiting, Pending) else (
            self.pool_wanted())
        return tuple(e for e in batch if seat not in self.commitments.get(e, {}))

    def owes_commit(self, seat: int) -> bool:
        """It has not committed to the pending batch."""
        return any(seat not in self.commitments.get(e, {}) for e in self.wanted())

    def owes_reveal(self, seat: int) -> bool:
        """Every live seat has committed to the pending event; it has not revealed.  (A die
        from the pool waits for the events committed with it — what a private-knowledge round
        may target — to close: they are committed before the roll that may show them, §7.12.)"""
        event = self.pending_id()
        if is_pool_slot(event) and any(not is_pool_slot(e) for e in self.wanted()):
            return False
        return (event in self.closed and seat in self.commitments.get(event, {})
                and seat not in self.secrets.get(event, {}))

    def owes_digest(self, seat: int) -> bool:
        return seat not in self.digests

    def revealed(self, seat: int, event: str) -> bool:
        return seat in self.secrets.get(event, {})

    def open_digest(self, events: tuple[str, ...]) -> bytes:
        """The digest of every commitment held to ``events`` (what a reveal of them opens
        against, version 2).  Kept until the next commitment arrives (each reveal, the local
        seat's included, asks for it)."""
        known = self._opened.get(events)
        held = self.count + self.pool_count
        if known is not None and known[0] == held:
            return known[1]
        digest = chance_open_digest(self._match_id, [
            (event, seat, commitment) for event in events
            for seat, commitment in self.commitments.get(event, {}).items()])
        self._opened[events] = (held, digest)
        return digest

    # ------------------------------------------------------------------ handlers

    def on_commit(self, seat: int, message: Message, body: ChanceCommitBody) -> bool:
        wanted = set(self.batch_of(seat))
        events = [e for e, _ in body.commitments]
        if set(events) != wanted:
            # (It may have seen an event drawn again that this peer has not.)
            raise Mismatch(f"committed to {sorted(events)}, not {sorted(wanted)}", message)
        for event, commitment in body.commitments:
            self.commitments.setdefault(event, {})[seat] = commitment
            self.commit_messages.setdefault(event, {})[seat] = message.hash
            if is_pool_slot(event):
                self.pool_count += 1
            else:
                self.count += 1
        self.close_collections()
        return True

    def on_reveal(self, seat: int, message: Message, body: ChanceRevealBody,
                  event: str) -> bool:
        if [e for e, _ in body.secrets] != [event]:
            raise Fault(f"revealed {[e for e, _ in body.secrets]}, not [{event!r}]", message)
        if message.version >= 2 and body.commit_set != self.open_digest((event,)):
            # (Its heads matched: it vouched for the very commitment messages held here.)
            raise Fault(f"its reveal of {event} names other commitments than the feeds it "
                        "vouched for hold", message)
        self.open_secret(seat, message, event, body.secrets[0][1])
        return True

    def open_secret(self, seat: int, message: Message, event: str, secret: bytes) -> None:
        """Hold ``seat``'s secret for ``event`` if it opens its commitment; else a fault."""
        expected = chance_commitment(self._match_id, event, self._keys[seat], secret)
        if expected != self.commitments[event][seat]:
            raise Fault(f"its secret for {event} does not open its commitment", message)
        self.secrets.setdefault(event, {})[seat] = secret

    def on_digest(self, seat: int, message: Message, body: ChanceDigestBody) -> bool:
        if body.digest != self.digest():
            # The seat holds other chance commitments than we do: someone forked a commitment.
            # As with a reveal's commitment set, nobody is blamed yet: the two signed versions
            # meet in some feed (relays forward every verified message) and prove who forked.
            # Until then the round waits — and no hidden event can be shown or turned.
            return False
        self.digests[seat] = body.digest
        return True

    # ------------------------------------------------------------------ settling

    def close_digest_round(self) -> bool | None:
        """None: no digest round is due.  Else whether every live seat's digest is in, in which
        case the round is closed."""
        if not self.digest_due():
            return None
        if not all(s in self.digests for s in self._seats.live_seats()):
            return False
        self.digest_rounds += 1
        self.covered = self.count
        self.digests = {}
        self.uncovered = []
        return True

    def resolve(self, event: ChanceEvent) -> tuple[str, ChanceResolved] | None:
        """The outcome of the pending event once every contributor's secret is in (with the
        event to report once the engine took it), else None."""
        event_id = self.alias.get(event.id, event.id)
        if event_id not in self.closed:
            return None
        secrets = self.secrets.get(event_id, {})
        committed = self.commitments.get(event_id, {})
        if len(secrets) < len(committed):  # (secrets are held only for seats that committed)
            return None
        contributors = sorted(committed)
        if not contributors or any(s not in secrets for s in contributors):
            return None
        # (The dice a decision poses share its pool slot: each is drawn under its own id.)
        drawn = f"{event_id}/{event.id}" if is_pool_slot(event_id) else event_id
        posed = event if drawn == event.id else ChanceEvent(drawn, event.outcomes,
                                                            event.visibility)
        outcome = chance_outcome(posed, [secrets[s] for s in contributors])
        first = event_id not in self.resolved  # (a pool slot serves several dice)
        self.resolved.add(event_id)
        if self.digest_due():
            self.uncovered.append((event_id, tuple(contributors)))
        missing = tuple(s for s in range(self._n) if s not in contributors)
        if missing and first:
            self._shortfalls.append(f"{event_id} drawn without seat "
                                    + ", ".join(str(s) for s in missing))
        return outcome, ChanceResolved(event.id, outcome, missing)

    def close_collections(self) -> None:
        live = set(self._seats.live_seats())
        for event_id, by_seat in self.commitments.items():
            if event_id not in self.closed and live <= set(by_seat):
                self.closed.add(event_id)
                lost = self.redrawn_for.pop(event_id, None)
                if lost is not None and self.judge is not None:
                    self.judge(event_id, *lost)

    def use_published(self, seat: int) -> None:
        """A replaced seat's secrets that its private-knowledge receiver published count as
        revealed."""
        for event, by_seat in self.published.items():
            if seat in by_seat and event not in self.resolved:
                held = self.secrets.setdefault(event, {})
                if seat not in held:
                    held[seat] = by_seat[seat]
                    self._shortfalls.append(self._naming.secret_from_delivery(event, seat))

    def redraw_lost(self, recoverable: Callable[[int, str], bool]) -> None:
        """Draw again every unresolved event a replaced seat contributed to and whose secret
        is neither revealed nor on its way (``recoverable``: a round's key will publish it).
        Whether a seat that lost its secret so withheld it is judged once the re-draw's
        commitments close (``judge``, :mod:`protocol.mechanisms.withholding`)."""
        engine_ids = {a: e for e, a in self.alias.items() if not is_pool_slot(a)}
        w = self._state().waiting
        slot = self.pool_round
        if slot is not None and isinstance(w, Pending) and self.alias.get(w.event.id) == slot:
            engine_ids[slot] = w.event.id  # (the die waiting on the round's slot)
        for event_id, by_seat in list(self.commitments.items()):
            if event_id in self.resolved or (is_pool_slot(event_id)
                                             and event_id not in engine_ids):
                continue  # (a slot not taken yet is burned when it would be: pose)
            lost = [s for s in by_seat if s in self._seats.absent
                    and s not in self.secrets.get(event_id, {})
                    and not recoverable(s, event_id)]
            if not lost:
                continue
            engine_id = engine_ids.get(event_id, event_id)
            if self.alias.get(engine_id, engine_id) != event_id:
                continue  # already drawn again
            k = 1
            while f"{engine_id}~{k}" in self.commitments:
                k += 1
            new_id = f"{engine_id}~{k}"
            self.alias[engine_id] = new_id
            self.resolved.add(event_id)
            self.dead.add(event_id)
            self._shortfalls.append(f"{engine_id} drawn again as {new_id} (seat "
                                    + ", ".join(str(s) for s in lost) + " left with its secret)")
            self._emit(ChanceRedrawn(engine_id, new_id))
            self.redrawn_for[new_id] = (event_id, tuple(lost), engine_id)
            if event_id == self.pool_round:
                self.pool_round = None  # (the round's later dice take a new slot)


# ---------------------------------------------------------------------- the local seat's bodies


def commit_body(chance: Chance, secrets: SeatSecrets, seat_key: bytes, match_id: bytes,
                seat: int) -> ChanceCommitBody:
    return ChanceCommitBody(tuple(
        (e, chance_commitment(match_id, e, seat_key, secrets.chance_secret(e)))
        for e in chance.batch_of(seat)))


def reveal_body(chance: Chance, secrets: SeatSecrets, version: int) -> ChanceRevealBody:
    early = chance.early_turn()
    e = chance.pending_id() if early is None else early
    opens = chance.open_digest((e,)) if version >= 2 else b""
    return ChanceRevealBody(((e, secrets.chance_secret(e)),), opens)


def digest_body(chance: Chance) -> ChanceDigestBody:
    stage = min(chance.digest_rounds + 1, MAX_STAGE)
    return ChanceDigestBody(stage, chance.digest())
