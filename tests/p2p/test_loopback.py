"""Whole matches over real TCP on loopback, in one process, and the lobby's refusals.

Every seat is a real peer (its own identity, data directory, listener and connections); the
files each of them wrote must verify valid and agree on the result.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2p.lobby import LobbyError, Seated, Table, join_table, lobby_seats
from p2p.peer import MatchPeer, PeerConfig, bot_decider, read_frame
from p2p.run import host, join, resume
from p2p.wire import Frame, FrameKind
from protocol.crypto import fingerprint, public_key_bytes
from protocol.errors import BadMessage
from protocol.match.core import ResultSigned, SeatReclaimed, SeatReplaced
from protocol.wire.header import PROTOCOL_VERSION
from tests.p2p.conftest import (
    LOOPBACK,
    Match,
    assert_agreed,
    crawl_files,
    start_match,
    thinking,
)

FAST = PeerConfig(timeouts=(5, 5, 5, 5), linger=0.3)


@pytest.mark.asyncio
@pytest.mark.parametrize("players", [3, 5])
async def test_whole_match_host_and_bots(tmp_path: Path, players: int) -> None:
    """``host`` with bot peers plays to the end; every seat's file is valid and agreed."""
    events: list[object] = []
    result = await asyncio.wait_for(host(
        tmp_path / "host", game="raiders",
        name="Host", players=players, bots=players - 1, bot="random",
        decide=bot_decider("random", b"h" * 32), config=FAST, bot_dir=tmp_path / "bots",
        on_event=events.append), 60)
    assert result.seat == 0 and result.core.signed
    paths = crawl_files(tmp_path)
    assert len(paths) == players and result.path in paths
    assert len({p.name for p in paths}) == 1  # one match
    verdicts = assert_agreed(paths, players)
    final = result.core.final
    assert final is not None and verdicts[0].final_digest == final.digest
    assert verdicts[0].winners == final.winners
    assert sum(isinstance(e, ResultSigned) for e in events) == 1
    for v in verdicts:
        assert not any("replaced" in note for note in v.notes), v.notes
    assert not list(tmp_path.rglob("*.seed"))  # the secrets' seeds end with the match
    header = result.core.header.header
    assert len({s.key for s in header.seats}) == players


@pytest.mark.asyncio
async def test_whole_match_host_and_joiners(tmp_path: Path) -> None:
    """Seats that ``join`` by HOST:PORT: every live core ends signed, on the same digest."""
    match = await start_match(tmp_path, 4, FAST)
    try:
        results = await match.results(60)
    finally:
        await match.cancel()
    assert [r.seat for r in results] == [0, 1, 2, 3]
    digests = {r.core.final.digest for r in results if r.core.final is not None}
    assert len(digests) == 1 and all(r.core.signed for r in results)
    verdicts = assert_agreed([r.path for r in results], 4)
    assert verdicts[0].final_digest in digests


async def until(check: Callable[[], bool], timeout: float, what: str) -> None:
    async def poll() -> None:
        while not check():
            await asyncio.sleep(0.005)
    try:
        await asyncio.wait_for(poll(), timeout)
    except TimeoutError:
        raise AssertionError(f"timed out after {timeout} s: {what}") from None


LEAVE = PeerConfig(timeouts=(1, 1, 1, 1), linger=0.5)


async def leave_while_deciding(match: Match) -> tuple[MatchPeer, asyncio.Task[Any], int]:
    """Stop seat 1's peer mid-match, while it deliberates a decision (so the first thing it
    owes when it comes back is that decision), and wait until both other seats replaced
    it.  Returns the stopped peer, its task and how many messages it had sent."""
    await match.wait_peers(3)
    leaver = match.peers[1]
    task = match.task_of(leaver)
    await until(lambda: leaver.store.path.stat().st_size > 15_000
                and leaver._asking is not None, 30, "seat 1 never got to decide")
    assert not task.done()
    task.cancel()
    await asyncio.wait_for(asyncio.gather(task, return_exceptions=True), 10)
    assert task.cancelled()  # a cancelled peer really stops (see PeerConfig and run())
    size = leaver.store.path.stat().st_size
    sent = len(leaver.local.sent)
    survivors = [match.peers[0], match.peers[2]]
    await until(lambda: all(1 in p.core.absent for p in survivors), 15,
                "seat 1 was not replaced")
    assert {p.core.absent[1].count for p in survivors} == {sent}
    assert leaver.store.path.stat().st_size == size  # it did stop
    assert leaver.store.seed_path.exists()  # and can come back
    return leaver, task, sent


