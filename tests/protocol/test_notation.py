"""One action, one string (version 2, protocol.md §7.1): the action a REVEAL or an ACT signs —
and a COMMIT commits to — is the engine's canonical notation, at most 1 KiB of UTF-8.  Another
spelling the engine would parse to the same action (``PLAY 4`` for ``play 4``) is misbehaviour:
with two spellings one play would have two commitments."""

from __future__ import annotations

from typing import Any

import pytest
from protocol.match.events import PeerMisbehaved
from protocol.mesh import Network, random_decider
from protocol.verify.verdicts import INVALID
from protocol.verify.verifier import verify
from protocol.wire.messages import MAX_ACTION, ActBody, Kind, RevealBody, parse_body

from benchmarks.scenario import raiders_network
from protocol.errors import BadMessage


def _shouting(net: Network, seat: int) -> None:
    """``seat``'s peer commits to (and reveals, or acts) its decisions spelled in capitals:
    the engine parses them, but they are not its notation."""
    local = net.seats[seat]

    def decided(s: int) -> tuple[str, Any, tuple[str, ...]]:
        text = local.decide(local.decision_state(), s)
        parsed = local.core.state.parse_action(s, text)
        return local.core.state.format_action(parsed).upper(), parsed, ()
    local._decided = decided  # type: ignore[method-assign]


@pytest.mark.parametrize("variant", ["basic", "tactical"])
def test_an_action_in_another_spelling_is_misbehaviour(variant: str) -> None:
    net = raiders_network(3, variant, b"notation-" + variant.encode())
    _shouting(net, 2)
    net.run_with_timeouts()
    blamed = [e for e in net.events[0] if isinstance(e, PeerMisbehaved)]
    assert blamed and blamed[0].seat == 2
    assert "not the engine's notation" in blamed[0].reason, blamed[0].reason
    v = verify(net.match_file(0))
    assert (v.verdict, v.blamed, v.reason_code) == (INVALID, (2,), "illegal_action"), v


def test_the_local_seat_commits_the_canonical_notation() -> None:
    """A decider that answers in another spelling (a person typing ``4``, say) is written out
    in the engine's notation before anything is committed or signed."""
    random = random_decider(b"spelling")

    def loose(state: Any, seat: int) -> str:
        return random(state, seat).upper()
    net = raiders_network(3, tag=b"notation-local", deciders=[loose] * 3)
    net.pump()
    assert all(core.signed for core in net.cores)
    actions = [m.content.action for m in net.log if isinstance(m.content, RevealBody | ActBody)]
    assert actions and all(a == a.lower() for a in actions)
    assert verify(net.match_file(0)).verdict == "valid"


@pytest.mark.parametrize("body", [RevealBody, ActBody])
def test_an_action_is_at_most_one_kibibyte_of_utf8(body: Any) -> None:
    def make(action: str) -> Any:
        if body is RevealBody:
            return RevealBody("L1.R1.play", action, bytes(32), bytes(32))
        return ActBody("L1.R1.play", action)
    assert MAX_ACTION == 1024
    make("x" * 1024)
    make("é" * 512)
    with pytest.raises(BadMessage, match="1024-byte cap"):
        make("é" * 513)
    with pytest.raises(BadMessage, match="over the 1024"):
        make("x" * 1025)


def test_version_1_keeps_its_32_character_cap() -> None:
    fields = ("L1.R1.play", "x" * 33, bytes(32), bytes(32))
    with pytest.raises(BadMessage, match="REVEAL action is 33 characters, over the 32"):
        parse_body(Kind.REVEAL, fields, version=1)
    with pytest.raises(BadMessage, match="ACT action is 33 characters, over the 32"):
        parse_body(Kind.ACT, fields[:2], version=1)
    assert parse_body(Kind.REVEAL, fields, version=2)  # (version 2: up to 1 KiB)
    assert parse_body(Kind.ACT, fields[:2], version=2)
