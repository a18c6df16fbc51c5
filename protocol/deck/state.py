"""The deck state machine: one deck's keys, shuffles, deals, opens and audit, sans-I/O.

One :class:`Deck` per deck per peer (the verifier runs one too, with no local seat).  It is fed
every deck body in the canonical order the match core consumes them (:meth:`Deck.receive`),
and says what it learnt as events; a body that breaks a rule leaves the state unchanged and
comes back as a :class:`DeckFault` naming the seat and the reason.  The local seat's own bodies
come from :meth:`Deck.to_send` (deterministic: a restarted peer makes the same bytes) and are
fed back through ``receive`` like everyone's.

Phases (docs/deck.md §4): every taking-part seat commits to a key share, then shows it with a
proof; the seats shuffle in their order; then the match core deals rounds of positions from
the top (:meth:`Deck.deal`), each to one owner or to all, and the seats owe their decryption
shares; an owner may open cards it holds (:meth:`Deck.open_body`); the audit asks owners to
open given positions (:meth:`Deck.request_audit`).  A deal that loses a seat restarts as a
fresh deck among the others (:meth:`Deck.restarted`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Final

from protocol.crypto import H
from protocol.deck.bodies import (
    DECK_ID_SIZE,
    MAX_CARDS,
    DeckBody,
    DeckDecodeError,
    KeyBody,
    KeyCommitBody,
    OpenBody,
    SharesBody,
    ShuffleBody,
    decode_body,
)
from protocol.deck.derive import Derivation
from protocol.deck.elgamal import (
    Ciphertext,
    card_point,
    initial_deck,
    key_commitment,
    prove_key,
    prove_shares,
    unmask,
    verify_key,
    verify_shares,
)
from protocol.deck.group import Point, add, base_mul, mul
from protocol.deck.shuffle import prove_shuffle, verify_shuffle
from protocol.errors import LocalProtocolError
from protocol.wire.encoding import Value

__all__ = [
    "CONTEXT_DOMAIN",
    "DECK_ALGORITHM",
    "DECK_ID_DOMAIN",
    "CardLearned",
    "CardShown",
    "Deck",
    "DeckEvent",
    "DeckFault",
    "DeckSeat",
    "DeckShuffled",
    "DeckSpec",
    "FaultCode",
    "JointKeyAgreed",
    "Owed",
    "Phase",
    "SharesAccepted",
    "ShuffleAccepted",
    "deck_id_for",
    "proof_context",
]

DECK_ALGORITHM: Final = "deck-tw-ed25519/v1"
"""The header's name for this algorithm (group, encodings, proofs, derivations)."""
DECK_ID_DOMAIN: Final = "cryptcrawl/deck-id/v1"
CONTEXT_DOMAIN: Final = "cryptcrawl/deck-context/v1"


def deck_id_for(match_id: bytes, name: str, attempt: int) -> bytes:
    """``H("cryptcrawl/deck-id/v1", match_id, name, attempt)``: attempt 0 for a deck's first
    deal, one more for each restart."""
    return H(DECK_ID_DOMAIN, match_id, name, attempt)


@dataclass(frozen=True, slots=True)
class DeckSpec:
    """What every peer agrees on before a deck starts."""

    match_id: bytes
    deck_id: bytes
    seats: tuple[int, ...]
    """The seats taking part, in shuffle order."""
    seat_keys: tuple[bytes, ...]
    """Every seat's 32-byte identity key, indexed by seat number."""
    cards: tuple[str, ...]
    """The card identities, in the order of the unshuffled deck."""

    def __post_init__(self) -> None:
        if len(self.match_id) != 32 or len(self.deck_id) != DECK_ID_SIZE:
            raise LocalProtocolError("the match id and deck id are 32 bytes")
        if not self.seats or len(set(self.seats)) != len(self.seats):
            raise LocalProtocolError("a deck needs distinct seats")
        if any(not 0 <= s < len(self.seat_keys) for s in self.seats):
            raise LocalProtocolError("a deck's seat has no identity key")
        if not 2 <= len(self.cards) <= MAX_CARDS or len(set(self.cards)) != len(self.cards):
            raise LocalProtocolError(f"a deck holds 2 … {MAX_CARDS} distinct cards")


