"""The deck's message bodies: typed, with one canonical wire form each and a strict decoder.

A body's wire form is a positional array whose first item is its kind (msgpack-able: text,
bytes and ints only; scalars as 32 bytes little-endian, points as 32-byte encodings).
:func:`decode_body` accepts exactly the arrays :func:`encode_body` writes and checks every
field (every point is a checked group element, every scalar below L); anything else raises
:class:`DeckDecodeError` with one line saying what is wrong (docs/deck.md §5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Final

from protocol.deck.elgamal import Ciphertext, Proof
from protocol.deck.group import (
    GroupError,
    Point,
    decode_point,
    decode_scalar,
    encode_scalar,
)
from protocol.deck.shuffle import ShuffleProof
from protocol.errors import BadMessage
from protocol.wire.bodies import Kind
from protocol.wire.encoding import Value

__all__ = [
    "DECK_ID_SIZE",
    "KINDS",
    "MAX_CARDS",
    "DeckBody",
    "DeckDecodeError",
    "DeckMessageBody",
    "KeyBody",
    "KeyCommitBody",
    "OpenBody",
    "SharesBody",
    "ShuffleBody",
    "decode_body",
    "encode_body",
]

DECK_ID_SIZE: Final = 32
MAX_CARDS: Final = 256
"""The most cards a deck may hold (a shuffle message of 256 cards is about 52 KiB)."""


class DeckDecodeError(BadMessage):
    """A deck body that is malformed: a wrong shape, size, point or scalar."""


@dataclass(frozen=True, slots=True)
class KeyCommitBody:
    """A seat's commitment to its key share, before any share is shown."""

    deck_id: bytes
    commitment: bytes


@dataclass(frozen=True, slots=True)
class KeyBody:
    """A seat's key share and its proof of knowledge."""

    deck_id: bytes
    key: Point
    proof: Proof


@dataclass(frozen=True, slots=True)
class ShuffleBody:
    """One seat's shuffle: the re-masked, permuted deck and its proof."""

    deck_id: bytes
    step: int
    deck: tuple[Ciphertext, ...]
    proof: ShuffleProof


@dataclass(frozen=True, slots=True)
class SharesBody:
    """A seat's decryption shares for a deal round's positions (those it does not own)."""

    deck_id: bytes
    round: int
    positions: tuple[int, ...]
    shares: tuple[Point, ...]
    proof: Proof


@dataclass(frozen=True, slots=True)
class OpenBody:
    """An owner shows cards it holds: its own shares for their positions, the cards claimed."""

    deck_id: bytes
    positions: tuple[int, ...]
    cards: tuple[int, ...]
    shares: tuple[Point, ...]
    proof: Proof


DeckBody = KeyCommitBody | KeyBody | ShuffleBody | SharesBody | OpenBody

KINDS: Final = {
    KeyCommitBody: "deck-key-commit",
    KeyBody: "deck-key",
    ShuffleBody: "deck-shuffle",
    SharesBody: "deck-shares",
    OpenBody: "deck-open",
}


def _proof_wire(proof: Proof) -> tuple[bytes, bytes]:
    return encode_scalar(proof.challenge), encode_scalar(proof.response)


def encode_body(body: DeckBody) -> tuple[Value, ...]:
    """The canonical positional array of ``body``."""
    kind = KINDS[type(body)]
    if isinstance(body, KeyCommitBody):
        return (kind, body.deck_id, body.commitment)
    if isinstance(body, KeyBody):
        return (kind, body.deck_id, body.key, *_proof_wire(body.proof))
    if isinstance(body, ShuffleBody):
        p = body.proof
        return (kind, body.deck_id, body.step, tuple(pt for card in body.deck for pt in card),
                p.commitments, p.chain,
                tuple(encode_scalar(s) for s in (p.challenge, p.s1, p.s2, p.s3, p.s4)),
                tuple(encode_scalar(s) for s in p.s_hat),
                tuple(encode_scalar(s) for s in p.s_prime))
    if isinstance(body, SharesBody):
        return (kind, body.deck_id, body.round, body.positions, body.shares,
                *_proof_wire(body.proof))
    return (kind, body.deck_id, body.positions, body.cards, body.shares,
            *_proof_wire(body.proof))


def _array(value: Value, what: str, *, size: int | None = None, limit: int = 2 * MAX_CARDS
           ) -> tuple[Value, ...]:
    if not isinstance(value, tuple | list):
        raise DeckDecodeError(f"{what} must be an array")
    if size is not None and len(value) != size:
        raise DeckDecodeError(f"{what} must have {size} items, not {len(value)}")
    if len(value) > limit:
        raise DeckDecodeError(f"{what} has {len(value)} items, over the cap of {limit}")
    return tuple(value)


def _bytes(value: Value, size: int, what: str) -> bytes:
    if not isinstance(value, bytes) or len(value) != size:
        raise DeckDecodeError(f"{what} must be {size} bytes")
    return value


