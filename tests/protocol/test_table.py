"""The transition table (protocol/table.py): every row's predicate belongs to the mechanism the
row names, the ``gated`` and ``decision`` columns hold where the table says and are what the
match core enforces, and docs/protocol.md shows the table :func:`describe_transitions` makes.

The core's enforcement is seen through its public ``expects`` and ``accepts``, on a toy game of
six points (a deal, a simultaneous step that owes seat 0 a hidden event, the hidden event, a
second step, a turn of seat 0, the end), driven with signed messages — no mesh, no local
seat."""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest

from engine.core import (
    Chance,
    ChanceEvent,
    GameSpec,
    GameState,
    IllegalActionError,
    InvalidActionError,
    KnowledgeRequest,
    Outcome,
    Over,
    Simultaneous,
    Standing,
    Turn,
    Visibility,
    Waiting,
)
from engine.games import register
from protocol import chance as chance_writers
from protocol import knowledge as knowledge_writers
from protocol.absence import Seats
from protocol.chance import Chance as ChanceMechanism
from protocol.crypto import SeatSecrets, commit_set_digest, play_commitment
from protocol.ending import Ending
from protocol.events import Event, PeerMisbehaved, ResultSigned
from protocol.knowledge import KnowledgeRounds, round_private
from protocol.local import MeshGame, make_header
from protocol.match import MatchCore
from protocol.messages import (
    ActBody,
    Body,
    CommitBody,
    EndBody,
    KeyReleaseBody,
    Kind,
    RevealBody,
    sign_message,
)
from protocol.steps import Steps
from protocol.table import (
    ANY,
    CORE_KINDS,
    OVERLAY,
    PHASE_ROWS,
    PHASES,
    ROWS_IN,
    ROWS_OWING_IN,
    SIMULTANEOUS,
    TRANSITIONS,
    TURN,
    describe_transitions,
)
from protocol.votes import Votes
from tests.protocol.test_knowledge_rounds import RELEASED_ROUND_KEEPS_WAITING

DOCS = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
MECHANISMS = {Seats, ChanceMechanism, KnowledgeRounds, Steps, Votes, Ending}


# --------------------------------------------------------------------------- the table as data


@pytest.mark.parametrize("row", TRANSITIONS,
                         ids=[f"{t.phase}-{t.expect.name}" for t in TRANSITIONS])
def test_every_row_asks_a_predicate_of_the_mechanism_it_names(row: Any) -> None:
    assert row.owner in MECHANISMS
    assert getattr(row.owner, row.when.__name__) is row.when
    assert row.when.__qualname__ == f"{row.owner.__name__}.{row.when.__name__}"
    assert list(inspect.signature(row.when).parameters) == ["self", "seat"]


def test_the_overlay_is_owed_in_any_phase_and_the_rest_in_their_own() -> None:
    for row in TRANSITIONS:
        assert (row.phase == ANY) == (row.expect in OVERLAY), row
        assert row.phase in (ANY, *PHASES)
    assert set(Kind) == CORE_KINDS | OVERLAY
    assert not CORE_KINDS & OVERLAY
    # Every kind a live seat can owe has a row (a RECLAIM is a replaced seat's own asking).
    assert {row.expect for row in TRANSITIONS} == set(Kind) - {Kind.RECLAIM}
    assert all(PHASE_ROWS[phase] for phase in PHASES)


def test_the_phase_rows_are_gated_and_the_decisions_wait_for_completion() -> None:
    for row in TRANSITIONS:
        assert row.gated == (row.phase != ANY), row
        assert row.decision == (row.expect in (Kind.COMMIT, Kind.ACT)), row
        assert row.gated or not row.decision


def test_the_rows_of_each_phase_keep_the_tables_order() -> None:
    for phase in PHASES:
        rows = ROWS_IN[phase]
        assert rows == tuple(t for t in TRANSITIONS if t.phase in (phase, ANY))
        assert PHASE_ROWS[phase] == tuple(t for t in rows if t.phase == phase)
        for kind in Kind:
            assert ROWS_OWING_IN[phase][kind] == tuple(t for t in rows if t.expect is kind)
    # The private-knowledge round comes first; votes last.
    assert [t.expect for t in TRANSITIONS[:2]] == [Kind.SEAL_KEY, Kind.KEY_RELEASE]
    assert TRANSITIONS[-1].expect is Kind.ABSENT


