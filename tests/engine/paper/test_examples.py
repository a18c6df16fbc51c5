"""The worked examples of the rules reference (§6), as tests.  E2 and E3 are fragments (one use
each, faces partly given: ruling Q25); they are played as fragments, and E3(a) also as a whole
plan with the missing faces filled in."""

from __future__ import annotations

import pytest

from engine.core import IllegalActionError, Openings, Simultaneous, Turn
from engine.paper import RewardChoice, parse_action
from engine.paper.actions import Answer
from engine.paper.data import ITEM_INDEX, ROOM_INDEX
from engine.paper.rounds import score_missions
from engine.paper.score import score_sheet
from engine.paper.sheet import BOARDS, gems, hp, track
from tests.engine.paper.helpers import at, outcome_of, play, rooms, seat, sheet

E1_ROLL = "warrior clover skull boots wizard skull"
E1_PLAN = "4 move C2 C3 D3 {evolve cleric}; 2 evolve rogue; 5 potions {evolve warrior}"
E1_SEAT = {"power": "barbarian", "styles": "B/W/W/B", "levels": {"wizard": 2}, "room": "C1",
           "explored": ["C1"], "potions": 1, "damage": 1, "rounds": ["126"]}


def e1_state(players: int = 1):  # type: ignore[no-untyped-def]
    state = at("roll", [E1_SEAT] * players, round_no=2)
    return state.apply_chance("R2.roll.1", E1_ROLL)


def test_e1_one_round_of_dice_use() -> None:
    state = e1_state()
    before = seat(state, 0)
    # The roll stands (2 skulls, 1 clover); its 2 damage goes into potion 1's two hearts.
    assert isinstance(state.waiting, Simultaneous)
    assert (before["hearts"], before["damage"]) == (2, 1)
    after = state.apply(0, state.parse_action(0, E1_PLAN))
    s = seat(after, 0)
    assert s["levels"] == {"warrior": 2, "wizard": 2, "cleric": 2, "rogue": 2}
    assert s["hp"] == 8
    assert (s["potions"], s["hearts"], s["damage"], s["resurrected"]) == (4, 3, 2, False)
    assert s["explored"] == ["C1", "C2", "C3", "D3"]
    assert s["traps"] == 2
    assert s["rounds"] == ["126", "245"]
    assert s["room"] == "D3"
    assert position_round(after) == 3


def position_round(state) -> int:  # type: ignore[no-untyped-def]
    return int(state.to_position()["round"])


@pytest.mark.parametrize(("plan", "why"), [
    ("5 evolve wizard; 2 evolve rogue; 4 move C2", "black die and your wizard trains with white"),
    ("1 evolve warrior; 2 evolve rogue; 4 move C2", "white die and your warrior trains with black"),
    ("3 potions; 2 evolve rogue; 4 move C2", "skull"),
    ("6 potions; 2 evolve rogue; 4 move C2", "skull"),
    ("4 potions; 2 evolve rogue; 5 potions", "boots, which only ever move"),
    ("4 evolve cleric; 2 evolve rogue; 5 potions", "boots, which only ever move"),
    ("2 potions; 2 evolve rogue; 4 move C2", "die 2 is used twice"),
])
def test_e1_illegal_in_this_round(plan: str, why: str) -> None:
    state = e1_state()
    with pytest.raises(IllegalActionError, match=why):
        state.parse_action(0, plan)


def test_e1_die_1_may_fill_a_flaming_sword_box_instead() -> None:
    state = e1_state()
    state.parse_action(0, "1 item flaming_sword; 2 evolve rogue; 4 move C2")


def test_e1_dice_are_shared() -> None:
    state = e1_state(players=2)
    q_plan = "4 move C2; 2 evolve rogue; 1 potions"
    after = state.apply_joint({0: parse_action(E1_PLAN), 1: parse_action(q_plan)})
    assert seat(after, 0)["rounds"][-1] == "245"
    assert seat(after, 1)["rounds"][-1] == "124"


