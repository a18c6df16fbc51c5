"""A toy game for tests of the match core's composition without a mesh: five points — a deal
(with a commitment to a hidden event), a simultaneous step ``s1`` that owes seat 0 the hidden
event (from the start with ``owed``, or once it looks: a free action), the hidden event, a
second step ``s2``, a turn of seat 0, the end — and :class:`Match`, a core of it fed each seat's
signed messages in order (bodies from the mechanisms' own writers)."""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from protocol.match.core import MatchCore
from protocol.match.events import Event, PeerMisbehaved
from protocol.match.table import SIMULTANEOUS
from protocol.mechanisms import chance as chance_writers
from protocol.mechanisms import knowledge as knowledge_writers
from protocol.mesh import MeshGame, make_header
from protocol.wire.messages import Body, CommitBody, Kind, RevealBody, sign_message

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
from protocol.crypto import SeatSecrets, commit_set_digest, play_commitment


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

    def spectator_view(self) -> Any:
        return self.public()

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

    def send(self, seat: int, body: Body, *, fault: bool = False, waits: bool = False) -> None:
        """``seat``'s next message, which the core takes — or, with ``fault``, blames its seat
        for, or, with ``waits``, holds without taking it."""
        core = self.core
        feed = core.feeds[seat]
        message = sign_message(self.private[seat], match_id=core.match_id, seat=seat,
                               seq=feed.next_seq, prev=feed.head, kind=body.KIND,
                               state=core.step_state, body=body, version=core.version,
                               heads=core.vouching.expected(seat, body.KIND, body))
        events = core.receive(message)
        self.events += events
        blamed = [e.seat for e in events if isinstance(e, PeerMisbehaved)]
        if fault:
            assert blamed == [seat] and seat in core.absent, events
            return
        assert not blamed, events
        taken = core.cursor[seat] == feed.next_seq
        assert taken != waits, f"seat {seat}'s {body.KIND.name}: taken {taken}"

    def expects(self) -> list[Kind | None]:
        return [self.core.expects(s) for s in range(3)]

    def chance_commits(self) -> None:
        for s in range(3):
            self.send(s, chance_writers.commit_body(self.core.chance, self.secrets[s],
                                                    self.core.keys[s], self.core.match_id, s))

    def chance_reveal(self, seat: int) -> None:
        self.send(seat, chance_writers.reveal_body(self.core.chance, self.secrets[seat],
                                                   self.core.version))

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
