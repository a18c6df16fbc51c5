"""Paper Dungeons between real peers over loopback TCP, one asyncio process, each seat its own
data directory and match file; every match plays to its end and every seat's file is verified.

What is checked (docs/rules/paper.md §6 g–h and m; protocol.md §7.7, §7.13):

* four seats, one leaves **during the deal**: the deal restarts without it (a fresh pair of
  decks, attempt 1, among the three others; its four cards never drawn), it forfeits at the
  setup choice, and the three others play to the end;
* four seats, one leaves **after the deal, before its setup choice**: no redeal (attempt 0 of
  both decks, the others keep the cards they were dealt), it forfeits there (no zombie can
  choose among cards only it saw), its cards stay hidden, and the others play to the end;
* eight seats, one leaves mid-game, after its choice: its zombie plays every later plan on its
  public sheet, which is ranked with its objective scored 0;
* two seats, one leaves mid-game: the floor ends the match, ``abandoned``, nobody blamed;
* a seat killed during the shuffles (its first shuffle persisted, never sent) and resumed from
  its data directory: it sends the persisted bytes, the deal completes with no restart and
  nobody replaced.

The seat that left keeps a short file that reads ``incomplete`` alone and, read with the
others' copies, gives the match's verdict (the eight-seat test reads it alone only: each
verification of an eight-seat file checks every shuffle proof again, and the test is kept
quick).  No test waits out a timeout: a LEAVE needs none, and the timeouts are far longer
than any bound here."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from protocol.match.events import (
    ActionTaken,
    CardDealt,
    CardShown,
    DeckRestarted,
    FloorReached,
    SeatLeft,
    SeatReplaced,
)
from protocol.verify.copies import verify_copies
from protocol.verify.verdicts import ABANDONED, INCOMPLETE, VALID, Verdict
from protocol.wire.messages import CommitBody, Kind, Message, RevealBody
from protocol.wire.transcript import read_transcript

from engine.core import Outcome, Over
from engine.paper import PaperState
from p2p.peer import MatchPeer, PeerConfig, bot_decider
from p2p.run import Result, resume
from tests.p2p.conftest import Match, assert_agreed, start_match, verdict_of
from tests.p2p.test_loopback import until

# Timeouts far longer than any wait here: nobody is ever voted out, so each ending is the one
# the LEAVE (or nothing) makes, whatever the load.
SLOW = PeerConfig(timeouts=(60.0, 60.0, 60.0, 60.0), linger=0.2)
BOUND = 120.0  # the bound on any match's end (a generous one: never a timed assertion)
DECKS = ("objectives", "powers")
AUDIT = re.compile(r"seat (\d+) opened a card it held at the end \(the audit\): (\S+) = (\S+)")
NO_ZOMBIE = ("forfeited where it was to decide: no zombie can make this decision (it needs "
             "what only the seat knew)")


# --------------------------------------------------------------------------- helpers


class HoldAt:
    """The host's decider: a random bot, except in ``step``, where it says so and never
    answers (the person is away: the test makes the seat leave there)."""

    def __init__(self, step: str) -> None:
        self.step = step
        self.reached = asyncio.Event()
        self._bot = bot_decider("random", b"\x00" * 32)

    async def __call__(self, state: Any, seat: int) -> str:
        if str(getattr(state.waiting, "step", "")) == self.step:
            self.reached.set()
            await asyncio.Event().wait()  # (cancelled with the peer)
        return self._bot(state, seat)


def leave_once_sent(peer: MatchPeer, what: str) -> None:
    """``peer``'s person leaves as soon as the seat has sent a DECK body ``what``: its next
    message is its LEAVE (no DECK body is an opening it would send first)."""
    broadcast = peer._broadcast

    def then_leave(message: Message) -> None:
        broadcast(message)
        if message.kind is Kind.DECK and message.body[0] == what:
            peer.local.leave()
    peer._broadcast = then_leave  # type: ignore[method-assign]


def host_of(match: Match) -> MatchPeer:
    [host] = [p for p in match.peers.values() if p.store.path.parent.parent == match.dirs[0]]
    return host


def sent_deck(peer: MatchPeer, what: str) -> int:
    return sum(m.kind is Kind.DECK and m.body[0] == what for m in peer.local.sent)


def own_events(seat: int) -> set[str]:
    return {f"setup.{deck}.{seat}.{k}" for deck in ("power", "objective") for k in (0, 1)}


def steps_played(peer: MatchPeer) -> set[str]:
    """The steps in which the seat committed or revealed a decision itself."""
    return {m.content.step for m in peer.local.sent
            if isinstance(m.content, CommitBody | RevealBody)}


async def leave(match: Match, peer: MatchPeer) -> Message:
    """``peer`` leaves the match for good and its process stops; its LEAVE."""
    assert await peer.leave(), "the LEAVE was not sent"
    match.task_of(peer).cancel()
    assert peer.local.sent[-1].kind is Kind.LEAVE
    return peer.local.sent[-1]


async def the_others(match: Match, gone: MatchPeer) -> list[Result]:
    """The results of every seat but ``gone``, once each has signed the end."""
    tasks = [match.task_of(p) for p in match.peers.values() if p is not gone]
    done = await asyncio.wait_for(asyncio.gather(*tasks), BOUND)
    return sorted(done, key=lambda r: r.seat)


def paper(result: Result) -> PaperState:
    state = result.core.state
    assert isinstance(state, PaperState)
    return state


def outcome_of(result: Result) -> Outcome:
    waiting = paper(result).waiting
    assert isinstance(waiting, Over), waiting
    return waiting.outcome


def check_left(results: Sequence[Result], gone: int, leave_msg: Message) -> None:
    """Every remaining seat replaced ``gone`` for good where its LEAVE put it (not a fault)."""
    for r in results:
        core = r.core
        assert core.signed
        absence = core.absent[gone]
        assert (absence.left, absence.final, absence.count) == (True, True, leave_msg.seq + 1)
        assert [e for e in core.events if isinstance(e, SeatLeft)] == [
            SeatLeft(gone, leave_msg.seq + 1)]
        [replaced] = [e for e in core.events if isinstance(e, SeatReplaced)]
        assert (replaced.seat, replaced.count) == (gone, leave_msg.seq + 1)
        assert replaced.reason == f"left the match (its LEAVE is its message {leave_msg.seq})"
        assert sorted(core.absent) == [gone]


def check_audit(verdict: Verdict, results: Sequence[Result]) -> None:
    """Once the game is over each live seat opens the two cards it held and did not show (its
    discarded power and objective), and they are the cards it was dealt."""
    audited = [m.groups() for n in verdict.notes if (m := AUDIT.fullmatch(n))]
    by_seat = {r.seat: r for r in results}
    assert sorted(int(s) for s, _, _ in audited) == sorted(2 * list(by_seat)), audited
    for seat, event, card in audited:
        assert event in own_events(int(seat))
        assert by_seat[int(seat)].core.decks.learnt[event] == card


def check_deal(results: Sequence[Result], gone: int | None = None) -> None:
    """Each remaining seat learnt its own four cards, none of them twice, and nobody was shown
    a card of ``gone``."""
    for r in results:
        assert set(r.core.decks.learnt) == own_events(r.seat), r.core.decks.learnt
        assert not any(isinstance(e, CardShown) and e.seat == gone for e in r.core.events)
    for deck in ("power", "objective"):
        cards = [c for r in results for e, c in r.core.decks.learnt.items()
                 if e.startswith(f"setup.{deck}.")]
        assert len(cards) == 2 * len(results) == len(set(cards)), cards


def check_short_copy(gone_file: Path, results: Sequence[Result], whole: Verdict,
                     code: str = "unfinished") -> None:
    """The file of the seat that left stops at its LEAVE: alone it is ``incomplete`` (``code``),
    waiting for some of the others (which, depends on what reached it before it left); read
    with their copies it is short, and the verdict is the match's."""
    alone = verdict_of(gone_file)
    assert (alone.verdict, alone.reason_code, alone.blamed) == (INCOMPLETE, code, ()), alone
    assert alone.waiting_for and set(alone.waiting_for) <= {r.seat for r in results}, alone
    together = verify_copies([gone_file.read_bytes(), *(r.path.read_bytes() for r in results)])
    assert (together.verdict, together.blamed, together.winners, together.final_digest) == (
        whole.verdict, whole.blamed, whole.winners, whole.final_digest), together
    assert [c.conditions for c in together.copies] == [("short",)] + [()] * len(results)