def _count(value: Value, what: str, limit: int = 2**32) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < limit:
        raise DeckDecodeError(f"{what} must be an integer in 0 … {limit - 1}")
    return value


def _points(value: Value, what: str) -> tuple[Point, ...]:
    return tuple(decode_point(item, f"{what} {i}")
                 for i, item in enumerate(_array(value, what)))


def _scalars(value: Value, what: str, size: int | None = None) -> tuple[int, ...]:
    return tuple(decode_scalar(item, f"{what} {i}")
                 for i, item in enumerate(_array(value, what, size=size)))


def _indices(value: Value, what: str) -> tuple[int, ...]:
    items = tuple(_count(item, f"{what} item", MAX_CARDS)
                  for item in _array(value, what, limit=MAX_CARDS))
    return items


def decode_body(value: Value) -> DeckBody:
    """The body whose canonical array ``value`` is; DeckDecodeError (or its GroupError) for
    anything else."""
    try:
        return _decode(value)
    except GroupError as exc:
        raise DeckDecodeError(str(exc)) from None


def _decode(value: Value) -> DeckBody:
    items = _array(value, "a deck body", limit=16)
    if not items or not isinstance(items[0], str):
        raise DeckDecodeError("a deck body starts with its kind")
    kind, fields = items[0], items[1:]
    sizes = {"deck-key-commit": 2, "deck-key": 4, "deck-shuffle": 8, "deck-shares": 6,
             "deck-open": 6}
    if kind not in sizes:
        raise DeckDecodeError(f"unknown deck body kind {kind[:40]!r}")
    if len(fields) != sizes[kind]:
        raise DeckDecodeError(f"a {kind} body has {sizes[kind]} fields, not {len(fields)}")
    deck_id = _bytes(fields[0], DECK_ID_SIZE, "the deck id")
    if kind == "deck-key-commit":
        return KeyCommitBody(deck_id, _bytes(fields[1], 32, "the key commitment"))
    if kind == "deck-key":
        return KeyBody(deck_id, decode_point(fields[1], "the key share"),
                       Proof(decode_scalar(fields[2], "the proof's challenge"),
                             decode_scalar(fields[3], "the proof's response")))
    if kind == "deck-shuffle":
        return _decode_shuffle(deck_id, fields[1:])
    if kind == "deck-shares":
        positions = _indices(fields[2], "the positions")
        shares = _points(fields[3], "share")
        _same_length(positions, shares, "positions", "shares")
        return SharesBody(deck_id, _count(fields[1], "the round"), positions, shares,
                          Proof(decode_scalar(fields[4], "the proof's challenge"),
                                decode_scalar(fields[5], "the proof's response")))
    positions = _indices(fields[1], "the positions")
    cards = _indices(fields[2], "the cards")
    shares = _points(fields[3], "share")
    _same_length(positions, cards, "positions", "cards")
    _same_length(positions, shares, "positions", "shares")
    return OpenBody(deck_id, positions, cards, shares,
                    Proof(decode_scalar(fields[4], "the proof's challenge"),
                          decode_scalar(fields[5], "the proof's response")))


def _same_length(a: Sequence[object], b: Sequence[object], what_a: str, what_b: str) -> None:
    if len(a) != len(b) or not a:
        raise DeckDecodeError(f"the {what_a} and {what_b} must be non-empty and as many")


def _decode_shuffle(deck_id: bytes, fields: tuple[Value, ...]) -> ShuffleBody:
    step = _count(fields[0], "the step", MAX_CARDS)
    flat = _array(fields[1], "the deck")
    if len(flat) % 2 or len(flat) < 4:
        raise DeckDecodeError("the deck holds an even number of points, two cards at least")
    n = len(flat) // 2
    for what, field in (("commitments", fields[2]), ("chain", fields[3])):
        _array(field, f"the {what}", size=n)
    head = _scalars(fields[4], "the proof's scalar", size=5)
    s_hat = _scalars(fields[5], "the chain response", size=n)
    s_prime = _scalars(fields[6], "the permutation response", size=n)
    points = [decode_point(item, f"card point {i}") for i, item in enumerate(flat)]
    deck = tuple((points[2 * i], points[2 * i + 1]) for i in range(n))
    proof = ShuffleProof(_points(fields[2], "commitment"), _points(fields[3], "chain point"),
                         head[0], head[1], head[2], head[3], head[4], s_hat, s_prime)
    return ShuffleBody(deck_id, step, deck, proof)


@dataclass(frozen=True)
class DeckMessageBody:
    """Version 2, the body of a DECK message (protocol.md §7.13): one deck body's canonical
    array, as :func:`encode_body` writes it."""

    KIND: ClassVar[Kind] = Kind.DECK
    body: DeckBody

    def as_body(self) -> tuple[Value, ...]:
        return encode_body(self.body)

    @classmethod
    def from_body(cls, body: tuple[Value, ...]) -> DeckMessageBody:
        return cls(decode_body(body))
