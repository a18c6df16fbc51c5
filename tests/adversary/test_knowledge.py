"""The knowledge attack (F4): a seat that keeps every byte it receives tries to name each
face-down room before the room is turned.  It must do no better than chance — except for the
rooms its own torch showed it, which it must name exactly (so the measurement can see
knowledge when there is some).

The attacker's moment is the last one possible: just before the first secret of the room is
on the wire — when the card is turned, or, for an early turn, in the step before, once every
decision before the turn is committed (the room's outcomes, the cards still undrawn, are
public then).
Its predictors use everything it holds: the most frequent card left (the best guess from
public information), the chance commitments read as if they were secrets, its own secret in
every slot, and a hash of every byte it received.

For each predictor and each room, the chance of a hit under the uniform draw the protocol
promises is ``p = (copies of the named card) / (cards left)``; over many rooms the hits must
stay within ``E + 4σ`` of ``E = Σp`` (``σ² = Σp(1−p)``).  Many matches are played in memory
(``protocol.mesh.Network``, every byte of every message); one more over real sockets, with the
evil peer process recording the frames it reads off its connections.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from protocol.match.core import ChanceResolved, MatchCore, PrivateKnowledge
from protocol.mesh import Network
from protocol.wire.messages import ChanceCommitBody, Message, revealed_secrets
from protocol.wire.transcript import read_transcript, split_records

from benchmarks.scenario import raiders_network
from p2p.wire import parse_frame
from tests.adversary.conftest import Processes, finished, replay
from tests.adversary.evil_peer import guesses, posed_hidden

PREDICTORS = ("public-mode", "commitments", "own-secret", "all-bytes")
MATCHES = 24  # in the default run; the slow run plays 200


@dataclass
class Tally:
    """Hits and the chance expectation, per predictor; the torch's own hits."""

    rooms: int = 0
    hits: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PREDICTORS, 0))
    expected: dict[str, float] = field(default_factory=lambda: dict.fromkeys(PREDICTORS, 0.0))
    variance: dict[str, float] = field(default_factory=lambda: dict.fromkeys(PREDICTORS, 0.0))
    torch_rooms: int = 0
    torch_hits: int = 0

    def add(self, guess: dict[str, Any], outcome: str) -> None:
        if guess["torch"] is not None:
            self.torch_rooms += 1
            self.torch_hits += guess["torch"] == outcome
            return
        self.rooms += 1
        outcomes = guess["outcomes"]
        for name in PREDICTORS:
            pick = guess["picks"][name]
            p = outcomes.count(pick) / len(outcomes)
            self.hits[name] += pick == outcome
            self.expected[name] += p
            self.variance[name] += p * (1 - p)

    def bound(self, name: str) -> float:
        return self.expected[name] + 4 * math.sqrt(self.variance[name]) + 1

    def summary(self) -> str:
        parts = [f"{n} {self.hits[n]}/{self.rooms} (chance {self.expected[n]:.1f})"
                 for n in PREDICTORS]
        return "; ".join(parts) + f"; torch {self.torch_hits}/{self.torch_rooms}"


def attack(net: Network, attacker: int) -> list[tuple[dict[str, Any], str]]:
    """Replay the wire, in the order it was sent, as ``attacker`` saw it; guess each face-down
    room at its first reveal; pair each guess with the room it turned out to be."""
    shown: dict[str, str] = {}
    for event in net.events[attacker]:
        if isinstance(event, PrivateKnowledge):
            shown.update(event.knowledge)
    secrets = net.seats[attacker].secrets
    view = MatchCore(net.header)
    received = hashlib.sha256()
    commitments: dict[str, dict[int, bytes]] = {}
    pending: dict[str, dict[str, Any]] = {}
    out: list[tuple[dict[str, Any], str]] = []
    for message in net.log:
        body = message.content
        if revealed_secrets(body):
            event = revealed_secrets(body)[0][0]
            posed = posed_hidden(view, event)
            if event not in pending and posed is not None:
                pending[event] = guesses(posed, event, commitments.get(event, {}),
                                         received.digest(), secrets.chance_secret(event),
                                         shown.get(posed.id))
        if isinstance(body, ChanceCommitBody):
            for event, commitment in body.commitments:
                commitments.setdefault(event, {})[message.seat] = commitment
        received.update(message.encode())
        for e in view.receive(message):
            if isinstance(e, ChanceResolved) and e.event in pending:
                out.append((pending.pop(e.event), e.outcome))
    assert not pending, "a guessed room was never turned"
    return out


