"""A seat that edits its own copy of a match file (issue 24's framing attack): it changes some of
its own messages, signs its feed again from the first one changed and chains it anew, so that
every signature and chain of the copy checks out.  Used by the verifier's tests (one copy and
several) and by the campaign that runs the attack over every seat, kind and match size."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from protocol.wire.header import SignedHeader
from protocol.wire.messages import (
    Body,
    ChanceCommitBody,
    ChanceRevealBody,
    Message,
    RevealBody,
    sign_message,
)
from protocol.wire.transcript import file_start, frame

from protocol.crypto import chance_commitment, chance_open_digest

Edit = Callable[[Message], Body | None]
"""Given one of the liar's messages, its new body (None: keep it)."""


def resign(feed: Sequence[Message], key: Ed25519PrivateKey, edit: Edit, *,
           state: Callable[[Message], bytes | None] = lambda m: None) -> list[Message]:
    """``feed`` (one seat's messages, in sequence) with ``edit`` applied (and ``state``: a new
    state digest, None to keep it), signed again from the first message it changes and chained
    anew; where the seat's own later messages name one of its rewritten messages as a head,
    they name the new one."""
    out: list[Message] = []
    renamed: dict[bytes, bytes] = {}
    prev: bytes | None = None
    for message in feed:
        body, digest = edit(message), state(message)
        if body is None and digest is None and prev is None:
            out.append(message)
            continue
        if prev is None:
            prev = message.prev
        heads = tuple(renamed.get(h, h) for h in message.heads)
        again = sign_message(key, match_id=message.match_id, seat=message.seat, seq=message.seq,
                             prev=prev, kind=message.kind,
                             state=message.state if digest is None else digest,
                             body=message.content if body is None else body, heads=heads,
                             version=message.version)
        renamed[message.hash] = again.hash
        out.append(again)
        prev = again.hash
    return out


def other_secret(event: str, seat: int) -> bytes:
    """The secret a liar puts in place of its own for ``event``."""
    return hashlib.sha256(b"framing/%d/" % seat + event.encode()).digest()


def chance_edit(feeds: Sequence[Sequence[Message]], liar: int, event: str, match_id: bytes,
                seat_key: bytes) -> Edit:
    """The edit that changes ``liar``'s commitment to chance event ``event`` and its secret
    together (its reveal of the event opening the new commitment, against the commitments so
    changed)."""
    secret = other_secret(event, liar)
    new = chance_commitment(match_id, event, seat_key, secret)
    held = {}
    for feed in feeds:
        for m in feed:
            if isinstance(m.content, ChanceCommitBody):
                for e, c in m.content.commitments:
                    if e == event:
                        held[m.seat] = new if m.seat == liar else c
    opens = chance_open_digest(match_id, [(event, s, c) for s, c in held.items()])

    def edit(message: Message) -> Body | None:
        body = message.content
        if isinstance(body, ChanceCommitBody) and any(e == event for e, _ in body.commitments):
            return ChanceCommitBody(tuple((e, new if e == event else c)
                                          for e, c in body.commitments))
        if isinstance(body, ChanceRevealBody) and body.secrets[0][0] == event:
            return ChanceRevealBody(((event, secret),), opens if body.commit_set else b"")
        if isinstance(body, RevealBody) and body.chance and body.chance[0][0] == event:
            raise ValueError(f"{event} is revealed early with a play: not an edit of this kind")
        return None
    return edit


def copy_bytes(header: SignedHeader, feeds: Sequence[Sequence[Message]]) -> bytes:
    """A match file holding ``feeds``."""
    return file_start(header) + b"".join(frame(m.encode()) for feed in feeds for m in feed)


def framed(header: SignedHeader, feeds: Sequence[Sequence[Message]], liar: int,
           key: Ed25519PrivateKey, edit: Edit) -> bytes:
    """The liar's edited copy: ``feeds`` with the liar's own feed edited and signed again."""
    changed = [list(f) for f in feeds]
    changed[liar] = resign(feeds[liar], key, edit)
    return copy_bytes(header, changed)
