"""The strong Dungeons of Kards bot: the determinized search of :mod:`engine.search` over every
legal action, each played on by the heuristic — in a one-on-one Arena for eight turns (four
rounds), then valued by a model fitted to the heuristic's games; otherwise to the end of the
game, within a node budget — dice and draws answered by a dealer keyed per playout.  Picks come
from a table of duels measured with the engine, gates are the heuristic's.

**Worlds**: everything at the table is public here; the order of the undrawn cards is fixed
nowhere (each draw is a chance event over the cards left), so the view's state — the public
state with this seat's own knowledge — is the world, and what this seat's guardian showed it
answers that draw when it comes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, Final

from engine.core import GameState, Over
from engine.kards.actions import Action
from engine.kards.bots import HeuristicBot, _Context, p_hit
from engine.kards.cards import kind_of
from engine.kards.records import Char, ap_of, attributes, max_life
from engine.kards.state import KardsState
from engine.kards.view import KardsView
from engine.search import SearchBot, World, final_share
from engine.sim import Bot
from engine.stream import HashStream

ITERATIONS: Final = 320  # playouts a decision
HORIZON: Final = 8  # turns a playout looks ahead (this one, then seven more: four rounds)
WIDTH: Final = 0  # the heuristic's best actions searched (0: every legal action)
# The node budget where a playout runs to the end (a table of more seats, the campaign): the
# decisions played in all of a decision's playouts, which keeps it within its second of CPU.
# A one-on-one Arena's playouts of eight turns are short and need none.
DECISIONS: Final = 3000
# The worth of a one-on-one Arena position to a seat, fitted to 67,000 positions of 2,000
# games of the heuristic against itself (a logistic model of the seat's share of the result,
# a draw counting a half): the duel (the log of how many turns the opponent needs to kill this
# seat's character over how many this seat needs, at the figures' attributes now), the life
# left (a share of the maximum, this seat's less the opponent's), restoration and other
# stones, items carried, and the duel again times the share of the rounds played (near the
# round cap a draw looms, whoever is ahead).
_W_DUEL: Final = 0.717
_W_LIFE: Final = 0.602
_W_STONES: Final = 0.377
_W_CARRIED: Final = 0.18
_W_LATE: Final = -0.879
# The one-on-one Arena's picks, measured with the engine (300 games a pairing, both seat
# orders, the heuristic playing both characters to the end): the share of the result the row's
# character takes against the column's.  A playout of a few turns cannot judge a pick (the
# duel is many turns away), so the pick is this table's: the best answer to a character picked
# already, else the character whose worst pairing is best.
PICKS: Final = ("warrior", "knight", "rogue", "mage", "cleric", "ranger")
_DUELS: Final = (
    (0.0, 0.408, 0.510, 0.522, 0.438, 0.538),
    (0.592, 0.0, 0.717, 0.650, 0.630, 0.635),
    (0.490, 0.283, 0.0, 0.470, 0.427, 0.483),
    (0.478, 0.350, 0.530, 0.0, 0.357, 0.455),
    (0.562, 0.370, 0.573, 0.643, 0.0, 0.542),
    (0.462, 0.365, 0.517, 0.545, 0.458, 0.0),
)


class KardsModel:
    """This game's part of the search (:class:`engine.search.Model`)."""

    def __init__(self, horizon: int = HORIZON, width: int = WIDTH,
                 decisions: int = DECISIONS) -> None:
        self.turns = horizon
        self.width = width  # the heuristic's best actions searched (0: every legal action)
        self.decisions = decisions
        self.heuristic = HeuristicBot()

    def node_budget(self, view: KardsView) -> int:
        """The decisions a decision's playouts may play in all (0: no limit): a budget where
        playouts run to the end."""
        return 0 if self.horizon(view) is not None else self.decisions

    def candidates(self, view: KardsView, stream: HashStream) -> Sequence[Action]:
        legal = view.legal
        if len(legal) > 1 and view.state.turn < 1:
            # The set-up: a pick from the table above (one-on-one Arena), else the heuristic's
            # pick and gate (a playout of a few turns cannot judge them).
            if _duel(view.state) and all(a.verb == "pick" for a in legal):
                return (best_pick(view, legal),)
            return (self.heuristic.choose(view, stream.below(2**32).to_bytes(4, "big")),)
        if self.width and len(legal) > self.width:
            ctx = _Context(view)
            scored = sorted(((self.heuristic.score(ctx, a), i) for i, a in enumerate(legal)),
                            key=lambda p: (-p[0], p[1]))
            return tuple(legal[i] for _, i in scored[: self.width])
        return legal

    def world(self, view: KardsView, key: bytes) -> World:
        return World(view.state, dict(view.peeked), {})

    def policy(self, seats: int) -> list[Bot]:
        return [HeuristicBot() for _ in range(seats)]

    def horizon(self, view: KardsView) -> Callable[[GameState[Any]], bool] | None:
        state = view.state
        if not _duel(state) or self.turns <= 0:
            return None
        turn = state.turn

        def stop(s: GameState[Any]) -> bool:
            assert isinstance(s, KardsState)
            return s.turn >= turn + self.turns

        return stop

    def value(self, state: GameState[Any], seat: int) -> float:
        if isinstance(state.waiting, Over):
            return final_share(state, seat)
        assert isinstance(state, KardsState)
        return duel_value(state, seat)


