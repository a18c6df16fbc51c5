"""A small test game for two (or three) seats, registered at run time: a public chance event,
a simultaneous step ``s1``, another chance event, a step ``s2``, a turn of seat 0, the end.
With the option ``forfeit`` the game has a forfeit result (a seat that forfeits is out; the
last seat in wins) and a draw by agreement; without it, it has neither (``GameState.forfeit``
raises, as the default ``resign`` does).  Its random bot is also its zombie.
``toy-duel-forfeit`` is the same game with forfeits and no zombie: a replaced seat forfeits
(``GameSpec.replaced``)."""

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
    Outcome,
    Over,
    Simultaneous,
    Standing,
    Turn,
    Visibility,
    Waiting,
)
from engine.games import register
from engine.stream import sample_index

GAME = "toy-duel"
FORFEIT_GAME = "toy-duel-forfeit"


@dataclass(frozen=True)
class Duel(GameState[str]):
    game: ClassVar[str] = GAME
    n: int
    forfeits: bool
    stage: int = 0
    out: frozenset[int] = frozenset()  # seats that forfeited
    record: tuple[str, ...] = ()
    drawn: bool = False  # every live seat agreed to a draw (a game with forfeits has draws)

    @property
    def waiting(self) -> Waiting:
        left = [s for s in range(self.n) if s not in self.out]
        if self.drawn:
            return Over(Outcome(frozenset(left), tuple(
                Standing(s, "drawn" if s in left else "lost", 0, 0) for s in range(self.n)),
                "draw"))
        if len(left) <= 1 or self.stage >= 5:
            winners = frozenset(left if self.out else (0,))
            return Over(Outcome(winners, tuple(
                Standing(s, "winner" if s in winners else "lost", 0, 0) for s in range(self.n)),
                "forfeit" if self.out else "duel"))
        if self.stage == 0:
            return Chance(ChanceEvent("c1", ("a", "b"), Visibility.PUBLIC))
        if self.stage == 1:
            return Simultaneous("s1", frozenset(left))
        if self.stage == 2:
            return Chance(ChanceEvent("c2", ("c", "d"), Visibility.PUBLIC))
        if self.stage == 3:
            return Simultaneous("s2", frozenset(left))
        return Turn("t1", 0)

    @property
    def seats(self) -> int:
        return self.n

    def upcoming_events(self) -> tuple[str, ...]:
        return {0: ("c1",), 2: ("c2",)}.get(self.stage, ())

    def legal_actions(self, seat: int) -> tuple[str, ...]:
        if isinstance(self.waiting, Over) or seat in self.out:
            return ()
        if self.stage in (1, 3):
            return ("x", "y")
        return ("x",) if self.stage == 4 and seat == 0 else ()

    def check(self, seat: int, action: str) -> None:
        if action not in self.legal_actions(seat):
            raise IllegalActionError(f"seat {seat} may not {action} now")

    def apply(self, seat: int, action: str) -> Duel:
        self.check(seat, action)
        if self.stage != 4:
            raise IllegalActionError("decided together")
        return dataclasses.replace(self, stage=5, record=(*self.record, action))

    def apply_joint(self, actions: Mapping[int, str]) -> Duel:
        for seat, action in actions.items():
            self.check(seat, action)
        return dataclasses.replace(self, stage=self.stage + 1, record=(
            *self.record, *(f"{s}:{a}" for s, a in sorted(actions.items()))))

    def apply_chance(self, event_id: str, outcome: str) -> Duel:
        return dataclasses.replace(self, stage=self.stage + 1, record=(*self.record, outcome))

    def resign(self, seat: int) -> Duel:
        if not self.forfeits:
            return super().resign(seat)
        if isinstance(self.waiting, Over) or seat in self.out:
            raise IllegalActionError(f"seat {seat} cannot forfeit now")
        return dataclasses.replace(self, out=self.out | {seat},
                                   record=(*self.record, f"{seat}:forfeit"))

    def agree_draw(self) -> Duel:
        if not self.forfeits:
            return super().agree_draw()
        if isinstance(self.waiting, Over):
            raise IllegalActionError("the game is over")
        return dataclasses.replace(self, drawn=True, record=(*self.record, "draw"))

    def parse_action(self, seat: int, text: str) -> str:
        if text not in ("x", "y"):
            raise InvalidActionError(f"no action {text!r}")
        self.check(seat, text)
        return text

    def format_action(self, action: str) -> str:
        return action

    def view(self, seat: int) -> Any:
        return (self, seat)

    def spectator_view(self) -> Any:
        return (self.public(), None)

    def to_position(self, *, private: bool = True) -> Any:
        return {"stage": self.stage, "out": sorted(self.out), "record": list(self.record),
                "drawn": self.drawn}

    @classmethod
    def from_position(cls, data: Any) -> Duel:
        raise NotImplementedError


class RandomBot:
    def choose(self, view: tuple[Duel, int], key: bytes) -> str:
        state, seat = view
        legal = state.legal_actions(seat)
        return legal[sample_index(key, len(legal))]


def new_duel(players: int = 2, forfeit: bool = False) -> Duel:
    return Duel(players, forfeit)


register(GameSpec(name=GAME, title="Toy duel", players=(2, 3), variants=("basic",),
                  new=new_duel, from_position=Duel.from_position, engine_version="toy-duel/1",
                  bots={"random": RandomBot}))


@dataclass(frozen=True)
class ForfeitDuel(Duel):
    game: ClassVar[str] = FORFEIT_GAME


def new_forfeit_duel(players: int = 2) -> ForfeitDuel:
    return ForfeitDuel(players, True)


register(GameSpec(name=FORFEIT_GAME, title="Toy duel without zombies", players=(2, 3),
                  variants=("basic",), new=new_forfeit_duel,
                  from_position=ForfeitDuel.from_position, engine_version="toy-duel-forfeit/1",
                  bots={"random": RandomBot}, replaced="forfeit"))
