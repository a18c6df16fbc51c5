"""The tampering classes: each makes, from an honest base match, one tampered copy (or none,
where the base has nothing for it to edit).

Classes whose name starts with a seat's own edit (:data:`LIAR_CLASSES`) are forged by one seat,
the **liar**, in its own copy: it signs its feed again from the first change on
(:func:`benchmarks.tampering.forging.forge`), the other seats' messages untouched.  The others
(:data:`DAMAGE_CLASSES`) have no liar: bytes damaged, a file cut short, a header edited, another
seat's messages left out.

Every choice (the liar, the place, the value) is drawn from a stream keyed by the base's tag and
the class's name, so the same base always gives the same files.

==========================  ===================================================================
class                       what the tampering is
==========================  ===================================================================
insert/LEAVE, …/RESIGN      the liar inserts a LEAVE (a RESIGN) mid-feed, the rest re-signed
insert/OFFER, insert/CLAIM  an OFFER (a draw or a pause) or a CLAIM of another seat, the same
insert/ABSENT-past          an ABSENT ``[t, c, 1]`` on a point long consumed (``c`` ≤ 2)
truncate-then/LEAVE, …      the liar keeps its first k messages and appends a LEAVE (RESIGN,
                            CLAIM)
heads/other-held            one of its messages names, as another seat's head, another message
                            of that seat the copy holds (the rest re-signed)
heads/unknown               … a hash of nothing
heads/own-other             … as its own head, another of its own messages
heads/replacement-mark      … another seat's replacement mark where that seat was never replaced
consistent/COMMIT           another play, its commitment and salt, and its commit-set digests
consistent/CHANCE_COMMIT    another chance secret and its commitment, and its chance digests
consistent/SEAL_KEY         another round key and its release
consistent/OPEN             another sealed value: the OPEN, the sealing action's commitment (and
                            the play commitment over it, and its digests)
edit/KIND                   one message of that kind edited alone (a value of the forger's
                            choosing; LEAVE and RESIGN swapped; RESUME's state), re-signed,
                            the rest re-signed (``rechain``) or cut after it (``truncate``)
reorder                     two adjacent messages of its own swapped
duplicate                   a message of its own signed again at the next seq
drop                        a message of its own dropped
state                       the state digest of one message of its own
end/transcript              the transcript digest of its END
own-tail                    its own last messages left out of its copy (nothing re-signed)
deck/low-order              Paper: a DECK body of its own with a point replaced by one of
                            order 4 (signed as it is: no reader accepts it)
omit/other-tail             another seat's last messages left out of the copy
bitflip/message             one bit of one message record flipped
bitflip/header              one bit of the header record flipped
truncate/bytes              the file cut at a byte offset past the header
truncate/records            the file cut at a record boundary past the header
header/field                a header field edited (a seat's name, a nonce, the timeouts), the
                            holder's signature made again
header/signatures           two seats' header signatures swapped
==========================  ===================================================================
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from benchmarks.tampering.bases import Base
from benchmarks.tampering.forging import (
    Digests,
    Draft,
    Edit,
    Forged,
    copy_bytes,
    drafts,
    forge,
    h,
    plan_edit,
    recording,
    redo_digests,
)
from engine.stream import HashStream
from protocol.crypto import play_commitment, replaced_head, sealed_commitment
from protocol.deck.bodies import DeckMessageBody, encode_body
from protocol.deck.group import BASE, base_mul, decode_point
from protocol.verify.verifier import verify
from protocol.wire.delivery import round_key
from protocol.wire.encoding import Value, encode
from protocol.wire.header import Seat, sign_header
from protocol.wire.messages import (
    CORE_KINDS,
    AbsentBody,
    ActBody,
    AnswerBody,
    ChanceCommitBody,
    ClaimBody,
    CommitBody,
    EndBody,
    Kind,
    LeaveBody,
    Message,
    OfferBody,
    OpenBody,
    ResignBody,
    RevealBody,
    SealKeyBody,
)
from protocol.wire.transcript import frame, split_records

__all__ = ["CLASSES", "DAMAGE_CLASSES", "LIAR_CLASSES", "Context", "Mutant", "mutants"]

ORDER_4_POINT: Final = bytes(32)
"""The encoding of an Ed25519 point of order 4 (y = 0)."""


@dataclass(frozen=True)
class Mutant:
    """A tampered copy: its class, the seat that forged its own feed (None: no liar), the seat
    whose copy it was, the bytes and what was done (for a person reading a failure)."""

    cls: str
    liar: int | None
    holder: int
    data: bytes
    detail: str


class Context:
    """A base match, with what the forgers of its classes need: a stream of choices per class,
    and each liar's recorded digests (:func:`recording`), made once."""

    def __init__(self, base: Base) -> None:
        self.base = base
        self.net = base.net
        self.n = base.seats
        self.match_id = base.net.header.match_id
        self._digests: dict[int, Digests] = {}

    def stream(self, cls: str) -> HashStream:
        return HashStream(b"cryptcrawl/tamper/" + self.base.tag + b"/" + cls.encode())

    def digests(self, liar: int) -> Digests:
        if liar not in self._digests:
            with recording() as seen:
                verify(self.base.file(liar))
            self._digests[liar] = seen
        return self._digests[liar]

    def own(self, seat: int) -> list[Message]:
        return list(self.net.cores[seat].feeds[seat].messages)

    def liar(self, stream: HashStream, fits: Callable[[int], bool] = lambda seat: True
             ) -> int | None:
        """A seat drawn from ``stream`` for which ``fits`` holds (the next one that does)."""
        first = stream.below(self.n)
        for k in range(self.n):
            seat = (first + k) % self.n
            if fits(seat):
                return seat
        return None

    def forged(self, cls: str, liar: int, plan: Sequence[Draft], detail: str, *,
               aliases: dict[bytes, bytes] | None = None) -> Mutant:
        """The liar's copy with its feed made of ``plan``."""
        forged = forge(self.net.keys[liar], self.match_id, liar, plan, aliases=aliases,
                       version=self.net.cores[0].version)
        feeds: list[Sequence[Message | Forged]] = [
            forged if seat == liar else feed for seat, feed in enumerate(self.base.feeds(liar))]
        return Mutant(cls, liar, liar, copy_bytes(self.net.header, feeds), detail)


