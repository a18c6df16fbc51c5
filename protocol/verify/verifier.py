"""The strict verifier of one copy: a match file in, a verdict out (protocol.md §9.2–9.3).

``verify(data)`` reads the file leniently (``protocol.wire.transcript``), then replays every feed
through a fresh :class:`~protocol.match.core.MatchCore` — the same rules the peers ran — which
re-checks every signature and chain, every play and chance commitment, every chance outcome
(recomputed from the revealed secrets with the header's sampler), the legality of every action
through the engine, the heads every message vouches for, and the result.

From one copy a seat is blamed only where its own signed messages prove it: two versions of a
slot, a reveal that does not open its commitment, an illegal action or a wrong state digest in
the state its heads vouch for.  Where a seat's signed message contradicts another seat's feed
as this copy holds it, the verdict is ``disputed``, naming both (one of them edited a feed, or
signed a false reference; several copies tell which: :mod:`protocol.verify.copies`).  The verdicts,
their exit codes and reason codes are :mod:`protocol.verify.verdicts`'.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from engine.core import DRAWN, Over
from protocol.errors import BadMessage
from protocol.match.core import (
    FloorReached,
    HeadsDisputed,
    MatchClaimed,
    MatchCore,
    MatchEnded,
    PeerMisbehaved,
    RoundKeyReleased,
    SeatLeft,
    SeatReclaimed,
    SeatReplaced,
)
from protocol.match.events import CardShown, MatchResumed, OfferSettled, SealedOpened
from protocol.verify.verdicts import (
    ABANDONED,
    CLAIMED,
    DAMAGE_CODES,
    DISPUTED,
    INCOMPLETE,
    INVALID,
    STATE_CODES,
    UNREADABLE,
    VALID,
    Dispute,
    ForkProof,
    Verdict,
    Where,
    reason_code,
)
from protocol.wire.messages import AnswerBody, DeliveryBody, Kind, Message
from protocol.wire.transcript import Transcript, read_transcript

__all__ = ["DISPUTED", "INCOMPLETE", "INVALID", "UNREADABLE", "VALID", "Verdict",
           "judge", "match_notes", "read_and_verify", "record_numbers", "verify",
           "verify_transcript"]


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
    from protocol.wire.transcript import MAX_FILE, split_records

    numbers: dict[bytes, int] = {}
    if len(data) > MAX_FILE:
        return numbers
    for index, (_offset, payload, _problem) in enumerate(split_records(bytes(data))):
        if records is not None and index >= records:
            break
        if payload is not None and index >= 2:
            numbers[hashlib.sha256(payload).digest()] = index
    return numbers


def offer_note(event: OfferSettled) -> str:
    """What a verdict says about a settled offer of a draw or a pause (protocol.md §7.7)."""
    what = f"seat {event.seat} offered a {event.what} (its message {event.seq})"
    if event.agreed:
        return f"{what}: agreed by every live seat" + (
            "; the game ends drawn" if event.what == "draw" else "; no timer ran until a resume")
    if event.declined:
        return f"{what}: declined by seat{'s' if len(event.declined) > 1 else ''} " + \
            ", ".join(str(s) for s in event.declined)
    return f"{what}: it lapsed ({event.why})"


def match_notes(core: MatchCore) -> tuple[str, ...]:
    """What a verdict should say about absent seats, re-draws and unchecked private-knowledge
    rounds."""
    notes: list[str] = []
    for event in core.events:
        if isinstance(event, SeatReplaced):
            notes.append(f"seat {event.seat} was replaced by its zombie after its message "
                         f"{event.count}: {event.reason}")
        elif isinstance(event, SeatLeft):
            notes.append(f"seat {event.seat} {'resigned and ' if event.resigned else ''}left the "
                         f"match for good (its {'RESIGN' if event.resigned else 'LEAVE'} is its "
                         f"message {event.count - 1})")
        elif isinstance(event, MatchClaimed):
            notes.append(claim_note(event))
        elif isinstance(event, OfferSettled):
            notes.append(offer_note(event))
        elif isinstance(event, SealedOpened) and event.at_end:
            notes.append(f"seat {event.seat} opened its sealed values at the end (the audit): "
                         + ", ".join(f"{slot} = {value}" for slot, value in event.values))
        elif isinstance(event, CardShown) and event.at_end:
            notes.append(f"seat {event.seat} opened a card it held at the end (the audit): "
                         f"{event.event} = {event.card}")
        elif isinstance(event, MatchResumed):
            notes.append(f"seat {event.seat} resumed the match (its pause ended)")
        elif isinstance(event, SeatReclaimed):
            notes.append(f"seat {event.seat} reclaimed its seat at step {event.step}")
        elif isinstance(event, FloorReached):
            notes.append(floor_note(event, core.ending.abandoned))
        elif isinstance(event, RoundKeyReleased):
            notes.append(core.naming.key_published_note(event.round, event.seat,
                                            len(core.rounds[event.round].deliveries)))
    notes.extend(core.shortfalls)
    for seat in sorted(core.seats.absent):  # (§7.13: a seat gone after the deal costs its cards)
        notes.extend(f"seat {seat}'s card {event} stays hidden: the seat is gone and never "
                     "opened it" for event in core.decks.hidden(seat))
    for r in core.rounds.values():
        if r.release is None and r.deliveries:
            notes.append(core.naming.key_never_published_note(r.id, r.seat,
                                                              len(r.deliveries)))
    if core.stale:
        notes.append(f"{len(core.stale)} message(s) skipped as stale (sent by a replaced seat, "
                     "or about a point already passed)")
    return tuple(notes)


def claim_note(claim: MatchClaimed) -> str:
    """What a CLAIM that ended the match says of it (protocol.md §7.7)."""
    if claim.contested:
        return (f"seat {claim.claimant}'s claim on seat {claim.seat} crossed seat "
                f"{claim.seat}'s message {claim.count}: the match is abandoned, nobody blamed")
    return (f"seat {claim.claimant} claimed the match: seat {claim.seat} was silent where its "
            f"message {claim.count} was owed")


def floor_note(floor: FloorReached, abandoned: bool) -> str:
    """What a match that ended below two live seats says of it (protocol.md §7.7)."""
    left = ", ".join(f"seat {s}" for s in floor.live) or "no seat"
    how = ("abandoned: the game has no forfeit result" if abandoned
           else "with the game's forfeit result")
    return (f"fewer than two live seats: seat {floor.seat} was replaced after its message "
            f"{floor.count} ({floor.reason}), leaving {left}; the match ends there ({how})")


def verify_transcript(t: Transcript, records: dict[bytes, int] | None = None) -> Verdict:
    """The verdict of a file already read (``records``: see :func:`record_numbers`)."""
    return judge(t, {h: Where(0, r) for h, r in (records or {}).items()})[0]


Places = dict[bytes, Where]
"""Message hash -> where it is (copy and record)."""


def judge(t: Transcript, places: Places | None = None, *, copy: int = 0,
          observe: Callable[[Message], None] | None = None
          ) -> tuple[Verdict, MatchCore | None]:
    """The verdict of a file already read, and the core that replayed it (None: the file
    could not be replayed).  ``places``: where each message is; ``copy``: the copy the
    reader's problems are of; ``observe``: called with every message the replay takes, in
    its order."""
    places = places or {}
    notes = tuple(str(p) for p in t.problems)
    if t.header is None:
        first = t.problems[0] if t.problems else None
        reason = first.reason if first else "no header"
        if t.unsigned_header is not None and first is not None:
            return Verdict(INVALID, "header_signature", f"the header is not signed by every "
                           f"seat: {reason}", record=1, copy=copy, notes=notes), None
        code = first.code if first else "not_a_match_file"
        return Verdict(UNREADABLE, code, reason, notes=notes), None
    # Content problems (a bad signature, a broken chain, a foreign message, a fork) make the
    # file invalid; a torn tail only makes it incomplete.  Damage blames no seat; a broken chain
    # or a fork is its seat's signed act.
    for problem in t.problems:
        if t.torn and problem is t.problems[-1]:
            continue
        forks = _fork_proofs(t, places) if problem.code == "fork" else ()
        blamed = () if problem.seat is None or problem.code in DAMAGE_CODES else (problem.seat,)
        return Verdict(INVALID, problem.code, problem.reason, blamed, record=problem.record,
                       copy=copy, messages=t.messages, notes=notes,
                       forks=tuple(f for f in forks if f.seat == problem.seat)), None
    try:
        core = MatchCore(t.header)
    except BadMessage as exc:
        return Verdict(INVALID, "unplayable_header", f"cannot check this match: {exc}",
                       record=1, copy=copy, notes=notes), None
    if observe is not None:
        core.take_observers.append(observe)
    # The reader already verified every signature and chain: the core takes the feeds over
    # and consumes them in canonical order.
    events = core.adopt(t.feeds)
    floor = core.ending.floor
    proved: PeerMisbehaved | None = None  # (the first proof passed over for the end's verdict)
    for event in events:
        if (floor is not None and core.signed and not t.torn and isinstance(event, PeerMisbehaved)
                and event.seat in floor.blamed and _proof(core, event)
                and reason_code(event.reason) != "false_claim"):
            # Its misbehaviour ended the match below two live seats (protocol.md §7.7), and the
            # seat left signed that end: the verdict is the end's (a forfeit: valid; else
            # abandoned), blaming it — unless a later finding gives a verdict (below).
            proved = proved or event
            continue
        if (isinstance(event, HeadsDisputed) and not event.replaced
                and core.cursor[event.seat] <= event.message.seq
                and not _short(core, event.other)):
            # (Heads that differ on replacements only are no dispute: the message waits.  Nor
            # is a message naming one of another live seat's this copy may simply not have
            # yet: the copy is incomplete.)
            if proved is not None and core.version >= 3:
                return _misbehaved(t, core, proved, places, notes), core
            return _heads_disputed(t, core, event, places, notes), core
        if isinstance(event, PeerMisbehaved):
            # (Version 3: a proof passed over above came first, and the end no longer gives
            # the verdict: the proof does — never a later dispute that leaves its seat out.)
            if proved is not None and core.version >= 3:
                event = proved
            return _misbehaved(t, core, event, places, notes), core
    return _ending(t, core, places, notes + match_notes(core)), core


def _short(core: MatchCore, seat: int) -> bool:
    """May this copy simply lack the later messages of ``seat``'s feed?  Yes (version 3) while
    the seat is live, has not signed its END, and every message of its feed held here was
    consumed: a message naming one of its this copy does not hold may name one still to come
    (the copy reads ``incomplete``, waiting for the seat, not ``disputed``)."""
    feed = core.feeds[seat]
    return (core.version >= 3 and core.live(seat) and core.cursor[seat] >= len(feed.messages)
            and not any(m.kind is Kind.END for m in feed.messages))


def _proof(core: MatchCore, event: PeerMisbehaved) -> bool:
    """``event`` proves its seat's fault from this copy (not a dispute between two seats)."""
    found = core.vouching.divergence
    culprit = event.evidence[0] if event.evidence else None
    return not (culprit is not None and found is not None and found[1].hash == culprit.hash
                and reason_code(event.reason) in STATE_CODES)


