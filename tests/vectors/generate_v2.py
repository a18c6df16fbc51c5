"""Conformance vectors v2: protocol version 2 match files and the fields of the verdict each must
get, alone or with other copies of its match.

Every file is built from fixed tags, so running this again gives the same bytes::

    python -m tests.vectors.generate_v2           # write tests/vectors/v2/
    python -m tests.vectors.generate_v2 --check   # compare with tests/vectors/v2/, write nothing

Eight groups (tests/vectors/v2/README.md lists every vector):

* **honest** — whole matches of 3, 4 and 5 seats, basic and tactical;
* **adversarial** — the runs of v1 (a seat misbehaving at the message level, signing with its
  own key what a modified client would), played again in version 2 (tests/vectors/making.py);
* **faults** — no cheat: links stall past both timeouts and heal;
* **tampered** — ``honest/3-basic.crawl`` changed after the fact, v1's changes and version 2's
  own (heads, a delivery's key message, commitment-set digests, a late vote);
* **campaign** — tests/campaign/liars.py's liar copies (a seat edits its own copy and signs it
  again): every kind it edits, at its first message of that kind, both strategies, 3 seats;
  each alone and with an honest seat's copy;
* **copies** — several copies of one match verified together: whole, short, torn, damaged,
  edited, unreadable, a split, and copies of two matches;
* **sealed** — sealed values (§7.11): Dungeon Twister matches, honest, and with a seat that
  seals a token twice, opens another value than it sealed, or leaves its commitments out
  (tests/vectors/sealed.py);
* **pools** — dice pools (§7.12): Dungeons of Kards matches, honest, and with a seat whose ACT
  carries a false pool secret (tests/vectors/pools.py);
* **deals** — private deals from shared decks (§7.13): Paper Dungeons matches, honest, with a
  seat whose share, shuffle or open is false, one lost during the deal (it restarts), and a
  seat's copy with its shuffle rewritten (tests/vectors/deals.py).

The expected result of a vector is the fields of ``cryptcrawl verify --json FILE...`` (run from
tests/vectors/v2, paths relative to it), never its prose: ``verdict``, ``blamed``, ``record``,
``reason_code``, ``waiting_for``, and for several copies ``copy`` and each copy's report, with
the ``forks``, ``sides`` and ``match_ids`` where the verdict has them; and the exit status.  They
are today's verifier's; the generator refuses to write a vector whose verdict does not show what
it was made for (:data:`WANT`, and the campaign's rule: no honest seat blamed alone, the liar
named with both its signed versions when its copy meets an honest one).

To keep the files small (tests/vectors/v2 is at most 8 MB), a file whose verdict is ``invalid``
or ``disputed`` at a record is cut a few records after it (the verdict checked unchanged:
:func:`trimmed`), and most tampered files change a prefix of ``honest/3-basic.crawl`` (up to its
first private-knowledge round's key release) rather than the whole match.

Determinism: see tests/vectors/making.py (keys, nonces, seeds and bot choices from the tags,
Ed25519 signatures deterministic, every DELIVERY sealed again under an ephemeral key derived
from the tag).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from protocol.verify.verdicts import DISPUTED, INVALID, REASON_CODES, UNREADABLE, VERDICTS
from protocol.verify.verifier import verify
from protocol.wire.messages import (
    AbsentBody,
    ChanceRevealBody,
    DeliveryBody,
    Kind,
    RevealBody,
)
from protocol.wire.transcript import split_records
from tests.campaign.liars import (
    ABSENCE_KINDS,
    KINDS,
    Edit,
    edited_copy,
    plan_edit,
    recording,
)
from tests.vectors.deals import deal_vectors
from tests.vectors.endings import crossed_claims, ending_vectors
from tests.vectors.making import (
    Base,
    Expect,
    Vector,
    VectorNetwork,
    adversarial_vectors,
    appended,
    differences,
    fault_vectors,
    honest_vectors,
    rewritten,
    stored,
    tampered_vectors,
    verify_json,
)
from tests.vectors.pools import pool_vectors
from tests.vectors.sealed import sealed_vectors
from tests.vectors.writing import FileSet, generator_main

V2 = Path(__file__).parent / "v2"
VERSION = 2
GROUPS = ("honest", "adversarial", "faults", "tampered", "campaign", "copies", "sealed",
          "pools", "deals")
LATER: tuple[str, ...] = ()
"""Verdicts whose messages come with a later protocol change: no file can get them today."""
UNREACHED = {
    "rule_broken": "every rule the verifier checks has a code of its own; this one is kept for "
                   "a reason the table does not name",
    "usage": "the command given no file or a bad option: no file to give, so no vector "
             "(`cryptcrawl verify` alone exits 2 and prints one line on standard error)",
    "claim_disputed": "needs a copy of the claimed seat holding its move that crossed the "
                      "claim: tests/protocol/mechanisms/test_claim.py makes one",
}
"""Reason codes no vector gets, with why (tests/vectors/v2/README.md)."""


# --------------------------------------------------------------------------- what each must show


@dataclass(frozen=True)
class Want:
    """What a vector's verdict must be: the verdict, the seats blamed, the reason code."""

    verdict: str
    blamed: tuple[int, ...] = ()
    code: str = ""


def w(verdict: str, blamed: tuple[int, ...] | int = (), code: str = "") -> Want:
    return Want(verdict, (blamed,) if isinstance(blamed, int) else blamed, code)


