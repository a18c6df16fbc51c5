"""Network faults: every connection of a three-seat match passes through a fault-injecting
relay (:class:`~tests.adversary.conftest.Relay`, asyncio, loopback only) — the kernel here has
no ``netem``.  Delay with jitter, frames cut into single bytes, stalls of several seconds,
connection resets, a link cut for 20 s and restored, a seat cut off for 20 s; and a peer
process killed and restarted twice in one match.  Every match must finish, every copy must
verify, and the copies must agree.

A lower seat dials a higher one, so with a relay in front of every joiner's listener each
connection of the mesh passes through exactly one relay; the relay in front of seat 1 carries
only the link 0–1, the one in front of seat 2 both links of seat 2.

The long ones are marked ``slow`` (``-m slow``); the default run keeps the quick ones.
"""

from __future__ import annotations

import asyncio
import signal
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from protocol.wire.transcript import read_transcript

from p2p.peer import PeerConfig, bot_decider
from tests.adversary.conftest import (
    Faults,
    InProcess,
    Proc,
    Processes,
    Relay,
    finished,
    in_process_match,
    replay,
    verdict_of,
    wait_for,
)

QUICK_TURN, QUICK_SILENCE = 1.5, 1.5  # (every timeout of the match: PeerConfig.timeouts)
QUICK = PeerConfig(timeouts=(QUICK_TURN, QUICK_TURN, QUICK_TURN, QUICK_SILENCE), linger=0.5)
PATIENT = PeerConfig(timeouts=(4.0, 4.0, 4.0, 4.0), linger=0.5)


async def through_relays(root: Path, faults: Faults, config: PeerConfig,
                         timeout: float) -> tuple[InProcess, list[Path], float]:
    """A three-seat in-process match with ``faults`` on every connection; its files."""
    start = time.monotonic()
    match = await in_process_match(root, 3, config,
                                   relay=lambda i, port: Relay(port, faults, seed=i))
    try:
        results = await match.results(timeout)
    finally:
        await match.cancel()
    return match, [r.path for r in results], time.monotonic() - start


def agreed(paths: list[Path]) -> list[str]:
    """Every copy valid, one result; the notes of the first."""
    verdicts = [verdict_of(p) for p in paths]
    for path, v in zip(paths, verdicts, strict=True):
        assert v.verdict == "valid", f"{path}: {v.verdict}: {v.reason} {v.notes}"
    assert len({v.final_digest for v in verdicts}) == 1, "the copies disagree"
    assert len({read_transcript(p.read_bytes()).header.match_id for p in paths  # type: ignore[union-attr]
                }) == 1
    return list(verdicts[0].notes)


# --------------------------------------------------------------------------- quick


@pytest.mark.asyncio
async def test_connection_resets_are_survived(tmp_path: Path) -> None:
    faults = Faults(reset_every=0.04, max_resets=12)
    match, paths, took = await through_relays(tmp_path, faults, QUICK, 90)
    assert sum(r.resets for r in match.relays) >= 5, "too few resets to mean anything"
    agreed(paths)
    print(f"resets: {sum(r.resets for r in match.relays)} resets, "
          f"{sum(r.connections for r in match.relays)} connections, {took:.1f} s")


@pytest.mark.asyncio
async def test_frames_cut_into_single_bytes(tmp_path: Path) -> None:
    match, paths, took = await through_relays(tmp_path, Faults(split=True), QUICK, 120)
    assert not any("replaced" in n for n in agreed(paths))
    print(f"single bytes: {sum(r.bytes for r in match.relays)} bytes relayed, {took:.1f} s")


# --------------------------------------------------------------------------- slow


@pytest.mark.slow
@pytest.mark.asyncio
async def test_delay_150ms_with_jitter(tmp_path: Path) -> None:
    _match, paths, took = await through_relays(tmp_path, Faults(delay=0.15, jitter=0.1),
                                              PATIENT, 600)
    notes = agreed(paths)
    print(f"delay 150 ms + jitter 0-100 ms: {took:.1f} s; notes {notes}")


@pytest.mark.slow
@pytest.mark.asyncio
async def test_stalls_of_several_seconds(tmp_path: Path) -> None:
    """Every 6 kB each direction of each connection stalls for 3 s (turn timeout 1.5 s: the
    others ask a third seat for what is stuck; a seat may even be voted out and reclaim)."""
    faults = Faults(stall_every=6000, stall_for=3.0)
    _match, paths, took = await through_relays(tmp_path, faults, QUICK, 600)
    notes = agreed(paths)
    print(f"stalls: {took:.1f} s; notes {notes}")


