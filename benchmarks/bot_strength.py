"""How strong is a bot?  One seat plays BOT, the others play OPPONENT; the seat rotates.

    python -m benchmarks bots --bot heuristic --opponent random --players 5 --games 2000
    python -m benchmarks bots --game twister --games 600
    python -m benchmarks bots --game paper            # solo: 500 paired games, scores

Reports the bot's win share (a k-way shared win counts 1/k, and so does a draw among k seats;
a fair seat wins 1/players) with a 95% confidence interval (normal approximation on per-game
shares); the CPU time of each of BOT's decisions, counted by this process's clock (every
thread; the bots start no process): ``think_cpu_p95_s`` is its 95th percentile, ``think_cpu_s``
its mean, 95th percentile and maximum; and, over games/20 games with BOT in every seat, the share
of simultaneous steps in which every seat played the same card (``self_play_same_card_share``;
only for games with simultaneous steps, and never for a searching bot, whose table of copies
would take hours).  ``--workers N`` plays the games in N processes: the games and the figures
are the same for any N.

``--option KEY=VALUE`` (repeatable) sets a game option (``--option mode=coop``); ``--variant``
applies to games that have variants.  For a game with teams, BOT plays one seat and OPPONENT
all the others, teammates included.

With one player (a solo game, where the lone seat always "wins") it compares scores instead:
each game's dealer seed is played once by BOT and once by OPPONENT (and once by the game's
zombie), and the last line reports the mean scores, ``score_gain`` (BOT minus OPPONENT, paired
per seed) with ``score_gain_ci95`` ([low, high]), and how long BOT's and the zombie's decisions
took, in wall time and in CPU time (mean, 95th percentile, max; the bots read no clock).
Defaults come from the game: the first bot other than ``random``, its first variant (a game
without variants is created without one), 1 player where the game has a solo mode, else 5 where
it allows them, else its largest count; 2000 games, 500 in solo.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from engine.core import GameSpec, JointActed, Outcome, Over, parse_options
from engine.games import get_game
from engine.sim import Dealer, play_out
from engine.stream import derive_key


def game_options(spec: GameSpec, players: int, variant: str | None,
                 options: list[str]) -> dict[str, object]:
    """The ``new`` arguments: ``players``, the variant if the game has variants, and every
    ``KEY=VALUE`` option parsed by the game's own OptionSpec (ValueError naming the problem)."""
    return {"players": players, **parse_options(spec, options, variant=variant)}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks bots",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="raiders")
    parser.add_argument("--bot", default=None)
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--variant", default=None)
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--seed", default="bots")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a game option (repeatable)")
    parser.add_argument("--workers", type=int, default=1, metavar="N",
                        help="play the games in N processes (default 1: in this one)")
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error("--workers is a number from 1")
    spec = get_game(args.game)
    if args.bot is None:
        args.bot = spec.default_bot
    if args.players is None:
        args.players = 1 if 1 in spec.players else 5 if 5 in spec.players else max(
            spec.players)
    if args.variant is None and spec.variants:
        args.variant = spec.variants[0]
    if args.games is None:
        args.games = 500 if args.players == 1 else 2000
    for name in (args.bot, args.opponent):
        if name not in spec.bots:
            parser.error(f"unknown bot {name!r} (known: {', '.join(spec.bots)})")
    if args.players not in spec.players:
        parser.error(f"{spec.title} is for {min(spec.players)}-{max(spec.players)} players")
    try:
        options = game_options(spec, args.players, args.variant, args.option)
        spec.new(**options)
    except ValueError as exc:
        parser.error(str(exc))
    if args.players == 1:
        return _solo(args, spec, options)
    start = time.perf_counter()
    jobs = [(args.game, args.bot, args.opponent, options, args.seed, g, g % args.players)
            for g in range(args.games)]
    shares: list[float] = []
    think: list[float] = []
    for share, cpu in _run(_pair_game, jobs, args.workers):
        shares.append(share)
        think.extend(cpu)
        if len(shares) % 250 == 0:
            print(f"{len(shares)} games: win share {sum(shares) / len(shares):.3f}",
                  flush=True)
    # How often every seat plays the same card when all seats are BOT (a fixed-policy bot
    # mirrors its copies: a person can predict it, and shared chests go to waste).  Not for a
    # searching bot: a table of them costs minutes a game, and it does not mirror.
    same = steps = 0
    searches = getattr(spec.bots[args.bot](), "searches", False)
    for g in range(0 if searches else max(1, args.games // 20)):
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
    elif not searches:
        draws = sum(1 for share in shares if 0 < share < 1)
        report["shared_or_drawn_games"] = draws
    if think:
        report["think_cpu_p95_s"] = _times(think)["p95"]
        report["think_cpu_s"] = _times(think)
        report["decisions"] = len(think)
    report["workers"] = args.workers
    report["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(report))
    return 0


def share_of(outcome: Outcome, seat: int) -> float:
    """The seat's share of the win: 1/k of a k-way shared win, and of a draw among k seats
    (a standing whose status is ``draw`` or ``drawn``: a game that ends drawn with no winner
    still gives each drawn seat its half), else 0."""
    if outcome.winners:
        return outcome.share(seat)
    drawn = [s.seat for s in outcome.standings if s.status in ("draw", "drawn")]
    return 1 / len(drawn) if seat in drawn else 0.0


def _pair_game(job: tuple[str, str, str, dict[str, object], str, int, int]
               ) -> tuple[float, list[float]]:
    """One game: BOT in ``seat``, OPPONENT in every other; (BOT's share, the CPU seconds of
    each of BOT's decisions)."""
    game, bot, opponent, options, seed, g, seat = job
    spec = get_game(game)
    players = int(options["players"])  # type: ignore[call-overload]
    bots: list[Any] = [spec.bots[opponent]() for _ in range(players)]
    times: list[float] = []
    cpu: list[float] = []
    bots[seat] = _Timed(spec.bots[bot](), times, cpu)
    run = play_out(spec.new(**options), bots, Dealer(derive_key(seed, str(g))), record=False)
    over = run.state.waiting
    assert isinstance(over, Over)
    return share_of(over.outcome, seat), cpu


_Job = TypeVar("_Job")
_Result = TypeVar("_Result")


def _run(fn: Callable[[_Job], _Result], jobs: list[_Job], workers: int) -> Iterator[_Result]:
    """``fn`` over ``jobs``, in order: here, or in ``workers`` processes (each game is
    independent and deterministic, so the results do not depend on how many)."""
    if workers <= 1:
        yield from map(fn, jobs)
        return
    context = multiprocessing.get_context("spawn")
    with context.Pool(workers) as pool:
        yield from pool.imap(fn, jobs, chunksize=1)


class _Timed:
    """A bot whose decisions are timed (the benchmark's clocks, not the bot's): wall time, and
    this process's CPU time (what the bot's budget costs, whatever else the machine runs)."""

    def __init__(self, bot: Any, times: list[float], cpu: list[float]) -> None:
        self.bot = bot
        self.name = getattr(bot, "name", "bot")
        self.reads_view = getattr(bot, "reads_view", True)
        self.times = times
        self.cpu = cpu

    def choose(self, view: Any, key: bytes) -> Any:
        start, cpu = time.perf_counter(), time.process_time()
        action = self.bot.choose(view, key)
        self.times.append(time.perf_counter() - start)
        self.cpu.append(time.process_time() - cpu)
        return action


def _mean_ci(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / max(1, n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def _times(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {"mean": round(sum(ordered) / len(ordered), 4),
            "p95": round(ordered[int(0.95 * (len(ordered) - 1))], 4),
            "max": round(ordered[-1], 4)}


def _solo(args: argparse.Namespace, spec: Any, options: dict[str, object]) -> int:
    start = time.perf_counter()
    scores: dict[str, list[float]] = {"bot": [], "opponent": [], "zombie": []}
    times: dict[str, list[float]] = {"bot": [], "zombie": []}
    cpu: dict[str, list[float]] = {"bot": [], "zombie": []}
    zombie = spec.zombie or spec.bots[args.bot]
    for g in range(args.games):
        seed = derive_key(args.seed, str(g))
        for role, factory in (("bot", spec.bots[args.bot]), ("opponent",
                                                              spec.bots[args.opponent]),
                              ("zombie", zombie)):
            bot = factory()
            if role in times:
                bot = _Timed(bot, times[role], cpu[role])
            run = play_out(spec.new(**options), [bot], Dealer(seed),
                           record=False)
            over = run.state.waiting
            assert isinstance(over, Over)
            scores[role].append(over.outcome.standings[0].score)
        if (g + 1) % 100 == 0:
            gain = sum(scores["bot"]) / len(scores["bot"]) - (
                sum(scores["opponent"]) / len(scores["opponent"]))
            print(f"{g + 1} games: score gain {gain:.1f}", flush=True)
    gains = [b - o for b, o in zip(scores["bot"], scores["opponent"], strict=True)]
    gain, half = _mean_ci(gains)
    means = {role: round(sum(v) / len(v), 2) for role, v in scores.items()}
    print(json.dumps({
        "benchmark": "bots", "game": args.game, "bot": args.bot, "opponent": args.opponent,
        "players": 1, "variant": args.variant, "games": args.games, "mode": "score",
        "bot_score_mean": means["bot"], "opponent_score_mean": means["opponent"],
        "zombie_score_mean": means["zombie"],
        "bot_score_range": [min(scores["bot"]), max(scores["bot"])],
        "score_gain": round(gain, 2), "score_gain_ci95": [round(gain - half, 2),
                                                          round(gain + half, 2)],
        "bot_decision_seconds": _times(times["bot"]),
        "bot_decision_cpu_seconds": _times(cpu["bot"]),
        "zombie_decision_seconds": _times(times["zombie"]),
        "zombie_decision_cpu_seconds": _times(cpu["zombie"]),
        "seconds": round(time.perf_counter() - start, 1),
    }))
    return 0
