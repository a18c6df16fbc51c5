"""A typo never ends the program (issue 48): a placement typed without its token, in line mode
or after ``:`` on the full screen, is refused in one line and the prompt stays; the engine and
the protocol never see it."""

from __future__ import annotations

import asyncio
import io
from types import SimpleNamespace
from typing import Any, cast

from cli.inputs import Typed
from cli.netplay import NetGame, NetOptions
from cli.play import Console
from cli.tui import FullScreenGame
from engine.core import Turn
from engine.games import get_game
from engine.sim import Dealer, play_out
from p2p.peer import MatchPeer

REFUSED = "place needs a slot and a token, e.g. place 2 rope"


def _placing() -> Any:
    spec = get_game("twister")
    found: list[Any] = []
    play_out(spec.new(players=2), [spec.bots["random"]() for _ in range(2)], Dealer(b"typo"),
             on_state=lambda s: found.append(s) if s.phase == "place" and isinstance(
                 s.waiting, Turn) else None)
    return found[0]


def test_line_mode_refuses_a_placement_without_its_token() -> None:
    state = _placing()
    seat = state.waiting.seat
    out = io.StringIO()
    token = state.format_action(state.legal_actions(seat)[0]).split()[2]
    game = NetGame(NetOptions(players=2, bots=1, game="twister"),
                   Console(io.StringIO(f"place 2\nplace 2 {token}\n"), out))
    game.seat_table("twister", {}, ["Ann", "Bob"], seat)
    assert game._choose_blocking(state, seat) == f"place 2 {token}"
    assert REFUSED in out.getvalue()


class _Peer:
    """What the full screen reads of its match peer here: the seat and the state it decides on
    (and no pause agreed)."""

    def __init__(self, state: Any, seat: int) -> None:
        self.seat = seat
        self.local = SimpleNamespace(decision_state=lambda: state, hold_reclaim=False)
        self.core = SimpleNamespace(agreements=SimpleNamespace(paused=False),
                                    turn_timeout=lambda seat: 90.0)


def test_full_screen_refuses_a_typed_placement_without_its_token() -> None:
    state = _placing()
    seat = state.waiting.seat
    game = FullScreenGame(NetOptions(players=2, bots=1, game="twister", bell=False),
                          Console(io.StringIO(), io.StringIO()))
    game.peer = cast(MatchPeer, _Peer(state, seat))
    game.seat_table("twister", {}, ["Ann", "Bob"], seat)

    async def go() -> None:
        game.state = state
        game.model = game.plugin.inputs(state, seat)
        game.choice = asyncio.get_running_loop().create_future()
        game._press(":")
        assert isinstance(game.model, Typed)
        for key in "place 2":
            game._press("space" if key == " " else key)
        game._press("enter")
        assert REFUSED in game.screen.message
        assert not game.choice.done() and game.selected == ""
        token = state.format_action(state.legal_actions(seat)[0]).split()[2]
        for key in f" {token}":
            game._press("space" if key == " " else key)
        game._press("enter")
        assert game.choice.done() and game.choice.result() == f"place 2 {token}"

    asyncio.run(go())


def test_a_card_that_cannot_be_played_says_why_and_the_playable_ones_are_named() -> None:
    """Issue 48: an action card's digit the rules refuse now was silently ignored."""
    spec = get_game("twister")
    found: list[Any] = []
    play_out(spec.new(players=2), [spec.bots["random"]() for _ in range(2)], Dealer(b"cards"),
             on_state=lambda s: found.append(s) if s.phase == "card" and len(
                 s.legal_actions(s.waiting.seat)) < 4 else None)
    state = found[0]
    seat = state.waiting.seat
    playable = sorted(a.n for a in state.legal_actions(seat))
    refused = next(n for n in range(2, 6) if n not in playable)
    game = FullScreenGame(NetOptions(players=2, bots=1, game="twister", bell=False),
                          Console(io.StringIO(), io.StringIO()))
    game.peer = cast(MatchPeer, _Peer(state, seat))
    game.seat_table("twister", {}, ["Ann", "Bob"], seat)
    assert f"({', '.join(map(str, playable))} playable)" in game.plugin.move_note(
        state.view(seat))

    async def go() -> None:
        game.state = state
        game.model = game.plugin.inputs(state, seat)
        game.choice = asyncio.get_running_loop().create_future()
        game._press(str(refused))
        assert f"illegal 'card {refused}'" in game.screen.message, game.screen.message
        assert game.selected == ""
        game._press(str(playable[0]))
        assert game.selected == f"card {playable[0]}"

    asyncio.run(go())
