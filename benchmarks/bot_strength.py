"""How strong is a bot?  One seat plays BOT, the others play OPPONENT; the seat rotates.

    python -m benchmarks bots --bot heuristic --opponent random --players 5 --games 2000
    python -m benchmarks bots --game twister --games 600

``--players`` defaults to the game's largest table and ``--variant`` to its first variant (a
game without variants is created without one).

Reports the bot's win share (a k-way shared win counts 1/k; a fair seat wins 1/players) with a
95% confidence interval (normal approximation on per-game shares), and, over games/20 games
with BOT in every seat, the share of simultaneous steps in which every seat played the same
card (``self_play_same_card_share``; only for games with simultaneous steps).

``--option KEY=VALUE`` (repeatable) sets a game option (``--option mode=coop``); ``--variant``
applies to games that have variants.  For a game with teams, BOT plays one seat and OPPONENT
all the others, teammates included.
"""

from __future__ import annotations

import argparse
import json
import math
import time

from engine.core import GameSpec, JointActed
from engine.games import get_game
from engine.sim import Dealer, play_out
from engine.stream import derive_key


def game_options(spec: GameSpec, players: int, variant: str | None,
                 options: list[str]) -> dict[str, object]:
    """The ``new`` arguments: ``players``, the variant if the game has variants, and every
    ``KEY=VALUE`` option parsed by the game's own OptionSpec (ValueError naming the problem)."""
    out: dict[str, object] = {"players": players}
    if spec.variants:
        out["variant"] = variant
    for text in options:
        key, sep, value = text.partition("=")
        if not sep:
            raise ValueError(f"an option is KEY=VALUE, not {text!r}")
        try:
            out[key] = spec.option(key).parse(value)
        except KeyError as exc:
            raise ValueError(str(exc.args[0])) from None
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks bots",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="raiders")
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--variant", default=None)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", default="bots")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a game option (repeatable)")
    args = parser.parse_args(argv)
    spec = get_game(args.game)
    for name in (args.bot, args.opponent):
        if name not in spec.bots:
            parser.error(f"unknown bot {name!r} (known: {', '.join(spec.bots)})")
    if args.players is None:
        args.players = max(spec.players)
    if args.variant is None and spec.variants:
        args.variant = spec.variants[0]
    if args.players not in spec.players:
        parser.error(f"{spec.title} is for {min(spec.players)}-{max(spec.players)} players")
    try:
        options = game_options(spec, args.players, args.variant, args.option)
        spec.new(**options)
    except ValueError as exc:
        parser.error(str(exc))
    shares: list[float] = []
    start = time.perf_counter()
    for g in range(args.games):
        seat = g % args.players
        bots = [spec.bots[args.opponent]() for _ in range(args.players)]
        bots[seat] = spec.bots[args.bot]()
        dealer = Dealer(derive_key(args.seed, str(g)))
        run = play_out(spec.new(**options), bots, dealer, record=False)
        outcome = run.state.waiting.outcome  # type: ignore[attr-defined]
        shares.append(outcome.share(seat))
        if (g + 1) % 250 == 0:
            print(f"{g + 1} games: win share {sum(shares) / len(shares):.3f}", flush=True)
    # How often every seat plays the same card when all seats are BOT (a fixed-policy bot
    # mirrors its copies: a person can predict it, and shared chests go to waste).
    same = steps = 0
    for g in range(max(1, args.games // 20)):
        run = play_out(spec.new(**options),
                       [spec.bots[args.bot]() for _ in range(args.players)],
                       Dealer(derive_key(args.seed, "self", str(g))))
        for entry in run.history:
            if isinstance(entry, JointActed):
                steps += 1
                same += len({action for _, action in entry.actions}) == 1
        if not steps:
            break  # a game without simultaneous steps: nothing to measure
    n = len(shares)
    mean = sum(shares) / n
    var = sum((s - mean) ** 2 for s in shares) / max(1, n - 1)
    half = 1.96 * math.sqrt(var / n)
    report: dict[str, object] = {
        "benchmark": "bots", "game": args.game, "bot": args.bot, "opponent": args.opponent,
        "players": args.players}
    if spec.variants:
        report["variant"] = args.variant
    report.update({key: value for key, value in options.items()
                   if key not in ("players", "variant")})
    report.update({
        "games": n,
        "win_share": round(mean, 4), "ci95": [round(mean - half, 4), round(mean + half, 4)],
        "fair_share": round(1 / args.players, 4)})
    if steps:
        report["self_play_same_card_share"] = round(same / steps, 4)
    else:
        draws = sum(1 for share in shares if 0 < share < 1)
        report["shared_or_drawn_games"] = draws
    report["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(report))
    return 0