def proof_context(spec: DeckSpec, kind: str, seat: int, step: int) -> bytes:
    """``H("cryptcrawl/deck-context/v1", kind, match_id, deck_id, step, seat, seat_key)``:
    what every proof of the deck is bound to."""
    return H(CONTEXT_DOMAIN, kind, spec.match_id, spec.deck_id, step, seat,
             spec.seat_keys[seat])


class DeckSeat:
    """The local seat's deck secrets, derived from its per-match seed."""

    __slots__ = ("_root", "seat")

    def __init__(self, seat: int, seed: bytes, match_id: bytes) -> None:
        self.seat = seat
        self._root = Derivation.from_seed(seed, match_id)

    def __repr__(self) -> str:
        return f"DeckSeat(seat={self.seat})"

    def for_deck(self, deck_id: bytes) -> Derivation:
        """The derivation of every secret of this seat for ``deck_id``."""
        return self._root.child("deck", deck_id, self.seat)


class Phase(Enum):
    KEY_COMMITS = "key-commits"
    KEYS = "keys"
    SHUFFLES = "shuffles"
    READY = "ready"


class FaultCode(Enum):
    MALFORMED = "malformed"
    WRONG_DECK = "wrong-deck"
    NOT_TAKING_PART = "not-taking-part"
    NOT_YET = "not-yet"
    NOT_OWED = "not-owed"
    KEY_NOT_COMMITTED = "key-not-committed"
    BAD_KEY_PROOF = "bad-key-proof"
    BAD_SHUFFLE = "bad-shuffle"
    BAD_SHARES = "bad-shares"
    NOT_DEALT = "not-dealt"
    WRONG_CARD = "wrong-card"


@dataclass(frozen=True, slots=True)
class DeckFault:
    """A body refused: the seat at fault and why (``NOT_YET``: it may be valid later)."""

    seat: int
    code: FaultCode
    reason: str


@dataclass(frozen=True, slots=True)
class JointKeyAgreed:
    key: Point


@dataclass(frozen=True, slots=True)
class ShuffleAccepted:
    seat: int
    step: int


@dataclass(frozen=True, slots=True)
class DeckShuffled:
    """Every seat has shuffled: positions can be dealt."""


@dataclass(frozen=True, slots=True)
class SharesAccepted:
    seat: int
    round: int


@dataclass(frozen=True, slots=True)
class CardLearned:
    """The local seat learnt the card it was dealt at ``position``."""

    position: int
    card: str


@dataclass(frozen=True, slots=True)
class CardShown:
    """A card became public: a public draw (``owner`` None) or an owner's open."""

    position: int
    card: str
    owner: int | None


DeckEvent = (JointKeyAgreed | ShuffleAccepted | DeckShuffled | SharesAccepted | CardLearned
             | CardShown | DeckFault)


@dataclass(frozen=True, slots=True)
class Owed:
    """A body ``seat`` owes now: ``what`` is a body kind; ``round`` a deal round (shares) or
    the step (shuffle); ``positions`` for shares and audited opens."""

    seat: int
    what: str
    round: int = 0
    positions: tuple[int, ...] = ()


