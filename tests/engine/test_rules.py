"""Focused tests of the Dungeon Raiders rules: each room type, each boss and the rulings of §5
of the rules reference (docs: /work/shared/rules/dungeon-raiders.md).

Each test builds a small position with :func:`at_room` (level 1, the named room current) or
:func:`at_boss` (level 5, room 5), plays through the checked API and reads the result from the
documented JSON position.  Seats are lettered A = 0, B = 1, ...
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import (
    Chance,
    IllegalActionError,
    KnowledgeRequest,
    NotYourDecisionError,
    Over,
    Simultaneous,
    Turn,
    Visibility,
)
from engine.raiders import PEEK, PLAY, from_position
from engine.sim import Dealer
from tests.engine.helpers import (
    POWER,
    coins,
    eliminated,
    items,
    last,
    outcome,
    play,
    play_joint,
    play_turns,
    position,
    statuses,
    supply,
    used,
    wounds,
)

A, B, C, D, E = range(5)
CHARACTERS = ("warrior", "wizard", "thief", "explorer", "knight")

# Level cards as printed in the rules reference §2.6 (U face up, d face down).
LAYOUTS = {"L1": "UdUdd", "L2": "UddUd", "L3": "UUUUd", "L4": "UUddU", "L5": "UUddd",
           "L6": "UUdUd", "L7": "UdddU"}
FILLERS = ("goblin#2", "treasure-1", "troll#2", "snake", "skeleton", "thing")
LAST_SIX = ["snake", "skeleton", "thing", "dragon#1", "lava", "spikes"]
BOSS_ROW = ["zombie#1", "treasure-3", "goblin#1", "troll#1"]
ALL_BOSSES = ("tax_collector", "medusa", "vampire", "sphinx", "minotaur", "wolf_pack",
              "necromancer", "mega_dragon", "golem", "mummy")


def table(n: int, *, coins: list[int] | None = None, wounds: list[int] | None = None,
          items: dict[int, dict[str, int]] | None = None,
          used: dict[int, list[int]] | None = None) -> list[dict[str, Any]]:
    """``n`` seats with distinct characters and the given counters."""
    return [{
        "character": CHARACTERS[s],
        "coins": (coins or [5] * n)[s],
        "wounds": (wounds or [1] * n)[s],
        "items": (items or {}).get(s, {}),
        "used": (used or {}).get(s, []),
    } for s in range(n)]


def at_room(card: str, seats: list[dict[str, Any]], *, layout: str = "L3",
            variant: str = "basic", room: int = 1, map_holder: int | None = None,
            **extra: Any) -> dict[str, Any]:
    """A level-1 position whose room ``room`` is ``card``.  Positions before it hold fillers,
    face-up positions after it fillers, face-down positions after it 'down'."""
    fillers = [f for f in FILLERS if f != card]
    row: list[str] = []
    for p, face in enumerate(LAYOUTS[layout], start=1):
        if p == room:
            row.append(card)
        elif face == "d" and p > room:
            row.append("down")
        else:
            row.append(fillers.pop(0))
    data: dict[str, Any] = {
        "game": "raiders", "format": 1, "players": len(seats), "variant": variant,
        "phase": "play", "level": 1, "room": room, "layout": layout, "row": row,
        "seats": seats,
    }
    if map_holder is not None:
        data["map"] = map_holder
    data.update(extra)
    return data


def at_boss(boss: str, seats: list[dict[str, Any]], *, variant: str = "basic",
            map_holder: int | None = None) -> dict[str, Any]:
    """Level 5, room 5: the boss is the current (and last) room."""
    data: dict[str, Any] = {
        "game": "raiders", "format": 1, "players": len(seats), "variant": variant,
        "phase": "play", "level": 5, "room": 5, "layout": "L3",
        "row": [*BOSS_ROW, boss], "rooms": LAST_SIX, "level_cards": ["L1", "L2"],
        "seats": seats,
    }
    if map_holder is not None:
        data["map"] = map_holder
    return data


def resolve(data: dict[str, Any], cards: dict[int, str],
            followups: dict[int, str] | None = None) -> Any:
    """Play one room of the basic game from ``data``: room cards, then any follow-ups."""
    state = play_joint(from_position(data), cards)
    if followups:
        state = play_joint(state, followups)
    return state


def assert_readable(exc: BaseException, *words: str) -> None:
    msg = str(exc)
    assert msg and "\n" not in msg and len(msg) < 200, msg
    for word in words:
        assert word in msg, f"{word!r} not in {msg!r}"


# ====================================================================== treasure (rulings 6, 7)


def test_treasure_single_highest_takes_big_chest_next_takes_second() -> None:
    after = resolve(at_room("treasure-4-2#1", table(3, coins=[0, 0, 0])),
                    {A: "5", B: "3", C: "1"})
    assert coins(after) == [4, 2, 0]


def test_treasure_without_second_chest_pays_only_the_highest() -> None:
    after = resolve(at_room("treasure-3", table(3, coins=[0, 0, 0])), {A: "5", B: "4", C: "1"})
    assert coins(after) == [3, 0, 0]


def test_treasure_second_chest_goes_to_next_value_even_if_big_chest_split_to_zero() -> None:
    # Ruling 7: 2 coins split three ways is 0 each; the 1-coin chest still goes to the 1.
    after = resolve(at_room("treasure-2-1#1", table(4, coins=[0, 0, 0, 0])),
                    {A: "5", B: "5", C: "5", D: "1"})
    assert coins(after) == [0, 0, 0, 1]


def test_treasure_second_chest_stays_when_there_is_no_lower_value() -> None:
    after = resolve(at_room("treasure-4-2#1", table(3, coins=[0, 0, 0])),
                    {A: "3", B: "3", C: "3"})
    assert coins(after) == [1, 1, 1]


def test_treasure_second_chest_shared_by_ties_on_the_second_value() -> None:
    after = resolve(at_room("treasure-4-2#1", table(4, coins=[0, 0, 0, 0])),
                    {A: "5", B: "2", C: "2", D: "1"})
    assert coins(after) == [4, 1, 1, 0]


def test_torch_never_wins_the_second_chest() -> None:
    # Ruling 6: the others tie on 3 and share the big chest; the torch (0) gets nothing.
    seats = table(3, coins=[0, 0, 0], items={A: {"torch": 1}})
    after = resolve(at_room("treasure-4-2#1", seats), {A: "play torch", B: "3", C: "3"})
    assert coins(after) == [0, 2, 2]


def test_torches_alone_win_no_chest() -> None:
    seats = table(3, coins=[0, 0, 0], items={s: {"torch": 1} for s in range(3)})
    after = resolve(at_room("treasure-4-2#1", seats),
                    {A: "play torch", B: "play torch", C: "play torch"})
    assert coins(after) == [0, 0, 0]
    assert supply(after)["torch"] == 6


def test_torch_as_follow_up_wins_no_chest() -> None:
    seats = table(3, coins=[0, 0, 0], items={A: {"crystal": 1, "torch": 1}})
    after = resolve(at_room("treasure-4-2#1", seats), {A: "crystal", B: "2", C: "2"},
                    {A: "play torch"})
    assert last(after)["values"] == [0, 2, 2]
    assert coins(after) == [0, 2, 2]


def test_key_is_worth_5_in_a_treasure_room_and_returns_after_the_room() -> None:
    seats = table(3, coins=[0, 0, 0], items={A: {"key": 1}})
    state = from_position(at_room("treasure-4-2#1", seats))
    assert supply(state)["key"] == 5
    after = play_joint(state, {A: "key", B: "5", C: "4"})
    assert last(after)["values"] == [5, 5, 4]
    assert coins(after) == [2, 2, 2]
    assert items(after, A)["key"] == 0
    assert supply(after)["key"] == 6


def test_treasure_coin_cap_20() -> None:
    after = resolve(at_room("treasure-4-2#1", table(3, coins=[18, 19, 20])),
                    {A: "5", B: "4", C: "1"})
    assert coins(after) == [20, 20, 20]


# ====================================================================== monsters (ruling 5)


def test_monster_defeated_when_total_reaches_strength() -> None:
    # Snake: strength 8 with 3 players, 3 wounds.
    after = resolve(at_room("snake", table(3, wounds=[0, 0, 0])), {A: "5", B: "2", C: "1"})
    assert last(after)["defeated"] is True
    assert wounds(after) == [0, 0, 0]


def test_monster_attack_uses_the_strength_for_n() -> None:
    # Zombie 11 / 14 / 18 for 3 / 4 / 5 players, 1 wound.
    after = resolve(at_room("zombie#1", table(5, wounds=[0] * 5)),
                    {A: "5", B: "4", C: "3", D: "3", E: "2"})
    assert (last(after)["total"], last(after)["strength"]) == (17, 18)
    assert wounds(after) == [0, 0, 0, 0, 1]


def test_sword_is_worth_5_in_a_monster_room() -> None:
    seats = table(3, wounds=[0, 0, 0], items={A: {"sword": 1}})
    after = resolve(at_room("goblin#1", seats), {A: "sword", B: "4", C: "2"})
    assert last(after)["values"] == [5, 4, 2]
    assert last(after)["defeated"] is True
    assert supply(after)["sword"] == 6


def test_torch_is_value_0_and_attacked_in_a_monster_room() -> None:
    # Ruling 5.
    seats = table(3, wounds=[0, 0, 0], items={A: {"torch": 1}})
    after = resolve(at_room("zombie#1", seats), {A: "play torch", B: "5", C: "4"})
    assert last(after)["values"] == [0, 5, 4]
    assert wounds(after) == [1, 0, 0]


# ====================================================================== legality (rulings 1–4)

KEY_ROOMS = [
    ("treasure-3", True), ("zombie#1", False), ("vault-items#1", False), ("vault-coins#1", False),
    ("lava", False), ("boulder", False),
]
SWORD_ROOMS = [
    ("zombie#1", True), ("dragon#1", True), ("treasure-3", False), ("vault-items#1", False),
    ("vault-coins#1", False), ("magnetic", False),
]


def _holding(item: str) -> list[dict[str, Any]]:
    return table(3, items={A: {item: 1}})


@pytest.mark.parametrize(("card", "legal"), KEY_ROOMS)
def test_key_legality_by_room(card: str, legal: bool) -> None:
    state = from_position(at_room(card, _holding("key")))
    assert (PLAY["key"] in state.legal_actions(A)) is legal
    if legal:
        state.apply(A, PLAY["key"])
    else:
        with pytest.raises(IllegalActionError) as info:
            state.apply(A, PLAY["key"])
        assert_readable(info.value, "key")


@pytest.mark.parametrize(("boss", "legal"), [(b, b == "mega_dragon") for b in ALL_BOSSES])
def test_key_legal_only_against_the_mega_dragon(boss: str, legal: bool) -> None:
    state = from_position(at_boss(boss, _holding("key")))
    assert (PLAY["key"] in state.legal_actions(A)) is legal
    if not legal:
        with pytest.raises(IllegalActionError) as info:
            state.parse_action(A, "play key")
        assert_readable(info.value, "key")


@pytest.mark.parametrize(("card", "legal"), SWORD_ROOMS)
def test_sword_legality_by_room(card: str, legal: bool) -> None:
    state = from_position(at_room(card, _holding("sword")))
    assert (PLAY["sword"] in state.legal_actions(A)) is legal
    if not legal:
        with pytest.raises(IllegalActionError) as info:
            state.apply(A, PLAY["sword"])
        assert_readable(info.value, "sword")


@pytest.mark.parametrize("boss", ALL_BOSSES)
def test_sword_legal_against_every_boss(boss: str) -> None:
    state = from_position(at_boss(boss, _holding("sword")))
    assert PLAY["sword"] in state.legal_actions(A)


@pytest.mark.parametrize("card", ["treasure-3", "zombie#1", "vault-items#1", "lava"])
def test_torch_and_crystal_are_legal_room_cards_everywhere(card: str) -> None:
    # Rulings 1 and 2.
    state = from_position(at_room(card, table(3, items={A: {"torch": 1, "crystal": 1}})))
    legal = state.legal_actions(A)
    assert PLAY["torch"] in legal and PLAY["crystal"] in legal


def test_illegal_card_is_rejected_not_converted() -> None:
    state = from_position(at_room("zombie#1", _holding("key")))
    before = (state.digest(), position(state))
    with pytest.raises(IllegalActionError):
        play_joint(state, {A: "key", B: "1", C: "2"})
    assert (state.digest(), position(state)) == before


def test_a_played_power_card_cannot_be_played_again_in_the_level() -> None:
    state = from_position(at_room("zombie#1", table(3, used={A: [3]}), room=2))
    assert PLAY["3"] not in state.legal_actions(A)
    with pytest.raises(IllegalActionError) as info:
        state.apply(A, PLAY["3"])
    assert_readable(info.value, "3")


@pytest.mark.parametrize("item", ["torch", "crystal", "key", "sword"])
def test_an_item_not_in_hand_cannot_be_played(item: str) -> None:
    room = "treasure-3" if item == "key" else "zombie#1"
    state = from_position(at_room(room, table(3)))
    with pytest.raises(IllegalActionError) as info:
        state.apply(A, PLAY[item])
    assert_readable(info.value)


# ====================================================================== crystal ball (3, 9, 11)


def test_crystal_balls_follow_ups_are_simultaneous_among_the_users() -> None:
    seats = table(4, wounds=[0, 0, 0, 0], items={A: {"crystal": 1}, B: {"crystal": 1}})
    state = from_position(at_room("troll#1", seats))
    mid = play_joint(state, {A: "crystal", B: "crystal", C: "3", D: "4"})
    assert mid.waiting == Simultaneous("L1.R1.followup", frozenset({A, B}))
    # Both balls went back to the supply as they were revealed.
    assert supply(mid)["crystal"] == 6
    # Each user has now seen all the revealed room cards.
    view = mid.view(A)
    assert [s.play for s in view.seats] == ["crystal", "crystal", "3", "4"]
    assert PLAY["crystal"] not in mid.legal_actions(C)
    one = play(mid, A, "5")
    assert one.waiting == Simultaneous("L1.R1.followup", frozenset({A, B}), frozenset({A}))
    with pytest.raises(NotYourDecisionError):
        play(one, A, "4")
    with pytest.raises(NotYourDecisionError):
        play(one, C, "1")
    after = play(one, B, "1")
    # Troll: strength 14 with 4 players.  5 + 1 + 3 + 4 = 13: the lowest (B's 1) takes 2 wounds.
    r = last(after)
    assert r["followups"] == ["5", "1", "", ""]
    assert r["values"] == [5, 1, 3, 4]
    assert wounds(after) == [0, 2, 0, 0]


def test_follow_up_cannot_be_a_crystal_ball() -> None:
    # Ruling 3.
    state = from_position(at_room("troll#1", table(3, items={A: {"crystal": 2}})))
    mid = play_joint(state, {A: "crystal", B: "3", C: "4"})
    assert PLAY["crystal"] not in mid.legal_actions(A)
    with pytest.raises(IllegalActionError) as info:
        mid.apply(A, PLAY["crystal"])
    assert_readable(info.value, "crystal")
    assert mid.legal_actions(A)  # a power card always remains


def test_follow_up_may_be_a_key_in_a_treasure_room() -> None:
    seats = table(3, coins=[0, 0, 0], items={A: {"crystal": 1, "key": 1}})
    after = resolve(at_room("treasure-3", seats), {A: "crystal", B: "5", C: "4"}, {A: "key"})
    assert coins(after) == [1, 1, 0]
    assert supply(after)["key"] == 6 and supply(after)["crystal"] == 6


def test_necromancer_ball_user_escapes_without_follow_up() -> None:
    # Ruling 11.  Necromancer: 14 with 3 players, 2 wounds.
    seats = table(3, wounds=[0, 0, 0], items={A: {"crystal": 1}})
    after = resolve(at_boss("necromancer", seats), {A: "crystal", B: "5", C: "4"})
    assert isinstance(after.waiting, Over)  # no follow-up step
    r = last(after)
    assert r["followups"] == ["", "", ""]
    assert r["attacked"] == [False, False, True]
    assert wounds(after) == [0, 0, 2]
    assert supply(after)["crystal"] == 6


def test_necromancer_everyone_escapes_nobody_attacked() -> None:
    seats = table(3, wounds=[0, 0, 0], items={s: {"crystal": 1} for s in range(3)})
    after = resolve(at_boss("necromancer", seats), {A: "crystal", B: "crystal", C: "crystal"})
    assert last(after)["attacked"] == [False, False, False]
    assert wounds(after) == [0, 0, 0]


def test_tactical_follow_ups_clockwise_from_the_map_holder() -> None:
    seats = table(4, items={A: {"crystal": 1}, D: {"crystal": 1}})
    state = from_position(at_room("zombie#1", seats, variant="tactical", map_holder=C))
    mid = play_turns(state, [(C, "1"), (D, "crystal"), (A, "crystal"), (B, "2")])
    # Balls stay face up on the table until the follow-ups are played.
    assert supply(mid)["crystal"] == 4
    after = play_turns(mid, [(D, "5"), (A, "4")])
    assert last(after)["values"] == [4, 2, 1, 5]
    assert supply(after)["crystal"] == 6


# ====================================================================== bosses


def test_wolf_pack_torch_as_follow_up_escapes() -> None:
    # Ruling 10.  Wolf Pack: 11 with 3 players, 2 wounds.
    seats = table(3, wounds=[0, 0, 0], items={A: {"crystal": 1, "torch": 1}})
    after = resolve(at_boss("wolf_pack", seats), {A: "crystal", B: "5", C: "1"},
                    {A: "play torch"})
    r = last(after)
    assert r["attacked"] == [False, False, True]
    assert wounds(after) == [0, 0, 2]


def test_wolf_pack_everyone_escapes() -> None:
    seats = table(3, wounds=[0, 0, 0], items={s: {"torch": 1} for s in range(3)})
    after = resolve(at_boss("wolf_pack", seats),
                    {A: "play torch", B: "play torch", C: "play torch"})
    assert wounds(after) == [0, 0, 0]


def test_no_peek_at_the_boss_room() -> None:
    # Ruling 19 (and 10): nothing is face down in the boss room, so a torch cannot peek there.
    state = from_position(at_boss("wolf_pack", table(3, items={A: {"torch": 1}})))
    assert PEEK not in state.legal_actions(A)
    with pytest.raises(IllegalActionError):
        state.apply(A, PEEK)


def test_mega_dragon_key_escapes_and_lowest_other_is_attacked() -> None:
    # Mega-Dragon: unbeatable, 3 wounds.  B and C tie on 5 (the highest possible) and still lose.
    seats = table(3, wounds=[0, 0, 0], items={A: {"key": 1}})
    after = resolve(at_boss("mega_dragon", seats), {A: "key", B: "5", C: "5"})
    r = last(after)
    assert r["defeated"] is False
    assert r["attacked"] == [False, True, True]
    assert wounds(after) == [0, 3, 3]
    assert supply(after)["key"] == 6


def test_mega_dragon_key_as_follow_up_escapes() -> None:
    seats = table(3, wounds=[0, 0, 0], items={A: {"crystal": 1, "key": 1}})
    after = resolve(at_boss("mega_dragon", seats), {A: "crystal", B: "5", C: "1"}, {A: "key"})
    assert wounds(after) == [0, 0, 3]


def test_mega_dragon_everyone_escapes_nobody_attacked() -> None:
    # Ruling 12.
    seats = table(3, wounds=[0, 0, 0], items={s: {"key": 1} for s in range(3)})
    after = resolve(at_boss("mega_dragon", seats), {A: "key", B: "key", C: "key"})
    assert last(after)["attacked"] == [False, False, False]
    assert wounds(after) == [0, 0, 0]
    assert supply(after)["key"] == 6


def test_golem_5_counts_1_when_finding_the_lowest() -> None:
    # Ruling 14: values 1, 4, 3, 2 — the player who played 5 is the lowest.
    after = resolve(at_boss("golem", table(4, wounds=[0] * 4)),
                    {A: "5", B: "4", C: "3", D: "2"})
    assert last(after)["values"] == [1, 4, 3, 2]
    assert wounds(after) == [3, 0, 0, 0]


def test_golem_sword_counts_1_and_follow_up_5_counts_1() -> None:
    seats = table(3, wounds=[0, 0, 0], items={A: {"sword": 1}, B: {"crystal": 1}})
    after = resolve(at_boss("golem", seats), {A: "sword", B: "crystal", C: "2"}, {B: "5"})
    assert last(after)["values"] == [1, 1, 2]
    assert wounds(after) == [3, 3, 0]


def test_golem_is_never_defeated() -> None:
    seats = table(3, wounds=[0, 0, 0])
    after = resolve(at_boss("golem", seats), {A: "4", B: "4", C: "3"})
    assert last(after)["defeated"] is False
    assert wounds(after) == [0, 0, 3]


def test_mummy_attacks_every_player_tied_on_the_highest() -> None:
    after = resolve(at_boss("mummy", table(4, wounds=[0] * 4)),
                    {A: "5", B: "5", C: "4", D: "1"})
    assert last(after)["defeated"] is False
    assert wounds(after) == [3, 3, 0, 0]


def test_mummy_sword_counts_5_and_draws_the_attack() -> None:
    seats = table(3, wounds=[0, 0, 0], items={A: {"sword": 1}})
    after = resolve(at_boss("mummy", seats), {A: "sword", B: "5", C: "4"})
    assert wounds(after) == [3, 3, 0]


@pytest.mark.parametrize(("boss", "cards", "coin_gain", "wound_gain"), [
    # Ruling 13.  Sphinx: 11/14/16, 2 wounds, +2 coins.  Minotaur: 14/18/23, 1 wound, +1 coin.
    ("minotaur", ["4", "4", "4"], [0, 0, 0], [1, 1, 1]),  # all same, not defeated: no coins
    ("minotaur", ["5", "5", "4"], [1, 1, 0], [0, 0, 0]),  # defeated (14): highest gain
    ("minotaur", ["5", "1", "2"], [1, 0, 0], [0, 1, 0]),  # not defeated, not all same
    ("sphinx", ["sword", "5", "1"], [2, 2, 0], [0, 0, 0]),  # sword and 5: same value, both gain
    ("sphinx", ["5", "5", "sword"], [2, 2, 2], [0, 0, 0]),  # all same but defeated: all gain
    ("sphinx", ["1", "1", "1"], [0, 0, 0], [2, 2, 2]),
    ("sphinx", ["3", "1", "1"], [2, 0, 0], [0, 2, 2]),
])
def test_sphinx_and_minotaur_coins(boss: str, cards: list[str], coin_gain: list[int],
                                   wound_gain: list[int]) -> None:
    seats = table(3, coins=[5, 5, 5], wounds=[0, 0, 0],
                  items={s: {"sword": 1} for s in range(3) if cards[s] == "sword"})
    after = resolve(at_boss(boss, seats), dict(enumerate(cards)))
    assert coins(after) == [5 + g for g in coin_gain]
    assert wounds(after) == wound_gain


def test_sphinx_coins_capped_at_20() -> None:
    after = resolve(at_boss("sphinx", table(3, coins=[19, 5, 5])), {A: "5", B: "4", C: "3"})
    assert coins(after) == [20, 5, 5]


def test_tax_collector_takes_3_coins_down_to_0_and_no_wounds() -> None:
    # Ruling 20.  Tax Collector: 11 with 3 players.
    after = resolve(at_boss("tax_collector", table(3, coins=[2, 5, 4], wounds=[0, 0, 0])),
                    {A: "1", B: "1", C: "4"})
    assert coins(after) == [0, 2, 4]
    assert wounds(after) == [0, 0, 0]


def test_vampire_takes_a_wound_and_2_coins_down_to_0() -> None:
    # Vampire: 14 with 3 players, 1 wound and 2 coins.
    after = resolve(at_boss("vampire", table(3, coins=[1, 5, 5], wounds=[0, 0, 0])),
                    {A: "1", B: "5", C: "4"})
    assert coins(after) == [0, 5, 5]
    assert wounds(after) == [1, 0, 0]


def test_vampire_defeated_does_nothing() -> None:
    after = resolve(at_boss("vampire", table(3, coins=[1, 5, 5], wounds=[0, 0, 0])),
                    {A: "5", B: "5", C: "4"})
    assert coins(after) == [1, 5, 5] and wounds(after) == [0, 0, 0]


def test_medusa_eliminates_every_tied_lowest() -> None:
    # Ruling 15.  Medusa: 11 with 3 players.
    after = resolve(at_boss("medusa", table(3, coins=[5, 9, 9], wounds=[0, 0, 0])),
                    {A: "5", B: "2", C: "2"})
    assert eliminated(after) == [False, True, True]
    assert outcome(after).winners == frozenset({A})


def test_medusa_defeated_does_nothing() -> None:
    after = resolve(at_boss("medusa", table(3, coins=[5, 9, 7], wounds=[0, 0, 0])),
                    {A: "5", B: "4", C: "2"})
    assert eliminated(after) == [False, False, False]
    assert outcome(after).winners == frozenset({B})


def test_the_boss_uses_the_strength_for_the_setup_player_count() -> None:
    # Tax Collector 11/14/16: 5 + 4 + 3 + 2 + 1 = 15 < 16 with 5 players.
    after = resolve(at_boss("tax_collector", table(5, coins=[5] * 5)),
                    {A: "5", B: "4", C: "3", D: "2", E: "1"})
    assert last(after)["strength"] == 16
    assert coins(after) == [5, 5, 5, 5, 2]


# ====================================================================== vaults (21, 23, 24)


@pytest.mark.parametrize(("card", "coin_gain", "wounds_after"), [
    # Coins vault: 1 → +1, 2 → +2, 3 → potion 1, 4 → +3, 5 → potion 2.
    ("1", 1, 3), ("2", 2, 3), ("3", 0, 2), ("4", 3, 3), ("5", 0, 1),
])
def test_coins_vault_benefits(card: str, coin_gain: int, wounds_after: int) -> None:
    after = resolve(at_room("vault-coins#1", table(3, coins=[5, 5, 5], wounds=[3, 3, 3])),
                    {A: card, B: card, C: card})
    # Several players picking the same benefit each get it in full.
    assert coins(after) == [5 + coin_gain] * 3
    assert wounds(after) == [wounds_after] * 3


def test_potions_stop_at_0_wounds() -> None:
    # Ruling 21: potion 2 with 1 wound, potion 1 with 0 wounds.
    after = resolve(at_room("vault-coins#1", table(3, wounds=[1, 0, 2])),
                    {A: "5", B: "3", C: "5"})
    assert wounds(after) == [0, 0, 0]
    after = resolve(at_room("vault-items#1", table(3, wounds=[0, 1, 3])),
                    {A: "5", B: "5", C: "5"})
    assert wounds(after) == [0, 0, 2]


def test_vault_coins_capped_at_20() -> None:
    after = resolve(at_room("vault-coins#1", table(3, coins=[19, 20, 17])),
                    {A: "4", B: "1", C: "4"})
    assert coins(after) == [20, 20, 20]


def test_vault_torch_value_0_receives_nothing() -> None:
    # Ruling 23.
    seats = table(3, coins=[5, 5, 5], wounds=[2, 2, 2], items={A: {"torch": 1}})
    after = resolve(at_room("vault-coins#1", seats), {A: "play torch", B: "1", C: "2"})
    assert coins(after) == [5, 6, 7]
    assert wounds(after) == [2, 2, 2]
    assert items(after, A)["torch"] == 0


def test_items_vault_gives_items_by_value() -> None:
    after = resolve(at_room("vault-items#1", table(4)), {A: "1", B: "2", C: "3", D: "4"})
    assert last(after)["gained"] == ["torch", "crystal", "key", "sword"]
    assert [items(after, s) for s in range(4)] == [
        {"torch": 1, "crystal": 0, "key": 0, "sword": 0},
        {"torch": 0, "crystal": 1, "key": 0, "sword": 0},
        {"torch": 0, "crystal": 0, "key": 1, "sword": 0},
        {"torch": 0, "crystal": 0, "key": 0, "sword": 1},
    ]
    assert supply(after) == {"torch": 5, "crystal": 5, "key": 5, "sword": 5}


def test_vault_shortage_is_per_item_type() -> None:
    # Ruling 24: two ask for the single torch (nobody gets one); the key and sword are served.
    seats = table(4, items={A: {"torch": 3}, B: {"torch": 2}})
    state = from_position(at_room("vault-items#1", seats))
    assert supply(state)["torch"] == 1
    after = play_joint(state, {A: "1", B: "1", C: "3", D: "4"})
    assert last(after)["gained"] == ["", "", "key", "sword"]
    assert supply(after) == {"torch": 1, "crystal": 6, "key": 5, "sword": 5}


def test_vault_two_asks_with_two_in_supply_both_served() -> None:
    seats = table(4, items={A: {"torch": 2}, B: {"torch": 2}})
    after = resolve(at_room("vault-items#1", seats), {A: "1", B: "1", C: "5", D: "2"})
    assert last(after)["gained"] == ["torch", "torch", "", "crystal"]
    assert supply(after)["torch"] == 0


def test_vault_counts_a_torch_played_in_the_same_room() -> None:
    # Ruling 24: the supply holds no torch until A's torch (played here, value 0) goes back.
    seats = table(3, items={A: {"torch": 3}, B: {"torch": 3}})
    state = from_position(at_room("vault-items#1", seats))
    assert supply(state)["torch"] == 0
    after = play_joint(state, {A: "play torch", B: "1", C: "5"})
    assert last(after)["gained"] == ["", "torch", ""]
    assert items(after, A)["torch"] == 2 and items(after, B)["torch"] == 4
    assert supply(after)["torch"] == 0


def test_vault_counts_a_crystal_ball_returned_in_the_same_room() -> None:
    seats = table(3, items={A: {"crystal": 3}, B: {"crystal": 3}})
    state = from_position(at_room("vault-items#1", seats))
    assert supply(state)["crystal"] == 0
    after = resolve(at_room("vault-items#1", seats), {A: "crystal", B: "3", C: "4"}, {A: "2"})
    assert last(after)["gained"] == ["crystal", "key", "sword"]
    assert items(after, A)["crystal"] == 3
    assert supply(after)["crystal"] == 0


def test_vault_counts_a_torch_used_to_peek_in_the_play_window() -> None:
    # Ruling 18: a peek in the vault's play window returns the torch before the reveal.
    seats = table(3, items={A: {"torch": 3}, B: {"torch": 3}})
    state = from_position(at_room("vault-items#1", seats, layout="L1"))
    assert supply(state)["torch"] == 0
    peeked = state.apply(A, PEEK)
    assert supply(peeked)["torch"] == 1
    after = play_joint(peeked, {A: "2", B: "1", C: "5"})
    assert last(after)["gained"] == ["crystal", "torch", ""]
    assert supply(after)["torch"] == 0


@pytest.mark.parametrize("item", ["key", "sword"])
def test_keys_and_swords_are_illegal_in_vaults(item: str) -> None:
    state = from_position(at_room("vault-items#2", _holding(item)))
    assert PLAY[item] not in state.legal_actions(A)


# ====================================================================== traps (ruling 22)


@pytest.mark.parametrize(("trap", "high", "coin_loss", "wound_gain"), [
    ("lava", "5", 3, 0), ("lava", "4", 2, 0), ("lava", "3", 1, 0), ("lava", "2", 0, 0),
    ("magnetic", "5", 2, 0), ("magnetic", "4", 2, 0), ("magnetic", "3", 1, 0),
    ("magnetic", "2", 1, 0), ("magnetic", "1", 0, 0),
    ("spikes", "5", 0, 2), ("spikes", "4", 0, 2), ("spikes", "3", 0, 1), ("spikes", "2", 0, 0),
    ("boulder", "5", 0, 2), ("boulder", "4", 0, 1), ("boulder", "3", 0, 1),
    ("boulder", "2", 0, 1), ("boulder", "1", 0, 0),
])
def test_trap_penalty_by_highest_value(trap: str, high: str, coin_loss: int,
                                       wound_gain: int) -> None:
    # A and B are the richest and have the fewest wounds; C plays the highest card.
    seats = table(3, coins=[9, 9, 4], wounds=[1, 1, 3])
    after = resolve(at_room(trap, seats), {A: "1", B: "1", C: high})
    assert coins(after) == [9 - coin_loss, 9 - coin_loss, 4]
    assert wounds(after) == [1 + wound_gain, 1 + wound_gain, 3]


def test_trap_torches_count_0() -> None:
    seats = table(3, coins=[9, 5, 4], items={s: {"torch": 1} for s in range(3)})
    after = resolve(at_room("magnetic", seats),
                    {A: "play torch", B: "play torch", C: "play torch"})
    assert coins(after) == [9, 5, 4]


def test_coin_trap_loss_stops_at_0() -> None:
    after = resolve(at_room("lava", table(3, coins=[2, 2, 1])), {A: "5", B: "1", C: "1"})
    assert coins(after) == [0, 0, 1]


def test_coin_trap_with_no_coins_has_no_effect() -> None:
    after = resolve(at_room("lava", table(3, coins=[0, 0, 0])), {A: "5", B: "1", C: "1"})
    assert coins(after) == [0, 0, 0]
    assert last(after)["coin_delta"] == [0, 0, 0]


def test_trap_uses_the_follow_up_value() -> None:
    seats = table(3, coins=[9, 5, 4], items={C: {"crystal": 1}})
    after = resolve(at_room("lava", seats), {A: "1", B: "1", C: "crystal"}, {C: "5"})
    assert coins(after) == [6, 5, 4]


# ====================================================================== torch peeks (18, 19)


def test_peek_needs_a_torch() -> None:
    state = from_position(at_room("zombie#1", table(3), layout="L1"))
    assert PEEK not in state.legal_actions(A)
    with pytest.raises(IllegalActionError) as info:
        state.apply(A, PEEK)
    assert_readable(info.value, "torch")


def test_peek_needs_a_face_down_room_left() -> None:
    # Ruling 19: L3 has only position 5 face down; at room 5 it has been turned.
    seats = table(3, items={A: {"torch": 1}}, used={s: [1, 2, 3, 4] for s in range(3)})
    state = from_position(at_room("zombie#1", seats, layout="L3", room=5))
    assert PEEK not in state.legal_actions(A)
    with pytest.raises(IllegalActionError) as info:
        state.apply(A, PEEK)
    assert_readable(info.value)
    # The torch may still be played as the room card (ruling 2), and owes no peek.
    assert PLAY["torch"] in state.legal_actions(A)
    after = play_joint(state, {A: "play torch", B: "5", C: "5"})
    assert after.knowledge_requests() == ()


def test_peek_is_a_free_action_that_returns_the_torch() -> None:
    seats = table(3, items={A: {"torch": 2}})
    state = from_position(at_room("zombie#1", seats, layout="L1"))
    assert PEEK in state.legal_actions(A)
    once = state.apply(A, PEEK)
    assert once.waiting == state.waiting  # still A's decision
    twice = once.apply(A, PEEK)  # a player may peek more than once
    assert items(twice, A)["torch"] == 0 and supply(twice)["torch"] == 6
    # Everyone knows a torch was used.
    assert position(twice)["seats"][A]["peeks"] == 2
    assert twice.view(B).seats[A].peeks == 2
    assert PEEK not in twice.legal_actions(A)


def test_peek_only_before_committing() -> None:
    seats = table(3, items={A: {"torch": 1}})
    state = from_position(at_room("zombie#1", seats, layout="L1"))
    committed = play(state, A, "3")
    with pytest.raises(NotYourDecisionError):
        committed.apply(A, PEEK)


def test_peek_in_the_follow_up_window() -> None:
    seats = table(3, items={A: {"torch": 1, "crystal": 1}})
    state = from_position(at_room("zombie#1", seats, layout="L1"))
    mid = play_joint(state, {A: "crystal", B: "3", C: "4"})
    assert PEEK in mid.legal_actions(A)
    peeked = mid.apply(A, PEEK)
    assert peeked.knowledge_requests() == (KnowledgeRequest(A, ("L1.R2", "L1.R4", "L1.R5")),)


def test_playing_a_torch_as_room_card_gives_its_peek() -> None:
    # Ruling 2: a torch played as the room card peeks if a face-down room remains.
    seats = table(3, items={A: {"torch": 1}})
    state = from_position(at_room("zombie#1", seats, layout="L1"))
    after = play_joint(state, {A: "play torch", B: "5", C: "4"})
    assert after.knowledge_requests() == (KnowledgeRequest(A, ("L1.R2", "L1.R4", "L1.R5")),)


def test_tactical_peek_only_on_own_turn() -> None:
    seats = table(3, items={B: {"torch": 1}})
    state = from_position(at_room("zombie#1", seats, layout="L1", variant="tactical",
                                  map_holder=A))
    assert PEEK not in state.legal_actions(B)
    with pytest.raises(NotYourDecisionError):
        state.apply(B, PEEK)
    mid = play(state, A, "1")
    peeked = mid.apply(B, PEEK)
    assert peeked.waiting == mid.waiting  # still B's turn


def test_peek_shows_the_rooms_as_they_are_turned() -> None:
    """The peek's private knowledge is exactly what the face-down rooms turn out to be."""
    dealer = Dealer(b"tests/peek")
    seats = table(3, items={A: {"torch": 1}})
    state = from_position(at_room("zombie#1", seats, layout="L1"))
    state = state.apply(A, PEEK)
    hidden = ("L1.R2", "L1.R4", "L1.R5")
    assert state.knowledge_requests() == (KnowledgeRequest(A, hidden),)
    preview = state.preview_hidden(dealer.choose)
    assert tuple(preview) == hidden
    assert len(set(preview.values())) == 3
    state = state.learn(A, {e: preview[e] for e in hidden})
    assert state.knowledge_requests() == ()
    view = state.view(A)
    assert [r.peeked for r in view.row] == ["", preview["L1.R2"], "", preview["L1.R4"],
                                             preview["L1.R5"]]
    for other in (B, C):
        assert all(r.peeked == "" for r in state.view(other).row)
        assert all(r.card == "" for r in state.view(other).row if r.state == "down")
    turned: dict[str, str] = {}
    for room in range(5):
        w = state.waiting
        if isinstance(w, Chance):
            assert w.event.visibility is Visibility.HIDDEN
            assert w.event.id == f"L1.R{room + 1}"
            outcome_ = dealer.choose(w.event)
            state = state.apply_chance(w.event.id, outcome_)
            turned[w.event.id] = outcome_
            assert position(state)["row"][room] == outcome_
        card = str(room + 1)
        state = play_joint(state, {A: card, B: card, C: card})
    assert turned == preview