# --------------------------------------------------------------------------- four seats


@pytest.mark.asyncio
async def test_a_seat_that_leaves_during_the_deal_makes_it_restart_without_it(
        tmp_path: Path) -> None:
    """paper.md §6 g: "a seat lost during the deal makes the deal restart without it (a fresh
    pair of decks among the others; its cards are never drawn)"; it then forfeits at the
    setup choice, and the three others play to the end."""
    match = await start_match(tmp_path, 4, SLOW, game="paper")
    try:
        await match.wait_peers(4)
        gone = match.peers[2]
        leave_once_sent(gone, "deck-key-commit")
        await until(lambda: gone.local.left, 60, "seat 2 never committed to a key")
        left = await leave(match, gone)
        # During the deal: a key committed to, no key shown, no card learnt.
        assert sent_deck(gone, "deck-key-commit") >= 1 and sent_deck(gone, "deck-key") == 0
        assert not gone.core.decks.learnt
        results = await the_others(match, gone)
    finally:
        await match.cancel()
    check_left(results, 2, left)
    for r in results:
        restarts = sorted((e for e in r.core.events if isinstance(e, DeckRestarted)),
                          key=lambda e: e.deck)
        assert restarts == [DeckRestarted(d, 1, (0, 1, 3), 2) for d in DECKS]
        assert r.core.decks.attempts == {"powers": 1, "objectives": 1}
        assert {d.spec.seats for d in r.core.decks.decks.values()} == {(0, 1, 3)}
        outcome = outcome_of(r)
        assert outcome.standings[2].status == "resigned"
        assert 2 not in outcome.winners and outcome.winners
        assert all(len(paper(r).sheets[s].rounds) == 8 for s in (0, 1, 3))
        assert paper(r).sheets[2].rounds == ()
    check_deal(results, 2)
    verdicts = assert_agreed([r.path for r in results], 4)
    for v in verdicts:
        assert (v.verdict, v.reason_code, v.blamed) == (VALID, "result_signed", ()), v
        assert v.winners == tuple(sorted(outcome_of(results[0]).winners))
        notes = set(v.notes)
        assert f"seat 2 left the match for good (its LEAVE is its message {left.seq})" in notes
        for deck in DECKS:
            assert (f"deck {deck}: seat 2 was replaced during the deal; it restarts as "
                    "attempt 1 among seats 0, 1, 3") in notes, v.notes
        assert sorted(n for n in notes if "never drawn" in n) == sorted(
            f"{e}: a card for seat 2, replaced before the deal, was never drawn"
            for e in own_events(2))
        assert f"seat 2 {NO_ZOMBIE}" in notes, v.notes
        assert not any("played by its zombie" in n for n in notes), v.notes
        check_audit(v, results)
    check_short_copy(gone.store.path, results, verdicts[0])


