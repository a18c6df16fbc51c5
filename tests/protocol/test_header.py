"""protocol/wire/header.py: the match header, its id and its signatures; validation of every field
(a header comes from the network) and the fuzz invariant (any bytes decode or raise
BadMessage)."""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
from typing import Any

import msgpack  # type: ignore[import-untyped]
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given, settings
from hypothesis import strategies as st
from protocol.wire import encoding
from protocol.wire.header import (
    HEADER_DOMAIN,
    PROTOCOL_VERSION,
    Header,
    Seat,
    SignedHeader,
    options_from,
    sign_header,
    verify_header_signatures,
)

from protocol.crypto import H, fingerprint, public_key_bytes, sign
from protocol.errors import BadMessage

PRIVATE = [Ed25519PrivateKey.from_private_bytes(bytes([i + 1]) * 32) for i in range(5)]
KEYS = [public_key_bytes(p) for p in PRIVATE]
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]
NONCES = [bytes([0xA0 + i]) * 32 for i in range(5)]


def make_header(n: int = 3, **changes: Any) -> Header:
    fields: dict[str, Any] = {
        "game": "raiders",
        "options": (("players", n), ("variant", "basic")),
        "protocol": PROTOCOL_VERSION,
        "engine": "raiders/1",
        "sampler": "sha256-ctr/v1",
        "seats": tuple(Seat(NAMES[i], KEYS[i]) for i in range(n)),
        "nonces": tuple(NONCES[:n]),
    }
    fields.update(changes)
    return Header(**fields)


def signed(header: Header) -> SignedHeader:
    return SignedHeader(header, tuple(sign_header(PRIVATE[i], header)
                                      for i in range(len(header.seats))))


# --------------------------------------------------------------------------- vectors, round trip


def test_header_vectors() -> None:
    header = make_header(protocol=1)
    data = header.encode()
    assert data[:1] == b"\x97" and data[1:2] == b"\x01"  # a 7-array; the version first
    assert hashlib.sha256(data).hexdigest() == (
        "5a4972793a53b7f1028975fef290e9dfc7426a2728234851240f1def5738248c")
    assert header.match_id.hex() == (
        "dd81e3939d143611684296e5cd1592fe2c47766812fb384d03972aa0652c66a4")
    assert hashlib.sha256(signed(header).encode()).hexdigest() == (
        "07164cf70fb6c05e67a42145804f1a91a50a8ebf494cfec842667b817de50150")


def test_match_id_is_the_documented_construction() -> None:
    header = make_header()
    assert header.fields() == (2, "raiders", (("players", 3), ("variant", "basic")),
                               "raiders/1", "sha256-ctr/v1",
                               tuple((NAMES[i], KEYS[i]) for i in range(3)), (30, 90, 300, 60))
    assert header.match_id == H("cryptcrawl/match-id/v1", encoding.encode(header.fields()),
                                *NONCES[:3])
    assert encoding.decode(header.encode()) == (*header.fields(), tuple(NONCES[:3]))


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_round_trip(n: int) -> None:
    header = make_header(n, options=(("flag", True), ("players", n), ("variant", "basic")))
    again = Header.decode(header.encode())
    assert again == header
    assert again.match_id == header.match_id
    assert again.options[0] == ("flag", True) and again.options[0][1] is True
    whole = signed(header)
    assert SignedHeader.decode(whole.encode()) == whole
    assert whole.match_id == header.match_id


def test_options_from() -> None:
    assert options_from({"variant": "basic", "players": 4}) == (
        ("players", 4), ("variant", "basic"))
    assert make_header(options=options_from({})).options == ()


# --------------------------------------------------------------------------- the match id


