"""How a tampered copy reads, by the measures of issue 46.

* ``accepted``: the verdict is ``valid`` (a truncation that reads ``incomplete`` is not
  accepted);
* ``honest_blamed_alone``: the seats the verdict names — ``blamed``, and the parties of its
  dispute — are not empty and leave out the seat that edited its own feed (the liar); for a
  tampering with no liar (damage: bit flips, truncations, header edits, another seat's messages
  left out), any seat named;
* ``error``: the verifier raised (it must never).

Also noted, not counted as a failure: ``waits_on_honest``, a copy forged by a liar that reads
``incomplete`` waiting only for other seats (its ``waiting_for`` leaves the liar out).

And not counted at all, like a mutant that is byte for byte the honest file: an **inert** copy,
one that reads ``valid`` with the honest match's final digest *and* transcript digest — every
live seat's END, signed in the honest match, vouches for the copy's result and for the head of
every feed in it.  Its edit touched only messages no rule reads (a seat's message after it was
replaced, skipped as stale; a vote after the result; a reclaim nobody welcomed): the copy is a
history every seat signed, and nothing in it could be found wrong.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass

from protocol.verify.verdicts import INCOMPLETE, VALID, Verdict
from protocol.verify.verifier import judge as replay
from protocol.verify.verifier import verify
from protocol.wire.transcript import read_transcript

__all__ = ["Outcome", "judge", "named", "outcome"]


def named(verdict: Verdict) -> tuple[int, ...]:
    """The seats a verdict names: blamed, or a party of its dispute."""
    seats = set(verdict.blamed)
    if verdict.dispute is not None:
        seats.add(verdict.dispute.seat)
        seats.update(verdict.dispute.others)
    return tuple(sorted(seats))


def judge(verdict: Verdict, liar: int | None) -> str:
    """``accepted``, ``honest_blamed_alone``, ``waits_on_honest`` or ``ok`` (see the module
    docstring)."""
    if verdict.verdict == VALID:
        return "accepted"
    seats = named(verdict)
    if seats and (liar is None or liar not in seats):
        return "honest_blamed_alone"
    if (verdict.verdict == INCOMPLETE and liar is not None and verdict.waiting_for
            and liar not in verdict.waiting_for):
        return "waits_on_honest"
    return "ok"


@dataclass(frozen=True)
class Outcome:
    """One tampered file as the verifier read it."""

    verdict: str  # the verdict, or "error"
    reason_code: str
    reason: str
    blamed: tuple[int, ...]
    dispute: tuple[int, ...]  # the dispute's parties: its seat, then the others
    judged: str  # accepted, honest_blamed_alone, waits_on_honest, ok or error
    waiting_for: tuple[int, ...] = ()  # (incomplete) the seats the match waits for
    final_digest: bytes = b""
    winners: tuple[int, ...] = ()
    transcript: bytes = b""  # (valid) the transcript digest every END signed

    def fields(self) -> dict[str, object]:
        return {"verdict": self.verdict, "reason_code": self.reason_code, "reason": self.reason,
                "blamed": list(self.blamed), "dispute": list(self.dispute),
                "judged": self.judged, "waiting_for": list(self.waiting_for)}


def outcome(data: bytes, liar: int | None) -> Outcome:
    """Verify ``data`` and judge it."""
    try:
        verdict = verify(data)
    except Exception:  # (the verifier must never raise: counted, with its traceback)
        return Outcome("error", "", traceback.format_exc(), (), (), "error")
    dispute = () if verdict.dispute is None else (verdict.dispute.seat,
                                                  *verdict.dispute.others)
    return Outcome(verdict.verdict, verdict.reason_code, verdict.reason, verdict.blamed,
                   dispute, judge(verdict, liar), verdict.waiting_for, verdict.final_digest,
                   verdict.winners, transcript_of(data) if verdict.verdict == VALID else b"")


def transcript_of(data: bytes) -> bytes:
    """The transcript digest of a copy whose match was signed (b"" otherwise)."""
    _verdict, core = replay(read_transcript(data))
    final = None if core is None else core.ending.final
    return b"" if final is None else final.transcript
