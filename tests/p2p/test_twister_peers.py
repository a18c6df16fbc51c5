"""Dungeon Twister's endings over real loopback peers (two seats, one process, asyncio, each seat
a random bot with its own data directory): each match plays to its end and EVERY seat's match
file verifies, with the verdict the protocol gives that ending (protocol.md §7.7, §7.11, §9.2).

- a RESIGN, a few messages in or in the set-up's chance round: with two seats the floor ends
  the match with Twister's forfeit result, the other seat the winner; valid, nobody blamed;
- a draw by agreement (R29): valid, nobody wins, both seats drawn;
- a seat gone silent, CLAIMed by the other: ``claimed``, nobody blamed, the claimant the winner;
- a seat whose OPEN does not open its commitment, one whose openings break R32 (a token sealed
  twice, shown a second time at an opening), and one whose OPEN leaves out a slot asked of it:
  each misbehaves and is replaced, and the match ends at the floor with its forfeit after the
  other seat opens what it still holds (docs/rules/twister.md §5).  The whole files read
  ``valid`` with the cheat blamed and the other seat the winner (§9.2 item 6); cut right after
  the cheat's OPEN, a file reads ``invalid``, naming the cheat and the reason code.

A seat that re-sends, without end, a message its core skips as stale would block the event loop
for good (no timeout could end the test): ``no_runaway`` stops such a peer with an error, so the
test fails at once instead of hanging the suite."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from protocol.match.core import MatchClaimed, SeatLeft
from protocol.match.events import OfferSettled, PeerMisbehaved, SealedOpened
from protocol.match.seat import LocalSeat
from protocol.verify.copies import verify_copies
from protocol.verify.verdicts import CLAIMED, INVALID, VALID
from protocol.verify.verifier import Verdict, verify
from protocol.wire.messages import Kind, Message, OpenBody
from protocol.wire.transcript import frame

from engine.core import Outcome
from engine.twister.state import TwisterState
from p2p.peer import PeerConfig
from p2p.run import Result
from p2p.store import StoreError
from protocol.crypto import sealed_commitment
from tests.p2p.conftest import Match, start_match, verdict_of

CHEAT = 1  # East: the seat that resigns, offers, goes silent or cheats
SLOW = PeerConfig(timeouts=(60.0, 60.0, 60.0, 60.0), linger=0.2)
QUICK = PeerConfig(timeouts=(1.5, 1.5, 1.5, 1.5), linger=0.2)


# A whole match of Dungeon Twister is some 170 messages a seat; far more means a seat re-sends
# a message its core skips as stale, over and over, inside one synchronous pump (the event loop
# would never run again, so no asyncio timeout could end the test).
RUNAWAY = 3000


class RunawaySeat(StoreError):
    """A seat signed more than RUNAWAY messages: its peer stops (a StoreError stops a peer
    cleanly, ``run()`` raises it), so the test fails instead of hanging."""


@pytest.fixture(autouse=True)
def no_runaway(monkeypatch: pytest.MonkeyPatch) -> None:
    send = LocalSeat.messages_to_send

    def bounded(self: LocalSeat) -> list[Message]:
        out = send(self)
        if len(self.sent) > RUNAWAY:
            kinds = Counter(m.kind.name for m in self.sent[-100:])
            raise RunawaySeat(f"seat {self.seat} signed {len(self.sent)} messages, the last "
                              f"100 of them {dict(kinds)}: it re-sends what its core skips")
        return out
    monkeypatch.setattr(LocalSeat, "messages_to_send", bounded)


def outcome_of(result: Result) -> Outcome:
    state = result.core.state
    assert isinstance(state, TwisterState), state
    assert state.outcome is not None, f"seat {result.seat}'s game is not over"
    return state.outcome


def statuses(outcome: Outcome) -> dict[int, str]:
    return {s.seat: s.status for s in outcome.standings}


async def sent_at_least(match: Match, seat: int, messages: int, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while len(match.peers[seat].local.sent) < messages:
        assert time.monotonic() < deadline, f"seat {seat} sent fewer than {messages} messages"
        await asyncio.sleep(0.01)


async def both(match: Match, timeout: float = 90.0) -> list[Result]:
    """Both seats' results, once both peers saw the result signed (bounded in time)."""
    results = await match.results(timeout)
    assert [r.seat for r in results] == [0, 1]
    for result in results:
        assert result.core.signed, f"seat {result.seat} did not see the result signed"
    return results