# ====================================================================== scoring (15–17)


def over(n: int, wounds_: list[int], coins_: list[int],
         out: tuple[int, ...] = ()) -> dict[str, Any]:
    """A finished game (phase "over") with the given counters; ``out`` were eliminated."""
    return {
        "game": "raiders", "format": 1, "players": n, "variant": "basic",
        "phase": "over", "level": 5, "room": 5, "rooms": LAST_SIX,
        "seats": [{"character": CHARACTERS[s], "coins": coins_[s], "wounds": wounds_[s],
                   "eliminated": s in out} for s in range(n)],
    }


@pytest.mark.parametrize(("n", "wounds_", "coins_", "out", "expected"), [
    # 3 players: only a unique maximum faints (ruling 17).
    (3, [6, 6, 2], [15, 11, 9], (), ["winner", "lost", "lost"]),
    (3, [7, 6, 2], [15, 11, 9], (), ["fainted", "winner", "lost"]),
    # 4–5 players: everyone on the maximum faints.
    (4, [6, 6, 2, 1], [15, 11, 9, 9], (), ["fainted", "fainted", "lost", "winner"]),
    (5, [5, 1, 5, 5, 2], [20, 3, 19, 18, 4], (),
     ["fainted", "lost", "fainted", "fainted", "winner"]),
    (5, [5, 1, 2, 3, 4], [20, 3, 19, 18, 4], (), ["fainted", "lost", "winner", "lost", "lost"]),
    # Everyone equal: nobody faints, whatever N is.
    (3, [4, 4, 4], [1, 2, 3], (), ["lost", "lost", "winner"]),
    (5, [0, 0, 0, 0, 0], [1, 2, 3, 4, 5], (), ["lost", "lost", "lost", "lost", "winner"]),
    # Eliminated players take no part in fainting (ruling 16).
    (4, [3, 9, 3, 3], [10, 20, 8, 6], (B,), ["winner", "eliminated", "lost", "lost"]),
    (4, [4, 9, 2, 7], [10, 12, 11, 15], (B, C), ["winner", "eliminated", "eliminated",
                                                "fainted"]),
    # N (not the number of survivors) picks the fainting rule.
    (4, [5, 1, 5, 2], [20, 20, 19, 3], (B,), ["fainted", "eliminated", "fainted", "winner"]),
    (3, [5, 0, 4], [20, 20, 3], (B,), ["fainted", "eliminated", "winner"]),
    (3, [5, 0, 5], [20, 20, 3], (B,), ["winner", "eliminated", "lost"]),
])
def test_fainting(n: int, wounds_: list[int], coins_: list[int], out: tuple[int, ...],
                  expected: list[str]) -> None:
    state = from_position(over(n, wounds_, coins_, out))
    assert statuses(state) == expected
    assert outcome(state).winners == frozenset(s for s in range(n) if expected[s] == "winner")


