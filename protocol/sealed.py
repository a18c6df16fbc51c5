"""Sealed values (version 2, protocol.md §7.11): a value committed by one decision and opened at a
later point — the identity of a token placed face down, a kept objective.

A decision whose action seals values (``GameState.sealed_by``: which slots, a function of the
public state) carries, with its public action, one commitment per slot,
``H("cryptcrawl/sealed/v2", match id, slot, seat key, value, salt)`` — in its ACT, or in its REVEAL
(then the play commitment covers them too).  When the engine waits on :class:`engine.core.Openings`
each seat asked owes an OPEN of exactly those slots; once every live seat asked has opened, the
openings are applied together, in seat order, and a replaced seat's values are void (the game's
ruling: a forfeit, a score of 0).  An opening that does not open its commitment, or that the rules
refuse (a token opened twice), is misbehaviour, proved by the signed OPEN.  Once the game is over,
every live seat opens whatever it sealed and has not opened (the audit) before its END.

:class:`Sealed` owns the commitments and the openings; the match core applies the state
:meth:`Sealed.settle` returns (it alone changes the state)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.core import EngineError, GameState, Openings, Over
from protocol.crypto import sealed_commitment
from protocol.errors import Fault
from protocol.match.events import Event, SealedOpened, SealedVoid
from protocol.mechanisms.absence import Seats
from protocol.mechanisms.deals import Decks
from protocol.mechanisms.ending import Ending
from protocol.wire.messages import Message, OpenBody


@dataclass(frozen=True)
class Commitment:
    """One sealed value's commitment, and the message that made it."""

    slot: str
    commitment: bytes
    message: Message


