"""Private-knowledge rounds (F4, protocol.md §7.5): a seat learns hidden chance events privately.

When the game owes a seat knowledge of hidden events (``GameState.knowledge_requests``), a round
opens for it: the seat names a fresh X25519 key (``SEAL_KEY``), every other contributor to those
events sends a DELIVERY of its secrets sealed to that key, and the seat's own decisions wait for
the round to be complete.  Once the events are turned — or at once, to prove a lying delivery —
the seat releases the key (KEY_RELEASE), and every delivery is opened and checked by every peer.

:class:`KnowledgeRounds` owns the rounds; it reads chance commitments through :class:`Chance`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.core import GameState
from protocol.crypto import SeatSecrets
from protocol.errors import BadMessage, Fault, LocalProtocolError
from protocol.match.events import Event, PeerMisbehaved, RoundKeyReleased
from protocol.mechanisms.absence import Seats
from protocol.mechanisms.chance import Chance
from protocol.wire.delivery import check_secrets, open_delivery, round_key, seal_delivery
from protocol.wire.messages import (
    ChanceRevealBody,
    DeliveryBody,
    KeyReleaseBody,
    Message,
    SealKeyBody,
)
from protocol.wire.naming import Naming


@dataclass
class KnowledgeRound:
    """One private-knowledge round: the seat it serves, the hidden events it is owed (protocol
    ids), its key, the deliveries, and the release."""

    id: str
    seat: int
    events: tuple[str, ...]
    deliverers: dict[int, tuple[str, ...]]  # seat -> the events it contributed to
    key_message: Message | None = None
    public_key: bytes = b""
    deliveries: dict[int, Message] = field(default_factory=dict)
    release: Message | None = None
    private_key: bytes = b""
    void: bool = False
    due: bool = False  # its events are turned: the key must be published before anything else
    publish: bool = False  # a deliverer was replaced: publish its secrets soon

    @property
    def complete(self) -> bool:
        return self.key_message is not None and set(self.deliveries) >= set(self.deliverers)

    @property
    def open(self) -> bool:
        return not self.void and self.release is None


class KnowledgeRounds:
    """Every private-knowledge round of the match, by id, in the order they opened."""

    def __init__(self, *, match_id: bytes, keys: tuple[bytes, ...], seats: Seats,
                 chance: Chance, emit: Callable[[Event], None], naming: Naming) -> None:
        self.naming = naming
        self._match_id = match_id
        self._keys = keys
        self._seats = seats
        self._chance = chance
        self._emit = emit
        self.rounds: dict[str, KnowledgeRound] = {}
        self._live: list[KnowledgeRound] = []  # the rounds not finished yet (see live)
        self.shown: dict[int, set[str]] = {}  # seat -> protocol ids already in its rounds

    def open_rounds(self, state: GameState[Any]) -> None:
        """Open a round for every seat the engine owes hidden events it has not been sent yet."""
        chance = self._chance
        for request in state.knowledge_requests():
            seat = request.seat
            ids = tuple(chance.alias.get(e, e) for e in request.events)
            shown = self.shown.setdefault(seat, set())
            new = tuple(a for a in ids if a not in shown and a in chance.closed)
            if not new:
                continue
            shown.update(new)
            if seat in self._seats.absent:
                continue  # a zombie never looks
            deliverers = {}
            for d in self._seats.live_seats():
                if d == seat:
                    continue
                mine = tuple(a for a in new if d in chance.commitments.get(a, {}))
                if mine:
                    deliverers[d] = mine
            # Named by its seat and first event: the same on every peer whatever order two
            # rounds of one step were consumed in.
            name = self.naming.round_id(seat, new[0])
            self.rounds[name] = KnowledgeRound(name, seat, new, deliverers)
            self._live.append(self.rounds[name])

    def live(self) -> list[KnowledgeRound]:
        """The rounds something may still be owed in, in the order they opened: a round that is
        void, or released with every delivery in, is finished — no seat owes it anything, and
        nothing can be done to it.  Usually none."""
        live = self._live
        if live and any(r.void or (r.release is not None and r.complete) for r in live):
            live = self._live = [r for r in live
                                 if not (r.void or (r.release is not None and r.complete))]
        return live

    # ------------------------------------------------------------------ what a seat owes

    def owes_key(self, seat: int) -> bool:
        """A round is open for it and it has not named its key."""
        return bool(self._live) and any(r.seat == seat and r.key_message is None and not r.void
                                        for r in self.live())

    def owes_release(self, seat: int) -> bool:
        """Its round's events are turned, every delivery is in, its key is not published."""
        return bool(self._live) and any(r.seat == seat and r.due and r.open and r.complete
                                        for r in self.live())

    def owes_delivery(self, seat: int) -> bool:
        return self.delivery_round(seat) is not None

    def delivery_round(self, seat: int) -> KnowledgeRound | None:
        for r in self.live():
            if (not r.void and r.key_message is not None and seat in r.deliverers
                    and seat not in r.deliveries):
                return r
        return None

    def waits(self, seat: int) -> bool:
        """The seat's decisions wait for its round (key sent, every delivery in)."""
        return bool(self._live) and any(r.seat == seat and not r.void and not r.complete
                                        for r in self.live())

    def gated(self, seat: int) -> bool:
        """It owes its round a key or a release: nothing else of it is taken before."""
        return self.owes_key(seat) or self.owes_release(seat)

    def may_release(self, seat: int) -> bool:
        """A key release of ``seat`` is welcome now (early, to prove a lying delivery)."""
        return any(r.seat == seat and r.key_message is not None and r.open
                   for r in self.live())

    def undelivered(self, seat: int, owners: set[int]) -> int | None:
        """The first seat of ``owners`` whose open round ``seat`` has not delivered to yet."""
        for r in self.live():
            if (r.seat in owners and r.key_message is not None and not r.void
                    and seat in r.deliverers and seat not in r.deliveries):
                return r.seat
        return None

    def recoverable(self, seat: int, event: str) -> bool:
        """Will a round's key publish ``seat``'s secret for ``event`` (it delivered it)?"""
        return any(r.open and seat in r.deliveries and event in r.deliverers.get(seat, ())
                   and r.seat not in self._seats.absent for r in self.live())

    def _dead_round(self, name: str) -> bool:
        """Is ``name`` a round that can never open: not open here and named by an event drawn
        again?"""
        if name in self.rounds:
            return False
        first = self.naming.round_first_event(name)
        return first is not None and first in self._chance.dead

    def stale(self, seat: int, body: object) -> bool:
        """A live seat's message (``body``) that is skipped as harmless where it stands: a
        chance reveal, or a round's message, sent before its sender saw the event drawn again
        (a round over an event drawn again never opens: rounds are named by the new ids); a
        DELIVERY signed before its sender saw the round's seat replaced (the round is void)."""
        dead = self._chance.dead
        if dead and (
                (isinstance(body, ChanceRevealBody) and body.secrets[0][0] in dead)
                or (isinstance(body, SealKeyBody | DeliveryBody | KeyReleaseBody)
                    and self._dead_round(body.round))):
            return True
        if isinstance(body, DeliveryBody):
            r = self.rounds.get(body.round)
            return r is not None and r.void and seat not in r.deliveries
        return False

    # ------------------------------------------------------------------ handlers

    def on_key(self, seat: int, message: Message, body: SealKeyBody) -> bool:
        r = self.rounds.get(body.round)
        if r is None or r.seat != seat or r.key_message is not None or r.void:
            raise Fault(self.naming.key_for_wrong_round(body.round), message)
        if body.events != r.events:
            raise Fault(self.naming.key_names_wrong_events(body.events, r.events), message)
        r.key_message = message
        r.public_key = body.public_key
        return True

    def on_delivery(self, seat: int, message: Message, body: DeliveryBody) -> bool:
        r = self.rounds.get(body.round)
        if r is None or r.key_message is None:
            return False  # a round this peer has not got to yet: it waits
        if r.void or seat not in r.deliverers or seat in r.deliveries:
            raise Fault(f"sent a DELIVERY for round {body.round!r}, not one it owes", message)
        r.deliveries[seat] = message
        if r.release is not None:  # late: the key is out already, so check it now
            secrets = self.open_delivery(r, seat, r.private_key)
            if secrets is None:
                self._emit(PeerMisbehaved(seat, self.naming.lying_delivery(r.seat, r.id),
                                          (message, r.key_message, r.release)))
            for event, secret in secrets or ():
                self._chance.published.setdefault(event, {})[seat] = secret
        return True

    def on_release(self, seat: int, message: Message, body: KeyReleaseBody) -> bool:
        r = self.rounds.get(body.round)
        if r is None or r.seat != seat or r.key_message is None or not r.open:
            raise Fault(f"released a key for round {body.round!r}, not its own open one",
                        message)
        try:
            _private, public = round_key(body.private_key)
        except LocalProtocolError:
            public = b""
        if public != r.public_key:
            raise Fault(self.naming.released_wrong_key(), r.key_message, message)
        r.release = message
        r.private_key = body.private_key
        bad = []
        chance = self._chance
        for deliverer, delivery in sorted(r.deliveries.items()):
            secrets = self.open_delivery(r, deliverer, body.private_key)
            if secrets is None:
                bad.append(deliverer)
                # Blamed with the proof, but neither stopped nor replaced: the proof sits in
                # another seat's feed, unordered with the liar's own messages, so peers would
                # disagree on which of those count (docs/protocol.md §7.5).  The lie cost the
                # receiver its view; the file names the liar.
                self._emit(PeerMisbehaved(deliverer, self.naming.lying_delivery(seat, r.id),
                                          (delivery, r.key_message, message)))
                continue
            for event, secret in secrets:
                chance.published.setdefault(event, {})[deliverer] = secret
            if deliverer in self._seats.absent:  # published on its behalf
                chance.use_published(deliverer)
        self._emit(RoundKeyReleased(r.id, seat, tuple(bad)))
        chance.redraw_lost(self.recoverable)
        return True

    def open_delivery(self, r: KnowledgeRound, deliverer: int,
                      private_key: bytes) -> tuple[tuple[str, bytes], ...] | None:
        """Open and check one delivery of round ``r`` (None: it lies or does not open)."""
        delivery = r.deliveries[deliverer].content
        assert isinstance(delivery, DeliveryBody)
        events = r.deliverers.get(deliverer, ())
        commitments = self._chance.commitments
        try:
            secrets = open_delivery(private_key, delivery.sealed, match_id=self._match_id,
                                    receiver=r.seat, deliverer=deliverer,
                                    deliverer_key=self._keys[deliverer], events=events)
            check_secrets(secrets, match_id=self._match_id, deliverer_key=self._keys[deliverer],
                          commitments={e: commitments.get(e, {}).get(deliverer, b"")
                                       for e in events})
        except BadMessage:
            return None
        return secrets

    # ------------------------------------------------------------------ changes elsewhere

    def on_replaced(self, seat: int) -> None:
        """``seat`` was replaced: its own open round ends unreleased (the verifier notes it); a
        round it delivered to publishes its secrets soon; a round it owed a delivery no longer
        waits for it."""
        for r in self.live():
            if r.seat == seat and r.open:
                r.void = True
            elif seat in r.deliverers and seat in r.deliveries:
                if r.open:
                    r.publish = True
            elif seat in r.deliverers:
                # Open or released early, the round no longer waits for its delivery.
                del r.deliverers[seat]

    def mark_due(self, over: Callable[[], bool]) -> None:
        """A round's key is due once none of its events is still hidden."""
        ended = None
        resolved = self._chance.resolved
        for r in self.live():
            if r.open and not r.due:
                if ended is None:
                    ended = over()
                if ended or all(e in resolved for e in r.events):
                    r.due = True


