"""The proofs on their own: key (Schnorr), shares (Chaum–Pedersen) and shuffle
(Terelius–Wikström): complete for honest provers, and refusing false or re-bound statements."""

from __future__ import annotations

import dataclasses

import pytest

from protocol.deck.derive import Derivation, permutation
from protocol.deck.elgamal import (
    KEY_PROOF_DOMAIN,
    Proof,
    card_point,
    initial_deck,
    prove_key,
    prove_shares,
    remask,
    unmask,
    verify_key,
    verify_shares,
)
from protocol.deck.group import L, Point, add, base_mul, hash_to_scalar, mul, neg, sub
from protocol.deck.shuffle import (
    ShuffleProof,
    prove_shuffle,
    prove_shuffle_of,
    verify_shuffle,
)
from tests.deck.points import digest

SEED = digest(b"proof-seed")
MATCH = digest(b"proof-match")
CONTEXT = digest(b"context")


def derivation(label: str = "d") -> Derivation:
    return Derivation.from_seed(digest(SEED, label.encode()), MATCH)


def keys(count: int) -> tuple[list[int], Point]:
    xs = [derivation(f"key{i}").scalar("x") for i in range(count)]
    return xs, base_mul(sum(xs))


CARDS = [card_point(f"c{i}") for i in range(8)]


# ---------------------------------------------------------------- key proofs


def test_a_key_proof_verifies_and_binds_its_context_and_key() -> None:
    x = derivation().scalar("x")
    public = base_mul(x)
    proof = prove_key(CONTEXT, x, public, derivation())
    assert verify_key(CONTEXT, public, proof)
    assert not verify_key(digest(b"other"), public, proof)
    assert not verify_key(CONTEXT, base_mul(x + 1), proof)
    assert not verify_key(CONTEXT, public, Proof(proof.challenge, (proof.response + 1) % L))


def test_a_rogue_key_made_against_a_weak_challenge_fails_ours() -> None:
    # Weak Fiat–Shamir (the challenge leaves out the key): pick R and s first, read the
    # challenge, then solve for a key nobody knows the logarithm of (e.g. one cancelling the
    # others' shares).  It "verifies" under the weak hash, and not under ours.
    r_point, s = base_mul(777), 4242
    weak_c = hash_to_scalar(KEY_PROOF_DOMAIN, CONTEXT, r_point)
    rogue = mul(pow(weak_c, -1, L), sub(base_mul(s), r_point))  # s·G = R + c·K
    assert add(base_mul(s), mul(neg(weak_c), rogue)) == r_point  # the weak check passes
    assert not verify_key(CONTEXT, rogue, Proof(weak_c, s))


# ---------------------------------------------------------------- decryption shares


def masked(count: int, joint: Point) -> list[tuple[Point, Point]]:
    d = derivation("mask")
    return [remask(card, d.scalar("r", i), joint)
            for i, card in enumerate(initial_deck(CARDS[:count], joint))]


def test_shares_with_their_proof_unmask_the_cards() -> None:
    xs, joint = keys(3)
    deck = masked(4, joint)
    positions = (0, 1, 2, 3)
    all_shares = []
    for x in xs:
        shares, proof = prove_shares(CONTEXT, x, base_mul(x), positions, deck, derivation())
        assert verify_shares(CONTEXT, base_mul(x), positions, deck, shares, proof)
        all_shares.append(shares)
    for j, card in enumerate(deck):
        assert unmask(card, [s[j] for s in all_shares]) == CARDS[j]


def test_a_wrong_share_fails_even_with_a_proof_made_for_it() -> None:
    x = derivation().scalar("x")
    public = base_mul(x)
    deck = masked(3, base_mul(99))
    positions = (4, 5, 6)
    shares, proof = prove_shares(CONTEXT, x, public, positions, deck, derivation())
    # a share swapped for another point, with the honest proof
    bad = (shares[0], add(shares[1], base_mul(1)), shares[2])
    assert not verify_shares(CONTEXT, public, positions, deck, bad, proof)
    # shares made with another secret, proved as well as that secret allows
    other, other_proof = prove_shares(CONTEXT, x + 1, public, positions, deck, derivation())
    assert not verify_shares(CONTEXT, public, positions, deck, other, other_proof)
    # the honest proof re-bound to other positions, context or cards
    assert not verify_shares(CONTEXT, public, (4, 5, 7), deck, shares, proof)
    assert not verify_shares(digest(b"x"), public, positions, deck, shares, proof)
    assert not verify_shares(CONTEXT, public, positions, deck[::-1], shares[::-1], proof)
    assert verify_shares(CONTEXT, public, positions, deck, shares, proof)


# ---------------------------------------------------------------- the shuffle


