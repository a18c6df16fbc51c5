"""Absent votes when links stall for longer than both timeouts and then heal: votes cross, seats
vote each other out at once, replaced seats reclaim — and every peer still ends in the state its
file says, whatever order the messages arrived in (protocol.md §7.6, §7.7)."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from protocol.match.core import LocalSeat, MatchCore, PeerMisbehaved
from protocol.mesh import (
    Network,
    Partition,
    cut_off,
    draw_partition,
    play_partition,
    shuffled,
    take_in_order,
)
from protocol.verify.verifier import INVALID, VALID, verify
from protocol.wire.messages import AbsentBody, CommitBody, EndBody, Kind, Message, RevealBody

from benchmarks.partitions import OUTCOMES, judged, outcome
from benchmarks.scenario import RAIDERS, raiders_network
from engine.stream import HashStream
from protocol.crypto import replaced_head
from tests.protocol.helpers import match_file


def adopted(core: MatchCore) -> MatchCore:
    """The state its feeds give: what the verifier computes."""
    fresh = MatchCore(core.header)
    fresh.adopt(dict(enumerate(core.feeds)))
    return fresh


def same_state(a: MatchCore, b: MatchCore) -> bool:
    """The same public state, seats replaced and kept, and — until the result is signed, after
    which nothing more is taken — the same messages taken."""
    return (a.public_digest(), sorted(a.absent), a.votes.acquitted, a.signed) == (
        b.public_digest(), sorted(b.absent), b.votes.acquitted, b.signed) and (
        a.signed or a.cursor == b.cursor)


def assert_finished_alike(net: Network) -> None:
    """Every peer finished the same match, nobody was blamed, and each file verifies."""
    assert all(core.signed for core in net.cores)
    assert len({core.public_digest() for core in net.cores}) == 1
    for i in range(len(net.cores)):
        assert not [e for e in net.events[i] if isinstance(e, PeerMisbehaved)]
    for i in range(len(net.cores)):
        verdict = verify(match_file(net, i))
        assert verdict.verdict == VALID, (i, verdict.reason)


# --------------------------------------------------------------------------- crossed votes


def crossed(tag: bytes = b"mutual", variant: str = "basic") -> Network:
    """Seats 1 and 2's messages stall on every link while seat 0's get through: seat 0 times
    both out, and seats 1 and 2 time each other out.  Then the links heal, and every peer is
    rebuilt from the feeds (as MatchPeer does when a vote names a message it took)."""
    net = raiders_network(3, variant, tag=tag)
    net.pump(limit=20, partial=True)
    net.land_in_flight()
    net.heal(net.stall(cut_off({1, 2}, 3)))
    for i, old in enumerate(net.seats):
        net.seats[i] = old.rebuilt()
        net.cores[i] = net.seats[i].core
    return net


def test_three_seats_that_time_each_other_out_at_once_play_on() -> None:
    """The crossed votes: each absent vote of seat 1 or 2 follows, in its own feed, the message
    the other voted missing, so it waits for that vote; and a seat under a vote is not one of
    the voters another vote needs — so each vote had one voter it could count, seat 0's, and
    needed two.  Nobody owed anything, no timer ran, and the match waited for good (seen as an
    intermittent hang of tests/adversary/test_faults.py::test_stalls_of_several_seconds).  Now
    the dead end is broken: seat 1, the lowest whose own vote shows it sent the message it was
    voted out at, is kept, and the old rules replace seat 2, which reclaims.  (Seat 2 had held
    back its secret of a face-up room every other seat had revealed: it withheld, and forfeits
    — Raiders keeps it in play: tests/protocol/mechanisms/test_withholding.py.)"""
    net = crossed()
    for i, core in enumerate(net.cores):
        votes = {(t, v): b for (t, _), ballot in core.ballots.items() for v, b in ballot.items()}
        assert votes == {(1, 0): 1, (1, 2): 1, (2, 0): 1, (2, 1): 1}, votes
        # A live peer holds the dead end for a turn timeout (a message on its way may change
        # it); nobody is owed meanwhile, but its timer runs.
        assert not core.votes.acquitted and not core.absent and not core.owing()
        deadline = core.get_timer()
        assert deadline is not None
        core.handle_timer(deadline - 0.5)
        assert not core.votes.acquitted
        net.run_clock(i)
        assert {seat for seat, _ in core.votes.acquitted} == {1}
        assert set(core.absent) == {2}
    net.run_with_timeouts(limit=8)
    assert_finished_alike(net)
    notes = verify(match_file(net, 0)).notes
    assert any(n.startswith("seat 1 kept at its message") for n in notes), notes
    assert any(n.startswith("seat 2 was replaced") for n in notes), notes
    assert any(n.startswith("seat 2 reclaimed") for n in notes), notes


def test_the_seat_kept_is_the_same_in_any_arrival_order() -> None:
    """The dead end is looked at only once nothing more can be taken, and nothing a peer may
    still receive undoes it: a core fed the same messages in any order keeps the same seat,
    replaces the same seat and reaches the same state as the feeds taken whole."""
    net = crossed()
    reference = adopted(net.cores[0])  # (a peer settles it a turn timeout later, the same way)
    messages = [m for feed in reference.feeds for m in feed.messages]
    for k in range(30):
        core = take_in_order(net.header, shuffled(messages, HashStream(b"order%d" % k)))
        assert same_state(core, reference), k


def test_a_dead_end_with_a_voter_still_owed_is_left_alone() -> None:
    """Only a dead end that nothing can change is broken: with seat 2's vote on seat 1 not in
    hand (it may still answer "present"), seat 1 is owed a vote, its timer runs, and nobody is
    kept yet."""
    net = crossed(b"owed")
    reference = adopted(net.cores[0])
    vote = next(m for m in reference.feeds[2].messages if isinstance(m.content, AbsentBody)
                and m.content.seat == 1)
    core = take_in_order(net.header, [
        m for seat, feed in enumerate(reference.feeds)
        for m in feed.messages[:vote.seq if seat == 2 else len(feed.messages)]])
    assert not core.votes.acquitted
    assert core.owing() == (2,)  # its vote is owed: a timer runs (the peers ask for it)
    # It comes in, with what follows it: now the dead end is the one every peer sees.
    core = take_in_order(net.header, list(reference.feeds[2].messages[vote.seq:]), core)
    assert same_state(core, reference)


def test_a_live_peer_holds_a_dead_end_while_a_vote_may_be_on_its_way() -> None:
    """One-way partition pattern 61: seat 0 is cut off both ways and seat 1's messages do not
    reach seat 2.  As the links heal, seat 1's peer reached a dead end of crossed votes (seats 0
    and 1) before seat 0's later vote on seat 2 came in, broke it, and took seat 2's message
    that the others then held up: it played on alone and the others stalled.  A live peer now
    breaks a dead end only once it has lasted a turn timeout — by then the vote is in."""
    assert_partition_heals_alike(b"61", "one-way")


def test_a_peer_left_short_by_arrival_order_rebuilds_after_both_timeouts() -> None:
    """One-way partition pattern 84: seat 2's peer decided votes in an order that left its
    core short of what its own feeds give taken whole, and it waited for good while the three
    others signed the result.  After both timeouts of a wait, a peer whose rebuilt core is
    somewhere else takes it (LocalSeat.lagging) — what a restart would have done."""
    net = play_partition(draw_partition(b"84", RAIDERS, "one-way"))
    assert all(core.signed for core in net.cores)
    assert len({core.public_digest() for core in net.cores}) == 1
    assert outcome(b"84", "one-way") == "finished_alike"


@pytest.mark.parametrize("seed", [b"28", b"34", b"58"])
def test_links_stalled_one_way_as_network_peers_see_them(seed: bytes) -> None:
    """One-way partition patterns 28, 34 (4 seats; seat 0 hears nobody, seat 1 only seat 0) and
    58 stall for good when links carry one way: a seat that hears a vote on itself answers
    for the others, its answer reaches some peers and not others, and the feeds taken whole
    keep what some peers had already replaced (rationale.md §4).  (28: seat 2, itself voted
    absent, answers "present" for seat 0 after seat 3's peer replaced seat 0.)  Network peers
    close a link they hear nothing on (PeerConfig.link_silence, network.md §4), so the same draws
    reach the core as links down both ways — and these finish alike."""
    assert outcome(seed, "one-way") == "stalled"
    assert outcome(seed, "one-way-closed") == "finished_alike", draw_partition(
        seed, RAIDERS, "one-way-closed").describe()


def test_a_replaced_peer_that_waits_runs_its_clock_and_catches_up() -> None:
    """One-way pattern 86 (4 seats): seats 0 and 3 replace seats 1 and 2 and finish.  Peer 2,
    replaced in its own view, had taken seat 1's message under the vote and waited on messages
    that name a replacement it had not made; its clock runs both timeouts and it is brought
    back to what its file gives (lagging, protocol.md §8.2) — as a network peer does.  Seat 2
    no longer answers "present" for seat 1 once seat 0 or 3 signed heads naming seat 1's
    replacement, and the pattern finishes alike (before, seat 2's answer kept seat 1 in the feeds
    taken whole and the pattern stalled; with that answer held back but the clocks of peers
    replaced in their own view left still, peer 2 stayed where it was and the pattern parted)."""
    assert outcome(b"86", "one-way") == "finished_alike"
    assert outcome(b"86", "one-way-closed") == "finished_alike"


def test_seats_that_went_on_without_others_are_not_undone_by_late_present_answers() -> None:
    """One-way-closed partition pattern 73 (5 seats): seats 1 and 4 hear each other and nobody
    else; seats 0, 2 and 3 hear nobody.  Seats 1 and 4 vote the other three absent at their
    messages 19, replace them and finish the match.  When the links heal, seats 0, 2 and 3 read
    those votes and each holds the others' messages 19: they used to answer "present" for one
    another, so the feeds taken whole kept all five seats and the messages of seats 1 and 4,
    whose heads carry the replacement marks, never fitted — the two sides signed different
    results (before that, each side blamed the other).  A seat now leaves such a point
    unanswered once a voter has signed heads naming the replacement (protocol.md §8.2): the
    pattern finishes alike, nobody blamed."""
    verdict, blamed, disputed, _ = judged(b"73", "one-way-closed")
    assert (verdict, blamed, disputed) == ("finished_alike", [], False)


def test_a_seat_replaced_after_its_reveal_plays_what_it_revealed() -> None:
    """One-way partition pattern 127 (3 seats): seat 1 revealed its room-1 play, then the two
    others settled that it was silent at its next message.  Seat 0's peer applied the room with
    seat 1's revealed play before the settlement came in; the feeds taken whole replace seat 1
    first, and its zombie played the room instead — so seat 0's next message carried another
    state, and every file blamed seat 0.  A seat replaced after its reveal was taken now plays
    what it revealed (version 2): the pattern finishes alike."""
    verdict, blamed, disputed, _ = judged(b"127", "one-way")
    assert (verdict, blamed, disputed) == ("finished_alike", [], False)


def test_a_core_that_is_where_its_feeds_say_is_not_rebuilt() -> None:
    net = raiders_network(3, tag=b"lagging")
    net.pump(limit=60, partial=True)
    for seat in net.seats:
        assert seat.lagging() is None


# --------------------------------------------------------------------------- partitions


def assert_partition_heals_alike(seed: bytes, mode: str) -> None:
    assert outcome(seed, mode) == "finished_alike", draw_partition(seed, RAIDERS, mode).describe()


def assert_partition_heals(seed: bytes) -> None:
    """The links of a partition drawn from ``seed`` stall for longer than both timeouts, one to
    three times over: every peer times out the seats it does not hear, votes cross, seats are
    replaced — on their own peers too, which rebuild.  Then the links deliver everything, in a
    scrambled order: every peer finishes the same match, its file verifies, and a core fed that
    file's messages in any order reaches the same state."""
    net = play_partition(draw_partition(seed, RAIDERS))
    assert_finished_alike(net)
    reference = adopted(net.cores[0])
    messages = [m for feed in net.cores[0].feeds for m in feed.messages]
    for k in range(3):
        core = take_in_order(net.header, shuffled(messages, HashStream(seed + bytes([k]))))
        assert same_state(core, reference), k


# Partitions each of which stalled, parted or left an invalid file without one of the rules
# (python -m benchmarks partitions --show, on the code without it): 186 without crossed votes
# kept (protocol.md §7.6 item 7); 2 (parted) without a rebuild at the first vote on one's own
# message; 13 without votes while one's own message waits (§8.2); 38 and 71 (5 seats) without
# the clock's findings kept across a rebuild; 53 and 92 (5 seats, invalid) without a WELCOME
# waiting for its RECLAIM (§6.4).  The slow sweep below plays 200.
PARTITIONS = [b"%d" % k for k in (2, 13, 38, 53, 71, 92, 186)]


@pytest.mark.parametrize("seed", PARTITIONS)
def test_seats_cut_off_past_both_timeouts_come_back_and_the_match_verifies(seed: bytes) -> None:
    assert_partition_heals(seed)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(200))
