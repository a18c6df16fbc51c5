"""The rules of Dungeons of Kards as the engine applies them, case by case, from positions
(rules reference §3–§4, rulings 1–42 and A-01–A-45; docs/rules/kards.md)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import Chance, IllegalActionError, Turn
from engine.kards import new_game
from tests.engine.kards.helpers import (
    act,
    char,
    legal,
    life,
    load,
    monster,
    pos,
    roll,
    waiting_event,
)

# A small campaign map: D05 (3,3) with D06 east (4,3) and D23 north (3,2); D01 (a yellow gate,
# open E and S) at (2,3), west of D05; D10 (doors all round) at (3,4), south.
CAMP: dict[str, Any] = {
    "players": 2, "mode": "coop",
    "map": [["D05", 3, 3], ["D06", 4, 3], ["D23", 3, 2], ["D01", 2, 3], ["D10", 3, 4]],
    "characters": [{"card": "warrior"}, {"card": "cleric", "at": [4, 3]}],
}


def camp(**changes: Any) -> dict[str, Any]:
    data = dict(CAMP)
    data.update(changes)
    return data


# ---------------------------------------------------------------------- set-up


def test_setup_order_first_player_then_picks_and_gates_in_reverse_turn_order() -> None:
    state = new_game(3)
    assert waiting_event(state) == "setup.first"
    state = roll(state, "1")  # seat 1 plays first: turn order 1, 2, 0; picks 0, 2, 1
    seats = []
    for card in ("mage", "rogue", "knight"):
        w = state.waiting
        assert isinstance(w, Turn)
        seats.append(w.seat)
        state = act(state, f"pick {card}")
    assert seats == [0, 2, 1]
    assert legal(state) == ["gate D01", "gate D02", "gate D03", "gate D04"]
    for gate in ("D03", "D01", "D04"):
        state = act(state, f"gate {gate}")
    p = pos(state)
    assert [c["start"] for c in p["characters"]] == [[0, 6], [6, 6], [0, 0]]
    assert p["revealed"] == 4 and p["active"] == 1 and p["turn"] == 1
    assert p["orange"]["top_unknown"] == 11 and len(p["orange"]["pool"]) == 22
    assert p["orange"]["bottom_known"] == ["portal_stone"]
    assert "D05" in p["grey"]["hidden"] and len(p["grey"]["hidden"]) == 36


def test_campaign_starts_on_the_black_gate_and_solo_has_no_roll() -> None:
    state = act(new_game(1), "pick cleric")
    p = pos(state)
    assert p["map"] == [["D05", 3, 3]] and p["characters"][0]["at"] == [3, 3]
    assert p["revealed"] == 1 and len(p["grey"]["hidden"]) == 39
    coop = roll(new_game(2, mode="coop"), "0")
    coop = act(act(coop, "pick mage"), "pick ranger")
    assert [c["at"] for c in pos(coop)["characters"]] == [[3, 3], [3, 3]]


def test_two_copies_tag_every_card_and_seat_eight_characters() -> None:
    state = roll(new_game(8), "5")
    assert pos(state)["copies"] == 2
    assert "pick A-mage" in legal(state) and "pick B-mage" in legal(state)
    state = act(state, "pick mage")  # a kind picks its first free copy
    assert "pick A-mage" not in legal(state)
    for _ in range(7):
        state = act(state, legal(state)[0].replace("pick ", "pick "))
    assert len(legal(state)) == 8  # eight gates
    p = pos(state)
    assert len(p["map"]) == 8 and "A-D05" in p["grey"]["hidden"]


def test_solo_random_help_shuffles_the_unused_characters_in() -> None:
    state = act(new_game(1, solo_help="random"), "pick knight")
    pool = pos(state)["orange"]["pool"]
    assert {"warrior", "rogue", "mage", "cleric", "ranger"} <= set(pool)
    assert len(pool) == 27 and pos(state)["orange"]["top_unknown"] == 13


@pytest.mark.parametrize(("options", "message"), [
    ({"players": 9}, "1 to 8"),
    ({"players": 5}, None),  # auto: two copies
    ({"players": 5, "copies": 1}, "two copies"),
    ({"players": 1, "mode": "arena"}, "solo"),
    ({"players": 5, "mode": "coop"}, "2 to 4"),
    ({"players": 2, "mode": "solo"}, "1 player"),
    ({"players": 6, "team_size": 4}, "teams"),
    ({"players": 6, "team_size": 2, "copies": 2}, None),
    ({"players": 3, "team_size": 2}, "teams"),
    ({"players": 2, "mode": "coop", "team_size": 2}, "Arena"),
    ({"players": 2, "solo_help": "random"}, "solo"),
    ({"players": 2, "round_cap": "off"}, None),
    ({"players": 2, "round_cap": -1}, "round_cap"),
    ({"players": 2, "events": "maybe"}, "on or off"),
])
def test_options_are_checked(options: dict[str, Any], message: str | None) -> None:
    if message is None:
        new_game(**options)
        return
    with pytest.raises(ValueError, match=message):
        new_game(**options)


# ---------------------------------------------------------------------- equipping


def test_equip_phase_items_from_before_the_turn_one_per_slot() -> None:
    data = camp(characters=[
        {"card": "warrior", "weapon": {"card": "longsword", "uses": 4},
         "carried": [{"card": "runeblade", "since": 0}, {"card": "war_axe", "since": 0},
                     {"card": "war_hound", "since": 0}, {"card": "watch_owl", "since": 1}]},
        {"card": "cleric", "at": [4, 3]}])
    state = load({**data, "stack": [["end"], ["main"], ["equip", ""]]})
    assert legal(state) == ["equip runeblade", "equip war_axe", "equip war_hound",
                            "equip done"]  # the owl came this turn
    state = act(state, "equip runeblade")
    warrior = char(state, "warrior")
    assert warrior["weapon"]["card"] == "runeblade"
    assert {"card": "longsword", "uses": 4, "since": 0} in warrior["carried"]  # uses kept
    assert legal(state) == ["equip war_hound", "equip done"]  # one weapon per turn
    state = act(state, "equip war_hound")
    assert pos(state)["stack"][-1] == ["main"]  # nothing left to equip: the phase ends


def test_no_unequipping_to_an_empty_slot() -> None:
    state = load({**camp(characters=[{"card": "warrior",
                                      "weapon": {"card": "longsword"}},
                                     {"card": "cleric", "at": [4, 3]}]),
                  "stack": [["end"], ["turn"]]})
    # Only the equipped sword: the equip phase has nothing to offer and is skipped.
    assert pos(state)["stack"][-1] == ["main"]


# ---------------------------------------------------------------------- walking


def test_moves_canonical_paths_doors_and_no_return_to_the_start() -> None:
    state = load(camp())
    moves = [a for a in legal(state) if a.startswith("move")]
    # Warrior AP 2 from D05 (3,3): N to D23, E to D06 (the Cleric, an ally), S to D10
    # through a door, W to D02; then onward. Never back to (3,3).
    assert moves[:4] == ["move N", "move E", "move S", "move W"]
    assert "move N N" not in moves  # D23 (3,2) has N open but (3,1) is empty
    assert "move D01" not in moves and state.parse_action(0, "move D01").args == ("W",)
    assert state.parse_action(0, "move 2,3").args == ("W",)
    assert state.parse_action(0, "move w").args == ("W",)
    with pytest.raises(IllegalActionError, match="path"):
        state.parse_action(0, "move N S")  # back where it started


def test_in_combat_no_walk_and_wait_only_when_stunned() -> None:
    data = camp(monsters=[{"card": "rat", "at": [3, 3]}])
    state = load(data)
    assert legal(state)[:2] == ["attack rat", "ability battle_fury warrior"]
    assert not any(a.split()[0] in ("move", "explore", "search", "wait") for a in legal(state))
    with pytest.raises(IllegalActionError, match="combat"):
        state.parse_action(0, "explore")
    stunned = load(camp(characters=[
        {"card": "warrior", "effects": [{"kind": "stun", "x": 1, "timer": 2, "turn": 0}]},
        {"card": "cleric", "at": [4, 3]}], monsters=[{"card": "rat", "at": [3, 3]}]))
    assert "attack rat" not in legal(stunned) and "wait" in legal(stunned)
    assert "ability battle_fury warrior" in legal(stunned)


def test_explore_from_the_grey_tail_needs_no_chance() -> None:
    """A-21: the tail counts as deck; with the hidden segment empty, its first card comes
    out without a chance event.  The Warrior on D06 (4,3) explores east."""
    placed = [["D05", 3, 3], ["D06", 4, 3]]
    others = [f"D{i:02d}" for i in range(1, 41) if f"D{i:02d}" not in ("D05", "D06", "D26",
                                                                      "D38")]
    cells = [(x, y) for y in range(7) for x in range(7) if (x, y) not in ((3, 3), (4, 3),
                                                                           (5, 3))]
    placed += [[card, x, y] for card, (x, y) in zip(others, cells, strict=False)]
    data = camp(map=placed, grey={"hidden": [], "tail": ["D38", "D26"]},
                characters=[{"card": "warrior", "at": [4, 3]}, {"card": "cleric"}])
    state = act(load(data), "explore")
    # D38 (# O # #) has no W exit for (5,3): a paradox, back to the tail's end.
    assert pos(state)["grey"] == {"hidden": [], "tail": ["D26", "D38"], "draws": 0}
    assert life(state, "warrior") == 12

def test_search_valve_only_when_nothing_reachable_can_be_explored() -> None:
    state = load(camp())
    assert "search" not in legal(state) and "explore" not in legal(state)  # D05 is boxed in
    # D05's neighbours' exits are available elsewhere, so the valve stays shut.
    boxed = load({**camp(), "map": [["D37", 3, 3], ["D39", 3, 2]],
                  "characters": [{"card": "warrior", "at": [3, 3]},
                                 {"card": "cleric", "at": [3, 3]}]})
    # D37 (O # # #) faces D39 (# # O #): no exit left anywhere reachable.
    assert "search" in legal(boxed)
    state = act(boxed, "search")
    assert waiting_event(state) == "O1"
    state = roll(state, "spike_pit")
    assert life(state, "warrior") == 11 and pos(state)["orange"]["tail"] == ["spike_pit"]


# ---------------------------------------------------------------------- exploration


def test_exploration_trap_then_event_and_a_stone_window() -> None:
    data = camp(characters=[{"card": "warrior", "at": [4, 3]},
                            {"card": "cleric", "at": [3, 3]}])
    state = act(load(data), "explore")
    state = roll(state, "D26")  # from D06 (4,3): E exit, D26 answers with W
    state = roll(state, "restoration_4")
    # a stone drawn may be used at once, before the event.
    assert legal(state) == ["stone restoration_4 warrior", "keep"]
    state = act(state, "keep")
    assert char(state, "warrior")["stones"] == ["restoration_4"]
    assert pos(state)["revealed"] == 6


def test_level_1_event_at_the_fifth_card() -> None:
    state = act(load(camp(characters=[{"card": "warrior", "at": [4, 3]},
                                      {"card": "cleric", "at": [3, 3]}],
                          monsters=[])), "explore")
    state = roll(roll(state, "D26"), "rat")
    assert monster(state, "rat") is not None
    # 6 cards revealed: the level-1 event (5) was due earlier (defaulted as done).
    assert pos(state)["events_done"] == 1 and isinstance(state.waiting, Turn)


# ---------------------------------------------------------------------- combat


def test_item_uses_per_roll_and_spent_items_to_the_tail_in_order() -> None:
    data = {"players": 2, "map": [["D01", 0, 0], ["D02", 6, 0], ["D03", 0, 6], ["D04", 6, 6]],
            "characters": [
                {"card": "warrior", "at": [0, 0],
                 "weapon": {"card": "longsword", "uses": 1},
                 "pet": {"card": "watch_owl", "uses": 3}},
                {"card": "knight", "at": [0, 0],
                 "weapon": {"card": "tower_shield", "uses": 1},
                 "pet": {"card": "war_hound", "uses": 1}}]}
    state = act(load(data), "attack knight")
    state = roll(state, "1+1", "attack")  # a miss: the sword spends (roller), the shield too
    assert pos(state)["orange"]["tail"] == ["longsword", "tower_shield"]  # A-03 order
    w = char(state, "warrior")
    assert w["weapon"] is None and w["pet"]["uses"] == 3  # the owl defends: not spent yet
    state = roll(state, "1+1", "counter")  # the knight's hound spends; the owl defends
    assert pos(state)["orange"]["tail"] == ["longsword", "tower_shield", "war_hound"]
    assert char(state, "warrior")["pet"]["uses"] == 2


def test_a_stunned_target_does_not_counter_and_counters_are_never_countered() -> None:
    data = camp(monsters=[{"card": "ooze", "at": [3, 3],
                           "effects": [{"kind": "stun", "x": 1, "timer": 1, "turn": 0}]}])
    state = roll(act(load(data), "attack ooze"), "1+1", "attack")
    assert waiting_event(state).endswith(".attack")  # the second attack, no counter
    data = camp(monsters=[{"card": "ooze", "at": [3, 3]}])
    state = roll(act(load(data), "attack ooze"), "1+1", "attack")
    state = roll(state, "1+1", "counter")
    assert waiting_event(state).endswith(".attack")


def test_counter_budget_option() -> None:
    """Ruling 2 as the option: the Orc (AP 2) counters the Rogue's (AP 3) first two attacks
    only; budgets refill at the start of every turn."""
    data = camp(counter_budget=True, characters=[{"card": "rogue"},
                                                 {"card": "cleric", "at": [4, 3]}],
                monsters=[{"card": "orc", "at": [3, 3]}])
    state = act(load(data), "attack orc")
    state = roll(roll(state, "1+1", "attack"), "1+1", "counter")
    state = roll(state, "1+1", "attack")  # the second counter is due: the budget is spent
    assert monster(state, "orc")["budget"] == 0  # type: ignore[index]
    state = roll(roll(state, "1+1", "counter"), "1+1", "attack")
    assert isinstance(state.waiting, Turn) and state.waiting.seat == 1  # no third counter
    assert monster(state, "orc")["budget"] == 2  # type: ignore[index]


def test_defeat_by_a_monster_shuffles_items_back_and_the_monster_leaves() -> None:
    data = camp(characters=[
        {"card": "warrior", "life": 1, "gold": 3, "weapon": {"card": "war_axe", "uses": 2},
         "stones": ["portal_stone"]},
        {"card": "cleric", "at": [4, 3]}],
        monsters=[{"card": "goblin", "at": [3, 3], "first": True}])
    # At 1 life the Warrior cannot pay for its ability: Attack is its one choice, at once.
    state = roll(roll(load(data), "1+1", "attack"), "6+6", "counter")
    w = char(state, "warrior")
    assert w["at"] is None and w["gold"] == 0 and w["weapon"] is None
    orange = pos(state)["orange"]
    assert "war_axe" in orange["top_known"]  # the current hidden segment (ruling 23)
    assert "portal_stone" in orange["bottom_known"]  # always the bottom half
    assert monster(state, "goblin") is None and "goblin" in orange["top_known"]
    assert pos(state)["lair"] == []
    # Not its first appearance: it joins the lair instead.
    data["monsters"] = [{"card": "goblin", "at": [3, 3], "first": False}]
    state = roll(roll(load(data), "1+1", "attack"), "6+6", "counter")
    assert pos(state)["lair"] == ["goblin"]
    # Another character on its card: it leaves all the same (the rulebook; ruling 22 set
    # aside, docs/rules/kards.md §7).
    data["characters"][1]["at"] = [3, 3]
    state = roll(roll(load(data), "1+1", "attack"), "6+6", "counter")
    assert monster(state, "goblin") is None and pos(state)["lair"] == ["goblin"]


def test_arena_spoils_go_to_the_opponent() -> None:
    data = {"players": 2, "map": [["D01", 0, 0], ["D02", 6, 0], ["D03", 0, 6], ["D04", 6, 6]],
            "characters": [
                {"card": "warrior", "at": [0, 0]},
                {"card": "knight", "at": [0, 0], "life": 2, "gold": 4,
                 "weapon": {"card": "longsword", "uses": 7}, "stones": ["restoration_3"]}]}
    state = roll(act(load(data), "attack knight"), "6+6", "attack")
    assert state.is_over
    w = char(state, "warrior")
    assert w["gold"] == 4 and w["stones"] == ["restoration_3"]
    assert w["carried"] == [{"card": "longsword", "uses": 7, "since": 1}]
    assert state.waiting.outcome.winners == {0}  # type: ignore[union-attr]


def test_self_save_in_its_own_turn_only() -> None:
    data = camp(characters=[
        {"card": "warrior", "life": 1, "gold": 2, "stones": ["resurrection#1"],
         "at": [4, 3], "weapon": {"card": "runeblade"}},
        {"card": "cleric", "at": [3, 3]}],
        monsters=[{"card": "orc", "at": [4, 3]}])
    state = roll(roll(load(data), "1+1", "attack"), "6+6", "counter")
    assert legal(state) == ["stone resurrection#1", "fall"]
    saved = act(state, "stone resurrection#1")
    w = char(saved, "warrior")
    assert (w["life"], w["at"], w["gold"], w["weapon"]["card"]) == (13, [3, 3], 2, "runeblade")
    assert pos(saved)["orange"]["tail"] == ["resurrection#1"]
    assert isinstance(saved.waiting, Turn) and saved.waiting.seat == 1  # the turn ended
    fallen = act(state, "fall")
    assert char(fallen, "warrior")["at"] is None


def test_resurrection_stone_and_yellow_services() -> None:
    data = camp(characters=[
        {"card": "warrior", "at": [2, 3], "gold": 11, "life": 5, "charged": False,
         "stones": ["resurrection#2"]},
        {"card": "cleric", "at": None, "life": 0}])
    state = load(data)
    options = legal(state)
    assert "stone resurrection#2 cleric" in options
    assert {"service resurrect cleric", "service heal", "service recharge"} <= set(options)
    state = act(state, "service heal")
    assert life(state, "warrior") == 13 and char(state, "warrior")["gold"] == 9
    state = act(state, "service resurrect cleric")
    assert char(state, "cleric")["at"] == [3, 3] and char(state, "cleric")["life"] == 14
    assert "service recharge" not in legal(state)  # 4 gold left


def test_portal_hops_by_mode() -> None:
    state = load(camp(characters=[{"card": "warrior", "at": [2, 3], "gold": 1},
                                  {"card": "cleric", "at": [4, 3]}]))
    assert {"hop D05 gold", "hop D05 life"} <= set(legal(state))  # campaign: Y → B
    monsters = camp(characters=[{"card": "warrior", "at": [2, 3], "gold": 1},
                                {"card": "cleric", "at": [4, 3]}],
                    monsters=[{"card": "rat", "at": [2, 3]}])
    assert not any(a.startswith("hop") for a in legal(load(monsters)))  # not in combat
    arena = {"players": 2, "map": [["D01", 0, 0], ["D02", 6, 0], ["D03", 0, 6],
                                   ["D04", 6, 6], ["D05", 1, 0]],
             "characters": [{"card": "warrior", "at": [0, 0]},
                            {"card": "knight", "at": [1, 0], "life": 1}]}
    assert not any(a.startswith("hop") for a in legal(load(arena)))  # Arena: no Y → B
    back = load({**arena, "active": 1, "first": 1})
    options = [a for a in legal(back) if a.startswith("hop")]
    assert options == []  # 1 life, no gold: it cannot pay
    rich = load({**arena, "active": 1, "first": 1,
                 "characters": [{"card": "warrior", "at": [0, 0]},
                                {"card": "knight", "at": [1, 0], "gold": 1}]})
    assert [a for a in legal(rich) if a.startswith("hop")] == [
        "hop D01 gold", "hop D01 life", "hop D02 gold", "hop D02 life", "hop D03 gold",
        "hop D03 life", "hop D04 gold", "hop D04 life"]
    state = act(rich, "hop D01 gold")
    assert char(state, "knight")["at"] == [0, 0] and char(state, "knight")["gold"] == 0
    assert "attack warrior" in legal(state)  # arrived in combat (ruling 16)


def test_portal_stone_the_boss_appears_once_arena_has_no_escorts() -> None:
    arena = {"players": 2, "map": [["D01", 0, 0], ["D02", 6, 0], ["D03", 0, 6],
                                   ["D04", 6, 6], ["D05", 1, 0]],
             "characters": [{"card": "warrior", "at": [0, 0], "stones": ["portal_stone"]},
                            {"card": "knight", "at": [6, 6]}]}
    state = act(load(arena), "stone portal_stone D05")
    assert monster(state, "warden") is not None and pos(state)["boss_appeared"]
    assert pos(state)["orange"]["tail"] == ["portal_stone"]
    assert isinstance(state.waiting, Turn)  # no escort rolls in Arena
    assert "explore" not in legal(state)  # in combat with the Warden


def test_abilities_line_of_sight_cost_and_timers() -> None:
    # The Cleric at (4,3) sees the Warrior at (3,3) (D06 W 'O' / D05 E 'O').
    data = camp(characters=[{"card": "warrior", "life": 4}, {"card": "cleric", "at": [4, 3]}],
                active=1, first=1)
    state = load(data)
    assert "ability mending_light warrior" in legal(state)
    state = act(state, "ability mending_light warrior")
    assert life(state, "warrior") == 9 and life(state, "cleric") == 13
    # D10 has doors: no line of sight through them.
    data = camp(characters=[{"card": "mage"}, {"card": "cleric", "at": [3, 3]}],
                monsters=[{"card": "rat", "at": [3, 4]}, {"card": "spider", "at": [4, 3]}])
    options = legal(load(data))
    assert "ability frost_bind spider" in options and "ability frost_bind rat" not in options
    state = act(load(data), "ability frost_bind spider")
    assert monster(state, "spider")["effects"] == [  # type: ignore[index]
        {"kind": "stun", "x": 2, "timer": 4, "turn": 1}]  # 2 × n, n = 2 in play
    # The cost may not bring life to 0: the Mage at 3 life cannot cast Frost Bind (cost 3).
    low = camp(characters=[{"card": "mage", "life": 3}, {"card": "cleric", "at": [3, 3]}],
               monsters=[{"card": "spider", "at": [4, 3]}])
    assert not any(a.startswith("ability") for a in legal(load(low)))


def test_mist_token_double_or_single() -> None:
    data = camp(characters=[{"card": "warrior", "mist": True},
                            {"card": "cleric", "at": [4, 3]}],
                monsters=[{"card": "ooze", "at": [3, 3]}])
    state = act(load(data), "attack ooze")
    assert legal(state) == ["mist double", "mist single"]
    state = act(state, "mist double")
    assert char(state, "warrior")["mist"] is False
    rolls = 0
    while isinstance(state.waiting, Chance) and waiting_event(state).endswith(
            (".attack", ".counter")):
        state = roll(state, "1+1")
        rolls += 1
    assert rolls == 8  # 4 attacks, each countered


# ---------------------------------------------------------------------- events


def _event_state(level: int, **changes: Any) -> Any:
    data = camp(stack=[["end"], ["event", level]], **changes)
    return load(data)


def test_event_thief_mist_and_every() -> None:
    state = roll(_event_state(1, characters=[{"card": "warrior", "gold": 2},
                                             {"card": "cleric", "at": [4, 3]}]), "2")
    assert [c["gold"] for c in pos(state)["characters"]] == [1, 0]
    state = roll(_event_state(2), "6")
    assert all(c["mist"] for c in pos(state)["characters"])
    state = roll(_event_state(2, characters=[{"card": "warrior", "life": 12},
                                             {"card": "cleric", "at": [4, 3], "life": 9}]),
                 "5")
    assert [c["life"] for c in pos(state)["characters"]] == [13, 12]


def test_event_choices_in_turn_order_from_the_active_character() -> None:
    state = _event_state(4, characters=[{"card": "warrior", "charged": False},
                                        {"card": "cleric", "at": [4, 3], "charged": False}],
                         active=1, first=1)
    state = roll(state, "3")
    w = state.waiting
    assert isinstance(w, Turn) and w.seat == 1 and state.view(1).deciding == "cleric"
    state = act(state, "choose ability")
    assert isinstance(state.waiting, Turn) and state.waiting.seat == 0
    state = act(state, "choose life")
    assert char(state, "cleric")["charged"] and not char(state, "warrior")["charged"]


def test_event_open_cards_map_wide() -> None:
    state = roll(_event_state(1), "6")  # open 1 dungeon card, map-wide (ruling 33, A-24)
    assert waiting_event(state) == "G1"
    state = roll(state, "D26")  # # O # O: next to an E or a W exit (doors too), by cell
    assert legal(state) == ["place 5,3", "place 2,4", "place 4,4"]
    state = act(state, "place 2,4")
    placed = {(m[1], m[2]): m[0] for m in pos(state)["map"]}
    assert placed[(2, 4)] == "D26" and pos(state)["revealed"] == 6
    # D39 (# # O #) must show its S exit to an N exit below it: D23's at (3,1), D06's at
    # (4,2).
    state = roll(roll(_event_state(1), "6"), "D39")
    assert legal(state) == ["place 3,1", "place 4,2"]
    # On D37 (O # # #) alone the one available exit is its N: D38 (# O # #) has no S exit
    # to answer it, a paradox for the active character.
    alone = load({**camp(), "map": [["D37", 3, 3]],
                  "characters": [{"card": "warrior", "at": [3, 3]},
                                 {"card": "cleric", "at": [3, 3]}],
                  "stack": [["end"], ["event", 1]]})
    state = roll(roll(alone, "6"), "D38")
    assert life(state, "warrior") == 12 and pos(state)["grey"]["tail"] == ["D38"]


def test_event_cascade_and_nothing_to_open() -> None:
    """A-23: with no available exit anywhere nothing is revealed and no life lost; A-26:
    a card placed by an event that reaches the next threshold triggers it afterwards."""
    boxed = {**camp(), "map": [["D37", 3, 3], ["D39", 3, 2]],
             "characters": [{"card": "warrior", "at": [3, 3]}, {"card": "cleric", "at": [3, 3]}],
             "stack": [["end"], ["event", 1]]}
    state = roll(load(boxed), "6")
    assert pos(state)["grey"]["draws"] == 0 and life(state, "warrior") == 13
    # Nine cards on the map, level 2 next at 10: level 3's "open 2" is not needed; the
    # level-1 event's card reaches 10 and the level-2 event follows.
    nine = camp(map=CAMP["map"] + [["D11", 0, 0], ["D12", 0, 6], ["D13", 6, 0],
                                   ["D14", 6, 6]], events_done=0,
                stack=[["end"], ["threshold"]])
    state = load(nine)
    assert waiting_event(state).endswith(".event") and pos(state)["events_done"] == 1
    state = act(roll(roll(state, "6"), "D26"), "place 5,3")  # the 10th card
    assert pos(state)["revealed"] == 10
    assert waiting_event(state).endswith(".event") and pos(state)["events_done"] == 2


STUN = [{"kind": "stun", "x": 9, "timer": 99, "turn": 0}]


def stunned_arena(**changes: Any) -> dict[str, Any]:
    """Two characters, each stunned in combat with a rat: their one action is to wait."""
    data: dict[str, Any] = {
        "players": 2, "abilities": False, "events": False,
        "map": [["D01", 0, 0], ["D02", 6, 0], ["D03", 0, 6], ["D04", 6, 6]],
        "characters": [{"card": "warrior", "at": [0, 0], "effects": STUN},
                       {"card": "knight", "at": [6, 6], "effects": STUN}],
        "monsters": [{"card": "rat", "at": [0, 0]}, {"card": "goblin", "at": [6, 6]}]}
    data.update(changes)
    return data


def test_round_cap_arena_draw_and_campaign_loss() -> None:
    # Waiting is the only action: each turn passes at once; round 3 ends after seat 1.
    state = load(stunned_arena(round_cap=3, round=2, active=1))
    out = state.waiting.outcome  # type: ignore[union-attr]
    assert out.winners == {0, 1} and "cap" in out.reason
    assert [st.status for st in out.standings] == ["drawn", "drawn"]
    coop = load(camp(round_cap=3, round=2, active=1, abilities=False,
                     characters=[{"card": "warrior", "effects": STUN},
                                 {"card": "cleric", "at": [4, 3], "effects": STUN}],
                     monsters=[{"card": "rat", "at": [3, 3]}, {"card": "ooze", "at": [4, 3]}]))
    assert coop.is_over and coop.waiting.outcome.winners == frozenset()  # type: ignore
    assert "lost" in coop.waiting.outcome.reason  # type: ignore[union-attr]


def test_resignations() -> None:
    arena = {"players": 2, "map": [["D01", 0, 0], ["D02", 6, 0], ["D03", 0, 6], ["D04", 6, 6]],
             "characters": [{"card": "warrior", "at": [0, 0]}, {"card": "knight",
                                                                 "at": [6, 6]}]}
    state = load(arena).resign(0)
    out = state.waiting.outcome  # type: ignore[union-attr]
    assert out.winners == {1} and [st.status for st in out.standings] == ["resigned", "winner"]
    ffa = load({**arena, "players": 3, "characters": [
        {"card": "warrior", "at": [0, 0]}, {"card": "knight", "at": [6, 6]},
        {"card": "mage", "at": [6, 0]}]})
    state = ffa.resign(0)  # the active seat: its turn ends, the others play on
    assert not state.is_over and state.view(1).active == "knight"
    with pytest.raises(IllegalActionError):
        state.resign(0)
    coop = load(camp()).resign(1)
    assert not coop.is_over and char(coop, "cleric")["out"]
    solo = load({"players": 1, "map": [["D05", 3, 3]], "characters": [{"card": "mage"}]})
    assert solo.resign(0).is_over
    with pytest.raises(IllegalActionError):
        load(camp()).agree_draw()
    drawn = load(arena).agree_draw()
    assert drawn.waiting.outcome.winners == {0, 1}  # type: ignore[union-attr]


def test_time_classes() -> None:
    state = load(camp())
    assert state.time_class(0).value == "normal"
    data = camp(characters=[{"card": "warrior", "mist": True},
                            {"card": "cleric", "at": [4, 3]}],
                monsters=[{"card": "ooze", "at": [3, 3]}])
    state = act(load(data), "attack ooze")
    assert state.time_class(0).value == "quick" and state.time_class(1).value == "normal"


# ---------------------------------------------------------------------- solo help


def test_solo_programmed_help_after_the_event() -> None:
    """A-40: at a multiple of 5 the event resolves first, then an ally may join on the
    player's card; allies act after the player's character, in the order they joined."""
    data = {"players": 1, "solo_help": "programmed", "events_done": 0, "help_done": 0,
            "map": [["D05", 3, 3], ["D06", 4, 3], ["D23", 3, 2], ["D11", 2, 3], ["D10", 3, 4]],
            "characters": [{"card": "mage"}], "unused": ["warrior", "ranger"],
            "stack": [["end"], ["threshold"]]}
    state = load(data)
    assert waiting_event(state).endswith(".event")  # the event first
    state = roll(state, "4")  # Forgotten relic: you +2 (the Mage is at full life)
    assert legal(state) == ["recruit warrior", "recruit ranger", "recruit none"]
    state = act(state, "recruit ranger")
    p = pos(state)
    assert [c["card"] for c in p["characters"]] == ["mage", "ranger"]
    assert p["characters"][1]["at"] == [3, 3] and p["unused"] == ["warrior"]
    # The Mage's turn ends, then the Ranger's turn, then the Mage's again.
    assert state.view(0).active == "ranger" and pos(state)["round"] == 0
    state = act(state, "move N")
    state = roll(state, "1", "appear")
    assert state.view(0).active == "mage" and pos(state)["round"] == 1


def test_solo_random_help_joins_where_it_is_found() -> None:
    data = {"players": 1, "solo_help": "random", "map": [["D05", 3, 3]],
            "characters": [{"card": "mage"}]}
    state = load(data)
    assert "cleric" in pos(state)["orange"]["pool"]
    # Alone on D05 the Mage's one Walk is to explore: it is taken at once.
    state = roll(state, "D06", "G1")
    assert legal(state) == ["place N", "place E", "place S", "place W"]
    state = roll(act(state, "place E"), "cleric")
    cleric = char(state, "cleric")
    assert cleric["at"] == [4, 3] and cleric["start"] == [3, 3]  # resurrects on D05


def test_solo_loses_when_its_own_character_falls() -> None:
    data = {"players": 1, "solo_help": "programmed",
            "map": [["D05", 3, 3]],
            "characters": [{"card": "mage", "life": 1}, {"card": "warrior"}],
            "monsters": [{"card": "orc", "at": [3, 3]}]}
    state = roll(roll(load(data), "1+1", "attack"), "6+6", "counter")
    assert state.is_over and state.waiting.outcome.winners == frozenset()  # type: ignore


# ---------------------------------------------------------------------- endings


def test_the_boss_defeated_wins_the_campaign_for_everyone() -> None:
    data = camp(characters=[{"card": "warrior"}, {"card": "cleric", "at": None, "life": 0}],
                monsters=[{"card": "warden", "at": [3, 3], "life": 1}])
    state = roll(act(load(data), "attack warden"), "6+6", "attack")
    out = state.waiting.outcome  # type: ignore[union-attr]
    assert out.winners == {0, 1} and "party wins" in out.reason


def test_the_boss_defeated_in_arena_wins_for_the_team() -> None:
    data = {"players": 4, "team_size": 2,
            "map": [["D01", 0, 0], ["D02", 6, 0], ["D03", 0, 6], ["D04", 6, 6],
                    ["D05", 3, 3]],
            "characters": [{"card": "warrior", "at": [3, 3]}, {"card": "knight", "at": [6, 0]},
                           {"card": "mage", "at": [0, 6]}, {"card": "rogue", "at": [6, 6]}],
            "monsters": [{"card": "warden", "at": [3, 3], "life": 1}]}
    state = roll(act(load(data), "attack warden"), "6+6", "attack")
    out = state.waiting.outcome  # type: ignore[union-attr]
    assert out.winners == {0, 2}
    assert [st.status for st in out.standings] == ["winner", "lost", "winner", "lost"]


def test_everyone_loses_when_no_character_is_left() -> None:
    """A-42: a simultaneous wipe loses, even in Arena."""
    data = {"players": 2,
            "map": [["D01", 0, 0], ["D02", 6, 0], ["D03", 0, 6], ["D04", 6, 6]],
            "characters": [{"card": "warrior", "at": [0, 0], "life": 2},
                           {"card": "knight", "at": [6, 6], "life": 3}],
            "events_done": 1, "stack": [["end"], ["event", 2]]}
    state = roll(load(data), "4")  # Hideout uncovered: every character −3
    out = state.waiting.outcome  # type: ignore[union-attr]
    assert out.winners == frozenset() and "everyone loses" in out.reason


def test_a_round_ends_at_the_first_players_position_even_when_it_is_out() -> None:
    """A-41: rounds are counted when play passes the first player's seat position."""
    data = {"players": 3, "first": 0, "active": 1, "round_cap": 5, "events": False,
            "map": [["D01", 0, 0], ["D02", 6, 0], ["D03", 0, 6], ["D04", 6, 6]],
            "characters": [{"card": "warrior", "at": None, "life": 0, "start": [0, 0]},
                           {"card": "knight", "at": [6, 0]}, {"card": "mage", "at": [6, 6]}]}
    assert pos(load(data))["round"] == 0
    # Stunned in combat, the Knight and the Mage can only wait: every turn passes at once,
    # and rounds count on past the out first player until the cap of 5.
    stunned = {**data, "abilities": False,
               "characters": [data["characters"][0],
                              {"card": "knight", "at": [6, 0], "effects": STUN},
                              {"card": "mage", "at": [6, 6], "effects": STUN}],
               "monsters": [{"card": "rat", "at": [6, 0]}, {"card": "goblin", "at": [6, 6]}]}
    state = load(stunned)
    assert state.is_over and pos(state)["round"] == 5 and pos(state)["turn"] == 10


