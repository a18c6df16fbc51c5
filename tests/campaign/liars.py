"""The liar campaign (issue 24): a seat edits its own copy of a finished match and tries to get an
honest seat blamed.

Every case starts from an honest, finished match played on :mod:`protocol.mesh`'s mesh. The liar
takes its own copy of the file and rewrites one of its own messages — of a given kind — as a
careful forger would (the machinery is benchmarks/tampering/forging.py, which the tampering
benchmark shares): a new chance secret together with its commitment, another card together
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

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from benchmarks.scenario import raiders_network
from benchmarks.tampering.forging import (
    KINDS,
    Edit,
    edited_copy,
    plan_edit,
    recording,
    redo,
)
from protocol.mesh import Network
from protocol.verify.verifier import verify
from protocol.wire.messages import AbsentBody, Kind
from tests.vectors.making import silence, step_of

__all__ = ["ABSENCE_KINDS", "KINDS", "Case", "Edit", "absence_match", "cases", "edited_copy",
           "honest_match", "plan_edit", "recording", "redo"]

# The kinds a liar edits (benchmarks.tampering.forging.KINDS): ABSENT, RECLAIM and WELCOME are
# sent in the match where a seat's late message is voted absent and the seat reclaims
# (:func:`absence_match`).
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
