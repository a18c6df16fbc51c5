"""``turned_next``: which face-down room a simultaneous step turns next, and who may still
decide before it (the protocol reveals that room's secrets early only when nobody may)."""

from __future__ import annotations

import hashlib
import itertools
from typing import Any

import pytest

from engine.core import Chance, GameState, Over, Simultaneous, Turn, Visibility
from engine.raiders import new_game
from engine.sim import Dealer
from engine.stream import sample_index
from tests.engine.helpers import items


def joint(state: GameState[Any], key: bytes) -> dict[int, Any]:
    w = state.waiting
    assert isinstance(w, Simultaneous)
    # Card plays only (a torch peek is a free action taken before the step's card).
    out = {}
    for s in sorted(w.pending):
        cards = [a for a in state.legal_actions(s) if a.kind != "peek"]
        out[s] = cards[sample_index(key + bytes([s]), len(cards))]
    return out


def until_decision_or_turn(state: GameState[Any], dealer: Dealer) -> GameState[Any]:
    """Resolve face-up chance events (not a hidden one: that is what we look for)."""
    while isinstance(state.waiting, Chance) and state.waiting.event.visibility is not (
            Visibility.HIDDEN):
        state = state.apply_chance(state.waiting.event.id, dealer.choose(state.waiting.event))
    return state


@pytest.mark.parametrize(("players", "seed"), list(itertools.product((3, 4, 5), range(6))))
def test_the_named_room_comes_next_whatever_is_played(players: int, seed: int) -> None:
    dealer = Dealer(b"turned-next-%d" % seed)
    state: GameState[Any] = new_game(players)
    named = checked = 0
    for n in itertools.count():
        w = state.waiting
        if isinstance(w, Over):
            break
        if isinstance(w, Chance):
            state = state.apply_chance(w.event.id, dealer.choose(w.event))
            continue
        assert isinstance(w, Simultaneous)
        turned = state.turned_next()
        if turned is not None:
            event, deciding = turned
            named += 1
            if w.step.endswith(".play"):
                holders = {s for s in range(players) if items(state, s)["crystal"]}
                assert deciding == holders
            else:
                assert deciding == frozenset()
            # Whatever the seats play, the next chance event is that face-down room, and
            # only seats it names decide before it.
            for attempt in range(4):
                key = hashlib.sha256(b"%d/%d/%d" % (seed, n, attempt)).digest()
                after = until_decision_or_turn(state.apply_joint(joint(state, key)), dealer)
                while isinstance(after.waiting, Simultaneous | Turn):
                    assert after.waiting.seats <= deciding, (w.step, after.waiting)
                    after = until_decision_or_turn(
                        after.apply_joint(joint(after, key + b"f")), dealer)
                assert isinstance(after.waiting, Chance), (w.step, after.waiting)
                assert after.waiting.event.id == event
                assert after.waiting.event.visibility is Visibility.HIDDEN
                checked += 1
        key = hashlib.sha256(b"%d/%d" % (seed, n)).digest()
        state = state.apply_joint(joint(state, key))
    assert named >= 3 and checked == 4 * named


def test_the_tactical_variant_never_names_one() -> None:
    dealer = Dealer(b"tactical")
    state: GameState[Any] = new_game(4, "tactical")
    decisions = 0
    while not isinstance(state.waiting, Over) and decisions < 200:
        w = state.waiting
        if isinstance(w, Chance):
            state = state.apply_chance(w.event.id, dealer.choose(w.event))
            continue
        assert state.turned_next() is None
        assert isinstance(w, Turn)
        key = hashlib.sha256(b"t%d" % decisions).digest()
        cards = [a for a in state.legal_actions(w.seat) if a.kind != "peek"]
        state = state.apply(w.seat, cards[sample_index(key, len(cards))])
        decisions += 1
    assert decisions > 20
