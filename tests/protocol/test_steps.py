"""Decisions on their own (protocol/mechanisms/steps.py, protocol.md §7.1–7.2): :class:`Steps` over a real
Dungeon Raiders position, fed signed COMMIT / REVEAL / ACT messages, routed as the match core
routes them (each live seat's first message of a step is recorded with the seats first)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

import pytest
from protocol.match.events import (
    ActionTaken,
    Event,
    ForkSuspected,
    PlayCommitted,
    PlayRevealed,
    SeatReclaimed,
)
from protocol.match.game import zombie_action
from protocol.mechanisms.absence import Seats
from protocol.mechanisms.chance import Chance
from protocol.mechanisms.ending import Ending
from protocol.mechanisms.knowledge import KnowledgeRounds, delivery_body, key_body
from protocol.mechanisms.sealed import Sealed
from protocol.mechanisms.steps import Step, Steps
from protocol.wire.messages import (
    ActBody,
    ChanceDigestBody,
    CommitBody,
    ReclaimBody,
    RevealBody,
    WelcomeBody,
)
from protocol.wire.v1_names import revealed_before_delivering

from engine.core import KnowledgeRequest, Simultaneous, Turn
from engine.raiders import from_position
from protocol.crypto import commit_set_digest, play_commitment
from protocol.errors import Fault, Mismatch
from tests.protocol.kit import (
    KEYS,
    MATCH_ID,
    NAMING,
    OTHER_SECRETS,
    PRIVATE,
    SECRETS,
    STEP_STATE,
    VERSION,
    Box,
    Scripted,
    append,
    commit_to,
    feeds,
    keys,
    pending,
    signed,
)

# Level 1 of three seats, at room 2 (a troll): every seat decides; seat 2 holds a torch.
ROOM_2: dict[str, Any] = {
    "game": "raiders", "format": 1, "players": 3, "variant": "basic",
    "phase": "play", "level": 1, "room": 2, "layout": "L1",
    "row": ["zombie#1", "troll#1", "treasure-3", "down", "down"],
    "seats": [
        {"character": "warrior", "coins": 3, "wounds": 0, "used": [1]},
        {"character": "knight", "coins": 1, "wounds": 1, "items": {"sword": 1}, "used": [2]},
        {"character": "explorer", "coins": 4, "wounds": 2, "items": {"torch": 1}, "used": [5]},
    ],
}
# Room 3, whose step turns room 4 (face down) at once: an early turn (nobody holds a crystal).
ROOM_3: dict[str, Any] = {
    **ROOM_2, "room": 3,
    "seats": [{**seat, "used": [*seat["used"], 3 if i == 1 else 2]}
              for i, seat in enumerate(ROOM_2["seats"])],
}
TACTICAL: dict[str, Any] = {**ROOM_2, "variant": "tactical", "map": 0, "turn": 0}
STEP = "L1.R2.play"
PLAYS = {0: "play 2", 1: "play 3", 2: "play 1"}


def position(data: dict[str, Any]) -> Any:
    return from_position(copy.deepcopy(data))


@dataclass
class Rig:
    box: Box
    n: int = 3
    events: list[Event] = field(default_factory=list)
    shortfalls: list[str] = field(default_factory=list)
    unfit: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        emit = self.events.append
        self.seats = Seats(self.n, emit)
        self.chance = Chance(match_id=MATCH_ID, keys=keys(self.n), seats=self.seats,
                             state=self.box, emit=emit, shortfalls=self.shortfalls, naming=NAMING)
        self.knowledge = KnowledgeRounds(match_id=MATCH_ID, keys=keys(self.n), seats=self.seats,
                                         chance=self.chance, emit=emit, naming=NAMING)
        self.feeds = feeds(self.n)
        self.steps = Steps(match_id=MATCH_ID, keys=keys(self.n), seats=self.seats,
                           chance=self.chance, knowledge=self.knowledge, state=self.box,
                           step_state=lambda: STEP_STATE, feeds=self.feeds, emit=emit,
                           shortfalls=self.shortfalls, mark_unfit=self.unfit.append,
                           heads=lambda: (MATCH_ID,) * self.n, version=VERSION,
                           sealed=Sealed(match_id=MATCH_ID, keys=keys(self.n), seats=self.seats,
                                         ending=Ending(MATCH_ID, self.n), state=self.box,
                                         emit=emit, shortfalls=self.shortfalls))

    @property
    def state(self) -> Any:
        return self.box.state

    @property
    def step(self) -> Step:
        return self.steps.simultaneous()

    def commitment(self, seat: int, action: str | None = None) -> bytes:
        return play_commitment(MATCH_ID, self.step.name, KEYS[seat], action or PLAYS[seat],
                               SECRETS[seat].salt_for(self.step.name))

    def commit(self, seat: int, action: str | None = None, *, step: str | None = None) -> bool:
        body = CommitBody(step or self.step.name, self.commitment(seat, action))
        message = append(self.feeds[seat], body, state=STEP_STATE)
        self.seats.first_of_step(self.step, seat)
        return self.steps.on_commit(seat, message, body, self.step.name)

    def commit_set(self, *, direct: int | None = None) -> bytes:
        held = [self.step.commitments.get(s) for s in range(self.n)]
        if direct is not None:
            held[direct] = self.commitment(direct)
        return commit_set_digest(MATCH_ID, self.step.name, held)

    def reveal_body(self, seat: int, action: str | None = None, *,
                    commit_set: bytes | None = None, step: str | None = None,
                    chance: tuple[tuple[str, bytes], ...] = ()) -> RevealBody:
        direct = seat if seat not in self.step.commitments else None
        return RevealBody(step or self.step.name, action or PLAYS[seat],
                          SECRETS[seat].salt_for(self.step.name),
                          commit_set or self.commit_set(direct=direct), chance)

    def reveal(self, seat: int, action: str | None = None, **kw: Any) -> bool:
        body = self.reveal_body(seat, action, **kw)
        message = append(self.feeds[seat], body, state=STEP_STATE)
        return self.steps.on_reveal(seat, message, body, self.step.name)

    def act(self, seat: int, action: str, *, step: str | None = None) -> Any:
        w = self.state.waiting
        body = ActBody(step or w.step, action)
        message = append(self.feeds[seat], body, state=STEP_STATE)
        return self.steps.on_act(seat, message, body, w.step)

    def settle(self) -> Any:
        return self.steps.settle_step(self.state.waiting)


def rig(data: dict[str, Any] = ROOM_2) -> Rig:
    return Rig(Box(position(data)))


def all_committed(r: Rig, seats: tuple[int, ...] = (0, 1, 2)) -> Rig:
    for s in seats:
        assert r.commit(s)
    assert r.settle() is True  # every live decider's first message is in: rejoins settled
    return r


def of_kind(events: list[Event], kind: type) -> list[Event]:
    return [e for e in events if isinstance(e, kind)]


# --------------------------------------------------------------------------- the step


def test_a_step_begins_with_the_states_decision() -> None:
    r = rig()
    step = r.steps.simultaneous()
    assert (step.name, step.seats) == (STEP, frozenset({0, 1, 2}))
    assert r.steps.current is step and r.steps.start is r.state
    assert r.steps.of(r.state.waiting) is step  # the same step: the same bookkeeping
    assert r.steps.of(Simultaneous("L1.R3.play", frozenset({0, 1}))) is not step
    assert r.steps.deciders(step) == frozenset({0, 1, 2})


# --------------------------------------------------------------------------- commitments


def test_every_live_decider_owes_a_commitment() -> None:
    r = rig()
    assert [s for s in range(3) if r.steps.owes_commit(s)] == [0, 1, 2]
    assert r.commit(1)
    assert r.events == [PlayCommitted(STEP, 1)]
    assert r.step.commitments == {1: r.commitment(1)}
    assert [s for s in range(3) if r.steps.owes_commit(s)] == [0, 2]
    assert not r.steps.others_committed(1) and not r.steps.others_committed(0)
    r.commit(0)
    assert r.steps.others_committed(2) and not r.steps.others_committed(0)
    assert not any(r.steps.owes_reveal(s) for s in range(3))


def test_a_commitment_for_another_step_is_a_fault() -> None:
    r = rig()
    body = CommitBody("L1.R9.play", r.commitment(0))
    message = signed(0, body)
    r.steps.simultaneous()
    with pytest.raises(Fault) as info:
        r.steps.on_commit(0, message, body, STEP)
    assert info.value.reason == f"committed for step 'L1.R9.play' during {STEP!r}"
    assert info.value.evidence == (message,)
    assert r.step.commitments == {} and r.events == []


def test_reveals_are_owed_once_every_decider_committed_and_rejoins_are_settled() -> None:
    r = rig()
    r.commit(0)
    r.commit(1)
    assert r.settle() is None  # seat 2's first message is not in
    r.commit(2)
    assert not any(r.steps.owes_reveal(s) for s in range(3))  # rejoins not settled yet
    assert r.settle() is True
    assert [s for s in range(3) if r.steps.owes_reveal(s)] == [0, 1, 2]
    assert r.settle() is None  # waits for the reveals


# --------------------------------------------------------------------------- reveals


def test_the_step_resolves_with_every_reveal() -> None:
    r = all_committed(rig())
    before = r.state
    for s in (2, 0, 1):
        assert r.reveal(s)
    assert of_kind(r.events, PlayRevealed) == [PlayRevealed(STEP, s, PLAYS[s]) for s in (2, 0, 1)]
    assert not any(r.steps.owes_reveal(s) for s in range(3))
    after = r.settle()
    assert after == before.apply_joint({s: before.parse_action(s, a) for s, a in PLAYS.items()})
    assert r.steps.current is None and r.shortfalls == []


def test_a_reveal_for_another_step_is_a_fault() -> None:
    r = all_committed(rig())
    body = r.reveal_body(0, step="L1.R9.play")
    message = signed(0, body)
    with pytest.raises(Fault) as info:
        r.steps.on_reveal(0, message, body, STEP)
    assert info.value.reason == f"revealed for step 'L1.R9.play' during {STEP!r}"


def test_a_reveal_that_does_not_open_the_commitment_is_a_fault() -> None:
    r = all_committed(rig())
    body = r.reveal_body(0, "play 3")  # committed to "play 2"
    message = signed(0, body)
    with pytest.raises(Fault) as info:
        r.steps.on_reveal(0, message, body, STEP)
    assert info.value.reason == "its reveal does not open its commitment"
    assert info.value.evidence == (message,)
    assert r.step.reveals == {}


@pytest.mark.parametrize(("seat", "action"), [(0, "play 1"), (2, "torch")])
def test_revealing_an_illegal_play_is_a_fault(seat: int, action: str) -> None:
    # "play 1": seat 0 used its 1 already; "torch": a free action is no part of a joint one.
    r = rig()
    for s in range(3):
        r.commit(s, action if s == seat else None)
    r.settle()
    body = r.reveal_body(seat, action)
    with pytest.raises(Fault) as info:
        r.steps.on_reveal(seat, signed(seat, body), body, STEP)
    assert info.value.reason.startswith(f"revealed an illegal action {action!r}: ")


def test_a_reveal_holding_other_commitments_suspects_a_fork_and_waits() -> None:
    r = all_committed(rig())
    other = commit_set_digest(MATCH_ID, STEP, [r.commitment(0), r.commitment(1, "play 4"),
                                               r.commitment(2)])
    assert not r.reveal(0, commit_set=other)
    held = tuple(r.feeds[s].messages[0] for s in range(3))  # the COMMITs this peer holds
    assert of_kind(r.events, ForkSuspected) == [ForkSuspected(STEP, 0, held)]
    assert r.unfit == [0]
    assert not r.reveal(0, commit_set=other)
    assert len(of_kind(r.events, ForkSuspected)) == 1  # suspected once per seat and step
    assert r.unfit == [0, 0]
    assert r.step.reveals == {}
    assert r.reveal(0)  # its honest reveal is taken


# --------------------------------------------------------------------------- direct reveals


def test_the_last_decider_may_reveal_in_place_of_its_commitment() -> None:
    r = rig()
    r.commit(0)
    r.commit(1)
    assert r.steps.owes_commit(2) and r.steps.others_committed(2)
    assert r.steps.direct_reveal_fault(2) is None
    assert r.reveal(2)
    assert r.events[-2:] == [PlayCommitted(STEP, 2), PlayRevealed(STEP, 2, PLAYS[2])]
    assert r.step.commitments[2] == r.commitment(2)
    assert r.step.first[2] == frozenset()  # a direct reveal welcomes nobody back
    assert r.settle() is True
    assert [s for s in range(3) if r.steps.owes_reveal(s)] == [0, 1]


def test_a_direct_reveal_by_a_seat_that_welcomed_a_reclaiming_seat_is_a_mismatch() -> None:
    r = rig()
    r.seats.replace(2, 0, "absent", final=False)
    r.seats.on_replaced_seat_message(2, ReclaimBody(0))
    r.seats.on_welcome(1, WelcomeBody(2, 0), lambda seat: 0)
    r.commit(0)
    reason = ("revealed at once while seat 2, which it welcomed back, reclaims (it could "
              "rejoin the step after seeing the play)")
    assert r.steps.direct_reveal_fault(1) == reason
    body = r.reveal_body(1)
    message = signed(1, body)
    with pytest.raises(Mismatch) as info:
        r.steps.on_reveal(1, message, body, STEP)
    assert info.value.reason == reason and info.value.evidence == (message,)
    assert 1 not in r.step.reveals


def test_a_direct_reveal_before_delivering_to_an_open_round_cannot_be_honest() -> None:
    r = rig()
    state = r.state
    r.box.state = pending("L1.R4", "L1.R5")  # (the hidden rooms, committed earlier)
    for s in range(3):
        body = commit_to(s, ("L1.R4", "L1.R5"))
        r.chance.on_commit(s, signed(s, body), body)
    r.box.state = state
    r.knowledge.open_rounds(Scripted(state.waiting, requests=(
        KnowledgeRequest(2, ("L1.R4", "L1.R5")),)))
    key = key_body(r.knowledge, 2, SECRETS[2])
    r.knowledge.on_key(2, signed(2, key), key)
    r.commit(0)
    # Seat 2 has not committed: seat 1, revealing at once, cannot have held its commitment.
    assert r.steps.direct_reveal_fault(1) == revealed_before_delivering(2)
    delivery = delivery_body(r.knowledge, 1, SECRETS[1], PRIVATE[1], MATCH_ID)
    r.knowledge.on_delivery(1, signed(1, delivery), delivery)
    assert r.steps.direct_reveal_fault(1) is None


# --------------------------------------------------------------------------- early turns


def early() -> Rig:
    """Room 3, with room 4's commitments closed and digested: the step turns it early."""
    r = Rig(Box(pending("L1.R4")))
    for s in range(3):
        body = commit_to(s, ("L1.R4",))
        r.chance.on_commit(s, signed(s, body), body)
    digest = r.chance.digest()
    for s in range(3):
        body = ChanceDigestBody(1, digest)
        r.chance.on_digest(s, signed(s, body), body)
    assert r.chance.close_digest_round()
    r.box.state = position(ROOM_3)
    assert r.chance.early_turn() == "L1.R4"
    return r


