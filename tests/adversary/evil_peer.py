"""A scripted malicious peer: a real peer process that cheats the way its script says.

Run like ``python -m p2p`` (the same options, ``join`` only), plus the script::

    python -m tests.adversary.evil_peer --data-dir D --script NAME [--report FILE]
        [--timeouts Q,N,L,S --linger S --max-seconds S] join 127.0.0.1:PORT

(``--timeouts`` replaces the header's timeouts for this peer, as ``python -m p2p --timeouts``.)

It sits down through the ordinary lobby and plays an ordinary :class:`~p2p.peer.MatchPeer`
(its own identity key, data directory, match file and connections), except that every message
its local seat owes passes through the script first (:meth:`Script.outgoing`), every frame it
receives is shown to the script (:meth:`Script.on_frame`), and the script may run one bounded
side task (:meth:`Script.side`).  What it did is written to ``--report`` (JSON, rewritten at
every step so it survives a kill) for the test to compare with what the honest peers recorded.

Every sending loop here is bounded in count and time, and every connection it makes goes to the
addresses the lobby gave it (loopback in the tests).  ``--max-seconds`` bounds the whole process.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import hashlib
import json
import logging
import os
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from protocol.match.core import LocalSeat, MatchCore
from protocol.wire.delivery import seal_delivery
from protocol.wire.header import PROTOCOL_VERSION, Header, Seat, SignedHeader, sign_header
from protocol.wire.messages import (
    AbsentBody,
    ActBody,
    ChanceCommitBody,
    CommitBody,
    DeliveryBody,
    EndBody,
    KeyReleaseBody,
    Kind,
    Message,
    RevealBody,
    revealed_secrets,
    sign_message,
)

from engine.core import Chance, ChanceEvent, Visibility
from engine.raiders.actions import CARDS_IN_HAND
from engine.stream import sample_index
from p2p.lobby import LobbyError, join_table
from p2p.peer import Link, LinkClosed, MatchPeer, PeerConfig, bot_decider, listen_socket, read_frame
from p2p.run import timeouts_override
from p2p.store import MatchStore, StoreError, load_identity
from p2p.wire import LINK_VERSION, MAX_FRAME, Frame, FrameKind, handshake_payload
from protocol.crypto import (
    H,
    chance_outcome,
    commit_set_digest,
    play_commitment,
    public_key_bytes,
)
from protocol.errors import BadMessage

log = logging.getLogger("cryptcrawl.evil")

MAX_SECONDS = 120.0
"""Default bound on the whole process (a test kills it earlier anyway)."""


# --------------------------------------------------------------------------- the peer


class EvilPeer(MatchPeer):
    """A :class:`MatchPeer` whose outgoing messages and incoming frames pass through a script."""

    def __init__(self, *args: Any, script: Script, report: Path | None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.script = script
        self.report_path = report
        self.report: dict[str, Any] = {"script": script.name, "seat": self.seat,
                                       "match": self.core.match_id.hex(), "actions": []}
        self._side: asyncio.Task[Any] | None = None
        self.save()

    # -- the report

    def note(self, **what: Any) -> None:
        """Record one thing the script did (and save the report at once)."""
        self.report["actions"].append(what)
        self.save()

    def save(self) -> None:
        if self.report_path is None:
            return
        tmp = self.report_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.report, indent=1, sort_keys=True))
        tmp.replace(self.report_path)

    # -- sending, as the script decides

    def send_honestly(self, message: Message) -> None:
        """What an honest peer does: persist, send to every link, feed back to its own core."""
        self.store.append(message)
        self._broadcast(message)
        self._note(self.core.receive(message, time.monotonic()))

    def keep(self, message: Message) -> None:
        """Persist and feed back to its own core, but send to nobody (yet)."""
        self.store.append(message)
        self._note(self.core.receive(message, time.monotonic()))

    def send_to(self, message: Message, seats: set[int] | list[int]) -> None:
        frame = Frame(FrameKind.MSG, (message.encode(),))
        for seat, link in list(self.links.items()):
            if seat in seats:
                link.send(frame)

    def resign(self, kind: Kind, body: Any) -> Message:
        """Replace the message the local seat just signed by another one at the same place."""
        self.local.sent.pop()
        return self.local.sign_next(kind, body)

    def forge(self, *, seq: int, prev: bytes, kind: Kind, state: bytes, body: Any,
              match_id: bytes | None = None, seat: int | None = None,
              key: Ed25519PrivateKey | None = None,
              heads: tuple[bytes, ...] | None = None) -> Message:
        """A message signed by this seat's key (or ``key``) with any envelope it likes (the
        heads an honest seat would put there, unless given)."""
        if heads is None:
            heads = self.core.vouching.expected(self.seat, kind, body)
        return sign_message(key or self.key, match_id=match_id or self.core.match_id,
                            seat=self.seat if seat is None else seat, seq=seq, prev=prev,
                            kind=kind, state=state, body=body, heads=heads)

    # -- hooks into MatchPeer

    def _pump(self) -> None:
        if self._resend:
            for message in self._resend:
                self._broadcast(message)
            self._resend = []
        while True:
            out = self.local.messages_to_send()
            self._note(self.local.take_events())
            if not out:
                break
            if any(self.script.outgoing(self, message) is False for message in out):
                break  # the script holds back: nothing more until something arrives
        if self._side is None and self.script.wants_side(self):
            self._side = asyncio.ensure_future(self._run_side())
            self._tasks.add(self._side)
            self._side.add_done_callback(self._tasks.discard)

    async def _run_side(self) -> None:
        try:
            async with asyncio.timeout(self.script.side_seconds):
                await self.script.side(self)
        except TimeoutError:
            self.note(side="timed out")
        except Exception as exc:  # the report says so; the peer plays on
            self.note(side=f"failed: {type(exc).__name__}: {exc}")

    def _on_timer(self) -> bool:
        fired = super()._on_timer()
        core = self.core  # where it stands, for a test diagnosing a stall
        self.report["state"] = {
            "where": core.where(), "cursor": list(core.cursor),
            "feeds": [len(f.messages) for f in core.feeds], "absent": sorted(core.absent),
            "reclaims": sorted(core.seats.reclaims), "owing": list(core.owing()),
            "expects": [None if (k := core.expects(s)) is None else k.name
                        for s in range(core.n)],
            "sent": len(self.local.sent), "links": sorted(self.links)}
        self.save()
        return fired

    def _on_frame(self, link: Link, frame: Frame) -> None:
        if self.script.on_frame(self, link, frame):
            return  # swallowed
        super()._on_frame(link, frame)


# --------------------------------------------------------------------------- scripts


class Script:
    """Honest by default; each subclass cheats in one way."""

    name: ClassVar[str] = "honest"
    side_seconds: ClassVar[float] = 20.0

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.done = False

    def outgoing(self, peer: EvilPeer, message: Message) -> bool | None:
        """Handle one message the local seat owes; False: send nothing more for now."""
        peer.send_honestly(message)
        return None

    def on_frame(self, peer: EvilPeer, link: Link, frame: Frame) -> bool:
        """See every frame received; True swallows it (it is not handled)."""
        return False

    def wants_side(self, peer: EvilPeer) -> bool:
        return False

    async def side(self, peer: EvilPeer) -> None:
        pass


def _all_linked(peer: EvilPeer) -> bool:
    return set(peer.links) == set(range(peer.core.n)) - {peer.seat}


class EquivocateCommit(Script):
    """A consistent fork: sign two different COMMITs for one sequence number — its real play
    to the lowest other seat (and its own file), another legal play to every other seat — and
    then a REVEAL on each branch that opens that branch's commitment, with a commitment set
    that matches what that branch's peers hold.  Each honest peer then holds one chain that
    checks; only the two versions side by side prove the fork."""

    name = "equivocate-commit"

    def __init__(self, args: argparse.Namespace) -> None:
        super().__init__(args)
        self.fork: tuple[Message, str, bytes, list[int]] | None = None

    def outgoing(self, peer: EvilPeer, message: Message) -> None:
        if self.fork is not None and message.kind is Kind.REVEAL:
            return self.reveal_both(peer, message)
        if self.done or message.kind is not Kind.COMMIT or not _all_linked(peer):
            return peer.send_honestly(message)
        body = message.content
        assert isinstance(body, CommitBody)
        real, _salt = peer.local.pending_reveal[body.step]
        state = peer.core.state
        others = [state.format_action(a) for a in state.legal_actions(peer.seat)
                  if state.format_action(a) != real and
                  state.parse_action(peer.seat, state.format_action(a)).kind == "play"]
        if not others:
            return peer.send_honestly(message)
        self.done = True
        action, salt = others[0], os.urandom(32)
        commitment = play_commitment(peer.core.match_id, body.step, peer.core.keys[peer.seat],
                                     action, salt)
        other = peer.forge(seq=message.seq, prev=message.prev, kind=Kind.COMMIT,
                           state=message.state, body=CommitBody(body.step, commitment))
        first, *rest = sorted(peer.links)
        peer.keep(message)
        peer.send_to(message, {first})
        peer.send_to(other, set(rest))
        self.fork = (other, action, salt, rest)
        peer.note(what="equivocated", step=body.step, seq=message.seq, real_to=[first],
                  fork_to=rest, real=message.hash.hex(), fork=other.hash.hex(), played=real,
                  forked=action)

    def reveal_both(self, peer: EvilPeer, message: Message) -> None:
        assert self.fork is not None
        other, action, salt, rest = self.fork
        self.fork = None
        body = message.content
        fork_body = other.content
        assert isinstance(body, RevealBody) and isinstance(fork_body, CommitBody)
        step = peer.core.step
        assert step is not None
        held = [step.commitments.get(s) for s in range(peer.core.n)]
        held[peer.seat] = fork_body.commitment
        fork_reveal = peer.forge(seq=message.seq, prev=other.hash, kind=Kind.REVEAL,
                                 state=message.state,
                                 body=RevealBody(body.step, action, salt, commit_set_digest(
                                     peer.core.match_id, body.step, held)))
        peer.keep(message)
        peer.send_to(message, set(peer.links) - set(rest))
        peer.send_to(fork_reveal, set(rest))
        peer.note(what="revealed on both branches", seq=message.seq)


class _RewriteReveal(Script):
    def new_reveal(self, peer: EvilPeer, body: RevealBody) -> RevealBody | None:
        raise NotImplementedError

    def outgoing(self, peer: EvilPeer, message: Message) -> None:
        step = peer.core.step
        if not self.done and message.kind is Kind.REVEAL and step is not None and (
                peer.seat in step.commitments):  # (a direct reveal opens no earlier COMMIT)
            body = message.content
            assert isinstance(body, RevealBody)
            new = self.new_reveal(peer, body)
            if new is not None:
                self.done = True
                message = peer.resign(Kind.REVEAL, new)
                peer.note(what=self.name, step=body.step, seq=message.seq,
                          committed=body.action, revealed=new.action)
        peer.send_honestly(message)


class RevealOther(_RewriteReveal):
    """Reveal another legal play than the one committed to (with the real salt)."""

    name = "reveal-other"

    def new_reveal(self, peer: EvilPeer, body: RevealBody) -> RevealBody | None:
        state = peer.core.state
        others = [state.format_action(a) for a in state.legal_actions(peer.seat)
                  if state.format_action(a) != body.action]
        if not others:
            return None
        return RevealBody(body.step, others[0], body.salt, body.commit_set)


class WrongSalt(_RewriteReveal):
    """Reveal the committed play with another salt."""

    name = "wrong-salt"

    def new_reveal(self, peer: EvilPeer, body: RevealBody) -> RevealBody | None:
        return RevealBody(body.step, body.action, os.urandom(32), body.commit_set)


class IllegalAction(Script):
    """Commit to a play the rules forbid (a card it cannot play here), then reveal it."""

    name = "illegal-action"

    def outgoing(self, peer: EvilPeer, message: Message) -> None:
        if not self.done and message.kind is Kind.COMMIT:
            body = message.content
            assert isinstance(body, CommitBody)
            state = peer.core.state
            legal = {state.format_action(a) for a in state.legal_actions(peer.seat)}
            illegal = [f"play {c}" for c in CARDS_IN_HAND if f"play {c}" not in legal]
            if illegal:
                self.done = True
                action = illegal[0]
                salt = peer.local.secrets.salt_for(body.step)
                peer.local.pending_reveal[body.step] = (action, salt)
                commitment = play_commitment(peer.core.match_id, body.step,
                                             peer.core.keys[peer.seat], action, salt)
                message = peer.resign(Kind.COMMIT, CommitBody(body.step, commitment))
                peer.note(what="committed to an illegal play", step=body.step, action=action,
                          seq=message.seq)
        peer.send_honestly(message)


class Withhold(Script):
    """Go silent (stay connected, answer catch-up, send nothing of its own) from the first
    message of the kind that ``stop`` picks on."""

    name = "withhold-reveal"

    def stop(self, peer: EvilPeer, message: Message) -> bool:
        return message.kind is Kind.REVEAL

    def outgoing(self, peer: EvilPeer, message: Message) -> None:
        if not self.done and self.stop(peer, message):
            self.done = True
            secrets = revealed_secrets(message.content)
            peer.note(what="went silent", kind=message.kind.name, seq=message.seq,
                      where=peer.core.where(), event=secrets[0][0] if secrets else None)
        if self.done:
            return  # never persisted, never sent: the local seat waits for it forever
        peer.send_honestly(message)


class WithholdHidden(Withhold):
    """Go silent instead of revealing its secret for a face-down room — as it is turned, or
    with the step before it (an early turn: its REVEAL carries the secret, so it withholds its
    play as well)."""

    name = "withhold-hidden"

    def stop(self, peer: EvilPeer, message: Message) -> bool:
        secrets = revealed_secrets(message.content)
        return bool(secrets) and posed_hidden(peer.core, secrets[0][0]) is not None


class NeverFits(Script):
    """In place of its first commitment, send a key release for a torch round that never opens
    — a message every peer holds and none can take — and then nothing more."""

    name = "never-fits"

    def outgoing(self, peer: EvilPeer, message: Message) -> None:
        if self.done:
            return  # silent from then on (votes included)
        if message.kind is Kind.COMMIT:
            self.done = True
            message = peer.resign(Kind.KEY_RELEASE,
                                  KeyReleaseBody(f"torch.{peer.seat}.nothing", bytes(32)))
            peer.note(what="went silent", kind=message.kind.name, seq=message.seq,
                      where=peer.core.where(), event=None)
        peer.send_honestly(message)


class LyingDelivery(Script):
    """Answer another seat's torch with secrets that are not the ones it committed to (sealed
    and signed properly, so the lie is provable)."""

    name = "lying-delivery"

    def outgoing(self, peer: EvilPeer, message: Message) -> None:
        if not self.done and message.kind is Kind.DELIVERY:
            body = message.content
            assert isinstance(body, DeliveryBody)
            r = peer.core.rounds[body.round]
            events = r.deliverers[peer.seat]
            lies = tuple((e, os.urandom(32)) for e in events)
            sealed = seal_delivery(peer.key, r.public_key, match_id=peer.core.match_id,
                                   receiver=r.seat, deliverer=peer.seat, secrets=lies)
            self.done = True
            message = peer.resign(Kind.DELIVERY, dataclasses.replace(body, sealed=sealed))
            peer.note(what="lied in a delivery", round=body.round, torch=r.seat,
                      events=list(events), seq=message.seq)
        peer.send_honestly(message)


class FalseEnd(Script):
    """Sign the right final state but another transcript digest in END (a false result)."""

    name = "false-end"

    def outgoing(self, peer: EvilPeer, message: Message) -> None:
        if not self.done and message.kind is Kind.END:
            body = message.content
            assert isinstance(body, EndBody)
            self.done = True
            message = peer.resign(Kind.END, EndBody(body.final_state, os.urandom(32)))
            peer.note(what="signed a false result", seq=message.seq)
        peer.send_honestly(message)


def phantom_messages(key: Ed25519PrivateKey, seat: int, players: int,
                     limit: int = 60) -> list[Message]:
    """Messages validly signed by ``key`` in *another* match: a private match of ``players``
    seats (``key`` at ``seat``, fresh keys elsewhere) played here, in memory, by random bots."""
    keys = [Ed25519PrivateKey.generate() for _ in range(players)]
    keys[seat] = key
    header = Header(game="raiders", options=(("players", players), ("variant", "basic")),
                    protocol=PROTOCOL_VERSION, engine="raiders/1", sampler="sha256-ctr/v1",
                    seats=tuple(Seat(f"P{i}", public_key_bytes(k)) for i, k in enumerate(keys)),
                    nonces=tuple(os.urandom(32) for _ in range(players)))
    signed = SignedHeader(header, tuple(sign_header(k, header) for k in keys))
    cores = [MatchCore(signed) for _ in range(players)]
    seats = [LocalSeat(cores[i], i, keys[i], os.urandom(32), bot_decider("random", os.urandom(32)))
             for i in range(players)]
    mine: list[Message] = []
    for _ in range(5000):  # bounded: stop once enough of ours are signed
        sent = [m for s in seats for m in s.messages_to_send()]
        if not sent or len(mine) >= limit:
            break
        for message in sent:
            for core in cores:
                core.receive(message)
            if message.seat == seat:
                mine.append(message)
    return mine


class ReplayOtherMatch(Script):
    """Replay, to every seat, messages it validly signed in another match (same key, same
    seat number), then play on honestly."""

    name = "replay-other-match"

    def wants_side(self, peer: EvilPeer) -> bool:
        return _all_linked(peer)

    async def side(self, peer: EvilPeer) -> None:
        old = await asyncio.to_thread(phantom_messages, peer.key, peer.seat, peer.core.n)
        sent = 0
        for message in old:  # at most 60, each once to each seat
            peer.send_to(message, set(peer.links))
            sent += 1
            await asyncio.sleep(0.005)
        peer.note(what="replayed messages of another match", count=sent,
                  other_match=old[0].match_id.hex() if old else "")


class Flood(Script):
    """Flood every link with malformed, oversized, forged, foreign and duplicate frames, in
    bounded bursts, while playing honestly."""

    name = "flood"
    side_seconds = 15.0
    BURSTS = 6

    def wants_side(self, peer: EvilPeer) -> bool:
        return _all_linked(peer)

    def junk(self, peer: EvilPeer, rng: random.Random) -> list[bytes]:
        """One burst's frames (length-prefixed bytes)."""
        core = peer.core
        own = list(core.feeds[peer.seat].messages)
        other = next(s for s in range(core.n) if s != peer.seat)
        frames: list[bytes] = []

        def framed(payload: bytes) -> bytes:
            return len(payload).to_bytes(4, "big") + payload

        for _ in range(10):
            frames.append(framed(rng.randbytes(rng.randrange(1, 200))))  # not msgpack
        frames.append(framed(b""))  # an empty frame
        frames.append(framed(b"\x92\x63\x01"))  # unknown frame kind
        frames.append(Frame(FrameKind.MSG, (rng.randbytes(300),)).encode())  # not a message
        frames.append(Frame(FrameKind.WANT, (200, 0)).encode())  # no such seat
        frames.append(Frame(FrameKind.JOIN, (1, "x", b"k" * 32, b"n" * 32, 1, b"")).encode())
        # Forged: "from" another seat, signed by this seat's key (a bad signature there).
        head = core.feeds[other]
        forged = peer.forge(seq=len(head.messages), prev=head.head, kind=Kind.ABSENT,
                            state=bytes(32), body=AbsentBody(peer.seat, 0, 1), seat=other)
        frames.append(Frame(FrameKind.MSG, (forged.encode(),)).encode())
        # Near the 64 KiB cap, but a valid frame of nothing useful.
        frames.append(Frame(FrameKind.MSG, (rng.randbytes(65_000),)).encode())
        # Valid duplicates of its own messages (harmless, and not "bad").
        for message in own[-20:]:
            frames.extend([Frame(FrameKind.MSG, (message.encode(),)).encode()] * 3)
        rng.shuffle(frames)
        return frames

    async def side(self, peer: EvilPeer) -> None:
        rng = random.Random(peer.core.match_id)
        record = {"what": "flooded", "frames": 0, "bursts": 0, "oversized": 0}
        peer.report["actions"].append(record)
        for burst in range(self.BURSTS):
            for link in list(peer.links.values()):
                frames = self.junk(peer, rng)
                if burst == self.BURSTS - 1:
                    # Last: a length prefix over the cap (the other side must hang up).
                    frames.append((MAX_FRAME + 1).to_bytes(4, "big") + b"\x00" * 16)
                    record["oversized"] += 1
                for data in frames:
                    if link.writer.is_closing():
                        break
                    link.writer.write(data)
                    record["frames"] += 1
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await link.writer.drain()
            record["bursts"] = burst + 1
            peer.save()
            await asyncio.sleep(0.05)


