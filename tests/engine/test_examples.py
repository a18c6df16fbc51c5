"""The worked examples E1–E11 of the rules reference (§6), each from a JSON position.

Seats are lettered as in the reference: A = seat 0, B = seat 1, and so on (P1 = seat 0 in E10).
Every example starts from a position literal, applies the plays through the checked API and
compares coins, wounds, items, supply, eliminations, the map and the outcome with the text.
"""

from __future__ import annotations

from typing import Any

from engine.core import Over, Simultaneous, Turn
from engine.raiders import from_position
from tests.engine.helpers import (
    coins,
    eliminated,
    items,
    last,
    outcome,
    play_joint,
    play_turns,
    position,
    statuses,
    supply,
    wounds,
)

A, B, C, D, E = range(5)


# ---------------------------------------------------------------------- E1


E1 = {
    "game": "raiders", "format": 1, "players": 5, "variant": "basic",
    "phase": "play", "level": 1, "room": 1, "layout": "L3",
    "row": ["treasure-4-2#1", "zombie#1", "goblin#1", "troll#1", "down"],
    "seats": [
        {"character": "warrior", "coins": 2, "wounds": 0},
        {"character": "wizard", "coins": 1, "wounds": 1, "items": {"crystal": 2}},
        {"character": "thief", "coins": 2, "wounds": 2, "items": {"key": 1}},
        {"character": "explorer", "coins": 3, "wounds": 2, "items": {"torch": 1}},
        {"character": "knight", "coins": 1, "wounds": 1, "items": {"sword": 1}},
    ],
}


def test_e1_treasure_three_way_tie_and_second_chest() -> None:
    state = from_position(E1)
    after = play_joint(state, {A: "4", B: "4", C: "4", D: "2", E: "1"})
    # A, B, C share the 4-coin chest: 1 each, remainder lost; D takes the 2-coin chest.
    assert coins(after) == [3, 2, 3, 5, 1]
    assert wounds(after) == wounds(state)
    assert last(after)["coin_delta"] == [1, 1, 1, 2, 0]
    assert supply(after) == supply(state)


# ---------------------------------------------------------------------- E2


E2 = {
    "game": "raiders", "format": 1, "players": 4, "variant": "basic",
    "phase": "play", "level": 1, "room": 1, "layout": "L3",
    "row": ["dragon#1", "treasure-3", "zombie#1", "goblin#1", "down"],
    "seats": [
        {"character": "warrior", "coins": 2, "wounds": 0},
        {"character": "thief", "coins": 2, "wounds": 2, "items": {"key": 1}},
        {"character": "explorer", "coins": 3, "wounds": 2, "items": {"torch": 1}},
        {"character": "knight", "coins": 1, "wounds": 1, "items": {"sword": 1}},
    ],
}


def test_e2_dragon_attacks_the_tied_lowest() -> None:
    after = play_joint(from_position(E2), {A: "5", B: "4", C: "3", D: "3"})
    r = last(after)
    assert (r["total"], r["strength"], r["defeated"]) == (15, 18, False)
    assert r["attacked"] == [False, False, True, True]
    assert wounds(after) == [0, 2, 5, 4]
    assert coins(after) == [2, 2, 3, 1]


# ---------------------------------------------------------------------- E3


E3A = {
    "game": "raiders", "format": 1, "players": 4, "variant": "basic",
    "phase": "play", "level": 1, "room": 1, "layout": "L3",
    "row": ["lava", "boulder", "treasure-3", "zombie#1", "down"],
    "seats": [
        {"character": "warrior", "coins": 9, "wounds": 1},
        {"character": "wizard", "coins": 9, "wounds": 0},
        {"character": "explorer", "coins": 4, "wounds": 0, "items": {"torch": 1}},
        {"character": "knight", "coins": 0, "wounds": 3},
    ],
}

# E3 (b) and (c) start from the counters left by (a).  A and D played their 2 and 1 in (a), so
# (b) is set up as its own room with the same counters rather than as the next room of that row.
E3B = {
    "game": "raiders", "format": 1, "players": 4, "variant": "basic",
    "phase": "play", "level": 1, "room": 1, "layout": "L3",
    "row": ["boulder", "lava", "treasure-3", "zombie#1", "down"],
    "seats": [
        {"character": "warrior", "coins": 7, "wounds": 1},
        {"character": "wizard", "coins": 7, "wounds": 0},
        {"character": "explorer", "coins": 4, "wounds": 0},
        {"character": "knight", "coins": 0, "wounds": 3},
    ],
}

