"""Paper Dungeons full screen (cli/games/paper/screen.py): the compact sheet with the dice
beside it and the room under the cursor, and the plan builder — a die, then its use by cursor
and Tab, three times; the sheet shown as the plan leaves it; every use of every die reachable;
undo part by part — golden screens, and a person's plans entered with the keys on a
pseudo-terminal in a match against a bot over loopback peers, then verified.

Regenerate the golden files after an intended change of what is shown::

    CRYPTCRAWL_UPDATE_GOLDEN=1 python -m pytest -q tests/cli/games/paper/test_screen.py
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cli.games import make_ui
from cli.games.paper.screen import PlanDraft, die_name
from cli.inputs import ListChoice
from cli.plugin import Frame, Seating
from cli.text import text_of
from engine.games import get_game
from engine.paper.data import ROOM_NAMES, ROWS, SKULL
from engine.sim import Dealer, play_out
from tests.cli.games.cursor import NoLive, assert_verifies, reach, selected
from tests.cli.games.golden import check_golden
from tests.cli.terminal import Terminal, terminal

__all__ = ["terminal"]

GOLDEN = Path(__file__).parent / "golden"


def _plans(seed: bytes, players: int = 3) -> list[Any]:
    """Every state of a seeded random game where the plans are asked for."""
    spec = get_game("paper")
    seen: list[Any] = []
    play_out(spec.new(players=players), [spec.bots["random"]() for _ in range(players)],
             Dealer(seed), on_state=seen.append)
    return [s for s in seen if s.view(0).phase == "plan" and 0 in s.view(0).waiting_for]


def _room(name: str) -> tuple[int, int]:
    i = ROOM_NAMES.index(name)
    return ROWS - 1 - i // 6, i % 6


def _ui(players: int = 3) -> Any:
    return make_ui("paper", players, {}, Seating(
        tuple("you" if s == 0 else f"Bot {s}" for s in range(players)), 0, "me"))


def _screen(state: Any, keys: list[str]) -> tuple[str, PlanDraft]:
    ui = _ui()
    model = ui.inputs(state, 0)
    assert isinstance(model, PlanDraft)
    for key in keys:
        assert model.press(key) is not None, key
    view = state.view(0)
    lines = [*ui.title(view, 80), *ui.board(view, Frame(80, NoLive(), model))]
    return "\n".join(text_of(line).rstrip() for line in lines) + "\n", model


def _usable(state: Any) -> list[int]:
    return [d for d, face in enumerate(state.view(0).roll, 1) if face != SKULL]


@pytest.mark.parametrize(("at", "keys"), [(0, []), (5, ["first", "tab", "second", "tab"])])
def test_golden_screens(at: int, keys: list[str]) -> None:
    state = _plans(b"paper-sheet")[at]
    dice = [str(d) for d in _usable(state)]
    keys = [dice[0] if k == "first" else dice[1] if k == "second" else k for k in keys]
    text, _ = _screen(state, keys)
    check_golden(GOLDEN, f"screen-{at}-{'-'.join(keys) or 'none'}.txt", text)
    assert all(len(line) <= 80 and line.isascii() for line in text.splitlines())


def test_every_use_of_every_die_is_reached_and_plays_on_the_sheet() -> None:
    for state in _plans(b"paper-screen")[::3]:
        for die in _usable(state):
            probe = PlanDraft(state.view(0).sheet, _screen(state, [])[1].board,
                              state.view(0).roll)
            if probe.press(str(die)):
                continue  # (a die with no legal use now: refused in words)
            assert probe.cursor is not None
            for use in list(probe.cursor.moves)[:60]:
                _, model = _screen(state, [str(die)])
                assert model.cursor is not None
                assert reach(model.cursor, use, _room), use
                assert model.use() == use and model.after() == model.options[use].freeze(
                    model.sheet.rounds)


def test_a_whole_plan_is_legal_and_each_part_can_be_taken_back() -> None:
    state = _plans(b"paper-screen")[4]
    _, model = _screen(state, [])
    assert "Choose a die first" in (model.press("tab") or "")
    taken: list[str] = []
    for die in _usable(state):
        if len(taken) == 3:
            break
        before = model.snapshot()
        if model.press(str(die)) or model.cursor is None or not model.cursor.moves:
            model.restore(before)
            continue
        model.press("tab")
        if model.use():
            taken.append(model.use())
    assert len(taken) == 3 and model.ready()
    plan = model.draft()
    assert plan == "; ".join(taken)
    action = state.parse_action(0, plan)
    state.check(0, action)  # (legal on the engine's own check)
    # Taking back: the cycled use, then the die, then the use before it.
    assert model.undo() and not model.ready()
    assert model.undo() and model.die == 0 and len(model.parts()) == 2
    assert model.undo() and model.die != 0 and len(model.parts()) == 1
    model.clear()
    assert model.parts() == [] and model.draft() == ""
    # A skull, a die used twice.
    roll = state.view(0).roll
    skulls = [d for d, face in enumerate(roll, 1) if face == SKULL]
    if skulls:
        assert "skull" in (model.press(str(skulls[0])) or "")


def test_other_decisions_are_a_list() -> None:
    spec = get_game("paper")
    seen: list[Any] = []
    play_out(spec.new(players=2), [spec.bots["random"]() for _ in range(2)],
             Dealer(b"paper-screen/setup"), on_state=seen.append)
    setup = next(s for s in seen if s.view(0).phase == "choose" and 0 in s.view(0).waiting_for)
    assert isinstance(_ui(2).inputs(setup, 0), ListChoice)


# --------------------------------------------------------------------------- a whole match


def _dice(text: str) -> list[int]:
    """The dice not showing a skull, from the column beside the sheet."""
    found = re.findall(r"[ >]([WB])([1-6]) (\w+)", text)
    return sorted({int(d) for _, d, face in found if face != SKULL})


def _plan(term: Terminal, text: str) -> None:
    """Three dice, each with the first use Tab gives (a die with none is passed over); the
    column beside the sheet marks a die in the plan with ``>``."""
    chosen = 0
    for die in _dice(text):
        term.send(str(die).encode())
        screen = term.steady(lambda s, d=die: f">{die_name(d)} " in s or "has no legal" in s)
        if f">{die_name(die)} " not in screen:
            continue
        term.send(b"\t")
        term.settle(0.3)
        chosen += 1
        if chosen == 3:
            break
    term.steady(selected)


def test_a_persons_plans_entered_with_the_keys_are_played_and_verified(
        terminal: Callable[..., Terminal], tmp_path: Path) -> None:
    out = tmp_path / "paper.crawl"
    term = terminal(["play", "--game", "paper", "--players", "2", "--bots", "1", "--data-dir",
                     str(tmp_path / "data"), "--out", str(out), "--timeouts", "120,120,120,60"],
                    80, 24)
    deadline = time.monotonic() + 400
    plans = 0
    while time.monotonic() < deadline:
        text = term.steady(lambda s: "The match is over" in s or (
            "YOUR MOVE" in s and not selected(s) and "Locked in" not in s))
        if "The match is over" in text:
            break
        if "your plan, a die at a time" in text:
            _plan(term, text)
            plans += 1
        else:  # (the setup choice, a reward: the first of the list)
            term.send(b"\x1b[B")
            term.steady(selected)
        term.send(b"\r")
        term.wait(lambda s: not selected(s))
    text = term.steady("The match is over")
    assert "Final standings" in text and plans == 8, (plans, text)
    term.send(b"q")
    assert term.finished() == 0, term.text()
    assert_verifies(out)


def test_o_shows_each_other_seats_sheet_then_yours_and_keeps_the_plan() -> None:
    state = _plans(b"paper-sheet")[5]
    dice = [str(d) for d in _usable(state)]
    text, model = _screen(state, [dice[0], "tab"])
    use = model.use()
    assert use and "Bot 1's sheet" not in text
    ui = _ui()
    view = state.view(0)
    shown = []
    for _ in range(3):
        assert model.press("o") == ""
        lines = ui.board(view, Frame(80, NoLive(), model))
        shown.append(text_of(lines[0]))
    assert shown[0].startswith("Bot 1's sheet") and shown[1].startswith("Bot 2's sheet")
    assert not shown[2].startswith("Bot")  # (yours again)
    assert model.use() == use  # (the plan as it was)
    other = "\n".join(text_of(line) for line in ui.board(view, Frame(80, NoLive(), model)))
    assert "Cursor" in other
