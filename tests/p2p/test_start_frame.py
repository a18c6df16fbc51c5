"""A hostile or broken table against a joiner: whatever START (the frame that carries every
seat's address) or first reply it sends, the joiner ends with one clear line — never a
traceback, never a hang.  Loopback only; every server and process is closed at the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from protocol.wire.header import (
    DEFAULT_TIMEOUTS,
    PROTOCOL_VERSION,
    Header,
    Seat,
    SignedHeader,
    sign_header,
)

from engine.games import get_game
from p2p.lobby import LobbyError, Seated, Table, join_table, start_addresses
from p2p.peer import read_frame
from p2p.wire import Frame, FrameKind, parse_address, valid_host
from protocol.crypto import public_key_bytes
from protocol.errors import BadMessage
from tests.p2p.conftest import LOOPBACK, REPO, read_until_closed

BOUND = 30.0  # no wait in this file is longer

Addresses = Any  # what the fake table puts in START: anything at all
Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


@contextlib.asynccontextmanager
async def serving(handler: Handler) -> AsyncIterator[int]:
    """A TCP server on loopback running ``handler`` per connection; yields its port, and
    closes the server and every connection it still holds at the end."""
    writers: list[asyncio.StreamWriter] = []
    tasks: set[asyncio.Task[Any]] = set()

    async def guarded(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writers.append(writer)
        task = asyncio.current_task()
        if task is not None:
            tasks.add(task)
        try:
            await asyncio.wait_for(handler(reader, writer), BOUND)
        except (ConnectionError, TimeoutError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(guarded, LOOPBACK, 0)
    try:
        yield int(server.sockets[0].getsockname()[1])
    finally:
        server.close()
        for writer in writers:
            writer.close()
        for task in list(tasks):
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.wait_for(server.wait_closed(), 10)


def fake_table(addresses: Addresses, *, header_first: bool = True,
               other_header: bool = False) -> Handler:
    """A table that plays the lobby by the book for a 3-seat match (it holds the keys of
    seats 0 and 2 itself) up to START, which carries ``addresses`` — whatever they are."""
    opener, third = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()

    def header_for(name: str, key: bytes, nonce: bytes) -> Header:
        return Header(game="raiders", options=(("players", 3),), protocol=PROTOCOL_VERSION,
                      engine=get_game("raiders").engine_version, sampler="sha256-ctr/v1",
                      seats=(Seat("Opener", public_key_bytes(opener)), Seat(name, key),
                             Seat("Third", public_key_bytes(third))),
                      nonces=(os.urandom(32), nonce, os.urandom(32)))

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        join = await read_frame(reader)
        assert join.kind is FrameKind.JOIN
        _version, name, key, nonce, _port, _proof = join.fields
        writer.write(Frame(FrameKind.SEATED, (1, 3, "Fake table", "fp", DEFAULT_TIMEOUTS)).encode())
        header = header_for(name, key, nonce)
        signatures: tuple[bytes, ...] = ()
        if header_first:
            writer.write(Frame(FrameKind.HEADER, (header.encode(),)).encode())
            answer = await read_frame(reader)
            assert answer.kind is FrameKind.HEADER_SIG
            signatures = (sign_header(opener, header), answer.fields[0],
                          sign_header(third, header))
        if other_header or not header_first:  # a START of a header the joiner never signed
            stranger = Ed25519PrivateKey.generate()
            header = header_for("Someone", public_key_bytes(stranger), os.urandom(32))
            signatures = tuple(sign_header(k, header) for k in (opener, stranger, third))
        signed = SignedHeader(header, signatures)
        writer.write(Frame(FrameKind.START, (signed.encode(), addresses)).encode())
        await writer.drain()
        await asyncio.sleep(BOUND)  # holds the connection: the joiner must not wait for it

    return handler


async def join(port: int) -> Seated:
    return await asyncio.wait_for(
        join_table(Ed25519PrivateKey.generate(), "Joiner", LOOPBACK, port, 4000, timeout=10),
        BOUND)


BAD_STARTS: list[tuple[str, Addresses, str]] = [
    ("too few", (("", 5001), ("", 5002)), "2 addresses for 3 seats"),
    ("none", (), "0 addresses for 3 seats"),
    ("too many", (("", 5001),) * 4, "4 addresses for 3 seats"),
    ("port too big", (("", 5001), ("", 5002), ("", 99999)), "seat 2 has no valid port"),
    ("port huge", (("", 5001), ("", 5002), ("", 2**40)), "seat 2 has no valid port"),
    ("port zero", (("", 0), ("", 5002), ("", 5003)), "seat 0 has no valid port"),
    ("port negative", (("", 5001), ("", -5), ("", 5003)), "seat 1 has no valid port"),
    ("port a bool", (("", True), ("", 5002), ("", 5003)), "seat 0 has no valid port"),
    ("port a string", (("", "80"), ("", 5002), ("", 5003)), "seat 0 has no valid port"),
    ("one item", (("x",), ("", 5002), ("", 5003)), "seat 0 is not a [host, port] pair"),
    ("three items", (("x", 1, 2), ("", 5002), ("", 5003)), "seat 0 is not a [host, port]"),
    ("plain ints", (1, 2, 3), "seat 0 is not a [host, port] pair"),
    ("host bytes", ((b"h", 5001), ("", 5002), ("", 5003)), "seat 0 has no valid host"),
    ("host int", ((7, 5001), ("", 5002), ("", 5003)), "seat 0 has no valid host"),
    ("host spaces", (("a host\n", 5001), ("", 5002), ("", 5003)), "seat 0 has no valid host"),
    ("host NUL", (("a\x00b", 5001), ("", 5002), ("", 5003)), "seat 0 has no valid host"),
    ("host long", (("a" * 300, 5001), ("", 5002), ("", 5003)), "seat 0 has no valid host"),
    ("host nil", ((None, 5001), ("", 5002), ("", 5003)), "seat 0 has no valid host"),
    ("host an array", ((("h",), 5001), ("", 5002), ("", 5003)), "seat 0 has no valid host"),
]


@pytest.mark.asyncio
@pytest.mark.parametrize(("case", "addresses", "reason"), BAD_STARTS,
                         ids=[c for c, _, _ in BAD_STARTS])
async def test_a_malformed_start_is_one_clear_error(case: str, addresses: Addresses,
                                                    reason: str) -> None:
    async with serving(fake_table(addresses)) as port:
        with pytest.raises(LobbyError) as caught:
            await join(port)
    message = str(caught.value)
    assert message.startswith("the table sent a malformed start: "), message
    assert reason in message
    assert "\n" not in message


@pytest.mark.asyncio
async def test_a_start_before_the_header_or_of_another_header_is_refused() -> None:
    good = (("", 5001), ("", 5002), ("", 5003))
    for table in (fake_table(good, header_first=False), fake_table(good, other_header=True)):
        async with serving(table) as port:
            with pytest.raises(LobbyError, match="the table sent a malformed start: "):
                await join(port)


@pytest.mark.asyncio
async def test_a_good_start_from_the_fake_table_seats_the_joiner() -> None:
    """The fake table is a fair one but for its addresses: with good ones the joiner sits."""
    good = (("", 5001), ("", 5002), ("10.1.2.3", 5003))
    async with serving(fake_table(good)) as port:
        seated = await join(port)
    assert seated.seat == 1 and len(seated.header.header.seats) == 3
    assert seated.addresses == [(LOOPBACK, 5001), (LOOPBACK, 5002), ("10.1.2.3", 5003)]


def test_start_addresses_checks_each_seat() -> None:
    assert start_addresses([["", 1], ["h.lan", 65535], ["::1", 80]], 3, "t") == [
        ("t", 1), ("h.lan", 65535), ("::1", 80)]
    for bad in ([["", 1]], [["", 65536], ["", 1], ["", 1]], "abc", None):
        with pytest.raises(BadMessage):
            start_addresses(bad, 3, "t")


# --------------------------------------------------------------------------- the whole joiner


def cli_env() -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("CRYPTCRAWL_DEBUG", None)
    return env


async def run_cli(*args: str) -> tuple[int, str, str]:
    """``cryptcrawl ARGS`` in a process, bounded; killed if it outlives the bound."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "cli.main", *args, cwd=REPO, env=cli_env(),
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    try:
        out, err = await asyncio.wait_for(proc.communicate(), BOUND)
    finally:
        if proc.returncode is None:
            proc.kill()
            await asyncio.wait_for(proc.wait(), 10)
    assert proc.returncode is not None
    return proc.returncode, out.decode(errors="replace"), err.decode(errors="replace")