def test_tie_on_coins_fewer_wounds_wins() -> None:
    state = from_position(over(4, [3, 2, 1, 5], [12, 12, 11, 20]))
    # D faints (unique maximum); A and B tie on 12 coins; B has fewer wounds.
    result = outcome(state)
    assert result.winners == frozenset({B})
    assert result.share(B) == 1.0 and result.share(A) == 0.0


def test_shared_win() -> None:
    state = from_position(over(4, [2, 2, 1, 5], [12, 12, 11, 20]))
    result = outcome(state)
    assert result.winners == frozenset({A, B})
    assert result.share(A) == result.share(B) == 0.5
    assert result.share(C) == result.share(D) == 0.0
    assert statuses(state) == ["winner", "winner", "lost", "fainted"]


def test_three_way_shared_win() -> None:
    state = from_position(over(3, [1, 1, 1], [7, 7, 7]))
    result = outcome(state)
    assert result.winners == frozenset({A, B, C})
    assert result.share(A) == pytest.approx(1 / 3)
    assert sum(result.share(s) for s in range(3)) == pytest.approx(1.0)


def test_everyone_eliminated_nobody_wins() -> None:
    state = from_position(over(3, [1, 2, 3], [7, 8, 9], (A, B, C)))
    assert outcome(state).winners == frozenset()
    assert statuses(state) == ["eliminated"] * 3


