"""Small pure cryptographic functions with domain separation (design §3 F1–F5, §4).

Everything hashed or signed here carries a *domain*: a string ``cryptcrawl/<what>/v<N>`` naming
what the bytes are for, so bytes made for one purpose are never valid for another.

:func:`H` is the one hash: SHA-256 over the domain and the parts, every item (the domain too)
prefixed by its length as 4 bytes big-endian, so no two lists of items share an encoding
(``("ab", "c")`` and ``("a", "bc")`` differ).  Parts are encoded as:

* ``bytes`` — as they are;
* ``str`` — UTF-8;
* ``int`` — 8 bytes big-endian unsigned (0 … 2**64 - 1; so an int part always has length 8).

The fixed-size fields (match ids, public keys, salts, secrets, commitments: 32 bytes; signatures:
64 bytes) are checked: a wrong size raises :class:`~protocol.errors.BadMessage`, because these
values usually come from the network and a peer's loop must turn them into a verdict, not crash.
A caller that passes a value of a type ``H`` cannot encode (a float, a bool, a list) or a domain
outside the ``cryptcrawl/…/vN`` form gets :class:`~protocol.errors.LocalProtocolError`: that is a
bug in this program, never input from outside.

No randomness is made here: seeds, salts and secrets are passed in (see :class:`SeatSecrets`).
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Iterable, Sequence
from typing import Final

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from nacl import exceptions as nacl_exceptions
from nacl.bindings import crypto_sign_open

from engine.core import ChanceEvent
from engine.stream import SAMPLER_VERSION, sample_index
from protocol.errors import BadMessage, LocalProtocolError
from protocol.wire.v1_names import KEY_DOMAIN

__all__ = [
    "CHANCE_COMMIT_DOMAIN",
    "CHANCE_OPEN_DOMAIN",
    "CHANCE_OUTCOME_DOMAIN",
    "CHANCE_SECRET_DOMAIN",
    "CHANCE_SET_DOMAIN",
    "COMMIT_DOMAIN",
    "COMMIT_SET_DOMAIN",
    "FINGERPRINT_DOMAIN",
    "KEY_SIZE",
    "SALT_DOMAIN",
    "SAMPLER",
    "SIGNATURE_SIZE",
    "TRANSCRIPT_DOMAIN",
    "H",
    "SeatSecrets",
    "chance_commitment",
    "chance_open_digest",
    "chance_outcome",
    "chance_outcome_bytes",
    "chance_set_digest",
    "check_chance_reveal",
    "check_reveal",
    "commit_set_digest",
    "fingerprint",
    "play_commitment",
    "public_key_bytes",
    "replaced_head",
    "sign",
    "transcript_digest",
    "verify",
]

SAMPLER: Final = SAMPLER_VERSION
"""The sampler that maps outcome bytes to an outcome (``sha256-ctr/v1``, engine/stream.py)."""

KEY_SIZE: Final = 32
"""Size of match ids, public keys, salts, secrets, seeds and commitments."""
SIGNATURE_SIZE: Final = 64

COMMIT_DOMAIN: Final = "cryptcrawl/commit/v1"
COMMIT_SET_DOMAIN: Final = "cryptcrawl/commit-set/v1"
TRANSCRIPT_DOMAIN: Final = "cryptcrawl/transcript/v1"
CHANCE_COMMIT_DOMAIN: Final = "cryptcrawl/chance-commit/v1"
CHANCE_OUTCOME_DOMAIN: Final = "cryptcrawl/chance-outcome/v1"
CHANCE_SET_DOMAIN: Final = "cryptcrawl/chance-set/v1"
CHANCE_OPEN_DOMAIN: Final = "cryptcrawl/chance-open/v2"
REPLACED_HEAD_DOMAIN: Final = "cryptcrawl/replaced/v2"
SALT_DOMAIN: Final = "cryptcrawl/salt/v1"
CHANCE_SECRET_DOMAIN: Final = "cryptcrawl/chance-secret/v1"
SEALED_DOMAIN: Final = "cryptcrawl/sealed/v2"
SEALED_SET_DOMAIN: Final = "cryptcrawl/sealed-set/v2"
SEALED_SALT_DOMAIN: Final = "cryptcrawl/sealed-salt/v2"
ROUND_KEY_DOMAIN: Final = KEY_DOMAIN  # (its v1 bytes name the game: protocol/wire/v1_names.py)
ZOMBIE_DOMAIN: Final = "cryptcrawl/zombie/v1"
FINGERPRINT_DOMAIN: Final = "cryptcrawl/fingerprint/v1"

_DOMAIN_RE: Final = re.compile(r"cryptcrawl/[a-z0-9][a-z0-9./-]*/v[1-9][0-9]*")
_ZERO32: Final = bytes(KEY_SIZE)
_UINT64_MAX: Final = 2**64 - 1


# --------------------------------------------------------------------------- the hash


_CHECKED_DOMAINS: dict[str, bytes] = {}  # each domain checked once (a handful, all constants)


def _check_domain(domain: str) -> bytes:
    checked = _CHECKED_DOMAINS.get(domain) if isinstance(domain, str) else None
    if checked is not None:
        return checked
    if not isinstance(domain, str) or _DOMAIN_RE.fullmatch(domain) is None:
        raise LocalProtocolError(
            f"bad domain {domain!r}: domains look like 'cryptcrawl/<what>/v<N>'")
    if len(_CHECKED_DOMAINS) < 256:
        _CHECKED_DOMAINS[domain] = domain.encode()
    return domain.encode()


def _part_bytes(part: bytes | str | int) -> bytes:
    if isinstance(part, bytes):
        return part
    if isinstance(part, str):
        return part.encode()
    if isinstance(part, int) and not isinstance(part, bool):
        if not 0 <= part <= _UINT64_MAX:
            raise BadMessage(f"integer {part} is outside 0 … 2**64 - 1")
        return part.to_bytes(8, "big")
    raise LocalProtocolError(
        f"cannot hash a {type(part).__name__}: parts are bytes, str or int")


def _length_prefixed(items: Iterable[bytes]) -> bytes:
    out = bytearray()
    for data in items:
        out += len(data).to_bytes(4, "big")
        out += data
    return bytes(out)


_LENGTHS: Final = tuple(size.to_bytes(4, "big") for size in range(256))
"""The 4-byte length prefixes of the sizes most parts have (ids, keys, digests, names)."""


def H(domain: str, *parts: bytes | str | int) -> bytes:
    """SHA-256 over the domain and ``parts``, each prefixed by its 4-byte big-endian length.

    ``str`` parts are UTF-8; ``int`` parts are 8-byte big-endian unsigned (BadMessage outside
    0 … 2**64 - 1).  A bad domain or a part of another type raises LocalProtocolError."""
    # (The protocol hashes a few times per message: the bytes are joined and hashed at once.)
    head = _CHECKED_DOMAINS.get(domain) if type(domain) is str else None
    if head is None:
        head = _check_domain(domain)
    lengths = _LENGTHS
    chunks = [lengths[len(head)] if len(head) < 256 else len(head).to_bytes(4, "big"), head]
    for part in parts:
        if type(part) is bytes:
            data = part
        elif type(part) is str:
            data = part.encode()
        else:
            data = _part_bytes(part)
        size = len(data)
        chunks.append(lengths[size] if size < 256 else size.to_bytes(4, "big"))
        chunks.append(data)
    return hashlib.sha256(b"".join(chunks)).digest()


def _sized(value: object, size: int, what: str) -> bytes:
    if not isinstance(value, bytes):
        raise BadMessage(f"{what} must be bytes, not {type(value).__name__}")
    if len(value) != size:
        raise BadMessage(f"{what} must be {size} bytes, not {len(value)}")
    return value


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise BadMessage(f"{what} must be a string, not {type(value).__name__}")
    return value


# --------------------------------------------------------------------------- plays (F1, F2, F5)


def play_commitment(match_id: bytes, step: str, seat_key: bytes, action: str,
                    salt: bytes, sealed: Sequence[tuple[str, bytes]] = ()) -> bytes:
    """The commitment to a simultaneous play:
    ``H("cryptcrawl/commit/v1", match_id, step, seat_key, action, salt)``, and with sealed
    values one more part, :func:`sealed_set_digest` of them.

    ``step`` is the engine's step name (``"L2.R3.play"``), ``action`` its action notation
    (``"play 4"``), ``seat_key`` the committing seat's 32-byte Ed25519 public key — binding the
    committer, so a copied commitment cannot be opened by the copier — and ``salt`` 32 bytes.
    ``sealed``: the play's sealed-value commitments, ``(slot, commitment)`` in order (a play
    that seals a token's identity commits to that too, so no reveal can choose it late)."""
    parts: list[bytes | str | int] = [
        _sized(match_id, KEY_SIZE, "match id"), _text(step, "step"),
        _sized(seat_key, KEY_SIZE, "seat key"), _text(action, "action"),
        _sized(salt, KEY_SIZE, "salt")]
    if sealed:
        parts.append(sealed_set_digest(sealed))
    return H(COMMIT_DOMAIN, *parts)


