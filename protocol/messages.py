"""Signed protocol messages: the envelope, the body of each kind, signing and verification.

A message is one canonical msgpack array (see :mod:`protocol.wire.encoding`)::

    [version, match_id, seat, seq, prev, kind, state, heads, body, sig]      (version 2)
    [version, match_id, seat, seq, prev, kind, state, body, sig]             (version 1)

* ``match_id`` (32 bytes) binds the message to one match, so nothing signed for one match can
  be replayed into another;
* ``seq`` and ``prev`` put it in its sender's *feed*, a hash chain: ``prev`` is the
  :attr:`Message.hash` of the sender's previous message, or the match id itself for seq 0;
* ``state`` is the digest of the sender's **public** engine state when it sent the message, so
  two peers that diverge notice at once (``bytes(32)`` before play);
* ``heads`` (version 2) names, for every seat, the last message of its feed that drove the
  engine and that the sender had consumed at the point the message is owed (protocol.md §7.10):
  a message that contradicts another seat's feed shows which seat and where;
* ``sig`` is Ed25519 over the version's signature domain + the encoding of every other field,
  so a signature made for a message can never be taken for a signature over anything else.

A :class:`Message` is validated when it is constructed — envelope *and* body — so an invalid
one cannot exist: whatever :meth:`Message.decode` returns can be handed to the state machine.
Every bad input raises :class:`~protocol.errors.BadMessage` and nothing else.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from functools import cached_property
from typing import Final

from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from protocol.crypto import ed25519_valid
from protocol.errors import BadMessage, LocalProtocolError
from protocol.versions import PROTOCOL_VERSION, READABLE_VERSIONS
from protocol.wire.bodies import (
    DIGEST_SIZE,
    MAX_ACTION,
    MAX_BATCH,
    MAX_EVENT_ID,
    MAX_SEAT,
    MAX_STAGE,
    MAX_STEP,
    OFFERS,
    PUBLIC_KEY_SIZE,
    SIGNATURE_SIZE,
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
    _is_digest,
    _sized,
    revealed_secrets,
)
from protocol.wire.encoding import Value, decode_unchecked, encode, encode_checked
from protocol.wire.parsing import (
    _BODY_PARSERS,
    _KINDS,
    CORE_KINDS,
    Body,
    _kind,
    check_body,
    parse_body,
)

__all__ = [
    "CORE_KINDS",
    "DIGEST_SIZE",
    "MAX_ACTION",
    "MAX_BATCH",
    "MAX_EVENT_ID",
    "MAX_SEAT",
    "MAX_STAGE",
    "MAX_STEP",
    "OFFERS",
    "PROTOCOL_VERSION",
    "PUBLIC_KEY_SIZE",
    "SIGNATURE_DOMAIN",
    "SIGNATURE_SIZE",
    "AbsentBody",
    "ActBody",
    "AnswerBody",
    "Body",
    "ChanceCommitBody",
    "ChanceDigestBody",
    "ChanceRevealBody",
    "ClaimBody",
    "CommitBody",
    "DeliveryBody",
    "EndBody",
    "KeyReleaseBody",
    "Kind",
    "LeaveBody",
    "Message",
    "OfferBody",
    "OpenBody",
    "ReclaimBody",
    "ResignBody",
    "ResumeBody",
    "RevealBody",
    "SealKeyBody",
    "WelcomeBody",
    "check_body",
    "parse_body",
    "revealed_secrets",
    "sign_message",
]

SIGNATURE_DOMAINS: Final = {1: b"cryptcrawl/msg/v1\x00", 2: b"cryptcrawl/msg/v2\x00"}
"""Prefixed to the encoded fields before signing (domain separation for every signature)."""
SIGNATURE_DOMAIN: Final = SIGNATURE_DOMAINS[PROTOCOL_VERSION]

_FIELD_COUNT: Final = {1: 9, 2: 10}  # whole messages, by version
# msgpack fixarray heads: of a whole message, and of its signed fields, by version
_ARRAY_WHOLE: Final = {1: 0x99, 2: 0x9A}
_ARRAY_SIGNED_HEAD: Final = {1: b"\x98", 2: b"\x99"}
_SIG_HEAD: Final = b"\xc4\x40"  # msgpack bin 8 of 64 bytes (the signature)
_SIG_TAIL: Final = 2 + 64
MAX_HEADS: Final = MAX_SEAT + 1


# --- the envelope -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Message:
    """One signed message of one sender's feed (fields in wire order).

    Construction validates every field and the body, raising BadMessage; it does *not* check
    the signature, which needs the sender's key: call :meth:`verify` (a
    :class:`~protocol.wire.feed.Feed` does, before it stores anything).
    """

    version: int
    match_id: bytes
    seat: int
    seq: int
    prev: bytes
    kind: Kind
    state: bytes
    body: tuple[Value, ...]
    sig: bytes
    heads: tuple[bytes, ...] = ()  # version 2 (on the wire after ``state``)

    def __post_init__(self) -> None:
        kind = self._check_envelope()
        # The typed body, checked once and kept (``content``).
        parser = _BODY_PARSERS[self.version].get(kind)
        if parser is None:
            raise BadMessage(f"a {kind.name} message is not one of version {self.version}")
        self.__dict__["content"] = parser(_array(self.body, "message body"))

    def _check_envelope(self) -> Kind:
        """Check every field but the body (and make ``kind`` a Kind)."""
        fields = self.__dict__
        raw_kind = fields["kind"]
        # (Only an int is looked up: a decoded map or an array holding one is unhashable.)
        kind = _KINDS.get(raw_kind) if type(raw_kind) in (int, Kind) else None
        # The common case at once (plain ints, 32- and 64-byte strings); anything else is
        # checked field by field below, which names what is wrong.
        if (kind is not None
                and fields["version"] == PROTOCOL_VERSION and type(fields["version"]) is int
                and type(fields["seat"]) is int and 0 <= fields["seat"] <= MAX_SEAT
                and type(fields["seq"]) is int and fields["seq"] >= 0
                and _is_digest(fields["match_id"]) and _is_digest(fields["prev"])
                and _is_digest(fields["state"]) and type(fields["sig"]) is bytes
                and len(fields["sig"]) == SIGNATURE_SIZE
                and type(fields["heads"]) is tuple
                and (1 <= len(fields["heads"]) <= MAX_HEADS if kind in CORE_KINDS
                     else not fields["heads"])
                and all(_is_digest(h) for h in fields["heads"])):
            fields["kind"] = kind
            return kind
        version = _int(self.version, "protocol version", 0)
        if version not in READABLE_VERSIONS:
            raise BadMessage(f"unsupported protocol version {version} "
                             f"(this is version {PROTOCOL_VERSION})")
        heads = _array(self.heads, "heads")
        if version == 1 and heads:
            raise BadMessage("a version 1 message has no heads")
        _sized(self.match_id, "match id", DIGEST_SIZE)
        _int(self.seat, "seat", 0, MAX_SEAT)
        _int(self.seq, "sequence number", 0)
        _sized(self.prev, "prev", DIGEST_SIZE)
        kind = _kind(self.kind)
        if version >= 2:
            if kind in CORE_KINDS and not 1 <= len(heads) <= MAX_HEADS:
                raise BadMessage(f"heads has {len(heads)} entries, not 1..{MAX_HEADS}")
            if kind not in CORE_KINDS and heads:
                raise BadMessage(f"a {kind.name} message carries no heads, not {len(heads)}")
            for index, head in enumerate(heads):
                _sized(head, f"head {index}", DIGEST_SIZE)
        object.__setattr__(self, "kind", kind)
        _sized(self.state, "state", DIGEST_SIZE)
        _sized(self.sig, "signature", SIGNATURE_SIZE)
        return kind

    def _fields(self) -> tuple[Value, ...]:
        if self.version == 1:
            return (self.version, self.match_id, self.seat, self.seq, self.prev, int(self.kind),
                    self.state, self.body)
        return (self.version, self.match_id, self.seat, self.seq, self.prev, int(self.kind),
                self.state, self.heads, self.body)

    def signed_bytes(self) -> bytes:
        """The bytes the signature is over: the version's domain, then the encoding of every
        field but the signature."""
        wire = self._wire
        domain = SIGNATURE_DOMAINS[self.version]
        if wire[0] == _ARRAY_WHOLE[self.version] and (
                wire[-_SIG_TAIL:-SIGNATURE_SIZE] == _SIG_HEAD):
            # The wire encoding is that of the signed fields with one more element (the
            # signature, always 64 bytes: bin 8 with a 0xc4 0x40 head) and a fixarray head one
            # higher.
            return domain + _ARRAY_SIGNED_HEAD[self.version] + wire[1:-_SIG_TAIL]
        return domain + encode(self._fields())  # pragma: no cover (by construction)

    # ``_wire`` and ``hash`` are computed once and kept in the instance (plain properties: on
    # Python 3.11 a cached_property takes a lock on every first access).
    @property
    def _wire(self) -> bytes:
        wire: bytes | None = self.__dict__.get("_wire_bytes")
        if wire is None:
            # (every field and the body were checked on construction)
            wire = self.__dict__["_wire_bytes"] = encode_checked((*self._fields(), self.sig))
        return wire

    def encode(self) -> bytes:
        """The canonical encoding of the whole message, signature included."""
        return self._wire

    @property
    def hash(self) -> bytes:
        """SHA-256 of :meth:`encode`: what the sender's next message names as ``prev``."""
        digest: bytes | None = self.__dict__.get("_hash")
        if digest is None:
            digest = self.__dict__["_hash"] = hashlib.sha256(self._wire).digest()
        return digest

    @cached_property
    def content(self) -> Body:
        """The body as its typed dataclass (already validated on construction)."""
        return parse_body(self.kind, self.body, self.version)

    @classmethod
    def decode(cls, data: bytes, version: int | None = None) -> Message:
        """Read one message (of protocol ``version``, if given: a match's); raises BadMessage
        for anything malformed (never another error).

        The signature is not checked here (see :meth:`verify`).
        """
        # (Every field and the body is checked on construction, so the value need not be
        # walked first: decode_unchecked.)
        value = decode_unchecked(data)
        fields = _array(value, "message")
        if version is not None and len(fields) != _FIELD_COUNT.get(version, 0):
            raise BadMessage(f"a message has {_FIELD_COUNT.get(version)} fields, not "
                             f"{len(fields)}")
        version = fields[0] if fields else None
        if type(version) is not int or version not in _FIELD_COUNT:
            _int(version, "protocol version", 0)
            raise BadMessage(f"unsupported protocol version {version} "
                             f"(this is version {PROTOCOL_VERSION})")
        if len(fields) != _FIELD_COUNT[version]:
            raise BadMessage(f"a version {version} message has {_FIELD_COUNT[version]} fields, "
                             f"not {len(fields)}")
        # As cls(*fields), without the frozen dataclass's field-by-field __init__.
        message = object.__new__(cls)
        message.__dict__.update(zip(_WIRE_NAMES[version], fields, strict=True))
        if version == 1:
            message.__dict__["heads"] = ()
        message.__post_init__()
        # decode() checked these are the canonical bytes of the fields: they are the encoding.
        message.__dict__["_wire_bytes"] = bytes(data)
        return message

    def verify(self, public_key: bytes | Ed25519PublicKey) -> None:
        """Raise BadMessage unless ``sig`` is the signature of ``public_key`` over
        :meth:`signed_bytes` (Ed25519 under the strict rules of protocol.md §1.2).
        ``public_key`` is the raw 32-byte Ed25519 key (or the key object); a key of another
        size is the caller's mistake (LocalProtocolError).

        A message is immutable, so a signature found valid for a key stays valid: the instance
        remembers the key it was verified with, and checking it again with that key costs
        nothing (a peer checks a message as it arrives, and its match core's feed again)."""
        key = _public_key(public_key)
        if self.__dict__.get("_verified_by") == key:
            return
        if not ed25519_valid(key, self.sig, self.signed_bytes()):
            raise BadMessage(f"bad signature on seat {self.seat}'s message {self.seq}")
        self.__dict__["_verified_by"] = key


