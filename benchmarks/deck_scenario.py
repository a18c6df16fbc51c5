"""In-memory peers dealing from shared decks (protocol/deck), for tests and the benchmark.

Each seat is a peer with its own :class:`~protocol.deck.Deck` per deck, and a verifier holds
one more (no local seat).  Every body is encoded once by its sender and each receiver decodes
the bytes and checks every proof itself: nothing checked is shared between peers.  The time
each peer spends is kept per phase, so the critical path of a LAN deal (the slowest peer of
each phase, phases in sequence) can be read off a run.  Times are CPU time of this thread
(``time.thread_time``): the work each peer does, as if it had its own core — on a shared
machine, wall time would also count the time other processes held the core.
"""

from __future__ import annotations

import hashlib
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from protocol.wire.encoding import decode, encode

from protocol.deck import (
    Deck,
    DeckBody,
    DeckEvent,
    DeckFault,
    DeckSeat,
    DeckSpec,
    Phase,
    deck_id_for,
    encode_body,
)

VERIFIER = -1
"""The pseudo-seat of the verifier in timings."""


def cards_named(name: str, count: int) -> tuple[str, ...]:
    return tuple(f"{name}-{i}" for i in range(count))


@dataclass
class Sent:
    seat: int
    deck: str
    data: bytes


@dataclass
class DeckTable:
    """``seats`` peers sharing the decks ``decks`` (name → card identities)."""

    seats: int
    decks: dict[str, tuple[str, ...]]
    tag: bytes = b"deck-table"
    attempt: int = 0
    taking_part: tuple[int, ...] = ()
    match_id: bytes = b""
    seat_keys: tuple[bytes, ...] = ()
    peers: dict[int, dict[str, Deck]] = field(default_factory=dict)
    verifier: dict[str, Deck] = field(default_factory=dict)
    log: list[Sent] = field(default_factory=list)
    events: dict[int, list[DeckEvent]] = field(default_factory=lambda: defaultdict(list))
    times: dict[str, dict[int, float]] = field(default_factory=dict)
    phase_order: list[str] = field(default_factory=list)
    tamper: Callable[[int, str, DeckBody], DeckBody | bytes | None] | None = None
    with_verifier: bool = True

    def __post_init__(self) -> None:
        if not self.taking_part:
            self.taking_part = tuple(range(self.seats))
        if not self.match_id:
            self.match_id = hashlib.sha256(b"match|" + self.tag).digest()
        if not self.seat_keys:
            self.seat_keys = tuple(hashlib.sha256(b"key|%d|" % s + self.tag).digest()
                                   for s in range(self.seats))
        for name, cards in self.decks.items():
            spec = DeckSpec(self.match_id, deck_id_for(self.match_id, name, self.attempt),
                            self.taking_part, self.seat_keys, cards)
            for seat in self.taking_part:
                self.peers.setdefault(seat, {})[name] = Deck(spec, DeckSeat(
                    seat, self.seed(seat), self.match_id))
            if self.with_verifier:
                self.verifier[name] = Deck(spec)

    def seed(self, seat: int) -> bytes:
        return hashlib.sha256(b"seed|%d|" % seat + self.tag).digest()

    # ------------------------------------------------------------------ timing

    def _charge(self, phase: str, who: int, seconds: float) -> None:
        if phase not in self.times:
            self.times[phase] = defaultdict(float)
            self.phase_order.append(phase)
        self.times[phase][who] += seconds

    def critical_path(self) -> float:
        """The wall time of a LAN deal if each peer had its own core: Σ over phases of the
        slowest peer's time in it, except that a shuffle's check waits only for the next
        shuffler (the others check it meanwhile); the verifier is not counted."""
        total = 0.0
        for phase in self.phase_order:
            per = {who: t for who, t in self.times[phase].items() if who != VERIFIER}
            step = phase.removeprefix("shuffle-").removesuffix("/check")
            if step.isdigit() and int(step) + 1 < len(self.taking_part):
                total += per.get(self.taking_part[int(step) + 1], 0.0)
            else:
                total += max(per.values(), default=0.0)
        return total

    def peer_cpu(self) -> dict[int, float]:
        total: dict[int, float] = defaultdict(float)
        for per in self.times.values():
            for who, t in per.items():
                total[who] += t
        return dict(total)

    # ------------------------------------------------------------------ moving bodies

    def deliver(self, seat: int, name: str, data: bytes, phase: str) -> None:
        """Every peer and the verifier decode ``data`` and consume it."""
        self.log.append(Sent(seat, name, data))
        everyone = [*self.peers.items(), (VERIFIER, self.verifier)] if self.verifier else [
            *self.peers.items()]
        for who, decks in everyone:
            start = time.thread_time()
            events = decks[name].receive_wire(seat, decode(data))
            self._charge(phase, who, time.thread_time() - start)
            self.events[who].extend(events)

    def send_owed(self, phase: str, seats: Sequence[int] | None = None,
                  withhold: frozenset[int] = frozenset()) -> int:
        """Each seat (in order) makes what it owes on every deck, then every body is
        delivered; returns how many were sent."""
        outgoing: list[tuple[int, str, bytes]] = []
        for seat in seats if seats is not None else self.taking_part:
            if seat in withhold:
                continue
            for name, deck in self.peers[seat].items():
                start = time.thread_time()
                bodies = deck.to_send()
                wire = [encode(encode_body(b)) for b in bodies]
                self._charge(phase + "/make", seat, time.thread_time() - start)
                for body, data in zip(bodies, wire, strict=True):
                    if self.tamper is not None:
                        changed = self.tamper(seat, name, body)
                        if isinstance(changed, bytes):
                            data = changed
                        elif changed is not None:
                            data = encode(encode_body(changed))
                    outgoing.append((seat, name, data))
        for seat, name, data in outgoing:
            self.deliver(seat, name, data, phase + "/check")
        return len(outgoing)

    def setup(self, withhold: frozenset[int] = frozenset()) -> None:
        """Key commitments, keys, then every seat's shuffle in order."""
        self.send_owed("commit", withhold=withhold)
        self.send_owed("keys", withhold=withhold)
        for step, seat in enumerate(self.taking_part):
            if seat in withhold:
                return
            self.send_owed(f"shuffle-{step}", seats=[seat])

    def deal(self, name: str, owners: Sequence[int | None]) -> tuple[int, ...]:
        """Every peer and the verifier deal the same positions."""
        positions: tuple[int, ...] = ()
        for deck in [*(d[name] for d in self.peers.values()),
                     *([self.verifier[name]] if self.verifier else [])]:
            positions = deck.deal(owners)
        return positions

    def shares(self, withhold: frozenset[int] = frozenset()) -> None:
        self.send_owed("shares", withhold=withhold)

    def faults(self, who: int = VERIFIER) -> list[DeckFault]:
        return [e for e in self.events[who] if isinstance(e, DeckFault)]

    def ready(self) -> bool:
        return all(d.phase is Phase.READY for d in self.verifier.values())
