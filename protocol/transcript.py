"""The match file (``.crawl``): record framing, and a lenient reader.

A match file is a sequence of records, each a 4-byte big-endian length followed by that many
bytes of canonical msgpack (``protocol.wire.encoding``):

1. the file record ``["cryptcrawl-match", FORMAT]``;
2. the signed header (``protocol.wire.header.SignedHeader``);
3. every message of every feed (``protocol.wire.messages.Message``), in the order the writer
   persisted them — any interleaving of the feeds; each feed is put back in sequence order.

A peer appends a record and flushes it before it sends the message (so a crash loses nothing),
which is why the only damage a crash can do is a **torn last record**: fewer bytes than its
length says.  The reader here is lenient (python-chess's PGN reader is the model): it keeps
every record it can use, collects each problem with its record number, and leaves verdicts to
the strict verifier.  It does no I/O: it takes bytes; the P2P layer reads and writes files.

Reading limits: a file over :data:`MAX_FILE` bytes is not read at all, and the reader stops at
the :data:`MAX_DAMAGED`-th damaged record (one that is not a message, or a message its feed
refuses: junk, not a crash — a crash only tears the last record), so the cost of a file and the
length of its list of problems are bounded whatever is appended to a real match.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Final

from protocol.errors import BadMessage
from protocol.verify.verdicts import reason_code
from protocol.wire.encoding import decode, encode
from protocol.wire.feed import AddStatus, Equivocation, Feed
from protocol.wire.header import Header, SignedHeader
from protocol.wire.messages import Message

MAGIC: Final = "cryptcrawl-match"
FORMAT: Final = 1
_LENGTH: Final = 4
MAX_RECORD: Final = 64 * 1024
# The largest file read as a match file: 64 MiB.  A real match is far smaller (a five-player
# match, every seat a bot, is about 120 KB), so anything bigger is not a match file.
MAX_FILE: Final = 64 * 1024 * 1024
# The reader stops at this damaged record (one that is not a message at all, or a message its
# feed refuses): the problems up to it are listed, the rest of the file is one summary problem.
MAX_DAMAGED: Final = 16


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
    """Something the reader could not use.  ``record`` counts from 0 (the file record);
    ``code`` is the verdict's reason code for it (protocol.verify.verdicts)."""

    record: int
    offset: int
    reason: str
    seat: int | None = None
    code: str = "malformed_record"

    def __str__(self) -> str:
        who = f" (seat {self.seat})" if self.seat is not None else ""
        return f"record {self.record} at byte {self.offset}{who}: {self.reason}"


@dataclass
class Transcript:
    """What a match file holds, as far as it could be read."""

    header: SignedHeader | None = None
    # A header that reads but whose signatures do not all verify (then ``header`` is None).
    unsigned_header: Header | None = None
    feeds: dict[int, Feed] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    equivocations: list[Equivocation] = field(default_factory=list)
    torn: bool = False  # the last record was cut short (a crash while writing it)
    records: int = 0  # the records read (the reader stops early on a damaged file)

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
        t.problems.append(Problem(0, 0, f"a match file is bytes, not {type(data).__name__}",
                                  code="not_a_match_file"))
        return t
    data = bytes(data)
    if len(data) > MAX_FILE:
        t.problems.append(Problem(0, 0, f"larger than {MAX_FILE // (1024 * 1024)} MiB: "
                                        "not a match file", code="not_a_match_file"))
        return t
    damaged = 0
    for index, (offset, payload, problem) in enumerate(split_records(data)):
        t.records = index + 1
        if payload is None:
            t.torn = problem.startswith("torn")
            code = ("torn_tail" if t.torn else "malformed_record") if index > 1 else (
                "not_a_match_file" if index == 0 else "unreadable_header")
            t.problems.append(Problem(index, offset, problem, code=code))
            break
        if damaged >= MAX_DAMAGED:
            t.records = index
            rest = len(data) - offset
            t.problems.append(Problem(index, offset, f"reading stopped after {MAX_DAMAGED} "
                                      f"damaged records: {rest:,} more byte"
                                      f"{'s' if rest != 1 else ''} not read"))
            break
        try:
            if index == 0:
                if decode(payload) != (MAGIC, FORMAT):
                    raise BadMessage(f"not a cryptcrawl match file (format {FORMAT})")
                continue
            if index == 1:
                t.header = _signed_header(t, index, offset, payload)
                if t.header is None:
                    break
                match_id = t.header.match_id
                version = t.header.header.protocol
                t.feeds = {s: Feed(s, seat.key, match_id, version)
                           for s, seat in enumerate(t.header.header.seats)}
                continue
            damaged += _add_message(t, index, offset, payload)
        except BadMessage as exc:
            code = ("not_a_match_file", "unreadable_header")[index] if index <= 1 else (
                "malformed_record")
            t.problems.append(Problem(index, offset, str(exc), code=code))
            if index <= 1:
                break  # without the file record and the header nothing else can be checked
            damaged += 1
    if t.records == 0:
        t.problems.append(Problem(0, 0, "empty file", code="not_a_match_file"))
    return t


def _signed_header(t: Transcript, index: int, offset: int, payload: bytes
                   ) -> SignedHeader | None:
    """Record 1 as a signed header.  One that reads but whose signatures do not all verify is
    kept as ``unsigned_header``, with a ``header_signature`` problem (a damaged file, not a
    seat's act); one that does not read raises BadMessage."""
    value = decode(payload)
    if not isinstance(value, tuple) or len(value) != 2:
        raise BadMessage("a signed header is a [header, signatures] pair")
    header = Header.from_value(value[0])
    try:
        return SignedHeader(header, value[1])
    except BadMessage as exc:
        t.unsigned_header = header
        t.problems.append(Problem(index, offset, str(exc), code="header_signature"))
        return None


def _add_message(t: Transcript, index: int, offset: int, payload: bytes) -> int:
    """Add one message to its feed; 1 if the feed refused it (a damaged record), else 0."""
    assert t.header is not None
    msg = Message.decode(payload, t.header.header.protocol)
    feed = t.feeds.get(msg.seat)
    if feed is None:
        t.problems.append(Problem(index, offset, f"message from seat {msg.seat}, which is not "
                                  "in the header", code="foreign_message"))
        return 1
    try:
        result = feed.add(msg)
    except BadMessage as exc:
        code = reason_code(str(exc))
        t.problems.append(Problem(index, offset, str(exc), msg.seat,
                                  code if code != "rule_broken" else "malformed_record"))
        return 1
    if result.status is AddStatus.EQUIVOCATION and result.equivocation is not None:
        t.equivocations.append(result.equivocation)
        t.problems.append(Problem(index, offset, f"equivocation at sequence number {msg.seq}",
                                  msg.seat, "fork"))
    for lost in result.unchained:
        t.problems.append(Problem(index, offset,
                                  f"message {lost.seq} does not chain to its predecessor",
                                  lost.seat, "broken_chain"))
    return 0
