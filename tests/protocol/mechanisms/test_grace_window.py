"""The grace window (version 3, protocol.md §6.6; issue 47 item 3): a seat that owes the last
secret of a chance event — replaced there, it would withhold it and forfeit (§7.7) — is timed
out only once the turn timeout, the silence timeout and the grace window (the silence timeout
again, by default) have passed.  Its secret sent late, within the window, counts: the event
stands and nobody forfeits.  Past the window it is replaced and forfeits, as before."""

from __future__ import annotations

from benchmarks.scenario import raiders
from engine.core import Chance, Over
from protocol.match.events import Event, SeatReplaced, SeatTimedOut
from protocol.mesh import Network
from protocol.verify.verdicts import VALID
from protocol.verify.verifier import verify
from protocol.wire.messages import Kind, Message

LATE = 3


def _hold_reveal(net: Network) -> list[Message]:
    """Seat 3's link fails as it sends its first CHANCE_REVEAL: that message and whatever it
    sends next are held (written to its feed, never delivered) until :func:`_release`."""
    local = net.seats[LATE]
    original = local.messages_to_send
    held: list[Message] = []

    def send() -> list[Message]:
        out = []
        for message in original():
            if held or message.kind is Kind.CHANCE_REVEAL:
                held.append(message)
            else:
                out.append(message)
        return out
    local.messages_to_send = send  # type: ignore[method-assign]
    local.__dict__["_original_send"] = original
    return held


def _release(net: Network, held: list[Message]) -> None:
    """The link comes back: what was held arrives, and seat 3 sends as before."""
    local = net.seats[LATE]
    local.messages_to_send = local.__dict__.pop("_original_send")  # type: ignore[method-assign]
    net.queue.extend(held)
    held.clear()


def _clocks_run(net: Network, past: float, version: int) -> list[Event]:
    """Every peer but seat 3 runs its clock past its turn timeout, then to ``past`` seconds
    after it (the silence timeout is 60 s, the grace window another 60 s)."""
    events: list[Event] = []
    for i in range(LATE):
        core = net.cores[i]
        overdue = core.get_timer()
        assert overdue is not None
        events += core.handle_timer(overdue + 0.5)
        timed_out = core.get_timer()
        assert timed_out is not None
        grace = 60.0 if version >= 3 else 0.0
        assert timed_out == overdue + 60.0 + grace, (timed_out, overdue)
        events += core.handle_timer(overdue + past)
    return events


def _late_secret(past: float, version: int = 3) -> tuple[Network, list[Event], str]:
    net = Network(4, raiders(), b"grace-window", version=version)
    held = _hold_reveal(net)
    net.pump()
    assert held, "seat 3 never owed a chance reveal"
    event = held[0].content.secrets[0][0]  # type: ignore[union-attr]
    assert all(net.cores[i].chance.secrets[event].keys() == {0, 1, 2} for i in range(LATE))
    events = _clocks_run(net, past, version)
    net.pump()
    _release(net, held)
    net.run_with_timeouts()
    return net, events, event


def _status(net: Network, peer: int, seat: int) -> str:
    w = net.cores[peer].state.waiting
    assert isinstance(w, Over), w
    return str(w.outcome.standings[seat].status)


def test_a_secret_sent_late_within_the_window_counts() -> None:
    net, events, event = _late_secret(past=90.0)
    assert not any(isinstance(e, SeatTimedOut) for e in events)
    for peer in range(4):
        core = net.cores[peer]
        assert core.signed and not core.seats.withholders
        assert not any(isinstance(e, SeatReplaced) for e in net.events[peer])
        assert core.chance.alias.get(event, event) == event  # (the event stands)
        assert _status(net, peer, LATE) != "forfeited"
    v = verify(net.match_file(0))
    assert v.verdict == VALID and not any("forfeit" in n or "drawn again" in n
                                          for n in v.notes), v


def test_a_secret_sent_after_the_window_is_withheld() -> None:
    net, events, event = _late_secret(past=130.0)
    assert any(isinstance(e, SeatTimedOut) and e.seat == LATE for e in events)
    for peer in range(LATE):
        core = net.cores[peer]
        assert core.signed and core.seats.withholders == {LATE}
        assert core.chance.alias[event] == f"{event}~1"
        assert _status(net, peer, LATE) == "forfeited"
    v = verify(net.match_file(0))
    assert v.verdict == VALID, v
    assert f"seat {LATE} forfeited where it was to decide: it withheld its secret of {event} " \
        "(every other secret of it was revealed first)" in v.notes, v.notes


def test_version_2_has_no_window() -> None:
    net, events, _ = _late_secret(past=90.0, version=2)
    assert any(isinstance(e, SeatTimedOut) and e.seat == LATE for e in events)
    assert net.cores[0].seats.withholders == {LATE}


def test_the_last_secret_of_a_pool_slot_has_the_window_too() -> None:
    """The dice toy (§7.12): seat 2 goes silent where it owes its secret of die d4.1, the
    decider's in its ACT and seat 1's revealed: the wait for it runs the grace window too."""
    from typing import Any

    from protocol.mesh import MeshGame
    from tests.protocol import dice_toy

    net = Network(3, MeshGame(dice_toy.GAME, (("turns", 12), ("dice", "one"))),
                  b"grace-pools")
    local = net.seats[2]
    original = local.messages_to_send

    def silent() -> list[Any]:
        w = local.core.state.waiting
        if isinstance(w, Chance) and w.event.id == "d4.1":
            return []
        return original()
    local.messages_to_send = silent  # type: ignore[method-assign]
    net.pump()
    core = net.cores[0]
    slot = core.chance.alias["d4.1"]
    assert set(core.chance.secrets[slot]) == {0, 1}
    overdue = core.get_timer()
    assert overdue is not None
    core.handle_timer(overdue + 0.5)
    assert core.get_timer() == overdue + 60.0 + 60.0
