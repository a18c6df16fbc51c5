"""``--game``, ``--players``, ``--option KEY=VALUE``, ``--variant`` and ``--bot-kind`` on
``play`` and ``host`` (``--game`` on ``tables``, ``--bot`` on ``join``): checked against the
game's spec, a wrong one a one-line usage error (status 2); every game plays — over the network
where the protocol carries it, offline (``--deal-seed``) everywhere."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli.terminal import Terminal, terminal
from tests.cli.test_command import cryptcrawl

__all__ = ["terminal"]


@pytest.mark.parametrize(("args", "words"), [
    (("play", "--game", "chess"), "argument --game: unknown game 'chess' (known: kards, paper, "
                                  "raiders, twister)"),
    (("play", "--option", "speed=9"), "argument --option: Dungeon Raiders has no option 'speed' "
                                      "(its options: variant)"),
    (("play", "--game", "kards", "--option", "mode=chess"),
     "argument --option: mode is one of auto, arena, coop, solo, not 'chess'"),
    (("play", "--game", "kards", "--option", "nothing"),
     "argument --option: an option is KEY=VALUE, not 'nothing'"),
    (("play", "--game", "kards", "--option", "colour=red"),
     "Dungeons of Kards has no option 'colour' (its options: mode, copies, team_size, events, "
     "abilities, solo_help, counter_budget, round_cap)"),
    (("play", "--game", "kards", "--variant", "basic"),
     "argument --variant: Dungeons of Kards has no variants"),
    (("play", "--variant", "hard"), "argument --variant: variant is one of basic, tactical, "
                                    "not 'hard'"),
    (("play", "--bot-kind", "search"), "argument --bot-kind: Dungeon Raiders has no bot 'search' "
                                       "(its bots: random, heuristic, easy, strong)"),
    (("play", "--bot", "hard"), "argument --bot: a bot level is easy, normal, strong, not "
                                "'hard'"),
    (("host", "--bot", "genius"), "argument --bot: a bot level is easy, normal, strong, not "
                                  "'genius'"),
    (("play", "--bot", "strong", "--bot-kind", "random"),
     "argument --bot-kind: choose the bots by --bot LEVEL or by --bot-kind NAME"),
    (("host", "--players", "4", "--bots", "2", "--bot", "strong", "--bot", "easy", "--bot",
      "normal"), "give --bot once (every bot plays at that level) or once per bot seat (2), "
                 "not 3 times"),
    (("play", "--game", "kards", "--players", "9"),
     "argument --players: Dungeons of Kards is for 1 to 8 players, not 9"),
    (("play", "--game", "kards", "--option", "mode=coop", "--players", "5"),
     "these options do not go together"),
    (("play", "--game", "twister", "--players", "3"),
     "argument --players: Dungeon Twister is for 2 players, not 3"),
    (("host", "--game", "paper", "--players", "1"),
     "a match on the network has 2 seats at least"),
    (("play", "--game", "kards", "--players", "1"), "a match on the network has 2 seats at "
                                                    "least"),
    (("host", "--game", "kards", "--players", "12"), "is for 1 to 8 players, not 12"),
    (("tables", "--game", "chess"), "unknown game 'chess'"),
    (("join", "--bot", "genius"), "argument --bot: 'genius' is no level (easy, normal, strong) "
                                  "and no game has a bot of that name (bots: corner, "),
])
def test_a_wrong_game_argument_is_one_line_and_status_2(args: tuple[str, ...],
                                                       words: str) -> None:
    result = cryptcrawl(*args)
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"cryptcrawl {args[0]}: error: ")
    # (The toy game is registered only in this process, not in the command's.)
    assert words.replace("corner, ", "") in result.stderr, result.stderr
    assert result.stdout == ""


def test_the_variant_stays_an_alias_and_options_reach_the_offline_game() -> None:
    tactical = cryptcrawl("play", "--players", "3", "--bots", "3", "--variant", "tactical",
                          "--seed", "s", "--deal-seed", "d")
    assert tactical.returncode == 0, tactical.stderr
    assert tactical.stdout.startswith("Dungeon Raiders, 3 players, tactical variant.")
    assert "--variant tactical" in tactical.stdout  # the command that deals it again
    same = cryptcrawl("play", "--players", "3", "--bots", "3", "--option", "variant=tactical",
                      "--seed", "s", "--deal-seed", "d")
    assert same.stdout == tactical.stdout


@pytest.mark.parametrize(("game", "players", "options"), [
    ("kards", "3", ["--option", "mode=coop", "--option", "round_cap=12"]),
    ("twister", "2", ["--option", "turn_cap=8"]),
    ("paper", "1", []),
])
def test_every_game_plays_offline_on_the_generic_table(game: str, players: str,
                                                       options: list[str]) -> None:
    result = cryptcrawl("play", "--game", game, "--players", players, "--bots", players,
                        "--seed", "s", "--deal-seed", "d", *options, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "OFFLINE game" in result.stdout and "Final standings" in result.stdout
    assert re.search(r"wins\.|Shared win|Nobody wins", result.stdout)
    again = re.search(r"To deal this game again.*\n  (cryptcrawl play [^\n]+)", result.stdout)
    assert again and f"--game {game}" in again.group(1)
    for option in options[1::2]:
        assert f"--option {option}" in again.group(1)
    assert all(len(line) <= 80 for line in result.stdout.splitlines()
               if not line.startswith("  cryptcrawl play"))


def test_a_person_plays_kards_from_standard_input() -> None:
    """Offline Dungeons of Kards, typed: its table (the arena map), the moves in the game's
    notation, the rules and the help on request, an illegal move refused in one line."""
    lines = ["pick warrior", "pick knight", "rules", "?", "explore now", "look", "q", "y"]
    result = cryptcrawl("play", "--game", "kards", "--seed", "s", "--deal-seed", "d",
                        stdin="".join(f"{line}\n" for line in lines))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Dungeons of Kards, 2 players. OFFLINE game" in out
    assert "your move> pick warrior" in out and "Characters by seat letter" in out
    assert "Choose: pick " in out
    assert "Dungeons of Kards" in out and "A turn (one character)" in out  # rules
    assert "How to play (line mode)" in out
    assert "unknown action" in out or "illegal" in out  # "explore now"
    assert out.rstrip().endswith("You left the game.")


def test_a_person_looks_at_another_paper_sheet_from_standard_input() -> None:
    """Offline Paper Dungeons, typed: your sheet as the table, ``sheet B`` shows seat B's, an
    unknown seat is one line, then leaving."""
    lines = ["sheet B", "sheet Q", "q", "y"]
    result = cryptcrawl("play", "--game", "paper", "--players", "2", "--seed", "s",
                        "--deal-seed", "d", stdin="".join(f"{line}\n" for line in lines))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "@ your party, * explored, 1-3 lairs" in out
    assert "Other seats (sheet B shows B's sheet in full):" in out
    after = out.split("your move> sheet B", 1)[1]
    assert after.lstrip("\n").startswith("B: ") and " 7 |" in after
    assert "sheet of whom? Give a seat's letter or name (A " in out
    assert out.rstrip().endswith("You left the game.")


def test_kards_plays_over_the_network_on_its_table(tmp_path: Path) -> None:
    """Dungeons of Kards over the network (an all-bot match over loopback, line mode) runs to
    the end and verifies."""
    result = cryptcrawl("play", "--game", "kards", "--bots", "2", "--seed", "k",
                        "--data-dir", str(tmp_path), "--timeouts", "30,30,30,20", timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.startswith("Dungeons of Kards, 2 players. Match ")
    assert "Final standings" in result.stdout
    found = re.search(r"The match file: (\S+\.crawl)", result.stdout)
    assert found
    check = cryptcrawl("verify", "--json", found.group(1))
    assert check.returncode == 0 and json.loads(check.stdout)["status"] == "valid"
    history = cryptcrawl("matches", "--data-dir", str(tmp_path))
    # (A Kards match may end drawn: at the round cap, the bots' lives equal.)
    assert "  kards  " in history.stdout and ("won by" in history.stdout
                                             or "  drawn (" in history.stdout)


def test_a_game_without_a_full_screen_table_plays_in_line_mode_on_a_terminal(
        terminal: Callable[..., Terminal], tmp_path: Path) -> None:
    """``play`` and ``resume`` on a terminal, for a game whose plug-in draws no full screen
    (every game of the program has one: Toy Grid under the generic plug-in,
    tests/cli/lineonly): one line says so, and the match is played in line mode — also when the
    game is known only from the match (``resume`` starts as the full screen)."""
    data = str(tmp_path)
    term = terminal(["play", "--game", "toy-grid", "--players", "2", "--data-dir", data,
                     "--timeouts", "60,60,60,40"], module="tests.cli.lineonly")
    term.wait("Toy Grid has no full-screen table yet: line mode (--plain) it is.")
    term.wait("your move>")
    term.send(b"q\r")
    term.wait("leave the game?")
    term.send(b"y\r")
    assert term.finished() == 0, term.text()
    again = terminal(["resume", "--data-dir", data], module="tests.cli.lineonly")
    again.wait("has no full-screen table yet: line mode (--plain) it is.")
    again.wait("your move>")
    assert "\x1b[?1049h" not in again.raw.decode(errors="replace")  # (no alternate screen)
    again.send(b"q\r")
    again.wait("leave the game?")
    again.send(b"y\r")
    assert again.finished() == 0, again.text()