def test_partition_sweep(seed: int) -> None:
    """``pytest -m slow``: 200 partitions of whole seats cut off (3–5 seats)."""
    assert_partition_heals(b"%d" % seed)


def sides(partition: Partition) -> list[set[int]]:
    """The groups of seats that hear each other while the links stall (links down both ways:
    the ``split`` and ``one-way-closed`` modes)."""
    groups: list[set[int]] = []
    for seat in range(partition.players):
        if not any(seat in g for g in groups):
            groups.append({seat} | {o for o in range(partition.players)
                                    if (seat, o) not in partition.links and o != seat})
    return groups


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100))
def test_one_way_sweep_as_network_peers_see_it(seed: int) -> None:
    """``pytest -m slow``: 100 one-way patterns as network peers see them (a link silent one
    way is closed: network.md §4).  None stalls; each either finishes alike or is a split
    with two or more seats on two sides (the known gap of rationale.md §4)."""
    partition = draw_partition(b"%d" % seed, RAIDERS, "one-way-closed")
    result = outcome(b"%d" % seed, "one-way-closed")
    if result != "finished_alike":
        assert result == "parted", partition.describe()
        assert sum(len(g) >= 2 for g in sides(partition)) >= 2, partition.describe()


def test_crash_patterns_stop_one_seat_and_cut_only_links_between_the_others() -> None:
    """``--mode crash``: the crashed seat is on no stalled link (it sends nothing anyway, and
    relays nothing: a pair is cut when no path of live peers joins it); every pattern cuts
    something, both ways."""
    for number in range(60):
        partition = draw_partition(b"%d" % number, RAIDERS, "crash")
        assert partition.crashed is not None and partition.links
        assert all(partition.crashed not in link for link in partition.links)
        assert all((b, a) in partition.links for a, b in partition.links)
    assert draw_partition(b"7", RAIDERS, "split").crashed is None


