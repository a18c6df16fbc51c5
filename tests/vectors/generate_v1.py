"""Conformance vectors v1: match files and today's ``cryptcrawl verify --json`` verdict of each.

Every file is built from fixed tags, so running this again gives the same bytes::

    python -m tests.vectors.generate_v1           # write tests/vectors/v1/
    python -m tests.vectors.generate_v1 --check   # compare with tests/vectors/v1/, write nothing

Three kinds of files (tests/vectors/v1/README.md lists them all):

* **honest** — whole matches of 3, 4 and 5 seats, basic and tactical, played by in-memory peers
  (:class:`protocol.mesh.Network`); each is the file one peer wrote, in the order it took the
  messages;
* **adversarial** — matches in which a seat misbehaves at the message level (silent, a lie, a
  fork...): the misbehaving seat's client is replaced by one that signs what an attacker would
  sign, with its own key, and an honest peer's file is kept;
* **tampered** — the file ``honest/3-basic.crawl`` changed after the fact: a byte flipped in
  each region, records dropped, reordered, duplicated, cut, re-signed with the wrong key, a
  seat's own feed rewritten and re-signed, junk appended...

Each expected verdict is the standard output of ``cli.verify.run_verify(path, as_json=True)``
run from tests/vectors/v1 with the path relative to it, byte for byte; the manifest holds the
exit code.  Every vector also states what its attack must produce (status, seat at fault,
words of the reason or the notes): the generator refuses to write a vector whose verdict says
otherwise — a tampered file that verifies by accident is a bug of the vector.

Determinism.  Keys, nonces, seeds and bot choices derive from the tags (``make_header``,
``random_decider``); Ed25519 signatures are deterministic.  The one random input of today's
code is HPKE's ephemeral key in a torch delivery (``cryptography``'s HPKE draws it from the
operating system): every DELIVERY a seat sends here is opened with the torch user's key and
sealed again, the same plaintext to the same key with the same ``info``, under an ephemeral key
derived from the tag (RFC 9180 base mode, done by hand in tests/vectors/making.py, which
holds what this generator shares with generate_v2), and signed in its place.  A
verifier cannot tell the difference: any ephemeral key is a valid one.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from tests.vectors.making import (
    Base,
    Expect,
    Vector,
    adversarial_vectors,
    fault_vectors,
    honest_vectors,
    tampered_vectors,
    verdict_json,
)
from tests.vectors.making import (
    differences as differ,
)
from tests.vectors.making import stored as stored_under
from tests.vectors.writing import generator_main

V1 = Path(__file__).parent / "v1"
# Vectors whose verdict a later finding changed (tests/vectors/test_v1.py): their attack shows
# in the changed verdict.
CHANGED = json.loads((Path(__file__).parent / "v1_changes.json").read_text(encoding="utf-8"))[
    "changes"]
VERSION = 1


# --------------------------------------------------------------------------- verdicts


def check_expectation(vector: Vector, verdict: dict[str, Any]) -> list[str]:
    """What is wrong with ``verdict`` for ``vector`` (nothing: the attack shows)."""
    e = vector.expect
    change = CHANGED.get(f"{vector.name}.crawl")
    if change is not None:
        e = Expect(change["verdict"], None if not change["blamed"] else change["blamed"][0],
                   e.reason, e.notes)
    wrong = []
    if verdict["status"] != e.status:
        wrong.append(f"status {verdict['status']!r}, not {e.status!r}")
    if e.status == "invalid" and verdict["seat_at_fault"] != e.seat:
        wrong.append(f"seat at fault {verdict['seat_at_fault']}, not {e.seat}")
    if e.reason not in verdict["reason"]:
        wrong.append(f"reason {verdict['reason']!r} lacks {e.reason!r}")
    for note in e.notes:
        if not any(note in n for n in verdict.get("notes", [])):
            wrong.append(f"no note with {note!r}")
    if vector.category == "honest":  # nothing to note but the torch rounds checked
        extra = [n for n in verdict["notes"] if not re.fullmatch(
            r"torch round \S+ \(seat \d\): key published, \d+ deliveries checked", n)]
        if extra:
            wrong.append(f"an honest match with notes: {extra}")
    return [f"{vector.name}: {w}" for w in wrong]


def all_vectors() -> list[Vector]:
    honest, base_net = honest_vectors(VERSION)
    base = Base(base_net, honest[0].data)
    return (honest + adversarial_vectors(VERSION) + fault_vectors(VERSION)
            + tampered_vectors(base))


def build() -> dict[str, bytes]:
    """Every file of tests/vectors/v1: path (relative to v1) -> bytes."""
    vectors = all_vectors()
    names = [v.name for v in vectors]
    assert len(set(names)) == len(names), "two vectors share a name"
    files: dict[str, bytes] = {}
    entries = []
    problems: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for v in vectors:
            path = root / f"{v.name}.crawl"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(v.data)
        for v in vectors:
            code, text = verdict_json(root, f"{v.name}.crawl")
            wrong = check_expectation(v, json.loads(text))
            problems += wrong + ([f"    {text.strip()}"] if wrong else [])
            files[f"{v.name}.crawl"] = v.data
            files[f"{v.name}.json"] = text.encode()
            entries.append({
                "file": f"{v.name}.crawl", "expected": f"{v.name}.json", "category": v.category,
                "description": v.description, "exit": code, "status": v.expect.status,
                "seat_at_fault": v.expect.seat if v.expect.status == "invalid" else None,
                "size": len(v.data), "sha256": hashlib.sha256(v.data).hexdigest()})
    if problems:
        raise AssertionError("vectors that do not show their attack:\n  " + "\n  ".join(problems))
    manifest = {"format": 1, "generator": "python -m tests.vectors.generate_v1",
                "verify": "cli.verify.run_verify(file, as_json=True), run from this directory",
                "vectors": entries}
    files["manifest.json"] = (json.dumps(manifest, indent=1, ensure_ascii=False) + "\n").encode()
    files["README.md"] = readme(entries)
    return files


README = """\
# Conformance vectors, protocol v1