class ChainSpam(Script):
    """Send validly signed messages that do not chain (the next sequence number, a wrong
    ``prev``) — many of them — then play on honestly."""

    name = "chain-spam"
    COUNT = 300

    def wants_side(self, peer: EvilPeer) -> bool:
        return _all_linked(peer)

    async def side(self, peer: EvilPeer) -> None:
        record = {"what": "sent messages that do not chain", "count": 0}
        peer.report["actions"].append(record)
        for i in range(self.COUNT):
            seq = len(peer.local.sent)
            bogus = peer.forge(seq=seq, prev=hashlib.sha256(b"%d" % i).digest(),
                               kind=Kind.ABSENT, state=bytes(32),
                               body=AbsentBody((peer.seat + 1) % peer.core.n, 0, 0))
            peer.send_to(bogus, set(peer.links))
            record["count"] += 1
            if i % 20 == 19:
                peer.save()
                await asyncio.sleep(0.01)
        peer.save()


class Impersonate(Script):
    """Dial every other seat claiming to be yet another seat (that seat's real key in HELLO,
    but no way to prove it), and also claiming another seat's number with its own key; plays
    honestly meanwhile.  The report says what each attempt got back."""

    name = "impersonate"

    def wants_side(self, peer: EvilPeer) -> bool:
        return _all_linked(peer)

    async def side(self, peer: EvilPeer) -> None:
        core = peer.core
        attempts: list[dict[str, Any]] = []
        peer.report["actions"].append({"what": "impersonated", "attempts": attempts})
        for target in range(core.n):
            if target == peer.seat:
                continue
            host, port = peer.addresses[target]
            for claimed in range(core.n):
                if claimed in (target, peer.seat):
                    continue
                for key in (core.keys[claimed], core.keys[peer.seat]):
                    got = await self.attempt(host, port, core.match_id, claimed, key,
                                             core.keys[target], peer.key)
                    attempts.append({"target": target, "claimed": claimed,
                                     "key": "theirs" if key == core.keys[claimed] else "mine",
                                     "answer": got})
                    peer.save()

    @staticmethod
    async def attempt(host: str, port: int, match_id: bytes, claimed: int, key: bytes,
                      target_key: bytes, mine: Ed25519PrivateKey) -> list[str]:
        """One connection: HELLO as ``claimed`` with ``key``, then a PROOF signed by our own
        key; the kinds of every frame that came back before the other side hung up."""
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), 5)
        kinds: list[str] = []
        try:
            writer.write(Frame(FrameKind.HELLO, (LINK_VERSION, match_id, claimed, key,
                                                 os.urandom(32))).encode())
            while True:
                try:
                    frame = await asyncio.wait_for(read_frame(reader), 5)
                except (LinkClosed, BadMessage, TimeoutError):
                    break
                kinds.append(frame.kind.name)
                if frame.kind is FrameKind.HELLO:
                    proof = mine.sign(handshake_payload(match_id, frame.fields[4], key,
                                                        target_key))
                    writer.write(Frame(FrameKind.PROOF, (proof,)).encode())
                if len(kinds) > 8:
                    kinds.append("...still open")
                    break
        finally:
            writer.close()
        return kinds


