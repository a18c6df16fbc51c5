"""The strong Dungeon Twister bot: the determinized search of :mod:`engine.search` over the
heuristic's best few actions, each played on to the start of the seat's next turn (the rest of
its own turn, then the opponent's whole turn, by the heuristic) and valued there.

**Worlds**: the view's state already holds the whole public table and the seat's own sealed
values; what the seat cannot see is the opponent's face-down tokens (and, before the teams are
opened, its team), and the face-down rooms, which nobody knows and the playout's dealer draws
when they are revealed.  The opponent's unopened tokens get the kinds it has not shown yet, at
random (characters on its starting squares).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, Final

from engine.core import GameState, Over
from engine.search import SearchBot, World, final_share
from engine.sim import Bot
from engine.stream import HashStream
from engine.twister.actions import Action
from engine.twister.bots import HeuristicBot, _Ctx
from engine.twister.data import CHARACTERS, KINDS
from engine.twister.state import TwisterState
from engine.twister.view import TwisterView

ITERATIONS: Final = 48  # playouts a decision
WIDTH: Final = 6  # the heuristic's best actions searched
_SCALE: Final = 15.0  # evaluation units per logit
_VP: Final = 12.0  # a victory point, in the evaluation's units (weighted steps)


def world_of(view: TwisterView, key: bytes) -> World:
    """A full state that ``view`` allows (see the module docstring)."""
    stream = HashStream(key)
    state = view.state
    me = view.seat
    other = me ^ 1
    mine = dict(state.knowledge[me].sealed) if me >= 0 else {}
    slots = state.unopened(other)
    if not slots:
        return World(state, {}, {me: mine} if mine else {})
    shown = {kind for _, kind in state.players[other].opened}
    left = [k for k in KINDS if k not in shown]
    for i in range(len(left) - 1, 0, -1):
        j = stream.below(i + 1)
        left[i], left[j] = left[j], left[i]
    starts = [s for s in slots if s.startswith("start.")]
    values: dict[str, str] = {}
    for slot in starts:  # characters on the starting squares
        kind = next(k for k in left if k in CHARACTERS)
        left.remove(kind)
        values[slot] = kind
    for slot in slots:
        if slot not in values:
            values[slot] = left.pop()
    world = state.learn(other, values)
    return World(world, {}, {me: mine, other: values})


def evaluation(state: TwisterState, seat: int) -> float:
    """The heuristic's judgement of ``state`` for ``seat``, in weighted steps: the VP lead and
    how near each side's characters stand to the enemy's line."""
    vp = state.players[seat].vp - state.players[seat ^ 1].vp
    return _VP * vp + HeuristicBot._board_score(state, state.board, seat) - \
        HeuristicBot._board_score(state, state.board, seat ^ 1)


class TwisterModel:
    """This game's part of the search (:class:`engine.search.Model`)."""

    def __init__(self, width: int = WIDTH) -> None:
        self.width = width
        self.heuristic = HeuristicBot()

    def candidates(self, view: TwisterView, stream: HashStream) -> Sequence[Action]:
        legal = view.legal
        phase = view.state.phase
        if len(legal) <= 1:
            return legal
        if phase in ("team", "place"):  # set-up: the heuristic's placements
            return (self.heuristic.choose(view, stream.below(2**32).to_bytes(4, "big")),)
        if phase in ("card", "combat"):
            return legal
        ctx = _Ctx(view)
        h = self.heuristic
        score = h._put_value if phase == "put" else h._value
        scored = sorted(((score(ctx, a), i) for i, a in enumerate(legal)),
                        key=lambda p: (-p[0], p[1]))
        return tuple(legal[i] for _, i in scored[: self.width])

    def world(self, view: TwisterView, key: bytes) -> World:
        return world_of(view, key)

    def policy(self, seats: int) -> list[Bot]:
        return [HeuristicBot() for _ in range(seats)]

    def horizon(self, view: TwisterView) -> Callable[[GameState[Any]], bool] | None:
        turn = view.state.turn
        if turn <= 0:
            return None

        def stop(state: GameState[Any]) -> bool:
            assert isinstance(state, TwisterState)
            return state.turn >= turn + 2 and not state.ending.reason

        return stop

    def value(self, state: GameState[Any], seat: int) -> float:
        if isinstance(state.waiting, Over):
            return final_share(state, seat)
        assert isinstance(state, TwisterState)
        return 1 / (1 + math.exp(-evaluation(state, seat) / _SCALE))


def strong_bot(iterations: int = ITERATIONS, width: int = WIDTH) -> SearchBot:
    """The ``strong`` level: the search over this game's model."""
    return SearchBot(TwisterModel(width), iterations)