def sealed_commitment(match_id: bytes, slot: str, seat_key: bytes, value: str,
                      salt: bytes) -> bytes:
    """The commitment to a sealed value (protocol.md §7.11):
    ``H("cryptcrawl/sealed/v2", match_id, slot, seat_key, value, salt)``."""
    return H(SEALED_DOMAIN, _sized(match_id, KEY_SIZE, "match id"), _text(slot, "slot"),
             _sized(seat_key, KEY_SIZE, "seat key"), _text(value, "value"),
             _sized(salt, KEY_SIZE, "salt"))


def sealed_set_digest(sealed: Sequence[tuple[str, bytes]]) -> bytes:
    """``H("cryptcrawl/sealed-set/v2", k, slot₁, c₁, …, slotₖ, cₖ)``: a play's sealed
    commitments, in order, as its play commitment covers them."""
    parts: list[bytes | str | int] = [len(sealed)]
    for slot, commitment in sealed:
        parts += [_text(slot, "slot"), _sized(commitment, KEY_SIZE, "sealed commitment")]
    return H(SEALED_SET_DOMAIN, *parts)


def check_reveal(commitment: bytes, match_id: bytes, step: str, seat_key: bytes, action: str,
                 salt: bytes) -> None:
    """Check that ``(action, salt)`` opens ``commitment``; raise BadMessage if not."""
    _sized(commitment, KEY_SIZE, "commitment")
    if play_commitment(match_id, step, seat_key, action, salt) != commitment:
        raise BadMessage(f"the reveal of {action!r} for step {step!r} does not open the "
                         "seat's commitment")


