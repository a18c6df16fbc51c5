"""What each ``cryptcrawl`` command does, from its parsed arguments to an exit status.

The heavy modules (engine, protocol, network) are imported by the command that needs them.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from cli.args import (
    EXIT_FAILURE,
    EXIT_OK,
    EXIT_UNREADABLE,
    EXIT_USAGE,
    PROG,
    Parser,
)

if TYPE_CHECKING:
    from cli.play import Console


def _verify(args: argparse.Namespace) -> int:
    from cli.verify import run_verify

    return run_verify(args.files, as_json=args.json, out=sys.stdout, err=sys.stderr)


def _random_seed() -> str:
    return os.urandom(8).hex()


def _play(args: argparse.Namespace, parser: Parser) -> int:
    players: int = args.players
    bots: int = players - 1 if args.bots is None else args.bots
    if bots not in (players - 1, players):
        parser.exit(EXIT_USAGE, f"{PROG} play: error: --bots must be {players - 1} (you and "
                                f"bots) or {players} (bots only) with --players {players}; "
                                f"offline play has one human seat\n")
    if args.deal_seed is None:
        return _play_networked(args, players, bots)
    from cli.choice import bot_kinds, default_players
    from cli.play import GameOptions, LeftGame, play_offline, replay_hint

    options = GameOptions(
        players=players,
        bots=bots,
        bot_kind="".join(bot_kinds(args)),
        game=args.game,
        options=args.game_options,
        bot_seed=args.seed if args.seed is not None else _random_seed(),
        deal_seed=args.deal_seed if args.deal_seed is not None else _random_seed(),
        name=args.name or "",
    )
    out = sys.stdout
    typed: list[str] = []
    try:
        outcome = play_offline(options, sys.stdin, out, typed)
    except LeftGame as left:
        out.write(f"{left}\n")
        out.flush()
        return left.code
    hint = replay_hint(options, default_players(args.game, networked=False))
    out.write(f"\nTo deal this game again (same moves, same game):\n  {hint}\n")
    if args.out is not None:
        from cli import practice

        try:
            practice.write(args.out, practice.record(options, typed, outcome))
        except OSError as exc:
            out.write(f"{PROG} play: could not write {args.out}: {exc.strerror or exc}\n")
            out.flush()
            return EXIT_USAGE
        out.write(f"The game's record: {args.out} (an offline game: it proves nothing; "
                  f"`cryptcrawl verify {args.out}` plays it again)\n")
    out.flush()
    return EXIT_OK


def full_screen_for(args: argparse.Namespace, console: Console, game: str, *,
                    human: bool = True) -> bool:
    """Whether a match plays full screen: on a terminal, unless ``--plain`` (or a dumb
    terminal, or nobody here plays) — and only for a game whose plug-in draws one (else one
    line says so, and line mode it is)."""
    from cli.games import find_ui
    from engine.games import get_game

    if args.plain or not console.interactive or not human:
        return False
    if os.environ.get("TERM", "dumb") == "dumb":
        return False
    if not find_ui(game).full_screen:
        console.say(f"{get_game(game).title} has no full-screen table yet: line mode "
                    "(--plain) it is.")
        return False
    return True


def data_dir_of(args: argparse.Namespace) -> Path:
    if args.data_dir is not None:  # ("" is refused by the parser: never the default)
        from cli.args import note_data_dir

        note_data_dir(args.data_dir)
        return Path(args.data_dir)
    from p2p.store import default_data_dir

    return default_data_dir()


def _play_networked(args: argparse.Namespace, players: int, bots: int) -> int:
    import asyncio
    import dataclasses
    import itertools

    from cli.choice import bot_kinds
    from cli.netplay import NetOptions, play_networked
    from cli.play import Console, LeftGame
    from p2p.lobby import LobbyError
    from p2p.store import StoreError

    options = NetOptions(
        players=players, bots=bots, bot_kind="".join(bot_kinds(args)), game=args.game,
        options=args.game_options,
        bot_seed=args.seed if args.seed is not None else _random_seed(),
        name=args.name or "", timeouts=table_timeouts(args), out=args.out or "", local=True,
        bell=not args.no_bell)
    console = Console(sys.stdin, sys.stdout)
    full_screen = full_screen_for(args, console, args.game, human=bots < players)
    try:
        for match in itertools.count(1):
            answer: bool | None = None
            if full_screen:
                from cli.tui import play_full_screen

                code, answer = asyncio.run(play_full_screen(options, console,
                                                            data_dir_of(args)))
            else:
                code = asyncio.run(play_networked(options, console, data_dir_of(args)))
            if code != EXIT_OK or not _rematch(console, bots < players, answer):
                return code
            # The same seats, a new match: new nonces (so a new match id and new secrets),
            # the bots' choices from a seed of their own, the copy to a file of its own.
            options = dataclasses.replace(
                options, bot_seed=f"{options.bot_seed}/rematch{match}",
                out=_numbered(args.out, match + 1) if args.out else "")
        return EXIT_OK  # pragma: no cover (the loop returns)
    except LeftGame as left:
        sys.stdout.write(f"{left}\n")
        sys.stdout.flush()
        return left.code
    except (LobbyError, StoreError, OSError) as exc:
        sys.stderr.write(f"{PROG} play: {error_words(exc)}\n")
        return EXIT_FAILURE


def table_timeouts(args: argparse.Namespace) -> tuple[int, int, int, int]:
    """The table's timeouts from ``--timeouts`` or ``--speed`` (default: normal)."""
    from p2p.speeds import speed_timeouts

    chosen: tuple[int, int, int, int] | None = args.timeouts or args.speed
    return chosen or speed_timeouts("normal")