def test_the_docs_show_the_table() -> None:
    described = describe_transitions()
    lines = described.splitlines()
    assert len(lines) == len(TRANSITIONS) + 2
    for row, line in zip(TRANSITIONS, lines[2:], strict=True):
        waits = {(True, True): "key and release, and completion",
                 (True, False): "key and release", (False, False): ""}[(row.gated, row.decision)]
        assert line == (f"| {row.phase} | {row.condition} | {row.expect.name} | {waits} "
                        f"| {row.then} |")
    assert described in DOCS.read_text(encoding="utf-8"), (
        "docs/protocol.md must show the table describe_transitions() generates")


# --------------------------------------------------------------------------- a toy game


@dataclass(frozen=True)
class Toy(GameState[str]):
    """Deal (and commit to the hidden event) → step ``s1`` (seat 0 is owed the hidden event if
    ``owed``, or once it looks, a free action) → the hidden event → step ``s2`` → seat 0's
    turn → the end."""

    game: ClassVar[str] = "toy-table"
    n: int
    owed: bool
    stage: int = 0
    looked: bool = False
    record: tuple[str, ...] = ()

    @property
    def waiting(self) -> Waiting:
        if self.stage == 0:
            return Chance(ChanceEvent("deal", ("a", "b"), Visibility.PUBLIC))
        if self.stage == 1:
            return Simultaneous("s1", frozenset(range(self.n)))
        if self.stage == 2:
            return Chance(ChanceEvent("hidden", ("c", "d"), Visibility.HIDDEN))
        if self.stage == 3:
            return Simultaneous("s2", frozenset(range(self.n)))
        if self.stage == 4:
            return Turn("t1", 0)
        return Over(Outcome(frozenset({0}), tuple(
            Standing(s, "winner" if s == 0 else "lost", 0, 0) for s in range(self.n)), "toy"))

    @property
    def seats(self) -> int:
        return self.n

    def upcoming_events(self) -> tuple[str, ...]:
        return {0: ("deal", "hidden"), 2: ("hidden",)}.get(self.stage, ())

    def knowledge_requests(self) -> tuple[KnowledgeRequest, ...]:
        if self.stage == 1 and (self.owed or self.looked):
            return (KnowledgeRequest(0, ("hidden",)),)
        return ()

    def legal_actions(self, seat: int) -> tuple[str, ...]:
        if self.stage == 1:
            return ("x", "y", "look") if seat == 0 and not self.looked else ("x", "y")
        if self.stage == 3:
            return ("x", "y")
        return ("x",) if self.stage == 4 and seat == 0 else ()

    def check(self, seat: int, action: str) -> None:
        if action not in self.legal_actions(seat):
            raise IllegalActionError(f"seat {seat} may not {action} now")

    def check_joint(self, seat: int, action: str) -> None:
        if action == "look":
            raise IllegalActionError("a look is taken on its own")

    def apply(self, seat: int, action: str) -> Toy:
        self.check(seat, action)
        if action == "look":
            return dataclasses.replace(self, looked=True, record=(*self.record, "look"))
        if self.stage != 4:
            raise IllegalActionError("decided together")
        return dataclasses.replace(self, stage=5, record=(*self.record, action))

    def apply_joint(self, actions: Mapping[int, str]) -> Toy:
        for seat, action in actions.items():
            self.check(seat, action)
            self.check_joint(seat, action)
        return dataclasses.replace(self, stage=self.stage + 1, record=(
            *self.record, *(f"{s}:{a}" for s, a in sorted(actions.items()))))

    def apply_chance(self, event_id: str, outcome: str) -> Toy:
        return dataclasses.replace(self, stage=self.stage + 1, record=(*self.record, outcome))

    def parse_action(self, seat: int, text: str) -> str:
        if text not in ("x", "y", "look"):
            raise InvalidActionError(f"no action {text!r}")
        self.check(seat, text)
        return text

    def format_action(self, action: str) -> str:
        return action

    def view(self, seat: int) -> Any:
        return self

    def to_position(self, *, private: bool = True) -> Any:
        return {"stage": self.stage, "looked": self.looked, "record": list(self.record)}

    @classmethod
    def from_position(cls, data: Any) -> Toy:
        raise NotImplementedError


def new_toy(players: int = 3, owed: bool = False) -> Toy:
    return Toy(players, owed)


register(GameSpec(name="toy-table", title="Toy table", players=(3,), variants=("basic",),
                  new=new_toy, from_position=Toy.from_position, engine_version="toy-table/1"))


