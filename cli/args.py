"""The ``cryptcrawl`` command line: its parser, the argument types and the exit statuses.

Light imports only (see :mod:`cli.main`): the parser is built before any command runs.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from cli.choice import (
    add_game_arguments,
    check_game_arguments,
    check_join_bot,
    check_rules_arguments,
    game_name,
)

PROG = "cryptcrawl"
EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
# cryptcrawl verify (the whole set: protocol.verify.verdicts.EXIT_CODES)
EXIT_VALID = 0
EXIT_INVALID = 1
EXIT_UNREADABLE = 3
EXIT_INCOMPLETE = 4

EPILOG = """\
exit status: 0 ok (also when you quit a game), 1 failure (including input
ending during your turn), 2 usage error, 130 interrupted (Ctrl-C)"""

PLAY_DESCRIPTION = """\
Play a game against bots on this machine (--game chooses which; `cryptcrawl
rules` lists them and summarises their rules).

Every bot is a real peer over loopback, with its own key and connections: the
match runs the full protocol (no dealer: chance outcomes come from secrets all
seats contribute; every move is signed) and leaves a match file that
`cryptcrawl verify` checks. The table is never advertised on the network.
Line mode (--plain): the game prints the table, you type your move in the
game's notation and press Enter; type ? during the game for help.

--deal-seed plays OFFLINE instead, with a trusted local dealer seeded by the
given text (to practise the same deal again; whoever knows the seed knows
every hidden card); with --out it keeps the game's record, which proves
nothing (`cryptcrawl verify` plays it again)."""


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


_GIVEN: list[str] = []
"""The command line the parser was given last (after the program's name)."""


def json_usage_wanted(given: Sequence[str]) -> bool:
    """Does ``given`` (a command line after the program's name) ask ``verify --json``?  Then a
    usage error is also printed as a JSON verdict (protocol.md §9.3: ``usage``)."""
    words = list(given)
    if "--" in words:
        words = words[:words.index("--")]
    command = next((w for w in words if not w.startswith("-")), None)
    return command == "verify" and "--json" in words


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr (status 2), and which runs its
    :attr:`checks` on what it parsed (each returns a problem or None)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.checks: list[Callable[[argparse.Namespace], str | None]] = []

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        if self.prog == PROG:  # (the whole command line, for a usage error's JSON)
            _GIVEN[:] = [str(a) for a in (sys.argv[1:] if args is None else args)]
        parsed, rest = super().parse_known_args(args, namespace)
        for check in self.checks:
            problem = check(parsed)
            if problem:
                self.error(problem)
        return parsed, rest

    def error(self, message: str) -> NoReturn:
        if json_usage_wanted(_GIVEN):
            # (`cryptcrawl verify --json`: the usage error as a verdict too, on stdout)
            from cli.verify import usage_json

            sys.stdout.write(usage_json(_GIVEN, message))
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}{did_you_mean(message)} (see "
                              f"{self.prog} --help)\n")


_CHOICE = re.compile(r"invalid choice: '([^']*)' \(choose from (.*)\)$")


def did_you_mean(message: str) -> str:
    """"; did you mean 'play'?" for argparse's "invalid choice: 'plya' (choose from ...)"
    when a choice is close to what was typed; "" otherwise."""
    import difflib

    found = _CHOICE.search(message)
    if found is None:
        return ""
    typed = found.group(1)
    choices = [c.strip().strip("'") for c in found.group(2).split(",")]
    close = difflib.get_close_matches(typed.lower(), choices, n=1, cutoff=0.75)
    return f"; did you mean '{close[0]}'?" if close else ""


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative")
    return value


def _port(text: str) -> int:
    value = _count(text)
    if value > 65_535:
        raise argparse.ArgumentTypeError(f"{value} is not a TCP port (0 to 65535; 0: any)")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0.1 <= value <= 86_400:
        raise argparse.ArgumentTypeError(f"{value:g} s is not between 0.1 s and a day")
    return value


