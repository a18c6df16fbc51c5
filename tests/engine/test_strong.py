"""The strong level of every game (engine.search and each game's strong.py), on tiny budgets.

* It reads only its seat's view: two states that differ only in what the seat cannot see (another
  seat's committed card, its items by type, its torch's or guardian's knowledge, its sealed
  tokens or objective, the undrawn cards) give it the same view through the drivers'
  ``bot_input``, and it chooses alike in both.
* Its decisions are legal and deterministic for a view and a key.
* The search itself: sequential halving finds the best arm on common samples, within budget.
"""

from __future__ import annotations

import copy
import functools
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import engine.search
from engine.core import GameState, Outcome, Simultaneous, Standing, Turn
from engine.games import get_game
from engine.kards.strong import strong_bot as kards_strong
from engine.paper.strong import StrongBot as PaperStrong
from engine.raiders.strong import standing_value, world_of
from engine.raiders.strong import strong_bot as raiders_strong
from engine.search import halving, share
from engine.sim import Dealer, bot_input, play_out
from engine.stream import derive_key
from engine.twister.strong import strong_bot as twister_strong

KEY = b"strong-test-key"
ROOT = Path(__file__).resolve().parents[2]
TRACE = """
import json
from benchmarks.zombie import decision_points
from engine.games import get_game
from engine.sim import bot_input
out = {}
for game in ("raiders", "twister", "kards", "paper"):
    spec = get_game(game)
    picks = []
    for state, seat, step in decision_points(game, 2, 400):
        if not state.lists_actions(seat) and game != "paper" or len(picks) >= 3:
            continue
        if game != "paper" and len(state.legal_actions(seat)) < 2:
            continue
        if game == "paper" and state.to_position()["phase"] != "plan":
            continue
        bot = spec.bots["strong"]()
        if game == "paper":
            bot.budget = 300
        else:
            bot.iterations = 3
        action = bot.choose(bot_input(bot, state, seat, step), b"hash-seed-key")
        picks.append(state.format_action(action))
    out[game] = picks
print(json.dumps(out))
"""


def decision_states(game: str, players: int, seed: str, bot: str = "heuristic",
                    count: int = 400) -> list[GameState[Any]]:
    """The decision states (with more than one legal action for some pending seat) of one
    game played by ``bot``."""
    spec = get_game(game)
    found: list[GameState[Any]] = []

    def on(state: GameState[Any]) -> None:
        w = state.waiting
        if isinstance(w, Simultaneous | Turn) and len(found) < count:
            seat = min(w.pending)
            if state.lists_actions(seat) and len(state.legal_actions(seat)) > 1:
                found.append(state)

    options = {} if game == "twister" else {"players": players}
    play_out(spec.new(**options), [spec.bots[bot]() for _ in range(players)],
             Dealer(derive_key("strong-test", game, seed)), on_state=on, record=False)
    return found


@functools.cache
def raiders_states() -> list[GameState[Any]]:
    return decision_states("raiders", 4, "r")


@functools.cache
def twister_states() -> list[GameState[Any]]:
    return [s for s in decision_states("twister", 2, "t") if s.to_position()["phase"]
            in ("action", "put", "combat", "card")]


@functools.cache
def kards_states() -> list[GameState[Any]]:
    return decision_states("kards", 2, "k")


def choose(bot: Any, state: GameState[Any], seat: int) -> Any:
    step = str(getattr(state.waiting, "step", ""))
    return bot.choose(bot_input(bot, state, seat, step), KEY)


# ---------------------------------------------------------------------- legal, deterministic


