"""The ``cryptcrawl`` command.

Exit status: 0 ok (also when you leave a game on purpose), 1 any other failure (including input
ending while the game waits for you), 2 a usage error, 130 interrupted (Ctrl-C).  Every error is
one line on stderr, never a traceback (set ``CRYPTCRAWL_DEBUG=1`` to see one for an internal
error).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import io
import itertools
import os
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from cli.play import Console, GameOptions, InputClosed, LeftGame, play_offline, replay_hint

PROG = "cryptcrawl"
EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
# cryptcrawl verify
EXIT_VALID = 0
EXIT_INVALID = 1
EXIT_UNREADABLE = 3
EXIT_INCOMPLETE = 4

EPILOG = """\
exit status: 0 ok (also when you quit a game), 1 failure (including input
ending during your turn), 2 usage error, 130 interrupted (Ctrl-C)"""

PLAY_DESCRIPTION = """\
Play Dungeon Raiders against bots on this machine.

Every bot is a real peer over loopback, with its own key and connections: the
match runs the full protocol (no dealer: face-down rooms come from secrets all
seats contribute; every move is signed) and leaves a match file that
`cryptcrawl verify` checks. The table is never advertised on the network.
Line mode (--plain): the game prints the table, you type a card such as
"play 3" and press Enter; type ? during the game for help.

