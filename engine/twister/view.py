"""What one seat may know (rules §8): the public table plus its own sealed values and its own
committed team or combat card.

Public: face-up rooms with their orientation and portcullis states; every token on the board
with its wounds, who carries what and the this-turn flags; the colour, slot and order of every
face-down token; action cards in hand and played, combat cards left, jump cards, AP, VP; every
opening so far.  Private to the viewer: the identities of its own face-down tokens and its own
committed card.  Never in a view: a face-down token's identity to anyone but its owner, or a
face-down room (which nobody, the engine included, knows before it is revealed).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core import Chance, Openings, Over, Simultaneous, TimeClass, Turn
from engine.twister.actions import Action, format_action
from engine.twister.data import SIDE_NAME
from engine.twister.records import NO_KNOWLEDGE
from engine.twister.state import TwisterState


@dataclass(frozen=True, slots=True)
class TwisterView:
    """A seat's view (``seat`` -1: a spectator's).  ``state`` is the state with every other
    seat's private knowledge removed: bots read the board and rules helpers from it."""

    seat: int
    state: TwisterState
    legal: tuple[Action, ...]
    step: str
    waiting_for: tuple[int, ...]
    waiting: str  # what the table waits for, in words
    time_class: str

    @property
    def phase(self) -> str:
        return self.state.phase

    @property
    def mine(self) -> dict[str, str]:
        """The viewer's own sealed values not opened yet: slot -> kind."""
        if self.seat < 0:
            return {}
        return dict(self.state.knowledge[self.seat].sealed)

    def to_json(self) -> dict[str, Any]:
        position = self.state.to_position(private=True)
        return {
            "seat": self.seat, "position": position,
            "legal": [format_action(a) for a in self.legal], "step": self.step,
            "waiting_for": list(self.waiting_for), "waiting": self.waiting,
            "time_class": self.time_class,
        }


def _only(state: TwisterState, seat: int | None) -> TwisterState:
    """``state`` with the knowledge of every seat but ``seat`` removed."""
    keep = tuple(k if s == seat else NO_KNOWLEDGE for s, k in enumerate(state.knowledge))
    if keep == state.knowledge:
        return state
    new = state._copy()
    new._set(knowledge=keep)
    return new


def _words(state: TwisterState) -> str:
    w = state.waiting
    if isinstance(w, Over):
        return w.outcome.reason
    if isinstance(w, Openings):
        names = " and ".join(SIDE_NAME[s] for s in sorted(w.seats))
        return f"waiting for {names} to reveal tokens"
    if isinstance(w, Chance):
        return f"waiting for chance ({w.event.id})"
    if isinstance(w, Turn):
        return f"waiting for {SIDE_NAME[w.seat]} ({state.phase})"
    assert isinstance(w, Simultaneous)
    names = " and ".join(SIDE_NAME[s] for s in sorted(w.pending))
    return f"waiting for {names} to choose ({state.phase})"


def make_view(state: TwisterState, seat: int | None) -> TwisterView:
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < 2):
        raise ValueError(f"there is no seat {seat}")
    mine = _only(state, seat)
    w = state.waiting
    if isinstance(w, Simultaneous | Turn):
        waiting_for = tuple(sorted(w.pending))
        step = w.step
    elif isinstance(w, Openings):
        waiting_for = tuple(sorted(w.seats))
        step = ""
    else:
        waiting_for = ()
        step = ""
    viewer = -1 if seat is None else seat
    legal = state.legal_actions(seat) if seat is not None else ()
    time_class = state.time_class(seat).value if seat is not None else TimeClass.NORMAL.value
    return TwisterView(viewer, mine, legal, step, waiting_for, _words(state), time_class)