class _Refused(Exception):
    def __init__(self, code: FaultCode, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


@dataclass(frozen=True, slots=True)
class _Round:
    positions: tuple[int, ...]
    owners: tuple[int | None, ...]


class Deck:
    """One deck as one peer (or the verifier, ``local=None``) sees it."""

    def __init__(self, spec: DeckSpec, local: DeckSeat | None = None) -> None:
        if local is not None and local.seat not in spec.seats:
            raise LocalProtocolError(f"seat {local.seat} does not take part in this deck")
        self.spec = spec
        self._local = local
        self._secrets = local.for_deck(spec.deck_id) if local is not None else None
        self._cards = tuple(card_point(card) for card in spec.cards)
        self._card_index = {point: i for i, point in enumerate(self._cards)}
        self._commitments: dict[int, bytes] = {}
        self._keys: dict[int, Point] = {}
        self._joint: Point | None = None
        self._decks: list[tuple[Ciphertext, ...]] = []
        self._rounds: list[_Round] = []
        self._owner: dict[int, int | None] = {}
        self._shares: dict[int, dict[int, Point]] = {}
        self._round_done: set[tuple[int, int]] = set()
        self._opened: dict[int, int] = {}
        self._learnt: dict[int, int] = {}
        self._audit: dict[int, set[int]] = {}
        self._sent: dict[tuple[str, int], DeckBody] = {}
        self._verified: Counter[str] = Counter()

    # ------------------------------------------------------------------ queries

    @property
    def phase(self) -> Phase:
        if len(self._commitments) < len(self.spec.seats):
            return Phase.KEY_COMMITS
        if self._joint is None:
            return Phase.KEYS
        if len(self._decks) <= len(self.spec.seats):
            return Phase.SHUFFLES
        return Phase.READY

    @property
    def stage(self) -> tuple[str, int, int]:
        """Where the deck is: its phase, the masked decks held (the unshuffled one and each
        shuffle's output) and the deal rounds dealt.  It changes only when every body the
        previous stage owed is in (a match core anchors the heads of the next ones there)."""
        return self.phase.value, len(self._decks), len(self._rounds)

    @property
    def joint_key(self) -> Point | None:
        return self._joint

    @property
    def deck(self) -> tuple[Ciphertext, ...]:
        """The current masked deck (the last shuffle's output); empty before the keys."""
        return self._decks[-1] if self._decks else ()

    @property
    def dealt(self) -> int:
        """How many positions have been dealt from the top."""
        return len(self._owner)

    @property
    def verify_counts(self) -> dict[str, int]:
        """How many proofs of each kind this instance checked itself."""
        return dict(self._verified)

    def hand(self, seat: int) -> tuple[int, ...]:
        """The positions dealt privately to ``seat``."""
        return tuple(p for p, owner in sorted(self._owner.items()) if owner == seat)

    def shares_owed(self, seat: int) -> tuple[int, ...]:
        """The dealt positions ``seat`` owes its decryption shares of (every one it does not
        own, in every deal round dealt)."""
        return tuple(p for r in range(len(self._rounds)) for p in self._owed_positions(r, seat))

    def learnt(self) -> dict[int, str]:
        """The local seat's dealt cards it has learnt, by position."""
        return {p: self.spec.cards[c] for p, c in self._learnt.items()}

    def shown(self) -> dict[int, str]:
        """Every public card (public draws and opens), by position."""
        return {p: self.spec.cards[c] for p, c in sorted(self._opened.items())}

    def owed(self) -> tuple[Owed, ...]:
        """Every body some seat owes now (for timeouts: owed but missing)."""
        seats = self.spec.seats
        phase = self.phase
        if phase is Phase.KEY_COMMITS:
            return tuple(Owed(s, "deck-key-commit") for s in seats if s not in self._commitments)
        if phase is Phase.KEYS:
            return tuple(Owed(s, "deck-key") for s in seats if s not in self._keys)
        if phase is Phase.SHUFFLES:
            step = len(self._decks) - 1
            return (Owed(seats[step], "deck-shuffle", step),)
        owed = [Owed(s, "deck-shares", r, self._owed_positions(r, s))
                for r in range(len(self._rounds)) for s in seats
                if (r, s) not in self._round_done and self._owed_positions(r, s)]
        owed += [Owed(s, "deck-open", 0, tuple(sorted(p for p in ps if p not in self._opened)))
                 for s, ps in sorted(self._audit.items())
                 if any(p not in self._opened for p in ps)]
        return tuple(owed)

    def _owed_positions(self, round_: int, seat: int) -> tuple[int, ...]:
        deal = self._rounds[round_]
        return tuple(p for p, o in zip(deal.positions, deal.owners, strict=True) if o != seat)

    # ------------------------------------------------------------------ commands

    def deal(self, owners: Sequence[int | None]) -> tuple[int, ...]:
        """Deal the next ``len(owners)`` positions from the top, each privately to its owner
        (a seat) or publicly (None); returns the positions.  Every peer must call it at the
        same point of the match."""
        if self.phase is not Phase.READY:
            raise LocalProtocolError("the deck is not shuffled yet")
        if not owners or self.dealt + len(owners) > len(self.spec.cards):
            raise LocalProtocolError("not that many cards left to deal")
        if any(o is not None and o not in self.spec.seats for o in owners):
            raise LocalProtocolError("a card can only be dealt to a seat taking part")
        positions = tuple(range(self.dealt, self.dealt + len(owners)))
        self._rounds.append(_Round(positions, tuple(owners)))
        for p, o in zip(positions, owners, strict=True):
            self._owner[p] = o
            self._shares[p] = {}
        return positions

    def request_audit(self, positions: Mapping[int, Sequence[int]]) -> None:
        """The end-of-match audit: each seat owes an open of the given positions it holds."""
        for seat, wanted in positions.items():
            for p in wanted:
                if self._owner.get(p) != seat:
                    raise LocalProtocolError(f"position {p} was not dealt to seat {seat}")
            self._audit.setdefault(seat, set()).update(wanted)

    def restarted(self, deck_id: bytes, seats: Sequence[int]) -> Deck:
        """A fresh deck among ``seats`` (a deal that lost a seat): new id, new keys, nothing
        carried over."""
        spec = DeckSpec(self.spec.match_id, deck_id, tuple(seats), self.spec.seat_keys,
                        self.spec.cards)
        local = self._local if self._local is not None and self._local.seat in seats else None
        return Deck(spec, local)

    # ------------------------------------------------------------------ the local seat

    def _secret(self) -> int:
        assert self._secrets is not None
        return self._secrets.scalar("key-share")

    def to_send(self) -> tuple[DeckBody, ...]:
        """The bodies the local seat owes now and has not been fed back yet."""
        if self._local is None:
            return ()
        me = self._local.seat
        out: list[DeckBody] = []
        for owed in self.owed():
            if owed.seat != me:
                continue
            if owed.what == "deck-open":
                ready = [p for p in owed.positions if p in self._learnt]
                if ready:  # (a card not learnt yet waits for the others' shares)
                    out.append(self.open_body(ready))
            else:
                out.append(self._make(owed))
        return tuple(out)

    def _make(self, owed: Owed) -> DeckBody:
        key = (owed.what, owed.round)
        made = self._sent.get(key)
        if made is not None:
            return made
        assert self._secrets is not None and self._local is not None
        me, spec = self._local.seat, self.spec
        x = self._secret()
        body: DeckBody
        if owed.what == "deck-key-commit":
            body = KeyCommitBody(spec.deck_id,
                                 key_commitment(proof_context(spec, "key", me, 0), base_mul(x)))
        elif owed.what == "deck-key":
            context = proof_context(spec, "key", me, 0)
            public = base_mul(x)
            body = KeyBody(spec.deck_id, public, prove_key(context, x, public, self._secrets))
        elif owed.what == "deck-shuffle":
            assert self._joint is not None
            context = proof_context(spec, "shuffle", me, owed.round)
            deck, shuffle_proof = prove_shuffle(context, self._joint, self.deck,
                                                self._secrets.child("shuffle", owed.round))
            body = ShuffleBody(spec.deck_id, owed.round, deck, shuffle_proof)
        else:
            cards = [self.deck[p] for p in owed.positions]
            context = proof_context(spec, "shares", me, owed.round)
            shares, proof = prove_shares(context, x, self._keys[me], owed.positions, cards,
                                         self._secrets)
            body = SharesBody(spec.deck_id, owed.round, owed.positions, shares, proof)
        self._sent[key] = body
        return body

    def open_body(self, positions: Sequence[int]) -> OpenBody:
        """The local owner's open of ``positions`` (cards it holds and has learnt)."""
        if self._local is None or self._secrets is None:
            raise LocalProtocolError("only a seat can open its cards")
        me = self._local.seat
        wanted = tuple(sorted(set(positions)))
        if not wanted or any(p not in self._learnt for p in wanted):
            raise LocalProtocolError("the local seat opens only cards it holds and knows")
        context = proof_context(self.spec, "open", me, wanted[0])
        shares, proof = prove_shares(context, self._secret(), self._keys[me], wanted,
                                     [self.deck[p] for p in wanted], self._secrets)
        return OpenBody(self.spec.deck_id, wanted, tuple(self._learnt[p] for p in wanted),
                        shares, proof)

    # ------------------------------------------------------------------ receiving

    def receive(self, seat: int, body: DeckBody) -> list[DeckEvent]:
        """Consume ``seat``'s ``body``; the events it causes, or ``[DeckFault]`` (state
        unchanged).  Never raises on a peer's input."""
        try:
            if body.deck_id != self.spec.deck_id:
                raise _Refused(FaultCode.WRONG_DECK, "a body for another deck")
            if seat not in self.spec.seats:
                raise _Refused(FaultCode.NOT_TAKING_PART,
                               f"seat {seat} does not take part in this deck")
            if isinstance(body, KeyCommitBody):
                return self._on_commit(seat, body)
            if isinstance(body, KeyBody):
                return self._on_key(seat, body)
            if isinstance(body, ShuffleBody):
                return self._on_shuffle(seat, body)
            if isinstance(body, SharesBody):
                return self._on_shares(seat, body)
            return self._on_open(seat, body)
        except _Refused as refused:
            return [DeckFault(seat, refused.code, f"seat {seat}: {refused.reason}")]

    def receive_wire(self, seat: int, value: Value) -> list[DeckEvent]:
        """:meth:`receive` of a body still in its wire form (a malformed one is a fault)."""
        try:
            body = decode_body(value)
        except DeckDecodeError as exc:
            return [DeckFault(seat, FaultCode.MALFORMED, f"seat {seat}: {exc}")]
        return self.receive(seat, body)

    def _mine(self, seat: int, key: tuple[str, int], body: DeckBody) -> bool:
        """Whether ``body`` is the local seat's own, as made here (not checked again)."""
        return (self._local is not None and seat == self._local.seat
                and self._sent.get(key) == body)

    def _on_commit(self, seat: int, body: KeyCommitBody) -> list[DeckEvent]:
        if seat in self._commitments:
            raise _Refused(FaultCode.NOT_OWED, "a second key commitment")
        self._commitments[seat] = body.commitment
        return []

    def _on_key(self, seat: int, body: KeyBody) -> list[DeckEvent]:
        if self.phase is Phase.KEY_COMMITS:
            raise _Refused(FaultCode.NOT_YET, "a key shown before every seat committed")
        if seat in self._keys:
            raise _Refused(FaultCode.NOT_OWED, "a second key share")
        context = proof_context(self.spec, "key", seat, 0)
        if key_commitment(context, body.key) != self._commitments[seat]:
            raise _Refused(FaultCode.KEY_NOT_COMMITTED,
                           "its key share does not open its commitment")
        if not self._mine(seat, ("deck-key", 0), body):
            self._verified["key"] += 1
            if not verify_key(context, body.key, body.proof):
                raise _Refused(FaultCode.BAD_KEY_PROOF,
                               "its key proof fails (no proof of knowledge of the share)")
        self._keys[seat] = body.key
        if len(self._keys) < len(self.spec.seats):
            return []
        joint = self._keys[self.spec.seats[0]]
        for s in self.spec.seats[1:]:
            joint = add(joint, self._keys[s])
        # (Each share has a proven discrete log, so the sum is the identity only with
        # negligible probability; a later operation on it would refuse it.)
        self._joint = joint
        self._decks.append(initial_deck(self._cards, joint))
        return [JointKeyAgreed(joint)]

    def _on_shuffle(self, seat: int, body: ShuffleBody) -> list[DeckEvent]:
        phase = self.phase
        if phase in (Phase.KEY_COMMITS, Phase.KEYS):
            raise _Refused(FaultCode.NOT_YET, "a shuffle before the joint key")
        step = len(self._decks) - 1
        seats = self.spec.seats
        if body.step >= len(seats) or seats[body.step] != seat:
            raise _Refused(FaultCode.NOT_OWED, f"step {body.step} is not this seat's shuffle")
        if phase is Phase.READY or body.step < step:
            raise _Refused(FaultCode.NOT_OWED, f"a shuffle for step {body.step}, already done")
        if body.step > step:
            raise _Refused(FaultCode.NOT_YET, f"a shuffle for step {body.step} before step "
                           f"{step}")
        if len(body.deck) != len(self.spec.cards):
            raise _Refused(FaultCode.BAD_SHUFFLE, f"a shuffle of {len(body.deck)} cards, not "
                           f"{len(self.spec.cards)}")
        if not self._mine(seat, ("deck-shuffle", step), body):
            assert self._joint is not None
            self._verified["shuffle"] += 1
            context = proof_context(self.spec, "shuffle", seat, step)
            if not verify_shuffle(context, self._joint, self.deck, body.deck, body.proof):
                raise _Refused(FaultCode.BAD_SHUFFLE,
                               f"its shuffle proof for step {step} fails")
        self._decks.append(body.deck)
        events: list[DeckEvent] = [ShuffleAccepted(seat, step)]
        if self.phase is Phase.READY:
            events.append(DeckShuffled())
        return events

    def _on_shares(self, seat: int, body: SharesBody) -> list[DeckEvent]:
        if body.round >= len(self._rounds):
            raise _Refused(FaultCode.NOT_YET, f"shares for deal round {body.round}, not dealt")
        if (body.round, seat) in self._round_done:
            raise _Refused(FaultCode.NOT_OWED, f"second shares for deal round {body.round}")
        owed = self._owed_positions(body.round, seat)
        if body.positions != owed:
            raise _Refused(FaultCode.NOT_OWED, f"shares for positions {list(body.positions)}; "
                           f"round {body.round} owes {list(owed)}")
        if not self._mine(seat, ("deck-shares", body.round), body):
            self._verified["shares"] += 1
            context = proof_context(self.spec, "shares", seat, body.round)
            if not verify_shares(context, self._keys[seat], body.positions,
                                 [self.deck[p] for p in body.positions], body.shares,
                                 body.proof):
                raise _Refused(FaultCode.BAD_SHARES,
                               f"its decryption shares for round {body.round} fail their proof")
        self._round_done.add((body.round, seat))
        events: list[DeckEvent] = [SharesAccepted(seat, body.round)]
        for p, share in zip(body.positions, body.shares, strict=True):
            self._shares[p][seat] = share
            events += self._settle(p)
        return events

    def _settle(self, position: int) -> list[DeckEvent]:
        """The card at ``position`` once every share it needs is in."""
        owner = self._owner[position]
        shares = self._shares[position]
        needed = [s for s in self.spec.seats if s != owner]
        if any(s not in shares for s in needed):
            return []
        card = self.deck[position]
        if owner is None:
            index = self._card(unmask(card, [shares[s] for s in needed]))
            self._opened[position] = index
            return [CardShown(position, self.spec.cards[index], None)]
        if self._local is None or owner != self._local.seat or position in self._learnt:
            return []
        own = mul(self._secret(), card[0])
        index = self._card(unmask(card, [*(shares[s] for s in needed), own]))
        self._learnt[position] = index
        return [CardLearned(position, self.spec.cards[index])]

    def _card(self, point: Point) -> int:
        index = self._card_index.get(point)
        if index is None:  # every step was proved: only a bug of this program gets here
            raise LocalProtocolError("an unmasked card is no card of the deck")
        return index

    def _on_open(self, seat: int, body: OpenBody) -> list[DeckEvent]:
        positions = body.positions
        if not positions or list(positions) != sorted(set(positions)):
            raise _Refused(FaultCode.NOT_OWED, "an open lists its positions in order, once")
        for p in positions:
            if self._owner.get(p, -1) != seat:
                raise _Refused(FaultCode.NOT_DEALT, f"it opens position {p}, not dealt to it")
            if p in self._opened:
                raise _Refused(FaultCode.NOT_OWED, f"position {p} is open already")
            if any(s not in self._shares[p] for s in self.spec.seats if s != seat):
                raise _Refused(FaultCode.NOT_YET, f"it opens position {p} before its shares")
        if any(not 0 <= c < len(self.spec.cards) for c in body.cards):
            raise _Refused(FaultCode.WRONG_CARD, "it claims a card the deck does not hold")
        self._verified["open"] += 1
        cards = [self.deck[p] for p in positions]
        context = proof_context(self.spec, "open", seat, positions[0])
        if not verify_shares(context, self._keys[seat], positions, cards, body.shares,
                             body.proof):
            raise _Refused(FaultCode.BAD_SHARES, "its open's shares fail their proof")
        found = []
        for p, claimed, own in zip(positions, body.cards, body.shares, strict=True):
            others = [self._shares[p][s] for s in self.spec.seats if s != seat]
            index = self._card(unmask(self.deck[p], [*others, own]))
            if index != claimed:
                raise _Refused(FaultCode.WRONG_CARD, f"it claims {self.spec.cards[claimed]!r} "
                               f"at position {p}, which holds another card")
            found.append((p, index))
        events: list[DeckEvent] = []
        for p, index in found:
            self._opened[p] = index
            events.append(CardShown(p, self.spec.cards[index], seat))
        return events
