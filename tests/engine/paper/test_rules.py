"""Rulings of the rules reference (§3, §5 and §8), one behaviour at a time."""

from __future__ import annotations

import pytest

from engine.core import IllegalActionError, Record, Simultaneous, Turn
from engine.paper import new_game, parse_action
from engine.paper.actions import ITEM, Answer, Use
from engine.paper.data import CLOAK, ITEM_INDEX, MEDALLION, ROOM_INDEX, VILLAINS
from engine.paper.resolve import play_uses
from engine.paper.rounds import combat_level, fight, reward_choices, skull_damage
from engine.paper.sheet import BOARDS, gems, hp, track
from tests.engine.paper.helpers import ROLL, at, play, rooms, seat, sheet

WHITE_CLOVER = ("clover", "wizard", "cleric", "boots", "warrior", "wizard")
IN_C1 = {"styles": "BWWB", "room": "C1", "explored": ["C1"]}


# ---------------------------------------------------------------------- rolls and skulls


@pytest.mark.parametrize(("faces", "again"), [
    ("skull skull skull warrior wizard cleric", True),
    ("clover clover clover warrior wizard cleric", True),
    ("skull clover clover skull warrior boots", False),
    ("skull skull skull skull skull skull", True),
])
def test_rerolls_are_new_events_kept_in_the_history(faces: str, again: bool) -> None:
    record = Record(at("roll", [IN_C1], round_no=3))
    record.resolve("R3.roll.1", faces)
    w = record.state.waiting
    if again:
        assert w.event.id == "R3.roll.2"  # type: ignore[union-attr]
        record.resolve("R3.roll.2", "warrior wizard cleric rogue warrior boots")
    assert isinstance(record.state.waiting, Simultaneous)
    assert len(record.history) == 1 + again


def test_skull_damage() -> None:
    s = sheet(damage=0)
    assert skull_damage(s, 2).damage == 2
    assert skull_damage(s._replace(power="fortune_teller"), 2).damage == 1
    assert skull_damage(s._replace(power="fortune_teller"), 1).damage == 0
    assert skull_damage(s._replace(levels=(1, 1, 4, 1)), 2).damage == 0  # cleric 4


# ---------------------------------------------------------------------- dice and colours


def test_clover_is_any_hero_in_either_colour_and_moves_two() -> None:
    s = sheet(styles="BWWB", room="C1", explored=["C1"])
    assert play(s, "1 evolve rogue", WHITE_CLOVER).levels[3] == 2  # a black-trained rogue
    assert play(s, "1 move C2 C3", WHITE_CLOVER).room == ROOM_INDEX["C3"]
    with pytest.raises(IllegalActionError, match="2 steps"):
        play(s, "1 move C2 C3 D3", WHITE_CLOVER)


def test_boots_move_three_and_nothing_else() -> None:
    s = sheet(room="C1", explored=["C1"], styles="BWWB")
    assert play(s, "4 move C2 C3 C2", WHITE_CLOVER).room == ROOM_INDEX["C2"]
    with pytest.raises(IllegalActionError, match="3 steps"):
        play(s, "4 move C2 C3 C2 C3", WHITE_CLOVER)
    with pytest.raises(IllegalActionError, match="only ever move"):
        play(s, "4 item crown", WHITE_CLOVER)


def test_wizard_level_4_and_psionic() -> None:
    s = sheet(styles="WBBW")
    with pytest.raises(IllegalActionError, match="black die"):
        play(s, "5 evolve warrior")  # die 5: a black warrior
    assert play(s._replace(levels=(1, 4, 1, 1)), "5 evolve warrior").levels[0] == 2
    psi = s._replace(power="psionic")
    assert play(psi, "5 psionic evolve warrior").levels[0] == 2
    with pytest.raises(IllegalActionError, match="one die a round"):
        play(psi, "5 psionic evolve warrior; 2 psionic evolve wizard",
             ("warrior", "wizard", "cleric", "rogue", "warrior", "wizard"))
    with pytest.raises(IllegalActionError, match="only when an evolution needs it"):
        play(psi, "1 psionic evolve warrior")
    with pytest.raises(IllegalActionError, match="only when an evolution needs it"):
        play(psi._replace(levels=(1, 4, 1, 1)), "5 psionic evolve warrior")
    with pytest.raises(IllegalActionError, match="needs the Psionic power"):
        play(s, "5 psionic evolve warrior")
    with pytest.raises(IllegalActionError, match="colour of an evolution die"):
        play(psi, "5 psionic potions")