class VoteAbsent(Script):
    """Vote ``--target`` absent while it is there and playing: at the first simultaneous step,
    hold back its own COMMIT (or the REVEAL in its place, protocol.md §7.1) — and a free action
    (a torch) before it — until it holds the
    target's COMMIT, then vote the target absent at the target's next message, then go on.
    That message cannot exist before a colluder acts: a REVEAL waits for its commitment, a
    DELIVERY for its torch (which comes after its vote; a torch played before the vote let the
    target deliver before the other colluder's vote arrived, and the two colluders' cores
    parted).  Two such colluders therefore vote at the same point, whatever the timing.  A
    colluder never says "present" for the target."""

    name = "vote-absent"

    def outgoing(self, peer: EvilPeer, message: Message) -> bool | None:
        target = int(self.args.target)
        body = message.content
        if isinstance(body, AbsentBody) and body.seat == target and body.absent == 0:
            vote = peer.resign(Kind.ABSENT, AbsentBody(target, body.count, 1))
            peer.note(what="voted absent instead of present", target=target,
                      count=body.count, seq=vote.seq)
            peer.send_honestly(vote)
            return None
        step = peer.core.step
        first = isinstance(body, CommitBody | ActBody) or (  # or a direct reveal (§7.1)
            isinstance(body, RevealBody) and step is not None
            and peer.seat not in step.commitments)
        if not self.done and first and target != peer.seat and peer.core.live(target):
            theirs = [m for m in peer.core.feeds[target].messages
                      if isinstance(m.content, CommitBody) and m.content.step == body.step]
            if not theirs:
                peer.local.sent.pop()  # not yet: again when the target's commitment is here
                return False
            self.done = True
            count = theirs[0].seq + 1
            vote = peer.resign(Kind.ABSENT, AbsentBody(target, count, 1))
            peer.note(what="voted absent", target=target, count=count, seq=vote.seq,
                      step=body.step)
            peer.send_honestly(vote)
            return None  # its COMMIT is signed again at its next turn
        peer.send_honestly(message)
        return None


