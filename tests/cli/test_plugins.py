"""The client's plug-in contract (cli.plugin, cli.games): every game has a plug-in, found lazily
by name; every plug-in's rules fit a pager; the generic table shows any game's view in 80
columns; places are shared on ties; the input models select, undo and refuse."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cli import games as clients
from cli.games import CLIENTS, find_ui, has_plugin, make_ui
from cli.inputs import BoardCursor, GridCursor, KeyChoice, ListChoice, PlanBuilder, Typed
from cli.outline import SKIPPED, data_of, outline
from cli.plugin import GameUI, Seating, placings
from engine.core import Chance, Outcome, Standing, Visibility
from engine.games import GAMES, get_game
from engine.sim import Dealer
from tests.cli.test_command import ROOT, cryptcrawl


def test_every_game_of_the_registry_has_a_client_plug_in() -> None:
    assert set(CLIENTS) == set(GAMES)
    for game in GAMES:
        ui = find_ui(game)
        assert issubclass(ui, GameUI) and ui is not GameUI, game
        assert has_plugin(game)


def test_plug_ins_are_imported_only_when_asked_for() -> None:
    code = ("import sys, cli.games as g, cli.commands, cli.main\n"
            "assert not [m for m in sys.modules if m.startswith('cli.games.')], sys.modules\n"
            "g.find_ui('kards')\n"
            "loaded = sorted(m for m in sys.modules if m.startswith('cli.games.'))\n"
            "assert loaded == ['cli.games.kards', 'cli.games.kards.help',\n"
            "                  'cli.games.kards.render', 'cli.games.kards.screen'], loaded\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr


def test_a_game_without_a_plug_in_gets_the_generic_one(monkeypatch: pytest.MonkeyPatch) -> None:
    import tests.protocol.toy  # noqa: F401  (registers the engine's toy table, no client)

    assert find_ui("toy-table") is GameUI and not has_plugin("toy-table")
    ui = make_ui("toy-table", 3, {"owed": True, "players": 3})
    assert ui.describe() == "Toy table, 3 players (owed on)"  # (the header's, undeclared)
    monkeypatch.setattr(clients, "_extra", {"toy-table": type("Mine", (GameUI,), {})})
    assert find_ui("toy-table").__name__ == "Mine"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_rules_fit_a_pager_and_are_the_helps_rules(game: str) -> None:
    spec = get_game(game)
    ui = make_ui(game, min(p for p in spec.players if p >= 2), {})
    rules = ui.rules().splitlines()
    assert 20 <= len(rules) <= 66, (game, len(rules))  # (about 60: one page of a pager)
    assert all(len(line) <= 79 and line.isprintable() for line in rules), game
    assert "no summary of its rules" not in ui.rules()
    assert ui.help_pane().endswith(ui.rules())  # the match's help shows the same text


def test_the_rules_command() -> None:
    listing = cryptcrawl("rules")
    assert listing.returncode == 0, listing.stderr
    for game in GAMES:
        assert f"  {game} " in listing.stdout
    assert "raiders   Dungeon Raiders, 3 to 5 players (the default)" in listing.stdout
    assert "Dungeon Twister, 2 players\n" in listing.stdout  # (networked: protocol.md §7.11)
    assert "Paper Dungeons, 1 to 8 players\n" in listing.stdout  # (networked: §7.13)
    one = cryptcrawl("rules", "raiders", "--players", "3")
    assert one.returncode == 0, one.stderr
    assert one.stdout == ("Dungeon Raiders: the rules in short\n\n"
                          + make_ui("raiders", 3, {}).rules() + "\n")
    assert "strengths for 3 players" in one.stdout
    for args, words in ((("rules", "chess"), "unknown game 'chess'"),
                        (("rules", "twister", "--players", "3"),
                         "Dungeon Twister is for 2 players, not 3"),
                        (("rules", "--players", "3"), "name the game too")):
        bad = cryptcrawl(*args)
        assert bad.returncode == 2 and bad.stderr.count("\n") == 1, (args, bad.stderr)
        assert words in bad.stderr and bad.stdout == ""


def first_decision(game: str, players: int) -> tuple[object, object]:
    """A state of ``game`` at its first decision (chance answered offline), and its view."""
    state = get_game(game).new(players=players)
    dealer = Dealer(b"plug-ins")
    while isinstance(state.waiting, Chance):
        event = state.waiting.event
        outcome = dealer.choose(event)
        if event.visibility is Visibility.PRIVATE:
            assert event.seat is not None
            state = state.apply_private(event.id).learn(event.seat, {event.id: outcome})
        else:
            state = state.apply_chance(event.id, outcome)
    return state, state.view(0)


@pytest.mark.parametrize("game", ["kards", "twister", "paper"])
def test_the_generic_table_shows_any_view_in_80_columns(game: str) -> None:
    state, view = first_decision(game, 2)
    ui = make_ui(game, 2, {}, Seating(("you", "B"), 0))
    table = ui.table(view)
    assert table and all(len(line) <= 80 for line in table), game
    assert not any(line.startswith(("legal:", "log:")) for line in table)
    choices = ui.choices_lines(state, 0, view)  # type: ignore[arg-type]
    assert choices[-1] == "  (? for help, q to quit)"
    assert all(len(line) <= 80 for line in choices[:-2])
    if game == "twister":  # 1,000s of starting teams: how to write one, not a list
        assert choices[0].startswith("Choose your starting team: team A B C D")
        assert "wall_walker" in " ".join(choices) and len(choices) < 8


def test_outline_words() -> None:
    data = {"round": 3, "empty": [], "name": "", "flags": {"a": True, "b": None},
            "cells": [[0, 1, "D01"]], "figures": [{"card": "mage", "stats": [1, 2], "at": None}],
            "deep": {"inner": {"x": 1}}, "legal": ["x"]}
    assert outline(data, skip=SKIPPED) == [
        "round: 3", "flags: a yes, b -", "cells:", "  - 0, 1, D01", "figures:",
        "  - card mage, stats 1 2", "deep:", "  inner: x 1"]
    assert data_of(Standing(0, "winner", 3, 0)) == {
        "seat": 0, "status": "winner", "score": 3, "tiebreak": 0, "detail": ""}


def test_ties_share_the_better_place() -> None:
    outcome = Outcome(frozenset({2}), (Standing(0, "lost", 5, 0), Standing(1, "lost", 5, 0),
                                       Standing(2, "winner", 9, 0), Standing(3, "lost", 1, 0)),
                      "")
    ui = make_ui("kards", 4, {})
    assert placings(ui, outcome) == {2: 1, 0: 2, 1: 2, 3: 4}
    shared = Outcome(frozenset({0, 1}), (Standing(0, "winner", 5, 0),
                                         Standing(1, "winner", 5, 0)), "")
    assert placings(ui, shared) == {0: 1, 1: 1}
    # Dungeon Raiders: a fainted seat ranks below every seat that lost, whatever its coins.
    raiders = make_ui("raiders", 3, {})
    fainted = Outcome(frozenset({0}), (Standing(0, "winner", 9, -2),
                                       Standing(1, "fainted", 20, -9),
                                       Standing(2, "lost", 3, -1)), "")
    assert placings(raiders, fainted) == {0: 1, 2: 2, 1: 3}


def test_describe_names_the_options_that_differ_from_the_defaults() -> None:
    assert make_ui("kards", 3, {"mode": "coop", "events": True}).describe() == (
        "Dungeons of Kards, 3 players (mode coop)")
    assert make_ui("kards", 2, {"round_cap": 0, "events": False}).describe() == (
        "Dungeons of Kards, 2 players (events off, round_cap 0)")
    assert make_ui("raiders", 4, {"variant": "tactical"}).describe() == (
        "Dungeon Raiders, 4 players, tactical variant")


# --------------------------------------------------------------------------- input models


def test_one_key_per_move_select_then_change_then_undo() -> None:
    keys = KeyChoice({"1": "play 1", "k": "play key"})
    assert keys.press("x") is None and not keys.ready()
    assert keys.press("1") == "" and keys.draft() == "play 1"
    saved = keys.snapshot()
    keys.press("k")
    assert keys.draft() == "play key"
    keys.restore(saved)  # (what the screen does when the engine refuses the new selection)
    assert keys.draft() == "play 1"
    assert keys.undo() and not keys.ready() and not keys.undo()


def test_a_list_of_moves_wraps_around() -> None:
    moves = ListChoice(["a", "b", "c"])
    assert moves.press("left") is None and moves.draft() == ""
    moves.press("up")
    assert moves.draft() == "c"
    moves.press("down")
    assert moves.draft() == "a"
    assert moves.undo() and moves.draft() == ""
    assert ListChoice([]).press("down") is not None  # refused, with a sentence


def test_a_plan_is_built_part_by_part_and_taken_back() -> None:
    plan = PlanBuilder([{"1": "power 1", "2": "power 2"}, {"w": "W", "b": "B"}],
                       join=lambda parts: "; ".join(parts))
    assert plan.press("w") == "Not a choice for part 1 of the plan."
    assert plan.press("2") == "" and plan.shown() == "power 2 (and 1 more to choose)"
    assert not plan.ready() and plan.draft() == ""
    plan.press("b")
    assert plan.ready() and plan.draft() == "power 2; B"
    assert plan.press("1") and plan.draft() == "power 2; B"  # whole: refused, unchanged
    assert plan.undo() and plan.shown() == "power 2 (and 1 more to choose)"
    plan.clear()
    assert not plan.undo()
    with pytest.raises(ValueError):
        PlanBuilder([], join=" ".join)


def test_a_grid_cursor_moves_within_the_grid_and_picks_cells_once() -> None:
    grid = GridCursor(2, 3, lambda r, c: f"{'abc'[c]}{r + 1}", picks=2,
                      join=lambda parts: "claim " + " ".join(sorted(parts)))
    assert grid.press("up") == "" and grid.at == (0, 0)  # (clamped at the edge)
    grid.press("right")
    grid.press("right")
    grid.press("right")
    assert grid.at == (0, 2)
    assert grid.press("space") == "" and grid.shown() == "c1 (and 1 more to choose)"
    assert grid.press("space") == "c1 is picked already (Backspace takes the last pick back)."
    grid.press("down")
    saved = grid.snapshot()
    grid.press("space")
    assert grid.ready() and grid.draft() == "claim c1 c2"
    grid.restore(saved)
    assert grid.parts == ["c1"] and grid.at == (1, 2)
    assert grid.press("q") is None


def test_a_board_cursor_narrows_the_moves_by_the_squares_they_touch() -> None:
    cells = {"end": (), "move a1 b1": (frozenset({"a1"}), frozenset({"b1"})),
             "move a1 b1 b2": (frozenset({"a1"}), frozenset({"b1"}), frozenset({"b2"})),
             "turn room": (frozenset({"a1"}), frozenset({"a2", "b2"})),
             "stay a1": (frozenset({"a1"}),)}
    board = BoardCursor(2, 2, lambda r, c: f"{'ab'[c]}{r + 1}", cells)
    assert board.draft() == "" and board.shown() == ""
    assert board.press("tab") == "" and board.draft() == "end"  # (Tab: the moves left)
    assert board.undo() and board.draft() == ""
    board.press("right")
    assert board.press("space") == "No move of yours starts there (b1); Tab shows the moves left."
    board.press("left")
    assert board.press("space") == "" and board.draft() == "stay a1"  # (the one it completes)
    assert board.left()[0] == "stay a1" and len(board.left()) == 4
    board.press("down")
    board.press("right")
    assert board.press("space") == "" and board.draft() == "turn room"  # (b2: in the room)
    assert board.undo() and board.picks == ["a1"]
    board.press("up")
    board.press("space")
    assert board.draft() == "move a1 b1" and board.left() == ["move a1 b1", "move a1 b1 b2"]
    board.press("tab")
    board.press("tab")
    assert board.draft() == "move a1 b1 b2"
    board.press("s-tab")
    assert board.draft() == "move a1 b1"
    saved = board.snapshot()
    board.clear()
    assert board.picks == [] and board.draft() == ""
    board.restore(saved)
    assert board.draft() == "move a1 b1" and board.at == (0, 1)
    assert board.press("q") is None


def test_a_typed_move_takes_every_printable_key() -> None:
    typed = Typed()
    assert not typed.ready() and typed.shown() == "_"
    for key in ["q", "u", "i", "t", "space", "?", "space", "space", "1"]:
        assert typed.press(key) == ""
    assert typed.draft() == "quit ? 1" and typed.ready()
    assert typed.press("up") is None
    assert typed.undo() and typed.draft() == "quit ?"
    typed.clear()
    assert not typed.undo()
