"""Deterministic sealing of private-knowledge deliveries, for reproducible in-memory matches.

The one random input of the protocol code is HPKE's ephemeral key in a DELIVERY
(``cryptography``'s HPKE draws it from the operating system).  :func:`hpke_seal` is RFC 9180's
base mode, DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, ChaCha20-Poly1305 — the suite of
protocol/wire/delivery.py — done by hand with the ephemeral key given instead of drawn: the same
plaintext to the same key with the same ``info``.  A verifier cannot tell the difference: any
ephemeral key is a valid one.  :class:`SealingNetwork` is a :class:`~protocol.mesh.Network`
whose seats seal every DELIVERY so, under a key derived from the network's tag (the
conformance vectors, tests/vectors/making.py, and the tampering benchmark use it)."""

from __future__ import annotations

import dataclasses
import hashlib
import hmac

from cryptography.hazmat.primitives import hpke
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from protocol.mesh import Network
from protocol.wire.delivery import delivery_info
from protocol.wire.messages import DeliveryBody, Kind, Message

__all__ = ["SUITE", "SealingNetwork", "hpke_seal"]

_KEM_SUITE = b"KEM\x00\x20"
_HPKE_SUITE = b"HPKE\x00\x20\x00\x01\x00\x03"
SUITE = hpke.Suite(hpke.KEM.X25519, hpke.KDF.HKDF_SHA256, hpke.AEAD.CHACHA20_POLY1305)


def _extract(suite: bytes, salt: bytes, label: bytes, ikm: bytes) -> bytes:
    return hmac.digest(salt or bytes(32), b"HPKE-v1" + suite + label + ikm, "sha256")


def _expand(suite: bytes, prk: bytes, label: bytes, info: bytes, size: int) -> bytes:
    labeled = size.to_bytes(2, "big") + b"HPKE-v1" + suite + label + info
    out, block, counter = b"", b"", 1
    while len(out) < size:
        block = hmac.digest(prk, block + labeled + bytes([counter]), "sha256")
        out += block
        counter += 1
    return out[:size]


def hpke_seal(plaintext: bytes, recipient: bytes, info: bytes, ephemeral: bytes) -> bytes:
    """HPKE single-shot seal (``enc || ciphertext``, as cryptography's ``Suite.encrypt``)."""
    secret_key = X25519PrivateKey.from_private_bytes(ephemeral)
    enc = secret_key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    dh = secret_key.exchange(X25519PublicKey.from_public_bytes(recipient))
    shared = _expand(_KEM_SUITE, _extract(_KEM_SUITE, b"", b"eae_prk", dh), b"shared_secret",
                     enc + recipient, 32)
    context = (b"\x00" + _extract(_HPKE_SUITE, b"", b"psk_id_hash", b"")
               + _extract(_HPKE_SUITE, b"", b"info_hash", info))
    secret = _extract(_HPKE_SUITE, shared, b"secret", b"")
    key = _expand(_HPKE_SUITE, secret, b"key", context, 32)
    nonce = _expand(_HPKE_SUITE, secret, b"base_nonce", context, 12)
    return enc + ChaCha20Poly1305(key).encrypt(nonce, plaintext, b"")


class SealingNetwork(Network):
    """A :class:`Network` (any game) whose seats seal every DELIVERY under an ephemeral key
    derived from ``tag``: the same tag plays the same bytes on every run.  Seats rebuilt by the
    network (``rebuild``) are wrapped again."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        tag = kwargs.get("tag", args[2] if len(args) > 2 else b"")
        assert isinstance(tag, bytes)
        self.tag = tag
        for i in range(len(self.seats)):
            self.seal_deterministically(i)

    def deliver(self, i: int, message: Message) -> None:
        super().deliver(i, message)
        self.seal_deterministically(i)

    def run_clock(self, i: int) -> bool:
        moved = super().run_clock(i)
        self.seal_deterministically(i)
        return moved

    def seal_deterministically(self, i: int) -> None:
        """Wrap seat ``i``'s client (unless it is wrapped already) so that every DELIVERY it
        sends is sealed under an ephemeral key derived from the tag."""
        local = self.seats[i]
        if "messages_to_send" in vars(local):
            return
        original = local.messages_to_send

        def send() -> list[Message]:
            out = original()
            if not any(m.kind is Kind.DELIVERY for m in out):
                return out
            for _ in out:
                local.sent.pop()
            return [self.resealed(i, m) for m in out]
        local.messages_to_send = send  # type: ignore[method-assign]

    def resealed(self, i: int, message: Message) -> Message:
        """Seat ``i`` signs ``message`` again (next in its feed), a DELIVERY sealed again."""
        local = self.seats[i]
        body = message.content
        if not isinstance(body, DeliveryBody):
            return local.sign_next(message.kind, message.body)
        r = local.core.rounds[body.round]
        info = delivery_info(local.core.match_id, r.seat, i, r.deliverers[i])
        torch = X25519PrivateKey.from_private_bytes(self.seats[r.seat].round_private(r.id))
        plaintext = SUITE.decrypt(body.sealed, torch, info=info)
        return local.sign_next(Kind.DELIVERY, dataclasses.replace(
            body, sealed=self.seal(i, r.id, plaintext)))

    def seal(self, i: int, round_id: str, plaintext: bytes) -> bytes:
        """``plaintext`` sealed by seat ``i`` to the key of torch round ``round_id``."""
        r = self.seats[i].core.rounds[round_id]
        info = delivery_info(self.header.match_id, r.seat, i, r.deliverers[i])
        ephemeral = hashlib.sha256(self.tag + b"/hpke/%d/" % i + round_id.encode()).digest()
        return hpke_seal(plaintext, r.public_key, info, ephemeral)
