"""An in-memory mesh of N peers, for tests and benchmarks: every peer runs its own MatchCore
and LocalSeat, and a bus delivers every sent message to every peer (its sender included), in
order.  No sockets, no sleeps: each peer's clock is run by hand, to its core's next deadline.
The game is a :class:`MeshGame` (a registered game's name and options).  By default every peer
is handed the same :class:`Message` object, whose decoded body and checked signature are then
cached for all; with ``own_bytes`` each peer decodes its own copy from the bytes, as over a real
link (what a benchmark of the cost per peer needs).  Keys, nonces and seeds
are derived from a tag, so a run is reproducible — which is exactly what
a real match must never do: real peers draw them from the operating system's randomness.

Links can be made to hold messages back for a while (:meth:`Network.stall`, :meth:`Network.heal`):
:func:`draw_partition` and :func:`play_partition` play a match in which some links stall for
longer than both timeouts, then heal — the scenarios of tests/protocol/mechanisms/test_votes.py and
of
``python -m benchmarks partitions``."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Final

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.core import GameState
from engine.games import get_game
from engine.sim import bot_input, bot_key
from engine.stream import HashStream
from protocol.crypto import SAMPLER, public_key_bytes
from protocol.match.core import Event, LocalSeat, MatchCore, SeatTimedOut
from protocol.match.game import deck_algorithm
from protocol.wire.header import PROTOCOL_VERSION, Header, Seat, SignedHeader, sign_header
from protocol.wire.messages import Message
from protocol.wire.transcript import file_start, frame


class Stalled(Exception):
    """The match did not finish: nobody had anything to send, even with every peer's clock run
    past both timeouts again and again."""


Link = tuple[int, int]  # (sender, receiver)
Held = list[tuple[int, Message]]  # messages held back, with the peer each is for


@dataclass(frozen=True)
class MeshGame:
    """The game an in-memory mesh plays: a registered game's name and its options (the number
    of players aside, which is the mesh's)."""

    name: str
    options: tuple[tuple[str, Any], ...] = ()


def make_header(n: int, game: MeshGame, tag: bytes = b"", *,
                version: int = PROTOCOL_VERSION) -> tuple[SignedHeader, list[Ed25519PrivateKey]]:
    keys = [Ed25519PrivateKey.from_private_bytes(hashlib.sha256(tag + b"key%d" % i).digest())
            for i in range(n)]
    header = Header(
        game=game.name, options=tuple(sorted({"players": n, **dict(game.options)}.items())),
        protocol=version, engine=get_game(game.name).engine_version, sampler=SAMPLER,
        seats=tuple(Seat(f"P{i}", public_key_bytes(k)) for i, k in enumerate(keys)),
        nonces=tuple(hashlib.sha256(tag + b"nonce%d" % i).digest() for i in range(n)),
        deck=deck_algorithm(game.name))
    return SignedHeader(header, tuple(sign_header(k, header) for k in keys)), keys


def random_decider(seed: bytes) -> Callable[[GameState[Any], int], str]:
    """The game's random bot, keyed by ``seed``."""
    return bot_decider(seed, "random")


def bot_decider(seed: bytes, name: str) -> Callable[[GameState[Any], int], str]:
    """The game's bot ``name``, keyed by ``seed``."""
    bots: dict[str, Any] = {}
    attempts: dict[tuple[str, int], int] = {}

    def decide(state: GameState[Any], seat: int) -> str:
        bot = bots.get(state.game)
        if bot is None:
            bot = bots[state.game] = get_game(state.game).bots[name]()
        step = state.waiting.step  # type: ignore[union-attr]
        n = attempts.get((step, seat), 0)
        attempts[(step, seat)] = n + 1
        action = bot.choose(bot_input(bot, state, seat, step), bot_key(seed, step, seat, n))
        return state.format_action(action)
    return decide