VALID = w("valid", (), "result_signed")
WANT: dict[str, Want] = {
    # sealed values
    "sealed/twister-honest": VALID,
    "sealed/token-twice-forfeit": w("valid", 1, "result_signed"),
    "sealed/token-twice": w("invalid", 1, "bad_sealed"),
    "sealed/forged-opening": w("invalid", 1, "reveal_mismatch"),
    "sealed/missing-commitment": w("invalid", 1, "bad_sealed"),
    # dice pools
    "pools/kards-honest": VALID,
    "pools/act-secret-wrong": w("invalid", 1, "reveal_mismatch"),
    "pools/act-secret-not-due": w("invalid", 1, "unexpected_message"),
    # private deals
    "deals/paper-honest": VALID,
    "deals/wrong-share": w("invalid", 1, "bad_deck"),
    "deals/shuffle-changed": w("invalid", 1, "bad_deck"),
    "deals/open-another-card": w("invalid", 1, "bad_deck"),
    "deals/seat-lost-restart": VALID,
    "deals/rewritten-shuffle": w("disputed", (0, 1), "heads_disputed"),
    **{f"honest/{n}-{v}": VALID for n in (3, 4, 5) for v in ("basic", "tactical")},
    # adversarial
    "adversarial/replaced-seat": VALID,
    "adversarial/redraw": VALID,
    "adversarial/false-absence-reclaim-basic": VALID,
    "adversarial/false-absence-reclaim-tactical": VALID,
    "adversarial/stuck-seat": VALID,
    "adversarial/lying-delivery-unopenable": w("invalid", 2, "bad_delivery"),
    "adversarial/lying-delivery-wrong-secrets": w("invalid", 2, "bad_delivery"),
    "adversarial/lying-reveal-action": w("invalid", 1, "reveal_mismatch"),
    "adversarial/lying-reveal-salt": w("invalid", 1, "reveal_mismatch"),
    "adversarial/false-end": w("invalid", 2, "false_result"),
    "adversarial/proved-fork": w("invalid", 1, "fork"),
    "adversarial/key-never-published": VALID,
    "adversarial/deliverer-leaves": VALID,
    "adversarial/lone-survivor": w("incomplete", (), "unfinished"),
    "adversarial/absence-without-every-vote": VALID,
    "adversarial/illegal-play": w("invalid", 0, "illegal_action"),
    "adversarial/other-spelling": w("invalid", 2, "illegal_action"),
    "adversarial/lying-chance-secret": w("invalid", 0, "reveal_mismatch"),
    "adversarial/lying-early-secret": w("invalid", 0, "reveal_mismatch"),
    "adversarial/diverged-state": w("invalid", 0, "state_diverged"),
    "adversarial/copied-commitment": w("invalid", 2, "reveal_mismatch"),
    "adversarial/early-secret-not-due": w("invalid", 0, "unexpected_message"),
    "adversarial/illegal-direct-reveal": w("invalid", 2, "illegal_action"),
    "adversarial/revealed-torch-peek": w("invalid", 2, "illegal_action"),
    "adversarial/reveal-instead-of-delivery": w("invalid", 2, "unexpected_message"),
    "adversarial/reveal-while-welcoming": w("abandoned", 1, "abandoned"),
    "adversarial/two-seats-replaced": VALID,
    # (Seat 3's direct reveal is proved wrong however the vote on seat 2 goes: README.md,
    # "Findings".)
    "adversarial/reveal-on-silent-seat": w("invalid", 3, "unexpected_message"),
    "adversarial/leave": VALID,
    "adversarial/resign": VALID,
    "adversarial/pause": VALID,
    "adversarial/draw-refused": VALID,
    "adversarial/leave-to-one": w("abandoned", (), "abandoned"),
    "adversarial/claim": w("claimed", (), "claimed"),
    "adversarial/false-claim": w("invalid", 1, "false_claim"),
    "faults/partition-crash-settled": VALID,
    "faults/partition-cut-off-reclaim": VALID,
    # tampered: v1's changes
    "tampered/file-record-flip": w("unreadable", (), "not_a_match_file"),
    "tampered/file-record-format-2": w("unreadable", (), "not_a_match_file"),
    **{f"tampered/header-{name}": w("invalid", (), "header_signature") for name in (
        "flip-game", "flip-nonce", "flip-seat-key", "flip-signature", "signatures-swapped",
        "signature-missing", "signed-with-wrong-key")},
    "tampered/header-length-prefix": w("unreadable", (), "unreadable_header"),
    "tampered/header-protocol-4": w("unreadable", (), "unreadable_header"),
    "tampered/header-only": w("incomplete", (), "unfinished"),
    "tampered/header-unknown-engine": w("invalid", (), "unplayable_header"),
    "tampered/header-players-mismatch": w("invalid", (), "unplayable_header"),
    "tampered/header-of-another-match": w("invalid", (), "foreign_message"),
    "tampered/empty": w("unreadable", (), "not_a_match_file"),
    "tampered/not-a-match-file": w("unreadable", (), "not_a_match_file"),
    "tampered/message-flip-match-id": w("invalid", (), "foreign_message"),
    **{f"tampered/message-flip-{name}": w("invalid", (), "bad_signature") for name in (
        "seat", "seq", "prev", "state", "body", "sig")},
    "tampered/message-flip-kind": w("invalid", (), "malformed_record"),
    **{f"tampered/body-flip-{name}": w("invalid", (), "bad_signature") for name in (
        "chance-commit", "chance-reveal", "chance-digest", "commit", "act", "seal-key",
        "delivery", "key-release", "end")},
    "tampered/message-length-prefix": w("invalid", (), "malformed_record"),
    "tampered/message-length-over-cap": w("invalid", (), "malformed_record"),
    "tampered/drop-message": w("incomplete", (), "missing_messages"),
    "tampered/drop-end": w("incomplete", (), "unsigned_result"),
    "tampered/drop-second-half": w("incomplete", (), "unfinished"),
    "tampered/reorder-by-seat": w("incomplete", (), "unfinished"),
    "tampered/reorder-reversed": VALID,
    "tampered/reorder-swap-in-feed": w("incomplete", (), "unfinished"),
    "tampered/duplicate-message": w("incomplete", (), "unfinished"),
    "tampered/duplicate-header": w("invalid", (), "malformed_record"),
    "tampered/truncate-mid-record": w("incomplete", (), "torn_tail"),
    "tampered/truncate-in-length-prefix": w("incomplete", (), "torn_tail"),
    "tampered/resigned-with-wrong-key": w("invalid", (), "bad_signature"),
    "tampered/broken-chain": w("invalid", 1, "broken_chain"),
    "tampered/equivocation": w("invalid", 1, "fork"),
    "tampered/message-of-another-match": w("invalid", (), "foreign_message"),
    "tampered/message-of-no-seat": w("invalid", (), "foreign_message"),
    "tampered/rewrite-reveal-salt": w("invalid", 1, "reveal_mismatch"),
    "tampered/rewrite-reveal-action": w("invalid", 1, "reveal_mismatch"),
    "tampered/rewrite-commit": w("disputed", (0, 1), "heads_disputed"),
    "tampered/rewrite-chance-secret": w("invalid", 2, "reveal_mismatch"),
    "tampered/rewrite-chance-commitment": w("invalid", 0, "commit_set_mismatch"),
    "tampered/rewrite-chance-digest": w("incomplete", (), "unfinished"),
    "tampered/rewrite-early-secret": w("invalid", 0, "reveal_mismatch"),
    "tampered/rewrite-state-digest": w("invalid", 0, "state_diverged"),
    "tampered/rewrite-torch-key": w("disputed", (0, 2), "heads_disputed"),
    "tampered/rewrite-key-release": w("invalid", 2, "bad_key_release"),
    "tampered/rewrite-delivery": w("disputed", (0, 2), "heads_disputed"),
    "tampered/rewrite-end-result": w("invalid", 2, "false_result"),
    "tampered/rewrite-end-transcript": w("invalid", 2, "false_result"),
    "tampered/after-result-act": w("invalid", 1, "after_result"),
    "tampered/after-result-vote": VALID,
    "tampered/junk-zeros": w("invalid", (), "malformed_record"),
    "tampered/junk-malformed-frames": w("invalid", (), "malformed_record"),
    # tampered: version 2's own
    "tampered/heads-unknown": w("disputed", (0, 1), "heads_disputed"),
    "tampered/heads-out-of-place": w("invalid", 1, "heads_out_of_place"),
    "tampered/heads-own-unknown": w("invalid", 1, "heads_out_of_place"),
    "tampered/heads-too-few": w("invalid", 1, "heads_out_of_place"),
    "tampered/delivery-key-message-unknown": w("disputed", (0, 2), "heads_disputed"),
    "tampered/delivery-key-message-out-of-place": w("invalid", 0, "heads_out_of_place"),
    "tampered/reveal-commit-set": w("invalid", 1, "commit_set_mismatch"),
    "tampered/chance-reveal-commit-set": w("invalid", 2, "commit_set_mismatch"),
    "tampered/reveal-chance-set": w("invalid", 0, "commit_set_mismatch"),
    "tampered/chance-reveal-state-digest": w("disputed", (0, 1, 2), "state_disputed"),
    "tampered/after-result-absent-vote": VALID,
    # copies
    "copies/split-seat0": VALID,
    "copies/split-seat2": VALID,
    "copies/two-whole": VALID,
    "copies/short-and-whole": VALID,
    "copies/holed-and-whole": VALID,
    "copies/torn-and-whole": VALID,
    "copies/damaged-and-whole": VALID,
    "copies/header-damaged-and-whole": VALID,
    "copies/edited-and-whole": w("invalid", 1, "fork"),
    "copies/short-only": w("incomplete", (), "unfinished"),
    "copies/unreadable": w("unreadable", (), "not_a_match_file"),
    "copies/different-matches": w("usage", (), "different_matches"),
    "copies/split": w("split", (), "split"),
    "copies/claims-crossed-seat0": w("claimed", (), "claimed"),
    "copies/claims-crossed-seat1": w("claimed", (), "claimed"),
    "copies/claims-crossed": w("abandoned", (), "abandoned"),
}
"""The verdict, seats blamed and reason code each vector must get (the campaign's are a rule,
:func:`campaign_problems`)."""


