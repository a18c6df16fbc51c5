"""``cryptcrawl host / tables / join / resume / matches / id``: the LAN commands, line mode.

They render what the P2P layer reports and read the person's choices; every rule stays in the
engine and the protocol.
"""

from __future__ import annotations

import asyncio
import dataclasses
import ipaddress
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from cli.netplay import NetGame, NetOptions
from cli.play import Console, InputClosed, in_reader
from cli.text import seat_letter
from p2p.lobby import Joiner
from p2p.peer import PeerConfig, bot_decider
from p2p.speeds import describe
from p2p.store import KnownKeys, MatchStore, StoreError, load_identity, unfinished_matches
from p2p.wire import parse_address, valid_port
from protocol.crypto import fingerprint, public_key_bytes
from protocol.wire.header import PROTOCOL_VERSION
from protocol.wire.transcript import read_transcript


class UsageError(Exception):
    """A command line argument that cannot be right (a port out of range, an address that
    is not one): reported like argparse's usage errors, in one line, with exit status 2."""

    def __init__(self, command: str, message: str) -> None:
        super().__init__(message)
        self.command = command


EXIT_USAGE = 2


def _is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def _meant_as_address(target: str) -> bool:
    """Does ``join``'s argument look like an address rather than a table name: an IP address
    (with or without a port), ``[...]...``, or anything ending in ``:NUMBER`` (a sign too)?
    A name with a colon in it (``Game: night``) stays a name."""
    if target.startswith("[") or _is_ip(target):
        return True
    host_name, colon, port = target.rpartition(":")
    if not colon:
        return False
    return (re.fullmatch(r"[+-]?[0-9]+", port) is not None or not host_name
            or host_name == "localhost" or _is_ip(host_name))


def parse_target(target: str) -> tuple[str, int] | None:
    """``join``'s argument: ``(host, port)`` for ``HOST:PORT`` or ``[IPV6]:PORT``, None for a
    table name (or "" for the only open table).  UsageError for an argument meant as an
    address that is not a valid one (a port out of range, no host, a bare IPv6 address)."""
    if not _meant_as_address(target):
        return None
    try:
        return parse_address(target)
    except ValueError as exc:
        raise UsageError("join", str(exc)) from None


def check_lobby_port(port: int) -> int:
    """``host --port``: 0 (any free port) to 65535; UsageError for anything else."""
    if not valid_port(port, any_port=True):
        raise UsageError("host", f"--port {port} is not a TCP port (0 to 65535; 0: any free "
                                 "port)")
    return port


def _config(options: NetOptions) -> PeerConfig:
    return PeerConfig(linger=1.0, spectators=PeerConfig().spectators if options.spectators
                      else 0)


def _known(data_dir: Path) -> KnownKeys:
    return KnownKeys(data_dir / "known_keys.json")


def key_warning(known: KnownKeys, name: str, fp: str) -> str:
    before = known.check(name, fp)
    if before is None:
        return ""
    return (f"WARNING: {name!r} used key {before} before; this is a NEW key {fp}. It may be "
            "someone else using the same name.")


@dataclass
class Session:
    """What a rematch needs from the match before: the table's address and who sat there."""

    host: str = ""
    port: int = 0
    keys: frozenset[bytes] = frozenset()
    matches: int = 0
    rematch: bool | None = None  # the full screen's end screen answered the offer


def _remember(session: Session | None, result: Any) -> None:
    if session is not None:
        session.keys = frozenset(seat.key for seat in result.core.header.header.seats)
        session.matches += 1


def table_lines(game: str, players: int, options: dict[str, Any],
                timeouts: tuple[int, ...] | None = None) -> list[str]:
    """What a lobby says about the table: its game and options (in the words of the game's
    plug-in) and, once the header agrees them, its timeouts."""
    from cli.games import make_ui
    from cli.text import wrap_text

    lines = wrap_text(f"The table plays {make_ui(game, players, options).describe()}.",
                      indent="  ")
    if timeouts:
        quick, normal, long, silence = timeouts
        lines += wrap_text(f"Timeouts: {quick} s for a quick decision, {normal} s for a turn, "
                           f"{long} s for a long plan; then {silence} s of silence before a "
                           "seat is replaced.", indent="  ")
    return lines


def _new_game(options: NetOptions, console: Console, full_screen: bool) -> NetGame:
    if full_screen:
        from cli.tui import LanFullScreenGame

        return LanFullScreenGame(options, console)
    return NetGame(options, console)


