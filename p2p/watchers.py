"""Spectators (network.md §17): a seat's peer relays its match, one decision step late, to people
who watch it read-only; a spectator checks everything it is sent, as a verifier does.

**On the wire.** A spectator connects to a seat's mesh port.  The peer sends its HELLO, as to any
seat; the spectator answers ``WATCH [link version, match id]`` in place of a HELLO.  The peer
answers ``WATCHING [signed header]`` — or ``REFUSE [reason]`` (the table takes no spectators, or
this seat already relays to as many as it serves) — then ``MSG`` frames: the messages of every
feed that its core had taken when the decision step *before* the current one began (one step
late: a spectator never sees a move while it could still coach it), every message once the
result is signed, then ``BYE``.  A spectator sends nothing more; it may close at any time.

**What a spectator sees** is the match file, as it grows: signed messages every seat receives
anyway.  No private knowledge travels in them — a private-knowledge round's secrets are sealed to
the seat it serves, a dealt card is masked, a sealed value is a commitment — so a spectator learns
nothing the table's file will not show (the leak test of tests/p2p/test_watchers.py checks the
bytes it receives).

:class:`Watchers` is the peer's side (it holds no reference to the peer: the peer calls
:meth:`Watchers.update` after its core moves); :func:`watch` is the spectator's."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from protocol.match.core import MatchCore
from protocol.match.events import Event
from protocol.match.table import SIMULTANEOUS, TURN
from protocol.wire.feed import Feed
from protocol.wire.header import SignedHeader
from protocol.wire.messages import Message

from p2p.links import LinkClosed, read_frame, set_nodelay
from p2p.wire import LINK_VERSION, Frame, FrameKind
from protocol.errors import BadMessage

log = logging.getLogger(__name__)

MAX_BUFFERED = 4 * 1024 * 1024
"""A spectator that lets this much pile up unread is dropped (it must not slow the seat)."""
WATCH_TIMEOUT = 10.0


class WatchRefused(Exception):
    """The seat does not relay to this spectator (the reason, in one line)."""


@dataclass
class _Watcher:
    writer: asyncio.StreamWriter
    sent: list[int]  # messages of each feed sent so far
    address: str = ""

    def push(self, feeds: Sequence[Feed], upto: Sequence[int]) -> bool:
        """Send what is due, in one write; False if the spectator must be dropped (it reads
        too slowly)."""
        frames: list[bytes] = []
        for seat, feed in enumerate(feeds):
            messages = feed.messages
            frames += [Frame(FrameKind.MSG, (m.encode(),)).encode()
                       for m in messages[self.sent[seat]:upto[seat]]]
            self.sent[seat] = max(self.sent[seat], min(upto[seat], len(messages)))
        if frames:
            self.writer.write(b"".join(frames))
        transport = self.writer.transport
        return transport is None or transport.get_write_buffer_size() <= MAX_BUFFERED


@dataclass
class Watchers:
    """The spectators one seat's peer relays to (at most ``limit``; 0: none)."""

    header: SignedHeader
    limit: int
    # Decision steps of delay: 1 (what was taken when the step before the current one began).
    # 0 relays everything as it is taken — live, what only a test's planted leak does.
    delay: int = 1
    watchers: list[_Watcher] = field(default_factory=list)
    _where: str | None = None
    _marks: list[tuple[int, ...]] = field(default_factory=list)  # cursors at the latest steps
    upto: tuple[int, ...] = ()  # what is due to every spectator now, per feed
    _feeds: Sequence[Feed] = ()
    # Told when a spectator starts (True) or stops watching, with its address and how many
    # watch now: the client shows its player who is watching.
    on_change: Callable[[str, bool, int], None] | None = None

    def update(self, core: MatchCore) -> None:
        """The core moved: when a new decision step begins, what was taken when the step before
        it began is due; once the result is signed, everything."""
        self._feeds = core.feeds
        if core.signed:
            upto = tuple(len(f.messages) for f in core.feeds)
        elif self.delay == 0:
            upto = tuple(core.cursor)
        else:
            where = core.where() if core.phase() in (TURN, SIMULTANEOUS) else None
            if where is not None and where != self._where:
                self._where = where
                self._marks = [*self._marks[-self.delay:], tuple(core.cursor)]
            if len(self._marks) < self.delay + 1:
                return
            upto = self._marks[0]
        if self.upto:  # (never back: a rebuilt core takes the same messages again)
            upto = tuple(max(a, b) for a, b in zip(self.upto, upto, strict=True))
        if upto == self.upto:
            return
        self.upto = upto
        for watcher in list(self.watchers):
            if not watcher.push(self._feeds, upto):
                log.info("dropped a spectator: it reads too slowly")
                self._drop(watcher)

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                    watch: Frame) -> None:
        """A connection that answered WATCH: relay to it until it closes or :meth:`close`."""
        version, match_id = watch.fields
        reason = ""
        if version != LINK_VERSION or match_id != self.header.match_id:
            reason = "this is another match (or link version)"
        elif self.limit <= 0:
            reason = "this table takes no spectators"
        elif len(self.watchers) >= self.limit:
            reason = f"this seat already relays the match to {self.limit} spectators"
        if reason:
            writer.write(Frame(FrameKind.REFUSE, (reason,)).encode())
            with contextlib.suppress(ConnectionError):
                await writer.drain()
            writer.close()
            return
        writer.write(Frame(FrameKind.WATCHING, (self.header.encode(),)).encode())
        peer = writer.get_extra_info("peername")
        watcher = _Watcher(writer, [0] * len(self.header.header.seats),
                           str(peer[0]) if peer else "")
        self.watchers.append(watcher)
        if self.on_change is not None:
            self.on_change(watcher.address, True, len(self.watchers))
        if self.upto:
            watcher.push(self._feeds, self.upto)
        try:
            while await reader.read(4096):
                pass  # (a spectator sends nothing more: whatever it sends is ignored)
        except ConnectionError:
            pass
        finally:
            self._drop(watcher)

    def _drop(self, watcher: _Watcher) -> None:
        if watcher in self.watchers:
            self.watchers.remove(watcher)
            if self.on_change is not None:
                self.on_change(watcher.address, False, len(self.watchers))
        watcher.writer.close()

    def close(self, reason: str) -> None:
        """The match is over for this peer: everything due is sent, then BYE."""
        self.on_change = None  # (the match is over: nobody to tell)
        for watcher in list(self.watchers):
            if self._feeds:
                watcher.push(self._feeds, tuple(len(f.messages) for f in self._feeds))
            watcher.writer.write(Frame(FrameKind.BYE, (reason,)).encode())
            self._drop(watcher)


