"""Dungeons of Kards over real loopback peers (one process, asyncio, every seat a random bot with
its own data directory): each match plays to its end, and EVERY seat's match file verifies with
the same result — the one the peers' own engine states give.

The matches: a 4-seat free-for-all; an 8-seat free-for-all on two copies of the pack (every die
drawn from a pool slot to which all eight seats contribute a secret: protocol.md §7.12); a 2v2;
a 3-seat co-op campaign; and a 2-seat Arena where one seat goes silent and the other CLAIMs the
match (protocol.md §7.7): Kards' forfeit result makes the claimant the winner, and both copies
read ``claimed``, blaming nobody."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from engine.core import Outcome
from engine.kards.state import KardsState
from p2p.peer import PeerConfig
from p2p.run import Result
from protocol.match.core import MatchClaimed
from protocol.mechanisms.chance import is_pool_slot
from protocol.verify.copies import verify_copies
from protocol.verify.verdicts import CLAIMED, VALID
from protocol.verify.verifier import Verdict
from protocol.wire.messages import ActBody, ChanceRevealBody
from protocol.wire.transcript import read_transcript
from tests.p2p.conftest import Match, assert_agreed, start_match, verdict_of

# Timeouts far longer than any test's bound: nobody is ever timed out, voted out or claimed
# in the matches that play through (a finish proves nobody waited one out).  The bots decide
# at once (``bot_think=0``; the frames already read are still taken first): a 40-round match
# is hundreds of turns one after the other, and a think time would add seconds to each test.
SLOW = PeerConfig(timeouts=(60.0, 60.0, 60.0, 60.0), linger=0.2, bot_think=0.0)
# Short ones for the claim: the claimant times the silent seat out after both (about 3 s).
QUICK = PeerConfig(timeouts=(1.5, 1.5, 1.5, 1.5), linger=0.2)


def outcome_of(result: Result) -> Outcome:
    """The result the peer's own engine state reached (it signed its END over it)."""
    state = result.core.state
    assert isinstance(state, KardsState), state
    assert state.outcome is not None, f"seat {result.seat}'s game is not over"
    return state.outcome


def statuses(outcome: Outcome) -> dict[int, str]:
    return {s.seat: s.status for s in outcome.standings}


async def play_through(tmp_path: Path, players: int, options: dict[str, Any],
                       timeout: float = 120.0) -> tuple[list[Result], list[Verdict], Outcome]:
    """A whole match of random bots: every seat's file valid and agreeing, the verifier's
    winners those of every peer's final state, nobody replaced, blamed or played by a
    zombie."""
    match = await start_match(tmp_path, players, SLOW, game="kards", options=options)
    try:
        results = await match.results(timeout)
    finally:
        await match.cancel()
    assert [r.seat for r in results] == list(range(players))
    verdicts = assert_agreed([r.path for r in results], players)
    outcomes = [outcome_of(r) for r in results]
    assert len({(o.winners, o.standings, o.reason) for o in outcomes}) == 1, outcomes
    outcome = outcomes[0]
    for result, v in zip(results, verdicts, strict=True):
        assert result.core.signed and not result.core.absent
        assert (v.verdict, v.reason_code, v.blamed, v.exit_code) == (
            VALID, "result_signed", (), 0), v
        if outcome.drawn:  # (a draw is no win: the seats that drew, no winners — issue 48)
            assert (v.winners, v.drawn) == ((), tuple(sorted(outcome.winners))), (v, outcome)
        else:
            assert v.winners == tuple(sorted(outcome.winners)), (v.winners, outcome)
        assert not any("replaced" in n or "zombie" in n or "drawn without" in n
                       for n in v.notes), v.notes
    assert sorted(statuses(outcome)) == list(range(players))
    return results, verdicts, outcome


