"""Dungeon Twister bots.  A bot reads only a seat's view; every choice and tie-break comes from a
SHA-256 stream keyed by the caller (never ``random``), and nothing iterates a set or dict of
strings, so the same view and key give the same action under any PYTHONHASHSEED.

* :class:`RandomBot` — uniform among the legal actions.
* :class:`HeuristicBot` — plays to score.  It seals its slow fighters on its own line (they
  guard the exits the enemy must use) and its runners and the Treasure in the rooms next to the
  enemy's line; it scores each legal action by how much it brings its characters nearer the
  enemy's line (a distance map through the known board, face-down rooms counted as passable at a
  price), escapes whenever it can, fights when the odds over the opponent's remaining combat
  cards are good (a wounded target is a kill), chooses combat cards by the same odds, fires the
  Wand at enemies, and places lifted tokens to help its runners and hinder the enemy's.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from engine import plugin
from engine.sim import LegalView
from engine.stream import HashStream, sample_index
from engine.twister.actions import DROP, Action, taken
from engine.twister.board import FACE_DOWN, NEIGHBOURS, Board, board_for
from engine.twister.data import (
    ARMOUR,
    CLERIC,
    GOBLIN,
    LINE_SLOTS,
    LINE_X,
    MEKANORK,
    N_CHARACTERS,
    PER_SEAT,
    POTION,
    ROPE,
    SQUARES,
    STRENGTH,
    SWORD,
    THIEF,
    TREASURE,
    TROLL,
    WALL_WALKER,
    WAND,
    WARRIOR,
    WIDTH,
    WIZARD,
    slot_of,
)
from engine.twister.records import Tok
from engine.twister.rooms import PIT
from engine.twister.rules import participants, strengths
from engine.twister.state import TwisterState
from engine.twister.view import TwisterView

FAR: Final = 10**6
_RUNNERS: Final = (GOBLIN, THIEF, WIZARD, WALL_WALKER)
_GUARDS: Final = (TROLL, WARRIOR)
_WEIGHT: Final = {GOBLIN: 2.0, THIEF: 1.3, WIZARD: 1.2, WALL_WALKER: 1.2, CLERIC: 1.0,
                  MEKANORK: 1.0, WARRIOR: 0.6, TROLL: 0.3}
_REVEAL_PRICE: Final = 3  # the price of entering a face-down room in a distance map
_PIT_PRICE: Final = 6  # the price of a pit for a character that needs a Rope


class RandomBot:
    """Uniform among the legal actions."""

    name = "random"
    reads_view = False  # the driver may pass a LegalView (seat, step, legal) instead

    def choose(self, view: TwisterView | LegalView, key: bytes) -> Action:
        legal: tuple[Action, ...] = view.legal
        if not legal:
            raise ValueError(f"seat {view.seat} has no decision")
        return legal[sample_index(key, len(legal))]


# ---------------------------------------------------------------------- distance maps

_MAPS: dict[tuple[Any, ...], tuple[int, ...]] = {}


def exit_map(board: Board, seat: int, crossing: bool) -> tuple[int, ...]:
    """Per square: an estimate of the steps ``seat``'s character needs to reach the enemy's
    line, through connected squares, pits (at a price unless ``crossing``) and face-down rooms
    (at a price per room entered).  Memoised per board."""
    key = (board.links, board.kinds, seat, crossing)
    found = _MAPS.get(key)
    if found is not None:
        return found
    if len(_MAPS) > 512:
        _MAPS.clear()
    goal = LINE_X[seat ^ 1]
    dist = [FAR] * SQUARES
    heap: list[tuple[int, int]] = []
    for y in range(10):
        sq = y * WIDTH + goal
        dist[sq] = 0
        heap.append((0, sq))
    kinds, links = board.kinds, board.links
    while heap:
        d, sq = heapq.heappop(heap)
        if d > dist[sq]:
            continue
        down = kinds[sq] == FACE_DOWN
        for k in range(4):
            other = NEIGHBOURS[sq * 4 + k]
            if other < 0:
                continue
            other_down = kinds[other] == FACE_DOWN
            if down or other_down:
                # Walls of face-down rooms are unknown: count them open.
                cost = 1 + (_REVEAL_PRICE if other_down != down or (
                    down and slot_of(other) != slot_of(sq)) else 0)
            elif links[sq * 4 + k] == other:
                cost = 1
            else:
                continue
            if kinds[other] == PIT and not crossing:
                cost += _PIT_PRICE
            if d + cost < dist[other]:
                dist[other] = d + cost
                heapq.heappush(heap, (d + cost, other))
    out = tuple(dist)
    _MAPS[key] = out
    return out


def _crosses(t: int, load: int) -> bool:
    return t % PER_SEAT in (THIEF, WIZARD) or (load >= 0 and load % PER_SEAT == ROPE)


class _Ctx:
    """What one decision reads: the state, the seat, and the distance maps."""

    def __init__(self, view: TwisterView) -> None:
        self.state: TwisterState = view.state
        self.seat = view.seat
        board = self.state.board
        self.board = board
        self.maps = {(s, c): exit_map(board, s, c) for s in (0, 1) for c in (False, True)}
        self.tokens: Sequence[Tok] = self.state.tokens

    def dist(self, t: int, sq: int, load: int) -> int:
        return self.maps[(t // PER_SEAT, _crosses(t, load))][sq]

    def threat(self, t: int) -> float:
        """How close enemy ``t`` is to escaping (0 far, up to 10 next to the line)."""
        tok = self.tokens[t]
        if tok.at < 0:
            return 0.0
        return max(0.0, 10.0 - self.dist(t, tok.at, tok.load))


# ---------------------------------------------------------------------- the heuristic


class HeuristicBot:
    """Plays to score (see the module docstring)."""

    name = "heuristic"

    def choose(self, view: TwisterView, key: bytes) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError(f"seat {view.seat} has no decision")
        stream = HashStream(key)
        phase = view.state.phase
        if phase == "team":
            return self._team(view, stream)
        if phase == "place":
            return self._place(view, stream)
        if phase == "card":
            return max(legal, key=lambda a: a.n)
        if phase == "combat":
            return self._combat_card(view, stream)
        ctx = _Ctx(view)
        if phase == "put":
            scored = [(self._put_value(ctx, a), a) for a in legal]
        else:
            scored = [(self._value(ctx, a), a) for a in legal]
        best = max(v for v, _ in scored)
        top = [a for v, a in scored if v >= best - 1e-9]
        return top[stream.below(len(top))]

    # ------------------------------------------------------------------ set-up

    @staticmethod
    def _team(view: TwisterView, stream: HashStream) -> Action:
        """The slow fighters and the Cleric and Mekanork start on the line (they guard it);
        the runners are sealed into rooms near the enemy's line."""
        guards = [TROLL, WARRIOR]
        home = [CLERIC, MEKANORK]
        if stream.below(2):
            guards.reverse()
        order = (home[0], guards[0], guards[1], home[1])  # y = 1, 3, 6, 8
        wanted = Action("team", path=order)
        return wanted if wanted in view.legal else view.legal[stream.below(len(view.legal))]

    @staticmethod
    def _place(view: TwisterView, stream: HashStream) -> Action:
        seat = view.seat
        far = LINE_SLOTS[seat ^ 1]
        mid = (1, 5) if seat == 0 else (2, 6)
        middle = (2, 6) if seat == 0 else (1, 5)
        priority = (GOBLIN, THIEF, TREASURE, WIZARD, WALL_WALKER, ROPE, SWORD, ARMOUR, POTION,
                    WAND)
        preferred = {GOBLIN: far + middle, THIEF: far + middle, TREASURE: far + middle,
                     WIZARD: middle + far, WALL_WALKER: middle + far}
        legal = [a for a in view.legal if a.m >= 0]
        if not legal:
            return view.legal[stream.below(len(view.legal))]
        kinds = {a.m for a in legal}
        for kind in priority:
            if kind not in kinds:
                continue
            for slot in preferred.get(kind, mid + middle + far):
                choice = Action("place", n=slot, m=kind)
                if choice in legal:
                    return choice
            options = [a for a in legal if a.m == kind]
            return options[stream.below(len(options))]
        return legal[stream.below(len(legal))]

    # ------------------------------------------------------------------ combat

    @staticmethod
    def _stakes(ctx: _Ctx, side: Sequence[int]) -> float:
        """What a side stands to lose: a wound per unwounded participant, a kill per wounded
        one and per wounded character carried."""
        total = 0.0
        for t in side:
            tok = ctx.tokens[t]
            total += 10.0 if tok.wounded else 3.0 + 0.3 * STRENGTH[t % PER_SEAT]
            if tok.load >= 0 and tok.load % PER_SEAT < N_CHARACTERS:
                total += 10.0
        return total

    def _fight_odds(self, ctx: _Ctx, attacker: int, target: int,
                    fight: Any = None) -> list[tuple[float, int]]:
        """(expected value, card) for each of this seat's combat cards, the opponent's card
        uniform over its distinct values (what a random opponent does)."""
        state = ctx.state
        if fight is None:
            fight = participants(state, attacker, target)
        attack, defence = strengths(state, fight)
        me = ctx.seat
        attacking = attacker // PER_SEAT == me
        mine = fight.attackers if attacking else fight.defenders
        theirs = fight.defenders if attacking else fight.attackers
        gain = self._stakes(ctx, theirs) + sum(0.8 * ctx.threat(t) for t in theirs)
        loss = self._stakes(ctx, mine)
        base = attack - defence if attacking else defence - attack
        their_cards = sorted(set(state.players[me ^ 1].combat))
        out = []
        for card in sorted(set(state.players[me].combat)):
            win = sum(base + card > c for c in their_cards) / len(their_cards)
            lose = sum(base + card < c for c in their_cards) / len(their_cards)
            out.append((win * gain - lose * loss - 0.6 * card, card))
        return out

    def _combat_card(self, view: TwisterView, stream: HashStream) -> Action:
        ctx = _Ctx(view)
        fight = ctx.state.fight
        assert fight is not None
        odds = self._fight_odds(ctx, fight.attacker, fight.target, fight)
        best = max(v for v, _ in odds)
        cards = [c for v, c in odds if v >= best - 1e-9]
        choice = Action("combat", n=cards[stream.below(len(cards))])
        return choice if choice in view.legal else view.legal[0]

    # ------------------------------------------------------------------ actions

    def _value(self, ctx: _Ctx, action: Action) -> float:
        kind = action.kind
        if kind == "end":
            return 0.0
        if kind in ("move", "jump"):
            return self._move_value(ctx, action)
        tokens = ctx.tokens
        if kind == "attack":
            best = max(v for v, _ in self._fight_odds(ctx, action.who, action.m))
            return best - 1.0
        if kind == "fireball":
            victim = action.m
            hit = 1 + (tokens[victim].load >= 0 and tokens[victim].load % PER_SEAT
                       < N_CHARACTERS)
            return 40.0 * hit if victim // PER_SEAT != ctx.seat else -40.0 * hit
        if kind == "reveal":
            return self._reveal_value(ctx, action)
        if kind in ("heal", "regenerate"):
            t = action.m if kind == "heal" else action.who
            return 4.0 if t // PER_SEAT == ctx.seat else -5.0
        if kind == "drink":
            return 2.5
        if kind in ("rotate", "open", "close", "break", "pass"):
            return self._simulated(ctx, action)
        return 0.0

    def _move_value(self, ctx: _Ctx, action: Action) -> float:
        t = action.who
        tok = ctx.tokens[t]
        start, load = tok.at, tok.load
        end, carry = start, load
        for item in action.path:
            if item >= 0:
                end = item
            elif item == DROP:
                carry = -1
            else:
                carry = taken(item)
        seat = ctx.seat
        kind = t % PER_SEAT
        if end % WIDTH == LINE_X[seat ^ 1]:
            gain = (2 if kind == GOBLIN else 1) + (carry >= 0 and carry % PER_SEAT == TREASURE)
            return 100.0 * gain
        value = self._place_value(ctx, t, end, carry) - self._place_value(ctx, t, start, load)
        if action.kind == "jump":
            value -= 1.5  # a jump card is gone for good
        return value

    def _place_value(self, ctx: _Ctx, t: int, sq: int, carry: int) -> float:
        """How good it is for own character ``t`` to stand on ``sq`` carrying ``carry``."""
        kind = t % PER_SEAT
        d = ctx.dist(t, sq, carry)
        if d >= FAR:
            d = 60
        value = 0.0
        if kind in _GUARDS:
            value -= self._guard_distance(ctx, t, sq) * 0.5
            value -= _WEIGHT[kind] * d
        else:
            value -= _WEIGHT[kind] * d
        if carry >= 0:
            ck = carry % PER_SEAT
            if ck == TREASURE:
                value += 6.0 - 0.4 * d
            elif ck == ROPE and kind not in (THIEF, WIZARD):
                value += 2.0
            elif ck == SWORD and kind in _GUARDS:
                value += 1.5
            elif ck == ARMOUR:
                value += 1.0
            elif ck == WAND and kind == WIZARD:
                value += 3.0
            elif ck == POTION:
                value += 1.0
            elif ck < N_CHARACTERS:
                value -= 4.0
        value -= self._danger(ctx, t, sq)
        return value

    @staticmethod
    def _guard_distance(ctx: _Ctx, t: int, sq: int) -> int:
        """Manhattan distance from ``sq`` to the enemy most likely to escape, if one is near
        this seat's line; else to this seat's own line (a guard waits there)."""
        seat = ctx.seat
        best, target = -1.0, -1
        for e in range(PER_SEAT * (seat ^ 1), PER_SEAT * (seat ^ 1) + N_CHARACTERS):
            threat = ctx.threat(e)
            if threat > best and ctx.tokens[e].at >= 0:
                best, target = threat, e
        if target >= 0 and best >= 3.0:
            at = ctx.tokens[target].at
            return abs(at % WIDTH - sq % WIDTH) + abs(at // WIDTH - sq // WIDTH)
        return abs(sq % WIDTH - LINE_X[seat]) // 2

    @staticmethod
    def _danger(ctx: _Ctx, t: int, sq: int) -> float:
        """A runner next to a stronger unwounded enemy may be wounded next turn."""
        if t % PER_SEAT in _GUARDS:
            return 0.0
        links = ctx.board.links
        occ = ctx.state.occupancy()
        tokens = ctx.tokens
        worst = 0.0
        for k in range(4):
            other = links[sq * 4 + k]
            if other < 0:
                continue
            for u in occ.get(other, ()):
                if (u // PER_SEAT != ctx.seat and u % PER_SEAT < N_CHARACTERS
                        and tokens[u].carrier < 0 and not tokens[u].wounded):
                    edge = STRENGTH[u % PER_SEAT] - STRENGTH[t % PER_SEAT]
                    worst = max(worst, 1.0 + max(0, edge))
        return worst

    def _reveal_value(self, ctx: _Ctx, action: Action) -> float:
        t = action.who
        slot = action.n
        seat = ctx.seat
        at = ctx.tokens[t].at
        column = slot % 4
        here = 0 if at % WIDTH == 0 else 3 if at % WIDTH == WIDTH - 1 else (at % WIDTH - 1) // 5
        ahead = column > here if seat == 0 else column < here
        held = sum(1 for s, _ in ctx.state.facedown[slot] if s == seat)
        return (4.0 if ahead else 1.0) + 1.0 * held

    def _simulated(self, ctx: _Ctx, action: Action) -> float:
        """Rotations, portcullises and wall passing: the change in where every character
        stands from either line, on the board the action leaves."""
        try:
            after = ctx.state.apply(ctx.seat, action)
        except ValueError:
            return -1.0
        if after.phase != "action" and after.phase != "card":
            return 50.0 if after.players[ctx.seat].vp > ctx.state.players[ctx.seat].vp else 0.0
        before = self._board_score(ctx.state, ctx.state.board, ctx.seat)
        after_score = self._board_score(after, board_for(after.rooms, after.gates), ctx.seat)
        cost = abs(action.m) if action.kind == "rotate" else 1
        vp = after.players[ctx.seat].vp - ctx.state.players[ctx.seat].vp
        return after_score - before + 100.0 * vp - 0.5 * cost

    @staticmethod
    def _board_score(state: TwisterState, board: Board, seat: int) -> float:
        total = 0.0
        for t in range(2 * PER_SEAT):
            if t % PER_SEAT >= N_CHARACTERS:
                continue
            tok = state.tokens[t]
            if tok.at < 0 or tok.carrier >= 0:
                continue
            d = exit_map(board, t // PER_SEAT, _crosses(t, tok.load))[tok.at]
            d = min(d, 60)
            if t // PER_SEAT == seat:
                total -= _WEIGHT[t % PER_SEAT] * d
            else:
                total += 0.5 * _WEIGHT[t % PER_SEAT] * min(d, 12)
        return total

    # ------------------------------------------------------------------ placing at a reveal

    def _put_value(self, ctx: _Ctx, action: Action) -> float:
        t, sq = action.who, action.n
        seat = ctx.seat
        if t % PER_SEAT < N_CHARACTERS:
            d = ctx.dist(t, sq, -1)
            if t // PER_SEAT == seat:
                return -_WEIGHT[t % PER_SEAT] * d - self._danger(ctx, t, sq)
            return float(d)  # an enemy: as far from its exit as the room allows
        # An object: near own characters (any colour may be used, A26), away from enemies.
        near_mine = self._nearest(ctx, sq, seat)
        near_theirs = self._nearest(ctx, sq, seat ^ 1)
        return -near_mine + 0.5 * near_theirs

    @staticmethod
    def _nearest(ctx: _Ctx, sq: int, seat: int) -> float:
        best = 30.0
        for t in range(seat * PER_SEAT, seat * PER_SEAT + N_CHARACTERS):
            at = ctx.tokens[t].at
            if at >= 0:
                best = min(best, abs(at % WIDTH - sq % WIDTH) + abs(at // WIDTH - sq // WIDTH))
        return best


BOTS: Final[dict[str, type[RandomBot] | type[HeuristicBot]]] = {
    "random": RandomBot, "heuristic": HeuristicBot}


def make_bot(name: str) -> RandomBot | HeuristicBot:
    """A new bot of the kind called ``name`` in :data:`BOTS`; ValueError naming the known ones."""
    bots: Mapping[str, Callable[[], RandomBot | HeuristicBot]] = BOTS
    return plugin.make_bot(bots, name)


__all__ = ["BOTS", "HeuristicBot", "RandomBot", "exit_map", "make_bot"]