def agreeing(results: list[Result]) -> list[Verdict]:
    """Every file's verdict (the same for both: result, winners, blame, notes), and every
    peer's final state the same."""
    verdicts = [verdict_of(r.path) for r in results]
    first = verdicts[0]
    for v in verdicts[1:]:
        assert (v.verdict, v.reason_code, v.blamed, v.winners, v.final_digest, v.notes) == (
            first.verdict, first.reason_code, first.blamed, first.winners, first.final_digest,
            first.notes), (v, first)
    outcomes = [outcome_of(r) for r in results]
    assert outcomes[0] == outcomes[1], outcomes
    assert first.winners == tuple(sorted(outcomes[0].winners)), (first, outcomes[0])
    return verdicts


# --------------------------------------------------------------------------- endings


def resign_in_the_setup(monkeypatch: pytest.MonkeyPatch) -> None:
    """East resigns in place of its first CHANCE_COMMIT — right after its starting team's
    REVEAL, while the chance round of the set-up (who places first, the rooms) is still open:
    as a person who resigns the moment the teams are chosen (patched on the class, so it
    happens at that exact message whatever the timing)."""
    send = LocalSeat.messages_to_send

    def resigning(self: LocalSeat) -> list[Message]:
        kinds = {m.kind for m in self.sent}
        if self.seat == CHEAT and Kind.REVEAL in kinds and not kinds & {
                Kind.CHANCE_COMMIT, Kind.RESIGN}:
            self.leave(resign=True)
        return send(self)
    monkeypatch.setattr(LocalSeat, "messages_to_send", resigning)


@pytest.mark.asyncio
@pytest.mark.parametrize("when", ["in-the-placements", "in-the-setup-chance-round"])
async def test_a_resignation_ends_the_match_the_other_seat_wins(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, when: str) -> None:
    """East resigns (RESIGN), its peer still listening: a few messages in (placing its
    tokens), or in the set-up's chance round.  With two seats the floor ends the match at its
    replacement with Twister's forfeit result (protocol.md §7.7, Resigning), West opens what
    it still holds (its team) and signs; East's peer takes that too.  Valid, nobody blamed (a
    resignation is no fault), West the winner."""
    if when == "in-the-setup-chance-round":
        resign_in_the_setup(monkeypatch)
    match = await start_match(tmp_path, 2, SLOW, game="twister", think=0.02)
    try:
        await match.wait_peers(2)
        if when == "in-the-placements":
            await sent_at_least(match, CHEAT, 8)
            assert await match.peers[CHEAT].leave(resign=True), "the RESIGN was not sent"
        results = await both(match)
    finally:
        await match.cancel()
    sent = [m.kind for m in results[0].core.feeds[CHEAT].messages]
    assert sent[-1] is Kind.RESIGN and sent.count(Kind.RESIGN) == 1, sent
    if when == "in-the-setup-chance-round":
        assert Kind.CHANCE_COMMIT not in sent, sent
    for result in results:
        assert any(isinstance(e, SeatLeft) and e.seat == CHEAT and e.resigned
                   for e in result.core.events)
        assert result.core.absent[CHEAT].left
    # (The floor forfeits the seat: with two seats a RESIGN never reaches the game's own
    # resignation, so East reads "forfeited", not "resigned".)
    outcome = outcome_of(results[0])
    assert outcome.winners == frozenset({0}), outcome
    assert statuses(outcome) == {0: "winner", CHEAT: "forfeited"}, outcome
    assert outcome.reason == "East forfeited: West wins", outcome
    for v in agreeing(results):
        assert (v.verdict, v.reason_code, v.blamed, v.winners, v.exit_code) == (
            VALID, "result_signed", (), (0,), 0), v
        assert any(n.startswith(f"seat {CHEAT} resigned and left the match for good")
                   for n in v.notes), v.notes
        assert f"seat {CHEAT} was replaced (resigned (its RESIGN is its message" in v.reason
        assert "by the game's forfeit result" in v.reason, v.reason


