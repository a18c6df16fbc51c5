"""The worked examples E1–E5 of the rules reference (§9), each from a JSON position, with the
given dice fed as chance outcomes through the checked API."""

from __future__ import annotations

from typing import Any

from engine.core import Chance, Turn
from engine.kards import from_position
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

# ---------------------------------------------------------------------- E1


E1: dict[str, Any] = {
    "players": 1, "mode": "solo",
    "map": [["D05", 3, 3]],
    "characters": [{"card": "mage", "life": 7}],
    "monsters": [{"card": "skeleton", "at": [3, 3]}],
}


def test_e1_attack_with_a_counter_attack_under_the_counter_budget() -> None:
    """A-01: E1's printed result holds with counter_budget on."""
    state = load({**E1, "counter_budget": True})
    assert legal(state) == ["attack skeleton", "ability frost_bind skeleton"]
    state = act(state, "attack skeleton")
    state = roll(state, "6+4", "attack")  # 6 + 4 + 11 = 21 > 18: a hit
    assert life(state, "skeleton") == 2  # its 3–1 row now: DEF 16, DMG 1, ATK 9
    state = roll(state, "3+5", "counter")  # 3 + 5 + 9 = 17 > 15: a hit, budget 1 → 0
    assert life(state, "mage") == 6
    assert monster(state, "skeleton")["budget"] == 0  # type: ignore[index]
    state = roll(state, "2+3", "attack")  # 2 + 3 + 11 = 16, not > 16: a miss, no counter
    # The turn ends (solo: the Mage's next turn starts; budgets refill).
    assert isinstance(state.waiting, Turn) and pos(state)["turn"] == 2
    assert (life(state, "mage"), life(state, "skeleton")) == (6, 2)


def test_e1_by_default_the_skeleton_also_counters_the_miss() -> None:
    """A-01: by default (no counter budget) E1 has a 4th roll."""
    state = act(load(E1), "attack skeleton")
    state = roll(state, "6+4", "attack")
    state = roll(state, "3+5", "counter")
    state = roll(state, "2+3", "attack")
    assert waiting_event(state).endswith("counter")
    state = roll(state, "1+1", "counter")  # 1 + 1 + 9 = 11: a miss
    assert (life(state, "mage"), life(state, "skeleton")) == (6, 2)
    assert pos(state)["turn"] == 2


def test_e1_variant_the_second_attack_defeats_the_skeleton() -> None:
    state = act(load(E1), "attack skeleton")
    state = roll(state, "6+4", "attack")
    state = roll(state, "3+5", "counter")
    state = roll(state, "4+2", "attack")  # 17 > 16: the Skeleton reaches 0, no counter
    assert monster(state, "skeleton") is None
    assert pos(state)["lair"] == ["skeleton"]
    assert waiting_event(state).endswith("treasure")  # its first defeat in the game
    state = roll(state, "5", "treasure")
    assert waiting_event(state) == "Y1"
    state = roll(state, "treasure_11")  # a gold chest: 3 gold
    assert char(state, "mage")["gold"] == 3
    assert pos(state)["treasured"] == ["skeleton"]


def test_e1_variant_a_treasure_roll_below_5_gives_nothing() -> None:
    state = act(load(E1), "attack skeleton")
    for outcome in ("6+4", "3+5", "4+2"):
        state = roll(state, outcome)
    state = roll(state, "4", "treasure")
    assert char(state, "mage")["gold"] == 0 and pos(state)["turn"] == 2


# ---------------------------------------------------------------------- E2


# The Mage on D31 at (4,3): E is its only available exit (S faces D23, the others are walls).
E2: dict[str, Any] = {
    "players": 1, "mode": "solo",
    "map": [["D05", 3, 3], ["D31", 4, 3], ["D23", 4, 4], ["D06", 3, 2], ["D07", 3, 4],
            ["D08", 2, 3], ["D09", 0, 0], ["D10", 0, 6], ["D11", 6, 6]],
    "characters": [{"card": "mage", "life": 9, "at": [4, 3]}],
}


