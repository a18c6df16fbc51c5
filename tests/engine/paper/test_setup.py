"""Setup with private deals from shared decks, the kept power shown with its deal, the sealed
objective opened at final scoring, resignation and replaced seats (issue 32's rulings)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.core import (
    Chance,
    IllegalActionError,
    InvalidChanceError,
    InvalidKnowledgeError,
    Openings,
    Simultaneous,
    TimeClass,
    Visibility,
)
from engine.games import get_game
from engine.paper import PaperState, new_game, parse_action
from engine.paper.data import OBJECTIVE_IDS, POWER_IDS
from engine.sim import Dealer
from tests.engine.paper.helpers import ROLL, at, outcome_of, random_game, seat

DEAL = {0: ("healer", "scout", "O1", "O8"), 1: ("shaman", "psionic", "O2", "O15")}


def dealt(players: int = 2, deal: dict[int, tuple[str, ...]] = DEAL, **options: Any
          ) -> PaperState:
    """A game dealt by hand: dungeon A, missions M1-M3, then the private cards."""
    state = new_game(players, **options)
    state = state.apply_chance("setup.dungeon", "A")
    for k in (1, 2, 3):
        if isinstance(state.waiting, Chance) and state.waiting.event.id.startswith("setup.mis"):
            state = state.apply_chance(f"setup.mission.{k}", f"M{k}")
    while isinstance(state.waiting, Chance):
        event = state.waiting.event
        assert event.visibility is Visibility.PRIVATE and event.seat is not None
        k = int(event.id[-1]) + (2 if "objective" in event.id else 0)
        state = state.apply_private(event.id).learn(event.seat, {event.id: deal[event.seat][k]})
    return state


def test_the_setup_events() -> None:
    state = new_game(3)
    assert state.upcoming_events() == ("setup.dungeon", "setup.mission.1", "setup.mission.2",
                                       "setup.mission.3")
    state = state.apply_chance("setup.dungeon", "K")
    for k in (1, 2, 3):
        state = state.apply_chance(f"setup.mission.{k}", f"M{k + 4}")
    ids = []
    while isinstance(state.waiting, Chance):
        event = state.waiting.event
        assert event.visibility is Visibility.PRIVATE
        assert event.deck == ("powers" if "power" in event.id else "objectives")
        assert event.outcomes == (POWER_IDS if event.deck == "powers" else OBJECTIVE_IDS)
        assert state.upcoming_events() == (event.id,)
        with pytest.raises(InvalidChanceError, match="private deal"):
            state.apply_chance(event.id, event.outcomes[0])
        ids.append(event.id)
        state = state.apply_private(event.id)
    assert ids[:2] == ["setup.power.0.0", "setup.power.0.1"]
    assert ids[6:8] == ["setup.objective.0.0", "setup.objective.0.1"] and len(ids) == 12
    assert isinstance(state.waiting, Simultaneous) and state.waiting.step == "setup"
    assert state.time_class(0) is TimeClass.NORMAL
    assert state.legal_actions(0) == ()  # this state knows no seat's cards


def test_options() -> None:
    story = new_game(2, story="terrors-of-the-tower", chapter=2, missions=False)
    assert story.to_position()["dungeon"] == "H"
    assert story.waiting.event.id == "setup.power.0.0"  # type: ignore[union-attr]
    spec = get_game("paper")
    assert spec.option("chapter").parse("3") == 3
    with pytest.raises(ValueError, match="one of"):
        spec.option("story").parse("dracula")
    with pytest.raises(ValueError, match="1 to 8"):
        new_game(9)


def test_learning_dealt_cards_is_checked() -> None:
    state = new_game(2, missions=False).apply_chance("setup.dungeon", "A")
    state = state.apply_private("setup.power.0.0")
    with pytest.raises(InvalidKnowledgeError, match="owed nothing"):
        state.learn(1, {"setup.power.0.0": "healer"})
    with pytest.raises(InvalidKnowledgeError, match="not been dealt"):
        state.learn(0, {"setup.power.0.1": "healer"})
    with pytest.raises(InvalidKnowledgeError, match="cannot be the card"):
        state.learn(0, {"setup.power.0.0": "O3"})
    state = state.learn(0, {"setup.power.0.0": "healer"}).apply_private("setup.power.0.1")
    with pytest.raises(InvalidKnowledgeError, match="cannot be the card"):
        state.learn(0, {"setup.power.0.1": "healer"})
    assert state.public_bytes() == state.public().public_bytes()
    assert "healer" not in state.public_bytes().decode()


def test_setup_choices_split_and_sealed() -> None:
    state = dealt()
    legal = state.legal_actions(0)
    assert len(legal) == 4  # 2 powers (no setup answers) x 2 objectives
    text = "power 0 healer; styles B/W/W/B; objective 0"
    assert parse_action(text) in legal
    public, sealed = state.split_private(0, text)
    assert public == "power 0 healer; styles B/W/W/B" and sealed == (("objective.0", "0"),)
    with pytest.raises(IllegalActionError, match="deal 1 is the scout"):
        state.parse_action(0, "power 1 healer; styles B/W/W/B")
    with pytest.raises(IllegalActionError, match="marks the styles W/B/W/B"):
        state.parse_action(0, "power 0 healer; styles B/W/W/B; objective 1")
    with pytest.raises(IllegalActionError, match="neither of your objectives"):
        state.parse_action(0, "power 0 healer; styles W/W/B/B")
    assert state.private_claims(0, parse_action(public)) == ("setup.power.0.0",)


def test_the_public_setup_reveals_power_and_styles_only() -> None:
    state = dealt()
    a = state.apply(0, state.parse_action(0, "power 0 healer; styles B/W/W/B; objective 0"))
    assert a.view(0).objective == "O1" and a.view(0).pending.startswith("power 0 healer")
    assert a.view(1).seats[0].status == "committed" and a.view(1).pending == ""
    assert a.public_bytes() == state.public_bytes()  # a commitment changes nothing public
    b = a.apply(1, a.parse_action(1, "power 1 psionic; styles W/B/B/W; objective 0"))
    pos = b.to_position(private=False)
    assert [s["power"] for s in pos["seats"]] == ["healer", "psionic"]
    assert [s["setup"] for s in pos["seats"]] == ["power 0 healer; styles B/W/W/B",
                                                  "power 1 psionic; styles W/B/B/W"]
    values = set(_strings(pos))
    assert not values & {"O1", "O8", "O2", "O15", "scout", "shaman"}
    # The kept power's deal may be shown now; the discarded one stays hidden.
    assert b.open_private(0, "setup.power.0.0", "healer") == b
    with pytest.raises(IllegalActionError, match="kept the healer"):
        b.public().open_private(0, "setup.power.0.0", "noble")
    with pytest.raises(InvalidKnowledgeError, match="may not be shown now"):
        b.open_private(0, "setup.power.0.1", "scout")
    with pytest.raises(InvalidKnowledgeError, match="before final scoring"):
        b.open_private(0, "setup.objective.0.0", "O1")
    assert seat(b, 0)["potions"] == 2  # the Healer acted


def _strings(data: Any) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [x for k, v in data.items() for x in (*_strings(k), *_strings(v))]
    if isinstance(data, list):
        return [x for v in data for x in _strings(v)]
    return []


OPEN_SEAT = {"styles": "B/W/W/B", "power": "healer", "setup": "power 0 healer; styles B/W/W/B"}


def test_openings_check_the_deal_and_the_styles() -> None:
    state = at("open", [OPEN_SEAT, dict(OPEN_SEAT, power="scout",
                                        setup="power 1 scout; styles B/W/W/B")], round_no=8)
    w = state.waiting
    assert isinstance(w, Openings) and [r.slots for r in w.requests] == [("objective.0",),
                                                                        ("objective.1",)]
    assert state.opening_claims(0, {"objective.0": "1"}) == ("setup.objective.0.1",)
    with pytest.raises(IllegalActionError, match="must be shown"):
        state.open_sealed(0, {"objective.0": "1"})  # no card shown, no knowledge
    with pytest.raises(IllegalActionError, match="did not match the objective"):
        state.open_private(0, "setup.objective.0.1", "O2")  # W/B/B/W: not the sheet's
    shown = state.open_private(0, "setup.objective.0.1", "O14")
    with pytest.raises(IllegalActionError, match="showed objective deal 1"):
        shown.open_sealed(0, {"objective.0": "0"})
    with pytest.raises(IllegalActionError, match="is 0 or 1"):
        shown.open_sealed(0, {"objective.0": "2"})
    with pytest.raises(IllegalActionError, match="shown by seat 0"):
        shown.open_private(1, "setup.objective.1.0", "O14")
    opened = shown.open_sealed(0, {"objective.0": "1"})
    assert isinstance(opened.waiting, Openings) and opened.waiting.seats == {1}
    with pytest.raises(IllegalActionError, match="nothing to open"):
        opened.open_sealed(0, {"objective.0": "1"})
    done = opened.void_sealed(1)
    out = outcome_of(done)
    assert "objective O14" in out.standings[0].detail
    assert "never opened" in out.standings[1].detail
    # The audit: a discarded deal may be shown once the game is over, and changes nothing.
    assert done.open_private(0, "setup.objective.0.0", "O4") == done
    with pytest.raises(IllegalActionError, match="kept objective"):
        done.open_private(0, "setup.objective.0.0", "O14")
    with pytest.raises(IllegalActionError, match="kept by seat 1"):
        done.open_private(0, "setup.power.0.1", "scout")


def test_a_seat_whose_styles_lie_is_caught_at_the_opening() -> None:
    liar = at("open", [OPEN_SEAT], round_no=8, private={
        "0": {"cards": {"setup.objective.0.0": "O2", "setup.objective.0.1": "O3"}}})
    with pytest.raises(IllegalActionError, match="did not match"):
        liar.open_sealed(0, {"objective.0": "0"})


def test_resign() -> None:
    state = at("plan", [{"styles": "BWWB"}] * 3, round_no=2, roll=ROLL)
    items = parse_action("1 item crown; 2 item tome; 3 item armour")
    state = state.apply(0, items)
    after = state.resign(1)
    assert isinstance(after.waiting, Simultaneous) and after.waiting.pending == {2}
    with pytest.raises(IllegalActionError, match="already resigned"):
        after.resign(1)
    done = after.apply(2, items)
    assert seat(done, 1)["rounds"] == [] and seat(done, 1)["resigned"]
    assert after.resign(2).to_position()["phase"] == "roll"  # the others' plans revealed
    everyone = after.resign(0).resign(2)
    out = outcome_of(everyone)
    assert out.winners == frozenset() and {s.status for s in out.standings} == {"resigned"}
    with pytest.raises(IllegalActionError, match="over"):
        everyone.resign(0)


def test_resigning_during_the_reward_and_the_openings() -> None:
    strong = {"styles": "BWWB", "room": "D2", "explored": ["D2"],
              "levels": {"warrior": 3, "wizard": 3}}
    state = at("plan", [strong, {"styles": "BWWB"}], round_no=3, roll=ROLL)
    items = parse_action("1 item crown; 2 item tome; 3 item armour")
    reward = state.apply_joint({0: items, 1: items})
    assert reward.to_position()["phase"] == "reward"
    assert reward.resign(0).to_position()["phase"] == "roll"
    opening = at("open", [OPEN_SEAT, OPEN_SEAT], round_no=8).void_sealed(0)
    out = outcome_of(opening.resign(1))
    assert [s.status for s in out.standings] == ["winner", "resigned"]


def test_eight_seats_deal_all_sixteen_cards_without_duplicates() -> None:
    run = random_game(8, b"all sixteen")
    dealt_cards = {e: c for entry in run.history if type(entry).__name__ == "Learned"
                   for e, c in entry.knowledge if e.startswith("setup.")}  # type: ignore[union-attr]
    powers = [c for e, c in dealt_cards.items() if ".power." in e]
    objectives = [c for e, c in dealt_cards.items() if ".objective." in e]
    assert sorted(powers) == sorted(POWER_IDS) and sorted(objectives) == sorted(OBJECTIVE_IDS)


def test_dealer_answers_a_private_deal_once() -> None:
    dealer = Dealer(b"seed")
    state = new_game(1, missions=False).apply_chance("setup.dungeon", "A")
    event = state.waiting.event  # type: ignore[union-attr]
    assert dealer.choose(event) == dealer.choose(event) == dealer.dealt(event.id)


def test_views_show_own_cards_only() -> None:
    state = dealt()
    v0, v1 = state.view(0), state.view(1)
    assert v0.powers == ("healer", "scout") and v0.objectives == ("O1", "O8")
    assert v1.powers == ("shaman", "psionic")
    text = json.dumps(v1.to_json())
    assert "healer" not in text and "O8" not in text
    spectator = json.dumps(state.spectator_view().to_json())
    assert not {"healer", "scout", "shaman", "psionic"} & set(_strings(json.loads(spectator)))
    with pytest.raises(ValueError, match="no seat"):
        state.view(2)
