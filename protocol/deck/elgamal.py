"""ElGamal over the Ed25519 group with a joint key, key proofs and decryption-share proofs.

A card is ``M = hash_to_point("cryptcrawl/deck-card/v1", identity)``; a masked card is
``(A, B) = (r·G, M + r·K)`` under the joint key ``K = Σ K_s`` (``K_s = x_s·G`` each seat's
share).  Seat ``s``'s decryption share of ``(A, B)`` is ``D_s = x_s·A``; ``M = B - Σ D_s``.

Proofs (non-interactive, Fiat–Shamir, every hash input named in docs/deck.md §3):

* :func:`prove_key` — Schnorr proof of knowledge of ``x_s`` for ``K_s``, bound to the proof
  *context* (match id, deck id, seat, the seat's identity key): stops a rogue key
  ``K_s = x·G - Σ K_other``, whose owner would not know its discrete logarithm;
* :func:`prove_shares` — one Chaum–Pedersen proof that ``log_G K_s = log_{A_j} D_j`` for every
  ``j`` of a batch (one nonce, one challenge, one response for the batch).

Both are ``(challenge, response)`` pairs; the verifier recomputes the commitments and the
challenge.  The prover's nonce is derived from its seed and a digest of the whole statement, so
no nonce ever answers two challenges.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from protocol.crypto import H
from protocol.deck.derive import Derivation
from protocol.deck.group import (
    BASE,
    GroupError,
    L,
    Point,
    add,
    base_mul,
    hash_to_point,
    hash_to_scalar,
    mul,
    neg,
    sub,
)

__all__ = [
    "CARD_DOMAIN",
    "KEY_COMMIT_DOMAIN",
    "KEY_PROOF_DOMAIN",
    "SHARE_PROOF_DOMAIN",
    "Ciphertext",
    "Proof",
    "card_point",
    "decryption_shares",
    "initial_deck",
    "key_commitment",
    "prove_key",
    "prove_shares",
    "remask",
    "unmask",
    "verify_key",
    "verify_shares",
]

CARD_DOMAIN: Final = "cryptcrawl/deck-card/v1"
KEY_COMMIT_DOMAIN: Final = "cryptcrawl/deck-key-commit/v1"
KEY_PROOF_DOMAIN: Final = "cryptcrawl/deck-key-proof/v1"
SHARE_PROOF_DOMAIN: Final = "cryptcrawl/deck-share-proof/v1"
_STATEMENT_DOMAIN: Final = "cryptcrawl/deck-statement/v1"

Ciphertext = tuple[Point, Point]
"""A masked card ``(A, B) = (r·G, M + r·K)``."""


@dataclass(frozen=True, slots=True)
class Proof:
    """A Fiat–Shamir proof as (challenge, response), both scalars below L."""

    challenge: int
    response: int

    def __post_init__(self) -> None:
        for value in (self.challenge, self.response):
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < L:
                raise GroupError("a proof's challenge and response are scalars below L")


def card_point(identity: str) -> Point:
    """The group element of a card identity (``from_uniform`` of its hash)."""
    return hash_to_point(CARD_DOMAIN, identity)


def initial_deck(cards: Sequence[Point], joint_key: Point) -> tuple[Ciphertext, ...]:
    """The deck before the first shuffle: each card masked with the public scalar 1,
    ``(G, M + K)`` (the first shuffler re-masks it)."""
    return tuple((BASE, add(card, joint_key)) for card in cards)


def remask(card: Ciphertext, scalar: int, joint_key: Point) -> Ciphertext:
    """``(A + r·G, B + r·K)``."""
    return add(card[0], base_mul(scalar)), add(card[1], mul(scalar, joint_key))


def unmask(card: Ciphertext, shares: Sequence[Point]) -> Point:
    """``B - Σ D_s``: the card's point once every seat's share is in."""
    point = card[1]
    for share in shares:
        point = sub(point, share)
    return point


def key_commitment(context: bytes, public: Point) -> bytes:
    """``H("cryptcrawl/deck-key-commit/v1", context, K_s)``, sent before any key is shown."""
    return H(KEY_COMMIT_DOMAIN, context, public)


def prove_key(context: bytes, secret: int, public: Point, derivation: Derivation) -> Proof:
    """Schnorr proof of knowledge of ``secret`` for ``public = secret·G``, bound to
    ``context``."""
    nonce = derivation.scalar("key-proof-nonce", H(_STATEMENT_DOMAIN, context, public))
    commitment = base_mul(nonce)
    challenge = hash_to_scalar(KEY_PROOF_DOMAIN, context, public, commitment)
    return Proof(challenge, (nonce + challenge * secret) % L)


def verify_key(context: bytes, public: Point, proof: Proof) -> bool:
    """Whether ``proof`` proves knowledge of ``log_G public`` in ``context``."""
    try:
        commitment = add(base_mul(proof.response), mul(neg(proof.challenge), public))
    except GroupError:
        return False
    return proof.challenge == hash_to_scalar(KEY_PROOF_DOMAIN, context, public, commitment)


def decryption_shares(secret: int, cards: Sequence[Ciphertext]) -> tuple[Point, ...]:
    """``x_s·A`` for each card."""
    return tuple(mul(secret, card[0]) for card in cards)


def _share_challenge(context: bytes, public: Point, positions: Sequence[int],
                     bases: Sequence[Point], shares: Sequence[Point],
                     commitments: Sequence[Point]) -> int:
    return hash_to_scalar(SHARE_PROOF_DOMAIN, context, public, len(positions), *positions,
                          *bases, *shares, *commitments)


def prove_shares(context: bytes, secret: int, public: Point, positions: Sequence[int],
                 cards: Sequence[Ciphertext], derivation: Derivation
                 ) -> tuple[tuple[Point, ...], Proof]:
    """The shares ``D_j = x·A_j`` of ``cards`` (at deck ``positions``) and one Chaum–Pedersen
    proof that every ``D_j`` uses the ``x`` of ``public``."""
    bases = [card[0] for card in cards]
    shares = decryption_shares(secret, cards)
    statement = H(_STATEMENT_DOMAIN, context, public, len(positions), *positions, *bases,
                  *shares)
    nonce = derivation.scalar("share-proof-nonce", statement)
    commitments = [base_mul(nonce), *(mul(nonce, base) for base in bases)]
    challenge = _share_challenge(context, public, positions, bases, shares, commitments)
    return shares, Proof(challenge, (nonce + challenge * secret) % L)


def verify_shares(context: bytes, public: Point, positions: Sequence[int],
                  cards: Sequence[Ciphertext], shares: Sequence[Point], proof: Proof) -> bool:
    """Whether ``proof`` shows ``shares[j] = x·cards[j].A`` for the ``x`` of ``public``."""
    if len(shares) != len(cards) or len(positions) != len(cards):
        return False
    bases = [card[0] for card in cards]
    minus_c = neg(proof.challenge)
    try:
        commitments = [add(base_mul(proof.response), mul(minus_c, public))]
        commitments += [add(mul(proof.response, base), mul(minus_c, share))
                        for base, share in zip(bases, shares, strict=True)]
    except GroupError:
        return False
    return proof.challenge == _share_challenge(context, public, positions, bases, shares,
                                               commitments)
