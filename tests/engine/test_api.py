"""The public API of the Dungeon Raiders engine: notation, typed errors, positions, digests,
replay and immutability."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from engine.core import (
    Acted,
    Chance,
    EngineError,
    IllegalActionError,
    InvalidActionError,
    InvalidChanceError,
    InvalidKnowledgeError,
    InvalidPositionError,
    JointActed,
    NotYourDecisionError,
    Over,
    Record,
    Simultaneous,
    Turn,
    entry_from_json,
    entry_to_json,
)
from engine.games import get_game, replay
from engine.raiders import (
    PEEK,
    PLAY,
    Action,
    RaidersState,
    format_action,
    from_position,
    new_game,
    parse_action,
)
from engine.raiders.bots import RandomBot
from engine.sim import Dealer, bot_key
from tests.engine.helpers import dealer_for, play, play_joint, position, random_game

A, B, C, D = range(4)

ALL_ACTIONS = (*PLAY.values(), PEEK)


def one_line(exc: BaseException) -> str:
    msg = str(exc)
    assert msg and "\n" not in msg and len(msg) < 300, repr(msg)
    return msg


# A basic 4-player position: level 1, room 2 (a troll), L1 = U d U d d.
BASE: dict[str, Any] = {
    "game": "raiders", "format": 1, "players": 4, "variant": "basic",
    "phase": "play", "level": 1, "room": 2, "layout": "L1",
    "row": ["zombie#1", "troll#1", "treasure-3", "down", "down"],
    "seats": [
        {"character": "warrior", "coins": 3, "wounds": 0, "used": [1]},
        {"character": "wizard", "coins": 1, "wounds": 1, "items": {"crystal": 2}, "used": [2]},
        {"character": "explorer", "coins": 4, "wounds": 2, "items": {"torch": 1}, "used": [5]},
        {"character": "knight", "coins": 1, "wounds": 1, "items": {"sword": 1}, "used": [3]},
    ],
}

TACTICAL: dict[str, Any] = {**BASE, "variant": "tactical", "map": C, "turn": 0}


def base() -> RaidersState:
    return from_position(copy.deepcopy(BASE))


# ====================================================================== notation


@pytest.mark.parametrize("action", ALL_ACTIONS, ids=format_action)
def test_notation_round_trip(action: Action) -> None:
    text = format_action(action)
    assert parse_action(text) == action
    assert str(action) == text
    assert eval(repr(action), {"Action": Action}) == action
    assert base().format_action(action) == text


def test_canonical_notation() -> None:
    assert [format_action(a) for a in ALL_ACTIONS] == [
        "play 1", "play 2", "play 3", "play 4", "play 5", "play torch", "play crystal",
        "play key", "play sword", "torch"]


@pytest.mark.parametrize(("text", "action"), [
    ("4", PLAY["4"]), ("1", PLAY["1"]), ("crystal", PLAY["crystal"]), ("ball", PLAY["crystal"]),
    ("crystal ball", PLAY["crystal"]), ("play ball", PLAY["crystal"]), ("key", PLAY["key"]),
    ("sword", PLAY["sword"]), ("peek", PEEK), ("torch", PEEK), ("use torch", PEEK),
    ("  PLAY   Sword ", PLAY["sword"]), ("Play 3", PLAY["3"]), ("PEEK", PEEK),
])
def test_notation_aliases(text: str, action: Action) -> None:
    assert parse_action(text) == action


@pytest.mark.parametrize("text", [
    "", "   ", "play", "play 0", "play 6", "6", "jump", "play dagger", "4 4", "play torch now",
    "x" * 500,
])
def test_unknown_text_raises_invalid_action(text: str) -> None:
    with pytest.raises(InvalidActionError) as info:
        parse_action(text)
    msg = one_line(info.value)
    assert "unknown action" in msg
    with pytest.raises(InvalidActionError):
        base().parse_action(A, text)


@pytest.mark.parametrize("value", [None, 4, b"play 4", ["play 4"]])
def test_non_text_raises_invalid_action(value: Any) -> None:
    with pytest.raises(InvalidActionError) as info:
        parse_action(value)
    one_line(info.value)


def test_action_values_are_validated() -> None:
    with pytest.raises(InvalidActionError):
        Action("play", "6")
    with pytest.raises(InvalidActionError):
        Action("dance")
    with pytest.raises(InvalidActionError):
        Action("peek", "4")


def test_error_hierarchy() -> None:
    assert issubclass(InvalidActionError, EngineError) and issubclass(InvalidActionError,
                                                                      ValueError)
    assert issubclass(IllegalActionError, EngineError)
    assert issubclass(NotYourDecisionError, IllegalActionError)
    for cls in (InvalidChanceError, InvalidKnowledgeError, InvalidPositionError):
        assert issubclass(cls, EngineError) and issubclass(cls, ValueError)


def test_checked_parse_rejects_illegal_actions() -> None:
    state = base()
    with pytest.raises(IllegalActionError) as info:
        state.parse_action(A, "play 1")  # already played this level
    one_line(info.value)
    with pytest.raises(IllegalActionError) as info:
        state.parse_action(A, "play key")
    one_line(info.value)
    assert state.parse_action(A, "4") == PLAY["4"]


def test_apply_rejects_non_actions() -> None:
    with pytest.raises(IllegalActionError):
        base().apply(A, "play 4")  # type: ignore[arg-type]


# ====================================================================== whose decision


def test_committed_seat_cannot_decide_again() -> None:
    state = play(base(), A, "4")
    w = state.waiting
    assert isinstance(w, Simultaneous) and w.committed == frozenset({A})
    assert state.legal_actions(A) == ()
    with pytest.raises(NotYourDecisionError) as info:
        state.apply(A, PLAY["5"])
    assert "committed" in one_line(info.value)


def test_seat_out_of_range() -> None:
    for seat in (-1, 4, 9):
        assert base().legal_actions(seat) == ()
        with pytest.raises(NotYourDecisionError):
            base().apply(seat, PLAY["4"])


def test_tactical_wrong_seat() -> None:
    state = from_position(copy.deepcopy(TACTICAL))
    assert state.waiting == Turn("L1.R2.play.2", C)
    with pytest.raises(NotYourDecisionError) as info:
        state.apply(A, PLAY["4"])
    one_line(info.value)
    with pytest.raises(NotYourDecisionError):
        state.apply_joint({A: PLAY["4"], C: PLAY["4"]})
    after = state.apply_joint({C: PLAY["4"]})
    assert after == state.apply(C, PLAY["4"])


def test_no_decision_while_chance_or_over() -> None:
    chance = new_game(3, "basic")
    assert isinstance(chance.waiting, Chance)
    with pytest.raises(NotYourDecisionError) as info:
        chance.apply(A, PLAY["1"])
    one_line(info.value)
    with pytest.raises(NotYourDecisionError):
        chance.apply_joint({A: PLAY["1"]})
    over = random_game("api/over", 3, "basic", record=False).state
    assert isinstance(over.waiting, Over)
    assert all(over.legal_actions(s) == () for s in range(3))
    with pytest.raises(NotYourDecisionError):
        over.apply(A, PLAY["1"])


def test_joint_needs_exactly_the_pending_seats() -> None:
    state = base()
    with pytest.raises(NotYourDecisionError) as info:
        state.apply_joint({A: PLAY["4"], B: PLAY["4"], C: PLAY["4"]})
    one_line(info.value)
    partial = play(state, A, "4")
    with pytest.raises(NotYourDecisionError):
        play_joint(partial, {A: "5", B: "1", C: "1", D: "1"})
    after = play_joint(partial, {B: "1", C: "1", D: "1"})
    assert position(after)["last"]["plays"] == ["4", "1", "1", "1"]


def test_joint_holds_cards_only() -> None:
    with pytest.raises(IllegalActionError):
        base().apply_joint({A: PLAY["4"], B: PLAY["4"], C: PEEK, D: PLAY["4"]})


def test_check_joint_refuses_what_the_joint_apply_refuses() -> None:
    """Of the actions ``check`` accepts, ``check_joint`` refuses those ``apply_joint`` refuses
    as a seat's part of a joint decision: a card is a part, a peek (legal on its own, as a
    free action) is not."""
    state = base()
    state.check(C, PEEK)  # legal on its own
    with pytest.raises(IllegalActionError) as info:
        state.check_joint(C, PEEK)
    one_line(info.value)
    with pytest.raises(IllegalActionError):
        state.apply_joint({A: PLAY["4"], B: PLAY["4"], C: PEEK, D: PLAY["4"]})
    state.check(C, PLAY["4"])
    state.check_joint(C, PLAY["4"])


def test_joint_equals_one_by_one() -> None:
    cards = {A: "4", B: "crystal", C: "3", D: "sword"}
    joint = play_joint(base(), cards)
    single = base()
    for seat, text in cards.items():
        single = play(single, seat, text)
    assert joint == single
    assert joint.digest() == single.digest()


# ====================================================================== chance


def test_chance_errors() -> None:
    state = new_game(3, "basic")
    w = state.waiting
    assert isinstance(w, Chance)
    event = w.event
    with pytest.raises(InvalidChanceError) as info:
        state.apply_chance("L1.level", event.outcomes[0])
    one_line(info.value)
    with pytest.raises(InvalidChanceError) as info:
        state.apply_chance(event.id, "bard")
    one_line(info.value)
    with pytest.raises(InvalidChanceError):
        base().apply_chance("L1.R4", "goblin#1")  # a decision is pending, not chance
    assert state.apply_chance(event.id, event.outcomes[0]) != state


def test_chance_events_have_distinct_equally_likely_outcomes() -> None:
    state = new_game(5, "tactical")
    dealer = Dealer(b"tests/api/chance")
    while isinstance(state.waiting, Chance):
        event = state.waiting.event
        assert len(set(event.outcomes)) == len(event.outcomes)
        assert event.probability == pytest.approx(1 / len(event.outcomes))
        state = state.apply_chance(event.id, dealer.choose(event))


# ====================================================================== knowledge


def _peeked() -> RaidersState:
    return base().apply(C, PEEK)


def test_learn_errors() -> None:
    state = _peeked()
    (request,) = state.knowledge_requests()
    assert request.seat == C and request.events == ("L1.R4", "L1.R5")
    with pytest.raises(InvalidKnowledgeError) as info:
        state.learn(A, {"L1.R4": "goblin#1", "L1.R5": "goblin#2"})  # A is owed nothing
    one_line(info.value)
    with pytest.raises(InvalidKnowledgeError):
        state.learn(C, {"L1.R4": "goblin#1"})  # one event missing
    with pytest.raises(InvalidKnowledgeError):
        state.learn(C, {"L1.R4": "goblin#1", "L1.R5": "goblin#2", "L1.R3": "snake"})
    with pytest.raises(InvalidKnowledgeError):
        state.learn(C, {"L1.R4": "zombie#1", "L1.R5": "goblin#2"})  # already in the row
    with pytest.raises(InvalidKnowledgeError):
        state.learn(C, {"L1.R4": "goblin#1", "L1.R5": "goblin#1"})  # the same card twice
    with pytest.raises(InvalidKnowledgeError):
        state.learn(C, {"L1.R4": "medusa", "L1.R5": "goblin#2"})  # a boss outside L5.R5
    with pytest.raises(InvalidKnowledgeError):
        state.learn(7, {"L1.R4": "goblin#1", "L1.R5": "goblin#2"})
    learned = state.learn(C, {"L1.R4": "goblin#1", "L1.R5": "goblin#2"})
    assert learned.knowledge_requests() == ()
    with pytest.raises(InvalidKnowledgeError):
        learned.learn(C, {"L1.R4": "goblin#1", "L1.R5": "goblin#2"})  # nothing owed any more


# ====================================================================== positions


def test_position_is_json_and_round_trips() -> None:
    state = _peeked().learn(C, {"L1.R4": "goblin#1", "L1.R5": "goblin#2"})
    state = play(state, A, "4")
    data = state.to_position()
    again = from_position(json.loads(json.dumps(data)))
    assert again == state
    assert again.digest() == state.digest()
    assert again.to_position() == data


def test_position_defaults() -> None:
    state = base()
    data = state.to_position()
    assert data["supply"] == {"torch": 5, "crystal": 4, "key": 6, "sword": 5}
    assert data["level_cards"] == ["L2", "L3", "L4", "L5", "L6", "L7"]
    assert len(data["rooms"]) == 27
    assert "treasure-3" not in data["rooms"] and "zombie#1" not in data["rooms"]
    # A room may be named by its kind; the first free copy is used.
    by_kind = from_position({**copy.deepcopy(BASE),
                             "row": ["zombie", "troll", "treasure-3", "down", "down"]})
    assert by_kind == state


def test_round_trip_at_every_state_of_random_games() -> None:
    """from_position(to_position(s)) == s with equal digests, for every state reached."""
    failures: list[str] = []

    def check(s: Any) -> None:
        if s.is_over:
            return  # the finished game has its own test below
        data = s.to_position()
        try:
            again = from_position(json.loads(json.dumps(data)))
            public = from_position(s.to_position(private=False))
        except InvalidPositionError as exc:
            failures.append(f"{data['phase']}: {exc}")
            return
        if again != s or again.digest() != s.digest():
            failures.append(f"{data['phase']}: not equal after the round trip")
        if public != s.public() or public.digest() != s.digest():
            failures.append(f"{data['phase']}: public round trip differs")

    for i in range(12):
        random_game(f"api/round/{i}", 3 + i % 3, ("basic", "tactical")[i // 3 % 2],
                    on_state=check)
    assert not failures, f"{len(failures)} states fail the round trip, e.g. {failures[:3]}"


def test_round_trip_of_a_finished_game() -> None:
    final = random_game("api/final", 4, "basic", record=False).state
    assert isinstance(final.waiting, Over)
    again = from_position(final.to_position())
    assert again == final
    assert again.digest() == final.digest()


def _with(path: str, value: Any, data: dict[str, Any] | None = None) -> dict[str, Any]:
    """A deep copy of ``data`` (default BASE) with ``path`` ("seats.0.coins") set."""
    out = copy.deepcopy(data if data is not None else BASE)
    keys = path.split(".")
    target: Any = out
    for k in keys[:-1]:
        target = target[int(k)] if isinstance(target, list) else target[k]
    last_key = keys[-1]
    if isinstance(target, list):
        target[int(last_key)] = value
    else:
        target[last_key] = value
    return out


def _without(key: str) -> dict[str, Any]:
    out = copy.deepcopy(BASE)
    del out[key]
    return out


INVALID: list[tuple[str, Any]] = [
    ("not an object", ["raiders"]),
    ("another game", _with("game", "chess")),
    ("unknown format", _with("format", 2)),
    ("2 players", _with("players", 2)),
    ("6 players", _with("players", 6)),
    ("players as text", _with("players", "4")),
    ("seats do not match players", _with("players", 5)),
    ("seats missing", _without("seats")),
    ("unknown variant", _with("variant", "advanced")),
    ("unknown phase", _with("phase", "dance")),
    ("level 6", _with("level", 6)),
    ("room 6", _with("room", 6)),
    ("unknown layout", _with("layout", "L9")),
    ("row of 4", _with("row", ["zombie#1", "troll#1", "treasure-3", "down"])),
    ("duplicate characters", _with("seats.1.character", "warrior")),
    ("unknown character", _with("seats.1.character", "bard")),
    ("no character", _with("seats.1.character", "")),
    ("7 torches in one hand", _with("seats.0.items", {"torch": 7})),
    ("more than 6 crystal balls in all", _with("seats.0.items", {"crystal": 5})),
    ("unknown item", _with("seats.0.items", {"dagger": 1})),
    ("supply disagrees", _with("supply", {"torch": 6, "crystal": 4, "key": 6, "sword": 5})),
    ("coins above 20", _with("seats.0.coins", 21)),
    ("negative coins", _with("seats.0.coins", -1)),
    ("negative wounds", _with("seats.0.wounds", -1)),
    ("coins as text", _with("seats.0.coins", "3")),
    ("two power cards used before room 2", _with("seats.0.used", [1, 2])),
    ("a power card used twice", _with("seats.0.used", [1, 1])),
    ("power card 6", _with("seats.0.used", [6])),
    ("eliminated before the end", _with("seats.0.eliminated", True)),
    ("unknown room card", _with("row.1", "hydra")),
    ("a third dragon", _with("row.1", "dragon#3")),
    ("the same card twice", _with("row.1", "zombie#1")),
    ("a boss before level 5", _with("row.1", "medusa")),
    ("face-down position named before it is entered", _with("row.3", "goblin#1")),
    ("face-up position written down", _with("row.2", "down")),
    ("entered position written down", _with("row.1", "down")),
    ("face-down position left empty", _with("row.4", None)),
    ("a revealed room card in a basic play step", _with("seats.0.play", "4")),
    ("a follow-up without a crystal ball", _with("seats.0.followup", "4")),
    ("a map in the basic game", _with("map", 0)),
    ("the tactical game without a map", _with("variant", "tactical")),
    ("a turn in the basic game", _with("turn", 1)),
    ("tactical seats before the turn have not played", _with("turn", 2, TACTICAL)),
    ("a pending card in the tactical game",
     _with("private", {"2": {"pending": "4"}}, TACTICAL)),
    ("a pending illegal card", _with("private", {"0": {"pending": "key"}})),
    ("a pending card already used", _with("private", {"0": {"pending": "1"}})),
    ("every seat has committed",
     _with("private", {str(s): {"pending": "4"} for s in range(4)})),
    ("private knowledge for a seat that does not exist", _with("private", {"7": {}})),
    ("a peek of a face-up room", _with("private", {"2": {"seen": {"L1.R3": "snake"}}})),
    ("a peek showing a card already in the row",
     _with("private", {"2": {"seen": {"L1.R4": "zombie#1"}}})),
    ("a room card both undrawn and in the row", _with("rooms", ["zombie#1", "snake"])),
    ("the current level card still undrawn", _with("level_cards", ["L1", "L2"])),
    ("a given 'rooms' of the wrong size", _with("rooms", ["snake", "skeleton", "thing"])),
    ("a given 'level_cards' of the wrong size", _with("level_cards", ["L2", "L3"])),
    ("a boss named in 'rooms'", _with("rooms", ["medusa"])),
]


@pytest.mark.parametrize(("name", "data"), INVALID, ids=[name for name, _ in INVALID])
def test_invalid_positions(name: str, data: Any) -> None:
    with pytest.raises(InvalidPositionError) as info:
        from_position(data)
    assert one_line(info.value).startswith("invalid position")


def test_base_position_is_valid() -> None:
    # The table above changes one thing each in this valid position.
    state = base()
    assert isinstance(state.waiting, Simultaneous)
    from_position(copy.deepcopy(TACTICAL))


def test_registered_game() -> None:
    spec = get_game("raiders")
    assert spec.players == (3, 4, 5)
    assert spec.variants == ("basic", "tactical")
    assert spec.from_position(copy.deepcopy(BASE)) == base()
    with pytest.raises(ValueError):
        new_game(6)
    with pytest.raises(ValueError):
        new_game(4, "advanced")


# ====================================================================== public part and digest


def test_digest_covers_only_the_public_part() -> None:
    four = play(base(), A, "4")
    five = play(base(), A, "5")
    assert four != five
    assert four.digest() == five.digest()
    assert four.public_bytes() == five.public_bytes()
    assert four.public() == five.public()
    peeked = _peeked()
    learned = peeked.learn(C, {"L1.R4": "goblin#1", "L1.R5": "goblin#2"})
    other = peeked.learn(C, {"L1.R4": "snake", "L1.R5": "thing"})
    assert learned != other
    assert learned.digest() == other.digest() == peeked.digest()


def test_public_strips_knowledge() -> None:
    state = play(_peeked().learn(C, {"L1.R4": "goblin#1", "L1.R5": "goblin#2"}), A, "4")
    assert state.to_position()["private"] != {}
    public = state.public()
    assert public.to_position()["private"] == {}
    assert public.to_position(private=False) == state.to_position(private=False)
    assert public.digest() == state.digest()
    assert public.view(A).pending == ""
    assert all(r.peeked == "" for r in public.view(C).row)
    assert state.view(A).pending == "4"
    # The public state still knows that A has committed.
    w = public.waiting
    assert isinstance(w, Simultaneous)


def test_public_digest_changes_with_public_facts() -> None:
    state = base()
    assert state.digest() != state.apply(C, PEEK).digest()  # a torch use is public
    assert len(state.digest()) == 32


# ====================================================================== replay and records


@pytest.mark.parametrize(("players", "variant"), [(3, "basic"), (4, "tactical"),
                                                  (5, "basic"), (5, "tactical")])
def test_replay_reproduces_the_game(players: int, variant: str) -> None:
    run = random_game(f"api/replay/{players}/{variant}", players, variant)
    again = replay("raiders", run.history, options={"players": players, "variant": variant})
    assert again == run.state
    assert again.digest() == run.state.digest()
    # The history survives JSON.
    entries = [entry_from_json(json.loads(json.dumps(entry_to_json(e)))) for e in run.history]
    assert entries == run.history
    assert replay("raiders", entries,
                  options={"players": players, "variant": variant}).digest() == run.state.digest()


def test_replay_from_a_position() -> None:
    start = base()
    history = [Acted(A, "play 4"), JointActed(((B, "play crystal"), (C, "play 3"),
                                               (D, "play sword"))), Acted(B, "play 5")]
    state = replay("raiders", history, start=start)
    assert position(state)["last"]["followups"] == ["", "5", "", ""]


def test_record_prefixes_replay_to_the_same_states() -> None:
    """Drive a game with engine.core.Record (joint steps, peeks, knowledge) and check that every
    prefix of its history replays to the state reached at that point."""
    for seed, (players, variant) in enumerate([(4, "basic"), (3, "tactical")]):
        dealer = Dealer(f"tests/api/record/{seed}".encode())
        bot = RandomBot()
        rec = Record(new_game(players, variant))
        checkpoints: list[tuple[int, Any]] = [(0, rec.state)]
        while not rec.state.is_over:
            w = rec.state.waiting
            if isinstance(w, Chance):
                rec.resolve(w.event.id, dealer.choose(w.event))
            elif isinstance(w, Turn):
                key = bot_key(b"record", w.step, w.seat, 0)
                rec.act(w.seat, bot.choose(rec.state.view(w.seat), key))
            else:
                assert isinstance(w, Simultaneous)
                choices = {s: bot.choose(rec.state.view(s), bot_key(b"record", w.step, s, 0))
                           for s in sorted(w.pending)}
                peeks = [s for s, a in choices.items() if a == PEEK]
                if peeks:
                    rec.act(peeks[0], PEEK)
                else:
                    rec.act_joint(choices)
            for request in rec.state.knowledge_requests():
                preview = rec.state.preview_hidden(dealer.choose)
                rec.learn(request.seat, {e: preview[e] for e in request.events})
            checkpoints.append((len(rec.history), rec.state))
        for n, state in checkpoints[:: max(1, len(checkpoints) // 25)] + checkpoints[-1:]:
            again = replay("raiders", rec.history[:n],
                           options={"players": players, "variant": variant})
            assert again == state, f"prefix of {n} entries"


# ====================================================================== immutability


def _snapshot(state: RaidersState) -> Any:
    return (json.dumps(state.to_position(), sort_keys=True), state.digest(), state.waiting,
            [json.dumps(state.view(s).to_json(), sort_keys=True) for s in range(state.seats)],
            [state.legal_actions(s) for s in range(state.seats)],
            state.knowledge_requests(), hash(state))


def test_apply_never_mutates_the_input_state() -> None:
    for seed, (players, variant) in enumerate([(3, "basic"), (4, "tactical"), (5, "basic")]):
        dealer = dealer_for(f"api/immutable/{seed}")
        state = new_game(players, variant)
        steps = 0
        while not state.is_over:
            before = _snapshot(state)
            w = state.waiting
            if isinstance(w, Chance):
                nxt = state.apply_chance(w.event.id, dealer.choose(w.event))
                with pytest.raises(InvalidChanceError):
                    state.apply_chance(w.event.id + "x", w.event.outcomes[0])
            else:
                assert isinstance(w, Simultaneous | Turn)
                seat = min(w.pending)
                legal = state.legal_actions(seat)
                action = legal[(steps * 7) % len(legal)]
                nxt = state.apply(seat, action)
                for bad in (PLAY["key"], PLAY["sword"], PLAY["crystal"]):
                    if bad not in legal:
                        with pytest.raises(IllegalActionError):
                            state.apply(seat, bad)
                if isinstance(w, Simultaneous) and action != PEEK and len(w.pending) > 0:
                    joint = {s: state.legal_actions(s)[0] for s in w.pending}
                    state.apply_joint(joint)
                for request in nxt.knowledge_requests():
                    preview = nxt.preview_hidden(dealer.choose)
                    knowledge = {e: preview[e] for e in request.events}
                    peeked_before = _snapshot(nxt)
                    learned = nxt.learn(request.seat, knowledge)
                    assert _snapshot(nxt) == peeked_before
                    nxt = learned
            state.public()
            state.to_position(private=False)
            assert _snapshot(state) == before, f"step {steps} mutated its input"
            state = nxt
            steps += 1
