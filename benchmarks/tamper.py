"""Tampered copies of finished matches, and how the verifier of one copy reads them (issue 46).

    python -m benchmarks tamper --files 40
    python -m benchmarks tamper --files 2 --games paper --classes insert/,heads/ --out DIR

Plays ``--files`` honest base matches of every game (``--games``: raiders, kards, twister,
paper), each under its own tag, with absences and reclaims, LEAVE and RESIGN, pauses and draws
offered and answered, and claims between two seats among them
(:mod:`benchmarks.tampering.bases`); from each, one tampered copy per tampering class that has
something to edit in it (:mod:`benchmarks.tampering.mutators`: a seat that signs its own feed
again after inserting, dropping, reordering or editing its messages, or pointing its heads
elsewhere, and lies kept consistent with its own digests; bit flips, truncations and header
edits), then verifies each copy alone (``protocol.verify.verifier.verify``).  Copies
byte-identical to another (or to an honest copy) are not counted.

The last line is one JSON object: ``files`` (tampered files checked: not counting a mutant that
is byte for byte an honest copy, nor an inert one, ``inert``: a copy that reads ``valid`` with
the honest match's final digest and transcript digest, whose edit touched only messages no rule
reads — benchmarks/tampering/classify.py), ``games``, ``classes``,
``accepted`` (files read ``valid``), ``honest_blamed_alone`` (files whose verdict names seats —
blamed, or the parties of a dispute — without the seat that edited its own feed; any seat, for a
tampering with no liar), ``errors`` (the verifier raised), ``accepted_same_result`` (of the
accepted, those whose result — final digest and winners — is the honest match's),
``seconds``, ``by_class`` (per class,
the count of each verdict) and ``failures_by_class`` (per class with any, its accepted,
honest_blamed_alone and errors, and ``waits_on_honest``: copies forged by a liar that read
``incomplete`` waiting only for other seats, noted apart).  Both counts must be 0.

``--out DIR`` writes every accepted, honest-blamed-alone or erroring file there, with a JSON
sidecar (class, game, base, liar, holder, what was done and the verdict's fields), and
``files.jsonl``, one line per file checked; ``cryptcrawl verify FILE --json`` reproduces each.
``--workers`` (default: the cores) plays the bases in parallel; the results do not depend on it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import time
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.tampering.bases import GAMES, base
from benchmarks.tampering.classify import outcome, transcript_of
from benchmarks.tampering.mutators import CLASSES, mutants
from protocol.verify.verifier import verify

FAILURES = ("accepted", "honest_blamed_alone", "error")


def run_base(task: tuple[str, int, tuple[str, ...] | None, bool]) -> list[dict[str, Any]]:
    """The records of every tampered copy of base ``index`` of ``game``."""
    game, index, classes, keep = task
    b = base(game, index)
    honest = {hashlib.sha256(b.file(s)).digest() for s in range(b.seats)}
    result = verify(b.file(0))  # (the honest result, to compare an accepted copy's with)
    signed = transcript_of(b.file(0))
    seen: set[bytes] = set(honest)
    out = []
    for mutant in mutants(b, classes):
        digest = hashlib.sha256(mutant.data).digest()
        if digest in seen:
            continue
        seen.add(digest)
        judged = outcome(mutant.data, mutant.liar)
        record: dict[str, Any] = {
            "class": mutant.cls, "game": game, "base": b.name, "seats": b.seats,
            "liar": mutant.liar, "holder": mutant.holder, "detail": mutant.detail,
            "sha256": digest.hex(), **judged.fields()}
        if judged.judged == "accepted":
            record["same_result"] = (judged.final_digest, judged.winners) == (
                result.final_digest, result.winners)
            if record["same_result"] and judged.transcript == signed:
                record["judged"] = "inert"  # (see benchmarks/tampering/classify.py)
        if keep and judged.judged in FAILURES:
            record["data"] = mutant.data
        out.append(record)
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks tamper",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=3, help="honest base matches per game")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--classes", default="",
                        help="only these classes (comma-separated names or prefixes)")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    games = tuple(g for g in args.games.split(",") if g)
    if not games or any(g not in GAMES for g in games):
        parser.error(f"--games: among {', '.join(GAMES)}")
    if args.files < 1 or args.workers < 1:
        parser.error("--files and --workers must be at least 1")
    classes: tuple[str, ...] | None = None
    if args.classes:
        wanted = [c for c in args.classes.split(",") if c]
        classes = tuple(c for c in CLASSES if any(c == w or c.startswith(w) for w in wanted))
        if not classes:
            parser.error(f"--classes: none of {', '.join(CLASSES)}")
    keep = args.out is not None
    tasks = [(game, index, classes, keep) for index in range(args.files) for game in games]
    start = time.perf_counter()
    records: list[dict[str, Any]] = []
    seen: set[str] = set()

    def take(batch: list[dict[str, Any]]) -> None:
        for record in batch:
            if record["sha256"] not in seen:
                seen.add(record["sha256"])
                records.append(record)

    if args.workers == 1:
        for task in tasks:
            take(run_base(task))
    else:
        with multiprocessing.get_context("fork").Pool(args.workers) as pool:
            for batch in pool.imap(run_base, tasks):
                take(batch)
    seconds = time.perf_counter() - start

    by_class: dict[str, Counter[str]] = {c: Counter() for c in CLASSES
                                         if classes is None or c in classes}
    failures: dict[str, Counter[str]] = {}
    for record in records:
        by_class[record["class"]][record["verdict"]] += 1
        if record["judged"] not in ("ok", "inert"):
            failures.setdefault(record["class"], Counter())[record["judged"]] += 1
    if args.out is not None:
        write_out(args.out, records)
    width = max(len(c) for c in by_class)
    for cls, counts in by_class.items():
        failed = failures.get(cls, Counter())
        flags = " ".join(f"{k}={v}" for k, v in sorted(failed.items()))
        print(f"{cls:<{width}} {sum(counts.values()):>5}  "
              + ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
              + (f"   ** {flags}" if flags else ""))
    total = Counter(r["judged"] for r in records)
    print(json.dumps({
        "benchmark": "tamper", "files": len(records) - total["inert"], "inert": total["inert"],
        "bases": len(tasks), "games": len(games),
        "classes": sum(1 for counts in by_class.values() if counts),
        "accepted": total["accepted"], "honest_blamed_alone": total["honest_blamed_alone"],
        "errors": total["error"], "waits_on_honest": total["waits_on_honest"],
        "accepted_same_result": sum(1 for r in records if r.get("same_result")),
        "seconds": round(seconds, 1), "workers": args.workers,
        "by_class": {c: dict(sorted(v.items())) for c, v in by_class.items() if v},
        "failures_by_class": {c: {k: v[k] for k in (*FAILURES, "waits_on_honest") if v[k]}
                              for c, v in failures.items()},
    }))
    return 0


def write_out(out: Path, records: list[dict[str, Any]]) -> None:
    """Every failure's file and sidecar, and ``files.jsonl`` (see the module docstring)."""
    out.mkdir(parents=True, exist_ok=True)
    with (out / "files.jsonl").open("w") as listing:
        for record in records:
            data = record.pop("data", None)
            listing.write(json.dumps(record) + "\n")
            if data is None:
                continue
            name = (f"{record['judged']}-{record['class'].replace('/', '_')}-{record['base']}-"
                    f"{record['sha256'][:8]}")
            (out / f"{name}.crawl").write_bytes(data)
            (out / f"{name}.json").write_text(json.dumps(record, indent=1) + "\n")