--deal-seed plays OFFLINE instead, with a trusted local dealer seeded by the
given text (to practise the same deal again; whoever knows the seed knows
every face-down room)."""


def version() -> str:
    try:
        from importlib.metadata import PackageNotFoundError
        from importlib.metadata import version as dist_version

        return dist_version("cryptcrawl")
    except PackageNotFoundError:
        return "0+unknown (not installed)"


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr (status 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _players(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of players") from None
    if not 3 <= value <= 5:
        raise argparse.ArgumentTypeError(f"Dungeon Raiders is for 3 to 5 players, not {value}")
    return value


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0.1 <= value <= 86_400:
        raise argparse.ArgumentTypeError(f"{value:g} s is not between 0.1 s and a day")
    return value


MIN_TURN_TIMEOUT = 5.0  # below it, healthy peers on a busy machine time each other out


def _turn_seconds(text: str) -> float:
    """``--turn-timeout``: 5 s to a day.  Shorter, the peers of one loaded machine (you and
    your bots) time each other out and vote each other absent all at once, and such a match
    can wait for good (protocol.md §13); the test harness sets shorter ones in PeerConfig."""
    value = _seconds(text)
    if value < MIN_TURN_TIMEOUT:
        raise argparse.ArgumentTypeError(
            f"{value:g} s is too short: peers would time each other out (at least "
            f"{MIN_TURN_TIMEOUT:g} s)")
    return value


def _name(text: str) -> str:
    name = " ".join(text.split())
    if not name:
        raise argparse.ArgumentTypeError("the name is empty")
    if len(name) > 20:
        raise argparse.ArgumentTypeError("a name has at most 20 characters")
    if not name.isprintable():
        raise argparse.ArgumentTypeError("a name cannot hold control characters")
    return name


def _table_name(text: str) -> str:
    """``host --table-name``: what the LAN sees, so at most the advert's 48 bytes (a longer
    name was cut in the advert, and ``join NAME`` with the whole name then found nothing)."""
    from p2p.discovery import MAX_NAME_BYTES

    name = " ".join(text.split())
    if not name:
        raise argparse.ArgumentTypeError("the table name is empty")
    if not name.isprintable():
        raise argparse.ArgumentTypeError("a table name cannot hold control characters")
    if len(name.encode()) > MAX_NAME_BYTES:
        raise argparse.ArgumentTypeError(
            f"a table name has at most {MAX_NAME_BYTES} bytes (UTF-8); this one has "
            f"{len(name.encode())}")
    return name


def build_parser() -> Parser:
    parser = Parser(
        prog=PROG,
        description="Serverless, verifiable LAN play of dungeon card games.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    play = commands.add_parser(
        "play", help="play Dungeon Raiders against bots on this machine",
        description=PLAY_DESCRIPTION, epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    play.add_argument("--players", type=_players, default=4, metavar="N",
                      help="number of players, 3 to 5 (default 4)")
    play.add_argument("--bots", type=_count, default=None, metavar="N",
                      help="number of bots: players-1 (the default: you and bots) or players "
                           "(an unattended all-bot game)")
    play.add_argument("--bot-kind", choices=("random", "heuristic"), default="heuristic",
                      help="how the bots play (default heuristic)")
    play.add_argument("--variant", choices=("basic", "tactical"), default="basic",
                      help="basic: everyone plays at once; tactical: one at a time, face up "
                           "(default basic)")
    play.add_argument("--seed", metavar="TEXT", default=None,
                      help="seed the bots' choices only (chance secrets always come from the "
                           "operating system's randomness)")
    play.add_argument("--deal-seed", metavar="TEXT", default=None,
                      help="play offline with a trusted local dealer seeded by TEXT (the same "
                           "deal again; whoever knows it knows every face-down room)")
    play.add_argument("--out", metavar="FILE", default=None,
                      help="also write the match file to FILE")
    play.add_argument("--turn-timeout", type=_turn_seconds, default=90.0, metavar="SECONDS",
                      help="how long the table waits for a move before asking the other "
                           "peers and then replacing the silent seat by a bot (default 90)")
    play.add_argument("--name", type=_name, default=None, metavar="NAME",
                      help="your name at the table (default: you)")
    play.add_argument("--plain", action="store_true",
                      help="plain line mode for scripts and screen readers (the default when "
                           "not on a terminal; on a terminal the game is full screen)")
    play.add_argument("--data-dir", metavar="DIR", default=None,
                      help="where cryptcrawl keeps your identity and matches (default: your "
                           "user data directory)")
    def common(sub: argparse.ArgumentParser, *, net: bool = True) -> None:
        sub.add_argument("--data-dir", metavar="DIR", default=None,
                         help="where cryptcrawl keeps your identity and matches (default: "
                              "your user data directory)")
        if net:
            sub.add_argument("--plain", action="store_true",
                             help="plain line mode for scripts and screen readers (the default "
                                  "when not on a terminal; on a terminal the match is full "
                                  "screen once it starts)")
            sub.add_argument("--name", type=_name, default=None, metavar="NAME",
                             help="your name at the table")
            sub.add_argument("--turn-timeout", type=_turn_seconds, default=90.0, metavar="SECONDS",
                             help="how long a move may take before the table asks the other "
                                  "peers and then replaces the silent seat (default 90)")

    def interface(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("--interface", action="append", metavar="IF", default=None,
                         help="network interface or IPv4 address to use for discovery "
                              "(repeatable; default: every real interface)")

    host = commands.add_parser(
        "host", help="open a table on the LAN (advertised with zeroconf)",
        description="Open a table on the LAN and play seat A. It is advertised with zeroconf "
                    "until every seat is taken; you approve each joiner (their key fingerprint "
                    "is shown; a known name with a new key is flagged).", epilog=EPILOG)
    common(host)
    interface(host)
    host.add_argument("--players", type=_players, default=4, metavar="N")
    host.add_argument("--bots", type=_count, default=0, metavar="N",
                      help="fill N seats with bots (real peers running on THIS machine, "
                           "which can see their hands)")
    host.add_argument("--bot-kind", choices=("random", "heuristic"), default="heuristic")
    host.add_argument("--variant", choices=("basic", "tactical"), default="basic")
    host.add_argument("--port", type=_count, default=0, help="lobby TCP port (default: any)")
    host.add_argument("--table-name", type=_table_name, default=None, metavar="TEXT")
    host.add_argument("--passphrase", default="", metavar="TEXT",
                      help="only people who know it may sit down")
    host.add_argument("--yes", action="store_true",
                      help="let everyone sit down without asking (a changed key still asks)")
    host.add_argument("--out", metavar="FILE", default=None)
    tables = commands.add_parser("tables", help="list the tables on the LAN, live",
                                 description="Listen for tables advertised on the LAN.")
    common(tables, net=False)
    interface(tables)
    tables.add_argument("--wait", type=_seconds, default=3.0, metavar="SECONDS")
    tables.add_argument("--watch", action="store_true", help="keep listening until Ctrl-C")
    join = commands.add_parser(
        "join", help="sit down at a table (by name, or HOST:PORT)",
        description="Join a table found on the LAN by its name (or the only open one), or at "
                    "HOST:PORT where multicast does not reach (VPNs, other subnets).",
        epilog=EPILOG)
    common(join)
    interface(join)
    join.add_argument("table", nargs="?", default="", metavar="TABLE|HOST:PORT")
    join.add_argument("--passphrase", default="", metavar="TEXT")
    join.add_argument("--wait", type=_seconds, default=4.0, metavar="SECONDS",
                      help="how long to look for the table (default 4)")
    join.add_argument("--bot", choices=("random", "heuristic"), default=None,
                      help="let a bot play this seat (for tests and unattended seats)")
    join.add_argument("--out", metavar="FILE", default=None)
    resume = commands.add_parser("resume", help="rejoin your interrupted match",
                                 description="Rejoin the last interrupted match in the data "
                                             "directory: reload its file, reconnect, catch up, "
                                             "reclaim your seat.", epilog=EPILOG)
    common(resume)
    matches = commands.add_parser("matches", help="your match history")
    common(matches, net=False)
    ident = commands.add_parser("id", help="create or show your identity; export or import it")
    common(ident, net=False)
    ident.add_argument("--export", metavar="FILE", default=None,
                       help="write your private key to FILE (mode 0600) as a backup")
    ident.add_argument("--import", dest="import_from", metavar="FILE", default=None,
                       help="use the private key in FILE as this data directory's identity")
    replay = commands.add_parser("replay", help="step through a match file room by room",
                                 description="Replay a match file room by room (Enter for the "
                                             "next room); --plain prints the whole record.")
    replay.add_argument("file", metavar="FILE")
    replay.add_argument("--plain", action="store_true", help="print everything, no pauses")
    common(replay, net=False)
    export = commands.add_parser("export", help="write a match file as JSON",
                                 description="Write a match file as a readable JSON record: "
                                             "header, verdict, every event and every message.")
    export.add_argument("file", metavar="FILE")
    export.add_argument("--json", action="store_true", required=True,
                        help="the format (JSON is the only one)")
    common(export, net=False)
    verify = commands.add_parser(
        "verify", help="check a finished match file end to end",
        description="Check a match file (.crawl) end to end: every signature and hash chain, "
                    "every commitment and chance outcome, every action through the rules, the "
                    "result and every seat's signature on it.",
        epilog="exit status: 0 valid, 1 invalid (the first bad entry and the seat at fault), "
               "2 usage error, 3 unreadable file, 4 incomplete",
    )
    verify.add_argument("file", metavar="FILE", help="the match file")
    verify.add_argument("--json", action="store_true", help="print the verdict as JSON")
    verify.add_argument("--data-dir", metavar="DIR", default=None,
                        help="accepted for symmetry with the other commands; not used")
    return parser


def _verify(args: argparse.Namespace) -> int:
    from cli.verify import run_verify

    return run_verify(args.file, as_json=args.json, out=sys.stdout, err=sys.stderr)


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
    options = GameOptions(
        players=players,
        bots=bots,
        bot_kind=args.bot_kind,
        variant=args.variant,
        bot_seed=args.seed if args.seed is not None else _random_seed(),
        deal_seed=args.deal_seed if args.deal_seed is not None else _random_seed(),
        name=args.name or "",
    )
    out = sys.stdout
    try:
        play_offline(options, sys.stdin, out)
    except LeftGame as left:
        out.write(f"{left}\n")
        out.flush()
        return left.code
    out.write(f"\nTo deal this game again (same moves, same game):\n  {replay_hint(options)}\n")
    out.flush()
    return EXIT_OK


def data_dir_of(args: argparse.Namespace) -> Path:
    if args.data_dir:
        return Path(args.data_dir)
    from p2p.store import default_data_dir

    return default_data_dir()


def _play_networked(args: argparse.Namespace, players: int, bots: int) -> int:
    import asyncio

    from cli.netplay import NetOptions, play_networked
    from cli.play import Console
    from p2p.lobby import LobbyError
    from p2p.store import StoreError

    options = NetOptions(
        players=players, bots=bots, bot_kind=args.bot_kind, variant=args.variant,
        bot_seed=args.seed if args.seed is not None else _random_seed(),
        name=args.name or "", turn_timeout=args.turn_timeout,
        silence_timeout=max(args.turn_timeout * 2 / 3, 0.1), out=args.out or "")
    console = Console(sys.stdin, sys.stdout)
    full_screen = (not args.plain and console.interactive and bots < players
                   and os.environ.get("TERM", "dumb") != "dumb")
    try:
        for match in itertools.count(1):
            if full_screen:
                from cli.tui import play_full_screen

                code = asyncio.run(play_full_screen(options, console, data_dir_of(args)))
            else:
                code = asyncio.run(play_networked(options, console, data_dir_of(args)))
            if code != EXIT_OK or not _rematch(console, bots < players):
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
        sys.stderr.write(f"{PROG} play: {exc}\n")
        return EXIT_FAILURE


REMATCH_WAIT = 120.0  # seconds a joiner waits for the host to open the rematch


def _rematch(console: Console, human: bool) -> bool:
    """At the end of a match on a terminal, offer another with the same seats."""
    if not (human and console.interactive):
        return False
    try:
        answer = console.ask("Rematch: the same seats, a new match? [y/N] ")
    except InputClosed:
        return False
    return answer.lower() in ("y", "yes")


def _out_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with ``--out``, checked before the match (not after it): a file that is
    there already is never overwritten — it may be another match's file."""
    out = getattr(args, "out", None)
    if not out:
        return None
    if getattr(args, "deal_seed", None) is not None:
        return "--out needs a networked match: offline play (--deal-seed) keeps no match file"
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
    from cli.play import Console

    try:
        if args.command == "export":
            return record.export_json(args.file, sys.stdout)
        console = Console(sys.stdin, sys.stdout)
        ask = None if args.plain or not console.interactive else console.ask
        return record.replay(args.file, sys.stdout, ask)
    except record.RecordError as exc:
        sys.stderr.write(f"{PROG} {args.command}: {exc}\n")
        return EXIT_UNREADABLE


