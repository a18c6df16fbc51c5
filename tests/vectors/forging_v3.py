"""What the version 3 conformance vectors (tests/vectors/generate_v3.py) are made of: small
honest matches of the four games on the in-memory mesh, each from a fixed tag, and copies of
them that one seat forged in its own feed (re-signed with its own key: benchmarks/tampering/
forging.py), with every record in the order the messages were sent, so that a file cut after
the record its verdict names stays short.

Keys, nonces, seeds and bot choices derive from the tags under ``cryptcrawl/vectors/v3/`` (or
``cryptcrawl/vectors/v3/appendix-b/`` for the version 2 files of the vectors that show Appendix
B), Ed25519 signatures are deterministic, and every DELIVERY is sealed under an ephemeral key
derived from the tag (benchmarks/tampering/sealing.py): the bytes are the same on every run."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from benchmarks.tampering.bases import keen_decider
from benchmarks.tampering.forging import Draft, Forged, drafts, forge
from benchmarks.tampering.sealing import SealingNetwork
from engine.core import GameState
from engine.games import get_game
from protocol.mesh import MeshGame, Network, bot_decider
from protocol.wire.messages import Message
from protocol.wire.transcript import file_start, frame

Decider = Callable[[GameState[Any], int], str]


def tag_of(version: int) -> bytes:
    return b"cryptcrawl/vectors/v3/" if version == 3 else b"cryptcrawl/vectors/v3/appendix-b/"


def game_of(name: str) -> MeshGame:
    spec = get_game(name)
    return MeshGame(name, (("variant", spec.variants[0]),) if spec.variants else ())


def network(game: str, n: int, tag: bytes, *, version: int = 3, keen: bool = False,
            rebuild: bool = False) -> SealingNetwork:
    """A mesh of ``n`` seats of ``game`` under ``tag`` (version ``version``): the game's random
    bot (Dungeon Raiders, with ``keen``: seat 0 peeks with a torch whenever it may)."""
    full = tag_of(version) + tag
    bots = get_game(game).bots
    bot = "random" if "random" in bots else next(iter(bots))
    deciders: list[Decider] = [bot_decider(full + b"/bot%d" % i, bot) for i in range(n)]
    if keen:
        deciders[0] = keen_decider(full + b"/bot0", bot)
    return SealingNetwork(n, game_of(game), full, deciders, rebuild=rebuild, version=version)


@dataclass
class Match:
    """A match played on ``net``, seen from ``holder``'s copy; ``order``: every message's
    place in the order the messages were sent (its hash -> index)."""

    net: Network
    holder: int = 0

    def __post_init__(self) -> None:
        self.order = {m.hash: i for i, m in enumerate(self.net.log)}

    @property
    def version(self) -> int:
        return self.net.cores[0].version

    @property
    def match_id(self) -> bytes:
        return self.net.header.match_id

    def feeds(self, holder: int | None = None) -> list[list[Message]]:
        core = self.net.cores[self.holder if holder is None else holder]
        return [list(f.messages) for f in core.feeds]

    def own(self, seat: int) -> list[Message]:
        return list(self.net.cores[seat].feeds[seat].messages)

    def file(self, holder: int | None = None) -> bytes:
        """``holder``'s copy, its records in the order sent."""
        return self.copy(self.feeds(holder))

    def copy(self, feeds: Sequence[Sequence[Message | Forged]], *,
             places: dict[bytes, float] | None = None) -> bytes:
        """A file of ``feeds``: each message where it was sent (``places`` for forged ones;
        one that has none right after its predecessor in its feed)."""
        keyed: list[tuple[float, int, int, bytes]] = []
        for seat, feed in enumerate(feeds):
            last = -1.0
            for k, item in enumerate(feed):
                place = (places or {}).get(item.hash, self.order.get(item.hash))
                if place is None:
                    place = last + 0.001
                last = place
                wire = item.wire if isinstance(item, Forged) else item.encode()
                keyed.append((place, seat, k, wire))
        keyed.sort()
        return file_start(self.net.header) + b"".join(frame(w) for *_, w in keyed)

    def forged(self, liar: int, plan: Sequence[Draft], *, holder: int | None = None,
               aliases: dict[bytes, bytes] | None = None) -> bytes:
        """``holder``'s copy (default: the liar's) with the liar's feed made of ``plan``,
        signed again with its key from its first change on."""
        made = forge(self.net.keys[liar], self.match_id, liar, plan, aliases=aliases,
                     version=self.version)
        places: dict[bytes, float] = {}
        last = -1.0
        for draft, message in zip(plan, made, strict=True):
            place = self.order.get(draft.origin.hash) if draft.origin is not None else None
            place = last + 0.001 if place is None else max(place, last + 0.001)
            places[message.hash] = last = place
        feeds: list[Sequence[Message | Forged]] = list(self.feeds(
            liar if holder is None else holder))
        feeds[liar] = made
        return self.copy(feeds, places=places)

    def plan(self, liar: int) -> list[Draft]:
        return drafts(self.own(liar))


def edit(plan: list[Draft], index: int, **change: Any) -> list[Draft]:
    """``plan`` with draft ``index`` changed (kind follows a new body)."""
    out = list(plan)
    body = change.get("body")
    if body is not None and hasattr(body, "KIND") and "kind" not in change:
        change["kind"] = body.KIND
    out[index] = dataclasses.replace(out[index], **change)
    return out