class Match:
    """A match core of the toy game, fed each seat's signed messages in order."""

    def __init__(self, *, owed: bool) -> None:
        header, self.private = make_header(3, MeshGame("toy-table", (("owed", owed),)),
                                           b"table")
        self.core = MatchCore(header)
        mid = self.core.match_id
        self.secrets = [SeatSecrets(hashlib.sha256(b"seed %d" % s).digest(), mid,
                                    self.core.keys[s]) for s in range(3)]
        self.events: list[Event] = []

    def send(self, seat: int, body: Body, *, fault: bool = False) -> None:
        """``seat``'s next message, which the core takes (or, with ``fault``, blames it for)."""
        core = self.core
        feed = core.feeds[seat]
        message = sign_message(self.private[seat], match_id=core.match_id, seat=seat,
                               seq=feed.next_seq, prev=feed.head, kind=body.KIND,
                               state=core.step_state, body=body)
        events = core.receive(message)
        self.events += events
        blamed = [e.seat for e in events if isinstance(e, PeerMisbehaved)]
        if fault:
            assert blamed == [seat] and seat in core.absent, events
            return
        assert not blamed, events
        assert core.cursor[seat] == feed.next_seq, f"seat {seat}'s {body.KIND.name} waits"

    def expects(self) -> list[Kind | None]:
        return [self.core.expects(s) for s in range(3)]

    def chance_commits(self) -> None:
        for s in range(3):
            self.send(s, chance_writers.commit_body(self.core.chance, self.secrets[s],
                                                    self.core.keys[s], self.core.match_id))

    def chance_reveal(self, seat: int) -> None:
        self.send(seat, chance_writers.reveal_body(self.core.chance, self.secrets[seat]))

    def digest(self, seat: int) -> None:
        self.send(seat, chance_writers.digest_body(self.core.chance))

    def key(self) -> None:
        self.send(0, knowledge_writers.key_body(self.core.knowledge, 0, self.secrets[0]))

    def deliver(self, seat: int) -> None:
        self.send(seat, knowledge_writers.delivery_body(
            self.core.knowledge, seat, self.secrets[seat], self.private[seat],
            self.core.match_id))

    def release(self) -> None:
        self.send(0, knowledge_writers.release_body(self.core.knowledge, 0, self.secrets[0]))

    def play(self, seat: int, step: str) -> tuple[CommitBody, RevealBody]:
        """``seat``'s COMMIT and REVEAL of "x" in ``step`` (every seat plays "x")."""
        mid, salt = self.core.match_id, self.secrets[seat].salt_for(step)
        commit = CommitBody(step, play_commitment(mid, step, self.core.keys[seat], "x", salt))
        held = [play_commitment(mid, step, self.core.keys[s], "x",
                                self.secrets[s].salt_for(step)) for s in range(3)]
        return commit, RevealBody(step, "x", salt, commit_set_digest(mid, step, held))

    def decide(self, seats: tuple[int, ...] = (0, 1, 2), step: str = "s1") -> None:
        for s in seats:
            self.send(s, self.play(s, step)[0])

    def reveal(self, seats: tuple[int, ...] = (0, 1, 2), step: str = "s1") -> None:
        for s in seats:
            self.send(s, self.play(s, step)[1])


def dealt(*, owed: bool) -> Match:
    m = Match(owed=owed)
    assert m.expects() == [Kind.CHANCE_COMMIT] * 3
    m.chance_commits()
    assert m.expects() == [Kind.CHANCE_REVEAL] * 3
    for s in range(3):
        m.chance_reveal(s)
    return m


def digested(m: Match) -> None:
    for s in range(3):
        m.digest(s)
    assert m.core.phase() == SIMULTANEOUS


# --------------------------------------------------------------------------- the columns, enforced


def test_a_seat_that_owes_its_round_a_key_owes_nothing_gated_before() -> None:
    m = dealt(owed=True)
    assert m.core.knowledge.owes_key(0)
    assert m.expects() == [Kind.SEAL_KEY, Kind.CHANCE_DIGEST, Kind.CHANCE_DIGEST]
    assert m.core.chance.owes_digest(0)  # the digest row's own predicate holds ...
    assert not m.core.accepts(0, Kind.CHANCE_DIGEST)  # ... the gated column stops it
    assert m.core.accepts(1, Kind.CHANCE_DIGEST)
    assert not m.core.accepts(1, Kind.DELIVERY)  # (no key to seal to yet)