@pytest.mark.asyncio
async def test_seat_that_leaves_and_comes_back_late_reclaims(tmp_path: Path) -> None:
    """A seat whose peer stops mid-match is voted absent and played by its zombie; resumed
    from its data directory it catches up, sees its replacement and reclaims its seat, and
    every file tells the same story.

    The resumed seat holds its first decision until it has seen the votes on it: deciding
    before that hits the protocol race shown by the next test."""
    match = await start_match(tmp_path, 3, LEAVE, think=0.04)
    resumed: asyncio.Task[Any] | None = None
    try:
        leaver, task, _sent = await leave_while_deciding(match)
        events: list[object] = []
        peers: list[MatchPeer] = []
        bot = thinking(b"r" * 32, 0.04)
        caught_up: list[bool] = []

        async def after_catch_up(state: Any, seat: int) -> str:
            if not caught_up:
                # (The event, not a look at core.absent: under load the seat may be replaced
                # and reclaim between two looks.)
                await until(lambda: any(isinstance(e, SeatReplaced) and e.seat == 1
                                        for e in events), 15,
                            "the resumed seat never saw its replacement")
                caught_up.append(True)
            return str(await bot(state, seat))

        resumed = asyncio.ensure_future(resume(
            match.dirs[match.tasks.index(task)], choose=after_catch_up, config=LEAVE,
            on_event=events.append, on_peer=peers.append))
        back = await asyncio.wait_for(resumed, 60)
        others = await asyncio.wait_for(asyncio.gather(
            *(t for t in match.tasks if t is not task)), 60)
    finally:
        if resumed is not None:
            resumed.cancel()
        await match.cancel()
    assert back.seat == 1 and back.path == leaver.store.path and back.core.signed
    assert any(isinstance(e, SeatReplaced) and e.seat == 1 for e in events)
    assert any(isinstance(e, SeatReclaimed) and e.seat == 1 for e in events)
    for v in assert_agreed([back.path, *(r.path for r in others)], 3):
        assert any(n.startswith("seat 1 was replaced") for n in v.notes), v.notes
        assert any(n.startswith("seat 1 reclaimed its seat") for n in v.notes), v.notes


@pytest.mark.asyncio
async def test_resumed_seat_deciding_at_once_still_sees_its_replacement(
        tmp_path: Path) -> None:
    """As above, but the resumed seat decides at once (a plain bot): it signs the decision
    it owes before it has reconnected to anyone.  Every other seat replaced it at that
    message; once their votes reach it, it must see that too (and reclaim)."""
    match = await start_match(tmp_path, 3, LEAVE, think=0.04)
    resumed: asyncio.Task[Any] | None = None
    try:
        _leaver, task, sent = await leave_while_deciding(match)
        peers: list[MatchPeer] = []
        resumed = asyncio.ensure_future(resume(
            match.dirs[match.tasks.index(task)], decide=bot_decider("random", b"r" * 32),
            config=LEAVE, on_peer=peers.append))
        await until(lambda: bool(peers), 10, "no resumed peer")
        peer = peers[0]

        def voted() -> bool:  # (the peer may rebuild its core: always read the current one)
            return {0, 2} <= set(peer.core.ballots.get((1, sent), {}))
        await until(voted, 15, "the votes on seat 1 never reached it")

        def sees_it() -> bool:
            core = peer.core
            return 1 in core.absent or 1 in core.seats.reclaims or not core.live(1) or core.signed
        await until(sees_it, 3, f"seat 1 holds both votes on its message {sent} but goes on "
                                "as if present; the others replaced it")
        # And it comes back: the match ends with every file agreeing.
        result = await asyncio.wait_for(resumed, 60)
        assert result.core.signed
        assert any(isinstance(e, SeatReclaimed) and e.seat == 1 for e in peer.events) or (
            1 in result.core.absent)
    finally:
        if resumed is not None:
            resumed.cancel()
            await asyncio.gather(resumed, return_exceptions=True)
        await match.cancel()


# --------------------------------------------------------------------------- the lobby


async def open_table(players: int = 3, **kw: Any) -> Table:
    table = Table(Ed25519PrivateKey.generate(), "Opener", players, mesh_port=1, game="raiders",
                  **kw)
    await table.open(LOOPBACK, 0)
    return table


