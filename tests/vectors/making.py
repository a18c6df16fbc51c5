"""What the conformance-vector generators share (tests/vectors/generate_v1.py, generate_v2.py):
the in-memory network that writes each peer's match file deterministically, the misbehaving
clients, every adversarial run, the tampering helpers and the tampered files, for either
protocol version.

Every run takes the protocol ``version`` it plays; keys, nonces, seeds and bot choices derive
from fixed tags under ``cryptcrawl/vectors/v{version}/`` (``make_header``, ``random_decider``),
and Ed25519 signatures are deterministic.  The one random input of the code is HPKE's ephemeral
key in a private-knowledge delivery (``cryptography``'s HPKE draws it from the operating
system): every DELIVERY a seat sends here is opened with the round user's key and sealed again,
the same plaintext to the same key with the same ``info``, under an ephemeral key derived from
the tag (RFC 9180 base mode, done by hand below), and signed in its place.  A verifier cannot
tell the difference: any ephemeral key is a valid one.

A :class:`Vector`'s :class:`Expect` is what its attack must show in version 1's verdict (its
status, seat and words); version 2's expected fields are generate_v2's.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import hmac
import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import hpke
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from protocol.match.core import DecisionPending
from protocol.mesh import Network, Stalled, draw_partition
from protocol.wire.delivery import SIGNATURE_DOMAIN as DELIVERY_DOMAIN
from protocol.wire.delivery import delivery_info
from protocol.wire.encoding import encode
from protocol.wire.header import SignedHeader, sign_header
from protocol.wire.messages import (
    CORE_KINDS,
    AbsentBody,
    ActBody,
    ChanceCommitBody,
    ChanceDigestBody,
    ChanceRevealBody,
    CommitBody,
    DeliveryBody,
    EndBody,
    KeyReleaseBody,
    Kind,
    Message,
    RevealBody,
    SealKeyBody,
    sign_message,
)
from protocol.wire.naming import naming
from protocol.wire.transcript import file_start, frame, split_records

from benchmarks.scenario import RAIDERS, raiders
from cli.verify import run_verify
from engine.core import GameState
from engine.raiders.bots import RandomBot
from engine.sim import bot_key
from protocol.crypto import commit_set_digest, play_commitment, sign

Decider = Callable[[GameState[Any], int], str]


def tag_of(version: int) -> bytes:
    """The prefix of every tag of a version's vectors."""
    return b"cryptcrawl/vectors/v%d/" % version


# --------------------------------------------------------------------------- deterministic HPKE
# RFC 9180, base mode, DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, ChaCha20-Poly1305: the suite of
# protocol/wire/delivery.py, with the ephemeral key given instead of drawn.

_KEM_SUITE = b"KEM\x00\x20"
_HPKE_SUITE = b"HPKE\x00\x20\x00\x01\x00\x03"
_SUITE = hpke.Suite(hpke.KEM.X25519, hpke.KDF.HKDF_SHA256, hpke.AEAD.CHACHA20_POLY1305)


def _extract(suite: bytes, salt: bytes, label: bytes, ikm: bytes) -> bytes:
    return hmac.digest(salt or bytes(32), b"HPKE-v1" + suite + label + ikm, "sha256")


def _expand(suite: bytes, prk: bytes, label: bytes, info: bytes, size: int) -> bytes:
    labeled = size.to_bytes(2, "big") + b"HPKE-v1" + suite + label + info
    out, block, counter = b"", b"", 1
    while len(out) < size:
        block = hmac.digest(prk, block + labeled + bytes([counter]), "sha256")
        out += block
        counter += 1
    return out[:size]


def hpke_seal(plaintext: bytes, recipient: bytes, info: bytes, ephemeral: bytes) -> bytes:
    """HPKE single-shot seal (``enc || ciphertext``, as cryptography's ``Suite.encrypt``)."""
    secret_key = X25519PrivateKey.from_private_bytes(ephemeral)
    enc = secret_key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    dh = secret_key.exchange(X25519PublicKey.from_public_bytes(recipient))
    shared = _expand(_KEM_SUITE, _extract(_KEM_SUITE, b"", b"eae_prk", dh), b"shared_secret",
                     enc + recipient, 32)
    context = (b"\x00" + _extract(_HPKE_SUITE, b"", b"psk_id_hash", b"")
               + _extract(_HPKE_SUITE, b"", b"info_hash", info))
    secret = _extract(_HPKE_SUITE, shared, b"secret", b"")
    key = _expand(_HPKE_SUITE, secret, b"key", context, 32)
    nonce = _expand(_HPKE_SUITE, secret, b"base_nonce", context, 12)
    return enc + ChaCha20Poly1305(key).encrypt(nonce, plaintext, b"")


# --------------------------------------------------------------------------- the network


class VectorNetwork(Network):
    """:class:`Network` that (1) keeps each peer's match file as a network peer writes it —
    every message its feeds took, in the order they took them, and the second version of a
    proved fork (p2p/peer.py) — and (2) seals every DELIVERY deterministically (see the module
    docstring).  Seats rebuilt by the network (``rebuild``) are wrapped again."""

    def __init__(self, n: int, variant: str = "basic", tag: bytes = b"",
                 deciders: list[Decider] | None = None, *, rebuild: bool = False,
                 version: int) -> None:
        super().__init__(n, raiders(variant), tag_of(version) + tag, deciders, rebuild=rebuild,
                         version=version)
        self.version = version
        self.tag = tag_of(version) + tag
        self.stored: list[list[Message]] = [[] for _ in range(n)]
        self._chained = [[0] * n for _ in range(n)]
        self._forks = [[0] * n for _ in range(n)]
        for i in range(n):
            self.seal_deterministically(i)

    def deliver(self, i: int, message: Message) -> None:
        if i in self.crashed:
            return
        feed = self.cores[i].feeds[message.seat]
        super().deliver(i, message)
        s = message.seat
        taken = feed.messages[self._chained[i][s]:]
        self.stored[i].extend(taken)
        self._chained[i][s] += len(taken)
        forks = feed.equivocations[self._forks[i][s]:]
        self.stored[i].extend(proof.second for proof in forks)
        self._forks[i][s] += len(forks)
        self.seal_deterministically(i)

    def run_clock(self, i: int) -> bool:
        moved = super().run_clock(i)
        self.seal_deterministically(i)
        return moved

    def file(self, peer: int) -> bytes:
        """Peer ``peer``'s match file."""
        return file_start(self.header) + b"".join(frame(m.encode()) for m in self.stored[peer])

    def seal_deterministically(self, i: int) -> None:
        """Wrap seat ``i``'s client (unless it is wrapped already) so that every DELIVERY it
        sends is sealed under an ephemeral key derived from the tag."""
        local = self.seats[i]
        if "messages_to_send" in vars(local):
            return
        original = local.messages_to_send

        def send() -> list[Message]:
            out = original()
            if not any(m.kind is Kind.DELIVERY for m in out):
                return out
            for _ in out:
                local.sent.pop()
            return [self.resealed(i, m) for m in out]
        local.messages_to_send = send  # type: ignore[method-assign]

    def resealed(self, i: int, message: Message) -> Message:
        """Seat ``i`` signs ``message`` again (next in its feed), a DELIVERY sealed again."""
        local = self.seats[i]
        body = message.content
        if not isinstance(body, DeliveryBody):
            return local.sign_next(message.kind, message.body)
        r = local.core.rounds[body.round]
        info = delivery_info(local.core.match_id, r.seat, i, r.deliverers[i])
        torch = X25519PrivateKey.from_private_bytes(self.seats[r.seat].round_private(r.id))
        plaintext = _SUITE.decrypt(body.sealed, torch, info=info)
        return local.sign_next(Kind.DELIVERY, dataclasses.replace(
            body, sealed=self.seal(i, r.id, plaintext)))

    def seal(self, i: int, round_id: str, plaintext: bytes) -> bytes:
        """``plaintext`` sealed by seat ``i`` to the key of torch round ``round_id``."""
        r = self.seats[i].core.rounds[round_id]
        info = delivery_info(self.header.match_id, r.seat, i, r.deliverers[i])
        ephemeral = hashlib.sha256(self.tag + b"/hpke/%d/" % i + round_id.encode()).digest()
        return hpke_seal(plaintext, r.public_key, info, ephemeral)


# --------------------------------------------------------------------------- misbehaving clients


def torch_decider(seed: bytes, keen: bool = True) -> Decider:
    """Peeks with a torch whenever it may (``keen``), else plays a random legal action."""
    bot = RandomBot()
    attempts: dict[tuple[str, int], int] = {}

    def decide(state: GameState[Any], seat: int) -> str:
        legal = [state.format_action(a) for a in state.legal_actions(seat)]
        if keen and "torch" in legal:
            return "torch"
        step = state.waiting.step  # type: ignore[union-attr]
        n = attempts.get((step, seat), 0)
        attempts[(step, seat)] = n + 1
        return state.format_action(bot.choose(state.view(seat), bot_key(seed, step, seat, n)))
    return decide


