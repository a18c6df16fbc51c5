"""Private deals between real peers over loopback TCP (protocol.md §7.13): the toy game of
tests/protocol/deal_toy.py, each seat its own peer with its own data directory.  A whole deal,
a seat killed during the shuffles and resumed from its data directory (it sends the same bytes:
no fork, no restart), a seat lost for good during the deal (the deal restarts among the
others), and a cheating peer caught by every honest one, its fault proved in their files."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from protocol.match.events import CardDealt, DeckRestarted, PeerMisbehaved, SeatReplaced
from protocol.mechanisms.deals import Decks
from protocol.wire.messages import Kind

from p2p.peer import MatchPeer, PeerConfig, bot_decider
from p2p.run import resume
from protocol.deck import DeckMessageBody, OpenBody, SharesBody, ShuffleBody
from tests.p2p.conftest import assert_agreed, start_match, verdict_of
from tests.p2p.test_loopback import until
from tests.protocol import deal_toy
from tests.protocol.helpers import other_card, swapped_after_challenge, wrong_share

FAST = PeerConfig(timeouts=(5, 5, 5, 5), linger=0.3)
LOST = PeerConfig(timeouts=(1, 1, 1, 1), linger=0.5)


def sent_deck(peer: MatchPeer, what: str) -> bool:
    return any(m.kind is Kind.DECK and m.body[0] == what for m in peer.local.sent)


@pytest.mark.asyncio
async def test_a_deal_over_loopback_each_seat_learns_its_own_cards(tmp_path: Path) -> None:
    match = await start_match(tmp_path, 3, FAST, game=deal_toy.GAME)
    try:
        results = await match.results(60)
    finally:
        await match.cancel()
    verdicts = assert_agreed([r.path for r in results], 3)
    for r in results:
        learnt = r.core.decks.learnt
        assert sorted(learnt) == [f"deal.{r.seat}.0", f"deal.{r.seat}.1"]
    cards = [c for r in results for c in r.core.decks.learnt.values()]
    assert len(set(cards)) == 6
    assert sum("(the audit)" in n for n in verdicts[0].notes) == 3


@pytest.mark.asyncio
async def test_a_seat_killed_during_the_shuffles_resumes_and_the_deal_completes(
        tmp_path: Path) -> None:
    match = await start_match(tmp_path, 3, FAST, game=deal_toy.GAME)
    resumed: asyncio.Task[Any] | None = None
    try:
        await match.wait_peers(3)
        leaver = match.peers[1]
        task = match.task_of(leaver)
        await until(lambda: sent_deck(leaver, "deck-key"), 30, "seat 1 never sent its key")
        task.cancel()
        await asyncio.wait_for(asyncio.gather(task, return_exceptions=True), 10)
        assert task.cancelled()
        events: list[object] = []
        resumed = asyncio.ensure_future(resume(
            match.dirs[match.tasks.index(task)], decide=bot_decider("random", b"r" * 32),
            config=FAST, on_event=events.append))
        back = await asyncio.wait_for(resumed, 60)
        others = await asyncio.wait_for(asyncio.gather(
            *(t for t in match.tasks if t is not task)), 60)
    finally:
        if resumed is not None:
            resumed.cancel()
        await match.cancel()
    assert back.seat == 1 and back.core.signed
    assert not any(isinstance(e, SeatReplaced | DeckRestarted) for e in events)
    assert sorted(e.event for e in events if isinstance(e, CardDealt) and e.card) == [
        "deal.1.0", "deal.1.1"]  # (learnt again from its stored feed, or dealt after)
    verdicts = assert_agreed([back.path, *(r.path for r in others)], 3)
    for v in verdicts:  # the same bytes: no fork, nobody replaced, no restart
        assert not any("replaced" in n or "restarts" in n for n in v.notes), v.notes


@pytest.mark.asyncio
async def test_a_seat_lost_during_the_deal_makes_it_restart_among_the_others(
        tmp_path: Path) -> None:
    match = await start_match(tmp_path, 3, LOST, game=deal_toy.GAME)
    try:
        await match.wait_peers(3)
        leaver = match.peers[2]
        task = match.task_of(leaver)
        await until(lambda: sent_deck(leaver, "deck-key-commit"), 30,
                    "seat 2 never committed to its key")
        task.cancel()
        await asyncio.wait_for(asyncio.gather(task, return_exceptions=True), 10)
        others = await asyncio.wait_for(asyncio.gather(
            *(t for t in match.tasks if t is not task)), 60)
    finally:
        await match.cancel()
    for r in others:
        assert 2 in r.core.absent and r.core.signed
        assert r.core.decks.attempts["cards"] == 1
        assert r.core.decks.decks["cards"].spec.seats == (0, 1)
    paths = [r.path for r in others]
    for v in assert_agreed(paths, 3):
        assert any("restarts as attempt 1 among seats 0, 1" in n for n in v.notes), v.notes


def _cheating(seat: int, kind: type, lie: Callable[[Any], Any]) -> Callable[..., Any]:
    """:meth:`Decks.next_body` for every peer, with ``seat``'s bodies of ``kind`` made false
    (patched on the class: a peer that rebuilds its core keeps cheating)."""
    original = Decks.next_body

    def next_body(self: Decks, s: int) -> DeckMessageBody | None:
        made = original(self, s)
        if s != seat or made is None or not isinstance(made.body, kind):
            return made
        return DeckMessageBody(lie(made.body))
    return next_body


@pytest.mark.asyncio
@pytest.mark.parametrize(("kind", "lie", "code"), [
    (SharesBody, wrong_share, "bad-shares"),
    (ShuffleBody, swapped_after_challenge, "bad-shuffle"),
    (OpenBody, other_card, "wrong-card"),
], ids=["wrong-share", "shuffle-changed", "open-of-another-card"])
async def test_a_cheat_over_loopback_is_caught_live_and_by_the_verifier(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: type,
        lie: Callable[[Any], Any], code: str) -> None:
    monkeypatch.setattr(Decks, "next_body", _cheating(1, kind, lie))
    match = await start_match(tmp_path, 3, LOST, game=deal_toy.GAME)
    try:
        results = await match.results(60)
    finally:
        await match.cancel()
    honest = [r for r in results if r.seat != 1]
    for r in honest:
        assert r.core.signed and 1 in r.core.absent
        caught = [e for e in r.core.events if isinstance(e, PeerMisbehaved)]
        assert caught and {e.seat for e in caught} == {1}, caught
        assert f"({code})" in caught[0].reason
        v = verdict_of(r.path)
        assert (v.verdict, v.blamed, v.reason_code) == ("invalid", (1,), "bad_deck"), v
