"""Golden-string tests of the pure rendering functions of the Raiders plug-in
(cli/games/raiders/render.py) and of the text helpers they use (cli/text.py)."""

from __future__ import annotations

import dataclasses

from cli import text
from cli.games.raiders import render
from engine.core import Outcome, Standing
from engine.raiders import PLAY, RaidersView
from tests.cli.games.raiders.helpers import dealt, peeked, resolution, view_of

ABCD = text.seat_labels(4, None)
YOU4 = text.seat_labels(4, 0)


def lines(text: str) -> list[str]:
    return text.strip("\n").split("\n")


# --------------------------------------------------------------------------- words


def test_labels_and_words() -> None:
    assert text.seat_labels(3, 0) == ("you", "B", "C")
    assert text.seat_labels(5, None) == ("A", "B", "C", "D", "E")
    assert text.join_words(["you"]) == "you"
    assert text.join_words(["you", "B", "C"]) == "you, B and C"
    assert text.plural(1, "coin") == "1 coin"
    assert text.plural(0, "wound") == "0 wounds"
    assert render.card_text("crystal") == "crystal ball"


def test_wrap_items_breaks_between_items_only() -> None:
    items = [f"item{i:02d}" for i in range(20)]
    out = text.wrap_items(items, first="List: ", sep=", ", indent="  ", width=40)
    assert out == [
        "List: item00, item01, item02, item03,",
        "  item04, item05, item06, item07,",
        "  item08, item09, item10, item11,",
        "  item12, item13, item14, item15,",
        "  item16, item17, item18, item19",
    ]
    assert all(len(line) < 40 for line in out)


# --------------------------------------------------------------------------- the table


def test_view_with_torch_knowledge() -> None:
    view = view_of(peeked(dealt(), 0), 0)
    assert render.render_view(view, YOU4, name="Ana") == lines("""
Level 1 of 5: 1 > Dragon < | 2 [  ?  ] (torch: Troll) | 3 Treasure 4/2 |
              4 [  ?  ] (torch: Items vault) | 5 [  ?  ] (torch: Lava trap)
Room 1 of 5. Item supply: torch 6, crystal ball 4, key 5, sword 5.
Dragon: monster, strength 18 with 4 players. If the cards add up to less, the
lowest card takes 3 wounds (all tied on it). A sword counts 5, a torch 0.
  seat        character coins wounds items  played     now
  A you (Ana) Explorer      3      2     0  -          choosing
  B           Wizard        1      1     2  -          choosing
  C           Thief         2      2     1  -          choosing
  D           Knight        1      1     1  -          choosing
Your cards: 1 2 3 4 5
""")
    assert render.render_torch(view) == [
        "Your torch shows: room 2 Troll, room 4 Items vault, room 5 Lava trap. Only you",
        "  know this.",
    ]


def test_row_hides_torch_for_spectators_and_other_seats() -> None:
    state = peeked(dealt(), 0)
    spectator = render.render_row(view_of(state, 0), torch=False)
    assert spectator == [
        "Level 1 of 5: 1 > Dragon < | 2 [  ?  ] | 3 Treasure 4/2 | 4 [  ?  ] |",
        "              5 [  ?  ]",
    ]
    assert render.render_row(view_of(state, 1)) == spectator


def test_seats_while_others_have_chosen() -> None:
    state = dealt()
    for seat, card in ((1, "4"), (3, "sword")):
        state = state.apply(seat, PLAY[card])
    view = view_of(state, 3)
    assert render.render_seats(view, text.seat_labels(4, 3)) == lines("""
  seat  character coins wounds items  played     now
  A     Explorer      3      2     1  -          choosing
  B     Wizard        1      1     2  -          has chosen
  C     Thief         2      2     1  -          choosing
  D you Knight        1      1     1  -          has chosen
""")
    assert render.render_hand(view) == [
        "Your cards: 1 2 3 4 5 + sword",
        "You have chosen: sword (hidden until everyone has chosen)",
    ]


def test_crystal_ball_reveal_and_follow_up() -> None:
    state = dealt()
    for seat, card in ((1, "crystal"), (2, "3"), (3, "4"), (0, "5")):
        state = state.apply(seat, PLAY[card])
    view = view_of(state, 0)
    assert render.render_reveal(view, YOU4) == [
        "Revealed: you 5, B crystal ball, C 3, D 4. Now B plays a follow-up.",
    ]
    assert render.render_seats(view, YOU4) == lines("""
  seat  character coins wounds items  played     now
  A you Explorer      3      2     1  5          played 5
  B     Wizard        1      1     1  -          choosing follow-up
  C     Thief         2      2     1  3          played 3
  D     Knight        1      1     1  4          played 4
""")
    state = state.apply(1, PLAY["2"])
    last = view_of(state, 0).last
    assert last is not None
    assert render.render_resolution(last, YOU4) == [
        "Room 1, Dragon: you 5, B crystal ball then 2, C 3, D 4",
        "  Dragon 18: 5+2+3+4 = 14, not defeated; B takes 3 wounds.",
    ]


