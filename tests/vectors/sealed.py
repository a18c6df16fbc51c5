"""Conformance vectors of sealed values (protocol.md §7.11): Dungeon Twister matches, whose two
starting teams and 20 face-down tokens are sealed when chosen and opened when the rules say.

Each vector is a match of two in-memory peers (protocol.mesh.Network) built from a fixed tag:
keys, nonces, seeds and bot choices derive from it, Ed25519 signatures are deterministic and
Dungeon Twister has no private-knowledge delivery, so the bytes are the same on every run.  A
seat that cheats does it as a modified client would, signing with its own key: it commits to
one value and opens another, seals a token twice, or leaves its sealed commitments out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from protocol.match.events import PeerMisbehaved
from protocol.match.seat import LocalSeat
from protocol.mesh import MeshGame, Network
from protocol.wire.messages import RevealBody
from protocol.wire.transcript import file_start, frame

from tests.protocol.helpers import opening_lies, sealing_lies
from tests.vectors.making import Vector, invalid, valid

TWISTER = MeshGame("twister")
CHEAT = 1


def _network(tag: bytes) -> Network:
    return Network(2, TWISTER, b"vectors/v2/sealed/" + tag)


def _file(net: Network, peer: int) -> bytes:
    """The match file: the header, then every message in the order it was sent (the order a
    peer that received them all as they were sent took them)."""
    assert all(m in net.cores[peer].feeds[m.seat].messages for m in net.log)
    return file_start(net.header) + b"".join(frame(m.encode()) for m in net.log)


def _cut_after(data: bytes, message: Any) -> bytes:
    """``data`` up to and including the record of ``message`` (the rest left out)."""
    record = frame(message.encode())
    at = data.index(record)
    return data[:at + len(record)]


def honest() -> Vector:
    net = _network(b"honest")
    net.pump()
    assert all(core.signed for core in net.cores)
    return Vector("sealed/twister-honest",
                  "Dungeon Twister, two seats, to its end: both starting teams (4 values each) "
                  "and all 20 face-down tokens sealed when chosen, opened as the rules ask "
                  "(the teams after the 20 placements, tokens as their rooms are revealed, the "
                  "rest at the end). The file of seat 0.", _file(net, 0), valid())


def _cheating(tag: bytes, cheat: Callable[[LocalSeat], None],
              words: str) -> tuple[Network, PeerMisbehaved]:
    """A match where seat 1 cheats so (``cheat`` rigs its peer), and the fault it is blamed for
    (its reason says ``words``)."""
    net = _network(tag)
    cheat(net.seats[CHEAT])
    net.run_with_timeouts()
    fault = next(e for e in net.events[0] if isinstance(e, PeerMisbehaved))
    assert fault.seat == CHEAT and words in fault.reason, fault
    return net, fault


def _twice(local: LocalSeat) -> None:
    """Seal the first token again at every later placement (R32 forbids it): the commitments
    open, but the rules refuse the opening."""
    first: list[str] = []

    def lie(slot: str, value: str) -> str:
        if slot == f"tok.{CHEAT}.1" and not first:
            first.append(value)
        return first[0] if slot.startswith("tok.") and first else value
    sealing_lies(local, lie)


def _forged(local: LocalSeat) -> None:
    """Open every token as another kind than the one sealed."""
    opening_lies(local, lambda slot, value: value if not slot.startswith("tok.") else (
        "troll" if value != "troll" else "goblin"))


def _missing(local: LocalSeat) -> None:
    """Send every sealing action with no sealed commitment."""
    local._commitments = lambda slots: ()  # type: ignore[method-assign]


def sealed_vectors() -> list[Vector]:
    out = [honest()]
    net, fault = _cheating(b"token-twice", _twice, "its opening breaks the rules")
    out.append(Vector(
        "sealed/token-twice-forfeit",
        "Seat 1's modified client seals its first token again at every later placement "
        "(R32: each of a seat's 14 tokens exactly once). Its commitments open, but at the "
        "first opening that shows the token again the rules refuse it: its signed OPEN proves "
        "it. Two seats: the match ends at the floor with Twister's forfeit, after seat 0 opens "
        "the tokens it still holds (the openings due at the end come first). The file of seat "
        "0, whole.", _file(net, 0), valid()))
    out.append(Vector(
        "sealed/token-twice",
        "The same match, the file cut right after seat 1's OPEN that shows its token a second "
        "time.", _cut_after(_file(net, 0), fault.evidence[0]),
        invalid(CHEAT, fault.reason)))
    net, fault = _cheating(b"forged-opening", _forged, "does not open its commitment")
    out.append(Vector(
        "sealed/forged-opening",
        "Seat 1 opens a token as another kind than the one it sealed: the value does not "
        "open its commitment. The file of seat 0, cut right after that OPEN.",
        _cut_after(_file(net, 0), fault.evidence[0]), invalid(CHEAT, fault.reason)))
    net, fault = _cheating(b"missing-commitment", _missing, "its action seals")
    assert isinstance(fault.evidence[0].content, RevealBody)
    out.append(Vector(
        "sealed/missing-commitment",
        "Seat 1 reveals its starting team (the public action `team`, which seals its four "
        "starting squares) with a REVEAL that carries no sealed commitment, and a play "
        "commitment made without them, which it opens. The file of seat 0, cut right after "
        "that REVEAL.",
        _cut_after(_file(net, 0), fault.evidence[0]), invalid(CHEAT, fault.reason)))
    return out

