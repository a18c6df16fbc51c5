"""Private deals (version 2, protocol.md §7.13): the engine's PRIVATE chance events, dealt from
decks the seats shuffle together with no dealer (:mod:`protocol.deck`, docs/deck.md).

When the engine waits on a private chance event, the **deal** is every private event it poses
from there on without a decision in between (a walk of ``apply_private``): each names its deck
and its owner.  A deck not in play yet starts among the live seats (keys, then every seat's
shuffle, in seat order); once it is shuffled, its part of the deal is dealt from the top in one
round, and every seat owes its decryption shares for the cards it does not own.  When every
share is in, the owners have learnt their cards and the engine applies the deal's events one by
one (public placeholders: "seat 2 holds 2 unknown powers").  A card for a seat already replaced
is never drawn: its placeholder stays unknown.

A deal that loses a seat before its shares are all in **restarts** among the live seats as a
fresh deck (attempt + 1: new id, keys and shuffles); a body of the void deck that comes after is
stale.  A deck deals once per match (a later deal would need the cards left, which only the
departed seat's key could tell).  In version 3 a seat replaced while it withholds shares of the void
deal after every other seat's shares of its own cards were sent — it had its cards — withholds
(:meth:`Decks.judge_vetoes`), and forfeits at its first decision, as a withheld chance secret.

An action that shows a dealt card (``GameState.private_claims``: keeping a power) makes its seat
owe an **open** of that card right after the action: a DECK open that proves the card came from
that seat's deal, which the engine then applies (``open_private``).  A seat replaced before it
opens leaves the card hidden.

Every body is checked as it is consumed (its proof included); a body that breaks a rule is
misbehaviour, proved by the signed DECK message.  :class:`Decks` owns the decks, the deal and the
opens owed; the match core applies the states it returns (it alone changes the state)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.core import Chance as Pending
from engine.core import EngineError, GameState, Openings, Visibility
from protocol.deck import (
    CardLearned,
    Deck,
    DeckFault,
    DeckMessageBody,
    DeckSeat,
    DeckSpec,
    FaultCode,
    Phase,
    deck_id_for,
)
from protocol.deck import CardShown as DeckCardShown
from protocol.deck.bodies import DeckBody, KeyBody, SharesBody, ShuffleBody
from protocol.deck.bodies import OpenBody as DeckOpenBody
from protocol.errors import Fault, LocalProtocolError
from protocol.match.events import CardDealt, CardShown, DeckRestarted, Event
from protocol.mechanisms.absence import Seats
from protocol.mechanisms.ending import Ending
from protocol.wire.feed import Feed
from protocol.wire.messages import Message


@dataclass(frozen=True)
class Dealing:
    """One private event of the deal: its deck, its owner and (once dealt) its position."""

    event: str
    deck: str
    owner: int
    position: int | None = None


class Decks:
    """The decks in play, the deal in progress and the opens owed."""

    def __init__(self, *, match_id: bytes, keys: tuple[bytes, ...], seats: Seats,
                 state: Callable[[], GameState[Any]], emit: Callable[[Event], None],
                 shortfalls: list[str], base_heads: Callable[[], tuple[bytes, ...]],
                 ending: Ending, opening_held: Callable[[int], bool],
                 feeds: Sequence[Feed] = ()) -> None:
        self._feeds = feeds
        self._version = feeds[0].version if feeds else 2  # (the match's protocol version)
        # Version 3: void deals whose replaced seat is judged once the restarted deck's key
        # commitments close: deck name -> (the seat, the void deck) (protocol.md §7.13).
        self._vetoes: dict[str, list[tuple[int, Deck]]] = {}
        self._match_id = match_id
        self._ending = ending
        self._opening_held = opening_held
        self._base_heads = base_heads
        self._keys = keys
        self._seats = seats
        self._state = state
        self._emit = emit
        self._shortfalls = shortfalls
        self.local: DeckSeat | None = None
        self.decks: dict[str, Deck] = {}  # deck name -> the deck in play
        self.attempts: dict[str, int] = {}
        self._names: dict[bytes, str] = {}  # deck id in play -> its name
        self._void: set[bytes] = set()  # deck ids of deals that restarted
        # Per deck, what it was fed, in order: (seat, body) taken, or (None, owners) dealt.
        self._log: dict[str, list[tuple[int, DeckBody] | tuple[None, tuple[int, ...]]]] = {}
        self._used: set[str] = set()  # decks whose deal completed
        self.deal: tuple[Dealing, ...] = ()  # the deal in progress (or the last one)
        self._dealt: dict[str, Dealing] = {}  # every private event dealt, by engine id
        self.learnt: dict[str, str] = {}  # the local seat's cards: engine event -> card
        self.shown: dict[str, str] = {}  # cards opened in public: engine event -> card
        self.shows: list[tuple[int, str]] = []  # opens owed now: (seat, engine event)
        self._opened: dict[tuple[int, str], str] = {}  # opens taken, not applied yet
        # Opens that go with a seat's OPEN of sealed values (``opening_claims``: the kept
        # objective's card), taken before it: seat -> event -> card.
        self.preopened: dict[int, dict[str, str]] = {}
        # The heads of a DECK message (protocol.md §7.13): per deck, each seat's last DECK
        # message of that deck taken when the deck's current stage began.
        self._last: dict[str, dict[int, bytes]] = {}
        self._anchor: dict[str, tuple[bytes, ...]] = {}
        self._stage: dict[str, tuple[str, int, int]] = {}

    # ------------------------------------------------------------------ the local seat

    def attach(self, local: DeckSeat) -> None:
        """The local seat's secrets: every deck in play is rebuilt with them from the bodies
        taken so far (a core may adopt the feeds before the local seat is made)."""
        self.local = local
        for name, deck in list(self.decks.items()):
            if local.seat in deck.spec.seats:
                self.decks[name] = fresh = Deck(deck.spec, local)
                for entry in self._log.get(name, ()):
                    if entry[0] is None:
                        fresh.deal(entry[1])
                    else:
                        self._learn(name, fresh.receive(entry[0], entry[1]))

    def next_body(self, seat: int) -> DeckMessageBody | None:
        """The local seat's next owed DECK body (decks in name order), if any."""
        if self.local is None or self.local.seat != seat:
            return None
        for event in self._show_events(seat):
            name, position = self._where(event)
            deck = self.decks.get(name)
            if deck is not None and position in deck.learnt():
                return DeckMessageBody(deck.open_body([position]))
        if self.owes_audit(seat):
            for name, positions in self._unshown(seat):
                deck = self.decks[name]
                if set(positions) <= set(deck.learnt()):
                    return DeckMessageBody(deck.open_body(positions))
            return None
        for name in sorted(self.decks):
            made = self.decks[name].to_send()
            if made:
                return DeckMessageBody(made[0])
        return None

    def preopen_body(self, seat: int, event: str) -> DeckMessageBody | None:
        """The local seat's open of the card of ``event``, to go before its OPEN (None if it
        does not hold that card, or has opened it)."""
        dealing = self._dealt.get(event)
        if (dealing is None or dealing.owner != seat or dealing.position is None
                or event in self.preopened.get(seat, {}) or event in self.shown):
            return None
        deck = self.decks.get(dealing.deck)
        if deck is None or dealing.position not in deck.learnt():
            return None
        return DeckMessageBody(deck.open_body([dealing.position]))

    # ------------------------------------------------------------------ the deal

    def dealing(self) -> bool:
        """The engine waits on a private event, or a card is owed open: the deal phase."""
        w = self._state().waiting
        return bool(self.shows) or (isinstance(w, Pending)
                                    and w.event.visibility is Visibility.PRIVATE)

    def pose(self, state: GameState[Any]) -> None:
        """The engine waits on a private event: the deal it begins (once), its decks started,
        and the parts of decks already shuffled dealt."""
        w = state.waiting
        assert isinstance(w, Pending)
        if w.event.id in self._dealt or any(d.event == w.event.id for d in self.deal):
            return
        deal: list[Dealing] = []
        cards: dict[str, tuple[str, ...]] = {}
        walk = state
        while isinstance(walk.waiting, Pending) and (
                walk.waiting.event.visibility is Visibility.PRIVATE):
            event = walk.waiting.event
            assert event.deck is not None and event.seat is not None
            if cards.setdefault(event.deck, event.outcomes) != event.outcomes:
                raise LocalProtocolError(f"deck {event.deck}'s events name other cards")
            deal.append(Dealing(event.id, event.deck, event.seat))
            walk = walk.apply_private(event.id)
        self.deal = tuple(deal)
        live = self._seats.live_seats()
        for name, identities in cards.items():
            if name in self._used:
                raise LocalProtocolError(f"deck {name} deals once a match")
            if name not in self.decks:
                self._start(name, identities, live, attempt=0)
        self._deal_ready()

    def _start(self, name: str, cards: tuple[str, ...], seats: tuple[int, ...], *,
               attempt: int) -> None:
        deck_id = deck_id_for(self._match_id, name, attempt)
        spec = DeckSpec(self._match_id, deck_id, seats, self._keys, cards)
        local = self.local if self.local is not None and self.local.seat in seats else None
        self.decks[name] = Deck(spec, local)
        self.attempts[name] = attempt
        self._names[deck_id] = name
        self._log[name] = []
        self._last[name] = {}
        self._anchor_at(name)

    def _anchor_at(self, name: str) -> None:
        base, last = self._base_heads(), self._last[name]
        self._anchor[name] = tuple(last.get(s, h) for s, h in enumerate(base))
        self._stage[name] = self.decks[name].stage

    def heads(self, body: DeckMessageBody) -> tuple[bytes, ...]:
        """The heads a DECK message with ``body`` carries now: for each seat, its last DECK
        message of that deck taken when the deck's current stage began (or, with none, its
        head when the last decision step began) — canonical, and it vouches for every body the
        message's proof is checked against."""
        name = self._names.get(body.body.deck_id)
        return self._base_heads() if name is None else self._anchor[name]

    def place(self, seat: int, body: DeckMessageBody) -> str:
        """Where ``seat``'s ``body`` stands: ``stale`` (a void deal's), ``later`` (a stage or a
        show not reached here yet: it waits), or ``now`` (taken or refused as it is)."""
        inner = body.body
        name = self._names.get(inner.deck_id)
        if name is None:
            return "stale" if inner.deck_id in self._void else "now"
        deck = self.decks[name]
        phase = deck.phase
        if isinstance(inner, DeckOpenBody):
            return ("now" if self._show_events(seat) or self.may_preopen(seat)
                    or self.owes_audit(seat) else "later")
        if isinstance(inner, KeyBody):
            return "later" if phase is Phase.KEY_COMMITS else "now"
        if isinstance(inner, ShuffleBody):
            if phase in (Phase.KEY_COMMITS, Phase.KEYS):
                return "later"
            current = deck.stage[1] - 1  # (the step owed: decks held, less the unshuffled)
            return "later" if phase is Phase.SHUFFLES and inner.step > current else "now"
        if isinstance(inner, SharesBody):
            return "later" if inner.round >= deck.stage[2] else "now"
        return "now"

    def _deal_ready(self) -> None:
        """Deal each shuffled deck's part of the deal that is not dealt yet (every peer does
        it at the same point: the body that completed the shuffles)."""
        out = list(self.deal)
        for name, deck in self.decks.items():
            part = [i for i, d in enumerate(out) if d.deck == name and d.position is None
                    and d.owner in deck.spec.seats]
            if not part or deck.phase is not Phase.READY:
                continue
            owners = tuple(out[i].owner for i in part)
            positions = deck.deal(owners)
            self._log[name].append((None, owners))
            for i, position in zip(part, positions, strict=True):
                out[i] = replace(out[i], position=position)
        self.deal = tuple(out)

    def complete(self) -> bool:
        """Every card of the deal for a live owner is dealt and every share is in."""
        for d in self.deal:
            if d.position is None and d.owner in self.decks[d.deck].spec.seats:
                return False
        return not any(o.what == "deck-shares" for name in {d.deck for d in self.deal}
                       for o in self.decks[name].owed())

    def settle(self, w: Pending) -> GameState[Any] | None:
        """The state after the pending private event, once the deal is complete; None while
        it waits."""
        if not self.complete():
            return None
        dealing = next(d for d in self.deal if d.event == w.event.id)
        self._used.add(dealing.deck)
        self._dealt[dealing.event] = dealing
        if dealing.position is None:
            self._shortfalls.append(f"{dealing.event}: a card for seat {dealing.owner}, "
                                    "replaced before the deal, was never drawn")
        self._emit(CardDealt(dealing.event, dealing.deck, dealing.owner,
                             self.learnt.get(dealing.event, "")))
        return self._state().apply_private(w.event.id)

    # ------------------------------------------------------------------ opens

    def on_actions(self, state: GameState[Any], actions: dict[int, Any]) -> None:
        """Actions applied to ``state``: the dealt cards they show (``private_claims``) are
        owed open by their seats."""
        if not self.decks:
            return
        for seat, action in sorted(actions.items()):
            events = state.private_claims(seat, action)
            if events:
                self.claim(seat, events)

    def claim(self, seat: int, events: tuple[str, ...]) -> None:
        """``seat``'s action shows the cards of ``events``: it owes their opens."""
        for event in events:
            dealing = self._dealt.get(event)
            if dealing is None or dealing.owner != seat:
                raise LocalProtocolError(f"{event} dealt no card to seat {seat}")
            if dealing.position is None or seat in self._seats.absent:
                self._shortfalls.append(f"{event}: seat {seat}'s card stays hidden")
                continue
            self.shows.append((seat, event))
            self._anchor_at(dealing.deck)

    def _show_events(self, seat: int) -> list[str]:
        return [e for s, e in self.shows if s == seat and (s, e) not in self._opened]

    def settle_show(self) -> GameState[Any] | None:
        """Once every live seat has opened the cards it owes (a replaced seat's stay hidden):
        the state after the opens, applied together in the order owed; None while it
        waits."""
        absent = self._seats.absent
        if any(s not in absent and (s, e) not in self._opened for s, e in self.shows):
            return None
        state = self._state()
        for seat, event in self.shows:
            card = self._opened.pop((seat, event), None)
            if card is None:
                self._shortfalls.append(f"{event}: seat {seat}, replaced, never opened it")
                continue
            self.shown[event] = card
            self._emit(CardShown(seat, event, card))
            state = state.open_private(seat, event, card)
        self.shows = []
        return state

    # ------------------------------------------------------------------ owed

    def owes(self, seat: int) -> bool:
        """``seat`` owes a DECK body now: a step of a deck of the deal, or an open."""
        if seat in self._seats.absent:
            return False
        if self._show_events(seat):
            return True
        if not self.dealing() or self.shows:
            return False
        names = {d.deck for d in self.deal}
        return any(o.seat == seat for name in names for o in self.decks[name].owed())

    # ------------------------------------------------------------------ handler

    def on_deck(self, seat: int, message: Message, body: DeckMessageBody) -> bool | None:
        """Take ``seat``'s DECK body: True taken, False it waits (it may fit later), None it
        is stale (a void deal's).  A :class:`Fault` for a body that breaks a rule."""
        inner = body.body
        name = self._names.get(inner.deck_id)
        if name is None:
            if inner.deck_id in self._void:
                return None
            raise Fault("bad deck step (not-in-play): its DECK body names a deck not in play",
                        message)
        if body.fault:
            # (Version 3: a point or scalar that is not one of the group's, signed by its seat.)
            raise Fault(f"bad deck step (malformed): {body.fault}", message)
        deck = self.decks[name]
        if isinstance(inner, DeckOpenBody):
            return self._on_open(seat, message, name, deck, inner)
        events = deck.receive(seat, inner)
        if self._waits(events, message):
            return False
        self._taken(name, seat, inner, message)
        self._learn(name, events)
        if name in self._vetoes and deck.phase is not Phase.KEY_COMMITS:
            self.judge_vetoes(name)
        self._deal_ready()
        if deck.stage != self._stage[name]:
            self._anchor_at(name)
        return True

    def _taken(self, name: str, seat: int, inner: DeckBody, message: Message) -> None:
        self._log[name].append((seat, inner))
        self._last[name][seat] = message.hash

    def _on_open(self, seat: int, message: Message, name: str, deck: Deck,
                 inner: DeckOpenBody) -> bool:
        owed = self._show_events(seat)
        if not owed and self.owes_audit(seat):
            return self._on_audit(seat, message, name, deck, inner)
        if not owed and self.may_preopen(seat):
            return self._on_preopen(seat, message, name, deck, inner)
        if not owed:
            raise Fault("bad deck step (not-owed): it opened a card nobody asked it to show",
                        message)
        want = self._where(owed[0])
        if want[0] != name or inner.positions != (want[1],):
            raise Fault(f"bad deck step (not-owed): it owes the open of {owed[0]} (deck "
                        f"{want[0]}, position {want[1]}) first", message)
        card = self._open_one(seat, message, name, deck, inner)
        if card is None:
            return False
        try:
            self._state().open_private(seat, owed[0], card)
        except EngineError as exc:
            raise Fault(f"bad deck step (rules): its open of {owed[0]} breaks the rules: {exc}",
                        message) from None
        self._opened[(seat, owed[0])] = card
        return True

    def may_preopen(self, seat: int) -> bool:
        """The engine waits on openings of ``seat``'s, not held yet: it may first open cards
        its opening shows (``opening_claims``)."""
        w = self._state().waiting
        return (isinstance(w, Openings) and seat in w.seats and not self._opening_held(seat)
                and seat not in self._seats.absent)

    def _event_at(self, name: str, position: int) -> str | None:
        for dealing in self._dealt.values():
            if dealing.deck == name and dealing.position == position:
                return dealing.event
        return None

    def _on_preopen(self, seat: int, message: Message, name: str, deck: Deck,
                    inner: DeckOpenBody) -> bool:
        if len(inner.positions) != 1:
            raise Fault("bad deck step (not-owed): an open before an OPEN shows one card",
                        message)
        event = self._event_at(name, inner.positions[0])
        if event is None or event in self.shown or event in self.preopened.get(seat, {}):
            raise Fault(f"bad deck step (not-owed): position {inner.positions[0]} of deck "
                        f"{name} is no card of its to show now", message)
        card = self._open_one(seat, message, name, deck, inner)
        if card is None:
            return False
        self.preopened.setdefault(seat, {})[event] = card
        return True

    def _open_one(self, seat: int, message: Message, name: str, deck: Deck,
                  inner: DeckOpenBody) -> str | None:
        """The deck's checks of an open of one card, then taken: the card (None: it waits)."""
        events = deck.receive(seat, inner)
        if self._waits(events, message):
            return None
        self._taken(name, seat, inner, message)
        return next(e.card for e in events if isinstance(e, DeckCardShown))

    def claimed(self, seat: int, events: tuple[str, ...], message: Message) -> dict[str, str]:
        """The cards of ``events`` (an opening's claims) that ``seat`` opened before its OPEN;
        a :class:`Fault` naming the first it did not."""
        held = self.preopened.get(seat, {})
        for event in events:
            if event not in held:
                raise Fault(f"bad deck step (not-shown): its opening shows the card of {event} "
                            "without the deck's open of it first", message)
        return {event: held[event] for event in events}

    def shown_with_opening(self, seat: int, events: dict[str, str]) -> None:
        """The cards shown with ``seat``'s opening, now applied."""
        for event, card in events.items():
            self.preopened.get(seat, {}).pop(event, None)
            self.shown[event] = card
            self._emit(CardShown(seat, event, card))

    # ------------------------------------------------------------------ the audit

    def hidden(self, seat: int) -> list[str]:
        """The private events dealt to ``seat`` whose card was never shown (engine ids, in
        order): what stays hidden when the seat is gone before its audit."""
        return sorted(e for e, d in self._dealt.items()
                      if d.owner == seat and d.position is not None and e not in self.shown)

    def _unshown(self, seat: int) -> list[tuple[str, tuple[int, ...]]]:
        """Per deck, the positions dealt to ``seat`` (by a deal the engine applied) that are
        not public yet."""
        out = []
        for name in sorted(self.decks):
            deck = self.decks[name]
            shown = deck.shown()
            positions = tuple(d.position for d in self._dealt.values()
                              if d.deck == name and d.owner == seat and d.position is not None
                              and d.position not in shown
                              and self._names.get(deck.spec.deck_id) == name)
            if positions:
                out.append((name, tuple(sorted(positions))))
        return out

    def owes_audit(self, seat: int) -> bool:
        """The game is over and ``seat`` holds dealt cards nobody has seen: it opens them
        before its END (the audit of the discards)."""
        ending = self._ending
        return (ending.ended and not ending.cut and seat not in ending.end_signatures
                and seat not in self._seats.absent and bool(self._dealt)
                and bool(self._unshown(seat)))

    def _on_audit(self, seat: int, message: Message, name: str, deck: Deck,
                  inner: DeckOpenBody) -> bool:
        owed = dict(self._unshown(seat))
        if inner.positions != owed.get(name):
            raise Fault(f"bad deck step (not-owed): its audit of deck {name} must open "
                        f"positions {list(owed.get(name, ()))}", message)
        events = deck.receive(seat, inner)
        if self._waits(events, message):
            return False
        state = self._state()
        shown = [(e.position, e.card) for e in events if isinstance(e, DeckCardShown)]
        for position, card in shown:
            event = self._event_at(name, position)
            assert event is not None
            try:
                state.open_private(seat, event, card)  # (checked; the result is reached)
            except EngineError as exc:
                raise Fault(f"bad deck step (rules): its audit shows {event} = {card}, which "
                            f"the rules refuse: {exc}", message) from None
        self._taken(name, seat, inner, message)
        for position, card in shown:
            event = self._event_at(name, position)
            assert event is not None
            self.shown[event] = card
            self._emit(CardShown(seat, event, card, at_end=True))
        return True

    @staticmethod
    def _waits(events: list[Any], message: Message) -> bool:
        """True if the deck refused the body as ``not-yet`` (it may fit later); a
        :class:`Fault` for any other refusal; False if it was taken."""
        if len(events) == 1 and isinstance(events[0], DeckFault):
            fault = events[0]
            if fault.code is FaultCode.NOT_YET:
                return True
            raise Fault(f"bad deck step ({fault.code.value}): {fault.reason}", message)
        return False

    def _learn(self, name: str, events: list[Any]) -> None:
        for event in events:
            if isinstance(event, CardLearned):
                for d in self.deal:
                    if d.deck == name and d.position == event.position:
                        self.learnt[d.event] = event.card

    def hand(self) -> dict[str, str]:
        """The local seat's dealt cards the engine has dealt, not shown yet: event -> card."""
        return {e: c for e, c in self.learnt.items() if e in self._dealt and e not in self.shown}

    def _where(self, event: str) -> tuple[str, int]:
        dealing = self._dealt[event]
        assert dealing.position is not None
        return dealing.deck, dealing.position

    # ------------------------------------------------------------------ replacement

    def on_replaced(self, seat: int) -> None:
        """``seat`` was replaced: a deal it takes part in and that is not complete restarts
        among the live seats (a fresh deck); its owed opens are dropped when settled."""
        if not self.deal or all(d.event in self._dealt for d in self.deal):
            return
        live = tuple(s for s in self._seats.live_seats() if s != seat)
        if len(live) < 2:
            return  # (the floor ends the match here: nothing is dealt again, §7.7)
        for name in sorted({d.deck for d in self.deal}):
            deck = self.decks[name]
            if seat not in deck.spec.seats or name in self._used:
                continue
            self._void.add(deck.spec.deck_id)
            del self._names[deck.spec.deck_id]
            if self._version >= 3:
                self._vetoes.setdefault(name, []).append((seat, deck))
            attempt = self.attempts[name] + 1
            self._start(name, deck.spec.cards, live, attempt=attempt)
            self.deal = tuple(replace(d, position=None) if d.deck == name else d
                              for d in self.deal)
            for event in [e for e, _ in self.learnt.items()
                          if any(d.event == e and d.deck == name for d in self.deal)]:
                del self.learnt[event]
            self._emit(DeckRestarted(name, attempt, live, seat))
            self._shortfalls.append(f"deck {name}: seat {seat} was replaced during the deal; "
                                    f"it restarts as attempt {attempt} among seats "
                                    f"{', '.join(map(str, live))}")
        self._deal_ready()


    # ------------------------------------------------------------------ vetoes (version 3)

    def judge_vetoes(self, name: str) -> None:
        """The key commitments of deck ``name``'s restarted deal are all in: each seat whose
        replacement voided an earlier deal of it withheld its shares there if, by then, every
        other seat of that deal had sent its shares of the seat's own cards (the seat could
        learn them) and the seat had not sent all of its own.  Judged from the feeds alone: a
        seat's messages before its first body of a later deal of the deck — or, replaced
        without one, before its replacement — are the same on every peer whatever order the
        feeds were taken in (protocol.md §7.13, *A deal withholder*)."""
        for seat, void in self._vetoes.pop(name, []):
            own = set(void.hand(seat))
            if not own:
                continue  # (nothing was dealt to it: it learnt nothing)
            if set(self._shares_sent(name, seat, void)) >= set(void.shares_owed(seat)):
                continue  # (it sent every share: not its silence that voided the deal)
            if all(set(self._shares_sent(name, t, void)) >= own
                   for t in void.spec.seats if t != seat):
                self._seats.withheld(seat, f"its shares of deck {name} (its own cards were "
                                     "delivered to it)")

    def _shares_sent(self, name: str, seat: int, void: Deck) -> list[int]:
        """The positions of ``void`` that ``seat``'s feed holds its shares of, before its first
        body of a later deal of the deck (or, replaced and not in the deal now, before its last
        replacement)."""
        # (A seat replaced and not in the deal now — absent, or back by a reclaim since — is
        # read up to its last replacement: what came after is stale for a void deal, and not
        # taken everywhere.  A seat of the deal now is read up to its first body of it.)
        feed = self._feeds[seat].messages
        end = len(feed)
        if seat not in self.decks[name].spec.seats and seat in self._seats.replaced_at:
            end = min(self._seats.replaced_at[seat], len(feed))
        ids = [deck_id_for(self._match_id, name, a) for a in range(self.attempts[name] + 1)]
        later = set(ids[ids.index(void.spec.deck_id) + 1:])
        positions: list[int] = []
        for message in feed[:end]:
            body = message.content
            if not isinstance(body, DeckMessageBody):
                continue
            inner = body.body
            if inner.deck_id != void.spec.deck_id:
                if inner.deck_id in later:
                    break  # (its first body of another deal: what follows comes after)
                continue
            if isinstance(inner, SharesBody):
                positions.extend(inner.positions)
        return positions
