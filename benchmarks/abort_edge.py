"""What does a withholding cheater gain?  (issue 26; protocol.md §10, rationale.md §3)

    python -m benchmarks abort-edge --players 4 --games 2000

The last seat to reveal in a Dungeon Raiders room sees every other play first, and with an
early turn (the next room is face down and turned as soon as the room resolves) every other
secret of that next room too.  It can then withhold its REVEAL — go silent, or LEAVE.  Its
committed play is void (its zombie plays the room instead) and the next room is drawn again
without it.  Silent, it reclaims its seat and plays on from the next room; after a LEAVE its
zombie plays the rest.  (That is the protocol without the rule that a withholder forfeits; with
it, either way it forfeits: ``edge_after``.)

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

**Not modelled** (each would let the cheater gain more before the rule, so the edge there is a
lower bound): withholding a chance secret outside an early turn (the last revealer of any chance
event sees its outcome: a level's face-up rooms, the level card, the characters); a torch user's
earlier look.  Before the rule, withholding costs the cheater no step but the one withheld (it
rejoins at once).  Under the rule all of these forfeit alike.

**The rule** (``edge_after``; protocol.md §7.7, "Withholding forfeits"): a seat replaced while
it withholds an opening it could know the result of forfeits — in Raiders its zombie plays on
and it cannot win, so its share of that game is 0.  The sweep is run again under the rule, τ
now including "never" (τ = ∞): the best response, which knows that withholding forfeits.

**honest_crash_cost** is measured on the protocol itself (the in-process mesh of
:mod:`protocol.mesh`, ``--crash-games`` matches): seat C's peer crashes after a random number
of its messages and restarts from its match file within the silence timeout (nobody votes it
out); the cost is C's win share in the same match without the crash minus its share with it.
No rule acts on such a crash (it is never replaced), so its figure is the same before and after.
``honest_outage_cost_before``/``_after`` are the same on the protocol for an honest outage at a
chance point (issue 47): C's link fails as it sends a CHANCE_REVEAL (its k-th, k drawn per
game; the message is in its file), the others' clocks run past the turn and silence timeouts
and 1 s more — within the grace window — and then C comes back from its file; before: under
protocol version 2 (the forfeit, no window: where its secret was the last, it was voted out and
forfeited), after: version 3 (protocol.md §6.6).  ``outage_forfeits_*`` and
``outage_forfeit_rate_*`` count those that forfeited (``outages_at_withholding_points``: how
many fell where every other secret was out).  ``long_outage_cost_before``/``_after`` keep the
earlier scenario: C's peer stops after a random number of its messages and stays away until the
others vote it out (its zombie plays), then restarts and reclaims, without and with the
withholding rule; ``long_outage_forfeits_after`` counts those that forfeited.  Every peer
plays the heuristic bot here too; each game's cost is −1, 0 or +1 (or a shared part), so the
means are noisy.
``honest_late_crash_cost_model`` is the model's cost of a crash past the timeout before the
rule (its zombie plays one room, then it rejoins).  Last line: one JSON object.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from benchmarks.paired import best_response, bootstrap
from benchmarks.scenario import play_step, raiders, raiders_network
from engine.core import Chance, GameState, Over, Simultaneous, Turn, Visibility
from engine.games import get_game
from engine.raiders.bots import HeuristicBot, make_bot
from engine.sim import Dealer, bot_key
from engine.stream import HashStream, derive_key, stream_key
from protocol.match.core import LocalSeat, MatchCore
from protocol.match.game import zombie_action
from protocol.mechanisms.absence import Seats
from protocol.mesh import Network, bot_decider
from protocol.wire.messages import Kind, Message

TAUS = (0.0, 1.0, 2.0, 4.0)
COALITION_TAUS = (0.0, 0.1)  # (--coalition: τ is a share of a win, not coins)
MODES = ("silence", "leave")


@dataclass
class Context:
    """What the cheater's bot and the dealer share in one game."""

    seat: int
    mode: str  # "honest", "silence", "leave", "crash" (past the silence timeout)
    tau: float
    seed: bytes
    rule: str = "before"  # "after": withholding forfeits (protocol.md §7.7)
    forfeited: bool = False
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
            if ctx.mode == "leave" or ctx.rule == "after":
                ctx.gone = True  # (after: it forfeited — no reclaim, its zombie plays on)
            ctx.forfeited = ctx.rule == "after"
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
         crash_at: int = -1, rule: str = "before") -> tuple[float, int]:
    """One game; C's win share and how often it withheld.  Under the ``after`` rule a seat
    that withholds forfeits: its zombie plays the rest (the rooms stay the same for the
    others, as Raiders' forfeit keeps the seat in play) and its share is 0."""
    spec = get_game("raiders")
    seat = players - 1
    ctx = Context(seat, mode, tau, seed, rule, crash_at=crash_at)
    match_id = derive_key(b"abort-edge/match", seed)
    bots: list[Any] = [make_bot("heuristic") for _ in range(players - 1)]
    bots.append(Cheater(ctx, match_id))
    w = _play(spec.new(players=players), bots, seed, ctx).waiting
    assert isinstance(w, Over)
    return (0.0 if ctx.forfeited else w.outcome.share(seat)), ctx.withholds


