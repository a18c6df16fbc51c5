"""Generating plans (for bots, tools and tests; the rules never enumerate plans).

:func:`die_uses` lists every legal use of one die from a sheet being played on, each with the
sheet after it: evolutions, item steps, potions and every move path, and every way of
answering the triggers they raise (or, given a policy ``ask``, the one way it picks).
:func:`iter_plans` walks every legal plan lazily: there are often hundreds of thousands.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import permutations

from engine.core import IllegalActionError
from engine.paper.actions import EVOLVE, ITEM, MOVE, POTIONS, Answer, Plan, Use
from engine.paper.data import (
    BOOTS,
    CLOAK,
    MAX_LEVEL,
    MEDALLION,
    SKULL,
)
from engine.paper.resolve import Brancher, Policy, Work
from engine.paper.sheet import WALL, WATER_EDGE, Board, Sheet

Option = tuple[Use, Work]
# The generator's limit on the steps of one move.  The rules set none beyond the die's
# allowance, but the Ranger's extra step for every water crossing (ruling 16) lets a party with
# the Khar Medallion cross water back and forth for ever; plans longer than this are legal,
# and not generated.
MAX_STEPS = 8


def _branch(w: Work, run: Callable[[Work], object], ask: Policy | None
            ) -> list[tuple[Work, tuple[Answer, ...], object]]:
    """``run`` on copies of ``w``, once per way of answering (or once, answered by the
    policy ``ask``); an illegal run is left out."""
    out: list[tuple[Work, tuple[Answer, ...], object]] = []
    if ask is not None:
        w2 = w.copy()
        w2.policy = ask
        w2.taken = []
        try:
            result = run(w2)
        except IllegalActionError:
            return out
        taken = tuple(w2.taken)
        w2.taken = None
        out.append((w2, taken, result))
        return out
    prefix: list[int] | None = []
    while prefix is not None:
        brancher = Brancher(prefix)
        w2 = w.copy()
        w2.ask = brancher
        w2.policy = None
        w2.taken = None
        try:
            result = run(w2)
        except IllegalActionError:
            return out
        out.append((w2, tuple(brancher.taken), result))
        prefix = brancher.next_prefix()
    return out


def _evolving(die: int, face: str, psionic: bool, h: int) -> Callable[[Work], object]:
    def run(w: Work) -> object:
        w.evolve_with(die, face, psionic, h)
        return None
    return run


def _stepping(die: int, face: str, i: int) -> Callable[[Work], object]:
    def run(w: Work) -> object:
        w.item_with(die, face, i)
        return None
    return run


def _using(u: Use, face: str) -> Callable[[Work], object]:
    def run(w: Work) -> object:
        w.use(u, face)
        return None
    return run


def _entering(r: int) -> Callable[[Work], object]:
    def run(w: Work) -> object:
        w.enter(r)
        return None
    return run


def _stepping_into(r: int, allowance: int) -> Callable[[Work], object]:
    def run(w: Work) -> object:
        return w.step(r, allowance)
    return run


def die_uses(w: Work, die: int, face: str, ask: Policy | None = None,
             kinds: Sequence[str] = (MOVE, EVOLVE, ITEM, POTIONS)) -> list[Option]:
    """Every legal use of ``die`` (showing ``face``) from ``w``, with the work after it (moves
    of at most :data:`MAX_STEPS` steps)."""
    if face == SKULL:
        return []
    out: list[Option] = []
    if MOVE in kinds:
        _moves(w, die, face, ask, out)
    if face == BOOTS:
        return out
    if EVOLVE in kinds:
        psionic_options = (False, True) if (w.power == "psionic" and not w.psionic_used) else (
            False,)
        for h in range(4):
            if w.levels[h] >= MAX_LEVEL:
                continue
            for psionic in psionic_options:
                for w2, answers, _ in _branch(w, _evolving(die, face, psionic, h), ask):
                    out.append((Use(die, psionic, EVOLVE, h, -1, (), answers), w2))
    if ITEM in kinds:
        for i in range(8):
            if w.items[i] >= 2:
                continue
            for w2, answers, _ in _branch(w, _stepping(die, face, i), ask):
                out.append((Use(die, False, ITEM, i, -1, (), answers), w2))
    if POTIONS in kinds:
        u = Use(die, False, POTIONS, -1, -1, (), ())
        for w2, answers, _ in _branch(w, _using(u, face), ask):
            out.append((u._replace(answers=answers), w2))
    return out


def _moves(w: Work, die: int, face: str, ask: Policy | None, out: list[Option]) -> None:
    allowance = 3 if face == BOOTS else 2
    if w.room < 0:
        for col in range(6):
            for w2, answers, _ in _branch(w, _entering(col), ask):
                path = (col,)
                out.append((Use(die, False, MOVE, -1, col, path, answers), w2))
                _extend(w2, die, col, path, 1, allowance, answers, ask, out)
    else:
        _extend(w, die, -1, (), 0, allowance, (), ask, out)


def _extend(w: Work, die: int, entry: int, path: tuple[int, ...], steps: int,
            allowance: int, answers: tuple[Answer, ...], ask: Policy | None,
            out: list[Option]) -> None:
    if steps >= allowance or steps >= MAX_STEPS:
        return
    items = w.items
    for r, kind in w.board.steps[w.room]:
        if (kind == WALL and items[CLOAK] != 2) or (kind == WATER_EDGE and items[MEDALLION] != 2):
            continue
        for w2, more, after in _branch(w, _stepping_into(r, allowance), ask):
            p = (*path, r)
            a = answers + more
            out.append((Use(die, False, MOVE, -1, entry, p, a), w2))
            assert isinstance(after, int)
            _extend(w2, die, entry, p, steps + 1, after, a, ask, out)


def usable_dice(roll: Sequence[str]) -> tuple[int, ...]:
    return tuple(d for d in range(1, len(roll) + 1) if roll[d - 1] != SKULL)


def iter_plans(sheet: Sheet, board: Board, roll: Sequence[str]) -> Iterator[tuple[Plan, Sheet]]:
    """Every legal plan with the sheet after it (lazily; often hundreds of thousands)."""
    w0 = Work(sheet, board)
    for d1, d2, d3 in permutations(usable_dice(roll), 3):
        for u1, w1 in die_uses(w0, d1, roll[d1 - 1]):
            for u2, w2 in die_uses(w1, d2, roll[d2 - 1]):
                for u3, w3 in die_uses(w2, d3, roll[d3 - 1]):
                    plan = Plan((u1, u2, u3))
                    yield plan, w3.freeze((*sheet.rounds, "".join(sorted(
                        str(d) for d in (d1, d2, d3)))))