def keen(version: int, n: int, tag: bytes, keen_seats: tuple[int, ...],
         variant: str = "basic", **kwargs: Any) -> VectorNetwork:
    return VectorNetwork(n, variant, tag, [torch_decider(b"d%d" % i, i in keen_seats)
                                           for i in range(n)], version=version, **kwargs)


def silence(net: Network, seat: int, when: Callable[[Message], bool]) -> list[Message]:
    """From the first message ``seat`` would send for which ``when`` holds, it sends nothing
    more.  Returns the messages withheld (the first one, signed but never sent)."""
    local = net.seats[seat]
    original = local.messages_to_send
    withheld: list[Message] = []

    def send() -> list[Message]:
        if withheld:
            return []
        out = []
        for message in original():
            if withheld or when(message):
                withheld.append(message)
                local.sent.pop()
                continue
            out.append(message)
        return out
    local.messages_to_send = send  # type: ignore[method-assign]
    return withheld


def rewrite_once(net: Network, seat: int, pick: Callable[[Message], bool],
                 make: Callable[[Message], tuple[Kind, Any] | None]) -> list[Message]:
    """The first message ``seat`` would send for which ``pick`` holds is replaced by one it
    signs from ``make(message)`` (kind and body; None keeps the original).  Returns the list
    the replacement goes to."""
    local = net.seats[seat]
    original = local.messages_to_send
    done: list[Message] = []

    def send() -> list[Message]:
        out = []
        for message in original():
            if not done and pick(message):
                replacement = make(message)
                if replacement is not None:
                    local.sent.pop()
                    message = local.sign_next(*replacement)
                    done.append(message)
            out.append(message)
        return out
    local.messages_to_send = send  # type: ignore[method-assign]
    return done


def finished(net: Network, absent: set[int]) -> None:
    """Every peer of a seat not in ``absent`` signed the result, and holds exactly ``absent``
    replaced (what the vector's description says)."""
    for i, core in enumerate(net.cores):
        if i not in absent and i not in net.crashed:
            assert core.signed and set(core.absent) == absent, (i, core.signed, core.absent)


def patient(net: Network, seat: int) -> None:
    """``seat`` decides last: not before it holds every other live decider's commitment (so
    it reveals at once, protocol.md §7.1)."""
    local, core = net.seats[seat], net.cores[seat]
    decide = local.decide

    def wait_for_the_others(state: GameState[Any], s: int) -> str:
        step = core.step
        others = (set(step.seats) - set(core.absent) - {s}) if step is not None else set()
        if step is None or not others <= set(step.commitments):
            raise DecisionPending
        return decide(state, s)
    local.decide = wait_for_the_others


def premature_reveal(net: Network, seat: int, action: Callable[[GameState[Any]], str], *,
                     when: Callable[[Message], bool], silent: bool = False,
                     commit_first: bool = False) -> list[str]:
    """At the first message ``seat`` owes for which ``when`` holds, during a step it decides
    in and has not committed to, it sends instead a REVEAL of ``action(state)`` — in place of
    its COMMIT, or (``commit_first``) after a COMMIT of it — with a commitment set over what it
    holds; with ``silent`` it sends nothing more.  Returns the steps it did it in."""
    local, core = net.seats[seat], net.cores[seat]
    original = local.messages_to_send
    done: list[str] = []

    def send() -> list[Message]:
        if done and silent:
            return []
        out = original()
        step = core.step
        if done or not out or not when(out[0]) or step is None or (
                seat not in step.seats or seat in core.absent) or seat in step.commitments:
            return out
        for _ in out:
            local.sent.pop()
        play = action(core.state)
        salt = local.secrets.salt_for(step.name)
        commitment = play_commitment(core.match_id, step.name, core.keys[seat], play, salt)
        held = [step.commitments.get(s) for s in range(core.n)]
        held[seat] = commitment
        messages = [local.sign_next(Kind.COMMIT, CommitBody(step.name, commitment))] if (
            commit_first) else []
        reveal = local.sign_next(Kind.REVEAL, RevealBody(
            step.name, play, salt, commit_set_digest(core.match_id, step.name, held)))
        if commit_first and reveal.heads:
            # (Version 2: its reveal names its own commitment, not yet taken when it signs.)
            local.sent.pop()
            heads = list(reveal.heads)
            heads[seat] = messages[0].hash
            reveal = sign_message(local.key, version=reveal.version, match_id=reveal.match_id,
                                  seat=seat, seq=reveal.seq, prev=reveal.prev, kind=reveal.kind,
                                  state=reveal.state, body=reveal.body, heads=heads)
            local.sent.append(reveal)
        messages.append(reveal)
        done.append(step.name)
        return messages
    local.messages_to_send = send  # type: ignore[method-assign]
    return done


def legal(state: GameState[Any], seat: int) -> list[str]:
    return [state.format_action(a) for a in state.legal_actions(seat)]


def step_of(message: Message) -> str:
    return str(getattr(message.content, "step", ""))


# --------------------------------------------------------------------------- vectors


@dataclass(frozen=True)
class Expect:
    """What a vector's verdict must say: its status (``unreadable`` for the command's own
    refusal), the seat at fault, words of the reason, words each found in some note."""

    status: str
    seat: int | None = None
    reason: str = ""
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Vector:
    name: str  # its path under v1/ (v2/), without ".crawl"
    description: str
    data: bytes
    expect: Expect
    net: Any = dataclasses.field(default=None, compare=False, repr=False)  # (its network)

    @property
    def category(self) -> str:
        return self.name.split("/")[0]


def valid(*notes: str) -> Expect:
    return Expect("valid", notes=notes)


def invalid(seat: int | None, reason: str) -> Expect:
    return Expect("invalid", seat, reason)


def incomplete(reason: str, *notes: str) -> Expect:
    return Expect("incomplete", None, reason, notes)


# ------------------------------------------------------------------------- honest

HONEST: tuple[tuple[int, str, bytes | None], ...] = (
    (3, "basic", None), (3, "tactical", None), (4, "basic", None),
    (4, "tactical", b"scramble/4-tactical"), (5, "basic", b"scramble/5-basic"),
    (5, "tactical", None),
)


def honest_network(version: int, players: int, variant: str, scramble: bytes | None
                   ) -> VectorNetwork:
    net = VectorNetwork(players, variant, b"honest/%d-%s" % (players, variant.encode()),
                        version=version)
    net.pump(scramble=None if scramble is None else tag_of(version) + scramble)
    return net


def honest_vectors(version: int, honest: tuple[tuple[int, str, bytes | None], ...] = HONEST
                   ) -> tuple[list[Vector], VectorNetwork]:
    out = []
    base: VectorNetwork | None = None
    for players, variant, scramble in honest:
        net = honest_network(version, players, variant, scramble)
        if (players, variant) == (3, "basic"):
            base = net
        order = ("every link reorders and delays (each peer takes the messages in its own "
                 "order)" if scramble else "every message reaches every peer in the order sent")
        out.append(Vector(
            f"honest/{players}-{variant}",
            f"A whole {variant} match of {players} seats, random bots; {order}. The file of "
            "seat 0's peer.", net.file(0), valid(), net))
    assert base is not None
    return out, base


# ------------------------------------------------------------------------- adversarial


def replaced_silent(version: int) -> Vector:
    net = VectorNetwork(3, tag=b"adversarial/replaced", version=version)
    withheld = silence(net, 2, lambda m: m.kind is Kind.REVEAL and step_of(m).startswith("L2"))
    net.run_with_timeouts()
    assert withheld
    finished(net, {2})
    forfeit = ("; it withheld the play it had committed to, so it forfeits where the step "
               "settles (protocol.md §7.7) and cannot win") if version >= 2 else ""
    return Vector(
        "adversarial/replaced-seat",
        "Seat 2 stops sending at its first reveal of level 2 (its commitment is out). After "
        f"both timeouts seats 0 and 1 vote it absent{forfeit}; its zombie plays the rest, "
        "seats 0 and 1 sign the result. The file of seat 0.",
        net.file(0), valid("seat 2 was replaced by its zombie", "played by its zombie",
                           *(["seat 2 forfeited where it was to decide: it withheld its "
                              "REVEAL"] if version >= 2 else [])))


def _hidden_reveal(net: Network) -> Callable[[Message], bool]:
    def pick(message: Message) -> bool:
        if message.kind is not Kind.CHANCE_REVEAL:
            return False
        w = net.cores[0].state.waiting
        event = getattr(w, "event", None)
        return getattr(getattr(event, "visibility", None), "name", "") == "HIDDEN"
    return pick


def redraw(version: int) -> Vector:
    net = VectorNetwork(4, tag=b"adversarial/redraw", version=version)
    withheld = silence(net, 3, _hidden_reveal(net))
    net.run_with_timeouts()
    assert withheld
    finished(net, {3})
    forfeit = (" Every other secret of the room it withheld was revealed first, so it "
               "withheld: it forfeits at its next decision (protocol.md §7.7) and cannot "
               "win.") if version >= 2 else ""
    return Vector(
        "adversarial/redraw",
        "Seat 3 stops sending when it owes its secret for a face-down room being turned. It is "
        "voted absent; every hidden event it committed to and never revealed is drawn again "
        f"under a new id from the three seats left.{forfeit} The file of seat 0.",
        net.file(0), valid("seat 3 was replaced", "drawn again", "drawn without seat 3",
                           *(["seat 3 forfeited where it was to decide: it withheld its "
                              "secret"] if version >= 2 else [])))


