"""Dice pools (protocol.md §7.12; issue 27): what a public die costs on the wire.

    python -m benchmarks dice [--players 4] [--turns 96] [--seeds 3]

Plays the toy game of tests/protocol/dice_toy.py — one die per decision (``dice=one``), seats in
turn, ``--turns`` decisions — over the in-memory mesh of protocol.mesh, where every message
goes to every peer in the order it was sent, twice per seed: with dice pools (``toy-dice``) and,
as the baseline, with a commitment round per die (``toy-dice-classic``, §7.3).  For each:

* ``messages_per_event_per_seat``: the chance messages sent (CHANCE_COMMIT, CHANCE_REVEAL,
  CHANCE_DIGEST) per die and seat, amortised over the match (the decider's own secret rides in
  its ACT, which it sends anyway);
* ``all_messages_per_event_per_seat``: every message but the END round's, per die and seat;
* ``rounds_after_decision``: for each die, the causal hops from the ACT that poses it to the
  last message that carries a secret of its slot (the moment every peer can hold every
  contributor's secret) — a message sent after receiving one at hop *h* is at hop *h* + 1 —
  the maximum over all dice (and the median).

The counts do not depend on the machine: the last line is one JSON object with the pooled
figures, the baseline's, and ``within_target`` (≤ 1.2 messages per die and seat, and one round
after every decision)."""

from __future__ import annotations

import argparse
import json
import statistics
from typing import Any

from protocol.match.events import ChanceResolved
from protocol.mechanisms.chance import is_pool_slot
from protocol.mesh import MeshGame, Network
from protocol.wire.messages import ActBody, Kind, Message, revealed_secrets

from tests.protocol import dice_toy  # (registers the toy games)

CHANCE_KINDS = (Kind.CHANCE_COMMIT, Kind.CHANCE_REVEAL, Kind.CHANCE_DIGEST)
TARGET_MESSAGES = 1.2
TARGET_ROUNDS = 1


class HopNetwork(Network):
    """The mesh, keeping for every message its causal hops from each decision before it."""

    def __init__(self, n: int, game: MeshGame, tag: bytes) -> None:
        super().__init__(n, game, tag)
        self.hops: dict[bytes, dict[int, int]] = {}
        self.received: list[dict[int, int]] = [{} for _ in range(n)]

    def run(self, limit: int = 1_000_000) -> None:
        for _ in range(limit):
            for i, seat in self.running():
                for message in seat.messages_to_send():
                    self._sent(i, message)
                    self.log.append(message)
                    self.queue.append(message)
                self.events[i].extend(seat.take_events())
            if not self.queue:
                return
            message = self.queue.pop(0)
            for i in range(len(self.cores)):
                self.deliver(i, message)
        raise AssertionError("the match did not settle")

    def _sent(self, i: int, message: Message) -> None:
        hops = {d: h + 1 for d, h in self.received[i].items()}
        body = message.content
        if isinstance(body, ActBody) and body.step.startswith("t"):
            hops[int(body.step[1:])] = 0  # (a decision: hop 0 from itself)
        self.hops[message.hash] = hops

    def deliver(self, i: int, message: Message) -> None:
        seen = self.received[i]
        for d, h in self.hops.get(message.hash, {}).items():
            if h > seen.get(d, -1):
                seen[d] = h
        super().deliver(i, message)


def measure(game: str, players: int, turns: int, tag: bytes) -> dict[str, Any]:
    net = HopNetwork(players, MeshGame(game, (("turns", turns), ("dice", "one"))), tag)
    net.run()
    core = net.cores[0]
    assert all(c.signed for c in net.cores), "the match did not finish"
    rounds = []
    for die in (e.event for e in core.events if isinstance(e, ChanceResolved)):
        decision = int(die[1:].split(".")[0])
        slot = core.chance.alias.get(die, die)
        carriers = [m for m in net.log if any(e == slot for e, _ in revealed_secrets(m.content))]
        rounds.append(max(net.hops[m.hash][decision] for m in carriers))
    events = len(rounds)
    chance = sum(1 for m in net.log if m.kind in CHANCE_KINDS)
    every = sum(1 for m in net.log if m.kind is not Kind.END)
    return {"game": game, "players": players, "dice": events,
            "pool_slots": sum(1 for e in core.chance.commitments if is_pool_slot(e)),
            "messages_per_event_per_seat": round(chance / (events * players), 3),
            "all_messages_per_event_per_seat": round(every / (events * players), 3),
            "rounds_after_decision": max(rounds),
            "rounds_after_decision_median": statistics.median(rounds)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks dice",
                                     description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--players", type=int, default=4, choices=range(2, 9),
                        metavar="N", help="seats (2 to 8; default 4)")
    parser.add_argument("--turns", type=int, default=96, help="decisions (default 96)")
    parser.add_argument("--seeds", type=int, default=3, help="matches per game (default 3)")
    args = parser.parse_args(argv)
    if not 1 <= args.turns <= 1000 or not 1 <= args.seeds <= 20:
        parser.error("--turns is 1 to 1000 and --seeds 1 to 20")
    out: dict[str, Any] = {"players": args.players, "turns": args.turns}
    for key, game in (("pooled", dice_toy.GAME), ("baseline", dice_toy.CLASSIC)):
        runs = [measure(game, args.players, args.turns, b"benchmarks/dice/%d" % i)
                for i in range(args.seeds)]
        for r in runs:
            print(f"{game}: {r['dice']} dice, {r['messages_per_event_per_seat']} chance "
                  f"messages per die and seat ({r['all_messages_per_event_per_seat']} in all), "
                  f"{r['rounds_after_decision']} round(s) after the decision (median "
                  f"{r['rounds_after_decision_median']})")
        out[key] = {
            "messages_per_event_per_seat": max(r["messages_per_event_per_seat"] for r in runs),
            "all_messages_per_event_per_seat": max(r["all_messages_per_event_per_seat"]
                                                   for r in runs),
            "rounds_after_decision": max(r["rounds_after_decision"] for r in runs),
            "dice": sum(r["dice"] for r in runs)}
    pooled = out["pooled"]
    out["messages_per_event_per_seat"] = pooled["messages_per_event_per_seat"]
    out["rounds_after_decision"] = pooled["rounds_after_decision"]
    out["within_target"] = (pooled["messages_per_event_per_seat"] <= TARGET_MESSAGES
                            and pooled["rounds_after_decision"] <= TARGET_ROUNDS)
    print(json.dumps(out))
    return 0 if out["within_target"] else 1
