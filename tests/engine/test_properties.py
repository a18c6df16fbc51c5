"""Invariants over thousands of random complete games (RandomBot for every seat, the offline
dealer for chance), checked at every state through the public API."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import Chance, Over, Simultaneous, Turn, Visibility
from engine.games import replay
from engine.raiders import format_action
from tests.engine.helpers import ITEM_NAMES, POWER, random_game
from tests.tiers import examples, tiers

BOSSES = frozenset({"tax_collector", "medusa", "vampire", "sphinx", "minotaur", "wolf_pack",
                    "necromancer", "mega_dragon", "golem", "mummy"})
LAYOUTS = {"L1": "UdUdd", "L2": "UddUd", "L3": "UUUUd", "L4": "UUddU", "L5": "UUddd",
           "L6": "UUdUd", "L7": "UdddU"}  # rules reference §2.6
ALL_ROOMS = [(level, pos) for level in range(1, 6) for pos in range(1, 6)]
SIX_EACH = {"torch": 6, "crystal": 6, "key": 6, "sword": 6}
STATUSES = {"winner", "lost", "fainted", "eliminated"}

SEEDS = st.integers(min_value=0, max_value=2**63)
PLAYERS = st.integers(min_value=3, max_value=5)
VARIANTS = st.sampled_from(("basic", "tactical"))


class Invariants:
    """Called on every state of one game (``play_out``'s ``on_state``)."""

    def __init__(self, players: int, variant: str, *, cheap: bool = False) -> None:
        self.cheap = cheap
        self.players = players
        self.tactical = variant == "tactical"
        self.resolved: list[tuple[int, int]] = []
        self.last_card = ""
        self.previous_last: Any = None
        self.states = 0
        self.level_starts = 0

    def __call__(self, state: Any) -> None:
        self.states += 1
        pos = state.to_position()
        seats = pos["seats"]
        assert len(seats) == self.players
        phase = pos["phase"]

        # Counters: coins 0..20, wounds >= 0.
        for s in seats:
            assert 0 <= s["coins"] <= 20, s
            assert s["wounds"] >= 0, s

        # The 24 item cards: supply + hands + table = 6 per type.  On the table: keys and
        # swords until the room is resolved, and tactical crystal balls until the follow-ups.
        total = dict(pos["supply"])
        for s in seats:
            for name, count in s["items"].items():
                total[name] += count
            for card in (s["play"], s["followup"]):
                if card == "key" or card == "sword" or (card == "crystal" and self.tactical):
                    total[card] += 1
        assert total == SIX_EACH, f"{total} at {phase}"

        # Power cards: all back in hand at each level start; at most one per room so far.
        if phase in ("level", "deal"):
            self.level_starts += phase == "level"
            assert all(s["used"] == [] for s in seats), seats
        if phase in ("play", "followup", "enter") and not self.cheap:
            for s in seats:
                here = sum(1 for c in (s["play"], s["followup"]) if c in POWER)
                assert len(s["used"]) <= pos["room"] - 1 + here, (pos["room"], s)
                for c in (s["play"], s["followup"]):
                    if c in POWER:
                        assert int(c) in s["used"]

        # Decisions: every pending seat has a legal action, nobody else has one.
        w = state.waiting
        if not self.cheap and phase in ("play", "followup"):
            expected_decision(pos, w)
        if isinstance(w, Simultaneous | Turn):
            for seat in (w.pending if self.cheap else range(self.players)):
                legal = state.legal_actions(seat)
                if seat in w.pending:
                    assert legal, f"seat {seat} is pending without a legal action"
                    if not self.cheap:
                        got = sorted(format_action(a) for a in legal)
                        assert got == expected_legal(pos, seat), (pos["row"], seat, got)
                else:
                    assert legal == (), f"seat {seat} is not pending but has {legal}"
        elif isinstance(w, Chance):
            outcomes = w.event.outcomes
            assert outcomes and len(set(outcomes)) == len(outcomes), w.event.id
            if ".R" in w.event.id:
                # Face-up positions are public draws at level setup; face-down ones are
                # hidden events turned when the room is entered.
                position = int(w.event.id.rsplit("R", 1)[1])
                face_down = LAYOUTS[pos["layout"]][position - 1] == "d"
                assert (w.event.visibility is Visibility.HIDDEN) is face_down, w.event
                assert phase == ("enter" if face_down else "deal"), (phase, w.event.id)
                if w.event.id == "L5.R5":
                    assert set(outcomes) == BOSSES
                else:
                    assert not set(outcomes) & BOSSES, w.event.id
        else:
            assert isinstance(w, Over)
            assert phase == "over"

        # Room resolutions, counted by the 'last' field changing.
        last = pos["last"]
        if last != self.previous_last:
            assert last is not None
            self.resolved.append((last["level"], last["position"]))
            self.last_card = last["card"]
            self.previous_last = last

    def finish(self, final: Any, *, every_state: bool = True) -> None:
        """Check the finished game (and what was seen on the way, if every state was seen)."""
        assert isinstance(final.waiting, Over)
        pos = final.to_position()
        if every_state:
            assert self.resolved == ALL_ROOMS, self.resolved
            assert self.last_card in BOSSES
            assert self.level_starts == 5
        else:
            self(final)
            assert (pos["last"]["level"], pos["last"]["position"]) == (5, 5)
            assert pos["last"]["card"] in BOSSES
        outcome = final.waiting.outcome
        standings = sorted(outcome.standings, key=lambda st_: st_.seat)
        assert [st_.seat for st_ in standings] == list(range(self.players))
        assert all(st_.status in STATUSES for st_ in standings)
        assert outcome.winners == {st_.seat for st_ in standings if st_.status == "winner"}
        if outcome.winners:
            assert abs(sum(outcome.share(s) for s in range(self.players)) - 1.0) < 1e-9
        assert len(pos["rooms"]) == 6  # six room cards were never drawn
        assert len(pos["level_cards"]) == 2  # two level cards were never drawn
        assert all(s["used"] == [] for s in pos["seats"])
        assert all(s["play"] is None and s["followup"] is None for s in pos["seats"])
        for name in ITEM_NAMES:
            assert pos["supply"][name] + sum(s["items"][name] for s in pos["seats"]) == 6


MONSTERS = {"snake", "zombie", "skeleton", "goblin", "thing", "troll", "dragon"}


def category(card_id: str) -> str:
    """The room type of a card id, from the rules reference §2 (copies are numbered "#k")."""
    kind = card_id.split("#")[0]
    if kind in BOSSES:
        return "boss"
    if kind in MONSTERS:
        return "monster"
    if kind.startswith("treasure"):
        return "treasure"
    if kind.startswith("vault"):
        return "vault"
    assert kind in {"lava", "magnetic", "spikes", "boulder"}, card_id
    return "trap"


def expected_legal(pos: dict[str, Any], seat: int) -> list[str]:
    """The legal actions by rulings 1–4, 19 (an oracle independent of the engine)."""
    me = pos["seats"][seat]
    card = pos["row"][pos["room"] - 1]
    room = category(card)
    out = [f"play {c}" for c in POWER if int(c) not in me["used"]]
    held = me["items"]
    if held["torch"]:
        out.append("play torch")
        if "down" in pos["row"]:
            out.append("torch")  # a peek needs a face-down room left (ruling 19)
    if held["crystal"] and pos["phase"] == "play":
        out.append("play crystal")  # never as a follow-up (ruling 3)
    if held["key"] and (room == "treasure" or card == "mega_dragon"):
        out.append("play key")
    if held["sword"] and room in ("monster", "boss"):
        out.append("play sword")
    return sorted(out)


def expected_decision(pos: dict[str, Any], w: Any) -> None:
    """Who decides now (§3.3, §3.6): every seat, the ball users, or one seat in turn."""
    n = pos["players"]
    seats = pos["seats"]
    balls = [s for s in range(n) if seats[s]["play"] == "crystal"]
    if pos["variant"] == "tactical":
        order = [(pos["map"] + i) % n for i in range(n)]
        if pos["phase"] == "followup":
            order = [s for s in order if s in balls]
        assert isinstance(w, Turn) and w.seat == order[pos["turn"]], (w, pos["turn"])
        return
    assert isinstance(w, Simultaneous)
    deciders = set(range(n)) if pos["phase"] == "play" else set(balls)
    committed = {int(k) for k, v in pos["private"].items() if v.get("pending")}
    assert w.seats == deciders and w.committed == committed, (w, deciders, committed)
    assert pos["row"][pos["room"] - 1] != "necromancer" or pos["phase"] == "play"


@settings(max_examples=examples(300), deadline=None, database=None)
@given(seed=SEEDS, players=PLAYERS, variant=VARIANTS)
def test_random_games_keep_every_invariant(seed: int, players: int, variant: str) -> None:
    checker = Invariants(players, variant)
    run = random_game(seed, players, variant, on_state=checker)
    checker.finish(run.state)
    # replay(history) reproduces the state and its digest.
    again = replay("raiders", run.history, options={"players": players, "variant": variant})
    assert again == run.state
    assert again.digest() == run.state.digest()
    # The same dealer seed and bot seeds give the same game, observed or not.
    unobserved = random_game(seed, players, variant, record=False)
    assert unobserved.state.digest() == run.state.digest()
    assert unobserved.state == run.state


@pytest.mark.parametrize("games", tiers(300, 2000))
def test_thousands_of_seeded_games(games: int) -> None:
    """Fixed seeds (300 in the default run, 2,000 in the slow tier): the final-state invariants
    of every game, and the cheap per-state invariants at every state of every other game."""
    for i in range(games):
        players = 3 + i % 3
        variant = ("basic", "tactical")[i // 3 % 2]
        checker = Invariants(players, variant, cheap=True)
        if i % 2:
            run = random_game(f"loop/{i}", players, variant, record=False)
            checker.finish(run.state, every_state=False)
        else:
            run = random_game(f"loop/{i}", players, variant, on_state=checker, record=False)
            checker.finish(run.state)