def false_absence(version: int, variant: str) -> Vector:
    net = VectorNetwork(3, variant, b"adversarial/false-absence-" + variant.encode(),
                        version=version)
    kind = Kind.COMMIT if variant == "basic" else Kind.ACT
    held = silence(net, 2, lambda m: m.kind is kind and step_of(m).startswith("L1.R3"))
    net.pump()
    assert held, "seat 2 never got to the third room"
    count = net.cores[0].cursor[2]
    for voter in (0, 1):  # they vote seat 2 absent although its message is on its way
        net.queue.append(net.seats[voter].sign_next(Kind.ABSENT, AbsentBody(2, count)))
    local = net.seats[2]
    del local.messages_to_send  # the honest client again
    net.seal_deterministically(2)
    local.sent.append(held[0])
    local.pending_reveal.clear()
    local.restore(list(local.sent))
    net.queue.append(held[0])  # its message arrives after the votes
    net.run_with_timeouts()
    finished(net, set())
    where = "commitment" if variant == "basic" else "action"
    return Vector(
        f"adversarial/false-absence-reclaim-{variant}",
        f"{variant.capitalize()} variant. Seat 2's {where} in room L1.R3 is late; seats 0 and "
        "1 vote it absent before it arrives (a false absence): seat 2 is replaced, its late "
        "message is skipped as stale, it sends RECLAIM, both welcome it, and it plays again "
        "from the next step; all three sign. The file of seat 2.",
        net.file(2), valid("seat 2 was replaced", "seat 2 reclaimed", "stale"), net)


def stuck_seat(version: int) -> Vector:
    net = VectorNetwork(3, tag=b"adversarial/stuck", version=version)
    local = net.seats[2]
    original = local.messages_to_send
    done: list[Message] = []

    def send() -> list[Message]:
        if done:
            return []
        out = original()
        if out and out[0].kind is Kind.COMMIT:
            for _ in out:
                local.sent.pop()
            done.append(local.sign_next(Kind.KEY_RELEASE,
                                        KeyReleaseBody("torch.2.nothing", bytes(32))))
            return list(done)
        return out
    local.messages_to_send = send  # type: ignore[method-assign]
    net.run_with_timeouts(limit=4)
    assert done
    finished(net, {2})
    return Vector(
        "adversarial/stuck-seat",
        "Seat 2 sends, in place of its first commitment, a KEY_RELEASE for a torch round that "
        "never opens, then nothing: the message is in hand but can never be taken (the seat "
        "is stuck). Seats 0 and 1 time it out, vote it absent, its zombie plays. The file of "
        "seat 0.", net.file(0), valid("seat 2 was replaced", "absent"))


def lying_delivery(version: int, how: str) -> Vector:
    net = keen(version, 4, b"adversarial/lying-delivery-" + how.encode(), (0,))
    liar = net.seats[2]

    def lie(message: Message) -> tuple[Kind, Any]:
        body = message.content
        assert isinstance(body, DeliveryBody)
        r = liar.core.rounds[body.round]
        if how == "unopenable":
            sealed = bytearray(body.sealed)
            sealed[40] ^= 0x01  # inside the ciphertext: the AEAD tag no longer matches
            return Kind.DELIVERY, dataclasses.replace(body, sealed=bytes(sealed))
        # Sealed properly and signed inside, but the secrets open none of its commitments.
        fake = tuple((e, hashlib.sha256(b"fake" + e.encode()).digest())
                     for e in r.deliverers[2])
        info = delivery_info(net.header.match_id, r.seat, 2, r.deliverers[2])
        payload = encode(fake)
        inner = sign(liar.key, DELIVERY_DOMAIN, info + payload)
        sealed_ = net.seal(2, r.id, encode((payload, inner)))
        return Kind.DELIVERY, dataclasses.replace(body, sealed=sealed_)
    done = rewrite_once(net, 2, lambda m: m.kind is Kind.DELIVERY, lie)
    net.pump()
    assert done
    finished(net, set())
    what = ("whose sealed bytes do not open with the torch key" if how == "unopenable" else
            "that opens, signed inside, but whose secrets do not open its chance commitments")
    return Vector(
        f"adversarial/lying-delivery-{how}",
        f"Seat 0 uses torches whenever it can. Seat 2 answers its first torch round with a "
        f"delivery {what}. Seat 0 publishes the round's key at once to prove it; every peer "
        "blames seat 2 (blamed, not replaced: it plays on and signs). The file of seat 1.",
        net.file(1), invalid(2, "lies: it does not hold its committed secrets"))


def lying_reveal(version: int, what: str) -> Vector:
    net = VectorNetwork(3, tag=b"adversarial/lying-reveal-" + what.encode(), version=version)
    local = net.seats[1]

    def wrong(message: Message) -> tuple[Kind, Any]:
        body = message.content
        assert isinstance(body, RevealBody)
        salt, action = body.salt, body.action
        if what == "salt":
            salt = hashlib.sha256(b"another salt").digest()
        else:
            state = local.core.state
            action = next(state.format_action(a) for a in state.legal_actions(1)
                          if state.format_action(a) != body.action)
        return Kind.REVEAL, dataclasses.replace(body, action=action, salt=salt)
    done = rewrite_once(net, 1, lambda m: m.kind is Kind.REVEAL and any(
        x.kind is Kind.COMMIT and step_of(x) == step_of(m) for x in local.sent), wrong)
    net.pump()
    assert done
    finished(net, {1})
    lie = "another salt" if what == "salt" else "another legal action"
    return Vector(
        f"adversarial/lying-reveal-{what}",
        f"Seat 1 opens its first commitment with {lie}: the REVEAL does not open its COMMIT. "
        "Every peer blames seat 1 and replaces it; seats 0 and 2 finish. The file of seat 0.",
        net.file(0), invalid(1, "does not open its commitment"))


def false_end(version: int) -> Vector:
    net = VectorNetwork(3, tag=b"adversarial/false-end", version=version)

    def lie(message: Message) -> tuple[Kind, Any]:
        body = message.content
        assert isinstance(body, EndBody)
        return Kind.END, EndBody(hashlib.sha256(b"another result").digest(), body.transcript)
    done = rewrite_once(net, 2, lambda m: m.kind is Kind.END, lie)
    net.pump()
    assert done
    finished(net, {2})
    return Vector(
        "adversarial/false-end",
        "Seat 2 signs an END naming another final state than the match reached. It is blamed "
        "and replaced; seats 0 and 1 sign the result. The file of seat 0.",
        net.file(0), invalid(2, "final"))


def proved_fork(version: int) -> Vector:
    net = VectorNetwork(3, tag=b"adversarial/fork", rebuild=True, version=version)
    while not any(m.kind is Kind.COMMIT for m in net.seats[1].sent):
        net.pump(limit=1, partial=True)
    net.land_in_flight()
    forker = net.seats[1]
    first = next(m for m in forker.sent if m.kind is Kind.COMMIT)
    step = step_of(first)
    other = sign_message(forker.key, version=version, match_id=first.match_id, seat=1,
                         seq=first.seq, prev=first.prev, kind=Kind.COMMIT, state=first.state,
                         body=CommitBody(step, play_commitment(
                             first.match_id, step, net.header.header.seats[1].key, "play 1",
                             hashlib.sha256(b"fork salt").digest())), heads=first.heads)
    for i in range(3):  # the second version, relayed to every peer: the proof meets
        net.deliver(i, other)
    net.run_with_timeouts()
    finished(net, {1})
    return Vector(
        "adversarial/proved-fork",
        f"Seat 1 signs two different COMMITs for one slot of its feed (message {first.seq}, "
        f"step {step}); both reach every peer, which holds the pair as proof: seat 1 is "
        "replaced at the fork and seats 0 and 2 finish. The file of seat 0 holds both "
        "versions.", net.file(0), invalid(1, f"equivocation at sequence number {first.seq}"))


def key_never_published(version: int) -> Vector:
    for attempt in range(10):  # (the first match in which seat 1 gets a torch)
        net = keen(version, 4, b"adversarial/key-never-published/%d" % attempt, (1,))
        withheld = silence(net, 1, lambda m: m.kind is Kind.KEY_RELEASE)
        net.run_with_timeouts()
        if withheld:
            break
    assert withheld
    finished(net, {1})
    return Vector(
        "adversarial/key-never-published",
        "Seat 1 uses a torch and goes silent when it owes the round's KEY_RELEASE. It is voted "
        "absent; the deliveries it received can never be checked; seats 0, 2 and 3 finish. "
        "The file of seat 0.",
        net.file(0), valid("seat 1 was replaced", "never published"))