def test_e2_exploration_with_a_paradox() -> None:
    state = load(E2)
    assert pos(state)["revealed"] == 9
    assert "explore" in legal(state)
    state = act(state, "explore")
    state = roll(state, "D38")  # # O # #: no W exit for (5,3)
    assert life(state, "mage") == 8  # band 8–5 now: DEF 15, DMG 2, ATK 11
    assert pos(state)["grey"]["tail"] == ["D38"]
    assert pos(state)["revealed"] == 9 and char(state, "mage")["at"] == [4, 3]
    assert pos(state)["orange"]["draws"] == 0  # no orange card
    assert pos(state)["turn"] == 2  # the turn ended, no event
    view = state.view(0)
    mage = view.characters[0]
    assert (mage.defence, mage.damage, mage.attack) == (15, 2, 11)


def test_e2_variant_the_card_fits_and_the_level_2_event_follows() -> None:
    state = act(load(E2), "explore")
    state = roll(state, "D26")  # # O # O: the only placement, E, is taken at once
    assert pos(state)["revealed"] == 10 and char(state, "mage")["at"] == [5, 3]
    assert waiting_event(state) == "O1"  # the orange draw on the new card
    state = roll(state, "longsword")
    assert char(state, "mage")["carried"] == [{"card": "longsword", "uses": 10, "since": 1}]
    assert waiting_event(state).endswith(".event")  # the level-2 event (10th card)
    assert pos(state)["events_done"] == 2


# ---------------------------------------------------------------------- E3


# P = D05 (3,3), Q = D06 (4,3), R = D26 (5,3), connected west to east.
E3: dict[str, Any] = {
    "players": 2, "mode": "coop",
    "map": [["D05", 3, 3], ["D06", 4, 3], ["D26", 5, 3]],
    "characters": [{"card": "knight"}, {"card": "cleric"}],
    "lair": ["ghoul", "goblin", "rat"],
}


def test_e3_monster_appearance_after_movement() -> None:
    state = load(E3)
    assert "move E E" in legal(state)
    state = act(state, "move E E")
    assert char(state, "knight")["at"] == [5, 3]
    state = roll(state, "5", "appear")
    goblin = monster(state, "goblin")
    assert goblin is not None and goblin["life"] == 5 and goblin["at"] == [5, 3]
    assert pos(state)["lair"] == ["ghoul", "rat"]
    # The Walk was the action: the turn ends, and the Cleric's starts.
    assert isinstance(state.waiting, Turn) and state.waiting.seat == 1


def test_e3_variants_a_and_b() -> None:
    state = roll(act(load(E3), "move E E"), "4", "appear")
    assert pos(state)["monsters"] == [] and pos(state)["lair"] == ["ghoul", "goblin", "rat"]
    state = roll(act(load(E3), "move E E"), "6", "appear")
    assert monster(state, "ghoul") is not None
    assert pos(state)["lair"] == ["goblin", "rat"]


def test_e3_variant_c_the_orange_deck_is_searched() -> None:
    state = load({**E3, "lair": ["goblin", "rat"]})
    state = roll(act(state, "move E E"), "6", "appear")
    state = roll(state, "war_axe")  # set aside
    state = roll(state, "ooze")  # a level-1 monster: set aside too
    state = roll(state, "orc")
    orc = monster(state, "orc")
    assert orc is not None and orc["life"] == 7 and orc["first"] is True
    assert pos(state)["orange"]["tail"] == ["war_axe", "ooze"]
    assert pos(state)["lair"] == ["goblin", "rat"]  # the Ooze was never fought
    assert "ooze" not in pos(state)["appeared"]


def test_e3_variant_d_a_monster_on_the_way_stops_the_movement() -> None:
    state = load({**E3, "monsters": [{"card": "spider", "at": [4, 3]}]})
    assert "move E E" not in legal(state)
    state = act(state, "move E")
    assert char(state, "knight")["at"] == [4, 3]
    assert waiting_event(state).endswith("appear")  # rolled there, in combat
    # Any path ending beyond the spider is refused, with a reason.
    again = load({**E3, "monsters": [{"card": "spider", "at": [4, 3]}]})
    try:
        again.parse_action(0, "move E E")
    except ValueError as exc:
        assert "path" in str(exc)
    else:
        raise AssertionError("the move through the spider was accepted")


# ---------------------------------------------------------------------- E4