@dataclass(frozen=True)
class Entry:
    """One vector: the files given to ``cryptcrawl verify`` (one: ``single``; several:
    ``copies``), what it is, and what it must show (``want``, else ``rule``)."""

    name: str
    group: str
    description: str
    files: tuple[str, ...]
    want: Want | None = None
    rule: Callable[[dict[str, Any]], list[str]] | None = None

    @property
    def command(self) -> str:
        return "single" if len(self.files) == 1 else "copies"


class Vectors(FileSet):
    """The files and entries being built."""

    def __init__(self) -> None:
        super().__init__()
        self.entries: list[Entry] = []

    def single(self, name: str, description: str, data: bytes, *,
               rule: Callable[[dict[str, Any]], list[str]] | None = None) -> str:
        path = self.file(f"{name}.crawl", data)
        self.entries.append(Entry(name, name.split("/")[0], description, (path,),
                                  None if rule else WANT[name], rule))
        return path

    def together(self, name: str, description: str, files: Iterable[str], *,
                 rule: Callable[[dict[str, Any]], list[str]] | None = None) -> None:
        paths = tuple(files)
        assert all(p in self.files for p in paths) and len(paths) > 1
        self.entries.append(Entry(name, name.split("/")[0], description, paths,
                                  None if rule else WANT[name], rule))


# --------------------------------------------------------------------------- shorter files


def records(data: bytes) -> list[int]:
    """The byte offset of each record of ``data`` (a torn or oversized last one included)."""
    return [offset for offset, _payload, _problem in split_records(data)]


def key_fields(data: bytes) -> tuple[Any, ...]:
    v = verify(data)
    return (v.verdict, v.blamed, v.record, v.reason_code, v.waiting_for)


def trimmed(data: bytes, description: str) -> tuple[bytes, str]:
    """``data`` cut a few records after the record its ``invalid`` or ``disputed`` verdict
    names (an ``unreadable`` one: after the header) — the shortest such prefix (0, 2, 8, 32 or
    128 records after it) whose verdict has the same fields — and its description saying so;
    else ``data`` as it is."""
    fields = key_fields(data)
    verdict, record = fields[0], fields[2]
    if verdict == UNREADABLE:
        record = 1  # (nothing after the file record and the header is read)
    if verdict not in (INVALID, DISPUTED, UNREADABLE) or record is None:
        return data, description
    offsets = records(data)
    for extra in (0, 2, 8, 32, 128):
        keep = record + 1 + extra
        if keep >= len(offsets):
            break
        cut = data[:offsets[keep]]
        if key_fields(cut) == fields:
            return cut, (f"{description} Cut after record {keep - 1} of {len(offsets) - 1} "
                         "(what follows is left out; the verdict is the same).")
    return data, description


# --------------------------------------------------------------------------- the groups


def played(out: Vectors, adversarial: bool) -> dict[str, VectorNetwork]:
    """Honest (and with ``adversarial``, adversarial and faults); the networks of the campaign's
    matches (:data:`MATCHES`) among them."""
    nets = {}
    vectors, _ = honest_vectors(VERSION)
    if adversarial:
        vectors += (adversarial_vectors(VERSION) + ending_vectors(VERSION)
                    + fault_vectors(VERSION))
    for v in vectors:
        data, description = trimmed(v.data, v.description)
        out.single(v.name, description, data)
        for match, name in MATCHES.items():
            if v.name == name:
                nets[match] = v.net
    return nets


