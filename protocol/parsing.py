"""Reading a body off the wire: which kinds drive the engine, each version's parser of each
kind's body, and the message kinds a version knows (:mod:`protocol.wire.bodies` has the bodies)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from protocol.deck.bodies import DeckMessageBody
from protocol.errors import BadMessage
from protocol.versions import PROTOCOL_VERSION
from protocol.wire.bodies import (
    AbsentBody,
    ActBody,
    AnswerBody,
    ChanceCommitBody,
    ChanceDigestBody,
    ChanceRevealBody,
    ClaimBody,
    CommitBody,
    DeliveryBody,
    EndBody,
    KeyReleaseBody,
    Kind,
    LeaveBody,
    OfferBody,
    OpenBody,
    ReclaimBody,
    ResignBody,
    ResumeBody,
    RevealBody,
    SealKeyBody,
    WelcomeBody,
    _array,
    _int,
    _text,
)
from protocol.wire.encoding import Value

CORE_KINDS: Final = frozenset({Kind.COMMIT, Kind.REVEAL, Kind.CHANCE_COMMIT, Kind.CHANCE_REVEAL,
                               Kind.CHANCE_DIGEST, Kind.ACT, Kind.END, Kind.OPEN,
                               Kind.DECK})
"""The kinds that drive the engine (the others are the private-knowledge round and the
absent-seat overlay).  In version 2 a message of these kinds carries heads; the others none."""


Body = (CommitBody | RevealBody | ChanceCommitBody | ChanceRevealBody | ChanceDigestBody
        | ActBody | EndBody | SealKeyBody | DeliveryBody | KeyReleaseBody | AbsentBody
        | ReclaimBody | WelcomeBody | LeaveBody | ClaimBody | ResignBody | OfferBody
        | AnswerBody | ResumeBody | OpenBody | DeckMessageBody)

MAX_ACTION_V1: Final = 32  # characters: version 1's cap on an action


def _v1_action(parser: Callable[[tuple[Value, ...]], Body]) -> Callable[[tuple[Value, ...]], Body]:
    """Version 1's REVEAL or ACT: its action at most :data:`MAX_ACTION_V1` characters."""
    def parse(fields: tuple[Value, ...]) -> Body:
        body = parser(fields)
        assert isinstance(body, RevealBody | ActBody)
        _text(body.action, f"{body.KIND.name} action", MAX_ACTION_V1)
        return body
    return parse


_V1_PARSERS: Final[dict[Kind, Callable[[tuple[Value, ...]], Body]]] = {
    Kind.COMMIT: CommitBody.from_body,
    Kind.REVEAL: _v1_action(RevealBody.from_body),
    Kind.CHANCE_COMMIT: ChanceCommitBody.from_body,
    Kind.CHANCE_REVEAL: ChanceRevealBody.from_body,
    Kind.CHANCE_DIGEST: ChanceDigestBody.from_body,
    Kind.ACT: _v1_action(ActBody.from_body),
    Kind.END: EndBody.from_body,
    Kind.SEAL_KEY: SealKeyBody.from_body,
    Kind.DELIVERY: DeliveryBody.from_body,
    Kind.KEY_RELEASE: KeyReleaseBody.from_body,
    Kind.ABSENT: AbsentBody.from_body,
    Kind.RECLAIM: ReclaimBody.from_body,
    Kind.WELCOME: WelcomeBody.from_body,
}
_BODY_PARSERS: Final[dict[int, dict[Kind, Callable[[tuple[Value, ...]], Body]]]] = {
    1: _V1_PARSERS,
    2: {**_V1_PARSERS, Kind.REVEAL: RevealBody.from_body_v2, Kind.ACT: ActBody.from_body_v2,
        Kind.CHANCE_REVEAL: ChanceRevealBody.from_body_v2,
        Kind.DELIVERY: DeliveryBody.from_body_v2, Kind.LEAVE: LeaveBody.from_body,
        Kind.CLAIM: ClaimBody.from_body, Kind.RESIGN: ResignBody.from_body,
        Kind.OFFER: OfferBody.from_body, Kind.ANSWER: AnswerBody.from_body,
        Kind.RESUME: ResumeBody.from_body, Kind.OPEN: OpenBody.from_body,
        Kind.DECK: DeckMessageBody.from_body},
}


_KINDS: Final[dict[int, Kind]] = {int(kind): kind for kind in Kind}


def _kind(value: object) -> Kind:
    kind = _KINDS.get(_int(value, "message kind", 0))
    if kind is None:
        raise BadMessage(f"unknown message kind {value}")
    return kind


def parse_body(kind: int, body: object, version: int = PROTOCOL_VERSION) -> Body:
    """The typed body of a message of ``kind`` (in protocol ``version``); raises BadMessage if
    it has the wrong shape."""
    parser = _BODY_PARSERS[version].get(_kind(kind))
    if parser is None:
        raise BadMessage(f"message kind {kind} is not one of version {version}")
    return parser(_array(body, "message body"))


def check_body(kind: int, body: object, version: int = PROTOCOL_VERSION) -> None:
    """Raise BadMessage, with the reason, unless ``body`` is a valid body for ``kind``."""
    parse_body(kind, body, version)
