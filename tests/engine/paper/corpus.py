"""A corpus of states from seeded random games (plan steps in particular), built once."""

from __future__ import annotations

import functools
from typing import Any

from engine.core import GameState, Simultaneous
from engine.paper import PaperState, new_game
from engine.paper.actions import Plan, Use
from engine.paper.bots import RandomBot, zombie_bot
from engine.paper.plans import die_uses, usable_dice
from engine.paper.resolve import Work
from engine.sim import Dealer, play_out
from engine.stream import HashStream

GAMES = ((1, {}), (3, {"missing_gems": True}), (2, {"missions": False}), (5, {}),
         (4, {"story": "urban-heroes", "chapter": 2}), (1, {"missions": False}))


@functools.cache
def states() -> tuple[PaperState, ...]:
    """Every state of a few seeded games (random and zombie bots mixed)."""
    out: list[GameState[Any]] = []
    for g, (players, options) in enumerate(GAMES):
        bots = [RandomBot() if (g + i) % 2 else zombie_bot() for i in range(players)]
        play_out(new_game(players, **options), bots, Dealer(b"corpus%d" % g),
                 on_state=out.append)
    found = [s for s in out if isinstance(s, PaperState)]
    return tuple(found)


@functools.cache
def plan_states() -> tuple[tuple[PaperState, int], ...]:
    """(state, seat) for every seat still to decide a plan step in the corpus."""
    out = []
    for s in states():
        w = s.waiting
        if isinstance(w, Simultaneous) and w.step.endswith(".plan"):
            out.extend((s, seat) for seat in sorted(w.pending))
    return tuple(out)


def random_plan(state: PaperState, seat: int, stream: HashStream) -> tuple[Plan, Work]:
    """A random legal plan from the generator, with the work it leaves."""
    view = state.view(seat)
    w = Work(view.sheet, state.board)
    dice = list(usable_dice(view.roll))
    uses: list[Use] = []
    for _ in range(3):
        d = dice.pop(stream.below(len(dice)))
        options = die_uses(w, d, view.roll[d - 1])
        u, w = options[stream.below(len(options))]
        uses.append(u)
    return Plan(tuple(uses)), w


def in_generator(state: PaperState, seat: int, plan: Plan) -> bool:
    """Whether the generator lists ``plan`` (use by use, in its die order)."""
    view = state.view(seat)
    dice = [u.die for u in plan.uses]
    if len(set(dice)) != 3 or any(not 1 <= d <= 6 for d in dice):
        return False
    w = Work(view.sheet, state.board)
    for u in plan.uses:
        if view.roll[u.die - 1] == "skull":
            return False
        for option, after in die_uses(w, u.die, view.roll[u.die - 1]):
            if option == u:
                w = after
                break
        else:
            return False
    return True
