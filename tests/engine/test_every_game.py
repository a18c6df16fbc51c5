"""API invariants every registered game must satisfy (in the spirit of OpenSpiel's
``api_test.py``), run over the registry's games (``engine.games.GAMES``) through the core API
only: what a state waits for and who may act, chance events, notation, checked apply and typed
errors, replay, positions and digests, views and private knowledge, immutability, bots and the
spec."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.core import (
    Chance,
    EngineError,
    GameState,
    IllegalActionError,
    InvalidChanceError,
    NotYourDecisionError,
    OptionSpec,
    Over,
    Simultaneous,
    TimeClass,
    Turn,
    entry_from_json,
    entry_to_json,
)
from engine.games import GAMES as REGISTRY
from engine.games import get_game, replay
from engine.sim import Dealer, bot_key, play_out

GAMES = tuple(sorted(REGISTRY))  # (the registry's: not the toys tests register at run time)


def _options(name: str) -> list[dict[str, Any]]:
    """A few option sets per game: every player count with the defaults."""
    spec = get_game(name)
    out = []
    for players in spec.players:
        opts: dict[str, Any] = {"players": players}
        if spec.variants:
            opts["variant"] = spec.variants[-1 if players % 2 else 0]
        out.append(opts)
    return out


CASES = [(name, opts) for name in GAMES for opts in _options(name)]
IDS = [f"{name}-{'-'.join(f'{k}={v}' for k, v in opts.items())}" for name, opts in CASES]


def _snapshot(state: GameState[Any]) -> Any:
    return (json.dumps(state.to_position(), sort_keys=True), state.digest(), state.waiting,
            [state.legal_actions(s) for s in range(state.seats)])


class Checker:
    """Called on every state of one random game."""

    def __init__(self, name: str, seed: str) -> None:
        self.spec = get_game(name)
        self.dealer = Dealer(seed.encode())
        self.states = 0
        self.decisions = 0

    def __call__(self, state: GameState[Any]) -> None:
        self.states += 1
        heavy = self.states % 4 == 1 or state.is_over  # the costly checks on every 4th state
        before = _snapshot(state)
        w = state.waiting
        n = state.seats
        pending: frozenset[int] = frozenset()
        if isinstance(w, Simultaneous | Turn):
            pending = w.pending
            assert w.step, "a decision has a step name"
        for seat in range(n):
            legal = state.legal_actions(seat)
            if seat in pending:
                self.decisions += 1
                assert isinstance(state.time_class(seat), TimeClass)
                if not state.lists_actions(seat):
                    # Too many to list: none listed, and a bot's pick is checked instead.
                    assert legal == ()
                    bot = self.spec.bots["random"]()
                    legal = (bot.choose(state.view(seat), bot_key(b"x", w.step, seat, 0)),)
                assert legal, f"seat {seat} is pending without a legal action"
                for action in legal if heavy else legal[:2]:
                    state.check(seat, action)
                    text = state.format_action(action)
                    assert state.parse_action(seat, text) == action, text
                    assert state.format_action(state.parse_action(seat, text)) == text
            else:
                assert legal == (), f"seat {seat} is not pending but has {legal}"
                some = _any_action(state)
                if isinstance(w, Turn | Chance | Over) and some is not None:
                    with pytest.raises(NotYourDecisionError):
                        state.apply(seat, some)
            if heavy:
                assert state.view(seat) is not None
        if isinstance(w, Chance):
            event = w.event
            assert event.id and event.outcomes
            assert abs(sum(event.probability for _ in event.outcomes) - 1.0) < 1e-9
            assert event.id in state.upcoming_events()
            with pytest.raises(InvalidChanceError):
                state.apply_chance(event.id + "?", event.outcomes[0])
            with pytest.raises(InvalidChanceError):
                state.apply_chance(event.id, "\x00 no such outcome")
        elif isinstance(w, Over):
            assert state.is_over
            outcome = w.outcome
            assert {st.seat for st in outcome.standings} == set(range(n))
            assert outcome.winners <= set(range(n))
            if outcome.winners:
                assert abs(sum(outcome.share(s) for s in range(n)) - 1.0) < 1e-9
        if not heavy:
            return
        # Positions: the round trip, and the public part.
        data = state.to_position()
        again = self.spec.from_position(json.loads(json.dumps(data)))
        assert again == state and again.digest() == state.digest()
        public = state.public()
        # A spectator's view is of the public part alone (each game's leak tests check it
        # shows no secret).
        watcher = state.spectator_view()
        assert watcher == public.spectator_view()
        json.dumps(watcher.to_json())
        assert public.knowledge_requests() == ()
        assert public.digest() == state.digest()
        assert self.spec.from_position(state.to_position(private=False)) == public
        assert _snapshot(state) == before, "reading a state changed it"


def _any_action(state: GameState[Any]) -> Any:
    """Some well-formed action of the game (the first legal action of any state reached)."""
    for seat in range(state.seats):
        for action in state.legal_actions(seat):
            return action
    return _FIRST_ACTION.get(state.game)


_FIRST_ACTION: dict[str, Any] = {}


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_random_play_keeps_the_api_invariants(name: str, options: dict[str, Any]) -> None:
    spec = get_game(name)
    state = spec.new(**options)
    seed = f"every-game/{name}/{options}"
    checker = Checker(name, seed)
    bots = [spec.bots["random"]() for _ in range(state.seats)]

    def first_action(s: GameState[Any]) -> None:
        if s.game not in _FIRST_ACTION:
            for seat in range(s.seats):
                if s.legal_actions(seat):
                    _FIRST_ACTION[s.game] = s.legal_actions(seat)[0]
                    break
        checker(s)

    run = play_out(state, bots, Dealer(seed.encode()), on_state=first_action)
    assert run.state.is_over
    assert checker.decisions > 0
    again = replay(name, run.history, options=options)
    assert again == run.state and again.digest() == run.state.digest()
    entries = [entry_from_json(json.loads(json.dumps(entry_to_json(e)))) for e in run.history]
    assert entries == run.history


@pytest.mark.parametrize("name", GAMES)
def test_transitions_never_change_their_input(name: str) -> None:
    """Every transition play_out makes (chance, private deals, openings of sealed values,
    decisions one seat at a time, learned knowledge) leaves the state it started from as it
    was: each state is snapshotted when reached and checked again once the next one is."""
    spec = get_game(name)
    options = _options(name)[0]
    state = spec.new(**options)
    seen: list[tuple[GameState[Any], Any]] = []

    def check(s: GameState[Any]) -> None:
        if seen:
            previous, before = seen[-1]
            previous.public()
            previous.to_position(private=False)
            assert _snapshot(previous) == before, f"step {len(seen)} changed its input"
        if len(seen) < 400:
            seen.append((s, _snapshot(s)))

    bots = [spec.bots["random"]() for _ in range(state.seats)]
    play_out(state, bots, Dealer(f"every-game/immutable/{name}".encode()), on_state=check)
    assert len(seen) > 10


class _Reached(Exception):
    def __init__(self, state: GameState[Any]) -> None:
        self.state = state


def first_decision(name: str, seed: bytes,
                   public: bool = False) -> GameState[Any]:
    """The first state of a random game that waits for a decision (chance, private deals and
    openings served as play_out serves them); with ``public``, the first whose decision the
    public state alone can make (a zombie's: not a choice among privately dealt cards)."""
    spec = get_game(name)

    def stop(s: GameState[Any]) -> None:
        w = s.waiting
        if isinstance(w, Simultaneous | Turn) and (not public or any(
                s.public().legal_actions(p) or not s.public().lists_actions(p)
                for p in w.pending)):
            raise _Reached(s)

    bots = [spec.bots["random"]() for _ in range(max(spec.players))]
    state = spec.new(**_options(name)[0])
    try:
        play_out(state, bots[:state.seats], Dealer(seed), on_state=stop)
    except _Reached as reached:
        return reached.state
    raise AssertionError(f"{name}: a game without a decision")


@pytest.mark.parametrize("name", GAMES)
def test_errors_are_typed_and_readable(name: str) -> None:
    state = first_decision(name, b"errors")
    w = state.waiting
    assert isinstance(w, Simultaneous | Turn)
    seat = min(w.pending)
    for text in ("", "dance", "x" * 300, "play play play"):
        with pytest.raises(EngineError) as info:
            state.parse_action(seat, text)
        msg = str(info.value)
        assert msg and "\n" not in msg and len(msg) < 300
    with pytest.raises(IllegalActionError):
        state.apply(seat, "not an action object")


@pytest.mark.parametrize("name", GAMES)
def test_spec_is_complete(name: str) -> None:
    spec = get_game(name)
    assert spec.name == name and spec.title and spec.engine_version.startswith(name + "/")
    assert spec.players and all(p >= 1 for p in spec.players)
    assert "random" in spec.bots
    for option in spec.options:
        assert isinstance(option, OptionSpec) and option.help
        assert option.parse(str(option.default).lower() if isinstance(option.default, bool)
                            else str(option.default)) == option.default
        assert spec.option(option.name) is option
        with pytest.raises(ValueError):
            option.parse("\x00nonsense")
    zombie = spec.zombie() if spec.zombie else spec.bots["random"]()
    state = first_decision(name, b"spec", public=True)
    w = state.waiting
    assert isinstance(w, Simultaneous | Turn)
    seat = min(w.pending)
    action = zombie.choose(state.public().view(seat), bot_key(b"z", w.step, seat, 0))
    state.check(seat, action)
    if state.lists_actions(seat):
        assert action in state.legal_actions(seat)