# --------------------------------------------------------------------------- room facts


def test_room_descriptions() -> None:
    assert render.describe_room("treasure-4-2#1", 5) == lines("""
Treasure 4/2: the highest card takes the 4-coin chest, the next lower card the
2-coin chest. Ties split a chest, rounded down; a key counts 5, a torch gets
nothing.
""")
    assert render.describe_room("vault-items#2", 3) == lines("""
Items vault: your card's value picks what you get: 1: torch, 2: crystal ball,
3: key, 4: sword, 5: heal 1 wound. If more players ask for an item than the
supply holds, none of them gets it.
""")
    assert render.describe_room("vault-coins#1", 3) == lines("""
Coins vault: your card's value picks what you get: 1: +1 coin, 2: +2 coins, 3:
heal 1 wound, 4: +3 coins, 5: heal 2 wounds.
""")
    assert render.describe_room("lava", 4) == lines("""
Lava trap: by the highest card played (5: -3 coins, 4: -2 coins, 3: -1 coin);
it hits everyone tied on the most coins. A torch counts 0.
""")
    assert render.describe_room("snake", 5) == lines("""
Snake: monster, strength 13 with 5 players. If the cards add up to less, the
lowest card takes 3 wounds (all tied on it). A sword counts 5, a torch 0.
""")


def test_boss_descriptions() -> None:
    assert render.describe_room("medusa", 4) == lines("""
Medusa: final boss, strength 14 with 4 players. If the cards add up to less,
the lowest card is eliminated (all tied on it). If every player is attacked,
everyone loses.
""")
    assert render.describe_room("sphinx", 3) == lines("""
Sphinx: final boss, strength 11 with 3 players. If the cards add up to less,
the lowest card takes 2 wounds (all tied on it). The highest card gains 2
coins, whether or not the Sphinx is defeated (but nobody does if it is not
defeated and everyone played the same value).
""")
    assert render.describe_room("golem", 5) == lines("""
Golem: final boss, cannot be defeated. The lowest card takes 3 wounds (all tied
on it). Here 5s and swords count 1.
""")
    assert render.describe_room("mummy", 4)[0].startswith(
        "Mummy: final boss, cannot be defeated. The highest card takes 3 wounds")
    assert render.describe_room("vampire", 5)[1].startswith(
        "the lowest card takes 1 wound and loses 2 coins")
    assert "Playing a key escapes it." in " ".join(render.describe_room("mega_dragon", 3))


# --------------------------------------------------------------------------- resolutions


def test_dragon_e2() -> None:
    res = resolution("dragon#1", ("5", "4", "3", "3"), (5, 4, 3, 3), total=15, strength=18,
                     wound_delta=(0, 0, 3, 3))
    assert render.resolution_summary(res, ABCD) == (
        "Dragon 18: 5+4+3+3 = 15, not defeated; C and D take 3 wounds.")
    assert render.render_resolution(res, YOU4) == [
        "Room 3, Dragon: you 5, B 4, C 3, D 3",
        "  Dragon 18: 5+4+3+3 = 15, not defeated; C and D take 3 wounds.",
    ]


def test_you_are_plural_and_defeated_monsters() -> None:
    res = resolution("goblin#2", ("3", "sword", "1"), (3, 5, 1), total=9, strength=8,
                     defeated=True)
    assert render.resolution_summary(res, text.seat_labels(3, 0)) == (
        "Goblin 8: 3+5+1 = 9, defeated.")
    res = resolution("zombie#1", ("torch", "4", "3"), (0, 4, 3), total=7, strength=11,
                     wound_delta=(1, 0, 0))
    assert render.resolution_summary(res, text.seat_labels(3, 0)) == (
        "Zombie 11: 0+4+3 = 7, not defeated; you take 1 wound.")