def test_a_crashed_seat_is_replaced_while_a_live_one_is_cut_off_and_comes_back() -> None:
    """Crash pattern 20: four seats; seat 1's peer stops for good as seat 3's links to seats 0
    and 2 stall three times past both timeouts.  The three live peers finish alike, seat 1
    replaced for its silence on every one of them, and every file verifies."""
    net = play_partition(draw_partition(b"20", RAIDERS, "crash"))
    running = [i for i, _ in net.running()]
    assert running == [0, 2, 3]
    assert len({net.cores[i].public_digest() for i in running}) == 1
    for i in running:
        assert net.cores[i].signed and 1 in net.cores[i].absent
        assert not [e for e in net.events[i] if isinstance(e, PeerMisbehaved)]
        assert verify(net.match_file(i)).verdict == VALID
    assert outcome(b"20", "crash") == "finished_alike"


SETTLED = {
    1: "three seats, seat 2 crashed, the link between seats 0 and 1 down past both timeouts",
    27: "the crashed seat owes only votes (the match does not need its message there)",
    37: "one live seat is not held up while the other waits on its vote",
    56: "four seats, seat 2 crashed, the three live seats all cut apart",
    61: "the crashed seat was the torch user: deliveries to its round are stale",
    158: "chance reveals for an event drawn again are stale, not a reason to vote a seat out",
}


