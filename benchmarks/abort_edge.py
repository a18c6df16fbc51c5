"""What does a withholding cheater gain?  (issue 26; protocol.md §10, rationale.md §3)

    python -m benchmarks abort-edge --players 4 --games 2000

The last seat to reveal in a Dungeon Raiders room sees every other play first, and with an
early turn (the next room is face down and turned as soon as the room resolves) every other
secret of that next room too.  It can then withhold its REVEAL — go silent, or LEAVE.  Its
committed play is void (its zombie plays the room instead) and the next room is drawn again
without it.  Silent, it reclaims its seat and plays on from the next room; after a LEAVE its
zombie plays the rest.

**Paired games.**  Each game is played twice from the same seed — the same characters, rooms
and bot streams: once with seat C (the last seat, the last to reveal) honest, once with C
cheating.  Every seat plays the heuristic bot.  The edge is C's win share (a k-way shared win
counts 1/k) when cheating minus its share when honest, over the pairs, with a 95% interval from
a paired bootstrap (2000 resamples, drawn from a hash stream: the figure is reproducible).

**The cheater** is the honest bot plus a best response: at each room, knowing every play (and
the next room when it is turned early), it compares revealing — its own play, the room it saw
— with withholding — its zombie's play, which it can compute, and a room drawn again — and
withholds when withholding is worth more than τ to it.  Its valuation is the bot's own: the room
resolved (coins, less wounds weighted as the bot weighs them), plus the value of its best card
in the next room (averaged over the room's possible cards for a re-draw).  τ is swept; the
largest edge is reported, with τ and the mode (silence or LEAVE) that gave it.

**Not modelled** (each would let the cheater gain more, so the edge here is a lower bound):
withholding a chance secret outside an early turn (the last revealer of any chance event sees
its outcome: a level's face-up rooms, the level card, the characters); a torch user's earlier
look.  Withholding costs the cheater no step but the one withheld (it rejoins at once).

**honest_crash_cost** is measured on the protocol itself (the in-process mesh of
:mod:`protocol.local`, ``--crash-games`` matches): seat C's peer crashes after a random number
of its messages and restarts from its match file within the silence timeout (nobody votes it
out); the cost is C's win share in the same match without the crash minus its share with it.
``honest_late_crash_cost`` is the model's cost of a crash past the silence timeout: its zombie
plays one room, then it rejoins.

The default rules have no remedy yet: ``edge_after`` and ``ci95_after`` are null until a rule
that takes the edge away is built (issue 26, part 2).  Last line: one JSON object.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from benchmarks.scenario import raiders_network
from engine.core import Chance, GameState, Over, Simultaneous, Turn, Visibility
from engine.games import get_game
from engine.raiders.bots import HeuristicBot, make_bot
from engine.sim import Dealer, _serve_knowledge, bot_key
from engine.stream import HashStream, derive_key, stream_key
from protocol.game import zombie_action
from protocol.match import LocalSeat, MatchCore

BOOTSTRAP = 2000
TAUS = (0.0, 1.0, 2.0, 4.0)
MODES = ("silence", "leave")


@dataclass
class Context:
    """What the cheater's bot and the dealer share in one game."""

    seat: int
    mode: str  # "honest", "silence", "leave", "crash" (past the silence timeout)
    tau: float
    seed: bytes
    state: GameState[Any] | None = None
    redrawn: dict[str, int] | None = None  # event id -> times it was drawn again
    gone: bool = False  # left for good: its zombie plays the rest
    withholds: int = 0
    crash_at: int = -1  # (crash mode) the decision at which the seat crashes
    decisions: int = 0

    def outcome(self, event: Any) -> str:
        """The seed's outcome of ``event``; withheld k times, the outcome of a k-th re-draw
        (a fresh draw nobody could foresee, as the protocol's new id gives)."""
        times = (self.redrawn or {}).get(event.id, 0)
        seed = self.seed if not times else derive_key(b"redraw", self.seed, str(times))
        return Dealer(seed).choose(event)


