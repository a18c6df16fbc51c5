"""Dungeons of Kards bots.  A bot reads only a seat's view; its random choices come from a
SHA-256 stream keyed by the caller (never from ``random``), and it never iterates over a set or
a dict it did not order, so every peer computes an absent seat's stand-in identically under any
``PYTHONHASHSEED``.

* :class:`RandomBot` — uniform among the legal actions.
* :class:`HeuristicBot` — scores every legal action and plays the best (ties, and a near-best
  action now and then, drawn from the stream).  It hunts Arena opponents along the map (and
  explores toward them when no path exists), fights what it can beat, engages when healthy,
  stuns or weakens the enemy it fights, heals when hurt, equips the items that raise its
  expected damage per hit taken, uses restoration stones when they restore fully, saves
  itself, and in the campaign explores for the Portal Stone, summons the Boss when the party is
  ready, and gathers at the Black Gate.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Final

from engine import plugin
from engine.kards.actions import Action
from engine.kards.board import connected, distances, portal, sides
from engine.kards.cards import (
    CHARACTER_BY_KIND,
    ITEM_BY_KIND,
    OPPOSITE,
    SIDES,
    STONE_BY_KIND,
    kind_of,
)
from engine.kards.view import CharView, KardsView, MonsterView
from engine.sim import LegalView
from engine.stream import HashStream, sample_index

# P(2d6 > t) for t = DEF − ATK, as a 36th (rules reference §5.10).
_OVER: Final = {t: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b > t)
                for t in range(-20, 30)}
_DIR: Final = {name: i for i, name in enumerate(SIDES)}
# Duel strength, measured with the engine (docs/rules/kards.md §8): the heuristic's picks.
PICK_ARENA: Final = ("knight", "cleric", "ranger", "warrior", "rogue", "mage")
PICK_CAMPAIGN: Final = ("cleric", "mage", "warrior", "ranger", "rogue", "knight")


def p_hit(attack: int, defence: int) -> float:
    """The chance that 2d6 + ``attack`` is strictly greater than ``defence``."""
    t = defence - attack
    if t < -20:
        return 1.0
    return _OVER.get(t, 0) / 36


class RandomBot:
    """Uniform among the legal actions."""

    name = "random"
    reads_view = False  # the driver may pass a LegalView (seat, step, legal) instead

    def choose(self, view: KardsView | LegalView, key: bytes) -> Action:
        legal: tuple[Action, ...] = view.legal
        if not legal:
            raise ValueError(f"seat {view.seat} has no decision")
        return legal[sample_index(key, len(legal))]


class _Context:
    """What one decision looks at, computed once from the view."""

    def __init__(self, view: KardsView) -> None:
        self.view = view
        chars = {c.card: c for c in view.characters if c.card}
        self.chars = chars
        self.monsters = {m.card: m for m in view.monsters}
        me = chars.get(view.deciding) or chars.get(view.active)
        self.me: CharView | None = me
        self.size = view.size
        self.board = view.board
        self.cell = -1
        if me is not None and me.at is not None:
            self.cell = me.at[1] * view.size + me.at[0]
        arena = view.mode == "arena"
        self.arena = arena
        self.opponents = [c for c in view.characters if me is not None and c.at is not None
                          and arena and c.team != me.team]
        self.allies = [c for c in view.characters if me is not None and c.card != me.card
                       and (not arena or c.team == me.team) and c.card]
        self.dist_from_me = distances(self.board, self.size, self.cell) if self.cell >= 0 \
            else {}
        self.boss = next((m for m in view.monsters if m.level == 3), None)

    def cell_of(self, at: tuple[int, int] | None) -> int:
        return -1 if at is None else at[1] * self.size + at[0]

    def here(self) -> list[CharView | MonsterView]:
        """Enemies on my card."""
        out: list[CharView | MonsterView] = [
            m for m in self.view.monsters if self.cell_of(m.at) == self.cell]
        out.extend(o for o in self.opponents if self.cell_of(o.at) == self.cell)
        return out


class HeuristicBot:
    """Scores each legal action (see the module docstring); ``mix`` in ``mix_den`` decisions it
    plays a near-best action (within ``margin``) instead of the best."""

    name = "heuristic"

    def __init__(self, margin: float = 0.5, mix: tuple[int, int] = (1, 6), *,
                 engage: float = 0.15, engage_late: float = -0.3, late_round: int = 25,
                 explore_life: float = 0.5, approach: float = 1.0,
                 explore_late: float = -0.5, ability_edge: float = 0.5) -> None:
        self.margin = margin
        self.mix_num, self.mix_den = mix
        self.engage = engage  # the duel edge needed to walk onto an opponent
        self.engage_late = engage_late  # ... from round ``late_round`` on (the cap nears)
        self.late_round = late_round
        self.explore_life = explore_life  # below this share of its life it stops exploring
        self.approach = approach  # the weight of a step toward the goal
        self.explore_late = explore_late  # exploring after turn 12 when a path exists
        self.ability_edge = ability_edge  # below this edge a fight calls for the ability

    def choose(self, view: KardsView, key: bytes) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError(f"seat {view.seat} has no decision")
        if len(legal) == 1:
            return legal[0]
        stream = HashStream(key)
        ctx = _Context(view)
        scored = [(self.score(ctx, a), a) for a in legal]
        best_value = max(v for v, _ in scored)
        best = [a for v, a in scored if v >= best_value - 1e-9]
        if self.margin > 0 and self.mix_num:
            near = [a for v, a in scored if a not in best and v >= best_value - self.margin]
            if near and stream.below(self.mix_den) < self.mix_num:
                return near[stream.below(len(near))]
        return best[stream.below(len(best))]

    # ------------------------------------------------------------------ scoring

    def score(self, ctx: _Context, action: Action) -> float:
        verb = action.verb
        method = getattr(self, "_" + verb, None)
        if method is None:
            return 0.0
        value: float = method(ctx, action.args)
        return value

    @staticmethod
    def _pick(ctx: _Context, args: Sequence[str]) -> float:
        order = PICK_ARENA if ctx.view.mode == "arena" else PICK_CAMPAIGN
        return -float(order.index(kind_of(args[0])))

    @staticmethod
    def _gate(ctx: _Context, args: Sequence[str]) -> float:
        return 0.0

    # ---- equipment

    @staticmethod
    def _strength(me: CharView, weapon: str | None, pet: str | None) -> float:
        """Damage dealt per damage taken against a typical foe (ATK 10, DEF 17, DMG 2)."""
        card = CHARACTER_BY_KIND[kind_of(me.card)]
        row = next(b for b in card.bands if b.low <= max(1, me.life) <= b.high)
        atk, dfn, dmg = row.attack, row.defence, row.damage
        for e in me.effects:
            dmg += e.x if e.kind == "empower" else -e.x if e.kind == "weaken" else 0
        for item in (weapon, pet):
            if item:
                data = ITEM_BY_KIND[kind_of(item)]
                atk, dfn, dmg = atk + data.attack, dfn + data.defence, dmg + data.damage
        dealt = p_hit(atk, 17) * max(1, dmg)
        taken = p_hit(10, dfn) * 2 + 0.05
        return dealt / taken

    def _equip(self, ctx: _Context, args: Sequence[str]) -> float:
        me = ctx.me
        if me is None or args[0] == "done":
            return 0.0
        weapon = me.weapon.card if me.weapon else None
        pet = me.pet.card if me.pet else None
        now = self._strength(me, weapon, pet)
        if ITEM_BY_KIND[kind_of(args[0])].slot == "weapon":
            weapon = args[0]
        else:
            pet = args[0]
        return (self._strength(me, weapon, pet) - now) * 5 - 0.01

    # ---- fights

    @staticmethod
    def _foe_stats(foe: CharView | MonsterView) -> tuple[int, int, int, int]:
        return foe.attack, foe.defence, foe.damage, foe.life

    def _edge(self, me: CharView, foe: CharView | MonsterView) -> float:
        """> 0 when I should win a straight fight against ``foe`` (rounds it needs to kill me
        over rounds I need to kill it, minus one)."""
        atk, dfn, dmg, life = self._foe_stats(foe)
        stunned = any(e.kind == "stun" for e in foe.effects)
        mine = me.ap * p_hit(me.attack, dfn) * max(1, me.damage) + 0.01
        counters = 0.0 if stunned else p_hit(atk, me.defence) * max(1, dmg)
        theirs = me.ap * counters
        if isinstance(foe, CharView):
            mine *= 2  # it counters my attacks and I counter its attacks
            theirs += foe.ap * counters
        my_rounds = life / mine
        their_rounds = me.life / max(theirs, 0.01)
        return their_rounds / my_rounds - 1

    def _attack(self, ctx: _Context, args: Sequence[str]) -> float:
        me = ctx.me
        if me is None:
            return 0.0
        foe: CharView | MonsterView | None = ctx.monsters.get(args[0]) or ctx.chars.get(
            args[0])
        if foe is None:
            return 0.0
        _, dfn, _, life = self._foe_stats(foe)
        hit = p_hit(me.attack, dfn)
        kill = hit * max(1, me.damage) / max(1, life)
        value = 5 + 10 * kill
        if isinstance(foe, CharView):
            value += 3
        elif foe.level == 3:
            value += 1
        if not any(e.kind == "stun" for e in foe.effects):
            value -= 2 * p_hit(foe.attack, me.defence) * max(1, foe.damage) / max(1, me.life)
        return value

    def _mist(self, ctx: _Context, args: Sequence[str]) -> float:
        me = ctx.me
        if me is None:
            return 0.0
        foes = ctx.here()
        edge = max((self._edge(me, f) for f in foes), default=0.0)
        return (1.0 if edge > 0 else -1.0) * (1 if args[0] == "double" else -1)

    def _ability(self, ctx: _Context, args: Sequence[str]) -> float:
        me = ctx.me
        if me is None:
            return 0.0
        ability = CHARACTER_BY_KIND[kind_of(me.card)].ability
        target = args[1]
        cost = ability.cost * 0.4
        here = ctx.here()
        if ability.kind == "heal":
            t = ctx.chars.get(target)
            if t is None:
                return -5.0
            missing = t.max_life - t.life
            if missing < ability.x:
                return -2.0
            return 4 + missing * 0.4 - cost + (2 if t.life <= 5 else 0)
        if ability.kind == "empower":
            t = ctx.chars.get(target)
            if t is None or not here or any(e.kind == "empower" for e in t.effects):
                return -2.0
            boss = any(isinstance(f, MonsterView) and f.level == 3 for f in here)
            edge = min((self._edge(me, f) for f in here), default=1.0)
            base = 6.5 if boss else 5.5 if edge < 0.3 else 2.0
            return base + (0.5 if t.card == me.card else 0) - cost
        # stun, weaken: the enemy I fight (or will fight)
        foe: CharView | MonsterView | None = ctx.monsters.get(target) or ctx.chars.get(target)
        if foe is None or any(e.kind == ability.kind for e in foe.effects):
            return -2.0
        fighting = any(f.card == foe.card for f in here)
        if not fighting:
            return -1.0
        threat = p_hit(foe.attack, me.defence) * max(1, foe.damage) * foe.life
        if isinstance(foe, CharView):
            return 9 + threat * 0.1 - cost
        if foe.level == 3:
            return 10 - cost
        edge = self._edge(me, foe)
        if ability.kind == "weaken" and foe.damage - ability.x <= 0 and foe.life >= 4:
            return 7.0 + threat * 0.05 - cost  # it cannot hurt me for a while
        return (6.0 if edge < self.ability_edge else 1.0) + threat * 0.05 - cost

    # ---- walking

    def _goal(self, ctx: _Context) -> int:
        """The cell I am heading for (-1: none; explore)."""
        view = ctx.view
        if ctx.arena:
            best, best_d = -1, 10**6
            for o in ctx.opponents:
                cell = ctx.cell_of(o.at)
                d = ctx.dist_from_me.get(cell, 100 + self._manhattan(ctx, ctx.cell, cell))
                if d < best_d:
                    best, best_d = cell, d
            return best
        if ctx.boss is not None:
            return ctx.cell_of(ctx.boss.at)
        del view
        return -1

    @staticmethod
    def _manhattan(ctx: _Context, a: int, b: int) -> int:
        return abs(a % ctx.size - b % ctx.size) + abs(a // ctx.size - b // ctx.size)

    def _healthy(self, me: CharView) -> bool:
        return me.life * 10 >= me.max_life * 6

    def _explore(self, ctx: _Context, args: Sequence[str]) -> float:
        me = ctx.me
        if me is None:
            return 0.0
        goal = self._goal(ctx)
        if ctx.arena and goal >= 0:
            if goal in ctx.dist_from_me:
                if me.life < me.max_life * self.explore_life:
                    return -2.5  # riskier than a step (a monster 9 times in 22, traps)
                return 1.0 if ctx.view.turn < 12 else self.explore_late
            # No path to the opponent: exploring is the way to it, worth more risk when I am
            # the healthier, and as the cap nears (a draw is half a win).
            weakest = min((o.life for o in ctx.opponents), default=0)
            floor = self.explore_life * (0.6 if me.life > weakest else 1.0)
            if ctx.view.round >= self.late_round and me.life > weakest:
                floor *= 0.5
            return 3.0 if me.life >= me.max_life * floor else -2.5
        if me.life < me.max_life * self.explore_life:
            return -2.5
        if ctx.boss is not None:
            return -1.0 if goal in ctx.dist_from_me else 2.0
        return 3.0 + (0.5 if self._healthy(me) else -1.5)

    def _search(self, ctx: _Context, args: Sequence[str]) -> float:
        return 1.5 if ctx.boss is None else 0.0

    def _wait(self, ctx: _Context, args: Sequence[str]) -> float:
        return 0.0

    def _move(self, ctx: _Context, args: Sequence[str]) -> float:
        me = ctx.me
        if me is None:
            return 0.0
        dest = ctx.cell
        for name in args:
            dest = connected(ctx.board, ctx.size, dest, _DIR[name])
        foes_there: list[CharView | MonsterView] = [
            m for m in ctx.view.monsters if ctx.cell_of(m.at) == dest]
        foes_there += [o for o in ctx.opponents if ctx.cell_of(o.at) == dest]
        low = me.life < me.max_life * self.explore_life
        value = -1.3 if low else -0.3  # the appearance roll
        late = ctx.view.round >= self.late_round
        for f in foes_there:
            edge = self._edge(me, f)
            if isinstance(f, CharView):
                need = self.engage_late if late else self.engage
                value += 6 + 3 * edge if edge >= need else -4
            elif f.level == 3:
                value += 4 if not ctx.arena else -8
            else:
                value += 1.5 + edge if edge > 0 else -3
        goal = self._goal(ctx)
        if goal >= 0:
            from_goal = distances(ctx.board, ctx.size, goal)
            now = from_goal.get(ctx.cell, 100 + self._manhattan(ctx, ctx.cell, goal))
            then = from_goal.get(dest, 100 + self._manhattan(ctx, dest, goal))
            if then < 100 and now < 100:
                edge = max((self._edge(me, o) for o in ctx.opponents), default=0.0)
                keen = (not ctx.arena or edge >= (self.engage_late if late else self.engage)
                        or self._healthy(me))
                weight = self.approach if keen else -0.5
                value += weight * (now - max(then, 1 if ctx.arena else 0))
            else:
                value += 0.3 * (self._manhattan(ctx, ctx.cell, goal)
                                - self._manhattan(ctx, dest, goal))
                value += 0.5 * self._open_exits(ctx, dest)
        else:
            value += 0.4 * self._open_exits(ctx, dest) - 0.4 * self._open_exits(ctx, ctx.cell)
        return value

    @staticmethod
    def _open_exits(ctx: _Context, cell: int) -> int:
        card = ctx.board[cell]
        if not card:
            return 0
        count = 0
        s = sides(card)
        for d in range(4):
            if s[d] == "#":
                continue
            x, y = cell % ctx.size + (0, 1, 0, -1)[d], cell // ctx.size + (-1, 0, 1, 0)[d]
            if 0 <= x < ctx.size and 0 <= y < ctx.size and not ctx.board[y * ctx.size + x]:
                count += 1
        return count

    def _place(self, ctx: _Context, args: Sequence[str]) -> float:
        """Where to put a dungeon card: toward the goal, or where more exits stay open."""
        if "," in args[0]:
            x, y = (int(v) for v in args[0].split(","))
            cell = y * ctx.size + x
            return -0.3 * self._manhattan(ctx, cell, ctx.cell) if ctx.cell >= 0 else 0.0
        d = _DIR[args[0]]
        x = ctx.cell % ctx.size + (0, 1, 0, -1)[d]
        y = ctx.cell // ctx.size + (-1, 0, 1, 0)[d]
        cell = y * ctx.size + x
        goal = self._goal(ctx)
        if goal < 0:
            centre = (ctx.size // 2) * (ctx.size + 1)
            return -0.2 * self._manhattan(ctx, cell, centre) + 0.1 * (
                (d + 1) % 2)
        return -float(self._manhattan(ctx, cell, goal)) + 0.05 * OPPOSITE[d]

    # ---- stones, portals, services

    def _stone(self, ctx: _Context, args: Sequence[str]) -> float:
        me = ctx.me
        if me is None:
            return 0.0
        data = STONE_BY_KIND[kind_of(args[0])]
        if len(args) == 1:  # saving myself
            return 100.0
        target = args[1]
        if data.kind == "resurrection":
            return 9.0
        if data.kind == "restoration":
            t = ctx.chars.get(target)
            if t is None:
                return -5.0
            missing = t.max_life - t.life
            in_danger = t.life <= 4 or (ctx.here() and t.life <= 6)
            if missing >= data.value or (in_danger and missing >= 2):
                return 7.0 + missing * 0.2
            return -2.0
        # the Portal Stone
        if ctx.arena:
            return -6.0
        if portal(target) != "B" or ctx.boss is not None:
            return -6.0
        ready = self._healthy(me) and all(
            a.life * 10 >= a.max_life * 6 for a in ctx.allies if a.at is not None)
        gathered = sum(1 for a in ctx.allies if a.at is not None)
        return 8.0 if ready and (gathered >= 1 or ctx.view.mode == "solo") else -3.0

    def _keep(self, ctx: _Context, args: Sequence[str]) -> float:
        return 0.0

    def _hop(self, ctx: _Context, args: Sequence[str]) -> float:
        me = ctx.me
        if me is None:
            return 0.0
        cost = 1.0 if args[1] == "gold" else 2.5
        dest_cell = ctx.board.index(args[0])
        goal = self._goal(ctx)
        if goal < 0:
            return -3.0
        here = ctx.dist_from_me.get(goal, 100 + self._manhattan(ctx, ctx.cell, goal))
        there = distances(ctx.board, ctx.size, dest_cell).get(
            goal, 100 + self._manhattan(ctx, dest_cell, goal))
        if not ctx.arena and ctx.boss is not None and dest_cell == goal:
            return 6.0 - cost
        return 1.2 * (here - there) - cost - 2.0

    def _service(self, ctx: _Context, args: Sequence[str]) -> float:
        me = ctx.me
        if me is None:
            return 0.0
        if args[0] == "resurrect":
            return 9.0
        if args[0] == "heal":
            missing = me.max_life - me.life
            return 5.0 + 0.3 * missing if missing >= 5 else -1.0
        return 4.0

    def _end(self, ctx: _Context, args: Sequence[str]) -> float:
        return 0.0

    def _fall(self, ctx: _Context, args: Sequence[str]) -> float:
        return -100.0

    def _choose(self, ctx: _Context, args: Sequence[str]) -> float:
        me = ctx.me
        if me is None:
            return 0.0
        if args[0] == "ability":
            return 1.0 if me.life * 10 >= me.max_life * 5 else -1.0
        return 0.0

    def _recruit(self, ctx: _Context, args: Sequence[str]) -> float:
        if args[0] == "none":
            return -10.0
        return -float(PICK_CAMPAIGN.index(kind_of(args[0])))


BOTS = {"random": RandomBot, "heuristic": HeuristicBot}


def zombie_bot() -> HeuristicBot:
    """The policy every peer computes for a replaced seat (engine version ``kards/1``): the
    heuristic that always plays its best action.  Pinned, so a match file keeps verifying when
    the bots that play for people change."""
    return HeuristicBot(margin=0.0, mix=(0, 1))


def make_bot(name: str) -> RandomBot | HeuristicBot:
    """A new bot of the kind called ``name`` in :data:`BOTS`; ValueError naming the known ones."""
    bots: Mapping[str, Callable[[], RandomBot | HeuristicBot]] = BOTS
    return plugin.make_bot(bots, name)


__all__ = ["BOTS", "HeuristicBot", "RandomBot", "make_bot", "p_hit", "zombie_bot"]