EARLY_PLAYS = {0: "play 3", 1: "play 4", 2: "play 3"}


def test_an_early_turns_secret_is_owed_once_the_seat_revealed() -> None:
    r = early()
    for s in range(3):
        r.commit(s, EARLY_PLAYS[s])
    assert not any(r.steps.owes_early_secret(s) for s in range(3))  # rejoins not settled
    r.settle()
    assert not any(r.steps.owes_early_secret(s) for s in range(3))  # the plays come first
    body = r.reveal_body(0, EARLY_PLAYS[0])
    r.steps.on_reveal(0, signed(0, body), body, r.step.name)
    assert [s for s in range(3) if r.steps.owes_early_secret(s)] == [0]
    entry = (("L1.R4", SECRETS[1].chance_secret("L1.R4")),)
    assert r.reveal(1, EARLY_PLAYS[1], chance=entry)  # with its play
    assert r.chance.revealed(1, "L1.R4") and not r.steps.owes_early_secret(1)


@pytest.mark.parametrize(("entry", "reason"), [
    (("L1.R5", SECRETS[0].chance_secret("L1.R5")),
     "revealed a secret for L1.R5 with its play, where none was due"),
    (("L1.R4", OTHER_SECRETS[0].chance_secret("L1.R4")),
     "its secret for L1.R4 does not open its commitment"),
])
def test_a_wrong_secret_with_a_play_is_a_fault(entry: tuple[str, bytes], reason: str) -> None:
    r = early()
    for s in range(3):
        r.commit(s, EARLY_PLAYS[s])
    r.settle()
    body = r.reveal_body(0, EARLY_PLAYS[0], chance=(entry,))
    with pytest.raises(Fault) as info:
        r.steps.on_reveal(0, signed(0, body), body, r.step.name)
    assert info.value.reason == reason
    assert 0 not in r.step.reveals