class RecordAndGuess(Script):
    """The knowledge attack: keep every byte received (``--record``) and, at the moment the
    first secret of each face-down room is about to be seen, name the room from what it holds:
    with its own torch knowledge if it has any, and with predictors built from the bytes."""

    name = "record-guess"

    def __init__(self, args: argparse.Namespace) -> None:
        super().__init__(args)
        self.record = Path(args.record) if args.record else None
        self.guessed: set[str] = set()
        self.guesses: list[dict[str, Any]] = []
        self.commitments: dict[str, dict[int, bytes]] = {}
        self.received = hashlib.sha256()

    def on_frame(self, peer: EvilPeer, link: Link, frame: Frame) -> bool:
        data = frame.encode()
        if frame.kind is FrameKind.MSG:
            with contextlib.suppress(BadMessage):
                message = Message.decode(frame.fields[0])
                body = message.content
                for event, _ in revealed_secrets(body):
                    self.guess(peer, event)
                if isinstance(body, ChanceCommitBody):
                    for event, commitment in body.commitments:
                        self.commitments.setdefault(event, {})[message.seat] = commitment
        self.received.update(data)
        if self.record is not None:
            with self.record.open("ab") as out:
                out.write(len(data).to_bytes(4, "big") + data)
        return False

    def outgoing(self, peer: EvilPeer, message: Message) -> None:
        body = message.content
        for event, _ in revealed_secrets(body):
            self.guess(peer, event)
        if isinstance(body, ChanceCommitBody):
            for event, commitment in body.commitments:
                self.commitments.setdefault(event, {})[message.seat] = commitment
        peer.send_honestly(message)

    def guess(self, peer: EvilPeer, event: str) -> None:
        posed = posed_hidden(peer.core, event)
        if event in self.guessed or posed is None:
            return
        self.guessed.add(event)
        self.guesses.append(guesses(posed, event, self.commitments.get(event, {}),
                                    self.received.digest(),
                                    peer.local.secrets.chance_secret(event),
                                    peer.local.knowledge.get(posed.id)))
        peer.report["guesses"] = self.guesses
        peer.save()


