"""The match header (design §4): what is played, by whom, under which versions — and the match id.

A header names the game and its options, the protocol, engine and sampler versions, the seats
(a name and a 32-byte Ed25519 identity key each) and one fresh 32-byte nonce from every seat::

    match id = H("cryptcrawl/match-id/v1", encode(header.fields()), nonce₀, …, nonceₙ₋₁)

so no seat can choose the match id, and a message of one match never replays into another.
Every seat signs the match id (domain ``cryptcrawl/header/v1``) before play.

Wire form (canonical msgpack, :mod:`protocol.wire.encoding`)::

    header        = [protocol, game, options, engine, sampler, seats, timeouts, nonces]   (v2)
    header        = [protocol, game, options, engine, sampler, seats, timeouts, nonces, deck]
                                           (v2, a game that deals private cards from decks)
    header        = [protocol, game, options, engine, sampler, seats, nonces]             (v1)
    options       = [[key, value], …]          sorted by key, keys unique
    seats         = [[name, key], …]           in seat order
    timeouts      = [quick, normal, long, silence]   whole seconds (v2)
    nonces        = [nonce₀, …]                one 32-byte nonce per seat
    signed header = [header, [signature₀, …]]  one 64-byte signature per seat, in seat order

The timeouts are agreed by every seat: how long a decision of each time class may take before
the seat is overdue, and how long after that before it is timed out.  The protocol version comes
first so that a peer can read it from a header of any layout: a header of a version this program
cannot read is refused with a message naming both versions.  This program writes version 2 and
reads version 1 files too (a lobby accepts only its own version).

Headers come from the network, so every field is validated on construction and anything wrong
raises :class:`~protocol.errors.BadMessage` (never another error).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Final

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from protocol.crypto import KEY_SIZE, SIGNATURE_SIZE, H, fingerprint, sign, verify
from protocol.errors import BadMessage
from protocol.versions import PROTOCOL_VERSION, READABLE_VERSIONS
from protocol.wire import encoding

__all__ = [
    "DEFAULT_TIMEOUTS",
    "HEADER_DOMAIN",
    "MATCH_ID_DOMAIN",
    "MAX_SEATS",
    "MAX_TIMEOUT",
    "MIN_SEATS",
    "PROTOCOL_VERSION",
    "READABLE_VERSIONS",
    "Header",
    "OptionValue",
    "Seat",
    "SignedHeader",
    "check_timeouts",
    "options_from",
    "sign_header",
    "verify_header_signatures",
]

MATCH_ID_DOMAIN: Final = "cryptcrawl/match-id/v1"
HEADER_DOMAIN: Final = "cryptcrawl/header/v1"

MIN_SEATS: Final = 2
MAX_SEATS: Final = 8
MAX_NAME: Final = 32
MAX_LABEL: Final = 64  # game, engine, sampler and option keys
MAX_OPTION_TEXT: Final = 256
MAX_OPTIONS: Final = 32

OptionValue = str | int | bool
Options = tuple[tuple[str, OptionValue], ...]

_INT_MIN: Final = -(2**63)
_INT_MAX: Final = 2**64 - 1
_HEADER_FIELDS: Final = {1: 7, 2: 8}
MAX_TIMEOUT: Final = 86_400
DEFAULT_TIMEOUTS: Final = (30, 90, 300, 60)
"""quick, normal and long decisions, and the silence after them, in seconds."""


def check_timeouts(timeouts: object) -> tuple[int, int, int, int]:
    """``timeouts`` as a version 2 header carries them: a tuple ``(quick, normal, long,
    silence)`` of whole seconds, each 1 to :data:`MAX_TIMEOUT`, growing from quick to long.
    BadMessage (one line) naming what is wrong."""
    if not isinstance(timeouts, tuple) or len(timeouts) != 4:
        raise BadMessage("the timeouts are [quick, normal, long, silence] seconds")
    for what, value in zip(("quick", "normal", "long", "silence"), timeouts, strict=True):
        if isinstance(value, bool) or not isinstance(value, int) or not (
                1 <= value <= MAX_TIMEOUT):
            raise BadMessage(f"the {what} timeout must be 1 to {MAX_TIMEOUT} whole seconds, "
                             f"not {value!r}")
    quick, normal, long, silence = timeouts
    if not quick <= normal <= long:
        raise BadMessage(f"the timeouts must grow from quick to long, not {quick}, {normal}, "
                         f"{long}")
    return (quick, normal, long, silence)


def _printable(value: object, what: str, longest: int) -> str:
    if not isinstance(value, str):
        raise BadMessage(f"{what} must be a string, not {type(value).__name__}")
    if not 1 <= len(value) <= longest:
        raise BadMessage(f"{what} must be 1 to {longest} characters long, not {len(value)}")
    if not value.isprintable():
        raise BadMessage(f"{what} {value!r} contains unprintable characters")
    return value


def _bytes32(value: object, what: str) -> bytes:
    if not isinstance(value, bytes):
        raise BadMessage(f"{what} must be bytes, not {type(value).__name__}")
    if len(value) != KEY_SIZE:
        raise BadMessage(f"{what} must be {KEY_SIZE} bytes, not {len(value)}")
    return value


def _refuse_version(version: object) -> None:
    if isinstance(version, bool) or not isinstance(version, int):
        raise BadMessage(f"the header's protocol version must be an integer, not "
                         f"{type(version).__name__}")
    if version not in READABLE_VERSIONS:
        raise BadMessage(f"refused: the other peer speaks protocol version {version}; this "
                         f"program speaks {PROTOCOL_VERSION} (both peers need a cryptcrawl "
                         "release with the same protocol version)")


def options_from(options: Mapping[str, OptionValue]) -> Options:
    """Game options in header form: ``(key, value)`` pairs sorted by key."""
    return tuple(sorted(options.items()))


@dataclass(frozen=True)
class Seat:
    """A seat: a display name (1–32 printable characters) and a 32-byte Ed25519 public key."""

    name: str
    key: bytes

    def __post_init__(self) -> None:
        _printable(self.name, "a seat name", MAX_NAME)
        _bytes32(self.key, f"the key of seat {self.name!r}")

    def fields(self) -> tuple[str, bytes]:
        return (self.name, self.key)

    def __str__(self) -> str:
        return f"{self.name} ({fingerprint(self.key)})"


@dataclass(frozen=True)
class Header:
    """The match header; validated on construction (BadMessage for any bad field)."""

    game: str
    options: Options
    protocol: int
    engine: str
    sampler: str
    seats: tuple[Seat, ...]
    nonces: tuple[bytes, ...]
    timeouts: tuple[int, ...] = DEFAULT_TIMEOUTS  # (quick, normal, long, silence); v1: ()
    deck: str = ""  # v2: the deck algorithm, for a game dealing private cards ("": none)

    def __post_init__(self) -> None:
        _refuse_version(self.protocol)
        _printable(self.game, "the game", MAX_LABEL)
        _printable(self.engine, "the engine version", MAX_LABEL)
        _printable(self.sampler, "the sampler version", MAX_LABEL)
        if self.deck:
            if self.protocol == 1:
                raise BadMessage("a version 1 header names no deck algorithm")
            _printable(self.deck, "the deck algorithm", MAX_LABEL)
        self._check_options()
        self._check_seats()
        self._check_timeouts()

    def _check_timeouts(self) -> None:
        if self.protocol == 1:
            if self.timeouts not in ((), DEFAULT_TIMEOUTS):
                raise BadMessage("a version 1 header has no timeouts")
            object.__setattr__(self, "timeouts", ())
            return
        check_timeouts(self.timeouts)

    def _check_options(self) -> None:
        if not isinstance(self.options, tuple):
            raise BadMessage("the options must be a tuple of (key, value) pairs")
        if len(self.options) > MAX_OPTIONS:
            raise BadMessage(f"{len(self.options)} options, over the cap of {MAX_OPTIONS}")
        previous: str | None = None
        for pair in self.options:
            if not isinstance(pair, tuple) or len(pair) != 2:
                raise BadMessage("every option is a (key, value) pair")
            key, value = pair
            _printable(key, "an option key", MAX_LABEL)
            if isinstance(value, str):
                if len(value) > MAX_OPTION_TEXT:
                    raise BadMessage(f"option {key!r} is over {MAX_OPTION_TEXT} characters")
            elif isinstance(value, int):  # bool included
                if not _INT_MIN <= value <= _INT_MAX:
                    raise BadMessage(f"option {key!r} is out of range")
            else:
                raise BadMessage(f"option {key!r} must be a string, integer or boolean, not "
                                 f"{type(value).__name__}")
            if previous is not None:
                if key == previous:
                    raise BadMessage(f"duplicate option key {key!r}")
                if key < previous:
                    raise BadMessage(f"options are not sorted by key ({key!r} after "
                                     f"{previous!r})")
            previous = key

    def _check_seats(self) -> None:
        if not isinstance(self.seats, tuple) or not all(isinstance(s, Seat) for s in self.seats):
            raise BadMessage("the seats must be a tuple of Seat")
        if not MIN_SEATS <= len(self.seats) <= MAX_SEATS:
            raise BadMessage(f"a match has {MIN_SEATS} to {MAX_SEATS} seats, not "
                             f"{len(self.seats)}")
        keys: dict[bytes, int] = {}
        for index, seat in enumerate(self.seats):
            if seat.key in keys:
                raise BadMessage(f"seats {keys[seat.key]} and {index} have the same identity key")
            keys[seat.key] = index
        if not isinstance(self.nonces, tuple):
            raise BadMessage("the nonces must be a tuple of bytes")
        if len(self.nonces) != len(self.seats):
            raise BadMessage(f"{len(self.nonces)} nonces for {len(self.seats)} seats (one "
                             "nonce per seat)")
        for index, nonce in enumerate(self.nonces):
            _bytes32(nonce, f"the nonce of seat {index}")

    # ------------------------------------------------------------------- encoding

    def fields(self) -> tuple[Any, ...]:
        """Every field but the nonces, as an encodable array:
        ``(protocol, game, options, engine, sampler, seats[, timeouts[, deck]])`` (the deck
        algorithm only when the game deals private cards)."""
        head = (self.protocol, self.game, self.options, self.engine, self.sampler,
                tuple(seat.fields() for seat in self.seats))
        if self.protocol == 1:
            return head
        return (*head, self.timeouts, self.deck) if self.deck else (*head, self.timeouts)

    def value(self) -> tuple[Any, ...]:
        """The whole header as an encodable array: the fields, the nonces, then (v2, a game
        dealing private cards) the deck algorithm."""
        fields = self.fields()
        if self.deck:
            return (*fields[:-1], self.nonces, self.deck)
        return (*fields, self.nonces)

    def encode(self) -> bytes:
        return encoding.encode(self.value())

    @classmethod
    def from_value(cls, value: object) -> Header:
        """The header of a decoded array (see the module doc); BadMessage if it is not one.
        The protocol version is checked first, so a header of another version is refused
        with a clear reason whatever its layout."""
        if not isinstance(value, tuple) or not value:
            raise BadMessage("a header is a non-empty array")
        _refuse_version(value[0])
        expected = _HEADER_FIELDS[value[0]]
        deck: Any = ""
        if value[0] == 2 and len(value) == expected + 1:
            deck = value[-1]
            if not isinstance(deck, str) or not deck:
                raise BadMessage("a header's deck algorithm is a non-empty text")
            value = value[:-1]
        if len(value) != expected:
            also = f" ({expected + 1} with a deck algorithm)" if value[0] == 2 else ""
            raise BadMessage(f"a version {value[0]} header has {expected} fields{also}, not "
                             f"{len(value) + (deck != '')}")
        if value[0] == 1:
            protocol, game, options, engine, sampler, seats, nonces = value
            timeouts: Any = ()
        else:
            protocol, game, options, engine, sampler, seats, timeouts, nonces = value
        if not isinstance(options, tuple) or not isinstance(seats, tuple):
            raise BadMessage("a header's options and seats are arrays")
        for seat in seats:
            if not isinstance(seat, tuple) or len(seat) != 2:
                raise BadMessage("a seat is a [name, key] pair")
        return cls(game=game, options=options, protocol=protocol, engine=engine,
                   sampler=sampler, seats=tuple(Seat(name, key) for name, key in seats),
                   nonces=nonces, timeouts=timeouts, deck=deck)

    @classmethod
    def decode(cls, data: bytes) -> Header:
        """Decode and validate a header; BadMessage for anything else."""
        return cls.from_value(encoding.decode(data))

    # ------------------------------------------------------------------- identity

    @cached_property
    def match_id(self) -> bytes:
        """``H("cryptcrawl/match-id/v1", encode(fields()), nonce₀, …, nonceₙ₋₁)``."""
        return H(MATCH_ID_DOMAIN, encoding.encode(self.fields()), *self.nonces)


# --------------------------------------------------------------------------- signatures


def sign_header(private_key: Ed25519PrivateKey, header: Header) -> bytes:
    """A seat's 64-byte signature of the header: Ed25519 over ``cryptcrawl/header/v1`` and the
    match id (which covers every field and nonce)."""
    return sign(private_key, HEADER_DOMAIN, header.match_id)


def verify_header_signatures(header: Header, signatures: Sequence[bytes]) -> None:
    """Check one signature per seat, in seat order; BadMessage naming the first seat whose
    signature is missing or not valid."""
    if isinstance(signatures, bytes | str) or not isinstance(signatures, Sequence):
        raise BadMessage("the header signatures must be a sequence, one per seat")
    for index, seat in enumerate(header.seats):
        if index >= len(signatures):
            raise BadMessage(f"seat {index}, {seat}, has not signed the header")
        signature = signatures[index]
        if not isinstance(signature, bytes) or len(signature) != SIGNATURE_SIZE:
            raise BadMessage(f"the header signature of seat {index}, {seat}, is not a "
                             f"{SIGNATURE_SIZE}-byte signature")
        try:
            verify(seat.key, HEADER_DOMAIN, header.match_id, signature)
        except BadMessage:
            raise BadMessage(f"the header signature of seat {index}, {seat}, is not "
                             "valid") from None
    if len(signatures) > len(header.seats):
        raise BadMessage(f"{len(signatures)} header signatures for {len(header.seats)} seats")


@dataclass(frozen=True)
class SignedHeader:
    """A header with every seat's signature, checked on construction (BadMessage naming the
    seat whose signature is missing or bad)."""

    header: Header
    signatures: tuple[bytes, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.header, Header):
            raise BadMessage("a signed header holds a Header")
        if not isinstance(self.signatures, tuple):
            raise BadMessage("the header signatures must be a tuple")
        verify_header_signatures(self.header, self.signatures)

    @property
    def match_id(self) -> bytes:
        return self.header.match_id

    def encode(self) -> bytes:
        return encoding.encode((self.header.value(), self.signatures))

    @classmethod
    def decode(cls, data: bytes) -> SignedHeader:
        """Decode a signed header and check every signature; BadMessage for anything else."""
        value = encoding.decode(data)
        if not isinstance(value, tuple) or len(value) != 2:
            raise BadMessage("a signed header is a [header, signatures] pair")
        header = Header.from_value(value[0])
        return cls(header, value[1])