# ---------------------------------------------------------------------- the local seat's bodies


def round_private(secrets: SeatSecrets, name: str, naming: Naming) -> bytes:
    """The local seat's private key of its round ``name`` (derived: the same after a restart)."""
    return round_key(secrets.round_randomness(name, naming.key_domain))[0]


def key_body(knowledge: KnowledgeRounds, seat: int, secrets: SeatSecrets) -> SealKeyBody:
    r = next(r for r in knowledge.rounds.values()
             if r.seat == seat and r.key_message is None and not r.void)
    public = round_key(secrets.round_randomness(r.id, knowledge.naming.key_domain))[1]
    return SealKeyBody(r.id, r.events, public)


def release_body(knowledge: KnowledgeRounds, seat: int, secrets: SeatSecrets) -> KeyReleaseBody:
    r = next(r for r in knowledge.rounds.values()
             if r.seat == seat and r.due and r.open and r.complete)
    return KeyReleaseBody(r.id, round_private(secrets, r.id, knowledge.naming))


def delivery_body(knowledge: KnowledgeRounds, seat: int, secrets: SeatSecrets,
                  key: Ed25519PrivateKey, match_id: bytes) -> DeliveryBody:
    owed = knowledge.delivery_round(seat)
    assert owed is not None
    mine = tuple((e, secrets.chance_secret(e)) for e in owed.deliverers[seat])
    sealed = seal_delivery(key, owed.public_key, match_id=match_id, receiver=owed.seat,
                           deliverer=seat, secrets=mine)
    key_message = owed.key_message.hash if owed.key_message is not None and (
        owed.key_message.version >= 2) else b""
    return DeliveryBody(owed.id, sealed, key_message)