@pytest.fixture(scope="module")
def shuffled() -> tuple[Point, list[tuple[Point, Point]], tuple[tuple[Point, Point], ...],
                        ShuffleProof]:
    _, joint = keys(2)
    inputs = masked(8, joint)
    outputs, proof = prove_shuffle(CONTEXT, joint, inputs, derivation("shuffler"))
    return joint, inputs, outputs, proof


def test_an_honest_shuffle_verifies_and_permutes(shuffled: tuple) -> None:
    joint, inputs, outputs, proof = shuffled
    assert verify_shuffle(CONTEXT, joint, inputs, outputs, proof)
    assert set(outputs).isdisjoint(inputs)  # every card re-masked


def test_a_shuffle_is_a_permutation_of_the_cards() -> None:
    xs, joint = keys(2)
    inputs = masked(8, joint)
    outputs, _ = prove_shuffle(CONTEXT, joint, inputs, derivation("perm"))
    opened = [unmask(card, [mul(x, card[0]) for x in xs]) for card in outputs]
    assert sorted(opened) == sorted(CARDS[:8]) and opened != CARDS[:8]


def test_the_shuffle_is_deterministic_in_its_seed_and_input() -> None:
    _, joint = keys(2)
    inputs = masked(4, joint)
    first = prove_shuffle(CONTEXT, joint, inputs, derivation("same"))
    assert prove_shuffle(CONTEXT, joint, inputs, derivation("same")) == first
    assert prove_shuffle(CONTEXT, joint, inputs, derivation("other"))[0] != first[0]
    # another input (an equivocating predecessor) gets unrelated secrets, not the same
    # permutation and masks on other cards
    again = prove_shuffle(CONTEXT, joint, inputs[::-1], derivation("same"))
    differences = {sub(a[0], b[0]) for a, b in zip(first[0], again[0], strict=True)}
    assert len(differences) == 4


@pytest.mark.parametrize("part", ["context", "joint key", "inputs", "outputs",
                                  "commitments", "chain", "response"])
def test_a_statement_changed_after_the_challenge_fails(shuffled: tuple, part: str) -> None:
    joint, inputs, outputs, proof = shuffled
    context = CONTEXT
    if part == "context":
        context = digest(b"another deck")
    elif part == "joint key":
        joint = add(joint, base_mul(1))
    elif part == "inputs":
        inputs = [inputs[1], inputs[0], *inputs[2:]]
    elif part == "outputs":
        outputs = (outputs[1], outputs[0], *outputs[2:])
    elif part == "commitments":
        proof = dataclasses.replace(
            proof, commitments=(proof.commitments[1], proof.commitments[0],
                                *proof.commitments[2:]))
    elif part == "chain":
        proof = dataclasses.replace(proof, chain=(add(proof.chain[0], base_mul(1)),
                                                  *proof.chain[1:]))
    else:
        proof = dataclasses.replace(proof, s4=(proof.s4 + 1) % L)
    assert not verify_shuffle(context, joint, inputs, outputs, proof)


def cheating_proof(joint: Point, inputs: list[tuple[Point, Point]],
                   outputs: list[tuple[Point, Point]], psi: tuple[int, ...],
                   remasks: list[int]) -> ShuffleProof:
    return prove_shuffle_of(CONTEXT, joint, inputs, outputs, psi, remasks, derivation("cheat"))


@pytest.mark.parametrize("cheat", ["duplicate", "replace", "alter"])
def test_a_false_shuffle_fails_even_when_proved_by_the_prover_algorithm(cheat: str) -> None:
    _, joint = keys(2)
    inputs = masked(8, joint)
    psi = permutation(digest(b"psi"), 8)
    remasks = [derivation("r").scalar("r", i) for i in range(8)]
    outputs = [remask(inputs[psi[i]], remasks[i], joint) for i in range(8)]
    assert verify_shuffle(CONTEXT, joint, inputs, outputs,
                          cheating_proof(joint, inputs, outputs, psi, remasks))
    if cheat == "duplicate":  # card psi[1] twice, psi[0] gone
        outputs[0] = remask(inputs[psi[1]], remasks[0], joint)
    elif cheat == "replace":  # a card from outside the deck
        foreign = (base_mul(1), add(card_point("ace"), joint))
        outputs[0] = remask(foreign, remasks[0], joint)
    else:  # one card's plaintext changed in place
        outputs[0] = (outputs[0][0], add(outputs[0][1], base_mul(5)))
    assert not verify_shuffle(CONTEXT, joint, inputs, outputs,
                              cheating_proof(joint, inputs, outputs, psi, remasks))


def test_a_shuffle_of_another_length_fails(shuffled: tuple) -> None:
    joint, inputs, outputs, proof = shuffled
    assert not verify_shuffle(CONTEXT, joint, inputs, outputs[:-1], proof)
    assert not verify_shuffle(CONTEXT, joint, inputs[:-1], outputs[:-1], proof)
