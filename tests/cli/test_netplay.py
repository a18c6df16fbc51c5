"""``cryptcrawl play`` over the network: every bot a real peer on loopback, the match file
checked by ``cryptcrawl verify`` afterwards."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.cli.test_command import ROOT, cryptcrawl


def _match_file(stdout: str) -> Path:
    found = re.search(r"The match file: (\S+\.crawl)", stdout)
    assert found, stdout[-2000:]
    return Path(found.group(1))


def test_all_bot_match_over_loopback_verifies(tmp_path: Path) -> None:
    out = tmp_path / "copy.crawl"
    result = cryptcrawl("play", "--players", "3", "--bots", "3", "--seed", "s",
                        "--data-dir", str(tmp_path / "data"), "--out", str(out), timeout=120)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "Final scores" in result.stdout
    assert "No dealer" in result.stdout and "key " in result.stdout
    assert _match_file(result.stdout) == out and out.exists()
    check = cryptcrawl("verify", str(out))
    assert check.returncode == 0, check.stdout + check.stderr
    assert "VALID" in check.stdout
    # The match was stored under the data directory (never the real one), its seed deleted.
    data = tmp_path / "data" / "matches"
    assert list(data.glob("*.crawl")) and not list(data.glob("*.seed"))


def test_a_person_plays_a_whole_match_from_standard_input(tmp_path: Path) -> None:
    """Five levels of cards typed on standard input (the highest legal card each time is not
    needed: a wrong one gets a one-line error and the next line is tried)."""
    lines = "\n".join(["play 5", "play 4", "play 3", "play 2", "play 1", "play sword",
                       "play key", "play torch", "play crystal"] * 40) + "\n"
    result = cryptcrawl("play", "--players", "3", "--seed", "t", "--name", "Ana",
                        "--data-dir", str(tmp_path / "data"), "--timeouts", "30,30,30,20",
                        stdin=lines, timeout=180)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Final scores" in result.stdout
    assert "your card> " in result.stdout
    check = cryptcrawl("verify", "--json", str(_match_file(result.stdout)))
    assert check.returncode == 0, check.stdout
    assert '"status": "valid"' in check.stdout


def test_a_person_offers_a_pause_and_a_draw_from_the_prompt(tmp_path: Path) -> None:
    """``pause`` offers the bots a pause (they agree: no clock runs), ``draw`` is refused
    (Dungeon Raiders has no draw by agreement), ``help`` lists the table's commands, and the
    file notes the pause (protocol.md §7.7)."""
    lines = "\n".join(["help", "pause", "draw", "accept"] + [
        "play 5", "play 4", "play 3", "play 2", "play 1", "play sword", "play key",
        "play torch", "play crystal", "resume"] * 40) + "\n"
    result = cryptcrawl("play", "--players", "3", "--seed", "t", "--name", "Ana",
                        "--data-dir", str(tmp_path / "data"), "--timeouts", "30,30,30,20",
                        stdin=lines, timeout=180)
    assert result.returncode == 0, result.stderr[-2000:]
    out = result.stdout
    assert "accept / decline" in out  # (the help)
    assert "You offer a pause" in out
    assert "everyone agreed. The match is paused" in out
    assert "No draw: raiders has no draw by agreement." in out
    assert "Nobody is offering anything." in out
    assert "resumed the match" in out
    assert "Final scores" in out
    check = cryptcrawl("verify", "--json", str(_match_file(out)))
    assert check.returncode == 0, check.stdout
    assert "offered a pause" in check.stdout


def test_an_offer_to_a_person_waits_for_their_answer() -> None:
    """Another seat's offer is shown with how to answer; the seat's answer is the person's
    (None — the match waits — until they give it), and it reaches the peer."""
    import io
    from types import SimpleNamespace

    from cli.netplay import NetGame, NetOptions
    from cli.play import Console
    from protocol.match.events import OfferMade, OfferSettled

    out = io.StringIO()
    game = NetGame(NetOptions(players=3, bots=2), Console(io.StringIO(), out))
    woken: list[bool] = []
    local = SimpleNamespace(answering=None)
    game.peer = SimpleNamespace(seat=0, local=local,  # type: ignore[assignment]
                                answered=lambda: woken.append(True))
    game.labels = ("you", "Bea", "Cy")
    game.choosing = True  # (the prompt of a decision is up: answered there)
    local.answering = lambda offerer, what: game.my_answers.get(offerer)
    game._on_agreement(OfferMade(1, 7, "draw"))
    assert "Your answer: type accept or decline." in out.getvalue()
    assert local.answering(1, "draw") is None and game.offers_to_me == {1: "draw"}
    assert game.answer_offers(False) == "You declined."
    assert local.answering(1, "draw") is False and woken == [True]
    game._on_agreement(OfferSettled(1, 7, "draw", False, (0,)))
    assert game.offers_to_me == {}
    assert game.answer_offers(True) == "Nobody is offering anything."


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="finds processes in /proc")
def test_strong_bots_play_a_match_each_thinking_in_a_process_of_its_own(
        tmp_path: Path) -> None:
    """``--bot strong``: the bots are named for their level, each thinks in a child process
    (python -m p2p.think), the match verifies, and no child is left behind (the children
    inherit the command's environment, so a tag in it finds them)."""
    tag = f"CRYPTCRAWL_TEST_TAG={tmp_path}"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CRYPTCRAWL_TEST_TAG": str(tmp_path)}
    seen: set[int] = set()
    with subprocess.Popen(
            [sys.executable, "-m", "cli.main", "play", "--game", "kards", "--players", "2",
             "--bots", "2", "--bot", "strong", "--speed", "fast", "--data-dir",
             str(tmp_path / "data")], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env) as proc:
        for _ in range(6000):  # (bounded: 10 minutes)
            seen |= _tagged(tag, "p2p.think")
            if proc.poll() is not None:
                break
            time.sleep(0.1)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err[-2000:]
    assert len(seen) == 2  # one child process a bot
    assert "seat A Bot 0 (strong)" in out and "seat B Bot 1 (strong)" in out
    check = cryptcrawl("verify", str(_match_file(out)))
    assert check.returncode == 0, check.stdout + check.stderr
    assert not _tagged(tag, "p2p.think")


def _tagged(tag: str, command: str) -> set[int]:
    """The processes whose environment holds ``tag`` and whose command line names
    ``command``."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes().split(b"\0")
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if tag.encode() in environ and command.encode() in cmdline:
            found.add(int(entry.name))
    return found


@pytest.mark.slow
def test_an_offline_game_of_easy_bots_deals_again_with_its_level() -> None:
    result = cryptcrawl("play", "--bot", "easy", "--players", "3", "--bots", "3", "--seed", "s",
                        "--deal-seed", "d", timeout=120)
    assert result.returncode == 0, result.stderr
    assert "Unattended game: 3 easy bots play each other" in result.stdout
    assert "--bot easy --seed s --deal-seed d" in result.stdout
