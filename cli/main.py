"""The ``cryptcrawl`` command.

Exit status: 0 ok (also when you leave a game on purpose), 1 any other failure (including input
ending while the game waits for you, or output that cannot be written), 2 a usage error, 130
interrupted (Ctrl-C); a game ended by SIGTERM or SIGHUP, 128 plus the signal's number (143,
129).  Every error is one line on stderr, never a traceback (set ``CRYPTCRAWL_DEBUG=1`` to see
one for an internal error).
"""

from __future__ import annotations

# Only light modules here: Ctrl-C can come at any moment, and until main() runs it cannot be
# answered with one line (the engine, the protocol and the network are imported by the
# commands that need them).
import argparse
import contextlib
import errno
import io
import os
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, NoReturn, TextIO, cast

if TYPE_CHECKING:
    from cli.play import Console

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
    # The import is outside the try: interrupted, it raises KeyboardInterrupt (answered by
    # main()), never an except clause naming a class that was not imported yet.
    from importlib import metadata

    try:
        return metadata.version("cryptcrawl")
    except metadata.PackageNotFoundError:
        return "0+unknown (not installed)"


class _VersionAction(argparse.Action):
    """``--version``, looked up only when asked for (not on every run)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS,
                 help: str = "show program's version number and exit") -> None:
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0,
                         help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> NoReturn:
        sys.stdout.write(f"{PROG} {version()}\n")
        parser.exit()


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


def _path(text: str) -> str:
    """A file or directory option: an empty one is a mistake (``--data-dir "$UNSET"``), never
    "the default" — which, for --data-dir, is the real user data directory."""
    if not text:
        raise argparse.ArgumentTypeError("the path is empty")
    return text


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
    parser.add_argument("--version", action=_VersionAction)
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
    play.add_argument("--out", metavar="FILE", type=_path, default=None,
                      help="also write the match file to FILE")
    play.add_argument("--turn-timeout", type=_turn_seconds, default=90.0, metavar="SECONDS",
                      help="how long the table waits for a move before asking the other "
                           "peers and then replacing the silent seat by a bot (default 90)")
    play.add_argument("--name", type=_name, default=None, metavar="NAME",
                      help="your name at the table (default: you)")
    play.add_argument("--plain", action="store_true",
                      help="plain line mode for scripts and screen readers (the default when "
                           "not on a terminal; on a terminal the game is full screen)")
    play.add_argument("--data-dir", metavar="DIR", type=_path, default=None,
                      help="where cryptcrawl keeps your identity and matches (default: your "
                           "user data directory)")
    def common(sub: argparse.ArgumentParser, *, net: bool = True) -> None:
        sub.add_argument("--data-dir", metavar="DIR", type=_path, default=None,
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
    host.add_argument("--out", metavar="FILE", type=_path, default=None)
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
    join.add_argument("--out", metavar="FILE", type=_path, default=None)
    resume = commands.add_parser("resume", help="rejoin your interrupted match",
                                 description="Rejoin the last interrupted match in the data "
                                             "directory: reload its file, reconnect, catch up, "
                                             "reclaim your seat.", epilog=EPILOG)
    common(resume)
    matches = commands.add_parser("matches", help="your match history")
    common(matches, net=False)
    ident = commands.add_parser("id", help="create or show your identity; export or import it")
    common(ident, net=False)
    ident.add_argument("--export", metavar="FILE", type=_path, default=None,
                       help="write your private key to FILE (mode 0600) as a backup")
    ident.add_argument("--import", dest="import_from", metavar="FILE", type=_path, default=None,
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
    verify.add_argument("--data-dir", metavar="DIR", type=_path, default=None,
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
    from cli.play import GameOptions, LeftGame, play_offline, replay_hint

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
    if args.data_dir is not None:  # ("" is refused by the parser: never the default)
        return Path(args.data_dir)
    from p2p.store import default_data_dir

    return default_data_dir()


def _play_networked(args: argparse.Namespace, players: int, bots: int) -> int:
    import asyncio
    import dataclasses
    import itertools

    from cli.netplay import NetOptions, play_networked
    from cli.play import Console, LeftGame
    from p2p.lobby import LobbyError
    from p2p.store import StoreError

    options = NetOptions(
        players=players, bots=bots, bot_kind=args.bot_kind, variant=args.variant,
        bot_seed=args.seed if args.seed is not None else _random_seed(),
        name=args.name or "", turn_timeout=args.turn_timeout,
        silence_timeout=max(args.turn_timeout * 2 / 3, 0.1), out=args.out or "", local=True)
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
    from cli.play import InputClosed

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
    if out is None:
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


def _lan(args: argparse.Namespace) -> int:
    import dataclasses

    from cli import lan
    from cli.netplay import NetOptions
    from cli.play import Console, LeftGame
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


GAME_COMMANDS = ("play", "host", "join", "resume")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status (see the module docstring)."""
    code = EXIT_INTERRUPTED
    try:  # Ctrl-C at any moment, the parser's included, is one line and status 130
        _standard_streams()
        _tolerant_streams()
        code = _main(argv)
    except KeyboardInterrupt:
        _flush_quietly()
        _say(f"\n{PROG}: interrupted")
        code = EXIT_INTERRUPTED
    _forget_interrupt()
    play = sys.modules.get("cli.play")  # (not imported: no console thread either)
    if play is not None:
        play.leave_if_input_blocked(code)  # (Ctrl-C at a prompt: a thread still waits)
    return code


