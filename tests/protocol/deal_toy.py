"""A small test game that deals private cards, registered at run time (``toy-deal``, 2 to 6 seats).

1. the deal: every seat gets two cards of the 16-card deck ``cards`` (``c00`` … ``c15``), each a
   PRIVATE chance event ``deal.S.K`` (seat-major) that only seat S learns;
2. ``pick``: every seat at once plays one of its two cards (``play 0`` or ``play 1``); the
   action shows that card (``private_claims``), which its seat then opens in public;
3. over once every played card is shown (a card of a replaced seat never is): the highest card
   wins; then each seat opens the card it kept back (the audit), which changes nothing.

The rules refuse nothing at the open beyond "the card of that deal": the deck proves it."""

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
    InvalidKnowledgeError,
    Outcome,
    Over,
    Simultaneous,
    Standing,
    Visibility,
    Waiting,
)
from engine.games import register
from engine.stream import sample_index

GAME = "toy-deal"
DECK = "cards"
CARDS = tuple(f"c{i:02d}" for i in range(16))
HAND = 2


@dataclass(frozen=True)
class DealToy(GameState[str]):
    game: ClassVar[str] = GAME
    n: int
    dealt: int = 0  # private events applied (seat-major)
    played: tuple[tuple[int, int], ...] = ()  # (seat, index in its hand)
    shown: tuple[tuple[int, str], ...] = ()  # (seat, card) opened
    known: tuple[tuple[str, str], ...] = ()  # one seat's own cards (event, card): private

    def event(self, seat: int, k: int) -> str:
        return f"deal.{seat}.{k}"

    @property
    def waiting(self) -> Waiting:
        if self.dealt < self.n * HAND:
            seat, k = divmod(self.dealt, HAND)
            return Chance(ChanceEvent(self.event(seat, k), CARDS, Visibility.PRIVATE, seat, DECK))
        if not self.played:
            return Simultaneous("pick", frozenset(range(self.n)))
        scores = {s: CARDS.index(c) + 1 for s, c in self.shown}
        best = max(scores.values(), default=0)
        winners = frozenset(s for s, v in scores.items() if v == best)
        return Over(Outcome(winners, tuple(
            Standing(s, "winner" if s in winners else "lost", scores.get(s, 0), 0)
            for s in range(self.n)), "highest card"))

    @property
    def seats(self) -> int:
        return self.n

    def legal_actions(self, seat: int) -> tuple[str, ...]:
        return ("play 0", "play 1") if isinstance(self.waiting, Simultaneous) else ()

    def lists_actions(self, seat: int) -> bool:
        return True

    def parse_action(self, seat: int, text: str) -> str:
        if text not in ("play 0", "play 1") or not isinstance(self.waiting, Simultaneous):
            raise InvalidActionError(f"no action {text!r} now")
        return text

    def format_action(self, action: str) -> str:
        return action

    def check(self, seat: int, action: str) -> None:
        self.parse_action(seat, action)

    def apply(self, seat: int, action: str) -> DealToy:
        raise IllegalActionError("decided together")

    def apply_joint(self, actions: Mapping[int, str]) -> DealToy:
        for seat, action in actions.items():
            self.parse_action(seat, action)
        return dataclasses.replace(self, played=tuple(
            (s, int(a.split()[1])) for s, a in sorted(actions.items())))

    def apply_chance(self, event_id: str, outcome: str) -> DealToy:
        raise InvalidChanceError("every chance event of this toy is a private deal")

    def apply_private(self, event_id: str) -> DealToy:
        w = self.waiting
        if not isinstance(w, Chance) or w.event.id != event_id:
            raise InvalidChanceError(f"{event_id} is not the pending deal")
        return dataclasses.replace(self, dealt=self.dealt + 1)

    def learn(self, seat: int, knowledge: Mapping[str, str]) -> DealToy:
        for event, card in knowledge.items():
            if not event.startswith(f"deal.{seat}.") or card not in CARDS:
                raise InvalidKnowledgeError(f"seat {seat} was not dealt {event}")
        return dataclasses.replace(self, known=tuple(sorted({**dict(self.known),
                                                              **knowledge}.items())))

    def public(self) -> DealToy:
        return dataclasses.replace(self, known=())

    def private_claims(self, seat: int, action: str) -> tuple[str, ...]:
        return (self.event(seat, int(action.split()[1])),)

    def open_private(self, seat: int, event_id: str, outcome: str) -> DealToy:
        index = dict(self.played).get(seat)
        if (isinstance(self.waiting, Over) and index is not None and outcome in CARDS
                and event_id == self.event(seat, 1 - index)
                and (seat, outcome) not in self.shown):
            return self  # (the audit of the card it kept back: nothing changes)
        if index is None or event_id != self.event(seat, index) or outcome not in CARDS:
            raise IllegalActionError(f"seat {seat} plays no card {event_id}")
        if any(s == seat for s, _ in self.shown):
            raise IllegalActionError(f"seat {seat}'s card is shown already")
        return dataclasses.replace(self, shown=tuple(sorted((*self.shown, (seat, outcome)))))

    def view(self, seat: int) -> Any:
        return (self, seat)

    def spectator_view(self) -> Any:
        return (self.public(), None)

    def to_position(self, *, private: bool = True) -> Any:
        out: dict[str, Any] = {"n": self.n, "dealt": self.dealt,
                               "played": [list(p) for p in self.played],
                               "shown": [list(p) for p in self.shown]}
        if private:
            out["known"] = [list(p) for p in self.known]
        return out

    @classmethod
    def from_position(cls, data: Any) -> DealToy:
        return cls(data["n"], data["dealt"], tuple(tuple(p) for p in data["played"]),
                   tuple(tuple(p) for p in data["shown"]),
                   tuple(tuple(p) for p in data.get("known", ())))


class HighBot:
    """Plays its higher card (it must know its hand: the deal must have reached it)."""

    def choose(self, view: tuple[DealToy, int], key: bytes) -> str:
        state, seat = view
        known = dict(state.known)
        cards = [known.get(state.event(seat, k)) for k in range(HAND)]
        if None in cards:
            return f"play {sample_index(key, HAND)}"
        return "play 0" if CARDS.index(cards[0] or "") > CARDS.index(cards[1] or "") \
            else "play 1"


class RandomBot:
    def choose(self, view: tuple[DealToy, int], key: bytes) -> str:
        return f"play {sample_index(key, HAND)}"


class Zombie:
    def choose(self, view: tuple[DealToy, int], key: bytes) -> str:
        return "play 0"


def new_toy(players: int = 2) -> DealToy:
    return DealToy(players)


register(GameSpec(name=GAME, title="Toy with private deals", players=(2, 3, 4, 5, 6),
                  variants=(), new=new_toy, from_position=DealToy.from_position,
                  engine_version="toy-deal/1", bots={"random": RandomBot, "high": HighBot},
                  zombie=Zombie, decks=True))