Match files (`.crawl`, docs/protocol.md §9.1) and the verdict today's verifier gives each, as
`cryptcrawl verify --json` prints it. They pin the verdicts of protocol version 1: an
implementation of it — this one after a refactor, or another written from docs/protocol.md —
must give the same verdict for every file. **Frozen**: a change of the protocol makes new
vectors (v2); these are never regenerated to follow it.

This file and every other file here are written by `python -m tests.vectors.generate_v1`, from
fixed tags (see "Reproducing" below); `tests/vectors/test_v1.py` checks both that they regenerate
byte for byte and that the verifier still gives every stored verdict byte for byte.

## Layout

- `honest/` — whole matches of 3, 4 and 5 seats, basic and tactical variants, random bots
  (torch rounds, early turns and reveals at once included): all `valid`.
- `adversarial/` — matches in which one seat misbehaves at the message level, signing with its
  own key what a modified client would: silent seats replaced by their zombie, a re-draw, a
  false absence and a reclaim, a stuck seat, lying deliveries, lying reveals, a false END, a
  proved fork, and more. The file is an honest peer's.
- `faults/` — no cheat: links stall past both timeouts and heal (the partitions of `python -m
  benchmarks partitions`); votes cross and a dead end is settled.
- `tampered/` — `honest/3-basic.crawl` changed after the fact: a byte flipped in every region
  (file record, header fields and signatures, every envelope field, every kind of body), records
  dropped, reordered, duplicated, cut, framed wrongly, re-signed with another seat's key, a seat's
  own feed rewritten and signed again, messages of another match or of no seat, junk appended.

Each `NAME.crawl` has its expected verdict next to it, `NAME.json`. `manifest.json` lists every
vector: `file`, `expected`, `category`, `description`, `exit` (the exit status of `cryptcrawl
verify`), `status`, `seat_at_fault`, `size` and `sha256` of the file.

## The expected verdict

`NAME.json` is the standard output of `cryptcrawl verify --json NAME.crawl` run from this
directory (so `file` is the path relative to it): one line of JSON and a newline, keys in this
order:

| key | value |
|---|---|
| `file` | the path given |
| `status` | `valid`, `invalid` or `incomplete` (docs/protocol.md §9.2), or `unreadable` (a) |
| `reason` | in words: what passed, the first thing wrong, or where the match stops |
| `seat_at_fault` | the seat to blame (`invalid`), else `null` |
| `record` | the first bad record, counting the file record as 0 (`invalid`), else `null` |
| `messages` | messages read into the feeds |
| `game`, `options` | from the header |
| `seats` | per seat, its `name` and key `fingerprint` |
| `winners` | the seats that won (`[]` unless the match ended) |
| `final_digest` | hex digest of the final public state (`""` unless the match ended) |
| `notes` | what the verdict notes, in the order of docs/protocol.md §9.2 (b) |

(a) `unreadable`: no match file at all (no readable file record and header); the line then
holds only `file`, `status` and `reason`.

(b) The reader's problems, then replacements, reclaims, torch rounds, re-draws, zombie steps,
stale messages.

Exit status: 0 valid, 1 invalid, 3 unreadable, 4 incomplete.

## Running the vectors

With this program (from the repository root):

    python -m pytest tests/vectors

Another implementation reads `manifest.json` and, for every entry, verifies `file`. It conforms
at one of two levels:

1. **Verdicts**: the same `status`, and for `invalid` the same `seat_at_fault` and `record`,
   and for a match that ended the same `winners` and `final_digest` (the fields of `NAME.json`).
   The wording of `reason` and `notes` is this program's.
2. **Byte for byte**: its `verify --json` output, run from this directory, equals `NAME.json`,
   and its exit status equals `exit`. For example::

       cd tests/vectors/v1
       python3 - <<'PY'
       import json, subprocess
       for v in json.load(open("manifest.json"))["vectors"]:
           run = subprocess.run(["cryptcrawl", "verify", "--json", v["file"]],
                                capture_output=True)
           assert run.returncode == v["exit"], v["file"]
           assert run.stdout == open(v["expected"], "rb").read(), v["file"]
       PY

## Reproducing

    python -m tests.vectors.generate_v1 --check   # regenerate in memory, compare, write nothing

Keys, nonces, per-match seeds, bot choices and delivery orders derive from fixed tags through
`protocol.mesh` (`make_header`, `random_decider`, `Network`); Ed25519 signatures are
deterministic. The one random input of the code is the ephemeral key HPKE draws when a DELIVERY
is sealed: the generator opens each delivery with the torch user's key and seals the same
plaintext again under an ephemeral key derived from the tag (RFC 9180 base mode), which any
verifier accepts like any other.

## The vectors

"""


def readme(entries: list[dict[str, Any]]) -> bytes:
    lines = [README.rstrip("\n")]
    for category in ("honest", "adversarial", "faults", "tampered"):
        lines += ["", f"### {category}", "", "| file | verdict | what it is |", "|---|---|---|"]
        for e in entries:
            if e["category"] != category:
                continue
            verdict = e["status"]
            if e["seat_at_fault"] is not None:
                verdict += f", seat {e['seat_at_fault']}"
            name = e["file"].split("/", 1)[1].removesuffix(".crawl")
            lines.append(f"| `{name}` | {verdict} | {e['description']} |")
    return ("\n".join(lines) + "\n").encode()


def stored(v1: Path = V1) -> dict[str, bytes]:
    """What tests/vectors/v1 holds now."""
    return stored_under(v1)


def differences(built: dict[str, bytes], held: dict[str, bytes]) -> list[str]:
    """What differs between two sets of vector files: the match files only — their expected
    verdicts (``.json``, the manifest and README) are the verdicts of the program that wrote
    them, frozen; the verdict test compares today's (tests/vectors/test_v1.py)."""
    return differ({k: v for k, v in built.items() if k.endswith(".crawl")},
                  {k: v for k, v in held.items() if k.endswith(".crawl")})


def main(argv: list[str] | None = None) -> int:
    return generator_main(argv, prog="python -m tests.vectors.generate_v1", doc=__doc__,
                          folder=V1, build=build, held=stored,
                          differences=differences)


if __name__ == "__main__":
    sys.exit(main())