CHANGES: list[tuple[str, Any]] = [
    ("game", "paper-dungeons"),
    ("options", (("players", 3), ("variant", "advanced"))),
    ("options", (("players", 3),)),
    ("options", (("players", True), ("variant", "basic"))),  # bool is not int on the wire
    ("engine", "raiders/2"),
    ("sampler", "sha256-ctr/v2"),
    ("seats", (Seat("Ann", KEYS[0]), Seat("Bob", KEYS[1]), Seat("Cyd", KEYS[2]))),
    ("seats", (Seat("Ann", KEYS[0]), Seat("Bob", KEYS[1]), Seat("Cy", KEYS[3]))),
    ("seats", (Seat("Bob", KEYS[1]), Seat("Ann", KEYS[0]), Seat("Cy", KEYS[2]))),
    ("nonces", (NONCES[0], NONCES[1], NONCES[3])),
    ("nonces", (NONCES[1], NONCES[0], NONCES[2])),
]


@pytest.mark.parametrize(("field", "value"), CHANGES)
def test_match_id_changes_with_any_field(field: str, value: Any) -> None:
    assert make_header(**{field: value}).match_id != make_header().match_id


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_match_id_changes_with_any_nonce_bit(seat: int) -> None:
    nonces = list(NONCES[:3])
    nonces[seat] = bytes([nonces[seat][0] ^ 1]) + nonces[seat][1:]
    assert make_header(nonces=tuple(nonces)).match_id != make_header().match_id


# --------------------------------------------------------------------------- versions


def raw(header: Header, **changes: Any) -> list[Any]:
    """The header's array with fields replaced by position name."""
    positions = {"protocol": 0, "game": 1, "options": 2, "engine": 3, "sampler": 4,
                 "seats": 5, "timeouts": 6, "nonces": 7}
    value = list(header.value())
    for name, new in changes.items():
        value[positions[name]] = new
    return value


@pytest.mark.parametrize("version", [0, 3, 17])
def test_another_protocol_version_is_refused_clearly(version: int) -> None:
    message = f"speaks protocol version {version}; this program speaks 2"
    data = msgpack.packb(raw(make_header(), protocol=version), use_bin_type=True)
    with pytest.raises(BadMessage, match=message):
        Header.decode(data)
    # whatever the rest of the layout: the version is read first
    with pytest.raises(BadMessage, match=message):
        Header.decode(msgpack.packb([version, {"a": 1}.__len__()], use_bin_type=True))
    with pytest.raises(BadMessage, match=message):
        Header.decode(msgpack.packb([version], use_bin_type=True))
    with pytest.raises(BadMessage, match=message):
        make_header(protocol=version)
    header = make_header()
    sigs = [sign_header(PRIVATE[i], header) for i in range(3)]
    data = msgpack.packb([raw(header, protocol=version), sigs], use_bin_type=True)
    with pytest.raises(BadMessage, match=message):
        SignedHeader.decode(data)


# --------------------------------------------------------------------------- bad fields


BAD_FIELDS: list[tuple[dict[str, Any], str]] = [
    ({"options": (("players", 3), ("players", 4))}, "duplicate option key"),
    ({"options": (("variant", "basic"), ("players", 3))}, "not sorted"),
    ({"options": (("players",),)}, "pair"),
    ({"options": (("", 3),)}, "option key"),
    ({"options": (("x", 1.5),)}, "string, integer or boolean"),
    ({"options": (("x", None),)}, "string, integer or boolean"),
    ({"options": (("x", 2**64),)}, "range"),
    ({"options": (("x", "y" * 257),)}, "over"),
    ({"options": [("players", 3)]}, "tuple"),
    ({"nonces": tuple(NONCES[:2])}, "2 nonces for 3 seats"),
    ({"nonces": tuple(NONCES[:4])}, "4 nonces for 3 seats"),
    ({"nonces": (NONCES[0], NONCES[1], bytes(33))}, "nonce of seat 2"),
    ({"nonces": (NONCES[0], NONCES[1], "x" * 32)}, "nonce of seat 2"),
    ({"seats": (Seat("Ann", KEYS[0]),), "nonces": (NONCES[0],)}, "2 to 8 seats"),
    ({"seats": tuple(Seat(f"P{i}", bytes([i]) * 32) for i in range(9)),
      "nonces": tuple(bytes([i]) * 32 for i in range(9))}, "2 to 8 seats"),
    ({"seats": (Seat("Ann", KEYS[0]), Seat("Bob", KEYS[1]), Seat("Cy", KEYS[0]))},
     "same identity key"),
    ({"seats": (("Ann", KEYS[0]), ("Bob", KEYS[1]), ("Cy", KEYS[2]))}, "Seat"),
    ({"game": ""}, "game"),
    ({"game": "r" * 65}, "game"),
    ({"engine": "raiders\n1"}, "unprintable"),
    ({"sampler": 1}, "sampler"),
    ({"protocol": True}, "integer"),
    ({"protocol": "1"}, "integer"),
]


