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


def test_the_story_speaks_to_you_in_the_second_person() -> None:
    from cli.text import you_form

    assert you_form("you (A) takes the Mage.") == "You (A) take the Mage."
    assert you_form("You (A) takes the Mage.") == "You (A) take the Mage."  # (a sentence's start)
    assert you_form("You (A) plays first.") == "You (A) play first."
    assert you_form("you shows the power dealt to them: Healer.") == (
        "You show the power dealt to you: Healer.")
    assert you_form("you's kept objective: O3.") == "Your kept objective: O3."
    assert you_form("  you is dealt a power") == "  You are dealt a power"
    assert you_form("Bot 1 takes the Knight.") == "Bot 1 takes the Knight."


def test_a_twister_player_reads_what_only_they_know_of_their_own_moves() -> None:
    from cli.games import make_ui
    from cli.plugin import Seating

    ui = make_ui("twister", 2, {}, Seating(("you", "Bo"), 0))
    assert ui.own_move("place 3 speed_potion") == [
        "(Only you know it: your Speed Potion lies face down on slot 3.)"]
    assert "Cleric on 0,1, Goblin on 0,3" in " ".join(" ".join(ui.own_move(
        "team cleric goblin thief troll")).split())
    assert ui.own_move("card 3") == []