@pytest.mark.asyncio
async def test_a_seat_that_leaves_after_the_deal_before_its_choice_forfeits_without_a_redeal(
        tmp_path: Path) -> None:
    """paper.md §6 g: a seat replaced "after the deal but before its setup choice cannot be
    played by a zombie ... so it forfeits there — it leaves the match and the others play on
    with the cards they were dealt, its own staying hidden (no second deal ...)"."""
    hold = HoldAt("setup")
    match = await start_match(tmp_path, 4, SLOW, game="paper", choose=hold)
    try:
        await match.wait_peers(4)
        gone = host_of(match)
        await asyncio.wait_for(hold.reached.wait(), 60)
        # After the deal (it holds its four cards, its shares of both decks sent), before its
        # choice (nothing committed).
        assert set(gone.core.decks.learnt) == own_events(gone.seat)
        assert sent_deck(gone, "deck-shares") == 2 and steps_played(gone) == set()
        held = dict(gone.core.decks.learnt)
        left = await leave(match, gone)
        results = await the_others(match, gone)
    finally:
        await match.cancel()
    g = gone.seat
    others = tuple(r.seat for r in results)
    check_left(results, g, left)
    for r in results:
        assert not any(isinstance(e, DeckRestarted) for e in r.core.events)
        assert r.core.decks.attempts == {"powers": 0, "objectives": 0}  # no second deal
        assert {d.spec.seats for d in r.core.decks.decks.values()} == {(0, 1, 2, 3)}
        outcome = outcome_of(r)
        assert outcome.standings[g].status == "resigned"
        assert g not in outcome.winners and outcome.winners
        assert all(len(paper(r).sheets[s].rounds) == 8 for s in others)
        assert paper(r).sheets[g].rounds == () and paper(r).sheets[g].power == ""
    check_deal(results, g)
    for deck in ("power", "objective"):  # its cards were dealt from the same decks
        theirs = {c for r in results for e, c in r.core.decks.learnt.items()
                  if e.startswith(f"setup.{deck}.")}
        mine = {c for e, c in held.items() if e.startswith(f"setup.{deck}.")}
        assert len(mine) == 2 and not mine & theirs
    verdicts = assert_agreed([r.path for r in results], 4)
    for v in verdicts:
        assert (v.verdict, v.reason_code, v.blamed) == (VALID, "result_signed", ()), v
        assert v.winners == tuple(sorted(outcome_of(results[0]).winners))
        notes = set(v.notes)
        assert f"seat {g} left the match for good (its LEAVE is its message {left.seq})" in notes
        assert f"seat {g} {NO_ZOMBIE}" in notes, v.notes
        assert not any("restarts" in n or "never drawn" in n or "played by its zombie" in n
                       for n in notes), v.notes
        check_audit(v, results)
    check_short_copy(gone.store.path, results, verdicts[0])
    # protocol.md §7.13: "A seat replaced once the deal is complete costs only its own cards:
    # they stay hidden, and the file notes it" (security.md §7: "the verifier lists the owed
    # opens of the audit").  Each of its four dealt cards is named in the notes, as a card
    # never drawn is after a restart.
    for v in verdicts:
        unnamed = sorted(e for e in own_events(g) if not any(e in n for n in v.notes))
        assert not unnamed, f"no note says that seat {g}'s {unnamed} stay hidden: {v.notes}"