@pytest.mark.parametrize("number", sorted(SETTLED), ids=[SETTLED[n] for n in sorted(SETTLED)])
def test_a_crashed_seat_whose_votes_a_dead_end_waits_for_is_settled(number: int) -> None:
    """One seat crashed while the links between the others stalled past both timeouts: the
    live seats voted each other absent, and the votes the crashed seat owes on them never come
    (protocol.md §7.6 item 8).  Every live seat signs ABSENT ``[seat, count, 2]``; the crashed
    seat is replaced, named "settled" in every file, and the match finishes alike.  (Each
    pattern stalled before settlements.)"""
    partition = draw_partition(b"%d" % number, RAIDERS, "crash")
    crashed = partition.crashed
    assert crashed is not None
    net = play_partition(partition)
    running = [i for i, _ in net.running()]
    assert len({net.cores[i].public_digest() for i in running}) == 1
    for i in running:
        core = net.cores[i]
        assert core.signed and "settled" in core.absent[crashed].reason
        assert not [e for e in net.events[i] if isinstance(e, PeerMisbehaved)]
        assert verify(net.match_file(i)).verdict == VALID
        settles = [m for m in core.feeds[i].messages if isinstance(m.content, AbsentBody)
                   and m.content.absent == 2]
        assert [(m.content.seat, m.content.count) for m in settles] == [
            (crashed, core.absent[crashed].count)]
    assert outcome(b"%d" % number, "crash") == "finished_alike"