def best_pick(view: KardsView, legal: Sequence[Action]) -> Action:
    """The pick of the table of duels (see ``_DUELS``): against the opponent's character if
    it has picked, else the best worst case; a character not in the table goes last."""
    theirs = [kind_of(c.card) for c in view.characters if c.seat != view.seat and c.card]

    def worth(action: Action) -> float:
        mine = kind_of(action.args[0])
        if mine not in PICKS:
            return -1.0
        row = _DUELS[PICKS.index(mine)]
        if theirs and theirs[0] in PICKS:
            return row[PICKS.index(theirs[0])]
        return min(v for i, v in enumerate(row) if PICKS[i] != mine)

    return max(legal, key=worth)  # (the first of equals: legal order)


def _duel(state: KardsState) -> bool:
    """A one-on-one Arena (the fitted value's game)?"""
    return state.mode == "arena" and state.n == 2 and len(state.chars) == 2


def duel_value(state: KardsState, seat: int) -> float:
    """The fitted worth of a one-on-one Arena position to ``seat`` (see above)."""
    me = next(c for c in state.chars if c.seat == seat)
    them = next(c for c in state.chars if c.seat != seat)
    if not me.card or not them.card:
        return 0.5
    my_life = max(me.life if me.cell >= 0 else 0, 0.01)
    their_life = max(them.life if them.cell >= 0 else 0, 0.01)
    mine = _per_turn(me, them)
    theirs = _per_turn(them, me)
    duel = math.log((my_life / theirs) / (their_life / mine))
    late = state.rounds / state.round_cap if state.round_cap else 0.0
    z = (_W_DUEL * duel + _W_LATE * duel * late
         + _W_LIFE * (my_life / max_life(me.card) - their_life / max_life(them.card))
         + _W_STONES * (len(me.stones) - len(them.stones))
         + _W_CARRIED * (len(me.carried) - len(them.carried)))
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))


def _per_turn(a: Char, b: Char) -> float:
    """The damage ``a`` expects to deal ``b`` in a turn of attacks."""
    atk, _, dmg = attributes(a)
    _, dfn, _ = attributes(b)
    return ap_of(a.card) * p_hit(atk, dfn) * max(1, dmg) + 0.05


def strong_bot(iterations: int = ITERATIONS, horizon: int = HORIZON, width: int = WIDTH,
               decisions: int = DECISIONS) -> SearchBot:
    """The ``strong`` level: the search over this game's model."""
    model = KardsModel(horizon, width, decisions)
    return SearchBot(model, iterations, model.node_budget)