def deliverer_leaves(version: int) -> Vector:
    net = keen(version, 4, b"adversarial/deliverer-leaves", (0, 1, 2, 3))
    delivered: list[Message] = []

    def after_delivery(message: Message) -> bool:
        if delivered:
            return True
        if message.kind is Kind.DELIVERY:
            delivered.append(message)
        return False
    silence(net, 1, after_delivery)
    net.run_with_timeouts()
    assert delivered
    finished(net, {1})
    return Vector(
        "adversarial/deliverer-leaves",
        "Every seat uses torches. Seat 1 delivers its secrets to a torch round and then goes "
        "silent: it is replaced, the torch user publishes the round's key, and seat 1's "
        "secrets for those rooms come from its own signed delivery (not drawn again). The "
        "file of seat 0.", net.file(0), valid("seat 1 was replaced", "key published"))


def lone_survivor(version: int) -> Vector:
    net = VectorNetwork(3, tag=b"adversarial/lone-survivor", version=version)
    silence(net, 1, lambda m: m.seq >= 20)
    silence(net, 2, lambda m: m.seq >= 20)
    with contextlib.suppress(Stalled):
        net.run_with_timeouts(limit=6)
    assert not net.cores[0].signed and not net.cores[0].absent
    return Vector(
        "adversarial/lone-survivor",
        "Seats 1 and 2 both go silent from their 21st message. Seat 0 votes both absent, but a "
        "vote needs every other live seat and a match needs two players: nobody is replaced, "
        "the file stops where the match did. The file of seat 0.",
        net.file(0), incomplete("the match stops before its end"))


def votes_that_do_not_pass(version: int) -> Vector:
    net = VectorNetwork(4, tag=b"adversarial/partial-vote", version=version)
    held = silence(net, 2, lambda m: m.kind is Kind.COMMIT and step_of(m).startswith("L1.R3"))
    net.pump()
    assert held
    count = net.cores[0].cursor[2]
    for voter in (0, 1):  # seat 3 does not join the claim
        net.queue.append(net.seats[voter].sign_next(Kind.ABSENT, AbsentBody(2, count)))
    local = net.seats[2]
    del local.messages_to_send
    net.seal_deterministically(2)
    local.sent.append(held[0])
    local.pending_reveal.clear()
    local.restore(list(local.sent))
    net.queue.append(held[0])
    net.pump()
    finished(net, set())
    return Vector(
        "adversarial/absence-without-every-vote",
        "Four seats. Seats 0 and 1 vote seat 2 absent while its commitment is late; seat 3 "
        "holds it and answers present. The vote never passes: nobody is replaced and all four "
        "sign. The file of seat 3.", net.file(3), valid())


def other_spelling(version: int) -> Vector:
    net = VectorNetwork(3, tag=b"adversarial/other-spelling", version=version)
    cheat = net.seats[2]

    def decided(seat: int) -> tuple[str, Any, tuple[str, ...]]:
        text = cheat.decide(cheat.decision_state(), seat)
        parsed = cheat.core.state.parse_action(seat, text)
        return cheat.core.state.format_action(parsed).upper(), parsed, ()
    cheat._decided = decided  # type: ignore[method-assign]
    net.run_with_timeouts()
    finished(net, {2})
    return Vector(
        "adversarial/other-spelling",
        "Seat 2 commits to, and reveals, its card spelled in capitals (\"PLAY 4\"): the engine "
        "parses it, but it is not the engine's notation, and one action has one string "
        "(protocol.md §7.1). Every peer blames it at the reveal and replaces it; seats 0 and 1 "
        "finish. The file of seat 0.",
        net.file(0), invalid(2, "illegal"))


def illegal_play(version: int) -> Vector:
    net = VectorNetwork(3, tag=b"adversarial/illegal-play", version=version)
    cheat = net.seats[0]

    def commit_illegal(message: Message) -> tuple[Kind, Any]:
        body = message.content
        assert isinstance(body, CommitBody)
        state = cheat.core.state
        legal = {state.format_action(a) for a in state.legal_actions(0)}
        bad = next(a for a in ("play sword", "play key", "play crystal", "play torch")
                   if a not in legal)
        salt = cheat.secrets.salt_for(body.step)
        cheat.pending_reveal[body.step] = (bad, salt)
        return Kind.COMMIT, CommitBody(body.step, play_commitment(
            cheat.core.match_id, body.step, cheat.core.keys[0], bad, salt))
    done = rewrite_once(net, 0, lambda m: m.kind is Kind.COMMIT, commit_illegal)
    net.pump()
    assert done
    finished(net, {0})
    return Vector(
        "adversarial/illegal-play",
        "Seat 0 commits to, and reveals, a card it does not hold. Every peer blames it when "
        "the reveal is checked against the rules and replaces it; seats 1 and 2 finish. The "
        "file of seat 1.",
        net.file(1), invalid(0, "illegal"))


def lying_chance_secret(version: int) -> Vector:
    net = VectorNetwork(3, tag=b"adversarial/chance-secret", version=version)

    def wrong_secret(message: Message) -> tuple[Kind, Any]:
        body = message.content
        assert isinstance(body, ChanceRevealBody)
        # (Version 2: the other secrets of the batch kept, which its commitment set covers.)
        rest = body.secrets[1:] if version >= 2 else ()
        return Kind.CHANCE_REVEAL, dataclasses.replace(
            body, secrets=((body.secrets[0][0], bytes(32)), *rest))
    done = rewrite_once(net, 0, lambda m: m.kind is Kind.CHANCE_REVEAL, wrong_secret)
    net.pump()
    assert done
    finished(net, {0})
    return Vector(
        "adversarial/lying-chance-secret",
        "Seat 0 reveals, for the first chance event, a secret that does not open its chance "
        "commitment. Every peer blames it and replaces it; seats 1 and 2 finish. The file of "
        "seat 1.",
        net.file(1), invalid(0, "does not open its commitment"))


def lying_early_secret(version: int) -> Vector:
    net = VectorNetwork(3, tag=b"adversarial/early-secret", version=version)

    def lying(message: Message) -> tuple[Kind, Any]:
        body = message.content
        assert isinstance(body, RevealBody)
        return Kind.REVEAL, dataclasses.replace(body, chance=((body.chance[0][0], bytes(32)),))
    done = rewrite_once(net, 0, lambda m: isinstance(m.content, RevealBody)
                        and bool(m.content.chance), lying)
    net.pump()
    assert done
    finished(net, {0})
    return Vector(
        "adversarial/lying-early-secret",
        "Seat 0's REVEAL carries its secret for the face-down room the step turns early "
        "(protocol.md §7.4), but the secret does not open its chance commitment. Every peer "
        "blames it and replaces it; seats 1 and 2 finish. The file of seat 1.", net.file(1),
        invalid(0, "does not open"))


def diverged_state(version: int) -> Vector:
    net = VectorNetwork(3, tag=b"adversarial/diverged-state", version=version)

    local = net.seats[0]
    original = local.messages_to_send
    done: list[Message] = []

    def send() -> list[Message]:
        out = original()
        if done or not out or out[0].kind is not Kind.COMMIT:
            return out
        message = out[0]
        local.sent.pop()
        forged = sign_message(local.key, version=version, match_id=message.match_id, seat=0,
                              seq=message.seq, prev=message.prev, kind=message.kind,
                              state=hashlib.sha256(b"another state").digest(), body=message.body,
                              heads=message.heads)
        local.sent.append(forged)
        done.append(forged)
        return [forged]
    local.messages_to_send = send  # type: ignore[method-assign]
    net.pump()
    assert done
    finished(net, {0})
    return Vector(
        "adversarial/diverged-state",
        "Seat 0 signs a commitment carrying a public state digest other than the state the "
        "match is in. Every peer blames it and replaces it; seats 1 and 2 finish. The file of "
        "seat 1.",
        net.file(1), invalid(0, "public state digest"))


def partition(version: int, seed: bytes, mode: str, name: str, words: str,
              notes: tuple[str, ...]) -> Vector:
    """A partition of ``python -m benchmarks partitions`` (:func:`draw_partition`), played as
    :func:`protocol.mesh.play_partition` plays it, on peers that rebuild as network peers do."""
    p = draw_partition(seed, RAIDERS, mode)
    net = VectorNetwork(p.players, tag=b"faults/partition/" + seed, rebuild=True,
                        version=version)
    net.pump(limit=p.start, partial=True)
    net.land_in_flight()
    if p.crashed is not None:
        net.crash(p.crashed)
    held = net.stall(set(p.links), rounds=p.rounds)
    net.heal(held, order=p.seed)
    net.run_with_timeouts(limit=12)
    witness = min(i for i in range(p.players) if i != p.crashed)
    votes = [m for m in net.stored[witness] if isinstance(m.content, AbsentBody)]
    assert any(m.content.absent == 2 for m in votes), "no settlement"  # type: ignore[union-attr]
    return Vector(
        f"faults/{name}",
        f"No cheat: links stall past both timeouts, then heal (draw_partition({seed!r}, "
        f"{mode!r}): {p.describe()}). Votes cross; a dead end is settled (ABSENT with verdict "
        f"2). {words} The file of seat {witness}.", net.file(witness), valid(*notes))


