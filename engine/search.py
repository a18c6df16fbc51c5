"""Determinized Monte-Carlo search: the searching bot every game's ``strong`` level is built on.

The bot reads one seat's view and nothing else.  Each **world** is a full game state the view
allows: the game's model samples what the seat cannot see (another seat's items or sealed
tokens, the order of a deck) consistently with what it can, and names the chance outcomes the
seat already knows (a face-down card its torch showed).  For each candidate action the search
plays on in many worlds — the candidate first, then every seat by the game's playout policy,
chance answered by a dealer keyed by the world — to the end of the game or to the model's
horizon, where the model values the state for the seat.  The candidate with the best mean wins.

The budget is split by **sequential halving** (Karnin, Koren and Somekh, 2013): every
candidate still in the race is played on in the same new worlds, with the same dice and the
same playout keys (common random numbers: two candidates are compared on identical luck), and
after each round the worse half drops out.  This is a rollout algorithm in Bertsekas' sense — a
one-step lookahead over the playout policy — which, with enough samples, plays at least as well
as that policy does, and better wherever the policy errs in the first step.  Simultaneous steps
need nothing more: the other seats' plays are the playout policy's, from their own view of the
world, so the search never reads a play it could not see.

Every random choice comes from the seat's hash stream (the key it is given), and the budget is
a number of playouts, never a time: the same view and key give the same action on every
machine.  Nothing here names a game; :class:`Model` is what a game supplies.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, Protocol

from engine.core import GameState, Outcome, Over
from engine.sim import Bot, Dealer, play_out
from engine.stream import HashStream, derive_key


class World(NamedTuple):
    """A full state the view allows, the chance outcomes the seat already knows (event id ->
    outcome: a hidden card it has seen), and the values each seat sealed before it (seat ->
    slot -> value), which the playout opens when the rules ask."""

    state: GameState[Any]
    known: dict[str, str]
    sealed: dict[int, dict[str, str]]


class Model(Protocol):
    """What a game gives the search."""

    def candidates(self, view: Any, stream: HashStream) -> Sequence[Any]:
        """The actions worth searching, best first by the game's own judgement (ties in the
        search go to the earlier one); a subset of ``view.legal`` or of the seat's legal
        actions."""
        ...

    def world(self, view: Any, key: bytes) -> World:
        """A world the view allows, its hidden parts sampled from ``key``'s stream."""
        ...

    def policy(self, seats: int) -> list[Bot]:
        """The playout policy of every seat (fresh bots)."""
        ...

    def horizon(self, view: Any) -> Callable[[GameState[Any]], bool] | None:
        """Where a playout from this view stops (None: at the end of the game)."""
        ...

    def value(self, state: GameState[Any], seat: int) -> float:
        """What ``state`` is worth to ``seat``: its share of the win at the end, an estimate
        at the horizon."""
        ...


def share(outcome: Outcome, seat: int) -> float:
    """The seat's share of a result: 1/k of a k-way win, and of a draw among k seats (a
    standing ``draw`` or ``drawn``), else 0."""
    if outcome.winners:
        return outcome.share(seat)
    drawn = [s.seat for s in outcome.standings if s.status in ("draw", "drawn")]
    return 1 / len(drawn) if seat in drawn else 0.0


def final_share(state: GameState[Any], seat: int) -> float:
    """``share`` for a finished state; ValueError before the end."""
    w = state.waiting
    if not isinstance(w, Over):
        raise ValueError("the game is not over")
    return share(w.outcome, seat)


class _First:
    """Plays ``action`` at its first decision, then as ``then`` does."""

    def __init__(self, action: Any, then: Bot) -> None:
        self.action = action
        self.then = then
        self.name = getattr(then, "name", "bot")
        self.reads_view = True
        self._done = False

    def choose(self, view: Any, key: bytes) -> Any:
        if not self._done:
            self._done = True
            return self.action
        return self.then.choose(view, key)


