"""What a zombie decision costs, game by game (issue 27: a replaced seat's decision is computed
by every peer, so it must be cheap and the same everywhere).

    python -m benchmarks zombie [--game NAME] [--games 20] [--limit 400] [--repeats 3]

Plays ``--games`` games of each registered game (or ``--game``) with random bots and the offline
dealer, and at up to ``--limit`` decision points of each — every seat the state waits on — times
:func:`protocol.match.game.zombie_action` (the game's zombie bot on the public view), ``--repeats``
times, a decision's cost being their median (a run the scheduler preempted is noise, not
cost).  Reports, per game, the median, 95th percentile and maximum in milliseconds; the last
line is one JSON object with ``max_ms`` over all games and ``within_budget`` (every decision
≤ 50 ms)."""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from protocol.match.game import zombie_action

from engine.core import GameState, Simultaneous, Turn
from engine.games import GAMES, get_game
from engine.sim import Dealer, play_out
from engine.stream import derive_key

BUDGET_MS = 50.0
MATCH_ID = derive_key(b"benchmarks/zombie/match")


def players_of(game: str) -> int:
    """The smallest table of ``game`` with at least two seats (zombies replace one of many)."""
    return min(n for n in get_game(game).players if n >= 2)


def decision_points(game: str, games: int, limit: int,
                    seed: bytes = b"zombie") -> list[tuple[GameState[Any], int, str]]:
    """Up to ``limit`` (state, seat, step) where the state waits on that seat's decision."""
    spec = get_game(game)
    points: list[tuple[GameState[Any], int, str]] = []
    for i in range(games):
        def seen(state: GameState[Any]) -> None:
            w = state.waiting
            if isinstance(w, Simultaneous):
                points.extend((state, s, w.step) for s in sorted(w.pending))
            elif isinstance(w, Turn):
                points.append((state, w.seat, w.step))
        n = players_of(game)
        bots = [spec.bots["random"]() for _ in range(n)]
        play_out(spec.new(players=n), bots, Dealer(derive_key(b"zombie", seed, game,
                                                              str(i))),
                 record=False, on_state=seen)
        if len(points) >= limit:
            break
    step = max(1, len(points) // limit) if len(points) > limit else 1
    return points[::step][:limit]


def zombie_choice(state: GameState[Any], seat: int, step: str) -> Any | None:
    """The zombie's decision, or None where a game has no zombie decision (Paper Dungeons'
    pick among privately dealt cards: a seat absent before it chose leaves the match)."""
    try:
        return zombie_action(state, seat, MATCH_ID, step)
    except ValueError:
        return None


def zombie_trace(game: str, games: int = 3, limit: int = 60) -> list[str]:
    """The zombie's decisions at the decision points of a few games, in the game's notation:
    what every peer must compute alike (a test runs this under several hash seeds)."""
    out = []
    for state, seat, step in decision_points(game, games, limit):
        choice = zombie_choice(state, seat, step)
        out.append("-" if choice is None else state.format_action(choice))
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks zombie",
                                     description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), default=None)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--limit", type=int, default=400)
    parser.add_argument("--repeats", type=int, default=3,
                        help="times each decision is computed; its cost is their median")
    args = parser.parse_args(argv)
    if args.games < 1 or args.limit < 1 or args.repeats < 1:
        parser.error("--games, --limit and --repeats are at least 1")
    report: dict[str, Any] = {}
    for game in [args.game] if args.game else sorted(GAMES):
        costs = []
        none = 0
        for state, seat, step in decision_points(game, args.games, args.limit):
            runs = []
            for _ in range(args.repeats):  # (the median of a few: one preempted run is noise)
                began = time.perf_counter()
                choice = zombie_choice(state, seat, step)
                runs.append((time.perf_counter() - began) * 1000)
            if choice is None:
                none += 1
                continue
            costs.append(statistics.median(runs))
        costs.sort()
        report[game] = {"decisions": len(costs), "no_zombie": none,
                        "median_ms": round(statistics.median(costs), 3),
                        "p95_ms": round(costs[int(0.95 * (len(costs) - 1))], 3),
                        "max_ms": round(costs[-1], 3)}
        print(json.dumps({"game": game, **report[game]}), flush=True)
    worst = max(r["max_ms"] for r in report.values())
    print(json.dumps({"benchmark": "zombie", "games": report, "max_ms": worst,
                      "budget_ms": BUDGET_MS, "within_budget": worst <= BUDGET_MS}))
    return 0