class Sealed:
    """Every seat's sealed commitments, what has been opened, and the openings the engine waits
    for."""

    def __init__(self, *, match_id: bytes, keys: tuple[bytes, ...], seats: Seats,
                 ending: Ending, state: Callable[[], GameState[Any]], emit: Callable[[Event], None],
                 shortfalls: list[str]) -> None:
        self._match_id = match_id
        self._keys = keys
        self._seats = seats
        self._ending = ending
        self._state = state
        self._emit = emit
        self._shortfalls = shortfalls
        self.commitments: list[dict[str, Commitment]] = [{} for _ in keys]  # by seat, slot
        self.opened: list[dict[str, str]] = [{} for _ in keys]  # by seat: slot -> value
        self.void: list[tuple[str, ...]] = [() for _ in keys]
        # The openings held for the current Openings wait: seat -> (slot, value) in order.
        self.held: dict[int, tuple[tuple[str, str], ...]] = {}
        self._held_on: GameState[Any] | None = None  # the state they were checked on
        self.audited: set[int] = set()  # seats whose END-round OPEN was taken
        # The shared decks (protocol.md §7.13): an opening may show dealt cards
        # (``opening_claims``), opened with the deck before the OPEN; per seat, held with it.
        self.decks: Decks | None = None
        self._claims: dict[int, dict[str, str]] = {}

    # ------------------------------------------------------------------ commitments

    def check(self, state: GameState[Any], seat: int, action: Any,
              sealed: tuple[tuple[str, bytes], ...], message: Message) -> None:
        """The sealed commitments of ``seat``'s ``action`` must name exactly the slots the
        action seals, in order (a :class:`Fault` if not)."""
        slots = state.sealed_by(seat, action) if message.version >= 2 else ()
        named = tuple(slot for slot, _ in sealed)
        if named != tuple(slots):
            want = ", ".join(slots) or "none"
            raise Fault(f"its action seals {want}, but it committed to "
                        f"{', '.join(named) or 'none'}", message)
        for slot in slots:
            if slot in self.commitments[seat]:
                raise Fault(f"it sealed {slot} a second time", message)

    def record(self, seat: int, sealed: tuple[tuple[str, bytes], ...],
               message: Message) -> None:
        for slot, commitment in sealed:
            self.commitments[seat][slot] = Commitment(slot, commitment, message)

    def unopened(self, seat: int) -> tuple[str, ...]:
        """The slots ``seat`` sealed and has not opened (nor lost as void), in sealing order."""
        opened, void = self.opened[seat], self.void[seat]
        return tuple(s for s in self.commitments[seat] if s not in opened and s not in void)

    # ------------------------------------------------------------------ what a seat owes

    def _current(self) -> dict[int, tuple[tuple[str, str], ...]]:
        """The openings held for the current state (those taken in another — the state
        changed under them, a forfeit at the floor, say — are owed again)."""
        if self.held and self._held_on is not self._state():
            self.held = {}
            self._claims = {}
        return self.held

    def owes_open(self, seat: int) -> bool:
        """The engine waits for openings of ``seat``'s, not held yet."""
        held = self._current()
        w = self._state().waiting
        return (isinstance(w, Openings) and seat in w.seats and seat not in held
                and seat not in self._seats.absent)

    def owes_audit(self, seat: int) -> bool:
        """The game is over and ``seat`` has sealed values it has not opened (version 2: it
        opens them before its END)."""
        return (self._ending.ended and not self._ending.cut and seat not in self.audited
                and seat not in self._ending.end_signatures and bool(self.unopened(seat)))

    def owes_end(self, seat: int) -> bool:
        """The END row: the result is owed, once the audits (sealed values, dealt cards) are
        done."""
        return self._ending.owes(seat) and not self.owes_audit(seat) and not (
            self.decks is not None and self.decks.owes_audit(seat))

    def fits(self, seat: int, body: object) -> bool:
        """Is ``body`` an OPEN of exactly the slots the current Openings wait asks of
        ``seat`` (not held yet)?"""
        w = self._state().waiting
        if not isinstance(body, OpenBody) or not self.owes_open(seat):
            return False
        assert isinstance(w, Openings)
        request = next(r for r in w.requests if r.seat == seat)
        return tuple(slot for slot, _, _ in body.values) == request.slots

    # ------------------------------------------------------------------ handlers

    def on_open(self, seat: int, message: Message, body: OpenBody) -> bool:
        """Take an OPEN: every value must open its commitment, and (in an Openings wait) name
        exactly the slots asked, with values the rules accept."""
        state = self._state()
        w = state.waiting
        values = tuple((slot, value) for slot, value, _ in body.values)
        for slot, value, salt in body.values:
            held = self.commitments[seat].get(slot)
            if held is None:
                raise Fault(f"it opened {slot}, which it never sealed", message)
            if slot in self.opened[seat]:
                raise Fault(f"it opened a sealed value a second time ({slot})", message)
            if sealed_commitment(self._match_id, slot, self._keys[seat], value,
                                 salt) != held.commitment:
                raise Fault(f"its opening of {slot} does not open its commitment", message)
        if isinstance(w, Over):
            unopened = self.unopened(seat)
            if tuple(slot for slot, _ in values) != unopened:
                raise Fault(f"its audit must open {', '.join(unopened)}, in that order", message)
            self.audited.add(seat)
            self._open(seat, values, at_end=True)
            return True
        assert isinstance(w, Openings)
        request = next(r for r in w.requests if r.seat == seat)
        if tuple(slot for slot, _ in values) != request.slots:
            raise Fault(f"it must open {', '.join(request.slots)}, in that order", message)
        cards: dict[str, str] = {}
        if self.decks is not None and self.decks.decks:
            cards = self.decks.claimed(seat, state.opening_claims(seat, dict(values)), message)
        try:
            check = state
            for event, card in cards.items():
                check = check.open_private(seat, event, card)
            check.open_sealed(seat, dict(values))
        except EngineError as exc:
            raise Fault(f"its opening breaks the rules: {exc}", message) from None
        self._current()[seat] = values
        self._claims[seat] = cards
        self._held_on = state
        return True

    def settle(self, w: Openings) -> GameState[Any] | None:
        """Once every live seat asked has opened: the state after the openings (seat order),
        then the replaced seats' values made void; None while it waits."""
        absent = self._seats.absent
        held = self._current()
        if any(r.seat not in absent and r.seat not in held for r in w.requests):
            return None
        state = self._state()
        for request in sorted(w.requests, key=lambda r: r.seat):
            values = held.get(request.seat)
            if values is not None and request.seat not in absent:
                cards = self._claims.pop(request.seat, {})
                try:
                    for event, card in cards.items():
                        state = state.open_private(request.seat, event, card)
                    state = state.open_sealed(request.seat, dict(values))
                except EngineError as exc:  # (each was checked when taken: impossible)
                    raise AssertionError(f"openings refused together: {exc}") from exc
                if cards and self.decks is not None:
                    self.decks.shown_with_opening(request.seat, cards)
                self._open(request.seat, values)
        for request in sorted(w.requests, key=lambda r: r.seat):
            if request.seat in absent:
                state = self.make_void(state, request.seat)
        self.held = {}
        return state

    def make_void(self, state: GameState[Any], seat: int) -> GameState[Any]:
        """``seat`` (replaced) can open nothing: its unopened values are void, and the game's
        ruling applies."""
        slots = self.unopened(seat)
        self.void[seat] = self.void[seat] + slots
        self._shortfalls.append(f"seat {seat}'s sealed values stay sealed, void: "
                                f"{', '.join(slots) or 'none committed'}")
        self._emit(SealedVoid(seat, slots))
        return state.void_sealed(seat)

    def _open(self, seat: int, values: tuple[tuple[str, str], ...], *,
              at_end: bool = False) -> None:
        self.opened[seat].update(values)
        self._emit(SealedOpened(seat, values, at_end))
