"""What one seat may know (ruling 27): the public table plus its own hand and knowledge.

Public: coins, wounds, characters, item and hand counts, power cards played this level (they lie
face up), every torch use, revealed cards, the item supply, face-up rooms.  Private to the
viewer: its hand, its committed but unrevealed card, what its torch showed.  Never in a view:
another seat's hand or pending card, or a face-down room the viewer did not see by torch.

A spectator's view (``make_view(state, None)``, of the public state) has the public table only:
seat -1 (``null`` in JSON), no hand, no items of its own, nothing pending, nothing peeked, no
legal actions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core import Chance, Over, Simultaneous, Turn
from engine.raiders.actions import Action, format_action
from engine.raiders.cards import ITEMS, LEVEL_CARDS, ROOMS_PER_LEVEL
from engine.raiders.position import resolution_to_json
from engine.raiders.records import Phase
from engine.raiders.resolve import NO_CARD, Resolution
from engine.raiders.state import RaidersState


@dataclass(frozen=True, slots=True)
class RoomView:
    position: int  # 1..5
    card: str  # room card id, "" while face down (or not dealt)
    state: str  # "done", "current", "up", "down", "empty"
    peeked: str  # what the viewer's torch showed here ("" none)


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    character: str
    coins: int
    wounds: int
    items: int  # number of item cards in hand
    hand_size: int
    used: tuple[int, ...]  # power cards played this level (face up)
    peeks: int  # torch peeks this level
    eliminated: bool
    status: str  # "choosing", "committed", "revealed", "waiting", "out"
    play: str  # revealed room card this room ("" none)
    followup: str  # revealed follow-up ("" none)


@dataclass(frozen=True, slots=True)
class RaidersView:
    seat: int  # -1: a spectator
    players: int
    variant: str
    phase: str
    level: int
    room: int  # 1..5
    layout: str
    row: tuple[RoomView, ...]
    seats: tuple[SeatView, ...]
    supply: tuple[int, int, int, int]  # torch, crystal, key, sword
    hand: tuple[str, ...]  # the viewer's own cards
    items: tuple[int, int, int, int]  # the viewer's own items by type
    pending: str  # the viewer's committed but unrevealed card
    legal: tuple[Action, ...]
    step: str
    waiting_for: tuple[int, ...]  # seats whose decision is awaited
    map: int  # tactical map holder (-1 none)
    rooms_left: int  # room cards not yet drawn
    level_cards_left: int
    last: Resolution | None
    winners: tuple[int, ...]  # when over
    standings: tuple[str, ...]  # when over, per seat: "winner", "lost", "fainted", "eliminated"
    result: str  # when over: the outcome in words

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat if self.seat >= 0 else None, "players": self.players,
            "variant": self.variant,
            "phase": self.phase, "level": self.level, "room": self.room, "layout": self.layout,
            "row": [[r.position, r.card, r.state, r.peeked] for r in self.row],
            "seats": [[v.seat, v.character, v.coins, v.wounds, v.items, v.hand_size,
                       list(v.used), v.peeks, v.eliminated, v.status, v.play, v.followup]
                      for v in self.seats],
            "supply": dict(zip(ITEMS, self.supply, strict=True)),
            "hand": list(self.hand), "pending": self.pending,
            "legal": [format_action(a) for a in self.legal], "step": self.step,
            "waiting_for": list(self.waiting_for), "map": self.map,
            "rooms_left": self.rooms_left, "level_cards_left": self.level_cards_left,
            "last": resolution_to_json(self.last) if self.last else None,
            "winners": list(self.winners), "standings": list(self.standings),
            "result": self.result,
        }


def make_view(state: RaidersState, seat: int | None) -> RaidersView:
    """What ``seat`` may know; ``None``: what a spectator may (pass the public state)."""
    if seat is not None and not 0 <= seat < state.n:
        raise ValueError(f"there is no seat {seat}")
    seen = dict(state.knowledge[seat].seen) if seat is not None else {}
    row: list[RoomView] = []
    layout = LEVEL_CARDS.get(state.layout)
    for p in range(ROOMS_PER_LEVEL):
        card = state.row[p]
        peeked = ""
        if not layout or state.phase in (Phase.LEVEL, Phase.SETUP, Phase.OVER):
            status, card = "empty", NO_CARD
        elif p < state.room:
            status = "done"
        elif card:
            status = "current" if p == state.room else "up"
        elif layout[p]:
            status = "down"
            peeked = seen.get(state.event_id(p), "")
        else:
            status = "empty"
        row.append(RoomView(p + 1, card, status, peeked))

    w = state.waiting
    if isinstance(w, Simultaneous):
        waiting_for = tuple(sorted(w.pending))
        deciding, committed = w.seats, w.committed
    elif isinstance(w, Turn):
        waiting_for = (w.seat,)
        deciding, committed = frozenset((w.seat,)), frozenset()
    else:
        waiting_for = ()
        deciding = committed = frozenset()
    seats = []
    for s, player in enumerate(state.players):
        if player.eliminated:
            status = "out"
        elif s in committed:
            status = "committed"
        elif s in deciding:
            status = "choosing"
        elif state.plays[s]:
            status = "revealed"
        else:
            status = "waiting"
        seats.append(SeatView(
            s, player.character, player.coins, player.wounds, sum(player.items),
            player.hand_size, tuple(v for v in range(1, 6) if player.used >> (v - 1) & 1),
            state.peeks[s], player.eliminated, status, state.plays[s], state.followups[s]))
    outcome = w.outcome if isinstance(w, Over) else None
    if seat is None:
        hand: tuple[str, ...] = ()
        legal: tuple[Action, ...] = ()
        items, pending = (0, 0, 0, 0), ""
    else:
        hand, items = state.players[seat].hand(), state.players[seat].items
        pending, legal = state.knowledge[seat].pending, state.legal_actions(seat)
    return RaidersView(
        seat=-1 if seat is None else seat, players=state.n, variant=state.variant,
        phase=state.phase.value, level=state.level, room=state.room + 1, layout=state.layout,
        row=tuple(row), seats=tuple(seats), supply=state.supply, hand=hand, items=items,
        pending=pending, legal=legal,
        step=state.step if not isinstance(w, Chance | Over) else "",
        waiting_for=waiting_for, map=state.map, rooms_left=len(state.rooms),
        level_cards_left=len(state.level_cards), last=state.last,
        winners=tuple(sorted(outcome.winners)) if outcome else (),
        standings=tuple(st.status for st in outcome.standings) if outcome else (),
        result=outcome.reason if outcome else "",
    )