def test_a_secret_of_an_event_drawn_again_is_ignored_with_its_play() -> None:
    r = early()
    for s in range(3):
        r.commit(s, EARLY_PLAYS[s])
    r.settle()
    r.seats.replace(2, 2, "absent", final=False)
    r.chance.redraw_lost(lambda seat, event: False)
    assert "L1.R4" in r.chance.dead
    entry = (("L1.R4", SECRETS[0].chance_secret("L1.R4")),)
    assert r.reveal(0, EARLY_PLAYS[0], chance=entry)  # signed before it saw the re-draw
    assert not r.chance.revealed(0, "L1.R4")


def test_resolving_the_step_notes_the_state_its_early_reveals_carry() -> None:
    r = early()
    for s in range(3):
        r.commit(s, EARLY_PLAYS[s])
    r.settle()
    for s in range(3):
        r.reveal(s, EARLY_PLAYS[s])
    assert r.settle() is not None
    assert r.chance.early_state == {"L1.R4": {STEP_STATE}}


# --------------------------------------------------------------------------- replaced seats


def test_a_replaced_seats_zombie_decides_with_the_live_seats() -> None:
    r = rig()
    r.seats.replace(2, 0, "absent", final=False)
    assert r.steps.deciders(r.step) == frozenset({0, 1})
    assert not r.steps.owes_commit(2)
    all_committed(r, (0, 1))
    before = r.state
    r.reveal(0)
    r.reveal(1)
    zombie = zombie_action(before, 2, MATCH_ID, STEP)
    after = r.settle()
    assert after == before.apply_joint({0: before.parse_action(0, PLAYS[0]),
                                        1: before.parse_action(1, PLAYS[1]), 2: zombie})
    assert ActionTaken(STEP, 2, before.format_action(zombie), zombie=True) in r.events
    assert r.shortfalls == [f"{STEP}: seat 2 played by its zombie"]


