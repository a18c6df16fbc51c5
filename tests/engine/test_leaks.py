"""Views leak nothing (ruling 27): at every state of many random games and for every seat,
``view(seat)`` holds no face-down room the seat did not see by torch, no other seat's committed
card, and no other seat's hand — only the public table, the seat's own hand and knowledge.

The offline dealer answers every chance event from its seed and the event id, so
``state.preview_hidden(dealer.choose)`` names the cards that the face-down rooms will turn out
to be.  Room ids are unique ("zombie#1"), so each can be searched for in the view's JSON.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from engine.core import InvalidPositionError
from engine.raiders import PEEK, from_position
from tests.engine.helpers import POWER, dealer_for, play, random_game

CASES = [(i, 3 + i % 3, ("basic", "tactical")[i // 3 % 2]) for i in range(36)]


class LeakCheck:
    def __init__(self, seed: str, players: int) -> None:
        self.dealer = dealer_for(seed)
        self.players = players
        self.checked = 0
        self.hidden_seen = 0
        self.peeks_seen = 0
        self.pending_seen = 0

    def __call__(self, state: Any) -> None:
        pos = state.to_position()
        private = pos["private"]
        hidden = state.preview_hidden(self.dealer.choose)
        self.hidden_seen += bool(hidden)
        altered: dict[int, Any] = {}
        for viewer in range(self.players):
            mine = private.get(str(viewer), {})
            seen = dict(mine.get("seen") or {})
            self.peeks_seen += bool(seen)
            view = state.view(viewer)
            data = view.to_json()
            text = json.dumps(data)
            self.checked += 1

            # Face-down rooms: absent unless this seat's torch showed them.
            for event, card in hidden.items():
                if event in seen:
                    assert seen[event] == card, "a peek showed another card than the room"
                else:
                    assert f'"{card}"' not in text, (
                        f"seat {viewer} sees face-down {event} = {card}")
            row_events = {r.position: f"L{pos['level']}.R{r.position}" for r in view.row}
            for r in view.row:
                if r.state == "down":
                    assert r.card == ""
                    assert r.peeked == seen.get(row_events[r.position], "")
                else:
                    assert r.peeked == ""
                if r.state == "empty":
                    assert r.card == ""

            # Own hand and pending card; only counts for the others.
            me = pos["seats"][viewer]
            power = [c for c in POWER if int(c) not in me["used"]]
            items = [name for name, k in me["items"].items() for _ in range(k)]
            assert sorted(view.hand) == sorted(power + items)
            assert view.pending == (mine.get("pending") or "")
            assert view.legal == state.legal_actions(viewer)
            for s, sv in enumerate(view.seats):
                assert isinstance(sv.items, int) and isinstance(sv.hand_size, int)
                assert sv.items == sum(pos["seats"][s]["items"].values())
            for entry in data["seats"]:
                # Only 'used' (the power cards face up on the table) is a list.
                scalars = entry[:6] + entry[7:]
                assert not any(isinstance(x, list | dict) for x in scalars), entry

            # The view depends only on the public part and the viewer's own knowledge: it
            # stays the same when every other seat's secrets are changed.
            others = {k: v for k, v in private.items() if k != str(viewer)}
            if others:
                self.pending_seen += any(v.get("pending") for v in others.values())
                if viewer not in altered:
                    altered[viewer] = from_position(other_secrets(pos, viewer))
                assert altered[viewer].view(viewer) == view, (
                    f"seat {viewer}'s view depends on another seat's private knowledge")
        self.spectator(state, pos, hidden)

    def spectator(self, state: Any, pos: dict[str, Any], hidden: dict[str, str]) -> None:
        """A spectator's view: the public table, no seat's secrets (not even a torch's)."""
        view = state.spectator_view()
        assert view == state.public().spectator_view()
        text = json.dumps(view.to_json())
        for event, card in hidden.items():
            assert f'"{card}"' not in text, f"a spectator sees face-down {event} = {card}"
        assert view.seat == -1 and view.to_json()["seat"] is None
        assert view.hand == () and view.pending == "" and view.legal == ()
        assert all(r.peeked == "" for r in view.row)
        for secret in pos["private"].values():
            if secret.get("pending"):
                assert all(sv.play != secret["pending"] or sv.status == "revealed"
                           for sv in view.seats)
        self.checked += 1


def other_secrets(pos: dict[str, Any], viewer: int) -> dict[str, Any]:
    """``pos`` with every other seat's torch knowledge dropped and its committed card swapped
    for another card it could have committed (if it has one)."""
    out = copy.deepcopy(pos)
    for key, secret in pos["private"].items():
        if key == str(viewer):
            continue
        out["private"][key] = {"pending": secret.get("pending"), "owed": [], "seen": {}}
        pending = secret.get("pending")
        if not pending:
            continue
        seat = pos["seats"][int(key)]
        candidates = [c for c in POWER if int(c) not in seat["used"]]
        candidates += [name for name, k in seat["items"].items() if k]
        for card in candidates:
            if card == pending:
                continue
            out["private"][key]["pending"] = card
            try:
                from_position(out)
            except InvalidPositionError:
                continue
            break
        else:
            out["private"][key]["pending"] = pending
    return out


@pytest.mark.parametrize(("index", "players", "variant"), CASES,
                         ids=[f"{i}-{p}p-{v}" for i, p, v in CASES])
def test_views_leak_nothing(index: int, players: int, variant: str) -> None:
    seed = f"leaks/{index}"
    check = LeakCheck(seed, players)
    random_game(seed, players, variant, on_state=check, record=False)
    assert check.checked > 100 * players
    assert check.hidden_seen > 0


def test_the_leak_check_sees_peeks_and_pending_cards() -> None:
    """Across the games above, torches were used and cards were pending (the check is live)."""
    peeks = pending = 0
    for index, players, variant in CASES[:12]:
        check = LeakCheck(f"leaks/{index}", players)
        random_game(f"leaks/{index}", players, variant, on_state=check, record=False)
        peeks += check.peeks_seen
        pending += check.pending_seen
    assert peeks > 0 and pending > 0


def test_peeked_rooms_stay_private() -> None:
    """A targeted case: the explorer peeks; only its own view names the rooms it saw."""
    data = {
        "game": "raiders", "format": 1, "players": 3, "variant": "basic",
        "phase": "play", "level": 1, "room": 1, "layout": "L5",
        "row": ["zombie#1", "treasure-3", "down", "down", "down"],
        "seats": [{"character": "explorer", "items": {"torch": 1}},
                  {"character": "warrior"}, {"character": "thief", "items": {"key": 1}}],
    }
    dealer = dealer_for("leaks/peek")
    state = from_position(data).apply(0, PEEK)
    preview = state.preview_hidden(dealer.choose)
    state = state.learn(0, preview)
    state = play(state, 1, "3")  # B's committed card is private too
    own = json.dumps(state.view(0).to_json())
    for card in preview.values():
        assert f'"{card}"' in own
    for viewer in (1, 2):
        text = json.dumps(state.view(viewer).to_json())
        for card in preview.values():
            assert f'"{card}"' not in text
    assert state.view(1).pending == "3"
    assert state.view(0).pending == "" and state.view(2).pending == ""
    assert state.view(0).seats[1].status == "committed"
    assert state.view(0).seats[1].play == ""
    watcher = json.dumps(state.spectator_view().to_json())
    for card in preview.values():
        assert f'"{card}"' not in watcher
    assert state.spectator_view().pending == ""


def test_a_planted_spectator_leak_is_caught() -> None:
    """The spectator check is live: a view that passes one seat's torch through fails it."""
    state = from_position({
        "game": "raiders", "format": 1, "players": 3, "variant": "basic",
        "phase": "play", "level": 1, "room": 1, "layout": "L5",
        "row": ["zombie#1", "treasure-3", "down", "down", "down"],
        "seats": [{"character": "explorer", "items": {"torch": 1}},
                  {"character": "warrior"}, {"character": "thief"}]}).apply(0, PEEK)
    dealer = dealer_for("leaks/planted")
    preview = state.preview_hidden(dealer.choose)
    state = state.learn(0, preview)
    check = LeakCheck("leaks/planted", 3)

    class Leaky:  # (the engine's classes may be compiled: a stand-in, not a subclass)
        def spectator_view(self) -> Any:
            return state.view(0)

        def public(self) -> Any:
            return self

    check.spectator(state, state.to_position(), preview)
    with pytest.raises(AssertionError, match="face-down"):
        check.spectator(Leaky(), state.to_position(), preview)