E2_SHEET = {"power": "shaman", "styles": "B/W/W/B", "levels": {"warrior": 2, "wizard": 3,
            "cleric": 2, "rogue": 2}, "items": {"armour": 2}, "minions": ["E2", "B1"],
            "room": "E3", "explored": ["E1", "E2", "E3"], "potions": 2, "hearts": 4,
            "damage": 3}


def test_e2_minion_fight_with_damage() -> None:
    s = play(sheet(**E2_SHEET), "1 move F3 F4 {evolve warrior}")
    # F3: orc 4 against warrior 2 + 1 (Armour) = 3: 1 damage, direct (4, not > 9).
    assert (s.damage, s.resurrected) == (4, False)
    # The orc is defeated, the track reaches 3: the Shaman's potion 3 (2 hearts).
    assert track(s) == 3 and s.potions == 3
    # Gem B: gem track 1.  F4: a trap into potion 3's first heart, then warrior 3.
    assert gems(s) == 1 and rooms(s.minions) == ["B1", "E2", "F3"]
    assert s.hearts == 5
    assert s.levels[0] == 3 and hp(s) == 10


def test_e2_without_the_armour_two_damage() -> None:
    s = play(sheet(**{**E2_SHEET, "items": {"armour": 1}}), "1 move F3 F4 {evolve warrior}")
    assert s.damage == 5


def test_e2_two_players_take_gem_b_in_the_same_round() -> None:
    r = dict(E2_SHEET, rounds=["126", "134", "135"])
    s_seat = dict(r, power="merchant")
    t_seat = dict(E2_SHEET, power="scout", room="A1", explored=["A1"], minions=["A1"])
    state = at("plan", [r, s_seat, t_seat], round_no=4, roll=("warrior", "wizard", "cleric",
               "rogue", "warrior", "wizard"))
    after = state.apply_joint({
        0: parse_action("1 move F3 F4 {evolve warrior}; 2 item crown; 3 item tome"),
        1: parse_action("1 move F3; 2 item crown; 3 item tome"),
        2: parse_action("1 item crown; 2 item tome; 3 item cauldron"),
    })
    assert seat(after, 0)["letters"] == ["B"] and seat(after, 1)["letters"] == ["B"]
    assert seat(after, 0)["crossed"] == [] and seat(after, 1)["crossed"] == []
    assert seat(after, 2)["crossed"] == ["B"]


E3_SEAT = {"power": "healer", "styles": "W/B/B/W", "levels": {"warrior": 2, "wizard": 2,
           "cleric": 2}, "room": "B2", "explored": ["B1", "B2"], "minions": ["B1"],
           "damage": 6, "potions": 5, "hearts": 9}


def test_e3a_potion_use_and_resurrection_as_a_whole_plan() -> None:
    state = at("roll", [E3_SEAT], round_no=5)
    state = state.apply_chance("R5.roll.1", "rogue warrior skull skull wizard cleric")
    skulls = seat(state, 0)
    assert (skulls["hearts"], skulls["damage"], skulls["resurrected"]) == (10, 7, False)
    after = state.apply(0, state.parse_action(0, "2 move B3; 1 evolve rogue; 6 potions"))
    s = seat(after, 0)
    assert s["damage"] == 8 and s["resurrected"]  # 8 > 7: marked
    assert s["levels"]["rogue"] == 2 and s["hp"] == 8  # HP 8 does not unmark it
    assert (s["potions"], s["hearts"]) == (7, 10)  # 4 new hearts, none used


def test_e3a_after_resurrection_damage_only_costs_category_h() -> None:
    s = sheet(**{**E3_SEAT, "damage": 8, "resurrected": True, "levels": {"warrior": 2,
              "wizard": 2, "cleric": 2, "rogue": 2}, "potions": 7, "hearts": 14})
    s2 = play(s, "2 move B3")
    assert s2.damage == 9 and s2.resurrected
    assert score_sheet(s2, BOARDS["A"]).resurrection == -9


