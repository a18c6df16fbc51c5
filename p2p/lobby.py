"""The lobby: the opener gathers seats, every seat signs the header, play starts.

The opener listens on a TCP port (advertised on the LAN by :mod:`p2p.discovery`, or given as
``HOST:PORT``).  A joiner sends JOIN (protocol version, name, identity key, a fresh nonce, the
port of its own match listener, and a passphrase proof if the table has one).  The opener
refuses another protocol version or a wrong passphrase with a reason, asks ``approve`` (a
person, or yes for bots and tests), and answers SEATED (with the table's timeouts, its speed).
When every seat is taken it sends the header (game, options, versions, every seat's name and
key, the timeouts, every seat's nonce — so the match id is chosen by nobody) to every joiner,
which checks its own entry, the protocol version and the timeouts it was told of, and signs it;
the opener collects every signature and sends START (the signed header and every seat's
address).  From then on the opener is an ordinary seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from protocol.match.core import game_state_for
from protocol.match.game import deck_algorithm
from protocol.wire import encoding
from protocol.wire.header import (
    DEFAULT_TIMEOUTS,
    MAX_NAME,
    MAX_SEATS,
    PROTOCOL_VERSION,
    Header,
    Seat,
    SignedHeader,
    check_timeouts,
    sign_header,
    verify_header_signatures,
)

from engine.games import get_game
from p2p.links import LinkClosed, NotAFrame, read_frame
from p2p.speeds import TableTimeouts, checked
from p2p.wire import (
    MAX_SPECTATORS,
    Frame,
    FrameKind,
    other_version,
    passphrase_proof,
    refuse_version,
    refused_version,
    valid_host,
    valid_port,
)
from protocol.crypto import fingerprint, public_key_bytes
from protocol.errors import BadMessage

log = logging.getLogger("cryptcrawl.p2p")

LOBBY_TIMEOUT = 120.0
# What a table sends a joiner, each at most once: SEATED, then HEADER, then START (or REFUSE);
# between SEATED and HEADER, a LOBBY each time a seat is taken (fewer than the seats).
LOBBY_REPLIES = frozenset({FrameKind.SEATED, FrameKind.HEADER, FrameKind.START,
                           FrameKind.REFUSE})


class LobbyError(Exception):
    """The lobby failed (refused, closed, timed out); the message says why, in one line."""


class OtherVersion(LobbyError):
    """The table plays another protocol version than this program: "this table plays
    protocol 1; this program plays protocol 2"."""

    def __init__(self, table: int, mine: int = PROTOCOL_VERSION) -> None:
        super().__init__(other_version(table, mine))
        self.table = table
        self.mine = mine


@dataclass(frozen=True)
class Joiner:
    name: str
    key: bytes
    nonce: bytes
    host: str
    port: int

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.key)


@dataclass(frozen=True)
class Seated:
    """What a lobby ends with: everything a :class:`~p2p.peer.MatchPeer` needs."""

    header: SignedHeader
    seat: int
    addresses: list[tuple[str, int]]
    spectators: int = 4  # the table's: how many spectators each seat relays to (0: none)


Approve = Callable[[Joiner], Awaitable[bool]]


async def _always(joiner: Joiner) -> bool:
    return True


