"""Peers apply the header's timeouts by the time class of the step a seat owes (protocol.md
§6.6, network.md §10): real peers over loopback play the timed toy (``s1`` a long decision,
``s2`` a normal one, ``t1`` a quick one).  The table signs (5, 5, 100, 5) s into the header;
every peer scales them by 0.3 (``PeerConfig.time_scale``, the tests' override), so a normal
decision may take 1.5 s and 1.5 s of silence after it, a long one 30 s.  One seat thinks 6 s
over the long step — twice the normal turn and silence timeouts together — and is left alone;
it never answers in the normal step, and is voted out there."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from protocol.match.core import Event, SeatReplaced, SeatsOverdue, SeatTimedOut
from protocol.mesh import MeshGame, make_header
from protocol.wire.messages import Kind

from engine.core import GameState
from p2p.peer import MatchPeer, PeerConfig
from p2p.run import Result, host, join
from tests.p2p.conftest import LOOPBACK, assert_agreed
from tests.p2p.test_decide_later import deliver, setup
from tests.protocol.timed_toy import GAME

TABLE = (5, 5, 100, 5)  # the table's choice, signed into the header
SCALE = 0.3  # every peer's test override: (1.5, 1.5, 30, 1.5) s
THINK = 6.0  # seat 2 over the long step: past normal + silence (3 s), well short of long (30 s)
BOUND = 60.0


def deciding(seat: int, gone: asyncio.Event) -> Callable[[GameState[Any], int], Any]:
    """Every seat plays "x" at once — but seat 2 thinks THINK seconds over ``s1`` and never
    answers in ``s2`` (it waits until the test ends)."""
    async def choose(state: GameState[Any], _seat: int) -> str:
        step = str(getattr(state.waiting, "step", ""))
        if seat == 2 and step == "s1":
            await asyncio.sleep(THINK)
        if seat == 2 and step == "s2":
            await gone.wait()
        return "x"
    return choose


@pytest.mark.asyncio
async def test_a_long_step_outlasts_the_normal_timeouts_and_a_normal_one_does_not(
        tmp_path: Path) -> None:
    config = PeerConfig(time_scale=SCALE, linger=0.3)
    events: dict[int, list[Event]] = {0: [], 1: [], 2: []}
    peers: dict[int, MatchPeer] = {}
    gone = asyncio.Event()
    port: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    def seat_of(peer: MatchPeer) -> None:
        peers[peer.seat] = peer

    def noting(seat: int) -> Callable[[Event], None]:
        return events[seat].append

    tasks: list[asyncio.Task[Result]] = [asyncio.ensure_future(host(
        tmp_path / "seat0", game=GAME, name="Host", players=3, config=config, timeouts=TABLE,
        choose=deciding(0, gone), on_port=port.set_result, on_peer=seat_of,
        on_event=noting(0)))]
    try:
        lobby = await asyncio.wait_for(port, 10)
        for seat in (1, 2):
            tasks.append(asyncio.ensure_future(join(
                tmp_path / f"seat{seat}", LOOPBACK, lobby, name=f"P{seat}", config=config,
                bind=LOOPBACK, choose=deciding(seat, gone), on_peer=seat_of,
                on_event=noting(seat))))
        results = await asyncio.wait_for(asyncio.gather(*tasks[:2]), BOUND)
        gone.set()
        await asyncio.wait_for(tasks[2], BOUND)
    finally:
        gone.set()
        for task in tasks:
            task.cancel()
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 10)
    assert all(result.core.signed for result in results)
    header = results[0].core.header.header
    assert header.timeouts == TABLE  # the table's choice, signed by every seat
    assert {peer.timeouts for peer in peers.values()} == {(1.5, 1.5, 30.0, 1.5)}
    for seat in (0, 1):
        seen = events[seat]
        # Nothing in the long step: seat 2's 6 s were within its time.
        assert not [e for e in seen if isinstance(e, SeatsOverdue | SeatTimedOut)
                    and e.step == "s1"], seen
        # In the normal step it was owed past the turn timeout (both peers' clocks said so)...
        assert [e.seats for e in seen if isinstance(e, SeatsOverdue) and e.step == "s2"] == [
            (2,)], seen
        replaced = [e for e in seen if isinstance(e, SeatReplaced)]
        assert [e.seat for e in replaced] == [2], replaced
    # ... and past the silence timeout, voted out and replaced there.  (A peer whose clock is
    # the later one — a loaded machine — may get the other's vote first and answer it, with no
    # time-out of its own.)
    timed_out = [e.seat for seat in (0, 1) for e in events[seat]
                 if isinstance(e, SeatTimedOut) and e.step == "s2"]
    assert timed_out and set(timed_out) == {2}, events
    assert_agreed([r.path for r in results], 3)


# --------------------------------------------------------------------------- the peer's settings


def test_a_peer_applies_the_headers_timeouts_unless_a_test_overrides_them() -> None:
    header = make_header(3, MeshGame("raiders"), b"speeds")[0].header
    assert header.timeouts == (30, 90, 300, 60)  # a header's defaults: the normal speed
    assert PeerConfig().match_timeouts(header) == (30.0, 90.0, 300.0, 60.0)
    assert PeerConfig(time_scale=0.5).match_timeouts(header) == (15.0, 45.0, 150.0, 30.0)
    override = PeerConfig(timeouts=(0.5, 1.0, 4.0, 2.0), time_scale=0.5)
    assert override.match_timeouts(header) == (0.25, 0.5, 2.0, 1.0)
    old = make_header(3, MeshGame("raiders"), b"speeds", version=1)[0].header
    assert old.timeouts == () and PeerConfig().match_timeouts(old) == (30.0, 90.0, 300.0, 60.0)
    # The link silence: a sixth of quick + silence, from 2 s to 15 s.
    config = PeerConfig()
    assert config.link_silence_for((30, 90, 300, 60)) == 15.0  # normal
    assert config.link_silence_for((15, 45, 150, 30)) == 7.5  # fast
    assert config.link_silence_for((60, 180, 600, 120)) == 15.0  # slow
    assert config.link_silence_for((1, 1, 1, 1)) == 2.0
    assert PeerConfig(link_silence=0.7).link_silence_for((30, 90, 300, 60)) == 0.7
    for bad in ({"time_scale": 0}, {"time_scale": float("nan")}, {"timeouts": (1, 2, 3)},
                {"timeouts": (1, 2, 3, 0)}, {"timeouts": (1, 2, float("inf"), 4)}):
        with pytest.raises(ValueError):
            PeerConfig(**bad)


@pytest.mark.asyncio
async def test_the_timer_is_looked_at_again_soon_after_the_match_moves(tmp_path: Path) -> None:
    """The peer keeps the deadline the core named until it falls due (asking costs as much as
    taking a message) — but a wait for a long decision may be followed by one for quick
    messages that ends sooner: a message taken brings the next look forward to a shortest turn
    timeout from then."""
    peer, _writer, before, _commits = setup(tmp_path, config=PeerConfig(
        timeouts=(2.0, 5.0, 500.0, 1.0), bot_think=0))
    try:
        assert peer._shortest == 2.0
        far = time.monotonic() + 400.0  # as if the core had named a long decision's deadline
        peer._check = far
        deliver(peer, before[0])
        assert peer._check is not None and peer._check <= time.monotonic() + 2.0
        peer._check = None  # the core's own deadline: a chance commitment owed (quick)
        assert peer.core.owing() == (2,) and peer.core.expects(2) is Kind.CHANCE_COMMIT
        assert 0 < peer._next_check() - time.monotonic() <= 2.0
    finally:
        peer.store.close()