def halving(count: int, budget: int, evaluate: Callable[[int, int], float], *,
            cost: Callable[[], int] | None = None, limit: int = 0) -> list[int]:
    """Sequential halving over ``count`` arms within about ``budget`` evaluations:
    ``evaluate(arm, sample)`` is called for every arm still in the race on the same samples
    (0, 1, 2, … shared by all arms), and after each round the worse half drops out.  Returns
    the arms best first: the survivor, then the others by the round they dropped out in and
    their mean then; ties go to the lower arm.

    With ``cost`` (what the evaluations so far have cost, in whole units) and ``limit``, the
    evaluations also stay within about ``limit`` of cost: each round first plays one sample,
    then as many more as the cost per evaluation measured so far affords in the round's share
    of what is left (integer arithmetic: the same arms on every machine)."""
    alive = list(range(count))
    totals = [0.0] * count
    counts = [0] * count
    dropped: list[int] = []
    rounds = max(1, math.ceil(math.log2(count))) if count > 1 else 0
    spent = sample = 0

    def play(j: int) -> None:
        for arm in alive:
            totals[arm] += evaluate(arm, j)
            counts[arm] += 1

    for r in range(rounds):
        per = max(1, (budget - spent) // (len(alive) * (rounds - r)))
        done = 0
        if cost is not None:
            play(sample)
            done = 1
            spent_cost = cost()
            afford = (limit - spent_cost) * (spent + len(alive)) // max(
                1, spent_cost * len(alive) * (rounds - r))
            per = max(1, min(per, 1 + afford))
        for j in range(sample + done, sample + per):
            play(j)
        sample += per
        spent += per * len(alive)
        alive.sort(key=lambda a: (-totals[a] / counts[a], a))
        keep = (len(alive) + 1) // 2
        dropped = alive[keep:] + dropped
        alive = alive[:keep]
    return alive + dropped


class SearchBot:
    """The searching bot (see the module docstring): ``iterations`` playouts a decision,
    split among the model's candidates by sequential halving — and, with ``decisions`` (the
    view's node budget, 0 for none), no more playouts than about that many decisions played
    in them all afford (where a playout is long, a many-seat table played to the end, fewer
    playouts)."""

    name = "strong"
    searches = True  # (benchmarks: a table of searching bots is too slow to self-play)

    def __init__(self, model: Model, iterations: int,
                 decisions: Callable[[Any], int] | None = None) -> None:
        self.model = model
        self.iterations = iterations
        self.decisions = decisions

    def choose(self, view: Any, key: bytes) -> Any:
        stream = HashStream(derive_key(b"cryptcrawl/search/v1", key))
        candidates = list(self.model.candidates(view, stream))
        if not candidates:
            raise ValueError(f"seat {view.seat} has no decision")
        if len(candidates) == 1:
            return candidates[0]
        return candidates[self.rank(view, key, candidates)[0]]

    def rank(self, view: Any, key: bytes, candidates: Sequence[Any]) -> list[int]:
        """The candidates' indexes, best first, after the search."""
        model = self.model
        seat: int = view.seat
        worlds: list[World] = []
        horizon = model.horizon(view)
        played = [0]  # the decisions played in the playouts so far

        def playout(arm: int, sample: int) -> float:
            while len(worlds) <= sample:
                worlds.append(model.world(view, derive_key(key, b"world", str(len(worlds)))))
            world = worlds[sample]
            bots = model.policy(world.state.seats)
            bots[seat] = _First(candidates[arm], bots[seat])
            luck = derive_key(key, b"luck", str(sample))
            seeds = [derive_key(luck, str(s)) for s in range(len(bots))]
            run = play_out(world.state, bots, Dealer(luck, world.known), bot_seeds=seeds,
                           record=False, sealed=world.sealed, until=horizon)
            played[0] += run.decisions
            return model.value(run.state, seat)

        limit = self.decisions(view) if self.decisions is not None else 0
        if not limit:
            return halving(len(candidates), self.iterations, playout)
        return halving(len(candidates), self.iterations, playout,
                       cost=lambda: played[0], limit=limit)


__all__ = ["Model", "SearchBot", "World", "final_share", "halving", "share"]
