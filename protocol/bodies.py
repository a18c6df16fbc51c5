"""The bodies of protocol messages: one frozen dataclass per kind, validated on construction,
with its wire array (``as_body``) and its parser (``from_body``; a version's parser where the
version changed the body).  Every bad input raises :class:`~protocol.errors.BadMessage` naming the
field.  :mod:`protocol.wire.messages` (the envelope) re-exports all of this."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar, Final

from protocol.errors import BadMessage
from protocol.wire.encoding import Value

DIGEST_SIZE: Final = 32
"""Match ids, hashes, digests, commitments, salts and secrets are all 32 bytes."""
SIGNATURE_SIZE: Final = 64
PUBLIC_KEY_SIZE: Final = 32
MAX_SEAT: Final = 7

MAX_STEP: Final = 64
"""Longest step name, in characters (the engine's names look like ``L2.R3.play``)."""
MAX_ACTION: Final = 1024  # bytes of UTF-8: a Paper Dungeons plan, a Twister move with pick-ups
"""Longest action, in characters (the engine's notation, such as ``play 4``)."""
MAX_EVENT_ID: Final = 64
MAX_SLOTS: Final = 32
"""Most sealed values one action seals, or one OPEN opens (a team of four seals 4)."""
MAX_BATCH: Final = 64
"""Most chance entries in one CHANCE_COMMIT or CHANCE_REVEAL (a batch has far fewer)."""
MAX_STAGE: Final = 5
"""Highest CHANCE_DIGEST stage: the digest rounds completed before it plus one, capped here."""


class Kind(enum.IntEnum):
    """What a message is for.  Numbers 21 and up are reserved."""

    COMMIT = 1
    """A play commitment for a simultaneous step."""
    REVEAL = 2
    """Opens the sender's commitment for a step."""
    CHANCE_COMMIT = 3
    """A batch of commitments to chance secrets."""
    CHANCE_REVEAL = 4
    """A batch of chance secrets."""
    CHANCE_DIGEST = 5
    """A seat's signature over every chance commitment it holds, in a digest round."""
    ACT = 6
    """An open action: a seat's turn, or a free action (taken alone; the decision stays open)."""
    END = 7
    """Final agreement on the result and the transcript."""
    SEAL_KEY = 8
    """The seat a private-knowledge round serves names the fresh X25519 key its deliveries are
    sealed to (its wire name is the version's: protocol.wire.naming)."""
    DELIVERY = 9
    """A seat's secrets for a private-knowledge round's events, signed inside and sealed to the
    round's key."""
    KEY_RELEASE = 10
    """The seat a round served publishes the round's private key (once the round's events are
    turned, or at once to prove a bad delivery)."""
    ABSENT = 11
    """A seat's vote that another seat is absent (silent past the timeouts) at a point."""
    RECLAIM = 12
    """A seat declared absent asks for its seat back."""
    WELCOME = 13
    """A seat acknowledges another seat's reclaim (it rejoins once every decider welcomed it)."""
    LEAVE = 14
    """Version 2: the sender leaves the match for good (its zombie plays on from its next
    message due; it never reclaims)."""
    CLAIM = 15
    """Version 2: with two seats live, the sender claims the match of the other, silent at a
    point past the timeouts (it ends the match)."""
    RESIGN = 16
    """Version 2: the sender resigns: the game's resignation rule applies where its next
    message is due, and it leaves the match for good there, as with LEAVE."""
    OFFER = 17
    """Version 2: the sender offers a draw, or a pause, to every other live seat."""
    ANSWER = 18
    """Version 2: the sender accepts or declines a standing OFFER of another seat."""
    RESUME = 19
    """Version 2: the sender ends an agreed pause."""
    OPEN = 20
    """Version 2: the sender opens sealed values it committed to earlier (protocol.md §7.11)."""
    DECK = 21
    """Version 2: a step of a shared deck — a key, a shuffle, decryption shares, an open
    (protocol.md §7.13, deck.md)."""


# --- field checks -------------------------------------------------------------------------------
# Each raises BadMessage naming the field, so a verdict can say what was wrong.


def _int(value: object, what: str, low: int, high: int | None = None) -> int:
    # bool is an int subclass in Python; on the wire True is not 1, and we never accept it.
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadMessage(f"{what} must be an integer, not {type(value).__name__}")
    if value < low or (high is not None and value > high):
        bound = f"{low}..{high}" if high is not None else f">= {low}"
        raise BadMessage(f"{what} {value} is out of range ({bound})")
    return value


def _sized(value: object, what: str, size: int) -> bytes:
    if not isinstance(value, bytes):
        raise BadMessage(f"{what} must be bytes, not {type(value).__name__}")
    if len(value) != size:
        raise BadMessage(f"{what} is {len(value)} bytes, not {size}")
    return value


def _is_digest(value: object) -> bool:
    return type(value) is bytes and len(value) == DIGEST_SIZE


def _text(value: object, what: str, longest: int) -> str:
    if not isinstance(value, str):
        raise BadMessage(f"{what} must be a string, not {type(value).__name__}")
    if not value:
        raise BadMessage(f"{what} is empty")
    if len(value) > longest:
        raise BadMessage(f"{what} is {len(value)} characters, over the {longest}-character cap")
    return value


def _action(value: object, what: str) -> str:
    """An action: the engine's notation, 1 to :data:`MAX_ACTION` bytes of UTF-8."""
    text = _text(value, what, MAX_ACTION)
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_ACTION:
        raise BadMessage(f"{what} is {size} bytes, over the {MAX_ACTION}-byte cap")
    return text


def _array(value: object, what: str, length: int | None = None) -> tuple[Value, ...]:
    if not isinstance(value, tuple):
        raise BadMessage(f"{what} must be an array, not {type(value).__name__}")
    if length is not None and len(value) != length:
        raise BadMessage(f"{what} has {len(value)} fields, not {length}")
    return value


def _sealed(value: object, what: str) -> tuple[tuple[str, bytes], ...]:
    """An action's sealed commitments: 1 to :data:`MAX_SLOTS` pairs ``[slot, commitment]``,
    slots distinct (protocol.md §7.11)."""
    pairs = _array(value, what)
    if not 1 <= len(pairs) <= MAX_SLOTS:
        raise BadMessage(f"{what} has {len(pairs)} entries, not 1..{MAX_SLOTS}")
    out = []
    for pair in pairs:
        slot, commitment = _array(pair, f"{what} entry", 2)
        out.append((_text(slot, f"{what} slot", MAX_STEP),
                    _sized(commitment, f"{what} commitment", DIGEST_SIZE)))
    if len({slot for slot, _ in out}) != len(out):
        raise BadMessage(f"{what} names a slot twice")
    return tuple(out)


# --- bodies -------------------------------------------------------------------------------------
# One frozen dataclass per kind, validated on construction; ``as_body`` gives the wire array and
# ``from_body`` reads it back (checking its shape first).


@dataclass(frozen=True)
class CommitBody:
    """``[step, commitment]``: the sender's commitment to its play for ``step``."""

    KIND: ClassVar[Kind] = Kind.COMMIT
    step: str
    commitment: bytes

    def __post_init__(self) -> None:
        _text(self.step, "COMMIT step", MAX_STEP)
        _sized(self.commitment, "COMMIT commitment", DIGEST_SIZE)

    def as_body(self) -> tuple[Value, ...]:
        return (self.step, self.commitment)

    @classmethod
    def from_body(cls, body: tuple[Value, ...]) -> CommitBody:
        step, commitment = _array(body, "COMMIT body", 2)
        return cls(step, commitment)


@dataclass(frozen=True)
class RevealBody:
    """``[step, action, salt, commit_set]`` or ``[step, action, salt, commit_set, [[event_id,
    secret]]]``: opens the sender's commitment for ``step``.

    ``commit_set`` is the digest of every commitment the sender held for the step when it
    revealed: a seat that showed different commitments to different peers is caught by it.
    ``chance`` (the optional fifth field, one entry): the sender's secret for the hidden event
    the step turns early (protocol.md §7.4), sent with the play instead of in a message of its
    own; in version 2 a sixth field, ``chance_set``, comes with it: the digest of the chance
    commitments that secret opens against.
    """

    KIND: ClassVar[Kind] = Kind.REVEAL
    step: str
    action: str
    salt: bytes
    commit_set: bytes
    chance: tuple[tuple[str, bytes], ...] = ()
    chance_set: bytes = b""  # version 2, with ``chance``
    sealed: tuple[tuple[str, bytes], ...] = ()  # version 2: the play's sealed commitments

    def __post_init__(self) -> None:
        if self.sealed != ():
            _sealed(self.sealed, "REVEAL sealed")
        _text(self.step, "REVEAL step", MAX_STEP)
        _action(self.action, "REVEAL action")
        _sized(self.salt, "REVEAL salt", DIGEST_SIZE)
        _sized(self.commit_set, "REVEAL commit set", DIGEST_SIZE)
        if self.chance != ():
            _check_batch(self.chance, "REVEAL chance", "secret")
            if len(self.chance) != 1:
                raise BadMessage(f"REVEAL chance has {len(self.chance)} entries, not 1")
        if self.chance_set != b"":
            if self.chance == ():
                raise BadMessage("REVEAL has a chance set but no chance secret")
            _sized(self.chance_set, "REVEAL chance set", DIGEST_SIZE)

    def as_body(self) -> tuple[Value, ...]:
        head: tuple[Value, ...] = (self.step, self.action, self.salt, self.commit_set)
        if self.chance_set:
            head = (*head, self.chance, self.chance_set)
        elif self.chance:
            head = (*head, self.chance)
        return (*head, self.sealed) if self.sealed else head

    @classmethod
    def from_body_v2(cls, body: tuple[Value, ...]) -> RevealBody:
        """Version 2: 4 fields; 5 (with sealed commitments); 6 (with an early turn's secret
        and its chance set); 7 (both)."""
        fields = _array(body, "REVEAL body")
        sealed: tuple[tuple[str, bytes], ...] = ()
        if len(fields) in (5, 7):
            sealed = _sealed(fields[-1], "REVEAL sealed")
            fields = fields[:-1]
        if len(fields) == 4:
            step, action, salt, commit_set = fields
            return cls(step, action, salt, commit_set, sealed=sealed)
        if len(fields) == 6:
            step, action, salt, commit_set, chance, chance_set = fields
            if chance == ():
                raise BadMessage("REVEAL chance is empty (leave the field out)")
            _sized(chance_set, "REVEAL chance set", DIGEST_SIZE)
            return cls(step, action, salt, commit_set, chance, chance_set, sealed)
        raise BadMessage(f"REVEAL body has {len(body)} fields, not 4 to 7")

    @classmethod
    def from_body(cls, body: tuple[Value, ...]) -> RevealBody:
        fields = _array(body, "REVEAL body")
        if len(fields) == 4:
            step, action, salt, commit_set = fields
            return cls(step, action, salt, commit_set)
        if len(fields) == 5:
            step, action, salt, commit_set, chance = fields
            if chance == ():
                raise BadMessage("REVEAL chance is empty (leave the field out)")
            return cls(step, action, salt, commit_set, chance)
        raise BadMessage(f"REVEAL body has {len(fields)} fields, not 4 or 5")


def revealed_secrets(body: object) -> tuple[tuple[str, bytes], ...]:
    """The chance secrets a message body reveals: a CHANCE_REVEAL's, the early-turn secret a
    REVEAL carries (protocol.md §7.4), or the pool secret of an ACT (§7.12); none for any
    other body."""
    if isinstance(body, ChanceRevealBody):
        return body.secrets
    if isinstance(body, RevealBody):
        return body.chance
    if isinstance(body, ActBody) and body.pool is not None:
        return (body.pool,)
    return ()


def _check_batch(entries: object, name: str, value_name: str) -> None:
    """A batch is 1..MAX_BATCH ``(event id, 32 bytes)`` pairs with distinct event ids."""
    batch = _array(entries, f"{name} body")
    if not 1 <= len(batch) <= MAX_BATCH:
        raise BadMessage(f"{name} body has {len(batch)} entries, not 1..{MAX_BATCH}")
    seen: set[str] = set()
    for index, entry in enumerate(batch):
        event_id, value = _array(entry, f"{name} entry {index}", 2)
        _text(event_id, f"{name} entry {index} event id", MAX_EVENT_ID)
        _sized(value, f"{name} entry {index} {value_name}", DIGEST_SIZE)
        if event_id in seen:
            raise BadMessage(f"{name} body has duplicate event id {event_id!r}")
        seen.add(event_id)


@dataclass(frozen=True)
class ChanceCommitBody:
    """``[[event_id, commitment], ...]``: commitments to chance secrets, batched."""

    KIND: ClassVar[Kind] = Kind.CHANCE_COMMIT
    commitments: tuple[tuple[str, bytes], ...]

    def __post_init__(self) -> None:
        _check_batch(self.commitments, "CHANCE_COMMIT", "commitment")

    def as_body(self) -> tuple[Value, ...]:
        return self.commitments

    @classmethod
    def from_body(cls, body: tuple[Value, ...]) -> ChanceCommitBody:
        return cls(body)


@dataclass(frozen=True)
class ChanceRevealBody:
    """``[[[event_id, secret], ...], commit_set]`` (version 2; version 1: the batch alone): the
    sender's chance secrets, batched, and the digest of the chance commitments they open
    against (every contributor's, for every event of the batch: protocol.md §7.3)."""

    KIND: ClassVar[Kind] = Kind.CHANCE_REVEAL
    secrets: tuple[tuple[str, bytes], ...]
    commit_set: bytes = b""  # version 2

    def __post_init__(self) -> None:
        _check_batch(self.secrets, "CHANCE_REVEAL", "secret")
        if self.commit_set != b"":
            _sized(self.commit_set, "CHANCE_REVEAL commit set", DIGEST_SIZE)

    def as_body(self) -> tuple[Value, ...]:
        return (self.secrets, self.commit_set) if self.commit_set else self.secrets

    @classmethod
    def from_body(cls, body: tuple[Value, ...]) -> ChanceRevealBody:
        return cls(body)

    @classmethod
    def from_body_v2(cls, body: tuple[Value, ...]) -> ChanceRevealBody:
        secrets, commit_set = _array(body, "CHANCE_REVEAL body", 2)
        _sized(commit_set, "CHANCE_REVEAL commit set", DIGEST_SIZE)
        return cls(_array(secrets, "CHANCE_REVEAL secrets"), commit_set)


@dataclass(frozen=True)
class ChanceDigestBody:
    """``[stage, digest]``: the sender's signature over every chance commitment it holds, sent
    in a digest round before the next decision so a forked hidden-event commitment shows before
    anyone could profit from it; ``stage`` is the number of digest rounds completed before this
    one plus one, capped at :data:`MAX_STAGE` (protocol.md §7.2)."""

    KIND: ClassVar[Kind] = Kind.CHANCE_DIGEST
    stage: int
    digest: bytes

    def __post_init__(self) -> None:
        _int(self.stage, "CHANCE_DIGEST stage", 0, MAX_STAGE)
        _sized(self.digest, "CHANCE_DIGEST digest", DIGEST_SIZE)

    def as_body(self) -> tuple[Value, ...]:
        return (self.stage, self.digest)

    @classmethod
    def from_body(cls, body: tuple[Value, ...]) -> ChanceDigestBody:
        stage, digest = _array(body, "CHANCE_DIGEST body", 2)
        return cls(stage, digest)


@dataclass(frozen=True)
class ActBody:
    """``[step, action]``: an open action (a turn, or a free action).  Version 2 adds, when
    the action seals values, a third field: its sealed commitments ``[[slot, commitment], …]``
    (protocol.md §7.11); and when the action poses dice drawn from the pool, a fourth: the
    decider's own secret for the pool slot they take, ``[slot, secret]`` (§7.12; the third
    field is then the sealed commitments or the empty array)."""

    KIND: ClassVar[Kind] = Kind.ACT
    step: str
    action: str
    sealed: tuple[tuple[str, bytes], ...] = ()
    pool: tuple[str, bytes] | None = None

    def __post_init__(self) -> None:
        _text(self.step, "ACT step", MAX_STEP)
        _action(self.action, "ACT action")
        if self.sealed != ():
            _sealed(self.sealed, "ACT sealed")
        if self.pool is not None:
            slot, secret = _array(self.pool, "ACT pool secret", 2)
            _text(slot, "ACT pool slot", MAX_EVENT_ID)
            _sized(secret, "ACT pool secret", DIGEST_SIZE)

    def as_body(self) -> tuple[Value, ...]:
        if self.pool is not None:
            return (self.step, self.action, self.sealed, self.pool)
        if self.sealed:
            return (self.step, self.action, self.sealed)
        return (self.step, self.action)

    @classmethod
    def from_body(cls, body: tuple[Value, ...]) -> ActBody:
        step, action = _array(body, "ACT body", 2)
        return cls(step, action)

    @classmethod
    def from_body_v2(cls, body: tuple[Value, ...]) -> ActBody:
        fields = _array(body, "ACT body")
        if len(fields) == 3:
            return cls(fields[0], fields[1], _sealed(fields[2], "ACT sealed"))
        if len(fields) == 4:
            sealed = () if fields[2] == () else _sealed(fields[2], "ACT sealed")
            slot, secret = _array(fields[3], "ACT pool secret", 2)
            return cls(fields[0], fields[1], sealed, (slot, secret))
        if len(fields) != 2:
            raise BadMessage(f"ACT body has {len(fields)} fields, not 2 to 4")
        return cls(fields[0], fields[1])


@dataclass(frozen=True)
class OpenBody:
    """Version 2, ``[[slot, value, salt], …]``: the sender opens sealed values it committed to
    (protocol.md §7.11): 1 to :data:`MAX_SLOTS` triples, slots distinct, each value 1 to
    :data:`MAX_STEP` characters."""

    KIND: ClassVar[Kind] = Kind.OPEN
    values: tuple[tuple[str, str, bytes], ...]

    def __post_init__(self) -> None:
        if not 1 <= len(self.values) <= MAX_SLOTS:
            raise BadMessage(f"OPEN has {len(self.values)} values, not 1..{MAX_SLOTS}")
        for slot, value, salt in self.values:
            _text(slot, "OPEN slot", MAX_STEP)
            _text(value, "OPEN value", MAX_STEP)
            _sized(salt, "OPEN salt", DIGEST_SIZE)
        if len({slot for slot, _, _ in self.values}) != len(self.values):
            raise BadMessage("OPEN names a slot twice")

    def as_body(self) -> tuple[Value, ...]:
        return tuple((slot, value, salt) for slot, value, salt in self.values)

    @classmethod
    def from_body(cls, body: tuple[Value, ...]) -> OpenBody:
        values = []
        for entry in _array(body, "OPEN body"):
            slot, value, salt = _array(entry, "OPEN entry", 3)
            values.append((_text(slot, "OPEN slot", MAX_STEP), _text(value, "OPEN value", MAX_STEP),
                           _sized(salt, "OPEN salt", DIGEST_SIZE)))
        return cls(tuple(values))


@dataclass(frozen=True)
class EndBody:
    """``[final_state, transcript]``: the sender's agreement on the final public state and on
    the transcript (header and every feed's head before the END messages)."""

    KIND: ClassVar[Kind] = Kind.END
    final_state: bytes
    transcript: bytes

    def __post_init__(self) -> None:
        _sized(self.final_state, "END final state", DIGEST_SIZE)
        _sized(self.transcript, "END transcript", DIGEST_SIZE)

    def as_body(self) -> tuple[Value, ...]:
        return (self.final_state, self.transcript)

    @classmethod
    def from_body(cls, body: tuple[Value, ...]) -> EndBody:
        final_state, transcript = _array(body, "END body", 2)
        return cls(final_state, transcript)


MAX_SEALED: Final = 4096
"""Largest sealed delivery, in bytes (a row's secrets take a few hundred)."""
MAX_EVENTS: Final = 16
"""Most events in one private-knowledge round."""


def _round(value: object, what: str) -> str:
    return _text(value, f"{what} round", MAX_STEP)


@dataclass(frozen=True)
class SealKeyBody:
    """``[round, events, public_key]``: the fresh X25519 public key of the seat the round
    serves, for the round's deliveries of ``events`` (the hidden events it is owed, in the order
    the game lists them)."""

    KIND: ClassVar[Kind] = Kind.SEAL_KEY
    round: str
    events: tuple[str, ...]
    public_key: bytes

    def __post_init__(self) -> None:
        name = "SEAL_KEY"
        _round(self.round, name)
        events = _array(self.events, f"{name} events")
        if not 1 <= len(events) <= MAX_EVENTS:
            raise BadMessage(f"{name} names {len(events)} events, not 1..{MAX_EVENTS}")
        for i, event in enumerate(events):
            _text(event, f"{name} event {i}", MAX_EVENT_ID)
        if len(set(events)) != len(events):
            raise BadMessage(f"{name} names an event twice")
        _sized(self.public_key, f"{name} public key", PUBLIC_KEY_SIZE)

    def as_body(self) -> tuple[Value, ...]:
        return (self.round, self.events, self.public_key)

    @classmethod
    def from_body(cls, body: tuple[Value, ...]) -> SealKeyBody:
        round_, events, key = _array(body, "SEAL_KEY body", 3)
        return cls(round_, events, key)


@dataclass(frozen=True)
class DeliveryBody:
    """``[round, key_message, sealed]`` (version 2; version 1: ``[round, sealed]``): the
    sender's secrets for the round's events, signed inside and HPKE-sealed to the round's key
    (see :mod:`protocol.wire.delivery`); ``key_message`` is the hash of the SEAL_KEY message whose
    key it is sealed to (a copy that holds another version of that message shows it)."""

    KIND: ClassVar[Kind] = Kind.DELIVERY
    round: str
    sealed: bytes
    key_message: bytes = b""  # version 2

    def __post_init__(self) -> None:
        _round(self.round, "DELIVERY")
        if not isinstance(self.sealed, bytes) or not 1 <= len(self.sealed) <= MAX_SEALED:
            raise BadMessage(f"DELIVERY sealed secrets must be 1..{MAX_SEALED} bytes")
        if self.key_message != b"":
            _sized(self.key_message, "DELIVERY key message", DIGEST_SIZE)

    def as_body(self) -> tuple[Value, ...]:
        if self.key_message:
            return (self.round, self.key_message, self.sealed)
        return (self.round, self.sealed)

    @classmethod
    def from_body(cls, body: tuple[Value, ...]) -> DeliveryBody:
        round_, sealed = _array(body, "DELIVERY body", 2)
        return cls(round_, sealed)

    @classmethod
    def from_body_v2(cls, body: tuple[Value, ...]) -> DeliveryBody:
        round_, key_message, sealed = _array(body, "DELIVERY body", 3)
        _sized(key_message, "DELIVERY key message", DIGEST_SIZE)
        return cls(round_, sealed, key_message)


@dataclass(frozen=True)
class KeyReleaseBody:
    """``[round, private_key]``: the round's private key, published by the seat it served."""

    KIND: ClassVar[Kind] = Kind.KEY_RELEASE
    round: str
    private_key: bytes

    def __post_init__(self) -> None:
        _round(self.round, "KEY_RELEASE")
        _sized(self.private_key, "KEY_RELEASE private key", DIGEST_SIZE)

    def as_body(self) -> tuple[Value, ...]:
        return (self.round, self.private_key)

    @classmethod
    def from_body(cls, body: tuple[Value, ...]) -> KeyReleaseBody:
        round_, key = _array(body, "KEY_RELEASE body", 2)
        return cls(round_, key)


@dataclass(frozen=True)
class AbsentBody:
    """``[seat, count, absent]``: the sender's vote on ``seat``, which the match waits for at
    its message number ``count``: ``absent`` 1 — it has been silent past the timeouts and the
    sender does not hold that message, even after asking every peer; ``absent`` 0 — the sender
    holds it (it answers another seat's vote); ``absent`` 2 — a *settlement*: the sender is at a
    dead end where ``seat`` alone is silent at ``count``, voted absent by every other live seat
    (protocol.md §7.6 item 8)."""

    KIND: ClassVar[Kind] = Kind.ABSENT
    seat: int
    count: int
    absent: int = 1

    def __post_init__(self) -> None:
        _int(self.seat, "ABSENT seat", 0, MAX_SEAT)
        _int(self.count, "ABSENT count", 0)
        _int(self.absent, "ABSENT verdict", 0, 2)

    def as_body(self) -> tuple[Value, ...]:
        return (self.seat, self.count, self.absent)

    @classmethod
    def from_body(cls, body: tuple[Value, ...]) -> AbsentBody:
        seat, count, absent = _array(body, "ABSENT body", 3)
        return cls(seat, count, absent)


@dataclass(frozen=True)
class ReclaimBody:
    """``[since]``: the sender, declared absent at its message number ``since``, asks for its
    seat back."""

    KIND: ClassVar[Kind] = Kind.RECLAIM
    since: int

    def __post_init__(self) -> None:
        _int(self.since, "RECLAIM since", 0)

    def as_body(self) -> tuple[Value, ...]:
        return (self.since,)

    @classmethod
    def from_body(cls, body: tuple[Value, ...]) -> ReclaimBody:
        (since,) = _array(body, "RECLAIM body", 1)
        return cls(since)


@dataclass(frozen=True)
class WelcomeBody:
    """``[seat, since]``: the sender has seen ``seat``'s reclaim (of its absence at ``since``)."""

    KIND: ClassVar[Kind] = Kind.WELCOME
    seat: int
    since: int

    def __post_init__(self) -> None:
        _int(self.seat, "WELCOME seat", 0, MAX_SEAT)
        _int(self.since, "WELCOME since", 0)

    def as_body(self) -> tuple[Value, ...]:
        return (self.seat, self.since)

    @classmethod
    def from_body(cls, body: tuple[Value, ...]) -> WelcomeBody:
        seat, since = _array(body, "WELCOME body", 2)
        return cls(seat, since)


@dataclass(frozen=True)
class LeaveBody:
    """``[]`` (version 2): the sender leaves the match for good."""

    KIND: ClassVar[Kind] = Kind.LEAVE

    def as_body(self) -> tuple[Value, ...]:
        return ()

    @classmethod
    def from_body(cls, body: tuple[Value, ...]) -> LeaveBody:
        _array(body, "LEAVE body", 0)
        return cls()


@dataclass(frozen=True)
class ResignBody:
    """``[]`` (version 2): the sender resigns (the game's rule) and leaves the match for good."""

    KIND: ClassVar[Kind] = Kind.RESIGN

    def as_body(self) -> tuple[Value, ...]:
        return ()

    @classmethod
    def from_body(cls, body: tuple[Value, ...]) -> ResignBody:
        _array(body, "RESIGN body", 0)
        return cls()


OFFERS: Final = ("draw", "pause")
"""What an OFFER may offer (protocol.md §7.7)."""


@dataclass(frozen=True)
class OfferBody:
    """``[what]`` (version 2): the sender offers ``what`` — ``"draw"`` or ``"pause"`` — to
    every other live seat."""

    KIND: ClassVar[Kind] = Kind.OFFER
    what: str

    def __post_init__(self) -> None:
        if self.what not in OFFERS:
            raise BadMessage(f"OFFER what must be one of {', '.join(OFFERS)}, not "
                             f"{self.what!r:.40}")

    def as_body(self) -> tuple[Value, ...]:
        return (self.what,)

    @classmethod
    def from_body(cls, body: tuple[Value, ...]) -> OfferBody:
        (what,) = _array(body, "OFFER body", 1)
        return cls(_text(what, "OFFER what", 16))


@dataclass(frozen=True)
class AnswerBody:
    """``[seat, seq, yes]`` (version 2): the sender's answer to the OFFER that is seat
    ``seat``'s message ``seq`` (its slot): ``yes`` 1 accepts it, 0 declines it."""

    KIND: ClassVar[Kind] = Kind.ANSWER
    seat: int
    seq: int
    yes: int

    def __post_init__(self) -> None:
        _int(self.seat, "ANSWER seat", 0, MAX_SEAT)
        _int(self.seq, "ANSWER seq", 0)
        _int(self.yes, "ANSWER yes", 0, 1)

    def as_body(self) -> tuple[Value, ...]:
        return (self.seat, self.seq, self.yes)

    @classmethod
    def from_body(cls, body: tuple[Value, ...]) -> AnswerBody:
        seat, seq, yes = _array(body, "ANSWER body", 3)
        return cls(seat, seq, yes)


@dataclass(frozen=True)
class ResumeBody:
    """``[]`` (version 2): the sender ends the pause every live seat agreed to."""

    KIND: ClassVar[Kind] = Kind.RESUME

    def as_body(self) -> tuple[Value, ...]:
        return ()

    @classmethod
    def from_body(cls, body: tuple[Value, ...]) -> ResumeBody:
        _array(body, "RESUME body", 0)
        return cls()


@dataclass(frozen=True)
class ClaimBody:
    """``[seat, count]`` (version 2): the sender claims the match: ``seat``, the other live seat,
    has been silent past the timeouts where its message ``count`` is owed (the sender holds
    its first ``count`` messages, no more)."""

    KIND: ClassVar[Kind] = Kind.CLAIM
    seat: int
    count: int

    def __post_init__(self) -> None:
        _int(self.seat, "CLAIM seat", 0, MAX_SEAT)
        _int(self.count, "CLAIM count", 0)

    def as_body(self) -> tuple[Value, ...]:
        return (self.seat, self.count)

    @classmethod
    def from_body(cls, body: tuple[Value, ...]) -> ClaimBody:
        seat, count = _array(body, "CLAIM body", 2)
        return cls(seat, count)
