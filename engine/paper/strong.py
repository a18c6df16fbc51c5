"""The strong Paper Dungeons bot: a wider beam over plans that plays the race for the missions.

The search bot (:class:`engine.paper.bots.SearchBot`) judges a sheet by what it scores now and
what it promises, and ignores the missions in play.  At a table they are a race: a mission is
scored by every sheet that meets it in the round it is first met, and then leaves the game.  This
bot judges each sheet by the same evaluation **plus the missions still in play**: one the sheet
meets now is worth its glory (it scores at the end of the round), one it is on the way to a
share of that (``progress`` times the glory, times the square of the share of the threshold
reached).  With that judgement it searches the plans as the search bot does, use by use, on a
wider beam and four times the budget (16,000 evaluated uses, beam 32): a fixed budget of nodes,
never a clock.  Set-up and reward choices are the search bot's.  Every other sheet is public and
no other plan changes this seat's sheet, so nothing hidden is read.

(Measured and left out: expectimax over the next roll — each of the beam's best six plans played
on through a sample of next rolls answered by a greedy plan — and playouts of greedy plans to the
end of the game both did no better than the beam alone; docs/engine.md §17.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from engine.paper.actions import PaperAction, Plan, Use
from engine.paper.bots import GREEDY, Context, SearchBot, evaluate
from engine.paper.data import MISSION_GLORY, MISSIONS
from engine.paper.plans import die_uses, usable_dice
from engine.paper.resolve import Work
from engine.paper.score import METRICS
from engine.paper.sheet import BOARDS, Board, Sheet
from engine.paper.view import PaperView

BUDGET: Final = 16000  # evaluated uses a plan
WIDTH: Final = 32  # the beam's width
PROGRESS: Final = 0.8  # a mission's share of its glory at the threshold's edge

Value = Callable[[Sheet, Context], float]
Scored = tuple[float, tuple[Use, ...], Work]


def beam(sheet: Sheet, board: Board, roll: Sequence[str], ctx: Context, budget: int,
         width: int, value: Value = evaluate) -> list[Scored]:
    """The search bot's beam over plans, use by use (``width`` at the first two uses, within
    ``budget`` evaluated uses, each sheet judged by ``value``): the whole plans it found,
    best first."""
    dice = usable_dice(roll)
    frontier: list[Scored] = [(0.0, (), Work(sheet, board))]
    nodes = 0
    for depth in range(3):
        grown: list[Scored] = []
        pairs = [(uses, w, d) for _, uses, w in frontier for d in dice
                 if d not in {u.die for u in uses}]
        for uses, w, d in pairs:
            if nodes >= budget and grown:
                break
            for u, w2 in die_uses(w, d, roll[d - 1], GREEDY):
                grown.append((value(w2.freeze(), ctx), (*uses, u), w2))
                nodes += 1
        grown.sort(key=lambda g: -g[0])  # (stable: equal values keep the order found)
        frontier = grown[:width] if depth < 2 else grown
        if not frontier:
            break
    return frontier


class Missions:
    """The search bot's evaluation plus the missions still in play (see the module)."""

    def __init__(self, board: Board, open_missions: Sequence[str], glory: int,
                 progress: float) -> None:
        self.board = board
        self.missions = tuple((METRICS[MISSIONS[m].metric], MISSIONS[m].at_least)
                              for m in open_missions)
        self.glory = glory
        self.progress = progress

    def __call__(self, sheet: Sheet, ctx: Context) -> float:
        value = evaluate(sheet, ctx)
        for metric, need in self.missions:
            have = metric(sheet, self.board)
            if have >= need:
                value += self.glory
            elif need > 0:
                value += self.progress * self.glory * (have / need) ** 2
        return value


class StrongBot:
    """The mission-racing beam search (see the module docstring)."""

    name = "strong"
    searches = True

    def __init__(self, budget: int = BUDGET, width: int = WIDTH,
                 progress: float = PROGRESS) -> None:
        self.budget = budget
        self.width = width
        self.progress = progress
        self.search = SearchBot()

    def choose(self, view: PaperView, key: bytes) -> PaperAction:
        if view.phase != "plan" or view.seat is None:
            return self.search.choose(view, key)
        board = BOARDS[view.dungeon]
        # A lone sheet races nobody (and solo missions score by the round they are met).
        missions = () if view.players == 1 else view.open_missions
        value = Missions(board, missions, MISSION_GLORY, self.progress)
        found = beam(view.sheet, board, view.roll, Context(board, view.round, view.objective),
                     self.budget, self.width, value)
        if not found:
            return self.search.choose(view, key)
        return Plan(found[0][1])


__all__ = ["Missions", "StrongBot", "beam"]