async def _end(game: NetGame, result: Any, session: Session | None = None) -> int:
    game.finish(result.core.state, result.path)
    wait_ui = getattr(game, "wait_ui", None)
    if wait_ui is not None:
        await wait_ui()
    if session is not None:
        session.rematch = getattr(game, "rematch", None)
    return 0


async def host_lan(options: NetOptions, console: Console, data_dir: Path, *,
                   interfaces: list[str] | None, port: int, table_name: str,
                   passphrase: str, approve_all: bool, advertise: bool = True,
                   full_screen: bool = False, session: Session | None = None) -> int:
    """Open a table on the LAN: advertise it, let people sit down, play seat A.  With a
    ``session`` from a match before (a rematch), the seats of that match sit down again
    without asking."""
    from p2p.discovery import Advertiser, resolve_interfaces
    from p2p.run import host

    check_lobby_port(port)
    game = _new_game(options, console, full_screen)
    known = _known(data_dir)
    key = load_identity(data_dir)
    my_fp = fingerprint(public_key_bytes(key))
    bind = "0.0.0.0"
    if interfaces:
        addresses = resolve_interfaces(interfaces)
        bind = addresses[0] if len(addresses) == 1 else "0.0.0.0"
    ad: list[Advertiser] = []
    pending: set[asyncio.Future[None]] = set()
    reading: list[asyncio.Future[str]] = []  # the console line being read (one at a time)

    async def ask(prompt: str) -> str:
        """The answer to ``prompt``.  A question withdrawn (the joiner left) leaves its
        console read going: the next question takes it over (else two threads would read
        the console), and an answer typed while nobody asks is dropped, never applied to the
        next joiner."""
        if reading and not reading[0].done():
            console.say(prompt.rstrip())
        else:
            reading[:] = [in_reader(console.ask, prompt)]
        return await asyncio.shield(reading[0])

    def on_left(joiner: Joiner) -> None:
        console.say("", f"{joiner.name} [{joiner.fingerprint}] left before you answered; the seat "
                    "is free again.")

    def later(coro: Any) -> None:
        future = asyncio.ensure_future(coro)
        pending.add(future)
        future.add_done_callback(pending.discard)

    async def approve(joiner: Joiner) -> bool:
        if session is not None and joiner.key in session.keys:
            console.say(f"{joiner.name} [{joiner.fingerprint}] sits down again.")
            return True
        warning = key_warning(known, joiner.name, joiner.fingerprint)
        console.say(f"{joiner.name} [{joiner.fingerprint}] from {joiner.host} wants to sit down.")
        if warning:
            console.say(warning)
        if approve_all and not warning:
            return True
        try:
            answer = await ask("let them sit down? [Y/n] ")
        except InputClosed:  # nobody there to answer: nobody sits down unasked
            console.say(f"No answer (input ended): {joiner.name} is turned away.")
            return False
        return answer.lower() not in ("n", "no")

    def on_port(lobby_port: int) -> None:
        if session is not None:
            session.port = lobby_port
        console.say(f"Table {table_name!r} is open on port {lobby_port}; your key {my_fp}; "
                    f"speed {describe(options.timeouts)}.",
                    *table_lines(options.game, options.players, dict(options.options)),
                    f"Others join with: cryptcrawl join {table_name!r}  (or HOST:{lobby_port})")
        if advertise:
            advert = Advertiser(name=table_name, port=lobby_port, fingerprint=my_fp,
                                game=options.game,
                                table_id=os.urandom(8), seats_total=options.players,
                                seats_taken=1 + (options.bots), interfaces=interfaces,
                                timeouts=options.timeouts, watchable=options.spectators)
            ad.append(advert)
            later(advert.start())

    def on_other_version(address: str, version: int) -> None:
        console.say(f"Someone at {address or 'an unknown address'} was turned away: their "
                    f"program plays protocol {version}; this table plays protocol "
                    f"{PROTOCOL_VERSION}.")

    def on_joiners(joiners: list[Joiner]) -> None:
        console.say(f"{1 + len(joiners)} of {options.players} seats taken.")
        if ad:
            if 1 + len(joiners) >= options.players:
                later(ad[0].close())
            else:
                later(ad[0].update(seats_taken=1 + len(joiners)))

    def on_peer(peer: Any) -> None:
        game.attach(peer)
        if advertise and options.spectators:
            # The match is on: advertised again, live, at this seat's match port, for
            # spectators (`cryptcrawl spectate NAME`); nobody can join it.
            live = Advertiser(name=table_name, port=peer.addresses[peer.seat][1],
                              fingerprint=my_fp, game=options.game, table_id=os.urandom(8),
                              seats_total=options.players, seats_taken=options.players,
                              interfaces=interfaces, timeouts=options.timeouts, live=True)
            ad.append(live)
            later(live.start())

    game_task = host(data_dir, game=options.game, name=options.name or "host",
                     players=options.players, options=dict(options.options), port=port, bind=bind,
                     bots=options.bots, bot=options.bot_kinds(options.bots),
                     choose=game.choose, config=_config(options), passphrase=passphrase,
                     on_event=game.on_event, on_port=on_port, on_joiners=on_joiners,
                     on_peer=on_peer, approve=approve, bot_dir=data_dir / "bots",
                     table_name=table_name, on_left=on_left, timeouts=options.timeouts,
                     on_other_version=on_other_version)
    game.task = asyncio.ensure_future(game_task)
    try:
        result = await _await_game(game)
    finally:
        for advert in ad:
            await advert.close()
    _remember(session, result)
    return await _end(game, result, session)