def _floor_blame(core: MatchCore, places: Places) -> tuple[tuple[int, ...], Where]:
    """The seats whose misbehaviour brought the match below two live seats, and the record
    of the first one's evidence."""
    floor = core.ending.floor
    if floor is None or not floor.blamed:
        return (), Where(0, None)
    first = next((e for e in core.events if isinstance(e, PeerMisbehaved)
                  and e.seat in floor.blamed), None)
    return floor.blamed, _place(places, first.evidence[0] if first and first.evidence else None)


def _place(places: Places, message: Message | None) -> Where:
    return places.get(message.hash, Where(0, None)) if message is not None else Where(0, None)


def _fork_proofs(t: Transcript, places: Places) -> tuple[ForkProof, ...]:
    return tuple(ForkProof(e.seat, e.seq, (e.first, e.second),
                           (_place(places, e.first), _place(places, e.second)))
                 for e in t.equivocations)


def _heads_disputed(t: Transcript, core: MatchCore, event: HeadsDisputed, places: Places,
                    notes: tuple[str, ...]) -> Verdict:
    m, other = event.message, event.other
    body = m.content
    if isinstance(body, DeliveryBody):  # (version 2: it names the round's SEAL_KEY message)
        named, kind, what = body.key_message, "key", f"the key message of seat {other}'s round"
    elif isinstance(body, AnswerBody):  # (version 3: it names the OFFER it answers)
        named, kind, what = body.offer, "offer", f"the OFFER of seat {other} it answers"
    else:
        named, kind, what = m.heads[other], "heads", (
            f"seat {other}'s last message that drove the engine")
    held = event.held[0].seq if event.held else -1
    holds = f"its message {held}" if held >= 0 else "none of its messages yet"
    reason = (f"seat {m.seat}'s message {m.seq} names {named.hex()[:16]} as {what}; this copy "
              f"holds {holds} there (one of the two seats edited a feed or signed a false "
              "reference)")
    at = _place(places, m)
    return Verdict(DISPUTED, "heads_disputed", reason, tuple(sorted((m.seat, other))),
                   record=at.record, copy=at.copy, messages=t.messages,
                   notes=notes + match_notes(core),
                   dispute=Dispute(m.seat, m.seq, (other,), kind, named, held))


