"""Version 2 vectors of the endings a seat chooses (protocol.md §7.7): a seat that leaves for
good, in a match that plays on and in one its leaving brings below two live seats."""

from __future__ import annotations

from protocol.messages import Kind, Message
from tests.vectors.making import Expect, Vector, VectorNetwork, finished, silence, valid


def _leave_at(net: VectorNetwork, seat: int, sent: int) -> None:
    """``seat`` leaves for good once it has sent ``sent`` messages (the openings it owes then
    go first)."""
    local = net.seats[seat]
    original = local.messages_to_send

    def send() -> list[Message]:
        if len(local.sent) >= sent and not local.leaving:
            local.leave()
        return original()
    local.messages_to_send = send  # type: ignore[method-assign]


def leave(version: int) -> Vector:
    net = VectorNetwork(3, tag=b"adversarial/leave", version=version)
    _leave_at(net, 2, 20)
    net.pump()  # (no clock: nobody waits a timeout for a seat that left)
    finished(net, {2})
    assert net.cores[0].absent[2].left
    return Vector(
        "adversarial/leave",
        "Seat 2 leaves for good after its 20th message: it signs a LEAVE, and every peer "
        "replaces it where its next message is due, with no timeout and no vote; its zombie "
        "plays on and nobody is blamed. The file of seat 0.",
        net.file(0), valid("seat 2 left the match for good", "seat 2 was replaced"))


def leave_to_one(version: int) -> Vector:
    net = VectorNetwork(3, tag=b"adversarial/leave-to-one", version=version)
    silence(net, 1, lambda m: m.kind is Kind.COMMIT)
    _leave_at(net, 2, 30)
    net.run_with_timeouts()
    assert net.cores[0].signed and net.cores[0].ending.abandoned
    return Vector(
        "adversarial/leave-to-one",
        "Seat 1 goes silent at its first commitment and is voted out; later seat 2 leaves for "
        "good. One live seat would be left: the match ends there, abandoned (Dungeon Raiders "
        "has no forfeit result), and seat 0 signs the end. Nobody is blamed. The file of "
        "seat 0.", net.file(0), Expect("abandoned", None, "left the match"))


def ending_vectors(version: int) -> list[Vector]:
    return [leave(version), leave_to_one(version)] if version >= 2 else []
