"""Toy Grid: a minimal game for the client's tests — registered at run time, touching no file of
the program.

A 3 x 3 grid, cells ``a1`` … ``c3`` (columns a-c, rows 1-3).  A public chance event blocks one
cell.  Then, for ``rounds`` rounds, every seat at once plans two free cells (``claim a1 b2``); a
cell claimed by one seat alone becomes that seat's, a cell claimed by several stays free.  The
game ends after the last round, or when fewer than two cells are free: most cells wins, a tie is
shared.  Everything is public except a seat's plan until the round is revealed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.core import (
    Chance,
    ChanceEvent,
    GameSpec,
    GameState,
    IllegalActionError,
    InvalidActionError,
    NotYourDecisionError,
    OptionSpec,
    Outcome,
    Over,
    Simultaneous,
    Standing,
    Visibility,
    Waiting,
)
from engine.games import register
from engine.stream import sample_index

GAME = "toy-grid"
COLUMNS = "abc"
CELLS = tuple(f"{c}{r}" for r in (1, 2, 3) for c in COLUMNS)  # a1 b1 c1 a2 ... c3
FREE, BLOCKED = -1, -2
Plan = tuple[str, str]  # two cells, sorted


def cell_name(row: int, column: int) -> str:
    return f"{COLUMNS[column]}{row + 1}"


@dataclass(frozen=True)
class GridView:
    """What one seat may know: the whole grid, the round, its own plan, the log."""

    seat: int
    players: int
    round: int
    rounds: int
    owner: tuple[int, ...]  # per cell: a seat, FREE or BLOCKED
    step: str
    legal: tuple[Plan, ...]
    mine: str  # this seat's plan, committed and not yet revealed ("" none)
    log: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "round": f"{self.round} of {self.rounds}",
                "cells": {c: "free" if o == FREE else "blocked" if o == BLOCKED else
                          f"seat {o}" for c, o in zip(CELLS, self.owner, strict=True)},
                "your plan": self.mine, "legal": [format_plan(p) for p in self.legal],
                "log": list(self.log)}


def format_plan(plan: Plan) -> str:
    return f"claim {plan[0]} {plan[1]}"


@dataclass(frozen=True)
class GridState(GameState[Plan]):
    """See the module."""

    game: ClassVar[str] = GAME
    n: int
    rounds: int
    owner: tuple[int, ...] = (FREE,) * 9
    round: int = 0  # 0: the blocked cell is not drawn yet
    plans: tuple[tuple[int, Plan], ...] = ()  # committed, not revealed (private)
    log: tuple[str, ...] = ()

    # ------------------------------------------------------------------ waiting

    def _free(self) -> tuple[str, ...]:
        return tuple(c for c, o in zip(CELLS, self.owner, strict=True) if o == FREE)

    def _over(self) -> bool:
        return self.round > self.rounds or (self.round > 0 and len(self._free()) < 2)

    @property
    def waiting(self) -> Waiting:
        if self.round == 0:
            return Chance(ChanceEvent("setup.block", CELLS, Visibility.PUBLIC))
        if self._over():
            return Over(self._outcome())
        committed = frozenset(s for s, _ in self.plans)
        return Simultaneous(f"R{self.round}.plan", frozenset(range(self.n)), committed)

    @property
    def seats(self) -> int:
        return self.n

    def _outcome(self) -> Outcome:
        counts = [self.owner.count(s) for s in range(self.n)]
        best = max(counts)
        winners = frozenset(s for s in range(self.n) if counts[s] == best)
        standings = tuple(Standing(s, "winner" if s in winners else "lost", counts[s], 0,
                                   f"{counts[s]} cells") for s in range(self.n))
        return Outcome(winners, standings, f"most cells: {best}")

    # ------------------------------------------------------------------ decisions

    def legal_actions(self, seat: int) -> tuple[Plan, ...]:
        w = self.waiting
        if not isinstance(w, Simultaneous) or seat not in w.pending:
            return ()
        free = self._free()
        return tuple((a, b) for i, a in enumerate(free) for b in free[i + 1:])

    def check(self, seat: int, action: Plan) -> None:
        w = self.waiting
        if not isinstance(w, Simultaneous) or seat not in w.pending:
            raise NotYourDecisionError(f"seat {seat} has no plan to make now")
        for cell in action:
            owner = self.owner[CELLS.index(cell)]
            if owner == BLOCKED:
                raise IllegalActionError(f"illegal '{format_plan(action)}': {cell} is blocked")
            if owner != FREE:
                raise IllegalActionError(f"illegal '{format_plan(action)}': {cell} is taken")

    def apply(self, seat: int, action: Plan) -> GridState:
        self.check(seat, action)
        state = dataclasses.replace(self, plans=(*self.plans, (seat, action)))
        if len(state.plans) == self.n:
            return self._resolve(dict(state.plans))
        return state

    def apply_joint(self, actions: Mapping[int, Plan]) -> GridState:
        w = self.waiting
        if not isinstance(w, Simultaneous) or set(actions) != set(w.pending):
            raise IllegalActionError("a joint plan names every seat of the round")
        for seat, action in actions.items():
            self.check(seat, action)
        return self._resolve(dict(actions))

    def _resolve(self, plans: Mapping[int, Plan]) -> GridState:
        owner = list(self.owner)
        claims: dict[str, list[int]] = {}
        for seat, plan in sorted(plans.items()):
            for cell in plan:
                claims.setdefault(cell, []).append(seat)
        taken, contested = [], []
        for cell, seats in sorted(claims.items()):
            if len(seats) == 1:
                owner[CELLS.index(cell)] = seats[0]
                taken.append(f"seat {seats[0]} takes {cell}")
            else:
                contested.append(cell)
        words = "; ".join(taken) or "nobody takes a cell"
        if contested:
            words += f"; {', '.join(contested)} contested, still free"
        return dataclasses.replace(self, owner=tuple(owner), round=self.round + 1, plans=(),
                                   log=(*self.log, f"Round {self.round}: {words}."))

    def apply_chance(self, event_id: str, outcome: str) -> GridState:
        if self.round != 0 or event_id != "setup.block" or outcome not in CELLS:
            raise IllegalActionError(f"no chance event {event_id!r} -> {outcome!r} now")
        owner = list(self.owner)
        owner[CELLS.index(outcome)] = BLOCKED
        return dataclasses.replace(self, owner=tuple(owner), round=1,
                                   log=(f"{outcome} is blocked.",))

    # ------------------------------------------------------------------ notation and views

    def parse_action(self, seat: int, text: str) -> Plan:
        words = text.lower().split()
        if len(words) != 3 or words[0] != "claim" or any(w not in CELLS for w in words[1:]):
            raise InvalidActionError(f"unknown action {text!r} (write: claim a1 b2)")
        if words[1] == words[2]:
            raise InvalidActionError(f"unknown action {text!r}: two different cells")
        plan = (min(words[1:]), max(words[1:]))
        self.check(seat, plan)
        return plan

    def format_action(self, action: Plan) -> str:
        return format_plan(action)

    def view(self, seat: int) -> GridView:
        mine = next((format_plan(p) for s, p in self.plans if s == seat), "")
        return GridView(seat, self.n, self.round, self.rounds, self.owner,
                        str(getattr(self.waiting, "step", "")), self.legal_actions(seat), mine,
                        self.log)

    def public(self) -> GridState:
        return dataclasses.replace(self, plans=())

    def spectator_view(self) -> GridView:
        """The public grid: no seat, no legal moves, no plan of anyone's."""
        return GridView(-1, self.n, self.round, self.rounds, self.owner,
                        str(getattr(self.waiting, "step", "")), (), "", self.log)

    def to_position(self, *, private: bool = True) -> Any:
        return {"players": self.n, "rounds": self.rounds, "owner": list(self.owner),
                "round": self.round, "log": list(self.log),
                "plans": [[s, list(p)] for s, p in self.plans] if private else []}

    @classmethod
    def from_position(cls, data: Any) -> GridState:
        return cls(int(data["players"]), int(data["rounds"]),
                   tuple(int(o) for o in data["owner"]), int(data["round"]),
                   tuple((int(s), (str(p[0]), str(p[1]))) for s, p in data["plans"]),
                   tuple(str(line) for line in data["log"]))


def new_grid(players: int = 2, rounds: int = 2) -> GridState:
    if players not in (2, 3):
        raise ValueError(f"Toy Grid is for 2 or 3 players, not {players}")
    return GridState(players, rounds)


class RandomBot:
    name = "random"

    def choose(self, view: GridView, key: bytes) -> Plan:
        return view.legal[sample_index(key, len(view.legal))]


class CornerBot:
    """Claims the free cells nearest the corners first."""

    name = "corner"
    ORDER = ("a1", "c3", "c1", "a3", "b2", "b1", "a2", "c2", "b3")

    def choose(self, view: GridView, key: bytes) -> Plan:
        free = [c for c in self.ORDER if view.owner[CELLS.index(c)] == FREE]
        a, b = free[0], free[1]
        return (min(a, b), max(a, b))


SPEC = register(GameSpec(
    name=GAME, title="Toy Grid", players=(2, 3), variants=(), new=new_grid,
    from_position=GridState.from_position, engine_version="toy-grid/1",
    bots={"random": RandomBot, "corner": CornerBot}, zombie=CornerBot,
    options=(OptionSpec("rounds", 2, "rounds of plans", bounds=(1, 4)),)))