def _speed(text: str) -> tuple[int, int, int, int]:
    """``--speed fast|normal|slow``: the table's timeouts (p2p/speeds.py)."""
    from p2p.speeds import speed_timeouts

    try:
        return speed_timeouts(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _timeouts(text: str) -> tuple[int, int, int, int]:
    """``--timeouts Q,N,L,S``: whole seconds, each at least 5 (shorter, the peers of one loaded
    machine — you and your bots — time each other out and vote each other absent all at once;
    the test harness applies shorter ones through PeerConfig), quick ≤ normal ≤ long."""
    from p2p.speeds import parse_timeouts

    try:
        return parse_timeouts(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _table_speed(sub: argparse.ArgumentParser) -> None:
    """``--speed`` or ``--timeouts``: how long the table gives each move (into the header)."""
    speed = sub.add_mutually_exclusive_group()
    speed.add_argument("--speed", type=_speed, default=None, metavar="fast|normal|slow",
                       help="how long the table gives each move before it asks the other "
                            "peers and then lets a bot play the silent seat: fast (a move 45 s), "
                            "normal (90 s, the default) or slow (180 s); quick answers and "
                            "long plans get a third and over three times that")
    speed.add_argument("--timeouts", type=_timeouts, default=None, metavar="Q,N,L,S",
                       help="the table's timeouts exactly, in seconds: a quick answer, a "
                            "normal move, a long plan, then the silence before a bot takes "
                            "over (default 30,90,300,60)")


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
        "play", help="play against bots on this machine (a real match over loopback)",
        description=PLAY_DESCRIPTION, epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_arguments(play, bots_help="a bot of the game by its name instead of a level "
                                       "(`cryptcrawl rules GAME` names them)")
    play.checks.append(check_game_arguments)
    play.add_argument("--bots", type=_count, default=None, metavar="N",
                      help="number of bots: players-1 (the default: you and bots) or players "
                           "(an unattended all-bot game)")
    play.add_argument("--seed", metavar="TEXT", default=None,
                      help="seed the bots' choices only (chance secrets always come from the "
                           "operating system's randomness)")
    play.add_argument("--deal-seed", metavar="TEXT", default=None,
                      help="play offline with a trusted local dealer seeded by TEXT (the same "
                           "deal again; whoever knows it knows every hidden card)")
    play.add_argument("--out", metavar="FILE", type=_path, default=None,
                      help="also write the match file to FILE (offline: the game's record)")
    _table_speed(play)
    play.add_argument("--name", type=_name, default=None, metavar="NAME",
                      help="your name at the table (default: you)")
    play.add_argument("--no-bell", action="store_true",
                      help="full screen: do not ring the terminal's bell when it is your move")
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
            sub.add_argument("--no-bell", action="store_true",
                             help="full screen: do not ring the terminal's bell when it is "
                                  "your move")
            sub.add_argument("--plain", action="store_true",
                             help="plain line mode for scripts and screen readers (the default "
                                  "when not on a terminal; on a terminal the match is full "
                                  "screen once it starts)")
            sub.add_argument("--name", type=_name, default=None, metavar="NAME",
                             help="your name at the table")

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
    add_game_arguments(host, bots_help="a bot of the game by its name instead of a level",
                       per_seat=True)
    host.checks.append(check_game_arguments)
    host.add_argument("--bots", type=_count, default=0, metavar="N",
                      help="fill N seats with bots (real peers running on THIS machine, "
                           "which can see their hands)")
    host.add_argument("--port", type=_count, default=0, help="lobby TCP port (default: any)")
    host.add_argument("--table-name", type=_table_name, default=None, metavar="TEXT")
    host.add_argument("--passphrase", default="", metavar="TEXT",
                      help="only people who know it may sit down")
    host.add_argument("--yes", action="store_true",
                      help="let everyone sit down without asking (a changed key still asks)")
    host.add_argument("--out", metavar="FILE", type=_path, default=None)
    host.add_argument("--no-spectators", action="store_true",
                      help="nobody may watch this table's match (cryptcrawl spectate)")
    _table_speed(host)
    tables = commands.add_parser("tables", help="list the tables on the LAN, live",
                                 description="Listen for tables advertised on the LAN.")
    common(tables, net=False)
    interface(tables)
    tables.add_argument("--game", type=game_name, default=None, metavar="GAME",
                        help="list only the tables of this game (default: every game)")
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
    join.add_argument("--bot", default=None, metavar="LEVEL",
                      help="let a bot play this seat (for unattended seats and tests): a level "
                           "(easy, normal, strong) or one of the table's game's bots, such as "
                           "random")
    join.checks.append(check_join_bot)
    join.add_argument("--out", metavar="FILE", type=_path, default=None)
    resume = commands.add_parser(
        "resume", help="rejoin your interrupted match",
        description="Rejoin an interrupted match in the data directory (the one played last, or "
                    "the one whose id starts with ID; `cryptcrawl matches` lists them): reload "
                    "its file, reconnect, catch up, reclaim your seat. Your name is the one "
                    "you had in the match.", epilog=EPILOG)
    common(resume)
    resume.add_argument("match", nargs="?", default="", metavar="ID",
                        help="the match id (or its first characters); default: the unfinished "
                             "match played last")
    matches = commands.add_parser(
        "matches", help="your match history",
        description="One line per match file in the data directory: when, the game, the "
                    "players, the result and the file. Verdicts are cached (marked "
                    "'cached'); a file that changed is checked afresh.")
    common(matches, net=False)
    matches.add_argument("--prune", action="store_true",
                         help="delete the interrupted starts that never got under way (no "
                              "card played), with their seeds")
    stats = commands.add_parser(
        "stats", help="your record, per game, from your match files",
        description="Your record from the match files in the data directory, per game: "
                    "games, wins and average placing (ties share a placing). Only valid "
                    "files count; a match a bot finished for your seat is counted apart, "
                    "not as a win, and so are claimed, abandoned, split and the other "
                    "verdicts.")
    common(stats, net=False)
    stats.add_argument("--json", action="store_true", help="print the record as JSON")
    rules = commands.add_parser(
        "rules", help="the rules of a game, in short",
        description="The rules of GAME in short: the same text as the game's help during a "
                    "match. Without GAME, the games there are.")
    rules.add_argument("game", nargs="?", type=game_name, default=None, metavar="GAME",
                       help="the game (default: list the games)")
    rules.add_argument("--players", type=int, default=None, metavar="N",
                       help="for a table of N players (where the rules depend on it)")
    rules.checks.append(check_rules_arguments)
    ident = commands.add_parser("id", help="create or show your identity; export or import it")
    common(ident, net=False)
    ident.add_argument("--export", metavar="FILE", type=_path, default=None,
                       help="write your private key to FILE (mode 0600) as a backup")
    ident.add_argument("--import", dest="import_from", metavar="FILE", type=_path, default=None,
                       help="use the private key in FILE as this data directory's identity")
    spectate = commands.add_parser(
        "spectate", help="watch a live match, read-only (a table's name, or HOST:PORT)",
        description="Watch a live match read-only, one move behind the table: the table's "
                    "match found on the LAN by its name, or the seat at HOST:PORT (its match "
                    "port, which host and join print), relays it, and every message is checked "
                    "here as verify does.")
    spectate.add_argument("target", metavar="TABLE|HOST:PORT")
    interface(spectate)
    spectate.add_argument("--wait", type=_seconds, default=5.0, metavar="SECONDS",
                          help="how long to look for the table's match on the LAN")
    spectate.add_argument("--relay", type=_port, default=None, metavar="PORT",
                          help="relay the match to up to 4 other spectators on this TCP port "
                               "(0: any), so the players' programs serve fewer")
    common(spectate, net=False)
    replay = commands.add_parser("replay", help="step through a match file",
                                 description="Replay a match file step by step, as its game "
                                             "tells it (Enter for the next one); --plain "
                                             "prints the whole record.")
    replay.add_argument("file", metavar="FILE")
    replay.add_argument("--plain", action="store_true", help="print everything, no pauses")
    common(replay, net=False)
    export = commands.add_parser("export", help="write a match file as JSON (the default)",
                                 description="Write a match file as a readable JSON record: "
                                             "header, verdict, every event and every message.")
    export.add_argument("file", metavar="FILE")
    export.add_argument("--json", action="store_true",
                        help="the format: JSON, the default and only one")
    common(export, net=False)
    verify = commands.add_parser(
        "verify", help="check a finished match file end to end",
        description="Check a match file (.crawl) end to end: every signature and hash chain, "
                    "every commitment and chance outcome, every action through the rules, the "
                    "result and every seat's signature on it.  Given several copies of one "
                    "match (each player's file), check them together: a seat that signed two "
                    "versions of a message is named, and each copy is said to be whole, short, "
                    "damaged or edited.",
        epilog="exit status: 0 valid, 1 invalid (the first bad entry and the seat at fault), "
               "2 usage error (or copies of different matches), 3 unreadable file, "
               "4 incomplete, 5 claimed, 6 disputed (two seats, one of which broke the rules), "
               "7 abandoned, 8 split (copies that signed different results), 9 the record of "
               "an offline game, played again (it proves nothing)",
    )
    verify.add_argument("files", metavar="FILE", nargs="+",
                        help="the match file, or several copies of one match")
    verify.add_argument("--json", action="store_true", help="print the verdict as JSON")
    verify.add_argument("--data-dir", metavar="DIR", type=_path, default=None,
                        help="accepted for symmetry with the other commands; not used")
    return parser



_DATA_DIR: list[str] = []  # an explicit --data-dir of this run (the resume hint repeats it)


def note_data_dir(folder: str | None) -> None:
    """This run was given ``--data-dir folder`` (None: none): the commands it prints to resume
    say it too."""
    _DATA_DIR[:] = [] if folder is None else [folder]


def resume_command() -> str:
    """How to resume the match played now: ``cryptcrawl resume``, with the ``--data-dir`` this
    run was given (without it, resume would look in the default folder and find nothing)."""
    import shlex

    extra = f" --data-dir {shlex.quote(_DATA_DIR[0])}" if _DATA_DIR else ""
    return f"{invocation()} resume{extra}"


def invocation() -> str:
    """How to run this program again, as it was started, for the commands it prints ("Check
    it: ... verify FILE"): ``cryptcrawl`` when that name on PATH is this very program; the
    script's absolute path when it was started by path (``.venv/bin/cryptcrawl`` with no venv
    on PATH); ``PYTHON -m cli`` when started as a module."""
    import os
    import shlex
    import shutil

    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    if spec is not None and spec.name in ("cli", "cli.__main__", "cli.main"):
        python = sys.executable or "python3"
        short = os.path.basename(python)
        found = shutil.which(short)
        if found and _same_file(found, python):
            python = short
        return f"{shlex.quote(python)} -m cli"
    script = sys.argv[0] if sys.argv else ""
    if not os.path.basename(script).startswith(PROG):
        return PROG  # (not started as the command: a test runner calling main())
    found = shutil.which(PROG)
    if found and _same_file(found, script):
        return PROG
    return shlex.quote(os.path.abspath(script))


def _same_file(a: str, b: str) -> bool:
    import os

    try:
        return os.path.samefile(a, b)
    except OSError:
        return False
