"""Discovery over mDNS bound to loopback only (``interfaces=["127.0.0.1"]``).

Nothing here sends to a real interface.  mDNS timings are shortened the way python-zeroconf's own
fixtures do (``discovery.quick_timing``); every wait is bounded.  Another process on this machine
may be advertising tables on loopback at the same time, so every check looks only at this test's
own tables (unique names and ids per test).
"""

from __future__ import annotations

import asyncio
import ipaddress
import secrets
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from p2p import discovery
from p2p.discovery import (
    Advertiser,
    DiscoveryError,
    TableBrowser,
    TableEvent,
    TableFound,
    TableInfo,
    TableLost,
    TableUpdated,
    parse_table,
    table_txt,
)
from protocol.wire.header import PROTOCOL_VERSION

pytestmark = pytest.mark.mdns  # multicast DNS on 127.0.0.1: one such test at a time

LOOPBACK = ["127.0.0.1"]
FP = "3f2a-91bc-0d4e-5f60-7a8b"
WAIT = 15.0  # s, the bound on every wait for an event (5 s was reached with two busy loops,
# a benchmark and four test workers on two cores: ten advertisers probing take that long)


@pytest.fixture
def fast() -> Iterator[None]:
    with discovery.quick_timing():
        yield


def uid() -> str:
    return secrets.token_hex(8)


def advertiser(table_id: str | bytes, **kw: Any) -> Advertiser:
    args: dict[str, Any] = {"name": f"table {table_id!s}", "port": 40000, "fingerprint": FP,
                            "table_id": table_id, "seats_total": 3, "interfaces": LOOPBACK,
                            "game": "raiders"}
    args.update(kw)
    return Advertiser(**args)


async def wait_event(browser: TableBrowser, want: Callable[[TableEvent], bool],
                     timeout: float = WAIT) -> TableEvent:
    """The first event ``want`` accepts (others, e.g. a foreign process's tables, skipped)."""
    async def first() -> TableEvent:
        while True:
            event = await browser.next_event()
            if want(event):
                return event

    return await asyncio.wait_for(first(), timeout)


def about(kind: type, table_id: str) -> Callable[[TableEvent], bool]:
    return lambda e: isinstance(e, kind) and e.table.id == table_id


async def drain(browser: TableBrowser, seconds: float) -> list[TableEvent]:
    """Every event within ``seconds``."""
    seen: list[TableEvent] = []
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while (left := end - loop.time()) > 0:
        try:
            seen.append(await browser.next_event(left))
        except TimeoutError:
            break
    return seen


# --------------------------------------------------------------------------- over mDNS


@pytest.mark.asyncio
async def test_advertised_table_is_found_with_its_fields(fast: None) -> None:
    tid = uid()
    async with advertiser(tid, name=f"Friday crawl {tid}", port=41234, seats_total=4,
                          seats_taken=2, timeouts=(15, 45, 150, 30)
                          ) as ad, TableBrowser(LOOPBACK) as browser:
        event = await wait_event(browser, about(TableFound, tid))
        table = event.table
        assert table == TableInfo(name=f"Friday crawl {tid}", host="127.0.0.1", port=41234,
                                  version=PROTOCOL_VERSION, game="raiders", seats_taken=2,
                                  seats_total=4, id=tid, fingerprint=FP,
                                  instance=f"{ad.instance}.{discovery.SERVICE_TYPE}",
                                  addresses=("127.0.0.1",), timeouts=(15, 45, 150, 30))
        assert table.address == "127.0.0.1:41234"
        assert not table.full
        assert table.speed == "fast" and table.joinable and table.other_version == ""
        assert browser.tables[table.instance.lower()] == table