E3C = {**E3B, "row": ["spikes", "lava", "treasure-3", "zombie#1", "down"]}


def test_e3a_lava_trap_hits_the_tied_richest() -> None:
    after = play_joint(from_position(E3A), {A: "2", B: "4", C: "play torch", D: "1"})
    assert coins(after) == [7, 7, 4, 0]
    assert wounds(after) == [1, 0, 0, 3]
    assert last(after)["values"] == [2, 4, 0, 1]
    # The torch went back to the supply.
    assert items(after, C)["torch"] == 0
    assert supply(after)["torch"] == 6
    # The next room is the boulder trap of (b); (b) itself is played from E3B.
    assert position(after)["row"][1] == "boulder"


def test_e3b_boulder_trap_hits_the_fewest_wounds() -> None:
    after = play_joint(from_position(E3B), {A: "2", B: "1", C: "2", D: "1"})
    assert wounds(after) == [1, 1, 1, 3]
    assert coins(after) == [7, 7, 4, 0]


def test_e3c_spike_trap_does_nothing_at_2() -> None:
    state = from_position(E3C)
    after = play_joint(state, {A: "2", B: "1", C: "2", D: "1"})
    assert wounds(after) == [1, 0, 0, 3]
    assert coins(after) == [7, 7, 4, 0]


# ---------------------------------------------------------------------- E4


E4 = {
    "game": "raiders", "format": 1, "players": 4, "variant": "basic",
    "phase": "play", "level": 1, "room": 1, "layout": "L3",
    "row": ["vault-items#1", "treasure-3", "zombie#1", "goblin#1", "down"],
    "seats": [
        {"character": "warrior", "coins": 2, "items": {"torch": 2, "sword": 1}},
        {"character": "thief", "coins": 2, "wounds": 2, "items": {"torch": 2}},
        {"character": "wizard", "coins": 1, "wounds": 1, "items": {"torch": 1, "crystal": 1}},
        {"character": "explorer", "coins": 3, "wounds": 2, "items": {"crystal": 2}},
    ],
    "supply": {"torch": 1, "crystal": 3, "key": 6, "sword": 5},
}


def test_e4_items_vault_shortage() -> None:
    state = from_position(E4)
    assert supply(state) == {"torch": 1, "crystal": 3, "key": 6, "sword": 5}
    mid = play_joint(state, {A: "1", B: "1", C: "crystal", D: "5"})
    # C's ball is revealed and goes back to the supply at once.
    assert mid.waiting == Simultaneous("L1.R1.followup", frozenset({C}))
    assert supply(mid)["crystal"] == 4
    after = play_joint(mid, {C: "2"})
    # A and B both ask for the single torch: neither gets one.  C takes a ball; D drinks.
    assert items(after, A) == {"torch": 2, "crystal": 0, "key": 0, "sword": 1}
    assert items(after, B) == {"torch": 2, "crystal": 0, "key": 0, "sword": 0}
    assert items(after, C) == {"torch": 1, "crystal": 1, "key": 0, "sword": 0}
    assert wounds(after) == [0, 2, 1, 1]
    assert last(after)["gained"] == ["", "", "crystal", ""]
    assert supply(after) == {"torch": 1, "crystal": 3, "key": 6, "sword": 5}


# ---------------------------------------------------------------------- bosses (level 5, room 5)


E5 = {
    "game": "raiders", "format": 1, "players": 4, "variant": "basic",
    "phase": "play", "level": 5, "room": 5, "layout": "L3",
    "row": ["zombie#1", "treasure-3", "goblin#1", "troll#1", "golem"],
    "rooms": ["snake", "skeleton", "thing", "dragon#1", "lava", "spikes"],
    "level_cards": ["L1", "L2"],
    "seats": [
        {"character": "warrior", "coins": 6, "wounds": 1, "used": [1, 2, 3, 4]},
        {"character": "knight", "coins": 5, "wounds": 2, "items": {"sword": 1},
         "used": [1, 2, 3, 4]},
        {"character": "thief", "coins": 4, "wounds": 3, "used": [1, 3, 4, 5]},
        {"character": "explorer", "coins": 7, "wounds": 2, "used": [2, 3, 4, 5]},
    ],
}