@pytest.mark.parametrize("version", ["held", "none"])
def test_a_replaced_seats_entry_in_a_commitment_set_may_be_any_version(version: str) -> None:
    r = rig()
    for s in range(3):
        r.commit(s)
    r.seats.replace(2, 1, "absent", final=False)
    r.settle()
    held = [r.commitment(0), r.commitment(1), r.commitment(2) if version == "held" else None]
    assert r.reveal(0, commit_set=commit_set_digest(MATCH_ID, STEP, held))
    assert r.unfit == []


def test_a_seat_that_rejoins_decides_in_the_step() -> None:
    r = rig()
    r.seats.replace(2, 0, "absent", final=False)
    r.seats.on_replaced_seat_message(2, ReclaimBody(0))
    for s in (0, 1):
        r.seats.on_welcome(s, WelcomeBody(2, 0), lambda seat: 0)
    r.commit(0)
    r.commit(1)
    assert r.settle() is True
    assert SeatReclaimed(2, STEP) in r.events
    assert r.steps.deciders(r.step) == frozenset({0, 1, 2})
    assert r.steps.owes_commit(2) and not r.steps.owes_reveal(0)


# --------------------------------------------------------------------------- open actions


def test_a_turn_is_owed_by_its_seat_and_applied() -> None:
    r = rig(TACTICAL)
    w = r.state.waiting
    assert isinstance(w, Turn)
    assert [s for s in range(3) if r.steps.owes_act(s)] == [w.seat]
    before = r.state
    after = r.act(w.seat, "play 3")
    assert after == before.apply(w.seat, before.parse_action(w.seat, "play 3"))
    assert r.events == [ActionTaken(w.step, w.seat, "play 3")]