def test_items_take_their_symbol_and_never_boots() -> None:
    s = sheet(styles="BWWB")
    assert play(s, "1 item flaming_sword").items[0] == 1  # die 1 shows warrior
    with pytest.raises(IllegalActionError, match="wizard symbol or a clover"):
        play(s, "1 item death_scepter")
    assert play(s, "1 item death_scepter", WHITE_CLOVER).items[1] == 1
    assert play(s, "3 item cauldron").items[5] == 1  # any hero symbol for items 5-8


def test_a_die_use_must_change_the_sheet_but_potions_at_12_are_legal() -> None:
    with pytest.raises(IllegalActionError, match="level 6"):
        play(sheet(styles="BWWB", levels={"warrior": 6}), "5 evolve warrior")
    with pytest.raises(IllegalActionError, match="already complete"):
        play(sheet(items={"crown": 2}), "1 item crown")
    full = sheet(potions=12, hearts=3)
    assert play(full, "1 potions") == full


# ---------------------------------------------------------------------- moving


def test_entry_points() -> None:
    s = sheet()
    assert play(s, "1 move entryC C1 C2").explored == (1 << 2) | (1 << 8)
    with pytest.raises(IllegalActionError, match="starts at an entry"):
        play(s, "1 move C1")
    with pytest.raises(IllegalActionError, match="leads into C1"):
        play(s, "1 move entryC D1")
    with pytest.raises(IllegalActionError, match="only its first move"):
        play(sheet(room="C1", explored=["C1"]), "1 move entryC C1")


def test_walls_water_and_their_items() -> None:
    s = sheet(room="C3", explored=["C3"])
    with pytest.raises(IllegalActionError, match="wall"):
        play(s, "1 move C4")
    cloaked = s._replace(items=tuple(2 if i == CLOAK else 0 for i in range(8)))
    after = play(cloaked, "1 move C4")
    assert after.room == ROOM_INDEX["C4"] and after.crossings == 1
    w = sheet(room="A1", explored=["A1"])
    with pytest.raises(IllegalActionError, match="water"):
        play(w, "1 move A2")
    wet = w._replace(items=tuple(2 if i == MEDALLION else 0 for i in range(8)))
    assert play(wet, "1 move A2").crossings == 1
    with pytest.raises(IllegalActionError, match="water"):
        play(cloaked._replace(room=0, explored=1), "1 move A2")  # the Cloak is no boat


def test_ranger_steps_after_water() -> None:
    wet = sheet(room="A1", explored=["A1"], items={"khar_medallion": 2}, power="ranger")
    after = play(wet, "1 move A2 B2 B3", dungeon="B")
    assert after.room == ROOM_INDEX["B3"]
    with pytest.raises(IllegalActionError, match="3 steps"):
        play(wet, "1 move A2 B2 B3 B2", dungeon="B")
    with pytest.raises(IllegalActionError, match="2 steps"):
        play(wet._replace(power="scout"), "1 move A2 B2 B3", dungeon="B")


def test_side_passages_and_no_other_wrap() -> None:
    s = sheet(room="F2", explored=["F2"])
    assert play(s, "1 move A2", dungeon="B").room == ROOM_INDEX["A2"]
    assert play(sheet(room="A4", explored=["A4"]), "1 move F4 {evolve warrior}",
                dungeon="B").room == ROOM_INDEX["F4"]
    with pytest.raises(IllegalActionError, match="no step"):
        play(sheet(room="A1", explored=["A1"]), "1 move F1")


