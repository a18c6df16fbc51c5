"""Finding tables on the LAN: mDNS / DNS-SD advertising and browsing (python-zeroconf, asyncio).

An opener advertises its table as ``<table name>._cryptcrawl._tcp.local.``: the SRV record
carries the lobby's TCP port, the A records the address players connect to, and a small TXT
record what a table list shows::

    v=2  game=<game>  name=Friday crawl  seats=2/4  match=3f2a91bc0d4e5f60  fp=3f2a-91bc-...
    to=30,90,300,60

``v`` is the protocol version (a table of another version is listed, but not joinable: see
:attr:`TableInfo.joinable`) and ``to`` the table's timeouts, its speed (:mod:`p2p.speeds`;
required from protocol 2 on).

Keys are exchanged over TCP in the lobby, never in TXT; the fingerprint only lets a player
recognise the opener.  A browser turns what it hears into :class:`TableFound`,
:class:`TableUpdated` and :class:`TableLost` events; a table whose TXT does not parse is ignored
(a known table whose TXT turns malformed is reported lost).

``interfaces`` everywhere is a list of IPv4 addresses or interface names; ``None`` means every
interface with a non-loopback IPv4 address.  Tests pass ``["127.0.0.1"]``, the only case where a
loopback address is advertised.  This is the only module that imports zeroconf.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import ipaddress
import logging
import re
import secrets
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Self

import ifaddr
from zeroconf import (
    BadTypeInNameException,
    DNSQuestionType,
    IPVersion,
    NonUniqueNameException,
    ServiceNameAlreadyRegistered,
    ServiceStateChange,
    Zeroconf,
)
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from p2p.speeds import TableTimeouts, from_txt, speed_name, to_txt
from p2p.wire import other_version
from protocol.wire.header import DEFAULT_TIMEOUTS, PROTOCOL_VERSION

log = logging.getLogger("cryptcrawl.p2p.discovery")

SERVICE_TYPE = "_cryptcrawl._tcp.local."
RESOLVE_TIMEOUT = 3.0  # s, one SRV/TXT/A lookup
RESOLVE_TRIES = 3  # lookups of a name the browser reported before it is given up
MAX_NAME_BYTES = 48  # a table name, in TXT and in the instance name
MAX_TXT_BYTES = 400  # RFC 6763 §6.2: fits a 512-byte message
MAX_TABLES = 256  # a browser tracks at most this many tables (hostile LANs)
MAX_RENAMES = 16  # "name (2)" ... on an mDNS name conflict

_GAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
_HEX = re.compile(r"[0-9a-f]{1,64}")
_FINGERPRINT = re.compile(r"[0-9a-f]{1,16}(?:-[0-9a-f]{1,16}){0,7}")
_SEATS = re.compile(r"(\d{1,2})/(\d{1,2})")
_VERSION = re.compile(r"\d{1,4}")


class DiscoveryError(Exception):
    """Advertising or browsing could not start; the message says why, in one line."""


# --------------------------------------------------------------------------- tables and events


@dataclass(frozen=True)
class TableInfo:
    """One advertised table, as parsed from its mDNS records."""

    name: str  # the table name
    host: str  # the address to connect to (first advertised IPv4 address)
    port: int  # the lobby's TCP port
    version: int  # the opener's protocol version
    game: str
    seats_taken: int
    seats_total: int
    id: str  # the table / match id, short hex
    fingerprint: str  # the opener's key fingerprint
    instance: str = ""  # the mDNS service name (identifies the advert)
    addresses: tuple[str, ...] = ()  # every advertised address
    # (quick, normal, long, silence) seconds, the table's speed; None: not advertised (a
    # table of another protocol version).
    timeouts: TableTimeouts | None = None
    watchable: bool = True  # its match may be watched (``cryptcrawl spectate``)
    live: bool = False  # its match is being played: the port is a seat's, for spectators

    @property
    def address(self) -> str:
        """``HOST:PORT`` as ``join`` takes it."""
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"

    @property
    def full(self) -> bool:
        return self.seats_taken >= self.seats_total

    @property
    def speed(self) -> str:
        """``fast``, ``normal``, ``slow``, ``custom`` (see :attr:`timeouts`), or ``""`` when
        the advert names none."""
        return "" if self.timeouts is None else speed_name(self.timeouts)

    @property
    def other_version(self) -> str:
        """Why this program cannot sit at the table ("this table plays protocol 1; this
        program plays protocol 2"), or ``""`` when it plays the same protocol."""
        if self.version == PROTOCOL_VERSION:
            return ""
        return other_version(self.version, PROTOCOL_VERSION)

    @property
    def joinable(self) -> bool:
        """Can this program sit down here: the same protocol version, and a free seat."""
        return not self.other_version and not self.full


@dataclass(frozen=True)
class TableFound:
    table: TableInfo


@dataclass(frozen=True)
class TableUpdated:
    table: TableInfo
    previous: TableInfo


@dataclass(frozen=True)
class TableLost:
    table: TableInfo  # as last seen


TableEvent = TableFound | TableUpdated | TableLost


def table_txt(*, name: str, game: str, seats_taken: int, seats_total: int, table_id: str,
              fingerprint: str, version: int = PROTOCOL_VERSION,
              timeouts: tuple[int, ...] | None = DEFAULT_TIMEOUTS,
              watchable: bool = True, live: bool = False) -> dict[str, str]:
    """The TXT properties of an advert (validated; ``ValueError`` names the bad field).
    ``timeouts`` None leaves ``to`` out (only an advert of another version may)."""
    name = _clean_name(name)
    if not _GAME.fullmatch(game):
        raise ValueError(f"game id {game!r} is not a short lowercase name")
    if not (1 <= seats_total <= 99 and 0 <= seats_taken <= seats_total):
        raise ValueError(f"seats {seats_taken}/{seats_total} are not a seat count")
    if not _HEX.fullmatch(table_id):
        raise ValueError(f"table id {table_id!r} is not short lowercase hex")
    if not _FINGERPRINT.fullmatch(fingerprint) or len(fingerprint) > 64:
        raise ValueError(f"{fingerprint!r} is not a key fingerprint")
    if not 0 <= version <= 9999:
        raise ValueError(f"protocol version {version} is out of range")
    txt = {"v": str(version), "game": game, "name": name,
           "seats": f"{seats_taken}/{seats_total}", "match": table_id, "fp": fingerprint}
    if timeouts is not None:
        txt["to"] = to_txt(timeouts)
    elif version == PROTOCOL_VERSION:
        raise ValueError(f"an advert of protocol {version} carries the table's timeouts")
    if not watchable:
        txt["watch"] = "no"  # (absent: its match may be watched)
    if live:
        txt["live"] = "yes"  # (its match is on: the port is a seat's match port)
    return txt


def parse_table(instance: str, properties: dict[bytes, bytes | None], port: int | None,
                addresses: list[str],
                networks: list[ipaddress.IPv4Network] | None = None) -> TableInfo | None:
    """A :class:`TableInfo` from an advert's records, or ``None`` if anything is malformed.
    ``host`` is the first address on one of ``networks`` (the browsing interfaces'), else the
    first IPv4 address."""
    try:
        if not addresses or port is None or not 0 < port < 65536:
            return None
        if sum(len(k) + len(v or b"") + 2 for k, v in properties.items()) > MAX_TXT_BYTES:
            return None

        def text(key: bytes) -> str:
            value = properties.get(key)
            if value is None:
                raise ValueError(f"no {key!r}")
            return value.decode("utf-8", errors="strict")

        version_text, game, name = text(b"v"), text(b"game"), text(b"name")
        seats, table_id, fp = text(b"seats"), text(b"match"), text(b"fp")
        seats_match = _SEATS.fullmatch(seats)
        if (not _VERSION.fullmatch(version_text) or not _GAME.fullmatch(game)
                or seats_match is None or not _HEX.fullmatch(table_id)
                or not _FINGERPRINT.fullmatch(fp) or len(fp) > 64
                or len(name.encode()) > MAX_NAME_BYTES or not name.isprintable()):
            return None
        taken, total = int(seats_match[1]), int(seats_match[2])
        if total < 1 or not 0 <= taken <= total:
            return None
        version = int(version_text)
        # The table's timeouts: required from this version on (an older table has none).
        timeouts = (from_txt(text(b"to")) if b"to" in properties or version == PROTOCOL_VERSION
                    else None)
        host = _pick_host(addresses, networks or [])
        watch, live = properties.get(b"watch"), properties.get(b"live")
        if watch not in (None, b"no", b"yes") or live not in (None, b"yes"):
            return None
        return TableInfo(name=name, host=host, port=port, version=version, game=game,
                         seats_taken=taken, seats_total=total, id=table_id, fingerprint=fp,
                         instance=instance, addresses=tuple(addresses), timeouts=timeouts,
                         watchable=watch != b"no", live=live == b"yes")
    except (ValueError, UnicodeDecodeError, TypeError, AttributeError):
        return None


def _pick_host(addresses: list[str], networks: list[ipaddress.IPv4Network]) -> str:
    v4 = [a for a in addresses if ":" not in a]
    for address in v4:
        if any(ipaddress.ip_address(address) in net for net in networks):
            return address
    return v4[0] if v4 else addresses[0]


def _clean_name(name: str) -> str:
    """A printable table name of at most MAX_NAME_BYTES UTF-8 bytes (cut at a character)."""
    name = " ".join("".join(c if c.isprintable() else " " for c in name).split())
    while len(name.encode()) > MAX_NAME_BYTES:
        name = name[:-1]
    return name.rstrip() or "cryptcrawl table"


def _short_id(table_id: bytes | str) -> str:
    if isinstance(table_id, bytes):
        return table_id[:8].hex()
    return table_id.lower()[:16]


# --------------------------------------------------------------------------- interfaces


def list_interfaces() -> list[tuple[str, str]]:
    """``(interface name, IPv4 address)`` of every interface with a non-loopback IPv4 address
    (the choices for ``--interface``)."""
    found: list[tuple[str, str]] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if ip.is_IPv4 and isinstance(ip.ip, str):
                if not ipaddress.ip_address(ip.ip).is_loopback:
                    found.append((str(adapter.nice_name), ip.ip))
    return sorted(set(found))


def resolve_interfaces(interfaces: list[str] | None) -> list[str]:
    """IPv4 addresses to bind mDNS to: each entry an address or an interface name; ``None`` is
    every non-loopback interface."""
    if interfaces is None:
        addresses = [address for _, address in list_interfaces()]
        if not addresses:
            raise DiscoveryError("no network interface with an IPv4 address to use for "
                                 "discovery (connect to a LAN, or join with HOST:PORT)")
        return addresses
    if not interfaces:
        raise DiscoveryError("no interface given for discovery")
    names: dict[str, list[str]] | None = None
    result: list[str] = []
    for entry in interfaces:
        try:
            address = ipaddress.ip_address(entry)
        except ValueError:
            if names is None:
                names = {}
                for adapter in ifaddr.get_adapters():
                    names.setdefault(str(adapter.nice_name), []).extend(
                        ip.ip for ip in adapter.ips if ip.is_IPv4 and isinstance(ip.ip, str))
            if not names.get(entry):
                known = ", ".join(f"{n} ({a})" for n, a in list_interfaces()) or "none"
                raise DiscoveryError(f"no interface {entry!r} with an IPv4 address "
                                     f"(interfaces: {known})") from None
            result.extend(names[entry])
            continue
        if address.version != 4:
            raise DiscoveryError(f"{entry}: discovery uses IPv4 addresses")
        result.append(str(address))
    return list(dict.fromkeys(result))


def _networks(bound: list[str]) -> list[ipaddress.IPv4Network]:
    """The IPv4 networks the bound addresses are on."""
    found: list[ipaddress.IPv4Network] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if ip.is_IPv4 and isinstance(ip.ip, str) and ip.ip in bound:
                found.append(ipaddress.IPv4Network(f"{ip.ip}/{ip.network_prefix}", strict=False))
    return found


def _advertised_addresses(bound: list[str]) -> list[str]:
    """What to put in the A records: the bound addresses, without loopback unless there is
    nothing else (tests bound to 127.0.0.1)."""
    real = [a for a in bound if not ipaddress.ip_address(a).is_loopback]
    return real or bound


def _open_zeroconf(addresses: list[str]) -> AsyncZeroconf:
    try:
        return AsyncZeroconf(interfaces=list(addresses), ip_version=IPVersion.V4Only)
    except (OSError, RuntimeError, ValueError) as exc:
        raise DiscoveryError(f"cannot start mDNS on {', '.join(addresses)}: {exc}") from None


# --------------------------------------------------------------------------- advertising


class Advertiser:
    """Advertise one open table until :meth:`close` (when the match starts or the table closes).

    ``async with Advertiser(...) as ad: ... await ad.update(seats_taken=2)``, or
    ``await ad.start()`` / ``await ad.close()``.
    """

    def __init__(self, *, name: str, port: int, fingerprint: str, table_id: bytes | str,
                 seats_total: int, game: str, seats_taken: int = 1,
                 version: int = PROTOCOL_VERSION, interfaces: list[str] | None = None,
                 addresses: list[str] | None = None,
                 timeouts: tuple[int, ...] | None = DEFAULT_TIMEOUTS,
                 watchable: bool = True, live: bool = False) -> None:
        if not 0 < port < 65536:
            raise ValueError(f"port {port} is out of range")
        self.name = _clean_name(name)
        self.port = port
        self.fingerprint = fingerprint
        self.table_id = _short_id(table_id)
        self.seats_total = seats_total
        self.seats_taken = seats_taken
        self.game = game
        self.version = version
        self.timeouts = timeouts
        self.watchable = watchable
        self.live = live
        self.interfaces = interfaces
        self.addresses = addresses
        self._properties()  # validate now, not on the network
        self.instance = self.name  # the mDNS instance name, suffixed on a conflict
        self._zc: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None
        self._published: list[str] = []
        self._server = f"cryptcrawl-{secrets.token_hex(4)}.local."
        self._lock = asyncio.Lock()

    def _properties(self) -> dict[str, str]:
        return table_txt(name=self.name, game=self.game, seats_taken=self.seats_taken,
                         seats_total=self.seats_total, table_id=self.table_id,
                         fingerprint=self.fingerprint, version=self.version,
                         timeouts=self.timeouts, watchable=self.watchable, live=self.live)

    def _service_info(self) -> AsyncServiceInfo:
        return AsyncServiceInfo(SERVICE_TYPE, f"{self.instance}.{SERVICE_TYPE}", port=self.port,
                                properties=dict(self._properties()), server=self._server,
                                parsed_addresses=list(self._published))

    @property
    def advertising(self) -> bool:
        return self._info is not None

    async def start(self) -> None:
        """Register the advert and wait until it has been announced."""
        async with self._lock:
            if self._zc is not None:
                return
            bound = resolve_interfaces(self.interfaces)
            self._published = self.addresses or _advertised_addresses(bound)
            self._zc = _open_zeroconf(bound)
            try:
                await self._register()
            except BaseException:
                zc, self._zc = self._zc, None
                with contextlib.suppress(Exception):
                    await zc.async_close()
                raise

    async def _register(self) -> None:
        assert self._zc is not None
        base = self.instance
        for attempt in range(1, MAX_RENAMES + 1):
            self.instance = base if attempt == 1 else f"{base} ({attempt})"
            info = self._service_info()
            try:
                task = await self._zc.async_register_service(info)
                await task
            except (NonUniqueNameException, ServiceNameAlreadyRegistered):
                log.info("the name %r is taken on the LAN; trying another", self.instance)
                continue
            except BadTypeInNameException as exc:
                raise DiscoveryError(f"cannot advertise {self.instance!r}: {exc!r}") from None
            self._info = info
            log.info("advertising %s on %s", info.name, ", ".join(self._published))
            return
        raise DiscoveryError(f"no free mDNS name for the table {base!r}")

    async def update(self, *, seats_taken: int | None = None, seats_total: int | None = None,
                     name: str | None = None) -> None:
        """Re-announce the advert with changed seats (or name); a no-op once closed."""
        async with self._lock:
            old = (self.seats_taken, self.seats_total, self.name)
            if seats_taken is not None:
                self.seats_taken = seats_taken
            if seats_total is not None:
                self.seats_total = seats_total
            if name is not None:
                self.name = _clean_name(name)
            try:
                self._properties()
            except ValueError:
                self.seats_taken, self.seats_total, self.name = old
                raise
            if self._zc is None or self._info is None:
                return
            info = self._service_info()
            task = await self._zc.async_update_service(info)
            self._info = info
            await task

    async def close(self) -> None:
        """Withdraw the advert (goodbye packets) and stop mDNS; safe to call twice."""
        async with self._lock:
            zc, info = self._zc, self._info
            self._zc = self._info = None
            if zc is None:
                return
            try:
                if info is not None:
                    task = await zc.async_unregister_service(info)
                    await task
            finally:
                await zc.async_close()

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        await self.close()


# --------------------------------------------------------------------------- browsing


class TableBrowser:
    """Browse for tables; iterate to get :class:`TableFound` / :class:`TableUpdated` /
    :class:`TableLost` events::

        async with TableBrowser(interfaces) as browser:
            async for event in browser: ...

    Iteration ends when the browser is closed.  :attr:`tables` holds what is known now.
    """

    def __init__(self, interfaces: list[str] | None = None, *,
                 resolve_timeout: float = RESOLVE_TIMEOUT) -> None:
        self.interfaces = interfaces
        self.resolve_timeout = resolve_timeout
        self.tables: dict[str, TableInfo] = {}  # by mDNS instance name (lower case)
        self._events: asyncio.Queue[TableEvent | None] = asyncio.Queue()
        self._resolving: dict[str, asyncio.Task[None]] = {}
        self._zc: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._closed = False
        self._networks: list[ipaddress.IPv4Network] = []

    async def start(self) -> None:
        if self._zc is not None or self._closed:
            return
        bound = resolve_interfaces(self.interfaces)
        self._networks = _networks(bound)
        self._zc = _open_zeroconf(bound)
        # QM, not the default QU first question: a unicast answer to port 5353 reaches only
        # one of the sockets bound there, and on a machine that also runs a responder (a
        # table of our own, avahi) it is often not ours, so the first answer was lost and
        # the table appeared only after the 1 s re-query.  A multicast answer reaches all.
        self._browser = AsyncServiceBrowser(self._zc.zeroconf, SERVICE_TYPE,
                                            handlers=[self._on_change],
                                            question_type=DNSQuestionType.QM)

    def _on_change(self, zeroconf: Zeroconf, service_type: str, name: str,
                   state_change: ServiceStateChange) -> None:
        """Runs in the event loop (AsyncServiceBrowser); never blocks."""
        if self._closed:
            return
        key = name.lower()
        pending = self._resolving.pop(key, None)
        if pending is not None:
            pending.cancel()
        if state_change is ServiceStateChange.Removed:
            lost = self.tables.pop(key, None)
            if lost is not None:
                self._events.put_nowait(TableLost(lost))
            return
        if key not in self.tables and len(self.tables) + len(self._resolving) >= MAX_TABLES:
            log.debug("ignoring %r: already tracking %d tables", name, MAX_TABLES)
            return
        task = asyncio.ensure_future(self._resolve(zeroconf, service_type, name))
        self._resolving[key] = task
        task.add_done_callback(functools.partial(self._done, key))

    def _done(self, key: str, task: asyncio.Task[None]) -> None:
        if self._resolving.get(key) is task:
            del self._resolving[key]
        if not task.cancelled() and task.exception() is not None:
            log.debug("resolving %s failed: %r", key, task.exception())

    async def _resolve(self, zeroconf: Zeroconf, service_type: str, name: str) -> None:
        # The browser reports a name once; if its lookup goes unanswered (a lost packet, a
        # busy host), ask again a few times rather than never show the table.
        info = AsyncServiceInfo(service_type, name)
        for _ in range(RESOLVE_TRIES):
            if await info.async_request(zeroconf, round(self.resolve_timeout * 1000)):
                break
            if self._closed:
                return
        else:
            log.debug("no answer resolving %s", name)
            return
        if self._closed:
            return
        table = parse_table(name, info.properties, info.port,
                            info.parsed_addresses(IPVersion.V4Only), self._networks)
        key = name.lower()
        known = self.tables.get(key)
        if table is None:
            log.debug("ignoring %s: malformed advert", name)
            if known is not None:  # it was a table; it no longer is one
                del self.tables[key]
                self._events.put_nowait(TableLost(known))
            return
        self.tables[key] = table
        if known is None:
            self._events.put_nowait(TableFound(table))
        elif known != table:
            self._events.put_nowait(TableUpdated(table, known))

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for task in list(self._resolving.values()):
            task.cancel()
        self._resolving.clear()
        browser, zc = self._browser, self._zc
        self._browser = self._zc = None
        try:
            if browser is not None:
                await browser.async_cancel()
        finally:
            if zc is not None:
                await zc.async_close()
            self._events.put_nowait(None)

    async def next_event(self, timeout: float | None = None) -> TableEvent:
        """The next event; ``TimeoutError`` after ``timeout`` s, ``StopAsyncIteration`` once
        closed."""
        if self._closed and self._events.empty():
            raise StopAsyncIteration
        event = await asyncio.wait_for(self._events.get(), timeout)
        if event is None:
            self._events.put_nowait(None)  # wake any other waiter too
            raise StopAsyncIteration
        return event

    def __aiter__(self) -> AsyncIterator[TableEvent]:
        return self

    async def __anext__(self) -> TableEvent:
        return await self.next_event()

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        await self.close()


def browse(interfaces: list[str] | None = None) -> TableBrowser:
    """``async with browse(interfaces) as events: async for event in events: ...``"""
    return TableBrowser(interfaces)


async def find_tables(interfaces: list[str] | None = None, *,
                      timeout: float = 2.0) -> list[TableInfo]:
    """Every table heard of within ``timeout`` seconds (what ``cryptcrawl tables`` lists)."""
    async with TableBrowser(interfaces) as browser:
        await asyncio.sleep(timeout)
        return sorted(browser.tables.values(), key=lambda t: (t.name, t.instance))


async def find_table(interfaces: list[str] | None = None, *, timeout: float = 5.0,
                     match: Callable[[TableInfo], bool] | None = None) -> TableInfo:
    """The first table found that ``match`` accepts (default: any with a free seat and this
    protocol version); ``TimeoutError`` if none within ``timeout`` seconds."""
    def wanted(table: TableInfo) -> bool:
        if match is not None:
            return match(table)
        return table.joinable

    async def first(browser: TableBrowser) -> TableInfo:
        async for event in browser:
            if isinstance(event, TableFound | TableUpdated) and wanted(event.table):
                return event.table
        raise TimeoutError

    async with TableBrowser(interfaces) as browser:
        return await asyncio.wait_for(first(browser), timeout)


# --------------------------------------------------------------------------- tests


@contextlib.contextmanager
def quick_timing() -> Iterator[None]:
    """Shorten mDNS probe, announce and first-query delays, as python-zeroconf's own test
    fixtures (``quick_timing``) do.  For tests on loopback only: never on a real LAN."""
    from zeroconf import _core
    from zeroconf._services import browser

    patches: list[tuple[Any, str, Any]] = [
        (_core, "_CHECK_TIME", 10), (_core, "_REGISTER_TIME", 10),
        (_core, "_UNREGISTER_TIME", 10), (_core, "_PROBE_RANDOM_DELAY_INTERVAL", (1, 5)),
        (browser, "_FIRST_QUERY_DELAY_RANDOM_INTERVAL", (1, 5)),
    ]
    saved = [(module, attr, getattr(module, attr)) for module, attr, _ in patches]
    try:
        for module, attr, value in patches:
            setattr(module, attr, value)
        yield
    finally:
        for module, attr, value in saved:
            setattr(module, attr, value)