@pytest.mark.parametrize(("step", "action", "reason"), [
    ("L1.R9.play.0", "play 3", "acted in step 'L1.R9.play.0' during 'L1.R2.play.0'"),
    (None, "play 1", "illegal action 'play 1': "),
    (None, "play nothing", "illegal action 'play nothing': "),
])
def test_a_wrong_open_action_is_a_fault(step: str | None, action: str, reason: str) -> None:
    r = rig(TACTICAL)
    with pytest.raises(Fault) as info:
        r.act(0, action, step=step)
    assert info.value.reason.startswith(reason)
    assert r.events == []


def test_a_free_action_is_taken_in_a_simultaneous_step() -> None:
    r = rig()
    before = r.state
    after = r.act(2, "torch")
    assert after == before.apply(2, before.parse_action(2, "torch"))
    assert after.knowledge_requests() == (KnowledgeRequest(2, ("L1.R4", "L1.R5")),)
    assert r.events == [ActionTaken(STEP, 2, "torch")]


def test_a_play_in_the_open_in_a_simultaneous_step_is_a_fault() -> None:
    r = rig()
    with pytest.raises(Fault) as info:
        r.act(0, "play 2")
    assert info.value.reason == ("an open action in a simultaneous step must be a free action "
                                 "(it committed a card without a commitment)")
    # The last play of a step that the engine holds the others' of: it resolves the step.
    r = rig(ROOM_3)
    r.box.state = r.state.apply(1, r.state.parse_action(1, "play 4")).apply(
        2, r.state.parse_action(2, "play 3"))
    with pytest.raises(Fault) as info:
        r.act(0, "play 3")
    assert info.value.reason == "played a card in the open in a simultaneous step"
    assert r.events == []


