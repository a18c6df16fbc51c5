"""The smaller words of issue 48: the resume hint keeps ``--data-dir``; a seat at a LAN table
never offers a loopback address to spectators; ``join --bot`` says its own bot runs here;
``matches`` says "your seat", never "you's seat"."""

from __future__ import annotations

import io

import pytest

from cli import args
from cli.netplay import NetGame, NetOptions, watch_address
from cli.play import Console


def test_the_resume_hint_keeps_the_data_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(args, "_DATA_DIR", [])
    assert args.resume_command().endswith(" resume")
    args.note_data_dir("/tmp/my games")
    assert args.resume_command().endswith(" resume --data-dir '/tmp/my games'")
    game = NetGame(NetOptions(players=3, bots=1, role="host"), Console(io.StringIO(),
                                                                       io.StringIO()))
    game.seat_table("raiders", {}, ["Ana", "Bo", "Cy"], 0)
    assert "--data-dir '/tmp/my games'" in game.stepped_away()


def test_a_lan_seat_never_offers_a_loopback_address_to_spectators() -> None:
    lan = [("127.0.0.1", 4000), ("192.0.2.7", 4001)]
    host, port = watch_address(lan, 0)
    assert port == 4000 and host != "127.0.0.1" and not host.startswith("127.")
    assert watch_address(lan, 1) == ("192.0.2.7", 4001)
    local = [("127.0.0.1", 4000), ("127.0.0.1", 4001)]  # (every seat on this machine)
    assert watch_address(local, 0) == ("127.0.0.1", 4000)


def test_join_with_a_bot_says_its_bot_runs_here() -> None:
    game = NetGame(NetOptions(role="join"), Console(io.StringIO(), io.StringIO()))
    game.human = False
    assert game.bots_words().startswith("Your seat's bot runs on this machine")
    game.human = True
    assert "host's machine" in game.bots_words() and "Your seat" not in game.bots_words()