def transcript_digest(match_id: bytes, heads: Sequence[bytes]) -> bytes:
    """The digest of a match's record before its END round: the match id and the head (last
    message hash) of every seat's feed, in seat order —
    ``H("cryptcrawl/transcript/v1", match_id, n, head_0, ..., head_n-1)``.  The header is
    covered through the match id, every message through the hash chains."""
    return H(TRANSCRIPT_DOMAIN, match_id, len(heads), *heads)


def replaced_head(match_id: bytes, seat: int, count: int) -> bytes:
    """What a message's heads name for a seat replaced (version 2) at its message ``count``:
    ``H("cryptcrawl/replaced/v2", match_id, seat, count)`` — so that peers that replaced it at
    another point, or not at all, carry other heads."""
    return H(REPLACED_HEAD_DOMAIN, _sized(match_id, KEY_SIZE, "match id"), seat, count)


def commit_set_digest(match_id: bytes, step: str,
                      commitments: Sequence[bytes | None]) -> bytes:
    """The digest of every commitment a seat holds for one step, in seat order:
    ``H("cryptcrawl/commit-set/v1", match_id, step, n, c₀, …, cₙ₋₁)`` where ``cᵢ`` is 32 zero
    bytes for a seat that does not decide in this step (``None``)."""
    items = [_ZERO32 if c is None else _sized(c, KEY_SIZE, f"commitment of seat {seat}")
             for seat, c in enumerate(commitments)]
    return H(COMMIT_SET_DOMAIN, _sized(match_id, KEY_SIZE, "match id"), _text(step, "step"),
             len(items), *items)


