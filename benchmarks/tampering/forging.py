"""How a seat forges its own feed in its copy of a finished match, as a careful forger would.

A seat holds its own key, so it can sign anything in its own feed again: drop, insert, reorder
or edit its messages, then sign and chain every message from the first change on, naming in
their heads, for its own seat, the new versions of its own messages (:func:`forge`).  What it
cannot do is sign another seat's messages: those stay as they were signed, and their heads
still name its original messages.

A careful forger also keeps its lie consistent where it can: a new chance secret together with
its commitment, another play together with its commitment and salt, a new round key together
with its release — and every digest of its own that covers an edited commitment made again (the
commitment sets of its reveals, its chance digests).  :func:`recording` learns how each digest
was made while an honest copy is verified, so that :func:`redo` can make it again over the
edited commitment.

:func:`plan_edit` and :func:`edited_copy` are the liar campaign's edits (issue 24,
tests/campaign/liars.py), one message of a given kind rewritten (with what it commits to).
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from protocol.crypto import chance_commitment, play_commitment
from protocol.mechanisms import chance as chance_module
from protocol.mechanisms import steps as steps_module
from protocol.mesh import Network
from protocol.wire.delivery import round_key
from protocol.wire.encoding import Value, encode
from protocol.wire.header import SignedHeader
from protocol.wire.messages import (
    CORE_KINDS,
    SIGNATURE_DOMAINS,
    AbsentBody,
    ActBody,
    Body,
    ChanceCommitBody,
    ChanceDigestBody,
    ChanceRevealBody,
    CommitBody,
    DeliveryBody,
    EndBody,
    KeyReleaseBody,
    Kind,
    Message,
    ReclaimBody,
    RevealBody,
    SealKeyBody,
    WelcomeBody,
    sign_message,
)
from protocol.wire.transcript import file_start, frame

__all__ = ["KINDS", "Digests", "Draft", "Edit", "Forged", "copy_bytes", "drafts", "edited_copy",
           "forge", "h", "plan_edit", "recording", "redo", "redo_digests"]

KINDS = (Kind.CHANCE_COMMIT, Kind.CHANCE_REVEAL, Kind.COMMIT, Kind.REVEAL, Kind.CHANCE_DIGEST,
         Kind.ACT, Kind.END, Kind.SEAL_KEY, Kind.DELIVERY, Kind.KEY_RELEASE, Kind.ABSENT,
         Kind.RECLAIM, Kind.WELCOME)
"""The kinds :func:`plan_edit` edits.  A consistent edit: CHANCE_COMMIT (commitment and
secret), COMMIT (play, salt and commitment), SEAL_KEY (key and release); the others alone: a
reveal or a release that no longer opens, a digest, an action, a result, a sealed delivery, a
vote, a reclaim or a welcome of its own choosing."""

Digests = dict[bytes, tuple[Callable[..., bytes], tuple[Any, ...]]]


def h(*parts: bytes | str) -> bytes:
    """A 32-byte value of the forger's own choosing, derived from ``parts``."""
    digest = hashlib.sha256(b"cryptcrawl/test/campaign")
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        digest.update(len(data).to_bytes(4, "big") + data)
    return digest.digest()


# --------------------------------------------------------------------------- digests a liar redoes

_DIGESTS = ((chance_module, "chance_set_digest"), (chance_module, "chance_open_digest"),
            (steps_module, "commit_set_digest"))


@contextmanager
def recording() -> Iterator[Digests]:
    """While a file is verified: every commitment-set digest the rules compute, by value, with
    the function and arguments that made it (so that a liar can make it again over its edited
    commitment)."""
    seen: Digests = {}
    saved = [(module, name, getattr(module, name)) for module, name in _DIGESTS]

    def wrap(fn: Callable[..., bytes]) -> Callable[..., bytes]:
        def recorded(*args: Any) -> bytes:
            frozen = tuple(list(a) if isinstance(a, list | tuple) else a for a in args)
            value = fn(*frozen)
            seen.setdefault(value, (fn, frozen))
            return value
        return recorded

    try:
        for module, name, fn in saved:
            setattr(module, name, wrap(fn))
        yield seen
    finally:
        for module, name, fn in saved:
            setattr(module, name, fn)


def _swap(value: Any, old: bytes, new: bytes) -> Any:
    if isinstance(value, bytes):
        return new if value == old else value
    if isinstance(value, list | tuple):
        return type(value)(_swap(v, old, new) for v in value)
    return value


def redo(digests: Digests, value: bytes, old: bytes, new: bytes) -> bytes:
    """``value`` made again with commitment ``old`` replaced by ``new`` (itself if no recorded
    digest made it)."""
    made = digests.get(value)
    if made is None:
        return value
    fn, args = made
    return fn(*_swap(args, old, new))


