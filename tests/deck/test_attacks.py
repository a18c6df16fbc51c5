"""Cheating seats, each caught live by every honest peer with the culprit named, and the
verifier agreeing: bad shuffles, shares, keys, re-bound and replayed proofs, bad encodings,
false opens, and a withheld share (owed but missing)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest
from protocol.wire.encoding import Value, decode, encode

from benchmarks.deck_scenario import VERIFIER, DeckTable, cards_named
from protocol.deck import (
    DeckBody,
    FaultCode,
    KeyBody,
    KeyCommitBody,
    OpenBody,
    Owed,
    SharesBody,
    ShuffleBody,
    decode_body,
    encode_body,
)
from protocol.deck.derive import Derivation, permutation
from protocol.deck.elgamal import (
    KEY_PROOF_DOMAIN,
    Proof,
    card_point,
    key_commitment,
    prove_shares,
    remask,
)
from protocol.deck.group import L, add, base_mul, encode_scalar, hash_to_scalar, sub
from protocol.deck.shuffle import prove_shuffle_of
from protocol.deck.state import proof_context
from tests.deck.points import BAD_POINTS

CARDS = cards_named("card", 8)
Tamper = Callable[[int, str, DeckBody], DeckBody | bytes | None]


def table_with(tamper: Tamper | None = None, seats: int = 3, tag: bytes = b"attack"
               ) -> DeckTable:
    return DeckTable(seats, {"a": CARDS}, tag=tag, tamper=tamper)


def assert_caught(table: DeckTable, culprit: int, code: FaultCode) -> None:
    """Every honest peer and the verifier refused the culprit's body, for this reason."""
    for who in [*table.peers, VERIFIER]:
        if who == culprit:
            continue
        faults = table.faults(who)
        assert faults, f"peer {who} caught nothing"
        assert {f.seat for f in faults} == {culprit}
        assert faults[0].code is code, faults[0]
        assert f"seat {culprit}:" in faults[0].reason and "\n" not in faults[0].reason


def only(seat: int, kind: type, change: Callable[[DeckBody], DeckBody | bytes]) -> Tamper:
    def tamper(who: int, name: str, body: DeckBody) -> DeckBody | bytes | None:
        return change(body) if who == seat and isinstance(body, kind) else None
    return tamper


# ---------------------------------------------------------------- shuffles


def cheating_shuffle(table: DeckTable, seat: int, cheat: str) -> Callable[[DeckBody], DeckBody]:
    """Seat's shuffle made false, then proved by the prover's own algorithm."""
    def change(body: DeckBody) -> DeckBody:
        assert isinstance(body, ShuffleBody)
        deck = table.verifier["a"]  # (its input: what every peer holds now)
        joint = deck.joint_key
        assert joint is not None
        inputs = list(deck.deck)
        if cheat == "drop":  # a true shuffle of all cards but the last
            inputs = inputs[:-1]
        n = len(inputs)
        own = Derivation.from_seed(table.seed(seat), table.match_id)
        psi = permutation(own.key("psi"), n)
        remasks = [own.scalar("r", i) for i in range(n)]
        outputs = [remask(inputs[psi[i]], remasks[i], joint) for i in range(n)]
        if cheat == "duplicate":
            outputs[0] = remask(inputs[psi[1]], remasks[0], joint)
        elif cheat == "replace":
            outputs[0] = remask((base_mul(1), add(card_point("joker"), joint)), remasks[0], joint)
        context = proof_context(deck.spec, "shuffle", seat, body.step)
        proof = prove_shuffle_of(context, joint, inputs, outputs, psi, remasks, own)
        return ShuffleBody(body.deck_id, body.step, tuple(outputs), proof)
    return change


@pytest.mark.parametrize("cheat", ["duplicate", "replace", "drop"])
def test_a_shuffle_that_drops_duplicates_or_replaces_a_card(cheat: str) -> None:
    table = table_with()
    table.tamper = only(1, ShuffleBody, cheating_shuffle(table, 1, cheat))
    table.setup()
    assert_caught(table, 1, FaultCode.BAD_SHUFFLE)
    assert table.verifier["a"].owed() == (Owed(1, "deck-shuffle", 1),)  # still owed