@pytest.mark.parametrize("game", ["raiders", "twister", "kards"])
def test_its_decisions_are_legal_and_the_same_for_the_same_view_and_key(game: str) -> None:
    states = {"raiders": raiders_states, "twister": twister_states,
              "kards": kards_states}[game]()
    make = {"raiders": raiders_strong, "twister": twister_strong, "kards": kards_strong}[game]
    for state in states[:: max(1, len(states) // 3)][:3]:
        seat = min(state.waiting.pending)  # type: ignore[union-attr]
        action = choose(make(3), state, seat)
        state.check(seat, action)
        assert choose(make(3), state, seat) == action


@pytest.mark.slow
def test_the_strong_bots_decide_alike_under_any_hash_seed() -> None:
    """As the zombie (test_zombie.py): no set or dict order reaches a strong bot's choice."""
    traces = []
    for seed in ("0", "77"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run([sys.executable, "-c", TRACE], cwd=ROOT, env=env, check=True,
                             capture_output=True, text=True, timeout=600)
        traces.append(json.loads(out.stdout.splitlines()[-1]))
    assert traces[0] == traces[1]
    assert all(len(picks) == 3 for picks in traces[0].values()), traces[0]


def test_the_strong_bots_are_registered_as_the_strong_level() -> None:
    for game in ("raiders", "kards", "twister", "paper"):
        spec = get_game(game)
        assert spec.level_bot("strong") == "strong"
        assert getattr(spec.bots["strong"](), "searches", False), game
        assert not getattr(spec.bots[spec.level_bot("normal")](), "searches", False), game


# ---------------------------------------------------------------------- only its own view


def test_raiders_it_chooses_alike_whatever_the_others_hold() -> None:
    """Another seat's committed card, its items by type (public, but not in a view: ruling
    27) and the order of the undrawn rooms differ; the seat's choice does not."""
    spec = get_game("raiders")
    compared = 0
    for state in raiders_states():
        pos = state.to_position()
        w = state.waiting
        if not isinstance(w, Simultaneous) or not w.committed or pos["level"] < 2:
            continue
        me = min(w.pending)
        other = copy.deepcopy(pos)
        changed = False
        for key, secret in pos["private"].items():
            if int(key) == me or not secret.get("pending"):
                continue
            seat = pos["seats"][int(key)]
            for card in ("1", "2", "3", "4", "5"):
                if int(card) not in seat["used"] and card != secret["pending"]:
                    other["private"][key]["pending"] = card
                    changed = True
                    break
        # Two other seats swap an item type (the counts stay).
        holders = [s for s in range(len(pos["seats"])) if s != me]
        for a in holders:
            for b in holders:
                ia, ib = other["seats"][a]["items"], other["seats"][b]["items"]
                if a != b and ia.get("key", 0) and ib.get("sword", 0) and not changed:
                    ia["key"] -= 1
                    ia["sword"] = ia.get("sword", 0) + 1
                    ib["sword"] -= 1
                    ib["key"] = ib.get("key", 0) + 1
                    changed = True
        if not changed:
            continue
        try:
            altered = spec.from_position(other)
        except ValueError:
            continue
        assert altered != state
        bot = raiders_strong(6)
        assert choose(bot, altered, me) == choose(raiders_strong(6), state, me)
        compared += 1
        if compared >= 2:
            break
    assert compared >= 1


def test_twister_it_chooses_alike_whatever_the_opponent_sealed() -> None:
    """The opponent's face-down tokens are other kinds; the seat's choice is the same."""
    compared = 0
    for state in twister_states():
        pos = state.to_position()
        me = min(state.waiting.pending)  # type: ignore[union-attr]
        sealed = [list(p) for p in
                  (pos.get("private", {}).get(str(me ^ 1)) or {}).get("sealed") or []]
        tokens = [p for p in sealed if p[0].startswith("tok.")]
        if len(tokens) < 2 or tokens[0][1] == tokens[1][1]:
            continue
        tokens[0][1], tokens[1][1] = tokens[1][1], tokens[0][1]
        other = copy.deepcopy(pos)
        other["private"][str(me ^ 1)]["sealed"] = sealed
        altered = get_game("twister").from_position(other)
        assert altered != state
        assert choose(twister_strong(4), altered, me) == choose(twister_strong(4), state, me)
        compared += 1
        if compared >= 2:
            break
    assert compared >= 1


def test_kards_it_chooses_alike_whatever_the_other_seat_peeked() -> None:
    """The other seat's guardian showed it the next orange card (or did not); the seat's
    choice is the same."""
    spec = get_game("kards")
    found: list[GameState[Any]] = []

    def on(state: GameState[Any]) -> None:
        w = state.waiting
        if (isinstance(w, Turn) and not found and len(state.legal_actions(w.seat)) > 1
                and state.to_position()["private"].get(str(w.seat ^ 1), {}).get("seen")):
            found.append(state)

    play_out(spec.new(players=2), [spec.bots["random"]() for _ in range(2)],
             Dealer(derive_key("peek", "45")), on_state=on, record=False)
    assert found, "the seeded game has no peek by the other seat any more"
    state = found[0]
    me = state.waiting.seat  # type: ignore[union-attr]
    pos = state.to_position()
    pos["private"] = {k: v for k, v in pos["private"].items() if k != str(me ^ 1)}
    altered = spec.from_position(pos)
    assert altered != state
    assert choose(kards_strong(4), altered, me) == choose(kards_strong(4), state, me)


def test_paper_it_chooses_alike_whatever_the_others_were_dealt() -> None:
    """Another seat's dealt cards and sealed objective differ; the seat's plan does not."""
    spec = get_game("paper")
    plans: list[GameState[Any]] = []

    def on(state: GameState[Any]) -> None:
        if state.to_position()["phase"] == "plan" and len(plans) < 2 and isinstance(
                state.waiting, Simultaneous) and not state.waiting.committed:
            plans.append(state)

    play_out(spec.new(players=2), [spec.bots["search"]() for _ in range(2)],
             Dealer(b"paper strong view"), on_state=on, record=False,
             until=lambda state: len(plans) >= 2)
    state = plans[-1]
    pos = state.to_position()
    mine = pos["private"]["0"]
    theirs = pos["private"]["1"]
    other = copy.deepcopy(pos)
    other["private"]["1"]["objective"] = 1 - int(theirs["objective"])
    assert other != pos and mine == other["private"]["0"]
    try:
        altered = spec.from_position(other)
    except ValueError:  # (the other objective cannot mark those styles: drop theirs instead)
        other["private"] = {"0": mine}
        altered = spec.from_position(other)
    assert altered != state
    bot = PaperStrong(budget=300)
    assert choose(bot, altered, 0) == choose(PaperStrong(budget=300), state, 0)
    state.check(0, choose(bot, state, 0))


# ---------------------------------------------------------------------- the parts


def test_a_raiders_world_shows_the_seat_exactly_its_view() -> None:
    """Every world the search plays on looks to the seat as the real table does (only the
    other seats' committed cards, which the seat cannot see, are not in it: they choose
    again in the world)."""
    import dataclasses

    def blank(view: Any) -> Any:
        return dataclasses.replace(view, waiting_for=(), seats=tuple(
            dataclasses.replace(s, status="") for s in view.seats))

    for state in raiders_states()[::7]:
        seat = min(state.waiting.pending)  # type: ignore[union-attr]
        view = state.view(seat)
        world = world_of(view, derive_key(KEY, str(seat)))
        assert blank(world.state.view(seat)) == blank(view)
        assert set(world.known) == {f"L{view.level}.R{r.position}" for r in view.row
                                    if r.peeked}


def test_a_raiders_standing_is_worth_more_with_more_coins_and_fewer_wounds() -> None:
    state = next(s for s in raiders_states() if s.to_position()["level"] >= 2)
    pos = state.to_position()
    richer = copy.deepcopy(pos)
    richer["seats"][0]["coins"] = min(20, richer["seats"][0]["coins"] + 5)
    hurt = copy.deepcopy(pos)
    hurt["seats"][0]["wounds"] += 6
    spec = get_game("raiders")
    base = standing_value(state, 0)  # type: ignore[arg-type]
    assert standing_value(spec.from_position(richer), 0) > base  # type: ignore[arg-type]
    assert standing_value(spec.from_position(hurt), 0) < base  # type: ignore[arg-type]
    total = sum(standing_value(state, s) for s in range(4))  # type: ignore[arg-type]
    assert abs(total - 1) < 1e-9


def test_sequential_halving_finds_the_best_arm_on_shared_samples() -> None:
    means = [0.2, 0.7, 0.5, 0.65, 0.1]
    calls: list[tuple[int, int]] = []

    def evaluate(arm: int, sample: int) -> float:
        calls.append((arm, sample))
        # The same luck for every arm on a sample: what common random numbers give.
        luck = ((sample * 7919) % 13) / 13 - 0.5
        return means[arm] + luck

    order = halving(len(means), 60, evaluate)
    assert order[0] == 1 and sorted(order) == list(range(5))
    assert len(calls) <= 60 + len(means)
    by_sample: dict[int, set[int]] = {}
    for arm, sample in calls:
        by_sample.setdefault(sample, set()).add(arm)
    # Every arm in a round is played on the same samples.
    assert all(len(arms) in (5, 3, 2) for arms in by_sample.values())
    assert halving(1, 10, evaluate)[0] == 0


def test_a_node_budget_caps_the_playouts_by_what_they_cost() -> None:
    means = [0.2, 0.7, 0.5, 0.65, 0.1]
    spent = [0]

    def evaluate(arm: int, sample: int) -> float:
        spent[0] += 40  # a long playout: 40 decisions
        return means[arm] + ((sample * 7919) % 13) / 13 - 0.5

    free = halving(len(means), 200, evaluate)
    unlimited = spent[0]
    spent[0] = 0
    assert halving(len(means), 200, evaluate, cost=lambda: spent[0], limit=10**9) == free
    assert spent[0] == unlimited  # a budget that does not bind changes nothing
    spent[0] = 0
    order = halving(len(means), 200, evaluate, cost=lambda: spent[0], limit=2400)
    # 60 playouts' worth, not 200: within the limit and one sample a round over it at most.
    assert 2400 - 40 * len(means) <= spent[0] <= 2400 + 40 * len(means)
    assert order[0] == 1 and sorted(order) == list(range(5))
    spent[0] = 0
    # A limit spent at once still plays every round: one sample for each arm in the race.
    halving(len(means), 200, evaluate, cost=lambda: spent[0], limit=1)
    assert spent[0] == 40 * (5 + 3 + 2)


def test_kards_a_table_played_to_the_end_has_a_node_budget_and_the_duel_none(
        monkeypatch: pytest.MonkeyPatch) -> None:
    duel = kards_states()[5]
    table = decision_states("kards", 4, "k4", count=40)[-1]
    bot = kards_strong(400, decisions=600)
    seat = min(table.waiting.pending)  # type: ignore[union-attr]
    assert bot.decisions is not None
    assert bot.decisions(bot_input(bot, duel, 0, "")) == 0
    assert bot.decisions(bot_input(bot, table, seat, "")) == 600
    played: list[int] = []

    def counting(*args: Any, **kwargs: Any) -> Any:
        run = play_out(*args, **kwargs)
        played.append(run.decisions)
        return run

    monkeypatch.setattr(engine.search, "play_out", counting)
    action = choose(bot, table, seat)
    table.check(seat, action)
    # 400 playouts to the end would play tens of thousands of decisions: about 600 it is, over
    # by at most one sample a round for every arm still in the race.
    arms = len(table.legal_actions(seat))
    assert len(played) < 400 and sum(played) <= 600 + max(played) * 2 * arms


def test_a_draw_is_half_a_win_to_each_drawn_seat() -> None:
    drawn = Outcome(frozenset(), (Standing(0, "draw", 3, 0), Standing(1, "draw", 3, 0)), "")
    assert share(drawn, 0) == share(drawn, 1) == 0.5
    lost = Outcome(frozenset(), (Standing(0, "lost", 3, 0), Standing(1, "lost", 3, 0)), "")
    assert share(lost, 0) == 0
    won = Outcome(frozenset({1}), (Standing(0, "lost", 3, 0), Standing(1, "winner", 5, 0)), "")
    assert share(won, 1) == 1 and share(won, 0) == 0


def test_paper_a_mission_in_play_is_worth_its_glory_once_met() -> None:
    from engine.paper.bots import Context, evaluate
    from engine.paper.data import MISSIONS
    from engine.paper.score import METRICS
    from engine.paper.sheet import BOARDS
    from engine.paper.strong import Missions

    spec = get_game("paper")
    late: list[Any] = []
    play_out(spec.new(players=2), [spec.bots["easy"]() for _ in range(2)],
             Dealer(b"paper missions"), on_state=lambda s: late.append(s) if getattr(
                 s, "round", 0) >= 8 else None, record=False, until=lambda s: bool(late))
    view = late[-1].view(0)
    board = BOARDS[view.dungeon]
    ctx = Context(board, view.round, view.objective)
    sheet = view.sheet
    met = 0
    for mission in MISSIONS:
        have = METRICS[MISSIONS[mission].metric](sheet, board)
        need = MISSIONS[mission].at_least
        worth = Missions(board, (mission,), 4, 0.8)(sheet, ctx) - evaluate(sheet, ctx)
        expected = 4.0 if have >= need else 0.8 * 4 * (have / need) ** 2
        assert abs(worth - expected) < 1e-9, mission
        met += have >= need
    assert 0 < met < len(MISSIONS)  # (both cases are seen)
    assert Missions(board, (), 4, 0.8)(sheet, ctx) == evaluate(sheet, ctx)