def test_a_dead_end_of_crossed_votes_waits_for_a_pending_settlement() -> None:
    """Cut-off pattern 180: seats 0 and 1 are cut off; each signs a settlement on the other
    while cut off, and seat 2, once the links heal, joins the one on seat 0.  A replay that holds
    seat 2's votes but not yet every signature sees a dead end of crossed votes; breaking it
    kept seat 0 and replaced seat 1, where the file taken whole replaces seat 0 — the dead end
    now waits for the settlement, and every order reaches the same state."""
    assert outcome(b"180", "cut-off") == "finished_alike"


def test_a_settlement_needs_every_other_live_seat() -> None:
    """Crash pattern 1's feeds without seat 1's settlement (the last signer's, cut off with
    what followed it) stay at the dead end: seat 0's alone replaces nobody."""
    net = play_partition(draw_partition(b"1", RAIDERS, "crash"))
    feeds = net.cores[0].feeds
    settle = next(m for m in feeds[1].messages
                  if isinstance(m.content, AbsentBody) and m.content.absent == 2)
    messages = [m for seat, feed in enumerate(feeds) for m in feed.messages
                if seat != 1 or m.seq < settle.seq]
    core = take_in_order(net.header, messages)
    assert 2 not in core.absent and not core.signed
    assert core.votes.settles == {(settle.content.seat, settle.content.count): {0}}
    whole = take_in_order(net.header, [m for feed in feeds for m in feed.messages])
    assert 2 in whole.absent and whole.signed


def _settled_and_back(start: int) -> Network:
    """Three seats, every link down past both timeouts (each seat votes both others absent).
    Then the link 0–1 comes back; seats 0 and 1 settle seat 2, and at that very moment seat 2
    comes back too: it was slow, not crashed."""
    net = raiders_network(3, tag=b"return/%d" % start, rebuild=True)
    net.pump(limit=start, partial=True)
    net.land_in_flight()
    away = {(2, 0), (2, 1), (0, 2), (1, 2)}
    held = net.stall(away | {(0, 1), (1, 0)}, rounds=1)
    for i, message in held:
        if (message.seat, i) not in away:
            net.deliver(i, message)
    held = [(i, m) for i, m in held if (m.seat, i) in away]

    def settled() -> bool:
        return all(2 in net.cores[i].absent for i in (0, 1))

    for _ in range(8):
        for _ in range(100):  # pump, holding back what goes to or from seat 2, until settled
            sent = False
            for i, seat in net.running():
                for message in seat.messages_to_send():
                    sent = True
                    for j in range(3):
                        if (message.seat, j) in away:
                            held.append((j, message))
                        else:
                            net.deliver(j, message)
                net.events[i].extend(seat.take_events())
            if settled() or not sent:
                break
        if settled():
            break
        for i in range(3):
            net.run_clock(i)
    assert settled()
    for i, message in held:
        net.deliver(i, message)
    net.run_with_timeouts(limit=12)
    return net


@pytest.mark.parametrize("start", [12, 20, 27, 40])
def test_a_settled_seat_that_comes_back_reclaims_and_the_match_finishes(start: int) -> None:
    """Seats 0 and 1 voted each other absent, then settled seat 2 and, with two seats left,
    took each other's messages; seat 2 comes back, reclaims and rejoins, and three seats are
    live again.  Their votes on each other are spent — cast on messages taken while votes were
    void — so they no longer hold back the voters' later messages (before, nobody could answer
    "present" for those messages, and every one of these matches waited for good)."""
    net = _settled_and_back(start)
    assert len({core.public_digest() for core in net.cores}) == 1
    for i, core in enumerate(net.cores):
        assert core.signed and not core.absent
        assert any("SeatReclaimed" in str(e) for e in net.events[i])
        assert not [e for e in net.events[i] if isinstance(e, PeerMisbehaved)]
        assert verify(net.match_file(i)).verdict == VALID


