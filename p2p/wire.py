"""Link frames: what two peers say to each other over one TCP connection.

A frame is a 4-byte big-endian length and that many bytes of canonical msgpack (the
protocol's encoding): an array whose first item is the frame kind.  Frames carry the lobby
(JOIN … START), the handshake (HELLO, PROOF), protocol messages (MSG, opaque bytes checked by
the protocol) and catch-up (WANT); and the checks of the addresses seats are dialled at
(``HOST:PORT`` as a person types it, ``[host, port]`` as a START frame carries it).  Everything
here is pure; the asyncio side is in :mod:`p2p.peer` and :mod:`p2p.lobby`.
"""

from __future__ import annotations

import enum
import hashlib
import ipaddress
import re
from dataclasses import dataclass
from typing import Any, Final

from protocol.wire.encoding import decode, encode

from protocol.errors import BadMessage

LINK_VERSION: Final = 2
"""2: PING, the link's keepalive (1 had none)."""
MAX_FRAME: Final = 70 * 1024
"""Largest frame, in bytes (a protocol message is at most 64 KiB, and a frame holds one
plus a few bytes of its own)."""
MAX_PORT: Final = 65535
HANDSHAKE_DOMAIN: Final = b"cryptcrawl/hello/v1\x00"
LOBBY_DOMAIN: Final = b"cryptcrawl/lobby/v1\x00"


class FrameKind(enum.IntEnum):
    HELLO = 1  # [link version, match id, seat, public key, challenge]
    PROOF = 2  # [signature over the peer's challenge]
    MSG = 3  # [protocol message bytes]
    WANT = 4  # [seat, from sequence number]
    BYE = 5  # [reason]
    PING = 6  # []: the link is alive (sent every third of the link silence; see network.md §4)
    JOIN = 10  # [protocol version, name, public key, nonce, mesh port, passphrase proof]
    SEATED = 11  # [seat, players, table name, opener fingerprint, timeouts [q, n, l, s]
    #              (, spectators a seat relays to: 0 for none)]
    REFUSE = 12  # [reason]
    HEADER = 13  # [header bytes]
    HEADER_SIG = 14  # [signature]
    START = 15  # [signed header bytes, [[host, port], ...]]
    LOBBY = 16  # [[name, fingerprint], ...]: who sits at the table so far
    WATCH = 17  # [link version, match id]: a spectator's answer to a seat's HELLO
    WATCHING = 18  # [signed header bytes]: the seat relays the match to the spectator


@dataclass(frozen=True)
class Frame:
    kind: FrameKind
    fields: tuple[Any, ...]

    def encode(self) -> bytes:
        payload = encode((int(self.kind), *self.fields))
        if len(payload) > MAX_FRAME:
            raise BadMessage(f"a frame of {len(payload)} bytes is over the {MAX_FRAME} cap")
        return len(payload).to_bytes(4, "big") + payload


_SHAPES: Final[dict[FrameKind, tuple[type, ...]]] = {
    FrameKind.HELLO: (int, bytes, int, bytes, bytes),
    FrameKind.PROOF: (bytes,),
    FrameKind.MSG: (bytes,),
    FrameKind.WANT: (int, int),
    FrameKind.BYE: (str,),
    FrameKind.PING: (),
    FrameKind.JOIN: (int, str, bytes, bytes, int, bytes),
    FrameKind.SEATED: (int, int, str, str, tuple),
    FrameKind.REFUSE: (str,),
    FrameKind.HEADER: (bytes,),
    FrameKind.HEADER_SIG: (bytes,),
    FrameKind.START: (bytes, tuple),
    FrameKind.LOBBY: (tuple,),
    FrameKind.WATCH: (int, bytes),
    FrameKind.WATCHING: (bytes,),
}

MAX_SPECTATORS: Final = 16
"""The most spectators one seat relays to, whatever a table says."""
_OPTIONAL_TAIL: Final[dict[FrameKind, tuple[type, ...]]] = {FrameKind.SEATED: (int,)}
"""Fields a frame may carry after its shape's (a table's spectator policy in SEATED)."""