def redo_digests(body: Any, digests: Digests, swaps: Sequence[tuple[bytes, bytes]]) -> Any:
    """``body`` with every digest of its own over a swapped commitment made again."""
    for name in ("commit_set", "chance_set", "digest"):
        value = getattr(body, name, None)
        if isinstance(value, bytes) and value:
            new = value
            for old, swapped in swaps:
                new = redo(digests, new, old, swapped)
            if new != value:
                body = dataclasses.replace(body, **{name: new})
    return body


# --------------------------------------------------------------------------- forging a feed


@dataclass(frozen=True)
class Draft:
    """One message of the forged feed, before it is signed: its kind, body (a body dataclass,
    or a wire array — signed as it is even where no reader would accept it), state digest and
    heads (as the original named them: entries naming the forger's own original messages are
    renamed when it is signed); ``origin``: the message it stands for (None: a new one)."""

    kind: Kind
    body: Body | tuple[Value, ...]
    state: bytes
    heads: tuple[bytes, ...]
    origin: Message | None = None


def drafts(feed: Sequence[Message]) -> list[Draft]:
    """The drafts of ``feed`` as it is."""
    return [Draft(m.kind, m.content, m.state, m.heads, m) for m in feed]


@dataclass(frozen=True)
class Forged:
    """A message of a forged feed: its hash and its encoding."""

    hash: bytes
    wire: bytes


def _sign_raw(key: Ed25519PrivateKey, fields: tuple[Value, ...], version: int) -> bytes:
    """The encoding of a message of ``fields`` (every field but the signature) signed with
    ``key``, built by hand: its body need not be one a reader accepts."""
    signature = key.sign(SIGNATURE_DOMAINS[version] + encode(fields))
    return encode((*fields, signature))


def forge(key: Ed25519PrivateKey, match_id: bytes, seat: int, plan: Sequence[Draft], *,
          aliases: dict[bytes, bytes] | None = None, version: int) -> list[Forged]:
    """``seat``'s feed made of ``plan``, signed with ``key`` and chained: a draft that is its
    origin unchanged, in its place and on its chain, is kept as it was signed; every other one
    is signed again.  Heads naming an original message of the seat name its new version;
    ``aliases`` names, for a message dropped, the original message that stands in for it
    (its predecessor, say)."""
    aliases = aliases or {}
    renamed: dict[bytes, bytes] = {}

    def rename(head: bytes) -> bytes:
        head = aliases.get(head, head)
        return renamed.get(head, head)

    out: list[Forged] = []
    prev = match_id
    for seq, draft in enumerate(plan):
        m = draft.origin
        heads = tuple(rename(x) for x in draft.heads) if draft.kind in CORE_KINDS else ()
        if (m is not None and m.seq == seq and m.prev == prev and m.kind is draft.kind
                and m.state == draft.state and m.heads == heads
                and (draft.body is m.content or draft.body == m.content)):
            out.append(Forged(m.hash, m.encode()))
            prev = m.hash
            continue
        if isinstance(draft.body, tuple):
            wire = _sign_raw(key, (version, match_id, seat, seq, prev, int(draft.kind),
                                   draft.state, heads, draft.body), version)
            digest = hashlib.sha256(wire).digest()
        else:
            message = sign_message(key, match_id=match_id, seat=seat, seq=seq, prev=prev,
                                   kind=draft.kind, state=draft.state, body=draft.body,
                                   heads=heads, version=version)
            wire, digest = message.encode(), message.hash
        if m is not None:
            renamed[m.hash] = digest
        out.append(Forged(digest, wire))
        prev = digest
    return out


def copy_bytes(header: SignedHeader, feeds: Sequence[Sequence[Message | Forged | bytes]]) -> bytes:
    """A match file of ``header`` and ``feeds`` (each feed's records in order, seat by seat):
    messages, forged messages or raw record payloads."""
    data = bytearray(file_start(header))
    for feed in feeds:
        for item in feed:
            if isinstance(item, bytes):
                data += frame(item)
            elif isinstance(item, Forged):
                data += frame(item.wire)
            else:
                data += frame(item.encode())
    return bytes(data)


# --------------------------------------------------------------------------- the campaign's edits


@dataclass
class Edit:
    """What the liar changes: message ``seq`` → its new body; commitments it swaps in its own
    digests."""

    bodies: dict[int, Any]
    swaps: list[tuple[bytes, bytes]]


