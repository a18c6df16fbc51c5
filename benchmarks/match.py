"""A whole match between in-memory peers: wall time, messages and bytes on the wire.

    python -m benchmarks match --players 5
    python -m benchmarks match --game kards --players 4
    python -m benchmarks match --game paper --players 8      # with the bots people get

Plays ``--repeats`` matches of ``--players`` seats (random bots, every message through the full
protocol: signed feeds, commit-reveal, chance, torch rounds, END) on ``protocol.mesh.Network``,
each under its own tag (so each is a different, reproducible match), and reports per match:
wall time (setting up the peers plus ``pump`` until the network settles; median, min, max),
messages sent and bytes on the wire (sum of ``len(m.encode())``; medians), torch rounds (TORCH
messages; median), face-down cards turned and how many of them were early turns (their
secrets sent with the step before, protocol.md §7.4; totals over the runs), and ``by_kind``:
messages of each kind, the mean per match over the runs.
``agreed`` is true when, in every run, every peer holds the same public digest and every
core has the result signed by every live seat; if any run does not agree, the benchmark says
which and exits with status 1.

``--game`` plays any registered game (``--option KEY=VALUE`` repeatable); ``--bot`` is the bot
every seat plays: by default the random bot for Dungeon Raiders (the figures its issue set) and
the game's own default bot — the one ``cryptcrawl play`` gives people — for the others.  For
every game the report adds the public chance events drawn (``dice``: every die, roll and face-up
draw), ``chance_messages`` (CHANCE_COMMIT, CHANCE_REVEAL and CHANCE_DIGEST), their share of all
messages (``chance_messages_share``), the chance messages per die and seat
(``chance_per_die_and_seat``; Dungeons of Kards' target is at most 1.2) and the wall time per
die (``seconds_per_die``), medians over the runs.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from dataclasses import dataclass

from protocol.match.core import MatchCore
from protocol.match.events import ChanceResolved
from protocol.mesh import MeshGame, Network, bot_decider
from protocol.wire.messages import Kind

from engine.core import Chance, Visibility, parse_options
from engine.games import get_game

CHANCE_KINDS = (Kind.CHANCE_COMMIT.name, Kind.CHANCE_REVEAL.name, Kind.CHANCE_DIGEST.name)


@dataclass(frozen=True)
class Run:
    seconds: float
    messages: int
    bytes: int
    kinds: Counter[str]
    problem: str  # empty when every peer agreed
    hidden_turns: int = 0  # face-down cards turned (the boss included)
    early_turns: int = 0  # of which turned early
    dice: int = 0  # public chance events resolved

    @property
    def chance_messages(self) -> int:
        return sum(self.kinds[k] for k in CHANCE_KINDS)

    @property
    def torch_rounds(self) -> int:
        return self.kinds[Kind.SEAL_KEY.name]


def play(game: MeshGame, players: int, bot: str, tag: bytes) -> Run:
    """One match: its figures, and why the peers did not agree (if they did not)."""
    start = time.perf_counter()
    deciders = (None if bot == "random" else  # (the mesh's own random bots, as before)
                [bot_decider(b"%s-bot%d" % (tag, i), bot) for i in range(players)])
    net = Network(players, game, tag, deciders)
    try:
        net.pump()
        problem = ""
    except AssertionError as exc:  # the network did not settle
        problem = str(exc)
    seconds = time.perf_counter() - start
    if not problem:
        digests = {core.public_digest() for core in net.cores}
        unsigned = [i for i, core in enumerate(net.cores) if not core.signed]
        if len(digests) != 1:
            problem = f"the peers hold {len(digests)} different public digests"
        elif unsigned:
            problem = f"the result is not signed on peer(s) {unsigned}"
    late, early = _turns(net)
    public = {e.event for e in net.events[0] if isinstance(e, ChanceResolved)}
    return Run(seconds=seconds, messages=len(net.log),
               bytes=sum(len(m.encode()) for m in net.log),
               kinds=Counter(Kind(m.kind).name for m in net.log), problem=problem,
               hidden_turns=late + early, early_turns=early, dice=len(public))


def _turns(net: Network) -> tuple[int, int]:
    """Face-down cards turned in a chance phase of their own, and turned early: replayed
    message by message through a fresh core (not timed)."""
    core = MatchCore(net.header)
    late: set[str] = set()
    for message in net.log:
        w = core.state.waiting
        if isinstance(w, Chance) and w.event.visibility is Visibility.HIDDEN:
            late.add(core.chance.alias.get(w.event.id, w.event.id))
        core.receive(message)
    # (An early turn's reveals consumed after its step resolved still leave it early.)
    return len(late - set(core.chance.early_state)), len(core.chance.early_state)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks match",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="raiders")
    parser.add_argument("--players", type=int, default=None,
                        help="seats (default: 5 for Dungeon Raiders, else the game's largest "
                             "network table up to 4)")
    parser.add_argument("--variant", default=None, help="Dungeon Raiders: basic or tactical")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--bot", default=None, help="the bot every seat plays (see above)")
    parser.add_argument("--repeats", type=int, default=None,
                        help="matches played (median; default 5, 3 for an 8-seat table)")
    args = parser.parse_args(argv)
    try:
        spec = get_game(args.game)
    except KeyError:
        parser.error(f"unknown game {args.game!r}")
    networked = [p for p in spec.players if p >= 2]
    players = args.players or (5 if args.game == "raiders" else min(4, max(networked)))
    if players not in networked:
        parser.error(f"{spec.title} plays with {networked[0]}-{networked[-1]} seats over the "
                     "network")
    options = list(args.option)
    if args.variant is not None:
        options.append(f"variant={args.variant}")
    try:
        parsed = parse_options(spec, options)
    except ValueError as exc:
        parser.error(str(exc))
    if spec.variants and "variant" not in parsed:
        parsed["variant"] = spec.variants[0]
    bot = args.bot or ("random" if args.game == "raiders" else spec.default_bot)
    if bot not in spec.bots:
        parser.error(f"{spec.title} has no bot {bot!r} (its bots: {', '.join(spec.bots)})")
    repeats = args.repeats if args.repeats is not None else (3 if players >= 8 else 5)
    if repeats < 1:
        parser.error("--repeats must be at least 1")
    game = MeshGame(args.game, tuple(sorted(parsed.items())))
    label = ",".join(f"{k}={v}" for k, v in sorted(parsed.items()))
    runs: list[Run] = []
    for r in range(repeats):
        tag = (b"bench-match-%d-%s-%d" % (players, str(parsed["variant"]).encode(), r)
               if args.game == "raiders" and len(parsed) == 1 else  # (the tags used so far)
               b"bench-match-%s-%d-%s-%d" % (args.game.encode(), players, label.encode(), r))
        run = play(game, players, bot, tag)
        runs.append(run)
        status = f"NOT AGREED: {run.problem}" if run.problem else "agreed"
        print(f"match {r + 1}/{repeats}: {run.seconds:.3f} s, {run.messages} messages, "
              f"{run.bytes} bytes, {run.dice} public chance events, {status}", flush=True)
    seconds = [run.seconds for run in runs]
    total: Counter[str] = Counter()
    for run in runs:
        total.update(run.kinds)
    order = {kind.name: int(kind) for kind in Kind}
    failed = [r + 1 for r, run in enumerate(runs) if run.problem]
    if failed:
        print(f"error: the peers did not agree in match(es) {failed} of {repeats}")
    per_die = [run.chance_messages / (run.dice * players) for run in runs if run.dice]
    print(json.dumps({
        "benchmark": "match", "game": args.game, "players": players, "options": parsed,
        "bot": bot, "repeats": repeats,
        "seconds_median": round(statistics.median(seconds), 4),
        "seconds_min": round(min(seconds), 4),
        "seconds_max": round(max(seconds), 4),
        "messages_median": statistics.median(run.messages for run in runs),
        "bytes_median": statistics.median(run.bytes for run in runs),
        "dice_median": statistics.median(run.dice for run in runs),
        "chance_messages_median": statistics.median(run.chance_messages for run in runs),
        "chance_messages_share": round(statistics.median(
            run.chance_messages / run.messages for run in runs), 4),
        "chance_per_die_and_seat": round(statistics.median(per_die), 4) if per_die else None,
        "seconds_per_die": round(statistics.median(
            run.seconds / run.dice for run in runs if run.dice), 5) if per_die else None,
        "torch_rounds_median": statistics.median(run.torch_rounds for run in runs),
        "face_down_turns": sum(run.hidden_turns for run in runs),
        "early_turns": sum(run.early_turns for run in runs),
        "by_kind": {name: round(total[name] / len(runs), 1)
                    for name in sorted(total, key=order.__getitem__)},
        "by_kind_is": "mean messages per match",
        "agreed": not failed,
    }))
    return 1 if failed else 0
