"""Sealed values (docs/engine.md §16): starting teams sealed when chosen and opened after all 20
placements, face-down tokens sealed at placement and opened at a reveal (the non-active seat
too, during the active seat's turn) or at the end; R32 violations; forfeits, resignations and
draws, with the end openings before the result; a round trip through engine.sim.play_out."""

from __future__ import annotations

import json

import pytest

from engine.core import (
    Acted,
    Chance,
    IllegalActionError,
    InvalidKnowledgeError,
    JointActed,
    Learned,
    NotYourDecisionError,
    Opened,
    OpeningRequest,
    Openings,
    Over,
    Simultaneous,
    TimeClass,
    Turn,
    entry_from_json,
    entry_to_json,
)
from engine.games import get_game, replay
from engine.sim import Dealer, play_out
from engine.twister import TwisterState, from_position, new_game
from engine.twister.bots import HeuristicBot, RandomBot
from engine.twister.data import CHARACTERS, KINDS
from tests.engine.twister.helpers import act, at, outcome, pos

TEAMS = ("cleric mekanork thief troll", "goblin warrior wizard wall_walker")
KINDS_LEFT = (
    ("goblin", "wizard", "wall_walker", "warrior", "treasure", "armour", "sword",
     "fireball_wand", "rope", "speed_potion"),
    ("cleric", "mekanork", "thief", "troll", "treasure", "armour", "sword", "fireball_wand",
     "rope", "speed_potion"),
)
SLOT_PLAN = ((0, 1, 2, 3, 4, 5, 6, 7, 1, 2), (0, 1, 2, 3, 4, 5, 6, 7, 5, 6))


def seal(state: TwisterState, seat: int, text: str) -> TwisterState:
    """What a seat's own client does: split its decision, apply the public part, learn."""
    public, values = state.split_private(seat, text)
    state = state.apply(seat, state.parse_action(seat, public))
    return state.learn(seat, dict(values)) if values else state


def teams_chosen() -> TwisterState:
    state = new_game()
    for seat in (0, 1):
        state = seal(state, seat, f"team {TEAMS[seat]}")
    return state


def all_placed(placer: int = 0) -> TwisterState:
    state = teams_chosen().apply_chance("setup.placer", str(placer))
    counts = [0, 0]
    for _ in range(20):
        w = state.waiting
        assert isinstance(w, Turn)
        seat = w.seat
        n = counts[seat]
        state = seal(state, seat, f"place {SLOT_PLAN[seat][n]} {KINDS_LEFT[seat][n]}")
        counts[seat] += 1
    return state


def teams_open(first: int = 0) -> TwisterState:
    state = all_placed()
    w = state.waiting
    assert isinstance(w, Openings)
    for seat in (0, 1):
        state = state.open_sealed(seat, dict(state.knowledge[seat].sealed[:4]))
    return state.apply_chance("setup.first", str(first))


# ---------------------------------------------------------------------- the team step


def test_the_team_is_sealed_by_a_public_action_without_identities() -> None:
    state = new_game()
    public, values = state.split_private(0, "team cleric mekanork thief troll")
    assert public == "team"
    assert values == (("start.0.1", "cleric"), ("start.0.3", "mekanork"),
                      ("start.0.6", "thief"), ("start.0.8", "troll"))
    state = seal(state, 0, "team cleric mekanork thief troll")
    w = state.waiting
    assert isinstance(w, Simultaneous) and w.committed == {0} and w.pending == {1}
    # The public part shows no commitment and no identity; the digest is unchanged.
    assert state.public().waiting == Simultaneous("setup.team", frozenset({0, 1}))
    assert state.digest() == new_game().digest()
    assert "cleric" not in state.public_bytes().decode()
    with pytest.raises(NotYourDecisionError, match="already decided"):
        state.apply(0, state.parse_action(1, "team"))


def test_a_team_is_four_different_characters() -> None:
    state = new_game()
    with pytest.raises(IllegalActionError, match="four different characters"):
        state.parse_action(0, "team troll troll thief goblin")
    with pytest.raises(Exception, match="characters, not rope"):
        state.parse_action(0, "team troll rope thief goblin")


