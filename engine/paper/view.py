"""What one seat may know (rules reference §4): every public sheet, the dice, the dungeon card,
its villains and the missions; its own dealt cards, its kept objective and its committed but
unrevealed decision.  Never in a view: another seat's dealt cards, its sealed objective before
it is opened, or its committed decision before the reveal.  A spectator's view (seat ``None``)
holds the public part only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core import Chance, Openings, Over, Simultaneous, Turn
from engine.paper.actions import PaperAction, format_action
from engine.paper.data import ROOM_NAMES
from engine.paper.position import sheet_to_json
from engine.paper.records import OBJECTIVES_DECK, POWERS_DECK
from engine.paper.rounds import villain_of
from engine.paper.score import Score, score_sheet
from engine.paper.sheet import BOARDS, Sheet, explored_count, gems, hp, lairs_reached, track
from engine.paper.state import PaperState


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    status: str  # "choosing", "committed", "rewarding", "opening", "waiting", "resigned"
    sheet: Sheet  # the public sheet
    hp: int
    gem_track: int
    minion_track: int
    explored: int  # rooms explored (the tie-break)
    lairs: tuple[bool, bool, bool]
    setup: str  # the revealed setup choice ("" before the reveal)
    plan: str  # the plan revealed last ("" none)
    fight: int  # the latest fight's combat level (-1: fled or out; -2: no fight yet)
    objective: str  # the kept objective, once opened at the end ("")
    score: Score  # the sheet scored now (objective as opened, else 0)


@dataclass(frozen=True, slots=True)
class PaperView:
    seat: int | None  # None: a spectator
    players: int
    phase: str
    round: int
    season: int
    step: str
    waiting_for: tuple[int, ...]
    options: dict[str, Any]
    dungeon: str
    villains: tuple[str, ...]  # villain letters for seasons I, II, III
    lairs: tuple[str, ...]  # lair rooms 1, 2, 3
    missions: tuple[str, ...]  # drawn
    open_missions: tuple[str, ...]  # still in play
    roll: tuple[str, ...]  # this round's dice (die 1 first), () between rounds
    attempt: int
    seats: tuple[SeatView, ...]
    reward: int  # the seat choosing a reward (-1)
    powers: tuple[str, ...]  # the viewer's dealt powers (deal 0, deal 1; "" unknown)
    objectives: tuple[str, ...]  # the viewer's dealt objectives
    objective: str  # the viewer's kept objective ("" unknown or not chosen)
    pending: str  # the viewer's committed, unrevealed decision
    legal: tuple[PaperAction, ...]  # setup and reward choices (a plan step offers none)
    result: str  # the outcome in words, at the end
    winners: tuple[int, ...]

    @property
    def sheet(self) -> Sheet:
        """The viewer's own sheet."""
        assert self.seat is not None
        return self.seats[self.seat].sheet

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "players": self.players, "phase": self.phase,
            "round": self.round, "season": self.season, "step": self.step,
            "waiting_for": list(self.waiting_for), "options": self.options,
            "dungeon": self.dungeon, "villains": list(self.villains),
            "lairs": list(self.lairs), "missions": list(self.missions),
            "open_missions": list(self.open_missions), "roll": list(self.roll),
            "attempt": self.attempt,
            "seats": [{"seat": s.seat, "status": s.status,
                       "sheet": sheet_to_json(s.sheet, self.dungeon),
                       "setup": s.setup, "plan": s.plan, "fight": s.fight,
                       "objective": s.objective, "score": list(s.score.categories())}
                      for s in self.seats],
            "reward": self.reward, "powers": list(self.powers),
            "objectives": list(self.objectives), "objective": self.objective,
            "pending": self.pending, "legal": [format_action(a) for a in self.legal],
            "result": self.result, "winners": list(self.winners),
        }


def _status(state: PaperState, seat: int) -> str:
    if state.sheets[seat].resigned:
        return "resigned"
    w = state.waiting
    if isinstance(w, Simultaneous):
        return "committed" if seat in w.committed else "choosing"
    if isinstance(w, Turn) and w.seat == seat:
        return "rewarding"
    if isinstance(w, Openings) and seat in w.seats:
        return "opening"
    return "waiting"


def make_view(state: PaperState, seat: int | None) -> PaperView:
    w = state.waiting
    board = BOARDS[state.dungeon] if state.dungeon else None
    opened = [card if state.kept[s] == index >= 0 else ""
              for s, (index, card) in enumerate(state.shown)]
    seats = []
    for s, sheet in enumerate(state.sheets):
        choice = state.setup[s]
        seats.append(SeatView(
            s, _status(state, s), sheet, hp(sheet), gems(sheet), track(sheet),
            explored_count(sheet),
            lairs_reached(sheet, board) if board else (False, False, False),
            format_action(choice) if choice is not None else "", state.plans[s],
            state.fight[s] if state.fight else -2, opened[s],
            score_sheet(sheet, board if board else BOARDS["A"], opened[s])))
    waiting_for: tuple[int, ...] = ()
    if isinstance(w, Simultaneous | Turn):
        waiting_for = tuple(sorted(w.pending))
    elif isinstance(w, Openings):
        waiting_for = tuple(sorted(w.seats))
    powers: tuple[str, ...] = ()
    objectives: tuple[str, ...] = ()
    objective = pending = ""
    legal: tuple[PaperAction, ...] = ()
    if seat is not None:
        k = state.knowledge[seat]
        powers = tuple(state.card(seat, POWERS_DECK, i) for i in (0, 1))
        objectives = tuple(state.card(seat, OBJECTIVES_DECK, i) for i in (0, 1))
        if k.objective >= 0:
            objective = objectives[k.objective]
        if k.pending is not None:
            pending = format_action(k.pending)
        legal = state.legal_actions(seat)
    villains: tuple[str, ...] = ()
    lairs: tuple[str, ...] = ()
    if state.dungeon:
        villains = tuple(villain_of(state.dungeon, k).letter for k in (1, 2, 3))
        lairs = tuple(ROOM_NAMES[r] for r in BOARDS[state.dungeon].lairs)
    o = state.options
    result = ""
    winners: tuple[int, ...] = ()
    if isinstance(w, Over):
        result = w.outcome.reason
        winners = tuple(sorted(w.outcome.winners))
    step = state.step
    if isinstance(w, Chance):
        step = w.event.id
    return PaperView(
        seat, state.n, state.phase.value, state.round, state.season(), step, waiting_for,
        {"missions": o.missions, "missing_gems": o.missing_gems or state.solo,
         "story": o.story, "chapter": o.chapter},
        state.dungeon, villains, lairs, state.missions, state.open_missions, state.roll,
        state.attempt, tuple(seats), state.reward, powers, objectives, objective, pending,
        legal, result, winners)


__all__ = ["PaperView", "SeatView", "make_view"]
