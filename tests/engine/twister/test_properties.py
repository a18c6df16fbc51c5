"""Invariants over random complete games (random and heuristic bots, the offline dealer for
chance), checked at every state through the public API: random legal play never crashes, every
listed action passes the checked API, positions round-trip, no view or public part ever shows a
face-down token's identity to anyone but its owner, replay equals play, and the game ends under
its turn cap."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import (
    Acted,
    ChanceResolved,
    GameState,
    JointActed,
    Learned,
    Openings,
    Over,
    Simultaneous,
    Turn,
)
from engine.games import replay
from engine.sim import Dealer, play_out
from engine.twister import from_position, make_view, new_game, parse_action
from engine.twister.bots import HeuristicBot, RandomBot
from engine.twister.data import N_CHARACTERS, PER_SEAT, SIDE, THIEF, TOKENS
from engine.twister.rooms import PIT
from tests.tiers import examples

SEEDS = st.integers(min_value=0, max_value=2**32)
CAPS = st.sampled_from((4, 8, 12, 20))
PAIRS = st.sampled_from(("rr", "rh", "hr", "hh"))


class Invariants:
    """Called on every state of one game (``play_out``'s ``on_state``)."""

    def __init__(self, *, every: int = 1, sample: int = 25) -> None:
        self.states = 0
        self.every = every
        self.sample = sample
        self.openings = 0
        self.sealed_seen = 0

    def __call__(self, state: Any) -> None:
        self.states += 1
        w = state.waiting
        for seat in (0, 1):
            legal = state.legal_actions(seat)
            deciding = isinstance(w, Simultaneous | Turn) and seat in w.pending
            assert bool(legal) == deciding, (seat, w)
            step = max(1, len(legal) // self.sample)
            for action in legal[::step]:
                state.check(seat, action)
                text = state.format_action(action)
                assert parse_action(text) == action, text
                assert state.format_action(parse_action(text)) == text
        self.openings += isinstance(w, Openings)
        self._board(state)
        self._leaks(state)
        if self.states % self.every == 0:
            data = state.to_position()
            back = from_position(json.loads(json.dumps(data)))
            assert back == state
            assert back.to_position() == data
            assert state.public().digest() == state.digest()

    @staticmethod
    def _board(state: Any) -> None:
        tokens = state.tokens
        count: dict[int, int] = {}
        standing: dict[int, int] = {}
        for t, tok in enumerate(tokens):
            if tok.carrier >= 0:
                assert tokens[tok.carrier].load == t and tok.at == tokens[tok.carrier].at
            if tok.load >= 0:
                assert tokens[tok.load].carrier == t
            if tok.at < 0:
                continue
            count[tok.at] = count.get(tok.at, 0) + 1
            character = t % PER_SEAT < N_CHARACTERS
            if character and tok.carrier < 0 and not tok.wounded:
                standing[tok.at] = standing.get(tok.at, 0) + 1
            if character and tok.carrier >= 0:
                assert tok.wounded and tok.load < 0
            if character and tok.carrier < 0 and state.board.kinds[tok.at] == PIT:
                rope = any(u % PER_SEAT == 12 for u in state.occupancy()[tok.at])
                assert rope or (t % PER_SEAT == THIEF and not tok.wounded), (t, tok)
        assert all(n <= 2 for n in count.values()), count
        assert all(n <= 1 for n in standing.values()), standing
        vp = [p.vp for p in state.players]
        if state.phase not in ("end_open", "over"):
            assert max(vp) < 5

    def _leaks(self, state: Any) -> None:
        public = state.public_bytes().decode()
        for owner in (0, 1):
            opened = state.opened(owner)
            for slot, kind in state.knowledge[owner].sealed:
                assert slot not in opened
                self.sealed_seen += 1
                name = f'"{SIDE[owner]}-{kind}"'
                assert name not in public, f"{slot} = {kind} leaks in the public part"
                other = owner ^ 1
                text = json.dumps(state.view(other).to_json())
                assert name not in text, f"seat {other} sees {slot} = {kind}"
                assert slot not in state.view(other).mine
        for viewer in (0, 1):
            # A view depends only on the public part and the viewer's own knowledge: the other
            # seat's sealed values dropped and its committed card swapped for another leave it
            # the same (whether a seat has committed is public, as its commitment is).
            other = viewer ^ 1
            k = state.knowledge[other]
            cards = [c for c in state.players[other].combat if c != k.card]
            swapped = k._replace(sealed=(), card=cards[0] if k.card >= 0 and cards else k.card)
            altered = state._copy()
            altered._set(knowledge=tuple(swapped if s == other else mine
                                         for s, mine in enumerate(state.knowledge)))
            assert make_view(altered, viewer).to_json() == state.view(viewer).to_json()
        for slot, placed in enumerate(state.rooms):
            if placed is None:
                for entry in state.facedown[slot]:
                    assert len(entry) == 2  # (seat, n): colour and order only


def bots_for(pair: str) -> list[Any]:
    return [HeuristicBot() if c == "h" else RandomBot() for c in pair]


def play(seed: int, cap: int, pair: str, check: Invariants | None = None) -> Any:
    return play_out(new_game(turn_cap=cap), bots_for(pair), Dealer(f"props/{seed}".encode()),
                    on_state=check)


@settings(max_examples=examples(10), deadline=None)
@given(seed=SEEDS, cap=CAPS, pair=PAIRS)
def test_random_legal_play_keeps_every_invariant(seed: int, cap: int, pair: str) -> None:
    check = Invariants(every=3)
    run = play(seed, cap, pair, check)
    assert run.state.is_over
    assert check.sealed_seen > 0


@settings(max_examples=examples(8), deadline=None)
@given(seed=SEEDS, cap=CAPS, pair=PAIRS)
def test_replay_equals_play(seed: int, cap: int, pair: str) -> None:
    run = play(seed, cap, pair)
    options = {"turn_cap": cap}
    assert replay("twister", run.history, options=options) == run.state
    public = [e for e in run.history if not isinstance(e, Learned)]
    again = replay("twister", public, options=options)
    assert again == run.state.public() and again.digest() == run.state.digest()
    # Halfway: a prefix rebuilds the state it led to (its public part: the record holds joint
    # decisions, which a seat-by-seat game passes through privately).
    half = len(run.history) // 2  # (at an entry that starts a decision or a draw)
    while not isinstance(run.history[half], Acted | JointActed | ChanceResolved):
        half += 1
    states: list[GameState[Any]] = []
    play_out(new_game(turn_cap=cap), bots_for(pair), Dealer(f"props/{seed}".encode()),
             on_state=states.append)
    prefix = replay("twister", run.history[:half], options=options)
    assert any(prefix.public() == s.public() for s in states)


@settings(max_examples=examples(10), deadline=None)
@given(seed=SEEDS, cap=st.sampled_from((2, 4, 6, 10, 16)), pair=PAIRS)
def test_the_game_ends_under_the_turn_cap(seed: int, cap: int, pair: str) -> None:
    run = play(seed, cap, pair)
    w = run.state.waiting
    assert isinstance(w, Over)
    assert 1 <= run.state.turn <= cap
    vp = [s.score for s in w.outcome.standings]
    if "turn cap" in w.outcome.reason:
        assert run.state.turn == cap
        assert w.outcome.winners == ({0} if vp[0] > vp[1] else {1} if vp[1] > vp[0] else set())
    else:
        assert max(vp) >= 5
    turns = sum(1 for e in run.history if isinstance(e, Acted) and e.action.startswith("card"))
    assert turns <= cap
    # Every sealed value was opened before the result.
    opened = [len(p.opened) for p in run.state.players]
    assert opened == [14, 14]
    assert not any(isinstance(e, JointActed) and not e.actions for e in run.history)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(60))
def test_long_sweep_full_games(seed: int) -> None:
    check = Invariants(every=1, sample=1000)
    run = play(seed, 60, ("rr", "rh", "hr", "hh")[seed % 4], check)
    assert run.state.is_over
    assert replay("twister", run.history) == run.state


def test_the_sweep_sees_every_kind_of_action() -> None:
    """Over a few fixed games every kind of action is listed somewhere (else the properties
    above would not exercise it)."""
    seen: set[str] = set()

    def note(state: Any) -> None:
        for seat in (0, 1):
            seen.update(a.kind for a in state.legal_actions(seat))

    for seed in range(4):
        play_out(new_game(turn_cap=40), bots_for(("rr", "hh", "rh", "hr")[seed]),
                 Dealer(f"kinds/{seed}".encode()), on_state=note)
    assert seen >= {"team", "place", "card", "end", "move", "jump", "reveal", "rotate",
                    "attack", "put", "pass", "open", "break"}
    assert TOKENS == 28


def finish_openings(state: Any) -> Any:
    """Every seat opens what it is asked for, from the values this (full) state holds."""
    while isinstance(state.waiting, Openings):
        request = state.waiting.requests[0]
        held = dict(state.knowledge[request.seat].sealed)
        state = state.open_sealed(request.seat, {slot: held[slot] for slot in request.slots})
    return state


@settings(max_examples=examples(6), deadline=None)
@given(seed=SEEDS, pair=PAIRS, every=st.integers(min_value=3, max_value=40))
def test_endings_at_any_moment(seed: int, pair: str, every: int) -> None:
    """Resigning, forfeiting, agreeing a draw or being replaced at any state (mid-combat,
    mid-reveal, in the set-up) opens what is still sealed and then gives the result."""
    count = 0

    def end_here(state: Any) -> None:
        nonlocal count
        count += 1
        if count % every or state.is_over:
            return
        for how in ("resign", "forfeit", "draw", "void"):
            seat = count % 2
            if how == "draw":
                if state.phase == "end_open":
                    continue
                ended = state.agree_draw()
            elif how == "void":
                ended = state.void_sealed(seat)
            else:
                ended = getattr(state, how)(seat)
            position = ended.to_position()
            assert from_position(json.loads(json.dumps(position))) == ended
            done = finish_openings(ended)
            w = done.waiting
            assert isinstance(w, Over), w
            if how in ("resign", "forfeit", "void"):
                assert seat not in w.outcome.winners
            else:
                assert w.outcome.winners == frozenset() or state.phase == "end_open"
            for s in (0, 1):
                if s not in done.ending.forfeited:
                    assert done.unopened(s) == ()

    play(seed, 12, pair, end_here)