def test_the_honest_version_of_the_cheating_prover_passes() -> None:
    # (so the tests above fail for the cheat, not for the harness)
    table = table_with()
    table.tamper = only(1, ShuffleBody, cheating_shuffle(table, 1, "none"))
    table.setup()
    assert not table.faults() and table.ready()


def test_a_shuffle_whose_deck_changed_after_its_challenge() -> None:
    def swap(body: DeckBody) -> DeckBody:
        assert isinstance(body, ShuffleBody)
        return dataclasses.replace(body, deck=(body.deck[1], body.deck[0], *body.deck[2:]))
    table = table_with(only(2, ShuffleBody, swap))
    table.setup()
    assert_caught(table, 2, FaultCode.BAD_SHUFFLE)


# ---------------------------------------------------------------- keys


def test_a_rogue_key_without_a_proof_of_knowledge() -> None:
    # Seat 2 wants K = t·G - (K_0 + K_1): a joint key t·G it alone could open.  Even told the
    # others' keys in advance, it does not know log K, so it can only forge a proof.
    table = table_with()
    others = [table.peers[s]["a"] for s in (0, 1)]
    spec = others[0].spec
    sum_others = add(*(base_mul(Derivation.from_seed(table.seed(s), table.match_id)
                                .child("deck", spec.deck_id, s).scalar("key-share"))
                       for s in (0, 1)))
    rogue = sub(base_mul(777), sum_others)
    context = proof_context(spec, "key", 2, 0)

    def change(body: DeckBody) -> DeckBody:
        if isinstance(body, KeyCommitBody):
            return KeyCommitBody(body.deck_id, key_commitment(context, rogue))
        assert isinstance(body, KeyBody)
        # weak-Fiat–Shamir style forgery: a challenge that leaves the key out
        r_point = base_mul(4242)
        c = hash_to_scalar(KEY_PROOF_DOMAIN, context, r_point)
        return KeyBody(body.deck_id, rogue, Proof(c, 99))

    table.tamper = lambda who, name, body: change(body) if who == 2 else None
    table.send_owed("commit")
    table.send_owed("keys")
    assert_caught(table, 2, FaultCode.BAD_KEY_PROOF)
    assert table.verifier["a"].joint_key is None


def test_a_key_that_does_not_open_its_commitment() -> None:
    def other_key(body: DeckBody) -> DeckBody:
        assert isinstance(body, KeyBody)
        return dataclasses.replace(body, key=base_mul(31337))
    table = table_with(only(0, KeyBody, other_key))
    table.send_owed("commit")
    table.send_owed("keys")
    assert_caught(table, 0, FaultCode.KEY_NOT_COMMITTED)


def test_another_seats_key_and_proof_copied() -> None:
    # seat 1 commits to seat 0's key (as if it had seen it early), then shows it with seat
    # 0's own proof: the proof is bound to seat 0
    table = table_with()
    spec = table.verifier["a"].spec
    seat0_key = base_mul(Derivation.from_seed(table.seed(0), table.match_id)
                         .child("deck", spec.deck_id, 0).scalar("key-share"))
    copied: dict[str, KeyBody] = {}

    def tamper(who: int, name: str, body: DeckBody) -> DeckBody | None:
        if who == 0 and isinstance(body, KeyBody):
            copied["key"] = body
        elif who == 1 and isinstance(body, KeyCommitBody):
            return KeyCommitBody(body.deck_id,
                                 key_commitment(proof_context(spec, "key", 1, 0), seat0_key))
        elif who == 1 and isinstance(body, KeyBody):
            return copied["key"]
        return None
    table.tamper = tamper
    table.send_owed("commit")
    table.send_owed("keys")
    assert_caught(table, 1, FaultCode.BAD_KEY_PROOF)


# ---------------------------------------------------------------- shares and opens


def dealt(tamper: Tamper | None = None, tag: bytes = b"dealt") -> DeckTable:
    table = table_with(tag=tag)
    table.setup()
    table.deal("a", [0, 1, 2, 0, 1, 2])
    table.tamper = tamper
    return table