def test_teams_stay_sealed_through_the_placements() -> None:
    state = all_placed()
    for seat in (0, 1):
        assert pos(state)["seats"][seat]["opened"] == []
        text = json.dumps(state.view(seat ^ 1).to_json())
        assert f'"start.{seat}' not in text  # nor the slots of this seat's values
        for kind in TEAMS[seat].split():
            assert f'"{"WE"[seat]}-{kind}"' not in text  # the other seat never sees the team
        assert state.view(seat).mine[f"start.{seat}.1"] == TEAMS[seat].split()[0]
    w = state.waiting
    assert w == Openings((OpeningRequest(0, ("start.0.1", "start.0.3", "start.0.6",
                                               "start.0.8")),
                          OpeningRequest(1, ("start.1.1", "start.1.3", "start.1.6",
                                             "start.1.8"))))
    assert state.time_class(0) is TimeClass.QUICK and state.time_class(1) is TimeClass.QUICK


def test_opening_the_teams_puts_them_on_their_squares() -> None:
    state = teams_open(first=1)
    assert at(state, "W-cleric") == [0, 1] and at(state, "W-troll") == [0, 8]
    assert at(state, "E-goblin") == [21, 1] and at(state, "E-wall_walker") == [21, 8]
    assert state.waiting == Turn("T1.card", 1)
    assert [a.n for a in state.legal_actions(1)] == [2]  # the first turn plays the 2 (A27)


# ---------------------------------------------------------------------- placements


def test_placement_public_part_and_slot_ids() -> None:
    state = teams_chosen().apply_chance("setup.placer", "1")
    assert state.waiting == Turn("setup.place.1", 1)
    assert state.split_private(1, "place 3 rope") == ("place 3", (("tok.1.1", "rope"),))
    legal = state.legal_actions(1)
    kinds = {KINDS[a.m] for a in legal}
    assert kinds == set(KINDS_LEFT[1])  # the team's characters are sealed already
    assert {a.n for a in legal} == set(range(8))
    # A state without seat 1's values lists (and accepts) only the public placements.
    public = state.public()
    assert {public.format_action(a) for a in public.legal_actions(1)} == {
        f"place {s}" for s in range(8)}
    with pytest.raises(IllegalActionError, match="does not hold your tokens"):
        public.parse_action(1, "place 3 rope")
    with pytest.raises(IllegalActionError, match="no goblin left"):
        state.parse_action(1, "place 3 goblin")


def test_capacity() -> None:
    state = teams_chosen().apply_chance("setup.placer", "0")
    state = seal(state, 0, "place 0 goblin")
    state = seal(state, 1, "place 0 cleric")
    with pytest.raises(IllegalActionError, match="slot 0 is full"):
        state.parse_action(0, "place 0 rope")


def test_learn_is_checked() -> None:
    state = teams_chosen().apply_chance("setup.placer", "0")
    state = state.apply(0, state.parse_action(0, "place 0"))
    with pytest.raises(InvalidKnowledgeError, match=r"no unopened sealed value tok\.0\.2"):
        state.learn(0, {"tok.0.2": "rope"})
    with pytest.raises(InvalidKnowledgeError, match="same token twice"):
        state.learn(0, {"tok.0.1": "thief"})  # sealed in the team already
    with pytest.raises(InvalidKnowledgeError, match="no unopened sealed value"):
        state.learn(1, {"tok.0.1": "rope"})
    state = state.learn(0, {"tok.0.1": "rope"})
    with pytest.raises(InvalidKnowledgeError, match="already holds"):
        state.learn(0, {"tok.0.1": "sword"})


# ---------------------------------------------------------------------- openings


def test_r32_violations_at_the_team_opening() -> None:
    state = all_placed()
    with pytest.raises(IllegalActionError, match="must open exactly"):
        state.open_sealed(0, {"start.0.1": "cleric"})
    with pytest.raises(IllegalActionError, match="twice"):
        state.open_sealed(0, {"start.0.1": "cleric", "start.0.3": "cleric",
                              "start.0.6": "thief", "start.0.8": "troll"})
    with pytest.raises(IllegalActionError, match="holds a character"):
        state.open_sealed(0, {"start.0.1": "rope", "start.0.3": "mekanork",
                              "start.0.6": "thief", "start.0.8": "troll"})
    with pytest.raises(IllegalActionError, match="no token"):
        state.open_sealed(0, {"start.0.1": "dragon", "start.0.3": "mekanork",
                              "start.0.6": "thief", "start.0.8": "troll"})
    # The cheat forfeits; the other seat still opens everything it sealed before the result.
    state = state.forfeit(0)
    w = state.waiting
    assert isinstance(w, Openings) and w.seats == {1}
    assert len(w.requests[0].slots) == 14
    state = state.open_sealed(1, dict(state.knowledge[1].sealed))
    result = outcome(state)
    assert result.winners == {1}
    assert [s.status for s in result.standings] == ["forfeited", "winner"]