def posed_hidden(core: MatchCore, event: str) -> ChanceEvent | None:
    """The face-down room ``event`` (a protocol id) as the engine poses it — now, or when the
    current step resolves if it is that step's early turn (its secrets go out with the step's
    reveals); None if it is neither."""
    w = core.state.waiting
    if isinstance(w, Chance):
        if (w.event.visibility is Visibility.HIDDEN
                and core.chance.alias.get(w.event.id, w.event.id) == event):
            return w.event
        return None
    turned = core.state.turned_next()
    if core.chance.early_turn() != event or turned is None:
        return None
    posed: list[ChanceEvent] = []

    def choose(e: ChanceEvent) -> str:
        posed.append(e)
        return e.outcomes[0]

    core.state.preview_hidden(choose)  # the next room is the first face-down one
    return next(e for e in posed if e.id == turned[0])


def guesses(engine_event: Any, event: str, commitments: dict[int, bytes], received: bytes,
            own_secret: bytes, known: str | None) -> dict[str, Any]:
    """Every way the attacker names one face-down room before its first secret is out:
    ``engine_event`` is the posed event (its outcomes are public once the card is turned),
    ``event`` its protocol id, ``commitments`` every seat's chance commitment to it,
    ``received`` a digest of every byte received so far, ``own_secret`` the attacker's own
    secret for it, ``known`` what the attacker's own torch showed it (None: nothing)."""
    outcomes = tuple(engine_event.outcomes)
    counts = {o: outcomes.count(o) for o in outcomes}
    mode = max(sorted(counts), key=lambda o: counts[o])
    contributors = sorted(commitments)
    posed = type(engine_event)(event, outcomes, engine_event.visibility)
    picks = {
        # The best guess from public information alone (the most frequent card left).
        "public-mode": mode,
        # As if the commitments were the secrets.
        "commitments": chance_outcome(posed, [commitments[s] for s in contributors])
        if contributors else mode,
        # Its own secret in every slot.
        "own-secret": chance_outcome(posed, [own_secret] * max(1, len(contributors))),
        # A hash of every byte received so far.
        "all-bytes": outcomes[sample_index(H("cryptcrawl/test-guess/v1", received),
                                           len(outcomes))],
    }
    return {"event": event, "engine_event": engine_event.id, "outcomes": list(outcomes),
            "picks": picks, "torch": known}