# ====================================================================== tactical map (25)


@pytest.mark.parametrize(("holder", "cards", "new_holder"), [
    (B, {B: "5", C: "5", D: "1", A: "2"}, B),  # the tied holder keeps the map
    (C, {C: "1", D: "2", A: "5", B: "5"}, A),  # first tied player clockwise from the holder
    (D, {D: "5", A: "1", B: "2", C: "3"}, D),
    (A, {A: "1", B: "4", C: "4", D: "5"}, D),
])
def test_tactical_map_goes_to_the_highest_clockwise_from_the_holder(
        holder: int, cards: dict[int, str], new_holder: int) -> None:
    state = from_position(at_room("treasure-3", table(4), variant="tactical",
                                  map_holder=holder))
    after = play_turns(state, list(cards.items()))
    assert position(after)["map"] == new_holder
    assert isinstance(after.waiting, Turn) and after.waiting.seat == new_holder


def test_tactical_map_key_and_sword_count_5_torch_0() -> None:
    seats = table(3, items={A: {"torch": 1}, B: {"sword": 1}})
    state = from_position(at_room("zombie#1", seats, variant="tactical", map_holder=A))
    after = play_turns(state, [(A, "play torch"), (B, "sword"), (C, "5")])
    assert position(after)["map"] == B
    seats = table(3, items={B: {"key": 1}})
    state = from_position(at_room("treasure-3", seats, variant="tactical", map_holder=C))
    after = play_turns(state, [(C, "5"), (A, "1"), (B, "key")])
    assert position(after)["map"] == C
    state = from_position(at_room("treasure-3", table(3, items={A: {"torch": 1}}),
                                  variant="tactical", map_holder=A))
    after = play_turns(state, [(A, "play torch"), (B, "1"), (C, "1")])
    assert position(after)["map"] == B


