"""The legal actions of a turn as ``legal_actions`` lists them (docs/rules/twister.md §9, 7).

Every action but moves and jumps is listed exactly: each candidate goes through the same check
``apply`` uses.  A Move can be spelled in countless ways (detours, backtracking, handling
repeated), so the list holds one walk per distinct result among the moves with at most one drop
and at most one pick-up (a swap on one square counts as both, and so does taking what a wounded
character carries and dropping it on its square), each on any square of the walk: every plain
move, every pick-up or drop on the way or at the end, fetching a token and leaving it elsewhere on
the way, dropping the Rope on a pit and walking on.  Every leg between handlings is a
shortest walk (breadth first, in direction order n, e, s, w), judged on the squares as the
handling left them.  ``check`` accepts every legal move however it is spelled; a test checks every
listed action against it.
"""

from __future__ import annotations

from itertools import permutations
from typing import TYPE_CHECKING, Final

from engine.twister.actions import DROP, Action, take
from engine.twister.data import (
    CLERIC,
    LINE_X,
    MEKANORK,
    MOVE,
    N_CHARACTERS,
    PER_SEAT,
    POTION,
    ROPE,
    SLOT_SQUARES,
    SLOTS,
    THIEF,
    TROLL,
    WALL_WALKER,
    WAND,
    WARRIOR,
    WIDTH,
    WIZARD,
    slot_of,
)
from engine.twister.records import Tok
from engine.twister.rooms import FLOOR, GEAR, PIT, ROOMS, TWIN
from engine.twister.rules import (
    OPPOSITE,
    able,
    ap_for,
    check_ability,
    check_reveal,
    check_rotate,
    check_target,
    in_sight,
)
from engine.twister.table import end_reason, enter_reason, take_reason

if TYPE_CHECKING:
    from engine.twister.state import TwisterState

TEAMS: Final = tuple(Action("team", path=p) for p in permutations(range(N_CHARACTERS), 4))
_END: Final = Action("end")


def put_actions(state: TwisterState, seat: int) -> tuple[Action, ...]:
    reveal = state.reveal
    assert reveal is not None
    tokens = reveal.mine if seat == state.active else reveal.theirs
    occ = state.occupancy()
    kinds = state.board.kinds
    free = [sq for sq in SLOT_SQUARES[reveal.slot] if kinds[sq] in (FLOOR, GEAR)
            and sq not in occ]
    return tuple(Action("put", who=t, n=sq) for t in tokens for sq in free)


def turn_actions(state: TwisterState, seat: int) -> tuple[Action, ...]:
    """Every action listed for the active seat (see the module docstring), then ``end``."""
    out: list[Action] = []
    tokens = state.tokens
    for t in range(seat * PER_SEAT, seat * PER_SEAT + N_CHARACTERS):
        tok = tokens[t]
        if t % PER_SEAT == TROLL and tok.wounded and tok.at >= 0:
            regen = Action("regenerate", who=t)
            if not check_ability(state, seat, regen):
                out.append(regen)
        if not able(tok) or ap_for(state, t) < 1:
            continue
        out.extend(_moves(state, seat, t))
        if state.players[seat].jumps > 0:
            out.extend(_jumps(state, seat, t))
        out.extend(_others(state, seat, t))
    out.append(_END)
    return tuple(out)


