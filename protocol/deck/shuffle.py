"""A verifiable re-encryption shuffle: Terelius–Wikström's proof, O(N), non-interactive.

The structure follows the pseudo-code of Haenni, Locher, Koenig and Dubuis (2017), "Pseudo-code
algorithms for verifiable re-encryption mix-nets" (GenShuffleProof / CheckShuffleProof), written
additively over the Ed25519 group with our ciphertexts ``(A, B) = (r·G, M + r·K)``.  Symbols
(docs/deck.md §3.3 gives every hash input):

* ``ψ`` the permutation: output ``i`` is input ``ψ(i)`` re-masked with ``r'_i``;
* ``h = h_0`` and ``h_1 … h_N`` independent generators (:func:`~protocol.deck.group.generators`);
* ``c_{ψ(i)} = r_{ψ(i)}·G + h_i`` the commitment to the permutation matrix;
* ``u_j`` the per-card challenges, ``u'_i = u_{ψ(i)}``;
* ``ĉ_0 = h``, ``ĉ_i = r̂_i·G + u'_i·ĉ_{i-1}`` the commitment chain to ``Π u'_i``;
* the proof: ``(c, ĉ, e, s1, s2, s3, s4, ŝ, s')`` with ``e`` the challenge.

Strong Fiat–Shamir: ``u`` hashes the whole statement (context — match id, deck id, step, seat,
identity key, key share —, joint key, generators, input deck, output deck) and ``c``; ``e``
hashes ``u``'s seed, ``ĉ`` and every commitment ``t``.  A statement changed after the challenge
changes the challenge.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from protocol.crypto import H
from protocol.deck.derive import Derivation, permutation
from protocol.deck.elgamal import Ciphertext, remask
from protocol.deck.group import (
    GroupError,
    L,
    Point,
    add,
    base_mul,
    generators,
    hash_to_scalar,
    mul,
    neg,
    sub,
)

__all__ = [
    "SHUFFLE_CHALLENGE_DOMAIN",
    "SHUFFLE_INPUT_DOMAIN",
    "SHUFFLE_STATEMENT_DOMAIN",
    "SHUFFLE_U_DOMAIN",
    "ShuffleProof",
    "prove_shuffle",
    "prove_shuffle_of",
    "statement_digest",
    "verify_shuffle",
]

SHUFFLE_INPUT_DOMAIN: Final = "cryptcrawl/deck-shuffle-input/v1"
SHUFFLE_STATEMENT_DOMAIN: Final = "cryptcrawl/deck-shuffle-statement/v1"
SHUFFLE_U_DOMAIN: Final = "cryptcrawl/deck-shuffle-u/v1"
SHUFFLE_CHALLENGE_DOMAIN: Final = "cryptcrawl/deck-shuffle-challenge/v1"
_NONCE_DOMAIN: Final = "cryptcrawl/deck-shuffle-nonce/v1"


@dataclass(frozen=True, slots=True)
class ShuffleProof:
    """A Terelius–Wikström shuffle proof for N cards."""

    commitments: tuple[Point, ...]
    """``c_1 … c_N``: the commitment to the permutation."""
    chain: tuple[Point, ...]
    """``ĉ_1 … ĉ_N``: the commitment chain."""
    challenge: int
    s1: int
    s2: int
    s3: int
    s4: int
    s_hat: tuple[int, ...]
    s_prime: tuple[int, ...]

    def __post_init__(self) -> None:
        n = len(self.commitments)
        if not (len(self.chain) == len(self.s_hat) == len(self.s_prime) == n):
            raise GroupError("a shuffle proof's vectors differ in length")
        for value in (self.challenge, self.s1, self.s2, self.s3, self.s4, *self.s_hat,
                      *self.s_prime):
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < L:
                raise GroupError("a shuffle proof's scalars are below L")


def _flat(deck: Sequence[Ciphertext]) -> list[Point]:
    return [point for card in deck for point in card]


def _input_digest(context: bytes, joint_key: Point, inputs: Sequence[Ciphertext]) -> bytes:
    return H(SHUFFLE_INPUT_DOMAIN, context, joint_key, len(inputs), *_flat(inputs))


def statement_digest(context: bytes, joint_key: Point, inputs: Sequence[Ciphertext],
                     outputs: Sequence[Ciphertext]) -> bytes:
    """``H(statement domain, context, K, N, h_0 … h_N, inputs, outputs)``."""
    n = len(inputs)
    return H(SHUFFLE_STATEMENT_DOMAIN, context, joint_key, n, *generators(n + 1),
             *_flat(inputs), *_flat(outputs))


def _u(statement: bytes, commitments: Sequence[Point]) -> tuple[bytes, list[int]]:
    seed = H(SHUFFLE_U_DOMAIN, statement, *commitments)
    return seed, [hash_to_scalar(SHUFFLE_U_DOMAIN, seed, j) for j in range(len(commitments))]


def _challenge(seed: bytes, chain: Sequence[Point], t: Sequence[Point]) -> int:
    return hash_to_scalar(SHUFFLE_CHALLENGE_DOMAIN, seed, *chain, *t)


def _weighted_sum(scalars: Sequence[int], points: Sequence[Point]) -> Point:
    total = mul(scalars[0], points[0])
    for scalar, point in zip(scalars[1:], points[1:], strict=True):
        total = add(total, mul(scalar, point))
    return total


def prove_shuffle(context: bytes, joint_key: Point, inputs: Sequence[Ciphertext],
                  derivation: Derivation) -> tuple[tuple[Ciphertext, ...], ShuffleProof]:
    """Permute and re-mask ``inputs``; return the output deck and its proof.

    Every secret derives from ``derivation`` and the digest of (context, joint key, inputs);
    the nonces also from the digest of the full statement."""
    n = len(inputs)
    if n < 2:
        raise GroupError("a shuffle needs at least two cards")
    own = derivation.child("shuffle", _input_digest(context, joint_key, inputs))
    psi = permutation(own.key("permutation"), n)
    remasks = [own.scalar("remask", i) for i in range(n)]
    outputs = tuple(remask(inputs[psi[i]], remasks[i], joint_key) for i in range(n))
    return outputs, prove_shuffle_of(context, joint_key, inputs, outputs, psi, remasks, own)


def prove_shuffle_of(context: bytes, joint_key: Point, inputs: Sequence[Ciphertext],
                     outputs: Sequence[Ciphertext], psi: Sequence[int], remasks: Sequence[int],
                     own: Derivation) -> ShuffleProof:
    """The proof that ``outputs[i]`` is ``inputs[psi[i]]`` re-masked by ``remasks[i]`` (the
    prover's algorithm on a statement it is given: :func:`prove_shuffle` for honest use; the
    attack tests give it false statements)."""
    n = len(inputs)
    gens = generators(n + 1)
    h, hs = gens[0], gens[1:]
    blinds = [own.scalar("commit", j) for j in range(n)]
    commitment_list: list[Point | None] = [None] * n
    for i in range(n):
        commitment_list[psi[i]] = add(base_mul(blinds[psi[i]]), hs[i])
    commitments = tuple(c for c in commitment_list if c is not None)
    statement = statement_digest(context, joint_key, inputs, outputs)
    seed, u = _u(statement, commitments)
    u_prime = [u[psi[i]] for i in range(n)]
    chain_blinds = [own.scalar("chain", i) for i in range(n)]
    chain: list[Point] = []
    previous = h
    for i in range(n):
        previous = add(base_mul(chain_blinds[i]), mul(u_prime[i], previous))
        chain.append(previous)
    nonces = own.child("nonces", H(_NONCE_DOMAIN, seed, *chain))
    w1, w2, w3, w4 = (nonces.scalar("w", k) for k in range(1, 5))
    w_hat = [nonces.scalar("w-hat", i) for i in range(n)]
    w_prime = [nonces.scalar("w-prime", i) for i in range(n)]
    t1, t2 = base_mul(w1), base_mul(w2)
    t3 = add(base_mul(w3), _weighted_sum(w_prime, hs))
    t4a = sub(_weighted_sum(w_prime, [card[0] for card in outputs]), base_mul(w4))
    t4b = sub(_weighted_sum(w_prime, [card[1] for card in outputs]), mul(w4, joint_key))
    t_hat = [add(base_mul(w_hat[i]), mul(w_prime[i], h if i == 0 else chain[i - 1]))
             for i in range(n)]
    e = _challenge(seed, chain, (t1, t2, t3, t4a, t4b, *t_hat))
    v = [1] * n  # v_i = Π_{k > i} u'_k
    for i in range(n - 2, -1, -1):
        v[i] = v[i + 1] * u_prime[i + 1] % L
    s1 = (w1 - e * sum(blinds)) % L
    s2 = (w2 - e * sum(b * vi for b, vi in zip(chain_blinds, v, strict=True))) % L
    s3 = (w3 - e * sum(b * uj for b, uj in zip(blinds, u, strict=True))) % L
    s4 = (w4 - e * sum(r * up for r, up in zip(remasks, u_prime, strict=True))) % L
    s_hat = tuple((w_hat[i] - e * chain_blinds[i]) % L for i in range(n))
    s_prime = tuple((w_prime[i] - e * u_prime[i]) % L for i in range(n))
    return ShuffleProof(commitments, tuple(chain), e, s1, s2, s3, s4, s_hat, s_prime)


def verify_shuffle(context: bytes, joint_key: Point, inputs: Sequence[Ciphertext],
                   outputs: Sequence[Ciphertext], proof: ShuffleProof) -> bool:
    """Whether ``proof`` shows ``outputs`` to be a re-masked permutation of ``inputs`` under
    ``joint_key``, made in ``context`` (all points already checked by their decoder)."""
    n = len(inputs)
    if n < 2 or len(outputs) != n or len(proof.commitments) != n:
        return False
    gens = generators(n + 1)
    h, hs = gens[0], gens[1:]
    statement = statement_digest(context, joint_key, inputs, outputs)
    seed, u = _u(statement, proof.commitments)
    e = proof.challenge
    chain = proof.chain
    eu = [e * uj % L for uj in u]
    product = 1
    for uj in u:
        product = product * uj % L
    try:
        c_bar = proof.commitments[0]
        for point in proof.commitments[1:]:
            c_bar = add(c_bar, point)
        for point in hs:
            c_bar = sub(c_bar, point)
        t1 = add(mul(e, c_bar), base_mul(proof.s1))
        t2 = add(mul(e, sub(chain[-1], mul(product, h))), base_mul(proof.s2))
        t3 = add(add(_weighted_sum(eu, proof.commitments), base_mul(proof.s3)),
                 _weighted_sum(proof.s_prime, hs))
        t4a = add(add(_weighted_sum(eu, [card[0] for card in inputs]),
                      _weighted_sum(proof.s_prime, [card[0] for card in outputs])),
                  base_mul(neg(proof.s4)))
        t4b = add(add(_weighted_sum(eu, [card[1] for card in inputs]),
                      _weighted_sum(proof.s_prime, [card[1] for card in outputs])),
                  mul(neg(proof.s4), joint_key))
        t_hat = [add(add(mul(e, chain[i]), base_mul(proof.s_hat[i])),
                     mul(proof.s_prime[i], h if i == 0 else chain[i - 1])) for i in range(n)]
    except GroupError:
        return False
    return e == _challenge(seed, chain, (t1, t2, t3, t4a, t4b, *t_hat))