def test_tactical_map_follow_up_is_the_card_that_counts() -> None:
    seats = table(3, items={C: {"crystal": 1}})
    state = from_position(at_room("treasure-3", seats, variant="tactical", map_holder=A))
    after = play_turns(state, [(A, "4"), (B, "3"), (C, "crystal"), (C, "5")])
    assert position(after)["map"] == C


def test_tactical_play_order_and_wrong_seat() -> None:
    state = from_position(at_room("zombie#1", table(5), variant="tactical", map_holder=D))
    order = []
    for card in "12345":
        w = state.waiting
        assert isinstance(w, Turn)
        order.append(w.seat)
        for other in range(5):
            if other != w.seat:
                assert state.legal_actions(other) == ()
                with pytest.raises(NotYourDecisionError):
                    state.apply(other, PLAY[card])
        state = play(state, w.seat, card)
    assert order == [D, E, A, B, C]


def test_tactical_cards_are_face_up_as_they_are_played() -> None:
    state = from_position(at_room("zombie#1", table(3), variant="tactical", map_holder=B))
    mid = play(state, B, "4")
    assert mid.view(A).seats[B].play == "4"
    assert mid.view(C).seats[B].play == "4"


def test_tactical_map_holder_starts_the_next_level() -> None:
    seats = table(3, used={s: [1, 2, 3, 4] for s in range(3)})
    state = from_position(at_room("treasure-3", seats, variant="tactical", map_holder=A,
                                  room=5, layout="L4"))
    after = play_turns(state, [(A, "5"), (B, "5"), (C, "5")])
    assert position(after)["phase"] == "level"
    assert position(after)["map"] == A
    dealer = Dealer(b"tests/next-level")
    while isinstance(after.waiting, Chance):
        ev = after.waiting.event
        after = after.apply_chance(ev.id, dealer.choose(ev))
    assert isinstance(after.waiting, Turn) and after.waiting.seat == A
    assert position(after)["level"] == 2


