"""Views leak nothing (rules reference §8).  Everything at the table is public but the order of
undrawn cards — which the engine never fixes, so it cannot leak — and the Friendly guardian's
peek, which only the seat that looked may know.  At every state of many games, and of games
forced through a peek: each seat's view is a function of the public part and its own knowledge
alone; another seat's peek never shows in it, nor in the spectator's view or the public part."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from engine.core import Chance
from engine.kards import from_position
from engine.kards.bots import RandomBot
from engine.sim import Dealer, play_out
from tests.engine.kards.helpers import MODES, act, load, mode_id, random_game, roll


class LeakCheck:
    def __init__(self, every: int = 1) -> None:
        self.every = every
        self.states = 0
        self.peeks_seen = 0

    def __call__(self, state: Any) -> None:
        self.states += 1
        if self.states % self.every and not state.to_position().get("private"):
            return
        p = state.to_position()
        private = p.get("private", {})
        public = state.to_position(private=False)
        assert "private" not in public
        assert public == {k: v for k, v in p.items() if k != "private"}
        public_state = from_position(public)
        assert state.spectator_view() == public_state.spectator_view()
        assert state.spectator_view().peeked == ()
        for viewer in range(state.seats):
            view = state.view(viewer)
            mine = private.get(str(viewer))
            if mine is None:
                assert view.peeked == () and view.owed == ()
                assert view == public_state.view(viewer)
                continue
            self.peeks_seen += bool(mine.get("seen"))
            assert dict(view.peeked) == mine.get("seen", {})
            only_mine = copy.deepcopy(p)
            only_mine["private"] = {str(viewer): mine}
            assert from_position(only_mine).view(viewer) == view
            for other in range(state.seats):
                if other != viewer:
                    assert state.view(other).peeked == () or str(other) in private
        for key, knowledge in private.items():
            for event, card in knowledge.get("seen", {}).items():
                # Swapping the peeked card for another it could have been changes no other
                # seat's view, the spectator's, or the digest.
                top = p["orange"]["top_event"]
                assert top is not None and top["id"] == event and card in top["outcomes"]
                other_card = next((c for c in top["outcomes"] if c != card), card)
                swapped = copy.deepcopy(p)
                swapped["private"][key]["seen"][event] = other_card
                again = from_position(swapped)
                assert again.digest() == state.digest()
                for other in range(state.seats):
                    if str(other) != key:
                        assert json.dumps(again.view(other).to_json()) == json.dumps(
                            state.view(other).to_json())


@pytest.mark.parametrize("options", MODES, ids=[mode_id(m) for m in MODES])
def test_views_leak_nothing(options: dict[str, Any]) -> None:
    check = LeakCheck(every=3)
    random_game(f"leaks/{mode_id(options)}", options, on_state=check, record=False)
    assert check.states > 50


# Just before a level-2 event roll in a 3-player Arena: the peek is one roll away.
PEEK: dict[str, Any] = {
    "players": 3,
    "map": [["D01", 0, 0], ["D02", 6, 0], ["D03", 0, 6], ["D04", 6, 6], ["D06", 1, 0],
            ["D07", 0, 1], ["D26", 5, 0], ["D23", 6, 1], ["D20", 0, 5], ["D17", 1, 6]],
    "characters": [{"card": "warrior", "at": [1, 0]}, {"card": "mage", "at": [6, 0]},
                   {"card": "rogue", "at": [6, 6]}],
    "events_done": 1,
    "stack": [["end"], ["event", 2]],
}


@pytest.mark.parametrize("seed", range(6))
def test_a_peek_stays_private_through_the_rest_of_the_game(seed: int) -> None:
    state = load(PEEK)
    assert state.upcoming_events() == ("T1.1.event", "O1")
    state = roll(state, "2", "event")
    (request,) = state.knowledge_requests()
    assert request.seat == 0 and request.events == ("O1",)
    dealer = Dealer(f"leaks/peek/{seed}".encode())
    shown = state.preview_hidden(dealer.choose)
    state = state.learn(0, shown)
    check = LeakCheck()
    check(state)
    assert check.peeks_seen == 1
    run = play_out(state, [RandomBot() for _ in range(3)], dealer, on_state=check,
                   record=False)
    assert run.state.is_over
    # The peeked card was the one drawn as O1 (the dealer poses it identically).
    assert check.states > 5


def test_learn_is_checked() -> None:
    state = roll(load(PEEK), "2", "event")
    top = state.to_position()["orange"]["top_event"]
    with pytest.raises(ValueError, match="owed"):
        state.learn(1, {"O1": top["outcomes"][0]})
    with pytest.raises(ValueError, match="owed"):
        state.learn(0, {"O2": top["outcomes"][0]})
    with pytest.raises(ValueError, match="cannot be"):
        state.learn(0, {"O1": "D05"})
    with pytest.raises(ValueError, match="no seat"):
        state.learn(5, {"O1": top["outcomes"][0]})
    learned = state.learn(0, {"O1": top["outcomes"][0]})
    with pytest.raises(ValueError, match="owed no"):
        learned.learn(0, {"O1": top["outcomes"][0]})


def test_the_peeked_card_is_drawn_as_the_hidden_event() -> None:
    state = roll(load(PEEK), "2", "event")
    shown = state.preview_hidden(lambda event: event.outcomes[3])
    state = state.learn(0, shown)
    # The Warrior's end window; then the Mage (seat 1) explores and draws O1.
    state = act(state, "end") if state.legal_actions(0) else state
    while not (isinstance(state.waiting, Chance) and state.waiting.event.id == "O1"):
        w = state.waiting
        if isinstance(w, Chance):
            outcome = "D26" if w.event.id.startswith("G") and "D26" in w.event.outcomes else \
                w.event.outcomes[0]
            state = state.apply_chance(w.event.id, outcome)
            continue
        seat = w.seat  # type: ignore[union-attr]
        options = [state.format_action(a) for a in state.legal_actions(seat)]
        choice = "explore" if "explore" in options else options[0]
        state = state.apply(seat, state.parse_action(seat, choice))
    event = state.waiting.event
    assert event.visibility.value == "hidden" and tuple(
        state.to_position()["orange"]["top_event"]["outcomes"]) == event.outcomes
    assert state.preview_hidden(lambda e: e.outcomes[3]) == shown
    after = state.apply_chance("O1", shown["O1"])
    assert after.knowledge_requests() == () and after.view(0).peeked == ()
    assert after.to_position()["orange"]["top_event"] is None
