"""Room resolution (rules reference §4): a pure function from the final cards to the effects.

Every effect of a room happens at once; afterwards coins are clamped to 0–20 and wounds to 0 or
more (rulings 20, 21).  The result is a :class:`Resolution`, which also explains the room to a
player (the log of the terminal UI reads it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from engine.raiders.cards import (
    CARDS,
    COIN_CAP,
    ITEMS,
    Boss,
    Category,
    Monster,
    Trap,
    Treasure,
    Vault,
)

NO_CARD: Final = ""
ESCAPED: Final = -1  # the value of a player who escaped a boss


class Resolution(NamedTuple):
    """What a room did.  Per-seat tuples are indexed by seat."""

    level: int
    position: int  # 1..5
    card: str  # room card id
    plays: tuple[str, ...]  # room cards ("" none)
    followups: tuple[str, ...]  # crystal-ball follow-ups ("" none)
    values: tuple[int, ...]  # value of each final card; ESCAPED (-1) for an escaped player
    total: int  # sum of the values that count (monster and boss rooms), else 0
    strength: int  # 0 when not a fight; -1 for an unbeatable boss
    defeated: bool
    attacked: tuple[bool, ...]
    coins: tuple[int, ...]  # coins after the room
    wounds: tuple[int, ...]  # wounds after the room
    coin_delta: tuple[int, ...]
    wound_delta: tuple[int, ...]
    gained: tuple[str, ...]  # item gained from a vault ("" none)
    eliminated: tuple[bool, ...]  # eliminated by this room (Medusa)
    notes: tuple[str, ...]  # plain-words remarks (shortages, no effect, ...)


def card_value(card: str, data: object) -> int:
    """The value of a final card in a room (rules reference §4.0); ESCAPED for an escape."""
    if isinstance(data, Boss):
        if data.escape is not None and card == data.escape:
            return ESCAPED
        for name, value in data.value_override:
            if name == card:
                return value
    if card in ("key", "sword"):
        return 5
    if card == "torch" or card == NO_CARD or card == "crystal":
        return 0
    return int(card)


_PLAIN_VALUE: Final = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "key": 5, "sword": 5, "torch": 0,
                "crystal": 0, NO_CARD: 0}


def map_value(card: str) -> int:
    """The value that decides the tactical map (ruling 25): keys and swords 5, torch 0."""
    if card in ("key", "sword"):
        return 5
    if card in ("torch", "crystal", NO_CARD):
        return 0
    return int(card)


def _share(chest: int, count: int) -> int:
    return chest // count if count else 0


def resolve_room(
    *,
    level: int,
    position: int,
    card_id: str,
    n_setup: int,
    plays: Sequence[str],
    followups: Sequence[str],
    coins: Sequence[int],
    wounds: Sequence[int],
    supply: Sequence[int],
) -> tuple[Resolution, list[int]]:
    """Resolve one room.  Returns the resolution and the item supply after it (before keys and
    swords played here go back, which the caller does in the discard step).

    ``plays``/``followups`` are the revealed cards; the final card is the follow-up where there
    is one.  A crystal ball with no follow-up is the Necromancer escape.
    """
    return _resolve_room(level, position, card_id, n_setup, tuple(plays), tuple(followups),
                         tuple(coins), tuple(wounds), list(supply))


def _resolve_room(level: int, position: int, card_id: str, n_setup: int,
                  plays: tuple[str, ...], followups: tuple[str, ...], coins: tuple[int, ...],
                  wounds: tuple[int, ...], supply: list[int]
                  ) -> tuple[Resolution, list[int]]:
    # Concrete argument types (not Sequence): the compiled build indexes them directly.
    room = CARDS[card_id]
    data = room.data
    n = len(plays)
    if isinstance(data, Boss):
        values = [card_value(f or p, data) for p, f in zip(plays, followups, strict=True)]
    else:
        values = [_PLAIN_VALUE[f or p] for p, f in zip(plays, followups, strict=True)]
    new_coins = list(coins)
    new_wounds = list(wounds)
    gained = [NO_CARD] * n
    attacked = [False] * n
    eliminated = [False] * n
    notes: list[str] = []
    new_supply = supply  # the caller's own list, updated in place
    total = 0
    strength = 0
    defeated = False

    if isinstance(data, Treasure):
        eligible = sorted({v for v in values if v >= 1}, reverse=True)
        if eligible:
            v1 = eligible[0]
            top = [s for s in range(n) if values[s] == v1]
            for s in top:
                new_coins[s] += _share(data.big, len(top))
            if data.big < len(top):
                notes.append(f"the {data.big}-coin chest cannot be split {len(top)} ways")
            if data.second:
                if len(eligible) > 1:
                    v2 = eligible[1]
                    second = [s for s in range(n) if values[s] == v2]
                    for s in second:
                        new_coins[s] += _share(data.second, len(second))
                    if data.second < len(second):
                        notes.append(
                            f"the {data.second}-coin chest cannot be split {len(second)} ways")
                else:
                    notes.append("nobody played a lower card: the second chest stays")
        else:
            notes.append("nobody played a power card: the chests stay")

    elif isinstance(data, Monster | Boss):
        fighters = [s for s in range(n) if values[s] != ESCAPED]
        total = sum(values[s] for s in fighters)
        boss = data if isinstance(data, Boss) else None
        stats = data.strength
        strength = stats[n_setup - 3] if stats is not None else -1
        defeated = stats is not None and total >= strength
        if not defeated and fighters:
            pick = max if boss is not None and boss.attacks_highest else min
            target = pick(values[s] for s in fighters)
            for s in fighters:
                if values[s] == target:
                    attacked[s] = True
        if boss is None:
            assert isinstance(data, Monster)
            for s in range(n):
                if attacked[s]:
                    new_wounds[s] += data.wounds
        else:
            for s in range(n):
                if attacked[s]:
                    new_wounds[s] += boss.wounds
                    new_coins[s] -= boss.coins
                    if boss.eliminates:
                        eliminated[s] = True
            if boss.top_bonus and fighters:
                top_value = max(values[s] for s in fighters)
                all_same = all(values[s] == top_value for s in fighters)
                if defeated or not all_same:
                    for s in fighters:
                        if values[s] == top_value:
                            new_coins[s] += boss.top_bonus
                else:
                    notes.append("everyone played the same value: nobody gains coins")
        if not fighters:
            notes.append("everyone escaped")

    elif isinstance(data, Vault):
        asks: dict[int, list[int]] = {}
        for s in range(n):
            v = values[s]
            if v < 1:
                continue
            benefit = data.benefits[v - 1]
            if benefit.item is not None:
                asks.setdefault(benefit.item, []).append(s)
            elif benefit.coins:
                new_coins[s] += benefit.coins
            else:
                new_wounds[s] -= benefit.heal
        for item, seats in sorted(asks.items()):
            if len(seats) <= new_supply[item]:
                new_supply[item] -= len(seats)
                for s in seats:
                    gained[s] = ITEMS[item]
            else:
                notes.append(
                    f"{len(seats)} asked for a {ITEMS[item]} and {new_supply[item]} "
                    f"{'is' if new_supply[item] == 1 else 'are'} in the supply: nobody gets one")

    else:
        assert isinstance(data, Trap)
        h = max(values) if values else 0
        penalty = data.penalty[max(h, 0)]
        if penalty:
            if data.target == "coins":
                most = max(coins)
                if most == 0:
                    notes.append("the richest have no coins: the trap takes nothing")
                for s in range(n):
                    if coins[s] == most and most > 0:
                        attacked[s] = True
                        new_coins[s] -= penalty
            else:
                fewest = min(wounds)
                for s in range(n):
                    if wounds[s] == fewest:
                        attacked[s] = True
                        new_wounds[s] += penalty
        else:
            notes.append(f"the highest card is {h}: the trap does nothing")

    final_coins = tuple([c if 0 <= c <= COIN_CAP else (0 if c < 0 else COIN_CAP)
                         for c in new_coins])
    final_wounds = tuple([w if w >= 0 else 0 for w in new_wounds])
    resolution = tuple.__new__(Resolution, (  # Resolution(...) without its interpreted __new__
        level, position, card_id, plays, followups, tuple(values), total,
        strength, defeated, tuple(attacked), final_coins, final_wounds,
        tuple([a - b for a, b in zip(final_coins, coins, strict=True)]),
        tuple([a - b for a, b in zip(final_wounds, wounds, strict=True)]),
        tuple(gained), tuple(eliminated), tuple(notes)))
    return resolution, new_supply


def category_of(card_id: str) -> Category:
    return CARDS[card_id].category
