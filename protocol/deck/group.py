"""The prime-order group behind Ed25519, through libsodium's point functions (pynacl).

Points are 32-byte canonical Ed25519 encodings of elements of the prime-order subgroup (order
:data:`L`), never the identity; scalars are Python ints in ``1 … L - 1`` (0 where a proof's
response may be 0), written as 32 bytes little-endian below ``L``.  Every point and scalar that
comes from outside passes :func:`decode_point` / :func:`decode_scalar`, which refuse, with one
:class:`GroupError` each:

* a scalar ``>= L`` (libsodium reduces it silently, so two encodings would mean one scalar);
* a point off the curve, non-canonical (``y >= p``), of small order, the identity, or with a
  torsion component (libsodium's ``is_valid_point`` checks all of these).

libsodium's pitfalls, wrapped here (docs/deck.md §2 and tests/deck/test_group.py):

* ``crypto_scalarmult_ed25519_noclamp`` raises a generic ``RuntimeError`` ("Unexpected library
  error") for a torsion or identity input, a zero scalar, and an identity result: :func:`mul`
  turns it into GroupError;
* it also clears bit 255 of the scalar, and reduces scalars ``>= L`` silently: :func:`mul` takes
  an int and writes it reduced, so no other value ever reaches it;
* ``crypto_core_ed25519_add`` checks nothing (it adds a torsion point as readily as any):
  :func:`add` is only ever given points that passed :func:`decode_point` or came out of this
  module.

Generators other than the base point come from ``crypto_core_ed25519_from_uniform(H(domain,
i))``: nobody knows a discrete logarithm between them (never ``k·G``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Final, NewType

from nacl import exceptions as nacl_exceptions
from nacl.bindings import (
    crypto_core_ed25519_add,
    crypto_core_ed25519_from_uniform,
    crypto_core_ed25519_is_valid_point,
    crypto_core_ed25519_sub,
    crypto_scalarmult_ed25519_base_noclamp,
    crypto_scalarmult_ed25519_noclamp,
)

from protocol.crypto import H
from protocol.errors import BadMessage

__all__ = [
    "BASE",
    "GENERATOR_DOMAIN",
    "IDENTITY_BYTES",
    "POINT_SIZE",
    "SCALAR_SIZE",
    "GroupError",
    "L",
    "Point",
    "add",
    "base_mul",
    "decode_point",
    "decode_scalar",
    "encode_scalar",
    "framed",
    "generators",
    "hash_to_point",
    "hash_to_scalar",
    "mul",
    "neg",
    "sub",
]

L: Final = 2**252 + 27742317777372353535851937790883648493
"""The order of the prime-order subgroup (and of the base point)."""
POINT_SIZE: Final = 32
SCALAR_SIZE: Final = 32
GENERATOR_DOMAIN: Final = "cryptcrawl/deck-generator/v1"

Point = NewType("Point", bytes)
"""A checked encoding of an element of the prime-order subgroup other than the identity."""

IDENTITY_BYTES: Final = (1).to_bytes(32, "little")
"""The identity's encoding (y = 1): refused wherever a point is read."""

BASE: Final = Point(crypto_scalarmult_ed25519_base_noclamp((1).to_bytes(32, "little")))
"""The Ed25519 base point ``G``: the ElGamal generator and the base of commitments' blinding."""


class GroupError(BadMessage):
    """A value that is not a valid point or scalar of the group, or an operation on one."""


def framed(*parts: bytes | str | int) -> bytes:
    """Each part prefixed by its 4-byte big-endian length (str as UTF-8, int as 8 bytes
    big-endian): the framing of every hash input of the deck (as protocol.crypto.H)."""
    out = bytearray()
    for part in parts:
        if isinstance(part, str):
            data = part.encode()
        elif isinstance(part, int):
            data = part.to_bytes(8, "big")
        else:
            data = part
        out += len(data).to_bytes(4, "big")
        out += data
    return bytes(out)


