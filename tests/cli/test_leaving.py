"""Leaving a LAN match, told truly (issue 48): the choices say what happens in this match (a
two-seat match ends when one leaves, a game with no bot for a replaced seat forfeits it, a
silent seat of two may be claimed), and a seat that left for good or resigned stays on its
screen, read-only, until the match's end completes its copy."""

from __future__ import annotations

import asyncio
import io
from types import SimpleNamespace
from typing import Any, cast

from cli.netplay import NetGame, NetOptions
from cli.play import Console
from cli.text import text_of
from cli.tui import FullScreenGame
from p2p.peer import MatchPeer


class _Peer:
    """What the leaving words and the screen read of a match peer."""

    def __init__(self, live: int) -> None:
        self.seat = 0
        self.core = SimpleNamespace(live_seats=lambda: tuple(range(live)),
                                    agreements=SimpleNamespace(paused=False),
                                    turn_timeout=lambda seat: 90.0, version=2,
                                    ending=SimpleNamespace(ended=False),
                                    state=SimpleNamespace(resign=lambda seat: None))
        self.local = SimpleNamespace(decision_state=lambda: None, hold_reclaim=False)
        self.left: list[bool] = []

    async def leave(self, *, resign: bool = False) -> bool:
        self.left.append(resign)
        return True


def _game(game: str, players: int, live: int, cls: Any = NetGame) -> Any:
    net = cls(NetOptions(players=players, bots=players - 1, game=game, bell=False),
              Console(io.StringIO(), io.StringIO()))
    net.peer = cast(MatchPeer, _Peer(live))
    net.seat_table(game, {}, ["Ana", *(f"Bot {i}" for i in range(1, players))], 0)
    return net


def test_the_choices_say_what_leaving_does_in_this_match() -> None:
    four = _game("raiders", 4, 4)
    assert "l: leave for good (a bot plays your seat" in four.quit_choices()
    assert "past the timeouts a bot plays your seat" in four.quit_choices()
    two = _game("kards", 2, 2)
    assert "with one player left the match ends here" in two.quit_choices()
    assert "a bot plays your seat" not in two.quit_choices()
    assert "the other player may claim the match" in two.quit_choices()
    assert "the other player may claim the match" in two.stepped_away()
    twister = _game("twister", 2, 2)
    assert "a bot" not in twister.quit_choices() + twister.stepped_away()
    assert "a bot" not in twister.departed_words(resign=False)
    assert "the match ends here" in two.departed_words(resign=True)


def test_a_seat_that_resigned_stays_on_its_screen_until_the_end() -> None:
    game = _game("kards", 3, 3, FullScreenGame)

    async def go() -> None:
        game._leave_for_good(resign=True)
        assert game._leaving is not None
        await game._leaving
        assert game.departed and game.peer.left == [True]
        assert game.stop is None  # (the match is not stopped: its end completes the copy)
        status = " ".join(text_of(row) for row in game._status(80))
        assert "You are out of this match" in status and "q leaves now" in status
        assert any("You resigned; a bot plays your seat" in text_of(line)
                   for line in game.screen.log.lines)
        game._press("y")  # (a key does nothing, but q)
        assert game.stop is None
        game._press("q")
        assert game.stop is not None

    asyncio.run(go())


def _kards_replay(tag: bytes, depart: Any) -> str:
    from cli.record import replay
    from protocol.mesh import MeshGame, Network

    net = Network(2, MeshGame("kards"), tag)
    net.pump(limit=10, partial=True)
    depart(net)
    data = net.match_file(1)
    out = io.StringIO()
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        path = f"{folder}/m.crawl"
        with open(path, "wb") as f:
            f.write(data)
        assert replay(path, out) == 0
    return out.getvalue()


def test_a_seat_that_left_or_was_claimed_is_not_called_resigned_or_defeated() -> None:
    def leave(net: Any) -> None:
        net.seats[0].leave()
        net.pump()

    left = _kards_replay(b"left words", leave)
    standings = left[left.index("Final standings"):]
    assert "P0: left the match" in standings and "resigned" not in standings, standings
    assert "defeated" not in standings and "off the map (out of the game)" in standings
    assert "A bot plays" not in left  # (the match ends: no bot plays the seat)
    assert "P0 left the match for good." in left

    def go_silent(net: Any) -> None:
        net.crash(0)
        net.run_with_timeouts()

    claimed = _kards_replay(b"claimed words", go_silent)
    standings = claimed[claimed.index("Final standings"):]
    assert "P0: claimed: silent past the timeouts" in standings, standings
    assert "resigned" not in standings and "defeated" not in standings
    assert "P1 claimed the match" in claimed and "seat 1" not in claimed, claimed[-800:]