@pytest.mark.asyncio
@pytest.mark.parametrize(("addresses", "reason"), [
    ((("", 5001), ("", 5002)), "2 addresses for 3 seats"),
    ((("", 5001), ("", 5002), ("", 99999)), "seat 2 has no valid port"),
    ((("x",), ("", 5002), ("", 5003)), "seat 0 is not a [host, port] pair"),
    ((1, 2, 3), "seat 0 is not a [host, port] pair"),
], ids=["too-few", "port-99999", "one-item", "plain-ints"])
async def test_cryptcrawl_join_stops_on_a_malformed_start(tmp_path: Path, addresses: Addresses,
                                                          reason: str) -> None:
    async with serving(fake_table(addresses)) as port:
        code, _out, err = await run_cli("join", f"{LOOPBACK}:{port}", "--bot", "random",
                                        "--data-dir", str(tmp_path), "--plain")
    assert code == 1, err
    assert err.count("\n") == 1, err
    assert err.startswith("cryptcrawl join: the table sent a malformed start: ")
    assert reason in err
    assert "Traceback" not in err and "internal error" not in err
    assert not list(tmp_path.rglob("*.crawl"))  # no match was stored


# --------------------------------------------------------------------------- not a table


async def _http(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await reader.read(100)
    writer.write(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
    await writer.drain()


async def _garbage(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    writer.write(b"\x00\x00\x00\x05hello")  # a frame's length, but no frame in it
    await writer.drain()
    await asyncio.sleep(BOUND)


async def _hello(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    # A match peer's listener, not a lobby: it opens with HELLO.
    writer.write(Frame(FrameKind.HELLO, (1, b"m" * 32, 0, b"k" * 32, b"c" * 32)).encode())
    await writer.drain()
    await asyncio.sleep(BOUND)


async def _hang_up(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await reader.read(100)


@pytest.mark.asyncio
@pytest.mark.parametrize("service", [_http, _garbage, _hello], ids=["http", "garbage", "hello"])
async def test_a_port_that_speaks_something_else_is_not_a_table(service: Handler) -> None:
    async with serving(service) as port:
        with pytest.raises(LobbyError) as caught:
            await join(port)
    assert str(caught.value) == (f"not a cryptcrawl table at {LOOPBACK}:{port} (it answered "
                                 "with something else)")


KEEP_BUSY = [Frame(FrameKind.SEATED, (1, 3, "Fake table", "fp", DEFAULT_TIMEOUTS)),
             Frame(FrameKind.LOBBY, ((("Opener", "fp0"), ("Joiner", "fp1")),)),
             Frame(FrameKind.BYE, ("still here",)), Frame(FrameKind.MSG, (b"x",))]


@pytest.mark.asyncio
@pytest.mark.parametrize("busy", KEEP_BUSY, ids=[f.kind.name for f in KEEP_BUSY])
async def test_a_table_cannot_hold_a_joiner_with_frames(busy: Frame) -> None:
    """A table that seats the joiner, then sends a frame every 0.2 s — each well inside the
    joiner's wait for the next one — is left at the first frame out of place (a LOBBY: one
    fewer than the seats, here two, may come).  (Before, any frame but HEADER and START was
    passed over, and the joiner waited for good.)"""
    async def keep_busy(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_frame(reader)
        writer.write(Frame(FrameKind.SEATED, (1, 3, "Fake table", "fp", DEFAULT_TIMEOUTS)).encode())
        for _ in range(int(BOUND / 0.2)):
            writer.write(busy.encode())
            await writer.drain()
            await asyncio.sleep(0.2)

    async with serving(keep_busy) as port:
        with pytest.raises(LobbyError) as caught:
            await join(port)  # (its timeout for each frame is 10 s; the table sends one per 0.2)
    assert str(caught.value) == (f"the table sent a frame out of place ({busy.kind.name}); "
                                 "not a table to play at")


@pytest.mark.asyncio
async def test_a_table_that_hangs_up_still_closed_the_connection() -> None:
    async with serving(_hang_up) as port:
        with pytest.raises(LobbyError, match="the table closed the connection"):
            await join(port)


@pytest.mark.asyncio
async def test_a_refusal_is_one_line_whatever_the_table_sends() -> None:
    async def refuse(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_frame(reader)
        writer.write(Frame(FrameKind.REFUSE, ("no\n\x1b[31mred\r\nlines" + "x" * 500,)
                           ).encode())
        await writer.drain()

    async with serving(refuse) as port:
        with pytest.raises(LobbyError) as caught:
            await join(port)
    message = str(caught.value)
    assert message.startswith("the table refused: no [31mred lines")  # (ESC, CR, LF gone)
    assert message.isprintable() and len(message) < 260


# --------------------------------------------------------------------------- the other way


@pytest.mark.asyncio
@pytest.mark.parametrize("mesh_port", [0, 65536, 99999, 2**32 - 1])
async def test_a_join_with_a_port_out_of_range_gets_no_seat(mesh_port: int) -> None:
    """The opener's side: a JOIN whose mesh port no seat could dial is dropped (it would
    otherwise go to every seat in START)."""
    table = Table(Ed25519PrivateKey.generate(), "Opener", 3, mesh_port=5000, game="raiders")
    port = await table.open(LOOPBACK, 0)
    try:
        reader, writer = await asyncio.open_connection(LOOPBACK, port)
        try:
            key = public_key_bytes(Ed25519PrivateKey.generate())
            writer.write(Frame(FrameKind.JOIN, (PROTOCOL_VERSION, "J", key, os.urandom(32),
                                                mesh_port, b"")).encode())
            assert await read_until_closed(reader, 10) == []
        finally:
            writer.close()
        assert table.seated == []
    finally:
        assert table.server is not None
        table.server.close()


@pytest.mark.asyncio
async def test_join_table_refuses_an_address_it_cannot_dial() -> None:
    for host, port in ((LOOPBACK, 99999), (LOOPBACK, 0), ("a b", 5000), ("", 5000)):
        with pytest.raises(LobbyError, match="is not an address to join at"):
            await asyncio.wait_for(join_table(Ed25519PrivateKey.generate(), "J", host, port,
                                              4000), BOUND)
    with pytest.raises(LobbyError, match="cannot open a table on port 99999"):
        table = Table(Ed25519PrivateKey.generate(), "Opener", 3, mesh_port=1, game="raiders")
        await table.open(LOOPBACK, 99999)


def test_parse_address_and_valid_host() -> None:
    assert parse_address("127.0.0.1:5000") == ("127.0.0.1", 5000)
    assert parse_address("[::1]:80") == ("::1", 80)
    assert parse_address("table.lan:65535") == ("table.lan", 65535)
    for text in ("127.0.0.1:99999", "127.0.0.1:0", "127.0.0.1:-5", "127.0.0.1:abc", ":80",
                 "::1", "[::1]", "[::1]:", "[nope]:80", "127.0.0.1", "a b:80", "a:b:80",
                 "1.2.3.4:" + "9" * 5000):
        with pytest.raises(ValueError, match="is not a valid HOST:PORT") as caught:
            parse_address(text)
        assert "\n" not in str(caught.value) and len(str(caught.value)) < 300
    assert valid_host("10.0.0.1") and valid_host("fe80::1") and valid_host("my-pc.local")
    assert not any(valid_host(h) for h in ("", "a b", "a\x00", "-x", "a" * 254, 5, None))