# ====================================================================== level and game structure


def test_end_of_level_returns_the_power_cards() -> None:
    seats = table(4, items={A: {"torch": 1}, B: {"crystal": 1}},
                  used={s: [1, 2, 3, 4] for s in range(4)})
    state = from_position(at_room("zombie#1", seats, layout="L4", room=5,
                                  level_cards=["L1", "L2", "L3", "L5", "L6", "L7"]))
    assert [len(u) for u in used(state)] == [4, 4, 4, 4]
    after = play_joint(state, {A: "5", B: "5", C: "5", D: "5"})
    pos = position(after)
    assert pos["phase"] == "level"
    assert used(after) == [[], [], [], []]
    assert items(after, A)["torch"] == 1 and items(after, B)["crystal"] == 1
    w = after.waiting
    assert isinstance(w, Chance) and w.event.id == "L2.level"
    assert set(w.event.outcomes) == {"L1", "L2", "L3", "L5", "L6", "L7"}
    dealer = Dealer(b"tests/level")
    while isinstance(after.waiting, Chance):
        ev = after.waiting.event
        after = after.apply_chance(ev.id, dealer.choose(ev))
    for s in range(4):
        assert {a.card for a in after.legal_actions(s) if a.card in POWER} == set("12345")


def test_the_boss_is_always_level_5_position_5() -> None:
    from engine.raiders import new_game
    from engine.raiders.bots import RandomBot
    from engine.sim import play_out

    for seed in range(6):
        events: list[tuple[str, tuple[str, ...]]] = []

        def watch(s: Any, events: list[tuple[str, tuple[str, ...]]] = events) -> None:
            w = s.waiting
            if isinstance(w, Chance) and w.event.id.startswith("L") and ".R" in w.event.id:
                events.append((w.event.id, w.event.outcomes))

        players = 3 + seed % 3
        run = play_out(new_game(players, "tactical" if seed % 2 else "basic"),
                       [RandomBot() for _ in range(players)],
                       Dealer(f"tests/boss/{seed}".encode()), on_state=watch)
        assert [e for e, _ in events] == [f"L{lv}.R{p}" for lv in range(1, 6)
                                          for p in _deal_order(run, lv)]
        for event_id, outcomes in events:
            if event_id == "L5.R5":
                assert set(outcomes) == set(ALL_BOSSES)
            else:
                assert not set(outcomes) & set(ALL_BOSSES)
        final = position(run.state)
        assert final["last"]["level"] == 5 and final["last"]["position"] == 5
        assert final["last"]["card"] in ALL_BOSSES


