"""A small test game that rolls dice, registered at run time, for dice pools (protocol.md §7.12).

``toy-dice`` (2 to 8 seats) draws its dice from the pools; ``toy-dice-classic`` is the same game
with a commitment round per die (§7.3), the baseline of ``python -m benchmarks dice``.  Seats
take turns, ``turns`` decisions in all (option, default 24).  A decision (step ``t<k>``) is
``roll`` (one die, ``d<k>.1``), ``roll2`` (one die, and a second ``d<k>.2`` only if the first
shows 4 or more: how many dice a decision poses can depend on the dice) or ``pass`` (none); the
option ``dice=one`` allows ``roll`` only.  A seat scores what it rolls; the highest total wins.
Its zombie rolls."""

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
    InvalidChanceError,
    OptionSpec,
    Outcome,
    Over,
    Standing,
    Turn,
    Visibility,
    Waiting,
)
from engine.games import register
from engine.stream import sample_index

GAME = "toy-dice"
CLASSIC = "toy-dice-classic"
FACES = ("1", "2", "3", "4", "5", "6")


@dataclass(frozen=True)
class DiceToy(GameState[str]):
    game: ClassVar[str] = GAME
    n: int
    turns: int = 24
    only_one: bool = False
    turn: int = 0  # decisions taken
    pending: tuple[str, ...] = ()  # dice posed by the last decision, not rolled yet
    rolled: tuple[tuple[str, int], ...] = ()  # the last decision's dice: (event id, face)
    scores: tuple[int, ...] = ()

    @property
    def waiting(self) -> Waiting:
        if self.pending:
            return Chance(ChanceEvent(self.pending[0], FACES, Visibility.PUBLIC))
        if self.turn >= self.turns:
            best = max(self.scores)
            winners = frozenset(s for s, v in enumerate(self.scores) if v == best)
            return Over(Outcome(winners, tuple(
                Standing(s, "winner" if s in winners else "lost", v, 0)
                for s, v in enumerate(self.scores)), "highest"))
        return Turn(f"t{self.turn + 1}", self.turn % self.n)

    @property
    def seats(self) -> int:
        return self.n

    def legal_actions(self, seat: int) -> tuple[str, ...]:
        w = self.waiting
        if not isinstance(w, Turn) or w.seat != seat:
            return ()
        return ("roll",) if self.only_one else ("pass", "roll", "roll2")

    def lists_actions(self, seat: int) -> bool:
        return True

    def parse_action(self, seat: int, text: str) -> str:
        if text not in ("pass", "roll", "roll2"):
            raise InvalidActionError(f"no action {text!r} (pass, roll or roll2)")
        if text not in self.legal_actions(seat):
            raise IllegalActionError(f"seat {seat} may not {text} now")
        return text

    def format_action(self, action: str) -> str:
        return action

    def check(self, seat: int, action: str) -> None:
        self.parse_action(seat, action)

    def apply(self, seat: int, action: str) -> DiceToy:
        self.parse_action(seat, action)
        k = self.turn + 1
        return dataclasses.replace(self, turn=k, rolled=(), pending=(
            () if action == "pass" else (f"d{k}.1",)) + ((f"d{k}.2",) if action == "roll2"
                                                        else ()))

    def apply_joint(self, actions: Mapping[int, str]) -> DiceToy:
        if len(actions) != 1:
            raise IllegalActionError("one seat decides at a time")
        ((seat, action),) = actions.items()
        return self.apply(seat, action)

    def apply_chance(self, event_id: str, outcome: str) -> DiceToy:
        if not self.pending or event_id != self.pending[0] or outcome not in FACES:
            raise InvalidChanceError(f"{event_id} = {outcome!r} is not pending")
        face = int(outcome)
        seat = (self.turn - 1) % self.n
        scores = list(self.scores)
        scores[seat] += face
        rest = self.pending[1:]
        if event_id.endswith(".1") and face < 4:
            rest = ()  # (roll2: no second die under 4)
        return dataclasses.replace(self, pending=rest, scores=tuple(scores),
                                   rolled=(*self.rolled, (event_id, face)))

    def view(self, seat: int) -> Any:
        return (self, seat)

    def spectator_view(self) -> Any:
        return (self.public(), None)

    def to_position(self, *, private: bool = True) -> Any:
        return {"turn": self.turn, "pending": list(self.pending), "scores": list(self.scores)}

    @classmethod
    def from_position(cls, data: Any) -> DiceToy:
        raise NotImplementedError


@dataclass(frozen=True)
class ClassicDiceToy(DiceToy):
    game: ClassVar[str] = CLASSIC

    def upcoming_events(self) -> tuple[str, ...]:
        return self.pending[:1]


class RandomBot:
    def choose(self, view: tuple[DiceToy, int], key: bytes) -> str:
        state, seat = view
        legal = state.legal_actions(seat) or ("roll",)
        return legal[sample_index(key, len(legal))]


class Zombie:
    def choose(self, view: tuple[DiceToy, int], key: bytes) -> str:
        return "roll"


OPTIONS = (OptionSpec("turns", 24, "decisions in all", bounds=(1, 1000)),
           OptionSpec("dice", "mixed", "one: every decision rolls one die", choices=(
               "mixed", "one")))


def new_toy(players: int = 3, turns: int = 24, dice: str = "mixed") -> DiceToy:
    return DiceToy(players, turns, dice == "one", scores=(0,) * players)


def new_classic(players: int = 3, turns: int = 24, dice: str = "mixed") -> ClassicDiceToy:
    return ClassicDiceToy(players, turns, dice == "one", scores=(0,) * players)


register(GameSpec(name=GAME, title="Toy dice (pools)", players=tuple(range(2, 9)),
                  variants=("basic",), new=new_toy, from_position=DiceToy.from_position,
                  engine_version="toy-dice/1", bots={"random": RandomBot}, zombie=Zombie,
                  options=OPTIONS, dice_pools=True))
register(GameSpec(name=CLASSIC, title="Toy dice (a round per die)", players=tuple(range(2, 9)),
                  variants=("basic",), new=new_classic,
                  from_position=ClassicDiceToy.from_position, engine_version="toy-dice/1",
                  bots={"random": RandomBot}, zombie=Zombie, options=OPTIONS))