# --------------------------------------------------------------------------- chance (F3, F5)


def chance_commitment(match_id: bytes, event_id: str, seat_key: bytes, secret: bytes) -> bytes:
    """A seat's commitment to its secret for one chance event:
    ``H("cryptcrawl/chance-commit/v1", match_id, event_id, seat_key, secret)``."""
    return H(CHANCE_COMMIT_DOMAIN,
             _sized(match_id, KEY_SIZE, "match id"),
             _text(event_id, "event id"),
             _sized(seat_key, KEY_SIZE, "seat key"),
             _sized(secret, KEY_SIZE, "chance secret"))


def check_chance_reveal(commitment: bytes, match_id: bytes, event_id: str, seat_key: bytes,
                        secret: bytes) -> None:
    """Check that ``secret`` opens a chance commitment; raise BadMessage if not."""
    _sized(commitment, KEY_SIZE, "chance commitment")
    if chance_commitment(match_id, event_id, seat_key, secret) != commitment:
        raise BadMessage(f"the secret revealed for chance event {event_id!r} does not open "
                         "the seat's commitment")


def chance_outcome_bytes(event_id: str, secrets: Sequence[bytes]) -> bytes:
    """``H("cryptcrawl/chance-outcome/v1", event_id, secret₀, …, secretₙ₋₁)``, secrets in seat
    order (at least one).  Unpredictable while any one secret is unknown."""
    if not secrets:
        raise BadMessage(f"chance event {event_id!r} has no secrets")
    items = [_sized(s, KEY_SIZE, f"chance secret {i}") for i, s in enumerate(secrets)]
    return H(CHANCE_OUTCOME_DOMAIN, _text(event_id, "event id"), *items)


def chance_outcome(event: ChanceEvent, secrets: Sequence[bytes]) -> str:
    """The outcome of ``event`` from every seat's secret (in seat order): the sampler
    ``sha256-ctr/v1`` keyed by :func:`chance_outcome_bytes`, picking among ``event.outcomes``."""
    key = chance_outcome_bytes(event.id, secrets)
    return event.outcomes[sample_index(key, len(event.outcomes))]


def chance_set_digest(match_id: bytes, stage: int,
                      entries: Iterable[tuple[str, int, bytes]]) -> bytes:
    """The digest of the chance commitments a seat holds, for a digest round's ``stage``.

    ``entries`` are ``(event_id, seat, commitment)`` triples in any order; they are digested in
    sorted ``(event_id, seat)`` order: ``H("cryptcrawl/chance-set/v1", match_id, stage, count,
    event_id, seat, commitment, …)``.  Two entries for one ``(event_id, seat)`` raise
    BadMessage (a digest covers one commitment per slot)."""
    checked: list[tuple[str, int, bytes]] = []
    for entry in entries:
        if not isinstance(entry, tuple | list) or len(entry) != 3:
            raise BadMessage("a chance-set entry is an (event id, seat, commitment) triple")
        event_id, seat, commitment = entry
        if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
            raise BadMessage(f"bad seat {seat!r} in a chance-set entry")
        checked.append((_text(event_id, "event id"), seat,
                        _sized(commitment, KEY_SIZE, "chance commitment")))
    checked.sort(key=lambda e: (e[0], e[1]))
    parts: list[bytes | str | int] = []
    previous: tuple[str, int] | None = None
    for event_id, seat, commitment in checked:
        if previous == (event_id, seat):
            raise BadMessage(f"two commitments of seat {seat} for chance event {event_id!r}")
        previous = (event_id, seat)
        parts += (event_id, seat, commitment)
    if isinstance(stage, bool) or not isinstance(stage, int):
        raise BadMessage(f"bad stage {stage!r}")
    return H(CHANCE_SET_DOMAIN, _sized(match_id, KEY_SIZE, "match id"), stage, len(checked),
             *parts)