def thinking(seconds: float) -> Any:
    """The host's decider: a random bot that takes ``seconds`` over every decision (so the
    match outlasts a 20 s cut)."""
    bot = bot_decider("random", b"t" * 32)

    async def choose(state: Any, seat: int) -> str:
        await asyncio.sleep(seconds)
        return bot(state, seat)
    return choose


@dataclass
class Cut:
    """What a cut left: every seat's file, the seats whose task finished, and each live
    core's replaced seats next to those of a replay of that seat's own file."""

    paths: dict[int, Path]
    finished: set[int]
    live_absent: dict[int, set[int]]
    file_absent: dict[int, set[int]]
    connections: int


async def under_way(match: InProcess) -> dict[int, Relay]:
    """Wait (at most 30 s) until every seat sits and 40 messages are in; the relay in front of
    each joiner's seat."""
    async def begun() -> None:
        while len(match.peers) < 3 or sum(
                len(f.messages) for f in match.peers[0].core.feeds) < 40:
            await asyncio.sleep(0.01)
    await asyncio.wait_for(begun(), 30)
    ports = {p.sock.getsockname()[1]: s for s, p in match.peers.items() if p.sock}
    return {ports[r.target]: r for r in match.relays}


async def cut_for(root: Path, front: int, seconds: float, *, after: float = 20.0) -> Cut:
    """Cut every connection through the relay in front of seat ``front`` once the match is
    under way, keep it cut for ``seconds``, restore it; wait for every seat (at most
    ``after`` s once two of them have finished).  The host thinks 1 s over each decision,
    so the match lasts well past the cut."""
    match = await in_process_match(root, 3, QUICK, choose=thinking(1.0),
                                   relay=lambda i, port: Relay(port, seed=i))
    try:
        relay = (await under_way(match))[front]
        relay.cut()
        await asyncio.sleep(seconds)
        assert not any(t.done() for t in match.tasks), "the match ended during the cut"
        relay.restore()
        await asyncio.wait(match.tasks, timeout=180, return_when=asyncio.FIRST_COMPLETED)
        await asyncio.wait(match.tasks, timeout=after)
        done = {s for s, p in match.peers.items()
                if match.task_of(p).done() and not match.task_of(p).cancelled()}
        live = {s: set(p.core.absent) for s, p in match.peers.items()}
        paths = {s: p.store.path for s, p in match.peers.items()}
    finally:
        await match.cancel()
    return Cut(paths, done, live, {s: set(replay(p).absent) for s, p in paths.items()},
               relay.connections)


@pytest.mark.asyncio
async def test_a_seat_gone_for_good_while_the_others_link_is_cut(tmp_path: Path) -> None:
    """Seat 2's peer stops for good (its task ended, every connection to it cut) while the link
    0–1 is cut past both timeouts twice, then restored: seats 0 and 1 voted each other absent,
    and the votes seat 2 owes on them never come.  They settle (protocol.md §7.6 item 8): each
    signs that seat 2 is silent, seat 2 is replaced, and they finish with copies that agree and
    name it.  (Before settlements this match waited for good.)"""
    match = await in_process_match(tmp_path, 3, QUICK, choose=thinking(0.3),
                                   relay=lambda i, port: Relay(port, seed=i))
    try:
        front = await under_way(match)
        gone = match.task_of(match.peers[2])
        front[2].cut()
        front[1].cut()
        gone.cancel()
        await asyncio.sleep(2 * (QUICK_TURN + QUICK_SILENCE) + 1)
        assert not any(match.task_of(match.peers[s]).done() for s in (0, 1))
        front[1].restore()
        live = [match.task_of(match.peers[s]) for s in (0, 1)]
        await asyncio.wait_for(asyncio.gather(*live), 120)
        paths = [match.peers[s].store.path for s in (0, 1)]
    finally:
        await match.cancel()
    notes = agreed(paths)
    assert any("seat 2" in n and "settled" in n for n in notes), notes
    for path in paths:
        assert 2 in replay(path).absent