def test_treasure_e1() -> None:
    res = resolution("treasure-4-2#1", ("4", "4", "4", "2", "1"), (4, 4, 4, 2, 1),
                     coin_delta=(1, 1, 1, 2, 0))
    labels = text.seat_labels(5, None)
    assert render.resolution_summary(res, labels) == (
        "Treasure 4/2: A, B and C gain 1 coin; D gains 2 coins.")
    res = resolution("treasure-2-1#1", ("2", "2", "2"), (2, 2, 2), notes=(
        "the 2-coin chest cannot be split 3 ways",
        "nobody played a lower card: the second chest stays"))
    assert render.resolution_summary(res, labels[:3]) == (
        "Treasure 2/1: the 2-coin chest cannot be split 3 ways. (nobody played a lower card: "
        "the second chest stays)")


def test_trap_e3() -> None:
    res = resolution("lava", ("2", "4", "torch", "1"), (2, 4, 0, 1), coin_delta=(-2, -2, 0, 0))
    assert render.resolution_summary(res, YOU4) == (
        "Lava trap, highest card 4: you and B lose 2 coins.")
    res = resolution("spikes", ("2", "1", "2", "1"), (2, 1, 2, 1),
                     notes=("the highest card is 2: the trap does nothing",))
    assert render.resolution_summary(res, YOU4) == (
        "Spike trap: the highest card is 2: the trap does nothing.")


def test_vault_e4_with_shortage() -> None:
    res = resolution("vault-items#1", ("1", "1", "crystal", "5"), (1, 1, 2, 5),
                     followups=("", "", "2", ""), gained=("", "", "crystal", ""),
                     wound_delta=(0, 0, 0, -1),
                     notes=("2 asked for a torch and 1 is in the supply: nobody gets one",))
    assert render.render_resolution(res, ABCD) == [
        "Room 3, Items vault: A 1, B 1, C crystal ball then 2, D 5",
        "  Items vault: C takes a crystal ball; D heals 1 wound. (2 asked for a torch",
        "    and 1 is in the supply: nobody gets one)",
    ]


def test_bosses() -> None:
    # E11: the Wolf Pack, A escapes with a torch.
    res = resolution("wolf_pack", ("torch", "5", "4", "3", "2"), (-1, 5, 4, 3, 2), total=14,
                     strength=16, wound_delta=(0, 0, 0, 0, 2))
    labels = text.seat_labels(5, 0)
    assert render.resolution_summary(res, labels) == (
        "Wolf Pack 16: 5+4+3+2 = 14, not defeated; you escape; E takes 2 wounds.")
    # E5: the Golem counts 5s and swords as 1.
    res = resolution("golem", ("5", "sword", "2", "1"), (1, 1, 2, 1), total=5, strength=-1,
                     wound_delta=(3, 3, 0, 3))
    assert render.render_resolution(res, ABCD) == [
        "Room 3, Golem: A 5 (counts 1), B sword (counts 1), C 2, D 1",
        "  Golem (unbeatable): 1+1+2+1 = 5; A, B and D take 3 wounds.",
    ]
    # The Vampire: wounds and coins together.
    res = resolution("vampire", ("1", "5", "5"), (1, 5, 5), total=11, strength=14,
                     wound_delta=(1, 0, 0), coin_delta=(-2, 0, 0))
    assert render.resolution_summary(res, text.seat_labels(3, None)) == (
        "Vampire 14: 1+5+5 = 11, not defeated; A takes 1 wound and loses 2 coins.")
    # E8: the Medusa eliminates the lowest.
    res = resolution("medusa", ("4", "2", "2", "3"), (4, 2, 2, 3), total=11, strength=14,
                     eliminated=(False, True, True, False))
    assert render.resolution_summary(res, YOU4) == (
        "Medusa 14: 4+2+2+3 = 11, not defeated; B and C are eliminated.")
    # E7(c): the Sphinx pays the highest even when defeated.
    res = resolution("sphinx", ("5", "5", "4", "2"), (5, 5, 4, 2), total=16, strength=14,
                     defeated=True, coin_delta=(2, 2, 0, 0))
    assert render.resolution_summary(res, YOU4) == (
        "Sphinx 14: 5+5+4+2 = 16, defeated; you and B gain 2 coins.")


# --------------------------------------------------------------------------- the end


def _final_view(coins: tuple[int, ...], wounds: tuple[int, ...],
                eliminated: tuple[bool, ...] | None = None) -> RaidersView:
    view = view_of(dealt(len(coins)), 0)
    out = eliminated or (False,) * len(coins)
    seats = tuple(dataclasses.replace(sv, coins=c, wounds=w, eliminated=e)
                  for sv, c, w, e in zip(view.seats, coins, wounds, out, strict=True))
    return dataclasses.replace(view, seats=seats)


