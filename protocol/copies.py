"""Several copies of one match verified together (protocol.md §9.4).

Each peer's file is a copy of the same match: the same header, and every feed as far as that
peer got it.  One copy cannot tell a seat that edited its own feed from a seat that signed a
false reference (a ``disputed`` verdict); several can, because an edit is a second signed
version of a slot.  :func:`verify_copies` reads every copy, proves every fork between them,
builds the fullest consistent transcript (the union of the feeds, keeping at a fork the version
the other seats' messages name), gives it one verdict, and says of each copy whether it is
short, damaged or edited.  Two copies that each carry every live seat's END over different
results are a ``split``.  Sans-I/O: bytes in, a :class:`~protocol.verify.verdicts.Verdict` out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from protocol.errors import LocalProtocolError
from protocol.match.core import MatchCore
from protocol.verify.verdicts import (
    ABANDONED,
    CLAIMED,
    DISPUTED,
    INVALID,
    SPLIT,
    VALID,
    CopyReport,
    ForkProof,
    Side,
    Verdict,
    Where,
)
from protocol.verify.verifier import Places, judge, record_numbers
from protocol.wire.feed import Feed
from protocol.wire.messages import Message
from protocol.wire.transcript import Transcript, read_transcript

__all__ = ["DifferentMatches", "verify_copies"]


class DifferentMatches(LocalProtocolError):
    """Copies of two different matches were given together (a usage error): the first two
    copies that differ, and their match ids."""

    def __init__(self, first: int, second: int, first_id: bytes, second_id: bytes) -> None:
        super().__init__(f"copies {first} and {second} are of different matches "
                         f"({first_id.hex()[:16]} and {second_id.hex()[:16]})")
        self.copies = (first, second)
        self.match_ids = (first_id, second_id)


@dataclass
class _Read:
    """One copy as read and replayed alone."""

    label: str
    transcript: Transcript
    places: Places
    verdict: Verdict
    core: MatchCore | None
    taken: list[Message]  # what its replay took, in order

    def holds(self) -> dict[int, list[Message]]:
        """Every message of each seat it holds: chained, kept aside, and second versions."""
        return {s: [*f.messages, *f.ahead, *(e.second for e in f.equivocations)]
                for s, f in self.transcript.feeds.items()}


@dataclass(frozen=True)
class _Fork:
    seat: int
    seq: int
    kept: Message
    other: Message
    decided: bool  # the other seats' messages name the kept version more than any other


def verify_copies(copies: Sequence[bytes], labels: Sequence[str] | None = None) -> Verdict:
    """One verdict for ``copies`` of one match (their ``labels``: how to name them, by default
    ``copy 0``, ``copy 1``, …), with a :class:`~protocol.verify.verdicts.CopyReport` of each in
    ``copies``; never raises on bad content.  Raises :class:`DifferentMatches` for copies of
    two matches."""
    names = list(labels) if labels is not None else [f"copy {i}" for i in range(len(copies))]
    if len(names) != len(copies) or not copies:
        raise LocalProtocolError("verify_copies needs one label per copy, and a copy")
    reads = [_read(i, names[i], bytes(data)) for i, data in enumerate(copies)]
    _same_match(reads)
    usable = [i for i, r in enumerate(reads) if r.transcript.header is not None]
    if not usable:
        return replace(reads[0].verdict, copies=tuple(_report(r, {}, []) for r in reads))
    base = reads[usable[0]].transcript
    assert base.header is not None
    places: Places = {}
    for i in usable:
        for h, w in reads[i].places.items():
            places.setdefault(h, w)
    held = {i: reads[i].holds() for i in usable}
    paths: dict[int, list[Message]] = {}
    forks: list[_Fork] = []
    merged = Transcript(header=base.header, records=0)
    for seat, feed in base.feeds.items():
        versions = [m for i in usable for m in held[i].get(seat, [])]
        path, found, ahead = _branch(seat, feed.match_id, versions, reads, usable)
        paths[seat] = path
        forks += found
        merged.feeds[seat] = _feed(feed, path, ahead)
    proofs = tuple(ForkProof(f.seat, f.seq, (f.kept, f.other),
                             (places.get(f.kept.hash, Where(0, None)),
                              places.get(f.other.hash, Where(0, None)))) for f in forks)
    reports = tuple(_report(r, paths, forks) if i in usable else _report(r, {}, [])
                    for i, r in enumerate(reads))
    blamed = tuple(sorted({f.seat for f in forks}))
    crossed = _claims(reads, usable, blamed, proofs, reports)
    if crossed is not None:
        return crossed
    sides = _sides(reads, usable)
    if len(sides) > 1:
        return _split(sides, blamed, proofs, reports)
    verdict = judge(merged, places)[0]
    if forks:
        first = forks[0]
        at = places.get(first.other.hash, Where(0, None))
        shown = "; ".join(
            f"seat {f.seat} signed two versions of its message {f.seq} ("
            + " and ".join(_where(w, reads) for w in p.where) + ")"
            for f, p in zip(forks, proofs, strict=True))
        return Verdict(INVALID, "fork", shown, blamed, record=at.record, copy=at.copy,
                       messages=merged.messages, notes=(
                           f"the merged transcript, with the versions the other seats name: "
                           f"{verdict.verdict}: {verdict.reason}", *verdict.notes),
                       forks=proofs, copies=reports)
    return replace(verdict, copies=reports)


def _read(index: int, label: str, data: bytes) -> _Read:
    t = read_transcript(data)
    places = {h: Where(index, r) for h, r in record_numbers(data, t.records).items()}
    taken: list[Message] = []
    verdict, core = judge(t, places, copy=index, observe=taken.append)
    return _Read(label, t, places, verdict, core, taken)


def _same_match(reads: list[_Read]) -> None:
    seen: tuple[int, bytes] | None = None
    for i, r in enumerate(reads):
        header = r.transcript.header or r.transcript.unsigned_header
        if header is None:
            continue
        mid = header.match_id
        if seen is None:
            seen = (i, mid)
        elif seen[1] != mid:
            raise DifferentMatches(seen[0], i, seen[1], mid)


def _branch(seat: int, root: bytes, versions: list[Message], reads: list[_Read],
            usable: list[int]) -> tuple[list[Message], list[_Fork], list[Message]]:
    """The seat's feed in the merged transcript: the path of versions from its first message,
    the forks met on the way (the version kept, and the first other one), and the messages
    beyond a gap (ahead of the path, on no branch left behind)."""
    children: dict[bytes, dict[bytes, Message]] = {}
    for m in versions:
        children.setdefault(m.prev, {}).setdefault(m.signed_bytes(), m)
    path: list[Message] = []
    forks: list[_Fork] = []
    left: set[bytes] = set()  # the first messages of branches left behind
    node = root
    while node in children:
        kids = list(children[node].values())
        if len(kids) > 1:
            score = {k.hash: _vouches(seat, k, children, reads, usable) for k in kids}
            kept = max(kids, key=lambda k: (score[k.hash], _depth(k, children), -kids.index(k)))
            decided = all(score[k.hash] < score[kept.hash] for k in kids if k is not kept)
            forks.append(_Fork(seat, kept.seq, kept, next(k for k in kids if k is not kept),
                               decided))
            left.update(k.hash for k in kids if k is not kept)
            kids = [kept]
        path.append(kids[0])
        node = kids[0].hash
    behind = _descendants(left, children)
    ahead = [m for m in versions if m.seq > len(path) and m.hash not in behind]
    return path, forks, ahead


def _descendants(roots: set[bytes], children: dict[bytes, dict[bytes, Message]]) -> set[bytes]:
    out, todo = set(roots), list(roots)
    while todo:
        for kid in children.get(todo.pop(), {}).values():
            if kid.hash not in out:
                out.add(kid.hash)
                todo.append(kid.hash)
    return out


def _depth(start: Message, children: dict[bytes, dict[bytes, Message]]) -> int:
    """How far the longest chain from ``start`` goes."""
    depth, level = 0, [start]
    while level:
        depth += 1
        level = [k for m in level for k in children.get(m.hash, {}).values()]
    return depth


def _vouches(seat: int, start: Message, children: dict[bytes, dict[bytes, Message]],
             reads: list[_Read], usable: list[int]) -> int:
    """How many messages of other seats, in any copy, name as ``seat``'s head a message of the
    branch from ``start``."""
    branch = _descendants({start.hash}, children)
    naming = {m.hash for i in usable for s, ms in reads[i].holds().items() if s != seat
              for m in ms if len(m.heads) > seat and m.heads[seat] in branch}
    return len(naming)


def _feed(like: Feed, path: list[Message], ahead: list[Message]) -> Feed:
    """The merged feed: the kept path and what lies beyond a gap — without the other versions
    of a fork, so that its replay is the match as the other seats' messages name it (the fork
    itself is the verdict)."""
    feed = Feed(like.seat, like.public_key, like.match_id, like.version)
    for m in path:
        feed.add(m, verified=True)
    for m in ahead:
        feed.add(m, verified=True)
    return feed


def _report(r: _Read, paths: dict[int, list[Message]], forks: list[_Fork]) -> CopyReport:
    t = r.transcript
    header = t.header or t.unsigned_header
    holds = r.holds()
    edited, forked = [], []
    for f in forks:
        mine = {m.signed_bytes() for m in holds.get(f.seat, []) if m.seq == f.seq}
        if len(mine) == 1 and not f.decided:
            forked.append((f.seat, f.seq))
        elif mine and f.kept.signed_bytes() not in mine:
            edited.append((f.seat, f.seq))
    lacking = []
    for seat, path in sorted(paths.items()):
        seqs = {m.seq for m in holds.get(seat, [])}
        gone = sum(1 for m in path if m.seq not in seqs)
        if gone:
            lacking.append((seat, gone))
    # (A torn last record is a crash while writing it: the copy is short, not damaged.)
    damaged = header is not None and any(p.code != "torn_tail" for p in t.problems)
    conditions = tuple(c for c, on in (("unreadable", header is None), ("edited", edited),
                                       ("forked", forked), ("damaged", damaged),
                                       ("short", lacking or t.torn)) if on)
    return CopyReport(r.label, header.match_id if header else b"", conditions, t.messages,
                      tuple(lacking), tuple(edited + forked), tuple(str(p) for p in t.problems),
                      r.verdict, t.torn)


def _claims(reads: list[_Read], usable: list[int], blamed: tuple[int, ...],
            proofs: tuple[ForkProof, ...], reports: tuple[CopyReport, ...]) -> Verdict | None:
    """Copies that ended by a CLAIM (protocol.md §7.7), read together: two claims that cross
    (each seat claimed the other's match) give ``abandoned``; a copy holding a message of the
    claimed seat at or past the claimed point gives ``disputed`` between the two seats (the
    claimed seat was only slow, or the claimant claimed too early: the copies cannot tell)."""
    claims = {}
    for i in usable:
        core = reads[i].core
        claim = core.ending.claim if core is not None else None
        if claim is not None and not claim.contested and reads[i].verdict.verdict == CLAIMED:
            claims[i] = claim
    if not claims:
        return None
    for i, claim in claims.items():
        crossing = next((j for j, other in claims.items() if other.claimant == claim.seat
                         and other.seat == claim.claimant), None)
        if crossing is not None:
            return Verdict(ABANDONED, "abandoned", f"the claims crossed: seat {claim.claimant} "
                           f"claimed seat {claim.seat}'s match ({reads[i].label}) and seat "
                           f"{claim.seat} claimed seat {claim.claimant}'s ({reads[crossing].label}"
                           "): each was silent to the other, so the match is abandoned",
                           blamed, forks=proofs, copies=reports)
    for i, claim in claims.items():
        later = sorted(m.seq for j in usable for m in reads[j].holds().get(claim.seat, [])
                       if m.seq >= claim.count)
        if later:
            return Verdict(DISPUTED, "claim_disputed", f"seat {claim.claimant} claimed seat "
                           f"{claim.seat}'s match, silent where its message {claim.count} was "
                           f"owed ({reads[i].label}), but seat {claim.seat}'s message "
                           f"{later[0]} is in the copies: it was late, or the claim came too "
                           "early — the copies cannot tell which", tuple(sorted(
                               {*blamed, claim.claimant, claim.seat})),
                           forks=proofs, copies=reports)
    return None


def _sides(reads: list[_Read], usable: list[int]) -> list[Side]:
    """The results the copies carry, each signed by every live seat of its copy: more than one
    is a split."""
    groups: dict[tuple[bytes, bytes], list[int]] = {}
    for i in usable:
        core = reads[i].core
        if reads[i].verdict.verdict == VALID and core is not None and core.final is not None:
            groups.setdefault((core.final.digest, core.final.transcript), []).append(i)
    if len(groups) < 2:
        return []
    sides = []
    for key, members in groups.items():
        others = {m.hash for k, ms in groups.items() if k != key for i in ms
                  for feed in reads[i].holds().values() for m in feed}
        first = reads[members[0]]
        core = first.core
        assert core is not None and core.final is not None
        parting = next((m for m in first.taken if m.hash not in others), None)
        sides.append(Side(tuple(members), tuple(sorted(core.end_signatures)),
                          core.final.winners, core.final.digest, parting,
                          first.places.get(parting.hash) if parting else None))
    return sides


def _split(sides: list[Side], blamed: tuple[int, ...], proofs: tuple[ForkProof, ...],
           reports: tuple[CopyReport, ...]) -> Verdict:
    parts = []
    for side in sides:
        where = ("" if side.parting is None else
                 f", parting at seat {side.parting.seat}'s message {side.parting.seq} "
                 f"({side.parting.kind.name})")
        parts.append("cop" + ("ies " if len(side.copies) > 1 else "y ")
                     + ", ".join(map(str, side.copies)) + ": seats "
                     + ", ".join(map(str, side.seats)) + f" signed a result{where}")
    first = sides[0].parting_at
    return Verdict(SPLIT, "split", "the copies carry every live seat's END over different "
                   "results (each side played on without the other): " + "; ".join(parts),
                   blamed, record=first.record if first else None,
                   copy=first.copy if first else None, forks=proofs, copies=reports,
                   sides=tuple(sides))


def _where(w: Where, reads: list[_Read]) -> str:
    record = "" if w.record is None else f" record {w.record}"
    return f"{reads[w.copy].label}{record}"
