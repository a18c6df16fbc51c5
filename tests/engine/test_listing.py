"""Every game keeps its listing promise (its docs/rules page): every action ``check`` accepts
within the promise has a listed action with the same result — the same action itself where a
game lists every action exactly (Dungeon Raiders, Dungeons of Kards, Paper Dungeons' setup
choices and rewards, every Dungeon Twister action but moves and jumps), and for Dungeon
Twister's moves one walk per distinct result among the moves with at most one drop and one
pick-up (docs/rules/twister.md §9, decision 8).  Issue 48: taking an object from a wounded
character and dropping it on the same square was never listed."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import (
    EngineError,
    GameState,
    Turn,
    read_move,
)
from engine.games import get_game
from engine.sim import Dealer, play_out
from engine.twister.actions import DROP, Action, take
from engine.twister.data import MOVE, N_CHARACTERS, PER_SEAT
from tests.engine.test_notation_fuzz import _mutate, decisions
from tests.engine.twister.helpers import position
from tests.tiers import examples

EXACT = ("raiders", "kards", "paper", "twister")


@pytest.mark.parametrize("name", EXACT)
@settings(max_examples=examples(200))
@given(data=st.data())
def test_an_accepted_action_is_listed(name: str, data: st.DataObject) -> None:
    """Mutated listed actions that ``check`` accepts are themselves listed (Twister's moves
    and jumps aside: the next test)."""
    points = [p for p in decisions(name) if p[0].lists_actions(p[1])]
    state, seat, moves = data.draw(st.sampled_from(points))
    text = data.draw(st.sampled_from(moves))
    for _ in range(data.draw(st.integers(1, 3))):
        text = _mutate(data, text)
    try:
        canonical = read_move(state, seat, text)  # (checked, whole: a sealing step's private
    except EngineError:  # form, as the seat's own state lists it)
        return
    if name == "twister" and canonical.split()[0] in ("move", "jump"):
        return
    listed = {state.format_action(a) for a in state.legal_actions(seat)}
    assert canonical in listed


def _result(state: GameState[Any], seat: int, action: Any) -> Any:
    """What an action does: the public position after it, less the words of its record."""
    data = state.apply(seat, action).to_position(private=False)
    data.pop("last", None)
    return data


@cache
def _twister_turns() -> tuple[GameState[Any], ...]:
    """Action decisions of a few random games."""
    spec = get_game("twister")
    found: list[GameState[Any]] = []
    for seed in (b"listing 1", b"listing 2"):
        play_out(spec.new(players=2), [spec.bots["random"]() for _ in range(2)], Dealer(seed),
                 on_state=lambda s: found.append(s) if getattr(s, "phase", "") == "action"
                 and isinstance(s.waiting, Turn) else None)
    return tuple(found[::7])


def _twister_move(state: Any, seat: int, data: st.DataObject) -> Action | None:
    """A move within the listing promise: a walk of up to the mover's steps, with at most one
    drop and one pick-up (each on any square, in either order on one square)."""
    tokens = state.tokens
    movers = [t for t in range(seat * PER_SEAT, seat * PER_SEAT + N_CHARACTERS)
              if tokens[t].at >= 0 and tokens[t].carrier < 0]
    if not movers:
        return None
    t = data.draw(st.sampled_from(movers))
    links = state.board.links
    occ = state.occupancy()
    cur = tokens[t].at
    items: list[int] = []
    took = dropped = False
    for _ in range(data.draw(st.integers(1, MOVE[t % PER_SEAT]))):
        nxt = links[cur * 4 + data.draw(st.integers(0, 3))]
        if nxt < 0:
            break
        items.append(nxt)
        cur = nxt
        here = [u for u in occ.get(cur, []) if u != t and u % PER_SEAT >= N_CHARACTERS]
        for _ in range(data.draw(st.integers(0, 2))):
            if data.draw(st.booleans()) and not took and here:
                items.append(take(data.draw(st.sampled_from(here))))
                took = True
            elif not dropped:
                items.append(DROP)
                dropped = True
    return Action("move", who=t, path=tuple(items)) if items else None


@settings(max_examples=examples(400))
@given(data=st.data())
def test_a_twister_move_within_the_promise_has_a_listed_move_with_its_result(
        data: st.DataObject) -> None:
    state = data.draw(st.sampled_from(_twister_turns()))
    seat = state.waiting.seat
    move = _twister_move(state, seat, data)
    if move is None:
        return
    try:
        state.check(seat, move)
    except EngineError:
        return
    wanted = _result(state, seat, move)
    standing = Action("move", who=move.who)  # (a Move of 0 steps, handling nothing: A3)
    if wanted == _result(state, seat, standing):
        return  # (legal, and by the promise not listed: the token ends where it stood)
    assert any(_result(state, seat, a) == wanted for a in state.legal_actions(seat)
               if a.kind == "move"), state.format_action(move)


def test_taking_from_a_wounded_character_and_dropping_it_there_is_listed() -> None:
    """Layout L, West to act with 2 AP, the West Thief at 1,3, a wounded East Goblin carrying
    the East Armour at 2,3 (issue 48)."""
    state = position({"W-thief": {"at": [1, 3]}, "E-goblin": {"at": [2, 3], "wounded": True},
                      "E-armour": {"carrier": "E-goblin"}}, active=0, ap=2)
    move = state.parse_action(0, "move W-thief 2,3 take E-armour drop 1,3")
    wanted = _result(state, 0, move)
    assert any(_result(state, 0, a) == wanted for a in state.legal_actions(0)
               if a.kind == "move")