def prefix(whole: Base) -> Base:
    """``whole`` up to seat 0's sixth COMMIT: every message the changes of a prefix name but
    the private-knowledge round's (those change the whole file, then cut: :func:`trimmed`)."""
    last = whole.find(lambda m: m.seat == 0 and m.kind is Kind.COMMIT, 5)
    part = Base(whole.net, whole.data[:whole.start(whole.record_of(last) + 1) - 4])
    assert len(part.messages) > 60 and part.find(
        lambda m: m.seat == 2 and m.kind is Kind.CHANCE_DIGEST, 1)
    return part


def tampered(out: Vectors, whole: Base) -> None:
    part = prefix(whole)
    for v in tampered_vectors(whole, part) + v2_tampered(whole, part):
        data, description = trimmed(v.data, v.description)
        out.single(v.name, description, data)


def v2_tampered(whole: Base, part: Base) -> list[Vector]:
    """Version 2's own changes: heads, a delivery's key message, the commitment-set digests of
    reveals, a vote on a long-past point after the result (their verdicts: :data:`WANT`)."""
    out: list[Vector] = []
    cut = f" (base: honest/3-basic.crawl, its first {len(part.payloads)} records)"

    def add(name: str, description: str, data: bytes, on: Base = part) -> None:
        note = cut if on is part else " (base: honest/3-basic.crawl)"
        out.append(Vector("tampered/" + name, description + note, data, Expect("")))

    unknown = hashlib.sha256(b"cryptcrawl/vectors/v2/unknown head").digest()
    victim = part.find(lambda m: m.seat == 1 and m.kind is Kind.COMMIT, 2)
    heads = victim.heads
    add("heads-unknown", f"Seat 1's COMMIT (message {victim.seq}) names, as seat 0's head, a "
        "message this copy does not hold; seat 1's feed signed again from there (one copy "
        "cannot tell an edited feed from a false reference).",
        rewritten(part, victim, heads=(unknown, *heads[1:])))
    earlier = next(m for m in part.messages if m.seat == 0 and m.kind in (
        Kind.CHANCE_COMMIT, Kind.COMMIT) and m.hash != heads[0])
    add("heads-out-of-place", f"Seat 1's COMMIT (message {victim.seq}) names, as seat 0's "
        f"head, seat 0's message {earlier.seq}, which this copy holds elsewhere in that feed; "
        "seat 1's feed signed again from there.",
        rewritten(part, victim, heads=(earlier.hash, *heads[1:])))
    add("heads-own-unknown", f"Seat 1's COMMIT (message {victim.seq}) names, as its own head, "
        "a message of no feed; seat 1's feed signed again from there.",
        rewritten(part, victim, heads=(heads[0], unknown, *heads[2:])))
    add("heads-too-few", f"Seat 1's COMMIT (message {victim.seq}) names 2 heads for 3 seats; "
        "seat 1's feed signed again from there.", rewritten(part, victim, heads=heads[:2]))
    delivery = whole.find(lambda m: m.kind is Kind.DELIVERY)
    body = delivery.content
    assert isinstance(body, DeliveryBody)
    owner = whole.net.seats[delivery.seat].core.rounds[body.round].seat
    add("delivery-key-message-unknown", f"Seat {delivery.seat}'s DELIVERY to seat {owner}'s "
        "round names, as the round's key message, a message this copy does not hold; its feed "
        "signed again from there.",
        rewritten(whole, delivery, body=dataclasses.replace(body, key_message=unknown)),
        on=whole)
    other = next(m for m in whole.messages if m.seat == owner and m.hash != body.key_message)
    add("delivery-key-message-out-of-place", f"Seat {delivery.seat}'s DELIVERY names, as seat "
        f"{owner}'s round's key message, seat {owner}'s message {other.seq} (held, not its "
        "SEAL_KEY); its feed signed again from there.",
        rewritten(whole, delivery, body=dataclasses.replace(body, key_message=other.hash)),
        on=whole)
    reveal = part.find(lambda m: m.seat == 1 and m.kind is Kind.REVEAL, 2)
    rb = reveal.content
    assert isinstance(rb, RevealBody)
    add("reveal-commit-set", f"Seat 1's REVEAL of {rb.step} names a commitment set of zeros; "
        "its feed signed again from there.",
        rewritten(part, reveal, body=dataclasses.replace(rb, commit_set=bytes(32))))
    secret = part.find(lambda m: m.seat == 2 and m.kind is Kind.CHANCE_REVEAL, 4)
    sb = secret.content
    assert isinstance(sb, ChanceRevealBody)
    add("chance-reveal-commit-set", f"Seat 2's CHANCE_REVEAL of {sb.secrets[0][0]} names a "
        "commitment set of zeros; its feed signed again from there.",
        rewritten(part, secret, body=dataclasses.replace(sb, commit_set=bytes(32))))
    early = part.find(lambda m: isinstance(m.content, RevealBody) and bool(m.content.chance))
    eb = early.content
    assert isinstance(eb, RevealBody)
    add("reveal-chance-set", f"Seat {early.seat}'s REVEAL of {eb.step} carries its secret for "
        "the room the step turns early with a chance set of zeros; its feed signed again from "
        "there.", rewritten(part, early, body=dataclasses.replace(eb, chance_set=bytes(32))))
    second = part.find(lambda m: m.seat == 2 and m.kind is Kind.CHANCE_REVEAL, 1)
    add("chance-reveal-state-digest", f"Seat 2's second CHANCE_REVEAL (message {second.seq}) "
        "carries another public state digest; its feed signed again from there. The state it "
        "is judged against rests on the other seats' reveals of the batch, which its heads do "
        "not name (they name the commitments): a dispute, not a proof.",
        rewritten(part, second, state=hashlib.sha256(b"another state").digest()))
    add("after-result-absent-vote", "Seat 1 appends, after every seat signed the result, a "
        "signed ABSENT vote on seat 2 at its message 3 (a long-past point): a note, acted on "
        "by nobody (issue 24 item 2).",
        appended(whole, 1, Kind.ABSENT, AbsentBody(2, 3, 1)), on=whole)
    return out


