"""Errors of the protocol layer, split by who is at fault (as h11 does).

* :class:`BadMessage` — bytes or a message from outside that break the rules: malformed,
  oversized, badly signed, out of place.  It is *never* allowed to escape a peer's event loop:
  the state machine turns it into a ``PeerMisbehaved`` event with evidence, and a verifier into
  an "invalid" verdict naming the entry.
* :class:`LocalProtocolError` — this program asked the protocol for something impossible (a bug
  in the caller, or a user action the engine refuses).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from protocol.wire.messages import Message


class ProtocolError(Exception):
    """Base class of the protocol's errors."""


class BadMessage(ProtocolError, ValueError):
    """Input from outside that is malformed or breaks the protocol's rules."""


class LocalProtocolError(ProtocolError):
    """The local caller asked for something the protocol cannot do."""


class Fault(BadMessage):
    """A mechanism's handler refuses ``evidence[0]`` as its seat's message; the match core
    blames that seat (the only place a fault becomes ``PeerMisbehaved``)."""

    def __init__(self, reason: str, *evidence: Message) -> None:
        super().__init__(reason)
        self.reason = reason
        self.evidence = evidence


class Mismatch(Fault):
    """A fault that an outcome this peer has not seen yet may explain (a vote, a re-draw): the
    message waits while a vote is pending, and is a fault otherwise."""