E4A: dict[str, Any] = {
    "players": 3, "mode": "coop",
    "map": [["D05", 3, 3], ["D02", 4, 3]],
    "characters": [{"card": "mage", "life": 11, "at": [4, 3], "stones": ["portal_stone"]},
                   {"card": "warrior", "life": 11}, {"card": "cleric", "life": 10}],
    "lair": ["skeleton", "rat"],
}


def test_e4a_the_boss_is_summoned_with_escorts() -> None:
    state = load(E4A)
    assert "stone portal_stone D05" in legal(state)
    state = act(state, "stone portal_stone D05")
    warden = monster(state, "warden")
    assert warden is not None and warden["life"] == 22 and warden["at"] == [3, 3]
    state = roll(state, "2", "escort")  # the Mage's roll: level 1
    assert monster(state, "skeleton") is not None and pos(state)["lair"] == ["rat"]
    state = roll(state, "6", "escort")  # the Warrior's: level 2, none in the lair
    state = roll(state, "restoration_4")  # set aside
    state = roll(state, "cultist")
    state = roll(state, "4", "escort")  # the Cleric's: level 2
    state = roll(state, "gargoyle")
    assert [m["card"] for m in pos(state)["monsters"]] == [
        "warden", "skeleton", "cultist", "gargoyle"]
    # the stone goes to the tail after its whole effect, escorts included.
    assert pos(state)["orange"]["tail"] == ["restoration_4", "portal_stone"]
    # The Mage is in combat: Attack (never the guarded Warden) or its ability.
    options = legal(state)
    assert "attack warden" not in options
    assert {"attack skeleton", "attack cultist", "attack gargoyle"} <= set(options)
    assert "ability frost_bind warden" in options
    assert not any(o.startswith(("move", "explore", "wait")) for o in options)


E4B: dict[str, Any] = {
    "players": 3, "mode": "coop",
    "map": [["D05", 3, 3]],
    "characters": [{"card": "mage", "life": 11}, {"card": "warrior", "life": 11},
                   {"card": "cleric", "life": 10}],
    "monsters": [{"card": "warden", "at": [3, 3]}],
    "lair": ["skeleton", "cultist", "gargoyle"],
}


def test_e4b_the_boss_fight() -> None:
    state = load(E4B)
    state = act(state, "ability frost_bind warden")
    assert life(state, "mage") == 8
    assert monster(state, "warden")["effects"] == [  # type: ignore[index]
        {"kind": "stun", "x": 2, "timer": 6, "turn": 1}]  # no tick at the casting turn's end
    # The Warrior: a hit, no counter (stunned); then a miss.
    state = act(state, "attack warden")
    state = roll(state, "5+4", "attack")
    assert life(state, "warden") == 19
    state = roll(state, "1+3", "attack")
    assert monster(state, "warden")["effects"][0]["timer"] == 5  # type: ignore[index]
    # The Cleric: a hit, then 17, not > 17.
    state = act(state, "attack warden")
    state = roll(state, "6+2", "attack")
    state = roll(state, "3+3", "attack")
    assert life(state, "warden") == 17
    assert monster(state, "warden")["effects"][0]["timer"] == 4  # type: ignore[index]
    # The Mage: its ability is spent, so Attack is its only choice (taken at once); two hits,
    # the second moves the Warden to band 14–8.
    assert waiting_event(state) == "T4.1.attack"
    state = roll(state, "4+4", "attack")
    state = roll(state, "6+5", "attack")
    assert [life(state, c) for c in ("warden", "mage", "warrior", "cleric")] == [13, 8, 11, 10]
    warden = state.view(0).monsters[0]
    assert (warden.defence, warden.damage, warden.attack) == (17, 3, 11)
    assert monster(state, "warden")["effects"][0]["timer"] == 3  # type: ignore[index]
    # The stun lasts through the next Warrior, Cleric and Mage turns...
    for card in ("warrior", "cleric", "mage"):
        if card != "mage":
            state = act(state, "attack warden")
        state = roll(state, "1+1", "attack")
        state = roll(state, "1+1", "attack")
    assert monster(state, "warden")["effects"] == []  # type: ignore[index]
    # ... and from the following Warrior turn the Warden counters again.
    state = act(state, "attack warden")
    state = roll(state, "1+1", "attack")
    assert waiting_event(state).endswith("counter")


