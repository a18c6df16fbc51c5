"""Dice pools (version 2, protocol.md §7.12): public dice drawn from slots committed ahead in
batches; every die a decision poses takes that decision's slot, revealed in one round after it
(the decider's secret in its ACT); no die can be computed from the wire before its decision.
The toy of tests/protocol/dice_toy.py, and Dungeons of Kards, which rolls hundreds."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from protocol.match.events import ChanceResolved, PeerMisbehaved, SeatReplaced
from protocol.mechanisms.chance import POOL_BATCH, POOL_LOW, is_pool_slot
from protocol.mesh import MeshGame, Network
from protocol.verify.verdicts import INVALID, VALID
from protocol.verify.verifier import verify
from protocol.wire.messages import ActBody, ChanceCommitBody, Kind, revealed_secrets

from benchmarks.dice import HopNetwork
from protocol.crypto import chance_outcome
from tests.protocol import dice_toy
from tests.protocol.helpers import pool_lies


def toy(n: int, tag: bytes, dice: str = "mixed", turns: int = 30) -> HopNetwork:
    net = HopNetwork(n, MeshGame(dice_toy.GAME, (("turns", turns), ("dice", dice))), tag)
    return net


def dice_of(net: Network) -> list[tuple[str, str]]:
    """Every die rolled (engine id) with the pool slot it took."""
    chance = net.cores[0].chance
    return [(e.event, chance.alias.get(e.event, e.event)) for e in net.cores[0].events
            if isinstance(e, ChanceResolved)]


def decision_of(die: str) -> int:
    return int(die[1:].split(".")[0])


@pytest.mark.parametrize("n", [2, 4, 8])
def test_every_die_of_a_decision_takes_its_slot_in_one_round(n: int) -> None:
    net = toy(n, b"pools-%d" % n)
    net.run()
    assert all(core.signed for core in net.cores)
    assert verify(net.match_file(0)).verdict == VALID
    rolled = dice_of(net)
    assert any(d.endswith(".2") for d, _ in rolled)  # (a decision that posed two dice)
    by_decision: dict[int, set[str]] = {}
    for die, slot in rolled:
        assert is_pool_slot(slot)
        by_decision.setdefault(decision_of(die), set()).add(slot)
    assert all(len(slots) == 1 for slots in by_decision.values())  # one slot per decision
    # The slot is the next unused one: decisions that rolled take pool.0, pool.1, … in turn.
    assert [next(iter(by_decision[d])) for d in sorted(by_decision)] == [
        f"pool.{k}" for k in range(len(by_decision))]
    for die, slot in rolled:
        carriers = [m for m in net.log
                    if any(e == slot for e, _ in revealed_secrets(m.content))]
        decider = [m for m in carriers if m.kind is Kind.ACT]
        assert len(decider) == 1 and decider[0].content.step == f"t{decision_of(die)}"
        assert len(carriers) == n  # the decider's ACT, and one reveal of every other seat
        assert max(net.hops[m.hash][decision_of(die)] for m in carriers) == 1


def test_no_die_can_be_computed_from_the_wire_before_its_decision() -> None:
    """The knowledge test: every byte sent before a decision is consumed holds no secret of the
    slot its dice take — so no die, nor any combination, is known before it (revealing a
    whole pool at once would give every later die away)."""
    net = toy(4, b"pools-knowledge", turns=40)
    net.run()
    core = net.cores[0]
    for die, slot in dice_of(net):
        secrets = {s: core.chance.secrets[slot][s] for s in core.chance.commitments[slot]}
        act = next(i for i, m in enumerate(net.log) if isinstance(m.content, ActBody)
                   and m.content.step == f"t{decision_of(die)}")
        before = b"".join(m.encode() for m in net.log[:act])
        assert not any(secret in before for secret in secrets.values()), die
        # and from the secrets alone, anyone computes the die the engine rolled
        event = next(e for e in core.events if isinstance(e, ChanceResolved) and e.event == die)
        from engine.core import ChanceEvent, Visibility
        posed = ChanceEvent(f"{slot}/{die}", dice_toy.FACES, Visibility.PUBLIC)
        assert chance_outcome(posed, [secrets[s] for s in sorted(secrets)]) == event.outcome


def test_pools_are_committed_in_batches_and_no_digest_round() -> None:
    net = toy(3, b"pools-batches", dice="one", turns=40)
    net.run()
    kinds = Counter(m.kind for m in net.log)
    assert kinds[Kind.CHANCE_DIGEST] == 0
    commits = [m for m in net.log if isinstance(m.content, ChanceCommitBody)]
    assert all(len(m.content.commitments) == POOL_BATCH for m in commits)
    # A batch at the start, and one more whenever fewer than POOL_LOW closed slots are left.
    assert len(commits) == 3 * -(-(40 + POOL_LOW) // POOL_BATCH)
    per_seat = (kinds[Kind.CHANCE_COMMIT] + kinds[Kind.CHANCE_REVEAL]) / (40 * 3)
    assert per_seat <= 1.2


def test_secrets_of_dice_not_needed_are_burned() -> None:
    """``roll2`` poses a second die only after a 4 or more: when it is not posed, the slot is
    still the decision's and no later die takes it."""
    net = toy(3, b"pools-burn", turns=45)
    net.run()
    rolled = dice_of(net)
    slots = [slot for _, slot in rolled]
    firsts = {d: s for d, s in rolled if d.endswith(".1")}
    short = [d for d in firsts if f"{d[:-2]}.2" not in dict(rolled)
             and net.cores[0].state.game == dice_toy.GAME]
    assert short  # (some decisions stopped after one die)
    assert Counter(slots).most_common(1)[0][1] <= 2  # a slot serves one decision at most