# --------------------------------------------------------------------------- the campaign


CAMPAIGN: tuple[tuple[Kind, str, int], ...] = (
    (Kind.COMMIT, "basic", 2), (Kind.REVEAL, "basic", 1),
    (Kind.CHANCE_COMMIT, "tactical", 1), (Kind.CHANCE_REVEAL, "tactical", 2),
    (Kind.CHANCE_DIGEST, "tactical", 1), (Kind.ACT, "tactical", 2),
    (Kind.END, "tactical", 1), (Kind.SEAL_KEY, "tactical", 0), (Kind.DELIVERY, "tactical", 2),
    (Kind.KEY_RELEASE, "tactical", 0),
    (Kind.ABSENT, "absence", 0), (Kind.RECLAIM, "absence", 2), (Kind.WELCOME, "absence", 1),
)
"""Each kind a liar edits (tests/campaign/liars.py KINDS), the match it edits — the basic one
(honest/3-basic), the tactical one (honest/3-tactical: turns, no simultaneous steps) or the one
with an absence and a reclaim (adversarial/false-absence-reclaim-tactical) — and the liar."""

MATCHES = {"basic": "honest/3-basic", "tactical": "honest/3-tactical",
           "absence": "adversarial/false-absence-reclaim-tactical"}
"""Each campaign match's file: the copy of the seat given with it (:data:`PARTNERS`)."""
PARTNERS = {"basic": 0, "tactical": 0, "absence": 2}


def campaign(out: Vectors, nets: dict[str, VectorNetwork]) -> None:
    """Every kind a liar edits, at its first message of that kind, both strategies; alone and
    beside an honest seat's copy."""
    assert {kind for kind, _, _ in CAMPAIGN} == set(KINDS)
    copies = {m: {PARTNERS[m]: f"{MATCHES[m]}.crawl"} for m in MATCHES}
    digests: dict[tuple[str, int], Any] = {}
    for kind, match, liar in CAMPAIGN:
        net = nets[match]
        assert (kind in ABSENCE_KINDS) == (match == "absence")
        if (match, liar) not in digests:
            with recording() as made:
                assert verify(net.match_file(liar)).valid
            digests[(match, liar)] = made
        edit = plan_edit(net, liar, kind, "first")
        assert isinstance(edit, Edit), (kind, liar)
        known = copies[match]
        partner = next((s for s in known if s != liar), None)
        if partner is None:
            partner = (liar + 1) % len(net.cores)
            known[partner] = out.file(f"copies/{MATCHES[match].split('/')[1]}-seat{partner}"
                                      ".crawl", net.file(partner))
        kept: dict[bytes, str] = {}
        for strategy in ("rechain", "truncate"):
            data, touched = edited_copy(net, liar, edit, strategy, digests[(match, liar)])
            name = f"campaign/3seats-liar{liar}-{kind.name.lower()}-first-{strategy}"
            how = ("every later message of its kept and signed again on the new chain"
                   if strategy == "rechain" else "its feed ending with the last message the "
                   "edit touched")
            description = (
                f"The match of {MATCHES[match]}: seat {liar} edits its own copy at its first "
                f"{kind.name} (message(s) {', '.join(map(str, touched))} of its feed changed, "
                f"tests/campaign/liars.py), {how}. Alone: never an honest seat blamed alone.")
            if data in kept:  # (the edit is the liar's last message: both strategies agree)
                path = kept[data]
                out.entries.append(Entry(name, "campaign", description + " The same file as "
                                         "the other strategy's.", (path,),
                                         rule=alone_rule(liar)))
            else:
                path = kept[data] = out.single(name, description, data, rule=alone_rule(liar))
            out.together(f"{name}.with-honest{partner}", f"The liar's copy ({path}) and seat "
                         f"{partner}'s honest copy: the liar is proved, with both signed "
                         "versions, one from each copy.", (path, known[partner]),
                         rule=pair_rule(liar))


def alone_rule(liar: int) -> Callable[[dict[str, Any]], list[str]]:
    def rule(f: dict[str, Any]) -> list[str]:
        if f["verdict"] == "valid":
            return ["an edited copy reads valid"]
        if f["verdict"] == "invalid" and f["blamed"] and f["blamed"] != [liar]:
            return [f"an honest seat blamed: {f['blamed']}"]
        if f["verdict"] == "disputed" and liar not in f["blamed"]:
            return [f"a dispute without the liar: {f['blamed']}"]
        if f["verdict"] not in ("invalid", "disputed") and f["blamed"]:
            return [f"{f['verdict']} blames {f['blamed']}"]
        return []
    return rule


def pair_rule(liar: int) -> Callable[[dict[str, Any]], list[str]]:
    def rule(f: dict[str, Any]) -> list[str]:
        wrong = []
        if (f["verdict"], f["blamed"], f["reason_code"]) != ("invalid", [liar], "fork"):
            wrong.append(f"{f['verdict']} {f['blamed']} {f['reason_code']}")
        if not any(fork["seat"] == liar and {v["copy"] for v in fork["versions"]} == {0, 1}
                   for fork in f.get("forks", [])):
            wrong.append("no fork of the liar with a version from each copy")
        states = [c["state"] for c in f["copies"]]
        if states not in (["edited", "whole"], ["forked", "forked"]):
            wrong.append(f"copies read {states}")
        return wrong
    return rule


# --------------------------------------------------------------------------- several copies


def split_network() -> VectorNetwork:
    """Four seats; the network splits into {0, 1} and {2, 3} for good after 60 deliveries: each
    side votes the other absent and finishes its own match (as
    tests/protocol/verify/test_copies.py)."""
    net = VectorNetwork(4, tag=b"copies/split", version=VERSION)
    net.pump(limit=60, partial=True)
    net.land_in_flight()
    apart = {(a, b) for a in (0, 1) for b in (2, 3)}
    net.stall(apart | {(b, a) for a, b in apart}, rounds=2)
    assert all(core.signed for core in net.cores)
    return net