def test_a_gap_filled_at_once_breaks_no_dead_end_before_the_peer_can_rebuild() -> None:
    """The file of a settled seat that came back (start 30), taken in random orders: in one,
    seat 2's own message is taken before any vote on it, and then three messages of seat 0 fill
    a gap in its feed at once — a vote on seat 2 there, a settlement, a vote on seat 1.  The
    core used to break a dead end of crossed votes and blame a seat within that one receive,
    before a rebuild could run, and reached another state than the file taken whole; it now
    breaks no dead end while it holds a message taken under an unanswered vote
    (``MatchCore._taken_under_vote``)."""
    net = _settled_and_back(30)
    first = net.cores[0]
    whole = MatchCore(net.header)
    whole.adopt(dict(enumerate(first.feeds)))
    assert whole.signed
    messages = [m for feed in first.feeds for m in feed.messages]
    for k in range(4):
        core = take_in_order(net.header, shuffled(messages, HashStream(b"30-%d" % k)))
        assert (core.public_digest(), sorted(core.absent), core.signed) == (
            whole.public_digest(), sorted(whole.absent), whole.signed), k


# --------------------------------------------------------------------------- the rules


def test_a_peer_rebuilds_at_the_first_vote_on_its_own_message() -> None:
    """Seat 2's message stalls; seat 0 times it out and votes.  Peer 2 took its own message at
    once: one live seat's vote is enough to make it rebuild (it may have voted, and replaced
    someone, on a vote the feeds say was cast while it was itself under a vote) — and only
    once per vote."""
    net = raiders_network(3, tag=b"first-vote", rebuild=True)
    net.pump(limit=30, partial=True)
    net.land_in_flight()
    held: list[tuple[int, Message]] = []
    net.pump_cut(cut_off({2}, 3), held)
    assert net.run_clock(0) and net.run_clock(0)  # seat 0: past both timeouts
    vote = net.seats[0].messages_to_send()
    assert [m.kind for m in vote] == [Kind.ABSENT] and vote[0].content.seat == 2
    net.deliver(0, vote[0])
    before = net.rebuilds
    net.deliver(2, vote[0])
    assert net.rebuilds == before + 1
    core = net.cores[2]
    assert core.votes.presence(2) == "pending"  # its own message waits for the vote now
    assert not core.replaced_behind(2)  # the same vote does not rebuild it again


def test_votes_go_out_while_the_seats_own_message_waits() -> None:
    """A peer whose own message waits for a vote on it still answers and casts votes: where it
    stands in its own feed does not change what it holds or whom its clock timed out (before,
    it sent nothing; with three seats its vote can be the one that decides).  Seats 1 and 2
    are cut off; seat 0 times both out first, and its votes reach peer 2, which rebuilds and
    waits on its own message; then peer 2's clock times seat 1 out, and it votes."""
    net = raiders_network(3, tag=b"vote-while-held", rebuild=True)
    net.pump(limit=30, partial=True)
    net.land_in_flight()
    held: list[tuple[int, Message]] = []
    links = cut_off({1, 2}, 3)
    net.pump_cut(links, held)
    assert net.run_clock(0) and net.run_clock(0)
    net.pump_cut(links, held)  # seat 0's votes: peer 2 rebuilds
    core = net.cores[2]
    assert net.rebuilds and core.votes.presence(2) == "pending" and not core.clock.timed_out
    waiting = core.cursor[2]
    assert waiting < core.feeds[2].next_seq
    assert net.run_clock(2) and net.run_clock(2)  # peer 2's clock: seat 1 timed out
    out = net.seats[2].messages_to_send()
    assert [(m.kind, m.content.seat, m.content.absent) for m in out  # type: ignore[union-attr]
            ] == [(Kind.ABSENT, 1, 1)]
    assert core.cursor[2] == waiting


def test_a_restored_seat_reopens_its_commitment_when_its_reveal_is_due() -> None:
    """A core rebuilt from the feeds may stop short of the step a commitment was made in (its
    seat under a vote, say): the commitment is reopened when the reveal is due, not dropped
    (before, the reveal could not be made)."""
    net = raiders_network(3, tag=b"lazy-reopen")
    for _ in range(10_000):
        net.pump(limit=1, partial=True)
        own = net.cores[0].feeds[0].messages
        if own and isinstance(own[-1].content, CommitBody):
            break
    net.land_in_flight()
    commit = net.cores[0].feeds[0].messages[-1]
    assert isinstance(commit.content, CommitBody)
    core = MatchCore(net.header)  # a core that holds nothing yet
    local = LocalSeat(core, 0, net.keys[0], hashlib.sha256(b"lazy-reopen" + b"seed0").digest(),
                      net.seats[0].decide)
    local.restore(list(net.cores[0].feeds[0].messages))
    assert commit.content.step not in local.pending_reveal
    for feed in net.cores[0].feeds:
        for message in feed.messages:
            core.receive(message)
    net.seats[0] = local  # seat 0 plays on from the restored seat
    for _ in range(200):  # until seat 0 reveals that step's play
        out = [(i, m) for i, seat in enumerate(net.seats) for m in seat.messages_to_send()]
        assert out, "nobody sends anything"
        for _sender, message in out:
            for j, target in enumerate(net.cores):
                if j != 0:
                    target.receive(message)
            events = core.receive(message)
            assert not [e for e in events if isinstance(e, PeerMisbehaved)]
        reveal = next((m for i, m in out if i == 0 and isinstance(m.content, RevealBody)), None)
        if reveal is not None:
            break
    else:
        raise AssertionError("seat 0 never revealed")
    assert isinstance(reveal.content, RevealBody) and reveal.content.step == commit.content.step
    assert core.step is None or core.step.name != commit.content.step or 0 in core.step.reveals