def test_r32_a_token_opened_twice_across_openings() -> None:
    state = teams_open()
    state = act(state, 0, "card 2")
    state = act(state, 0, "reveal W-cleric 0")
    state = state.apply_chance("slot.0", state.waiting.event.outcomes[0])  # type: ignore[union-attr]
    w = state.waiting
    assert w == Openings((OpeningRequest(0, ("tok.0.1",)), OpeningRequest(1, ("tok.1.1",))))
    with pytest.raises(IllegalActionError, match="opened its thief twice"):
        state.open_sealed(0, {"tok.0.1": "thief"})  # the thief opened with the team


def test_a_reveal_opens_both_seats_tokens_then_they_are_placed() -> None:
    state = teams_open()
    state = act(state, 0, "card 2")
    state = act(state, 0, "reveal W-cleric 0")
    assert isinstance(state.waiting, Chance) and state.waiting.event.id == "slot.0"
    state = state.apply_chance("slot.0", "4B/2")
    assert pos(state)["rooms"][0] == {"room": "4B", "orientation": 2,
                                      "gates": ["closed", "closed"]}
    # The non-active seat opens during the active seat's turn, quickly.
    assert state.time_class(1) is TimeClass.QUICK
    assert state.view(0).waiting == "waiting for West and East to reveal tokens"
    state = state.open_sealed(1, {"tok.1.1": "cleric"})
    assert state.view(0).waiting == "waiting for West to reveal tokens"
    state = state.open_sealed(0, {"tok.0.1": "goblin"})
    reveal = pos(state)["reveal"]
    assert reveal["lifted"] == ["W-goblin", "E-cleric"]
    assert reveal["mine"] == ["W-goblin", "E-cleric"] and reveal["theirs"] == []
    w = state.waiting
    assert isinstance(w, Turn) and w.seat == 0 and w.step == "T1.1.put1"
    with pytest.raises(IllegalActionError, match="pit"):
        state.parse_action(0, "put W-goblin 2,3")  # 4B at orientation 2: a pit at (2,3)
    state = act(state, 0, "put E-cleric 1,0")
    state = act(state, 0, "put W-goblin 5,4")
    assert at(state, "W-goblin") == [5, 4] and pos(state)["facedown"][0] == []
    assert state.waiting == Turn("T1.2", 0)


def test_the_other_seat_places_the_active_seats_objects() -> None:
    state = teams_open()
    state = act(state, 0, "card 2")
    state = act(state, 0, "move W-thief 0,5 0,4")  # slot 4 holds W-treasure and E-treasure
    state = act(state, 0, "end")
    state = act(state, 1, "card 3")
    state = act(state, 1, "end")
    state = act(state, 0, "card 3")
    state = act(state, 0, "reveal W-thief 4")
    state = state.apply_chance("slot.4", "2A/0")
    state = state.open_sealed(0, {"tok.0.5": "treasure"})
    state = state.open_sealed(1, {"tok.1.5": "treasure"})
    reveal = pos(state)["reveal"]
    assert reveal["mine"] == ["E-treasure"] and reveal["theirs"] == ["W-treasure"]
    state = act(state, 0, "put E-treasure 2,5")
    w = state.waiting
    assert isinstance(w, Turn) and w.seat == 1 and w.step == "T3.1.put2"
    with pytest.raises(IllegalActionError, match="you place W-treasure"):
        state.parse_action(1, "put E-treasure 3,5")
    state = act(state, 1, "put W-treasure 3,5")
    assert state.waiting == Turn("T3.2", 0)


def test_openings_are_public_and_leave_the_owners_knowledge() -> None:
    state = teams_open()
    assert [k for k, _ in state.knowledge[0].sealed] == [f"tok.0.{n}" for n in range(1, 11)]
    assert pos(state)["seats"][0]["opened"][0] == ["start.0.1", "cleric"]


# ---------------------------------------------------------------------- endings


def test_resignation_opens_everything_before_the_result() -> None:
    state = teams_open()
    state = state.resign(1)
    w = state.waiting
    assert isinstance(w, Openings) and w.seats == {0, 1}
    assert all(len(r.slots) == 10 for r in w.requests)
    with pytest.raises(IllegalActionError):
        state.agree_draw()
    state = state.open_sealed(0, dict(state.knowledge[0].sealed))
    state = state.open_sealed(1, dict(state.knowledge[1].sealed))
    result = outcome(state)
    assert result.winners == {0}
    assert [s.status for s in result.standings] == ["winner", "resigned"]
    assert "East resigned" in result.reason
    with pytest.raises(IllegalActionError, match="over"):
        state.resign(0)