def copies(out: Vectors) -> None:
    whole = "honest/3-basic.crawl"
    out.together("copies/two-whole", "Seats 0 and 1's copies of one whole match.",
                 ("honest/3-tactical.crawl", "copies/3-tactical-seat1.crawl"))
    out.together("copies/short-and-whole", "A copy cut at half its records and a whole copy: "
                 "the short one is reported short.",
                 ("tampered/drop-second-half.crawl", whole))
    out.together("copies/holed-and-whole", "A prefix of the match lacking a message of seat 2, "
                 "and a whole copy.",
                 ("tampered/drop-message.crawl", whole))
    out.together("copies/torn-and-whole", "A copy whose last record is torn and a whole copy.",
                 ("tampered/truncate-mid-record.crawl", whole))
    out.together("copies/damaged-and-whole", "A copy with a byte of a message flipped (a bad "
                 "signature) and a whole copy: the first is damaged.",
                 ("tampered/message-flip-sig.crawl", whole))
    out.together("copies/header-damaged-and-whole", "A copy whose header signature fails and a "
                 "whole copy: the first is damaged, none of its records used.",
                 ("tampered/header-flip-signature.crawl", whole))
    out.together("copies/edited-and-whole", "Seat 1's feed edited and signed again (a "
                 "disputed copy alone) beside a whole copy: seat 1 is proved to have signed "
                 "two versions.", ("tampered/rewrite-commit.crawl", whole))
    out.together("copies/short-only", "Two short copies (a header alone, and half the "
                 "records): the merged transcript stops short too.",
                 ("tampered/header-only.crawl", "tampered/drop-second-half.crawl"))
    out.together("copies/unreadable", "Two files that are no match file.",
                 ("tampered/empty.crawl", "tampered/not-a-match-file.crawl"))
    out.together("copies/different-matches", "Copies of two different matches: a usage error "
                 "naming both match ids.", (whole, "honest/3-tactical.crawl"))
    split = split_network()
    a = out.single("copies/split-seat0", "Four seats; after 60 deliveries the network splits "
                   "into {0, 1} and {2, 3} for good: each side votes the other absent, its "
                   "zombies play, and it finishes. The file of seat 0.", split.file(0))
    b = out.single("copies/split-seat2", "The same match as copies/split-seat0: the file of "
                   "seat 2 (its side finished another result).", split.file(2))
    out.together("copies/split", "The two sides' copies of copies/split-seat0: each valid alone, "
                 "over different results.", (a, b))
    crossed = crossed_claims()
    a = out.single("copies/claims-crossed-seat0", "Three seats; seat 2 leaves for good, then "
                   "the link between seats 0 and 1 goes down both ways: each times the other "
                   "out and claims its match. The file of seat 0 (claimed).", crossed.file(0))
    b = out.single("copies/claims-crossed-seat1", "The same match as "
                   "copies/claims-crossed-seat0: the file of seat 1 (claimed too).",
                   crossed.file(1))
    out.together("copies/claims-crossed", "The two claimants' copies of "
                 "copies/claims-crossed-seat0: each claimed alone; together the claims cross.",
                 (a, b))


# --------------------------------------------------------------------------- verdicts


def fields(j: dict[str, Any]) -> dict[str, Any]:
    """The fields of ``cryptcrawl verify --json`` output that a vector pins."""
    out = {k: j.get(k) for k in ("verdict", "blamed", "record", "reason_code")}
    out["waiting_for"] = j.get("waiting_for", [])
    several = "files" in j
    if several:
        out["copy"] = j.get("copy")
    if j.get("match_ids"):
        out["match_ids"] = j["match_ids"]
    if j.get("forks"):
        out["forks"] = [{"seat": f["seat"], "message": f["message"], "versions": [
            {"copy": v["copy"], "record": v["record"]} for v in f["versions"]]}
            for f in j["forks"]]
    if j.get("sides"):
        out["sides"] = [{"copies": s["copies"], "seats": s["seats"], "winners": s["winners"],
                         "parting": None if s["parting"] is None else {
                             k: s["parting"][k] for k in ("seat", "message", "copy", "record")}}
                        for s in j["sides"]]
    if several and "copies" in j:
        out["copies"] = [{
            "file": c["file"], "state": c["state"], "conditions": c["conditions"],
            "torn": c["torn"], "lacking": c["lacking"], "edited": c["edited"],
            "alone": {k: c["alone"].get(k) for k in (
                "verdict", "blamed", "record", "reason_code", "waiting_for")}}
            for c in j["copies"]]
    return out


def run(root: Path, files: tuple[str, ...]) -> tuple[int, dict[str, Any]]:
    """The exit status and the pinned fields of ``cryptcrawl verify --json FILES`` run from
    ``root``."""
    code, text, _err = verify_json(root, list(files) if len(files) > 1 else files[0])
    return code, fields(json.loads(text))


def problems_of(entry: Entry, got: dict[str, Any]) -> list[str]:
    if entry.rule is not None:
        return entry.rule(got)
    want = entry.want
    assert want is not None
    have = Want(got["verdict"], tuple(got["blamed"]), got["reason_code"])
    return [] if have == want else [f"{have}, not {want}"]


def generate(groups: Iterable[str] = GROUPS) -> Vectors:
    """The vectors of ``groups`` and of the groups they build on (``copies`` all the others,
    ``campaign`` honest and adversarial, ``tampered`` honest)."""
    wanted = set(groups)
    out = Vectors()
    nets = played(out, adversarial=bool(wanted & {"adversarial", "faults", "campaign",
                                                  "copies"}))
    if wanted & {"tampered", "copies"}:
        tampered(out, Base(nets["basic"], out.files["honest/3-basic.crawl"]))
    if wanted & {"campaign", "copies"}:
        campaign(out, nets)
    if "copies" in wanted:
        copies(out)
    if "sealed" in wanted:
        for v in sealed_vectors():
            out.single(v.name, v.description, v.data)
    if "pools" in wanted:
        for v in pool_vectors():
            out.single(v.name, v.description, v.data)
    if "deals" in wanted:
        for v in deal_vectors():
            data, description = trimmed(v.data, v.description)
            out.single(v.name, description, data)
    return out


def build_files(groups: Iterable[str]) -> dict[str, bytes]:
    """The match files of ``groups`` alone (no manifest, no verdicts): path -> bytes."""
    chosen = tuple(groups)
    return {p: d for p, d in generate(chosen).files.items() if p.split("/")[0] in chosen}