class Cheater:
    """Seat C's policy: the heuristic bot, and (unless honest) the best response above."""

    name = "cheater"
    reads_view = True

    def __init__(self, ctx: Context, match_id: bytes) -> None:
        self.ctx = ctx
        self.bot = make_bot("heuristic")
        self.judge = HeuristicBot(samples=6)
        self.match_id = match_id

    def choose(self, view: Any, key: bytes) -> Any:
        ctx = self.ctx
        state = ctx.state
        assert state is not None
        step = state.waiting.step if isinstance(state.waiting, Simultaneous) else "?"
        ctx.decisions += 1
        if ctx.gone:
            return zombie_action(state, ctx.seat, self.match_id, step)
        if ctx.mode == "crash" and ctx.decisions == ctx.crash_at:
            return zombie_action(state, ctx.seat, self.match_id, step)  # (replaced one room)
        own = self.bot.choose(view, key)
        if ctx.mode not in MODES or not isinstance(state.waiting, Simultaneous) or (
                state.waiting.pending != frozenset({ctx.seat})):
            return own  # (honest; a free action; or not the last to decide)
        if state.lists_actions(ctx.seat) and own not in state.legal_actions(ctx.seat):
            return own
        zombie = zombie_action(state, ctx.seat, self.match_id, step)
        try:
            after_own = state.apply(ctx.seat, own)
            after_zombie = state.apply(ctx.seat, zombie)
        except Exception:
            return own
        base = self.judge._wound_cost(view)
        seen = self._value(after_own, base, None)
        withheld = self._value(after_zombie, base, "mean")
        if withheld > seen + ctx.tau:
            ctx.withholds += 1
            w = after_zombie.waiting
            if _early_room(w):
                redrawn = ctx.redrawn if ctx.redrawn is not None else {}
                redrawn[w.event.id] = redrawn.get(w.event.id, 0) + 1  # type: ignore[union-attr]
                ctx.redrawn = redrawn
            if ctx.mode == "leave":
                ctx.gone = True
            return zombie
        return own

    def _value(self, state: GameState[Any], wound_cost: float, room: str | None) -> float:
        """C's value of ``state`` (a room just resolved): its coins less its weighted wounds,
        plus, with an early turn, its best card's value in the next room — the room the
        dealer gives (``room`` None) or, for a re-draw, the mean over the room's cards."""
        seat = self.ctx.seat
        view = state.view(seat)
        me = view.seats[seat]
        value = float(me.coins - wound_cost * me.wounds - (60.0 if me.eliminated else 0.0))
        w = state.waiting
        if not _early_room(w):
            return value
        event = w.event  # type: ignore[union-attr]
        outcomes: Sequence[str] = (self.ctx.outcome(event),) if room is None else event.outcomes
        total = 0.0
        for card in outcomes:
            turned = state.apply_chance(event.id, card)
            if not isinstance(turned.waiting, Simultaneous) or (
                    seat not in turned.waiting.pending):
                continue
            total += self.judge.best_value(turned.view(seat),
                                           bot_key(self.ctx.seed, f"value/{event.id}", seat, 0))
        return float(value + total / len(outcomes))


def _early_room(w: Any) -> bool:
    return (hasattr(w, "event") and w.event.visibility is Visibility.HIDDEN
            and ".R" in w.event.id)


def play(seed: bytes, players: int, mode: str, tau: float = 0.0,
         crash_at: int = -1) -> tuple[float, int]:
    """One game; C's win share and how often it withheld."""
    spec = get_game("raiders")
    seat = players - 1
    ctx = Context(seat, mode, tau, seed, crash_at=crash_at)
    match_id = derive_key(b"abort-edge/match", seed)
    bots: list[Any] = [make_bot("heuristic") for _ in range(players - 1)]
    bots.append(Cheater(ctx, match_id))
    w = _play(spec.new(players=players), bots, seed, ctx).waiting
    assert isinstance(w, Over)
    return w.outcome.share(seat), ctx.withholds


def _play(state: GameState[Any], bots: Sequence[Any], seed: bytes,
          ctx: Context) -> GameState[Any]:
    """engine.sim.play_out's loop, one seat at a time (so the last to decide sees the others'
    plays applied), its chance outcomes from :meth:`Context.outcome`."""
    dealer = Dealer(seed)  # (what a look with the torch shows: the room as first drawn)
    prefixes = [stream_key(b"cryptcrawl/bot/v1",
                           derive_key(b"cryptcrawl/bot-seed", seed, str(s)))
                for s in range(len(bots))]
    free = get_game(state.game).free_action
    while True:
        w = state.waiting
        if isinstance(w, Over):
            return state
        if isinstance(w, Chance):
            state = state.apply_chance(w.event.id, ctx.outcome(w.event))
            continue
        assert isinstance(w, Simultaneous | Turn), w
        step_key = stream_key(w.step)
        for seat in sorted(w.pending):
            attempt = 0
            while True:
                ctx.state = state
                key = prefixes[seat] + step_key + bytes((seat, attempt & 0xFF))
                action = bots[seat].choose(state.view(seat), key)
                is_free = free(state, seat, action)
                state = state.apply(seat, action)
                if state.knowledge_requests():
                    state = _serve_knowledge(state, dealer, None)
                if not is_free:
                    break
                attempt += 1


def _pair_task(args: tuple[bytes, int, str, float, int]) -> tuple[float, int]:
    seed, players, mode, tau, crash_at = args
    return play(seed, players, mode, tau, crash_at)