# ---------------------------------------------------------------------- E5


# The Rogue on D05 at (3,3): only its E exit is available; 9 cards are on the map.
E5: dict[str, Any] = {
    "players": 2, "mode": "coop",
    "map": [["D05", 3, 3], ["D06", 3, 2], ["D07", 3, 4], ["D08", 2, 3], ["D09", 0, 0],
            ["D11", 0, 6], ["D12", 1, 6], ["D13", 2, 6], ["D14", 6, 6]],
    "characters": [
        {"card": "rogue", "life": 7},
        {"card": "cleric", "life": 3, "gold": 2, "at": [0, 0],
         "weapon": {"card": "war_axe", "uses": 6, "since": 0}},
    ],
}


def _e5_to_the_event() -> Any:
    state = act(load(E5), "explore")
    state = roll(state, "D26")  # placed at (4,3), the 10th card
    state = roll(state, "watch_owl")  # carried
    assert char(state, "rogue")["carried"][0]["card"] == "watch_owl"
    assert waiting_event(state).endswith(".event")
    return state


def test_e5_hideout_uncovered() -> None:
    state = roll(_e5_to_the_event(), "4", "event")  # every character −3
    assert life(state, "rogue") == 4
    rogue = state.view(0).characters[0]
    assert (rogue.defence, rogue.damage, rogue.attack) == (16, 1, 10)
    cleric = char(state, "cleric")
    assert cleric["at"] is None and cleric["gold"] == 0 and cleric["weapon"] is None
    # Not defeated by an opponent: the War Axe is shuffled back into the current hidden
    # segment (the top half), to be found again with 10 uses; her gold leaves the game.
    assert "war_axe" in pos(state)["orange"]["top_known"]
    assert not state.is_over  # the Rogue is still in play
    # She can come back: 5 gold at a yellow gate, or a Resurrection Stone.


def test_e5_variant_1_the_sub_roll() -> None:
    base = roll(_e5_to_the_event(), "1", "event")
    assert waiting_event(base).endswith("subroll")
    assert life(roll(base, "3", "subroll"), "rogue") == 7
    assert life(roll(base, "5", "subroll"), "rogue") == 4


def test_e5_variant_2_the_friendly_guardian() -> None:
    before = _e5_to_the_event()
    # The next orange draw is committed with the event roll (it may be peeked).
    assert before.upcoming_events() == (waiting_event(before), "O2")
    state = roll(before, "2", "event")
    (request,) = state.knowledge_requests()
    assert request.seat == 0 and request.events == ("O2",)
    preview = state.preview_hidden(lambda event: event.outcomes[0])
    (card,) = preview.values()
    learned = state.learn(0, preview)
    assert dict(learned.view(0).peeked) == {"O2": card}
    assert learned.view(1).peeked == ()
    assert learned.view(1) == state.view(1) == learned.public().view(1)
    assert learned.digest() == state.digest()  # the peek is private
    # The card stays on top: the next orange draw is that hidden event, posed the same way.
    top = pos(learned)["orange"]["top_event"]
    assert top["id"] == "O2" and card in top["outcomes"]
    again = from_position(learned.to_position())
    assert again == learned


def test_e5_the_peek_is_drawn_later_as_the_hidden_event() -> None:
    state = roll(_e5_to_the_event(), "2", "event")
    preview = state.preview_hidden(lambda event: event.outcomes[-1])
    state = state.learn(0, preview)
    # The Cleric's turn: she explores east of her card and draws O2.
    w = state.waiting
    assert isinstance(w, Turn) and w.seat == 1
    state = state.apply(1, state.parse_action(1, "explore"))
    state = act(roll(state, "D15"), "place E")
    w2 = state.waiting
    assert isinstance(w2, Chance) and w2.event.id == "O2"
    assert w2.event.visibility.value == "hidden"
    assert w2.event.outcomes == tuple(pos(state)["orange"]["top_event"]["outcomes"])
    (card,) = preview.values()
    state = state.apply_chance("O2", card)
    assert state.knowledge_requests() == () and state.view(0).peeked == ()