# --------------------------------------------------------------------------- eight seats


@pytest.mark.asyncio
async def test_eight_seats_one_leaves_mid_game_and_its_zombie_plays_its_sheet(
        tmp_path: Path) -> None:
    """paper.md §6 g–h, m: a seat replaced after its setup choice is played by its zombie on
    its public sheet; its objective is never opened and scores 0; it is still ranked."""
    hold = HoldAt("R2.plan")
    match = await start_match(tmp_path, 8, SLOW, game="paper", choose=hold)
    try:
        await match.wait_peers(8)
        gone = host_of(match)
        await asyncio.wait_for(hold.reached.wait(), 60)
        assert steps_played(gone) == {"setup", "R1.plan"}  # its own choice, then round 1
        left = await leave(match, gone)
        results = await the_others(match, gone)
    finally:
        await match.cancel()
    g = gone.seat
    zombie_plans = {f"R{r}.plan" for r in range(2, 9)}
    check_left(results, g, left)
    for r in results:
        assert r.core.decks.attempts == {"powers": 0, "objectives": 0}
        zombie = [e for e in r.core.events if isinstance(e, ActionTaken) and e.zombie]
        assert {e.seat for e in zombie} == {g}
        assert {e.step for e in zombie if e.step.endswith(".plan")} == zombie_plans
        assert all(re.fullmatch(r"R\d\.(plan|reward)", e.step) for e in zombie), zombie
        sheet = paper(r).sheets[g]
        assert len(sheet.rounds) == 8 and not sheet.resigned and sheet.power  # its own power
        standing = outcome_of(r).standings[g]
        assert standing.status in ("winner", "lost")
        assert "objective never opened (replaced seat): 0" in standing.detail
        # Its kept power was shown when the setup was revealed, before it left; its other
        # cards stay hidden (no audit by a replaced seat).
        choice = paper(r).setup[g]
        assert choice is not None and choice.power == sheet.power
        assert [(e.event, e.card, e.at_end) for e in r.core.events
                if isinstance(e, CardShown) and e.seat == g] == [
            (f"setup.power.{g}.{choice.deal}", sheet.power, False)]
    verdicts = assert_agreed([r.path for r in results], 8)
    for v in verdicts:
        assert (v.verdict, v.reason_code, v.blamed) == (VALID, "result_signed", ()), v
        assert v.winners == tuple(sorted(outcome_of(results[0]).winners))
        notes = set(v.notes)
        assert f"seat {g} left the match for good (its LEAVE is its message {left.seq})" in notes
        played = {n.split(":")[0] for n in notes if n.endswith("played by its zombie")}
        assert {s for s in played if s.endswith(".plan")} == zombie_plans, v.notes
        assert all(n.endswith(f"seat {g} played by its zombie")
                   for n in notes if "played by its zombie" in n)
        assert not any("forfeit" in n or "restarts" in n for n in notes), v.notes
        check_audit(v, results)
    alone = verdict_of(gone.store.path)
    assert (alone.verdict, alone.reason_code, alone.blamed) == (INCOMPLETE, "unfinished", ()), \
        alone