def test_e3b_the_potion_cap() -> None:
    s = sheet(power="alchemist", styles="BWWB", potions=10, letters=["A", "B"])
    s2 = play(s, "1 potions")
    # 11th, 12th (row 3: extra gem #2, gem track 3: its potion is lost), a 13th ignored.
    assert s2.potions == 12 and gems(s2) == 3


E4_ROLL = ("warrior", "wizard", "cleric", "rogue", "warrior", "wizard")
E4_MOVES = "1 move E4 E5; 2 move E4 E5; 3 move E4 E5"


def e4_seats(p1_cleric: int = 3) -> list[dict[str, object]]:
    base = {"styles": "B/W/W/B", "room": "E5", "explored": ["E4", "E5"], "minions": ["E4"],
            "villains": [2, None, None]}
    p1 = dict(base, power="healer", levels={"warrior": 4, "wizard": 3, "cleric": p1_cleric,
              "rogue": 4}, explored=["B5", "E4", "E5"], potions=1)
    p2 = dict(base, power="barbarian", levels={"warrior": 3, "wizard": 4, "cleric": 4,
              "rogue": 3}, explored=["B5", "E4", "E5"], items={"flaming_sword": 2, "crown": 1})
    p3 = dict(base, power="scout", levels={"warrior": 3, "wizard": 3, "cleric": 2, "rogue": 3})
    return [p1, p2, p3]


def test_e4_villain_combat_with_three_players() -> None:
    state = at("plan", e4_seats(), dungeon="E", round_no=6, roll=E4_ROLL,
               options={"missing_gems": True})
    after = state.apply_joint({s: parse_action(E4_MOVES) for s in range(3)})
    assert after.to_position()["fight"] == [19, 20, -1]
    p1, p2, p3 = (seat(after, s) for s in range(3))
    assert [p["villains"][1] for p in (p1, p2, p3)] == [5, 5, -4]
    assert (p1["hearts"], p1["damage"]) == (2, 1)  # 3 damage: 2 hearts, 1 direct
    assert (p2["hearts"], p2["damage"]) == (0, 0)  # the Barbarian takes none
    assert (p3["hearts"], p3["damage"]) == (0, 0)  # fleeing costs no damage
    # P2 is the unique top and picks the item step: the Crown completes.
    w = after.waiting
    assert isinstance(w, Turn) and w.seat == 1
    assert RewardChoice((Answer("item", (ITEM_INDEX["crown"],)),)) in after.legal_actions(1)
    done = after.apply(1, after.parse_action(1, "item crown"))
    assert seat(done, 1)["items"]["crown"] == 2
    # Missing gems: E and G are crossed off every sheet that has not collected them.
    assert all(seat(done, s)["crossed"] == ["E", "G"] for s in range(3))
    assert done.to_position()["phase"] == "roll" and done.to_position()["round"] == 7


def test_e4_a_tie_at_the_top_gives_nobody_the_reward() -> None:
    state = at("plan", e4_seats(p1_cleric=4), dungeon="E", round_no=6, roll=E4_ROLL)
    after = state.apply_joint({s: parse_action(E4_MOVES) for s in range(3)})
    assert after.to_position()["fight"] == [20, 20, -1]
    assert after.to_position()["phase"] == "roll"


