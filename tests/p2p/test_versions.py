"""A joiner meets a table of another protocol version: it refuses with one line naming both
versions ("this table plays protocol 1; this program plays protocol 2") — whether the table says
so in its refusal (a version 1 table's words, or this program's), or hands it a header of
another version to sign, or advertises another version on the LAN.  The old tables here are
faked by hand: their frames on loopback, their adverts over mDNS bound to loopback.  (The host's
side, a JOIN of another version, is in test_loopback.py.)
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from protocol.wire import encoding
from protocol.wire.header import DEFAULT_TIMEOUTS, PROTOCOL_VERSION, Header, Seat

from engine.games import get_game
from p2p.discovery import Advertiser
from p2p.lobby import LobbyError, OtherVersion, join_table
from p2p.peer import read_frame
from p2p.wire import Frame, FrameKind, refuse_version, refused_version
from protocol.crypto import public_key_bytes
from tests.p2p.conftest import LOOPBACK, REPO
from tests.p2p.test_start_frame import BOUND, Handler, serving

MINE = PROTOCOL_VERSION


async def join(port: int) -> Any:
    return await asyncio.wait_for(
        join_table(Ed25519PrivateKey.generate(), "Joiner", LOOPBACK, port, 4000, timeout=10),
        BOUND)


def refusing(reason: str, joins: list[int]) -> Handler:
    """A table that answers every JOIN with REFUSE ``reason`` (noting the JOIN's version)."""
    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        frame = await read_frame(reader)
        assert frame.kind is FrameKind.JOIN
        joins.append(frame.fields[0])
        writer.write(Frame(FrameKind.REFUSE, (reason,)).encode())
        await writer.drain()
    return handler


@pytest.mark.asyncio
@pytest.mark.parametrize(("table", "reason"), [
    # A version 1 table's very words (p2p/lobby.py as released with protocol 1).
    (1, "this table speaks protocol version 1, not 2: update cryptcrawl"),
    # A later table, in the words this program's tables use.
    (MINE + 1, refuse_version(MINE + 1, MINE)),
])
async def test_a_table_that_refuses_this_version_is_named_with_both(table: int,
                                                                     reason: str) -> None:
    joins: list[int] = []
    async with serving(refusing(reason, joins)) as port:
        with pytest.raises(OtherVersion) as caught:
            await join(port)
    assert joins == [MINE]  # the JOIN says which protocol this program plays
    assert str(caught.value) == (f"this table plays protocol {table}; this program plays "
                                 f"protocol {MINE}")
    assert (caught.value.table, caught.value.mine) == (table, MINE)


@pytest.mark.asyncio
async def test_other_refusals_are_not_taken_for_a_version() -> None:
    assert refused_version("wrong table passphrase") is None
    assert refused_version(refuse_version(7, 2)) == 7
    joins: list[int] = []
    async with serving(refusing("the table is full", joins)) as port:
        with pytest.raises(LobbyError) as caught:
            await join(port)
    assert not isinstance(caught.value, OtherVersion)
    assert str(caught.value) == "the table refused: the table is full"


def seating(header_bytes: Any, signed: list[bytes], *,
            timeouts: Any = DEFAULT_TIMEOUTS) -> Handler:
    """A table that seats the joiner (announcing ``timeouts``), then asks it to sign the
    header ``header_bytes(name, key, nonce)`` makes; notes any HEADER_SIG it gets."""
    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        join = await read_frame(reader)
        _version, name, key, nonce, _port, _proof = join.fields
        writer.write(Frame(FrameKind.SEATED, (1, 3, "Old table", "fp", timeouts)).encode())
        writer.write(Frame(FrameKind.HEADER, (header_bytes(name, key, nonce),)).encode())
        await writer.drain()
        with contextlib.suppress(Exception):
            answer = await asyncio.wait_for(read_frame(reader), 5)
            if answer.kind is FrameKind.HEADER_SIG:
                signed.append(answer.fields[0])
    return handler


def header(name: str, key: bytes, nonce: bytes, *, protocol: int = MINE,
           timeouts: tuple[int, ...] = DEFAULT_TIMEOUTS) -> Header:
    others = [public_key_bytes(Ed25519PrivateKey.generate()) for _ in range(2)]
    return Header(game="raiders", options=(("players", 3),), protocol=protocol,
                  engine=get_game("raiders").engine_version, sampler="sha256-ctr/v1",
                  seats=(Seat("Opener", others[0]), Seat(name, key), Seat("Third", others[1])),
                  nonces=(os.urandom(32), nonce, os.urandom(32)), timeouts=timeouts)


def later_header(name: str, key: bytes, nonce: bytes) -> bytes:
    """A header of a later protocol, whose layout this program cannot know: its version
    comes first, as in every version."""
    return encoding.encode((MINE + 1, "raiders", (("players", 3),), "raiders/9", "x",
                            (("Opener", bytes(32)), (name, key)), b"future field"))


@pytest.mark.asyncio
@pytest.mark.parametrize(("version", "make"), [
    # A header of protocol 1: this program reads such files, but a lobby plays its own.
    (1, lambda name, key, nonce: header(name, key, nonce, protocol=1).encode()),
    (MINE + 1, later_header),
], ids=["version-1", "later"])
async def test_a_header_of_another_version_is_never_signed(version: int, make: Any) -> None:
    signed: list[bytes] = []
    async with serving(seating(make, signed)) as port:
        with pytest.raises(OtherVersion) as caught:
            await join(port)
    assert str(caught.value) == (f"this table plays protocol {version}; this program plays "
                                 f"protocol {MINE}")
    assert signed == []


@pytest.mark.asyncio
async def test_the_header_must_carry_the_timeouts_the_table_announced() -> None:
    """SEATED tells the joiner the table's speed; a header with other timeouts (a table that
    showed "slow" and signs "fast") is refused, not signed."""
    signed: list[bytes] = []
    fast = (15, 45, 150, 30)
    async with serving(seating(lambda *a: header(*a, timeouts=fast).encode(), signed,
                               timeouts=(60, 180, 600, 120))) as port:
        with pytest.raises(LobbyError) as caught:
            await join(port)
    assert str(caught.value) == ("the header's timeouts (15, 45, 150, 30) are not the table's "
                                 "(60, 180, 600, 120), which this seat sat down to")
    assert signed == []


@pytest.mark.asyncio
@pytest.mark.parametrize("timeouts", [(30, 90, 300), (90, 30, 300, 60), (0, 90, 300, 60),
                                      ("30", 90, 300, 60)])
async def test_malformed_timeouts_in_seated_are_one_line(timeouts: Any) -> None:
    signed: list[bytes] = []
    async with serving(seating(lambda *a: header(*a).encode(), signed,
                               timeouts=timeouts)) as port:
        with pytest.raises(LobbyError) as caught:
            await join(port)
    message = str(caught.value)
    assert message.startswith("the table sent something malformed: the ") and "\n" not in message
    assert "timeout" in message and signed == []


# --------------------------------------------------------------------------- on the LAN


@contextlib.asynccontextmanager
async def command(*args: str) -> AsyncIterator[asyncio.subprocess.Process]:
    """``python -m cli ARGS`` (killed at the end, whatever happens)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("CRYPTCRAWL_DEBUG", None)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "cli", *args, cwd=REPO, env=env,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    try:
        yield proc
    finally:
        if proc.returncode is None:
            proc.kill()
            await asyncio.wait_for(proc.wait(), 10)


@pytest.mark.mdns
@pytest.mark.asyncio
async def test_tables_and_join_by_name_refuse_an_old_table(tmp_path: Path) -> None:
    """A version 1 table advertised on loopback (its TXT as such a table sends it: ``v=1``,
    no timeouts): ``cryptcrawl tables`` lists it as one this program cannot join, naming both
    versions, and ``cryptcrawl join NAME`` refuses it with that one line (exit 1) without
    connecting — while a table of this version beside it shows its speed."""
    tag = os.urandom(4).hex()
    old = Advertiser(name=f"Old {tag}", port=9, fingerprint="3f2a-91bc", table_id=f"01{tag}",
                     seats_total=3, game="raiders", version=1, timeouts=None,
                     interfaces=[LOOPBACK])
    new = Advertiser(name=f"New {tag}", port=9, fingerprint="3f2a-91bc", table_id=f"02{tag}",
                     seats_total=3, game="raiders", timeouts=(15, 45, 150, 30),
                     interfaces=[LOOPBACK])
    async with old, new:
        async with command("tables", "--interface", LOOPBACK, "--wait", "4", "--data-dir",
                           str(tmp_path / "t")) as tables:
            out, err = await asyncio.wait_for(tables.communicate(), 60)
        async with command("join", f"Old {tag}", "--interface", LOOPBACK, "--wait", "8",
                           "--data-dir", str(tmp_path / "j"), "--bot", "random") as joining:
            joined, why = await asyncio.wait_for(joining.communicate(), 60)
    listed = out.decode()
    assert tables.returncode == 0, err.decode()
    old_line = next(line for line in listed.splitlines() if f"Old {tag}" in line)
    assert old_line.endswith(f"cannot join: this table plays protocol 1; this program plays "
                             f"protocol {MINE}"), listed
    new_line = next(line for line in listed.splitlines() if f"New {tag}" in line)
    assert new_line.endswith("speed fast (15/45/150/30 s)"), listed
    assert joining.returncode == 1, joined.decode() + why.decode()
    assert why.decode() == (f"cryptcrawl join: this table plays protocol 1; this program "
                            f"plays protocol {MINE}\n")
    assert "Joining" not in joined.decode()  # it never connected