def test_an_incomplete_round_holds_its_seats_decisions_only() -> None:
    m = dealt(owed=True)
    m.key()
    # Gated, not a decision: the digest row applies though the deliveries are not in.
    assert m.expects() == [Kind.CHANCE_DIGEST, Kind.DELIVERY, Kind.DELIVERY]
    assert m.core.accepts(1, Kind.CHANCE_DIGEST)  # (a seat's own order is its business)
    digested(m)
    assert m.core.steps.owes_commit(0)  # the COMMIT row's predicate holds ...
    assert m.expects() == [None, Kind.DELIVERY, Kind.DELIVERY]  # ... the decision column waits
    for kind in (Kind.COMMIT, Kind.ACT, Kind.REVEAL):
        assert not m.core.accepts(0, kind)
    assert m.core.accepts(1, Kind.COMMIT) and m.core.accepts(1, Kind.ACT)
    m.decide((1, 2))  # its deliverers may decide before they deliver
    assert not m.core.accepts(0, Kind.REVEAL)  # not even in place of its COMMIT
    assert not m.core.may_reveal_directly(0)
    m.deliver(1)
    assert m.expects()[0] is None
    m.deliver(2)
    assert m.expects() == [Kind.COMMIT, None, None]
    assert m.core.may_reveal_directly(0) and m.core.accepts(0, Kind.REVEAL)


def test_a_round_opened_by_a_free_action_gates_the_commitment() -> None:
    m = dealt(owed=False)
    digested(m)
    assert m.expects() == [Kind.COMMIT] * 3
    assert m.core.accepts(0, Kind.ACT)  # a free action before its commitment
    m.send(0, ActBody("s1", "look"))
    assert m.expects() == [Kind.SEAL_KEY, Kind.COMMIT, Kind.COMMIT]
    for kind in (Kind.COMMIT, Kind.ACT):
        assert not m.core.accepts(0, kind)
    m.decide((1, 2))
    assert m.core.steps.others_committed(0)
    assert not m.core.accepts(0, Kind.REVEAL)  # a direct reveal goes through the gate too
    m.key()
    assert m.expects() == [None, Kind.DELIVERY, Kind.DELIVERY]
    m.deliver(1)
    m.deliver(2)
    assert m.expects() == [Kind.COMMIT, None, None]


def test_a_key_owed_at_last_is_released_before_anything_gated() -> None:
    m = dealt(owed=True)
    m.key()
    digested(m)
    m.deliver(1)
    m.deliver(2)
    m.decide()
    assert m.expects() == [Kind.REVEAL] * 3
    m.reveal()
    # The hidden event: its reveals are gated, but seat 0 owes no key yet (not turned).
    assert m.expects() == [Kind.CHANCE_REVEAL] * 3
    for s in range(3):
        m.chance_reveal(s)
    assert m.core.phase() == SIMULTANEOUS
    assert m.core.knowledge.owes_release(0) and m.core.steps.owes_commit(0)
    assert not m.core.knowledge.waits(0)  # (its round is complete: only the gate holds it)
    assert m.expects() == [Kind.KEY_RELEASE, Kind.COMMIT, Kind.COMMIT]
    m.decide((1, 2), step="s2")
    assert m.core.steps.others_committed(0)
    for kind in (Kind.COMMIT, Kind.ACT, Kind.REVEAL):
        assert not m.core.accepts(0, kind)
    assert not m.core.may_reveal_directly(0)
    m.release()
    assert m.expects() == [Kind.COMMIT, None, None]
    assert m.core.may_reveal_directly(0)
    m.decide((0,), step="s2")
    m.reveal(step="s2")
    assert m.core.phase() == TURN
    assert m.expects() == [Kind.ACT, None, None]
    m.send(0, ActBody("t1", "x"))
    assert m.expects() == [Kind.END] * 3
    final = m.core.final
    assert final is not None
    for s in range(3):
        m.send(s, EndBody(final.digest, final.transcript))
    assert m.core.signed and isinstance(m.events[-1], ResultSigned)
    assert m.expects() == [None] * 3


@pytest.mark.xfail(strict=True, reason=RELEASED_ROUND_KEEPS_WAITING)
def test_a_seat_whose_round_was_released_early_decides_once_its_deliverers_left() -> None:
    m = dealt(owed=True)
    m.key()
    digested(m)
    m.deliver(1)
    m.send(1, CommitBody("zz", bytes(32)), fault=True)  # replaced (for a wrong step)
    (r,) = m.core.knowledge.live()
    assert r.publish
    m.send(0, KeyReleaseBody(r.id, round_private(m.secrets[0], r.id)))  # (as a LocalSeat does)
    m.send(2, CommitBody("zz", bytes(32)), fault=True)  # replaced before delivering
    # The zombies decide for seats 1 and 2; seat 0's commitment is all the step waits for.
    assert m.expects() == [Kind.COMMIT, None, None]