def _pick(items: list[Message], place: str) -> Message | None:
    if not items:
        return None
    return items[{"first": 0, "middle": len(items) // 2, "last": len(items) - 1}[place]]


def plan_edit(net: Network, liar: int, kind: Kind, place: str) -> Edit | None:
    """The liar's edit of its message of ``kind`` at ``place`` (None: it sent none)."""
    feed = list(net.cores[liar].feeds[liar].messages)
    mine = [m for m in feed if m.kind is kind]
    target = _pick(mine, place)
    if target is None:
        return None
    match_id, key = net.header.match_id, net.cores[liar].keys[liar]
    body = target.content
    tag = f"{liar}/{kind.name}/{place}"
    if isinstance(body, ChanceCommitBody):
        event, old = body.commitments[len(body.commitments) // 2 if place == "middle" else 0]
        secret = h(tag, "secret")
        new = chance_commitment(match_id, event, key, secret)
        bodies: dict[int, Any] = {target.seq: dataclasses.replace(body, commitments=tuple(
            (e, new if e == event else c) for e, c in body.commitments))}
        for m in feed[target.seq + 1:]:
            b = m.content
            if isinstance(b, ChanceRevealBody) and any(e == event for e, _ in b.secrets):
                bodies[m.seq] = dataclasses.replace(b, secrets=tuple(
                    (e, secret if e == event else s) for e, s in b.secrets))
            elif isinstance(b, RevealBody) and any(e == event for e, _ in b.chance):
                bodies[m.seq] = dataclasses.replace(b, chance=tuple(
                    (e, secret if e == event else s) for e, s in b.chance))
        return Edit(bodies, [(old, new)])
    if isinstance(body, CommitBody):
        reveal = next((m for m in feed[target.seq + 1:] if isinstance(m.content, RevealBody)
                       and m.content.step == body.step), None)
        if reveal is None:
            return None
        shown = reveal.content
        assert isinstance(shown, RevealBody)
        played = sorted({m.content.action for m in feed if isinstance(m.content, RevealBody)})
        action = next((a for a in played if a != shown.action), shown.action)
        salt = h(tag, "salt")
        new = play_commitment(match_id, body.step, key, action, salt, shown.sealed)
        return Edit({target.seq: dataclasses.replace(body, commitment=new),
                     reveal.seq: dataclasses.replace(shown, action=action, salt=salt)},
                    [(body.commitment, new)])
    if isinstance(body, SealKeyBody):
        private, public = round_key(h(tag, "round key"))
        bodies = {target.seq: dataclasses.replace(body, public_key=public)}
        release = next((m for m in feed[target.seq + 1:] if isinstance(m.content, KeyReleaseBody)
                        and m.content.round == body.round), None)
        if release is not None:
            assert isinstance(release.content, KeyReleaseBody)
            bodies[release.seq] = dataclasses.replace(release.content, private_key=private)
        return Edit(bodies, [])
    changed: Any
    if isinstance(body, ChanceRevealBody):
        changed = dataclasses.replace(body, secrets=((body.secrets[0][0], h(tag)),
                                                     *body.secrets[1:]))
    elif isinstance(body, RevealBody):
        changed = dataclasses.replace(body, salt=h(tag))
    elif isinstance(body, ChanceDigestBody):
        changed = dataclasses.replace(body, digest=h(tag))
    elif isinstance(body, ActBody):
        # Another action a seat took as an ACT, else one it played (a card, in a free
        # action's place).
        others = sorted({m.content.action for c in net.cores[liar].feeds for m in c.messages
                         if isinstance(m.content, ActBody | RevealBody)
                         and m.content.action != body.action},
                        key=lambda a: (not any(isinstance(m.content, ActBody)
                                               and m.content.action == a for m in net.log), a))
        if not others:
            return None
        changed = dataclasses.replace(body, action=others[0])
    elif isinstance(body, EndBody):
        changed = dataclasses.replace(body, final_state=h(tag))
    elif isinstance(body, DeliveryBody):
        sealed = bytearray(body.sealed)
        sealed[len(sealed) // 2] ^= 0x01
        changed = dataclasses.replace(body, sealed=bytes(sealed))
    elif isinstance(body, KeyReleaseBody):
        changed = dataclasses.replace(body, private_key=h(tag))
    elif isinstance(body, AbsentBody):
        changed = dataclasses.replace(body, count=body.count + 1)
    elif isinstance(body, ReclaimBody | WelcomeBody):
        changed = dataclasses.replace(body, since=body.since + 1)
    else:
        return None
    return Edit({target.seq: changed}, [])


def edited_copy(net: Network, liar: int, edit: Edit, strategy: str, digests: Digests
                ) -> tuple[bytes, tuple[int, ...]]:
    """The liar's file with ``edit`` applied: ``rechain`` keeps every later message of the
    liar (bodies, heads and state digests as signed in the real match), signed again on the new
    chain; ``truncate`` ends the liar's feed with the last message the edit touched.  Also the
    sequence numbers of the messages the edit changed."""
    core = net.cores[liar]
    feed = list(core.feeds[liar].messages)
    bodies = dict(edit.bodies)
    for m in feed:
        again = redo_digests(bodies.get(m.seq, m.content), digests, edit.swaps)
        if again != m.content:
            bodies[m.seq] = again
    last = max(bodies) if strategy == "truncate" else len(feed) - 1
    plan = [dataclasses.replace(d, body=bodies.get(d.origin.seq, d.body))
            for d in drafts(feed[:last + 1]) if d.origin is not None]
    forged = forge(net.keys[liar], net.header.match_id, liar, plan, version=core.version)
    feeds: list[Sequence[Message | Forged]] = [
        forged if seat == liar else f.messages for seat, f in enumerate(core.feeds)]
    return copy_bytes(core.header, feeds), tuple(sorted(bodies))
