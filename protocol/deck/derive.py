"""Deterministic derivation of a seat's deck secrets from its per-match seed (HKDF-SHA512).

Nothing here draws randomness: the caller passes the 32-byte per-match seed that the peer
stored before play.  A restarted peer derives the same key shares, permutations, re-masking
scalars and nonces, and so re-sends the same bytes (docs/deck.md §4).

* ``prk = HMAC-SHA512(key = match_id, msg = seed)`` (HKDF-Extract, the match id as salt);
* a value for ``(label, parts…)`` is ``HMAC-SHA512(prk, framed(DERIVE_DOMAIN, label, parts…)
  || 0x01)`` (one HKDF-Expand block, 64 bytes): a scalar is it read little-endian mod L (the
  next counter ``0x02, 0x03 …`` if that is 0), a key its first 32 bytes.
"""

from __future__ import annotations

import hmac
from typing import Final

from engine.stream import HashStream
from protocol.deck.group import L, framed
from protocol.errors import LocalProtocolError

__all__ = ["DERIVE_DOMAIN", "Derivation", "permutation"]

DERIVE_DOMAIN: Final = "cryptcrawl/deck-derive/v1"


class Derivation:
    """HKDF-SHA512 from one pseudorandom key; every value labelled and framed."""

    __slots__ = ("_prk",)

    def __init__(self, prk: bytes) -> None:
        if not isinstance(prk, bytes) or len(prk) not in (32, 64):
            raise LocalProtocolError("a derivation key is 32 or 64 bytes")
        self._prk = prk

    @classmethod
    def from_seed(cls, seed: bytes, match_id: bytes) -> Derivation:
        """HKDF-Extract of the per-match seed, with the match id as salt."""
        for value, what in ((seed, "seed"), (match_id, "match id")):
            if not isinstance(value, bytes) or len(value) != 32:
                raise LocalProtocolError(f"the per-match {what} must be exactly 32 bytes")
        return cls(hmac.digest(match_id, seed, "sha512"))

    def __repr__(self) -> str:  # never show the key
        return "Derivation(…)"

    def _block(self, info: bytes, counter: int) -> bytes:
        return hmac.digest(self._prk, info + bytes((counter,)), "sha512")

    def key(self, label: str, *parts: bytes | str | int) -> bytes:
        """32 bytes for ``label`` and ``parts``."""
        return self._block(framed(DERIVE_DOMAIN, label, *parts), 1)[:32]

    def scalar(self, label: str, *parts: bytes | str | int) -> int:
        """A non-zero scalar for ``label`` and ``parts``."""
        info = framed(DERIVE_DOMAIN, label, *parts)
        for counter in range(1, 256):
            value = int.from_bytes(self._block(info, counter), "little") % L
            if value:
                return value
        raise LocalProtocolError("no non-zero scalar derived")  # pragma: no cover  (2**-64000)

    def child(self, label: str, *parts: bytes | str | int) -> Derivation:
        """A derivation keyed by the 64-byte block for ``label`` and ``parts``."""
        return Derivation(self._block(framed(DERIVE_DOMAIN, label, *parts), 1))


def permutation(key: bytes, n: int) -> tuple[int, ...]:
    """A uniform permutation of ``range(n)`` from ``key``: Fisher–Yates, ``i = n-1 … 1`` each
    swapping ``i`` with ``HashStream(key).below(i + 1)`` (the project's ``sha256-ctr/v1``
    sampler, engine/stream.py)."""
    stream = HashStream(key)
    order = list(range(n))
    for i in range(n - 1, 0, -1):
        j = stream.below(i + 1)
        order[i], order[j] = order[j], order[i]
    return tuple(order)
