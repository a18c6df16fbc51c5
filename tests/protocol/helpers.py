"""Helpers shared by the protocol tests: in-memory match files, seats that decide last, peers'
clocks run past the timeouts, and links that hold messages back for a while."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from protocol.local import Network
from protocol.match import DecisionPending
from protocol.messages import CommitBody, Message, RevealBody
from protocol.transcript import file_start, frame


def match_file(net: Network, peer: int) -> bytes:
    """What ``peer``'s match file would hold: the header and every feed it took."""
    core = net.cores[peer]
    data = bytearray(file_start(core.header))
    for feed in core.feeds:
        for message in feed.messages:
            data += frame(message.encode())
    return bytes(data)


def patient(net: Network, seat: int) -> None:
    """``seat`` decides last: not before it holds every other live decider's commitment (as
    a person who takes longer than the others, or a bot that read its input first)."""
    local, core = net.seats[seat], net.cores[seat]
    decide = local.decide

    def wait_for_the_others(state: Any, s: int) -> str:
        step = core.step
        others = (set(step.seats) - set(core.absent) - {s}) if step is not None else set()
        if step is None or not others <= set(step.commitments):
            raise DecisionPending
        return decide(state, s)
    local.decide = wait_for_the_others


def direct_reveals(messages: list[Message] | tuple[Message, ...]) -> list[Message]:
    """The REVEALs of a feed that no COMMIT of their step precedes."""
    committed = {m.content.step for m in messages if isinstance(m.content, CommitBody)}
    return [m for m in messages
            if isinstance(m.content, RevealBody) and m.content.step not in committed]


def run_clock(net: Network, i: int) -> bool:
    """Peer ``i``'s clock runs to its core's next deadline; False if it waits for nobody."""
    core = net.cores[i]
    deadline = core.get_timer()
    if deadline is None:
        return False
    net.events[i].extend(core.handle_timer(deadline + 1.0))
    return True


def run_with_timeouts(net: Network, *, limit: int = 30, scramble: bytes | None = None) -> None:
    """Pump; whenever the match stalls, let every peer's clock run past both timeouts."""
    for round_ in range(limit):
        net.pump(scramble=None if scramble is None else scramble + bytes([round_]))
        if all(core.signed for i, core in enumerate(net.cores) if core.live(i)):
            return
        # First past the turn timeout (overdue: peers answer votes already cast), then past
        # the silence timeout too (timed out: peers vote).
        # Every peer has its own clock: each runs to its own next deadline.
        for step in ("turn", "silence"):
            for i in range(len(net.cores)):
                run_clock(net, i)
            if step == "turn":
                net.pump(scramble=None if scramble is None else scramble + bytes([round_, 1]))
    raise AssertionError("the match did not finish")


def land_in_flight(net: Network) -> None:
    """What is in flight arrives at every peer, and nothing more is pumped."""
    while net.queue:
        message = net.queue.pop(0)
        for i in range(len(net.cores)):
            net.deliver(i, message)


def cut_off(seats: Iterable[int], n: int) -> set[tuple[int, int]]:
    """The links (sender, receiver) that hold back every message of ``seats`` to the others
    (each still gets everyone's messages)."""
    return {(s, j) for s in seats for j in range(n) if j != s}


def pump_cut(net: Network, links: set[tuple[int, int]],
             held: list[tuple[int, Message]]) -> None:
    """Pump until nobody sends; a message on a link in ``links`` (sender, receiver) is kept in
    ``held`` (with the peer it is for) instead of delivered."""
    for _ in range(10_000):
        moved = False
        for i, seat in enumerate(net.seats):
            out = seat.messages_to_send()
            net.events[i].extend(seat.take_events())
            for message in out:
                moved = True
                net.log.append(message)
                for j in range(len(net.cores)):
                    if (message.seat, j) in links:
                        held.append((j, message))
                    else:
                        net.deliver(j, message)
        if not moved:
            return
    raise AssertionError("the network did not settle")


def stall_links(net: Network, links: set[tuple[int, int]], *,
                rounds: int = 1) -> list[tuple[int, Message]]:
    """The links in ``links`` stall: pump, and let every peer's clock run past both timeouts
    (``rounds`` times); returns what the links held back, for :func:`heal`."""
    held: list[tuple[int, Message]] = []
    for _ in range(rounds):
        pump_cut(net, links, held)
        for _ in ("turn", "silence"):
            for i in range(len(net.cores)):
                run_clock(net, i)
            pump_cut(net, links, held)
    return held


def heal(net: Network, held: list[tuple[int, Message]]) -> None:
    """The stalled links deliver what they held, in order."""
    for i, message in held:
        net.deliver(i, message)
