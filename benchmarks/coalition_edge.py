"""What does a coalition of withholders gain?  (issue 47; protocol.md §7.7, the coalition rule)

    python -m benchmarks abort-edge --players 4 --coalition 2 --games 400 --sweep-games 100

Two seats (the last two, C1 and C2) swap their chance secrets off the table: once the honest
seats have revealed an event's secrets, the coalition knows its outcome before it reveals its
own, and can force a re-draw by withholding.  Under the rules before issue 47 (protocol version
2, its withholding forfeit included) neither forfeits if (a) both withhold — both replaced for
silence, the event drawn again, neither committing to the re-draw — or (b) one withholds while
its partner revealed and then went silent before committing to the re-draw.  Both are replaced
for silence only: their zombies play until they reclaim.  Under version 3 every seat that
withheld forfeits (in Raiders it plays on and cannot win: its share is 0).

**Paired games.**  Each game is played twice from the same seed (characters, rooms, bot streams):
once with the coalition honest, once with it playing its best response; every seat plays the
heuristic bot.  The edge is the coalition's summed win share when cheating minus the same seats'
summed share when honest, over the pairs, with a 95% paired-bootstrap interval
(benchmarks/paired.py's ``bootstrap``).

**The best response** withholds where the coalition learns an outcome first and a re-draw is
worth more to it than τ (a share of a win):

* **its characters** (``setup.character.k`` for its seats k): a character's value is its mean
  win share, over every seat that had it, in ``--table-games`` honest games of other seeds (the
  coalition's prior knowledge of the game); a re-draw is worth the mean over the characters it
  could give;
* **the rooms of the last level** (``L5.R*``): the coalition plays ``ROLLOUTS`` games on from
  the room drawn and as many from the room drawn afresh (heuristic bots with fresh streams, a
  fresh dealer: what it can compute, nothing hidden) and compares its summed share.

Each event is withheld once at most: the coalition's seats, replaced, contribute no secret to
its re-draw.  The cost before the rule: each replaced seat's zombie plays its next decision (the
rejoin comes at the next step); after the rule the withholders forfeit.  τ and the variant (a:
``both``, b: ``partner``) are swept; the largest edge is reported; after the rule τ also takes
"never" — the best response, which knows that withholding forfeits.

**Not modelled** (each would let the coalition gain more before the rule: the edge before is a
lower bound): withholding the level cards and the earlier levels' rooms (rollouts of two levels
gained nothing more in a trial and cost three times the time), and vetoing for each other in
other games of the game.  Under version 3 all of these forfeit alike.

**On the protocol** (``protocol_matches`` each side, the in-memory mesh of protocol.mesh): the
best response found before the rule is played by real coalition peers — they compute the
outcome from the honest seats' revealed secrets and their own, and withhold by going silent at
their CHANCE_REVEAL (variant a) or with the partner's reveal sent first (variant b); the others'
clocks run past both timeouts and the grace window, vote them out and draw the character again;
the coalition's peers then come back from their files and reclaim, and withhold again at the
next event their policy picks.  Under version 2 and version 3 (``protocol_edge_before``,
``protocol_edge_after``; the same policy under both: the best response after the rule never
withholds, so it plays its honest twin's games)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from benchmarks.paired import NEVER, best_response, bootstrap
from benchmarks.scenario import play_step, raiders
from engine.core import Chance, GameState, Over, Simultaneous, Turn
from engine.games import get_game
from engine.raiders.bots import make_bot
from engine.sim import Dealer
from engine.stream import derive_key, stream_key
from protocol.crypto import chance_outcome
from protocol.match.core import LocalSeat, MatchCore
from protocol.match.game import zombie_action
from protocol.mesh import Network, bot_decider
from protocol.wire.messages import Kind, Message

VARIANTS = ("both", "partner")
LAST_LEVEL = "L5.R"
ROLLOUTS = 8  # rollouts on each side of a room's comparison
REDRAWS = 1  # re-draws of one event the coalition forces (it contributes to none: absent)
CHARACTER = "setup.character."
Table = dict[tuple[int, str], float]


@dataclass
class Coalition:
    """One game of the model: the coalition's seats, its policy, and what happened."""

    seats: tuple[int, ...]
    seed: bytes
    table: Table
    variant: str = ""  # "" honest
    tau: float = 0.0
    rule: str = "before"
    redrawn: dict[str, int] = field(default_factory=dict)
    drawn: dict[str, str] = field(default_factory=dict)
    zombie_next: set[int] = field(default_factory=set)
    forfeited: set[int] = field(default_factory=set)
    withholds: int = 0

    def outcome(self, event: Any) -> str:
        times = self.redrawn.get(event.id, 0)
        seed = self.seed if not times else derive_key(b"redraw", self.seed, str(times))
        return Dealer(seed).choose(event)

    def withholds_now(self, event: Any, outcome: str) -> bool:
        """At a coalition seat's character: is a re-draw worth more than τ to the coalition?"""
        if not self.variant or not event.id.startswith(CHARACTER):
            return False
        seat = int(event.id[len(CHARACTER):])
        if (seat not in self.seats or self.redrawn.get(event.id, 0) >= REDRAWS
                or self.forfeited):
            return False
        here = self.table.get((seat, outcome), 0.0)
        again = sum(self.table.get((seat, o), 0.0) for o in event.outcomes) / len(event.outcomes)
        return again - here > self.tau

    def vetoes_room(self, state: GameState[Any], event: Any, outcome: str) -> bool:
        """At a room of the last level: do rollouts say a re-draw is worth more than τ?"""
        if (not self.variant or not event.id.startswith(LAST_LEVEL) or self.forfeited
                or self.redrawn.get(event.id, 0) >= REDRAWS or self.tau == NEVER):
            return False
        key = derive_key(b"abort-edge/rollouts", self.seed, event.id,
                         str(self.redrawn.get(event.id, 0)))
        return redraw_gain(state, event.id, outcome, self.seats, key) > self.tau

    def withhold(self, event: Any) -> None:
        self.withholds += 1
        self.redrawn[event.id] = self.redrawn.get(event.id, 0) + 1
        withholders = set(self.seats) if self.variant == "both" else {self.seats[-1]}
        if self.rule == "after":
            self.forfeited |= withholders  # (its zombie plays on; it cannot win)
        self.zombie_next |= set(self.seats) - self.forfeited  # (replaced until it reclaims)


