"""The strict verifier: a match file in, a verdict out.

``verify(data)`` reads the file leniently (``protocol.transcript``), then replays every feed
through a fresh :class:`~protocol.match.MatchCore` — the same rules the peers ran — which
re-checks every signature and chain, every play and chance commitment, every chance outcome
(recomputed from the revealed secrets with the header's sampler), the legality of every action
through the engine, and the result.

Verdicts:

* ``valid`` — the file is whole, every check passed, the match reached its end and every
  seat still playing signed the same final state and transcript digest (its END message);
  the notes name every seat that was replaced by its zombie, every step it played, every chance
  event drawn with fewer contributors or drawn again, and every private-knowledge round whose
  key was never published (its deliveries could not be checked);
* ``invalid`` — something is wrong: the first bad entry (record number), the seat at fault and
  the reason;
* ``incomplete`` — nothing wrong was found, but the match stops before its end or before every
  seat signed the result (a torn last record, a missing message, a match still in progress):
  what was checked, and where it stops.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from engine.core import Over
from protocol.errors import BadMessage
from protocol.match import (
    MatchCore,
    MatchEnded,
    PeerMisbehaved,
    RoundKeyReleased,
    SeatReclaimed,
    SeatReplaced,
)
from protocol.messages import Kind
from protocol.transcript import Transcript, read_transcript

VALID = "valid"
INVALID = "invalid"
INCOMPLETE = "incomplete"


@dataclass(frozen=True)
class Verdict:
    status: str  # valid / invalid / incomplete
    reason: str
    seat: int | None = None  # the seat at fault (invalid)
    record: int | None = None  # the first bad record (invalid), counting the file record as 0
    messages: int = 0  # messages checked
    winners: tuple[int, ...] = ()
    final_digest: bytes = b""
    notes: tuple[str, ...] = field(default=())

    @property
    def valid(self) -> bool:
        return self.status == VALID


def verify(data: bytes) -> Verdict:
    """Verify a whole match file (see the module docstring); never raises on bad content."""
    return read_and_verify(data)[1]


def read_and_verify(data: bytes) -> tuple[Transcript, Verdict]:
    """The file read (leniently) and its verdict, for callers that show both."""
    t = read_transcript(data)
    return t, verify_transcript(t, record_numbers(data, t.records))


def record_numbers(data: bytes, records: int | None = None) -> dict[bytes, int]:
    """Message hash -> record number, to name the first bad entry.  A message's hash is the
    SHA-256 of its record's payload, so nothing needs decoding twice.  ``records``: only the
    first ones (those the reader read: ``Transcript.records``; it stops early on junk)."""
    from protocol.transcript import MAX_FILE, split_records

    numbers: dict[bytes, int] = {}
    if len(data) > MAX_FILE:
        return numbers
    for index, (_offset, payload, _problem) in enumerate(split_records(bytes(data))):
        if records is not None and index >= records:
            break
        if payload is not None and index >= 2:
            numbers[hashlib.sha256(payload).digest()] = index
    return numbers


def match_notes(core: MatchCore) -> tuple[str, ...]:
    """What a verdict should say about absent seats, re-draws and unchecked private-knowledge
    rounds."""
    notes: list[str] = []
    for event in core.events:
        if isinstance(event, SeatReplaced):
            notes.append(f"seat {event.seat} was replaced by its zombie after its message "
                         f"{event.count}: {event.reason}")
        elif isinstance(event, SeatReclaimed):
            notes.append(f"seat {event.seat} reclaimed its seat at step {event.step}")
        elif isinstance(event, RoundKeyReleased):
            notes.append(core.naming.key_published_note(event.round, event.seat,
                                            len(core.rounds[event.round].deliveries)))
    notes.extend(core.shortfalls)
    for r in core.rounds.values():
        if r.release is None and r.deliveries:
            notes.append(core.naming.key_never_published_note(r.id, r.seat,
                                                              len(r.deliveries)))
    if core.stale:
        notes.append(f"{len(core.stale)} message(s) skipped as stale (sent by a replaced seat, "
                     "or about a point already passed)")
    return tuple(notes)


def verify_transcript(t: Transcript, records: dict[bytes, int] | None = None) -> Verdict:
    records = records or {}
    notes = tuple(str(p) for p in t.problems)
    if t.header is None:
        reason = t.problems[0].reason if t.problems else "no header"
        return Verdict(INVALID, f"unreadable header: {reason}", record=1, notes=notes)
    # Content problems (a bad signature, a broken chain, a foreign message, equivocation) make
    # the file invalid; a torn tail only makes it incomplete.
    for problem in t.problems:
        if t.torn and problem is t.problems[-1]:
            continue
        return Verdict(INVALID, problem.reason, seat=problem.seat, record=problem.record,
                       messages=t.messages, notes=notes)
    try:
        core = MatchCore(t.header)
    except BadMessage as exc:
        return Verdict(INVALID, f"cannot check this match: {exc}", record=1, notes=notes)
    # The reader already verified every signature and chain: the core takes the feeds over
    # and consumes them in canonical order.
    checked = t.messages
    for event in core.adopt(t.feeds):
        if isinstance(event, PeerMisbehaved):
            culprit = event.evidence[0] if event.evidence else None
            return Verdict(INVALID, event.reason, seat=event.seat,
                           record=records.get(culprit.hash) if culprit else None,
                           messages=checked, notes=notes)
    notes += match_notes(core)
    ended = [e for e in core.events if isinstance(e, MatchEnded)]
    if ended and isinstance(core.state.waiting, Over):
        # A vote or a welcome may follow a seat's END, sent before it saw every END (an answer
        # to a vote on a point passed, a seat timed out just before its END came in — the END
        # in hand is not held by it): nothing waits for it.  Anything else after the result
        # is wrong.
        after = [m for s, f in enumerate(core.feeds) if core.live(s)
                 for m in f.messages[core.cursor[s]:]]
        unread = [m for m in after if m.kind not in (Kind.ABSENT, Kind.WELCOME)]
        end = ended[0]
        if core.signed and unread:
            return Verdict(INVALID, f"{len(unread)} message(s) after every seat signed the "
                           "result", seat=unread[0].seat, record=records.get(unread[0].hash),
                           messages=checked, notes=notes)
        if core.signed and after:
            notes += (f"{len(after)} vote(s) or welcome(s) after the result (sent before "
                      "their seat saw every END; nothing waited for them)",)
        if core.signed and not t.torn:
            return Verdict(VALID, "every check passed; every seat signed the result",
                           messages=checked, winners=end.winners, final_digest=end.digest,
                           notes=notes)
        missing_end = [s for s in core.live_seats() if s not in core.end_signatures]
        gaps = []
        if t.torn:
            gaps.append("the file's last record is torn")
        if missing_end:
            gaps.append("not every seat signed the result (missing: "
                        + ", ".join(f"seat {s}" for s in missing_end) + ")")
        reason = "the match ended, but " + "; ".join(gaps)
        return Verdict(INCOMPLETE, reason, messages=checked, winners=end.winners,
                       final_digest=end.digest, notes=notes)
    where = core.state.waiting
    missing = t.missing()
    reason = "the match stops before its end"
    if t.torn:
        reason += " (the last record is torn)"
    if missing:
        reason += "; missing: " + ", ".join(
            f"seat {s} messages {r.start}..{r.stop - 1}" for s, r in missing.items())
    reason += f"; it waits for {type(where).__name__.lower()}"
    step = getattr(where, "step", None) or getattr(getattr(where, "event", None), "id", None)
    if step:
        reason += f" {step}"
    return Verdict(INCOMPLETE, reason, messages=checked, notes=notes)