def _msg_frame(payload: bytes) -> Frame | None:
    """The common frame, read without the general decoder: an MSG frame is the array
    ``[3, bin]``, canonically ``0x92 0x03`` then bin 8 (``0xc4``, a one-byte length) for up to
    255 bytes or bin 16 (``0xc5``, two bytes) above.  None for anything else (the general path
    then decides, and refuses what is not canonical)."""
    if len(payload) < 4 or payload[0] != 0x92 or payload[1] != 0x03:
        return None
    if payload[2] == 0xC4:
        start, size = 4, payload[3]
    elif payload[2] == 0xC5 and len(payload) >= 5:
        start, size = 5, int.from_bytes(payload[3:5], "big")
        if size < 256:
            return None
    else:
        return None
    if len(payload) - start != size:
        return None
    return Frame(FrameKind.MSG, (bytes(payload[start:]),))


def parse_frame(payload: bytes) -> Frame:
    """One frame's payload to a :class:`Frame`; BadMessage for anything malformed."""
    fast = _msg_frame(payload)
    if fast is not None:
        return fast
    value = decode(payload)
    if not isinstance(value, tuple) or not value:
        raise BadMessage("a frame is a non-empty array")
    kind_value, *fields = value
    if isinstance(kind_value, bool) or not isinstance(kind_value, int):
        raise BadMessage("a frame kind is an integer")
    try:
        kind = FrameKind(kind_value)
    except ValueError:
        raise BadMessage(f"unknown frame kind {kind_value}") from None
    shape = _SHAPES[kind]
    tail = _OPTIONAL_TAIL.get(kind, ())
    if tail and len(fields) == len(shape) + len(tail):
        shape = shape + tail
    if len(fields) != len(shape):
        raise BadMessage(f"a {kind.name} frame has {len(shape)} fields, not {len(fields)}")
    for i, (item, want) in enumerate(zip(fields, shape, strict=True)):
        if isinstance(item, bool) or not isinstance(item, want):
            raise BadMessage(f"{kind.name} field {i} must be {want.__name__}")
        if isinstance(item, int) and not 0 <= item < 2**32:
            raise BadMessage(f"{kind.name} field {i} is out of range")
    return Frame(kind, tuple(fields))