def build() -> dict[str, bytes]:
    """Every file of tests/vectors/v2: path (relative to v2) -> bytes."""
    vectors = generate()
    names = [e.name for e in vectors.entries]
    assert len(set(names)) == len(names), "two vectors share a name"
    assert set(WANT) <= set(names), f"no vector for {sorted(set(WANT) - set(names))}"
    entries, problems = [], []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for path, data in vectors.files.items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_bytes(data)
        for e in vectors.entries:
            code, got = run(root, e.files)
            problems += [f"{e.name}: {p}" for p in problems_of(e, got)]
            entries.append({"name": e.name, "group": e.group, "command": e.command,
                            "files": list(e.files), "exit": code, "expected": got,
                            "description": e.description})
    if problems:
        raise AssertionError("vectors that do not show what they were made for:\n  "
                             + "\n  ".join(problems))
    listed = {p for e in entries for p in e["files"]}
    assert listed == set(vectors.files), sorted(set(vectors.files) ^ listed)
    manifest = {
        "format": 1, "protocol": VERSION, "generator": "python -m tests.vectors.generate_v2",
        "command": {"single": "cryptcrawl verify --json FILE", "copies":
                    "cryptcrawl verify --json FILE FILE ...", "cwd": "tests/vectors/v2"},
        "files": {p: {"size": len(d), "sha256": hashlib.sha256(d).hexdigest()}
                  for p, d in sorted(vectors.files.items())},
        "vectors": entries}
    files = dict(sorted(vectors.files.items()))
    files["manifest.json"] = manifest_text(manifest).encode()
    files["README.md"] = readme(entries, files)
    return files


def manifest_text(manifest: dict[str, Any]) -> str:
    """The manifest as JSON: one line per file and per vector."""
    def one(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)
    head = ",\n".join(f" {one(k)}: {one(v)}" for k, v in manifest.items()
                      if k not in ("files", "vectors"))
    files = ",\n".join(f"  {one(p)}: {one(v)}" for p, v in manifest["files"].items())
    vectors = ",\n".join(f"  {one(v)}" for v in manifest["vectors"])
    text = f"{{\n{head},\n \"files\": {{\n{files}\n }},\n \"vectors\": [\n{vectors}\n ]\n}}\n"
    assert json.loads(text) == manifest
    return text


# --------------------------------------------------------------------------- README


def coverage(entries: list[dict[str, Any]]) -> dict[tuple[str, str], int]:
    """(verdict, reason code) -> how many vectors get it (the verdict of several copies and
    each copy's alone included)."""
    seen: Counter[tuple[str, str]] = Counter()
    for e in entries:
        x = e["expected"]
        seen[(x["verdict"], x["reason_code"])] += 1
    return dict(seen)


README = """\
# Conformance vectors, protocol v2

Match files of protocol version 2 (`.crawl`: the record format is docs/protocol.md §9.1) and the
verdict `cryptcrawl verify` must give each — alone, or with other copies of its match (§9.4) —
as fields, never prose (§9.3). An implementation of version 2 (this one after a change, or
another written from docs/protocol.md) runs every vector and compares the fields.

Every file here is written by `python -m tests.vectors.generate_v2` from fixed tags (keys,
nonces, seeds, bot choices; Ed25519 signatures are deterministic, and every delivery is sealed
under an ephemeral key derived from a tag: tests/vectors/making.py). `tests/vectors/test_v2.py`
checks that they regenerate byte for byte and that the verifier gives every expected field and
exit status. Version 1 files are in `../v1/` (frozen).

Every group but `sealed/`, `pools/` and `deals/` is Dungeon Raiders (docs/rules/raiders.md).
The `sealed/` vectors are Dungeon Twister matches (docs/rules/twister.md): its starting teams
and face-down tokens are the sealed values of docs/protocol.md §7.11. The `pools/` vectors are
Dungeons of Kards matches (docs/rules/kards.md), whose dice are drawn from the pools of §7.12.
The `deals/` vectors are Paper Dungeons matches (docs/rules/paper.md), whose powers and
objectives are dealt privately from the shared decks of §7.13 (docs/deck.md). A verifier needs
those games' engines too.

## Running them

From this directory, for every entry of `manifest.json`'s `vectors`:

- `command` `single`: run `cryptcrawl verify --json FILE` on its one file;
- `command` `copies`: run `cryptcrawl verify --json FILE FILE …` on its files, in their order
  (several copies of one match verified together);

then compare the exit status with `exit` and the fields of the JSON printed on standard output
with `expected`, key by key (lists in order). The prose (`reason`, `notes`) is this program's
and is not compared. A usage error (copies of different matches) also prints one line on
standard error.

Exit status: valid 0, invalid 1, usage 2, unreadable 3, incomplete 4, claimed 5, disputed 6,
abandoned 7, split 8.

For example:

    python3 - <<'PY'
    import json, subprocess
    KEYS = ("verdict", "blamed", "record", "reason_code", "waiting_for")
    for v in json.load(open("manifest.json"))["vectors"]:
        run = subprocess.run(["cryptcrawl", "verify", "--json", *v["files"]],
                             capture_output=True, text=True)
        got = json.loads(run.stdout)
        assert run.returncode == v["exit"], v["name"]
        for k in KEYS:
            assert got.get(k, []) == v["expected"][k], (v["name"], k)
    PY

(`fields()` in tests/vectors/generate_v2.py reads every other field from the output.)

## manifest.json

- `protocol`: 2; `command`: the two commands and the directory they run from.
- `files`: every match file, with its `size` and `sha256`.
- `vectors`: one entry per vector:
  - `name`: `GROUP/NAME` (a single file is named `NAME.crawl`, but for one campaign copy that
    both strategies make alike);
  - `group`: `honest`, `adversarial`, `faults`, `tampered`, `campaign` or `copies`;
  - `command`: `single` (one file) or `copies` (several copies of one match);
  - `files`: the paths given, relative to this directory;
  - `exit`: the exit status;
  - `expected`: the verdict's fields, below;
  - `description`: what the vector is, in words (never compared).

`expected` holds:

- always `verdict`; `blamed` (the seats at fault, a sorted list: one seat for a proof, the seats
  of a dispute, none for damage); `record` (the first record at fault, or the disputed message's,
  counting the file record as 0; `null` when none); `reason_code` (§9.3's table); `waiting_for`
  (the seats an `incomplete` match waits for, else `[]`);
- where the verdict has them: `forks` (for each seat that signed two versions of a slot: `seat`,
  `message` — the slot's sequence number — and its two `versions`, each with its `copy` and
  `record`); `sides` (a split: for each side its `copies`, the `seats` that signed its result, its
  `winners`, and its `parting` message — `seat`, `message`, `copy`, `record` — the first of its
  replay that the other side's copies lack); `match_ids` (copies of two matches, in hex);
- for `copies`: `copy` (the copy `record` is in; `null` when none) and `copies`, a report per copy
  in the order given: `file`, `state` (`whole`, `short`, `damaged`, `edited`, `forked` or
  `unreadable`), `conditions` (every one that holds), `torn` (its last record cut short),
  `lacking` (per seat, how many messages of the merged transcript it lacks), `edited` (the slots
  it holds another version of), and `alone` (its own verdict's five fields above).

## The groups

- `honest/`: whole matches of 3, 4 and 5 seats, basic and tactical, random bots (private-
  knowledge rounds, early turns, reveals at once): `valid`. Some peers take every message in the
  order sent, some in their own scrambled order.
- `adversarial/`: v1's runs made again in version 2. One seat misbehaves at the message level,
  signing with its own key what a modified client would: silent seats replaced by their zombie,
  a re-draw, a false absence and a reclaim, a stuck seat, lying deliveries, lying reveals, a
  false END, a proved fork, illegal plays, a wrong state digest, secrets shown too early, reveals
  at once where no honest seat reveals at once. The file is an honest peer's.
- `faults/`: no cheat. Links stall past both timeouts and heal (the partitions of `python -m
  benchmarks partitions`); votes cross and are settled.
- `tampered/`: `honest/3-basic.crawl` changed after the fact. v1's changes: a byte flipped in
  every region, records dropped, reordered, duplicated, cut, framed wrongly, re-signed with
  another key, a seat's own feed rewritten and signed again, messages of another match or of no
  seat, junk. Version 2's own: a message's heads naming a message the copy does not hold, one it
  holds elsewhere, too few heads; a delivery's key message; the commitment-set digests of
  reveals; a state digest a message's heads do not vouch for; a vote on a long-past point after
  the result. Most change a prefix of the match; those that need a later message or the end
  change the whole file.
- `campaign/`: tests/campaign/liars.py's liar copies. A seat edits its own copy of a finished
  3-seat match as a careful forger would (a commitment with its secret, a card with its
  commitment and salt, a round key with its release, every digest of its own redone), signs it
  again, and keeps every later message (`rechain`) or ends its feed with the edit (`truncate`):
  every kind it edits, at its first message of that kind, COMMIT and REVEAL in
  `honest/3-basic`, the others in `honest/3-tactical`, ABSENT, RECLAIM and WELCOME in
  `adversarial/false-absence-reclaim-tactical`. Alone, a liar's copy never gets an honest seat
  blamed alone (`invalid` blaming the liar, `disputed` naming it with another seat, or
  `incomplete` blaming nobody); beside seat N's honest copy (`.with-honestN`) it gets `invalid`,
  `fork`, the liar blamed, with one version from each copy.
- `copies/`: several copies verified together: two whole copies; a short, a holed, a torn, a
  damaged copy and one with a damaged header, each completed by a whole one; an edited copy
  proved by a whole one; two short ones; two unreadable files; copies of two different matches
  (`usage`); a split (two copies each `valid` alone, over different results). Other seats'
  copies that the campaign and these need are here too.

A file whose verdict is `invalid`, `disputed` or `unreadable` is kept only a few records past the
record at fault (its description says where it was cut; the verdict is the whole file's), so that
the directory stays well under 8 MB.

## Coverage

Every verdict the verifier gives has vectors. Vectors per verdict and reason
code (each vector's own verdict; a copy's report inside `copies` not counted):

"""