@pytest.mark.asyncio
async def test_seat_updates_then_close_are_seen(fast: None) -> None:
    tid = uid()
    async with TableBrowser(LOOPBACK) as browser:
        ad = advertiser(tid)
        try:
            await ad.start()
            found = await wait_event(browser, about(TableFound, tid))
            assert (found.table.seats_taken, found.table.seats_total) == (1, 3)
            await ad.update(seats_taken=2)
            updated = await wait_event(browser, about(TableUpdated, tid))
            assert isinstance(updated, TableUpdated)
            assert (updated.table.seats_taken, updated.previous.seats_taken) == (2, 1)
            await ad.update(seats_taken=3)
            updated = await wait_event(browser, about(TableUpdated, tid))
            assert updated.table.full
        finally:
            await ad.close()
        lost = await wait_event(browser, about(TableLost, tid))
        assert lost.table.seats_taken == 3
        assert all(t.id != tid for t in browser.tables.values())
    await ad.close()  # a second close is harmless
    await ad.update(seats_taken=1)  # and so is an update once closed


@pytest.mark.asyncio
async def test_two_tables_at_once(fast: None) -> None:
    a, b = uid(), uid()
    async with advertiser(a, port=41001) as ad_a, advertiser(b, port=41002, seats_total=5), \
            TableBrowser(LOOPBACK) as browser:
        found: dict[str, TableInfo] = {}
        while len(found) < 2:
            event = await wait_event(browser, lambda e: isinstance(e, TableFound)
                                     and e.table.id in (a, b))
            found[event.table.id] = event.table
        assert (found[a].port, found[a].seats_total) == (41001, 3)
        assert (found[b].port, found[b].seats_total) == (41002, 5)
        await ad_a.close()
        await wait_event(browser, about(TableLost, a))
        assert {t.id for t in browser.tables.values()} & {a, b} == {b}


@pytest.mark.asyncio
async def test_same_table_name_is_suffixed() -> None:
    # Default probe timings.  The second table starts while the first is still probing, so it
    # hears the first one's announcement during its own probes and takes another name.  (Both
    # on one loopback address, a reply to a probe is unicast to port 5353, which the kernel
    # hands to either socket bound there: only the multicast announcement reliably reaches the
    # second; on a LAN each host has its own port 5353.)
    a, b = uid(), uid()
    name = f"Twins {a}"
    first, second = advertiser(a, name=name), advertiser(b, name=name)
    try:
        starting = asyncio.ensure_future(first.start())
        await asyncio.sleep(0.3)
        await asyncio.gather(starting, second.start())
        assert first.instance == name
        assert second.instance.startswith(name) and second.instance != name
        async with TableBrowser(LOOPBACK) as browser:
            seen: dict[str, TableInfo] = {}
            while len(seen) < 2:
                event = await wait_event(browser, lambda e: isinstance(e, TableFound)
                                         and e.table.id in (a, b))
                seen[event.table.id] = event.table
        assert seen[a].name == seen[b].name == name  # the TXT name is the table's own
        assert seen[a].instance != seen[b].instance
    finally:
        await asyncio.gather(first.close(), second.close(), return_exceptions=True)


class RawAdvertiser(Advertiser):
    """Advertises whatever TXT it is given, unchecked."""

    def __init__(self, txt: dict[str, Any], **kw: Any) -> None:
        self.txt = txt
        super().__init__(**kw)

    def _properties(self) -> dict[str, Any]:
        return self.txt


def good_txt(table_id: str) -> dict[str, Any]:
    return table_txt(name=f"ok {table_id}", game="raiders", seats_taken=1, seats_total=3,
                     table_id=table_id, fingerprint=FP)