class Network:
    """Peers wired together; ``deliver`` decides the order messages arrive in.  With
    ``rebuild``, a peer whose core took a message the feeds may not let it take where it did
    rebuilds it from the feeds, as the network peer does (:meth:`LocalSeat.behind`)."""

    def __init__(self, n: int, game: MeshGame, tag: bytes = b"",
                 deciders: list[Callable[[GameState[Any], int], str]] | None = None, *,
                 rebuild: bool = False, version: int = PROTOCOL_VERSION,
                 own_bytes: bool = False) -> None:
        self.rebuild = rebuild
        # With ``own_bytes`` every peer is handed a message decoded from its bytes, its own
        # object, as over a real link: none shares another's decoded body or checked signature
        # (a benchmark of the cost per peer needs it; a shared object caches them after the
        # first peer).
        self.own_bytes = own_bytes
        self.rebuilds = 0
        self.crashed: set[int] = set()
        self.header, self.keys = make_header(n, game, tag, version=version)
        self.cores = [MatchCore(self.header, wait_at_dead_ends=True) for _ in range(n)]
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
            for index, seat in self.running():
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

    def match_file(self, peer: int) -> bytes:
        """What ``peer``'s match file would hold: the header and every feed it took."""
        core = self.cores[peer]
        data = bytearray(file_start(core.header))
        for feed in core.feeds:
            for message in feed.messages:
                data += frame(message.encode())
        return bytes(data)

    def running(self) -> Iterator[tuple[int, LocalSeat]]:
        """The peers that have not crashed, with their seats — each looked up as it comes, for
        a delivery on the way may rebuild a peer's seat."""
        for i in range(len(self.seats)):
            if i not in self.crashed:
                yield i, self.seats[i]

    def crash(self, i: int) -> None:
        """Peer ``i``'s process stops for good: it sends, receives and times nothing more."""
        self.crashed.add(i)

    def deliver(self, i: int, message: Message) -> None:
        """Peer ``i`` receives ``message`` (and rebuilds, with ``rebuild``, if it must)."""
        if i in self.crashed:
            return
        if self.own_bytes:
            message = Message.decode(message.encode(), self.header.header.protocol)
        self.events[i].extend(self.cores[i].receive(message))
        if self.rebuild and self.seats[i].behind():
            self.seats[i] = self.seats[i].rebuilt()
            self.cores[i] = self.seats[i].core
            self.rebuilds += 1

    # -------------------------------------------------------------- clocks and stalled links

    def run_clock(self, i: int) -> bool:
        """Peer ``i``'s clock runs to its core's next deadline; False if it waits for nobody."""
        core = self.cores[i]
        deadline = None if i in self.crashed else core.get_timer()
        due = None if i in self.crashed else self.seats[i].answer_due()
        if due is not None and (deadline is None or due < deadline):
            # An answer its seat held back falls due first (protocol.md §8.2): the seat is
            # woken, brought back to what its file gives if it lags, and answers.
            core.now = due + 1.0
            if self.rebuild:
                lagging = self.seats[i].lagging()
                if lagging is not None:
                    self.seats[i], self.cores[i] = lagging, lagging.core
                    self.rebuilds += 1
            return True
        if deadline is None:
            return False
        events = core.handle_timer(deadline + 1.0)
        self.events[i].extend(events)
        if self.rebuild and any(isinstance(e, SeatTimedOut) for e in events):
            lagging = self.seats[i].lagging()  # (as the network peer does)
            if lagging is not None:
                self.seats[i], self.cores[i] = lagging, lagging.core
                self.rebuilds += 1
        return True

    def run_with_timeouts(self, *, limit: int = 30, scramble: bytes | None = None) -> None:
        """Pump; whenever the match stalls, let every peer's clock run past both timeouts (each
        peer to its own next deadline: first past the turn timeout — overdue: peers answer
        votes already cast — then past the silence timeout — timed out: peers vote).  Raises
        :class:`Stalled` if the match does not finish within ``limit`` such rounds."""
        for round_ in range(limit):
            self.pump(scramble=None if scramble is None else scramble + bytes([round_]))
            if all(self.cores[i].signed if self.cores[i].live(i)
                   else self.cores[i].signed or self.cores[i].get_timer() is None
                   for i, _ in self.running()) and not any(
                       seat.answer_due() is not None for _, seat in self.running()):
                # (A peer whose seat is replaced here still runs its clock while it waits —
                # its timeouts may bring it back to what its feeds give: lagging.)
                return
            for step in ("turn", "silence"):
                for i in range(len(self.cores)):
                    self.run_clock(i)
                if step == "turn":
                    self.pump(scramble=None if scramble is None
                              else scramble + bytes([round_, 1]))
        raise Stalled("the match did not finish")

    def land_in_flight(self) -> None:
        """What is in flight arrives at every peer, and nothing more is pumped."""
        while self.queue:
            message = self.queue.pop(0)
            for i in range(len(self.cores)):
                self.deliver(i, message)

    def pump_cut(self, links: set[Link], held: Held) -> None:
        """Pump until nobody sends; a message on a link in ``links`` is kept in ``held`` (with
        the peer it is for) instead of delivered."""
        for _ in range(10_000):
            moved = False
            for i, seat in self.running():
                out = seat.messages_to_send()
                self.events[i].extend(seat.take_events())
                for message in out:
                    moved = True
                    self.log.append(message)
                    for j in range(len(self.cores)):
                        if (message.seat, j) in links:
                            held.append((j, message))
                        else:
                            self.deliver(j, message)
            if not moved:
                return
        raise AssertionError("the network did not settle")

    def stall(self, links: set[Link], *, rounds: int = 1) -> Held:
        """The links in ``links`` stall: pump, and let every peer's clock run past both timeouts
        (``rounds`` times); returns what the links held back, for :meth:`heal`."""
        held: Held = []
        for _ in range(rounds):
            self.pump_cut(links, held)
            for _ in ("turn", "silence"):
                for i in range(len(self.cores)):
                    self.run_clock(i)
                self.pump_cut(links, held)
        return held

    def heal(self, held: Held, order: bytes | None = None) -> None:
        """The stalled links deliver what they held: in order, or (with ``order``, a seed) in a
        scrambled order, in batches, with the peers answering between some batches."""
        if order is None:
            for i, message in held:
                self.deliver(i, message)
            return
        stream = HashStream(order)
        rest = shuffled(held, stream)
        while rest:
            k = 1 + stream.below(len(rest))
            batch, rest = rest[:k], rest[k:]
            for i, message in batch:
                self.deliver(i, message)
            if stream.below(2):
                self.pump()