def test_a_cheats_votes_on_every_message_taken_rebuild_a_peer_once() -> None:
    """A voter votes on a seat's points in the order it reaches them: one vote per message the
    seat already sent, last first (each a new vote, each on a message the seat's peer took),
    makes that peer rebuild once, not once per vote — and the match finishes alike."""
    net = raiders_network(3, tag=b"rebuild-spam", rebuild=True)
    net.pump(limit=400, partial=True)
    net.land_in_flight()
    taken = net.cores[1].cursor[1]
    assert taken > 50
    votes = [net.seats[0].sign_next(Kind.ABSENT, AbsentBody(1, c, 1))
             for c in reversed(range(taken))]
    before = net.rebuilds
    for vote in votes:
        for j in range(3):
            net.deliver(j, vote)
    assert net.rebuilds == before + 1
    net.run_with_timeouts(limit=8)
    assert len({core.public_digest() for core in net.cores}) == 1
    assert all(core.signed for core in net.cores)


def test_a_vote_cast_just_before_the_last_end_came_in_holds_nothing_up() -> None:
    """Seat 1 times seat 2 out just before seat 2's END reaches it, and votes it absent after
    its own END.  The seats that already saw every END have signed (a network peer then stops
    and answers no vote): seat 2's END, in hand, is not held by the vote — every peer signs and
    every file verifies (before, peer 1 never signed and every file was incomplete)."""
    net = raiders_network(3, tag=b"late-end-vote")
    held: list[tuple[int, Message]] = []
    for _ in range(2000):  # play until seat 2's END exists, held back from peer 1 alone
        net.pump_cut({(2, 1)}, held)
        for j, message in [x for x in held if x[1].kind is not Kind.END]:
            net.deliver(j, message)
        held[:] = [x for x in held if x[1].kind is Kind.END]
        if held and not net.seats[0].messages_to_send() and net.cores[0].signed:
            break
    assert net.cores[0].signed and net.cores[2].signed and not net.cores[1].signed
    assert net.run_clock(1) and net.run_clock(1)  # peer 1: seat 2 overdue, then timed out
    vote = net.seats[1].messages_to_send()
    assert [(m.kind, m.content.seat) for m in vote] == [(Kind.ABSENT, 2)]  # type: ignore[union-attr]
    for j in range(3):
        net.deliver(j, vote[0])  # peers 0 and 2 have signed: they answer nothing
    for j, message in held:
        net.deliver(j, message)  # seat 2's END reaches peer 1 at last
    assert all(core.signed for core in net.cores)
    for i in range(3):
        verdict = verify(net.match_file(i))
        assert verdict.verdict == VALID, (i, verdict.reason)


# --------------------------------------------------------------------------- the verifier


def finished() -> tuple[Network, bytes]:
    net = raiders_network(3, tag=b"after-the-end")
    net.pump()
    assert all(core.signed for core in net.cores)
    return net, match_file(net, 0)


def test_a_vote_after_the_result_is_noted_not_invalid() -> None:
    """A seat may vote, or answer a vote, after its END (before it saw every END): nothing
    waits for it, and the file stays valid, with a note."""
    net, data = finished()
    local = net.seats[1]
    extra = local.sign_next(Kind.ABSENT, AbsentBody(2, 3, 0))
    net.cores[0].receive(extra)
    verdict = verify(match_file(net, 0))
    assert verdict.verdict == VALID, verdict.reason
    assert any("vote(s) or welcome(s) after the result" in n for n in verdict.notes)
    assert verify(data).verdict == VALID


