"""The offline line-mode game, driven through ``cli.main.main`` with captured streams."""

from __future__ import annotations

import io
import re

import pytest

from cli.main import main

PROMPT = re.compile(r"^your (card|follow-up)> ")


def run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str],
        stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def assert_readable(out: str, *, width: int = 80) -> None:
    for line in out.splitlines():
        if line.startswith(("illegal ", "unknown action ")):
            continue  # the engine's messages, shown whole on one line
        assert len(line) <= width, line
    assert "\x1b" not in out  # no colour codes in plain mode


@pytest.mark.parametrize("variant", ["basic", "tactical"])
def test_all_bot_game_runs_to_the_scoreboard(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        variant: str) -> None:
    code, out, err = run(monkeypatch, capsys, [
        "play", "--players", "3", "--bots", "3", "--seed", "s", "--deal-seed", "d",
        "--variant", variant])
    assert code == 0, err
    assert err == ""
    assert "OFFLINE" in out
    assert "Final scores" in out
    assert out.count("=== Level ") == 5
    assert len(re.findall(r"^Room \d, ", out, re.M)) == 25
    assert re.search(r"wins with \d+ coins?|Shared win|Nobody wins", out)
    assert "your card>" not in out
    assert_readable(out)


def test_all_bot_game_is_reproducible(monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["play", "--players", "4", "--bots", "4", "--bot-kind", "random", "--seed", "x",
            "--deal-seed", "y"]
    first = run(monkeypatch, capsys, argv)
    second = run(monkeypatch, capsys, argv)
    assert first == second
    assert "cryptcrawl play --bots 4 --bot-kind random --seed x --deal-seed y" in first[1]


def test_human_seat_to_the_end(monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str]) -> None:
    # Each card twice: the second try of a card already played is illegal.
    attempts = "".join(f"play {n}\nplay {n}\n" for n in range(1, 6)) * 60
    code, out, err = run(monkeypatch, capsys, [
        "play", "--players", "3", "--seed", "s", "--deal-seed", "d", "--name", "Ana",
        "--plain", "--data-dir", "/nonexistent"], attempts)
    assert code == 0, err
    assert err == ""
    assert "You are seat A" in out
    assert "A you (Ana)" in out
    assert "Final scores" in out
    lines = out.splitlines()
    errors = [i for i, line in enumerate(lines) if line.startswith("illegal ")]
    assert errors, "the attempts include cards already played"
    assert "illegal 'play 1': you already played your 1 in this level" in lines
    for i in errors:
        assert PROMPT.match(lines[i - 1]), "an error answers a prompt"
        assert PROMPT.match(lines[i + 1]), "and the prompt comes again"
    assert len(re.findall(r"^Room \d, ", out, re.M)) == 25
    assert "Traceback" not in out
    assert_readable(out)


def test_help_look_notation_aliases_and_empty_lines(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(monkeypatch, capsys, [
        "play", "--players", "4", "--seed", "s", "--deal-seed", "d"],
        "?\nlook\n\nfrobnicate\n  PLAY   3 \n4\n")
    assert code == 1  # input ends during a later turn
    assert "How to play (line mode)" in out
    assert "Type a card to play" in out
    assert "unknown action 'frobnicate'" in out
    assert "your card>   PLAY   3" in out
    assert re.search(r"^Room 1, [^:]+: you 3,", out, re.M)
    assert re.search(r"^Room 2, [^:]+: you 4,", out, re.M)
    assert err.count("\n") == 1
    assert "input ended" in err


def test_quit_asks_for_confirmation(monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(monkeypatch, capsys, ["play", "--deal-seed", "d"], "q\nn\nquit\ny\n")
    assert code == 0
    assert out.count("leave the game? [y/N] ") == 2
    assert out.rstrip().endswith("You left the game.")
    assert "Final scores" not in out
    assert err == ""


def test_end_of_input_during_your_turn(monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(monkeypatch, capsys, ["play", "--players", "5", "--deal-seed", "d"])
    assert code == 1
    assert err == ("cryptcrawl: input ended while the game waited for your move; "
                   "you left the game\n")
    assert "your card> " in out


def test_end_of_input_at_the_confirmation(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(monkeypatch, capsys, ["play", "--deal-seed", "d"], "q\n")
    assert code == 1
    assert "input ended" in err


def test_usage_errors_are_one_line(monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["play", "--players", "7"], ["play", "--bots", "1"],
                 ["play", "--players", "3", "--bots", "4"], ["play", "--variant", "hard"],
                 ["play", "--name", ""], ["nope"], []):
        code, out, err = run(monkeypatch, capsys, argv)
        assert code == 2, argv
        assert out == ""
        assert err.count("\n") == 1 and "error" in err, (argv, err)


def test_version_and_help(monkeypatch: pytest.MonkeyPatch,
                          capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(monkeypatch, capsys, ["--version"])
    assert code == 0 and out.startswith("cryptcrawl ")
    code, out, _ = run(monkeypatch, capsys, ["play", "--help"])
    assert code == 0
    assert "OFFLINE" in out and "--deal-seed" in out and "real peer over loopback" in out