def _misbehaved(t: Transcript, core: MatchCore, event: PeerMisbehaved, places: Places,
                notes: tuple[str, ...]) -> Verdict:
    code = reason_code(event.reason)
    culprit = event.evidence[0] if event.evidence else None
    at = _place(places, culprit)
    notes += match_notes(core)

    def made(verdict: str, code: str, reason: str, blamed: tuple[int, ...], *,
             dispute: Dispute | None = None, forks: tuple[ForkProof, ...] = ()) -> Verdict:
        return Verdict(verdict, code, reason, blamed, record=at.record, copy=at.copy,
                       messages=t.messages, notes=notes, dispute=dispute, forks=forks)

    found = core.vouching.divergence
    if (culprit is not None and found is not None and found[1].hash == culprit.hash
            and code in STATE_CODES):
        seat, message, others = found
        what = ("carries another public state digest than" if code == "state_diverged"
                else "is not what is due in")
        reason = (f"seat {seat}'s message {message.seq} {what} the state this copy reaches, "
                  "which rests on messages of seat" + ("s " if len(others) > 1 else " ")
                  + ", ".join(map(str, others)) + " that it does not vouch for (one side "
                  "edited a feed, or signed a false message)")
        return made(DISPUTED, "state_disputed", reason, tuple(sorted({seat, *others})),
                    dispute=Dispute(seat, message.seq, others, "state"))
    forks: tuple[ForkProof, ...] = ()
    if code == "fork" and len(event.evidence) == 2:
        a, b = event.evidence
        forks = (ForkProof(event.seat, a.seq, (a, b), (_place(places, a), _place(places, b))),)
    return made(INVALID, code, event.reason, (event.seat,), forks=forks)


