"""Bad point and scalar encodings for the deck's tests, each with what is wrong with it."""

from __future__ import annotations

import hashlib

from nacl.bindings import crypto_core_ed25519_add

from protocol.deck.group import IDENTITY_BYTES, L, hash_to_point

P = 2**255 - 19
D = (-121665 * pow(121666, P - 2, P)) % P

ORDER_8 = bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")


def y_bytes(y: int, sign: int = 0) -> bytes:
    return (y | (sign << 255)).to_bytes(32, "little")


def on_curve_y(y: int) -> bool:
    """Whether some x makes (x, y) a point of edwards25519 (x² = (y² - 1) / (d·y² + 1))."""
    u = (y * y - 1) % P
    v = (D * y * y + 1) % P
    x2 = u * pow(v, P - 2, P) % P
    return x2 == 0 or pow(x2, (P - 1) // 2, P) == 1


def off_curve() -> bytes:
    y = 2
    while on_curve_y(y):
        y += 1
    return y_bytes(y)


def a_point(label: str = "a") -> bytes:
    return hash_to_point("cryptcrawl/deck-test/v1", label)


def mixed_order() -> bytes:
    """A point of the main subgroup plus one of order 8: on the curve, not in the group."""
    return bytes(crypto_core_ed25519_add(a_point(), ORDER_8))


BAD_POINTS: dict[str, bytes] = {
    "identity": IDENTITY_BYTES,
    "identity, non-canonical sign": y_bytes(1, 1),
    "order 2": y_bytes(P - 1),
    "order 4": y_bytes(0),
    "order 8": ORDER_8,
    "mixed order (torsion component)": mixed_order(),
    "off the curve": off_curve(),
    "non-canonical y >= p": y_bytes(P + 2),
    "all ones": b"\xff" * 32,
    "31 bytes": a_point()[:31],
    "33 bytes": a_point() + b"\x00",
}

BAD_SCALARS: dict[str, bytes] = {
    "L": L.to_bytes(32, "little"),
    "L + 5": (L + 5).to_bytes(32, "little"),
    "2**255 + 5": (2**255 + 5).to_bytes(32, "little"),
    "all ones": b"\xff" * 32,
    "31 bytes": bytes(31),
}


def digest(*parts: bytes) -> bytes:
    return hashlib.sha256(b"".join(parts)).digest()