def lobby_port(table: Table) -> int:
    assert table.server is not None
    return int(table.server.sockets[0].getsockname()[1])


async def sit(table: Table, name: str, passphrase: str = "",
              key: Ed25519PrivateKey | None = None) -> asyncio.Task[Seated]:
    """A joiner that sits down and waits for the header (a task; cancel it when done)."""
    return asyncio.ensure_future(join_table(key or Ed25519PrivateKey.generate(), name, LOOPBACK,
                                            lobby_port(table), 2, passphrase=passphrase,
                                            timeout=20))


async def seated(table: Table, count: int) -> None:
    async def wait() -> None:
        while len(table.seated) < count:
            await asyncio.sleep(0.01)
    await asyncio.wait_for(wait(), 10)


async def close_table(table: Table, *tasks: asyncio.Task[Seated]) -> None:
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    if table.server is not None:
        table.server.close()
    for _, _, writer in table.seated:
        writer.close()


async def refused(table: Table, **kw: Any) -> str:
    """Join, expecting a refusal; the LobbyError's message."""
    with pytest.raises(LobbyError) as info:
        await asyncio.wait_for(join_table(Ed25519PrivateKey.generate(), "Late", LOOPBACK,
                                          lobby_port(table), 2, timeout=10, **kw), 15)
    return str(info.value)