def _others(state: TwisterState, seat: int, t: int) -> list[Action]:
    out: list[Action] = []
    tok = state.tokens[t]
    at = tok.at
    kind = t % PER_SEAT
    board = state.board
    for slot in range(SLOTS):
        if state.rooms[slot] is None:
            a = Action("reveal", who=t, n=slot)
            if not check_reveal(state, seat, a):
                out.append(a)
    if board.kinds[at] == GEAR:
        own = slot_of(at)
        placed = state.rooms[own]
        assert placed is not None
        targets = [own] + [s for s in range(SLOTS) if state.rooms[s] is not None
                           and state.rooms[s][0] == TWIN[placed[0]]]  # type: ignore[index]
        top = min(3, ap_for(state, t))
        for slot in targets:
            room = state.rooms[slot]
            assert room is not None
            senses = (1, -1) if kind == MEKANORK else (ROOMS[room[0]].turns,)
            for sense in senses:
                for q in range(1, top + 1):
                    a = Action("rotate", who=t, n=slot, m=sense * q)
                    if not check_rotate(state, seat, a):
                        out.append(a)
    occ = state.occupancy()
    tokens = state.tokens
    links = board.links
    for d in range(4):
        other = links[at * 4 + d]
        if other < 0:
            continue
        for u in occ.get(other, ()):
            if u % PER_SEAT >= N_CHARACTERS or tokens[u].carrier >= 0:
                continue
            if u // PER_SEAT != seat:
                a = Action("attack", who=t, m=u)
                if not check_target(state, seat, a, heal=False):
                    out.append(a)
            if kind == CLERIC and tokens[u].wounded:
                a = Action("heal", who=t, m=u)
                if not check_target(state, seat, a, heal=True):
                    out.append(a)
    if kind in (THIEF, WARRIOR, WALL_WALKER):
        verbs = {THIEF: ("open", "close"), WARRIOR: ("break",), WALL_WALKER: ("pass",)}[kind]
        for verb in verbs:
            for d in range(4):
                a = Action(verb, who=t, n=d)
                if not check_ability(state, seat, a):
                    out.append(a)
    if kind == WIZARD and tok.load >= 0 and tok.load % PER_SEAT == WAND:
        for d in range(4):
            for victim in in_sight(state, at, d):
                out.append(Action("fireball", who=t, n=d, m=victim))
    if tok.load >= 0 and tok.load % PER_SEAT == POTION:
        out.append(Action("drink", who=t))
    return out


# ---------------------------------------------------------------------- moves