def test_a_replaced_seats_turn_is_its_zombies() -> None:
    r = rig(TACTICAL)
    w = r.state.waiting
    assert r.steps.settle_turn(w) is None  # a live seat's turn: it acts itself
    r.seats.replace(w.seat, 0, "absent", final=False)
    before = r.state
    zombie = zombie_action(before, w.seat, MATCH_ID, w.step)
    assert r.steps.settle_turn(w) == before.apply(w.seat, zombie)
    assert r.events == [ActionTaken(w.step, w.seat, before.format_action(zombie), zombie=True)]
    assert r.shortfalls == [f"{w.step}: seat {w.seat} played by its zombie"]


# --------------------------------------------------------------------------- commitments in feeds


def test_the_commitment_a_message_makes() -> None:
    r = rig()
    r.commit(0)
    r.reveal(2, "play 1", commit_set=bytes(32))  # (a direct reveal: held in its feed anyway)
    commit, direct = r.feeds[0].messages[0], r.feeds[2].messages[0]
    assert r.steps.committed_by(commit, STEP) == r.commitment(0)
    assert r.steps.committed_by(commit, "L1.R9.play") is None
    assert r.steps.committed_by(direct, STEP) == r.commitment(2)
    r.commit(1)
    r.reveal(1, commit_set=bytes(32))
    assert r.steps.committed_by(r.feeds[1].messages[1], STEP) is None  # opens its COMMIT
    assert r.steps.step_commits(STEP) == (commit, r.feeds[1].messages[0], direct)