def rollout(state: GameState[Any], seats: Sequence[int], key: bytes) -> float:
    """The coalition's summed share in one game played on from ``state`` by heuristic bots
    with fresh streams and a fresh dealer: what the coalition can compute, nothing more."""
    dealer = Dealer(key)
    bot = make_bot("heuristic")
    prefix = stream_key(b"abort-edge/rollout", key)

    def decide(state: GameState[Any], seat: int, key: bytes) -> Any:
        return bot.choose(state.view(seat), key)

    while True:
        w = state.waiting
        if isinstance(w, Over):
            return sum(w.outcome.share(s) for s in seats)
        if isinstance(w, Chance):
            state = state.apply_chance(w.event.id, dealer.choose(w.event))
            continue
        assert isinstance(w, Simultaneous | Turn), w
        state = play_step(state, w, [prefix] * (max(w.pending) + 1), decide, dealer)


def redraw_gain(state: GameState[Any], event: str, outcome: str, seats: Sequence[int],
                key: bytes) -> float:
    """What a re-draw of ``event`` is worth to the coalition over ``outcome``, by rollouts:
    its mean share over rollouts from ``state`` (the event drawn afresh) minus its mean share
    over rollouts from ``outcome``."""
    here = sum(rollout(state.apply_chance(event, outcome), seats,
                       derive_key(key, b"here", str(k))) for k in range(ROLLOUTS))
    again = sum(rollout(state, seats, derive_key(key, b"again", str(k)))
                for k in range(ROLLOUTS))
    return (again - here) / ROLLOUTS