def _outcome(statuses: str, winners: tuple[int, ...]) -> Outcome:
    words = {"W": "winner", "L": "lost", "F": "fainted", "E": "eliminated", "X": "forfeited"}
    return Outcome(frozenset(winners),
                   tuple(Standing(s, words[c], 0, 0) for s, c in enumerate(statuses)), "")


def test_scoreboard_e9b() -> None:
    view = _final_view((15, 11, 9, 9), (6, 6, 2, 1))
    outcome = _outcome("FFLW", (3,))
    assert render.render_scoreboard(view, outcome, YOU4, name="Ana") == lines("""
Final scores
  seat        character coins wounds  result
  D           Knight        9      1  winner
  C           Thief         9      2  lost
  A you (Ana) Explorer     15      6  fainted
  B           Wizard       11      6  fainted
You and B faint with the most wounds and cannot win.
D wins with 9 coins.
""")


def test_scoreboard_you_win_shared_and_nobody() -> None:
    view = _final_view((12, 12, 3), (2, 2, 5))
    assert render.render_scoreboard(view, _outcome("WWF", (0, 1)), text.seat_labels(3, 0))[
        -2:] == ["C faints with the most wounds and cannot win.",
                 "Shared win: you and B, with 12 coins and 2 wounds each."]
    assert render.render_scoreboard(view, _outcome("WLF", (0,)), text.seat_labels(3, 0))[
        -1] == "You win with 12 coins!"
    view = _final_view((12, 12, 3), (2, 2, 5), (True, True, True))
    assert render.render_scoreboard(view, _outcome("EEE", ()), text.seat_labels(3, None)) == \
        lines("""
Final scores
  seat  character coins wounds  result
  A     Explorer     12      2  eliminated
  B     Wizard       12      2  eliminated
  C     Thief         3      5  eliminated
Nobody wins: the Medusa eliminated everyone.
""")


def test_scoreboard_a_forfeited_seat_is_listed_last_and_said_to_have_forfeited() -> None:
    view = _final_view((20, 12, 3), (1, 2, 5))
    assert render.render_scoreboard(view, _outcome("XWF", (1,)), text.seat_labels(3, 0)) == \
        lines("""
Final scores
  seat  character coins wounds  result
  B     Wizard       12      2  winner
  C     Thief         3      5  fainted
  A you Explorer     20      1  forfeited
You forfeited for holding back a card or a secret, and cannot win.
C faints with the most wounds and cannot win.
B wins with 12 coins.
""")


def test_wrapping_keeps_a_number_with_the_word_before_it() -> None:
    line = "Coins vault: you heal 1 wound; Bot 1 gains 3 coins; Bot 2 gains 2 coins; Bot 3 gains"
    lines = text.wrap_text(line, indent="  ", width=78)  # "... Bot" / "3 gains" before
    assert lines == ["Coins vault: you heal 1 wound; Bot 1 gains 3 coins; Bot 2 gains 2 coins;",
                     "  Bot 3 gains"]
    # A label such as "2:" still starts a line of its own when it must.
    assert text.wrap_text("1: torch, 2: crystal ball", width=12) == [
        "1: torch,", "2: crystal", "ball"]


def test_the_full_screens_row_wraps_without_a_stray_separator() -> None:
    """Issue 48: a row too long for the window (a torch's look at the face-down rooms) went on
    with ``| |`` at the start of the next line."""
    from cli.games.raiders.ui import RaidersUI
    from cli.plugin import Seating
    from cli.text import text_of
    from engine.games import get_game
    from engine.raiders import from_position

    state = from_position({
        "players": 3, "phase": "play", "level": 2, "room": 1, "layout": "L2",
        "row": ["treasure-2", "down", "down", "vault-coins#1", "down"],
        "seats": [{"character": c} for c in ("warrior", "thief", "wizard")],
        "private": {"0": {"seen": {"L2.R2": "magnetic", "L2.R3": "treasure-4-2#1",
                                   "L2.R5": "vault-items#2"}}}})
    ui = RaidersUI(get_game("raiders"), 3, {}, Seating(("you", "B", "C"), 0))
    rows = [text_of(row) for row in ui.title(state.view(0), 80)]
    assert len(rows) > 1 and all(len(r) <= 80 for r in rows), rows
    assert not any(r.lstrip().startswith("|") for r in rows[1:]), rows
    assert "| |" not in " ".join(rows) and rows[0].rstrip().endswith("|"), rows
