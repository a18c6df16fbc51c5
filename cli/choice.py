"""Which game a table plays, and how: ``--game``, ``--players``, ``--option KEY=VALUE``,
``--variant`` and ``--bot-kind``, each checked against the game's :class:`~engine.core.GameSpec`
once the command line is parsed (the game may come after its options).

A problem is one sentence for the parser's error line (status 2): a player count the game does
not take, an option it does not have (naming those it has), a bot it does not have, a game that
cannot be played over the network yet.  Light at import (the parser is built from it); the
engine is imported by the checks.
"""

from __future__ import annotations

import argparse
import inspect

from cli.games import DEFAULT_GAME


def game_name(text: str) -> str:
    """An argument naming a registered game."""
    from engine.games import games

    known = games()
    if text not in known:
        raise argparse.ArgumentTypeError(f"unknown game {text!r} (known: {', '.join(known)})")
    return text


def _whole(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of players") from None
    return value


LEVELS_HELP = ("easy (sensible moves, with a blunder now and then), normal (the game's "
               "rule-of-thumb bot) or strong (searches: looks ahead, up to a second a move)")


def bot_level(text: str) -> str:
    """``--bot LEVEL``: one of the bot levels."""
    from engine.core import LEVELS

    if text not in LEVELS:
        raise argparse.ArgumentTypeError(f"a bot level is {', '.join(LEVELS)}, not {text!r}")
    return text


def add_game_arguments(sub: argparse.ArgumentParser, *, bots_help: str,
                       per_seat: bool = False) -> None:
    """The arguments that choose the game and its options, and how its bots play (``play``
    and ``host``; ``per_seat``: ``--bot`` may be given once per bot seat)."""
    from engine.core import DEFAULT_LEVEL
    from engine.games import games

    sub.add_argument("--game", type=game_name, default=DEFAULT_GAME, metavar="GAME",
                     help=f"the game: {', '.join(games())} (default {DEFAULT_GAME}; "
                          "`cryptcrawl rules GAME` summarises its rules)")
    sub.add_argument("--players", type=_whole, default=None, metavar="N",
                     help="number of players (the game's range; default: its usual table)")
    if per_seat:
        sub.add_argument("--bot", type=bot_level, action="append", default=None,
                         metavar="LEVEL",
                         help=f"how the bots play: {LEVELS_HELP}; default {DEFAULT_LEVEL}. "
                              "Once for every bot, or once per bot seat in seat order "
                              "(--bots 2 --bot strong --bot easy)")
    else:
        sub.add_argument("--bot", type=bot_level, default=None, metavar="LEVEL",
                         help=f"how the bots play: {LEVELS_HELP}; default {DEFAULT_LEVEL}")
    sub.add_argument("--bot-kind", default=None, metavar="NAME", help=bots_help)
    sub.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                     help="a game option (repeatable); an unknown one is refused, naming the "
                          "options the game has")
    sub.add_argument("--variant", default=None, metavar="NAME",
                     help="the game's variant, for a game that has variants (the same as "
                          "--option variant=NAME; default: its first)")


def players_text(players: tuple[int, ...]) -> str:
    """"3 to 5", "2", "1 to 8"."""
    low, high = min(players), max(players)
    if len(players) == high - low + 1:
        return str(low) if low == high else f"{low} to {high}"
    return ", ".join(str(p) for p in players)


def default_players(game: str, *, networked: bool) -> int:
    """The game's usual table: its ``new`` default, at least 2 seats for a networked match."""
    from engine.games import get_game

    spec = get_game(game)
    chosen = inspect.signature(spec.new).parameters.get("players")
    value = chosen.default if chosen is not None else min(spec.players)
    if not isinstance(value, int) or value not in spec.players:
        value = min(spec.players)
    if networked and value < 2:
        value = min((p for p in spec.players if p >= 2), default=value)
    return value


def check_game_arguments(ns: argparse.Namespace) -> str | None:
    """Check (and resolve in place) the game's arguments of ``ns``: ``players`` becomes a
    number, ``game_options`` the options as ``(key, value)`` pairs.  A problem, or None."""
    from cli.games import find_ui
    from engine.core import parse_options
    from engine.games import get_game

    spec = get_game(ns.game)
    networked = getattr(ns, "deal_seed", None) is None
    if ns.players is None:
        ns.players = default_players(ns.game, networked=networked)
    if ns.players not in spec.players:
        return (f"argument --players: {spec.title} is for {players_text(spec.players)} players, "
                f"not {ns.players}")
    if ns.bot_kind is not None and ns.bot_kind not in spec.bots:
        return (f"argument --bot-kind: {spec.title} has no bot {ns.bot_kind!r} (its bots: "
                f"{', '.join(spec.bots)})")
    if ns.bot_kind is not None and ns.bot:
        return "argument --bot-kind: choose the bots by --bot LEVEL or by --bot-kind NAME"
    try:
        options = parse_options(spec, ns.option, variant=ns.variant)
    except ValueError as exc:
        which = "--variant" if ns.variant is not None and "variant" in str(exc) else "--option"
        return f"argument {which}: {exc}"
    try:
        spec.new(players=ns.players, **options)
    except (TypeError, ValueError) as exc:  # (options that do not go together)
        return f"these options do not go together: {exc}"
    ns.game_options = tuple(sorted(options.items()))
    if networked:
        why = find_ui(ns.game).networked
        if why:
            return (f"{spec.title} cannot be played over the network yet ({why}); practise it "
                    "offline: cryptcrawl play --game "
                    f"{ns.game} --deal-seed TEXT")
        if ns.players < 2:
            return (f"a match on the network has 2 seats at least; for {spec.title} alone, "
                    "practise offline: --deal-seed TEXT")
    return None


def check_join_bot(ns: argparse.Namespace) -> str | None:
    """``join --bot NAME``: a level, or a bot some game has (the table's game is known only
    once seated)."""
    from engine.core import LEVELS
    from engine.games import games, get_game

    if ns.bot is None or ns.bot in LEVELS:
        return None
    known = sorted({name for game in games() for name in get_game(game).bots})
    if ns.bot not in known:
        return (f"argument --bot: {ns.bot!r} is no level ({', '.join(LEVELS)}) and no game "
                f"has a bot of that name (bots: {', '.join(known)})")
    return None


def bot_kinds(ns: argparse.Namespace) -> tuple[str, ...]:
    """How the bots of ``play`` or ``host`` play: ``--bot-kind NAME``, else the ``--bot``
    levels given (one for all, or one a bot seat), else () (the default level)."""
    if ns.bot_kind:
        return (ns.bot_kind,)
    levels = ns.bot if isinstance(ns.bot, list) else [ns.bot] if ns.bot else []
    return tuple(levels)



def check_rules_arguments(ns: argparse.Namespace) -> str | None:
    """``rules [GAME] [--players N]``: N among the game's player counts."""
    from engine.games import get_game

    if ns.players is None:
        return None
    if ns.game is None:
        return "argument --players: name the game too (cryptcrawl rules GAME --players N)"
    spec = get_game(ns.game)
    if ns.players not in spec.players:
        return (f"argument --players: {spec.title} is for {players_text(spec.players)} players, "
                f"not {ns.players}")
    return None