def _ending(t: Transcript, core: MatchCore, places: Places, notes: tuple[str, ...]
            ) -> Verdict:
    checked = t.messages
    ended = [e for e in core.events if isinstance(e, MatchEnded)]
    floor = core.ending.floor
    if ended and (isinstance(core.state.waiting, Over) or core.ending.abandoned):
        # A vote or a welcome may follow a seat's END, sent before it saw every END (an answer
        # to a vote on a point passed, a seat timed out just before its END came in — the END
        # in hand is not held by it): nothing waits for it, and nothing acts on it.  Anything
        # else after the result is wrong.
        after = [m for s, f in enumerate(core.feeds) if core.live(s)
                 for m in f.messages[core.cursor[s]:]]
        unread = [m for m in after if m.kind not in (Kind.ABSENT, Kind.WELCOME)]
        end = ended[0]
        over = core.state.waiting
        drawn: tuple[int, ...] = ()  # (a draw is no win: the seats that drew, no winners)
        if isinstance(over, Over) and over.outcome.drawn:
            drawn = tuple(st.seat for st in over.outcome.standings if st.status in DRAWN)
        won = () if drawn else end.winners
        if core.signed and unread:
            at = _place(places, unread[0])
            return Verdict(INVALID, "after_result", f"{len(unread)} message(s) after every "
                           "seat signed the result", (unread[0].seat,), record=at.record,
                           copy=at.copy, messages=checked, notes=notes)
        if core.signed and after:
            notes += (f"{len(after)} vote(s) or welcome(s) after the result (sent before "
                      "their seat saw every END; nothing waited for them)",)
        claim = core.ending.claim
        if core.signed and not t.torn and claim is not None and not claim.contested:
            held = (f"its messages 0..{claim.count - 1}" if claim.count else "none of its "
                    "messages")
            return Verdict(CLAIMED, "claimed", f"seat {claim.claimant} claimed the match: "
                           f"seat {claim.seat} was silent past the timeouts where its message "
                           f"{claim.count} was owed (seat {claim.claimant} held {held}), and "
                           f"seat {claim.claimant} signed the end", (), messages=checked,
                           winners=won, drawn=drawn, final_digest=end.digest, notes=notes)
        if core.signed and not t.torn and floor is not None:
            blamed, at = _floor_blame(core, places)
            if not core.ending.abandoned:
                return Verdict(VALID, "result_signed", "every check passed; the match ended "
                               f"when seat {floor.seat} was replaced ({floor.reason}), by the "
                               "game's forfeit result, and every live seat signed it", blamed,
                               record=at.record, copy=at.copy, messages=checked,
                               winners=won, drawn=drawn, final_digest=end.digest, notes=notes)
            return Verdict(ABANDONED, "abandoned", "fewer than two live seats were left: seat "
                           f"{floor.seat} was replaced after its message {floor.count} "
                           f"({floor.reason}), and the game has no forfeit result, so the "
                           "match was abandoned there (signed by "
                           + (", ".join(f"seat {s}" for s in floor.live) or "no seat") + ")",
                           blamed, record=at.record, copy=at.copy, messages=checked,
                           final_digest=end.digest, notes=notes)
        if core.signed and not t.torn:
            return Verdict(VALID, "result_signed", "every check passed; every seat signed the "
                           "result", messages=checked, winners=won, drawn=drawn,
                           final_digest=end.digest, notes=notes)
        missing_end = [s for s in core.live_seats() if s not in core.end_signatures]
        gaps = []
        if t.torn:
            gaps.append("the file's last record is torn")
        if missing_end:
            gaps.append("not every seat signed the result (missing: "
                        + ", ".join(f"seat {s}" for s in missing_end) + ")")
        reason = "the match ended, but " + "; ".join(gaps)
        return Verdict(INCOMPLETE, "torn_tail" if t.torn else "unsigned_result", reason,
                       messages=checked, winners=won, drawn=drawn, final_digest=end.digest,
                       notes=notes, waiting_for=tuple(missing_end))
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
    waiting = waited_for(core, missing)
    if waiting:
        reason += "; the seats it waits for: " + ", ".join(map(str, waiting))
    code = "torn_tail" if t.torn else "missing_messages" if missing else "unfinished"
    return Verdict(INCOMPLETE, code, reason, messages=checked, notes=notes,
                   waiting_for=waiting)


def waited_for(core: MatchCore, missing: dict[int, range]) -> tuple[int, ...]:
    """The live seats a match that stops short waits for: those that owe a message (or a
    vote) not in the file, or whose message in the file cannot be taken yet (``owing``), and
    those with a gap in their feed; failing all, every live seat that owes anything."""
    live = set(core.live_seats())
    waiting = set(core.owing()) | (set(missing) & live)
    if not waiting:
        waiting = {s for s in live if core.expects(s) is not None}
    return tuple(sorted(waiting))