@pytest.mark.parametrize(("changes", "reason"), BAD_FIELDS)
def test_bad_fields_raise_bad_message(changes: dict[str, Any], reason: str) -> None:
    with pytest.raises(BadMessage, match=reason):
        make_header(**changes)


@pytest.mark.parametrize(("name", "key", "reason"), [
    ("", KEYS[0], "1 to 32"),
    ("x" * 33, KEYS[0], "1 to 32"),
    ("Ann\x1b[31m", KEYS[0], "unprintable"),
    ("Ann\u202e", KEYS[0], "unprintable"),
    (7, KEYS[0], "string"),
    ("Ann", KEYS[0] + b"\x00", "33"),
    ("Ann", KEYS[0][:31], "31"),
    ("Ann", "x" * 32, "bytes"),
])
def test_bad_seats(name: Any, key: Any, reason: str) -> None:
    with pytest.raises(BadMessage, match=reason):
        Seat(name, key)
    seats = [list(s) for s in raw(make_header())[5]]
    seats[1] = [name, key]
    with pytest.raises(BadMessage, match=reason):
        Header.decode(msgpack.packb(raw(make_header(), seats=seats), use_bin_type=True))


def test_seat_names_at_the_limits() -> None:
    assert Seat("x", KEYS[0]).name == "x"
    assert Seat("Ann Élise 🗡" + "x" * 21, KEYS[0]).name.startswith("Ann")
    assert str(Seat("Ann", KEYS[0])) == f"Ann ({fingerprint(KEYS[0])})"


@pytest.mark.parametrize(("value", "reason"), [
    ([], "non-empty"),
    (1, "non-empty"),
    ([1, "raiders"], "7 fields"),
    ([2, "raiders"], "8 fields"),
    ([*raw(make_header()), 0], "deck algorithm is a non-empty text"),
    ([*raw(make_header()), 0, "deck-tw-ed25519/v1"], "not 10"),
    ([*raw(make_header(protocol=1)), 0], "not 8"),
    (raw(make_header(), options=[["players"]]), "pair"),
    (raw(make_header(), options=3), "arrays"),
    (raw(make_header(), seats=[["Ann", KEYS[0], 1]]), "pair"),
    (raw(make_header(), seats=[b"x"]), "pair"),
    (raw(make_header(), nonces=b"x" * 32), "tuple"),
])
def test_bad_layouts_raise_bad_message(value: Any, reason: str) -> None:
    with pytest.raises(BadMessage, match=reason):
        Header.decode(msgpack.packb(value, use_bin_type=True))


def test_a_deck_algorithm_is_the_last_field_and_the_match_id_covers_it() -> None:
    plain = make_header()
    decked = dataclasses.replace(plain, deck="deck-tw-ed25519/v1")
    again = Header.decode(decked.encode())
    assert again == decked and again.deck == "deck-tw-ed25519/v1"
    assert msgpack.unpackb(decked.encode(), use_list=False)[-1] == "deck-tw-ed25519/v1"
    assert decked.match_id != plain.match_id
    assert Header.decode(plain.encode()).deck == ""
    with pytest.raises(BadMessage, match="version 1 header names no deck"):
        dataclasses.replace(make_header(protocol=1), deck="deck-tw-ed25519/v1")


def test_a_header_is_immutable() -> None:
    header = make_header()
    with pytest.raises(dataclasses.FrozenInstanceError):
        header.game = "other"  # type: ignore[misc]


# --------------------------------------------------------------------------- signatures