def test_a_wrong_decryption_share() -> None:
    def wrong(body: DeckBody) -> DeckBody:
        assert isinstance(body, SharesBody)
        shares = (add(body.shares[0], base_mul(1)), *body.shares[1:])
        return dataclasses.replace(body, shares=shares)
    table = dealt(only(1, SharesBody, wrong))
    table.shares()
    assert_caught(table, 1, FaultCode.BAD_SHARES)
    # nobody who needed seat 1's shares learnt a card
    assert table.peers[0]["a"].learnt() == {} and table.peers[2]["a"].learnt() == {}
    assert Owed(1, "deck-shares", 0, (0, 2, 3, 5)) in table.verifier["a"].owed()


def test_shares_made_with_another_secret_and_proved() -> None:
    table = dealt()

    def other_secret(body: DeckBody) -> DeckBody:
        assert isinstance(body, SharesBody)
        deck = table.verifier["a"]
        spec = deck.spec
        public = base_mul(Derivation.from_seed(table.seed(1), table.match_id)
                          .child("deck", spec.deck_id, 1).scalar("key-share"))
        shares, proof = prove_shares(proof_context(spec, "shares", 1, 0), 12345, public,
                                     body.positions, [deck.deck[p] for p in body.positions],
                                     Derivation.from_seed(table.seed(1), table.match_id))
        return SharesBody(body.deck_id, 0, body.positions, shares, proof)
    table.tamper = only(1, SharesBody, other_secret)
    table.shares()
    assert_caught(table, 1, FaultCode.BAD_SHARES)


def test_a_seat_that_withholds_its_share_is_owed_but_missing() -> None:
    table = dealt()
    table.shares(withhold=frozenset({2}))
    assert not table.faults()
    expected = (Owed(2, "deck-shares", 0, (0, 1, 3, 4)),)
    for deck in [*(d["a"] for d in table.peers.values()), table.verifier["a"]]:
        assert deck.owed() == expected
    assert table.peers[0]["a"].learnt() == {} and table.peers[1]["a"].learnt() == {}
    assert sorted(table.peers[2]["a"].learnt()) == [2, 5]  # it has everyone else's


def test_an_owner_that_opens_a_card_it_was_not_dealt() -> None:
    table = dealt()
    table.shares()
    deck0 = table.peers[0]["a"]
    spec = deck0.spec
    x0 = Derivation.from_seed(table.seed(0), table.match_id).child("deck", spec.deck_id, 0)
    secret = x0.scalar("key-share")
    # position 1 was dealt to seat 1: seat 0 "opens" it with its own key
    shares, proof = prove_shares(proof_context(spec, "open", 0, 1), secret, base_mul(secret),
                                 (1,), [deck0.deck[1]], x0)
    body = OpenBody(spec.deck_id, (1,), (0,), shares, proof)
    table.deliver(0, "a", encode(encode_body(body)), "open")
    assert_caught(table, 0, FaultCode.NOT_DEALT)


def test_an_owner_that_claims_another_card_than_it_holds() -> None:
    table = dealt()
    table.shares()
    honest = table.peers[0]["a"].open_body([0])
    lie = (honest.cards[0] + 1) % len(CARDS)
    table.deliver(0, "a", encode(encode_body(dataclasses.replace(honest, cards=(lie,)))), "o")
    assert_caught(table, 0, FaultCode.WRONG_CARD)
    assert table.verifier["a"].shown() == {}
    # and a forged share for its own position fails its proof
    forged = dataclasses.replace(honest, shares=(add(honest.shares[0], base_mul(1)),))
    table.deliver(0, "a", encode(encode_body(forged)), "o")
    assert table.faults(VERIFIER)[-1].code is FaultCode.BAD_SHARES


# ---------------------------------------------------------------- replays


def test_a_shuffle_replayed_from_another_match() -> None:
    other = table_with(tag=b"another match")
    other.setup()
    from_other = next(s for s in other.log if s.seat == 1 and _kind(s.data) == "deck-shuffle")
    table = table_with()

    def replayed(body: DeckBody) -> DeckBody:
        old = decode_body(decode(from_other.data))
        assert isinstance(old, ShuffleBody)
        return dataclasses.replace(old, deck_id=body.deck_id)
    table.tamper = only(1, ShuffleBody, replayed)
    table.setup()
    assert_caught(table, 1, FaultCode.BAD_SHUFFLE)