def test_e5_golem_counts_5_and_sword_as_1() -> None:
    after = play_joint(from_position(E5), {A: "5", B: "sword", C: "2", D: "1"})
    r = last(after)
    assert r["values"] == [1, 1, 2, 1]
    assert r["attacked"] == [True, True, False, True]
    assert wounds(after) == [4, 5, 3, 5]
    assert coins(after) == [6, 5, 4, 7]
    # The sword went back to the supply; the boss is the last room, so the game is over.
    assert items(after, B)["sword"] == 0
    assert supply(after)["sword"] == 6
    assert isinstance(after.waiting, Over)


E6 = {
    "game": "raiders", "format": 1, "players": 3, "variant": "basic",
    "phase": "play", "level": 5, "room": 5, "layout": "L3",
    "row": ["zombie#1", "treasure-3", "goblin#1", "troll#1", "mummy"],
    "rooms": ["snake", "skeleton", "thing", "dragon#1", "lava", "spikes"],
    "level_cards": ["L1", "L2"],
    "seats": [
        {"character": "knight", "coins": 5, "wounds": 1, "items": {"sword": 1}},
        {"character": "warrior", "coins": 5, "wounds": 1},
        {"character": "thief", "coins": 5, "wounds": 1},
    ],
}


def test_e6_mummy_attacks_the_highest() -> None:
    after = play_joint(from_position(E6), {A: "sword", B: "4", C: "4"})
    assert last(after)["values"] == [5, 4, 4]
    assert wounds(after) == [4, 1, 1]


def test_e6_mummy_attacks_the_tied_highest_when_a_plays_1() -> None:
    after = play_joint(from_position(E6), {A: "1", B: "4", C: "4"})
    assert wounds(after) == [1, 4, 4]


E7A = {
    "game": "raiders", "format": 1, "players": 3, "variant": "basic",
    "phase": "play", "level": 5, "room": 5, "layout": "L3",
    "row": ["zombie#1", "treasure-3", "goblin#1", "troll#1", "sphinx"],
    "rooms": ["snake", "skeleton", "thing", "dragon#1", "lava", "spikes"],
    "level_cards": ["L1", "L2"],
    "seats": [
        {"character": "warrior", "coins": 8, "wounds": 1},
        {"character": "wizard", "coins": 6, "wounds": 2},
        {"character": "thief", "coins": 7, "wounds": 3},
    ],
}


def test_e7a_sphinx_all_same_value_not_defeated_nobody_gains() -> None:
    after = play_joint(from_position(E7A), {A: "3", B: "3", C: "3"})
    r = last(after)
    assert (r["total"], r["strength"], r["defeated"]) == (9, 11, False)
    assert wounds(after) == [3, 4, 5]
    assert coins(after) == [8, 6, 7]


E7B = {
    "game": "raiders", "format": 1, "players": 4, "variant": "basic",
    "phase": "play", "level": 5, "room": 5, "layout": "L3",
    "row": ["zombie#1", "treasure-3", "goblin#1", "troll#1", "sphinx"],
    "rooms": ["snake", "skeleton", "thing", "dragon#1", "lava", "spikes"],
    "level_cards": ["L1", "L2"],
    "seats": [
        {"character": "warrior", "coins": 8, "wounds": 1},
        {"character": "knight", "coins": 6, "wounds": 2, "items": {"sword": 1}},
        {"character": "thief", "coins": 7, "wounds": 3},
        {"character": "explorer", "coins": 5, "wounds": 0},
    ],
}


def test_e7b_sphinx_not_defeated_highest_still_gains() -> None:
    after = play_joint(from_position(E7B), {A: "5", B: "sword", C: "2", D: "1"})
    r = last(after)
    assert (r["total"], r["strength"], r["defeated"]) == (13, 14, False)
    assert wounds(after) == [1, 2, 3, 2]
    assert coins(after) == [10, 8, 7, 5]


def test_e7c_sphinx_defeated_highest_gains() -> None:
    after = play_joint(from_position(E7B), {A: "5", B: "5", C: "4", D: "2"})
    r = last(after)
    assert (r["total"], r["defeated"]) == (16, True)
    assert wounds(after) == [1, 2, 3, 0]
    assert coins(after) == [10, 8, 7, 5]


# ---------------------------------------------------------------------- E8


