"""Deck bodies: one canonical wire form each, a strict decoder, and a fuzz invariant (any input
decodes, or raises the protocol's own error — nothing else; a peer never raises)."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.deck_scenario import DeckTable, cards_named
from protocol.deck import (
    DeckDecodeError,
    DeckFault,
    FaultCode,
    decode_body,
    encode_body,
)
from protocol.deck.group import L
from protocol.errors import BadMessage
from protocol.wire.encoding import Value, decode, encode
from tests.tiers import examples


@pytest.fixture(scope="module")
def table() -> DeckTable:
    table = DeckTable(3, {"a": cards_named("c", 4)}, tag=b"bodies")
    table.setup()
    table.deal("a", [0, 1, None])
    table.shares()
    body = table.peers[0]["a"].open_body([0])
    table.deliver(0, "a", encode(encode_body(body)), "open")
    assert not table.faults()
    return table


def wires(table: DeckTable) -> dict[str, tuple[Value, ...]]:
    found: dict[str, tuple[Value, ...]] = {}
    for sent in table.log:
        value = decode(sent.data)
        found.setdefault(value[0], value)
    return found


def test_every_kind_round_trips_through_the_canonical_encoding(table: DeckTable) -> None:
    kinds = wires(table)
    assert sorted(kinds) == ["deck-key", "deck-key-commit", "deck-open", "deck-shares",
                             "deck-shuffle"]
    for sent in table.log:
        body = decode_body(decode(sent.data))
        assert encode(encode_body(body)) == sent.data


def _replace(value: tuple[Value, ...], index: int, item: Value) -> tuple[Value, ...]:
    return (*value[:index], item, *value[index + 1:])


CASES = [  # (kind, how the wire value is broken, expected words of the error)
    ("deck-key", lambda v: ("deck-nothing", *v[1:]), "unknown deck body kind"),
    ("deck-key", lambda v: (*v, b""), "has 4 fields"),
    ("deck-key", lambda v: v[:-1], "has 4 fields"),
    ("deck-key", lambda v: _replace(v, 1, v[1][:31]), "deck id"),
    ("deck-key", lambda v: _replace(v, 1, "x" * 32), "deck id"),
    ("deck-key", lambda v: _replace(v, 3, L.to_bytes(32, "little")), "not reduced"),
    ("deck-key-commit", lambda v: _replace(v, 2, v[2] + b"\x00"), "key commitment"),
    ("deck-shuffle", lambda v: _replace(v, 2, -1), "the step"),
    ("deck-shuffle", lambda v: _replace(v, 2, True), "the step"),
    ("deck-shuffle", lambda v: _replace(v, 3, v[3][:-1]), "even number"),
    ("deck-shuffle", lambda v: _replace(v, 3, v[3][:2]), "two cards at least"),
    ("deck-shuffle", lambda v: _replace(v, 4, v[4][:-1]), "commitments must have"),
    ("deck-shuffle", lambda v: _replace(v, 5, (*v[5], v[5][0])), "chain must have"),
    ("deck-shuffle", lambda v: _replace(v, 6, v[6][:4]), "must have 5 items"),
    ("deck-shuffle", lambda v: _replace(v, 7, v[7][1:]), "must have"),
    ("deck-shuffle", lambda v: _replace(v, 8, "nope"), "must be an array"),
    ("deck-shares", lambda v: _replace(v, 3, ()), "non-empty"),
    ("deck-shares", lambda v: _replace(v, 3, (*v[3], 0)), "as many"),
    ("deck-shares", lambda v: _replace(v, 3, (999,)), "positions item"),
    ("deck-shares", lambda v: _replace(v, 2, 2**40), "the round"),
    ("deck-open", lambda v: _replace(v, 3, (*v[3], 1)), "as many"),
    ("deck-open", lambda v: _replace(v, 4, (b"\x00" * 32,)), "share 0"),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_malformed_bodies_raise_one_line(table: DeckTable, case: int) -> None:
    kind, change, words = CASES[case]
    broken = change(wires(table)[kind])  # type: ignore[no-untyped-call]
    with pytest.raises(DeckDecodeError) as caught:
        decode_body(broken)
    assert words in str(caught.value) and "\n" not in str(caught.value)
    # and a peer fed it names the sender
    events = table.verifier["a"].receive_wire(2, broken)
    assert events == [DeckFault(2, FaultCode.MALFORMED, f"seat 2: {caught.value}")]


@pytest.mark.parametrize("value", [None, 5, b"x", "deck-key", (), ((),), ("deck-key",)])
def test_values_that_are_no_body_at_all(value: Value) -> None:
    with pytest.raises(DeckDecodeError):
        decode_body(value)


@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_fuzz_any_mutation_decodes_or_raises_the_protocol_error(table: DeckTable,
                                                                 data: st.DataObject) -> None:
    sent = data.draw(st.sampled_from(table.log))
    raw = bytearray(sent.data)
    for _ in range(data.draw(st.integers(1, 4))):
        where = data.draw(st.integers(0, len(raw) - 1))
        raw[where] = data.draw(st.integers(0, 255))
    try:
        value = decode(bytes(raw))
    except BadMessage:
        return
    with contextlib.suppress(BadMessage):
        decode_body(value)
    # a peer never raises on it, whatever it is
    events = table.verifier["a"].receive_wire(sent.seat, value)
    assert all(not isinstance(e, DeckFault) or "\n" not in e.reason for e in events)