def test_shares_replayed_from_another_deck_of_the_same_match() -> None:
    table = DeckTable(3, {"a": CARDS, "b": CARDS}, tag=b"two decks")
    table.setup()
    for name in ("a", "b"):
        table.deal(name, [0, 1, 2])
    kept: dict[str, SharesBody] = {}

    def tamper(who: int, name: str, body: DeckBody) -> DeckBody | None:
        if who != 1 or not isinstance(body, SharesBody):
            return None
        if name == "a":
            kept["a"] = body
            return None
        return dataclasses.replace(kept["a"], deck_id=body.deck_id)
    table.tamper = tamper
    table.shares()
    for who in (0, 2, VERIFIER):
        faults = table.faults(who)
        assert [(f.seat, f.code) for f in faults] == [(1, FaultCode.BAD_SHARES)]


def test_a_key_proof_replayed_from_another_deck() -> None:
    table = DeckTable(3, {"a": CARDS, "b": CARDS}, tag=b"key replay")
    kept: dict[str, KeyBody] = {}
    spec_b = table.verifier["b"].spec

    def tamper(who: int, name: str, body: DeckBody) -> DeckBody | None:
        if who != 2:
            return None
        if name == "a" and isinstance(body, KeyBody):
            kept["a"] = body
        if name == "b" and isinstance(body, KeyCommitBody):  # commit to deck a's key in b
            x = Derivation.from_seed(table.seed(2), table.match_id).child(
                "deck", table.verifier["a"].spec.deck_id, 2).scalar("key-share")
            return KeyCommitBody(body.deck_id, key_commitment(
                proof_context(spec_b, "key", 2, 0), base_mul(x)))
        if name == "b" and isinstance(body, KeyBody):
            return dataclasses.replace(kept["a"], deck_id=body.deck_id)
        return None
    table.tamper = tamper
    table.send_owed("commit")
    table.send_owed("keys")
    assert table.verifier["a"].joint_key is not None  # deck a is fine
    for who in (0, 1, VERIFIER):
        assert [(f.seat, f.code) for f in table.faults(who)] == [(2, FaultCode.BAD_KEY_PROOF)]


def _kind(data: bytes) -> str:
    kind = decode(data)[0]
    assert isinstance(kind, str)
    return kind


# ---------------------------------------------------------------- encodings


def with_point(value: tuple[Value, ...], path: tuple[int, ...], point: bytes
               ) -> tuple[Value, ...]:
    if len(path) == 1:
        return (*value[: path[0]], point, *value[path[0] + 1:])
    inner = value[path[0]]
    assert isinstance(inner, tuple)
    return (*value[: path[0]], with_point(inner, path[1:], point), *value[path[0] + 1:])


SLOTS = {  # a body kind, and where in its wire array a point (or scalar) sits
    "key share": (KeyBody, (2,)),
    "shuffled card": (ShuffleBody, (3, 5)),
    "permutation commitment": (ShuffleBody, (4, 0)),
    "chain point": (ShuffleBody, (5, 7)),
    "decryption share": (SharesBody, (4, 1)),
}


@pytest.mark.parametrize("bad", sorted(n for n in BAD_POINTS if "bytes" not in n))
@pytest.mark.parametrize("slot", sorted(SLOTS))
def test_bad_point_encodings_are_misbehaviour(slot: str, bad: str) -> None:
    kind, path = SLOTS[slot]

    def change(body: DeckBody) -> bytes:
        return encode(with_point(encode_body(body), path, BAD_POINTS[bad]))
    table = table_with(only(1, kind, change), tag=b"encodings")
    table.setup()
    if kind is SharesBody:
        table.deal("a", [0, 1, 2])
        table.shares()
    assert_caught(table, 1, FaultCode.MALFORMED)


@pytest.mark.parametrize("scalar", ["L + response", "2**255 + response"])
def test_non_canonical_scalars_are_misbehaviour(scalar: str) -> None:
    def change(body: DeckBody) -> bytes:
        wire = encode_body(body)
        response = int.from_bytes(wire[4], "little")  # type: ignore[arg-type]
        bad = response + (L if scalar.startswith("L") else 2**255)
        if bad >= 2**256:
            bad = response + L
        return encode((*wire[:4], bad.to_bytes(32, "little")))
    table = table_with(only(0, KeyBody, change), tag=b"scalars")
    table.send_owed("commit")
    table.send_owed("keys")
    assert_caught(table, 0, FaultCode.MALFORMED)
    assert encode_scalar(L) == bytes(32)
