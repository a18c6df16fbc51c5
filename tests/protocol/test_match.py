"""Whole matches between in-memory peers: every honest peer ends in the same public state."""

from __future__ import annotations

import pytest

from engine.core import Over
from protocol.local import Network
from protocol.match import ChanceResolved, MatchEnded, PeerMisbehaved
from protocol.messages import (
    ChanceRevealBody,
    CommitBody,
    Kind,
    Message,
    RevealBody,
    sign_message,
)


@pytest.mark.parametrize(("players", "variant"), [(3, "basic"), (4, "tactical"), (5, "basic")])
def test_whole_match_peers_agree(players: int, variant: str) -> None:
    net = Network(players, variant, tag=b"%d%s" % (players, variant.encode()))
    net.pump()
    digests = {core.public_digest() for core in net.cores}
    assert len(digests) == 1
    for core, events in zip(net.cores, net.events, strict=True):
        assert isinstance(core.state.waiting, Over)
        assert not [e for e in events if isinstance(e, PeerMisbehaved)]
        assert sum(isinstance(e, MatchEnded) for e in events) == 1
        assert sum(isinstance(e, ChanceResolved) for e in events) == (
            players + (1 if variant == "tactical" else 0) + 5 * 6)


class Cheater:
    """Wraps a LocalSeat and rewrites what it sends."""

    @staticmethod
    def rewrite_reveal_action(net: Network, seat: int, new_action: str) -> None:
        local = net.seats[seat]
        original = local.messages_to_send

        def send() -> list[Message]:
            out = []
            for message in original():
                body = message.content
                if isinstance(body, RevealBody) and body.action != new_action and (
                        "cheated" not in local.__dict__):
                    local.__dict__["cheated"] = True
                    local.sent.pop()
                    message = local._sign(Kind.REVEAL, RevealBody(
                        body.step, new_action, body.salt, body.commit_set))
                out.append(message)
            return out
        local.messages_to_send = send  # type: ignore[method-assign]


def misbehaving(net: Network) -> set[tuple[int, int]]:
    """(observer, culprit) pairs of every PeerMisbehaved event."""
    return {(i, e.seat) for i, events in enumerate(net.events) for e in events
            if isinstance(e, PeerMisbehaved)}


def test_reveal_of_another_action_is_caught_and_blamed() -> None:
    net = Network(3, tag=b"reveal")
    Cheater.rewrite_reveal_action(net, 1, "play 5")
    net.pump()
    culprits = misbehaving(net)
    assert {c for _, c in culprits} == {1}
    assert {o for o, _ in culprits} == {0, 1, 2}
    evidence = next(e for e in net.events[0] if isinstance(e, PeerMisbehaved))
    assert "does not open its commitment" in evidence.reason
    assert evidence.evidence[0].seat == 1 and evidence.evidence[0].kind is Kind.REVEAL
    # The honest peers agree on the state the match stopped in.
    assert net.cores[0].public_digest() == net.cores[2].public_digest()


def test_copied_commitment_cannot_be_opened_by_the_copier() -> None:
    net = Network(3, tag=b"copy")
    copier = net.seats[2]
    original = copier.messages_to_send

    def send() -> list[Message]:
        out = []
        for message in original():
            if message.kind is Kind.COMMIT and "copied" not in copier.__dict__:
                theirs = [m for m in net.log if m.seat == 0 and m.kind is Kind.COMMIT]
                if theirs:
                    copier.__dict__["copied"] = True
                    copier.sent.pop()
                    body = theirs[-1].content
                    assert isinstance(body, CommitBody)
                    message = copier._sign(Kind.COMMIT, CommitBody(body.step, body.commitment))
            out.append(message)
        return out
    copier.messages_to_send = send  # type: ignore[method-assign]
    net.pump()
    assert {c for _, c in misbehaving(net)} == {2}


def test_chance_secret_that_does_not_open_its_commitment() -> None:
    net = Network(3, tag=b"secret")
    liar = net.seats[0]
    original = liar.messages_to_send

    def send() -> list[Message]:
        out = []
        for message in original():
            body = message.content
            if isinstance(body, ChanceRevealBody) and "lied" not in liar.__dict__:
                liar.__dict__["lied"] = True
                liar.sent.pop()
                event = body.secrets[0][0]
                message = liar._sign(Kind.CHANCE_REVEAL, ChanceRevealBody(((event, bytes(32)),)))
            out.append(message)
        return out
    liar.messages_to_send = send  # type: ignore[method-assign]
    net.pump()
    assert {c for _, c in misbehaving(net)} == {0}


def test_equivocation_is_proved_by_two_signed_messages() -> None:
    net = Network(3, tag=b"fork")
    net.pump(limit=40, partial=True)  # part of the way
    forker = net.seats[1]
    first = forker.sent[-1]
    resent = sign_message(forker.key, match_id=first.match_id, seat=1, seq=first.seq,
                          prev=first.prev, kind=first.kind, state=first.state, body=first.body)
    # The same content signs to the same bytes (Ed25519 is deterministic), so a resend after a
    # restart is harmless; a different message for the same slot is equivocation.
    other = sign_message(forker.key, match_id=first.match_id, seat=1, seq=first.seq,
                         prev=first.prev, kind=first.kind, state=bytes([1]) * 32,
                         body=first.body)
    assert resent == first and other != first
    for core in net.cores:
        core.receive(first)
    events = [core.receive(other) for core in net.cores]
    for observed in events:
        proofs = [e for e in observed if isinstance(e, PeerMisbehaved)]
        assert proofs and proofs[0].seat == 1 and len(proofs[0].evidence) == 2
        a, b = proofs[0].evidence
        a.verify(net.header.header.seats[1].key)
        b.verify(net.header.header.seats[1].key)
        assert a.seq == b.seq and a.encode() != b.encode()


def test_message_from_another_match_is_refused() -> None:
    net = Network(3, tag=b"one")
    other = Network(3, tag=b"two")
    other.pump(limit=10, partial=True)
    stray = other.log[0]
    events = net.cores[0].receive(stray)
    assert [e.seat for e in events if isinstance(e, PeerMisbehaved)] == [stray.seat]
    assert "another match" in next(e for e in events if isinstance(e, PeerMisbehaved)).reason
