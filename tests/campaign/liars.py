"""The liar campaign (issue 24): a seat edits its own copy of a finished match and tries to get an
honest seat blamed.

Every case starts from an honest, finished match played on :mod:`protocol.mesh`'s mesh. The liar
takes its own copy of the file and rewrites one of its own messages — of a given kind — as a
careful forger would: a new chance secret together with its commitment, another card together
with its commitment and salt, a new round key together with its release, and every digest of its
own that covers the edited commitment recomputed (the commitment sets of its reveals, its chance
digests). It signs the rewritten messages with its own key and chains its feed again, remapping
the heads its later messages name for its own seat. Other seats' messages stay as they were
signed: the liar cannot forge them.

Two strategies:

* ``rechain`` — every later message of the liar is kept (bodies, heads and state digests as
  signed in the real match), re-signed on the new chain;
* ``truncate`` — the liar's feed ends with the last message the edit touched.

The campaign's claim, checked by ``tests/campaign/test_campaign.py``: from the liar's copy alone,
no verdict names an honest seat alone; with the liar's and an honest copy, the liar is named,
with both signed versions.

``python -m tests.campaign.liars OUT`` writes every case's two copies into ``OUT``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from protocol.mechanisms import chance as chance_module
from protocol.mechanisms import steps as steps_module
from protocol.mesh import Network
from protocol.verify.verifier import verify
from protocol.wire.delivery import round_key
from protocol.wire.messages import (
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
    ReclaimBody,
    RevealBody,
    SealKeyBody,
    WelcomeBody,
    sign_message,
)
from protocol.wire.transcript import file_start, frame

from benchmarks.scenario import raiders_network
from protocol.crypto import chance_commitment, play_commitment
from tests.vectors.making import silence, step_of

KINDS = (Kind.CHANCE_COMMIT, Kind.CHANCE_REVEAL, Kind.COMMIT, Kind.REVEAL, Kind.CHANCE_DIGEST,
         Kind.ACT, Kind.END, Kind.SEAL_KEY, Kind.DELIVERY, Kind.KEY_RELEASE, Kind.ABSENT,
         Kind.RECLAIM, Kind.WELCOME)
"""The kinds a liar edits.  A consistent edit: CHANCE_COMMIT (commitment and secret), COMMIT
(play, salt and commitment), SEAL_KEY (key and release); the others alone: a reveal or a release
that no longer opens, a digest, an action, a result, a sealed delivery, a vote, a reclaim or a
welcome of its own choosing.  ABSENT, RECLAIM and WELCOME are sent in the match where a seat's
late message is voted absent and the seat reclaims (:func:`absence_match`)."""

ABSENCE_KINDS = frozenset({Kind.ABSENT, Kind.RECLAIM, Kind.WELCOME})

PLACES = ("first", "middle", "last")
STRATEGIES = ("rechain", "truncate")
SEATS = (3, 4, 5)


@dataclass(frozen=True)
class Case:
    seats: int
    liar: int
    kind: Kind
    place: str
    strategy: str
    edited: bytes  # the liar's copy, edited
    honest: bytes  # an honest seat's copy of the same match
    honest_seat: int
    touched: tuple[int, ...]  # the sequence numbers of the liar's messages the edit changed
    variant: str = "basic"

    @property
    def name(self) -> str:
        game = "" if self.variant == "basic" else f"-{self.variant}"
        return (f"{self.seats}seats{game}-liar{self.liar}-{self.kind.name.lower()}-{self.place}-"
                f"{self.strategy}")


def _h(*parts: bytes | str) -> bytes:
    digest = hashlib.sha256(b"cryptcrawl/test/campaign")
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        digest.update(len(data).to_bytes(4, "big") + data)
    return digest.digest()


# --------------------------------------------------------------------------- digests a liar redoes

_DIGESTS = ((chance_module, "chance_set_digest"), (chance_module, "chance_open_digest"),
            (steps_module, "commit_set_digest"))


@contextmanager
def recording() -> Iterator[dict[bytes, tuple[Callable[..., bytes], tuple[Any, ...]]]]:
    """While a file is verified: every commitment-set digest the rules compute, by value, with
    the function and arguments that made it (so that a liar can make it again over its edited
    commitment)."""
    seen: dict[bytes, tuple[Callable[..., bytes], tuple[Any, ...]]] = {}
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


def redo(digests: dict[bytes, tuple[Callable[..., bytes], tuple[Any, ...]]], value: bytes,
         old: bytes, new: bytes) -> bytes:
    """``value`` made again with commitment ``old`` replaced by ``new`` (itself if no recorded
    digest made it)."""
    made = digests.get(value)
    if made is None:
        return value
    fn, args = made
    return fn(*_swap(args, old, new))


# --------------------------------------------------------------------------- the edits

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
        secret = _h(tag, "secret")
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
        salt = _h(tag, "salt")
        new = play_commitment(match_id, body.step, key, action, salt)
        return Edit({target.seq: dataclasses.replace(body, commitment=new),
                     reveal.seq: dataclasses.replace(shown, action=action, salt=salt)},
                    [(body.commitment, new)])
    if isinstance(body, SealKeyBody):
        private, public = round_key(_h(tag, "round key"))
        bodies = {target.seq: dataclasses.replace(body, public_key=public)}
        release = next((m for m in feed[target.seq + 1:] if isinstance(m.content, KeyReleaseBody)
                        and m.content.round == body.round), None)
        if release is not None:
            assert isinstance(release.content, KeyReleaseBody)
            bodies[release.seq] = dataclasses.replace(release.content, private_key=private)
        return Edit(bodies, [])
    changed: Any
    if isinstance(body, ChanceRevealBody):
        changed = dataclasses.replace(body, secrets=((body.secrets[0][0], _h(tag)),
                                                     *body.secrets[1:]))
    elif isinstance(body, RevealBody):
        changed = dataclasses.replace(body, salt=_h(tag))
    elif isinstance(body, ChanceDigestBody):
        changed = dataclasses.replace(body, digest=_h(tag))
    elif isinstance(body, ActBody):
        # Another action a seat took as an ACT, else one it played (a card, in a free
        # action's place).
        others = sorted({m.content.action for c in net.cores[liar].feeds for m in c.messages
                         if isinstance(m.content, ActBody | RevealBody)
                         and m.content.action != body.action},
                        key=lambda a: (not any(isinstance(m.content, ActBody)
                                               and m.content.action == a for m in net.log), a))
        changed = dataclasses.replace(body, action=others[0])
    elif isinstance(body, EndBody):
        changed = dataclasses.replace(body, final_state=_h(tag))
    elif isinstance(body, DeliveryBody):
        sealed = bytearray(body.sealed)
        sealed[len(sealed) // 2] ^= 0x01
        changed = dataclasses.replace(body, sealed=bytes(sealed))
    elif isinstance(body, KeyReleaseBody):
        changed = dataclasses.replace(body, private_key=_h(tag))
    elif isinstance(body, AbsentBody):
        changed = dataclasses.replace(body, count=body.count + 1)
    elif isinstance(body, ReclaimBody | WelcomeBody):
        changed = dataclasses.replace(body, since=body.since + 1)
    else:  # pragma: no cover - KINDS names only the kinds above
        raise AssertionError(kind)
    return Edit({target.seq: changed}, [])


def _redo_digests(body: Any, digests: dict[bytes, tuple[Callable[..., bytes], tuple[Any, ...]]],
                  swaps: list[tuple[bytes, bytes]]) -> Any:
    """``body`` with every digest of its own over a swapped commitment made again."""
    fields = {"commit_set", "chance_set", "digest"}
    for name in fields:
        value = getattr(body, name, None)
        if isinstance(value, bytes) and value:
            new = value
            for old, swapped in swaps:
                new = redo(digests, new, old, swapped)
            if new != value:
                body = dataclasses.replace(body, **{name: new})
    return body


def edited_copy(net: Network, liar: int, edit: Edit, strategy: str,
                digests: dict[bytes, tuple[Callable[..., bytes], tuple[Any, ...]]]
                ) -> tuple[bytes, tuple[int, ...]]:
    """The liar's file with ``edit`` applied (see the module docstring)."""
    core = net.cores[liar]
    key = net.keys[liar]
    feed = list(core.feeds[liar].messages)
    bodies = dict(edit.bodies)
    for m in feed:
        again = _redo_digests(bodies.get(m.seq, m.content), digests, edit.swaps)
        if again != m.content:
            bodies[m.seq] = again
    first = min(bodies)
    last = max(bodies) if strategy == "truncate" else len(feed) - 1
    renamed: dict[bytes, bytes] = {}
    new_feed = feed[:first]
    prev = feed[first].prev
    for m in feed[first:last + 1]:
        heads = tuple(renamed.get(h, h) for h in m.heads)
        again = sign_message(key, match_id=m.match_id, seat=m.seat, seq=m.seq, prev=prev,
                             kind=m.kind, state=m.state, body=bodies.get(m.seq, m.content),
                             heads=heads, version=m.version)
        renamed[m.hash] = again.hash
        new_feed.append(again)
        prev = again.hash
    data = bytearray(file_start(core.header))
    for seat, f in enumerate(core.feeds):
        for message in (new_feed if seat == liar else f.messages):
            data += frame(message.encode())
    return bytes(data), tuple(sorted(bodies))