def _play(state: GameState[Any], bots: Sequence[Any], seed: bytes,
          ctx: Context) -> GameState[Any]:
    """engine.sim.play_out's loop, one seat at a time (so the last to decide sees the others'
    plays applied), its chance outcomes from :meth:`Context.outcome`."""
    dealer = Dealer(seed)  # (what a look with the torch shows: the room as first drawn)
    prefixes = [stream_key(b"cryptcrawl/bot/v1",
                           derive_key(b"cryptcrawl/bot-seed", seed, str(s)))
                for s in range(len(bots))]

    def decide(state: GameState[Any], seat: int, key: bytes) -> Any:
        ctx.state = state
        return bots[seat].choose(state.view(seat), key)

    while True:
        w = state.waiting
        if isinstance(w, Over):
            return state
        if isinstance(w, Chance):
            state = state.apply_chance(w.event.id, ctx.outcome(w.event))
            continue
        assert isinstance(w, Simultaneous | Turn), w
        state = play_step(state, w, prefixes, decide, dealer)


def _pair_task(args: tuple[bytes, int, str, float, int, str]) -> tuple[float, int]:
    seed, players, mode, tau, crash_at, rule = args
    return play(seed, players, mode, tau, crash_at, rule)


def protocol_crash_cost(args: tuple[int, str, int]) -> float:
    """Seat C's share lost to a crash and restart within the silence timeout, on the protocol
    (as ``tests/protocol/match/test_match.py::test_restart_mid_step_resends_the_same_bytes``)."""
    players, seed, i = args
    tag = f"abort-edge/crash/{seed}/{i}".encode()
    seat = players - 1
    calm, net = _up_to_the_crash(players, tag)
    _restart(net, seat, tag)
    net.pump()
    return _share(calm.cores[0], seat) - _share(net.cores[0], seat)


def _up_to_the_crash(players: int, tag: bytes) -> tuple[Network, Network]:
    """The match played through without a crash, and the same match up to seat C's crash:
    after a random number (from ``tag``) of its messages."""
    seat = players - 1
    calm = raiders_network(players, tag=tag, deciders=_heuristic(players))
    calm.pump()
    net = raiders_network(players, tag=tag, deciders=_heuristic(players))
    target = 1 + HashStream(tag).below(80)
    while len(net.seats[seat].sent) < target and not net.cores[seat].ending.ended:
        net.pump(limit=1, partial=True)
    return calm, net


def _restart(net: Network, seat: int, tag: bytes) -> None:
    """``seat``'s peer restarts: its core rebuilt from what it held, its seat from its file
    (the same bytes sent again)."""
    old = net.seats[seat]
    core = MatchCore(net.header)
    for message in net.log:
        core.receive(message)
    local = LocalSeat(core, seat, old.key, hashlib.sha256(tag + b"seed%d" % seat).digest(),
                      old.decide)
    net.cores[seat], net.seats[seat] = core, local
    net.crashed.discard(seat)
    net.queue.extend(local.restore(list(old.sent)))


