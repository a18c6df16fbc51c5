"""What the per-mechanism tests (``tests/protocol/test_<mechanism>.py``) build a mechanism from,
without a match core or a mesh: deterministic seat keys and secrets, signed messages, feeds, a
scripted game state (only what the mechanisms read of one) and a fake :class:`Progress`.

The messages are of protocol version 1 (and the mechanisms use its names): what every version
shares.  What version 2 adds — the heads every message vouches for, the commitments a reveal
opens against — is tested in test_vouching.py."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from protocol.wire.feed import Feed
from protocol.wire.messages import Body, ChanceCommitBody, ChanceRevealBody, Message, sign_message
from protocol.wire.naming import V1

from engine.core import Chance as Pending
from engine.core import ChanceEvent, KnowledgeRequest, Visibility, Waiting
from protocol.crypto import SeatSecrets, chance_commitment, public_key_bytes

NAMING = V1
VERSION = 1

MATCH_ID = hashlib.sha256(b"cryptcrawl/tests/mechanisms").digest()
NO_STATE = bytes(32)
STEP_STATE = hashlib.sha256(b"the public digest at the start of the step").digest()

PRIVATE = tuple(Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"seat key %d" % i).digest())
                for i in range(5))
KEYS = tuple(public_key_bytes(k) for k in PRIVATE)
SECRETS = tuple(SeatSecrets(hashlib.sha256(b"seat seed %d" % i).digest(), MATCH_ID, KEYS[i])
                for i in range(5))
OTHER_SECRETS = tuple(SeatSecrets(hashlib.sha256(b"another seed %d" % i).digest(), MATCH_ID,
                                  KEYS[i]) for i in range(5))
"""Secrets that open none of the commitments made with :data:`SECRETS`."""


def keys(n: int) -> tuple[bytes, ...]:
    return KEYS[:n]


def signed(seat: int, body: Body, *, seq: int = 0, state: bytes = NO_STATE,
           prev: bytes | None = None) -> Message:
    """``seat``'s message carrying ``body`` (the mechanisms' handlers look at its content,
    state and signature only, never at its place in a chain)."""
    if prev is None:
        prev = MATCH_ID if seq == 0 else hashlib.sha256(b"prev %d" % seq).digest()
    return sign_message(PRIVATE[seat], match_id=MATCH_ID, seat=seat, seq=seq, prev=prev,
                        kind=body.KIND, state=state, body=body, version=VERSION)


def feeds(n: int) -> list[Feed]:
    return [Feed(s, KEYS[s], MATCH_ID, VERSION) for s in range(n)]


def append(feed: Feed, body: Body, *, state: bytes = NO_STATE) -> Message:
    """Sign ``body`` as the next message of ``feed`` and add it."""
    message = sign_message(PRIVATE[feed.seat], match_id=MATCH_ID, seat=feed.seat,
                           seq=feed.next_seq, prev=feed.head, kind=body.KIND, state=state,
                           body=body, version=VERSION)
    feed.add(message)
    return message


def commit_to(seat: int, events: Iterable[str], secrets: tuple[SeatSecrets, ...] = SECRETS
              ) -> ChanceCommitBody:
    return ChanceCommitBody(tuple(
        (e, chance_commitment(MATCH_ID, e, KEYS[seat], secrets[seat].chance_secret(e)))
        for e in events))


def reveal_of(seat: int, event: str, secrets: tuple[SeatSecrets, ...] = SECRETS
              ) -> ChanceRevealBody:
    return ChanceRevealBody(((event, secrets[seat].chance_secret(event)),))


@dataclass
class Scripted:
    """A game state as far as the mechanisms read one: what it waits for, the chance events to
    commit to now, the hidden event a step turns next, and the knowledge it owes."""

    waiting: Waiting
    upcoming: tuple[str, ...] = ()
    turned: tuple[str, frozenset[int]] | None = None
    requests: tuple[KnowledgeRequest, ...] = ()

    def upcoming_events(self) -> tuple[str, ...]:
        return self.upcoming

    def turned_next(self) -> tuple[str, frozenset[int]] | None:
        return self.turned

    def knowledge_requests(self) -> tuple[KnowledgeRequest, ...]:
        return self.requests


def pending(event: str, *upcoming: str, visibility: Visibility = Visibility.PUBLIC,
            outcomes: tuple[str, ...] = ("north", "east", "south", "west")) -> Scripted:
    """A state waiting for chance event ``event``, committing to it and ``upcoming`` now."""
    return Scripted(Pending(ChanceEvent(event, outcomes, visibility)), (event, *upcoming))


@dataclass
class Box:
    """The current game state, as the mechanisms' ``state`` callable reads it."""

    state: Any

    def __call__(self) -> Any:
        return self.state


@dataclass
class FakeProgress:
    """What the votes ask the match loop, set by hand: the next message in hand per seat, the
    seats whose next message the match needs, and the seats it waits for."""

    in_hand: dict[int, Message] = field(default_factory=dict)
    need: set[int] = field(default_factory=set)
    waits_for: tuple[int, ...] = ()

    def next_message(self, seat: int) -> Message | None:
        return self.in_hand.get(seat)

    def needed(self, seat: int) -> bool:
        return seat in self.need

    def owing(self) -> tuple[int, ...]:
        return self.waits_for