def test_anything_else_after_the_result_is_invalid() -> None:
    net, _data = finished()
    local = net.seats[1]
    final = net.cores[1].final
    assert final is not None
    extra = local.sign_next(Kind.END, EndBody(final.digest, final.transcript))
    net.cores[0].receive(extra)
    verdict = verify(match_file(net, 0))
    assert verdict.verdict == INVALID
    assert verdict.reason == "1 message(s) after every seat signed the result"
    assert verdict.blamed == (1,)


# --------------------------------------------------------------------------- the benchmark


def test_the_partitions_benchmark_counts_every_pattern() -> None:
    """``python -m benchmarks partitions`` runs from a clean checkout: every pattern counted
    once, in one class; a wrong argument is a one-line error."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-m", "benchmarks", "partitions", "--patterns", "3",
                           "--mode", "split", "--show"],
                          cwd=root, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["mode"] == "split" and report["patterns"] == 3
    assert sum(report[name] for name in OUTCOMES) == 3
    crash = subprocess.run([sys.executable, "-m", "benchmarks", "partitions", "--patterns", "1",
                            "--first", "20", "--mode", "crash"],
                           cwd=root, capture_output=True, text=True, timeout=300)
    assert crash.returncode == 0, crash.stderr[-2000:]
    assert json.loads(crash.stdout.strip().splitlines()[-1])["finished_alike"] == 1
    for option in (["--patterns", "0"], ["--mode", "sideways"]):
        bad = subprocess.run([sys.executable, "-m", "benchmarks", "partitions", *option],
                             cwd=root, capture_output=True, text=True, timeout=60)
        assert bad.returncode == 2
        assert len(bad.stderr.strip().splitlines()) == 1, bad.stderr


def test_a_seat_holding_an_answer_back_is_woken_when_it_falls_due() -> None:
    """One-way pattern 155 (4 seats): peer 1 holds back its "present" answer for seat 2 (seats 0
    and 3 went on without seat 2) and waits for nobody — its own messages wait on the votes that
    replace it in the feeds taken whole.  When the answer falls due its clock wakes it, it finds
    itself short of its own file (lagging, protocol.md §8.2) and catches up: the pattern
    finishes alike (without the wake it sat there for good, its file valid and its state not)."""
    verdict, blamed, disputed, unnamed = judged(b"155", "one-way")
    assert (verdict, blamed, disputed, unnamed) == ("finished_alike", [], False, False)


def test_a_lone_liars_replacement_marks_only_delay_the_present_answers() -> None:
    """A seat leaves a point unanswered while a voter's signed heads name the replacement there
    (protocol.md §8.2) — but only for both timeouts.  Seat 3 lies: it votes seats 0, 1 and 2
    absent at their next messages and signs a message whose heads carry all three replacement
    marks, then goes silent.  Held back for good, the honest seats' answers would never come:
    each honest seat is under the liar's vote, so no two seats are needed voters anywhere and
    the match would wait for ever.  Held back for both timeouts, the answers come, the liar is
    replaced, and the three honest seats finish alike."""
    net = raiders_network(4, tag=b"lone-liar-marks", rebuild=True)
    net.pump(limit=60, partial=True)
    net.land_in_flight()
    liar, core = net.seats[3], net.cores[3]
    points = {t: core.cursor[t] for t in range(3)}
    for t, c in points.items():
        vote = liar.sign_next(Kind.ABSENT, AbsentBody(t, c, 1))
        for j in range(4):
            net.deliver(j, vote)
    expected = core.vouching.expected

    def marked(seat: int, kind: Kind, body: object) -> tuple[bytes, ...]:
        heads = list(expected(seat, kind, body))
        for t, c in points.items():
            heads[t] = replaced_head(core.match_id, t, c)
        return tuple(heads)

    core.vouching.expected = marked  # type: ignore[method-assign]
    for _ in range(10_000):
        if any(m.heads and m.heads[0] == replaced_head(core.match_id, 0, points[0])
               for m in liar.sent):
            break
        net.pump(limit=1, partial=True)
    else:
        raise AssertionError("the liar never signed a marked message")
    net.land_in_flight()
    net.crash(3)
    net.run_with_timeouts(limit=12)
    honest = net.cores[:3]
    assert all(c.signed for c in honest)
    assert len({c.public_digest() for c in honest}) == 1
    assert all(sorted(c.absent) == [3] for c in honest)
    assert all(net.seats[i]._withheld for i in range(3))  # each did hold an answer back