_FIELD_NAMES: Final = tuple(f.name for f in dataclass_fields(Message))
_WIRE_NAMES: Final = {
    1: ("version", "match_id", "seat", "seq", "prev", "kind", "state", "body", "sig"),
    2: ("version", "match_id", "seat", "seq", "prev", "kind", "state", "heads", "body", "sig"),
}
_NO_SIGNATURE: Final = bytes(SIGNATURE_SIZE)


def _public_key(public_key: bytes | Ed25519PublicKey) -> bytes:
    if isinstance(public_key, Ed25519PublicKey):
        return public_key.public_bytes_raw()
    if not isinstance(public_key, bytes) or len(public_key) != PUBLIC_KEY_SIZE:
        raise LocalProtocolError("a public key is 32 raw Ed25519 bytes")
    return public_key


def _freeze(value: object) -> Value:
    if isinstance(value, list | tuple):
        return tuple(_freeze(item) for item in value)
    return value


def sign_message(private_key: Ed25519PrivateKey, *, match_id: bytes, seat: int, seq: int,
                 prev: bytes, kind: Kind, state: bytes,
                 body: Body | Sequence[Value], heads: Sequence[bytes] = (),
                 version: int = PROTOCOL_VERSION) -> Message:
    """A new message, signed with ``private_key``.

    ``body`` is a body dataclass of ``kind`` or its wire array (lists are accepted and frozen to
    tuples); ``heads`` is version 2's (one 32-byte hash per seat, for a kind that drives the engine;
    none for the others).  Fields that would make an
    invalid message raise LocalProtocolError: they come from this program, not from a peer.
    """
    if isinstance(body, Body):
        if kind != body.KIND:
            raise LocalProtocolError(f"a {type(body).__name__} is not a body of kind {kind!r}")
        fields: Value = body.as_body()
    else:
        fields = _freeze(body)
    # Built like Message(...) with an empty signature, then signed in place: its encoding is
    # the unsigned one's with the last 64 bytes (the signature's) replaced.
    message = object.__new__(Message)
    entries = message.__dict__
    entries.update(zip(_FIELD_NAMES, (version, match_id, seat, seq, prev, kind, state,
                                      fields, _NO_SIGNATURE, tuple(heads)), strict=True))
    try:
        # (The body is parsed again, for its version: a dataclass does not know its version.)
        message.__post_init__()
    except BadMessage as exc:
        raise LocalProtocolError(f"cannot sign an invalid message: {exc}") from None
    wire = message._wire
    sig = private_key.sign(message.signed_bytes())
    entries["sig"] = sig
    entries["_wire_bytes"] = wire[:-SIGNATURE_SIZE] + sig
    return message