def error_words(exc: BaseException) -> str:
    """An error as one line for a person: an OSError's reason (and file), never Python's
    "[Errno 98] ..." form."""
    if isinstance(exc, OSError) and exc.errno and not str(exc).startswith("cannot "):
        reason = os.strerror(exc.errno)
        return f"{reason}: {exc.filename}" if exc.filename else reason
    return str(exc)


REMATCH_WAIT = 120.0  # seconds a joiner waits for the host to open the rematch


def _rematch(console: Console, human: bool, asked: bool | None = None) -> bool:
    """At the end of a match on a terminal, offer another with the same seats (``asked``:
    the answer the full screen's end screen got already)."""
    from cli.play import InputClosed

    if not (human and console.interactive):
        return False
    if asked is not None:
        return asked
    try:
        answer = console.ask("Rematch: the same seats, a new match? [y/N] ")
    except InputClosed:
        return False
    return answer.lower() in ("y", "yes")


def out_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with ``--out``, checked before the match (not after it): a file that is
    there already is never overwritten — it may be another match's file."""
    out = getattr(args, "out", None)
    if out is None:
        return None
    target = Path(out)
    if target.exists() or target.is_symlink():
        return f"--out {out}: there is a file there already; choose another name"
    parent = target.parent
    if not parent.is_dir():
        return f"--out {out}: there is no directory {parent}"
    if not os.access(parent, os.W_OK):
        return f"--out {out}: the directory {parent} is not writable"
    return None


def _numbered(path: str, k: int) -> str:
    """``out.crawl`` -> ``out-2.crawl`` for the second match of a session."""
    p = Path(path)
    return str(p.with_name(f"{p.stem}-{k}{p.suffix}"))


def _record(args: argparse.Namespace) -> int:
    from cli import record
    from cli.play import Console, InputClosed

    try:
        if args.command == "export":
            return record.export_json(args.file, sys.stdout)
        console = Console(sys.stdin, sys.stdout)

        def ask(prompt: str) -> str:
            try:
                return console.ask(prompt)
            except InputClosed:  # (Ctrl-D) the replay ends there, as with q
                return "q"

        return record.replay(args.file, sys.stdout,
                             None if args.plain or not console.interactive else ask)
    except record.RecordError as exc:
        sys.stderr.write(f"{PROG} {args.command}: {exc}\n")
        return EXIT_UNREADABLE


def _spectate(args: argparse.Namespace) -> int:
    from cli.spectate import SpectateError, spectate

    try:
        return spectate(args.target, sys.stdout, args.relay, interfaces=args.interface,
                        wait=args.wait)
    except SpectateError as exc:
        sys.stderr.write(f"{PROG} spectate: {exc}\n")
        return EXIT_FAILURE
    except KeyboardInterrupt:
        sys.stdout.write("\nStopped watching.\n")
        return 0


