"""Putting a seat on the network: host a table, join one, resume a match, run bot seats.

These are the entry points the command line (``cli/``) and the tests use.  A bot seat is a
real peer: its own identity key, its own data directory, its own connections.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import hashlib
import logging
import os
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.core import DEFAULT_LEVEL, LEVELS, UnknownGameError
from engine.games import games, get_game
from p2p.lobby import Joiner, LobbyError, OnSeated, Seated, Table, join_table
from p2p.peer import AsyncDecider, Decider, MatchPeer, PeerConfig, bot_decider, listen_socket
from p2p.speeds import TableTimeouts
from p2p.store import MatchStore, StoreError, load_identity, unfinished_matches
from p2p.wire import parse_address, parse_port
from protocol.crypto import public_key_bytes
from protocol.errors import BadMessage
from protocol.match.core import Event, MatchCore
from protocol.wire.header import DEFAULT_TIMEOUTS

log = logging.getLogger("cryptcrawl.p2p")


@dataclass
class Result:
    core: MatchCore
    seat: int
    path: Path


async def play_seated(data_dir: Path, key: Ed25519PrivateKey, seated: Seated, sock: Any, *,
                      decide: Decider | None = None, choose: AsyncDecider | None = None,
                      config: PeerConfig | None = None,
                      on_event: Callable[[Event], None] | None = None,
                      on_peer: Callable[[MatchPeer], None] | None = None) -> Result:
    """Store the new match (seed first, mode 0600) and play it to the end."""
    seed = os.urandom(32)
    store = MatchStore(data_dir, seated.header.match_id)
    store.create(seated.header, seed, {"seat": seated.seat,
                                       "addresses": [list(a) for a in seated.addresses],
                                       "spectators": seated.spectators})
    config = _spectators(config, seated.spectators)
    peer = MatchPeer(seated.header, seated.seat, key, seed, store, seated.addresses,
                     decide=decide, choose=choose, config=config, sock=sock, on_event=on_event)
    if on_peer is not None:
        on_peer(peer)
    core = await peer.run()
    return Result(core, seated.seat, store.path)


def _spectators(config: PeerConfig | None, table: int) -> PeerConfig:
    """This seat's config under the table's spectator policy (never more than the table's)."""
    config = config or PeerConfig()
    return dataclasses.replace(config, spectators=max(0, min(config.spectators, table)))


async def host(data_dir: Path, *, game: str, name: str, players: int,
               options: dict[str, Any] | None = None,
               port: int = 0, bind: str = "127.0.0.1", bots: int = 0,
               bot: str | Sequence[str] = "",
               decide: Decider | None = None, choose: AsyncDecider | None = None,
               config: PeerConfig | None = None, passphrase: str = "",
               on_event: Callable[[Event], None] | None = None,
               on_port: Callable[[int], None] | None = None,
               on_joiners: Callable[[list[Joiner]], None] | None = None,
               on_peer: Callable[[MatchPeer], None] | None = None,
               approve: Any = None, bot_dir: Path | None = None,
               table_name: str = "cryptcrawl table", bot_seed: bytes | None = None,
               on_left: Callable[[Joiner], None] | None = None,
               timeouts: TableTimeouts = DEFAULT_TIMEOUTS,
               on_other_version: Callable[[str, int], None] | None = None) -> Result:
    """Open a table, fill ``bots`` seats with bot peers (in this process, each a real peer;
    ``bot``: the bot or level of every one, or one a seat — "" the game's default), wait for
    the others, and play seat 0.  A bot is named for its seat and level: "Bot 2 (strong)".
    ``on_left``: a joiner left while ``approve`` was asked about it (its place is free
    again).  ``timeouts``: the table's (quick, normal, long, silence) seconds, signed into
    the header (:mod:`p2p.speeds`).  ``on_other_version``: a joiner of another protocol
    version was turned away (its address and version)."""
    key = load_identity(data_dir)
    sock = listen_socket(0, bind)
    try:
        table = Table(key, name, players, sock.getsockname()[1], game=game,
                      options=dict(options or {}), passphrase=passphrase,
                      on_change=on_joiners, table_name=table_name, on_left=on_left,
                      timeouts=timeouts, on_other_version=on_other_version,
                      spectators=(config or PeerConfig()).spectators)
    except LobbyError:
        sock.close()
        raise
    bot_dirs = [(bot_dir or data_dir / "bots") / f"bot{i + 1}" for i in range(bots)]
    if approve is not None:
        # The host's own bots sit down without asking: their keys are made here, now.
        own = {public_key_bytes(load_identity(d)) for d in bot_dirs}

        async def approve_others(joiner: Joiner) -> bool:
            return joiner.key in own or bool(await approve(joiner))

        table.approve = approve_others
    lobby_port = await table.open(bind, port)
    if on_port is not None:
        on_port(lobby_port)
    kinds = [bot] * bots if isinstance(bot, str) else list(bot)
    if len(kinds) != bots:
        raise ValueError(f"{len(kinds)} bot kinds for {bots} bots")
    bot_tasks = [asyncio.ensure_future(run_bot(
        d, bot_seat_name(i + 1, kinds[i]), "127.0.0.1" if bind in ("", "0.0.0.0") else bind,
        lobby_port, bot=kinds[i], config=config, passphrase=passphrase, bind=bind,
        seed=None if bot_seed is None else bot_seed + b"/%d" % (i + 1)))
        for i, d in enumerate(bot_dirs)]
    try:
        seated = await _gather_watching(table, bot_tasks)
        result = await play_seated(data_dir, key, seated, sock, decide=decide, choose=choose,
                                   config=config, on_event=on_event, on_peer=on_peer)
        for task in bot_tasks:
            await task
        return result
    finally:
        for task in bot_tasks:
            task.cancel()


async def _gather_watching(table: Table, bot_tasks: list[asyncio.Task[Result]]) -> Seated:
    """``table.gather()``, but a bot of the table that fails before it sits down (its key
    unreadable, its data directory read-only) ends the wait with its error at once, instead
    of the table waiting for a seat that never comes."""
    gather = asyncio.ensure_future(table.gather())
    watched: list[asyncio.Future[Any]] = [gather, *bot_tasks]
    while True:
        done, _ = await asyncio.wait(watched, return_when=asyncio.FIRST_COMPLETED)
        if gather in done:
            return gather.result()
        for number, task in enumerate(bot_tasks, 1):
            if task in done:
                gather.cancel()
                if table.server is not None:
                    table.server.close()  # (nobody else sits down at a table that failed)
                error = None if task.cancelled() else task.exception()
                if isinstance(error, LobbyError | StoreError | OSError):
                    raise type(error)(f"bot {number} could not sit down: {error}")
                raise LobbyError(f"bot {number} could not sit down: {error or 'it stopped'}")


async def join(data_dir: Path, host_name: str, port: int, *, name: str,
               decide: Decider | None = None, choose: AsyncDecider | None = None,
               config: PeerConfig | None = None, bind: str = "", passphrase: str = "",
               on_event: Callable[[Event], None] | None = None,
               on_peer: Callable[[MatchPeer], None] | None = None,
               on_seated: OnSeated | None = None,
               on_lobby: Callable[[list[tuple[str, str]]], None] | None = None) -> Result:
    """Sit down at the table at ``host_name:port`` and play that seat (``on_seated`` and
    ``on_lobby``: see :func:`p2p.lobby.join_table`)."""
    key = load_identity(data_dir)
    sock = listen_socket(0, bind)
    try:
        seated = await join_table(key, name, host_name, port, sock.getsockname()[1],
                                  passphrase=passphrase, on_seated=on_seated,
                                  on_lobby=on_lobby)
    except BaseException:
        sock.close()  # the lobby failed: nothing plays on it
        raise
    return await play_seated(data_dir, key, seated, sock, decide=decide, choose=choose,
                             config=config, on_event=on_event, on_peer=on_peer)


async def run_bot(data_dir: Path, name: str, host_name: str, port: int, *,
                  bot: str = "", config: PeerConfig | None = None,
                  passphrase: str = "", bind: str = "", seed: bytes | None = None) -> Result:
    """A bot seat: a real peer with its own key.  ``seed`` seeds its choices (tie-breaks);
    None: fresh randomness.  Its chance secrets always come from the OS, whatever the seed."""
    seed = hashlib.sha256(os.urandom(32) if seed is None else b"bot/" + seed).digest()
    return await join(data_dir, host_name, port, name=name, decide=bot_decider(bot, seed),
                      config=config, bind=bind, passphrase=passphrase)


async def resume(data_dir: Path, *, store: MatchStore | None = None,
                 decide: Decider | None = None, choose: AsyncDecider | None = None,
                 config: PeerConfig | None = None,
                 on_event: Callable[[Event], None] | None = None,
                 on_peer: Callable[[MatchPeer], None] | None = None) -> Result:
    """Take up an interrupted match again: reload its file, reconnect, catch up, re-send."""
    from protocol.wire.transcript import read_transcript

    if store is None:
        stores = unfinished_matches(data_dir)
        if not stores:
            raise StoreError(f"no interrupted match in {data_dir}")
        store = stores[-1]
    key = load_identity(data_dir, create=False)
    store.info()  # (missing or damaged: say so before reading the match file)
    transcript = read_transcript(store.read())
    if transcript.header is None:
        raise StoreError(f"{store.path} has no readable header")
    seat, addresses = store.seat_and_addresses(len(transcript.header.header.seats))
    table_spectators = store.info().get("spectators", PeerConfig().spectators)
    if isinstance(table_spectators, int) and not isinstance(table_spectators, bool):
        config = _spectators(config, table_spectators)
    seed = store.seed()
    port = addresses[seat][1]
    try:
        sock = listen_socket(port)
    except OSError as exc:
        raise StoreError(f"cannot listen on port {port} again (this seat's port in the "
                         f"match, which the others dial): {exc.strerror}") from None
    try:
        peer = MatchPeer(transcript.header, seat, key, seed, store, addresses, decide=decide,
                         choose=choose, config=config, sock=sock, on_event=on_event)
        peer.restore()
    except BaseException:
        sock.close()  # (not this seat's key, or a match file that cannot be taken up)
        store.close()
        raise
    # This machine's own bots in the match (``cryptcrawl play``, or a host's bot seats) went
    # down with it: they are taken up too, each its own peer again — alone, a seat cannot
    # finish a match (an absence needs two voters).
    names = [s.name for s in transcript.header.header.seats]
    bots = [asyncio.ensure_future(resume(
        bot_store.dir.parent, store=bot_store, config=config,
        decide=bot_decider(_bot_kind(bot_store, names), os.urandom(32))))
        for bot_store in own_bot_matches(data_dir, store)]
    if on_peer is not None:
        on_peer(peer)
    try:
        core = await peer.run()
        for task in bots:
            await task
    finally:
        for task in bots:
            task.cancel()
    return Result(core, seat, store.path)


_BOT_NAME = re.compile(r"^Bot \d+ \(([a-z_]+)\)$")


def bot_seat_name(number: int, kind: str) -> str:
    """What a table calls its bot ``number`` playing ``kind`` (a level or a bot; "": the
    default level): "Bot 2 (strong)"."""
    return f"Bot {number} ({kind or DEFAULT_LEVEL})"


def bot_kind_of(name: str) -> str:
    """The level or bot a bot seat's name says it plays ("" for any other name)."""
    found = _BOT_NAME.match(name)
    return found.group(1) if found else ""


def _bot_kind(store: MatchStore, names: Sequence[str]) -> str:
    """The level an own bot's seat plays, from its name in the header ("": the default)."""
    try:
        seat, _ = store.seat_and_addresses(len(names))
    except StoreError:
        return ""
    return bot_kind_of(names[seat])


def own_bot_matches(data_dir: Path, store: MatchStore) -> list[MatchStore]:
    """The unfinished stores of the same match kept by this machine's bots (``bots/bot<N>``
    under ``data_dir``, where ``cryptcrawl play`` and ``host`` keep them)."""
    bots = data_dir / "bots"
    if not bots.is_dir():
        return []
    found = []
    for bot_dir in sorted(p for p in bots.iterdir() if p.is_dir()):
        for bot_store in unfinished_matches(bot_dir):
            if bot_store.path.name == store.path.name:
                found.append(bot_store)
    return found


# --------------------------------------------------------------------------- python -m p2p


def _address(text: str) -> tuple[str, int]:
    try:
        return parse_address(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _port(text: str) -> int:
    try:
        return parse_port(text, any_port=True)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def timeouts_override(text: str) -> tuple[float, float, float, float]:
    """``--timeouts Q,N,L,S``: four numbers of seconds (fractions allowed: tests)."""
    try:
        quick, normal, long, silence = (float(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not four numbers of seconds "
                                         "Q,N,L,S") from None
    return (quick, normal, long, silence)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m p2p",
                                     description="Run one bot seat as a peer process.")
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--bot", default="random", metavar="NAME",
                        help="the game's bot that plays this seat, or a level "
                             f"({', '.join(LEVELS)}) (default random; every game has one; "
                             "the others are the game's own: `cryptcrawl rules`)")
    parser.add_argument("--timeouts", type=timeouts_override, default=None, metavar="Q,N,L,S",
                        help="tests only: apply these (quick, normal, long, silence) seconds "
                             "instead of the header's")
    parser.add_argument("--time-scale", type=float, default=1.0,
                        help="tests only: scale the timeouts applied by this factor")
    parser.add_argument("--linger", type=float, default=3.0)
    parser.add_argument("--announce", type=Path, help="write the lobby port to this file")
    parser.add_argument("--bind", default="127.0.0.1")
    parser.add_argument("--name", default="bot")
    parser.add_argument("--seed", default="", help="seeds the bot's choices only")
    parser.add_argument("--verbose", action="store_true")
    sub = parser.add_subparsers(dest="role", required=True)
    h = sub.add_parser("host")
    h.add_argument("--players", type=int, default=3)
    h.add_argument("--port", type=_port, default=0)
    h.add_argument("--game", required=True, help="the game (engine/games.py)")
    h.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option (repeatable)")
    j = sub.add_parser("join")
    j.add_argument("address", type=_address)
    sub.add_parser("resume")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(name)s: %(message)s")
    try:
        config = PeerConfig(timeouts=args.timeouts, time_scale=args.time_scale,
                            linger=args.linger)
    except ValueError as exc:
        parser.error(str(exc))
    if args.role == "host":
        try:
            bots = get_game(args.game).bots
        except UnknownGameError as exc:
            parser.error(str(exc))
        if args.bot not in bots and args.bot not in LEVELS:
            parser.error(f"{args.game} has no bot {args.bot!r}; its bots: {', '.join(bots)}; "
                         f"the levels: {', '.join(LEVELS)}")
    elif args.bot not in LEVELS and not any(args.bot in get_game(name).bots
                                            for name in games()):
        parser.error(f"no game has a bot {args.bot!r} (the levels: {', '.join(LEVELS)})")
    seed = hashlib.sha256(args.seed.encode() or os.urandom(32)).digest()
    decide = bot_decider(args.bot, seed)

    def announce(port: int) -> None:
        if args.announce is not None:  # (a temporary file of this process's own)
            tmp = args.announce.with_name(f".{args.announce.name}.{os.getpid()}.tmp")
            tmp.write_text(str(port))
            tmp.replace(args.announce)

    async def go() -> Result:
        if args.role == "host":
            return await host(args.data_dir, game=args.game, name=args.name, players=args.players,
                              options=dict(o.split("=", 1) for o in args.option), port=args.port,
                              bind=args.bind, decide=decide, config=config, on_port=announce)
        if args.role == "join":
            host_name, port = args.address
            return await join(args.data_dir, host_name, port, name=args.name, decide=decide,
                              config=config, bind=args.bind)
        return await resume(args.data_dir, decide=decide, config=config)

    try:
        result = asyncio.run(go())
    except (LobbyError, StoreError, BadMessage, OSError) as exc:
        print(f"python -m p2p: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    print(f"match over: {result.path}", flush=True)
    return 0 if result.core.signed else 1