class DropReorder(Script):
    """From its first COMMIT, for its next :attr:`COUNT` messages: send them to the lowest
    other seat only, two at a time in reverse order, to nobody else; and ignore the others'
    requests for its feed (WANT), so they must fetch those messages from a third seat."""

    name = "drop-reorder"
    COUNT = 6

    def __init__(self, args: argparse.Namespace) -> None:
        super().__init__(args)
        self.left = self.COUNT
        self.held: Message | None = None
        self.first: int | None = None

    def outgoing(self, peer: EvilPeer, message: Message) -> None:
        if self.left <= 0 or (self.left == self.COUNT and (
                message.kind is not Kind.COMMIT or not _all_linked(peer))):
            return peer.send_honestly(message)
        if self.first is None:
            self.first = min(peer.links)
        self.left -= 1
        peer.keep(message)
        if self.held is None and self.left > 0:
            self.held = message  # sent after the next one
        else:
            peer.send_to(message, {self.first})
            if self.held is not None:
                peer.send_to(self.held, {self.first})
                self.held = None
        peer.note(what="dropped for all but one, reordered", seq=message.seq,
                  kind=message.kind.name, only_to=self.first)

    def on_frame(self, peer: EvilPeer, link: Link, frame: Frame) -> bool:
        return (frame.kind is FrameKind.WANT and frame.fields[0] == peer.seat
                and link.seat != self.first and self.first is not None)