def _deal_order(run: Any, level: int) -> list[int]:
    """Face-up positions are dealt first (left to right), then face-down ones as entered."""
    history = [e for e in run.history if getattr(e, "event", "") == f"L{level}.level"]
    layout = LAYOUTS[history[0].outcome]
    ups = [p for p, f in enumerate(layout, start=1) if f == "U"]
    downs = [p for p, f in enumerate(layout, start=1) if f == "d"]
    return ups + downs


@pytest.mark.parametrize(("row", "level"), [
    (["medusa", "treasure-3", "zombie#1", "goblin#1", "down"], 1),
    (["zombie#1", "treasure-3", "goblin#1", "troll#1", "zombie#2"], 5),
])
def test_a_boss_stands_only_at_level_5_position_5(row: list[str], level: int) -> None:
    from engine.core import InvalidPositionError

    data = {"game": "raiders", "players": 3, "phase": "play", "level": level, "room": 1,
            "layout": "L3", "row": row, "seats": table(3)}
    if level == 5:
        data["rooms"] = LAST_SIX
    with pytest.raises(InvalidPositionError):
        from_position(data)


def test_eliminated_players_are_listed_and_cannot_win() -> None:
    after = resolve(at_boss("medusa", table(4, coins=[1, 20, 20, 3], wounds=[0, 0, 0, 9])),
                    {A: "5", B: "1", C: "1", D: "4"})
    assert eliminated(after) == [False, True, True, False]
    # D faints (unique maximum among the survivors, N = 4 → everyone on it anyway); A wins.
    assert outcome(after).winners == frozenset({A})


