"""One sender's feed: its messages in sequence order, each chained to the one before.

A :class:`Feed` holds only verified messages (right match, right sender, good signature, and,
for stored ones, the chain).  Adding a message never needs anything but the message itself, so
peers and the offline verifier use the same object:

* the next message in sequence that chains onto the head is **appended** (with any buffered
  successors that now chain);
* a message already held, byte for byte, is a harmless **duplicate** (a resend after a restart);
* a validly signed *different* message for a slot already held that names the *same*
  predecessor (``prev``) is **equivocation**: the sender forked its chain, and the two messages
  are a proof anyone with the sender's public key can check (:class:`Equivocation`) — one
  proof per slot: any further version of a slot already proved forked (the same second version
  again, as peers pass the proof on, or a third) is a duplicate;
* a message that names another predecessor can never join the feed (every honest peer holds
  the same predecessor, or none): it is refused as a **broken chain**, never taken as a fork —
  so what a peer concludes does not depend on whether it met the message before or after the
  slot's real one (chain spam cannot make honest peers part); a peer that holds another
  version of the message it names asks the other peers for theirs (p2p, ``_check_fork``):
  with it, the slot before is a proved fork;
* a message ahead of the chain is a **gap**: it is kept aside (up to :data:`BUFFER_CAP` slots
  ahead, and up to :data:`RIVALS_CAP` versions of one slot naming different predecessors,
  since which one chains is not known yet) and :meth:`Feed.missing` says which sequence numbers
  to ask for.

Deterministic, no clock; a feed is driven entirely by the messages it is given.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from protocol.errors import BadMessage, LocalProtocolError
from protocol.wire.messages import (
    DIGEST_SIZE,
    MAX_SEAT,
    PROTOCOL_VERSION,
    PUBLIC_KEY_SIZE,
    Message,
)

__all__ = ["BUFFER_CAP", "RIVALS_CAP", "AddResult", "AddStatus", "Equivocation", "Feed"]

BUFFER_CAP = 256
"""How far ahead of the chain a feed keeps messages aside."""

RIVALS_CAP = 4
"""How many versions of one slot ahead of the chain, each naming a different predecessor, a
feed keeps aside (at most one of them can chain; a real one crowded out is asked for again)."""


@dataclass(frozen=True)
class Equivocation:
    """Proof that a seat signed two different messages for one slot of its feed.

    Validated on construction (same match, seat, sequence number and predecessor, different
    signed content); :meth:`verify` checks both signatures against the seat's key, which is all a
    third party needs to be convinced.  Two messages that differ only in their signature bytes do
    not count: that is not the sender saying two things.  Nor do two that name different
    predecessors: at most one of them can ever chain, so they are not two versions of the feed.
    """

    seat: int
    seq: int
    first: Message
    second: Message

    def __post_init__(self) -> None:
        for message in (self.first, self.second):
            if message.seat != self.seat or message.seq != self.seq:
                raise BadMessage(f"equivocation evidence for seat {self.seat}, seq {self.seq} "
                                 f"holds a message for seat {message.seat}, seq {message.seq}")
        if self.first.match_id != self.second.match_id:
            raise BadMessage("equivocation evidence mixes messages from two matches")
        if self.first.signed_bytes() == self.second.signed_bytes():
            raise BadMessage("equivocation evidence holds the same message twice")
        if self.first.prev != self.second.prev:
            raise BadMessage("equivocation evidence names two different predecessors (at most "
                             "one of the two messages can chain: not a fork)")

    def verify(self, public_key: bytes | Ed25519PublicKey) -> None:
        """Raise BadMessage unless both messages are validly signed by ``public_key``."""
        self.first.verify(public_key)
        self.second.verify(public_key)


class AddStatus(enum.Enum):
    """What :meth:`Feed.add` did with a message."""

    APPENDED = "appended"
    DUPLICATE = "duplicate"
    GAP = "gap"
    EQUIVOCATION = "equivocation"


@dataclass(frozen=True)
class AddResult:
    """The outcome of :meth:`Feed.add`.

    * ``appended``: every message newly added to the feed, in order — the given one first, then
      buffered successors that now chain (APPENDED only);
    * ``unchained``: buffered messages dropped because they did not chain onto the message
      before them (each is validly signed, so its sender broke its own chain);
    * ``equivocation``: the proof (EQUIVOCATION only);
    * ``buffered``: for a GAP, whether the message was kept aside (False when it is more than
      :data:`BUFFER_CAP` ahead; ask for the missing ones first, then for it again).
    """

    status: AddStatus
    appended: tuple[Message, ...] = ()
    unchained: tuple[Message, ...] = ()
    equivocation: Equivocation | None = None
    buffered: bool = False


class Feed:
    """The messages of the sender at ``seat``, whose raw Ed25519 key is ``public_key``, in the
    match ``match_id``."""

    def __init__(self, seat: int, public_key: bytes, match_id: bytes,
                 version: int = PROTOCOL_VERSION) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= MAX_SEAT:
            raise LocalProtocolError(f"seat must be 0..{MAX_SEAT}, not {seat!r}")
        if not isinstance(match_id, bytes) or len(match_id) != DIGEST_SIZE:
            raise LocalProtocolError(f"a match id is {DIGEST_SIZE} bytes")
        if not isinstance(public_key, bytes) or len(public_key) != PUBLIC_KEY_SIZE:
            raise LocalProtocolError("a public key is 32 raw Ed25519 bytes")
        self.seat = seat
        self.public_key = public_key
        self.match_id = match_id
        self.version = version  # the match's protocol version: every message is of it
        self._messages: list[Message] = []  # only ever appended to
        self.chain = self._messages
        """The chained messages themselves (the list :attr:`messages` copies): for a reader on a
        hot path (the match core), which must not change it."""
        self._frozen: tuple[Message, ...] | None = None  # messages, as last handed out
        self._ahead: dict[int, dict[bytes, Message]] = {}  # seq -> prev -> message
        self._beyond: int | None = None  # highest seq seen too far ahead to keep
        self._equivocations: list[Equivocation] = []
        self._proved: set[int] = set()  # the sequence numbers an equivocation was found at

    def __repr__(self) -> str:
        return (f"<Feed seat={self.seat} next_seq={self.next_seq} "
                f"buffered={len(self._ahead)}>")

    @property
    def messages(self) -> tuple[Message, ...]:
        """The chained messages, in sequence order (buffered ones are not included)."""
        frozen = self._frozen
        if frozen is None or len(frozen) != len(self._messages):  # made again after appends
            frozen = self._frozen = tuple(self._messages)
        return frozen

    def at(self, seq: int) -> Message | None:
        """The chained message numbered ``seq``, or None if the feed does not hold it yet."""
        messages = self._messages
        return messages[seq] if 0 <= seq < len(messages) else None

    @property
    def head(self) -> bytes:
        """The hash of the last message, or the match id while the feed is empty: what the
        next message must name as ``prev``."""
        return self._messages[-1].hash if self._messages else self.match_id

    @property
    def next_seq(self) -> int:
        return len(self._messages)

    @property
    def ahead(self) -> tuple[Message, ...]:
        """The messages kept aside beyond a gap, in sequence order (not yet chained)."""
        return tuple(m for seq in sorted(self._ahead) for m in self._ahead[seq].values())

    @property
    def equivocations(self) -> tuple[Equivocation, ...]:
        """Every equivocation found so far, in the order found."""
        return tuple(self._equivocations)

    def missing(self) -> range:
        """The sequence numbers to fetch next: from :attr:`next_seq` up to the first buffered
        message; with nothing buffered, up to and including the highest message seen too far
        ahead to keep.  Empty when the feed knows of no gap."""
        if self._ahead:
            return range(self.next_seq, min(self._ahead))
        if self._beyond is not None and self._beyond >= self.next_seq:
            return range(self.next_seq, self._beyond + 1)
        return range(self.next_seq, self.next_seq)

    def add(self, message: Message, *, verified: bool = False) -> AddResult:
        """Check ``message`` and add it; raises BadMessage if it is not for this feed, badly
        signed, or (as the next in sequence) does not chain onto :attr:`head`.  ``verified``:
        the caller has just checked the signature with this feed's key (it is not checked
        twice)."""
        if message.match_id != self.match_id:
            raise BadMessage(f"message {message.seq} of seat {message.seat} is from another "
                             "match")
        if message.seat != self.seat:
            raise BadMessage(f"message from seat {message.seat} offered to seat {self.seat}'s "
                             "feed (wrong sender)")
        if message.version != self.version:
            raise BadMessage(f"message {message.seq} of seat {message.seat} is of protocol "
                             f"version {message.version}, in a version {self.version} match")
        if not verified:
            message.verify(self.public_key)

        if message.seq < self.next_seq:
            held: Message | None = self._messages[message.seq]
        else:
            held = self._ahead.get(message.seq, {}).get(message.prev)
        if held is not None and held.prev == message.prev:
            return self._compare(held, message)
        if message.seq > self.next_seq:
            return self._keep_aside(message)
        if message.seq < self.next_seq or message.prev != self.head:
            raise BadMessage(f"broken chain: message {message.seq} of seat {self.seat} does not "
                             "name the previous message's hash as prev")
        return self._append(message)

    def _compare(self, held: Message, message: Message) -> AddResult:
        if held.signed_bytes() == message.signed_bytes():
            return AddResult(AddStatus.DUPLICATE)
        if message.seq in self._proved:
            # One proof per sequence number is enough: another copy of a second version (peers
            # send the proof on to each other), or a third one, proves nothing new — and
            # counting it again would send it round the peers, and into their files, forever.
            return AddResult(AddStatus.DUPLICATE)
        self._proved.add(message.seq)
        proof = Equivocation(self.seat, message.seq, held, message)
        self._equivocations.append(proof)
        return AddResult(AddStatus.EQUIVOCATION, equivocation=proof)

    def _keep_aside(self, message: Message) -> AddResult:
        if message.seq - self.next_seq > BUFFER_CAP:
            if self._beyond is None or message.seq > self._beyond:
                self._beyond = message.seq
            return AddResult(AddStatus.GAP, buffered=False)
        rivals = self._ahead.setdefault(message.seq, {})
        if len(rivals) >= RIVALS_CAP:
            return AddResult(AddStatus.GAP, buffered=False)
        rivals[message.prev] = message
        return AddResult(AddStatus.GAP, buffered=True)

    def _append(self, message: Message) -> AddResult:
        appended = [message]
        unchained: list[Message] = []
        self._messages.append(message)
        while (rivals := self._ahead.pop(self.next_seq, None)) is not None:
            successor = rivals.pop(self.head, None)
            unchained.extend(rivals.values())
            if successor is None:
                break
            self._messages.append(successor)
            appended.append(successor)
        return AddResult(AddStatus.APPENDED, appended=tuple(appended),
                         unchained=tuple(unchained))