def test_resigning_during_the_set_up() -> None:
    state = roll(new_game(2), "0").resign(0)
    assert not state.is_over  # its pick and gate are made for it
    state = act(act(state, "pick knight"), "gate D01")
    assert state.is_over and state.waiting.outcome.winners == {1}  # type: ignore


def test_a_forfeit_in_the_set_up_ends_a_two_sided_arena_at_once() -> None:
    """The protocol's floor (protocol.md §7.7) asks the forfeit where the match ends: with one
    team left, it wins then, not after the set-up."""
    state = roll(new_game(2), "0").forfeit(0)
    assert state.is_over and state.waiting.outcome.winners == {1}  # type: ignore
    assert [st.status for st in state.waiting.outcome.standings] == [  # type: ignore
        "resigned", "winner"]
    three = roll(new_game(3), "0").forfeit(0)  # a free-for-all of three: the others play on
    assert not three.is_over


# ---------------------------------------------------------------------- the orange deck


ORANGE_REST = ["tower_shield", "watch_owl", "war_hound", "goblin", "spider", "ooze", "orc",
               "ghoul", "cultist", "gargoyle", "resurrection#1", "resurrection#2",
               "restoration_3", "restoration_4", "restoration_5", "poison_darts"]


def test_a_card_shuffled_back_into_the_top_half_is_weighted_right() -> None:
    """Ruling 23 with the lazy split: a known card in a top half of t cards comes next with
    probability 1/t; each pool card with (t−1)/t spread over the pool."""
    data = camp(orange={"pool": ["longsword", "runeblade", "rat", "skeleton"],
                        "top_unknown": 2, "top_known": ["war_axe"],
                        "bottom_known": ["portal_stone"], "tail": ["spike_pit", *ORANGE_REST]},
                characters=[{"card": "warrior", "at": [4, 3]},
                            {"card": "cleric", "at": [3, 3]}])
    state = load({**data, "stack": [["end"], ["draw", "search"]]})
    event = state.waiting.event  # type: ignore[union-attr]
    counts = {c: event.outcomes.count(c) for c in set(event.outcomes)}
    # t = 3: the axe 1/3; the 2 unknown top cards are 2 of the 4 pool cards: 1/6 each.
    assert counts == {"war_axe": 2, "longsword": 1, "runeblade": 1, "rat": 1, "skeleton": 1}
    assert "portal_stone" not in counts
    # Once the top half is out, the bottom half holds the rest of the pool and the stone.
    bottom = load({**data, "orange": {"pool": ["rat", "skeleton"], "top_unknown": 0,
                                      "top_known": [], "bottom_known": ["portal_stone"],
                                      "tail": ["spike_pit", "longsword", "runeblade",
                                               "war_axe", *ORANGE_REST]},
                   "stack": [["end"], ["draw", "search"]]})
    assert bottom.waiting.event.outcomes == ("rat", "skeleton", "portal_stone")  # type: ignore
    # Both halves empty: the tail's first card, no chance.
    rest = ["rat", "skeleton", "longsword", "runeblade", "war_axe", "portal_stone",
            *ORANGE_REST]
    tail = load({**data, "orange": {"pool": [], "top_unknown": 0, "top_known": [],
                                    "bottom_known": [], "tail": ["spike_pit", *rest]},
                 "monsters": [], "stack": [["end"], ["draw", "search"]]})
    assert life(tail, "warrior") == 11
    assert pos(tail)["orange"]["tail"] == [*rest, "spike_pit"]