class _Walker:
    """The bookkeeping of one mover's candidate moves: the other tokens on each square, with
    the mover and its load left out and the squares its handling changed overlaid, and
    breadth-first walks."""

    __slots__ = ("_base", "_enter", "board", "goal", "links", "load", "mover", "occ", "start",
                 "tokens")

    def __init__(self, state: TwisterState, mover: int) -> None:
        self.tokens: tuple[Tok, ...] = state.tokens
        self.board = state.board
        self.links = self.board.links
        self.mover = mover
        self.load = self.tokens[mover].load
        self.start = self.tokens[mover].at
        self.goal = LINE_X[mover // PER_SEAT ^ 1]
        self.occ = state.occupancy()
        self._base: dict[int, list[int]] = {}
        self._enter: dict[tuple[int, bool], bool] = {}

    def base(self, sq: int, overlay: dict[int, list[int]] | None = None) -> list[int]:
        """The other tokens on ``sq`` (shared lists: never change them)."""
        if overlay and sq in overlay:
            return overlay[sq]
        found = self._base.get(sq)
        if found is None:
            mover, load = self.mover, self.load
            found = self._base[sq] = [u for u in self.occ.get(sq, ()) if u != mover
                                      and u != load]
        return found

    def enters(self, sq: int, carrying: int, overlay: dict[int, list[int]] | None) -> bool:
        if overlay and sq in overlay:
            return not enter_reason(self.tokens, self.board, self.mover, sq, overlay[sq],
                                    carrying)
        rope = carrying >= 0 and carrying % PER_SEAT == ROPE
        key = (sq, rope)
        found = self._enter.get(key)
        if found is None:
            found = self._enter[key] = not enter_reason(self.tokens, self.board, self.mover, sq,
                                                        self.base(sq), carrying)
        return found

    def walk(self, start: int, carrying: int, budget: int,
             overlay: dict[int, list[int]] | None = None) -> dict[int, int]:
        """Square -> the square it is reached from (the start -> -1), breadth first, within
        ``budget`` steps; squares of the opponent's line are reached but not left."""
        parent = {start: -1}
        frontier = [start]
        links = self.links
        for _ in range(budget):
            nxt: list[int] = []
            for sq in frontier:
                if sq % WIDTH == self.goal:
                    continue
                base = sq * 4
                for d in range(4):
                    other = links[base + d]
                    if other < 0 or other in parent or not self.enters(other, carrying,
                                                                       overlay):
                        continue
                    parent[other] = sq
                    nxt.append(other)
            if not nxt:
                break
            frontier = nxt
        return parent

    def takeable(self, others: list[int]) -> list[int]:
        return [u for u in others if not take_reason(self.tokens, self.mover, u)]

    def ends(self, sq: int, others: list[int], carrying: int) -> bool:
        return not end_reason(self.tokens, self.board, self.mover, sq, others, carrying)


def _path(parent: dict[int, int], sq: int) -> list[int]:
    out = []
    while parent[sq] >= 0:
        out.append(sq)
        sq = parent[sq]
    out.reverse()
    return out


def _handlings(w: _Walker, sq: int, carrying: int, others: list[int], *, drop: bool,
               pick: bool) -> list[tuple[tuple[int, ...], int, list[int], int]]:
    """The handlings possible on ``sq``: (path items, carried after, others after, the token
    dropped there or -1).  A drop, a pick-up, a swap (drop, then pick up), or taking a token a
    wounded character carries and dropping it there (it then lies on the square)."""
    out: list[tuple[tuple[int, ...], int, list[int], int]] = []
    pit = w.board.kinds[sq] == PIT
    may_drop = drop and carrying >= 0 and (not pit or carrying % PER_SEAT == ROPE)
    if may_drop:
        out.append(((DROP,), -1, [*others, carrying], carrying))
    if not pick:
        return out
    if carrying < 0:
        for u in w.takeable(others):
            out.append(((take(u),), u, [x for x in others if x != u], -1))
            if drop and w.tokens[u].carrier >= 0 and (not pit or u % PER_SEAT == ROPE):
                out.append(((take(u), DROP), -1, others, u))
    elif may_drop:
        for u in w.takeable(others):
            out.append(((DROP, take(u)), u, [*(x for x in others if x != u), carrying],
                        carrying))
    return out


def _moves(state: TwisterState, seat: int, t: int) -> list[Action]:
    """One walk per distinct result among the moves with at most one drop and one pick-up (a
    swap counts as both), each on any square of the walk; every leg between them is a shortest
    walk, judged on the squares as the handling left them."""
    w = _Walker(state, t)
    seen: dict[tuple[int, int, tuple[tuple[int, int], ...]], Action] = {}
    goal = w.goal

    def search(cur: int, carrying: int, left: int, items: list[int],
               overlay: dict[int, list[int]], drop: bool, pick: bool,
               drops: tuple[tuple[int, int], ...]) -> None:
        reach = w.walk(cur, carrying, left, overlay)
        key_drops = tuple(sorted(drops))
        may_drop = drop and carrying >= 0
        for end in reach:
            others = w.base(end, overlay)
            key = (end, carrying, key_drops)
            if key not in seen and (end != cur or items) and w.ends(end, others, carrying) and all(
                    len(overlay[sq]) <= 2 for _, sq in drops if sq != end):  # rule 2
                seen[key] = Action("move", who=t, path=(*items, *_path(reach, end)))
            if end % WIDTH == goal or (end == cur and items):
                continue  # no handling on an escape square, nor twice on one square
            if not may_drop and not (pick and others):
                continue
            ops = _handlings(w, end, carrying, others, drop=drop, pick=pick)
            if not ops:
                continue
            leg = _path(reach, end)
            path = [*items, *leg]
            for op, carried, after, dropped in ops:
                search(end, carried, left - len(leg), [*path, *op], {**overlay, end: after},
                       drop and DROP not in op, pick and all(i >= DROP for i in op),
                       (*drops, (dropped, end)) if dropped >= 0 else drops)

    search(w.start, w.load, MOVE[t % PER_SEAT], [], {}, True, True, ())
    return list(seen.values())


def _jumps(state: TwisterState, seat: int, t: int) -> list[Action]:
    w = _Walker(state, t)
    out: list[Action] = []
    links, kinds, occ = w.links, w.board.kinds, w.occ
    start, load = w.start, w.load
    for d1 in range(4):
        pit = links[start * 4 + d1]
        if pit < 0 or kinds[pit] != PIT or occ.get(pit):
            continue
        for d2 in range(4):
            if d2 == OPPOSITE[d1]:
                continue
            land = links[pit * 4 + d2]
            if land < 0:
                continue
            others = w.base(land)
            if w.ends(land, others, load):
                out.append(Action("jump", who=t, path=(pit, land)))
            if land % WIDTH == w.goal:
                continue
            for items, carried, after, _ in _handlings(w, land, load, others, drop=True,
                                                       pick=True):
                if w.ends(land, after, carried):
                    out.append(Action("jump", who=t, path=(pit, land, *items)))
    return out