# --------------------------------------------------------------------------- the campaign

VARIANTS = ("basic", "tactical")
"""The variants a liar plays: the tactical one adds turns (each ACT a step of its own)."""


def honest_match(seats: int, variant: str = "basic") -> Network:
    """A finished honest match whose liar copies cover every kind they can (torch rounds and
    free actions happen in some matches only: the first tag that has them is taken)."""
    for attempt in range(40):
        tag = (b"campaign/%d/%d" % (seats, attempt) if variant == "basic"
               else b"campaign/%s/%d/%d" % (variant.encode(), seats, attempt))
        net = raiders_network(seats, variant, tag=tag)
        net.pump()
        kinds = {m.kind for m in net.log}
        if {Kind.SEAL_KEY, Kind.DELIVERY, Kind.KEY_RELEASE, Kind.ACT} <= kinds:
            return net
    raise AssertionError(f"no {seats}-seat {variant} match with every kind in 40 tries")


def absence_match(seats: int) -> Network:
    """A finished match in which the last seat's commitment in room L1.R3 arrives after every
    other seat voted it absent: it is replaced, reclaims its seat and is welcomed back."""
    late = seats - 1
    net = raiders_network(seats, tag=b"campaign/absence/%d" % seats)
    local = net.seats[late]
    held = silence(net, late, lambda m: m.kind is Kind.COMMIT and step_of(m).startswith(
        "L1.R3"))
    net.pump()
    assert held, "the late seat never got to the third room"
    count = net.cores[0].cursor[late]
    for voter in range(seats - 1):
        net.queue.append(net.seats[voter].sign_next(Kind.ABSENT, AbsentBody(late, count)))
    del local.messages_to_send  # the honest client again
    local.sent.append(held[0])
    local.pending_reveal.clear()
    local.restore(list(local.sent))
    net.queue.append(held[0])
    net.run_with_timeouts()
    kinds = {m.kind for f in net.cores[0].feeds for m in f.messages}
    assert kinds >= ABSENCE_KINDS, kinds
    for core in net.cores:
        assert core.signed, "the absence match did not finish"
    return net