@pytest.mark.asyncio
async def test_an_agreed_draw_ends_the_match_drawn(tmp_path: Path) -> None:
    """East offers a draw a few messages in and West agrees (R29: at any time before the end):
    the game ends drawn — nobody wins, both seats ``draw`` — after the openings due at the
    end, and both files read valid, nobody blamed."""
    match = await start_match(tmp_path, 2, SLOW, game="twister", think=0.02)
    try:
        await match.wait_peers(2)
        for peer in match.peers.values():
            peer.local.answering = lambda offerer, what: True
        await sent_at_least(match, CHEAT, 8)
        match.peers[CHEAT].offer("draw")
        results = await both(match)
    finally:
        await match.cancel()
    for result in results:
        events = result.core.events
        [(at, offer)] = [(i, e) for i, e in enumerate(events) if isinstance(e, OfferSettled)]
        assert (offer.seat, offer.what, offer.agreed, offer.declined) == (
            CHEAT, "draw", True, ()), offer
        # Then both seats open what they still hold (end_open), and only then the result.
        assert {e.seat for e in events[at:] if isinstance(e, SealedOpened)} == {0, 1}
    outcome = outcome_of(results[0])
    assert outcome.winners == frozenset() and outcome.reason.startswith(
        "a draw by agreement at "), outcome
    assert statuses(outcome) == {0: "draw", 1: "draw"}, outcome
    for v in agreeing(results):
        assert (v.verdict, v.reason_code, v.blamed, v.winners) == (VALID, "result_signed", (),
                                                                  ()), v
        assert any(f"seat {CHEAT} offered a draw" in n and "agreed" in n for n in v.notes), \
            v.notes


@pytest.mark.asyncio
async def test_a_silent_seat_is_claimed_and_forfeits(tmp_path: Path) -> None:
    """East stops sending (its peer still listens); once both timeouts pass, West CLAIMs the
    match: East is replaced for good and forfeits (Twister has no zombie), West opens what it
    holds and signs.  Both files, and the two read together, say ``claimed``: nobody
    blamed, West the winner."""
    match = await start_match(tmp_path, 2, QUICK, game="twister")
    try:
        await match.wait_peers(2)
        await sent_at_least(match, CHEAT, 6)
        silent = match.peers[CHEAT]
        silent.local.messages_to_send = list  # type: ignore[method-assign]
        muted_at = len(silent.local.sent)
        results = await both(match)
    finally:
        await match.cancel()
    assert len(results[CHEAT].core.feeds[CHEAT].messages) == muted_at  # (nothing more sent)
    for result in results:
        [claim] = [e for e in result.core.events if isinstance(e, MatchClaimed)]
        assert (claim.claimant, claim.seat, claim.count, claim.contested) == (
            0, CHEAT, muted_at, False), claim
    outcome = outcome_of(results[0])
    assert outcome.winners == frozenset({0}), outcome
    assert statuses(outcome) == {0: "winner", CHEAT: "forfeited"}, outcome
    assert outcome.reason == "East forfeited: West wins", outcome
    for v in agreeing(results):
        assert (v.verdict, v.reason_code, v.blamed, v.winners, v.exit_code) == (
            CLAIMED, "claimed", (), (0,), 5), v
        assert v.reason.startswith(
            f"seat 0 claimed the match: seat {CHEAT} was silent past the timeouts where its "
            f"message {muted_at} was owed"), v.reason
    together = verify_copies([r.path.read_bytes() for r in results])
    assert (together.verdict, together.blamed, together.winners) == (CLAIMED, (), (0,)), together


# --------------------------------------------------------------------------- cheats at an opening


