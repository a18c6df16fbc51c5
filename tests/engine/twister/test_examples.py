"""The worked examples of rules/dungeon-twister.md §12, on the example layout L (every room face
up at orientation 0: slot 0 = 3B, 1 = 1A, 2 = 1B, 3 = 3A, 4 = 4A, 5 = 2A, 6 = 4B, 7 = 2B)."""

from __future__ import annotations

import pytest

from engine.core import IllegalActionError, Simultaneous
from tests.engine.twister.helpers import act, at, fight, outcome, pos, position, token, vp

# ---------------------------------------------------------------------- example 1

EXAMPLE_1 = {
    "E-thief": {"at": [15, 1]},  # on the pit r2c5 of 1B
    "W-goblin": {"at": [15, 2]},
    "E-troll": {"at": [15, 3]},
    "E-armour": {"carrier": "E-troll"},
    "W-warrior": {"at": [15, 4]},
    "W-sword": {"carrier": "W-warrior"},
    "W-cleric": {"at": [14, 3]},  # behind the closed portcullis r4c4|r4c5
    "E-cleric": {"at": [14, 4], "wounded": True},
}


def example_1_attack():  # type: ignore[no-untyped-def]
    state = position(EXAMPLE_1)
    state = act(state, 0, "attack W-warrior E-troll")
    assert isinstance(state.waiting, Simultaneous)
    assert state.waiting.seats == {0, 1}
    f = pos(state)["fight"]
    assert f["attackers"] == ["W-goblin", "W-warrior"]
    assert f["defenders"] == ["E-thief", "E-troll"]
    return state


def test_example_1_participants_and_totals() -> None:
    from engine.twister.rules import strengths

    state = example_1_attack()
    assert state.fight is not None
    assert strengths(state, state.fight) == (5, 7)  # 3 + 1 (Sword) + 1 ; 4 + 1 (Armour) + 2


def test_example_1_west_wins_and_the_thief_falls() -> None:
    state = fight(example_1_attack(), 4, 1)  # 9 against 8
    assert token(state, "E-troll")["wounded"] and token(state, "E-troll")["hurt"]
    assert at(state, "E-thief") == "eliminated"  # wounded on a pit without a Rope
    assert vp(state) == [1, 0]
    seats = pos(state)["seats"]
    assert 4 not in seats[0]["combat"] and 1 not in seats[1]["combat"]
    assert sorted(seats[0]["combat"]) == [0, 1, 2, 2, 3, 3, 5, 6]
    # West cannot attack the Troll again this turn (the Goblin is next to it).
    with pytest.raises(IllegalActionError, match="wounded this turn"):
        act(state, 0, "attack W-goblin E-troll")
    # In East's next turn the Troll regenerates, and does nothing else that turn.
    state = act(state, 0, "end")
    state = act(state, 1, "card 3")
    state = act(state, 1, "regenerate E-troll")
    assert not token(state, "E-troll")["wounded"] and token(state, "E-troll")["healed"]
    with pytest.raises(IllegalActionError, match="healed or regenerated"):
        act(state, 1, "move E-troll 15,2")
    with pytest.raises(IllegalActionError, match="healed or regenerated"):
        act(state, 1, "attack E-troll W-goblin")


def test_example_1_tie() -> None:
    state = fight(example_1_attack(), 2, 0)  # 7 against 7
    assert not token(state, "E-troll")["wounded"] and at(state, "E-thief") == [15, 1]
    assert vp(state) == [0, 0]
    seats = pos(state)["seats"]
    assert seats[0]["combat"].count(2) == 1  # West's 2 leaves the game
    assert 0 in seats[1]["combat"] and len(seats[1]["combat"]) == 9  # East's 0 goes back


def test_example_1_loss() -> None:
    state = fight(example_1_attack(), 4, 6)  # 9 against 13
    assert token(state, "W-warrior")["wounded"] and token(state, "W-goblin")["wounded"]
    assert token(state, "W-sword")["carrier"] == "W-warrior"
    assert vp(state) == [0, 0]


# ---------------------------------------------------------------------- example 2

EXAMPLE_2 = {
    "W-goblin": {"at": [9, 1]},  # on the gear of 1A
    "E-warrior": {"at": [6, 2]},
    "W-sword": {"at": [10, 4]},
    "W-cleric": {"at": [0, 2]},
    "E-thief": {"at": [11, 0]},
}