class FrameSplitter:
    """Cuts a byte stream into frame payloads: feed it whatever the socket gave, get back every
    frame now complete (a read may hold many, or part of one).  A length over
    :data:`MAX_FRAME` is :class:`BadMessage` (the stream cannot be trusted past it); at most
    one frame's bytes are ever kept."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[bytes]:
        buffer = self._buffer
        buffer += data
        payloads: list[bytes] = []
        start, end = 0, len(buffer)
        while end - start >= 4:
            size = int.from_bytes(buffer[start:start + 4], "big")
            if size > MAX_FRAME:
                raise BadMessage(f"a frame of {size} bytes is over the {MAX_FRAME}-byte cap")
            if end - start - 4 < size:
                break
            payloads.append(bytes(buffer[start + 4:start + 4 + size]))
            start += 4 + size
        del buffer[:start]
        return payloads

    @property
    def pending(self) -> int:
        """Bytes held of a frame not yet complete."""
        return len(self._buffer)


def handshake_payload(match_id: bytes, challenge: bytes, signer_key: bytes,
                      peer_key: bytes) -> bytes:
    """What a side signs to prove its key: the peer's fresh challenge, bound to the match
    (or table) id and both keys, so a proof can be replayed neither elsewhere nor back."""
    return HANDSHAKE_DOMAIN + hashlib.sha256(
        match_id + challenge + signer_key + peer_key).digest()


def passphrase_proof(passphrase: str, key: bytes, nonce: bytes) -> bytes:
    """A joiner's proof that it knows the table passphrase (never sent in the clear), bound
    to its identity key and fresh nonce (both in its JOIN, so a joiner that knows only
    ``HOST:PORT`` can make it, and an overheard proof admits no other key)."""
    if not passphrase:
        return b""
    return hashlib.pbkdf2_hmac("sha256", passphrase.encode(), LOBBY_DOMAIN + key + nonce,
                               50_000)


# --------------------------------------------------------------------------- versions

_OTHER_VERSION: Final = (
    # What a table of this program sends a joiner of another version (the table's version
    # first), and what a version 1 table sent.
    re.compile(r"this table plays protocol ([0-9]{1,4}); your program plays protocol"),
    re.compile(r"this table speaks protocol version ([0-9]{1,4}), not [0-9]{1,4}"),
)


def other_version(table: int, mine: int) -> str:
    """The one line that refuses a table of another protocol version, naming both."""
    return f"this table plays protocol {table}; this program plays protocol {mine}"


def refuse_version(table: int, joiner: int) -> str:
    """What a table of protocol ``table`` answers a JOIN of protocol ``joiner`` (REFUSE)."""
    return (f"this table plays protocol {table}; your program plays protocol {joiner} (a "
            "table and its players need cryptcrawl releases of the same protocol)")


def refused_version(reason: str) -> int | None:
    """The table's protocol version if a REFUSE ``reason`` refused this program's version
    (the form above, or a version 1 table's), else None."""
    for pattern in _OTHER_VERSION:
        found = pattern.match(reason)
        if found is not None:
            return int(found[1])
    return None


# --------------------------------------------------------------------------- addresses

_LABEL = r"[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?"
_HOSTNAME: Final = re.compile(rf"{_LABEL}(?:\.{_LABEL})*\.?")


def _shown(text: str, limit: int = 60) -> str:
    """``text`` cut short for a message."""
    return text if len(text) <= limit else text[:limit] + "..."


def valid_host(host: object) -> bool:
    """Is ``host`` something a seat may be dialled at: an IP address (IPv6 without brackets)
    or a DNS name (letters, digits, ``-`` and ``_`` in dot-separated labels)?"""
    if not isinstance(host, str) or not 0 < len(host) <= 253:
        return False
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return _HOSTNAME.fullmatch(host) is not None
    return True


def valid_port(port: object, *, any_port: bool = False) -> bool:
    """Is ``port`` a TCP port, 1 to 65535 (0 too with ``any_port``: "any free port")?"""
    low = 0 if any_port else 1
    return isinstance(port, int) and not isinstance(port, bool) and low <= port <= MAX_PORT


def parse_port(text: str, *, any_port: bool = False) -> int:
    """A port number from text; ValueError (one line, saying why) for anything else."""
    low = 0 if any_port else 1
    if re.fullmatch(r"-[0-9]+", text):
        raise ValueError(f"a port cannot be negative ({_shown(text)})")
    if not re.fullmatch(r"\+?[0-9]+", text):
        raise ValueError(f"{_shown(text)!r} is not a port number")
    digits = text.lstrip("+").lstrip("0") or "0"
    port = int(digits) if len(digits) <= 6 else MAX_PORT + 1
    if not low <= port <= MAX_PORT:
        raise ValueError(f"port {_shown(digits)} is out of range ({low} to {MAX_PORT})")
    return port


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` or ``[IPV6]:PORT`` to ``(host, port)`` (the host without brackets);
    ValueError, one line saying what is wrong, for anything else."""
    bad = f"{_shown(text)!r} is not a valid HOST:PORT"
    if text.startswith("["):
        host, closed, rest = text[1:].partition("]")
        if not closed:
            raise ValueError(f"{bad}: the ']' after the IPv6 address is missing")
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            ip = None
        if ip is None or ip.version != 6:
            raise ValueError(f"{bad}: {_shown(host)!r} in brackets is not an IPv6 address")
        if rest and not rest.startswith(":"):
            raise ValueError(f"{bad}: expected ':PORT' after the ']'")
        if not rest[1:]:
            raise ValueError(f"{bad}: the port is missing (write [{_shown(host)}]:PORT)")
        port_text = rest[1:]
    else:
        with_colons = text.count(":") > 1
        try:
            ipaddress.IPv6Address(text)
        except ValueError:
            pass
        else:
            raise ValueError(f"{bad}: an IPv6 address goes in brackets, with a port: "
                             f"[{_shown(text)}]:PORT")
        if with_colons:
            raise ValueError(f"{bad}: a host holds no ':' (an IPv6 address goes in "
                             "brackets: [ADDRESS]:PORT)")
        host, colon, port_text = text.rpartition(":")
        if not colon:
            raise ValueError(f"{bad}: the port is missing")
        if not host:
            raise ValueError(f"{bad}: the host is missing")
        if not valid_host(host):
            raise ValueError(f"{bad}: {_shown(host)!r} is not a host name or IP address")
    try:
        port = parse_port(port_text)
    except ValueError as exc:
        raise ValueError(f"{bad}: {exc}") from None
    return host, port
