"""The strong Paper Dungeons bot: expectimax over the next roll.

A plan is judged by more than the sheet it leaves: by what the next round can make of that
sheet.  The search bot's beam (:class:`engine.paper.bots.SearchBot`) proposes the best few plans
for this roll; for each, the end of the round is played on the bot's own sheet (the season's
villain fight), and then a sample of next rolls — the same rolls for every candidate, drawn from
the seat's hash stream and rerolled as the rules reroll — each answered by a greedy plan, and the
sheet after it valued by :func:`engine.paper.bots.evaluate`.  The candidate with the best mean
wins; in round 8, with no round to come, the beam's own judgement does.  Set-up and reward
choices are the search bot's.  The other seats' sheets are public and their plans do not change
this seat's sheet, so this reads nothing hidden.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.paper.actions import PaperAction, Plan, Use
from engine.paper.bots import GREEDY, Context, SearchBot, evaluate
from engine.paper.data import DICE, FACES, ROUNDS, SEASON_END, SKULL
from engine.paper.plans import die_uses, usable_dice
from engine.paper.resolve import Work
from engine.paper.rounds import fight, rejected, skull_damage, villain_of
from engine.paper.sheet import BOARDS, Board, Sheet
from engine.paper.view import PaperView
from engine.stream import HashStream

CANDIDATES: Final = 6  # the beam's best plans weighed
ROLLS: Final = 10  # next rolls sampled
REPLY_BUDGET: Final = 300  # nodes of each greedy plan for a sampled roll

Scored = tuple[float, tuple[Use, ...], Work]


def beam(sheet: Sheet, board: Board, roll: Sequence[str], ctx: Context, budget: int,
         width: int, keep: int) -> list[Scored]:
    """The search bot's beam over plans, use by use (``width`` at the first two uses, within
    ``budget`` evaluated uses), keeping the best ``keep`` whole plans, best first."""
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
                grown.append((evaluate(w2.freeze(), ctx), (*uses, u), w2))
                nodes += 1
        grown.sort(key=lambda g: -g[0])
        frontier = grown[: width if depth < 2 else keep]
        if not frontier:
            break
    return frontier


def sample_roll(stream: HashStream) -> tuple[str, ...]:
    """A roll of the six dice as the rules have it (rerolled while rejected)."""
    while True:
        faces = tuple(FACES[d][stream.below(len(FACES[d]))] for d in range(1, DICE + 1))
        if not rejected(faces):
            return faces


class StrongBot:
    """Expectimax over the next roll (see the module docstring)."""

    name = "strong"
    searches = True

    def __init__(self, candidates: int = CANDIDATES, rolls: int = ROLLS,
                 reply_budget: int = REPLY_BUDGET) -> None:
        self.candidates = candidates
        self.rolls = rolls
        self.reply_budget = reply_budget
        self.search = SearchBot()

    def choose(self, view: PaperView, key: bytes) -> PaperAction:
        if view.phase != "plan" or view.seat is None:
            return self.search.choose(view, key)
        stream = HashStream(key)
        board = BOARDS[view.dungeon]
        round_no = view.round
        ctx = Context(board, round_no, view.objective)
        found = beam(view.sheet, board, view.roll, ctx, self.search.budget, self.search.beam,
                     self.candidates)
        if not found:
            return self.search.choose(view, key)
        if round_no >= ROUNDS or len(found) == 1:
            return Plan(found[0][1])
        rolls = [sample_roll(stream) for _ in range(self.rolls)]
        after = Context(board, round_no + 1, view.objective)
        best, best_value = 0, float("-inf")
        for i, (_, _, work) in enumerate(found):
            sheet = self._end_round(work.freeze(), board, view.dungeon, round_no)
            total = 0.0
            for roll in rolls:
                total += self._next(sheet, board, roll, after)
            if total > best_value + 1e-9:
                best, best_value = i, total
        return Plan(found[best][1])

    @staticmethod
    def _end_round(sheet: Sheet, board: Board, dungeon: str, round_no: int) -> Sheet:
        season = SEASON_END.get(round_no)
        if season is None:
            return sheet
        sheets, _, _ = fight([sheet], board, villain_of(dungeon, season), season, False)
        return sheets[0]

    def _next(self, sheet: Sheet, board: Board, roll: Sequence[str], ctx: Context) -> float:
        """The sheet's worth after a greedy plan for ``roll`` next round."""
        sheet = skull_damage(sheet, roll.count(SKULL))
        found = beam(sheet, board, roll, ctx, self.reply_budget, 1, 1)
        return found[0][0] if found else evaluate(sheet, ctx)


__all__ = ["StrongBot", "beam", "sample_roll"]