@dataclass
class Table:
    """The opener's side of a lobby."""

    key: Ed25519PrivateKey
    name: str
    players: int
    mesh_port: int
    game: str
    options: dict[str, Any] = field(default_factory=dict)
    table_name: str = "cryptcrawl table"
    passphrase: str = ""
    approve: Approve = _always
    on_change: Callable[[list[Joiner]], None] | None = None
    on_left: Callable[[Joiner], None] | None = None  # a joiner left before it was answered
    table_id: bytes = field(default_factory=lambda: os.urandom(16))
    # (quick, normal, long, silence) whole seconds: the table's speed, signed into the header.
    timeouts: TableTimeouts = DEFAULT_TIMEOUTS
    # A JOIN of another protocol version was refused: (the joiner's address, its version).
    on_other_version: Callable[[str, int], None] | None = None
    spectators: int = 4  # how many spectators each seat relays the match to (0: none)

    def __post_init__(self) -> None:
        try:
            self.timeouts = checked(self.timeouts)
        except ValueError as exc:
            raise LobbyError(f"cannot open a table with these timeouts: {exc}") from None
        self.nonce = os.urandom(32)
        self.seated: list[tuple[Joiner, asyncio.StreamReader, asyncio.StreamWriter]] = []
        self.full = asyncio.Event()
        self.server: asyncio.Server | None = None

    @property
    def taken(self) -> int:
        return 1 + len(self.seated)

    async def open(self, host: str = "127.0.0.1", port: int = 0) -> int:
        if not valid_port(port, any_port=True):
            raise LobbyError(f"cannot open a table on port {port}: a TCP port is 0 (any) to "
                             "65535")
        self.server = await asyncio.start_server(self._join, host, port)
        return int(self.server.sockets[0].getsockname()[1])

    def _header(self) -> Header:
        me = public_key_bytes(self.key)
        names = [self.name] + [j.name for j, _, _ in self.seated]
        keys = [me] + [j.key for j, _, _ in self.seated]
        nonces = [self.nonce] + [j.nonce for j, _, _ in self.seated]
        options = {"players": self.players, **self.options}
        return Header(game=self.game, options=tuple(sorted(options.items())),
                      protocol=PROTOCOL_VERSION, engine=get_game(self.game).engine_version,
                      sampler="sha256-ctr/v1",
                      seats=tuple(Seat(n, k) for n, k in zip(names, keys, strict=True)),
                      nonces=tuple(nonces), timeouts=self.timeouts,
                      deck=deck_algorithm(self.game))

    async def _join(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername")
        address = str(peer[0]) if peer else ""
        try:
            async with asyncio.timeout(30):
                frame = await read_frame(reader)
            if frame.kind is not FrameKind.JOIN:
                raise BadMessage("expected JOIN")
            version, name, key, nonce, port, proof = frame.fields
            if version != PROTOCOL_VERSION:
                log.info("refused a joiner from %s: its program plays protocol %s", address,
                         version)
                if self.on_other_version is not None:
                    self.on_other_version(address, int(version))
                raise LobbyError(refuse_version(PROTOCOL_VERSION, version))
            if len(key) != 32 or len(nonce) != 32 or not valid_port(port):
                raise BadMessage("a malformed JOIN")
            if not 1 <= len(name) <= MAX_NAME or not name.isprintable():
                # (Shown to the opener and signed into the header: the header refuses the
                # same names.  Before, escape codes reached the opener's terminal, and the
                # header then failed in gather(), ending the table.)
                raise LobbyError(f"a name must be 1 to {MAX_NAME} printable characters (no "
                                 "control or formatting characters)")
            if proof != passphrase_proof(self.passphrase, key, nonce):
                raise LobbyError("wrong table passphrase")
            if key == public_key_bytes(self.key) or any(j.key == key for j, _, _ in self.seated):
                raise LobbyError("that key already has a seat at this table")
            if self.taken >= self.players:
                raise LobbyError("the table is full")
            joiner = Joiner(name, key, nonce, address, int(port))
            if not await self._approved(joiner, reader):
                raise LobbyError("the opener did not let you sit down")
            if self.taken >= self.players:
                raise LobbyError("the table is full")
            self.seated.append((joiner, reader, writer))
            writer.write(Frame(FrameKind.SEATED, (len(self.seated), self.players,
                                                  self.table_name,
                                                  fingerprint(public_key_bytes(self.key)),
                                                  self.timeouts, self.spectators)).encode())
            if self.on_change is not None:
                self.on_change([j for j, _, _ in self.seated])
            self._show_seats()
            if self.taken == self.players:
                self.full.set()
        except LobbyError as exc:
            writer.write(Frame(FrameKind.REFUSE, (str(exc),)).encode())
            with contextlib.suppress(Exception):
                await writer.drain()
            writer.close()
        except (BadMessage, LinkClosed, TimeoutError, OSError, ValueError):
            writer.close()

    async def _approved(self, joiner: Joiner, reader: asyncio.StreamReader) -> bool:
        """Ask ``approve``, watching the joiner's connection meanwhile: a joiner that leaves
        (or sends anything: nothing is due from it before SEATED) before the answer frees
        its place at once — the question is withdrawn (``on_left``) and the table goes on."""
        asking = asyncio.ensure_future(self.approve(joiner))
        gone = asyncio.ensure_future(reader.read(1))
        try:
            await asyncio.wait({asking, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (asking, gone):
                if not task.done():
                    task.cancel()
        if not asking.done() or asking.cancelled():
            with contextlib.suppress(BaseException):
                await asking
            if self.on_left is not None:
                self.on_left(joiner)
            raise LinkClosed("the joiner left before the answer")
        with contextlib.suppress(BaseException):
            await gone
        if gone.done() and not gone.cancelled():
            if self.on_left is not None:
                self.on_left(joiner)
            raise LinkClosed("the joiner left before the answer")
        return bool(asking.result())

    def _show_seats(self) -> None:
        """Tell every joiner seated so far who sits at the table (LOBBY), seat by seat."""
        sitting = [(self.name, fingerprint(public_key_bytes(self.key)))]
        sitting += [(j.name, fingerprint(j.key)) for j, _, _ in self.seated]
        frame = Frame(FrameKind.LOBBY, (tuple(sitting),)).encode()
        for _, _, writer in self.seated:
            if not writer.is_closing():
                writer.write(frame)

    async def gather(self, timeout: float = LOBBY_TIMEOUT) -> Seated:
        """Wait for every seat, then have the header signed by all; returns the opener's
        :class:`Seated` (seat 0).  The joiners get theirs in START."""
        try:
            async with asyncio.timeout(timeout):
                await self.full.wait()
        except TimeoutError:
            raise LobbyError(f"the table did not fill within {timeout:.0f} s") from None
        if self.server is not None:
            self.server.close()
        try:
            header = self._header()
            game_state_for(header)
        except BadMessage as exc:
            raise LobbyError(f"cannot make the match header: {exc}") from None
        body = Frame(FrameKind.HEADER, (header.encode(),))
        for _, _, writer in self.seated:
            writer.write(body.encode())
        signatures = [sign_header(self.key, header)]
        for joiner, reader, _ in self.seated:
            try:
                async with asyncio.timeout(30):
                    frame = await read_frame(reader)
            except (LinkClosed, TimeoutError, BadMessage):
                raise LobbyError(f"{joiner.name} left the table before signing the match "
                                 "header; open the table again") from None
            if frame.kind is not FrameKind.HEADER_SIG:
                raise LobbyError(f"{joiner.name} did not sign the header")
            signatures.append(frame.fields[0])
        try:
            verify_header_signatures(header, signatures)
        except BadMessage as exc:
            raise LobbyError(f"a bad header signature: {exc}") from None
        signed = SignedHeader(header, tuple(signatures))
        addresses: list[tuple[str, int]] = [("", self.mesh_port)]
        # A seat that reached the lobby over loopback (a bot on the opener's machine) is at the
        # opener's address for everyone: "" tells each joiner to use the address it reached
        # the table at.
        addresses += [("" if _loopback(j.host) else j.host, j.port) for j, _, _ in self.seated]
        start = Frame(FrameKind.START, (signed.encode(), tuple(tuple(a) for a in addresses)))
        for _, _, writer in self.seated:
            writer.write(start.encode())
            with contextlib.suppress(Exception):
                await writer.drain()
            writer.close()
        return Seated(signed, 0, [(h if h else "127.0.0.1", p) for h, p in addresses],
                      self.spectators)


def os_reason(exc: BaseException) -> str:
    """Why a connection failed, in words ("Connection refused"), without Python's errno
    prefix ("[Errno 111] Connect call failed ...")."""
    if isinstance(exc, TimeoutError):
        return "no answer in time"
    if isinstance(exc, OSError) and exc.errno:
        return os.strerror(exc.errno)  # (asyncio's strerror is "Connect call failed (...)")
    text = re.sub(r"\[Errno -?[0-9]+\] ", "", str(exc))
    return text or type(exc).__name__


def _loopback(host: str) -> bool:
    return host.startswith("127.") or host in ("::1", "localhost", "")


NOT_A_TABLE = "it answered with something else"


async def _first_reply(reader: asyncio.StreamReader, where: str) -> Frame:
    """The table's first frame (SEATED or REFUSE).  Bytes that are no such frame mean the
    port is some other service (a web server, say): LobbyError, "not a cryptcrawl table"."""
    try:
        frame = await read_frame(reader)
    except (NotAFrame, BadMessage):
        frame = None
    if frame is None or frame.kind not in (FrameKind.SEATED, FrameKind.REFUSE):
        raise LobbyError(f"not a cryptcrawl table at {where} ({NOT_A_TABLE})")
    return frame


_OUT_OF_PLACE = "the table sent a frame out of place ({}); not a table to play at"


def _header_of(data: bytes) -> Header:
    """The header a table asks this seat to sign: BadMessage if malformed, OtherVersion if
    it is of another protocol version (even one this program reads: a lobby plays its
    own)."""
    try:
        header = Header.decode(data)
    except BadMessage:
        version = _version_of(data)
        if version is not None and version != PROTOCOL_VERSION:
            raise OtherVersion(version) from None
        raise
    if header.protocol != PROTOCOL_VERSION:
        raise OtherVersion(header.protocol)
    return header


def _version_of(data: bytes) -> int | None:
    """The protocol version a header of any layout names first, if it can be read."""
    try:
        value = encoding.decode(data)
    except BadMessage:
        return None
    if isinstance(value, tuple) and value and isinstance(value[0], int) and not isinstance(
            value[0], bool) and 0 <= value[0] < 10_000:
        return int(value[0])
    return None


def lobby_seats(value: Any, players: int) -> list[tuple[str, str]]:
    """Who sits at the table, from a LOBBY frame: 2 to ``players`` ``[name, fingerprint]``
    pairs of strings, each made fit for one line.  BadMessage saying what is wrong."""
    if not isinstance(value, tuple | list) or not 2 <= len(value) <= players:
        raise BadMessage("the list of who sits at the table is not one of 2 to "
                         f"{players} seats")
    sitting: list[tuple[str, str]] = []
    for entry in value:
        if (not isinstance(entry, tuple | list) or len(entry) != 2
                or not all(isinstance(x, str) for x in entry)):
            raise BadMessage("a seat in the list of who sits at the table is not a "
                             "[name, fingerprint] pair")
        sitting.append((_one_line(entry[0], 32), _one_line(entry[1], 40)))
    return sitting


def _one_line(text: str, limit: int = 200) -> str:
    """Text another machine sent, fit for a one-line message: no control characters."""
    flat = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    return flat if len(flat) <= limit else flat[:limit] + "..."


def start_addresses(value: Any, seats: int, reached: str) -> list[tuple[str, int]]:
    """The seats' addresses a START frame carries, checked: exactly one ``[host, port]`` per
    seat, the host a host name or IP address (or "" for the address the table was reached
    at, ``reached``), the port 1 to 65535.  BadMessage saying what is wrong."""
    if not isinstance(value, tuple | list):
        raise BadMessage("the seats' addresses are not a list")
    if len(value) != seats:
        raise BadMessage(f"{len(value)} addresses for {seats} seats")
    addresses: list[tuple[str, int]] = []
    for index, entry in enumerate(value):
        if not isinstance(entry, tuple | list) or len(entry) != 2:
            raise BadMessage(f"the address of seat {index} is not a [host, port] pair")
        host, port = entry
        if not isinstance(host, str) or (host and not valid_host(host)):
            raise BadMessage(f"the address of seat {index} has no valid host")
        if not valid_port(port):
            shown = port if isinstance(port, int) and not isinstance(port, bool) else "-"
            raise BadMessage(f"the address of seat {index} has no valid port ({shown})")
        addresses.append((host or reached, port))
    return addresses


OnSeated = Callable[[int, int, str, str, TableTimeouts], None]
"""``on_seated(seat, players, table name, opener fingerprint, timeouts)``."""


async def join_table(key: Ed25519PrivateKey, name: str, host: str, port: int, mesh_port: int,
                     *, passphrase: str = "",
                     on_seated: OnSeated | None = None,
                     on_lobby: Callable[[list[tuple[str, str]]], None] | None = None,
                     timeout: float = LOBBY_TIMEOUT) -> Seated:
    """Sit down at the table at ``host:port``; returns once play starts.  ``on_seated(seat,
    players, table name, opener fingerprint, timeouts)`` once seated (the timeouts are the
    table's speed, which the header must then carry); ``on_lobby([(name, fingerprint),
    ...])`` each time the table says who sits there so far.  LobbyError (one line) for
    anything that keeps the seat from playing, a table that breaks the lobby included;
    :class:`OtherVersion` for a table of another protocol version."""
    if not valid_host(host) or not valid_port(port):
        raise LobbyError(f"{_one_line(host, 60)!r} port {port} is not an address to join at "
                         "(a host name or IP address, and a port from 1 to 65535)")
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        async with asyncio.timeout(10):
            reader, writer = await asyncio.open_connection(host, port)
    except (OSError, TimeoutError) as exc:
        raise LobbyError(f"cannot reach a table at {where}: {os_reason(exc)}") from None
    nonce = os.urandom(32)
    me = public_key_bytes(key)
    writer.write(Frame(FrameKind.JOIN, (PROTOCOL_VERSION, name, me, nonce, mesh_port,
                                        passphrase_proof(passphrase, me, nonce))).encode())
    try:
        seat = -1
        timeouts: TableTimeouts = DEFAULT_TIMEOUTS  # (SEATED says which)
        spectators = 4  # (SEATED may say otherwise)
        signed_for: Header | None = None  # the header this seat signed
        seen: set[FrameKind] = set()
        players = 0
        lobbies = 0
        while True:
            try:
                # (asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a
                # cancellation that lands as the frame comes in — a bot of a table being shut
                # down by Ctrl-C then waited for good.)
                async with asyncio.timeout(timeout):
                    frame = await (read_frame(reader) if seat >= 0
                                   else _first_reply(reader, where))
            except TimeoutError:
                raise LobbyError("the table did not start in time") from None
            except LinkClosed:
                raise LobbyError("the table closed the connection") from None
            # A table sends SEATED, HEADER and START once each, and fewer LOBBY frames than
            # there are seats, so a joiner waits at most a bounded number of timeouts: a table
            # that keeps sending frames cannot hold it for good.
            if frame.kind is FrameKind.LOBBY:
                lobbies += 1
                if seat < 0 or signed_for is not None or lobbies >= players:
                    raise LobbyError(_OUT_OF_PLACE.format(frame.kind.name))
                if on_lobby is not None:
                    on_lobby(lobby_seats(frame.fields[0], players))
                continue
            if frame.kind in seen or frame.kind not in LOBBY_REPLIES:
                raise LobbyError(_OUT_OF_PLACE.format(frame.kind.name))
            seen.add(frame.kind)
            if frame.kind is FrameKind.REFUSE:
                version = refused_version(frame.fields[0])
                if version is not None and version != PROTOCOL_VERSION:
                    raise OtherVersion(version)
                raise LobbyError(f"the table refused: {_one_line(frame.fields[0])}")
            if frame.kind is FrameKind.SEATED:
                if not 0 < frame.fields[0] < frame.fields[1] <= MAX_SEATS:
                    raise BadMessage(f"seat {frame.fields[0]} of {frame.fields[1]}")
                seat, players = int(frame.fields[0]), int(frame.fields[1])
                timeouts = check_timeouts(frame.fields[4])
                if len(frame.fields) > 5:
                    spectators = min(int(frame.fields[5]), MAX_SPECTATORS)
                if on_seated is not None:
                    on_seated(seat, players, _one_line(frame.fields[2], 64),
                              _one_line(frame.fields[3], 40), timeouts)
            elif frame.kind is FrameKind.HEADER:
                header = _header_of(frame.fields[0])
                mine = header.seats[seat] if 0 <= seat < len(header.seats) else None
                if mine is None or mine.key != me or header.nonces[seat] != nonce:
                    raise LobbyError("the header does not hold this seat as agreed")
                if header.timeouts != timeouts:
                    raise LobbyError(f"the header's timeouts {header.timeouts} are not the "
                                     f"table's {timeouts}, which this seat sat down to")
                game_state_for(header)
                signed_for = header
                writer.write(Frame(FrameKind.HEADER_SIG, (sign_header(key, header),)).encode())
            elif frame.kind is FrameKind.START:
                try:
                    if signed_for is None:
                        raise BadMessage("it came before the header to sign")
                    signed = SignedHeader.decode(frame.fields[0])
                    if signed.match_id != signed_for.match_id:
                        raise BadMessage("it starts another header than the one signed")
                    addresses = start_addresses(frame.fields[1], len(signed.header.seats),
                                                host)
                except BadMessage as exc:
                    raise LobbyError(f"the table sent a malformed start: {exc}") from None
                return Seated(signed, seat, addresses, spectators)
    except BadMessage as exc:
        raise LobbyError(f"the table sent something malformed: {exc}") from None
    finally:
        writer.close()
