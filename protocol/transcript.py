"""The match file (``.crawl``): record framing, and a lenient reader.

A match file is a sequence of records, each a 4-byte big-endian length followed by that many
bytes of canonical msgpack (``protocol.encoding``):

1. the file record ``["cryptcrawl-match", FORMAT]``;
2. the signed header (``protocol.header.SignedHeader``);
3. every message of every feed (``protocol.messages.Message``), in the order the writer
   persisted them — any interleaving of the feeds; each feed is put back in sequence order.

A peer appends a record and flushes it before it sends the message (so a crash loses nothing),
which is why the only damage a crash can do is a **torn last record**: fewer bytes than its
length says.  The reader here is lenient (python-chess's PGN reader is the model): it keeps
every record it can use, collects each problem with its record number, and leaves verdicts to
the strict verifier.  It does no I/O: it takes bytes; the P2P layer reads and writes files.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Final

from protocol.encoding import decode, encode
from protocol.errors import BadMessage
from protocol.feed import AddStatus, Equivocation, Feed
from protocol.header import SignedHeader
from protocol.messages import Message

MAGIC: Final = "cryptcrawl-match"
FORMAT: Final = 1
_LENGTH: Final = 4
MAX_RECORD: Final = 64 * 1024


def frame(payload: bytes) -> bytes:
    """One record: the length prefix and the payload."""
    if len(payload) > MAX_RECORD:
        raise BadMessage(f"record of {len(payload)} bytes is over the {MAX_RECORD}-byte cap")
    return len(payload).to_bytes(_LENGTH, "big") + payload


def file_start(signed_header: SignedHeader) -> bytes:
    """The first two records of a match file."""
    return frame(encode((MAGIC, FORMAT))) + frame(signed_header.encode())


@dataclass(frozen=True)
class Problem:
    """Something the reader could not use.  ``record`` counts from 0 (the file record)."""

    record: int
    offset: int
    reason: str
    seat: int | None = None

    def __str__(self) -> str:
        who = f" (seat {self.seat})" if self.seat is not None else ""
        return f"record {self.record} at byte {self.offset}{who}: {self.reason}"


@dataclass
class Transcript:
    """What a match file holds, as far as it could be read."""

    header: SignedHeader | None = None
    feeds: dict[int, Feed] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    equivocations: list[Equivocation] = field(default_factory=list)
    torn: bool = False  # the last record was cut short (a crash while writing it)
    records: int = 0

    @property
    def messages(self) -> int:
        return sum(len(f.messages) for f in self.feeds.values())

    def missing(self) -> dict[int, range]:
        """Per seat, the sequence numbers that never arrived before a later one did."""
        out = {}
        for seat, feed in sorted(self.feeds.items()):
            gap = feed.missing()
            if len(gap):
                out[seat] = gap
        return out


def split_records(data: bytes) -> Iterator[tuple[int, bytes | None, str]]:
    """Yield ``(offset, payload, problem)`` per record; a torn tail yields payload None."""
    offset = 0
    size = len(data)
    while offset < size:
        if size - offset < _LENGTH:
            yield offset, None, f"torn record: {size - offset} of {_LENGTH} length bytes"
            return
        length = int.from_bytes(data[offset:offset + _LENGTH], "big")
        start = offset + _LENGTH
        if length > MAX_RECORD:
            yield offset, None, f"record length {length} is over the {MAX_RECORD}-byte cap"
            return
        if start + length > size:
            yield offset, None, f"torn record: {size - start} of {length} bytes"
            return
        yield offset, data[start:start + length], ""
        offset = start + length


def read_transcript(data: bytes) -> Transcript:
    """Read a match file leniently: never raises on bad content, collects problems instead."""
    t = Transcript()
    if not isinstance(data, bytes | bytearray | memoryview):
        t.problems.append(Problem(0, 0, f"a match file is bytes, not {type(data).__name__}"))
        return t
    data = bytes(data)
    for index, (offset, payload, problem) in enumerate(split_records(data)):
        t.records = index + 1
        if payload is None:
            t.torn = problem.startswith("torn")
            t.problems.append(Problem(index, offset, problem))
            break
        try:
            if index == 0:
                if decode(payload) != (MAGIC, FORMAT):
                    raise BadMessage(f"not a cryptcrawl match file (format {FORMAT})")
                continue
            if index == 1:
                t.header = SignedHeader.decode(payload)
                match_id = t.header.match_id
                t.feeds = {s: Feed(s, seat.key, match_id)
                           for s, seat in enumerate(t.header.header.seats)}
                continue
            _add_message(t, index, offset, payload)
        except BadMessage as exc:
            t.problems.append(Problem(index, offset, str(exc)))
            if index <= 1:
                break  # without the file record and the header nothing else can be checked
    if t.records == 0:
        t.problems.append(Problem(0, 0, "empty file"))
    return t


def _add_message(t: Transcript, index: int, offset: int, payload: bytes) -> None:
    msg = Message.decode(payload)
    feed = t.feeds.get(msg.seat)
    if feed is None:
        raise BadMessage(f"message from seat {msg.seat}, which is not in the header")
    try:
        result = feed.add(msg)
    except BadMessage as exc:
        t.problems.append(Problem(index, offset, str(exc), msg.seat))
        return
    if result.status is AddStatus.EQUIVOCATION and result.equivocation is not None:
        t.equivocations.append(result.equivocation)
        t.problems.append(Problem(index, offset, f"equivocation at sequence number {msg.seq}",
                                  msg.seat))
    for lost in result.unchained:
        t.problems.append(Problem(index, offset,
                                  f"message {lost.seq} does not chain to its predecessor",
                                  lost.seat))
