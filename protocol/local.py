"""An in-memory mesh of N peers, for tests and benchmarks: every peer runs its own MatchCore
and LocalSeat, and a bus delivers every sent message to every peer (its sender included), in
order.  No sockets, no sleeps, no clocks.  Keys, nonces and seeds are derived from a tag, so a
run is reproducible — which is exactly what a real match must never do: real peers draw them
from the operating system's randomness."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.core import GameState
from engine.raiders.bots import RandomBot
from engine.sim import bot_key
from engine.stream import HashStream
from protocol.crypto import public_key_bytes
from protocol.header import PROTOCOL_VERSION, Header, Seat, SignedHeader, sign_header
from protocol.match import Event, LocalSeat, MatchCore
from protocol.messages import Message


def make_header(n: int, variant: str = "basic", tag: bytes = b"") -> tuple[
        SignedHeader, list[Ed25519PrivateKey]]:
    keys = [Ed25519PrivateKey.from_private_bytes(hashlib.sha256(tag + b"key%d" % i).digest())
            for i in range(n)]
    header = Header(
        game="raiders", options=(("players", n), ("variant", variant)),
        protocol=PROTOCOL_VERSION, engine="raiders/1", sampler="sha256-ctr/v1",
        seats=tuple(Seat(f"P{i}", public_key_bytes(k)) for i, k in enumerate(keys)),
        nonces=tuple(hashlib.sha256(tag + b"nonce%d" % i).digest() for i in range(n)))
    return SignedHeader(header, tuple(sign_header(k, header) for k in keys)), keys


def random_decider(seed: bytes) -> Callable[[GameState[Any], int], str]:
    bot = RandomBot()
    attempts: dict[tuple[str, int], int] = {}

    def decide(state: GameState[Any], seat: int) -> str:
        step = state.waiting.step  # type: ignore[union-attr]
        n = attempts.get((step, seat), 0)
        attempts[(step, seat)] = n + 1
        action = bot.choose(state.view(seat), bot_key(seed, step, seat, n))
        return state.format_action(action)
    return decide


class Network:
    """Peers wired together; ``deliver`` decides the order messages arrive in.  With
    ``rebuild``, a peer whose core took a message the feeds may not let it take where it did
    rebuilds it from the feeds, as the network peer does (:meth:`LocalSeat.behind`)."""

    def __init__(self, n: int, variant: str = "basic", tag: bytes = b"",
                 deciders: list[Callable[[GameState[Any], int], str]] | None = None, *,
                 rebuild: bool = False) -> None:
        self.rebuild = rebuild
        self.rebuilds = 0
        self.header, self.keys = make_header(n, variant, tag)
        self.cores = [MatchCore(self.header) for _ in range(n)]
        self.seats = [
            LocalSeat(self.cores[i], i, self.keys[i], hashlib.sha256(tag + b"seed%d" % i).digest(),
                      deciders[i] if deciders else random_decider(b"bot%d" % i))
            for i in range(n)]
        self.queue: list[Message] = []
        self.log: list[Message] = []
        self.events: list[list[Event]] = [[] for _ in range(n)]

    def pump(self, limit: int = 200_000, *, partial: bool = False,
             scramble: bytes | None = None) -> int:
        """Run until nobody has anything to send and nothing is in flight (or, with
        ``partial``, stop quietly after ``limit`` deliveries).  With ``scramble`` (a seed),
        every peer gets every message in its own pseudo-random order, delayed arbitrarily:
        reordering and delay on every link."""
        stream = HashStream(scramble) if scramble is not None else None
        inboxes: list[list[Message]] = [[] for _ in self.cores]
        steps = 0
        while steps < limit:
            steps += 1
            for index, seat in enumerate(self.seats):
                messages = seat.messages_to_send()
                self.events[index].extend(seat.take_events())
                for message in messages:
                    self.log.append(message)
                    if stream is None:
                        self.queue.append(message)
                    else:
                        for inbox in inboxes:
                            inbox.append(message)
            if stream is None:
                if not self.queue:
                    return steps
                message = self.queue.pop(0)
                for i in range(len(self.cores)):
                    self.deliver(i, message)
                continue
            waiting = [i for i, inbox in enumerate(inboxes) if inbox]
            if not waiting:
                return steps
            i = waiting[stream.below(len(waiting))]
            self.deliver(i, inboxes[i].pop(stream.below(len(inboxes[i]))))
        if partial:
            return steps
        raise AssertionError("the network did not settle")

    def deliver(self, i: int, message: Message) -> None:
        """Peer ``i`` receives ``message`` (and rebuilds, with ``rebuild``, if it must)."""
        self.events[i].extend(self.cores[i].receive(message))
        if self.rebuild and self.seats[i].behind():
            self.seats[i] = self.seats[i].rebuilt()
            self.cores[i] = self.seats[i].core
            self.rebuilds += 1
