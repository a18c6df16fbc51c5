"""The strong Dungeon Raiders bot: the determinized search of :mod:`engine.search` with this
game's worlds, playout policy and values.

**Worlds** are built from the seat's view alone (ruling 27: it shows another seat only its item
count): the other seats' items are dealt at random from the items nobody can account for (six of
each type, less the supply, the seat's own and those on the table), the undrawn room cards are
drawn at random from the cards not in this level's row (the seat's own torch knowledge among
them, and answered when turned), the level cards left from those not in use.  Another seat's
committed card stays unknown: the playout policy plays it, from that seat's view of the world.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, Final

from engine.core import GameState, Over
from engine.raiders.actions import Action
from engine.raiders.bots import HeuristicBot
from engine.raiders.cards import BOSS_IDS, ITEM_COPIES, ITEMS, LEVEL_CARDS, ROOM_IDS
from engine.raiders.position import from_position, resolution_to_json
from engine.raiders.records import Phase
from engine.raiders.state import RaidersState
from engine.raiders.view import RaidersView
from engine.search import SearchBot, World, final_share
from engine.sim import Bot
from engine.stream import HashStream

ITERATIONS: Final = 64  # playouts a decision
# The value of a seat's standing at the end of level k (k = 1…4), fitted to 1,500 five-seat
# games of the heuristic (a conditional logit: a seat's chance to win is the softmax over the
# seats of coins · _COIN[k] + _GAP[k][wounds − the most wounds among the others, clipped to
# −4…4] + items · _ITEM[k]).  Made monotone in the wound gap.
_COIN: Final = (0.32, 0.41, 0.51, 0.67)
_ITEM: Final = (0.08, 0.05, 0.05, 0.03)
_GAP: Final = (
    (1.49, 0.85, 0.65, 0.27, 0.0, -0.18, -0.18, -0.18, -0.18),
    (1.86, 1.05, 0.73, 0.34, 0.0, -0.0, -0.0, -0.39, -0.39),
    (1.97, 1.17, 0.92, 0.33, 0.0, -0.24, -0.29, -0.29, -0.34),
    (2.51, 1.81, 1.48, 0.93, 0.0, -0.21, -0.72, -0.72, -0.72),
)


def _sample(pool: Sequence[str], k: int, stream: HashStream) -> list[str]:
    """``k`` distinct items of ``pool`` (a partial shuffle from the stream), in pool order."""
    items = list(pool)
    for i in range(k):
        j = i + stream.below(len(items) - i)
        items[i], items[j] = items[j], items[i]
    chosen = set(items[:k])
    return [c for c in pool if c in chosen]


def world_of(view: RaidersView, key: bytes) -> World:
    """A full state that ``view`` allows (see the module docstring)."""
    stream = HashStream(key)
    n = view.players
    me = view.seat
    tactical = view.variant == "tactical"
    # ---- the other seats' items: the ones nobody can account for, dealt at random
    on_table = [0, 0, 0, 0]
    for sv in view.seats:
        for card in (sv.play, sv.followup):
            if card in ("key", "sword"):
                on_table[ITEMS.index(card)] += 1
            elif card == "crystal" and tactical:
                on_table[1] += 1
    loose: list[int] = []
    for t in range(4):
        loose += [t] * max(0, ITEM_COPIES - view.supply[t] - view.items[t] - on_table[t])
    for i in range(len(loose) - 1, 0, -1):
        j = stream.below(i + 1)
        loose[i], loose[j] = loose[j], loose[i]
    seats: list[dict[str, Any]] = []
    for sv in view.seats:
        if sv.seat == me:
            items = list(view.items)
        else:
            items = [0, 0, 0, 0]
            for _ in range(sv.items):
                if loose:
                    items[loose.pop()] += 1
        seats.append({
            "character": sv.character, "coins": sv.coins, "wounds": sv.wounds,
            "items": dict(zip(ITEMS, items, strict=True)), "used": list(sv.used),
            "eliminated": sv.eliminated, "play": sv.play or None,
            "followup": sv.followup or None, "peeks": sv.peeks})
    # ---- the decks
    seen = {f"L{view.level}.R{r.position}": r.peeked for r in view.row if r.peeked}
    shown = {r.card for r in view.row if r.card}
    known_rooms = [c for c in seen.values() if c in ROOM_IDS]
    pool = [c for c in ROOM_IDS if c not in shown and c not in known_rooms]
    rooms = _sample(pool, view.rooms_left - len(known_rooms), stream) + known_rooms
    levels = _sample([c for c in LEVEL_CARDS if c != view.layout], view.level_cards_left,
                     stream)
    in_level = view.phase in ("play", "followup")
    row: list[str | None] = []
    for r in view.row:
        if r.card:
            row.append(r.card)
        elif r.state == "down":
            row.append("down")
        else:
            row.append(None)
    turn = 0
    if tactical and in_level and view.waiting_for:
        order = [(view.map + i) % n for i in range(n)]
        if view.phase == "followup":
            order = [s for s in order if view.seats[s].play == "crystal"]
        turn = order.index(view.waiting_for[0])
    position: dict[str, Any] = {
        "players": n, "variant": view.variant, "phase": view.phase, "level": view.level,
        "room": view.room, "layout": view.layout or None, "row": row, "seats": seats,
        "rooms": [c for c in rooms if c not in BOSS_IDS], "level_cards": levels,
        "map": view.map if view.map >= 0 else None, "turn": turn,
        "private": {str(me): {"pending": view.pending or None, "owed": [], "seen": seen}},
        "last": resolution_to_json(view.last) if view.last else None,
    }
    return World(from_position(position), seen, {})


class RaidersModel:
    """This game's part of the search (:class:`engine.search.Model`)."""

    def __init__(self, samples: int = 6) -> None:
        self.samples = samples

    def candidates(self, view: RaidersView, stream: HashStream) -> Sequence[Action]:
        return view.legal

    def world(self, view: RaidersView, key: bytes) -> World:
        return world_of(view, key)

    def policy(self, seats: int) -> list[Bot]:
        return [HeuristicBot(samples=self.samples) for _ in range(seats)]

    def horizon(self, view: RaidersView) -> Callable[[GameState[Any]], bool] | None:
        level = view.level
        if level >= 5:
            return None

        def stop(state: GameState[Any]) -> bool:
            assert isinstance(state, RaidersState)
            return state.level > level or state.phase is Phase.LEVEL

        return stop

    def value(self, state: GameState[Any], seat: int) -> float:
        if isinstance(state.waiting, Over):
            return final_share(state, seat)
        assert isinstance(state, RaidersState)
        return standing_value(state, seat)


def standing_value(state: RaidersState, seat: int) -> float:
    """``seat``'s chance to win from the end of a level (the fitted model above)."""
    k = min(max(state.level, 1), 4) - 1
    coin, item, gap = _COIN[k], _ITEM[k], _GAP[k]
    players = state.players
    wounds = [p.wounds for p in players]
    z = []
    for i, p in enumerate(players):
        top = max(w for j, w in enumerate(wounds) if j != i)
        d = min(4, max(-4, p.wounds - top))
        z.append(coin * p.coins + gap[d + 4] + item * sum(p.items))
    high = max(z)
    weights = [math.exp(v - high) for v in z]
    return weights[seat] / sum(weights)


def strong_bot(iterations: int = ITERATIONS) -> SearchBot:
    """The ``strong`` level: the search over this game's model."""
    return SearchBot(RaidersModel(), iterations)