def check_arena_ending(outcome: Outcome, teams: list[set[int]], cap: int) -> None:
    """An Arena result (docs/rules/kards.md §10, K-7): one team left wins (its every seat, a
    defeated teammate too), and so does the team that defeats the Gate Warden; the round cap
    draws the teams still in play; or nobody is left in play and everyone loses (A-42)."""
    winners = set(outcome.winners)
    status = statuses(outcome)
    if not winners:
        assert outcome.reason == "no character is left in play: everyone loses", outcome
        assert set(status.values()) == {"lost"}, status
    elif "round cap" in outcome.reason:
        assert outcome.reason.startswith(f"the round cap ({cap}) is reached: a draw"), outcome
        assert any(winners == set().union(*chosen) for chosen in _unions(teams)), winners
        assert all(status[s] == ("drawn" if s in winners else "lost") for s in status), status
    else:
        assert winners in [set(team) for team in teams], (winners, teams)
        assert all(status[s] == ("winner" if s in winners else "lost") for s in status), status
        assert outcome.reason.endswith(" is the last standing") or (
            " defeats the Gate Warden: " in outcome.reason), outcome


def _unions(teams: list[set[int]]) -> list[list[set[int]]]:
    """Every choice of at least one team (the teams still in play at the cap)."""
    out: list[list[set[int]]] = []
    for mask in range(1, 2 ** len(teams)):
        out.append([t for i, t in enumerate(teams) if mask >> i & 1])
    return out


def check_teams(results: list[Result], teams: list[set[int]]) -> None:
    state = results[0].core.state
    assert isinstance(state, KardsState)
    for team_no, team in enumerate(teams):
        for seat in team:
            assert state.chars[seat].seat == seat and state.chars[seat].team == team_no


@pytest.mark.asyncio
async def test_a_four_seat_free_for_all_plays_to_its_end(tmp_path: Path) -> None:
    results, _verdicts, outcome = await play_through(tmp_path, 4, {"mode": "arena"})
    state = results[0].core.state
    assert isinstance(state, KardsState)
    assert (state.mode, state.copies, state.team_size, state.round_cap) == ("arena", 1, 1, 40)
    teams = [{s} for s in range(4)]
    check_teams(results, teams)
    check_arena_ending(outcome, teams, 40)


@pytest.mark.asyncio
async def test_an_eight_seat_free_for_all_on_two_copies_plays_to_its_end(
        tmp_path: Path) -> None:
    """Eight seats, two copies of the pack (9x9 map, 8 gates): every die is drawn from a pool
    slot that all eight seats committed to and revealed their secret of — the decider in its
    ACT, the seven others in a CHANCE_REVEAL.  ``round_cap=6`` (not the default 40) keeps it
    to a few seconds: random bots rarely end an eight-seat Arena before the cap, and forty
    rounds of eight seats take some 20 s to play and verify eight times on two cores (six
    rounds: 48 turns, a few hundred messages, dozens of pooled dice and draws)."""
    results, verdicts, outcome = await play_through(
        tmp_path, 8, {"mode": "arena", "copies": 2, "round_cap": 6})
    state = results[0].core.state
    assert isinstance(state, KardsState)
    assert (state.mode, state.copies, state.team_size, state.round_cap) == ("arena", 2, 1, 6)
    teams = [{s} for s in range(8)]
    check_teams(results, teams)
    check_arena_ending(outcome, teams, 6)
    # The fan-out: who revealed a secret of each pool slot used (one file holds every feed).
    transcript = read_transcript(results[0].path.read_bytes())
    revealed: dict[str, set[int]] = {}
    for seat, feed in transcript.feeds.items():
        for m in feed.messages:
            if isinstance(m.content, ChanceRevealBody):
                for event, _ in m.content.secrets:
                    if is_pool_slot(event):
                        revealed.setdefault(event, set()).add(seat)
            elif isinstance(m.content, ActBody) and m.content.pool is not None:
                revealed.setdefault(m.content.pool[0], set()).add(seat)
    assert len(revealed) >= 16, sorted(revealed)  # (some 30-45 slots in six rounds of eight)
    assert all(seats == set(range(8)) for seats in revealed.values()), revealed
    assert verdicts[0].messages > 8 * 20