def fault_vectors(version: int) -> list[Vector]:
    return [
        partition(version, b"crash-0", "crash", "partition-crash-settled",
                  "The crashed seat is replaced; the others finish.",
                  ("seat 0 was replaced by its zombie",)),
        partition(version, b"cut-off-7", "cut-off", "partition-cut-off-reclaim",
                  "The seat cut off is replaced, comes back, reclaims and is welcomed.",
                  ("seat 1 was replaced by its zombie", "seat 1 reclaimed its seat")),
    ]


def copied_commitment(version: int) -> Vector:
    net = VectorNetwork(3, tag=b"adversarial/copied-commitment", version=version)

    def copy_seat_0(message: Message) -> tuple[Kind, Any] | None:
        theirs = [m.content for m in net.log if m.seat == 0 and m.kind is Kind.COMMIT
                  and step_of(m) == step_of(message)]
        if not theirs:
            return None
        body = theirs[-1]
        assert isinstance(body, CommitBody)
        return Kind.COMMIT, CommitBody(body.step, body.commitment)
    done = rewrite_once(net, 2, lambda m: m.kind is Kind.COMMIT, copy_seat_0)
    net.pump()
    assert done
    finished(net, {2})
    return Vector(
        "adversarial/copied-commitment",
        "Seat 2 sends, as its own commitment, a copy of seat 0's commitment of the step (to "
        "play whatever seat 0 plays); it cannot open it with its own key. Every peer blames it "
        "and replaces it; seats 0 and 1 finish. The file of seat 1.",
        net.file(1), invalid(2, "does not open its commitment"))


def early_secret_not_due(version: int) -> Vector:
    net = VectorNetwork(3, tag=b"adversarial/early-secret-not-due", version=version)
    local = net.seats[0]

    def carries(message: Message) -> tuple[Kind, Any]:
        body = message.content
        assert isinstance(body, RevealBody)
        chance_set = local.core.chance.open_digest(("L1.R5",)) if version >= 2 else b""
        return Kind.REVEAL, dataclasses.replace(
            body, chance=(("L1.R5", local.secrets.chance_secret("L1.R5")),),
            chance_set=chance_set)
    done = rewrite_once(net, 0, lambda m: isinstance(m.content, RevealBody)
                        and not m.content.chance, carries)
    net.pump()
    assert done
    finished(net, {0})
    return Vector(
        "adversarial/early-secret-not-due",
        "Seat 0's REVEAL carries its (true) secret for room L1.R5 where no early turn is due: "
        "a secret shown before its time. Every peer blames it and replaces it; seats 1 and 2 "
        "finish. The file of seat 1.", net.file(1), invalid(0, "where none was due"))


def illegal_direct_reveal(version: int) -> Vector:
    net = VectorNetwork(3, tag=b"adversarial/illegal-direct-reveal", version=version)
    patient(net, 2)
    core = net.cores[2]
    done = premature_reveal(
        net, 2, lambda st: next(f"play {c}" for c in ("key", "sword", "1", "2", "3", "4", "5")
                                if f"play {c}" not in legal(st, 2)),
        when=lambda m: m.kind is Kind.REVEAL and core.step is not None
        and 2 not in core.step.commitments)
    net.pump()
    assert done
    finished(net, {2})
    return Vector(
        "adversarial/illegal-direct-reveal",
        "Seat 2 always decides last, so it reveals at once (a REVEAL with no COMMIT before it, "
        "protocol.md §7.1); once, the play it reveals so is a card it does not hold. Every "
        "peer blames it and replaces it. The file of seat 0.",
        net.file(0), invalid(2, "illegal action"))


def revealed_torch_peek(version: int) -> Vector:
    net = VectorNetwork(3, tag=b"adversarial/revealed-torch-peek", version=version)
    patient(net, 2)
    core = net.cores[2]
    done = premature_reveal(net, 2, lambda st: "torch", when=lambda m: m.kind in (
        Kind.COMMIT, Kind.REVEAL) and "torch" in legal(core.state, 2), commit_first=True)
    net.run_with_timeouts(limit=6)
    assert done
    finished(net, {2})
    return Vector(
        "adversarial/revealed-torch-peek",
        "Seat 2 commits to and reveals a torch peek — a free action, taken on its own with an "
        "ACT, never a play of the joint decision. Every peer blames it as an illegal play and "
        "replaces it. The file of seat 0.",
        net.file(0), invalid(2, "revealed an illegal action 'torch'"))


def reveal_instead_of_delivery(version: int) -> Vector:
    for attempt in range(10):  # (the first match where seat 2 owes a delivery mid-decision)
        net = keen(version, 3, b"adversarial/reveal-instead-of-delivery/%d" % attempt, (0,))
        local, core = net.seats[2], net.cores[2]
        decide = local.decide

        def owes_delivery(core: Any = core) -> bool:
            return any(not r.void and r.key_message is not None and 2 in r.deliverers
                       and 2 not in r.deliveries for r in core.rounds.values())

        def after_the_torch(state: GameState[Any], seat: int, core: Any = core,
                            decide: Decider = decide, owes: Any = owes_delivery) -> str:
            step = core.step  # (it waits until it owes seat 0's round its secrets)
            if step is not None and 0 not in step.commitments and not owes():
                raise DecisionPending
            return decide(state, seat)
        local.decide = after_the_torch
        done = premature_reveal(net, 2, lambda st: legal(st, 2)[0],
                                when=lambda m: m.kind is Kind.DELIVERY, silent=True)
        net.run_with_timeouts(limit=6)
        if done:
            break
    assert done
    finished(net, {2})
    return Vector(
        "adversarial/reveal-instead-of-delivery",
        "Seat 2 owes its secrets to seat 0's torch round; it sends a REVEAL in place of its "
        "COMMIT instead, and nothing more. Seat 0 cannot commit before its round is complete, "
        "so that reveal could never be taken; an honest seat's delivery would come first, so "
        "it is blamed, and seats 0 and 1 finish. The file of seat 0.",
        net.file(0), invalid(2, "before delivering to seat 0's torch round"))


def reveal_while_welcoming(version: int) -> Vector:
    net = VectorNetwork(3, tag=b"adversarial/reveal-while-welcoming", version=version)
    patient(net, 1)
    core = net.cores[1]
    done = premature_reveal(
        net, 1, lambda st: legal(st, 1)[0],
        when=lambda m: m.kind is Kind.COMMIT and 2 in core.seats.reclaims
        and 1 in core.seats.welcomed.get(2, set()))
    held = silence(net, 2, lambda m: m.kind is Kind.COMMIT and step_of(m).startswith("L1.R3"))
    net.pump()
    assert held
    count = net.cores[0].cursor[2]
    for voter in (0, 1):
        net.queue.append(net.seats[voter].sign_next(Kind.ABSENT, AbsentBody(2, count)))
    local = net.seats[2]
    del local.messages_to_send
    net.seal_deterministically(2)
    local.sent.append(held[0])
    local.pending_reveal.clear()
    local.restore(list(local.sent))
    net.queue.append(held[0])
    net.run_with_timeouts()
    assert done
    # (Version 2: seat 2 is still rejoining when seat 1 is replaced, so one seat is left live:
    # the match ends at the floor, protocol.md 7.7.)
    finished(net, {1} if version < 2 else {1, 2})
    ending = ("seats 0 and 2 finish" if version < 2 else
              "seat 2 has not rejoined yet, so one seat is left live and the match ends there")
    return Vector(
        "adversarial/reveal-while-welcoming",
        "Seats 0 and 1 falsely vote seat 2 absent; seat 2 reclaims. Seat 1 welcomes it and, at "
        "the next step, reveals at once: taken, it would let seat 2 rejoin that step after "
        "seeing seat 1's play (an honest seat never reveals at once while a seat reclaims). "
        f"Seat 1 is blamed and replaced; {ending}. The file of seat 0.",
        net.file(0), invalid(1, "which it welcomed back, reclaims"))


def two_silent(version: int) -> Vector:
    net = VectorNetwork(5, tag=b"adversarial/two-silent", version=version)
    for seat in (1, 4):
        silence(net, seat, lambda m: m.kind is Kind.COMMIT and step_of(m).startswith("L3"))
    net.run_with_timeouts()
    finished(net, {1, 4})
    return Vector(
        "adversarial/two-seats-replaced",
        "Five seats; seats 1 and 4 both go silent at their first commitment of level 3. Both "
        "are voted absent and replaced; seats 0, 2 and 3 finish. The file of seat 0.",
        net.file(0), valid("seat 1 was replaced", "seat 4 was replaced"))


def reveal_on_silent_seat(version: int) -> Vector:
    net = VectorNetwork(4, tag=b"adversarial/reveal-on-silent", version=version)
    silence(net, 2, lambda m: m.kind is Kind.COMMIT)
    done = premature_reveal(net, 3, lambda st: legal(st, 3)[0],
                            when=lambda m: m.kind is Kind.COMMIT, silent=True)
    net.run_with_timeouts(limit=6)
    assert done
    finished(net, {2, 3})
    return Vector(
        "adversarial/reveal-on-silent-seat",
        "Four seats. Seat 2 goes silent at its first commitment; seat 3 sends, in place of its "
        "own, a REVEAL (which waits for every other commitment, seat 2's among them) and then "
        "nothing, not even its vote on seat 2. Seats 0 and 1 vote seat 3 out as stuck, then "
        "seat 2, and finish. The file of seat 0.",
        net.file(0), valid("seat 2 was replaced", "seat 3 was replaced"))