def test_revisits_trigger_traps_only_and_a_step_back_is_allowed() -> None:
    s = sheet(room="C1", explored=["C1"])
    after = play(s, "1 move C2 C1; 2 move C2 C1")
    assert after.traps == 2 and after.damage == 2
    assert after.potions == 0  # C1's potion was taken on the first entry, before


def test_room_event_order_lair_minion_trap_pickups() -> None:
    # E2 on card A holds a level-3 zombie and an evolution icon: the fight comes first.
    s = sheet(room="E1", explored=["E1"])
    after = play(s, "1 move E2 {evolve cleric}")
    assert after.damage == 2 and track(after) == 1 and after.levels[2] == 2


def test_scout_still_triggers_traps() -> None:
    s = sheet(room="C1", explored=["C1"], power="scout")
    after = play(s, "1 move C2")
    assert (after.traps, after.damage) == (1, 0)


# ---------------------------------------------------------------------- triggers


def test_free_evolution_with_every_hero_at_6_is_lost_without_an_answer() -> None:
    s = sheet(levels={"warrior": 6, "wizard": 6, "cleric": 6, "rogue": 6}, room="C2",
              explored=["C2"])
    assert play(s, "1 move D2 D3").levels == (6, 6, 6, 6)
    with pytest.raises(IllegalActionError, match="no trigger"):
        play(s, "1 move D2 D3 {evolve warrior}")


def test_free_item_step_names_an_incomplete_item() -> None:
    s = sheet(room="C4", explored=["C4"], items={"crown": 2}, minions=["C4"])
    with pytest.raises(IllegalActionError, match="already complete"):
        play(s, "1 move B4 {item crown}", dungeon="B")
    assert play(s, "1 move B4 {item tome}", dungeon="B").items[7] == 1


def test_answers_in_trigger_order() -> None:
    s = sheet(room="C2", explored=["C2"], potions=3)
    with pytest.raises(IllegalActionError, match="trigger order"):
        play(s, "1 move C3 D3 {item crown, evolve rogue}")
    after = play(s, "1 move C3 D3 {evolve rogue, evolve wizard}")
    # C3: potion 4 completes row 1 (evolve rogue), D3: the evolution icon (evolve wizard).
    assert after.levels == (1, 2, 1, 2)


def test_death_scepter() -> None:
    s = sheet(items={"death_scepter": 1}, styles="BWWB")
    after = play(s, "2 item death_scepter {scepter A1 F7}")
    assert rooms(after.minions) == ["A1", "F7"] and track(after) == 2
    assert after.explored == 0
    unsorted = Use(2, False, ITEM, 1, -1, (), (Answer("scepter", (ROOM_INDEX["F7"],
                                                                    ROOM_INDEX["A1"])),))
    with pytest.raises(IllegalActionError, match="sorted"):
        play_uses(s, (unsorted,), BOARDS["A"], ROLL)
    with pytest.raises(IllegalActionError, match="2 different"):
        play(s, "2 item death_scepter {scepter A1}")
    one_left = s._replace(minions=sum(1 << ROOM_INDEX[r] for r in (
        "A1", "A2", "A5", "B1", "C4", "D1", "D6", "E2", "E4", "F3", "F5")))
    assert track(play(one_left, "2 item death_scepter {scepter F7}")) == 12
    none_left = one_left._replace(minions=one_left.minions | 1 << ROOM_INDEX["F7"])
    assert play(none_left, "2 item death_scepter").items[1] == 2


def test_beastmaster_shaman_merchant_noble_alchemist() -> None:
    two = sheet(minions=["A1", "B1"], room="C1", explored=["C1"], styles="BWWB")
    beast = play(two._replace(power="beastmaster"), "1 move D1 {item tome}")
    assert track(beast) == 3 and beast.items[7] == 1
    shaman = play(two._replace(power="shaman"), "1 move D1")
    assert shaman.potions == 2  # D1's own potion and the Shaman's
    merchant = play(sheet(power="merchant", room="F2", explored=["F2"],
                          items={"khar_medallion": 2}), "1 move F3")
    assert gems(merchant) == 1 and merchant.potions == 1
    noble = play(sheet(power="noble", styles="BWWB", levels={"warrior": 4}),
                 "5 evolve warrior {item crown}")
    assert noble.levels[0] == 5 and noble.items[4] == 1
    assert play(sheet(power="alchemist"), "1 potions").potions == 3


