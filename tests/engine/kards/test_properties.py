"""Invariants over many random complete games of every mode (random legal play for every seat,
the offline dealer for chance), checked at every state through the public API: nothing crashes,
replay equals play, every card is always somewhere, and the match always ends under the round
cap."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import Chance, Over, Turn
from engine.games import replay
from engine.kards import from_position
from engine.kards.cards import category
from tests.engine.kards.helpers import MODES, mode_id, random_game
from tests.tiers import examples

SEEDS = st.integers(min_value=0, max_value=2**63)


class Invariants:
    """Called on every state of one game."""

    def __init__(self, options: dict[str, Any], *, every: int = 5) -> None:
        self.options = options
        self.every = every
        self.states = 0
        self.max_round = 0

    def __call__(self, state: Any) -> None:
        self.states += 1
        p = state.to_position()
        size = 9 if p["copies"] == 2 else 7
        defeating = any(f[0] == "defeats" for f in p["stack"])
        for c in p["characters"]:
            if not c["card"]:
                continue
            assert c["life"] >= 0, c
            if c["at"] is not None:
                assert c["life"] > 0 or defeating, c
                assert 0 <= c["at"][0] < size and 0 <= c["at"][1] < size
            assert c["gold"] >= 0
            for item in (c["weapon"], c["pet"], *c["carried"]):
                if item is not None:
                    assert 1 <= item["uses"] <= 10, item
        cells = {(m[1], m[2]) for m in p["map"]}
        for m in p["monsters"]:
            assert (m["at"][0], m["at"][1]) in cells and m["life"] >= 1
        assert p["revealed"] == len(p["map"])
        step = 5 * p["copies"]
        assert p["events_done"] <= min(4, p["revealed"] // step)
        if p["round_cap"]:
            assert p["round"] <= p["round_cap"]
        self.max_round = max(self.max_round, p["round"])
        orange = p["orange"]
        assert 0 <= orange["top_unknown"] <= len(orange["pool"])
        w = state.waiting
        if isinstance(w, Turn):
            legal = state.legal_actions(w.seat)
            # A decision with a single legal action is taken at once: no choice waits.
            assert len(legal) >= 2 or p["resigned"][w.seat], (legal, p["stack"][-2:])
        elif isinstance(w, Chance):
            event = w.event
            if event.id.startswith("O") and "." not in event.id:
                top_size = orange["top_unknown"] + len(orange["top_known"])
                if top_size:  # the Portal Stone lies in the bottom half until the top is out
                    assert "portal_stone" not in event.outcomes
                    assert set(event.outcomes) <= set(orange["pool"]) | set(
                        orange["top_known"])
                for card in event.outcomes:
                    assert category(card) not in ("boss", "dungeon", "treasure")
        else:
            assert isinstance(w, Over)
        if self.states % self.every == 1:
            # The position round trip re-checks that every card is in exactly one place.
            again = from_position(json.loads(json.dumps(p)))
            assert again == state


def _play_and_check(seed: int | str, options: dict[str, Any], every: int = 5) -> None:
    checker = Invariants(options, every=every)
    run = random_game(f"props/{seed}", options, on_state=checker)
    final = run.state
    assert isinstance(final.waiting, Over)
    checker(final)
    # The match ends under the round cap (40 by default).
    assert final.to_position()["round"] <= 40
    # replay(history) reproduces the state and its digest; unobserved play is the same game.
    again = replay("kards", run.history, options=options)
    assert again == final and again.digest() == final.digest()
    unobserved = random_game(f"props/{seed}", options, record=False)
    assert unobserved.state == final


@settings(max_examples=examples(25), deadline=None, database=None)
@given(seed=SEEDS, options=st.sampled_from(MODES))
def test_random_play_never_crashes_and_replays(seed: int, options: dict[str, Any]) -> None:
    _play_and_check(seed, options)


@pytest.mark.parametrize("options", MODES, ids=[mode_id(m) for m in MODES])
def test_every_mode_plays_to_the_end(options: dict[str, Any]) -> None:
    for i in range(3):
        _play_and_check(f"mode/{mode_id(options)}/{i}", options, every=3)


@pytest.mark.slow
@pytest.mark.parametrize("options", MODES, ids=[mode_id(m) for m in MODES])
def test_many_games_of_every_mode(options: dict[str, Any]) -> None:
    for i in range(60):
        _play_and_check(f"slow/{mode_id(options)}/{i}", options, every=10)


def test_a_match_ends_under_the_cap_whatever_the_cap() -> None:
    for cap in (1, 2, 7):
        options = {"players": 2, "round_cap": cap}
        run = random_game(f"cap/{cap}", options, record=False)
        p = run.state.to_position()
        assert p["round"] <= cap and run.state.is_over


def test_round_cap_off_lets_a_game_run_past_40_rounds() -> None:
    """With the cap off, a game that would have been capped goes on: two characters stunned
    for long in combat with monsters can only wait, so turns pass at once."""
    from tests.engine.kards.helpers import load

    stun = [{"kind": "stun", "x": 99, "timer": 200, "turn": 0}]
    data = {"players": 2, "abilities": False, "events": False, "round": 38,
            "map": [["D01", 0, 0], ["D02", 6, 0], ["D03", 0, 6], ["D04", 6, 6]],
            "characters": [{"card": "warrior", "at": [0, 0], "effects": stun},
                           {"card": "knight", "at": [6, 6], "effects": stun}],
            "monsters": [{"card": "rat", "at": [0, 0]}, {"card": "goblin", "at": [6, 6]}]}
    capped = load(data)
    assert capped.is_over and capped.to_position()["round"] == 40
    # With the cap off the turns pass on until the stuns (12 turns) wear off and the first
    # attack roll is due, in round 44.
    short = [{"kind": "stun", "x": 99, "timer": 12, "turn": 0}]
    endless = load({**data, "round_cap": "off",
                    "characters": [{**data["characters"][0], "effects": short},
                                   {**data["characters"][1], "effects": short}]})
    assert not endless.is_over and endless.to_position()["round"] == 44
    assert endless.waiting.event.id.endswith(".attack")  # type: ignore[union-attr]
