"""The END round (F8): once the engine reaches its end, every live seat signs the final public
digest and the transcript digest (the head of every feed's last message that drove the engine);
when every live seat has signed the same, and no private-knowledge key is still owed, the result
is agreed."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence

from protocol.crypto import transcript_digest
from protocol.errors import Fault
from protocol.match.events import FloorReached, MatchClaimed, MatchEnded, ResultSigned
from protocol.wire.messages import EndBody, Message


class Ending:
    """The match's end: the result, and the seats that signed it."""

    def __init__(self, match_id: bytes, n: int) -> None:
        self._match_id = match_id
        self.ended = False  # the engine reached its end
        self.signed = False  # every live seat signed the result (END)
        self.final: MatchEnded | None = None
        self.end_signatures: dict[int, Message] = {}
        # Each seat's last consumed message of the kinds that drive the engine: the heads the
        # transcript digest covers (optional messages, such as votes, may be consumed earlier
        # or later on different peers, so they cannot count).
        self.core_head = [match_id] * n
        self.state_heads = tuple(self.core_head)  # core_head when the engine state last changed
        self.final_heads: tuple[bytes, ...] = ()  # core_head when the engine reached its end
        # Version 2: a replacement left fewer than two live seats: the match ends (§7.7).
        self.floor: FloorReached | None = None
        # It ended so with no forfeit result: the END round signs the state it stopped in.
        self.abandoned = False
        # Version 2: it ended where its live seats did not all lead it by their own messages —
        # the floor, or a draw they agreed to (§7.7): what a live seat sent after it, before
        # it saw the end, is stale, and each END's transcript is taken when the END is.
        self.cut = False
        # Version 2: every live seat agreed to a draw (§7.7): what a live seat sent after it,
        # before it saw it, is stale; the END round signs the heads the agreement fixed.
        self.agreed = False
        # Version 2: a CLAIM ended it (§7.7), or was contested (then it is abandoned).
        self.claim: MatchClaimed | None = None

    def state_changed(self) -> None:
        """The engine state changed: it rests on every message taken so far."""
        self.state_heads = tuple(self.core_head)

    def owes(self, seat: int) -> bool:
        """The match is over and ``seat`` has not signed the result."""
        return self.ended and seat not in self.end_signatures

    def end_transcript(self) -> bytes:
        """The transcript digest an END signs now.  At the floor (§7.7) it covers a live seat's
        feed up to its END — where the cheat's message fell among a live seat's own messages is
        a matter of arrival order, and those after it are stale — so it is taken when the END
        is (the replaced seats' heads no longer move)."""
        assert self.final is not None
        if not self.cut:
            return self.final.transcript
        return transcript_digest(self._match_id, list(self.core_head))

    def on_end(self, seat: int, message: Message, body: EndBody) -> bool:
        assert self.final is not None
        if body.final_state != self.final.digest or body.transcript != self.end_transcript():
            raise Fault("its END signs another final state or transcript than the match's (a "
                        "wrong claim of the result)", message)
        if self.cut:
            self.final = dataclasses.replace(self.final, transcript=body.transcript)
        self.end_signatures[seat] = message
        return True

    def reach(self, winners: Iterable[int], digest: bytes,
              heads: tuple[bytes, ...] | None = None, *, abandoned: bool = False,
              covered: Sequence[bytes] | None = None) -> MatchEnded:
        """The engine reached its end: the result every live seat now signs (``heads``: what
        its END messages name, version 2; by default every seat's last consumed message;
        ``covered``: the heads its transcript digest covers, by default the same)."""
        self.ended = True
        self.abandoned = abandoned
        self.final_heads = tuple(self.core_head) if heads is None else heads
        covered = list(self.core_head) if covered is None else list(covered)
        self.final = MatchEnded(tuple(sorted(winners)), digest,
                                transcript_digest(self._match_id, covered),
                                self.abandoned)
        return self.final

    def agree(self, live: tuple[int, ...],
              owes_release: Callable[[int], bool]) -> ResultSigned | None:
        """Every live seat signed, and no key is owed: the result is agreed."""
        if live and all(s in self.end_signatures for s in live) and not any(
                owes_release(s) for s in live):
            assert self.final is not None
            self.signed = True
            return ResultSigned(self.final.winners, self.final.digest, self.final.transcript,
                                self.final.abandoned)
        return None