def test_extra_gems_and_the_circle_benefits() -> None:
    s = sheet(styles="BWWB", levels={"rogue": 3}, letters=["A", "B"])
    after = play(s, "4 evolve rogue")  # extra gem #1: circle 3 gives a potion
    assert gems(after) == 3 and after.potions == 1
    merchant = s._replace(power="merchant")
    after = play(merchant, "4 evolve rogue")
    assert after.potions == 2  # the circle's potion, then the Merchant's (Q3)
    five = sheet(styles="BWWB", levels={"rogue": 3}, letters=["A", "B", "C", "D", "E"])
    assert play(five, "4 evolve rogue {evolve warrior}").levels == (2, 1, 1, 4)


def test_potion_rows() -> None:
    s = sheet(potions=6)
    assert play(s, "1 potions {item crown}").items[4] == 1  # the 8th potion: an item step
    assert hp(play(sheet(potions=2), "1 potions {evolve cleric}")) == 5


# ---------------------------------------------------------------------- setup powers


def test_setup_powers_act_on_their_sheet() -> None:
    state = new_game(1, missions=False)
    state = state.apply_chance("setup.dungeon", "A")
    for i, card in enumerate(("veteran", "healer", "O1", "O8")):
        event = state.waiting.event  # type: ignore[union-attr]
        state = state.apply_private(event.id).learn(0, {event.id: card})
        del i
    for text, check in [
        ("power 0 veteran warrior rogue; styles B/W/W/B", lambda s: s["levels"]["rogue"] == 2),
        ("power 1 healer; styles B/W/W/B", lambda s: s["potions"] == 2),
    ]:
        after = state.apply(0, state.parse_action(0, text))
        assert check(seat(after, 0))
        assert seat(after, 0)["power"] == text.split()[2].rstrip(";")


def test_assassin_craftsman_treasure_hunter() -> None:
    from engine.paper.actions import parse_setup
    from engine.paper.rounds import apply_setup

    board = BOARDS["A"]
    s = sheet()
    a = apply_setup(s, board, parse_setup("power 0 assassin A5 F7; styles B/W/W/B"))
    assert rooms(a.minions) == ["A5", "F7"] and a.explored == 0
    c = apply_setup(s, board, parse_setup("power 0 craftsman cloak crown; styles B/W/W/B"))
    assert c.items == (0, 0, 0, 1, 1, 0, 0, 0)
    t = apply_setup(s, board, parse_setup("power 0 treasure_hunter F; styles B/W/W/B"))
    assert gems(t) == 1
    again = play(t._replace(room=ROOM_INDEX["D5"], explored=1 << ROOM_INDEX["D5"]),
                 "1 move D6", dungeon="B")
    assert gems(again) == 1  # the hunted letter is never collected again


def test_the_treasure_hunters_letter_crosses_nothing_out() -> None:
    hunter = {"power": "treasure_hunter", "letters": ["A"], "styles": "BWWB"}
    state = at("plan", [hunter, {"styles": "BWWB"}], roll=ROLL)
    after = state.apply_joint({0: parse_action("1 item crown; 2 item tome; 3 item armour"),
                               1: parse_action("1 item crown; 2 item tome; 3 item armour")})
    assert seat(after, 1)["crossed"] == []


# ---------------------------------------------------------------------- villains and rounds


def test_combat_level_and_fleeing() -> None:
    v = VILLAINS["A"]  # Minotaur, weakness warrior, 9/12/15
    s = sheet(levels={"warrior": 4, "wizard": 2}, items={"flaming_sword": 2},
              power="berserker", room="D2", explored=["D2"])
    assert combat_level(s, v) == 8 + 4 + 1 + 3 + 2
    board = BOARDS["A"]
    sheets, levels, winner = fight((s, sheet(), s), board, v, 1, True)
    assert levels == (18, -1, 18) and winner == -1  # a tie gives nobody the reward
    assert [x.villains[0] for x in sheets] == [6, -2, 6]
    assert sheets[1].damage == 0
    solo, _, none = fight((s,), board, v, 1, False)
    assert none == -1 and solo[0].villains[0] == 6
    low = sheet(room="D2", explored=["D2"])  # combat level 5, below 9: flees
    assert fight((low,), board, v, 1, False)[0][0].villains[0] == -2


