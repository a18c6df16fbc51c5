"""A searching bot thinks in a child process of its own (p2p/decide.py, p2p/think.py): the same
choice as in this process, and the peer goes on answering while its bot thinks.

The responsiveness test is event based: the bot in the child thinks until the test lets it go,
and the test lets it go only after the peer, meanwhile, has taken the other seats' commitments
and answered a WANT on the event loop.  A peer that thought on its loop would never get there
(the held bot gives up after 30 s, and the test then fails).
"""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path
from typing import Any, cast

import pytest

from benchmarks.scenario import raiders_network
from engine.core import Simultaneous
from engine.games import get_game
from engine.sim import Dealer, play_out
from p2p.decide import BotDecider, ThinkError
from p2p.peer import Link, MatchPeer, PeerConfig
from p2p.store import MatchStore
from p2p.wire import Frame, FrameKind
from protocol.wire.messages import CommitBody, Kind, Message
from tests.p2p.conftest import FakeWriter
from tests.p2p.thinkers import HELD

SEAT = 1
STEP = "L1.R1.play"


async def until(check: Any, what: str, tries: int = 3000) -> None:
    """Wait (on the event loop, at most ``tries`` hundredths of a second) until ``check()``."""
    for _ in range(tries):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")


def raiders_state() -> Any:
    spec = get_game("raiders")
    found: list[Any] = []

    def on(state: Any) -> None:
        if isinstance(state.waiting, Simultaneous) and len(found) < 4:
            found.append(state)

    play_out(spec.new(players=3), [spec.bots["heuristic"]() for _ in range(3)],
             Dealer(b"think"), on_state=on, record=False, until=lambda s: len(found) >= 4)
    return found[-1]


@pytest.mark.asyncio
async def test_the_child_chooses_as_this_process_does_and_stops() -> None:
    state = raiders_state()
    seat = min(state.waiting.pending)
    here = BotDecider("strong", b"s" * 32, make="tests.p2p.thinkers:small_strong")
    there = BotDecider("strong", b"s" * 32, make="tests.p2p.thinkers:small_strong")
    assert there.searches("raiders") and not BotDecider("normal", b"").searches("raiders")
    try:
        assert await there.think(state, seat) == here(state, seat)
        # A second decision goes to the same child (the keys advance alike on both sides).
        assert await there.think(state, seat) == here(state, seat)
        child = there._child
        assert child is not None
    finally:
        await there.aclose()
    assert child._process.returncode is not None  # the child process has ended


@pytest.mark.asyncio
async def test_a_bot_that_fails_in_the_child_is_a_think_error() -> None:
    state = raiders_state()
    decider = BotDecider("strong", b"s" * 32, make="tests.p2p.thinkers:no_such_bot")
    try:
        with pytest.raises(ThinkError, match="no_such_bot"):
            await decider.think(state, min(state.waiting.pending))
    finally:
        await decider.aclose()


@pytest.mark.asyncio
async def test_the_peer_answers_while_its_bot_thinks(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    base = str(tmp_path / "held")
    monkeypatch.setenv(HELD, base)
    net = raiders_network(3, "basic", tag=b"think")
    net.pump()
    store = MatchStore(tmp_path, net.header.match_id)
    seed = hashlib.sha256(b"think" + b"seed%d" % SEAT).digest()  # (the mesh's seat 1)
    store.create(net.header, seed, {})
    decider = BotDecider("strong", seed, make="tests.p2p.thinkers:held")
    peer = MatchPeer(net.header, SEAT, net.keys[SEAT], seed, store, [("127.0.0.1", 1)] * 3,
                     decide=decider, config=PeerConfig(bot_think=0))
    writer = FakeWriter()  # seat 0's connection
    peer.links = {0: Link(0, cast(Any, None), cast(Any, writer)),
                  2: Link(2, cast(Any, None), cast(Any, FakeWriter()))}
    commits = [m for m in net.log if m.seat != SEAT and isinstance(m.content, CommitBody)
               and m.content.step == STEP]
    first = min(net.log.index(m) for m in commits)
    loop = asyncio.get_running_loop()

    def deliver(message: Message) -> None:
        peer._on_frame(peer.links[2 if message.seat == 2 else 0],
                       Frame(FrameKind.MSG, (message.encode(),)))

    def sent(kind: FrameKind) -> list[Frame]:
        return [f for f in writer.frames() if f.kind is kind]

    def for_step() -> list[Kind]:
        """What this seat sent for the step (the WANT's answer relays the others' too)."""
        return [m.kind for m in (Message.decode(f.fields[0]) for f in sent(FrameKind.MSG))
                if m.seat == SEAT and getattr(m.content, "step", None) == STEP]

    try:
        for message in net.log[:first]:
            if message.seat != SEAT:
                deliver(message)
        await until(lambda: Path(base + ".started").exists(), "the bot starts thinking")
        assert decider.thinking and for_step() == []
        # While it thinks: the others' commitments come in, and seat 0 asks for seat 2's feed.
        for message in commits:
            loop.call_soon(deliver, message)
        before = len(sent(FrameKind.MSG))
        loop.call_soon(peer._on_frame, peer.links[0], Frame(FrameKind.WANT, (2, 0)))
        await until(lambda: len(sent(FrameKind.MSG)) > before, "the WANT is answered")
        assert decider.thinking and for_step() == []  # still thinking, and nothing sent for it
        Path(base + ".go").touch()  # let the bot decide
        await until(lambda: for_step(), "the bot's move goes out")
        # It held every other seat's commitment when it decided: it reveals at once.
        assert for_step() == [Kind.REVEAL] and not decider.thinking
    finally:
        Path(base + ".go").touch()
        child = decider._child
        await decider.aclose()
        peer.store.close()
    assert child is not None and child._process.returncode is not None