def cases(seats: tuple[int, ...] = SEATS, kinds: tuple[Kind, ...] = KINDS,
          places: tuple[str, ...] = PLACES,
          strategies: tuple[str, ...] = STRATEGIES,
          variants: tuple[str, ...] = VARIANTS) -> Iterator[Case]:
    """Every case of the campaign (a liar without a message of some kind skips it); the
    absence kinds are played in the basic game only."""
    for n in seats:
        for variant in variants:
            yield from _cases(honest_match(n, variant),
                              [k for k in kinds if k not in ABSENCE_KINDS], places, strategies,
                              variant)
        absence = [k for k in kinds if k in ABSENCE_KINDS]
        if absence and "basic" in variants:
            yield from _cases(absence_match(n), absence, places, strategies)


def _cases(net: Network, kinds: list[Kind], places: tuple[str, ...],
           strategies: tuple[str, ...], variant: str = "basic") -> Iterator[Case]:
    n = len(net.cores)
    for liar in range(n):
        with recording() as digests:
            verdict = verify(net.match_file(liar))  # (records the digests the rules make)
        assert verdict.valid, verdict.reason
        honest_seat = (liar + 1) % n
        honest = net.match_file(honest_seat)
        for kind in kinds:
            for place in places:
                edit = plan_edit(net, liar, kind, place)
                if edit is None:
                    continue
                for strategy in strategies:
                    data, touched = edited_copy(net, liar, edit, strategy, digests)
                    yield Case(n, liar, kind, place, strategy, data, honest, honest_seat,
                               touched, variant)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m tests.campaign.liars OUT_DIR", file=sys.stderr)
        return 2
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for case in cases():
        (out / f"{case.name}.liar.crawl").write_bytes(case.edited)
        (out / f"{case.name}.honest{case.honest_seat}.crawl").write_bytes(case.honest)
        count += 1
    print(f"{count} cases written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