def _mid(stream: HashStream, length: int, low: float = 0.1, high: float = 0.9) -> int:
    """A place in a feed of ``length`` messages, drawn between ``low`` and ``high`` of it
    (1 … length - 2)."""
    a = max(1, int(length * low))
    b = max(a + 1, min(length - 1, int(length * high)))
    return a + stream.below(b - a)


def _state_at(feed: Sequence[Message], p: int) -> bytes:
    """The state digest a message the liar puts at place ``p`` carries: that of the message it
    had there (its state when it was due), else its last one's."""
    return feed[min(p, len(feed) - 1)].state


def _consumed(ctx: Context, liar: int, feed: Sequence[Message], p: int, other: int) -> int:
    """How many of ``other``'s messages the liar had consumed at its place ``p``: from the
    heads of its next message that carries heads (0 if none tells)."""
    theirs = ctx.own(other)
    where = {m.hash: m.seq for m in theirs}
    for m in feed[p:]:
        if m.heads and len(m.heads) > other:
            seq = where.get(m.heads[other])
            return 0 if seq is None else seq + 1
    return len(theirs)


# --------------------------------------------------------------------------- insertions


def _insert(kind: Kind, *, truncate: bool = False, suffix: str = ""
            ) -> Callable[[Context], Mutant | None]:
    cls = f"{'truncate-then' if truncate else 'insert'}/{kind.name}{suffix}"

    def make(ctx: Context) -> Mutant | None:
        stream = ctx.stream(cls)
        liar = ctx.liar(stream, lambda s: len(ctx.own(s)) >= 4)
        if liar is None:
            return None
        feed = ctx.own(liar)
        p = _mid(stream, len(feed))
        others = [s for s in range(ctx.n) if s != liar]
        body: Any
        if kind is Kind.LEAVE:
            body = LeaveBody()
        elif kind is Kind.RESIGN:
            body = ResignBody()
        elif kind is Kind.OFFER:
            body = OfferBody(("draw", "pause")[stream.below(2)])
        elif kind is Kind.CLAIM:
            other = others[stream.below(len(others))]
            body = ClaimBody(other, _consumed(ctx, liar, feed, p, other))
        else:  # ABSENT on a point long consumed
            p = _mid(stream, len(feed), 0.5, 0.95)
            other = others[stream.below(len(others))]
            body = AbsentBody(other, min(stream.below(3), max(0, len(ctx.own(other)) - 1)), 1)
        plan = [*drafts(feed[:p]), Draft(kind, body, _state_at(feed, p), ())]
        if not truncate:
            plan += drafts(feed[p:])
        what = "keeps its first" if truncate else "inserts, before its message"
        return ctx.forged(cls, liar, plan, f"seat {liar} {what} {p} of {len(feed)}: "
                                           f"{kind.name} {body.as_body()!r}")
    make.__name__ = cls
    return make