def test_e5_mission_tie() -> None:
    roll = ("warrior", "wizard", "cleric", "rogue", "warrior", "wizard")
    p1 = {"styles": "B/W/W/B", "room": "A4", "explored": ["A4"], "power": "healer",
          "minions": ["A5", "B1", "D1", "E2"], "items": {"death_scepter": 1}}
    p2 = dict(p1, minions=["A5", "B1", "D1", "E2", "F3"], power="scout")
    p3 = {"styles": "B/W/W/B", "room": "C1", "explored": ["C1"], "power": "shaman",
          "levels": {"warrior": 3, "wizard": 3, "cleric": 3, "rogue": 2},
          "minions": ["A1", "B1", "D1", "E2"], "items": {"death_scepter": 1}}
    state = at("plan", [p1, p2, p3], round_no=5, roll=roll, missions=["M8", "M9", "M14"])
    plans = {0: "1 move A5; 2 item death_scepter {scepter A1 A2}; 3 potions",
             1: "1 move A5; 2 item death_scepter {scepter A1 A2}; 3 potions",
             2: "4 evolve rogue; 1 potions; 3 item crown"}
    after = state.apply_joint({s: parse_action(p) for s, p in plans.items()})
    assert [seat(after, s)["minion_track"] for s in range(3)] == [6, 7, 4]
    assert seat(after, 0)["letters"] == ["D"] and seat(after, 1)["letters"] == ["D"]
    assert [seat(after, s)["missions"] for s in range(3)] == [[["M8", 4]], [["M8", 4]],
                                                            [["M14", 4]]]
    assert after.to_position()["open_missions"] == ["M9"]
    # Round 6: P3 reaches 6 minions and scores nothing (M8 has left the game).
    state = after.apply_chance("R6.roll.1", " ".join(roll))
    items = "1 item crown; 2 item tome; 3 item cauldron"
    plans = {0: items, 1: items, 2: "2 item death_scepter {scepter A2 A5}; 1 item crown; "
             "3 item tome"}
    after = state.apply_joint({s: parse_action(p) for s, p in plans.items()})
    assert seat(after, 2)["minion_track"] == 6
    assert seat(after, 2)["missions"] == [["M14", 4]]


def test_e5_solo_mission_glory_by_round() -> None:
    s = sheet(minions=["A1", "A2", "A5", "B1", "D1", "E2"])
    scored, left = score_missions((s,), BOARDS["A"], ("M8", "M9"), 5, solo=True)
    assert scored[0].missions == (("M8", 3),) and left == ("M9",)


E6_SHEET = {"power": "fortune_teller", "styles": "W/W/B/B", "villains": [4, 5, -5],
            "levels": {"warrior": 5, "wizard": 4, "cleric": 6, "rogue": 4},
            "items": {"flaming_sword": 2, "armour": 2, "tome": 2, "crown": 1},
            "letters": ["A", "B", "C"], "minions": ["A1", "A2", "A5", "B1", "D1", "E2", "F3"],
            "damage": 11, "room": "C1", "explored": ["C1"], "missions": [["M3", 4]]}


def test_e6_final_scoring_of_one_sheet() -> None:
    s = sheet(dungeon="E", **E6_SHEET)
    assert gems(s) == 4  # three letters and extra gem #1 (the rogue at level 4)
    got = score_sheet(s, BOARDS["E"], "O13").categories()
    assert got == (4, 5, -5, 9, 12, 12, 10, -6, 0, 6, 4, 51)


def test_e6_through_the_openings_and_the_tie_break() -> None:
    other = dict(E6_SHEET, explored=["C1", "C2"], room="C2", traps=7)
    state = at("open", [E6_SHEET, other], dungeon="E", round_no=8, private={
        "0": {"cards": {"setup.objective.0.0": "O8", "setup.objective.0.1": "O13"}}})
    assert isinstance(state.waiting, Openings)
    state = state.open_private(1, "setup.objective.1.0", "O6")
    state = state.open_sealed(1, {"objective.1": "0"})
    state = state.open_sealed(0, {"objective.0": "1"})  # from its own knowledge
    out = outcome_of(state)
    assert [st.score for st in out.standings] == [51, 49]
    assert out.winners == frozenset({0})
    tie = at("open", [E6_SHEET, other], dungeon="E", round_no=8)
    tie = tie.open_private(0, "setup.objective.0.1", "O13").open_sealed(0, {"objective.0": "1"})
    tie = tie.open_private(1, "setup.objective.1.1", "O3")  # 7 traps: tier 2, as O13
    tie = tie.open_sealed(1, {"objective.1": "1"})
    out = outcome_of(tie)
    assert [st.score for st in out.standings] == [51, 51]
    assert out.winners == frozenset({1})  # more explored rooms


def test_room_indexes_used_here_exist() -> None:
    assert {"E4", "E5", "B5", "F3", "F4"} <= set(ROOM_INDEX)