def play_many(matches: int, players: int = 3) -> Tally:
    tally = Tally()
    for i in range(matches):
        net = raiders_network(players, tag=b"knowledge-attack-%d" % i)
        net.pump()
        for guess, outcome in attack(net, i % players):
            tally.add(guess, outcome)
    return tally


def check(tally: Tally) -> None:
    assert tally.rooms >= 50, tally.summary()  # enough rooms to say anything
    for name in PREDICTORS:
        assert tally.hits[name] <= tally.bound(name), (name, tally.summary())
    # The predictors that use the attacker's bytes do no better than the public guess.
    best = tally.expected["public-mode"] + 4 * math.sqrt(tally.variance["public-mode"]) + 1
    for name in ("commitments", "own-secret", "all-bytes"):
        assert tally.hits[name] <= best, (name, tally.summary())
    # Its own torch: every room it showed is named exactly.
    assert tally.torch_hits == tally.torch_rooms, tally.summary()


def test_recorded_bytes_name_no_face_down_room_better_than_chance() -> None:
    tally = play_many(MATCHES)
    print(tally.summary())
    check(tally)
    assert tally.torch_rooms > 0, "no torch in any match: the measurement saw no knowledge"


@pytest.mark.slow
def test_recorded_bytes_name_no_face_down_room_better_than_chance_200_matches() -> None:
    tally = play_many(200)
    print(tally.summary())
    check(tally)
    assert tally.torch_rooms > 0


# --------------------------------------------------------------------------- over real sockets


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path, Any]]:
    root = tmp_path_factory.mktemp("record-guess")
    group = Processes(root)
    record = root / "evil.frames"
    try:
        host, port = group.host(3)
        evil = group.evil("record-guess", port, "--record", str(record))
        honest = [host, group.join("honest1", port)]
        paths = [finished(p) for p in honest]
        assert evil.wait(60) == 0, evil.stderr()[-2000:]
        yield paths[0], record, evil
    finally:
        group.close()


def test_live_attacker_names_only_what_its_torch_showed(
        recorded: tuple[Path, Path, Any]) -> None:
    path, _record, evil = recorded
    report = evil.read_report()
    made = report.get("guesses", [])
    outcomes = {e.event: e.outcome for e in replay(path).events
                if isinstance(e, ChanceResolved)}
    assert len(made) >= 5, made  # every face-down room of five levels, boss included
    tally = Tally()
    for guess in made:
        tally.add(guess, outcomes[guess["engine_event"]])
    print(tally.summary())
    assert tally.torch_hits == tally.torch_rooms, tally.summary()
    for name in PREDICTORS:  # one match says little; still within the bound
        assert tally.hits[name] <= tally.bound(name), (name, tally.summary())


def test_no_hidden_secret_crosses_the_wire_before_its_room_is_turned(
        recorded: tuple[Path, Path, Any]) -> None:
    """Every byte the attacker read off its sockets, frame by frame: no chance secret (of a
    face-down room or any other draw) occurs in any frame before the first one that reveals
    it (a torch delivery is sealed to its torch user)."""
    path, record, evil = recorded
    t = read_transcript(path.read_bytes())
    secrets: dict[str, set[bytes]] = {}
    for seat, feed in t.feeds.items():
        for message in feed.messages:
            if revealed_secrets(message.content) and seat != evil.seat():
                event, secret = revealed_secrets(message.content)[0]
                secrets.setdefault(event, set()).add(secret)
    hidden = {g["event"] for g in evil.read_report().get("guesses", [])}
    assert hidden and hidden <= set(secrets), "no face-down room was turned"
    frames = [payload for _, payload, _ in split_records(record.read_bytes())]
    assert all(p is not None for p in frames)
    first_reveal: dict[str, int] = {}
    for index, payload in enumerate(frames):
        assert payload is not None
        frame = parse_frame(payload[4:])  # each record is one whole frame, its length first
        if frame.kind.name == "MSG":
            body = Message.decode(frame.fields[0]).content
            if revealed_secrets(body):
                first_reveal.setdefault(revealed_secrets(body)[0][0], index)
    for event, values in secrets.items():
        # The attacker's own secret is not on its incoming wire at all; the others are.
        before = b"".join(p for p in frames[:first_reveal.get(event, len(frames))] if p)
        for secret in values:
            assert secret not in before, f"a secret of {event} was on the wire early"