# --------------------------------------------------------------------------- heads


def _heads(how: str) -> Callable[[Context], Mutant | None]:
    cls = f"heads/{how}"

    def make(ctx: Context) -> Mutant | None:
        stream = ctx.stream(cls)
        held = {s: {m.hash: m for m in ctx.own(s)} for s in range(ctx.n)}

        def targets(liar: int) -> list[tuple[int, int, Message]]:
            """(place, seat j, the message of j it names) of each entry it may point elsewhere."""
            out = []
            for p, m in enumerate(ctx.own(liar)):
                if m.kind not in CORE_KINDS or m.kind is Kind.END:
                    continue
                for j, head in enumerate(m.heads):
                    if (j == liar) != (how == "own-other"):
                        continue
                    named = held[j].get(head)
                    if named is not None and named.seq >= 1:
                        out.append((p, j, named))
            return out

        liar = ctx.liar(stream, lambda s: bool(targets(s)))
        if liar is None:
            return None
        choices = targets(liar)
        p, j, named = choices[stream.below(len(choices))]
        feed = ctx.own(liar)
        if how in ("other-held", "own-other"):
            new = ctx.own(j)[stream.below(named.seq)].hash  # an earlier message of j
        elif how == "unknown":
            new = h(ctx.base.tag, cls, str(p))
        else:  # a replacement mark where j's next message was owed
            new = replaced_head(ctx.match_id, j, named.seq + 1)
        m = feed[p]
        heads = tuple(new if k == j else x for k, x in enumerate(m.heads))
        plan = drafts(feed)
        plan[p] = dataclasses.replace(plan[p], heads=heads)
        return ctx.forged(cls, liar, plan, f"seat {liar}'s message {p} ({m.kind.name}) names "
                                           f"for seat {j} {new.hex()[:16]} in place of its "
                                           f"message {named.seq}")
    make.__name__ = cls
    return make


# --------------------------------------------------------------------------- edits


def _edited(ctx: Context, cls: str, liar: int, edit: Edit, strategy: str, detail: str) -> Mutant:
    """The liar's copy with ``edit`` (its digests made again over the swapped commitments)."""
    feed = ctx.own(liar)
    bodies = dict(edit.bodies)
    if edit.swaps:
        digests = ctx.digests(liar)
        for m in feed:
            again = redo_digests(bodies.get(m.seq, m.content), digests, edit.swaps)
            if again != m.content:
                bodies[m.seq] = again
    last = max(bodies) if strategy == "truncate" else len(feed) - 1
    plan = []
    for d in drafts(feed[:last + 1]):
        assert d.origin is not None
        body = bodies.get(d.origin.seq, d.body)
        kind = body.KIND if hasattr(body, "KIND") else d.kind
        plan.append(dataclasses.replace(d, body=body, kind=kind))
    return ctx.forged(cls, liar, plan, f"{detail}; {strategy}")


def _point_swapped(wire: tuple[Value, ...], to: Callable[[bytes], bytes]
                   ) -> tuple[Value, ...] | None:
    """``wire`` with its first group element replaced by ``to(it)`` (None: it holds none)."""
    done = [False]

    def walk(value: Value) -> Value:
        if done[0]:
            return value
        if isinstance(value, tuple):
            return tuple(walk(v) for v in value)
        if isinstance(value, bytes) and len(value) == 32:
            try:
                decode_point(value)
            except Exception:  # (not a point: any error of the group's)
                return value
            done[0] = True
            return to(value)
        return value
    out = walk(wire)
    assert isinstance(out, tuple)
    return out if done[0] else None