@pytest.mark.parametrize("n", [2, 3, 5])
def test_all_valid_signatures_pass(n: int) -> None:
    header = make_header(n)
    signatures = [sign_header(PRIVATE[i], header) for i in range(n)]
    verify_header_signatures(header, signatures)
    verify_header_signatures(header, tuple(signatures))


def test_a_signature_is_over_the_match_id() -> None:
    header = make_header()
    assert sign_header(PRIVATE[0], header) == sign(PRIVATE[0], HEADER_DOMAIN, header.match_id)


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_a_forged_signature_names_the_seat(seat: int) -> None:
    header = make_header()
    signatures = [sign_header(PRIVATE[i], header) for i in range(3)]
    signatures[seat] = sign_header(PRIVATE[4], header)  # signed by someone else
    name = NAMES[seat]
    with pytest.raises(BadMessage, match=rf"seat {seat}, {name} .* not valid"):
        verify_header_signatures(header, signatures)
    with pytest.raises(BadMessage, match=f"seat {seat}, {name}"):
        SignedHeader(header, tuple(signatures))


def test_swapped_signatures_name_the_first_seat() -> None:
    header = make_header()
    signatures = [sign_header(PRIVATE[i], header) for i in range(3)]
    signatures[1], signatures[2] = signatures[2], signatures[1]
    with pytest.raises(BadMessage, match=r"seat 1, Bob .* not valid"):
        verify_header_signatures(header, signatures)


def test_a_signature_of_another_header_fails() -> None:
    header, other = make_header(), make_header(game="other")
    signatures = [sign_header(PRIVATE[i], header) for i in range(3)]
    signatures[2] = sign_header(PRIVATE[2], other)
    with pytest.raises(BadMessage, match="seat 2, Cy"):
        verify_header_signatures(header, signatures)


def test_a_signature_in_another_domain_fails() -> None:
    header = make_header()
    signatures = [sign_header(PRIVATE[i], header) for i in range(3)]
    signatures[0] = sign(PRIVATE[0], "cryptcrawl/msg/v1", header.match_id)
    with pytest.raises(BadMessage, match="seat 0, Ann"):
        verify_header_signatures(header, signatures)


def test_missing_extra_and_malformed_signatures() -> None:
    header = make_header()
    signatures = [sign_header(PRIVATE[i], header) for i in range(3)]
    with pytest.raises(BadMessage, match=r"seat 2, Cy .*has not signed"):
        verify_header_signatures(header, signatures[:2])
    with pytest.raises(BadMessage, match=r"seat 0, Ann .*has not signed"):
        verify_header_signatures(header, [])
    with pytest.raises(BadMessage, match="4 header signatures for 3 seats"):
        verify_header_signatures(header, [*signatures, signatures[0]])
    with pytest.raises(BadMessage, match=r"seat 1, Bob .*64-byte"):
        verify_header_signatures(header, [signatures[0], signatures[1][:-1], signatures[2]])
    with pytest.raises(BadMessage, match=r"seat 1, Bob .*64-byte"):
        verify_header_signatures(header, [signatures[0], None, signatures[2]])  # type: ignore[list-item]
    with pytest.raises(BadMessage, match="sequence"):
        verify_header_signatures(header, b"".join(signatures))  # type: ignore[arg-type]
    with pytest.raises(BadMessage, match="tuple"):
        SignedHeader(header, signatures)  # type: ignore[arg-type]


def test_signed_header_decode_checks_signatures() -> None:
    header = make_header()
    signatures = [sign_header(PRIVATE[i], header) for i in range(3)]
    signatures[1] = bytes(64)
    data = msgpack.packb([header.value(), signatures], use_bin_type=True)
    with pytest.raises(BadMessage, match="seat 1, Bob"):
        SignedHeader.decode(data)
    for bad in ([header.value()], [header.value(), signatures, 1], header.value()):
        with pytest.raises(BadMessage):
            SignedHeader.decode(msgpack.packb(bad, use_bin_type=True))


# --------------------------------------------------------------------------- fuzz