def protocol_crash_cost(args: tuple[int, str, int]) -> float:
    """Seat C's share lost to a crash and restart within the silence timeout, on the protocol
    (as ``tests/protocol/test_match.py::test_restart_mid_step_resends_the_same_bytes``)."""
    players, seed, i = args
    tag = f"abort-edge/crash/{seed}/{i}".encode()
    seat = players - 1
    calm = raiders_network(players, tag=tag)
    calm.pump()
    net = raiders_network(players, tag=tag)
    target = 1 + HashStream(tag).below(80)
    while len(net.seats[seat].sent) < target and not net.cores[seat].ending.ended:
        net.pump(limit=1, partial=True)
    old = net.seats[seat]
    persisted = list(old.sent)
    core = MatchCore(net.header)  # the restarted peer: its core rebuilt from what it held
    for message in net.log:
        core.receive(message)
    local = LocalSeat(core, seat, old.key, hashlib.sha256(tag + b"seed%d" % seat).digest(),
                      old.decide)
    net.cores[seat], net.seats[seat] = core, local
    net.queue.extend(local.restore(persisted))
    net.pump()
    return _share(calm.cores[0], seat) - _share(net.cores[0], seat)


def _share(core: MatchCore, seat: int) -> float:
    w = core.state.waiting
    assert core.signed and isinstance(w, Over)
    return w.outcome.share(seat)


def bootstrap(diffs: Sequence[float], label: str) -> tuple[float, float]:
    """The paired bootstrap's 95% interval of the mean of ``diffs``."""
    n = len(diffs)
    stream = HashStream(derive_key(b"abort-edge/bootstrap", label.encode()))
    means = sorted(sum(diffs[stream.below(n)] for _ in range(n)) / n
                   for _ in range(BOOTSTRAP))
    return means[int(0.025 * BOOTSTRAP)], means[int(0.975 * BOOTSTRAP) - 1]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks abort-edge",
                                     description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--sweep-games", type=int, default=500,
                        help="games per τ and mode of the sweep (default 500, at most "
                        "--games); the best is then played over --games")
    parser.add_argument("--taus", default=",".join(str(t) for t in TAUS))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--crash-games", type=int, default=40)
    parser.add_argument("--seed", default="abort-edge")
    args = parser.parse_args(argv)
    if not 3 <= args.players <= 5 or args.games < 2:
        parser.error("--players is 3 to 5 and --games at least 2")
    taus = [float(t) for t in args.taus.split(",")]
    began = time.monotonic()
    seeds = [derive_key(b"abort-edge/game", args.seed.encode(), str(i))
             for i in range(args.games)]
    sweep = seeds[:max(2, min(args.sweep_games, args.games))]
    crash_points = [1 + HashStream(derive_key(b"abort-edge/crash", s)).below(40)
                    for s in seeds]
    with ProcessPoolExecutor(max_workers=max(1, args.workers)) as pool:
        def shares(mode: str, tau: float, games: Sequence[bytes],
                   crash: Sequence[int] | None = None) -> list[tuple[float, int]]:
            tasks = [(s, args.players, mode, tau, crash[i] if crash else -1)
                     for i, s in enumerate(games)]
            return list(pool.map(_pair_task, tasks, chunksize=8))

        honest = [share for share, _ in shares("honest", 0.0, seeds)]
        runs: list[dict[str, Any]] = []
        for mode in MODES:
            for tau in taus:
                got = shares(mode, tau, sweep)
                diffs = [c - h for (c, _), h in zip(got, honest, strict=False)]
                runs.append({"mode": mode, "tau": tau, "games": len(got),
                             "edge": sum(diffs) / len(diffs),
                             "withholds_per_game": sum(w for _, w in got) / len(got)})
                print(json.dumps(runs[-1]), flush=True)
        best = max(runs, key=lambda r: r["edge"])
        got = shares(best["mode"], best["tau"], seeds)
        diffs = [c - h for (c, _), h in zip(got, honest, strict=True)]
        late = shares("crash", 0.0, seeds, crash_points)
        late_diffs = [c - h for (c, _), h in zip(late, honest, strict=True)]
        crash_costs = list(pool.map(protocol_crash_cost, [
            (args.players, args.seed, i) for i in range(args.crash_games)]))
    edge = sum(diffs) / len(diffs)
    print(json.dumps({
        "benchmark": "abort-edge", "players": args.players, "games": len(seeds),
        "sweep_games": len(sweep), "taus": taus, "sweep": runs,
        "best_mode": best["mode"], "best_tau": best["tau"],
        "withholds_per_game": sum(w for _, w in got) / len(got),
        "honest_win_share": sum(honest) / len(honest),
        "edge_before": edge, "ci95_before": list(bootstrap(diffs, "before")),
        "edge_after": None, "ci95_after": None,
        "honest_crash_cost": sum(crash_costs) / max(1, len(crash_costs)),
        "crash_games": len(crash_costs),
        "honest_late_crash_cost": -sum(late_diffs) / len(late_diffs),
        "honest_late_crash_ci95": [-x for x in reversed(bootstrap(late_diffs, "late"))],
        "seconds": round(time.monotonic() - began, 1)}))
    return 0