def _simple(ctx: Context, kind: Kind, m: Message, tag: str) -> Any:
    """A single edit of ``m`` (None: none): its body, or for LEAVE and RESIGN the other one."""
    body = m.content
    if kind is Kind.COMMIT and isinstance(body, CommitBody):
        return dataclasses.replace(body, commitment=h(tag))
    if kind is Kind.CHANCE_COMMIT and isinstance(body, ChanceCommitBody):
        event = body.commitments[0][0]
        return dataclasses.replace(body, commitments=((event, h(tag)), *body.commitments[1:]))
    if isinstance(body, SealKeyBody):  # (a key alone: its release still opens the old one)
        return dataclasses.replace(body, public_key=round_key(h(tag))[1])
    if isinstance(body, OpenBody):
        slot, value, _ = body.values[0]
        return OpenBody(((slot, value, h(tag)), *body.values[1:]))
    if isinstance(body, DeckMessageBody):
        wire = _point_swapped(encode_body(body.body),
                              lambda p: base_mul(2) if p == BASE else BASE)
        return None if wire is None else DeckMessageBody.from_body(wire)
    if isinstance(body, OfferBody):
        return OfferBody("pause" if body.what == "draw" else "draw")
    if isinstance(body, AnswerBody):
        return dataclasses.replace(body, yes=1 - body.yes)
    if isinstance(body, ClaimBody):
        return dataclasses.replace(body, count=body.count + 1)
    if isinstance(body, LeaveBody):
        return ResignBody()
    if isinstance(body, ResignBody):
        return LeaveBody()
    return None


PLACES: Final = ("first", "middle", "last")