def play(seed: bytes, players: int, table: Table, variant: str = "", tau: float = 0.0,
         rule: str = "before") -> tuple[float, int, dict[str, str], tuple[float, ...]]:
    """One game of the model: the coalition's summed share, how often it withheld, the
    characters dealt, and every seat's share (a forfeited seat's 0)."""
    seats = tuple(range(players - 2, players))
    ctx = Coalition(seats, seed, table, variant, tau, rule)
    match_id = derive_key(b"abort-edge/match", seed)
    state: GameState[Any] = get_game("raiders").new(players=players)
    bots = [make_bot("heuristic") for _ in range(players)]
    dealer = Dealer(seed)
    prefixes = [stream_key(b"cryptcrawl/bot/v1", derive_key(b"cryptcrawl/bot-seed", seed, str(s)))
                for s in range(players)]

    def decide(state: GameState[Any], seat: int, key: bytes) -> Any:
        if seat in ctx.forfeited or seat in ctx.zombie_next:
            ctx.zombie_next.discard(seat)
            assert isinstance(state.waiting, Simultaneous | Turn)
            return zombie_action(state, seat, match_id, state.waiting.step)
        return bots[seat].choose(state.view(seat), key)

    while True:
        w = state.waiting
        if isinstance(w, Over):
            shares = tuple(0.0 if s in ctx.forfeited else w.outcome.share(s)
                           for s in range(players))
            return sum(shares[s] for s in seats), ctx.withholds, ctx.drawn, shares
        if isinstance(w, Chance):
            outcome = ctx.outcome(w.event)
            if ctx.withholds_now(w.event, outcome) or ctx.vetoes_room(state, w.event,
                                                                       outcome):
                ctx.withhold(w.event)
                continue
            ctx.drawn[w.event.id] = outcome
            state = state.apply_chance(w.event.id, outcome)
            continue
        assert isinstance(w, Simultaneous | Turn), w
        state = play_step(state, w, prefixes, decide, dealer)


def _table_task(args: tuple[bytes, int]) -> tuple[dict[str, str], tuple[float, ...]]:
    seed, players = args
    _, _, drawn, shares = play(seed, players, {})
    return drawn, shares


def _pair_task(args: tuple[bytes, int, Table, str, float, str]) -> tuple[float, int]:
    seed, players, table, variant, tau, rule = args
    share, withholds, _, _ = play(seed, players, table, variant, tau, rule)
    return share, withholds


def character_table(pool: ProcessPoolExecutor, players: int, seed: str, games: int) -> Table:
    """Each character's mean win share (pooled over the seats, the same for every seat), over
    ``games`` honest games of seeds apart from the measured ones."""
    seeds = [derive_key(b"abort-edge/coalition-table", seed.encode(), str(i))
             for i in range(games)]
    sums: dict[str, list[float]] = {}
    for drawn, shares in pool.map(_table_task, [(s, players) for s in seeds]):
        for seat in range(players):
            character = drawn.get(f"{CHARACTER}{seat}")
            if character is not None:
                sums.setdefault(character, []).append(shares[seat])
    # (Pooled over the seats: a character's strength, four times the samples of a seat's.)
    means = {character: sum(v) / len(v) for character, v in sums.items()}
    return {(seat, character): m for character, m in means.items() for seat in range(players)}


# ---------------------------------------------------------------------- on the protocol


