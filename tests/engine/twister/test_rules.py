"""Rules beyond the worked examples, each on a small position of layout L (rules §12): reveals,
cards, the turn cap, simultaneous victory, pits, the Thief, the Wizard, the Wall-Walker, potions,
portcullises, regeneration, healing, golden rule 2, escapes, jumps, rotations, combat chains."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import IllegalActionError, Over, Turn
from engine.twister import from_position
from tests.engine.twister.helpers import act, at, layout_l, outcome, pos, position, token, vp


def rooms_without(*slots: int) -> list[Any]:
    rooms: list[Any] = layout_l()
    for s in slots:
        rooms[s] = None
    return rooms


# ---------------------------------------------------------------------- reveals


def test_reveal_from_the_starting_line_a18() -> None:
    state = position({"W-goblin": {"at": [0, 9]}}, rooms=rooms_without(0, 4))
    legal = {state.format_action(a) for a in state.legal_actions(0)}
    assert {"reveal W-goblin 0", "reveal W-goblin 4"} <= legal
    state = position({"W-goblin": {"at": [0, 9]}}, rooms=rooms_without(0, 3, 4))
    with pytest.raises(IllegalActionError, match="slot 0 or 4"):
        act(state, 0, "reveal W-goblin 3")


def test_reveal_needs_an_open_side_of_ones_own_square() -> None:
    rooms = rooms_without(1)
    # 3B r1c5 (5,0) has no east wall (the wall there is printed on 1A): direct access.
    state = act(position({"W-goblin": {"at": [5, 0]}}, rooms=rooms), 0, "reveal W-goblin 1")
    assert state.waiting.event.id == "slot.1"  # type: ignore[union-attr]
    # 3B r2c5 (5,1) has an east wall: no access (not even for the Wall-Walker, §5.1).
    state = position({"W-wall_walker": {"at": [5, 1]}}, rooms=rooms)
    with pytest.raises(IllegalActionError, match="no direct access"):
        act(state, 0, "reveal W-wall_walker 1")


def test_a_face_down_slot_cannot_be_entered() -> None:
    state = position({"W-goblin": {"at": [5, 0]}}, rooms=rooms_without(1))
    with pytest.raises(IllegalActionError, match="face-down room"):
        act(state, 0, "move W-goblin 6,0")


# ---------------------------------------------------------------------- cards and turns


def card_state(hand: list[int], highest: int) -> Any:
    return from_position({"phase": "card", "turn": 2, "active": 1, "rooms": layout_l(),
                          "highest": highest, "seats": [{}, {"hand": hand}]})


def test_the_action_card_ceiling_a27() -> None:
    assert [a.n for a in card_state([2, 3, 4, 5], 2).legal_actions(1)] == [2, 3]
    assert [a.n for a in card_state([3, 4, 5], 3).legal_actions(1)] == [3, 4]
    assert [a.n for a in card_state([2, 3, 5], 4).legal_actions(1)] == [2, 3, 5]
    with pytest.raises(IllegalActionError, match="highest card you may play now is 3"):
        card_state([2, 3, 4, 5], 2).parse_action(1, "card 4")


def test_an_empty_hand_takes_back_the_four_cards() -> None:
    state = act(card_state([5], 5), 1, "card 5")
    assert pos(state)["seats"][1]["hand"] == []
    state = act(state, 1, "end")
    assert pos(state)["seats"][1]["hand"] == [2, 3, 4, 5]
    assert state.waiting == Turn("T3.card", 0)


def test_spending_the_last_ap_ends_the_turn() -> None:
    state = position({"W-goblin": {"at": [1, 4]}}, ap=1)
    state = act(state, 0, "move W-goblin 2,4")
    assert state.waiting == Turn("T4.card", 1)


@pytest.mark.parametrize(("vps", "winners", "words"), [
    ([2, 1], {0}, "West wins 2-1"), ([0, 3], {1}, "East wins 3-0"),
    ([1, 1], set(), "a draw at 1-1")])
def test_the_turn_cap_a28(vps: list[int], winners: set[int], words: str) -> None:
    state = position({}, turn=60, seats=[{"vp": vps[0]}, {"vp": vps[1]}])
    state = act(state, 0, "end")
    result = outcome(state)
    assert result.winners == winners and words in result.reason and "turn cap" in result.reason


def test_no_turn_cap() -> None:
    state = position({}, turn=60, turn_cap=0)
    state = act(state, 0, "end")
    assert state.waiting == Turn("T61.card", 1)


def test_both_reach_five_in_one_action_the_active_seat_wins_r22() -> None:
    # The Goblin takes the Rope from under a wounded friend on the pit (A6) and escapes; the
    # friend falls: West +2, East +1.
    state = position({"W-goblin": {"at": [18, 9]}, "W-troll": {"at": [19, 9], "wounded": True},
                      "W-rope": {"at": [19, 9]}}, seats=[{"vp": 3}, {"vp": 4}])
    state = act(state, 0, "move W-goblin 19,9 take W-rope 20,9 21,9")
    assert vp(state) == [5, 5] and at(state, "W-troll") == "eliminated"
    assert outcome(state).winners == {0}


# ---------------------------------------------------------------------- pits, Thief, Wizard


def test_pits_need_a_rope_or_a_thief() -> None:
    state = position({"W-goblin": {"at": [18, 9]}})
    with pytest.raises(IllegalActionError, match="pit"):
        act(state, 0, "move W-goblin 19,9 20,9")
    thief = position({"W-thief": {"at": [18, 9]}})
    state = act(thief, 0, "move W-thief 19,9")  # she may stop on a pit
    assert at(state, "W-thief") == [19, 9]
    # A friend crosses the pit she stands on (R31); an enemy does not.
    state = position({"W-thief": {"at": [19, 9]}, "W-goblin": {"at": [18, 9]}})
    state = act(state, 0, "move W-goblin 19,9 20,9")
    assert at(state, "W-goblin") == [20, 9]
    state = position({"W-thief": {"at": [19, 9]}, "E-goblin": {"at": [18, 9]}}, active=1)
    with pytest.raises(IllegalActionError, match="W-thief stands on 19,9"):
        act(state, 1, "move E-goblin 19,9 20,9")


def test_only_the_rope_is_dropped_on_a_pit_a7() -> None:
    state = position({"W-thief": {"at": [18, 9]}, "W-sword": {"carrier": "W-thief"}})
    with pytest.raises(IllegalActionError, match="only the Rope"):
        act(state, 0, "move W-thief 19,9 drop 20,9")


def test_the_wizard_levitates_but_does_not_stop() -> None:
    state = position({"W-wizard": {"at": [18, 9]}})
    assert at(act(state, 0, "move W-wizard 19,9 20,9"), "W-wizard") == [20, 9]
    with pytest.raises(IllegalActionError, match="pit without a Rope"):
        act(state, 0, "move W-wizard 19,9")
    # He crosses an unwounded enemy (2A r5: (6,9) -> (7,9) -> (8,9)); a Goblin cannot.
    state = position({"W-wizard": {"at": [6, 9]}, "E-troll": {"at": [7, 9]}})
    assert at(act(state, 0, "move W-wizard 7,9 8,9"), "W-wizard") == [8, 9]
    with pytest.raises(IllegalActionError, match="already stands"):
        act(state, 0, "move W-wizard 7,9")
    goblin = position({"W-goblin": {"at": [6, 9]}, "E-troll": {"at": [7, 9]}})
    with pytest.raises(IllegalActionError, match="E-troll stands on 7,9"):
        act(goblin, 0, "move W-goblin 7,9 8,9")


# ---------------------------------------------------------------------- the Wall-Walker


def test_the_wall_walker_passes_walls_not_portcullises() -> None:
    state = position({"W-wall_walker": {"at": [18, 9]}, "W-rope": {"carrier": "W-wall_walker"}})
    state = act(state, 0, "pass W-wall_walker w")  # a double wall (2B r5c3 | r5c2)
    assert at(state, "W-wall_walker") == [17, 9]
    assert token(state, "W-rope")["carrier"] == "W-wall_walker"
    state = position({"W-wall_walker": {"at": [9, 9]}})  # 2A r5c4: a portcullis east
    with pytest.raises(IllegalActionError, match="no wall she may pass"):
        act(state, 0, "pass W-wall_walker e")


def test_the_wall_walker_escapes_through_a_border_wall() -> None:
    state = position({"W-wall_walker": {"at": [20, 0]}})  # 3A r1c5: a wall east
    state = act(state, 0, "pass W-wall_walker e")
    assert at(state, "W-wall_walker") == "escaped" and vp(state) == [1, 0]


# ---------------------------------------------------------------------- the Speed Potion


def test_potion_ap_belong_to_the_drinker_and_are_spent_first_a25() -> None:
    state = position({"W-goblin": {"at": [1, 4]}, "E-speed_potion": {"carrier": "W-goblin"},
                      "W-troll": {"at": [2, 9]}}, ap=2)
    state = act(state, 0, "drink W-goblin")
    assert at(state, "E-speed_potion") == "removed"
    assert token(state, "W-goblin")["potion"] == 4 and pos(state)["ap"] == 1
    state = act(state, 0, "move W-goblin 2,4")
    assert token(state, "W-goblin")["potion"] == 3 and pos(state)["ap"] == 1
    state = act(state, 0, "move W-troll 3,9")  # the card's last AP
    assert pos(state)["ap"] == 0 and state.waiting == Turn("T3.4", 0)
    movers = {state.format_action(a).split()[1] for a in state.legal_actions(0)
              if a.kind == "move"}
    assert movers == {"W-goblin"}  # the Troll has no AP left; the drinker has 3
    state = act(state, 0, "end")
    assert token(state, "W-goblin")["potion"] == 0  # potion AP expire with the turn


# ---------------------------------------------------------------------- portcullises


def gate_state(gate: str, who: str) -> Any:
    rooms = layout_l()
    rooms[0]["gates"] = ["closed", gate]  # 3B: r2c2|r2c3, then r4c3|r4c4
    return position({who: {"at": [4, 3]}}, rooms=rooms)


def test_portcullis_abilities_must_change_something_a23() -> None:
    with pytest.raises(IllegalActionError, match="not closed"):
        act(gate_state("open", "W-thief"), 0, "open W-thief w")
    with pytest.raises(IllegalActionError, match="never closes"):
        act(gate_state("broken", "W-thief"), 0, "close W-thief w")
    state = act(gate_state("open", "W-thief"), 0, "close W-thief w")
    assert pos(state)["rooms"][0]["gates"] == ["closed", "closed"]
    state = act(gate_state("open", "W-warrior"), 0, "break W-warrior w")
    assert pos(state)["rooms"][0]["gates"] == ["closed", "broken"]
    with pytest.raises(IllegalActionError, match="broken already"):
        act(state, 0, "break W-warrior w")
    with pytest.raises(IllegalActionError, match="only the Thief"):
        act(gate_state("closed", "W-goblin"), 0, "open W-goblin w")
    with pytest.raises(IllegalActionError, match="no portcullis"):
        act(gate_state("closed", "W-thief"), 0, "open W-thief n")


# ---------------------------------------------------------------------- healing, regeneration


def test_regeneration_conditions_r11() -> None:
    state = position({"W-troll": {"at": [1, 4], "wounded": True}, "W-goblin": {"at": [1, 4]}})
    with pytest.raises(IllegalActionError, match="shares its square"):
        act(state, 0, "regenerate W-troll")
    state = position({"W-troll": {"at": [1, 4], "wounded": True, "hurt": True}})
    with pytest.raises(IllegalActionError, match="wounded this turn"):
        act(state, 0, "regenerate W-troll")
    state = position({"W-goblin": {"at": [1, 4]},
                      "W-troll": {"carrier": "W-goblin", "wounded": True}})
    with pytest.raises(IllegalActionError, match="carried"):
        act(state, 0, "regenerate W-troll")


def test_heal_conditions_r25() -> None:
    state = position({"W-cleric": {"at": [1, 4]}, "W-warrior": {"at": [1, 3], "wounded": True},
                      "W-goblin": {"at": [1, 3]}})
    with pytest.raises(IllegalActionError, match="shares its square"):
        act(state, 0, "heal W-cleric W-warrior")
    # An enemy may be healed (either side); it then may not be attacked this turn (R10).
    state = position({"W-cleric": {"at": [1, 4]}, "E-warrior": {"at": [1, 3], "wounded": True},
                      "W-troll": {"at": [2, 3]}})
    state = act(state, 0, "heal W-cleric E-warrior")
    with pytest.raises(IllegalActionError, match="healed or regenerated this turn"):
        act(state, 0, "attack W-troll E-warrior")


# ---------------------------------------------------------------------- golden rule 2, escapes


def test_golden_rule_two() -> None:
    state = position({"W-goblin": {"at": [1, 4]}, "W-sword": {"carrier": "W-goblin"},
                      "W-rope": {"at": [2, 4]}})
    with pytest.raises(IllegalActionError, match="more than two tokens"):
        act(state, 0, "move W-goblin 2,4")
    state = position({"W-goblin": {"at": [1, 4]}, "W-sword": {"carrier": "W-goblin"},
                      "W-rope": {"at": [2, 4]}, "W-armour": {"at": [2, 4]}})
    with pytest.raises(IllegalActionError, match="golden rule 2"):
        act(state, 0, "move W-goblin 2,4 drop 1,4")


def test_nothing_is_handled_on_the_escape_square_a2() -> None:
    state = position({"W-goblin": {"at": [20, 6]}, "W-sword": {"carrier": "W-goblin"}})
    with pytest.raises(IllegalActionError, match="nothing may follow an escape"):
        act(state, 0, "move W-goblin 21,6 drop")
    state = act(state, 0, "move W-goblin 21,6")
    assert at(state, "W-sword") == "removed" and vp(state) == [2, 0]


def test_a_move_of_zero_steps_a3() -> None:
    state = position({"W-goblin": {"at": [1, 4]}, "W-sword": {"at": [1, 4]}}, ap=2)
    state = act(state, 0, "move W-goblin take W-sword")
    assert token(state, "W-sword")["carrier"] == "W-goblin" and pos(state)["ap"] == 1


# ---------------------------------------------------------------------- jumps


def test_jumps() -> None:
    state = position({"W-goblin": {"at": [3, 7]}, "E-sword": {"at": [2, 8]}}, ap=3,
                     seats=[{"jumps": 1}, {}])
    with pytest.raises(IllegalActionError, match="not back"):
        act(state, 0, "jump W-goblin 2,7 3,7")
    with pytest.raises(IllegalActionError, match="only on the landing square"):
        act(state, 0, "jump W-goblin 2,7 drop 2,8")
    state = act(state, 0, "jump W-goblin 2,7 2,8 take E-sword")
    assert at(state, "W-goblin") == [2, 8] and token(state, "E-sword")["carrier"] == "W-goblin"
    with pytest.raises(IllegalActionError, match="no jump card"):
        act(state, 0, "jump W-goblin 2,7 3,7")
    occupied = position({"W-goblin": {"at": [3, 7]}, "E-goblin": {"at": [2, 7],
                                                                  "wounded": True}})
    with pytest.raises(IllegalActionError, match="no token on it"):
        act(occupied, 0, "jump W-goblin 2,7 2,8")


def test_a_jump_can_escape() -> None:
    # 2B: the pit r2c3 (18,6) lies in a north-south corridor; 3A r3c5 (20,2) is a pit next to
    # the East line.
    state = position({"W-goblin": {"at": [19, 2]}})
    state = act(state, 0, "jump W-goblin 20,2 21,2")
    assert at(state, "W-goblin") == "escaped" and vp(state) == [2, 0]


# ---------------------------------------------------------------------- rotations


def test_rotations_cost_one_ap_per_quarter_turn() -> None:
    state = position({"W-goblin": {"at": [9, 1]}}, ap=3)
    with pytest.raises(IllegalActionError, match="not enough AP"):
        act(position({"W-goblin": {"at": [9, 1]}}, ap=1), 0, "rotate W-goblin 1 cw 2")
    state = act(state, 0, "rotate W-goblin 1 cw 2")
    assert pos(state)["rooms"][1]["orientation"] == 2 and pos(state)["ap"] == 1
    rooms = rooms_without(2)
    with pytest.raises(IllegalActionError, match="face-up twin"):
        act(position({"W-goblin": {"at": [9, 1]}}, rooms=rooms), 0, "rotate W-goblin 2 ccw 1")
    with pytest.raises(IllegalActionError, match="not on a rotation gear"):
        act(position({"W-goblin": {"at": [8, 1]}}), 0, "rotate W-goblin 1 cw 1")


# ---------------------------------------------------------------------- combat


def test_a_healed_character_stays_out_of_the_chain() -> None:
    state = position({"W-troll": {"at": [1, 4]}, "E-goblin": {"at": [2, 4]},
                      "E-warrior": {"at": [2, 3], "healed": True}})
    state = act(state, 0, "attack W-troll E-goblin")
    f = pos(state)["fight"]
    assert f["defenders"] == ["E-goblin"] and f["attackers"] == ["W-troll"]


def test_the_fireball_chooses_among_two_characters_a14() -> None:
    state = position({"W-wizard": {"at": [1, 4]}, "W-fireball_wand": {"carrier": "W-wizard"},
                      "E-goblin": {"at": [2, 4]}, "E-thief": {"at": [2, 4], "wounded": True}})
    legal = {state.format_action(a) for a in state.legal_actions(0) if a.kind == "fireball"}
    assert legal == {"fireball W-wizard e E-goblin", "fireball W-wizard e E-thief"}
    state = act(state, 0, "fireball W-wizard e E-thief")
    assert at(state, "E-thief") == "eliminated" and at(state, "E-goblin") == [2, 4]


def test_every_combat_card_choice_and_the_zero_returns() -> None:
    state = position({"W-troll": {"at": [1, 4]}, "E-goblin": {"at": [2, 4]}},
                     seats=[{"combat": [0, 6]}, {"combat": [0]}])
    state = act(state, 0, "attack W-troll E-goblin")
    assert [a.n for a in state.legal_actions(0)] == [0, 6]
    assert [a.n for a in state.legal_actions(1)] == [0]
    state = state.apply(1, state.parse_action(1, "combat 0"))
    assert state.public().waiting.committed == frozenset()  # type: ignore[union-attr]
    assert state.waiting.committed == {1}  # type: ignore[union-attr]
    state = state.apply(0, state.parse_action(0, "combat 0"))
    assert token(state, "E-goblin")["wounded"]  # 4 against 1
    assert pos(state)["seats"][1]["combat"] == [0]
    assert not isinstance(state.waiting, Over)