def _lan(args: argparse.Namespace) -> int:
    from cli import lan
    from cli.netplay import NetOptions
    from cli.play import Console
    from p2p.lobby import LobbyError
    from p2p.store import StoreError

    data_dir = data_dir_of(args)
    timeout = getattr(args, "turn_timeout", 90.0)
    try:
        if args.command == "matches":
            return lan.list_matches(data_dir, sys.stdout)
        if args.command == "id":
            return lan.show_id(data_dir, sys.stdout, export=args.export,
                               import_from=args.import_from)
        if args.command == "tables":
            return lan.run_async(lan.list_tables(sys.stdout, args.interface, args.wait,
                                                 args.watch))
        console = Console(sys.stdin, sys.stdout)
        full_screen = (not args.plain and console.interactive
                       and os.environ.get("TERM", "dumb") != "dumb")
        if args.command == "host":
            options = NetOptions(players=args.players, bots=args.bots, bot_kind=args.bot_kind,
                                 variant=args.variant, name=args.name or "",
                                 turn_timeout=timeout, silence_timeout=timeout * 2 / 3,
                                 out=args.out or "")
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
                if code != EXIT_OK or not _rematch(console, True):
                    return code
                # The table opens again on the same port; the same seats sit down unasked.
                port = session.port
                console.say(f"The rematch table is open on port {port}: the players who want "
                            "a rematch join again.")
                options = dataclasses.replace(
                    options, out=_numbered(args.out, session.matches + 1) if args.out else "")
        options = NetOptions(name=args.name or "", turn_timeout=timeout,
                             silence_timeout=timeout * 2 / 3, out=getattr(args, "out", "") or "")
        if args.command == "join":
            session = lan.Session()
            target, retry = args.table, 0.0
            while True:
                code = lan.run_async(lan.join_lan(
                    options, console, data_dir, target, interfaces=args.interface,
                    passphrase=args.passphrase, wait=args.wait, bot=args.bot or "",
                    full_screen=full_screen, session=session, retry_for=retry))
                if code != EXIT_OK or args.bot or not _rematch(console, True):
                    return code
                # Back to the same table, at the address it was reached at, once the host
                # opens it again.
                target, retry = f"{session.host}:{session.port}", REMATCH_WAIT
                options = dataclasses.replace(
                    options, out=_numbered(args.out, session.matches + 1) if args.out else "")
        return lan.run_async(lan.resume_lan(options, console, data_dir,
                                            full_screen=full_screen))
    except LeftGame as left:
        sys.stdout.write(f"{left}\n")
        return left.code
    except (LobbyError, StoreError, OSError) as exc:
        sys.stderr.write(f"{PROG} {args.command}: {exc}\n")
        return EXIT_FAILURE
    except Exception as exc:
        if type(exc).__name__ != "DiscoveryError":
            raise
        sys.stderr.write(f"{PROG} {args.command}: {exc}\n")
        return EXIT_FAILURE


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status (see the module docstring)."""
    _tolerant_streams()
    code = _main(argv)
    from cli.play import leave_if_input_blocked

    leave_if_input_blocked(code)  # (Ctrl-C at a prompt: a thread still waits for a line)
    return code


def _tolerant_streams() -> None:
    """A character the terminal cannot show (a player named "José" on an ASCII-only terminal,
    say) is written as "?" instead of stopping the command; a byte typed or piped in that is not
    text is read as U+FFFD and refused like any typo."""
    for stream in (sys.stdin, sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            with contextlib.suppress(AttributeError, ValueError, io.UnsupportedOperation):
                stream.reconfigure(errors="replace")


def _main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version and usage errors
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    problem = _out_problem(args)
    if problem is not None:
        sys.stderr.write(f"{PROG} {args.command}: error: {problem}\n")
        return EXIT_USAGE
    try:
        if args.command == "play":
            return _play(args, parser)
        if args.command == "verify":
            return _verify(args)
        if args.command in ("host", "tables", "join", "resume", "matches", "id"):
            return _lan(args)
        if args.command in ("replay", "export"):
            return _record(args)
        sys.stderr.write(f"{PROG}: error: choose a command, for example: {PROG} play "
                         f"(see {PROG} --help)\n")
        return EXIT_USAGE
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else EXIT_FAILURE
    except KeyboardInterrupt:
        _flush_quietly()
        sys.stderr.write(f"\n{PROG}: interrupted; you left the game\n")
        return EXIT_INTERRUPTED
    except InputClosed:
        _flush_quietly()
        sys.stderr.write(f"{PROG}: input ended while the game waited for your card; "
                         f"you left the game\n")
        return EXIT_FAILURE
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_FAILURE
    except Exception as exc:
        if os.environ.get("CRYPTCRAWL_DEBUG"):
            traceback.print_exc()
        sys.stderr.write(f"{PROG}: internal error: {type(exc).__name__}: {exc} "
                         f"(set CRYPTCRAWL_DEBUG=1 for details)\n")
        return EXIT_FAILURE


def _flush_quietly() -> None:
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so the exit flush does not fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":
    raise SystemExit(main())