def _lan(args: argparse.Namespace) -> int:
    import dataclasses

    from cli import lan
    from cli.netplay import NetOptions
    from cli.play import Console, LeftGame
    from p2p.lobby import LobbyError
    from p2p.store import StoreError

    data_dir = data_dir_of(args)
    try:
        if args.command == "matches":
            return lan.list_matches(data_dir, sys.stdout, prune=args.prune)
        if args.command == "id":
            return lan.show_id(data_dir, sys.stdout, export=args.export,
                               import_from=args.import_from)
        if args.command == "stats":
            from cli.stats import show_stats

            return show_stats(data_dir, sys.stdout, as_json=args.json)
        if args.command == "tables":
            try:
                return lan.run_async(lan.list_tables(sys.stdout, args.interface, args.wait,
                                                     args.watch, game=args.game))
            except KeyboardInterrupt:
                if not args.watch:
                    raise
                # Ctrl-C is how --watch is meant to end: a line, and success.
                sys.stdout.write("Stopped listening.\n")
                return EXIT_OK
        console = Console(sys.stdin, sys.stdout)
        full_screen = (not args.plain and console.interactive
                       and os.environ.get("TERM", "dumb") != "dumb")
        if args.command == "host":
            from cli.choice import bot_kinds

            kinds = bot_kinds(args)
            if len(kinds) > 1 and len(kinds) != args.bots:
                sys.stderr.write(f"{PROG} host: error: give --bot once (every bot plays at "
                                 f"that level) or once per bot seat ({args.bots}), not "
                                 f"{len(kinds)} times\n")
                return EXIT_USAGE
            options = NetOptions(players=args.players, bots=args.bots,
                                 bot_kind=kinds[0] if len(kinds) == 1 else "",
                                 levels=kinds if len(kinds) > 1 else (), game=args.game,
                                 options=args.game_options, name=args.name or "",
                                 timeouts=table_timeouts(args), out=args.out or "",
                                 role="host", bell=not args.no_bell,
                                 spectators=not args.no_spectators)
            full_screen = full_screen_for(args, console, args.game)
            if args.bots >= args.players:
                sys.stderr.write(f"{PROG} host: error: --bots must be below --players (you "
                                 "take a seat); for an all-bot match use `cryptcrawl play "
                                 "--bots N`\n")
                return EXIT_USAGE
            session = lan.Session()
            port = args.port
            while True:
                code = lan.run_async(lan.host_lan(
                    options, console, data_dir, interfaces=args.interface, port=port,
                    table_name=args.table_name or f"{args.name or 'cryptcrawl'}'s table",
                    passphrase=args.passphrase, approve_all=args.yes, full_screen=full_screen,
                    session=session))
                if code != EXIT_OK or not _rematch(console, True, session.rematch):
                    return code
                # The table opens again on the same port; the same seats sit down unasked.
                port = session.port
                console.say(f"The rematch table is open on port {port}: the players who want "
                            "a rematch join again.")
                options = dataclasses.replace(
                    options, out=_numbered(args.out, session.matches + 1) if args.out else "")
        options = NetOptions(name=args.name or "", out=getattr(args, "out", "") or "",
                             role=args.command, bell=not args.no_bell)
        if args.command == "join":
            session = lan.Session()
            target, retry = args.table, 0.0
            while True:
                code = lan.run_async(lan.join_lan(
                    options, console, data_dir, target, interfaces=args.interface,
                    passphrase=args.passphrase, wait=args.wait, bot=args.bot or "",
                    full_screen=full_screen, session=session, retry_for=retry))
                if code != EXIT_OK or args.bot or not _rematch(console, True,
                                                               session.rematch):
                    return code
                # Back to the same table, at the address it was reached at, once the host
                # opens it again.
                target, retry = f"{session.host}:{session.port}", REMATCH_WAIT
                options = dataclasses.replace(
                    options, out=_numbered(args.out, session.matches + 1) if args.out else "")
        return lan.run_async(lan.resume_lan(options, console, data_dir, args.match,
                                            full_screen=full_screen))
    except LeftGame as left:
        sys.stdout.write(f"{left}\n")
        return left.code
    except (LobbyError, StoreError, OSError) as exc:
        sys.stderr.write(f"{PROG} {args.command}: {error_words(exc)}\n")
        return EXIT_FAILURE
    except Exception as exc:
        if type(exc).__name__ != "DiscoveryError":
            raise
        sys.stderr.write(f"{PROG} {args.command}: {exc}\n")
        return EXIT_FAILURE


def _rules(args: argparse.Namespace) -> int:
    from cli.rules import show_rules

    return show_rules(args.game, sys.stdout, players=args.players)


def command(args: argparse.Namespace, parser: Parser) -> int:
    if args.command == "play":
        return _play(args, parser)
    if args.command == "rules":
        return _rules(args)
    if args.command == "verify":
        return _verify(args)
    if args.command in ("host", "tables", "join", "resume", "matches", "stats", "id"):
        return _lan(args)
    if args.command in ("replay", "export"):
        return _record(args)
    if args.command == "spectate":
        return _spectate(args)
    sys.stderr.write(f"{PROG}: error: choose a command, for example: {PROG} play "
                     f"(see {PROG} --help)\n")
    return EXIT_USAGE
