"""The public API of the Dungeon Twister engine: the spec and its option, notation, typed
errors with one-line messages, chance events, positions, views, immutability."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from engine.core import (
    Chance,
    EngineError,
    IllegalActionError,
    InvalidActionError,
    InvalidChanceError,
    InvalidPositionError,
    NotYourDecisionError,
    TimeClass,
    Turn,
    Visibility,
)
from engine.games import games, get_game
from engine.twister import SPEC, Action, format_action, from_position, new_game, parse_action
from tests.engine.twister.helpers import act, layout_l, position, random_game


def one_line(exc: BaseException) -> str:
    msg = str(exc)
    assert msg and "\n" not in msg and len(msg) < 300, repr(msg)
    return msg


# ---------------------------------------------------------------------- the spec


def test_the_spec() -> None:
    assert "twister" in games() and get_game("twister") is SPEC
    assert SPEC.engine_version == "twister/1"
    assert SPEC.players == (2,) and SPEC.replaced == "forfeit"
    assert set(SPEC.bots) == {"random", "heuristic", "easy", "strong"}
    assert SPEC.levels == {"easy": "easy", "normal": "heuristic", "strong": "strong"}
    option = SPEC.option("turn_cap")
    assert option.default == 60
    assert option.parse("off") == 0 and option.parse("OFF") == 0 and option.parse("40") == 40
    with pytest.raises(ValueError, match="2 to 1000 or off"):
        option.parse("1")
    with pytest.raises(ValueError, match="whole number"):
        option.parse("many")
    assert SPEC.new().turn_cap == 60 and SPEC.new(turn_cap=0).turn_cap == 0
    with pytest.raises(ValueError, match="even"):
        SPEC.new(turn_cap=31)
    with pytest.raises(ValueError, match="2 players"):
        SPEC.new(players=3)


def test_a_new_game_waits_for_both_teams() -> None:
    state = new_game()
    w = state.waiting
    assert w.step == "setup.team" and w.seats == {0, 1}  # type: ignore[union-attr]
    assert state.time_class(0) is TimeClass.NORMAL
    assert state.upcoming_events() == ()
    assert len(state.legal_actions(0)) == 8 * 7 * 6 * 5


def test_chance_events() -> None:
    from tests.engine.twister.test_sealed import teams_chosen, teams_open

    state = teams_chosen()
    w = state.waiting
    assert isinstance(w, Chance) and w.event.id == "setup.placer"
    assert w.event.outcomes == ("0", "1") and w.event.visibility is Visibility.PUBLIC
    assert state.upcoming_events() == ("setup.placer", *(f"slot.{s}" for s in range(8)))
    with pytest.raises(InvalidChanceError, match=r"pending chance event is setup\.placer"):
        state.apply_chance("setup.first", "0")
    with pytest.raises(InvalidChanceError, match="not a possible outcome"):
        state.apply_chance("setup.placer", "2")
    with pytest.raises(InvalidChanceError, match="no chance event"):
        new_game().apply_chance("setup.placer", "0")
    state = act(act(teams_open(), 0, "card 2"), 0, "reveal W-cleric 0")
    w = state.waiting
    assert isinstance(w, Chance) and w.event.visibility is Visibility.HIDDEN
    assert len(w.event.outcomes) == 32 and w.event.outcomes[:5] == (
        "1A/0", "1A/1", "1A/2", "1A/3", "1B/0")
    assert state.upcoming_events() == ("slot.0",)
    state = state.apply_chance("slot.0", "1B/3")
    state = state.open_sealed(0, {"tok.0.1": "goblin"}).open_sealed(1, {"tok.1.1": "cleric"})
    state = act(act(state, 0, "put W-goblin 1,0"), 0, "put E-cleric 1,4")
    state = act(act(state, 0, "end"), 1, "card 3")
    state = act(state, 1, "reveal E-goblin 3")
    assert len(state.waiting.event.outcomes) == 28  # type: ignore[union-attr]
    assert not any(o.startswith("1B/") for o in state.waiting.event.outcomes)  # type: ignore[union-attr]


# ---------------------------------------------------------------------- notation

CANONICAL = [
    "team cleric goblin thief troll", "team", "place 3 rope", "place 3", "card 3", "end",
    "move W-troll 4,6 drop 4,7", "move W-goblin", "move W-goblin take W-sword",
    "move E-thief 20,5 take E-armour 20,6 20,7 20,8 drop",
    "move W-thief 3,3 2,3 take W-warrior 1,3 drop 1,4 2,4",
    "jump W-wall_walker 2,7 2,8", "jump W-goblin 2,7 2,8 drop take E-sword",
    "reveal W-goblin 3", "rotate W-goblin 1 cw 1", "rotate E-mekanork 7 ccw 3",
    "attack W-warrior E-troll", "heal W-cleric W-warrior", "regenerate E-troll",
    "drink W-goblin", "open W-thief e", "close E-thief n", "break W-warrior s",
    "pass W-wall_walker w", "fireball W-wizard e E-warrior", "put E-troll 12,3", "combat 0",
    "combat 6",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_notation_round_trips(text: str) -> None:
    action = parse_action(text)
    assert format_action(action) == text
    assert eval(repr(action), {"Action": type(action)}) == action


@pytest.mark.parametrize(("text", "canonical"), [
    ("MOVE w-troll (4, 6)  DROP 4,7", "move W-troll 4,6 drop 4,7"),
    ("team Cleric GOBLIN thief troll", "team cleric goblin thief troll"),
    ("place 3 Armor", "place 3 armour"), ("rotate w-goblin 1 ccw", "rotate W-goblin 1 ccw 1"),
    ("pass W-Wall-Walker north", "pass W-wall_walker n"),
    ("drink e-potion", "drink E-speed_potion"),
])
def test_other_spellings(text: str, canonical: str) -> None:
    assert format_action(parse_action(text)) == canonical


@pytest.mark.parametrize("text", [
    "", "dance", "move", "move X-troll 1,1", "move W-dragon", "move W-troll 4", "card 7",
    "card", "rotate W-goblin 1 up", "rotate W-goblin 1 cw 4", "place 9", "place 1 dragon",
    "team troll goblin", "team troll goblin thief rope", "put W-troll 30,2", "open W-thief up",
    "fireball W-wizard e", "move W-goblin take", "combat -1", "end now", 42, "x" * 700,
])
def test_bad_text_is_an_invalid_action(text: Any) -> None:
    with pytest.raises(InvalidActionError) as info:
        parse_action(text)
    one_line(info.value)
    assert isinstance(info.value, EngineError)


def test_illegal_actions_are_typed_and_readable() -> None:
    state = position({"W-goblin": {"at": [1, 4]}, "E-troll": {"at": [2, 4]}})
    with pytest.raises(NotYourDecisionError) as info:
        state.parse_action(1, "end")
    assert "seat 0's decision" in one_line(info.value)
    for text in ("move W-goblin 5,5", "move E-troll 2,5", "attack W-goblin W-goblin",
                 "card 3", "combat 2", "reveal W-goblin 0", "heal W-goblin E-troll"):
        with pytest.raises(IllegalActionError) as err:
            state.parse_action(0, text)
        assert one_line(err.value).startswith(f"illegal '{text}'")
    with pytest.raises(IllegalActionError, match="not a Dungeon Twister action"):
        state.check(0, "end")
    for bad in (Action("move", who="W-goblin"), Action("dance"),  # type: ignore[arg-type]
                Action("move", who=1, path=[23]), Action("card", n=3.0)):  # type: ignore[arg-type]
        with pytest.raises(IllegalActionError, match="not a Dungeon Twister action"):
            state.check(0, bad)
    with pytest.raises(NotYourDecisionError):
        state.open_sealed(0, {})
    with pytest.raises(NotYourDecisionError, match=r"decision alone"):
        state.apply_joint({1: parse_action("end")})


# ---------------------------------------------------------------------- positions

BAD_POSITIONS: list[dict[str, Any]] = [
    {"game": "raiders"}, {"format": 2}, {"phase": "lunch"}, {"turn_cap": 7},
    {"rooms": [None] * 7}, {"rooms": [{"room": "9Z"}] + [None] * 7},
    {"rooms": [{"room": "1A"}, {"room": "1A"}] + [None] * 6},
    {"rooms": [{"room": "1A", "orientation": 4}] + [None] * 7},
    {"rooms": [{"room": "1A", "gates": ["open"]}] + [None] * 7},
    {"tokens": {"W-dragon": {"at": [0, 0]}}}, {"tokens": {"W-troll": {"at": [22, 0]}}},
    {"tokens": {"W-troll": {"at": [3, 3]}}},  # on a face-down slot
    {"tokens": {"W-troll": {"at": [0, 1]}, "W-goblin": {"at": [0, 1]}}},
    {"tokens": {"W-sword": {"at": [0, 1], "wounded": True}}},
    {"tokens": {"W-troll": {"at": [0, 1]}, "W-goblin": {"carrier": "W-troll"}}},
    {"tokens": {"W-troll": {"at": [0, 1]}, "E-goblin": {"carrier": "W-troll",
                                                        "wounded": True}}},
    {"seats": [{"hand": [2, 2]}, {}]}, {"seats": [{"combat": [1, 2]}, {}]},
    {"seats": [{"opened": [["tok.0.1", "troll"]]}, {}]},
    {"facedown": [[[0, 1]]] + [[]] * 7},
    {"phase": "combat"}, {"phase": "put"}, {"private": {"2": {}}},
    {"private": {"0": {"sealed": [["tok.0.1", "troll"]]}}},
    {"phase": "action", "turn": 0},
]


@pytest.mark.parametrize("bad", BAD_POSITIONS, ids=[str(i) for i in range(len(BAD_POSITIONS))])
def test_bad_positions_are_refused(bad: dict[str, Any]) -> None:
    data: dict[str, Any] = {"phase": "action", "turn": 1, "active": 0}
    data.update(bad)
    with pytest.raises(InvalidPositionError) as info:
        from_position(data)
    one_line(info.value)


def test_a_position_reads_back_as_written() -> None:
    state = position({"W-goblin": {"at": [1, 4]}, "W-sword": {"carrier": "W-goblin"},
                      "E-troll": {"at": [2, 4], "wounded": True, "hurt": True}},
                     rooms=layout_l(**{"1A": 2}))
    data = state.to_position()
    assert from_position(json.loads(json.dumps(data))) == state
    assert data["tokens"]["W-sword"] == {"at": [1, 4], "carrier": "W-goblin"}
    assert "private" not in state.to_position(private=False)


# ---------------------------------------------------------------------- views


def test_views_and_the_spectator() -> None:
    run = random_game("views", turn_cap=6)
    state = run.state
    view = state.view(0)
    assert view.seat == 0 and json.loads(json.dumps(view.to_json()))["seat"] == 0
    watcher = state.spectator_view()
    assert watcher.seat == -1 and watcher.legal == () and watcher.mine == {}
    assert "private" not in json.dumps(watcher.to_json()) or watcher.to_json()["position"][
        "private"] == {}
    with pytest.raises(ValueError):
        state.view(2)


def test_transitions_never_change_their_input() -> None:
    seen = 0

    def check(state: Any) -> None:
        nonlocal seen
        w = state.waiting
        if not isinstance(w, Turn) or seen > 200:
            return
        before = copy.deepcopy(state.to_position())
        for action in state.legal_actions(w.seat)[:5]:
            state.apply(w.seat, action)
        assert state.to_position() == before
        seen += 1

    random_game("immutable", turn_cap=8, on_state=check)
    assert seen > 20
