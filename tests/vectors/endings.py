"""Version 2 vectors of the endings a seat chooses (protocol.md §7.7): a seat that leaves for
good or resigns, in a match that plays on and in one its leaving brings below two live seats."""

from __future__ import annotations

from collections.abc import Callable

from protocol.wire.messages import ClaimBody, Kind, Message

from tests.vectors.making import Expect, Vector, VectorNetwork, finished, silence, valid


def _at(net: VectorNetwork, seat: int, sent: int, act: Callable[[], None]) -> None:
    """``act`` once ``seat`` has sent ``sent`` messages."""
    local = net.seats[seat]
    original = local.messages_to_send
    done: list[bool] = []

    def send() -> list[Message]:
        if len(local.sent) >= sent and not done:
            done.append(True)
            act()
        return original()
    local.messages_to_send = send  # type: ignore[method-assign]


def _leave_at(net: VectorNetwork, seat: int, sent: int, *, resign: bool = False) -> None:
    """``seat`` leaves for good (``resign``: resigns) once it has sent ``sent`` messages (the
    openings it owes then go first)."""
    _at(net, seat, sent, lambda: net.seats[seat].leave(resign=resign))


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


def resign(version: int) -> Vector:
    net = VectorNetwork(3, tag=b"adversarial/resign", version=version)
    _leave_at(net, 2, 20, resign=True)
    net.pump()
    finished(net, {2})
    assert net.cores[0].absent[2].left
    return Vector(
        "adversarial/resign",
        "Seat 2 resigns after its 20th message: it signs a RESIGN, a LEAVE that also resigns "
        "the seat in the game at its next decision. Dungeon Raiders has no resignation rule, "
        "so its zombie plays on, as after a LEAVE, and the file says so; nobody is blamed. The "
        "file of seat 0.",
        net.file(0), valid("seat 2 resigned and left the match for good",
                           "seat 2 was not resigned"))


def pause(version: int) -> Vector:
    net = VectorNetwork(3, tag=b"adversarial/pause", version=version)
    for local in net.seats:
        local.answering = lambda offerer, what: True
    _at(net, 0, 20, lambda: net.seats[0].offer("pause"))
    _at(net, 2, 40, net.seats[2].resume)
    net.pump()
    finished(net, set())
    return Vector(
        "adversarial/pause",
        "Seat 0 offers a pause after its 20th message, where its next play is due; the match "
        "waits until seats 1 and 2 answer, both accept, and no timer runs until seat 2 "
        "resumes the match after its 40th message. The file of seat 0.",
        net.file(0), valid("seat 0 offered a pause", "seat 2 resumed the match"))


def draw_refused(version: int) -> Vector:
    net = VectorNetwork(3, tag=b"adversarial/draw-refused", version=version)
    for local in net.seats:
        local.answering = lambda offerer, what: True
    _at(net, 1, 15, lambda: net.seats[1].offer("draw"))
    net.pump()
    finished(net, set())
    return Vector(
        "adversarial/draw-refused",
        "Seat 1 offers a draw after its 15th message and seats 0 and 2 accept; but Dungeon "
        "Raiders has no draw by agreement, so the offer is declined, as the file notes, and "
        "play goes on to the end. The file of seat 0.",
        net.file(0), valid("seat 1 offered a draw", "no draw by agreement"))


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


def claim(version: int) -> Vector:
    net = VectorNetwork(3, tag=b"adversarial/claim", version=version)
    _leave_at(net, 2, 20)
    silence(net, 1, lambda m: m.seq >= 34)
    net.run_with_timeouts()
    assert net.cores[0].signed and net.cores[0].ending.claim is not None
    return Vector(
        "adversarial/claim",
        "Seat 2 leaves for good after its 20th message; later seat 1 goes silent for good. "
        "With two seats live nobody can vote, so once both timeouts passed seat 0 claims the "
        "match: seat 1 is replaced where its message was owed, the match ends there (Dungeon "
        "Raiders has no forfeit), and seat 0 signs it. Nobody is blamed. The file of seat 0.",
        net.file(0), Expect("claimed", None, "claimed the match"))


def false_claim(version: int) -> Vector:
    net = VectorNetwork(3, tag=b"adversarial/false-claim", version=version)
    _leave_at(net, 2, 20)
    liar = net.seats[1]
    original = liar.messages_to_send
    done: list[Message] = []

    def send() -> list[Message]:
        core = liar.core
        if not done and 2 in core.absent and core.expects(1) is Kind.COMMIT and (
                core.feeds[1].next_seq == len(liar.sent)):
            done.append(liar.sign_next(Kind.CLAIM, ClaimBody(0, core.cursor[0])))
            return done[:]
        return [] if done else original()
    liar.messages_to_send = send  # type: ignore[method-assign]
    net.run_with_timeouts()
    assert done and net.cores[0].signed
    return Vector(
        "adversarial/false-claim",
        "Seat 2 leaves for good after its 20th message. Then seat 1 claims the match of seat "
        "0 where it owed a commitment itself (a false claim), and sends nothing more: it is "
        "blamed and replaced, one seat is left and the match ends there; the false claim "
        "still reads invalid. The file of seat 0.",
        net.file(0), Expect("invalid", 1, "a false claim"))


def crossed_claims() -> VectorNetwork:
    """Three seats; seat 2 leaves for good, then the link between seats 0 and 1 goes down both
    ways: each plays on alone until it waits for the other, times the other out and claims it;
    then every message is delivered."""
    net = VectorNetwork(3, tag=b"copies/claims-crossed", version=2)
    _leave_at(net, 2, 20)
    for _ in range(20000):
        if all(2 in net.cores[p].absent for p in (0, 1)) and net.cores[0].expects(0) is not None:
            break
        net.pump(limit=1, partial=True)
    cut = list(net.queue)
    net.queue.clear()
    for m in cut:
        for p in (0, 1):
            if m.seat == p or m.seat == 2:
                net.deliver(p, m)
    cut = [m for m in cut if m.seat != 2]
    for _ in range(50):
        out = [m for s in (0, 1) for m in net.seats[s].messages_to_send()]
        for m in out:
            net.deliver(m.seat, m)
        cut += out
    for seat in (0, 1):
        net.run_clock(seat)
        net.run_clock(seat)
        for m in net.seats[seat].messages_to_send():
            net.deliver(seat, m)
            cut.append(m)
    for m in cut:
        net.deliver(1 - m.seat, m)
    net.pump()
    return net


def ending_vectors(version: int) -> list[Vector]:
    return [leave(version), resign(version), pause(version), draw_refused(version),
            leave_to_one(version), claim(version), false_claim(version)] if version >= 2 else []