def malformed_txts(tag: str) -> list[dict[str, Any]]:
    def bad(n: int, **changes: Any) -> dict[str, Any]:
        txt: dict[str, Any] = {**good_txt(f"{n:02x}{tag}"), **changes}
        return {k: v for k, v in txt.items() if v is not ...}

    return [
        bad(1, seats="x/3"), bad(2, seats="4/3"), bad(3, seats="3"), bad(4, v="one"),
        bad(5, fp=...), bad(6, name=b"\xff\xfe bad utf-8"), bad(7, game="Bad Game!"),
        bad(8, match="not-hex"), bad(9, seats="0/0"), bad(10, v=None),
        bad(11, x1="y" * 200, x2="y" * 200),  # oversized TXT
        bad(12, name="tab\x07le"),
        bad(13, to=...),  # this version's advert without the table's timeouts
        bad(14, to="30,90,300"), bad(15, to="90,30,300,60"), bad(16, to="0,90,300,60"),
        bad(17, to="30,90,300,sixty"), bad(18, to="30,90,300,86401"), bad(19, to=None),
        bad(20, v="1", to="fast"),  # an older version's advert may leave it out, not garble it
        {},  # nothing at all
    ]


@pytest.mark.asyncio
async def test_malformed_txt_is_ignored(fast: None) -> None:
    tag = uid()
    bads = [RawAdvertiser(txt, name=f"bad {i} {tag}", port=41100 + i, fingerprint=FP,
                          table_id=f"{i:02x}{tag}", seats_total=3, interfaces=LOOPBACK,
                          game="raiders")
            for i, txt in enumerate(malformed_txts(tag))]
    good = uid()
    bad_instances = {f"bad {i} {tag}".lower() for i in range(len(bads))}

    def ours_bad(event: TableEvent) -> bool:
        return event.table.instance.split(".")[0].lower() in bad_instances

    # (Every table is up before the browser opens: its first queries, repeated 1, 2 and 4 s
    # later, find them all. A browser opened before them, by the time ten advertisers had
    # probed under load, was past those queries and had only the good one's announcement to
    # hear, which it missed once.)
    try:
        await asyncio.wait_for(asyncio.gather(*(ad.start() for ad in bads)), WAIT)
        async with advertiser(good), TableBrowser(LOOPBACK) as browser:
            events = [await wait_event(browser, lambda e: about(TableFound, good)(e)
                                       or ours_bad(e))]
            events += await drain(browser, 0.5)
    finally:
        for ad in bads:
            await ad.close()
    assert not [e for e in events if ours_bad(e)]
    assert [e.table.id for e in events if isinstance(e, TableFound)].count(good) == 1


