"""The full screen's clock under an agreed pause (issue 48): it stands still while the pause
lasts ("Paused by agreement: no clock runs" says the time left), goes on from the same value
after it, and past the move's timeout says when a bot takes the seat instead of sitting at 0."""

from __future__ import annotations

import asyncio
import io
from types import SimpleNamespace
from typing import Any, cast

import pytest

import cli.tui
from cli.netplay import NetOptions
from cli.play import Console
from cli.text import text_of
from cli.tui import FullScreenGame
from engine.core import Turn
from engine.games import get_game
from engine.sim import Dealer, play_out
from p2p.peer import MatchPeer


class _Now:
    def __init__(self) -> None:
        self.t = 1000.0

    def monotonic(self) -> float:
        return self.t


def _turn_state() -> Any:
    spec = get_game("kards")
    found: list[Any] = []
    play_out(spec.new(players=2), [spec.bots["random"]() for _ in range(2)], Dealer(b"clock"),
             on_state=lambda s: found.append(s) if isinstance(s.waiting, Turn)
             and s.waiting.seat == 0 and s.turn else None)
    return found[0]


def test_the_clock_stands_still_in_a_pause_and_goes_on_from_there(
        monkeypatch: pytest.MonkeyPatch) -> None:
    now = _Now()
    monkeypatch.setattr(cli.tui, "time", now)
    state = _turn_state()
    agreements = SimpleNamespace(paused=False)
    core = SimpleNamespace(agreements=agreements, turn_timeout=lambda seat: 90.0,
                           clock=SimpleNamespace(since=1000.0),
                           config=SimpleNamespace(silence_timeout=60.0))
    peer = SimpleNamespace(seat=0, core=core, local=SimpleNamespace(
        decision_state=lambda: state, hold_reclaim=False))
    game = FullScreenGame(NetOptions(players=2, bots=1, game="kards", bell=False),
                          Console(io.StringIO(), io.StringIO()))
    game.peer = cast(MatchPeer, peer)
    game.seat_table("kards", {}, ["Ana", "Bo"], 0)

    def status() -> str:
        return " ".join(text_of(row) for row in game._status(80))

    async def go() -> None:
        task = asyncio.ensure_future(game.choose(state, 0))
        await asyncio.sleep(0)
        now.t += 8
        assert "(82 s left)" in status()
        agreements.paused = True
        assert "no clock runs (your move: 82 s left when it resumes)" in status()
        now.t += 26  # (a 26 s pause)
        assert "82 s left when it resumes" in status()
        agreements.paused = False
        assert "(82 s left)" in status()
        now.t += 10
        assert "(72 s left)" in status()
        agreements.paused = True  # (a second pause)
        status()
        now.t += 40
        agreements.paused = False
        assert "(72 s left)" in status()
        now.t += 100  # past the move's timeout: when the bot takes the seat, from the match
        core.clock.since = now.t - 95
        assert "your time is up: a bot takes your seat in about 55 s" in status()
        task.cancel()

    asyncio.run(go())