# --------------------------------------------------------------------------- two seats


@pytest.mark.asyncio
async def test_two_seats_one_leaves_and_the_match_is_abandoned(tmp_path: Path) -> None:
    """protocol.md §7.7, the floor: a LEAVE that leaves one live seat ends the match; Paper's
    forfeit (the seat's sheet stops) does not end the game, so the match is abandoned in the
    state where it stopped, nobody blamed, no winner."""
    hold = HoldAt("R2.plan")
    match = await start_match(tmp_path, 2, SLOW, game="paper", choose=hold)
    try:
        await match.wait_peers(2)
        gone = host_of(match)
        await asyncio.wait_for(hold.reached.wait(), 60)
        assert steps_played(gone) == {"setup", "R1.plan"}  # mid-game, nothing committed now
        left = await leave(match, gone)
        [result] = await the_others(match, gone)
    finally:
        await match.cancel()
    g, t = gone.seat, result.seat
    check_left([result], g, left)
    core = result.core
    assert core.ending.abandoned
    [floor] = [e for e in core.events if isinstance(e, FloorReached)]
    assert (floor.seat, floor.count, floor.live, floor.blamed) == (g, left.seq + 1, (t,), ())
    state = core.state
    assert isinstance(state, PaperState)
    assert getattr(state.waiting, "step", None) == "R2.plan"  # where it stopped: not over
    assert not any(s.resigned for s in state.sheets)  # (the forfeit did not end it: not applied)
    v = verdict_of(result.path)
    assert (v.verdict, v.reason_code, v.blamed, v.winners, v.exit_code) == (
        ABANDONED, "abandoned", (), (), 7), v
    assert f"seat {g} left the match for good (its LEAVE is its message {left.seq})" in v.notes
    [note] = [n for n in v.notes if n.startswith("fewer than two live seats")]
    assert note.endswith(f"(left the match (its LEAVE is its message {left.seq})), leaving seat "
                         f"{t}; the match ends there (abandoned: the game has no forfeit "
                         "result)"), note
    # (The seat that left saw the floor itself: its file waits only for the other's END.)
    check_short_copy(gone.store.path, [result], v, "unsigned_result")