def test_a_lair_reached_in_an_earlier_round_counts() -> None:
    s = sheet(room="A1", explored=["A1", "D2"], levels={"warrior": 3, "wizard": 3})
    assert fight((s,), BOARDS["A"], VILLAINS["A"], 1, False)[1] == (11,)  # 8 + warrior 3


def test_a_reward_without_answers_is_applied_at_once() -> None:
    spider = VILLAINS["B"]  # 2 potions
    assert reward_choices(sheet(), BOARDS["A"], spider) == ()
    assert len(reward_choices(sheet(potions=2), BOARDS["A"], spider)) == 4  # row 1: a hero


def test_reward_turn_is_quick_and_plans_are_long() -> None:
    from engine.core import TimeClass

    strong = {"styles": "BWWB", "room": "D2", "explored": ["D2"],
              "levels": {"warrior": 3, "wizard": 3}}
    state = at("plan", [strong, {"styles": "BWWB"}], round_no=3, roll=ROLL)
    assert state.time_class(0) is TimeClass.LONG
    items = parse_action("1 item crown; 2 item tome; 3 item armour")
    after = state.apply_joint({0: items, 1: items})
    assert isinstance(after.waiting, Turn) and after.waiting.seat == 0
    assert after.time_class(0) is TimeClass.QUICK
    with pytest.raises(IllegalActionError):
        after.parse_action(0, "evolve rogue, evolve rogue")


def test_missing_gems_only_in_the_variant_or_solo() -> None:
    items = parse_action("1 item crown; 2 item tome; 3 item armour")
    for players, variant, crossed in [(2, False, []), (2, True, ["A", "B"]), (1, False,
                                                                             ["A", "B"])]:
        state = at("plan", [{"styles": "BWWB"}] * players, round_no=3, roll=ROLL,
                   options={"missing_gems": variant})
        after = state.apply_joint(dict.fromkeys(range(players), items))
        assert seat(after, 0)["crossed"] == crossed


def test_item_indexes() -> None:
    assert ITEM_INDEX["cloak"] == CLOAK and ITEM_INDEX["khar_medallion"] == MEDALLION


def test_a_ranger_with_the_medallion_may_keep_crossing_water() -> None:
    # Ruling 16 taken literally: each crossing gives the step it costs back (see paper.md).
    wet = sheet(room="A1", explored=["A1", "A2"], minions=["A2"], items={"khar_medallion": 2},
                power="ranger", letters=["A"])
    after = play(wet, "1 move A2 A1 A2 A1 A2 A1 A2 A1 A2 A1")
    assert after.crossings == 10 and after.room == ROOM_INDEX["A1"]


def test_a_story_sums_its_chapters() -> None:
    from engine.core import Outcome, Standing
    from engine.paper.score import story_outcome

    def chapter(a: int, b: int) -> Outcome:
        return Outcome(frozenset(), (Standing(0, "lost", a, 0), Standing(1, "lost", b, 0)), "")

    story = story_outcome([chapter(40, 50), chapter(60, 45), chapter(30, 34)])
    assert story.winners == frozenset({0}) and [s.score for s in story.standings] == [130, 129]
    tie = story_outcome([chapter(40, 50), chapter(60, 50)])
    assert tie.winners == frozenset({0, 1}) and "share" in tie.reason


def test_a_reward_choice_built_by_hand_must_be_well_formed() -> None:
    from engine.paper import RewardChoice
    from engine.paper.actions import Answer
    from engine.paper.rounds import play_reward

    with pytest.raises(IllegalActionError, match="well-formed"):
        play_reward(sheet(), BOARDS["A"], VILLAINS["A"], RewardChoice((Answer("evolve", (9,)),)))