def readme(entries: list[dict[str, Any]], files: dict[str, bytes]) -> bytes:
    lines = [README.rstrip("\n"), "", "| verdict | reason code | vectors |", "|---|---|---|"]
    seen = coverage(entries)
    for code, (verdict, _meaning) in REASON_CODES.items():
        count = seen.get((verdict, code), 0)
        shown = str(count) if count else f"none: {UNREACHED[code]}"
        lines.append(f"| {verdict} | `{code}` | {shown} |")
    assert all(v in VERDICTS for v, _ in seen)
    lines += ["", "Files and vectors per group:", "", "| group | files | bytes | vectors |",
              "|---|---|---|---|"]
    for group in GROUPS:
        held = [d for p, d in files.items() if p.startswith(group + "/")]
        count = sum(e["group"] == group for e in entries)
        lines.append(f"| {group} | {len(held)} | {sum(map(len, held)):,} | {count} |")
    lines += ["", FINDINGS.rstrip("\n"), "", "## The vectors", ""]
    for group in GROUPS:
        lines += [f"### {group}", "", "| vector | files | verdict | blamed | reason code |",
                  "|---|---|---|---|---|"]
        for e in entries:
            if e["group"] != group:
                continue
            x = e["expected"]
            given = ("" if e["command"] == "single" and e["files"][0] == e["name"] + ".crawl"
                     else ", ".join(f"`{f}`" for f in e["files"]))
            lines.append(f"| `{e['name']}` | {given} | {x['verdict']} | "
                         f"{', '.join(map(str, x['blamed']))} | `{x['reason_code']}` |")
        lines.append("")
    return ("\n".join(lines).rstrip("\n") + "\n").encode()


FINDINGS = """\
## Findings

- `adversarial/reveal-on-silent-seat`: every peer replaced seat 3 for revealing at once before
  delivering to seat 1's private-knowledge round, then seat 2, and signed. While generating
  these vectors the file read `incomplete`: a file holds the votes on seat 2 from the start, and
  a vote pending on any seat held the proof back, while the peers had found it before the votes
  arrived. In version 2 only a vote on the seats a direct reveal's proof rests on (the revealer,
  the round's owner) holds it back, so the file and the peers agree: `invalid`, seat 3. (In v1
  the run reads `valid`, seat 3 voted out as stuck: v1 keeps its rule.)
"""


def main(argv: list[str] | None = None) -> int:
    return generator_main(argv, prog="python -m tests.vectors.generate_v2", doc=__doc__,
                          folder=V2, build=build, held=lambda: stored(V2),
                          differences=differences)


if __name__ == "__main__":
    sys.exit(main())