async def _await_game(game: NetGame) -> Any:
    """The match's result; if it fails or is left, the full screen (if any) is closed first,
    so that what is said next reaches the terminal, not the screen's log."""
    assert game.task is not None
    try:
        return await game.task
    except BaseException as exc:
        close_ui = getattr(game, "close_ui", None)
        if close_ui is not None:
            await close_ui()
        if isinstance(exc, asyncio.CancelledError) and game.stop is not None:
            raise game.stop from None
        raise


async def join_lan(options: NetOptions, console: Console, data_dir: Path, target: str, *,
                   interfaces: list[str] | None, passphrase: str, wait: float,
                   bot: str = "", full_screen: bool = False, session: Session | None = None,
                   retry_for: float = 0.0) -> int:
    """Join a table by its name (found with zeroconf) or at ``HOST:PORT``; ``retry_for``
    seconds of retries while nothing answers there (a rematch: the host may still be
    deciding)."""
    from p2p.lobby import LobbyError
    from p2p.run import join

    host_name, port = await _locate(console, target, interfaces, wait)
    if session is not None:  # (a rematch joins at f"{host}:{port}": IPv6 in brackets)
        session.host = f"[{host_name}]" if ":" in host_name else host_name
        session.port = port
    if retry_for > 0:
        console.say(f"Waiting up to {retry_for:.0f} s for the host to open the rematch...")
        deadline = asyncio.get_running_loop().time() + retry_for
        while not await _answers(host_name, port):
            if asyncio.get_running_loop().time() > deadline:
                raise LobbyError(f"no rematch: nothing answered at {host_name}:{port}")
            await asyncio.sleep(0.5)
    game = _new_game(options, console, full_screen and not bot)
    decide = bot_decider(bot, os.urandom(32)) if bot else None
    game.human = not bot
    seats = [0]
    if bot:
        game.check_bot = bot

    def on_seated(seat: int, players: int, table_name: str, opener: str,
                  timeouts: tuple[int, int, int, int]) -> None:
        seats[0] = players
        console.say(f"You sit at {table_name!r} as seat {seat_letter(seat)} of {players} "
                    f"(opener key {opener}; speed {describe(timeouts)}). Waiting for the "
                    "table to fill...")

    def on_lobby(sitting: list[tuple[str, str]]) -> None:
        who = ", ".join(f"{name} [{fp}]" for name, fp in sitting)
        console.say(f"At the table, {len(sitting)} of {seats[0]}: {who}")

    game.task = asyncio.ensure_future(join(
        data_dir, host_name, port, name=options.name or "guest", decide=decide,
        choose=None if bot else game.choose, config=_config(options),
        passphrase=passphrase, on_event=game.on_event, on_peer=game.attach,
        on_seated=on_seated, on_lobby=on_lobby))
    result = await _await_game(game)
    _remember(session, result)
    return await _end(game, result, session)


async def _answers(host_name: str, port: int) -> bool:
    """Is a table listening at ``host_name:port``?  (Connects and hangs up at once.)"""
    try:
        _reader, writer = await asyncio.wait_for(asyncio.open_connection(host_name, port), 2)
    except (OSError, TimeoutError):
        return False
    writer.close()
    return True