def test_example_2_rotation_moves_characters_and_objects() -> None:
    state = act(position(EXAMPLE_2), 0, "rotate W-goblin 1 cw 1")
    assert pos(state)["rooms"][1]["orientation"] == 1
    assert at(state, "W-goblin") == [9, 3]
    assert at(state, "E-warrior") == [8, 0]
    assert at(state, "W-sword") == [6, 4]
    assert at(state, "W-cleric") == [0, 2]
    board = state.board
    pits = sorted((sq % 22, sq // 22) for sq in range(220) if board.kinds[sq] == 1
                  and 6 <= sq % 22 <= 10 and sq // 22 < 5)
    assert pits == [(7, 3), (9, 1)]
    assert board.kinds[3 * 22 + 9] == 2  # the gear went with the Goblin
    # The closed portcullises now lie between (6,1)-(7,1) and (7,4)-(8,4).
    def linked(a: tuple[int, int], b: tuple[int, int]) -> bool:
        sa, sb = a[1] * 22 + a[0], b[1] * 22 + b[0]
        return sb in [board.links[sa * 4 + d] for d in range(4)]
    assert board.sides[(1 * 22 + 6) * 4 + 1] >= 0 and not linked((6, 1), (7, 1))
    assert board.sides[(4 * 22 + 7) * 4 + 1] >= 0 and not linked((7, 4), (8, 4))

    # AP 2: the Goblin is still on the gear and turns the twin 1B along its arrow (ccw).
    with pytest.raises(IllegalActionError, match="only the Mekanork chooses"):
        act(state, 0, "rotate W-goblin 2 cw 1")
    state = act(state, 0, "rotate W-goblin 2 ccw 1")
    assert pos(state)["rooms"][2]["orientation"] == 3
    assert at(state, "E-thief") == [11, 4]
    board = state.board
    pits = sorted((sq % 22, sq // 22) for sq in range(220) if board.kinds[sq] == 1
                  and 11 <= sq % 22 <= 15 and sq // 22 < 5)
    assert pits == [(12, 0), (14, 4)]
    assert board.kinds[2 * 22 + 13] == 2


def test_example_2_mekanork_chooses_the_direction() -> None:
    tokens = dict(EXAMPLE_2)
    tokens["W-mekanork"] = tokens.pop("W-goblin")
    state = act(position(tokens), 0, "rotate W-mekanork 1 cw 1")
    state = act(state, 0, "rotate W-mekanork 2 cw 1")
    assert at(state, "E-thief") == [15, 0]


# ---------------------------------------------------------------------- example 3


def example_3(carrier: str, load: str, *, wounded_load: bool = False):  # type: ignore[no-untyped-def]
    entry = {"carrier": carrier}
    if wounded_load:
        entry["wounded"] = True  # type: ignore[assignment]
    return position({carrier: {"at": [20, 8]}, load: entry, "E-troll": {"at": [21, 8]}},
                    seats=[{"vp": 2}, {}])


def test_example_3_escape_with_the_treasure_wins() -> None:
    state = example_3("W-goblin", "W-treasure")
    with pytest.raises(IllegalActionError, match="E-troll stands on 21,8"):
        act(state, 0, "move W-goblin 21,8")
    with pytest.raises(IllegalActionError, match="wall"):
        act(state, 0, "move W-goblin 20,7 21,7")
    state = act(state, 0, "move W-goblin 20,7 20,6 21,6")
    assert at(state, "W-goblin") == "escaped" and at(state, "W-treasure") == "removed"
    assert vp(state) == [5, 0]
    assert outcome(state).winners == {0}


def test_example_3_variant_warrior() -> None:
    state = act(example_3("W-warrior", "W-treasure"), 0, "move W-warrior 20,7 20,6 21,6")
    assert vp(state) == [4, 0]
    assert not state.is_over


def test_example_3_variant_carried_goblin() -> None:
    state = example_3("W-thief", "W-goblin", wounded_load=True)
    state = act(state, 0, "move W-thief 20,7 20,6 21,6")
    assert vp(state) == [3, 0]
    assert at(state, "W-goblin") == "removed"  # carried out: no score, not eliminated


# ---------------------------------------------------------------------- example 4

EXAMPLE_4 = {
    "W-thief": {"at": [4, 3]},
    "W-warrior": {"at": [2, 3], "wounded": True},
    "W-cleric": {"at": [1, 4]},
}


def test_example_4_carrying_a_wounded_character() -> None:
    state = position(EXAMPLE_4, ap=4)
    with pytest.raises(IllegalActionError, match="wall or a closed portcullis"):
        act(state, 0, "move W-thief 3,3")
    state = act(state, 0, "open W-thief w")
    state = act(state, 0, "move W-thief 3,3 2,3 take W-warrior 1,3 drop 1,4 2,4")
    assert at(state, "W-thief") == [2, 4] and at(state, "W-warrior") == [1, 3]
    assert "carrier" not in token(state, "W-warrior")
    state = act(state, 0, "heal W-cleric W-warrior")
    warrior = token(state, "W-warrior")
    assert not warrior["wounded"] and warrior["healed"]
    with pytest.raises(IllegalActionError, match="may not act again"):
        act(state, 0, "move W-warrior 0,3")
    state = act(state, 0, "end")
    assert not token(state, "W-warrior")["healed"]  # the flag ends with the turn (R28)


def test_example_4_no_heal_while_carried() -> None:
    state = act(position(EXAMPLE_4, ap=3), 0, "open W-thief w")
    state = act(state, 0, "move W-thief 3,3 2,3 take W-warrior 1,3")
    with pytest.raises(IllegalActionError, match="carried"):
        act(state, 0, "heal W-cleric W-warrior")


def test_example_4_losing_while_carrying() -> None:
    state = act(position(EXAMPLE_4, ap=3), 0, "open W-thief w")
    state = act(state, 0, "move W-thief 3,3 2,3 take W-warrior 1,3 1,4 2,4")
    state = act(state, 0, "end")
    tokens = pos(state)["tokens"]
    tokens["E-troll"] = {"at": [2, 3]}
    data = pos(state)
    data["tokens"] = tokens
    from engine.twister import from_position

    state = act(from_position(data), 1, "card 3")
    state = act(state, 1, "attack E-troll W-thief")
    state = fight(state, 0, 1)
    assert at(state, "W-warrior") == "eliminated"
    assert token(state, "W-thief")["wounded"]
    assert vp(state) == [0, 1]


# ---------------------------------------------------------------------- example 5

EXAMPLE_5 = {
    "W-wizard": {"at": [16, 4]},
    "W-fireball_wand": {"carrier": "W-wizard"},
    "W-rope": {"at": [17, 4]},
    "E-warrior": {"at": [19, 4]},
    "E-goblin": {"carrier": "E-warrior", "wounded": True},
    "E-troll": {"at": [20, 4]},
    "W-goblin": {"at": [16, 1]},
}


def example_5(gate: str):  # type: ignore[no-untyped-def]
    from tests.engine.twister.helpers import layout_l

    rooms = layout_l()
    rooms[3]["gates"] = ["closed", gate]  # 3A: r4c2|r5c2, then r5c3|r5c4
    return position(EXAMPLE_5, rooms=rooms)


def test_example_5_fireball_east() -> None:
    state = example_5("open")
    with pytest.raises(IllegalActionError, match="hits E-warrior"):
        act(state, 0, "fireball W-wizard e E-troll")
    state = act(state, 0, "fireball W-wizard e E-warrior")
    assert at(state, "E-warrior") == "eliminated" and at(state, "E-goblin") == "eliminated"
    assert at(state, "E-troll") == [20, 4]
    assert at(state, "W-fireball_wand") == "removed"
    assert vp(state) == [2, 0]


def test_example_5_closed_portcullis_blocks_the_line() -> None:
    with pytest.raises(IllegalActionError, match="no character is in sight"):
        act(example_5("closed"), 0, "fireball W-wizard e E-warrior")


def test_example_5_fireball_north_hits_a_friend() -> None:
    state = act(example_5("open"), 0, "fireball W-wizard n W-goblin")
    assert at(state, "W-goblin") == "eliminated"
    assert vp(state) == [0, 1]


# ---------------------------------------------------------------------- example 6


def test_example_6_rope_on_the_pit() -> None:
    state = position({"W-troll": {"at": [4, 5]}, "W-rope": {"carrier": "W-troll"},
                      "W-goblin": {"at": [3, 5]}}, ap=2)
    with pytest.raises(IllegalActionError, match="pit"):
        act(state, 0, "move W-goblin 4,5 4,6 4,7 3,7")
    state = act(state, 0, "move W-troll 4,6 drop 4,7")
    assert at(state, "W-rope") == [4, 6] and "carrier" not in token(state, "W-rope")
    state = act(state, 0, "move W-goblin 4,5 4,6 4,7 3,7")
    assert at(state, "W-goblin") == [3, 7] and vp(state) == [0, 0]


def test_example_6_jump() -> None:
    state = position({"W-wall_walker": {"at": [3, 7]}}, ap=2)
    with pytest.raises(IllegalActionError, match="wall or a closed portcullis"):
        act(state, 0, "jump W-wall_walker 2,7 1,7")
    state = act(state, 0, "jump W-wall_walker 2,7 2,8")
    assert at(state, "W-wall_walker") == [2, 8]
    assert pos(state)["seats"][0]["jumps"] == 2


def test_example_6_fall() -> None:
    state = position({"W-goblin": {"at": [4, 6], "wounded": True}, "W-rope": {"at": [4, 6]},
                      "E-warrior": {"at": [4, 5]}}, active=1, ap=2)
    state = act(state, 1, "move E-warrior 4,6 take W-rope 4,7")
    assert at(state, "W-goblin") == "eliminated"
    assert token(state, "W-rope")["carrier"] == "E-warrior"
    assert vp(state) == [0, 1]