def test_a_replaced_seat_forfeits() -> None:
    spec = get_game("twister")
    assert spec.replaced == "forfeit"
    state = teams_open()
    state = state.void_sealed(0)
    w = state.waiting
    assert isinstance(w, Openings) and w.seats == {1}
    state = state.open_sealed(1, dict(state.knowledge[1].sealed))
    assert outcome(state).winners == {1}
    assert state.void_sealed(0) is state


def test_a_resigned_seat_that_goes_silent_forfeits_too() -> None:
    state = teams_open().resign(0)
    state = state.open_sealed(1, dict(state.knowledge[1].sealed))
    state = state.void_sealed(0)
    result = outcome(state)
    assert result.winners == {1}
    assert [s.status for s in result.standings] == ["forfeited", "winner"]


def test_a_cheat_at_the_end_loses_even_ahead() -> None:
    state = teams_open().agree_draw()
    with pytest.raises(IllegalActionError, match="twice"):
        values = dict(state.knowledge[0].sealed)
        values["tok.0.2"] = "goblin"
        state.open_sealed(0, values)
    state = state.forfeit(0)
    state = state.open_sealed(1, dict(state.knowledge[1].sealed))
    assert outcome(state).winners == {1}


def test_agreed_draw() -> None:
    state = teams_open().agree_draw()
    for seat in (0, 1):
        state = state.open_sealed(seat, dict(state.knowledge[seat].sealed))
    result = outcome(state)
    assert result.winners == frozenset() and "draw by agreement" in result.reason
    assert [s.status for s in result.standings] == ["draw", "draw"]


def test_endings_before_anything_is_sealed() -> None:
    state = new_game().resign(0)
    assert isinstance(state.waiting, Over) and outcome(state).winners == {1}
    state = new_game().agree_draw()
    assert outcome(state).winners == frozenset()
    # A team committed in the unfinished team step was never sealed: nothing to open.
    state = seal(new_game(), 0, "team cleric mekanork thief troll").resign(1)
    assert outcome(state).winners == {0} and state.knowledge[0].sealed == ()
    assert from_position(state.to_position()) == state


# ---------------------------------------------------------------------- a whole game


@pytest.mark.parametrize("seed", range(3))
def test_sealed_round_trip_through_play_out(seed: int) -> None:
    """The offline loop seals with split_private, keeps the values and opens them when asked:
    every seat opens each of its 14 tokens exactly once, as it sealed it; the public record
    (no learn entries) replays to the same public state."""
    bots = [HeuristicBot(), RandomBot()] if seed % 2 else [RandomBot(), HeuristicBot()]
    run = play_out(new_game(turn_cap=20), bots, Dealer(f"sealed/{seed}".encode()))
    assert run.state.is_over
    learned: dict[int, dict[str, str]] = {0: {}, 1: {}}
    opened: dict[int, dict[str, str]] = {0: {}, 1: {}}
    for entry in run.history:
        if isinstance(entry, Learned):
            learned[entry.seat].update(entry.knowledge)
        elif isinstance(entry, Opened):
            for slot, kind in entry.values:
                assert slot not in opened[entry.seat]
                opened[entry.seat][slot] = kind
        elif isinstance(entry, Acted | JointActed):
            texts = [entry.action] if isinstance(entry, Acted) else [
                a for _, a in entry.actions]
            for text in texts:
                if text.startswith(("team", "place")):
                    assert not any(k in text.split() for k in KINDS), text
    for seat in (0, 1):
        assert opened[seat] == learned[seat]
        assert sorted(opened[seat].values()) == sorted(KINDS)
        team = [k for s, k in opened[seat].items() if s.startswith("start.")]
        assert len(team) == 4 and all(k in CHARACTERS for k in team)
    public_record = [e for e in run.history if not isinstance(e, Learned)]
    again = replay("twister", public_record, options={"turn_cap": 20})
    assert again.digest() == run.state.digest() and again == run.state.public()
    full = replay("twister", [entry_from_json(json.loads(json.dumps(entry_to_json(e))))
                              for e in run.history], options={"turn_cap": 20})
    assert full == run.state