async def _locate(console: Console, target: str, interfaces: list[str] | None,
                  wait: float) -> tuple[str, int]:
    address = parse_target(target)
    if address is not None:
        shown = f"[{address[0]}]" if ":" in address[0] else address[0]
        console.say(f"Joining the table at {shown}:{address[1]} (waiting for it to answer; "
                    "Ctrl-C to give up)...")
        return address
    from p2p.discovery import find_table, find_tables

    console.say(f"Looking for {'table ' + repr(target) if target else 'a table'} on the LAN...")
    if target:  # a named table: go as soon as it is heard of
        try:
            # (A table of another version ends the search too: joining it is refused.)
            found = await find_table(interfaces, timeout=wait, match=lambda t: (
                target in (t.name, t.id) and not t.full))
        except TimeoutError:
            tables = []
        else:
            tables = [found]
    else:
        tables = await find_tables(interfaces, timeout=wait)
    matching = [t for t in tables if not target or t.name == target or t.id == target]
    open_tables = [t for t in matching if t.joinable]
    others = [t for t in matching if t.other_version and not t.full]
    if not open_tables and others:
        from p2p.lobby import OtherVersion

        raise OtherVersion(others[0].version)
    if not open_tables:
        raise StoreError(f"no open table {target!r} found in {wait:g} s; if multicast does "
                         "not reach (VPN, another subnet), use `cryptcrawl join HOST:PORT`")
    if len(open_tables) > 1 and not target:
        names = ", ".join(repr(t.name) for t in open_tables)
        raise StoreError(f"several tables are open ({names}): name the one to join")
    table = open_tables[0]
    from engine.games import games, get_game

    what = get_game(table.game).title if table.game in games() else f"{table.game!r}"
    console.say(f"Joining {table.name!r} at {table.address} (opener key {table.fingerprint}, "
                f"{table.seats_taken}/{table.seats_total} seats, speed "
                f"{describe(table.timeouts) if table.timeouts else 'not advertised'}): {what}.")
    return table.host, table.port


def _seconds(timeouts: tuple[int, ...]) -> str:
    return "(" + "/".join(str(t) for t in timeouts) + " s)"


async def list_tables(out: TextIO, interfaces: list[str] | None, wait: float,
                      watch: bool, game: str | None = None) -> int:
    """``cryptcrawl tables``: the tables heard of on the LAN (only ``game``'s, if given)."""
    from engine.games import games, get_game
    from p2p.discovery import TableFound, TableLost, TableUpdated, browse

    def line(t: Any) -> str:
        text = (f"{t.name:<24} {t.game:<8} {t.seats_taken}/{t.seats_total} seats  "
                f"{t.address:<22} key {t.fingerprint}  v{t.version}{title(t.game)}")
        if getattr(t, "live", False):
            return f"{text}  playing: cryptcrawl spectate {t.name!r}"
        if t.other_version:
            return f"{text}  cannot join: {t.other_version}"
        return (f"{text}  speed {t.speed}" + (f" {_seconds(t.timeouts)}" if t.timeouts else "")
                + ("" if getattr(t, "watchable", True) else "  no spectators"))

    def title(name: str) -> str:
        return f"  ({get_game(name).title})" if name in games() else "  (a game this program lacks)"

    deadline = asyncio.get_running_loop().time() + wait
    seen = 0
    async with browse(interfaces) as browser:
        out.write(f"Tables on the LAN (listening {'until Ctrl-C' if watch else f'{wait:g} s'}):\n")
        out.flush()
        while True:
            remaining = None if watch else deadline - asyncio.get_running_loop().time()
            if remaining is not None and remaining <= 0:
                break
            try:
                event = await browser.next_event(remaining)
            except TimeoutError:
                break
            if game is not None and event.table.game != game:
                continue
            if isinstance(event, TableFound):
                seen += 1
                out.write("+ " + line(event.table) + "\n")
            elif isinstance(event, TableUpdated):
                out.write("~ " + line(event.table) + "\n")
            elif isinstance(event, TableLost):
                out.write("- " + line(event.table) + " (gone)\n")
            out.flush()
    if not seen:
        which = f"No {get_game(game).title} table found" if game else "No table found"
        out.write(f"{which}. If you expected one: check the firewall (UDP 5353), or join "
                  "with `cryptcrawl join HOST:PORT`.\n")
    return 0


