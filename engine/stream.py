"""A deterministic random stream built on SHA-256, stable across Python versions.

Python's ``random`` changes its algorithms between releases (``shuffle``, ``randrange``), so
nothing in cryptcrawl that every peer must compute identically may use it.  This module is the
one mapping from bytes to choices: bots use it for their choices, the offline dealer for chance,
and the protocol for turning shared secrets into outcomes.

Sampler ``sha256-ctr/v1``:

* block ``i`` (``i = 0, 1, ...``) is ``SHA-256(key || i as 8-byte big-endian)``;
* the blocks are read as consecutive 8-byte big-endian words ``w``;
* to choose among ``n`` outcomes, let ``limit = 2**64 - (2**64 % n)``; the first word with
  ``w < limit`` gives ``w % n`` (rejection sampling, so every outcome has exactly probability
  ``1/n``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Final, TypeVar

SAMPLER_VERSION: Final = "sha256-ctr/v1"

_T = TypeVar("_T")
_TWO64: Final = 1 << 64
_ZERO8: Final = bytes(8)
_sha256 = hashlib.sha256
_LIMITS: Final[dict[int, int]] = {}  # n -> the rejection limit 2**64 - 2**64 % n


class HashStream:
    """An endless stream of uniform choices derived from ``key`` alone."""

    __slots__ = ("_block", "_counter", "_key", "_offset")

    def __init__(self, key: bytes) -> None:
        self._key = bytes(key)
        self._counter = 0
        self._block = b""
        self._offset = 0

    def _word(self) -> int:
        if self._offset >= len(self._block):
            self._block = hashlib.sha256(
                self._key + self._counter.to_bytes(8, "big")
            ).digest()
            self._counter += 1
            self._offset = 0
        word = int.from_bytes(self._block[self._offset : self._offset + 8], "big")
        self._offset += 8
        return word

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``."""
        if n <= 0:
            raise ValueError("cannot choose among zero outcomes")
        if n == 1:
            return 0
        limit = _TWO64 - (_TWO64 % n)
        while True:
            word = self._word()
            if word < limit:
                return word % n

    def choice(self, items: Sequence[_T]) -> _T:
        """A uniform element of ``items``."""
        return items[self.below(len(items))]


def sample_index(key: bytes, n: int) -> int:
    """The first choice of ``HashStream(key)`` among ``n`` outcomes (a fast path: the first
    word is accepted with probability > 1 - 2**-56 for any n < 256)."""
    if n <= 0:
        raise ValueError("cannot choose among zero outcomes")
    limit = _LIMITS.get(n)
    if limit is None:
        limit = _TWO64 - (_TWO64 % n)
        if n < 4096:  # the outcome counts of card games: a small, bounded cache
            _LIMITS[n] = limit
    word = int.from_bytes(_sha256(key + _ZERO8).digest()[:8], "big")
    if word < limit:
        return word % n
    return HashStream(key).below(n)


def derive_key(*parts: bytes | str) -> bytes:
    """A domain-separated key: SHA-256 over length-prefixed parts."""
    h = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        h.update(len(data).to_bytes(4, "big"))
        h.update(data)
    return h.digest()


def stream_key(*parts: bytes | str) -> bytes:
    """Domain-separated, length-prefixed concatenation of ``parts``: a stream key that needs no
    extra hashing, because :class:`HashStream` hashes it with every block."""
    out = bytearray()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        out += len(data).to_bytes(4, "big")
        out += data
    return bytes(out)