def chance_open_digest(match_id: bytes, entries: Iterable[tuple[str, int, bytes]]) -> bytes:
    """The digest of the chance commitments a reveal opens against (protocol version 2): every
    contributor's commitment to each event the reveal's secrets are for, as
    ``(event_id, seat, commitment)`` triples digested in sorted ``(event_id, seat)`` order:
    ``H("cryptcrawl/chance-open/v2", match_id, count, event_id, seat, commitment, …)``."""
    ordered = sorted(entries, key=lambda e: (e[0], e[1]))
    parts: list[bytes | str | int] = []
    for event_id, seat, commitment in ordered:
        parts += (_text(event_id, "event id"), seat,
                  _sized(commitment, KEY_SIZE, "chance commitment"))
    return H(CHANCE_OPEN_DOMAIN, _sized(match_id, KEY_SIZE, "match id"), len(ordered), *parts)


# --------------------------------------------------------------------------- per-match secrets


class SeatSecrets:
    """A seat's salts and chance secrets for one match, derived from one per-match seed.

    Each value is 32 bytes of HKDF-SHA256 with ``salt = match_id``, ``ikm = seed`` and ``info``
    the length-prefixed concatenation (as in :func:`H`) of a domain, the seat's public key and
    the step or event id.  Deterministic: a peer restarted with the same seed derives the same
    values and so re-sends the same bytes.  The seed (drawn by the caller, stored before play)
    must be exactly 32 bytes; a bad seed, match id or key raises LocalProtocolError.
    """

    __slots__ = ("_derived", "_match_id", "_prk", "_seat_key")

    def __init__(self, seed: bytes, match_id: bytes, seat_key: bytes) -> None:
        for value, what in ((seed, "seed"), (match_id, "match id"), (seat_key, "seat key")):
            if not isinstance(value, bytes) or len(value) != KEY_SIZE:
                raise LocalProtocolError(f"the per-match {what} must be exactly {KEY_SIZE} bytes")
        self._match_id = match_id
        self._seat_key = seat_key
        # HKDF-SHA256 (RFC 5869) with the match id as salt: its extract step, once; each value
        # is then one expand block (32 bytes), one HMAC (see _derive).
        self._prk = hmac.digest(match_id, seed, "sha256")
        self._derived: dict[tuple[str, str], bytes] = {}

    @property
    def match_id(self) -> bytes:
        return self._match_id

    @property
    def seat_key(self) -> bytes:
        return self._seat_key

    def __repr__(self) -> str:  # never show the seed
        return (f"SeatSecrets(match_id={self._match_id.hex()[:16]}…, "
                f"seat={fingerprint(self._seat_key)})")

    def _derive(self, domain: str, label: str) -> bytes:
        derived = self._derived.get((domain, label))
        if derived is not None:
            return derived
        if not isinstance(label, str):
            raise LocalProtocolError(f"a derivation label is a string, not {type(label).__name__}")
        info = _length_prefixed((_check_domain(domain), self._seat_key, label.encode()))
        # HKDF-Expand of one block: T(1) = HMAC(PRK, info || 0x01), all KEY_SIZE bytes of it
        # (the same bytes as cryptography's HKDF; a test checks the two agree).
        derived = hmac.digest(self._prk, info + b"\x01", "sha256")
        self._derived[(domain, label)] = derived
        return derived

    def salt_for(self, step: str) -> bytes:
        """The 32-byte salt of this seat's play commitment in ``step``."""
        return self._derive(SALT_DOMAIN, step)

    def sealed_salt(self, slot: str) -> bytes:
        """The 32-byte salt of this seat's sealed value in ``slot``."""
        return self._derive(SEALED_SALT_DOMAIN, slot)

    def chance_secret(self, event_id: str) -> bytes:
        """This seat's 32-byte secret for the chance event ``event_id``."""
        return self._derive(CHANCE_SECRET_DOMAIN, event_id)

    def round_randomness(self, round_id: str, domain: str = ROUND_KEY_DOMAIN) -> bytes:
        """The 32 bytes this seat's X25519 key of private-knowledge round ``round_id`` is made
        from (fresh per round, and the same after a restart, so a re-sent key message names the
        same key); ``domain``: the match version's (protocol.wire.naming)."""
        return self._derive(domain, round_id)