@pytest.mark.asyncio
async def test_a_two_versus_two_plays_to_its_end(tmp_path: Path) -> None:
    """``team_size=2`` on one copy: seats alternate between the teams in turn order (seat s on
    team s mod 2, ruling 38), so the teams are {0, 2} and {1, 3}."""
    results, _verdicts, outcome = await play_through(
        tmp_path, 4, {"mode": "arena", "team_size": 2})
    state = results[0].core.state
    assert isinstance(state, KardsState)
    assert (state.mode, state.copies, state.team_size) == ("arena", 1, 2)
    teams = [{0, 2}, {1, 3}]
    check_teams(results, teams)
    check_arena_ending(outcome, teams, 40)


@pytest.mark.asyncio
async def test_a_three_seat_co_op_campaign_plays_to_its_end(tmp_path: Path) -> None:
    """The co-op campaign for three (every seat a bot): the party wins together (the Boss
    defeated) or loses together (nobody left in play, or the round cap)."""
    results, _verdicts, outcome = await play_through(tmp_path, 3, {"mode": "coop"})
    state = results[0].core.state
    assert isinstance(state, KardsState)
    assert (state.mode, state.copies, state.team_size) == ("coop", 1, 1)
    assert all(c.team == 0 for c in state.chars), [c.team for c in state.chars]
    status = statuses(outcome)
    if outcome.winners:
        assert set(outcome.winners) == {0, 1, 2}, outcome
        assert set(status.values()) == {"winner"}, status
        assert outcome.reason.endswith(" defeats the Gate Warden: the party wins"), outcome
    else:
        assert set(status.values()) == {"lost"}, status
        assert outcome.reason in ("no character is left in play: everyone loses",
                                  "the round cap (40) is reached: the game is lost"), outcome


async def sent_at_least(match: Match, seat: int, messages: int, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while len(match.peers[seat].local.sent) < messages:
        assert time.monotonic() < deadline, f"seat {seat} sent fewer than {messages} messages"
        await asyncio.sleep(0.01)


@pytest.mark.asyncio
async def test_a_two_seat_arena_a_silent_seat_is_claimed_and_both_files_read_claimed(
        tmp_path: Path) -> None:
    """Seat 1 stops sending (its peer still listens) a few messages into the match; once both
    timeouts pass, seat 0 CLAIMs it: seat 1 is replaced for good, the floor ends the match with
    Kards' forfeit (one player left in Arena wins, K-6) and seat 0 signs the end.  Seat 1's
    peer takes the claim and the END too, so both files are whole and read ``claimed``,
    nobody blamed, seat 0 the winner — and read together they still do."""
    match = await start_match(tmp_path, 2, QUICK, game="kards", options={"mode": "arena"})
    try:
        await match.wait_peers(2)
        await sent_at_least(match, 1, 6)
        silent = match.peers[1]
        silent.local.messages_to_send = list  # type: ignore[method-assign]
        muted_at = len(silent.local.sent)
        results = await match.results(90)
    finally:
        await match.cancel()
    claimant, claimed = results
    assert len(claimed.core.feeds[1].messages) == muted_at  # (it sent nothing more)
    for result in results:
        assert result.core.signed and result.core.absent[1].final
        [claim] = [e for e in result.core.events if isinstance(e, MatchClaimed)]
        assert (claim.claimant, claim.seat, claim.contested) == (0, 1, False), claim
        outcome = outcome_of(result)
        assert outcome.winners == frozenset({0}), outcome
        assert statuses(outcome)[0] == "winner" and statuses(outcome)[1] != "winner"
        v = verdict_of(result.path)
        assert (v.verdict, v.reason_code, v.blamed, v.winners, v.exit_code) == (
            CLAIMED, "claimed", (), (0,), 5), v
        assert v.reason.startswith(
            f"seat 0 claimed the match: seat 1 was silent past the timeouts where its message "
            f"{muted_at} was owed"), v.reason
    assert verdict_of(claimant.path).final_digest == verdict_of(claimed.path).final_digest
    together = verify_copies([r.path.read_bytes() for r in results])
    assert (together.verdict, together.blamed, together.winners) == (CLAIMED, (), (0,)), together
