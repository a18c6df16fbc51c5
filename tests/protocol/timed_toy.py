"""The toy game of :mod:`tests.protocol.toy` with a time class per step: the simultaneous step
``s1`` is a LONG decision (a plan), ``s2`` a NORMAL one and seat 0's turn ``t1`` a QUICK one —
for the tests of which turn timeout a seat is owed under (protocol.md §6.6), in memory and over
real loopback peers (tests/p2p/test_time_classes.py).  Registered as ``toy-timed``."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, ClassVar

from protocol.match.core import MatchConfig, MatchCore
from protocol.match.events import Event
from protocol.mesh import MeshGame, make_header

from engine.core import GameSpec, Simultaneous, TimeClass, Turn
from engine.games import register
from protocol.crypto import SeatSecrets
from tests.protocol.toy import Match, Toy

GAME = "toy-timed"
CLASSES = {"s1": TimeClass.LONG, "s2": TimeClass.NORMAL, "t1": TimeClass.QUICK}


@dataclass(frozen=True)
class TimedToy(Toy):
    game: ClassVar[str] = GAME

    def time_class(self, seat: int) -> TimeClass:
        w = self.waiting
        if isinstance(w, Simultaneous | Turn):
            return CLASSES[w.step]
        return TimeClass.NORMAL

    @classmethod
    def from_position(cls, data: Any) -> TimedToy:
        raise NotImplementedError


def new_timed(players: int = 3, owed: bool = False) -> TimedToy:
    return TimedToy(players, owed)


class Plain:
    """The zombie (and only bot): "x", which every seat may play at every step it decides."""

    def choose(self, view: Any, key: bytes) -> str:
        return "x"


register(GameSpec(name=GAME, title="Timed toy", players=(3,), variants=("basic",),
                  new=new_timed, from_position=TimedToy.from_position,
                  engine_version="toy-timed/1", bots={"plain": Plain}, zombie=Plain))


class TimedMatch(Match):
    """:class:`tests.protocol.toy.Match` of the timed toy, its core on ``config``."""

    def __init__(self, config: MatchConfig) -> None:  # (not Match's: another game)
        header, self.private = make_header(3, MeshGame(GAME), b"timed")
        self.core = MatchCore(header, config=config)
        mid = self.core.match_id
        self.secrets = [SeatSecrets(hashlib.sha256(b"seed %d" % s).digest(), mid,
                                    self.core.keys[s]) for s in range(3)]
        self.events: list[Event] = []
