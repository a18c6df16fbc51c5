"""A small test game with sealed values, registered at run time (``toy-sealed``, 2 or 3 seats).

1. ``hide``: every seat at once seals a number (``hide 4``; the public action is ``hide``, the
   value goes in slot ``hid.S``);
2. ``mark``: seat 0 alone seals a mark (``mark 2``, slot ``mark.0``), which the rules never ask
   for: it is opened only in the END round's audit;
3. the openings of every seat's ``hid.S``;
4. over: the highest number wins (shared on a tie).  A seat whose number stays sealed (void: it
   was replaced) scores 0.

The notation takes any digit, but the rules allow 1 to 5 only, and check it at the opening (as
Dungeon Twister checks R32 only when tokens are shown): a modified client can seal a 9, and
its opening is then misbehaviour."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.core import (
    GameSpec,
    GameState,
    IllegalActionError,
    InvalidActionError,
    InvalidChanceError,
    OpeningRequest,
    Openings,
    Outcome,
    Over,
    Simultaneous,
    Standing,
    Turn,
    Waiting,
)
from engine.games import register
from engine.stream import sample_index

GAME = "toy-sealed"
ALLOWED = frozenset("12345")


@dataclass(frozen=True)
class SealedToy(GameState[str]):
    game: ClassVar[str] = GAME
    n: int
    stage: int = 0
    shown: tuple[tuple[int, int], ...] = ()  # (seat, number) opened, or number 0 if void

    @property
    def waiting(self) -> Waiting:
        if self.stage == 0:
            return Simultaneous("hide", frozenset(range(self.n)))
        if self.stage == 1:
            return Turn("mark", 0)
        if self.stage == 2:
            done = {s for s, _ in self.shown}
            return Openings(tuple(OpeningRequest(s, (f"hid.{s}",)) for s in range(self.n)
                                  if s not in done))
        scores = dict(self.shown)
        best = max(scores.values())
        winners = frozenset(s for s, v in scores.items() if v == best and v > 0)
        return Over(Outcome(winners, tuple(
            Standing(s, "winner" if s in winners else "lost", scores[s], 0)
            for s in range(self.n)), "highest"))

    @property
    def seats(self) -> int:
        return self.n

    def legal_actions(self, seat: int) -> tuple[str, ...]:
        if self.stage == 0:
            return tuple(f"hide {v}" for v in sorted(ALLOWED))
        if self.stage == 1 and seat == 0:
            return tuple(f"mark {v}" for v in sorted(ALLOWED))
        return ()

    def lists_actions(self, seat: int) -> bool:
        return True

    def parse_action(self, seat: int, text: str) -> str:
        verb, _, value = text.partition(" ")
        step = {0: "hide", 1: "mark"}.get(self.stage)
        if verb != step or (value and not (len(value) == 1 and value.isdigit())):
            raise InvalidActionError(f"no action {text!r} now")
        if self.stage == 1 and seat != 0:
            raise IllegalActionError("it is seat 0's mark")
        return text

    def format_action(self, action: str) -> str:
        return action

    def check(self, seat: int, action: str) -> None:
        self.parse_action(seat, action)

    def split_private(self, seat: int, text: str) -> tuple[str, tuple[tuple[str, str], ...]]:
        verb, _, value = text.partition(" ")
        if not value:
            return text, ()
        slot = f"hid.{seat}" if verb == "hide" else f"mark.{seat}"
        return verb, ((slot, value),)

    def sealed_by(self, seat: int, action: str) -> tuple[str, ...]:
        if action == "hide" and self.stage == 0:
            return (f"hid.{seat}",)
        if action == "mark" and self.stage == 1:
            return (f"mark.{seat}",)
        return ()

    def learn(self, seat: int, knowledge: Mapping[str, str]) -> SealedToy:
        return self  # (its own values do not change its choices)

    def apply(self, seat: int, action: str) -> SealedToy:
        self.parse_action(seat, action)
        if self.stage != 1:
            raise IllegalActionError("decided together")
        return dataclasses.replace(self, stage=2)

    def apply_joint(self, actions: Mapping[int, str]) -> SealedToy:
        for seat, action in actions.items():
            self.parse_action(seat, action)
        return dataclasses.replace(self, stage=1)

    def apply_chance(self, event_id: str, outcome: str) -> SealedToy:
        raise InvalidChanceError("this toy has no chance events")

    def open_sealed(self, seat: int, values: Mapping[str, str]) -> SealedToy:
        w = self.waiting
        if not isinstance(w, Openings) or seat not in w.seats:
            raise IllegalActionError(f"seat {seat} owes no opening")
        value = values.get(f"hid.{seat}")
        if set(values) != {f"hid.{seat}"} or value not in ALLOWED:
            raise IllegalActionError(f"seat {seat} hid {value!r}: the rules allow 1 to 5")
        return self._shown(seat, int(value))

    def void_sealed(self, seat: int) -> SealedToy:
        w = self.waiting
        if not isinstance(w, Openings) or seat not in w.seats:
            return self
        return self._shown(seat, 0)

    def _shown(self, seat: int, value: int) -> SealedToy:
        shown = tuple(sorted((*self.shown, (seat, value))))
        return dataclasses.replace(self, shown=shown, stage=3 if len(shown) == self.n else 2)

    def view(self, seat: int) -> Any:
        return (self, seat)

    def spectator_view(self) -> Any:
        return (self.public(), None)

    def to_position(self, *, private: bool = True) -> Any:
        return {"stage": self.stage, "shown": [list(p) for p in self.shown]}

    @classmethod
    def from_position(cls, data: Any) -> SealedToy:
        raise NotImplementedError


class RandomBot:
    def choose(self, view: tuple[SealedToy, int], key: bytes) -> str:
        state, seat = view
        legal = state.legal_actions(seat) or ("hide", "mark")
        return legal[sample_index(key, len(legal))]


class Zombie:
    """A zombie seals nothing: it plays the public action."""

    def choose(self, view: tuple[SealedToy, int], key: bytes) -> str:
        state, _ = view
        return "hide" if state.stage == 0 else "mark"


def new_toy(players: int = 2) -> SealedToy:
    return SealedToy(players)


register(GameSpec(name=GAME, title="Toy with sealed values", players=(2, 3),
                  variants=("basic",), new=new_toy, from_position=SealedToy.from_position,
                  engine_version="toy-sealed/1", bots={"random": RandomBot}, zombie=Zombie))
