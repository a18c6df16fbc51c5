"""A consistent fork of a COMMIT and of the REVEAL after it, one branch to each honest peer, with
the proof (the other version) reaching each honest peer at any point after.

Found by the equivocation test between real processes (tests/adversary/test_cheaters.py) on a
loaded machine: the peer that held the forker's second branch replaced the forker for its
branch REVEAL (its heads name the first branch's COMMIT), then took the honest seat's REVEAL — whose
commitment set holds the first branch's commitment — for a lie and replaced that honest seat too;
when the proof came, the forker was no longer live, so the core was not rebuilt, and that peer
played on alone.  Now a REVEAL that does not fit while a seat of its step is replaced waits for
the proof (protocol.md §7.1 item 2), and a core that took any seat's message past its proven fork
is rebuilt (§7.9)."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from protocol.match.events import ForkSuspected, HeadsDisputed
from protocol.mesh import Network
from protocol.wire.messages import CommitBody, Kind, Message, RevealBody, sign_message

from benchmarks.scenario import raiders_network
from protocol.crypto import commit_set_digest, play_commitment

FORKER = 1
REAL_TO, FORK_TO = 0, 2  # the honest peers: the one given the real branch, the forked one


@dataclass
class ForkedMesh:
    """The in-memory mesh with the forker's messages routed by branch."""

    net: Network
    branch_heads: bool  # the forker signs the heads its second branch holds (a careful forker)
    proof_after: int  # deliveries after the fork before each honest peer gets the other version
    pending: list[tuple[int, Message]] = field(default_factory=list)
    proofs: list[tuple[int, Message]] = field(default_factory=list)
    other: tuple[Message, str, bytes] | None = None
    revealed: bool = False
    after_fork: int = 0

    def send(self, message: Message, to: list[int]) -> None:
        for i in to:
            if i == message.seat:
                self.net.deliver(i, message)  # (a peer takes its own message at once)
            else:
                self.pending.append((i, message))

    def route(self, message: Message) -> None:
        forker = self.net.seats[FORKER]
        if message.seat == FORKER and message.kind is Kind.COMMIT and self.other is None:
            body = message.content
            assert isinstance(body, CommitBody)
            real, _salt = forker.pending_reveal[body.step]
            state = forker.core.state
            action = next(state.format_action(a) for a in state.legal_actions(FORKER)
                          if state.format_action(a) != real
                          and state.parse_action(FORKER, state.format_action(a)).kind == "play")
            salt = bytes([7]) * 32
            commitment = play_commitment(message.match_id, body.step,
                                         forker.core.keys[FORKER], action, salt)
            other = sign_message(forker.key, match_id=message.match_id, seat=FORKER,
                                 seq=message.seq, prev=message.prev, kind=Kind.COMMIT,
                                 state=message.state, body=CommitBody(body.step, commitment),
                                 heads=message.heads)
            self.other = (other, action, salt)
            self.send(message, [REAL_TO, FORKER])
            self.send(other, [FORK_TO])
            self.proofs = [(FORK_TO, message), (REAL_TO, other)]
            return
        if message.seat == FORKER and message.kind is Kind.REVEAL and (
                self.other is not None and not self.revealed):
            self.revealed = True
            other, action, salt = self.other
            body = message.content
            step = forker.core.step
            assert isinstance(body, RevealBody) and step is not None
            held = [step.commitments.get(s) for s in range(len(self.net.cores))]
            assert isinstance(other.content, CommitBody)
            held[FORKER] = other.content.commitment
            fork_body = RevealBody(body.step, action, salt,
                                   commit_set_digest(message.match_id, body.step, held))
            heads = forker.core.vouching.expected(FORKER, Kind.REVEAL, fork_body)
            if self.branch_heads:
                heads = tuple(other.hash if h == message.prev else h for h in heads)
            fork_reveal = sign_message(forker.key, match_id=message.match_id, seat=FORKER,
                                       seq=message.seq, prev=other.hash, kind=Kind.REVEAL,
                                       state=message.state, heads=heads, body=fork_body)
            self.send(message, [REAL_TO, FORKER])
            self.send(fork_reveal, [FORK_TO])
            return
        self.send(message, list(range(len(self.net.cores))))

    def deliver_next(self) -> None:
        i, message = self.pending.pop(0)
        before = len(self.net.events[i])
        self.net.deliver(i, message)
        for event in self.net.events[i][before:]:
            if isinstance(event, ForkSuspected | HeadsDisputed):  # as the network peer does
                for held in event.held:
                    self.pending.extend((j, held) for j in range(len(self.net.cores)) if j != i)
        if self.other is not None:
            self.after_fork += 1
            if self.after_fork == self.proof_after:
                self.pending.extend(self.proofs)

    def play(self) -> None:
        net = self.net
        for _round in range(40):
            while True:
                for i, seat in net.running():
                    for message in seat.messages_to_send():
                        net.log.append(message)
                        self.route(message)
                    net.events[i].extend(seat.take_events())
                if not self.pending:
                    break
                self.deliver_next()
            if all(net.cores[i].signed for i in (REAL_TO, FORK_TO)):
                return
            for _step in ("turn", "silence"):
                for i in range(len(net.cores)):
                    net.run_clock(i)
        raise AssertionError("the honest peers did not finish")


@pytest.mark.parametrize("branch_heads", [False, True])
@pytest.mark.parametrize("proof_after", [1, 4, 6, 12, 20])
def test_a_fork_proved_late_replaces_the_forker_at_the_fork_on_both_branches(
        branch_heads: bool, proof_after: int) -> None:
    mesh = ForkedMesh(raiders_network(3, tag=b"late fork", rebuild=True), branch_heads,
                      proof_after)
    mesh.play()
    assert mesh.revealed, "the forker never revealed on both branches"
    honest = [mesh.net.cores[i] for i in (REAL_TO, FORK_TO)]
    fork = honest[0].forks.forked
    assert fork and set(fork) == {FORKER}
    for core in honest:
        assert core.forks.forked == fork
        assert {s: a.count for s, a in core.absent.items()} == {FORKER: fork[FORKER]}
    assert honest[0].public_digest() == honest[1].public_digest()
