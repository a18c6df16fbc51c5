"""Paper Dungeons bots.  A bot reads one seat's view; every choice it makes by chance comes from
a SHA-256 stream keyed by the caller (never ``random``), and no bot reads a clock, so every peer
computes the same decision (the zombie of an absent seat).

* :class:`RandomBot` (``"random"``): a random plan, built die by die — a random usable die, then
  a uniformly random legal use of it (every move path and every way of answering its triggers
  counted) — and random setup and reward choices.
* :class:`SearchBot` (``"search"``): a beam search over plans, use by use, each use played by the
  engine and the sheet after it scored by :func:`evaluate` (the engine's final scoring of the
  sheet now, plus what the sheet promises: lairs reached before their fights, rooms worth
  exploring, free hearts, half-built items, the objective's next tier).  It stops at a fixed
  budget of evaluated nodes (no clock: the same view gives the same plan).
* :func:`zombie_bot`: the search bot with beam width 1 and a budget of 300 nodes (a greedy plan,
  use by use): the public stand-in for a replaced seat, pinned by engine version ``paper/1``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Final

from engine.paper.actions import (
    EVOLVE,
    ITEM,
    PaperAction,
    Plan,
    RewardChoice,
    SetupChoice,
    Use,
    sort_rooms,
)
from engine.paper.data import (
    ARMOUR,
    CLOAK,
    DUNGEONS,
    GEM_GLORY,
    GRID,
    ITEM_BONUS,
    MEDALLION,
    MINION_HERO,
    OBJECTIVES,
    ROOM_COUNT,
    ROUNDS,
    SEASON_END,
    VILLAINS,
    WARRIOR,
    Villain,
)
from engine.paper.plans import die_uses, usable_dice
from engine.paper.resolve import Work
from engine.paper.rounds import combat_level, play_reward
from engine.paper.score import METRICS, score_sheet
from engine.paper.sheet import BOARDS, WALL, WATER_EDGE, Board, Sheet
from engine.paper.view import PaperView
from engine.stream import HashStream

# ---------------------------------------------------------------------- distances

_DIST: dict[tuple[str, bool, bool], tuple[tuple[int, ...], ...]] = {}
FAR: Final = 99


def distances(board: Board, cloak: bool, medallion: bool) -> tuple[tuple[int, ...], ...]:
    """Steps between every two rooms (index ``ROOM_COUNT`` is outside, before the entry),
    with or without the Cloak and the Medallion."""
    key = (board.letter, cloak, medallion)
    table = _DIST.get(key)
    if table is None:
        rows = []
        for start in range(ROOM_COUNT + 1):
            dist = [FAR] * (ROOM_COUNT + 1)
            dist[start] = 0
            queue = deque([start])
            if start == ROOM_COUNT:
                queue = deque()
                for c in range(6):
                    dist[c] = 1
                    queue.append(c)
            while queue:
                a = queue.popleft()
                for b, kind in board.steps[a]:
                    if (kind == WALL and not cloak) or (kind == WATER_EDGE and not medallion):
                        continue
                    if dist[b] == FAR:
                        dist[b] = dist[a] + 1
                        queue.append(b)
            rows.append(tuple(dist))
        table = _DIST[key] = tuple(rows)
    return table


for _board in BOARDS.values():  # every table at import: no decision pays for building one
    for _cloak in (False, True):
        for _medallion in (False, True):
            distances(_board, _cloak, _medallion)

# ---------------------------------------------------------------------- evaluation

_ITEM_VALUE: Final = (3.0, 1.5, 2.0, 2.0, 4.0, 2.5, 3.0, 4.0)  # a completed item, besides its box
_HALF_BUILT: Final = tuple(0.45 * (b + v) for b, v in zip(ITEM_BONUS, _ITEM_VALUE, strict=True))
_BUILT: Final = tuple(0.15 * v for v in _ITEM_VALUE)
_POWER_VALUE: Final = {
    "alchemist": 2.0, "craftsman": 0.0, "assassin": 4.0, "scout": 2.0, "barbarian": 4.0,
    "healer": 5.0, "beastmaster": 2.0, "merchant": 4.0, "noble": 1.0, "ranger": 0.5,
    "psionic": 2.0, "berserker": 2.0, "treasure_hunter": 3.0, "veteran": 0.0,
    "fortune_teller": 5.0, "shaman": 6.0,
}
_OBJECTIVE_VALUE: Final = {
    "O1": 2.0, "O2": 1.5, "O3": 4.0, "O4": 3.0, "O5": 1.0, "O6": 3.0, "O7": 3.0, "O8": 4.0,
    "O9": 3.0, "O10": 2.0, "O11": 3.0, "O12": 4.0, "O13": 4.0, "O14": 4.0, "O15": 5.0,
    "O16": 4.0,
}


class Context:
    """What a decision's evaluation needs beyond the sheet: the board, the round just planned,
    the villains still to fight and the viewer's own objective (if it knows it)."""

    __slots__ = ("board", "dist", "fights", "objective", "promises", "round")

    def __init__(self, board: Board, round_no: int, objective: str) -> None:
        self.board = board
        self.round = round_no
        self.objective = objective
        card = DUNGEONS[board.letter]
        # The fights still ahead: (season index, villain, rounds until it, its lair).
        self.fights: tuple[tuple[int, Villain, int, int], ...] = tuple(
            (k, VILLAINS[v], end - round_no, board.lairs[k])
            for k, (v, end) in enumerate(zip(card.villains, (3, 6, 8), strict=True))
            if end >= round_no)
        self.dist = {(c, m): distances(board, c, m) for c in (False, True)
                     for m in (False, True)}
        # _promise's memo, for this decision only (kept small: a big heap makes the garbage
        # collector's full passes, which land on any decision, slow).
        self.promises: dict[tuple[object, ...], float] = {}