def decode_point(data: object, what: str = "point") -> Point:
    """``data`` as a point, or GroupError (not 32 bytes, off the curve, non-canonical, small
    order, the identity, outside the prime-order subgroup)."""
    if not isinstance(data, bytes):
        raise GroupError(f"{what} must be bytes, not {type(data).__name__}")
    if len(data) != POINT_SIZE:
        raise GroupError(f"{what} must be {POINT_SIZE} bytes, not {len(data)}")
    if not crypto_core_ed25519_is_valid_point(data):
        if data == IDENTITY_BYTES:
            raise GroupError(f"{what} is the identity point")
        raise GroupError(f"{what} is not a point of the prime-order group (off the curve, "
                         "non-canonical, or of small or mixed order)")
    return Point(data)


def decode_scalar(data: object, what: str = "scalar") -> int:
    """``data`` (32 bytes little-endian) as a scalar, or GroupError if it is ``>= L``."""
    if not isinstance(data, bytes):
        raise GroupError(f"{what} must be bytes, not {type(data).__name__}")
    if len(data) != SCALAR_SIZE:
        raise GroupError(f"{what} must be {SCALAR_SIZE} bytes, not {len(data)}")
    value = int.from_bytes(data, "little")
    if value >= L:
        raise GroupError(f"{what} is not reduced (it is not below the group order)")
    return value


def encode_scalar(value: int) -> bytes:
    """The 32-byte little-endian encoding of ``value mod L``."""
    return (value % L).to_bytes(SCALAR_SIZE, "little")


def mul(scalar: int, point: Point) -> Point:
    """``scalar · point``; GroupError if the result is the identity (a zero scalar) or the point
    is not in the group (libsodium's generic RuntimeError, named)."""
    try:
        return Point(crypto_scalarmult_ed25519_noclamp(encode_scalar(scalar), point))
    except nacl_exceptions.RuntimeError:
        raise GroupError("scalar multiplication refused: a zero scalar, an identity result, or "
                         "a point outside the prime-order group") from None
    except (TypeError, nacl_exceptions.TypeError):
        raise GroupError("scalar multiplication of a value that is not a 32-byte point") from None


def base_mul(scalar: int) -> Point:
    """``scalar · G``; GroupError for a scalar that is 0 mod L."""
    reduced = scalar % L
    if reduced == 0:
        raise GroupError("scalar multiplication of the base point by zero")
    return Point(crypto_scalarmult_ed25519_base_noclamp(reduced.to_bytes(SCALAR_SIZE, "little")))


def add(p: Point, q: Point) -> Point:
    """``p + q`` of two checked points (libsodium checks nothing here; the result may be the
    identity only if ``q = -p``, which a later :func:`mul` or comparison refuses)."""
    return Point(crypto_core_ed25519_add(p, q))


def sub(p: Point, q: Point) -> Point:
    """``p - q`` of two checked points."""
    return Point(crypto_core_ed25519_sub(p, q))


def neg(scalar: int) -> int:
    """``-scalar mod L``."""
    return (-scalar) % L


def hash_to_scalar(domain: str, *parts: bytes | str | int) -> int:
    """SHA-512 over the framed domain and parts, read little-endian, mod L (bias < 2**-250)."""
    digest = hashlib.sha512(framed(domain, *parts)).digest()
    return int.from_bytes(digest, "little") % L


def hash_to_point(domain: str, *parts: bytes | str | int) -> Point:
    """``crypto_core_ed25519_from_uniform(H(domain, *parts))``: a point of the prime-order
    group with no known discrete logarithm to any other."""
    point = crypto_core_ed25519_from_uniform(H(domain, *parts))
    return decode_point(point, "hashed point")


_GENERATORS: list[Point] = []


def generators(count: int) -> Sequence[Point]:
    """The independent generators ``h_0 … h_{count-1}``: ``h_i = hash_to_point(
    "cryptcrawl/deck-generator/v1", i)`` (the same for every match; computed once)."""
    while len(_GENERATORS) < count:
        _GENERATORS.append(hash_to_point(GENERATOR_DOMAIN, len(_GENERATORS)))
    return _GENERATORS[:count]