@pytest.mark.asyncio
async def test_a_link_that_carries_one_way_only_is_closed_and_dialled_again(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Seat 1's frames to seat 0 stop for 5 s while seat 0's still go (the relay holds one
    direction back, losing nothing).  Seat 0 hears nothing on the link for its link silence
    (1 s), closes it and dials again — so seat 1 does not go on hearing a seat that cannot hear
    it (network.md §4).  Once the path carries both ways again the match finishes, and the
    copies agree.  (Before, the half-dead connection stayed open.)"""
    config = PeerConfig(timeouts=(1.5, 1.5, 1.5, 1.5), linger=0.5, link_silence=1.0)
    caplog.set_level("INFO", logger="cryptcrawl.p2p")
    match = await in_process_match(tmp_path, 3, config, choose=thinking(0.3),
                                   relay=lambda i, port: Relay(port, seed=i))
    try:
        front = (await under_way(match))[1]
        before = front.connections
        front.hold_back(1)  # from seat 1 (the listener) to seat 0 (the dialler)
        await asyncio.sleep(5.0)
        redialled = front.connections - before
        front.let_go()
        await asyncio.wait_for(asyncio.gather(*match.tasks), 120)
        paths = [p.store.path for p in match.peers.values()]
    finally:
        await match.cancel()
    assert redialled >= 1, "the link that carried one way only stayed open"
    assert any("closing the connection of seat 1: nothing heard" in r.getMessage()
               for r in caplog.records), [r.getMessage() for r in caplog.records][-20:]
    agreed(paths)


@pytest.mark.slow
@pytest.mark.asyncio
async def test_one_link_cut_for_20s_then_restored(tmp_path: Path) -> None:
    """The link 0–1 is cut for 20 s: seats 0 and 1 get each other's messages from seat 2 on
    request (a turn timeout per stall), and nobody needs to be voted out."""
    cut = await cut_for(tmp_path, 1, 20.0)
    assert cut.finished == {0, 1, 2}
    notes = agreed(list(cut.paths.values()))
    print(f"link 0-1 cut for 20 s: notes {notes}, {cut.connections} connections through it")


@pytest.fixture(scope="module")
def seat_cut_off(tmp_path_factory: pytest.TempPathFactory) -> Cut:
    """Seat 2 (both of its links) cut off for 20 s, then restored."""
    return asyncio.run(cut_for(tmp_path_factory.mktemp("cut-off"), 2, 20.0))


@pytest.mark.slow
def test_a_seat_cut_off_for_20s_does_not_stop_the_others(seat_cut_off: Cut) -> None:
    cut = seat_cut_off
    assert {0, 1} <= cut.finished
    notes = agreed([cut.paths[0], cut.paths[1]])
    assert any(n.startswith("seat 2 was replaced") for n in notes), notes
    print(f"seat 2 cut off for 20 s: finished {sorted(cut.finished)}; live cores replaced "
          f"{cut.live_absent}; their files replaced {cut.file_absent}; notes {notes}")


@pytest.mark.slow
def test_a_seat_cut_off_for_20s_comes_back(seat_cut_off: Cut) -> None:
    """rationale.md §3: a link slower than both timeouts "looks like absence (and can be
    undone by reclaiming)"; network.md: every copy holds the same state."""
    cut = seat_cut_off
    assert cut.live_absent[2] == cut.file_absent[2], (cut.live_absent, cut.file_absent)
    assert cut.finished == {0, 1, 2}


def test_a_peer_killed_and_restarted_twice_in_one_match(tmp_path: Path) -> None:
    procs = Processes(tmp_path, turn=2.0, silence=2.0)
    try:
        host, port = procs.host(3)
        j1, j2 = procs.join("j1", port), procs.join("j2", port)
        peer = j1
        sizes = []
        for _ in range(2):
            before = peer.match_file().stat().st_size if peer.match_file() else 0

            def grown(watched: Proc = peer, floor: int = before) -> bool:
                path = watched.match_file()
                return path is not None and path.stat().st_size > floor + 15_000
            wait_for(grown, 40.0, lambda: "the match file did not grow",
                     alive=[peer, host, j2], poll=0.002)
            peer.proc.send_signal(signal.SIGKILL)
            peer.proc.wait(10)
            path = peer.match_file()
            assert path is not None
            sizes.append(path.stat().st_size)
            assert verdict_of(path).verdict == "incomplete"
            peer = procs.resume(peer)
        paths = [finished(p) for p in (host, peer, j2)]
        notes = agreed(paths)
        t = read_transcript(paths[1].read_bytes())
        assert not t.equivocations and not t.problems
        print(f"killed twice at {sizes} bytes; notes {notes}")
    finally:
        procs.close()
