"""Conformance vectors of dice pools (protocol.md §7.12): Dungeons of Kards matches, whose dice
are drawn from pools of secrets committed ahead — the decider's secret in its ACT, the others'
in one round of CHANCE_REVEAL.

Each vector is a match of three in-memory peers (protocol.mesh.Network) built from a fixed tag:
keys, nonces, seeds and bot choices derive from it and Ed25519 signatures are deterministic.
The tags are chosen so that no private-knowledge round (a guardian's peek, whose deliveries are
sealed under fresh randomness) happens: the bytes are the same on every run, which the builder
checks.  A seat that cheats does it as a modified client would, signing with its own key."""

from __future__ import annotations

from collections.abc import Callable

from protocol.match.events import ChanceResolved, PeerMisbehaved
from protocol.match.seat import LocalSeat
from protocol.mechanisms.chance import is_pool_slot
from protocol.mesh import MeshGame, Network
from protocol.wire.messages import ActBody, Kind
from protocol.wire.transcript import file_start, frame

from tests.protocol.helpers import pool_lies
from tests.vectors.making import Vector, invalid, valid

KARDS = MeshGame("kards")
CHEAT = 1


def _played(tag: bytes, cheat: Callable[[LocalSeat], None] | None = None) -> Network:
    net = Network(3, KARDS, b"vectors/v2/pools/" + tag)
    if cheat is not None:
        cheat(net.seats[CHEAT])
    net.run_with_timeouts()
    assert not any(m.kind is Kind.DELIVERY for m in net.log), "a peek: not deterministic"
    return net


def _file(net: Network) -> bytes:
    """The header, then every message in the order it was sent."""
    return file_start(net.header) + b"".join(frame(m.encode()) for m in net.log)


def _cut_after(net: Network, fault: PeerMisbehaved) -> bytes:
    data = _file(net)
    record = frame(fault.evidence[0].encode())
    return data[:data.index(record) + len(record)]


def _fault(net: Network, words: str) -> PeerMisbehaved:
    fault = next(e for e in net.events[0] if isinstance(e, PeerMisbehaved))
    assert fault.seat == CHEAT and words in fault.reason, fault
    assert isinstance(fault.evidence[0].content, ActBody)
    return fault


CHEATS = (
    ("pools/act-secret-wrong", b"wrong-secret", "wrong-secret", "does not open its commitment",
     "Seat 1's ACT that poses a die carries, for the slot the die takes, 32 zero bytes in place "
     "of its secret: it does not open its commitment."),
    ("pools/act-secret-not-due", b"not-due", "no-die", "where none was due",
     "Seat 1's ACT whose action poses no die carries its secret for the next pool slot (no "
     "secret is due: a secret revealed before the decision that takes its slot would give a "
     "die away)."),
)
"""(vector, tag, how seat 1 lies: tests.protocol.helpers.pool_lies, words of its fault, what)"""


def pool_vectors() -> list[Vector]:
    honest = _played(b"honest-3")
    rolled = [e for e in honest.cores[0].events if isinstance(e, ChanceResolved)]
    slots = {honest.cores[0].chance.alias.get(e.event, e.event) for e in rolled}
    assert sum(map(is_pool_slot, slots)) >= 20 and all(c.signed for c in honest.cores)
    out = [Vector(
        "pools/kards-honest",
        f"Dungeons of Kards, three seats, to its end: {len(rolled)} dice, every public one drawn "
        "from the pools (each decision's dice take the next slot: pool.0, pool.1, …; the "
        "decider's secret in its ACT, the others' in a CHANCE_REVEAL of the slot; batches of "
        "16 slots committed ahead). The match as sent, message by message.", _file(honest),
        valid())]
    for name, tag, how, words, what in CHEATS:
        net = _played(tag, lambda local, how=how: pool_lies(local, how))
        fault = _fault(net, words)
        out.append(Vector(name, what + " The match as sent, cut right after that ACT.",
                          _cut_after(net, fault), invalid(CHEAT, fault.reason)))
    return out