E8 = {
    "game": "raiders", "format": 1, "players": 4, "variant": "basic",
    "phase": "play", "level": 5, "room": 5, "layout": "L6",
    "row": ["zombie#1", "treasure-3", "goblin#1", "troll#1", "medusa"],
    "rooms": ["snake", "skeleton", "thing", "dragon#1", "lava", "spikes"],
    "level_cards": ["L1", "L2"],
    "seats": [
        {"character": "warrior", "coins": 10, "wounds": 4, "used": [1, 2, 3, 5]},
        {"character": "wizard", "coins": 12, "wounds": 9, "used": [1, 3, 4, 5]},
        {"character": "thief", "coins": 11, "wounds": 2, "used": [1, 3, 4, 5]},
        {"character": "explorer", "coins": 15, "wounds": 7, "used": [1, 2, 4, 5]},
    ],
}


def test_e8_medusa_eliminates_then_survivors_faint() -> None:
    after = play_joint(from_position(E8), {A: "4", B: "2", C: "2", D: "3"})
    r = last(after)
    assert (r["total"], r["strength"], r["defeated"]) == (11, 14, False)
    assert eliminated(after) == [False, True, True, False]
    assert coins(after) == [10, 12, 11, 15]
    assert wounds(after) == [4, 9, 2, 7]
    result = outcome(after)
    # Survivors A (4 wounds) and D (7): D faints, A wins.  B's 9 wounds are ignored.
    assert result.winners == frozenset({A})
    assert statuses(after) == ["winner", "eliminated", "eliminated", "fainted"]
    assert result.share(A) == 1.0
    assert result.share(D) == 0.0


def test_e8_variant_everyone_eliminated_nobody_wins() -> None:
    state = from_position({
        **E8,
        "seats": [
            {"character": "warrior", "coins": 10, "wounds": 4, "used": [1, 2, 4, 5]},
            {"character": "wizard", "coins": 12, "wounds": 9, "used": [1, 2, 4, 5]},
            {"character": "thief", "coins": 11, "wounds": 2, "used": [1, 2, 4, 5]},
            {"character": "explorer", "coins": 15, "wounds": 7, "used": [1, 2, 4, 5]},
        ],
    })
    after = play_joint(state, {A: "3", B: "3", C: "3", D: "3"})
    assert last(after)["total"] == 12
    assert eliminated(after) == [True, True, True, True]
    result = outcome(after)
    assert result.winners == frozenset()
    assert statuses(after) == ["eliminated"] * 4
    assert all(result.share(s) == 0.0 for s in range(4))


# ---------------------------------------------------------------------- E9


def finished_game(*seats: tuple[int, int]) -> dict[str, Any]:
    """A finished game's position (phase "over") with these (coins, wounds) per seat."""
    characters = ("warrior", "wizard", "thief", "knight", "explorer")
    return {
        "game": "raiders", "format": 1, "players": len(seats), "variant": "basic",
        "phase": "over", "level": 5, "room": 5,
        "rooms": ["snake", "skeleton", "thing", "dragon#1", "lava", "spikes"],
        "seats": [{"character": characters[i], "coins": coins, "wounds": wounds}
                  for i, (coins, wounds) in enumerate(seats)],
    }


E9A = finished_game((15, 6), (11, 6), (9, 2))
E9B = finished_game((15, 6), (11, 6), (9, 2), (9, 1))
E9C = finished_game((15, 3), (11, 3), (17, 3), (9, 3))
E9D = finished_game((15, 7), (11, 6), (9, 2))

def test_e9a_three_players_tied_most_wounds_nobody_faints() -> None:
    state = from_position(E9A)
    assert outcome(state).winners == frozenset({A})
    assert statuses(state) == ["winner", "lost", "lost"]


def test_e9b_four_players_tied_most_wounds_both_faint() -> None:
    state = from_position(E9B)
    assert outcome(state).winners == frozenset({D})
    assert statuses(state) == ["fainted", "fainted", "lost", "winner"]


def test_e9c_everyone_equal_wounds_nobody_faints() -> None:
    state = from_position(E9C)
    assert outcome(state).winners == frozenset({C})
    assert "fainted" not in statuses(state)


def test_e9d_three_players_unique_most_wounds_faints() -> None:
    state = from_position(E9D)
    assert statuses(state) == ["fainted", "winner", "lost"]
    assert outcome(state).winners == frozenset({B})


E9A_BOSS = {
    "game": "raiders", "format": 1, "players": 3, "variant": "basic",
    "phase": "play", "level": 5, "room": 5, "layout": "L3",
    "row": ["zombie#1", "treasure-3", "goblin#1", "troll#1", "tax_collector"],
    "rooms": ["snake", "skeleton", "thing", "dragon#1", "lava", "spikes"],
    "level_cards": ["L1", "L2"],
    "seats": [
        {"character": "warrior", "coins": 15, "wounds": 6},
        {"character": "wizard", "coins": 11, "wounds": 6},
        {"character": "thief", "coins": 9, "wounds": 2},
    ],
}


