"""The canonical plan notation (rules reference §8.1): one plan, one string."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import InvalidActionError
from engine.paper import format_action, parse_action
from engine.paper.actions import lenient_plan, parse_answers, parse_setup
from engine.stream import HashStream
from tests.engine.paper.corpus import plan_states, random_plan
from tests.tiers import examples

CANONICAL = [
    "4 move C2 C3 D3 {evolve cleric}; 2 evolve rogue; 5 potions {evolve warrior}",
    "3 move entryC C1; 1 item crown; 6 psionic evolve wizard",
    "2 item death_scepter {scepter A5 F7}; 1 move B2 {item tome, evolve rogue}; 4 potions",
    "1 move A2 F2 A2; 2 item khar_medallion; 3 item flaming_sword",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_plans_round_trip(text: str) -> None:
    assert format_action(parse_action(text)) == text


@pytest.mark.parametrize(("text", "canonical"), [
    ("4 MOVE c2 c3 d3 {Evolve Cleric}; 2 evolve rogue; 5 potions {evolve warrior}",
     CANONICAL[0]),
    ("3 move entry C C1; 1 item crown; 6 psionic evolve wizard", CANONICAL[1]),
    ("3 move entryC C1;1 item crown; 6 psionic evolve wizard", CANONICAL[1]),
    ("3  move entryC C1; 1 item crown; 6 psionic evolve wizard", CANONICAL[1]),
    (" 3 move entryC C1; 1 item crown; 6 psionic evolve wizard", CANONICAL[1]),
    ("3 move entryC C1; 1 item crown; 6 psionic evolve wizard ", CANONICAL[1]),
    ("2 item death_scepter {scepter F7 A5}; 1 move B2 {item tome, evolve rogue}; 4 potions",
     CANONICAL[2]),
    ("2 item death_scepter { scepter A5 F7 }; 1 move B2 {item tome,evolve rogue}; 4 potions",
     CANONICAL[2]),
])
def test_other_spellings_are_refused_naming_the_canonical_one(text: str, canonical: str) -> None:
    with pytest.raises(InvalidActionError, match=re.escape(repr(canonical))):
        parse_action(text)


@pytest.mark.parametrize("text", [
    "", "dance", "4 move C2; 2 evolve rogue", "4 move C2; 2 evolve rogue; 5 potions; 1 potions",
    "7 potions; 2 potions; 3 potions", "1 fly C2; 2 potions; 3 potions",
    "1 move; 2 potions; 3 potions", "1 move Z9; 2 potions; 3 potions",
    "1 evolve bard; 2 potions; 3 potions", "1 item ring; 2 potions; 3 potions",
    "1 potions {}; 2 potions; 3 potions", "1 potions {dance}; 2 potions; 3 potions",
    "1 potions {evolve rogue; 2 potions; 3 potions", "1 move entryZ Z1; 2 potions; 3 potions",
])
def test_texts_that_are_no_plan(text: str) -> None:
    with pytest.raises(InvalidActionError):
        parse_action(text)


def test_setup_and_reward_notation() -> None:
    for text in ["power 0 assassin A5 F7; styles B/W/W/B",
                 "power 1 craftsman cloak crown; styles W/W/B/B; objective 1",
                 "power 0 veteran warrior rogue; styles B/W/B/W",
                 "power 1 treasure_hunter F; styles W/B/W/B", "power 0 healer; styles B/B/W/W"]:
        assert format_action(parse_setup(text)) == text
    with pytest.raises(InvalidActionError, match="power 0 craftsman cloak crown"):
        parse_setup("power 0 craftsman crown cloak; styles B/W/W/B")
    with pytest.raises(InvalidActionError, match="two minion rooms"):
        parse_setup("power 0 assassin A5; styles B/W/W/B")
    assert format_action(parse_answers("evolve rogue, evolve warrior")) == (
        "evolve rogue, evolve warrior")
    with pytest.raises(InvalidActionError, match="canonical"):
        parse_answers("evolve rogue,evolve warrior")


def _respell(text: str, how: int) -> str:
    """Spell a plan another way (the same plan, read leniently)."""
    if how == 0:
        return text.upper()
    if how == 1:
        return text.replace("; ", ";")
    if how == 2:
        return text.replace(" ", "  ", 1)
    if how == 3:
        return text.replace("entry", "entry ")
    if how == 4:
        return text.replace("{", "{ ").replace("}", " }")
    if how == 5:
        return text + " "
    return text.replace(", ", " ,")


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 6))
def test_generated_plans_round_trip_and_respellings_are_detected(seed: int, how: int) -> None:
    cases = plan_states()
    state, seat = cases[seed % len(cases)]
    plan, _ = random_plan(state, seat, HashStream(seed.to_bytes(8, "big")))
    text = format_action(plan)
    assert parse_action(text) == plan and format_action(parse_action(text)) == text
    other = _respell(text, how)
    assert lenient_plan(other) == plan
    if other != text:
        with pytest.raises(InvalidActionError, match="canonical"):
            parse_action(other)
