"""The group layer: strict decoding, and each libsodium pitfall the deck is built around."""

from __future__ import annotations

import hashlib

import pytest
from nacl import exceptions as nacl_exceptions
from nacl.bindings import (
    crypto_core_ed25519_add,
    crypto_core_ed25519_from_uniform,
    crypto_core_ed25519_is_valid_point,
    crypto_scalarmult_ed25519_noclamp,
)

from protocol.deck.group import (
    BASE,
    GENERATOR_DOMAIN,
    IDENTITY_BYTES,
    GroupError,
    L,
    Point,
    add,
    base_mul,
    decode_point,
    decode_scalar,
    encode_scalar,
    framed,
    generators,
    hash_to_scalar,
    mul,
    sub,
)
from protocol.errors import BadMessage
from tests.deck.points import BAD_POINTS, BAD_SCALARS, ORDER_8, a_point, mixed_order


@pytest.mark.parametrize("name", sorted(BAD_POINTS))
def test_every_bad_point_encoding_is_refused_with_one_line(name: str) -> None:
    with pytest.raises(GroupError) as caught:
        decode_point(BAD_POINTS[name], "the key share")
    message = str(caught.value)
    assert "\n" not in message and message.startswith("the key share")
    assert isinstance(caught.value, BadMessage)


def test_the_identity_is_named() -> None:
    with pytest.raises(GroupError, match="identity"):
        decode_point(IDENTITY_BYTES)


@pytest.mark.parametrize("value", [None, "00" * 32, 5, [b"x"]])
def test_a_point_of_another_type_is_refused(value: object) -> None:
    with pytest.raises(GroupError, match="must be bytes"):
        decode_point(value)


def test_good_points_decode_to_themselves() -> None:
    for point in (BASE, a_point(), a_point("b"), *generators(4)):
        assert decode_point(point) == point


@pytest.mark.parametrize("name", sorted(BAD_SCALARS))
def test_every_bad_scalar_encoding_is_refused(name: str) -> None:
    with pytest.raises(GroupError):
        decode_scalar(BAD_SCALARS[name], "the response")


def test_scalars_round_trip_below_l() -> None:
    for value in (0, 1, 2, L - 1, hash_to_scalar("cryptcrawl/deck-test/v1", "x")):
        assert decode_scalar(encode_scalar(value)) == value


# ---------------------------------------------------------------- the pitfalls, one by one


def test_pitfall_scalar_mult_raises_a_generic_runtime_error_on_torsion_points() -> None:
    five = (5).to_bytes(32, "little")
    for bad in (ORDER_8, mixed_order(), IDENTITY_BYTES):
        with pytest.raises(nacl_exceptions.RuntimeError, match="Unexpected library error"):
            crypto_scalarmult_ed25519_noclamp(five, bad)
        # ours says what is wrong, as the protocol's own error type
        with pytest.raises(GroupError, match="outside the prime-order group"):
            mul(5, Point(bad))


def test_pitfall_scalar_mult_by_zero_or_to_the_identity_is_refused() -> None:
    with pytest.raises(GroupError):
        mul(0, a_point())
    with pytest.raises(GroupError):
        mul(L, a_point())
    with pytest.raises(GroupError):
        base_mul(0)
    with pytest.raises(GroupError):
        base_mul(2 * L)


def test_pitfall_add_checks_nothing() -> None:
    # libsodium adds a torsion point without complaint, and the sum leaves the group ...
    total = crypto_core_ed25519_add(a_point(), ORDER_8)
    assert not crypto_core_ed25519_is_valid_point(total)
    # ... so no point reaches add() without decode_point, which refuses both.
    with pytest.raises(GroupError):
        decode_point(ORDER_8)
    with pytest.raises(GroupError):
        decode_point(total)
    # and a sum of checked points that cancels is the identity, refused by mul and decode
    zero = sub(a_point(), a_point())
    assert zero == IDENTITY_BYTES
    with pytest.raises(GroupError):
        mul(3, Point(zero))


def test_pitfall_scalars_at_or_above_l_are_silently_reduced() -> None:
    p = a_point()
    reduced = crypto_scalarmult_ed25519_noclamp((5).to_bytes(32, "little"), p)
    assert crypto_scalarmult_ed25519_noclamp((L + 5).to_bytes(32, "little"), p) == reduced
    # and bit 255 is cleared: 2**255 + 5 acts as 5
    assert crypto_scalarmult_ed25519_noclamp((2**255 + 5).to_bytes(32, "little"), p) == reduced
    # so two encodings would mean one scalar: the decoder accepts only the one below L
    with pytest.raises(GroupError, match="not reduced"):
        decode_scalar((L + 5).to_bytes(32, "little"))
    # and mul() writes every int reduced, so 2**255 + 5 means what it says
    assert mul(2**255 + 5, p) == mul((2**255 + 5) % L, p) != reduced


def test_arithmetic_agrees_with_itself() -> None:
    p = a_point()
    assert add(mul(3, p), mul(4, p)) == mul(7, p)
    assert sub(mul(9, p), mul(4, p)) == mul(5, p)
    assert base_mul(6) == mul(6, BASE)
    assert mul(L - 1, p) == sub(Point(IDENTITY_BYTES), p)  # -P


def test_generators_are_from_uniform_of_hashes_never_multiples_of_g() -> None:
    gens = generators(20)
    assert len(set(gens)) == 20 and BASE not in gens
    for i, g in enumerate(gens):
        framed_input = framed(GENERATOR_DOMAIN, i)
        assert g == crypto_core_ed25519_from_uniform(hashlib.sha256(framed_input).digest())
        assert crypto_core_ed25519_is_valid_point(g)
    assert generators(3) == gens[:3]


def test_hash_to_scalar_is_sha512_reduced_below_l() -> None:
    value = hash_to_scalar("cryptcrawl/deck-test/v1", b"x", 3)
    expected = int.from_bytes(hashlib.sha512(framed("cryptcrawl/deck-test/v1", b"x", 3))
                              .digest(), "little") % L
    assert value == expected < L