# --------------------------------------------------------------------------- a seat resumed


@pytest.mark.asyncio
async def test_a_seat_killed_during_the_shuffles_resumes_and_the_deal_completes(
        tmp_path: Path) -> None:
    """protocol.md §8: a seat persists each message before it sends it, and after a restart
    sends exactly the persisted bytes.  Seat 1 dies right after persisting its first shuffle
    (never sent: the others can only have it from the resumed seat); resumed from its data
    directory, it sends it, the deal completes — no restart, nobody replaced — and the match
    plays to its end."""
    match = await start_match(tmp_path, 3, SLOW, game="paper")
    resumed: asyncio.Task[Result] | None = None
    try:
        await match.wait_peers(3)
        dying = match.peers[1]
        task = match.task_of(dying)
        unsent: list[Message] = []
        broadcast = dying._broadcast

        def die_at_the_shuffle(message: Message) -> None:
            if not unsent and not (message.kind is Kind.DECK and message.body[0] ==
                                   "deck-shuffle"):
                broadcast(message)
                return
            if not unsent:
                task.cancel()  # the process is killed here: nothing more goes out
            unsent.append(message)
        dying._broadcast = die_at_the_shuffle  # type: ignore[method-assign]
        await asyncio.wait_for(asyncio.gather(task, return_exceptions=True), 60)
        assert task.cancelled() and unsent
        assert sent_deck(dying, "deck-shares") == 0  # killed during the shuffles
        stored = read_transcript(dying.store.path.read_bytes()).feeds[1].messages
        persisted = [m.encode() for m in stored]
        assert persisted == [m.encode() for m in dying.local.sent]  # (each persisted first)
        assert unsent[0].encode() in persisted
        events: list[object] = []
        resumed = asyncio.ensure_future(resume(
            match.dirs[match.tasks.index(task)], decide=bot_decider("random", b"r" * 32),
            config=SLOW, on_event=events.append))
        back = await asyncio.wait_for(resumed, BOUND)
        others = await asyncio.wait_for(asyncio.gather(
            *(t for t in match.tasks if t is not task)), BOUND)
    finally:
        if resumed is not None:
            resumed.cancel()
        await match.cancel()
    assert back.seat == 1 and back.core.signed
    assert not any(isinstance(e, SeatReplaced | DeckRestarted) for e in events)
    assert sorted(e.event for e in events if isinstance(e, CardDealt) and e.card) == sorted(
        own_events(1))  # (learnt again from its stored feed, or dealt after)
    results = [back, *others]
    for r in results:  # every copy holds the persisted bytes as seat 1's first messages
        feed = r.core.feeds[1].messages
        assert [m.encode() for m in feed[:len(persisted)]] == persisted
        assert r.core.decks.attempts == {"powers": 0, "objectives": 0} and not r.core.absent
        assert not r.core.equivocations
    verdicts = assert_agreed([r.path for r in results], 3)
    for v in verdicts:  # the same bytes: no fork, nobody replaced, no restart
        assert (v.verdict, v.reason_code, v.blamed) == (VALID, "result_signed", ()), v
        assert not any("replaced" in n or "restarts" in n or "zombie" in n for n in v.notes), \
            v.notes
        check_audit(v, sorted(results, key=lambda r: r.seat))
    check_deal(sorted(results, key=lambda r: r.seat))