async def watch(host: str, port: int, *, on_start: Callable[[MatchCore], None],
                on_events: Callable[[list[Event]], None],
                on_problem: Callable[[str], None]) -> MatchCore:
    """Watch the match relayed by the seat at ``host:port``: every message is checked by a
    match core of this spectator's own (``on_events`` gets what each caused; a message that
    does not even read is ``on_problem``'s, and dropped).  Returns the core when the seat
    says BYE or closes.  :class:`WatchRefused`, ``OSError`` or :class:`BadMessage` (one line
    each) if the watch cannot start."""
    reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), WATCH_TIMEOUT)
    set_nodelay(writer)
    try:
        core = await asyncio.wait_for(_start(reader, writer), WATCH_TIMEOUT)
        on_start(core)
        while not core.signed:
            try:
                frame = await read_frame(reader)
            except (LinkClosed, ConnectionError):
                break
            if frame.kind is FrameKind.BYE:
                break
            if frame.kind is not FrameKind.MSG:
                continue
            try:
                message = Message.decode(frame.fields[0], core.version)
            except BadMessage as exc:
                on_problem(f"a message that does not read: {exc}")
                continue
            on_events(core.receive(message))
        return core
    finally:
        writer.close()


async def _start(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> MatchCore:
    hello = await read_frame(reader)
    if hello.kind is not FrameKind.HELLO:
        raise BadMessage("that address is not a seat of a match (no HELLO)")
    _version, match_id, _seat, _key, _challenge = hello.fields
    writer.write(Frame(FrameKind.WATCH, (LINK_VERSION, match_id)).encode())
    answer = await read_frame(reader)
    if answer.kind is FrameKind.REFUSE:
        raise WatchRefused(str(answer.fields[0]))
    if answer.kind is not FrameKind.WATCHING:
        raise BadMessage(f"the seat answered {answer.kind.name}, not WATCHING")
    header = SignedHeader.decode(answer.fields[0])  # (every seat's signature checked)
    if header.match_id != match_id:
        raise BadMessage("the seat relays another match than its HELLO names")
    return MatchCore(header)


class Relay:
    """A spectator that relays what it was sent, as it takes it, to spectators of its own (it is
    a step behind the table already): spectators relay to each other, and a seat serves few."""

    def __init__(self, header: SignedHeader, limit: int) -> None:
        self.watchers = Watchers(header, limit, delay=0)
        self.server: asyncio.Server | None = None

    async def open(self, host: str, port: int) -> int:
        self.server = await asyncio.start_server(self._accept, host, port)
        return int(self.server.sockets[0].getsockname()[1])

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        # (A HELLO as a seat's: a spectator reads only its match id; this is no seat.)
        writer.write(Frame(FrameKind.HELLO, (LINK_VERSION, self.watchers.header.match_id, 0,
                                             bytes(32), bytes(32))).encode())
        try:
            frame = await asyncio.wait_for(read_frame(reader), WATCH_TIMEOUT)
        except (LinkClosed, ConnectionError, TimeoutError, BadMessage):
            writer.close()
            return
        if frame.kind is not FrameKind.WATCH:
            writer.close()
            return
        await self.watchers.serve(reader, writer, frame)

    def update(self, core: MatchCore) -> None:
        self.watchers.update(core)

    def close(self) -> None:
        self.watchers.close("the match is over")
        if self.server is not None:
            self.server.close()
