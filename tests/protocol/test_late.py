"""What follows a seat's END (protocol/mechanisms/late.py, protocol.md §7.6): a vote or a welcome a seat
signs after its END is a note — a vote on a point before the end holds nothing, so a finished
match stays valid on every copy that stores it — while a vote at the END round (a seat silent
there) still counts, and a second version of a slot is still a fork.

Each test builds the file as a peer would store it; without protocol/mechanisms/late.py, the first two
read ``incomplete`` ("it waits for chance setup.character.2": the vote, read ahead of the
cursors, holds seat 2's message 3 for good) — checked by running them with
``Late.holds_nothing`` returning False."""

from __future__ import annotations

import pytest
from protocol.mesh import Network
from protocol.verify.verifier import INVALID, VALID, verify
from protocol.wire.messages import AbsentBody, EndBody, Kind, Message, sign_message

from benchmarks.scenario import raiders_network
from tests.protocol.framing import copy_bytes


@pytest.fixture(scope="module")
def finished() -> Network:
    net = raiders_network(3, tag=b"late-votes")
    net.pump()
    return net


def feeds_of(net: Network) -> list[list[Message]]:
    return [list(f.messages) for f in net.cores[0].feeds]


def appended(net: Network, feed: list[Message], body: AbsentBody) -> Message:
    """The next message of ``feed``'s seat: ``body``, signed by that seat."""
    last = feed[-1]
    return sign_message(net.keys[last.seat], match_id=last.match_id, seat=last.seat,
                        seq=last.seq + 1, prev=last.hash, kind=Kind.ABSENT, state=last.state,
                        body=body)


@pytest.mark.parametrize(("voter", "target", "count", "absent"), [
    (1, 2, 3, 1), (1, 0, 5, 1), (0, 2, 3, 1), (2, 0, 5, 1), (1, 2, 3, 2), (1, 0, 5, 0)])
def test_a_vote_after_its_voters_end_on_a_past_point_is_a_note(
        finished: Network, voter: int, target: int, count: int, absent: int) -> None:
    feeds = feeds_of(finished)
    assert feeds[voter][-1].kind is Kind.END
    feeds[voter].append(appended(finished, feeds[voter], AbsentBody(target, count, absent)))
    verdict = verify(copy_bytes(finished.header, feeds))
    assert (verdict.verdict, verdict.reason_code) == (VALID, "result_signed"), verdict.reason
    assert verdict.final_digest == finished.cores[0].public_digest()
    assert any("vote(s) or welcome(s) after the result" in n for n in verdict.notes)


def test_a_peer_that_stores_it_after_the_end_stays_signed() -> None:
    """The peer of the seat voted on rebuilds its core from the feeds (the vote names a message
    it took: MatchCore.replaced_behind); the rebuilt core, as the verifier's, must reach the
    end again."""
    net = raiders_network(3, tag=b"late-votes-live", rebuild=True)
    net.pump()
    feed = list(net.cores[1].feeds[1].messages)
    late = appended(net, feed, AbsentBody(2, 3, 1))
    rebuilds = net.rebuilds
    for i in range(3):
        net.deliver(i, late)
    assert net.rebuilds == rebuilds + 1  # seat 2's peer rebuilt
    assert all(core.signed for core in net.cores)
    for i in range(3):
        assert verify(net.match_file(i)).verdict == VALID


def test_a_vote_at_the_end_round_after_the_voters_end_still_counts(finished: Network) -> None:
    """Seat 0 never signs the result; seats 1 and 2, after their own ENDs, vote it absent there:
    it is replaced, and the two of them finish."""
    feeds = feeds_of(finished)
    assert feeds[0][-1].kind is Kind.END
    feeds[0].pop()
    count = len(feeds[0])
    for voter in (1, 2):
        feeds[voter].append(appended(finished, feeds[voter], AbsentBody(0, count, 1)))
    verdict = verify(copy_bytes(finished.header, feeds))
    assert verdict.verdict == VALID, verdict.reason
    assert any(n.startswith(f"seat 0 was replaced by its zombie after its message {count}")
               for n in verdict.notes), verdict.notes


def test_a_second_version_of_a_slot_after_the_end_is_still_a_fork(finished: Network) -> None:
    feeds = feeds_of(finished)
    end = feeds[1][-1]
    assert isinstance(end.content, EndBody)
    other = sign_message(finished.keys[1], match_id=end.match_id, seat=1, seq=end.seq,
                         prev=end.prev, kind=Kind.ABSENT, state=end.state,
                         body=AbsentBody(2, 3, 1))
    verdict = verify(copy_bytes(finished.header, [*feeds, [other]]))
    assert (verdict.verdict, verdict.reason_code, verdict.blamed) == (INVALID, "fork", (1,))
    assert {m.hash for m in verdict.forks[0].versions} == {end.hash, other.hash}
