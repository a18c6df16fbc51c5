"""Helpers shared by the protocol tests: in-memory match files, and seats that decide last."""

from __future__ import annotations

from typing import Any

from protocol.local import Network
from protocol.match import DecisionPending
from protocol.messages import CommitBody, Message, RevealBody


def match_file(net: Network, peer: int) -> bytes:
    """What ``peer``'s match file would hold: the header and every feed it took."""
    return net.match_file(peer)


def patient(net: Network, seat: int) -> None:
    """``seat`` decides last: not before it holds every other live decider's commitment (as
    a person who takes longer than the others, or a bot that read its input first)."""
    local, core = net.seats[seat], net.cores[seat]
    decide = local.decide

    def wait_for_the_others(state: Any, s: int) -> str:
        step = core.step
        others = (set(step.seats) - set(core.absent) - {s}) if step is not None else set()
        if step is None or not others <= set(step.commitments):
            raise DecisionPending
        return decide(state, s)
    local.decide = wait_for_the_others


def direct_reveals(messages: list[Message] | tuple[Message, ...]) -> list[Message]:
    """The REVEALs of a feed that no COMMIT of their step precedes."""
    committed = {m.content.step for m in messages if isinstance(m.content, CommitBody)}
    return [m for m in messages
            if isinstance(m.content, RevealBody) and m.content.step not in committed]