def protocol_coalition(args: tuple[int, str, int, int, str, float, Table]
                       ) -> tuple[float, float, int, int]:
    """One paired match on the mesh, protocol ``version``: the coalition's summed share honest
    and cheating, how many times it withheld, and how many of its seats forfeited."""
    players, seed, i, version, variant, tau, table = args
    tag = f"abort-edge/coalition/{seed}/{i}".encode()
    seats = (players - 2, players - 1)
    deciders = [bot_decider(b"bot%d" % s, "heuristic") for s in range(players)]
    calm = Network(players, raiders(), tag, deciders, version=version)
    calm.pump()
    net = Network(players, raiders(), tag, deciders, version=version)
    withheld: list[str] = []
    gone: set[int] = set()
    decided: dict[str, bool] = {}
    silenced: set[str] = set()
    buffers: dict[int, list[Message]] = {seat: [] for seat in seats}

    def watched(event: str) -> bool:
        """An event the coalition may withhold: one of its characters or a last-level room,
        re-drawn fewer than ``REDRAWS`` times so far."""
        base, _, times = event.partition("~")
        if int(times or 0) >= REDRAWS:
            return False
        if base.startswith(CHARACTER):
            return int(base[len(CHARACTER):]) in seats
        return base.startswith(LAST_LEVEL)

    def policy(seat: int, event: str) -> bool:
        """Is ``event`` (its honest secrets held at ``seat``'s peer) where it withholds?"""
        core = net.cores[seat]
        w = core.state.waiting
        base = event.partition("~")[0]
        if not isinstance(w, Chance) or w.event.id != base:
            return False
        held = core.chance.secrets.get(event, {})
        committed = sorted(core.chance.commitments.get(event, {}))
        secrets = [held[s] if s not in seats else net.seats[s].secrets.chance_secret(event)
                   for s in committed]
        outcome = chance_outcome(w.event, secrets)
        if base.startswith(CHARACTER):
            target = int(base[len(CHARACTER):])
            here = table.get((target, outcome), 0.0)
            again = sum(table.get((target, o), 0.0) for o in w.event.outcomes) / len(
                w.event.outcomes)
            gain = again - here
        else:
            gain = redraw_gain(core.state, base, outcome, seats,
                               derive_key(b"abort-edge/rollouts", tag, event))
        if gain > tau:
            withheld.append(event)
            return True
        return False

    def ready(seat: int, event: str) -> bool:
        """Every honest contributor's secret of ``event`` is held at ``seat``'s peer."""
        core = net.cores[seat]
        held = core.chance.secrets.get(event, {})
        return all(s in held for s in core.chance.commitments.get(event, {}) if s not in seats)

    honest_send = LocalSeat.messages_to_send

    def send(local: LocalSeat) -> list[Message]:
        """What a seat's peer sends; the coalition's as its policy says.  (Patched on the
        class: the mesh replaces a seat's object when it rebuilds or lags.)"""
        seat = local.seat
        if seat not in seats or local is not net.seats[seat]:
            return honest_send(local)
        if seat in gone:
            return []
        messages = buffers[seat] + honest_send(local)
        buffers[seat] = []
        out: list[Message] = []
        for k, message in enumerate(messages):
            if message.kind is not Kind.CHANCE_REVEAL:
                out.append(message)
                continue
            event = message.content.secrets[0][0]  # type: ignore[union-attr]
            if event in silenced:
                continue  # (back from its file: the secret it withheld stays withheld)
            if watched(event) and event not in decided:
                if not ready(seat, event):
                    buffers[seat] = messages[k:]  # (it waits for the honest secrets)
                    return out
                decided[event] = policy(seat, event)
            if watched(event) and decided[event]:
                if variant == "partner" and seat == seats[0]:
                    out.append(message)  # (the partner reveals, then goes silent)
                gone.add(seat)
                silenced.add(event)
                net.crash(seat)
                return out
            out.append(message)
        return out

    others = [j for j in range(players) if j not in seats]

    def voted_out() -> bool:
        return all(set(seats) <= set(net.cores[j].absent) for j in others)

    LocalSeat.messages_to_send = send  # type: ignore[method-assign,assignment]
    try:
        for _ in range(REDRAWS * (2 + 5) + 1):  # (two characters, five rooms: each re-drawn)
            net.pump()
            if not gone:
                break
            # The coalition went silent: the others' clocks run until both are voted out,
            # then its peers come back from their files and reclaim.
            for _ in range(6):
                if voted_out():
                    break
                for j in others:
                    net.run_clock(j)
                while not voted_out():  # (one delivery at a time: it comes back at once)
                    net.pump(limit=1, partial=True)
                    if not net.queue:
                        break
            for seat in seats:
                buffers[seat] = []
                _restart(net, seat, tag)
            gone.clear()
        net.run_with_timeouts(limit=20)
    finally:
        LocalSeat.messages_to_send = honest_send  # type: ignore[method-assign]
    forfeits = len(set(seats) & net.cores[0].seats.withholders)
    return _sum(calm, seats), _sum(net, seats), len(withheld), forfeits