@pytest.mark.parametrize(("how", "words", "code"), [
    ("wrong-secret", "does not open its commitment", "reveal_mismatch"),
    ("wrong-slot", "where its action takes", "unexpected_message"),
    ("no-die", "(the action poses no die from the pool)", "unexpected_message"),
])
def test_a_false_secret_in_an_act_is_misbehaviour(how: str, words: str, code: str) -> None:
    def decide(state: Any, seat: int) -> str:
        return "pass" if how == "no-die" else "roll"
    net = Network(3, MeshGame(dice_toy.GAME, (("turns", 12),)), b"pools-" + how.encode(),
                  [decide] * 3)
    pool_lies(net.seats[1], how)
    net.run_with_timeouts()
    blamed = [e for e in net.events[0] if isinstance(e, PeerMisbehaved)]
    assert blamed and blamed[0].seat == 1 and words in blamed[0].reason, blamed
    v = verify(net.match_file(0))
    assert (v.verdict, v.blamed, v.reason_code) == (INVALID, (1,), code), v


def test_a_contributor_that_never_reveals_makes_the_die_drawn_again() -> None:
    """Seat 2 goes silent where it owes its secret of a die: it is voted out, the die is drawn
    again under its own commitments from the live seats, and the match ends valid."""
    net = Network(3, MeshGame(dice_toy.GAME, (("turns", 12), ("dice", "one"))),
                  b"pools-silent")
    local = net.seats[2]
    original = local.messages_to_send

    def silent() -> list[Any]:
        core = local.core
        w = core.state.waiting
        if getattr(w, "event", None) is not None and w.event.id == "d4.1":
            return []
        return original()
    local.messages_to_send = silent  # type: ignore[method-assign]
    net.run_with_timeouts()
    core = net.cores[0]
    assert core.signed and any(isinstance(e, SeatReplaced) and e.seat == 2
                               for e in core.events)
    assert core.chance.alias["d4.1"] == "d4.1~1"  # (its own commitments: §7.3)
    v = verify(net.match_file(0))
    assert v.verdict == VALID, v
    assert any("drawn again as d4.1~1" in note for note in v.notes), v.notes
    # Every other secret of the die was out first (seat 0's in its ACT, seat 1's reveal): seat
    # 2 withheld it, and forfeits where it decides next — the toy has no forfeit: noted.
    assert any("seat 2 did not forfeit" in note for note in v.notes), v.notes


@pytest.mark.parametrize("n", [2, 5])
def test_kards_draws_its_dice_from_the_pools(n: int) -> None:
    net = Network(n, MeshGame("kards"), b"pools-kards-%d" % n)
    net.run_with_timeouts()
    assert all(core.signed for core in net.cores)
    assert verify(net.match_file(0)).verdict == VALID
    rolled = dice_of(net)
    pooled = sum(1 for _, slot in rolled if is_pool_slot(slot))
    assert pooled >= len(rolled) * 0.9
    kinds = Counter(m.kind for m in net.log)
    chance = kinds[Kind.CHANCE_COMMIT] + kinds[Kind.CHANCE_REVEAL] + kinds[Kind.CHANCE_DIGEST]
    assert chance / (len(rolled) * n) <= 1.2


def test_a_peeks_target_keeps_commitments_of_its_own() -> None:
    """A Kards guardian's peek targets the next orange draw: that event is committed on its
    own (before the roll that may show it, with a digest round), never drawn from a pool, and
    the round shows it only to its seat."""
    net = Network(5, MeshGame("kards"), b"kp5-2")
    net.run_with_timeouts()
    core = net.cores[0]
    assert all(c.signed for c in net.cores) and core.rounds, "no peek in this match"
    for r in core.rounds.values():
        for event in r.events:
            assert not is_pool_slot(event) and event in core.chance.commitments
    assert Counter(m.kind for m in net.log)[Kind.CHANCE_DIGEST] > 0
    assert verify(net.match_file(0)).verdict == VALID


def test_the_baseline_still_commits_per_die() -> None:
    net = Network(3, MeshGame(dice_toy.CLASSIC, (("turns", 6), ("dice", "one"))), b"classic")
    net.pump()
    assert verify(net.match_file(0)).verdict == VALID
    assert not any(is_pool_slot(slot) for _, slot in dice_of(net))
    assert Counter(m.kind for m in net.log)[Kind.CHANCE_DIGEST] > 0
