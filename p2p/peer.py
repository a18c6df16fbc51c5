"""One seat's peer: the protocol core on a real network (aioquic's model: the sans-I/O core
decides everything, this module only moves bytes, keeps time and writes files).

A :class:`MatchPeer` holds one TCP connection to every other seat (the lower seat dials, the
higher one listens; each side proves its identity key by signing the other's fresh challenge,
bound to the match id).  Every message the local seat owes is appended to the match file
**before** it is sent; every message received is verified (match, signature) before the core
sees it, and persisted.  A peer catches up by asking any peer for a feed from a sequence number
(WANT) — on every (re)connection and whenever a seat is overdue — and answers such requests
from what it holds (relaying other seats' signed messages).  Bad frames count against the
connection they came in on, never against the seat a forged message names; a connection over
:data:`BAD_FRAME_LIMIT` is closed.

A bot seat runs as its own process with ``python -m p2p`` (:mod:`p2p.run`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import socket
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.core import GameState
from p2p.catchup import catch_up
from p2p.config import BOT_THINK as BOT_THINK  # (re-exported: benchmarks and tests read it here)
from p2p.config import PeerConfig
from p2p.decide import AsyncDecider, BotDecider, Decider, bot_decider
from p2p.handshake import Watching, handshake
from p2p.links import Link, LinkClosed, NotAFrame, listen_socket, read_frame, set_nodelay
from p2p.store import MatchStore, StoreError
from p2p.watchers import Watchers
from p2p.wire import (
    Frame,
    FrameKind,
    FrameSplitter,
    parse_frame,
)
from protocol.crypto import public_key_bytes
from protocol.errors import BadMessage
from protocol.match.core import (
    DecisionPending,
    Event,
    ForkSuspected,
    HeadsDisputed,
    LocalSeat,
    MatchConfig,
    MatchCore,
    PeerMisbehaved,
    ResultSigned,
    SeatReplaced,
    SeatsOverdue,
    SeatTimedOut,
)
from protocol.wire.header import SignedHeader
from protocol.wire.messages import Kind, Message
from protocol.wire.transcript import read_transcript

log = logging.getLogger("cryptcrawl.p2p")
MAX_PUMPED = 10_000
"""More messages than any seat owes at once: a pump that signs this many in a row stops (the
match core would be skipping what its seat owes, and the loop would never end)."""

BAD_FRAME_LIMIT = 32
"""Bad frames a connection may send before it is closed."""
WANT_BATCH = 1024
"""Most messages sent in answer to one WANT."""
WANT_REPEAT = 1.0
"""Seconds before a peer asks one connection again for the same gap of a feed (an answer that
did not fill it is not asked for again at once: see MatchPeer._ask_gap)."""
FORK_ASK_LIMIT = 256
"""Most slots a peer asks the other versions of, per match (see MatchPeer._check_fork)."""
HANDSHAKE_TIMEOUT = 10.0
"""Seconds for a dial to connect, and again for the HELLO and PROOF exchange."""
READ_CHUNK = 256 * 1024
"""Most bytes taken from a connection at once (frames in them are handled together)."""
DECIDE_TURNS = 3
"""Turns of the event loop a bot's decision waits once its think time is over: the connections
the next poll finds readable are read (one turn), their frames taken (the next), then it
decides."""
class MatchPeer:
    """Plays one seat of one match over TCP until every live seat signed the result."""

    def __init__(self, header: SignedHeader, seat: int, key: Ed25519PrivateKey, seed: bytes,
                 store: MatchStore, addresses: list[tuple[str, int]], *,
                 decide: Decider | None = None, choose: AsyncDecider | None = None,
                 config: PeerConfig | None = None, sock: socket.socket | None = None,
                 on_event: Callable[[Event], None] | None = None) -> None:
        self.config = config or PeerConfig()
        self.timeouts = self.config.match_timeouts(header.header)
        self.core = MatchCore(header, config=MatchConfig.from_timeouts(
            self.timeouts, wait_at_dead_ends=True))
        self._shortest = self.core.config.shortest  # (a rebuilt core keeps the config)
        self.seat = seat
        self.key = key
        if public_key_bytes(key) != self.core.keys[seat]:
            raise StoreError(f"this identity is not seat {seat}'s key in the match header")
        self.store = store
        self.addresses = addresses
        self._decide = decide
        self._choose = choose
        self._choices: dict[str, str] = {}
        self._asking: str | None = None
        self._read_before: str | None = None  # the step a bot may decide in now (_decide_now)
        self._putting_off: str | None = None  # the step a bot's decision is put off for
        self.seed = seed
        self.local = LocalSeat(self.core, seat, key, seed, self._decide_now)
        self.local.remember = store.save_choices  # (before each COMMIT is persisted: §8.1)
        self.links: dict[int, Link] = {}
        self.watchers = Watchers(header, self.config.spectators)
        self.sock = sock
        self.server: asyncio.Server | None = None
        self.on_event = on_event
        self.events: list[Event] = []
        self.bad_frames = 0
        self.wake = asyncio.Event()
        self.done = asyncio.Event()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._resend: list[Message] = []
        self._closing = False
        self._fatal: Exception | None = None
        self._pump_wanted = False  # the run loop must pump (a decision came in)
        self._check: float | None = None  # when to look at the core's timer next
        self._idle = False  # ... which was when the core waited for nobody
        self._fork_asked: set[tuple[int, int]] = set()  # (seat, seq) asked for (_check_fork)
        # A resumed seat sends nothing new until it has learned where the match stands from a
        # peer (_catch_up): the others may have claimed it, or finished it, meanwhile.
        self.catching_up = False
        self.on_notice: Callable[[str], None] | None = None  # what a person is told meanwhile

    # ------------------------------------------------------------------ decisions

    def _decide_now(self, state: GameState[Any], seat: int) -> str:
        step = str(getattr(state.waiting, "step", ""))
        if self._decide is not None:
            if self._read_before != step and self._put_off(step):
                raise DecisionPending
            decide = self._decide
            if isinstance(decide, BotDecider) and decide.searches(state.game):
                # It thinks in its child process; its move then goes out as a bot's does.
                return decide.thought(state, seat, self._spawn, lambda error: self._fail(
                    error) if error else self._decide_later(step, 1))
            return decide(state, seat)
        if step in self._choices:
            return self._choices.pop(step)
        if self._choose is None:
            raise DecisionPending
        if self._asking != step:
            self._asking = step
            self._spawn(self._ask(state, seat, step))
        raise DecisionPending

    def _put_off(self, step: str) -> bool:
        """Put a bot's decision in ``step`` off for its think time, then until the frames
        already come in have been taken: the other seats' commitments may be among them, and
        the last seat to decide reveals at once instead of committing (protocol.md §7.1); and
        peers still resolving the step before are not slowed by this seat's next messages
        (network.md §6).  False when there is no event loop to come back from (the peer driven
        by hand, in a test): it decides now."""
        if self._putting_off != step:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return False
            self._putting_off = step
            think = self._think(step)
            if think > 0:
                loop.call_later(think, self._decide_later, step, DECIDE_TURNS)
            else:
                loop.call_soon(self._decide_later, step, DECIDE_TURNS)
        return True

    def _think(self, step: str) -> float:
        """How long the bot thinks in ``step``: from half to one and a half times its think
        time, drawn from a hash of the match, the seat and the step (public, reproducible), so
        that the bots at a table do not all decide at the same moment — and never more than a
        third of the shortest turn timeout."""
        if self.config.bot_think <= 0:
            return 0.0
        draw = hashlib.sha256(b"cryptcrawl/think\x00%s\x00%d\x00%s" % (
            self.core.match_id, self.seat, step.encode())).digest()
        think = self.config.bot_think * (0.5 + int.from_bytes(draw[:4], "big") / 2**32)
        return min(think, self._shortest / 3)

    def _decide_later(self, step: str, turns: int) -> None:
        """Let ``turns`` turns of the event loop pass (the connections found readable are read,
        and the frames read are taken), then let the bot decide in ``step``."""
        if turns > 1:
            asyncio.get_running_loop().call_soon(self._decide_later, step, turns - 1)
            return
        if self._closing or self.done.is_set() or step != self._putting_off:
            return  # (over, or a later step's decision is put off now: this one is stale)
        self._read_before = step
        try:
            self._pump()
        except Exception as exc:  # the disk, or a bug: run() raises it, as if it had pumped
            self._fail(exc)

    async def _ask(self, state: GameState[Any], seat: int, step: str) -> None:
        assert self._choose is not None
        choice = await self._choose(state, seat)
        self._choices[step] = choice
        self._asking = None
        # An answer is the person back at the table: a seat its bot took meanwhile is taken
        # back (RECLAIM) — the answer itself was for a step the bot has played.
        self.local.hold_reclaim = False
        self._pump_wanted = True
        self.wake.set()

    def offer(self, what: str) -> None:
        """Offer every other live seat a draw or a pause (protocol.md §7.7): the OFFER goes
        out where a message of this seat that drives the engine is next due, and the match
        waits for every answer.  :class:`LocalProtocolError` for a version 1 match or an
        unknown offer."""
        self.local.offer(what)
        self._pump_wanted = True
        self.wake.set()

    def resume(self) -> None:
        """End an agreed pause (protocol.md §7.7): a RESUME goes out if the match is paused."""
        self.local.resume()
        self._pump_wanted = True
        self.wake.set()

    def answered(self) -> None:
        """The person answered an offer (the seat's ``answering`` has a reply now)."""
        self._pump_wanted = True
        self.wake.set()

    async def leave(self, grace: float = 3.0, *, resign: bool = False) -> bool:
        """Leave the match for good (protocol.md §7.7): the local seat sends the openings it
        owes now, then its LEAVE (``resign``: its RESIGN, the game's resignation); the others
        replace it where its next message is due, with no timeout, and it never comes back.
        Waits (at most ``grace`` seconds) until the LEAVE is
        written to every link.  False if it could not be sent: a version 1 match, a match
        already over, or this seat's own messages still waiting to be taken (under a vote)."""
        if self.core.version < 2 or self.done.is_set():
            return False
        self.local.leave(resign=resign)
        deadline = time.monotonic() + grace
        while not self.local.left:
            self._pump()
            if self.local.left or self.done.is_set() or time.monotonic() >= deadline:
                break
            await asyncio.sleep(0.05)
        sent = self.local.sent
        if not (self.local.left and sent and sent[-1].kind in (Kind.LEAVE, Kind.RESIGN)):
            return False  # (not out in time, or the match ended first: nothing to leave)
        self.store.finish()  # (nothing more to open: `resume` no longer offers the match)
        for link in list(self.links.values()):  # (bounded: the link may be stalled)
            with contextlib.suppress(Exception):
                async with asyncio.timeout(max(0.1, deadline - time.monotonic())):
                    await link.writer.drain()
        return True

    # ------------------------------------------------------------------ resume

    def restore(self) -> None:
        """Reload the match file (after a crash): every feed, and this seat's own messages to
        send again (the same bytes)."""
        cut = self.store.cut_torn_tail()
        if cut:
            log.warning("cut a torn last record (%d bytes) off %s", cut, self.store.path)
        transcript = read_transcript(self.store.read())
        if transcript.header is None or transcript.header.match_id != self.core.match_id:
            raise StoreError(f"{self.store.path} is not this match's file")
        # Date what the match waits for from now: on the core's zero clock every seat would
        # look overdue at once and be voted absent before this peer could even catch up.
        self.core.now = time.monotonic()
        self.core.adopt(transcript.feeds)
        own = list(transcript.feeds[self.seat].messages) if self.seat in transcript.feeds else []
        self._resend = self.local.restore(own, self.store.choices())
        self._note(self.core.events)
        self.catching_up = not self.core.ending.ended

    # ------------------------------------------------------------------ running

    async def run(self) -> MatchCore:
        if self.sock is None:
            self.sock = listen_socket(self.addresses[self.seat][1])
        self.server = await asyncio.start_server(self._accept, sock=self.sock)
        for other in range(self.core.n):
            if other > self.seat:
                self._spawn(self._dial(other))
        self._spawn(self._keepalive())
        if self.catching_up:
            self._spawn(self._catch_up())
        self._pump()
        try:
            while not self.done.is_set():
                # (At most a shortest turn timeout at once: _moved may bring the check
                # forward meanwhile, never to less than that from now.)
                now = time.monotonic()
                timeout = max(0.0, min(self._next_check(), now + self._shortest) - now)
                self.wake.clear()
                # asyncio.timeout, not wait_for: on Python 3.11 wait_for swallows a
                # cancellation that lands as the event is set (the peer would play on).
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(timeout):
                        await self.wake.wait()
                # A message that moved the match was pumped where it arrived; pump here only
                # for a timer that fired or a decision that came in (a person's, say).
                if self._on_timer() or self._pump_wanted:
                    self._pump_wanted = False
                    self._pump()
            if self._fatal is None:
                await asyncio.sleep(self.config.linger)
        finally:
            await self.close()
        if self._fatal is not None:
            raise self._fatal
        return self.core

    async def close(self) -> None:
        self._closing = True
        self.watchers.close("the match is over")
        for link in list(self.links.values()):
            link.send(Frame(FrameKind.BYE, ("the match is over",)))
            link.close()
        if self.server is not None:
            self.server.close()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        if isinstance(self._decide, BotDecider):
            await self._decide.aclose()
        self.store.close()

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _note(self, events: list[Event]) -> None:
        for event in events:
            self.events.append(event)
            if (isinstance(event, SeatReplaced) and event.seat == self.seat
                    and self._asking is not None and event.reason.startswith("absent")):
                # A person who let the timeouts run out at the prompt is away: the bot plays
                # the seat until they answer (_ask), instead of the seat being taken back at
                # once and timed out again in every step — each a full wait for the others.
                self.local.hold_reclaim = True
            if self.on_event is not None:
                self.on_event(event)
            if isinstance(event, ResultSigned):
                self.store.finish()
                self.done.set()
                self.wake.set()

    def _next_check(self) -> float:
        """When to look at the core's timer next.  Working it out (who the match waits for)
        costs as much as taking a message, and the wait restarts with nearly every message, so
        it is not done per message: a timer the core named earlier is kept until it falls due,
        or until a shortest turn timeout after the match last moved (:meth:`_moved`: a wait
        that restarts ends no sooner than that, though it may end before the wait it replaced,
        whose seats may have owed a longer decision); and when the core waits for nobody, the
        peer looks again a shortest turn timeout from now — no wait that starts later can end
        sooner."""
        if self._check is None:
            deadline = self.core.get_timer()
            self._idle = deadline is None
            self._check = (deadline if deadline is not None
                           else time.monotonic() + self._shortest)
            due = self.local.answer_due()  # (an answer held back: protocol.md §8.2)
            if due is not None:
                self._check = min(self._check, due)
        return self._check

    def _moved(self, now: float) -> None:
        """The core took a message at ``now``: see :meth:`_next_check`."""
        if self._check is not None:
            self._check = min(self._check, now + self._shortest)

    def _on_timer(self) -> bool:
        """Handle a timer that fell due; False if none did."""
        if self._check is not None and time.monotonic() < self._check:
            return False
        self._check = None
        deadline = self.core.get_timer()
        now = time.monotonic()
        due = self.local.answer_due()
        if due is not None and now >= due and (deadline is None or now < deadline):
            # An answer the seat held back fell due (protocol.md §8.2): the voters went on, so
            # the feeds may replace a seat this core did not — look, as after both timeouts.
            self.core.now = now
            lagging = self.local.lagging()
            if lagging is not None:
                self._take_rebuilt(lagging)
                log.warning("an answer held back fell due and this peer's state was short of "
                            "what its file gives: rebuilt from the feeds")
            return True
        if deadline is None or now < deadline:
            return False
        events = self.core.handle_timer(now)
        if any(isinstance(event, SeatTimedOut) for event in events):
            lagging = self.local.lagging()
            if lagging is not None:
                self._take_rebuilt(lagging)
                log.warning("after both timeouts this peer's state was short of what its file "
                            "gives: rebuilt from the feeds")
        for event in events:
            if isinstance(event, SeatsOverdue):
                seats = set(event.seats)  # it may only be delayed: ask every peer
                if any(self.core.unfit(seat) for seat in seats):
                    # A message in hand that does not fit may need another seat's message
                    # this peer lacks (a delivery before its round's key message): ask for all.
                    seats.update(self.core.live_seats())
                for seat in sorted(seats):
                    self._want(seat)
        self._note(events)
        return True

    def _progress(self) -> tuple[int, int, int, int]:
        """What changes when the match moves (a message consumed, an event, a vote read) or
        this peer may now owe something: while a vote is open, a message taken into a feed
        even if not consumed yet (holding it is what lets this seat answer "present")."""
        core = self.core
        ballots = core.ballots
        if not ballots:
            return (core.taken, len(core.events), 0, 0)
        return (core.taken, len(core.events), sum(len(ballot) for ballot in ballots.values()),
                sum(len(feed.messages) for feed in core.feeds))

    def _rebuild(self) -> None:
        """This core took a message the feeds may not let it take where it did: this seat's
        own, before a vote on it came in (MatchCore.replaced_behind; the seat may have been
        replaced there, and then reclaims), or a seat's message past the point its feed was
        proved forked (MatchCore.fork_behind).  Rebuild the core from the feeds, as the
        verifier would, and take up this seat's feed again (LocalSeat.rebuilt)."""
        forks = dict(self.core.forks.forked)
        self.core.now = time.monotonic()
        self._take_rebuilt(self.local.rebuilt(), forks)
        if forks:
            log.warning("seat(s) %s forked their feeds at a message this peer had already "
                        "taken: rebuilt from the feeds", ", ".join(map(str, sorted(forks))))
        else:
            log.warning("seat %d was voted absent at a message it had already sent: rebuilt "
                        "from the feeds", self.seat)

    def _take_rebuilt(self, local: LocalSeat, forks: Mapping[int, int] | None = None) -> None:
        """Play on with ``local``, this seat on a core rebuilt from the feeds: the driver
        notes its seat's replacement (and those of forked seats), if the rebuilt core has it."""
        self.local = local
        self.core = core = local.core
        self._check = None  # (its timer is the new core's)
        self._note([e for e in core.events if isinstance(e, SeatReplaced)
                    and (e.seat == self.seat or e.seat in (forks or {}))])

    def _want(self, seat: int) -> None:
        data = Frame(FrameKind.WANT, (seat, len(self.core.feeds[seat].messages))).encode()
        for link in self.links.values():
            link.send_encoded(data)

    def _broadcast(self, message: Message) -> None:
        data = Frame(FrameKind.MSG, (message.encode(),)).encode()  # once for every link
        for link in self.links.values():
            link.send_encoded(data)

    async def _catch_up(self) -> None:
        """A resumed seat signs nothing new until it is caught up (:mod:`p2p.catchup`)."""
        await catch_up(linked=lambda: bool(self.links), ended=lambda: self.core.ending.ended,
                       going=lambda: self.catching_up and not self._closing,
                       notice_after=self.config.catch_up_notice, notice=self.on_notice)
        self.catching_up = False
        self._pump_wanted = True
        self.wake.set()

    def _pump(self) -> None:
        """Send what the local seat owes: persist first, then send, then feed it back."""
        if self._resend:
            for message in self._resend:
                self._broadcast(message)
            self._resend = []
        if self.catching_up:
            return  # (resumed: nothing new until the match's state is known: p2p.catchup)
        signed = 0
        while True:
            out = self.local.messages_to_send()
            self._note(self.local.take_events())
            if not out:
                self.watchers.update(self.core)
                return
            signed += len(out)
            if signed > MAX_PUMPED:  # (a core that skips what its seat owes: never loop on)
                log.error("seat %d signed %d messages in a row; stopped sending", self.seat,
                          signed)
                return
            for message in out:
                self.store.append(message)
                self._broadcast(message)
                # Just signed here: its signature needs no second check.
                now = time.monotonic()
                self._note(self.core.receive(message, now, verified=True))
                self._moved(now)

    # ------------------------------------------------------------------ connections

    async def _keepalive(self) -> None:
        """Every third of the link silence: PING on every connection, and close each one on
        which nothing arrived for the whole link silence.  A link that stalls one way (the
        other side's frames stopped, ours still go) is so closed both ways, and dialled again
        until it works both ways: every pair of seats then hears each other or neither does,
        through relays too — a network split, which the absent-seat rules handle better than
        links that carry one way only (rationale.md §4)."""
        silence = self.config.link_silence_for(self.timeouts)
        ping = Frame(FrameKind.PING, ()).encode()
        while not self._closing:
            await asyncio.sleep(silence / 3)
            now = time.monotonic()
            for link in list(self.links.values()):
                if now - link.heard > silence:
                    log.info("closing the connection of seat %d: nothing heard for %.1f s",
                             link.seat, now - link.heard)
                    link.close()
                else:
                    link.send_encoded(ping)

    async def _dial(self, other: int) -> None:
        delay = self.config.dial_retry
        while not self._closing and not self.done.is_set():
            host, port = self.addresses[other]
            try:
                # (Bounded: an unanswered SYN would otherwise wait about two minutes, and a
                # link that heals would be dialled again that late.)
                async with asyncio.timeout(HANDSHAKE_TIMEOUT):
                    reader, writer = await asyncio.open_connection(host, port)
            except (OSError, TimeoutError):
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
                continue
            delay = self.config.dial_retry
            await self._serve(reader, writer, expect=other)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        # Tracked like the dialled links, so close() ends it; and a cancelled connection
        # callback ends quietly (asyncio 3.11 logs a CancelledError traceback otherwise).
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        try:
            await self._serve(reader, writer, expect=None)
        except asyncio.CancelledError:
            writer.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                     expect: int | None) -> None:
        set_nodelay(writer)
        try:
            seat = await asyncio.wait_for(handshake(
                reader, writer, match_id=self.core.match_id, seat=self.seat,
                keys=self.core.keys, key=self.key, expect=expect), HANDSHAKE_TIMEOUT)
        except Watching as spectator:
            await self.watchers.serve(reader, writer, spectator.frame)
            return
        except (BadMessage, LinkClosed, TimeoutError, OSError) as exc:
            log.info("refused a connection: %s", exc)
            writer.close()
            return
        old = self.links.get(seat)
        if old is not None:
            old.close()
        link = Link(seat, reader, writer, heard=time.monotonic())
        self.links[seat] = link
        # Catch up both ways: ask for every feed from what we hold.
        for s in range(self.core.n):
            link.send(Frame(FrameKind.WANT, (s, len(self.core.feeds[s].messages))))
        # Read what the socket has and take every frame in it, instead of awaiting each frame's
        # head and body (two suspensions a frame): frames come in bursts, a phase at a time.
        splitter = FrameSplitter()
        try:
            while not self._closing:
                try:
                    data = await reader.read(READ_CHUNK)
                except ConnectionError:
                    break
                if not data:
                    break
                link.heard = time.monotonic()
                try:
                    payloads = splitter.feed(data)
                except BadMessage as exc:  # an oversized length: the stream is lost
                    log.info("closing the connection of seat %d: %s", seat, exc)
                    break
                if not self._take_frames(link, payloads):
                    break
        finally:
            if self.links.get(seat) is link:
                del self.links[seat]
            link.close()

    def _take_frames(self, link: Link, payloads: list[bytes]) -> bool:
        """Handle frames read from ``link``; False when the connection must close."""
        for payload in payloads:
            if self._closing:
                return False
            try:
                frame = parse_frame(payload)
            except BadMessage as exc:
                self._bad(link, str(exc))
                continue
            try:
                self._on_frame(link, frame)
            except StoreError as exc:  # the disk: nothing more can be kept, so stop
                self._fail(exc)
                return False
            if link.bad > BAD_FRAME_LIMIT:
                log.warning("closing the connection of seat %d: %d bad frames", link.seat,
                            link.bad)
                return False
        return True

    def _fail(self, exc: Exception) -> None:
        """Stop the peer: ``run()`` raises ``exc`` once it has closed everything."""
        if self._fatal is None:
            self._fatal = exc
        self.done.set()
        self.wake.set()

    def _bad(self, link: Link, reason: str) -> None:
        link.bad += 1
        self.bad_frames += 1
        if reason not in link.reasons and len(link.reasons) < 16:
            link.reasons.add(reason)
            log.info("dropped a frame from the connection of seat %d: %s", link.seat, reason)

    def _on_frame(self, link: Link, frame: Frame) -> None:
        if frame.kind is FrameKind.MSG:
            self._on_message(link, frame.fields[0])
        elif frame.kind is FrameKind.WANT:
            seat, start = frame.fields
            if not 0 <= seat < self.core.n:
                self._bad(link, f"WANT for seat {seat}")
                return
            for message in self.core.feeds[seat].messages[start:start + WANT_BATCH]:
                link.send(Frame(FrameKind.MSG, (message.encode(),)))
        elif frame.kind in (FrameKind.BYE, FrameKind.PING):
            return
        else:
            self._bad(link, f"{frame.kind.name} during a match")

    def _on_message(self, link: Link, data: bytes) -> None:
        try:
            message = Message.decode(data, self.core.version)
        except BadMessage as exc:
            self._bad(link, str(exc))
            return
        core = self.core
        if message.match_id != core.match_id:
            self._bad(link, "a message of another match")
            return
        if not 0 <= message.seat < core.n:
            self._bad(link, f"a message from seat {message.seat}")
            return
        feed = core.feeds[message.seat]
        same = feed.at(message.seq)
        if same is not None and same.encode() == message.encode():
            return  # a duplicate (the same bytes, signature included): harmless
        try:
            message.verify(core.keys[message.seat])
        except BadMessage as exc:
            self._bad(link, str(exc))
            return
        if message.seat == self.seat:
            return  # our own, from before a restart: our file has it
        if 0 < message.seq <= feed.next_seq:
            self._check_fork(message)
        before = self._progress()
        held, forks = feed.next_seq, len(core.equivocations)
        now = time.monotonic()
        events = core.receive(message, now, verified=True)
        self._moved(now)
        # Persist what the feed took: the messages that now chain (this one and any buffered
        # successors it unblocked), or the second version of an equivocation (the proof).  A
        # message kept aside, a duplicate of one kept aside, or one that breaks its sender's
        # chain is not stored: the file holds each feed once, and spam cannot grow it.  (A
        # broken chain is not a bad frame of the link: an honest relay may forward a signed
        # message that does not chain here yet — the seat that signed it is blamed instead.)
        for chained in feed.chain[held:]:
            self.store.append(chained)
        if len(core.equivocations) > forks:
            self.store.append(message)
        if self.local.behind():
            self._rebuild()
            core = self.core
        for event in events:
            if isinstance(event, PeerMisbehaved) and len(event.evidence) == 2 and (
                    event.evidence[0].seq == event.evidence[1].seq):
                for proof in event.evidence:  # equivocation: everyone must see both
                    self._broadcast(proof)
            elif isinstance(event, ForkSuspected | HeadsDisputed):
                for commit in event.held:  # so that the two versions of a fork meet
                    self._broadcast(commit)
        self._note(events)
        self._ask_gap(link, message.seat)
        if self._progress() != before or core is not self.core:
            if self._idle:  # it may wait for someone now (a seat blocked, say): look again
                self._check = None
                self.wake.set()
            self._pump()  # the match moved: maybe something to send

    def _ask_gap(self, link: Link, seat: int) -> None:
        """Ask ``link`` for the messages ``seat``'s feed lacks before those it holds aside —
        not again for the same gap within WANT_REPEAT seconds, and never past the point where
        the feed was proved forked (its messages from there on never count; the other
        branch's, which the link answers with, do not chain here, and each would ask again:
        a storm of WANTs and answers that starved the match)."""
        missing = self.core.feeds[seat].missing()
        if not missing or self._past_fork(seat, missing.start):
            return
        now = time.monotonic()
        last = link.asked.get(seat)
        if last is not None and last[0] == missing.start and now - last[1] < WANT_REPEAT:
            return
        link.asked[seat] = (missing.start, now)
        link.send(Frame(FrameKind.WANT, (seat, missing.start)))

    def _past_fork(self, seat: int, seq: int) -> bool:
        """Is slot ``seq`` of ``seat``'s feed at or past the point its feed was proved forked?"""
        fork = self.core.forks.forked.get(seat)
        return fork is not None and seq >= fork

    def _check_fork(self, message: Message) -> None:
        """``message`` (signed by its seat) names as ``prev`` another version of the message
        before it than the one this peer holds: its seat forked its feed.  The feed refuses it
        (a broken chain) and, without the other version, nobody could prove the fork — and
        this peer may be stuck behind it (waiting, say, for a delivery that chains on the
        version it does not hold).  Ask every peer for theirs: with the one held here it is
        the proof (protocol.md §7.9).  (Not only the signer's link: a forker need not answer.)
        Once per message, and a bounded number of times in all."""
        seat, seq = message.seat, message.seq - 1
        held = self.core.feeds[seat].at(seq)  # (held: the caller checked seq < next_seq)
        if (held is None or held.hash == message.prev or (seat, seq) in self._fork_asked
                or len(self._fork_asked) >= FORK_ASK_LIMIT or self._past_fork(seat, seq)):
            return
        self._fork_asked.add((seat, seq))
        log.warning("seat %d signed a message on another version of its message %d than this "
                    "peer holds: asking every peer for theirs", seat, seq)
        want = Frame(FrameKind.WANT, (seat, seq)).encode()
        for link in self.links.values():
            link.send_encoded(want)


__all__ = ["BAD_FRAME_LIMIT", "AsyncDecider", "Decider", "Link", "LinkClosed", "MatchPeer",
           "NotAFrame", "PeerConfig", "bot_decider", "listen_socket", "read_frame",
           "set_nodelay"]