def _restart(net: Network, seat: int, tag: bytes) -> None:
    old = net.seats[seat]
    core = MatchCore(net.header)
    for message in net.log:
        core.receive(message)
    local = LocalSeat(core, seat, old.key, hashlib.sha256(tag + b"seed%d" % seat).digest(),
                      old.decide)
    net.cores[seat], net.seats[seat] = core, local
    net.crashed.discard(seat)
    net.queue.extend(local.restore(list(old.sent)))


def _sum(net: Network, seats: Sequence[int]) -> float:
    w = net.cores[0].state.waiting
    assert net.cores[0].signed and isinstance(w, Over)
    return sum(w.outcome.share(s) for s in seats)


def measure(pool: ProcessPoolExecutor, players: int, seeds: Sequence[bytes],
            sweep: Sequence[bytes], taus: Sequence[float], table: Table,
            protocol_matches: int, seed: str) -> dict[str, Any]:
    """The coalition's figures: the model's paired games before and after the rule, then the
    best response before it on the protocol mesh under versions 2 and 3."""

    def shares(variant: str, tau: float, games: Sequence[bytes],
               rule: str = "before") -> list[tuple[float, int]]:
        return list(pool.map(_pair_task, [(s, players, table, variant, tau, rule)
                                          for s in games], chunksize=8))
    honest = [share for share, _ in shares("", 0.0, seeds)]
    result = {rule: best_response(shares, honest, seeds, sweep, VARIANTS, taus, rule,
                                  name="variant") for rule in ("before", "after")}
    before, after = result["before"], result["after"]
    # On the protocol: the best response before the rule, under version 2 and version 3.
    variant = before["best"]
    tau = NEVER if before["tau"] == "never" else float(before["tau"])
    mesh: dict[int, list[tuple[float, float, int, int]]] = {
        version: list(pool.map(protocol_coalition, [
            (players, seed, i, version, variant, tau, table)
            for i in range(protocol_matches)])) for version in (2, 3)}

    def edge(rs: list[tuple[float, float, int, int]]) -> float:
        return sum(c - h for h, c, _, _ in rs) / max(1, len(rs))
    return {
        "coalition": 2, "games": len(seeds), "sweep_games": len(sweep), "taus": list(taus),
        "sweep": before["sweep"], "sweep_after": after["sweep"],
        "best_variant": before["best"], "best_tau": before["tau"],
        "withholds_per_game": before["withholds_per_game"],
        "best_variant_after": after["best"], "best_tau_after": after["tau"],
        "withholds_per_game_after": after["withholds_per_game"],
        "honest_win_share": sum(honest) / len(honest),
        "edge_before": before["edge"], "ci95_before": before["ci95"],
        "edge_after": after["edge"], "ci95_after": after["ci95"],
        "protocol_matches": min(len(mesh[2]), len(mesh[3])),
        "protocol_edge_before": edge(mesh[2]),
        "protocol_ci95_before": list(bootstrap([c - h for h, c, _, _ in mesh[2]],
                                               "protocol-before")),
        "protocol_withheld_before": sum(w for _, _, w, _ in mesh[2]),
        "protocol_forfeits_before": sum(f for _, _, _, f in mesh[2]),
        "protocol_edge_after": edge(mesh[3]),
        "protocol_ci95_after": list(bootstrap([c - h for h, c, _, _ in mesh[3]],
                                              "protocol-after")),
        "protocol_withheld_after": sum(w for _, _, w, _ in mesh[3]),
        "protocol_forfeits_after": sum(f for _, _, _, f in mesh[3])}
