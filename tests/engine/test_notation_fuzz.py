"""The notation of every game, fuzzed through the path the client takes a typed move by
(:func:`engine.core.read_move`, which the line mode, the full screen and the offline game call
before anything reaches the engine's apply or the protocol): any text, random or a legal move
mutated, is refused with the engine's own error or is a legal move whose public part every peer
can apply and whose sealed values are exactly those the public action seals — never another
exception (issue 48: ``place 2`` without its token ended the program)."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import (
    GameState,
    IllegalActionError,
    InvalidActionError,
    Simultaneous,
    Turn,
    read_move,
)
from engine.games import GAMES, get_game
from engine.sim import Dealer, bot_key, play_out
from tests.tiers import examples

NAMES = tuple(sorted(GAMES))
PLAYERS = {"raiders": 3, "kards": 3, "twister": 2, "paper": 2}


@cache
def decisions(name: str) -> tuple[tuple[GameState[Any], int, tuple[str, ...]], ...]:
    """Decision points of one random game of ``name``, a few of each phase: (the state, the
    seat deciding, some of its legal moves as text)."""
    spec = get_game(name)
    states: list[GameState[Any]] = []
    play_out(spec.new(players=PLAYERS[name]), [spec.bots["random"]() for _ in
                                               range(PLAYERS[name])],
             Dealer(f"fuzz {name}".encode()), on_state=states.append)
    seen: dict[str, int] = {}
    out = []
    for state in states:
        w = state.waiting
        if not isinstance(w, Simultaneous | Turn):
            continue
        seat = min(w.pending)
        phase = f"{type(w).__name__} {getattr(state, 'phase', '')} {w.step.split('.')[-1]}"
        if seen.get(phase, 0) >= 3:
            continue
        seen[phase] = seen.get(phase, 0) + 1
        if state.lists_actions(seat):
            moves = tuple(state.format_action(a) for a in state.legal_actions(seat)[:40])
        else:
            bot = spec.bots["random"]()
            moves = tuple(state.format_action(bot.choose(state.view(seat),
                                                         bot_key(b"f", w.step, seat, i)))
                          for i in range(3))
        out.append((state, seat, moves))
    return tuple(out)


def _taken(state: GameState[Any], seat: int, text: str) -> None:
    """Refused in words, or legal in every way the match takes it."""
    try:
        canonical = read_move(state, seat, text)
    except (InvalidActionError, IllegalActionError) as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    public, values = state.split_private(seat, canonical)
    shared = state.public()
    action = shared.parse_action(seat, public)
    assert tuple(slot for slot, _ in values) == tuple(shared.sealed_by(seat, action))
    shared.apply(seat, action)  # (every peer can apply it)
    assert read_move(state, seat, canonical) == canonical


def _mutate(data: st.DataObject, text: str) -> str:
    words = text.split()
    how = data.draw(st.sampled_from(("drop", "swap", "repeat", "cut", "char", "join")))
    if how == "drop" and words:
        del words[data.draw(st.integers(0, len(words) - 1))]
    elif how == "swap" and len(words) > 1:
        i = data.draw(st.integers(0, len(words) - 2))
        words[i], words[i + 1] = words[i + 1], words[i]
    elif how == "repeat" and words:
        i = data.draw(st.integers(0, len(words) - 1))
        words.insert(i, words[i])
    elif how == "cut":
        return text[:data.draw(st.integers(0, len(text)))]
    elif how == "char" and text:
        i = data.draw(st.integers(0, len(text) - 1))
        return text[:i] + data.draw(st.sampled_from(" ,;:/-0123456789xyzWE?\x00é")) + text[i + 1:]
    return " ".join(words)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=examples(200))
@given(data=st.data())
def test_mutated_legal_moves_are_refused_or_legal(name: str, data: st.DataObject) -> None:
    points = decisions(name)
    state, seat, moves = data.draw(st.sampled_from(points))
    text = data.draw(st.sampled_from(moves))
    for _ in range(data.draw(st.integers(1, 3))):
        text = _mutate(data, text)
    _taken(state, seat, text)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=examples(200))
@given(data=st.data(), text=st.text(max_size=40))
def test_random_text_is_refused_or_legal(name: str, data: st.DataObject, text: str) -> None:
    state, seat, _ = data.draw(st.sampled_from(decisions(name)))
    _taken(state, seat, text)


@pytest.mark.parametrize("name", NAMES)
def test_public_forms_of_private_moves_are_refused(name: str) -> None:
    """A move typed without its private part (Dungeon Twister's ``place 2``, Paper Dungeons'
    setup choice without its objective) is refused in the game's words."""
    for state, seat, moves in decisions(name):
        for text in moves:
            public, values = state.split_private(seat, read_move(state, seat, text))
            if values:
                with pytest.raises(InvalidActionError):
                    read_move(state, seat, public)


def test_twister_place_without_a_token_is_refused_in_words() -> None:
    state = next(s for s, _, moves in decisions("twister") if moves[0].startswith("place"))
    seat = state.waiting.seat
    with pytest.raises(InvalidActionError) as refused:
        read_move(state, seat, "place 2")
    assert str(refused.value) == "place needs a slot and a token, e.g. place 2 rope"
