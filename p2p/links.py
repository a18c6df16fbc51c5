"""Links of the match mesh: reading frames off a TCP stream, one authenticated connection to
another seat, and the listening socket."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from dataclasses import dataclass, field

from p2p.wire import MAX_FRAME, Frame, parse_frame


class LinkClosed(Exception):
    pass


class NotAFrame(LinkClosed):
    """The stream ended inside a frame, or a length no frame has came in: the other end does
    not speak cryptcrawl's framing (the link is over all the same)."""


async def read_frame(reader: asyncio.StreamReader) -> Frame:
    """The next frame; LinkClosed at the end of the stream (NotAFrame when what came was no
    frame), BadMessage for a bad one."""
    try:
        head = await reader.readexactly(4)
    except asyncio.IncompleteReadError as exc:
        raise (NotAFrame if exc.partial else LinkClosed)(str(exc)) from None
    except ConnectionError as exc:
        raise LinkClosed(str(exc)) from None
    size = int.from_bytes(head, "big")
    if size > MAX_FRAME:
        raise NotAFrame(f"a frame of {size} bytes is over the {MAX_FRAME}-byte cap")
    try:
        payload = await reader.readexactly(size)
    except asyncio.IncompleteReadError as exc:
        raise NotAFrame(str(exc)) from None
    except ConnectionError as exc:
        raise LinkClosed(str(exc)) from None
    return parse_frame(payload)


@dataclass
class Link:
    """One authenticated connection to another seat."""

    seat: int
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    heard: float = 0.0  # time.monotonic() of the last bytes read
    bad: int = 0
    reasons: set[str] = field(default_factory=set)
    asked: dict[int, tuple[int, float]] = field(default_factory=dict)  # seat: (gap, when)

    def send(self, frame: Frame) -> None:
        self.send_encoded(frame.encode())

    def send_encoded(self, data: bytes) -> None:
        if not self.writer.is_closing():
            self.writer.write(data)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.writer.close()


def set_nodelay(writer: asyncio.StreamWriter) -> None:
    """Small frames go out at once (no Nagle delay).  asyncio does this for the sockets it
    makes, but not for connections accepted on a socket made by hand (proto 0)."""
    sock = writer.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def listen_socket(port: int = 0, host: str = "") -> socket.socket:
    """A listening TCP socket for the match mesh (bound before the lobby, so its port can be
    told to the other seats)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(16)
    sock.setblocking(False)
    return sock