def protocol_late_crash_cost(args: tuple[int, str, int, str]) -> tuple[float, bool]:
    """Seat C's share lost to a crash that lasts past both timeouts, on the protocol: after a
    random number of its messages C's peer stops; the others time it out, vote, and replace it
    (its zombie plays); then it restarts from its match file, catches up, and reclaims its
    seat.  With ``rule`` "before", the match runs without the rule that a withholder forfeits
    (the protocol as it was: :meth:`Seats.withheld` does nothing).  Returns the cost and
    whether C forfeited."""
    players, seed, i, rule = args
    tag = f"abort-edge/late/{seed}/{i}".encode()
    seat = players - 1
    saved = Seats.withheld
    if rule == "before":
        Seats.withheld = lambda self, seat, what: None  # type: ignore[method-assign]
    try:
        calm, net = _up_to_the_crash(players, tag)
        net.land_in_flight()
        net.crash(seat)
        others = [j for j in range(players) if j != seat]

        def replaced() -> bool:
            return all(seat in net.cores[j].absent or net.cores[j].ending.ended
                       for j in others)
        for _ in range(6):  # (each: the others wait on C, then both timeouts pass)
            if _pump_until(net, replaced):
                break
            for j in others:  # past the turn timeout, then past the silence timeout
                net.run_clock(j)
            _pump_until(net, replaced)
            for j in others:
                net.run_clock(j)
        _restart(net, seat, tag)
        net.run_with_timeouts(limit=12)
        forfeited = seat in net.cores[0].seats.withholders
        return _share(calm.cores[0], seat) - _share(net.cores[0], seat), forfeited
    finally:
        Seats.withheld = saved  # type: ignore[method-assign]


def protocol_outage(args: tuple[int, str, int, int]) -> tuple[float, bool, bool] | None:
    """An honest outage at a chance point, on the protocol of ``version`` (2: the rules before
    issue 47 — forfeit, no grace window; 3: with the window): C's link fails as it sends its
    k-th CHANCE_REVEAL (k drawn from the tag; the message is in its file, never delivered);
    the others' clocks run past the turn timeout and the silence timeout, and 1 s more —
    within the grace window — then C's peer comes back from its file (sending again what it
    had written) and plays on.  Returns C's share lost (the same match without the outage,
    less with it), whether C forfeited, and whether the outage fell at a withholding point
    (every other secret of the event held: the window applies there); None if C sent fewer
    than k chance reveals in the match."""
    players, seed, i, version = args
    tag = f"abort-edge/outage/{seed}/{i}".encode()
    seat = players - 1
    k = 1 + HashStream(tag).below(12)
    calm = Network(players, raiders(), tag, _heuristic(players), version=version)
    calm.pump()
    net = Network(players, raiders(), tag, _heuristic(players), version=version)
    local = net.seats[seat]
    original = local.messages_to_send
    reveals: list[Message] = []

    def send() -> list[Message]:
        out = []
        for message in original():
            if message.kind is Kind.CHANCE_REVEAL:
                reveals.append(message)
                if len(reveals) == k:
                    net.crash(seat)  # (written to its file, the link gone before it left)
                    break
            out.append(message)
        return out
    local.messages_to_send = send  # type: ignore[method-assign]
    net.pump()
    if len(reveals) < k:
        return None
    core = net.cores[0]
    event = reveals[-1].content.secrets[0][0]  # type: ignore[union-attr]
    committed = core.chance.commitments.get(event, {})
    held = core.chance.secrets.get(event, {})
    at_point = len(committed) > 1 and all(s in held for s in committed if s != seat)
    silence = core.config.silence_timeout
    others = [j for j in range(players) if j != seat]
    for j in others:
        overdue = net.cores[j].get_timer()
        if overdue is not None:
            net.events[j].extend(net.cores[j].handle_timer(overdue + 0.5))
            net.pump()
            net.events[j].extend(net.cores[j].handle_timer(overdue + silence + 1.0))
    net.pump()
    _restart(net, seat, tag)
    net.run_with_timeouts(limit=12)
    forfeited = seat in net.cores[0].seats.withholders
    return _share(calm.cores[0], seat) - _share(net.cores[0], seat), forfeited, at_point


