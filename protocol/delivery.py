"""Deliveries of a private-knowledge round (F4): secrets sealed to one seat, checkable by anyone
later.

When the game owes a seat private knowledge of hidden events, that seat's signed key message
names a fresh X25519 public key.  Every other contributor answers with its secrets for those
events, **signed inside** (so the receiver can prove what it was sent) and **HPKE-encrypted** to
that key (RFC 9180 single-shot base mode, X25519 / HKDF-SHA256 / ChaCha20-Poly1305), with the
match id, both seats and the event ids bound in HPKE's ``info``.  The receiver checks each secret
against the deliverer's chance commitment; once the events are turned — or at once, to prove a
bad delivery — it publishes the private key, so anyone holding the match file can open every
delivery and check it.

This module is the cryptography only (pure functions; the key's randomness is passed in).  The
match core's use of it is :mod:`protocol.mechanisms.knowledge`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hpke
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from protocol.crypto import H, chance_commitment, sign, verify
from protocol.errors import BadMessage, LocalProtocolError
from protocol.wire.encoding import decode, encode

SUITE_NAME: Final = "hpke-x25519-hkdfsha256-chacha20poly1305/v1"
INFO_DOMAIN: Final = "cryptcrawl/delivery-info/v1"
SIGNATURE_DOMAIN: Final = "cryptcrawl/delivery/v1"
_SUITE: Final = hpke.Suite(hpke.KEM.X25519, hpke.KDF.HKDF_SHA256, hpke.AEAD.CHACHA20_POLY1305)
MAX_EVENTS: Final = 16

Secrets = tuple[tuple[str, bytes], ...]


def round_key(randomness: bytes) -> tuple[bytes, bytes]:
    """A fresh X25519 key pair ``(private, public)``, 32 bytes each, from 32 random bytes the
    caller draws from the operating system (the protocol itself never draws randomness)."""
    if not isinstance(randomness, bytes) or len(randomness) != 32:
        raise LocalProtocolError("a round key needs exactly 32 random bytes")
    private = X25519PrivateKey.from_private_bytes(randomness)
    public = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    return randomness, public


def delivery_info(match_id: bytes, receiver: int, deliverer: int,
                  events: Sequence[str]) -> bytes:
    """What a delivery is bound to: HPKE ``info`` and part of the inner signature."""
    return H(INFO_DOMAIN, match_id, receiver, deliverer, len(events), *events)


def seal_delivery(deliverer_key: Ed25519PrivateKey, receiver_public: bytes, *, match_id: bytes,
                  receiver: int, deliverer: int, secrets: Secrets) -> bytes:
    """The deliverer's secrets for ``events``, signed inside and sealed to the round's key."""
    if not secrets or len(secrets) > MAX_EVENTS:
        raise LocalProtocolError(f"a delivery holds 1 to {MAX_EVENTS} secrets")
    events = [event for event, _ in secrets]
    info = delivery_info(match_id, receiver, deliverer, events)
    payload = encode(tuple((event, secret) for event, secret in secrets))
    signature = sign(deliverer_key, SIGNATURE_DOMAIN, info + payload)
    try:
        recipient = X25519PublicKey.from_public_bytes(receiver_public)
    except ValueError:
        raise LocalProtocolError("the round key is not an X25519 public key") from None
    return _SUITE.encrypt(encode((payload, signature)), recipient, info=info)


def open_delivery(receiver_private: bytes, sealed: bytes, *, match_id: bytes, receiver: int,
                  deliverer: int, deliverer_key: bytes, events: Sequence[str]) -> Secrets:
    """Open a delivery with the round's private key (the receiver's, or the published one) and check
    its inner signature and events.  BadMessage for anything else — the deliverer is at fault
    when the signature is valid but the content is wrong, which :func:`check_secrets` decides."""
    info = delivery_info(match_id, receiver, deliverer, list(events))
    try:
        key = X25519PrivateKey.from_private_bytes(receiver_private)
        plaintext = _SUITE.decrypt(sealed, key, info=info)
    except (InvalidTag, ValueError, TypeError):
        raise BadMessage(f"the delivery from seat {deliverer} does not open with the round key "
                         "for these events") from None
    value = decode(plaintext)
    if not isinstance(value, tuple) or len(value) != 2 or not all(
            isinstance(v, bytes) for v in value):
        raise BadMessage(f"the delivery from seat {deliverer} is malformed")
    payload, signature = value
    verify(deliverer_key, SIGNATURE_DOMAIN, info + payload, signature)
    entries = decode(payload)
    if not isinstance(entries, tuple) or [e[0] if isinstance(e, tuple) and e else None
                                          for e in entries] != list(events):
        raise BadMessage(f"the delivery from seat {deliverer} is not for {list(events)}")
    out: list[tuple[str, bytes]] = []
    for entry in entries:
        if len(entry) != 2 or not isinstance(entry[1], bytes) or len(entry[1]) != 32:
            raise BadMessage(f"the delivery from seat {deliverer} holds a malformed secret")
        out.append((entry[0], entry[1]))
    return tuple(out)


def check_secrets(secrets: Secrets, *, match_id: bytes, deliverer_key: bytes,
                  commitments: dict[str, bytes]) -> None:
    """Each delivered secret must open the deliverer's chance commitment; else the delivery
    lies (BadMessage naming the event) — and, being signed inside, proves it."""
    for event, secret in secrets:
        if chance_commitment(match_id, event, deliverer_key, secret) != commitments.get(event):
            raise BadMessage(f"the secret delivered for {event} does not open the deliverer's "
                             "commitment (a lying delivery)")