class RelayHello(Script):
    """Sit between two other seats: open a connection to each, claim to each that it is the
    other (the other's real key in HELLO), hand each one's challenge to the other, and relay
    the proofs both sides sign.  If both then treat the connection as authenticated (they ask
    for catch-up, WANT), this seat holds the link between them: it swallows what they send
    for a moment, then lets go.  Bounded: :attr:`ROUNDS` tries, each at most a few seconds."""

    name = "relay-hello"
    ROUNDS = 5
    HOLD = 0.2

    def wants_side(self, peer: EvilPeer) -> bool:
        return _all_linked(peer)

    async def side(self, peer: EvilPeer) -> None:
        v, t = sorted(set(range(peer.core.n)) - {peer.seat})[:2]
        record: dict[str, Any] = {"what": "relayed handshakes", "between": [v, t],
                                  "results": [], "hijacked": 0}
        peer.report["actions"].append(record)
        for _ in range(self.ROUNDS):
            try:
                result = await asyncio.wait_for(self.hijack(peer, v, t), 5)
            except (OSError, LinkClosed, BadMessage, TimeoutError) as exc:
                result = {"error": type(exc).__name__}
            record["results"].append(result)
            record["hijacked"] += bool(result.get("both_authenticated"))
            peer.save()
            await asyncio.sleep(0.05)

    async def hijack(self, peer: EvilPeer, v: int, t: int) -> dict[str, Any]:
        core = peer.core
        mid = core.match_id
        rv, wv = await asyncio.open_connection(*peer.addresses[v])
        rt, wt = await asyncio.open_connection(*peer.addresses[t])
        try:
            hv, ht = await read_frame(rv), await read_frame(rt)  # each sends HELLO first
            assert hv.kind is FrameKind.HELLO and ht.kind is FrameKind.HELLO
            wv.write(Frame(FrameKind.HELLO, (LINK_VERSION, mid, t, core.keys[t],
                                             ht.fields[4])).encode())
            wt.write(Frame(FrameKind.HELLO, (LINK_VERSION, mid, v, core.keys[v],
                                             hv.fields[4])).encode())
            pv, pt = await read_frame(rv), await read_frame(rt)
            if pv.kind is not FrameKind.PROOF or pt.kind is not FrameKind.PROOF:
                return {"both_authenticated": False, "got": [pv.kind.name, pt.kind.name]}
            wt.write(pv.encode())  # V's proof, made for "T": exactly what T checks
            wv.write(pt.encode())
            after_v, after_t = await read_frame(rv), await read_frame(rt)
            both = after_v.kind is FrameKind.WANT and after_t.kind is FrameKind.WANT
            swallowed = 0
            if both:  # hold the link between them for a moment, dropping everything
                end = time.monotonic() + self.HOLD
                with contextlib.suppress(TimeoutError, LinkClosed, BadMessage):
                    while time.monotonic() < end:
                        await asyncio.wait_for(read_frame(rt), end - time.monotonic())
                        swallowed += 1
            return {"both_authenticated": both, "swallowed": swallowed,
                    "got": [after_v.kind.name, after_t.kind.name]}
        finally:
            wv.close()
            wt.close()


