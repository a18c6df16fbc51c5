"""Torch deliveries: sealed to the torch key, bound to match, seats and events, signed inside,
checked against commitments — and checkable by anyone once the key is published."""

from __future__ import annotations

import hashlib

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.crypto import chance_commitment, public_key_bytes
from protocol.errors import BadMessage, LocalProtocolError
from protocol.wire.delivery import check_secrets, open_delivery, round_key, seal_delivery
from tests.tiers import examples

MATCH = hashlib.sha256(b"delivery match").digest()
EVENTS = ("L2.R3", "L2.R5")
DELIVERER = Ed25519PrivateKey.from_private_bytes(b"\x07" * 32)
DELIVERER_KEY = public_key_bytes(DELIVERER)
SECRETS = tuple((e, hashlib.sha256(e.encode()).digest()) for e in EVENTS)
COMMITMENTS = {e: chance_commitment(MATCH, e, DELIVERER_KEY, s) for e, s in SECRETS}
PRIVATE, PUBLIC = round_key(b"\x42" * 32)


def sealed(**changes: object) -> bytes:
    args: dict[str, object] = dict(match_id=MATCH, receiver=1, deliverer=2, secrets=SECRETS)
    args.update(changes)
    return seal_delivery(DELIVERER, PUBLIC, **args)  # type: ignore[arg-type]


def opened(box: bytes, **changes: object) -> tuple[tuple[str, bytes], ...]:
    args: dict[str, object] = dict(match_id=MATCH, receiver=1, deliverer=2,
                                   deliverer_key=DELIVERER_KEY, events=EVENTS)
    args.update(changes)
    return open_delivery(PRIVATE, box, **args)  # type: ignore[arg-type]


def test_round_trip_and_commitments() -> None:
    secrets = opened(sealed())
    assert secrets == SECRETS
    check_secrets(secrets, match_id=MATCH, deliverer_key=DELIVERER_KEY, commitments=COMMITMENTS)


def test_published_key_lets_anyone_check_later() -> None:
    box = sealed()
    # The torch user publishes PRIVATE at the end of the row; a verifier opens with it.
    assert open_delivery(PRIVATE, box, match_id=MATCH, receiver=1, deliverer=2,
                         deliverer_key=DELIVERER_KEY, events=EVENTS) == SECRETS


@pytest.mark.parametrize("changes", [
    {"match_id": hashlib.sha256(b"other").digest()},
    {"receiver": 0},
    {"deliverer": 3},
    {"events": ("L2.R3",)},
    {"events": ("L2.R5", "L2.R3")},
])
def test_binding_to_match_seats_and_events(changes: dict[str, object]) -> None:
    with pytest.raises(BadMessage, match="does not open"):
        opened(sealed(), **changes)


def test_other_key_cannot_open() -> None:
    other_private, _ = round_key(b"\x43" * 32)
    with pytest.raises(BadMessage):
        open_delivery(other_private, sealed(), match_id=MATCH, receiver=1, deliverer=2,
                      deliverer_key=DELIVERER_KEY, events=EVENTS)


def test_every_flipped_byte_is_refused() -> None:
    box = sealed()
    for i in range(len(box)):
        tampered = bytearray(box)
        tampered[i] ^= 0x01
        with pytest.raises(BadMessage):
            opened(bytes(tampered))


def test_inner_signature_names_the_signer() -> None:
    impostor = Ed25519PrivateKey.from_private_bytes(b"\x09" * 32)
    box = seal_delivery(impostor, PUBLIC, match_id=MATCH, receiver=1, deliverer=2,
                        secrets=SECRETS)
    with pytest.raises(BadMessage):
        opened(box)  # seat 2's key does not verify the impostor's signature


def test_lying_delivery_is_caught_and_proved() -> None:
    lie = ((EVENTS[0], b"\x00" * 32), SECRETS[1])
    box = sealed(secrets=lie)
    secrets = opened(box)  # validly signed by the deliverer: this is the proof
    with pytest.raises(BadMessage, match="lying delivery"):
        check_secrets(secrets, match_id=MATCH, deliverer_key=DELIVERER_KEY,
                      commitments=COMMITMENTS)


def test_bad_inputs_from_the_caller() -> None:
    with pytest.raises(LocalProtocolError):
        round_key(b"short")
    with pytest.raises(LocalProtocolError):
        sealed(secrets=())
    with pytest.raises(LocalProtocolError):
        seal_delivery(DELIVERER, b"\x00" * 31, match_id=MATCH, receiver=1, deliverer=2,
                      secrets=SECRETS)


@settings(max_examples=examples(500), deadline=None)
@given(st.binary(max_size=200))
def test_fuzz_open_raises_only_bad_message(data: bytes) -> None:
    with pytest.raises(BadMessage):
        opened(data)
