"""The content pack as data (rules reference §2): the counts and checked properties it states."""

from __future__ import annotations

import itertools
from collections import Counter, deque

import pytest

from engine.paper.data import (
    BRIDGES,
    DUNGEONS,
    GRID,
    MINION_ROOMS,
    MISSIONS,
    OBJECTIVES,
    POWERS,
    PRINTED_WALLS,
    STORIES,
    VILLAINS,
    WATER,
    damage_glory,
    neighbours,
    room,
)
from engine.paper.rounds import all_rolls, rejected


def _distances(blocked: frozenset[tuple[int, int]]) -> dict[int, int]:
    dist = {c: 1 for c in range(6)}  # the entry step into row 1
    queue = deque(range(6))
    while queue:
        a = queue.popleft()
        for b in neighbours(a):
            if (min(a, b), max(a, b)) in blocked or b in dist:
                continue
            dist[b] = dist[a] + 1
            queue.append(b)
    return dist


def test_grid_totals() -> None:
    kinds = Counter(r.minion for r in GRID if r.minion)
    levels = Counter(r.level for r in GRID if r.minion)
    assert len(MINION_ROOMS) == 12 and set(kinds.values()) == {3} and set(levels.values()) == {4}
    assert sorted(r.gem for r in GRID if r.gem) == list("ABCDEFGH")
    assert sum(r.potions for r in GRID) == 8 and sum(1 for r in GRID if r.potions) == 7
    assert sum(r.item for r in GRID) == 6 and sum(r.evo for r in GRID) == 6
    assert sum(r.trap for r in GRID) == 16
    assert sum(1 for r in GRID if r == GRID[room("C7")]) == 9  # empty rooms


def test_the_rulebook_rooms() -> None:
    assert GRID[room("D1")].minion == "goblin" and GRID[room("D1")].potions == 1
    assert GRID[room("F1")].potions == 1
    assert GRID[room("E1")].trap and GRID[room("E1")].item
    assert GRID[room("E4")].minion == "ghost" and GRID[room("E4")].potions == 1


@pytest.mark.parametrize("letter", sorted(DUNGEONS))
def test_dungeon_cards(letter: str) -> None:
    card = DUNGEONS[letter]
    blocked = PRINTED_WALLS | WATER | card.walls
    dist = _distances(blocked)
    assert len(dist) == 42, "every room is reachable without the Cloak or the Medallion"
    assert tuple(dist[r] for r in card.lairs) == card.distances
    assert not card.walls & BRIDGES
    assert not card.walls & PRINTED_WALLS and not card.walls & WATER
    for r in card.lairs:
        assert not GRID[r].minion and not GRID[r].gem
    for a in range(42):  # ruling 3: every room has an open exit
        assert any((min(a, b), max(a, b)) not in blocked for b in neighbours(a))
    weaknesses = {VILLAINS[v].weakness for v in card.villains}
    assert len(weaknesses) == 3
    assert [VILLAINS[v].season for v in card.villains] == [1, 2, 3]


def test_printed_walls_alone_leave_every_room_reachable() -> None:
    assert len(_distances(PRINTED_WALLS | WATER)) == 42


def test_villain_balance() -> None:
    uses = Counter(v for c in DUNGEONS.values() for v in c.villains)
    assert set(uses.values()) == {3} and len(uses) == 12
    for a, b in itertools.combinations(DUNGEONS.values(), 2):
        assert len(set(a.villains) & set(b.villains)) <= 1
    missing = Counter(({0, 1, 2, 3} - {VILLAINS[v].weakness for v in c.villains}).pop()
                      for c in DUNGEONS.values())
    assert set(missing.values()) == {3}
    assert VILLAINS["G"].thresholds == (14, 18, 22) and VILLAINS["G"].flee == -4


def test_cards_and_stories() -> None:
    assert len(MISSIONS) == len(OBJECTIVES) == len(POWERS) == 16
    assert "".join(STORIES.values()) == "ABCDEFGHIJKL"
    assert OBJECTIVES["O1"].styles == "BWWB"  # ruling 40: B/W/W/B, warrior and rogue black


def test_rolls() -> None:
    rolls = all_rolls()
    assert len(rolls) == 6**6 and len(set(rolls)) == 6**6
    accepted = sum(1 for r in rolls if not rejected(r.split()))
    assert accepted == 43535  # §2.1: 43535/46656
    assert "skull" in repr(rolls) or "rolls" in repr(rolls)


def test_damage_glory() -> None:
    table = [0, -1, -1, -2, -2, -3, -3, -4, -4, -5, -5, -6, -6, -8, -8, -10, -10, -12, -12,
             -14, -14, -16, -16, -18, -18, -20, -20]
    assert [damage_glory(d) for d in range(len(table))] == table
