"""One peer of the multi-host test (tests/p2p/test_netns.py), run inside a network namespace.

    python -m tests.p2p.netns_peer --data-dir D --address 10.213.7.1 --table-id HEX \
        --result R.json host --players 3
    python -m tests.p2p.netns_peer --data-dir D --address 10.213.7.2 --table-id HEX \
        --result R.json join

The host opens a table with :func:`p2p.run.host` bound to its namespace address and advertises
it with :class:`p2p.discovery.Advertiser` on that interface (seats updated as they fill, the
advert withdrawn once the table is full, then advertised again *live* at the host's match port for
spectators, as ``cryptcrawl host`` does).  A joiner browses on its own interface until it finds
the table with that id, then joins the address and port it found.  Both play random bots to the
end (``--think``: each decision takes that long) and write a JSON result.  (``p2p.run`` has no
discovery hook; this is the test's own.)
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from p2p.discovery import Advertiser, find_table
from p2p.lobby import Joiner
from p2p.peer import MatchPeer, PeerConfig, bot_decider
from p2p.run import Result, host, join
from p2p.store import load_identity
from protocol.crypto import fingerprint, public_key_bytes


async def run_host(args: argparse.Namespace, config: PeerConfig) -> tuple[Result, dict[str, Any]]:
    key = load_identity(args.data_dir)
    fp = fingerprint(public_key_bytes(key))
    pending: list[asyncio.Future[None]] = []
    advert: list[Advertiser] = []
    seen: dict[str, Any] = {"fingerprint": fp, "seats": []}

    def on_port(port: int) -> None:
        ad = Advertiser(name=f"netns table {args.table_id[:6]}", port=port, fingerprint=fp,
                        game="raiders",
                        table_id=args.table_id, seats_total=args.players,
                        interfaces=[args.address])
        advert.append(ad)
        seen["port"] = port
        pending.append(asyncio.ensure_future(ad.start()))

    def on_joiners(joiners: list[Joiner]) -> None:
        taken = 1 + len(joiners)
        seen["seats"].append(taken)
        if advert:
            ad = advert[0]
            pending.append(asyncio.ensure_future(
                ad.close() if taken >= args.players else ad.update(seats_taken=taken)))

    def on_peer(peer: MatchPeer) -> None:
        # The match is on: advertised again, live, at this seat's match port (for spectators).
        live = Advertiser(name=f"netns table {args.table_id[:6]}",
                          port=peer.addresses[peer.seat][1], fingerprint=fp, game="raiders",
                          table_id=os.urandom(8), seats_total=args.players,
                          seats_taken=args.players, interfaces=[args.address], live=True)
        advert.append(live)
        seen["live_port"] = live.port
        pending.append(asyncio.ensure_future(live.start()))

    try:
        result = await host(args.data_dir, game="raiders", name="host", players=args.players,
                            options={"variant": "basic"}, bind=args.address,
                            config=config, on_port=on_port, on_joiners=on_joiners,
                            on_peer=on_peer, **_decider(args, "host"))
        await asyncio.wait_for(asyncio.gather(*pending), 10)
    finally:
        for ad in advert:
            await ad.close()
    seen["advertised"] = advert[0].instance if advert else ""
    return result, seen


async def run_join(args: argparse.Namespace, config: PeerConfig) -> tuple[Result, dict[str, Any]]:
    start = time.monotonic()
    table = await find_table([args.address], timeout=args.find_timeout,
                             match=lambda t: t.id == args.table_id)
    found_s = time.monotonic() - start
    result = await join(args.data_dir, table.host, table.port, name=args.name, config=config,
                        bind=args.address, **_decider(args, args.name))
    return result, {"found": {"host": table.host, "port": table.port, "name": table.name,
                              "seats": [table.seats_taken, table.seats_total],
                              "fingerprint": table.fingerprint, "version": table.version,
                              "seconds": round(found_s, 3)}}


def _seed(args: argparse.Namespace, who: str) -> bytes:
    return hashlib.sha256(f"{args.table_id}/{who}".encode() + os.urandom(8)).digest()


def _decider(args: argparse.Namespace, who: str) -> dict[str, Any]:
    """A random bot, taking ``--think`` seconds over each decision."""
    bot = bot_decider("random", _seed(args, who))
    if not args.think:
        return {"decide": bot}

    async def choose(state: Any, seat: int) -> str:
        await asyncio.sleep(args.think)
        return bot(state, seat)
    return {"choose": choose}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.p2p.netns_peer")
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--address", required=True, help="this namespace's address")
    parser.add_argument("--table-id", required=True)
    parser.add_argument("--result", type=Path, required=True)
    parser.add_argument("--name", default="joiner")
    parser.add_argument("--turn-timeout", type=float, default=20.0)
    parser.add_argument("--find-timeout", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=0.0, help="seconds per decision")
    parser.add_argument("--deadline", type=float, default=150.0, help="give up after (s)")
    sub = parser.add_subparsers(dest="role", required=True)
    h = sub.add_parser("host")
    h.add_argument("--players", type=int, default=3)
    sub.add_parser("join")
    args = parser.parse_args(argv)
    turn = args.turn_timeout  # (every timeout of the match, in place of the header's)
    config = PeerConfig(timeouts=(turn, turn, turn, turn), linger=1.0)

    async def go() -> tuple[Result, dict[str, Any]]:
        runner = run_host if args.role == "host" else run_join
        return await asyncio.wait_for(runner(args, config), args.deadline)

    result, extra = asyncio.run(go())
    out = {"role": args.role, "seat": result.seat, "path": str(result.path),
           "signed": bool(result.core.signed), **extra}
    tmp = args.result.with_suffix(".tmp")
    tmp.write_text(json.dumps(out))
    tmp.replace(args.result)
    print(json.dumps(out), flush=True)
    return 0 if result.core.signed else 1


if __name__ == "__main__":
    sys.exit(main())