def test_shuffling_back_with_both_halves_empty_makes_the_tail_hidden() -> None:
    rest = ["rat", "skeleton", "longsword", "runeblade", "portal_stone",
            *(c for c in ORANGE_REST if c != "orc")]
    data = camp(characters=[{"card": "warrior", "life": 1,
                             "weapon": {"card": "war_axe"}},
                            {"card": "cleric", "at": [4, 3]}],
                orange={"pool": [], "top_unknown": 0, "top_known": [], "bottom_known": [],
                        "tail": ["spike_pit", *rest]},
                monsters=[{"card": "orc", "at": [3, 3]}])
    state = roll(roll(load(data), "1+1", "attack"), "6+6", "counter")
    orange = pos(state)["orange"]
    assert orange["tail"] == []
    assert orange["bottom_known"] == ["spike_pit", *rest, "war_axe", "orc"]


def test_options_parse_from_the_command_line() -> None:
    from engine.kards import SPEC

    assert SPEC.engine_version == "kards/1" and SPEC.players == tuple(range(1, 9))
    assert SPEC.option("round_cap").parse("off") == 0
    assert SPEC.option("round_cap").parse("25") == 25
    assert SPEC.option("counter_budget").parse("on") is True
    assert SPEC.option("mode").parse("coop") == "coop"
    with pytest.raises(ValueError, match="one of"):
        SPEC.option("solo_help").parse("lots")
    options = {o.name: o.parse(text) for o, text in (
        (SPEC.option("mode"), "arena"), (SPEC.option("copies"), "2"),
        (SPEC.option("team_size"), "2"), (SPEC.option("round_cap"), "off"))}
    state = SPEC.new(players=6, **options)
    p = pos(state)
    assert (p["copies"], p["team_size"], p["round_cap"]) == (2, 2, 0)
    assert [c["team"] for c in p["characters"]] == [0, 1, 2, 0, 1, 2]