def test_setup_deals_characters_with_their_counters_and_items() -> None:
    from engine.raiders import new_game

    state = new_game(5, "tactical")
    order = ["knight", "explorer", "thief", "wizard", "warrior"]
    for seat, character in enumerate(order):
        w = state.waiting
        assert isinstance(w, Chance) and w.event.id == f"setup.character.{seat}"
        assert w.event.visibility is Visibility.PUBLIC
        assert set(w.event.outcomes) == set(CHARACTERS) - set(order[:seat])
        state = state.apply_chance(w.event.id, character)
    w = state.waiting
    assert isinstance(w, Chance) and w.event.id == "setup.map"
    assert w.event.outcomes == ("0", "1", "2", "3", "4")
    state = state.apply_chance("setup.map", "3")
    pos = position(state)
    assert pos["map"] == 3
    assert coins(state) == [1, 3, 2, 1, 2]
    assert wounds(state) == [1, 2, 2, 1, 0]
    assert [items(state, s) for s in range(5)] == [
        {"torch": 0, "crystal": 0, "key": 0, "sword": 1},
        {"torch": 1, "crystal": 0, "key": 0, "sword": 0},
        {"torch": 0, "crystal": 0, "key": 1, "sword": 0},
        {"torch": 0, "crystal": 2, "key": 0, "sword": 0},
        {"torch": 0, "crystal": 0, "key": 0, "sword": 0},
    ]
    assert supply(state) == {"torch": 5, "crystal": 4, "key": 5, "sword": 5}
    w = state.waiting
    assert isinstance(w, Chance) and w.event.id == "L1.level"
    assert set(w.event.outcomes) == set(LAYOUTS)


def test_basic_setup_has_no_map() -> None:
    from engine.raiders import new_game

    state = new_game(3, "basic")
    for character in ("warrior", "wizard", "thief"):
        state = state.apply_chance(state.waiting.event.id, character)  # type: ignore[union-attr]
    w = state.waiting
    assert isinstance(w, Chance) and w.event.id == "L1.level"
    assert position(state)["map"] is None


def test_tactical_vault_counts_the_balls_returned_after_the_follow_ups() -> None:
    # E4 in the tactical variant: the ball goes back once the follow-ups are played, before
    # the vault resolves.
    seats = table(3, items={A: {"crystal": 3}, B: {"crystal": 3}})
    state = from_position(at_room("vault-items#1", seats, variant="tactical", map_holder=A))
    assert supply(state)["crystal"] == 0
    after = play_turns(state, [(A, "crystal"), (B, "3"), (C, "4"), (A, "2")])
    assert last(after)["gained"] == ["crystal", "key", "sword"]
    assert supply(after)["crystal"] == 0
    assert items(after, A)["crystal"] == 3


def test_tactical_necromancer_ball_user_has_no_follow_up_turn() -> None:
    seats = table(3, wounds=[0, 0, 0], items={B: {"crystal": 1}})
    state = from_position(at_boss("necromancer", seats, variant="tactical", map_holder=A))
    after = play_turns(state, [(A, "1"), (B, "crystal"), (C, "5")])
    assert isinstance(after.waiting, Over)
    assert last(after)["attacked"] == [True, False, False]
    assert wounds(after) == [2, 0, 0]
    assert supply(after)["crystal"] == 6
