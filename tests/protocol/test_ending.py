"""The END round on its own (protocol/mechanisms/ending.py, protocol.md §7.8): an :class:`Ending` with
signed END messages."""

from __future__ import annotations

import hashlib

import pytest
from protocol.match.events import MatchEnded, ResultSigned
from protocol.mechanisms.ending import Ending
from protocol.wire.messages import EndBody

from protocol.crypto import transcript_digest
from protocol.errors import Fault
from tests.protocol.kit import MATCH_ID, signed

FINAL = hashlib.sha256(b"final public state").digest()


def heads(*names: bytes) -> list[bytes]:
    return [hashlib.sha256(name).digest() for name in names]


def ended(n: int = 3) -> Ending:
    ending = Ending(MATCH_ID, n)
    ending.core_head[:] = heads(*(b"head %d" % s for s in range(n)))
    ending.reach([2, 0], FINAL)
    return ending


def result(ending: Ending) -> EndBody:
    """The END body that signs the match's result."""
    assert ending.final is not None
    return EndBody(ending.final.digest, ending.final.transcript)


def test_nothing_is_owed_before_the_end() -> None:
    ending = Ending(MATCH_ID, 3)
    assert not ending.ended and ending.final is None and not ending.signed
    assert not any(ending.owes(s) for s in range(3))
    assert ending.core_head == [MATCH_ID] * 3  # every feed empty: its head is the match id


def test_reaching_the_end_fixes_the_result_every_seat_signs() -> None:
    ending = Ending(MATCH_ID, 3)
    ending.core_head[1] = heads(b"x")[0]
    final = ending.reach([2, 0], FINAL)
    assert final == MatchEnded((0, 2), FINAL, transcript_digest(
        MATCH_ID, [MATCH_ID, heads(b"x")[0], MATCH_ID]))
    assert ending.ended and ending.final is final
    assert all(ending.owes(s) for s in range(3))


def test_the_transcript_covers_every_feeds_head() -> None:
    a, b = Ending(MATCH_ID, 3), Ending(MATCH_ID, 3)
    b.core_head[2] = heads(b"another last message")[0]
    assert a.reach([], FINAL).transcript != b.reach([], FINAL).transcript


def test_an_end_that_signs_the_result_is_taken() -> None:
    ending = ended()
    message = signed(1, result(ending))
    assert ending.on_end(1, message, result(ending))
    assert ending.end_signatures == {1: message}
    assert not ending.owes(1) and ending.owes(0) and ending.owes(2)


@pytest.mark.parametrize("wrong", ["final_state", "transcript"])
def test_an_end_that_signs_another_result_is_a_fault(wrong: str) -> None:
    ending = ended()
    good = result(ending)
    other = hashlib.sha256(b"something else").digest()
    body = EndBody(other, good.transcript) if wrong == "final_state" else EndBody(
        good.final_state, other)
    message = signed(0, body)
    with pytest.raises(Fault) as info:
        ending.on_end(0, message, body)
    assert info.value.reason.startswith("its END signs another final state or transcript")
    assert info.value.evidence == (message,)
    assert ending.end_signatures == {} and ending.owes(0)


def test_the_result_is_agreed_once_every_live_seat_signed_and_no_key_is_owed() -> None:
    ending = ended()
    for seat in (0, 1):
        ending.on_end(seat, signed(seat, result(ending)), result(ending))
    def never(seat: int) -> bool:
        return False
    assert ending.agree((0, 1, 2), never) is None
    assert not ending.signed
    ending.on_end(2, signed(2, result(ending)), result(ending))
    assert ending.agree((0, 1, 2), lambda seat: seat == 1) is None  # seat 1 owes its key
    assert not ending.signed
    assert ending.final is not None
    assert ending.agree((0, 1, 2), never) == ResultSigned((0, 2), FINAL, ending.final.transcript)
    assert ending.signed


def test_a_replaced_seat_need_not_sign() -> None:
    ending = ended()
    for seat in (0, 2):
        ending.on_end(seat, signed(seat, result(ending)), result(ending))
    assert ending.agree((0, 2), lambda seat: False) is not None


def test_nobody_live_agrees_on_nothing() -> None:
    assert ended().agree((), lambda seat: False) is None