def adversarial_vectors(version: int) -> list[Vector]:
    v = version
    return [
        replaced_silent(v), redraw(v), false_absence(v, "basic"), false_absence(v, "tactical"),
        stuck_seat(v), lying_delivery(v, "unopenable"), lying_delivery(v, "wrong-secrets"),
        lying_reveal(v, "action"), lying_reveal(v, "salt"), false_end(v), proved_fork(v),
        key_never_published(v), deliverer_leaves(v), lone_survivor(v),
        votes_that_do_not_pass(v), illegal_play(v), lying_chance_secret(v),
        lying_early_secret(v), diverged_state(v), copied_commitment(v), early_secret_not_due(v),
        illegal_direct_reveal(v), revealed_torch_peek(v), reveal_instead_of_delivery(v),
        reveal_while_welcoming(v), two_silent(v), reveal_on_silent_seat(v),
        *([other_spelling(v)] if v >= 2 else []),
    ]


# ------------------------------------------------------------------------- tampered


@dataclass
class Base:
    """The file tampered with: its records and its network (keys, header)."""

    net: VectorNetwork
    data: bytes

    def __post_init__(self) -> None:
        self.payloads: list[bytes] = []
        for _, payload, _ in split_records(self.data):
            assert payload is not None
            self.payloads.append(payload)
        self.messages = [Message.decode(p) for p in self.payloads[2:]]

    def start(self, index: int) -> int:
        """The byte offset of record ``index``'s payload."""
        return sum(4 + len(p) for p in self.payloads[:index]) + 4

    def record_of(self, message: Message) -> int:
        return 2 + next(i for i, m in enumerate(self.messages) if m is message)

    def find(self, pick: Callable[[Message], bool], nth: int = 0) -> Message:
        return [m for m in self.messages if pick(m)][nth]

    def key(self, seat: int) -> Ed25519PrivateKey:
        return self.net.keys[seat]


def assemble(payloads: Iterable[bytes]) -> bytes:
    return b"".join(len(p).to_bytes(4, "big") + p for p in payloads)


def flipped(data: bytes, offset: int, mask: int = 0x01) -> bytes:
    out = bytearray(data)
    out[offset] ^= mask
    return bytes(out)


def field_offsets(message: Message) -> dict[str, tuple[int, int]]:
    """Where each envelope field lies in the message's payload: name -> (start, end)."""
    heads = (("heads", message.heads),) if message.version >= 2 else ()
    values = (("version", message.version), ("match_id", message.match_id),
              ("seat", message.seat), ("seq", message.seq), ("prev", message.prev),
              ("kind", int(message.kind)), ("state", message.state), *heads,
              ("body", message.body), ("sig", message.sig))
    out, at = {}, 1  # (after the fixarray head)
    for name, value in values:
        size = len(encode(value))
        out[name] = (at, at + size)
        at += size
    assert at == len(message.encode())
    return out


def rewritten(base: Base, target: Message, *, body: Any = None, state: bytes | None = None,
              key: Ed25519PrivateKey | None = None,
              heads: tuple[bytes, ...] | None = None) -> bytes:
    """The base file with ``target`` replaced by a message of the same slot with ``body``
    and/or ``state`` (or, version 2, ``heads``) changed, signed by its seat's key (or
    ``key``); with its seat's key, every later message of that seat is signed again onto the
    new chain (a seat rewriting its own history after the fact), in place — version 2: the
    heads its later messages name for its own feed renamed to the new chain, as a careful
    forger would."""
    seat = target.seat
    signer = key or base.key(seat)
    replaced: dict[int, Message] = {}
    renamed: dict[bytes, bytes] = {}
    prev = target.prev
    for m in base.messages:
        if m.seat != seat or m.seq < target.seq:
            continue
        named = tuple(renamed.get(h, h) for h in m.heads)
        if m is target:
            new = sign_message(signer, version=m.version, match_id=m.match_id, seat=seat,
                               seq=m.seq, prev=prev, kind=m.kind,
                               state=m.state if state is None else state,
                               body=m.body if body is None else body,
                               heads=named if heads is None else heads)
        elif key is None:
            new = sign_message(signer, version=m.version, match_id=m.match_id, seat=seat,
                               seq=m.seq, prev=prev, kind=m.kind, state=m.state, body=m.body,
                               heads=named)
        else:
            continue
        replaced[id(m)] = new
        renamed[m.hash] = new.hash
        prev = new.hash
    return file_start(base.net.header) + assemble(
        replaced.get(id(m), m).encode() for m in base.messages)


def resigned_header(base: Base, change: dict[str, Any], keys: list[Ed25519PrivateKey] | None
                    = None) -> SignedHeader:
    header = dataclasses.replace(base.net.header.header, **change)
    signers = keys or base.net.keys
    return SignedHeader(header, tuple(sign_header(k, header) for k in signers))


def appended(base: Base, seat: int, kind: Kind, body: Any) -> bytes:
    """The base file with one more message of ``seat`` (the next of its feed) at its end."""
    last = [m for m in base.messages if m.seat == seat][-1]
    extra = sign_message(base.key(seat), version=last.version, match_id=last.match_id,
                         seat=seat, seq=last.seq + 1, prev=last.hash, kind=kind,
                         state=last.state, body=body,
                         heads=last.heads if kind in CORE_KINDS else ())
    return base.data + frame(extra.encode())