def _edit(kind: Kind, consistent: bool = False) -> Callable[[Context], Mutant | None]:
    cls = f"{'consistent' if consistent else 'edit'}/{kind.name}"

    def make(ctx: Context) -> Mutant | None:
        stream = ctx.stream(cls)
        place = PLACES[stream.below(3)]
        strategy = ("rechain", "truncate")[stream.below(2)]
        liar = ctx.liar(stream, lambda s: any(m.kind is kind for m in ctx.own(s)))
        if liar is None:
            return None
        mine = [m for m in ctx.own(liar) if m.kind is kind]
        target = mine[{"first": 0, "middle": len(mine) // 2, "last": len(mine) - 1}[place]]
        what = f"seat {liar}'s {place} {kind.name} (its message {target.seq})"
        tag = f"{ctx.base.tag.hex()}/{cls}"
        if kind is Kind.RESUME:  # (no body: its state digest)
            plan = drafts(ctx.own(liar))
            plan[target.seq] = dataclasses.replace(plan[target.seq], state=h(tag))
            return ctx.forged(cls, liar, plan, f"{what}: another state digest")
        if consistent:
            edit = plan_edit(ctx.net, liar, kind, place)
        elif kind in (Kind.COMMIT, Kind.CHANCE_COMMIT, Kind.SEAL_KEY) or plan_edit(
                ctx.net, liar, kind, place) is None:
            body = _simple(ctx, kind, target, tag)
            edit = None if body is None else Edit({target.seq: body}, [])
        else:
            edit = plan_edit(ctx.net, liar, kind, place)
        if edit is None:
            return None
        return _edited(ctx, cls, liar, edit, strategy, what)
    make.__name__ = cls
    return make


def _sealed_lie(ctx: Context) -> Mutant | None:
    """consistent/OPEN: the liar opens another value than it sealed, and makes its sealing
    commitment (and the play commitment over it, and the digests over that) agree."""
    cls = "consistent/OPEN"
    stream = ctx.stream(cls)
    key = ctx.net.cores[0].keys

    def plan(liar: int) -> tuple[Edit, str] | None:
        feed = ctx.own(liar)
        opened = [(m, entry) for m in feed if isinstance(m.content, OpenBody)
                  for entry in m.content.values]
        values = sorted({value for _, (_, value, _) in opened})
        for m, (slot, value, _) in opened[stream.below(len(opened)):] if opened else []:
            sealer = next((s for s in feed[:m.seq] if isinstance(s.content, ActBody | RevealBody)
                           and any(x == slot for x, _ in s.content.sealed)), None)
            other = next((v for v in values if v != value), None)
            if sealer is None or other is None:
                continue
            salt = h(ctx.base.tag, cls, slot)
            new = sealed_commitment(ctx.match_id, slot, key[liar], other, salt)
            assert isinstance(m.content, OpenBody)
            body = sealer.content
            assert isinstance(body, ActBody | RevealBody)
            sealed = tuple((x, new if x == slot else c) for x, c in body.sealed)
            bodies: dict[int, Any] = {
                m.seq: OpenBody(tuple((x, other if x == slot else v, salt if x == slot else s)
                                      for x, v, s in m.content.values))}
            swaps: list[tuple[bytes, bytes]] = []
            if isinstance(body, RevealBody):
                commit = next((c for c in feed[:sealer.seq] if isinstance(c.content, CommitBody)
                               and c.content.step == body.step), None)
                if commit is None:
                    continue
                assert isinstance(commit.content, CommitBody)
                again = play_commitment(ctx.match_id, body.step, key[liar], body.action,
                                        body.salt, sealed)
                bodies[commit.seq] = dataclasses.replace(commit.content, commitment=again)
                swaps.append((commit.content.commitment, again))
            bodies[sealer.seq] = dataclasses.replace(body, sealed=sealed)
            return Edit(bodies, swaps), (f"seat {liar} opens {slot} as {other!r}, not "
                                         f"{value!r} (its message {m.seq}), sealed so in its "
                                         f"message {sealer.seq}")
        return None

    liar = ctx.liar(stream, lambda s: plan(s) is not None)
    if liar is None:
        return None
    made = plan(liar)
    assert made is not None
    return _edited(ctx, cls, liar, made[0], ("rechain", "truncate")[stream.below(2)], made[1])


# --------------------------------------------------------------------------- other own edits


def _own(how: str) -> Callable[[Context], Mutant | None]:
    cls = how

    def make(ctx: Context) -> Mutant | None:
        stream = ctx.stream(cls)
        liar = ctx.liar(stream, lambda s: len(ctx.own(s)) >= 4)
        if liar is None:
            return None
        feed = ctx.own(liar)
        plan = drafts(feed)
        p = _mid(stream, len(feed))
        m = feed[p]
        aliases: dict[bytes, bytes] = {}
        if how == "reorder":
            plan[p], plan[p + 1] = plan[p + 1], plan[p]
            detail = f"swaps its messages {p} ({m.kind.name}) and {p + 1} ({feed[p + 1].kind.name})"
        elif how == "duplicate":
            plan.insert(p + 1, dataclasses.replace(plan[p], origin=None))
            detail = f"signs its message {p} ({m.kind.name}) again as {p + 1}"
        elif how == "drop":
            del plan[p]
            before = [x for x in feed[:p] if x.kind in CORE_KINDS and x.kind is not Kind.END]
            aliases[m.hash] = before[-1].hash if before else ctx.match_id
            detail = f"drops its message {p} ({m.kind.name})"
        elif how == "state":
            plan[p] = dataclasses.replace(plan[p], state=h(ctx.base.tag, cls))
            detail = f"another state digest in its message {p} ({m.kind.name})"
        elif how == "end/transcript":
            ends = [x for x in feed if x.kind is Kind.END]
            if not ends:
                return None
            end = ends[-1]
            body = end.content
            assert isinstance(body, EndBody)
            plan[end.seq] = dataclasses.replace(plan[end.seq], body=dataclasses.replace(
                body, transcript=h(ctx.base.tag, cls)))
            detail = f"another transcript digest in its END (its message {end.seq})"
        elif how == "own-tail":
            liars_copy = ctx.base.feeds(liar)
            liars_copy[liar] = feed[:p]
            return Mutant(cls, liar, liar, copy_bytes(ctx.net.header, liars_copy),
                          f"seat {liar}'s copy without its messages {p}..{len(feed) - 1}")
        else:  # deck/low-order
            decks = [x for x in feed if isinstance(x.content, DeckMessageBody)
                     and _point_swapped(x.body, lambda b: ORDER_4_POINT) is not None]
            if not decks:
                return None
            x = decks[stream.below(len(decks))]
            wire = _point_swapped(x.body, lambda b: ORDER_4_POINT)
            assert wire is not None
            plan[x.seq] = dataclasses.replace(plan[x.seq], body=wire)
            detail = (f"a point of order 4 in its message {x.seq} (DECK "
                      f"{type(x.content.body).__name__})")  # type: ignore[union-attr]
        return ctx.forged(cls, liar, plan, f"seat {liar} {detail}", aliases=aliases)
    make.__name__ = cls
    return make


# --------------------------------------------------------------------------- no liar


def _records(data: bytes) -> list[tuple[int, int]]:
    """(offset, length with its prefix) of every record."""
    out = []
    for offset, payload, _ in split_records(data):
        if payload is not None:
            out.append((offset, 4 + len(payload)))
    return out


def _damage(how: str) -> Callable[[Context], Mutant | None]:
    cls = how

    def make(ctx: Context) -> Mutant | None:
        stream = ctx.stream(cls)
        holder = stream.below(ctx.n)
        data = ctx.base.file(holder)
        records = _records(data)
        messages = records[2:]
        if how.startswith("bitflip"):
            offset, size = records[1] if how == "bitflip/header" else messages[
                stream.below(len(messages))]
            bit = (offset + 4) * 8 + stream.below((size - 4) * 8)
            out = bytearray(data)
            out[bit // 8] ^= 1 << (bit % 8)
            return Mutant(cls, None, holder, bytes(out), f"bit {bit} of seat {holder}'s copy")
        if how == "truncate/bytes":
            start = records[2][0]
            cut = start + 1 + stream.below(len(data) - start - 1)
            return Mutant(cls, None, holder, data[:cut], f"seat {holder}'s copy cut at byte {cut}")
        if how == "truncate/records":
            k = 1 + stream.below(len(messages) - 1)
            cut = messages[k][0]
            return Mutant(cls, None, holder, data[:cut],
                          f"seat {holder}'s copy cut after {k} messages")
        if how == "omit/other-tail":
            feeds = ctx.base.feeds(holder)
            other = (holder + 1 + stream.below(ctx.n - 1)) % ctx.n
            p = _mid(stream, len(feeds[other]), 0.3, 1.0)
            feeds[other] = feeds[other][:p]
            return Mutant(cls, None, holder, copy_bytes(ctx.net.header, feeds),
                          f"seat {holder}'s copy without seat {other}'s messages {p}..")
        signed = ctx.net.header
        header, signatures = signed.header, list(signed.signatures)
        if how == "header/signatures":
            a = stream.below(ctx.n)
            b = (a + 1 + stream.below(ctx.n - 1)) % ctx.n
            signatures[a], signatures[b] = signatures[b], signatures[a]
            detail = f"seats {a} and {b}'s header signatures swapped"
        else:  # header/field
            field = ("name", "nonce", "timeouts")[stream.below(3)]
            seat = stream.below(ctx.n)
            if field == "name":
                seats = list(header.seats)
                seats[seat] = Seat(seats[seat].name + "x", seats[seat].key)
                header = dataclasses.replace(header, seats=tuple(seats))
            elif field == "nonce":
                nonces = list(header.nonces)
                nonces[seat] = h(ctx.base.tag, cls)
                header = dataclasses.replace(header, nonces=tuple(nonces))
            else:
                header = dataclasses.replace(header, timeouts=tuple(
                    t * 2 for t in header.timeouts))
            signatures[holder] = sign_header(ctx.net.keys[holder], header)
            detail = f"the header's {field} edited (seat {seat}), seat {holder} signs it again"
        record = frame(encode((header.value(), tuple(signatures))))
        offset, size = records[1]
        return Mutant(cls, None, holder, data[:offset] + record + data[offset + size:], detail)
    make.__name__ = cls
    return make


# --------------------------------------------------------------------------- every class

LIAR_CLASSES: Final[dict[str, Callable[[Context], Mutant | None]]] = {
    **{f"insert/{k.name}": _insert(k) for k in (Kind.LEAVE, Kind.RESIGN, Kind.OFFER, Kind.CLAIM)},
    "insert/ABSENT-past": _insert(Kind.ABSENT, suffix="-past"),
    **{f"truncate-then/{k.name}": _insert(k, truncate=True)
       for k in (Kind.LEAVE, Kind.RESIGN, Kind.CLAIM)},
    **{f"heads/{how}": _heads(how)
       for how in ("other-held", "unknown", "own-other", "replacement-mark")},
    **{f"consistent/{k.name}": _edit(k, consistent=True)
       for k in (Kind.COMMIT, Kind.CHANCE_COMMIT, Kind.SEAL_KEY)},
    "consistent/OPEN": _sealed_lie,
    **{f"edit/{k.name}": _edit(k) for k in Kind},
    **{how: _own(how) for how in ("reorder", "duplicate", "drop", "state", "end/transcript",
                                  "own-tail", "deck/low-order")},
}
"""The classes a seat forges in its own feed (``liar`` is that seat)."""

DAMAGE_CLASSES: Final[dict[str, Callable[[Context], Mutant | None]]] = {
    how: _damage(how) for how in ("omit/other-tail", "bitflip/message", "bitflip/header",
                                  "truncate/bytes", "truncate/records", "header/field",
                                  "header/signatures")}
"""The classes with no liar: any seat a verdict names is named wrongly."""

CLASSES: Final = {**LIAR_CLASSES, **DAMAGE_CLASSES}


def mutants(base: Base, classes: Sequence[str] | None = None) -> list[Mutant]:
    """One tampered copy of ``base`` per class (of ``classes``; default every one) that has
    something to edit in it, in the order of :data:`CLASSES`."""
    ctx = Context(base)
    out = []
    for name, make in CLASSES.items():
        if classes is not None and name not in classes:
            continue
        mutant = make(ctx)
        if mutant is not None:
            assert mutant.cls == name, (mutant.cls, name)
            out.append(mutant)
    return out