# --------------------------------------------------------------------------- identities, signatures


def public_key_bytes(private_key: Ed25519PrivateKey) -> bytes:
    """The raw 32-byte Ed25519 public key of ``private_key``."""
    if not isinstance(private_key, Ed25519PrivateKey):
        raise LocalProtocolError("identity keys are Ed25519 private keys")
    return private_key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def fingerprint(public_key: bytes) -> str:
    """A short readable fingerprint of a 32-byte public key: the first 10 bytes of
    ``H("cryptcrawl/fingerprint/v1", key)`` as five dash-separated groups of four lowercase hex
    digits (``"3f2a-91bc-…"``)."""
    digest = H(FINGERPRINT_DOMAIN, _sized(public_key, KEY_SIZE, "public key")).hex()[:20]
    return "-".join(digest[i:i + 4] for i in range(0, 20, 4))


def _signed_bytes(domain: str, payload: bytes) -> bytes:
    if not isinstance(payload, bytes):
        raise LocalProtocolError(f"a signed payload is bytes, not {type(payload).__name__}")
    return _check_domain(domain) + b"\x00" + payload


def sign(private_key: Ed25519PrivateKey, domain: str, payload: bytes) -> bytes:
    """An Ed25519 signature (64 bytes) over ``domain`` (UTF-8), a zero byte, and ``payload``."""
    if not isinstance(private_key, Ed25519PrivateKey):
        raise LocalProtocolError("identity keys are Ed25519 private keys")
    return private_key.sign(_signed_bytes(domain, payload))


def ed25519_valid(public_key: bytes, signature: bytes, message: bytes) -> bool:
    """Is ``signature`` a valid Ed25519 signature of ``message`` by ``public_key``, under the
    strict rules of protocol.md §1.2 (libsodium's ``crypto_sign_verify_detached``): S < ℓ, R
    not of small order, A canonical and not of small order, and the cofactorless equation
    ``[S]B = R + [k]A`` compared as encodings.  Sizes must be 32 and 64 bytes."""
    if len(public_key) != KEY_SIZE or len(signature) != SIGNATURE_SIZE:
        return False
    try:
        crypto_sign_open(signature + message, public_key)
    except (nacl_exceptions.BadSignatureError, nacl_exceptions.ValueError,
            nacl_exceptions.TypeError):
        return False
    return True


def verify(public_key: bytes, domain: str, payload: bytes, signature: bytes) -> None:
    """Check a :func:`sign` signature; raise BadMessage if it is not valid for this key,
    domain and payload (or if the key or signature has the wrong size)."""
    message = _signed_bytes(domain, payload)
    key = _sized(public_key, KEY_SIZE, "public key")
    sig = _sized(signature, SIGNATURE_SIZE, "signature")
    if not ed25519_valid(key, sig, message):
        raise BadMessage(f"bad {domain} signature")