def tampered_vectors(whole: Base, part: Base | None = None) -> list[Vector]:
    """``honest/3-basic.crawl`` (``whole``) changed after the fact in every way.  ``part``: a
    prefix of it (at a record boundary), the base of every change whose message it holds and
    whose verdict does not need the match's end (to keep the files small); by default the whole
    file."""
    base = part or whole
    version = whole.net.version
    data, payloads, messages, net = base.data, base.payloads, base.messages, base.net
    header_payload = payloads[1]
    hstart = base.start(1)
    sigs = net.header.signatures
    out: list[Vector] = []
    cut = "" if part is None else f", its first {len(part.payloads)} records"

    def either(pick: Callable[[Message], bool]) -> tuple[Base, Message]:
        """The first message ``pick`` takes: in ``base`` if it holds one, else in ``whole``."""
        found = next((m for m in base.messages if pick(m)), None)
        return (base, found) if found is not None else (whole, whole.find(pick))

    def add(name: str, description: str, tampered: bytes, expect: Expect, *,
            based: bool = True, on: Base = base) -> None:
        assert tampered != on.data or expect.status == "valid"
        base_note = (f" (base: honest/3-basic.crawl{cut if on is base else ''})" if based
                     else "")
        out.append(Vector("tampered/" + name, description + base_note, tampered, expect))

    # --- the file record and the header
    add("file-record-flip", "A byte of the file record's magic string flipped.",
        flipped(data, base.start(0) + 3), Expect("unreadable", reason="not a cryptcrawl match"))
    add("file-record-format-2", "The file record says format 2.",
        frame(encode(("cryptcrawl-match", 2))) + data[base.start(1) - 4:],
        Expect("unreadable", reason="not a cryptcrawl match"))
    add("header-flip-game", "A byte of the header's game name flipped (the match id changes, "
        "so no seat's header signature holds).",
        flipped(data, hstart + header_payload.index(b"raiders"), 0x20),
        Expect("unreadable", reason="header signature of seat 0"))
    add("header-flip-nonce", "A byte of seat 2's nonce in the header flipped.",
        flipped(data, hstart + header_payload.index(net.header.header.nonces[2]) + 7),
        Expect("unreadable", reason="header signature of seat 0"))
    add("header-flip-seat-key", "A byte of seat 1's identity key in the header flipped.",
        flipped(data, hstart + header_payload.index(net.header.header.seats[1].key) + 5),
        Expect("unreadable", reason="header signature of seat"))
    add("header-flip-signature", "A byte of seat 2's header signature flipped.",
        flipped(data, hstart + header_payload.index(sigs[2]) + 10),
        Expect("unreadable", reason="header signature of seat 2"))
    swapped = encode((net.header.header.value(), (sigs[1], sigs[0], sigs[2])))
    add("header-signatures-swapped", "Seats 0 and 1's header signatures swapped.",
        frame(payloads[0]) + frame(swapped) + assemble(payloads[2:]),
        Expect("unreadable", reason="header signature of seat 0"))
    short = encode((net.header.header.value(), sigs[:2]))
    add("header-signature-missing", "Seat 2's header signature left out.",
        frame(payloads[0]) + frame(short) + assemble(payloads[2:]),
        Expect("unreadable", reason="seat 2"))
    wrong_key = encode((net.header.header.value(),
                        (sigs[0], sign_header(net.keys[2], net.header.header), sigs[2])))
    add("header-signed-with-wrong-key", "Seat 1's header signature made with seat 2's key.",
        frame(payloads[0]) + frame(wrong_key) + assemble(payloads[2:]),
        Expect("unreadable", reason="header signature of seat 1"))
    longer = bytearray(data)
    longer[hstart - 4:hstart] = (len(header_payload) + 1).to_bytes(4, "big")
    add("header-length-prefix", "The header record's length prefix one more than its length.",
        bytes(longer), Expect("unreadable"))
    other = 2 if version == 1 else version + 1
    v2_payload = encode(((other, *net.header.header.value()[1:]), sigs))
    add(f"header-protocol-{other}", f"The header says protocol version {other}.",
        frame(payloads[0]) + frame(v2_payload) + assemble(payloads[2:]),
        Expect("unreadable", reason=f"version {other}"))
    add("header-only", "The file record and the header, no message.",
        data[:base.start(2) - 4], incomplete("the match stops before its end"))
    engine = resigned_header(base, {"engine": "raiders/99"})
    add("header-unknown-engine", "A header naming engine raiders/99, signed by every seat; no "
        "message.", file_start(engine), invalid(None, "cannot check this match"))
    players = resigned_header(base, {"options": (("players", 5), ("variant", "basic"))})
    add("header-players-mismatch", "A header whose options say 5 players for 3 seats, signed "
        "by every seat; no message.", file_start(players),
        invalid(None, "the header's options say 5 players"))
    renonced = resigned_header(base, {"nonces": tuple(hashlib.sha256(b"other nonce %d" % i)
                                                      .digest() for i in range(3))})
    add("header-of-another-match", "Every message of the match under another header (other "
        "nonces, so another match id), signed by every seat: messages replayed into another "
        "match.", file_start(renonced) + assemble(payloads[2:]),
        invalid(messages[0].seat, "another match"))
    add("empty", "An empty file.", b"", Expect("unreadable", reason="empty file"),
        based=False)
    add("not-a-match-file", "A line of text.", b"hello, this is not a match file\n",
        Expect("unreadable", reason="over the 65536-byte cap"), based=False)

    # --- one byte of a message, in each field
    reveal = base.find(lambda m: m.kind is Kind.REVEAL and m.seq < 100, 3)
    r_at = base.start(base.record_of(reveal))
    fields = field_offsets(reveal)
    for name, delta in (("match_id", 9), ("seat", 0), ("seq", 0), ("prev", 17), ("kind", 0),
                        ("state", 3), ("body", 5), ("sig", 20)):
        start, _end = fields[name]
        reason = {"match_id": "another match", "kind": "must be an array", "seat": "signature",
                  "seq": "signature"}.get(name, "bad signature")
        seat: int | None = reveal.seat
        if name == "seat":
            seat = reveal.seat ^ 1
        if name == "kind":
            seat = None
        what = " (REVEAL becomes CHANCE_COMMIT: the body no longer fits)" if (
            name == "kind") else ""
        add(f"message-flip-{name.replace('_', '-')}",
            f"A byte of the {name} field of a REVEAL (record {base.record_of(reveal)}) "
            f"flipped{what}.", flipped(data, r_at + start + delta),
            invalid(seat, reason))
    for kind in (Kind.CHANCE_COMMIT, Kind.CHANCE_REVEAL, Kind.CHANCE_DIGEST, Kind.COMMIT,
                 Kind.ACT, Kind.SEAL_KEY, Kind.DELIVERY, Kind.KEY_RELEASE, Kind.END):
        on, m = either(lambda x, kind=kind: x.kind is kind)
        start, end = field_offsets(m)["body"]
        offset = on.start(on.record_of(m)) + end - 3
        name = naming(version).kind_name(kind)
        add(f"body-flip-{name.lower().replace('_', '-')}",
            f"Record {on.record_of(m)} (seat {m.seat}, the first {name}): a byte near "
            "the end of its body flipped.", flipped(on.data, offset),
            invalid(m.seat, "signature"), on=on)
    mid = 2 + len(messages) // 2
    longer = bytearray(data)
    at = base.start(mid)
    longer[at - 4:at] = (len(payloads[mid]) + 1).to_bytes(4, "big")
    add("message-length-prefix", f"Record {mid}'s length prefix one more than its length "
        "(every later record is misframed).", bytes(longer), invalid(None, "malformed frame"))
    over = bytearray(data)
    over[at - 4:at] = (70_000).to_bytes(4, "big")
    add("message-length-over-cap", f"Record {mid}'s length prefix says 70,000 bytes (over the "
        "64 KiB record cap).", bytes(over), invalid(None, "over the 65536-byte cap"))

    # --- whole records
    dropped = next(m for m in messages if m.seat == 2 and m.seq == 5)
    add("drop-message", "Seat 2's message 5 left out.",
        file_start(net.header) + assemble(m.encode() for m in messages if m is not dropped),
        incomplete("missing: seat 2 messages 5..5"))
    end1 = whole.find(lambda m: m.kind is Kind.END and m.seat == 1)
    add("drop-end", "Seat 1's END left out.",
        file_start(net.header) + assemble(m.encode() for m in whole.messages if m is not end1),
        incomplete("not every seat signed the result (missing: seat 1)"), on=whole)
    half = whole.start(2 + len(whole.messages) // 2) - 4
    add("drop-second-half", "Every message record after the first half left out (cut at a "
        "record boundary).", whole.data[:half], incomplete("stops before its end"), on=whole)
    by_seat = sorted(messages, key=lambda m: (m.seat, m.seq))
    add("reorder-by-seat", "Every message kept, grouped by seat (any interleaving of the feeds "
        "is a valid file).", file_start(net.header) + assemble(m.encode() for m in by_seat),
        valid())
    add("reorder-reversed", "Every message kept, in reverse order (each feed is put back in "
        "sequence order).",
        file_start(net.header) + assemble(m.encode() for m in reversed(whole.messages)),
        valid(), on=whole)
    a = base.find(lambda m: m.seat == 0 and m.seq == 10)
    b = base.find(lambda m: m.seat == 0 and m.seq == 11)
    swapped_order = [b if m is a else a if m is b else m for m in messages]
    add("reorder-swap-in-feed", "Seat 0's messages 10 and 11 swapped.",
        file_start(net.header) + assemble(m.encode() for m in swapped_order), valid())
    dup = messages[40]
    with_dup = [*messages[:60], dup, *messages[60:]]
    add("duplicate-message", f"Record {base.record_of(dup)} repeated later (a harmless "
        "duplicate, as after a restart).",
        file_start(net.header) + assemble(m.encode() for m in with_dup), valid())
    add("duplicate-header", "The header record repeated as record 2.",
        frame(payloads[0]) + frame(payloads[1]) + frame(payloads[1]) + assemble(payloads[2:]),
        invalid(None, "a message has 9 fields, not 2"))
    add("truncate-mid-record", "The last 7 bytes cut off (a torn last record).", data[:-7],
        incomplete("the file's last record is torn"))
    add("truncate-in-length-prefix", "Cut 2 bytes into the last record's length prefix.",
        data[:base.start(len(payloads) - 1) - 2], incomplete("the file's last record is torn"))

    # --- signatures and chains
    victim = base.find(lambda m: m.seat == 1 and m.kind is Kind.COMMIT, 2)
    add("resigned-with-wrong-key", f"Seat 1's message {victim.seq} (a COMMIT) signed with seat "
        "2's key.", rewritten(base, victim, key=base.key(2)), invalid(1, "bad signature"))
    broken = sign_message(base.key(1), version=version, match_id=victim.match_id, seat=1,
                          seq=victim.seq, prev=hashlib.sha256(b"another predecessor").digest(),
                          kind=victim.kind, state=victim.state, body=victim.body,
                          heads=victim.heads)
    add("broken-chain", f"Seat 1's message {victim.seq}, signed by seat 1, names another "
        "predecessor (prev).", file_start(net.header) + assemble(
            broken.encode() if m is victim else m.encode() for m in messages),
        invalid(1, "broken chain"))
    fork_of = victim
    fork_body = CommitBody(step_of(fork_of), hashlib.sha256(b"fork").digest())
    fork = sign_message(base.key(1), version=version, match_id=fork_of.match_id, seat=1,
                        seq=fork_of.seq, prev=fork_of.prev, kind=fork_of.kind,
                        state=fork_of.state, body=fork_body, heads=fork_of.heads)
    add("equivocation", f"A second COMMIT for seat 1's slot {fork_of.seq}, signed by seat 1, "
        "appended (two signed versions of one slot).", data + frame(fork.encode()),
        invalid(1, f"equivocation at sequence number {fork_of.seq}"))
    other_net = honest_network(version, 3, "tactical", None)
    foreign = other_net.stored[0][0]
    add("message-of-another-match", "A message of another match (honest/3-tactical's first) "
        "appended.", data + frame(foreign.encode()), invalid(foreign.seat, "another match"))
    stranger = Ed25519PrivateKey.from_private_bytes(
        hashlib.sha256(tag_of(version) + b"stranger").digest())
    ghost = sign_message(stranger, version=version, match_id=net.header.match_id, seat=5,
                         seq=0, prev=net.header.match_id, kind=Kind.ACT, state=bytes(32),
                         body=ActBody("L1.R1.play", "play 1"),
                         heads=(net.header.match_id,) * (3 if version >= 2 else 0))
    add("message-of-no-seat", "A message from seat 5, which is not in the 3-seat header, "
        "appended.", data + frame(ghost.encode()), invalid(None, "not in the header"))

    # --- a seat rewrites its own feed and signs it again (every later message re-chained)
    commit = base.find(lambda m: m.seat == 1 and m.kind is Kind.COMMIT, 2)
    its_reveal = base.find(lambda m: m.seat == 1 and m.kind is Kind.REVEAL
                           and step_of(m) == step_of(commit))
    rb = its_reveal.content
    assert isinstance(rb, RevealBody)
    other_salt = next(m.content.salt for m in messages if m.seat == 1  # type: ignore[union-attr]
                      and m.kind is Kind.REVEAL and m is not its_reveal)
    add("rewrite-reveal-salt", f"Seat 1's REVEAL of {rb.step} carries the salt of another of "
        "its reveals; seat 1's feed signed again from there.",
        rewritten(base, its_reveal, body=dataclasses.replace(rb, salt=other_salt)),
        invalid(1, "does not open its commitment"))
    other_action = "play 1" if rb.action != "play 1" else "play 2"
    add("rewrite-reveal-action", f"Seat 1's REVEAL of {rb.step} names {other_action!r} instead "
        f"of {rb.action!r}; seat 1's feed signed again from there.",
        rewritten(base, its_reveal, body=dataclasses.replace(rb, action=other_action)),
        invalid(1, "does not open its commitment"))
    cb = commit.content
    assert isinstance(cb, CommitBody)
    add("rewrite-commit", f"Seat 1's COMMIT of {cb.step} names another commitment; seat 1's "
        "feed signed again from there.",
        rewritten(base, commit, body=CommitBody(cb.step, hashlib.sha256(b"x").digest())),
        incomplete(f"it waits for simultaneous {cb.step}"))
    secret = base.find(lambda m: m.seat == 2 and m.kind is Kind.CHANCE_REVEAL, 4)
    sb = secret.content
    assert isinstance(sb, ChanceRevealBody)
    add("rewrite-chance-secret", f"Seat 2's secret for {sb.secrets[0][0]} replaced by another "
        "32 bytes; seat 2's feed signed again from there.",
        rewritten(base, secret, body=dataclasses.replace(
            sb, secrets=((sb.secrets[0][0], bytes(32)), *(sb.secrets[1:] if version >= 2
                                                          else ())))),
        invalid(2, "does not open its commitment"))
    ccommit = base.find(lambda m: m.seat == 0 and m.kind is Kind.CHANCE_COMMIT, 1)
    ccb = ccommit.content
    assert isinstance(ccb, ChanceCommitBody)
    changed = ((ccb.commitments[0][0], hashlib.sha256(b"y").digest()), *ccb.commitments[1:])
    add("rewrite-chance-commitment", f"Seat 0's chance commitment for {changed[0][0]} "
        "changed; seat 0's feed signed again from there.",
        rewritten(base, ccommit, body=ChanceCommitBody(changed)),
        invalid(0, "does not open its commitment"))
    digest = base.find(lambda m: m.seat == 2 and m.kind is Kind.CHANCE_DIGEST, 1)
    db = digest.content
    assert isinstance(digest.content, ChanceDigestBody)
    add("rewrite-chance-digest", "Seat 2's CHANCE_DIGEST of a level names another digest; seat "
        "2's feed signed again from there.",
        rewritten(base, digest, body=ChanceDigestBody(db.stage, bytes(32))),  # type: ignore[union-attr]
        incomplete("the match stops before its end"))
    early = base.find(lambda m: isinstance(m.content, RevealBody) and bool(m.content.chance))
    eb = early.content
    assert isinstance(eb, RevealBody)
    add("rewrite-early-secret", f"Seat {early.seat}'s REVEAL of {eb.step} carries a wrong "
        "secret for the room the step turns early; its feed signed again from there.",
        rewritten(base, early, body=dataclasses.replace(
            eb, chance=((eb.chance[0][0], bytes(32)),))),
        invalid(early.seat, "does not open"))
    state = base.find(lambda m: m.seat == 0 and m.kind is Kind.COMMIT, 5)
    add("rewrite-state-digest", f"Seat 0's message {state.seq} carries another public state "
        "digest; seat 0's feed signed again from there.",
        rewritten(base, state, state=hashlib.sha256(b"z").digest()),
        invalid(0, "public state digest"))
    on, torch = either(lambda m: m.kind is Kind.SEAL_KEY)
    tb = torch.content
    assert isinstance(tb, SealKeyBody)
    other_key = X25519PrivateKey.from_private_bytes(hashlib.sha256(b"k").digest()).public_key()
    seal = naming(version).kind_name(Kind.SEAL_KEY)
    add("rewrite-torch-key", f"Seat {torch.seat}'s {seal} names another key; its feed signed "
        "again from there.",
        rewritten(on, torch, body=SealKeyBody(tb.round, tb.events, other_key.public_bytes(
            Encoding.Raw, PublicFormat.Raw))),
        invalid(torch.seat, "its released torch key is not the one its TORCH named"), on=on)
    on, release = either(lambda m: m.kind is Kind.KEY_RELEASE)
    kb = release.content
    assert isinstance(kb, KeyReleaseBody)
    add("rewrite-key-release", f"Seat {release.seat}'s KEY_RELEASE publishes another private "
        "key; its feed signed again from there.",
        rewritten(on, release, body=KeyReleaseBody(kb.round, hashlib.sha256(b"k").digest())),
        invalid(release.seat, "not the one its TORCH named"), on=on)
    on, delivery = either(lambda m: m.kind is Kind.DELIVERY)
    dvb = delivery.content
    assert isinstance(dvb, DeliveryBody)
    add("rewrite-delivery", f"Seat {delivery.seat}'s DELIVERY with a byte of its sealed "
        "secrets flipped; its feed signed again from there.",
        rewritten(on, delivery, body=dataclasses.replace(dvb, sealed=flipped(dvb.sealed, 40))),
        invalid(delivery.seat, "lies"), on=on)
    end2 = whole.find(lambda m: m.kind is Kind.END and m.seat == 2)
    e2 = end2.content
    assert isinstance(e2, EndBody)
    add("rewrite-end-result", "Seat 2's END names another final state; signed again.",
        rewritten(whole, end2, body=EndBody(bytes(32), e2.transcript)), invalid(2, "final"),
        on=whole)
    add("rewrite-end-transcript", "Seat 2's END names another transcript digest; signed again.",
        rewritten(whole, end2, body=EndBody(e2.final_state, bytes(32))),
        invalid(2, "another final state or transcript"), on=whole)

    # --- after the result, and junk
    add("after-result-act", "Seat 1 appends a signed ACT after every seat signed the result.",
        appended(whole, 1, Kind.ACT, ActBody("L5.R5.play", "play 1")),
        invalid(1, "1 message(s) after every seat signed the result"), on=whole)
    add("after-result-vote", "Seat 1 appends a signed ABSENT vote (an answer \"present\") after "
        "every seat signed the result: nothing waits for it.",
        appended(whole, 1, Kind.ABSENT, AbsentBody(2, 3, 0)),
        valid("vote(s) or welcome(s) after the result"), on=whole)
    add("junk-zeros", "200 zero bytes appended (50 empty records; reading stops after 16).",
        data + bytes(200), invalid(None, "empty frame"))
    add("junk-malformed-frames", "Three records that are not messages appended.",
        data + frame(b"\x91\x01\x02") + frame(b"\xa2\xff\xfe") + frame(b"\xc1"),
        invalid(None, "malformed frame"))
    return out


# --------------------------------------------------------------------------- verdicts


def verify_json(root: Path, names: str | list[str]) -> tuple[int, str, str]:
    """``cryptcrawl verify --json NAME...`` (paths relative to ``root``), run from ``root``: the
    exit code, the standard output and the standard error."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(root):
        code = run_verify(names, as_json=True, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def verdict_json(root: Path, name: str) -> tuple[int, str]:
    """``cryptcrawl verify --json`` of one file ``name`` (relative to ``root``), run from
    ``root``: the exit code and the standard output (it writes nothing else)."""
    code, out, err = verify_json(root, name)
    assert not err, err
    return code, out


def stored(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` now: path (relative to it) -> bytes."""
    if not root.exists():
        return {}
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


def differences(built: dict[str, bytes], held: dict[str, bytes]) -> list[str]:
    """What differs between the files a generator built and those held (name -> bytes)."""
    out = [f"missing: {name}" for name in sorted(set(built) - set(held))]
    out += [f"not generated: {name}" for name in sorted(set(held) - set(built))]
    out += [f"differs: {name}" for name in sorted(set(built) & set(held))
            if built[name] != held[name]]
    return out