def _only_bad_message(decode: Any, data: bytes) -> None:
    with contextlib.suppress(BadMessage):
        decode(data)


@settings(max_examples=1500, deadline=None)
@given(st.binary(max_size=400))
def test_fuzz_any_bytes(data: bytes) -> None:
    _only_bad_message(Header.decode, data)
    _only_bad_message(SignedHeader.decode, data)


_VALID_HEADER = make_header().encode()
_VALID_SIGNED = signed(make_header()).encode()


@settings(max_examples=1000, deadline=None)
@given(st.sampled_from([_VALID_HEADER, _VALID_SIGNED]),
       st.lists(st.tuples(st.integers(0, 2000), st.integers(0, 255)), min_size=1, max_size=4),
       st.integers(0, 2000))
def test_fuzz_mutated_valid_frames(base: bytes, flips: list[tuple[int, int]],
                                   cut: int) -> None:
    data = bytearray(base)
    for position, value in flips:
        data[position % len(data)] = value
    for candidate in (bytes(data), bytes(data[: cut % (len(data) + 1)])):
        _only_bad_message(Header.decode, candidate)
        _only_bad_message(SignedHeader.decode, candidate)


_leaf = (st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=40)
         | st.binary(max_size=40) | st.sampled_from([KEYS[0], NONCES[0], bytes(64), 1, 2]))
_values = st.recursive(_leaf, lambda inner: st.lists(inner, max_size=8), max_leaves=40)


@settings(max_examples=400, deadline=None)
@given(_values)
def test_fuzz_structured_values(value: Any) -> None:
    """Well-formed msgpack of any shape: a header layout with random contents."""
    for shaped in (value, [1, *value] if isinstance(value, list) else [1, value]):
        try:
            data = encoding.encode(shaped)
        except BadMessage:
            continue
        _only_bad_message(Header.decode, data)
        _only_bad_message(SignedHeader.decode, data)
        _only_bad_message(SignedHeader.decode, encoding.encode([shaped, [bytes(64)] * 3]))


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 6), _values)
def test_fuzz_one_field_of_a_valid_header(position: int, value: Any) -> None:
    fields = list(make_header().value())
    fields[position] = value
    try:
        data = encoding.encode(fields)
    except BadMessage:
        return
    _only_bad_message(Header.decode, data)


# --------------------------------------------------------------------------- version 2: timeouts


def test_a_version_2_header_carries_the_agreed_timeouts() -> None:
    header = make_header(timeouts=(20, 60, 240, 45))
    data = header.encode()
    assert data[:2] == b"\x98\x02"  # an 8-array; the version first
    assert Header.decode(data).timeouts == (20, 60, 240, 45)
    assert encoding.decode(data)[6] == (20, 60, 240, 45)  # before the nonces
    assert header.match_id != make_header().match_id  # the timeouts are in the match id
    assert make_header().timeouts == (30, 90, 300, 60)  # the defaults


@pytest.mark.parametrize(("timeouts", "reason"), [
    ((30, 90, 300), "the timeouts are \\[quick, normal, long, silence\\]"),
    ((30, 90, 300, 0), "the silence timeout must be 1 to 86400"),
    ((30, 90, 300, 86_401), "the silence timeout must be 1 to 86400"),
    ((30, True, 300, 60), "the normal timeout must be 1 to 86400"),
    ((90, 30, 300, 60), "must grow from quick to long"),
])
def test_bad_timeouts_are_refused(timeouts: Any, reason: str) -> None:
    with pytest.raises(BadMessage, match=reason):
        make_header(timeouts=timeouts)
    with pytest.raises(BadMessage, match=reason):
        Header.decode(msgpack.packb(raw(make_header(), timeouts=list(timeouts)),
                                    use_bin_type=True))


def test_a_version_1_header_has_no_timeouts() -> None:
    assert make_header(protocol=1).timeouts == ()
    assert len(encoding.decode(make_header(protocol=1).encode())) == 7
    with pytest.raises(BadMessage, match="a version 1 header has no timeouts"):
        make_header(protocol=1, timeouts=(1, 2, 3, 4))
