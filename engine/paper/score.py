"""What a sheet counts: the metrics of missions and objectives (§2.7, §2.8, rulings 34–36), and
final scoring, categories A–L (§3.14)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, NamedTuple

from engine.core import Outcome, Standing
from engine.paper.data import (
    GEM_GLORY,
    ITEM_BONUS,
    LOWEST_LEVEL_GLORY,
    MAX_LEVEL,
    MINION_GLORY,
    OBJECTIVE_TIER_GLORY,
    OBJECTIVES,
    POWERS,
    RESURRECTION_GLORY,
    damage_glory,
)
from engine.paper.sheet import (
    Board,
    Sheet,
    columns_with,
    corners,
    edges,
    explored_count,
    full_columns,
    full_rows,
    gems,
    heroes_at,
    hp,
    items_done,
    lairs_reached,
    minions_of_level,
    track,
)

Metric = Callable[[Sheet, Board], int]


def _minion_levels(s: Sheet, b: Board) -> int:
    return sum(1 for level in (3, 4, 5) if minions_of_level(s, level))


def _villain_glory(s: Sheet, b: Board) -> int:
    return sum(v for v in s.villains if v is not None)


METRICS: Final[dict[str, Metric]] = {
    "minion_levels": _minion_levels,
    "heroes_at_3": lambda s, b: heroes_at(s, 3),
    "heroes_at_4": lambda s, b: heroes_at(s, 4),
    "heroes_at_5": lambda s, b: heroes_at(s, 5),
    "heroes_at_6": lambda s, b: heroes_at(s, 6),
    "full_rows": lambda s, b: full_rows(s),
    "full_columns": lambda s, b: full_columns(s),
    "columns_4": lambda s, b: columns_with(s, 4),
    "potions": lambda s, b: s.potions,
    "minions": lambda s, b: track(s),
    "minions_l3": lambda s, b: minions_of_level(s, 3),
    "minions_l4": lambda s, b: minions_of_level(s, 4),
    "minions_l5": lambda s, b: minions_of_level(s, 5),
    "gems": lambda s, b: gems(s),
    "corners": lambda s, b: corners(s),
    "edges": lambda s, b: edges(s),
    "traps": lambda s, b: s.traps,
    "traps_and_crossings": lambda s, b: s.traps + s.crossings,
    "explored": lambda s, b: explored_count(s),
    "items_done": lambda s, b: items_done(s),
    "hp": lambda s, b: hp(s),
    "lairs": lambda s, b: sum(lairs_reached(s, b)),
    "villain_glory": _villain_glory,
}


def objective_glory(objective: str, s: Sheet, b: Board) -> int:
    """The glory of the highest tier of ``objective`` the sheet reaches (ruling 36)."""
    if not objective:
        return 0
    o = OBJECTIVES[objective]
    value = METRICS[o.metric](s, b)
    glory = 0
    for threshold, g in zip(o.tiers, OBJECTIVE_TIER_GLORY, strict=True):
        if value >= threshold:
            glory = g
    return glory


class Score(NamedTuple):
    """Final scoring of one sheet, categories A–K and the total L."""

    villains: tuple[int, int, int]  # A, B, C
    evolution: int  # D
    items: int  # E
    gems: int  # F
    minions: int  # G
    damage: int  # H
    resurrection: int  # I
    cards: int  # J: objective plus power
    missions: int  # K

    @property
    def total(self) -> int:
        return (sum(self.villains) + self.evolution + self.items + self.gems + self.minions
                + self.damage + self.resurrection + self.cards + self.missions)

    def categories(self) -> tuple[int, ...]:
        """A … L, as the sheet's score box shows them."""
        a, b, c = self.villains
        return (a, b, c, self.evolution, self.items, self.gems, self.minions, self.damage,
                self.resurrection, self.cards, self.missions, self.total)


def score_sheet(s: Sheet, board: Board, objective: str = "") -> Score:
    """Final scoring of a sheet (§3.14); ``objective`` is the kept objective ("" when it was
    never opened: it scores 0)."""
    lv = s.levels
    evolution = LOWEST_LEVEL_GLORY[min(lv)] + lv.count(MAX_LEVEL)
    items = 0
    for i, boxes in enumerate(s.items):
        items += boxes + ITEM_BONUS[i] if boxes == 2 else boxes
    power = POWERS[s.power].glory if s.power else 0
    a, b, c = s.villains
    missions = 0
    for _, g in s.missions:
        missions += g
    return Score(
        (a or 0, b or 0, c or 0), evolution, items, GEM_GLORY[gems(s)], MINION_GLORY[track(s)],
        damage_glory(s.damage), RESURRECTION_GLORY if s.resurrected else 0,
        (objective_glory(objective, s, board) if objective else 0) + power, missions)


CATEGORY_LETTERS: Final = "ABCDEFGHIJKL"


def describe(score: Score) -> str:
    return " ".join(f"{k}{v:+d}" if k != "L" else f"L={v}"
                    for k, v in zip(CATEGORY_LETTERS, score.categories(), strict=True))


def outcome(sheets: Sequence[Sheet], board: Board, objectives: Sequence[str],
            notes: Sequence[str] = ()) -> Outcome:
    """The result: the highest total wins; a tie goes to more explored rooms, then is shared
    (ruling 38).  A resigned seat is ranked nowhere (its frozen sheet's total is shown)."""
    scores = [score_sheet(s, board, objectives[i]) for i, s in enumerate(sheets)]
    live = [i for i, s in enumerate(sheets) if not s.resigned]
    winners: frozenset[int] = frozenset()
    if live:
        best = max((scores[i].total, explored_count(sheets[i])) for i in live)
        winners = frozenset(i for i in live
                            if (scores[i].total, explored_count(sheets[i])) == best)
    standings = []
    for i, s in enumerate(sheets):
        status = "resigned" if s.resigned else "winner" if i in winners else "lost"
        detail = describe(scores[i])
        if i < len(notes) and notes[i]:
            detail += f"; {notes[i]}"
        standings.append(Standing(i, status, scores[i].total, explored_count(s), detail))
    if not winners:
        reason = "every seat resigned: nobody wins"
    elif len(winners) > 1:
        reason = ("shared win: " + ", ".join(f"seat {i}" for i in sorted(winners))
                  + f" with {scores[min(winners)].total} glory")
    else:
        (w,) = winners
        reason = f"seat {w} wins with {scores[w].total} glory"
    return Outcome(winners, tuple(standings), reason)


def story_outcome(chapters: Sequence[Outcome]) -> Outcome:
    """A story's result (§3.16): each seat's chapter totals summed; the highest sum wins, a tie
    is shared.  ``chapters`` are the outcomes of the story's games, in order, seat for seat."""
    if not chapters:
        raise ValueError("a story has at least one chapter")
    seats = len(chapters[0].standings)
    if any(len(c.standings) != seats for c in chapters):
        raise ValueError("every chapter of a story has the same seats")
    totals = [sum(c.standings[i].score for c in chapters) for i in range(seats)]
    best = max(totals)
    winners = frozenset(i for i, t in enumerate(totals) if t == best)
    standings = tuple(Standing(i, "winner" if i in winners else "lost", totals[i], 0,
                               " + ".join(str(c.standings[i].score) for c in chapters))
                      for i in range(seats))
    names = ", ".join(f"seat {i}" for i in sorted(winners))
    reason = (f"{names} {'share' if len(winners) > 1 else 'wins'} the story with {best} glory "
              f"over {len(chapters)} chapter{'s' if len(chapters) > 1 else ''}")
    return Outcome(winners, standings, reason)