SCRIPTS: dict[str, type[Script]] = {cls.name: cls for cls in (
    Script, EquivocateCommit, RevealOther, WrongSalt, IllegalAction, Withhold, WithholdHidden,
    NeverFits, LyingDelivery, FalseEnd, ReplayOtherMatch, Flood, ChainSpam, Impersonate, VoteAbsent,
    RecordAndGuess, DropReorder, RelayHello)}


# --------------------------------------------------------------------------- the process


@dataclass
class Outcome:
    signed: bool
    path: Path


async def evil_join(data_dir: Path, host_name: str, port: int, *, name: str, script: Script,
                    config: PeerConfig, report: Path | None, bind: str, seed: bytes,
                    bot: str = "random") -> Outcome:
    """``p2p.run.join``, with an :class:`EvilPeer` in place of the honest one."""
    key = load_identity(data_dir)
    sock = listen_socket(0, bind)
    seated = await join_table(key, name, host_name, port, sock.getsockname()[1])
    match_seed = os.urandom(32)
    store = MatchStore(data_dir, seated.header.match_id)
    store.create(seated.header, match_seed, {"seat": seated.seat,
                                             "addresses": [list(a) for a in seated.addresses]})
    peer = EvilPeer(seated.header, seated.seat, key, match_seed, store, seated.addresses,
                    decide=bot_decider(bot, seed), config=config, sock=sock,
                    script=script, report=report)
    core = await peer.run()
    return Outcome(core.signed, store.path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.adversary.evil_peer",
                                     description="Run one scripted malicious seat.")
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--bot", default="random", choices=("random", "heuristic"))
    parser.add_argument("--script", required=True, choices=sorted(SCRIPTS))
    parser.add_argument("--report", type=Path, default=None)
    parser.add_argument("--record", type=Path, default=None, help="record-guess: the bytes")
    parser.add_argument("--target", type=int, default=0, help="vote-absent: the seat")
    parser.add_argument("--timeouts", type=timeouts_override, default=None, metavar="Q,N,L,S",
                        help="apply these (quick, normal, long, silence) seconds instead of the "
                             "header's")
    parser.add_argument("--linger", type=float, default=3.0)
    parser.add_argument("--max-seconds", type=float, default=MAX_SECONDS)
    parser.add_argument("--bind", default="127.0.0.1")
    parser.add_argument("--name", default="evil")
    parser.add_argument("--seed", default="")
    parser.add_argument("--verbose", action="store_true")
    sub = parser.add_subparsers(dest="role", required=True)
    j = sub.add_parser("join")
    j.add_argument("address")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(name)s: %(message)s")
    host_name, _, port = args.address.rpartition(":")
    config = PeerConfig(timeouts=args.timeouts, linger=args.linger)
    seed = hashlib.sha256(args.seed.encode() or os.urandom(32)).digest()
    script = SCRIPTS[args.script](args)

    async def go() -> Outcome:
        async with asyncio.timeout(args.max_seconds):
            return await evil_join(args.data_dir, host_name, int(port), name=args.name,
                                   script=script, config=config, report=args.report,
                                   bind=args.bind, seed=seed, bot=args.bot)

    try:
        outcome = asyncio.run(go())
    except TimeoutError:
        print("evil_peer: gave up (--max-seconds)", file=sys.stderr)
        return 3
    except (LobbyError, StoreError, OSError) as exc:
        print(f"evil_peer: {exc}", file=sys.stderr)
        return 1
    print(f"match over: {outcome.path}", flush=True)
    return 0 if outcome.signed else 2


if __name__ == "__main__":
    raise SystemExit(main())
