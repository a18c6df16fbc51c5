"""The canonical encoding: one table of wire cases, checked both ways, and the fuzz invariant
(any bytes decode or raise BadMessage, nothing else)."""

from __future__ import annotations

import msgpack  # type: ignore[import-untyped]
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.errors import BadMessage
from protocol.wire.encoding import MAX_DEPTH, MAX_FRAME, decode, encode
from tests.tiers import examples

CASES = [
    (None, "c0"),
    (True, "c3"),
    (0, "00"),
    (-1, "ff"),
    (200, "ccc8"),
    (2**64 - 1, "cfffffffffffffffff"),
    ("", "a0"),
    ("é", "a2c3a9"),
    (b"", "c400"),
    (b"\x00\x01", "c4020001"),
    ((), "90"),
    ((1, (b"x", None)), "9201 92c40178c0".replace(" ", "")),
]


@pytest.mark.parametrize(("value", "wire"), CASES)
def test_wire_cases_both_ways(value: object, wire: str) -> None:
    assert encode(value).hex() == wire
    assert decode(bytes.fromhex(wire)) == value


def test_lists_decode_as_tuples() -> None:
    assert decode(encode([1, [2, 3]])) == (1, (2, 3))


@pytest.mark.parametrize(("wire", "reason"), [
    ("", "empty"),
    ("81a16101", "malformed"),  # a map
    ("cb0000000000000000", "floats"),
    ("ca00000000", "floats"),
    ("cc05", "canonical"),  # 5 in a 2-byte form
    ("d901" + "61", "canonical"),  # a str8 where fixstr fits
    ("c1", "malformed"),  # never-used byte
    ("0102", "malformed"),  # trailing data
    ("d40100", "malformed"),  # ext type
    ("a2c3", "malformed"),  # truncated / invalid utf-8
])
def test_bad_wire_raises_bad_message(wire: str, reason: str) -> None:
    with pytest.raises(BadMessage, match=reason):
        decode(bytes.fromhex(wire))


def test_caps() -> None:
    with pytest.raises(BadMessage, match="cap"):
        decode(b"\xc4" + bytes(MAX_FRAME + 1))
    with pytest.raises(BadMessage, match="cap"):
        encode(b"x" * MAX_FRAME)
    deep: object = 1
    for _ in range(MAX_DEPTH + 1):
        deep = (deep,)
    with pytest.raises(BadMessage, match="nested"):
        encode(deep)
    with pytest.raises(BadMessage, match="nested"):
        decode(msgpack.packb(deep))


@pytest.mark.parametrize("value", [1.5, {"a": 1}, object(), 2**64, -(2**63) - 1])
def test_values_outside_the_model(value: object) -> None:
    with pytest.raises(BadMessage):
        encode(value)


def test_non_bytes_input() -> None:
    with pytest.raises(BadMessage):
        decode("text")  # type: ignore[arg-type]


@settings(max_examples=examples(3000), deadline=None)
@given(st.binary(max_size=200))
def test_fuzz_any_bytes_decode_or_raise_bad_message(data: bytes) -> None:
    try:
        value = decode(data)
    except BadMessage:
        return
    assert encode(value) == data  # what decodes is canonical


values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=20)
    | st.binary(max_size=20),
    lambda children: st.lists(children, max_size=4).map(tuple),
    max_leaves=20,
)


@settings(max_examples=examples(500), deadline=None)
@given(values)
def test_round_trip(value: object) -> None:
    assert decode(encode(value)) == value