def _tier_glory(v: Villain, level: int) -> tuple[float, int]:
    tier = -1
    for t, threshold in enumerate(v.thresholds):
        if level >= threshold:
            tier = t
    if tier < 0:
        return float(v.flee), 0
    return float(v.glory[tier]), v.damage[tier]


def evaluate(s: Sheet, ctx: Context) -> float:
    """The sheet's worth: its final score now, plus what it promises (see the module)."""
    board = ctx.board
    value = float(score_sheet(s, board, ctx.objective).total)
    left = ROUNDS - ctx.round  # rounds still to plan after this one
    items = s.items
    here = ctx.dist[items[CLOAK] == 2, items[MEDALLION] == 2][
        s.room if s.room >= 0 else ROOM_COUNT]
    free = 2 * s.potions - s.hearts
    # Villains still to fight.
    for k, v, until, lair in ctx.fights:
        if s.villains[k] is not None:
            continue
        glory, damage = _tier_glory(v, int(combat_level(s, v) + 1.6 * until))
        if damage > free // 2:
            glory -= 0.4 * (damage - free // 2)
        if s.power == "barbarian":
            glory += 0.4 * damage
        if s.explored >> lair & 1:
            value += glory
        elif until == 0:
            value += v.flee
        else:
            d = here[lair]
            reach = max(0.0, 1.0 - max(0, d - 2 * until) / 4.0) if d < FAR else 0.0
            value += v.flee + reach * (glory - v.flee) - 0.35 * d / until
    if left > 0:
        value += _promise(s, board, here, left, ctx.promises)
    value += 0.45 * free * min(1.0, left / 4 + 0.25)
    lv = s.levels
    value += 0.25 * (lv[0] + lv[1] + lv[2] + lv[3]) * min(1.0, left / 3)
    half = min(1.0, left / 2)
    later = min(1.0, left / 4)
    for i, boxes in enumerate(items):
        if boxes == 1:
            value += _HALF_BUILT[i] * half
        elif boxes == 2 and left > 0:
            value += _BUILT[i] * later
    if ctx.objective:
        o = OBJECTIVES[ctx.objective]
        have = METRICS[o.metric](s, board)
        for threshold in o.tiers:
            if have < threshold:  # progress towards the next tier
                value += 1.2 * have / threshold * min(1.0, left / 3)
                break
    return value


# Per room with something in it: (room, minion hero or -1, minion level, gem bit, worth of its
# potions, item and evolution icons and trap).
_ROOMS: Final = tuple(
    (r, MINION_HERO[g.minion] if g.minion else -1, g.level,
     1 << "ABCDEFGH".index(g.gem) if g.gem else 0,
     0.9 * g.potions + 1.0 * g.item + 1.0 * g.evo - 0.3 * g.trap)
    for r, g in enumerate(GRID) if g.minion or g.gem or g.potions or g.item or g.evo)
_DECAY: Final = tuple(0.62 ** d for d in range(FAR + 1))
def _promise(s: Sheet, board: Board, here: tuple[int, ...], left: int,
             memo: dict[tuple[object, ...], float]) -> float:
    """Rooms worth exploring, discounted by distance and by the rounds left.  (Memoised on
    everything it reads, so it stays a pure function of its arguments.)"""
    armour = s.items[ARMOUR] == 2
    lv = s.levels
    gone = s.letters | s.crossed
    key = (board.letter, s.items[CLOAK] == 2, s.items[MEDALLION] == 2, s.explored, s.minions,
           s.letters, s.crossed, s.room, lv[0], lv[1], lv[2], lv[3], armour, left)
    total = memo.get(key)
    if total is not None:
        return total
    n = s.letters.bit_count()
    gem_worth = 0.8 * (GEM_GLORY[min(10, n + 1)] - GEM_GLORY[n])
    reach = 3 * left + 2
    explored, minions = s.explored, s.minions
    total = 0.0
    for r, hero, level, gem, worth in _ROOMS:
        if explored >> r & 1:
            continue
        d = here[r]
        if d > reach:
            continue
        if hero >= 0 and not minions >> r & 1:
            hurt = level - lv[hero] - armour
            worth += 1.6 - 0.5 * hurt if hurt > 0 else 1.6
        if gem and not gone & gem:
            worth += gem_worth
        if worth > 0:
            total += worth * _DECAY[d]
    memo[key] = total
    return total


# ---------------------------------------------------------------------- answering triggers


class Greedy:
    """A greedy answer for every trigger (a :class:`~engine.paper.resolve.Policy`): the lowest
    hero, the item nearest completion and most rewarding, the strongest minions."""

    def answer(self, w: Work, kind: str, options: tuple[int, ...], k: int) -> tuple[int, ...]:
        if kind == EVOLVE:
            levels = w.levels
            return (min(options, key=lambda h: (levels[h], h)),)
        if kind == ITEM:
            items = w.items
            return (max(options, key=lambda i: (items[i], _ITEM_VALUE[i] + ITEM_BONUS[i],
                                                -i)),)
        return sort_rooms(sorted(options, key=lambda r: (-GRID[r].level, r))[:k])


GREEDY: Final = Greedy()


# ---------------------------------------------------------------------- bots


def _objective(view: PaperView) -> str:
    return view.objective


def _setup_value(view: PaperView, c: SetupChoice) -> float:
    objective = view.objectives[c.objective] if c.objective >= 0 else ""
    value = _POWER_VALUE.get(c.power, 0.0) + _OBJECTIVE_VALUE.get(objective, 0.0)
    if c.power == "craftsman":
        value += 0.5 * sum(ITEM_BONUS[i] + _ITEM_VALUE[i] for i in c.args)
    if c.power == "assassin":
        value += 0.3 * sum(GRID[r].level for r in c.args)
    if c.power == "veteran":
        value += 0.1 * (c.args[0] == WARRIOR)
    if c.power == "treasure_hunter":
        value += 0.1 * c.args[0]  # a far gem: G and H lie in row 7
    return value


def _best(values: Sequence[float], stream: HashStream) -> int:
    best = max(values)
    ties = [i for i, v in enumerate(values) if v >= best - 1e-9]
    return ties[stream.below(len(ties))]


class RandomBot:
    """A random plan, die by die (see the module docstring)."""

    name = "random"

    def choose(self, view: PaperView, key: bytes) -> PaperAction:
        stream = HashStream(key)
        if view.legal:
            return view.legal[stream.below(len(view.legal))]
        if view.phase != "plan" or view.seat is None:
            raise ValueError(f"seat {view.seat} has no decision it can see")
        w = Work(view.sheet, BOARDS[view.dungeon])
        dice = list(usable_dice(view.roll))
        uses = []
        for _ in range(3):
            d = dice.pop(stream.below(len(dice)))
            options = die_uses(w, d, view.roll[d - 1])
            u, w = options[stream.below(len(options))]
            uses.append(u)
        return Plan(tuple(uses))


class SearchBot:
    """Beam search over plans on a fixed node budget (see the module docstring)."""

    name = "search"

    def __init__(self, budget: int = 4000, beam: int = 16) -> None:
        self.budget = budget
        self.beam = beam
        self.nodes = 0  # evaluated in the last decision

    def choose(self, view: PaperView, key: bytes) -> PaperAction:
        stream = HashStream(key)
        if view.phase == "choose":
            legal = [a for a in view.legal if isinstance(a, SetupChoice)]
            if not legal:
                raise ValueError(f"seat {view.seat} cannot see its dealt cards")
            return legal[_best([_setup_value(view, c) for c in legal], stream)]
        if view.phase == "reward":
            return self._reward(view, stream)
        if view.phase != "plan" or view.seat is None:
            raise ValueError(f"seat {view.seat} has no decision")
        return self.plan(view.sheet, BOARDS[view.dungeon], view.roll,
                         Context(BOARDS[view.dungeon], view.round, _objective(view)), stream)

    def _reward(self, view: PaperView, stream: HashStream) -> PaperAction:
        legal = [a for a in view.legal if isinstance(a, RewardChoice)]
        board = BOARDS[view.dungeon]
        season = SEASON_END[view.round]
        villain = VILLAINS[view.villains[season - 1]]
        ctx = Context(board, view.round, _objective(view))
        values = [evaluate(play_reward(view.sheet, board, villain, a), ctx) for a in legal]
        return legal[_best(values, stream)]

    def plan(self, sheet: Sheet, board: Board, roll: Sequence[str], ctx: Context,
             stream: HashStream) -> Plan:
        """The best plan the search finds within its budget."""
        dice = usable_dice(roll)
        start = Work(sheet, board)
        frontier: list[tuple[float, tuple[Use, ...], Work]] = [(0.0, (), start)]
        nodes = 0
        for depth in range(3):
            grown: list[tuple[float, tuple[Use, ...], Work]] = []
            # Expand the frontier best first, each node by every unused die, until the budget
            # is spent (always at least one expansion, so that a whole plan is found).
            pairs = [(uses, w, d) for _, uses, w in frontier for d in dice
                     if d not in {u.die for u in uses}]
            for uses, w, d in pairs:
                if nodes >= self.budget and grown:
                    break
                for u, w2 in die_uses(w, d, roll[d - 1], GREEDY):
                    grown.append((evaluate(w2.freeze(), ctx), (*uses, u), w2))
                    nodes += 1
            grown.sort(key=lambda g: -g[0])
            width = self.beam if depth < 2 else 1
            # Keep the best, ties broken by the stream (a fixed policy would mirror itself).
            frontier = grown[:width]
            if not frontier:
                break
        self.nodes = nodes
        best = frontier[0][0]
        ties = [f for f in frontier if f[0] >= best - 1e-9]
        return Plan(ties[stream.below(len(ties))][1])


def zombie_bot() -> SearchBot:
    """The zombie of engine version paper/1: a greedy plan (beam 1, 300 nodes)."""
    bot = SearchBot(budget=300, beam=1)
    bot.name = "zombie"
    return bot


BOTS: Final = {"random": RandomBot, "search": SearchBot}

__all__ = ["BOTS", "Context", "RandomBot", "SearchBot", "distances", "evaluate", "zombie_bot"]