def shuffled(items: Iterable[Any], stream: HashStream) -> list[Any]:
    """A Fisher–Yates shuffle driven by ``stream`` (reproducible on any Python)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = stream.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def cut_off(seats: Iterable[int], n: int) -> set[Link]:
    """The links that hold back every message of ``seats`` to the others (each still gets
    everyone's messages)."""
    return {(s, j) for s in seats for j in range(n) if j != s}


@dataclass(frozen=True)
class Partition:
    """A match in which some links stall past both timeouts (``rounds`` times) after
    ``start`` deliveries, then heal in an order drawn from ``seed``; with ``crashed``, that
    seat's peer stops for good at the same moment."""

    seed: bytes
    game: MeshGame
    players: int
    links: frozenset[Link]
    start: int
    rounds: int
    crashed: int | None = None

    def describe(self) -> str:
        crash = "" if self.crashed is None else f"seat {self.crashed} crashed, "
        return (f"{self.players} seats, {crash}links {sorted(self.links)} stalled from delivery "
                f"{self.start}, {self.rounds} round(s) of both timeouts")


def unreachable(links: set[Link], n: int, dead: Iterable[int] = ()) -> set[Link]:
    """The pairs (sender, receiver) of peers not in ``dead`` with no path between them when
    ``links`` stall: what the mesh still lacks once peers relay each other's messages (a peer
    asks every connection for what is overdue, network.md §5; a crashed peer relays nothing)."""
    gone = set(dead)
    alive = [s for s in range(n) if s not in gone]
    reach = {s: {s} for s in alive}
    for s in alive:
        frontier = [s]
        while frontier:
            a = frontier.pop()
            for b in alive:
                if b not in reach[s] and (a, b) not in links:
                    reach[s].add(b)
                    frontier.append(b)
    return {(s, r) for s in alive for r in alive if r not in reach[s]}


MODES: Final = ("cut-off", "split", "one-way", "one-way-closed", "crash")


def draw_partition(seed: bytes, game: MeshGame, mode: str = "cut-off") -> Partition:
    """A partition of a match of ``game`` drawn from ``seed``: 3–5 seats, and

    - ``cut-off``: whole seats cut off (a random proper subset of them: their messages reach
      nobody, they still get everyone's) — a host whose network goes away;
    - ``split``: every link (both ways) down with probability one half — the network splits;
    - ``one-way``: every link stalled one way with probability one half;
    - ``one-way-closed``: the same draws as ``one-way``, as network peers see them: the peer
      that hears nothing on a link closes it (``PeerConfig.link_silence``, well inside the
      turn timeout), and it cannot be dialled again while it carries one way only — so every
      stalled link is down both ways;
    - ``crash``: one seat's peer stops for good, and at the same moment every link between two
      others goes down (both ways) with probability one half.

    Since peers relay each other's messages (a peer asks every connection for what is
    overdue, network.md §5), a message is held back only where no path of working links leads;
    a pattern in which every message can go round is drawn again."""
    if mode not in MODES:
        raise ValueError(f"unknown partition mode {mode!r}")
    stream = HashStream(b"partition/" + seed)
    players = (3, 3, 4, 5)[stream.below(4)]
    if mode == "crash":
        crashed = stream.below(players)
        lost: frozenset[Link] = frozenset()
        while not lost:
            down: set[Link] = {(a, b) for a in range(players) for b in range(a + 1, players)
                               if crashed not in (a, b) and stream.below(2)}
            down |= {(b, a) for a, b in down}
            lost = frozenset(unreachable(down, players, [crashed]))
        return Partition(seed, game, players, lost, 5 + stream.below(115),
                         1 + stream.below(3), crashed)
    if mode != "cut-off":
        links: frozenset[Link] = frozenset()
        while not links:
            down = {(a, b) for a in range(players) for b in range(players)
                    if (a < b or mode.startswith("one-way")) and stream.below(2)}
            if mode == "split":
                down |= {(b, a) for a, b in down}
            links = frozenset(unreachable(down, players))
        if mode == "one-way-closed":
            links = frozenset(unreachable(down | {(b, a) for a, b in down}, players))
    else:
        count = 1 + stream.below(players - 1)
        cut = shuffled(range(players), stream)[:count]
        links = frozenset(cut_off(cut, players))
    return Partition(seed, game, players, links, 5 + stream.below(115), 1 + stream.below(3))


def play_partition(partition: Partition) -> Network:
    """Play ``partition`` to the end on peers that rebuild as network peers do; raises
    :class:`Stalled` (the network is in ``exc.args[1]``) if it does not finish."""
    net = Network(partition.players, partition.game, tag=b"partition/" + partition.seed,
                  rebuild=True)
    net.pump(limit=partition.start, partial=True)
    net.land_in_flight()
    if partition.crashed is not None:
        net.crash(partition.crashed)
    held = net.stall(set(partition.links), rounds=partition.rounds)
    net.heal(held, order=partition.seed)
    try:
        net.run_with_timeouts(limit=12)
    except Stalled as exc:
        raise Stalled(str(exc), net) from None
    return net


def take_in_order(header: SignedHeader, messages: Iterable[Message],
                  core: MatchCore | None = None) -> MatchCore:
    """A core (``core``, or a new one) that receives ``messages`` one by one, rebuilt from its
    feeds whenever it took a seat's message before a vote on it came in, or one past a proved
    fork — as the peer playing that seat would (LocalSeat.behind).  (A peer rebuilds only for
    its own seat; a core of no seat rebuilding for all stands for every peer at once: an honest
    peer that took another seat's message before a vote on it answers "present", so an order
    in which such a message is taken before a vote that stays unanswered is one no honest peer
    sees.)"""
    core = core or MatchCore(header)
    for message in messages:
        core.receive(message)
        if any(core.replaced_behind(s) for s in range(core.n)) or core.fork_behind():
            rebuilt = MatchCore(header)
            rebuilt.adopt(dict(enumerate(core.feeds)))
            core = rebuilt
    return core