@pytest.fixture
def cheat(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], None]]:
    """Rig East's client, for every peer of the test (patched on the class: a peer that
    rebuilds its seat keeps cheating; West's seat is untouched):

    - ``forged``: it opens its first starting square as another character than the one it
      sealed (its commitment is honest): ``reveal_mismatch``;
    - ``twice``: from its second placement on, it seals its first token again (commits to
      it, and opens it so): its commitments open, but the rules refuse the second opening
      of the same token (R32): ``bad_sealed``;
    - ``short``: its OPEN of its starting team leaves out the last slot asked: ``bad_sealed``.
    """
    open_body = LocalSeat._open_body
    commitments = LocalSeat._commitments
    first: list[str] = []

    def lie(how: str, slot: str, value: str) -> str:
        if how == "forged" and slot == f"start.{CHEAT}.1":
            return "troll" if value != "troll" else "goblin"
        if how == "twice" and slot.startswith(f"tok.{CHEAT}."):
            if not first:
                first.append(value)
            return first[0]
        return value

    def rig(how: str) -> None:
        def opening(self: LocalSeat, w: object) -> OpenBody | None:
            body = open_body(self, w)
            if body is None or self.seat != CHEAT:
                return body
            values = tuple((slot, lie(how, slot, v), salt) for slot, v, salt in body.values)
            if how == "short" and values[0][0].startswith("start."):
                values = values[:-1]
            return OpenBody(values)

        def sealing(self: LocalSeat, slots: tuple[str, ...]) -> tuple[tuple[str, bytes], ...]:
            if self.seat != CHEAT or how != "twice":
                return commitments(self, slots)
            core = self.core
            return tuple((slot, sealed_commitment(
                core.match_id, slot, core.keys[self.seat],
                lie(how, slot, self.sealed_values[slot]), self.secrets.sealed_salt(slot)))
                for slot in slots)
        monkeypatch.setattr(LocalSeat, "_open_body", opening)
        monkeypatch.setattr(LocalSeat, "_commitments", sealing)
    yield rig


def cut_after(data: bytes, message: Message) -> bytes:
    """A match file up to and including the record of ``message``."""
    record = frame(message.encode())
    at = data.index(record)
    return data[:at + len(record)]


@pytest.mark.asyncio
@pytest.mark.parametrize(("how", "code", "words"), [
    ("forged", "reveal_mismatch", "does not open its commitment"),
    ("twice", "bad_sealed", "twice (R32"),
    ("short", "bad_sealed", "it must open start.1.1, start.1.3, start.1.6, start.1.8"),
], ids=["opening-does-not-open-its-commitment", "r32-token-opened-twice",
        "opening-leaves-a-slot-out"])
async def test_a_cheat_at_an_opening_is_named_and_forfeits(
        tmp_path: Path, cheat: Callable[[str], None], how: str, code: str,
        words: str) -> None:
    """East cheats at an opening (see ``cheat``): every peer replaces it for its signed OPEN,
    and with two seats the floor ends the match with Twister's forfeit, West the winner,
    after West opens what it still holds.  ``turn_cap=8``: a token sealed twice is shown again
    at a room's reveal, or at the latest when the game ends (every value still sealed is
    opened then, R32); the cap keeps that to a few seconds."""
    cheat(how)
    match = await start_match(tmp_path, 2, SLOW, game="twister", options={"turn_cap": 8})
    try:
        results = await both(match)
    finally:
        await match.cancel()
    honest = results[0]
    evidence = []
    for result in results:  # every peer (the cheat's own too) caught it
        events = result.core.events
        [(at, fault)] = [(i, e) for i, e in enumerate(events) if isinstance(e, PeerMisbehaved)]
        assert fault.seat == CHEAT and words in fault.reason, fault
        [opening] = fault.evidence
        assert opening.seat == CHEAT and opening.kind is Kind.OPEN
        evidence.append(opening.hash)
        assert result.core.absent[CHEAT].final and not result.core.absent[CHEAT].left
        # Then West opened what it still held (the openings due at the end), East nothing.
        after = [e.seat for e in events[at:] if isinstance(e, SealedOpened)]
        assert after and set(after) == {0}, after
    assert evidence[0] == evidence[1]  # (at the same message)
    outcome = outcome_of(honest)
    assert outcome.winners == frozenset({0}), outcome
    assert statuses(outcome) == {0: "winner", CHEAT: "forfeited"}, outcome
    assert outcome.reason == "East forfeited: West wins", outcome
    verdicts = agreeing(results)
    for v in verdicts:
        assert (v.verdict, v.reason_code, v.blamed, v.winners, v.exit_code) == (
            VALID, "result_signed", (CHEAT,), (0,), 0), v
        assert f"the match ended when seat {CHEAT} was replaced (" in v.reason, v.reason
        assert words in v.reason and "by the game's forfeit result" in v.reason, v.reason
    for result, v in zip(results, verdicts, strict=True):
        # Cut right after the cheat's OPEN, each file proves the fault at that record.
        cut = verify(cut_after(result.path.read_bytes(), opening))
        assert (cut.verdict, cut.reason_code, cut.blamed, cut.exit_code) == (
            INVALID, code, (CHEAT,), 1), cut
        assert words in cut.reason, cut.reason
        assert cut.record is not None and cut.record == v.record, (cut, v)