def test_e9a_reached_by_playing_the_last_room() -> None:
    # 5 + 4 + 3 = 12 defeats the Tax Collector (11): the counters stay as in E9 (a).
    after = play_joint(from_position(E9A_BOSS), {A: "5", B: "4", C: "3"})
    assert last(after)["defeated"] is True
    assert position(after)["phase"] == "over"
    assert outcome(after).winners == frozenset({A})
    assert statuses(after) == ["winner", "lost", "lost"]


# ---------------------------------------------------------------------- E10


P1, P2, P3, P4 = range(4)

E10 = {
    "game": "raiders", "format": 1, "players": 4, "variant": "tactical",
    "phase": "play", "level": 1, "room": 1, "layout": "L3",
    "row": ["treasure-3-2#1", "zombie#1", "goblin#1", "troll#1", "down"],
    "map": P2, "turn": 0,
    "seats": [
        {"character": "thief", "coins": 2, "wounds": 2, "items": {"key": 1}},
        {"character": "warrior", "coins": 2, "wounds": 0},
        {"character": "wizard", "coins": 1, "wounds": 1, "items": {"crystal": 2}},
        {"character": "knight", "coins": 1, "wounds": 1, "items": {"sword": 1}},
    ],
}


def test_e10_tactical_play_order_chests_and_map() -> None:
    state = from_position(E10)
    assert state.waiting == Turn("L1.R1.play.1", P2)
    mid = play_turns(state, [(P2, "play 3"), (P3, "play crystal"), (P4, "play 5"),
                             (P1, "play key")])
    # Everyone has played face up; now the ball user plays the follow-up.
    w = mid.waiting
    assert isinstance(w, Turn) and w.seat == P3 and "followup" in w.step
    assert [s["play"] for s in position(mid)["seats"]] == ["key", "3", "crystal", "5"]
    # In the tactical variant the ball stays on the table until the follow-ups are played.
    assert supply(mid)["crystal"] == 4
    after = play_turns(mid, [(P3, "play 5")])
    assert last(after)["values"] == [5, 3, 5, 5]
    assert coins(after) == [3, 4, 2, 2]
    assert position(after)["map"] == P3
    assert supply(after) == {"torch": 6, "crystal": 5, "key": 6, "sword": 5}
    assert items(after, P1)["key"] == 0
    assert items(after, P3)["crystal"] == 1
    # The new map holder starts the next room.
    assert after.waiting == Turn("L1.R2.play.2", P3)


# ---------------------------------------------------------------------- E11


E11 = {
    "game": "raiders", "format": 1, "players": 5, "variant": "basic",
    "phase": "play", "level": 5, "room": 5, "layout": "L3",
    "row": ["zombie#1", "treasure-3", "goblin#1", "troll#1", "wolf_pack"],
    "rooms": ["snake", "skeleton", "thing", "dragon#1", "lava", "spikes"],
    "level_cards": ["L1", "L2"],
    "seats": [
        {"character": "explorer", "coins": 5, "wounds": 2, "items": {"torch": 1}},
        {"character": "warrior", "coins": 5, "wounds": 2},
        {"character": "wizard", "coins": 5, "wounds": 2},
        {"character": "thief", "coins": 5, "wounds": 2},
        {"character": "knight", "coins": 5, "wounds": 2},
    ],
}


def test_e11_wolf_pack_torch_escapes() -> None:
    after = play_joint(from_position(E11),
                       {A: "play torch", B: "5", C: "4", D: "3", E: "2"})
    r = last(after)
    assert (r["total"], r["strength"], r["defeated"]) == (14, 16, False)
    assert r["attacked"] == [False, False, False, False, True]
    assert wounds(after) == [2, 2, 2, 2, 4]
    assert supply(after)["torch"] == 6


def test_e11_against_another_monster_the_torch_is_attacked() -> None:
    # The same plays against the Necromancer (strength 23 for 5): A's torch is the lowest (0).
    state = from_position({**E11, "row": ["zombie#1", "treasure-3", "goblin#1", "troll#1",
                                          "necromancer"]})
    after = play_joint(state, {A: "play torch", B: "5", C: "4", D: "3", E: "2"})
    assert last(after)["attacked"] == [True, False, False, False, False]
    assert wounds(after) == [4, 2, 2, 2, 2]