def _heuristic(players: int) -> list[Callable[[GameState[Any], int], str]]:
    """Every seat's peer decides by the heuristic bot (the model's bot), keyed per seat."""
    return [bot_decider(b"bot%d" % s, "heuristic") for s in range(players)]


def _pump_until(net: Network, done: Callable[[], bool], limit: int = 50_000) -> bool:
    """Deliver one message at a time until ``done()`` or nothing moves."""
    for _ in range(limit):
        if done():
            return True
        sent = len(net.log)
        net.pump(limit=1, partial=True)
        if len(net.log) == sent and not net.queue:
            return done()
    return done()


def _share(core: MatchCore, seat: int) -> float:
    w = core.state.waiting
    assert core.signed and isinstance(w, Over)
    return w.outcome.share(seat)


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / max(1, len(xs))


def _crashes(pool: ProcessPoolExecutor, players: int, seed: str, games: int) -> dict[str, Any]:
    """The protocol's figures: crashes restarted within the silence timeout, outages past both
    timeouts without and with the rule, and outages at chance points back within the grace
    window, under version 2 (before issue 47) and version 3."""
    costs = list(pool.map(protocol_crash_cost, [(players, seed, i) for i in range(games)]))
    outages = {rule: list(pool.map(protocol_late_crash_cost, [
        (players, seed, i, rule) for i in range(games)])) for rule in ("before", "after")}
    window = {version: [r for r in pool.map(protocol_outage, [
        (players, seed, i, version) for i in range(games)]) if r is not None]
        for version in (2, 3)}
    at_points = {v: [r for r in rs if r[2]] for v, rs in window.items()}

    def rate(rs: list[tuple[float, bool, bool]]) -> float:
        return sum(f for _, f, _ in rs) / max(1, len(rs))
    return {
        "honest_crash_cost": _mean(costs), "honest_crash_cost_before": _mean(costs),
        "honest_crash_cost_after": _mean(costs), "crash_games": len(costs),
        # Outages at chance points, past both timeouts and back within the grace window
        # (issue 47): under version 2 (no window: they forfeit where the secret was the last)
        # and version 3 (the window).
        "outage_games": len(window[3]),
        "outages_at_withholding_points": len(at_points[3]),
        "outage_forfeits_before": sum(f for _, f, _ in window[2]),
        "outage_forfeit_rate_before": rate(window[2]),
        "honest_outage_cost_before": _mean([c for c, _, _ in window[2]]),
        "honest_outage_ci95_before": list(bootstrap([c for c, _, _ in window[2]],
                                                    "outage-before")),
        "outage_forfeits_after": sum(f for _, f, _ in window[3]),
        "outage_forfeit_rate_after": rate(window[3]),
        "honest_outage_cost_after": _mean([c for c, _, _ in window[3]]),
        "honest_outage_ci95_after": list(bootstrap([c for c, _, _ in window[3]],
                                                   "outage-after")),
        # Outages at any point that last until the seat is voted out (past the window too),
        # then reclaim: without the withholding rule and with it (what these keys measured
        # before issue 47, as honest_outage_*).
        "long_outage_cost_before": _mean([c for c, _ in outages["before"]]),
        "long_outage_ci95_before": list(bootstrap([c for c, _ in outages["before"]],
                                                  "long-outage-before")),
        "long_outage_cost_after": _mean([c for c, _ in outages["after"]]),
        "long_outage_ci95_after": list(bootstrap([c for c, _ in outages["after"]],
                                                 "long-outage-after")),
        "long_outage_forfeits_after": sum(f for _, f in outages["after"])}


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
    parser.add_argument("--crashes-only", action="store_true",
                        help="measure only the crashes and outages on the protocol (minutes, "
                        "not the model's paired games)")
    parser.add_argument("--coalition", type=int, default=0, choices=(0, 2),
                        help="2: a coalition of two seats that withhold together "
                        "(benchmarks/coalition_edge.py) in place of the lone cheater")
    parser.add_argument("--table-games", type=int, default=200,
                        help="(--coalition) honest games of other seeds the coalition values "
                        "characters from (default 200)")
    parser.add_argument("--protocol-matches", type=int, default=40,
                        help="(--coalition) paired matches on the protocol mesh, each side "
                        "(default 40)")
    args = parser.parse_args(argv)
    if not 3 <= args.players <= 5 or args.games < 2:
        parser.error("--players is 3 to 5 and --games at least 2")
    if args.coalition and args.taus == ",".join(str(t) for t in TAUS):
        args.taus = ",".join(str(t) for t in COALITION_TAUS)  # (a share gained: 0 to 1)
    taus = [float(t) for t in args.taus.split(",")]
    began = time.monotonic()
    seeds = [derive_key(b"abort-edge/game", args.seed.encode(), str(i))
             for i in range(args.games)]
    sweep = seeds[:max(2, min(args.sweep_games, args.games))]
    crash_points = [1 + HashStream(derive_key(b"abort-edge/crash", s)).below(40)
                    for s in seeds]
    if args.crashes_only:
        with ProcessPoolExecutor(max_workers=max(1, args.workers)) as pool:
            report = _crashes(pool, args.players, args.seed, args.crash_games)
        print(json.dumps({"benchmark": "abort-edge", "players": args.players, **report,
                          "seconds": round(time.monotonic() - began, 1)}))
        return 0
    if args.coalition:
        from benchmarks import coalition_edge
        with ProcessPoolExecutor(max_workers=max(1, args.workers)) as pool:
            table = coalition_edge.character_table(pool, args.players, args.seed,
                                                   args.table_games)
            report = coalition_edge.measure(pool, args.players, seeds, sweep, taus, table,
                                            args.protocol_matches, args.seed)
            crashes = _crashes(pool, args.players, args.seed, args.crash_games)
        print(json.dumps({"benchmark": "abort-edge", "players": args.players, **report,
                          **crashes, "seconds": round(time.monotonic() - began, 1)}))
        return 0
    with ProcessPoolExecutor(max_workers=max(1, args.workers)) as pool:
        def shares(mode: str, tau: float, games: Sequence[bytes], rule: str = "before",
                   crash: Sequence[int] | None = None) -> list[tuple[float, int]]:
            tasks = [(s, args.players, mode, tau, crash[i] if crash else -1, rule)
                     for i, s in enumerate(games)]
            return list(pool.map(_pair_task, tasks, chunksize=8))

        honest = [share for share, _ in shares("honest", 0.0, seeds)]
        # After: a best response knows that withholding forfeits, so it never withholds
        # (τ = ∞, "never"); the finite τ show what withholding would cost it.
        result = {rule: best_response(shares, honest, seeds, sweep, MODES, taus, rule,
                                      name="mode") for rule in ("before", "after")}
        late = shares("crash", 0.0, seeds, "before", crash_points)
        late_diffs = [c - h for (c, _), h in zip(late, honest, strict=True)]
        crashes = _crashes(pool, args.players, args.seed, args.crash_games)
    before, after = result["before"], result["after"]
    print(json.dumps({
        "benchmark": "abort-edge", "players": args.players, "games": len(seeds),
        "sweep_games": len(sweep), "taus": taus,
        "sweep": before["sweep"], "sweep_after": after["sweep"],
        "best_mode": before["best"], "best_tau": before["tau"],
        "withholds_per_game": before["withholds_per_game"],
        "best_mode_after": after["best"], "best_tau_after": after["tau"],
        "withholds_per_game_after": after["withholds_per_game"],
        "honest_win_share": _mean(honest),
        "edge_before": before["edge"], "ci95_before": before["ci95"],
        "edge_after": after["edge"], "ci95_after": after["ci95"],
        **crashes,
        "honest_late_crash_cost_model": -_mean(late_diffs),
        "honest_late_crash_ci95_model": [-x for x in reversed(bootstrap(late_diffs, "late"))],
        "seconds": round(time.monotonic() - began, 1)}))
    return 0