async def resume_lan(options: NetOptions, console: Console, data_dir: Path, match: str = "",
                     *, full_screen: bool = False) -> int:
    """Take up an interrupted match: the one whose id starts with ``match``, or else the one
    played last (its match file changed last).  The name shown is the one in the match."""
    from p2p.run import own_bot_matches, resume

    store = pick_unfinished(data_dir, match)
    try:
        header = read_transcript(store.read()).header
        seat, _ = store.seat_and_addresses(len(header.header.seats)) if header else (-1, [])
    except (StoreError, OSError, ValueError):
        header, seat = None, -1
    if header is not None and 0 <= seat < len(header.header.seats):
        named = header.header.seats[seat].name
        if options.name and options.name != named:
            console.say(f"You are {named!r} in this match (--name {options.name!r} is for new "
                        "matches).")
        # Every other seat one of this machine's own bots (a `play` match): they are taken up
        # in this process, so leaving stops the match here, as in `play`.
        local = len(own_bot_matches(data_dir, store)) == len(header.header.seats) - 1
        options = dataclasses.replace(options, name="" if named == "you" else named,
                                      game=header.header.game, local=local)
    game = _new_game(options, console, full_screen)
    console.say(f"Resuming {store.path} ...")
    game.task = asyncio.ensure_future(resume(
        data_dir, store=store, choose=game.choose, config=_config(options),
        on_event=game.on_event, on_peer=game.attach))
    result = await _await_game(game)
    return await _end(game, result)


def pick_unfinished(data_dir: Path, match: str = "") -> MatchStore:
    """The unfinished match to resume: the one whose id (file name) starts with ``match``,
    or with no ``match`` the one whose file changed last.  StoreError if there is none (or
    ``match`` names none, or several)."""
    stores = unfinished_matches(data_dir)
    if not stores:
        raise StoreError(f"no interrupted match in {data_dir}")
    if match:
        wanted = match.lower()
        found = [s for s in stores if s.path.stem.startswith(wanted)]
        if not found:
            ids = ", ".join(s.path.stem for s in stores)
            raise StoreError(f"no interrupted match {match!r} in {data_dir} (there is: {ids})")
        if len(found) > 1:
            raise StoreError(f"{len(found)} interrupted matches start with {match!r}: give "
                             "more of the id")
        return found[0]
    return max(stores, key=_last_played)


def _last_played(store: MatchStore) -> tuple[int, int]:
    """When the match was last played here: its file's last change (then its seed's)."""
    times = []
    for path in (store.path, store.seed_path):
        try:
            times.append(os.stat(path).st_mtime_ns)
        except OSError:
            times.append(0)
    return times[0], times[1]


def list_matches(data_dir: Path, out: TextIO, *, prune: bool = False) -> int:
    """``cryptcrawl matches`` (in :mod:`cli.matches`)."""
    from cli.matches import list_matches as listing

    return listing(data_dir, out, prune=prune)


def show_id(data_dir: Path, out: TextIO, *, export: str | None, import_from: str | None) -> int:
    from cryptography.hazmat.primitives.serialization import (
        Encoding,
        NoEncryption,
        PrivateFormat,
    )

    path = data_dir / "identity.key"
    if import_from is not None:
        from cli.verify import Unreadable, read_limited, shown

        try:  # (a regular file; a device or a pipe is refused, never read for ever)
            raw = read_limited(import_from, 32)
        except Unreadable as exc:
            raise StoreError(str(exc)) from None
        if len(raw) != 32:
            raise StoreError(f"{shown(import_from)} is not an identity key (32 raw bytes)")
        from p2p.store import import_identity

        # (Never replaces a key; a directory or a pipe in its place is one line.)
        import_identity(data_dir, raw)
    created = not path.exists()
    key = load_identity(data_dir)
    fp = fingerprint(public_key_bytes(key))
    out.write(f"{'New identity' if created else 'Your identity'}: {fp}\n  stored in {path}\n")
    if export:
        target = Path(export)
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption()))
        finally:
            os.close(fd)
        out.write(f"  exported to {target} (mode 0600; keep it secret: it IS your identity)\n")
    return 0


def run_async(coro: Any) -> int:
    """Run a command's coroutine; its exit status.  A usage error found on the way (see
    :class:`UsageError`) is one line on stderr, status 2."""
    try:
        return int(asyncio.run(coro))
    except UsageError as exc:
        prog = f"cryptcrawl {exc.command}"
        sys.stderr.write(f"{prog}: error: {exc} (see {prog} --help)\n")
        return EXIT_USAGE


__all__ = ["UsageError", "check_lobby_port", "host_lan", "join_lan", "list_matches",
           "list_tables", "parse_target", "resume_lan", "run_async", "show_id", "sys"]