def _forget_interrupt() -> None:
    """CPython notes a KeyboardInterrupt that leaves code run by ``exec(text)`` (dataclasses
    and named tuples are made that way, so Ctrl-C while a module loads often does) and, at
    exit, kills the process with SIGINT instead of returning our status — even though the
    interrupt was caught and answered.  Running text again clears the note."""
    exec("None")


def _standard_streams() -> None:
    """A standard stream that is closed (``cryptcrawl play <&-``, ``cryptcrawl verify F >&-``)
    is ``None`` in Python: it becomes the null device, so input ends at once (the game says
    so) and output goes nowhere (the exit status still tells the verdict)."""
    for name, mode in (("stdin", "r"), ("stdout", "w"), ("stderr", "w")):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, mode, encoding="utf-8"))  # noqa: SIM115


def _tolerant_streams() -> None:
    """A character the terminal cannot show (a player named "José" on an ASCII-only terminal,
    say) is written as "?" instead of stopping the command; a byte typed or piped in that is not
    text is read as U+FFFD and refused like any typo."""
    for stream in (sys.stdin, sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            with contextlib.suppress(AttributeError, ValueError, io.UnsupportedOperation):
                stream.reconfigure(errors="replace")


class _OutputError(Exception):
    """Writing to standard output failed (``> /dev/full``, ``| head -1``)."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


class _Output:
    """Standard output for the commands that print (and for offline play): a failed write or
    flush becomes :class:`_OutputError`, told apart from the OSErrors of files and sockets."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except OSError as exc:
            raise _OutputError(exc) from exc

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        try:
            self.stream.flush()
        except OSError as exc:
            raise _OutputError(exc) from exc

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


class _Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP during a game: left like Ctrl-C, with the signal's status."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number


def _terminate(number: int, frame: FrameType | None) -> None:
    """The handler: raise :class:`_Terminated` — from a callback of the running event loop if
    there is one (as asyncio does with Ctrl-C), not inside whatever task the signal happened
    to interrupt (that task would keep the exception and log it as never retrieved)."""
    running = getattr(sys.modules.get("asyncio"), "get_running_loop", None)  # (loaded yet?)
    loop: Any = None
    if running is not None:
        with contextlib.suppress(RuntimeError):
            loop = running()
    if loop is None:
        if _importing(frame):
            # Raised here, it could land in a callback of the import system, which drops it:
            # the signal would be lost.  Nothing has begun yet: say so, end as the signal does.
            _say(_termination_line(number))
            signal.signal(number, signal.SIG_DFL)
            os.kill(os.getpid(), number)
        raise _Terminated(number)
    try:
        loop.call_soon_threadsafe(_raise_terminated, number)
    except RuntimeError:  # (a loop that is closing)
        raise _Terminated(number) from None


def _raise_terminated(number: int) -> None:
    raise _Terminated(number)


def _importing(frame: FrameType | None) -> bool:
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


def _termination_line(number: int) -> str:
    what = "hung up" if number == getattr(signal, "SIGHUP", None) else "terminated"
    return f"\n{PROG}: {what}; you left the game"


def _leave_on_termination() -> Callable[[], None]:
    """For a game: SIGTERM and SIGHUP leave it like Ctrl-C (the match file is closed as it
    stands; one line says why) instead of ending the process without a word.  A signal that
    is not at its default (``nohup`` ignores SIGHUP) is left alone.  Returns the undo."""
    saved: dict[int, Any] = {}
    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is None:
            continue
        with contextlib.suppress(ValueError, OSError, TypeError):  # (not the main thread)
            if signal.getsignal(number) == signal.SIG_DFL:
                saved[number] = signal.signal(number, _terminate)

    def restore() -> None:
        for number, handler in saved.items():
            with contextlib.suppress(ValueError, OSError, TypeError):
                signal.signal(number, handler)

    return restore


def _main(argv: Sequence[str] | None = None) -> int:
    # Output errors are told apart from those of files and sockets (see _Output) — but a
    # networked game stops on its own when its output goes away (cli/netplay.py).
    stdout = sys.stdout
    sys.stdout = cast(TextIO, _Output(stdout))
    try:
        return _parse_and_run(argv)
    finally:
        if isinstance(sys.stdout, _Output):
            sys.stdout = stdout


def _parse_and_run(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version and usage errors
        return _flushed(exc.code if isinstance(exc.code, int) else EXIT_USAGE, PROG, False)
    except _OutputError as exc:  # (--help > /dev/full: argparse itself ignores OSError)
        return _output_failed(exc.error, PROG, False)
    command: str | None = args.command
    name = f"{PROG} {command}" if command else PROG
    problem = _out_problem(args)
    if problem is not None:
        sys.stderr.write(f"{name}: error: {problem}\n")
        return EXIT_USAGE
    game = command in GAME_COMMANDS
    if game and getattr(args, "deal_seed", None) is None and isinstance(sys.stdout, _Output):
        sys.stdout = sys.stdout.stream
    restore = _leave_on_termination() if game else (lambda: None)
    try:
        return _flushed(_command(args, parser), name, game)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else EXIT_FAILURE
    except _Terminated as exc:
        _flush_quietly()
        _say(_termination_line(exc.number))
        return 128 + exc.number
    except KeyboardInterrupt:
        _flush_quietly()
        _say(f"\n{PROG}: interrupted; you left the game" if game else f"\n{name}: interrupted")
        return EXIT_INTERRUPTED
    except _OutputError as exc:
        return _output_failed(exc.error, name, game)
    except EOFError:  # cli.play.InputClosed
        _flush_quietly()
        _say(f"{PROG}: input ended while the game waited for your card; you left the game"
             if game else f"{name}: input ended")
        return EXIT_FAILURE
    except BrokenPipeError as exc:
        return _output_failed(exc, name, game)
    except Exception as exc:
        if os.environ.get("CRYPTCRAWL_DEBUG"):
            import traceback

            traceback.print_exc()
        _say(f"{PROG}: internal error: {type(exc).__name__}: {exc} "
             f"(set CRYPTCRAWL_DEBUG=1 for details)")
        return EXIT_FAILURE
    finally:
        restore()


def _command(args: argparse.Namespace, parser: Parser) -> int:
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


def _flushed(code: int, name: str, game: bool) -> int:
    """The exit status once what is left of the output is written: a failure to write it (a
    full disk, a closed pipe) is one line and status 1, not a silent loss at exit."""
    try:
        sys.stdout.flush()
    except _OutputError as exc:
        return _output_failed(exc.error, name, game)
    except OSError as exc:
        return _output_failed(exc, name, game)
    except ValueError:  # (closed)
        pass
    return code


def _output_failed(exc: OSError, name: str, game: bool) -> int:
    _silence_stdout()
    if isinstance(exc, BrokenPipeError) or exc.errno == errno.EPIPE:
        _say(f"{name}: the output went away ({exc.strerror or exc})"
             + ("; you left the game" if game else ""))
    else:
        _say(f"{name}: cannot write the output: {exc.strerror or exc}")
    return EXIT_FAILURE


def _say(line: str) -> None:
    """One line on stderr, whatever became of it (a closed pipe, a hung-up terminal)."""
    with contextlib.suppress(Exception):
        sys.stderr.write(line + "\n")
        sys.stderr.flush()


def _flush_quietly() -> None:
    with contextlib.suppress(Exception):
        sys.stdout.flush()


def _silence_stdout() -> None:
    """After a failed write, point stdout at /dev/null so the exit flush does not fail."""
    try:
        devnull, fd = os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno()
        if devnull != fd:
            os.dup2(devnull, fd)
            os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass
    with contextlib.suppress(Exception):
        sys.stdout.flush()  # (what could not be written goes to /dev/null now)


if __name__ == "__main__":
    raise SystemExit(main())