async def version_proxy(table_port: int, version: int) -> tuple[asyncio.Server, int]:
    """A relay to the table that rewrites the JOIN's protocol version: a joiner of
    another version, as the table sees it."""
    async def relay(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(LOOPBACK, table_port)
        try:
            join = await read_frame(reader)
            assert join.kind is FrameKind.JOIN
            up_writer.write(Frame(FrameKind.JOIN, (version, *join.fields[1:])).encode())
            while data := await up_reader.read(65536):
                writer.write(data)
                await writer.drain()
        finally:
            up_writer.close()
            writer.close()

    server = await asyncio.start_server(relay, LOOPBACK, 0)
    return server, int(server.sockets[0].getsockname()[1])


@pytest.mark.asyncio
@pytest.mark.parametrize("version", [1, PROTOCOL_VERSION + 1])
async def test_a_join_of_another_version_is_refused_naming_both(version: int) -> None:
    """The host's side: a JOIN of protocol 1 (an older program) or of a later one is refused
    with one line naming both versions, the opener is told, and the seat stays free."""
    turned_away: list[tuple[str, int]] = []
    table = await open_table(on_other_version=lambda *what: turned_away.append(what))
    server, port = await version_proxy(lobby_port(table), version)
    try:
        with pytest.raises(LobbyError) as info:
            await asyncio.wait_for(join_table(Ed25519PrivateKey.generate(), "Old", LOOPBACK,
                                              port, 2, timeout=10), 15)
        message = str(info.value)
        assert message.startswith(f"the table refused: this table plays protocol "
                                  f"{PROTOCOL_VERSION}; your program plays protocol {version}")
        assert "\n" not in message and table.taken == 1
        # The same JOIN straight on the wire: one REFUSE frame with the reason, then EOF.
        reader, writer = await asyncio.open_connection(LOOPBACK, lobby_port(table))
        key = public_key_bytes(Ed25519PrivateKey.generate())
        writer.write(Frame(FrameKind.JOIN, (version, "Old", key, os.urandom(32), 2,
                                            b"")).encode())
        frame = await asyncio.wait_for(read_frame(reader), 5)
        assert frame.kind is FrameKind.REFUSE
        assert frame.fields[0].startswith(f"this table plays protocol {PROTOCOL_VERSION}; "
                                          f"your program plays protocol {version} ")
        assert await asyncio.wait_for(reader.read(), 5) == b""
        writer.close()
        assert table.taken == 1
        assert turned_away == [(LOOPBACK, version), (LOOPBACK, version)]  # the opener is told
    finally:
        server.close()
        await close_table(table)


@pytest.mark.asyncio
async def test_passphrase_wrong_or_missing_is_refused_right_one_admitted() -> None:
    table = await open_table(passphrase="open sesame")
    try:
        assert "wrong table passphrase" in await refused(table, passphrase="open sesam")
        assert "wrong table passphrase" in await refused(table)
        assert table.taken == 1
        # Knowing only HOST:PORT and the passphrase is enough.
        good = await sit(table, "Friend", passphrase="open sesame")
        await seated(table, 1)
        assert table.seated[0][0].name == "Friend"
    finally:
        await close_table(table, good)


@pytest.mark.asyncio
async def test_full_table_duplicate_key_and_disapproval_are_refused() -> None:
    table = await open_table(players=3)
    mine = Ed25519PrivateKey.generate()
    first = await sit(table, "One", key=mine)
    await seated(table, 1)
    twice = await refused_with_key(table, mine)
    assert "already has a seat" in twice
    second = await sit(table, "Two")
    await seated(table, 2)
    try:
        assert "the table is full" in await refused(table)
        # The seats taken before the refusal still get their match.
        gathered = await asyncio.wait_for(table.gather(timeout=10), 15)
        one, two = await asyncio.wait_for(asyncio.gather(first, second), 10)
        assert [s.seat for s in (gathered, one, two)] == [0, 1, 2]
        assert one.header == two.header == gathered.header
    finally:
        await close_table(table, first, second)

    async def no(joiner: object) -> bool:
        return False

    picky = await open_table(approve=no)
    try:
        assert "did not let you sit down" in await refused(picky)
    finally:
        await close_table(picky)


@pytest.mark.asyncio
async def test_each_joiner_is_told_its_seat_and_who_sits_at_the_table() -> None:
    """SEATED once, then a LOBBY frame each time a seat is taken: the first joiner of three
    seats hears of two seats, then three; the second of three only."""
    table = await open_table(players=3, table_name="Crypt", timeouts=(20, 60, 240, 45))
    heard: dict[str, list[Any]] = {"One": [], "Two": []}
    keys = {name: Ed25519PrivateKey.generate() for name in heard}

    def joiner(name: str) -> asyncio.Task[Seated]:
        return asyncio.ensure_future(join_table(
            keys[name], name, LOOPBACK, lobby_port(table), 2, timeout=20,
            on_seated=lambda *fields: heard[name].append(("seated", *fields)),
            on_lobby=lambda sitting: heard[name].append(("lobby", sitting))))

    first = joiner("One")
    await seated(table, 1)
    second = joiner("Two")
    await seated(table, 2)
    try:
        await asyncio.wait_for(table.gather(timeout=10), 15)
        await asyncio.wait_for(asyncio.gather(first, second), 10)
    finally:
        await close_table(table, first, second)
    fp = {name: fingerprint(public_key_bytes(key)) for name, key in keys.items()}
    opener = ("Opener", fingerprint(public_key_bytes(table.key)))
    everyone = [opener, ("One", fp["One"]), ("Two", fp["Two"])]
    speed = (20, 60, 240, 45)  # the table's timeouts, told on sitting down
    assert heard["One"] == [("seated", 1, 3, "Crypt", opener[1], speed),
                            ("lobby", everyone[:2]), ("lobby", everyone)]
    assert heard["Two"] == [("seated", 2, 3, "Crypt", opener[1], speed), ("lobby", everyone)]
    assert (await first).header.header.timeouts == speed  # and signed into the header


@pytest.mark.asyncio
@pytest.mark.parametrize("name", ["M\x1b[2J\x1b[31m\nFAKE LINE\x07", "Eve\u202e", "x" * 33])
async def test_a_name_that_is_no_seat_name_is_refused_and_the_table_goes_on(name: str) -> None:
    """A JOIN whose name has control or formatting characters (escape codes for the opener's
    terminal, a right-to-left override) or is too long gets a REFUSE with the reason, and
    the table fills and starts as usual.  (Before, the name was printed as it came, and the
    header then failed in gather(): one such joiner ended the table.)"""
    table = await open_table(players=3)
    tasks: list[asyncio.Task[Seated]] = []
    try:
        with pytest.raises(LobbyError) as info:
            await asyncio.wait_for(join_table(Ed25519PrivateKey.generate(), name, LOOPBACK,
                                              lobby_port(table), 2, timeout=10), 15)
        assert str(info.value) == ("the table refused: a name must be 1 to 32 printable "
                                   "characters (no control or formatting characters)")
        assert table.taken == 1
        tasks.append(await sit(table, "One"))
        await seated(table, 1)
        tasks.append(await sit(table, "Two"))
        gathered = await asyncio.wait_for(table.gather(timeout=10), 15)
        assert [s.name for s in gathered.header.header.seats] == ["Opener", "One", "Two"]
    finally:
        await close_table(table, *tasks)


@pytest.mark.parametrize(("value", "reason"), [
    ((), "not one of 2 to 3 seats"),
    ((("a", "f"),), "not one of 2 to 3 seats"),
    ((("a", "f"),) * 4, "not one of 2 to 3 seats"),
    ("ab", "not one of 2 to 3 seats"),
    ((("a", "f"), ("b",)), "not a [name, fingerprint] pair"),
    ((("a", "f"), ("b", 7)), "not a [name, fingerprint] pair"),
    ((("a", "f"), b"bf"), "not a [name, fingerprint] pair"),
])
def test_a_malformed_list_of_seats_is_refused(value: Any, reason: str) -> None:
    with pytest.raises(BadMessage, match=re.escape(reason)):
        lobby_seats(value, 3)


def test_the_list_of_seats_is_made_fit_for_one_line() -> None:
    assert lobby_seats((("Eve\x1b[2J\nX" + "y" * 40, "f\rp"), ("Bob", "fp")), 3) == [
        ("Eve [2J X" + "y" * 23 + "...", "f p"), ("Bob", "fp")]


async def refused_with_key(table: Table, key: Ed25519PrivateKey) -> str:
    with pytest.raises(LobbyError) as info:
        await asyncio.wait_for(join_table(key, "Again", LOOPBACK, lobby_port(table), 2,
                                          timeout=10), 15)
    return str(info.value)


@pytest.mark.asyncio
async def test_unreachable_table_is_a_clear_error() -> None:
    table = await open_table()
    port = lobby_port(table)
    await close_table(table)
    assert table.server is not None
    await table.server.wait_closed()
    with pytest.raises(LobbyError, match="cannot reach a table"):
        await asyncio.wait_for(join_table(Ed25519PrivateKey.generate(), "X", LOOPBACK, port, 2,
                                          timeout=5), 15)


@pytest.mark.asyncio
async def test_garbage_to_the_lobby_does_not_take_a_seat() -> None:
    table = await open_table(players=3)
    try:
        for junk in (b"\x00\x00\x00\x03abc", b"\xff\xff\xff\xff", b"\x00\x00\x00\x01\xc1",
                     Frame(FrameKind.HELLO, (1, b"m" * 32, 1, b"k" * 32, b"c" * 32)).encode()):
            reader, writer = await asyncio.open_connection(LOOPBACK, lobby_port(table))
            writer.write(junk)
            assert await asyncio.wait_for(reader.read(), 5) == b""  # closed, no answer
            writer.close()
        assert table.taken == 1
    finally:
        await close_table(table)


@pytest.mark.asyncio
async def test_passphrase_table_plays_a_whole_match(tmp_path: Path) -> None:
    """A table with a passphrase: the host's bot (told the passphrase by its host) and a
    joiner who knows only HOST:PORT and the passphrase sit down, a wrong passphrase does
    not, and the match is played out."""
    port: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    hosting = asyncio.ensure_future(host(
        tmp_path / "host", game="raiders", name="Host", players=3, bots=1, bot="random",
        decide=bot_decider("random", b"h" * 32), config=FAST, passphrase="correct horse",
        on_port=port.set_result, bot_dir=tmp_path / "bots"))
    try:
        lobby = await asyncio.wait_for(port, 10)
        with pytest.raises(LobbyError, match="wrong table passphrase"):
            await asyncio.wait_for(join(tmp_path / "intruder", LOOPBACK, lobby, name="Eve",
                                        decide=bot_decider("random", b"e" * 32), config=FAST,
                                        bind=LOOPBACK, passphrase="battery staple"), 15)
        joined = await asyncio.wait_for(join(
            tmp_path / "friend", LOOPBACK, lobby, name="Friend",
            decide=bot_decider("random", b"f" * 32), config=FAST, bind=LOOPBACK,
            passphrase="correct horse"), 60)
        hosted = await asyncio.wait_for(hosting, 30)
    finally:
        hosting.cancel()
        await asyncio.gather(hosting, return_exceptions=True)
    assert not crawl_files(tmp_path / "intruder")
    paths = crawl_files(tmp_path)
    assert len(paths) == 3 and {hosted.path, joined.path} <= set(paths)
    assert_agreed(paths, 3)