@pytest.mark.asyncio
async def test_an_unanswered_lookup_is_asked_again(fast: None,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The browser reports a name once: a lookup lost to a busy host or a dropped packet
    must not hide the table for good."""
    real = discovery.AsyncServiceInfo.async_request
    lost: list[str] = []

    async def lossy(self: Any, *args: Any, **kw: Any) -> bool:
        if tid in self.name and not lost:
            lost.append(self.name)
            return False  # the first lookup's answers never came
        return bool(await real(self, *args, **kw))

    tid = uid()
    monkeypatch.setattr(discovery.AsyncServiceInfo, "async_request", lossy)
    async with TableBrowser(LOOPBACK, resolve_timeout=1.0) as browser, advertiser(tid):
        found = await wait_event(browser, about(TableFound, tid))
    assert lost and found.table.id == tid


@pytest.mark.asyncio
async def test_table_turning_malformed_is_lost(fast: None) -> None:
    tid = uid()
    async with TableBrowser(LOOPBACK) as browser:
        ad = RawAdvertiser(good_txt(tid), name=f"turns {tid}", port=41200, fingerprint=FP,
                           table_id=tid, seats_total=3, interfaces=LOOPBACK, game="raiders")
        try:
            await ad.start()
            await wait_event(browser, about(TableFound, tid))
            ad.txt = {**good_txt(tid), "seats": "lots"}
            await ad.update()
            await wait_event(browser, about(TableLost, tid))
        finally:
            await ad.close()


@pytest.mark.asyncio
async def test_iteration_ends_when_closed(fast: None) -> None:
    browser = TableBrowser(LOOPBACK)
    await browser.start()

    async def consume() -> list[TableEvent]:
        return [event async for event in browser]

    consumer = asyncio.ensure_future(consume())
    await asyncio.sleep(0.05)
    await browser.close()
    await asyncio.wait_for(consumer, WAIT)
    with pytest.raises(StopAsyncIteration):
        await browser.next_event(1)


@pytest.mark.asyncio
async def test_find_table_helper(fast: None) -> None:
    tid = uid()
    async with advertiser(tid, port=41300):
        table = await discovery.find_table(LOOPBACK, timeout=WAIT,
                                           match=lambda t: t.id == tid)
        assert (table.host, table.port) == ("127.0.0.1", 41300)
    with pytest.raises(TimeoutError):
        await discovery.find_table(LOOPBACK, timeout=0.3, match=lambda t: t.id == "none")


# --------------------------------------------------------------------------- no network


def test_txt_is_small_and_validated() -> None:
    txt = table_txt(name="x" * 200, game="raiders", seats_taken=1, seats_total=5,
                    table_id="ab" * 8, fingerprint=FP)
    assert set(txt) == {"v", "game", "name", "seats", "match", "fp", "to"}
    assert txt["to"] == "30,90,300,60"  # the default timeouts, the normal speed
    assert len(txt["name"].encode()) <= discovery.MAX_NAME_BYTES
    assert sum(len(k) + len(v) + 2 for k, v in txt.items()) < 200
    for bad in ({"game": "Bad!"}, {"seats_taken": 6}, {"seats_total": 0},
                {"table_id": "xyz"}, {"fingerprint": "not a fingerprint"},
                {"timeouts": (30, 90, 300)}, {"timeouts": (300, 90, 30, 60)},
                {"timeouts": None}):  # (an advert of this version carries them)
        args: dict[str, Any] = {"name": "t", "game": "raiders", "seats_taken": 1,
                                "seats_total": 5, "table_id": "ab", "fingerprint": FP, **bad}
        with pytest.raises(ValueError):
            table_txt(**args)
    with pytest.raises(ValueError):
        advertiser("ab", port=0)
    with pytest.raises(ValueError):
        advertiser("ab", seats_taken=4, seats_total=3)
    assert advertiser(bytes(range(16))).table_id == bytes(range(8)).hex()
    assert advertiser("ab", name="  a\nb\tc  ").name == "a b c"


def test_parse_table() -> None:
    props = {k.encode(): v.encode() for k, v in good_txt("ab12").items()}
    table = parse_table("x._cryptcrawl._tcp.local.", props, 5000, ["10.1.2.3"])
    assert table is not None and (table.name, table.id, table.port) == ("ok ab12", "ab12", 5000)
    assert parse_table("x", props, 5000, []) is None  # no address
    assert parse_table("x", props, None, ["10.1.2.3"]) is None
    assert parse_table("x", props, 70000, ["10.1.2.3"]) is None
    for txt in malformed_txts("cd"):
        raw = {k.encode(): (v if isinstance(v, bytes) or v is None else str(v).encode())
               for k, v in txt.items()}
        assert parse_table("x", raw, 5000, ["10.1.2.3"]) is None, txt
    extra = {**props, b"future": b"ok", b"flag": None}
    assert parse_table("x", extra, 5000, ["10.1.2.3"]) is not None  # unknown keys ignored
    v6 = parse_table("x", props, 5000, ["fe80::1", "10.1.2.3"])
    assert v6 is not None and v6.host == "10.1.2.3"
    # The address on the browsing interface's network wins over the first one advertised.
    nets = [ipaddress.IPv4Network("192.168.7.0/24")]
    multi = parse_table("x", props, 5000, ["172.17.0.1", "192.168.7.20"], nets)
    assert multi is not None and multi.host == "192.168.7.20"
    assert multi.addresses == ("172.17.0.1", "192.168.7.20")


def test_a_table_of_another_version_is_listed_but_not_joinable() -> None:
    """A version 1 table's advert (the same keys, no timeouts): parsed, so that ``tables``
    shows it, but marked as a table this program cannot sit at, naming both versions."""
    old = {**good_txt("ab13"), "v": "1"}
    del old["to"]
    table = parse_table("x", {k.encode(): v.encode() for k, v in old.items()}, 5000,
                        ["10.1.2.3"])
    assert table is not None and table.version == 1 and table.timeouts is None
    assert table.speed == "" and not table.joinable and not table.full
    assert table.other_version == ("this table plays protocol 1; this program plays "
                                   f"protocol {PROTOCOL_VERSION}")
    newer = {**good_txt("ab14"), "v": str(PROTOCOL_VERSION + 1)}  # a later one, with them
    later = parse_table("x", {k.encode(): v.encode() for k, v in newer.items()}, 5000,
                        ["10.1.2.3"])
    assert later is not None and later.timeouts == (30, 90, 300, 60) and not later.joinable
    assert str(PROTOCOL_VERSION + 1) in later.other_version
    ours = parse_table("x", {k.encode(): v.encode() for k, v in good_txt("ab15").items()},
                       5000, ["10.1.2.3"])
    assert ours is not None and ours.joinable and ours.speed == "normal"
    assert table_txt(name="t", game="raiders", seats_taken=1, seats_total=3, table_id="ab",
                     fingerprint=FP, version=1, timeouts=None)["v"] == "1"


@pytest.mark.asyncio
async def test_an_old_version_table_is_heard_and_not_joined(fast: None) -> None:
    """Over mDNS: a version 1 table's advert (sent by hand) is found, not joinable, and
    ``find_table`` without a filter passes it over for a table of this version."""
    old, new = uid(), uid()
    async with advertiser(old, name=f"old {old}", version=1, timeouts=None), \
            TableBrowser(LOOPBACK) as browser:
        found = await wait_event(browser, about(TableFound, old))
        assert found.table.version == 1 and not found.table.joinable
        assert "this table plays protocol 1" in found.table.other_version
        async with advertiser(new, name=f"new {new}", timeouts=(60, 180, 600, 120)):
            table = await discovery.find_table(LOOPBACK, timeout=WAIT, match=lambda t: (
                t.id in (old, new) and t.joinable))
            assert table.id == new and table.speed == "slow"


def test_interfaces() -> None:
    assert discovery.resolve_interfaces(["127.0.0.1"]) == ["127.0.0.1"]
    with pytest.raises(DiscoveryError):
        discovery.resolve_interfaces(["::1"])
    with pytest.raises(DiscoveryError):
        discovery.resolve_interfaces(["no-such-interface0"])
    with pytest.raises(DiscoveryError):
        discovery.resolve_interfaces([])
    assert all(not a.startswith("127.") for _, a in discovery.list_interfaces())
    # Advertise loopback only when bound to nothing else.
    assert discovery._advertised_addresses(["127.0.0.1"]) == ["127.0.0.1"]
    assert discovery._advertised_addresses(["127.0.0.1", "10.9.8.7"]) == ["10.9.8.7"]


def test_the_advert_says_whether_a_table_may_be_watched() -> None:
    base = {"name": "t", "game": "raiders", "seats_taken": 1, "seats_total": 3,
            "table_id": "ab12", "fingerprint": "aaaa-bbbb"}
    closed = table_txt(**base, watchable=False)  # type: ignore[arg-type]
    assert closed["watch"] == "no" and "watch" not in table_txt(**base)  # type: ignore[arg-type]

    def parsed(txt: dict[str, str]) -> Any:
        return parse_table("x", {k.encode(): v.encode() for k, v in txt.items()}, 5000,
                           ["10.1.2.3"])
    assert parsed(closed).watchable is False
    assert parsed(table_txt(**base)).watchable is True  # type: ignore[arg-type]
    assert parsed({**closed, "watch": "maybe"}) is None  # (malformed: ignored)
