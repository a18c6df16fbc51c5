"""``cryptcrawl verify FILE``: a human summary (or JSON) of the protocol's verdict."""

from __future__ import annotations

import json
from typing import TextIO

from protocol.crypto import fingerprint
from protocol.transcript import read_transcript
from protocol.verify import (
    INCOMPLETE,
    INVALID,
    VALID,
    Verdict,
    record_numbers,
    verify_transcript,
)

EXIT_FOR = {VALID: 0, INVALID: 1, INCOMPLETE: 4}
EXIT_UNREADABLE = 3


def run_verify(path: str, *, as_json: bool, out: TextIO, err: TextIO) -> int:
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        err.write(f"cryptcrawl verify: cannot read {path}: {exc.strerror or exc}\n")
        return EXIT_UNREADABLE
    transcript = read_transcript(data)
    if transcript.header is None and transcript.records <= 2:
        reason = transcript.problems[0].reason if transcript.problems else "no header"
        if as_json:
            out.write(json.dumps({"file": path, "status": "unreadable", "reason": reason}) + "\n")
        else:
            err.write(f"cryptcrawl verify: {path} is not a readable match file: {reason}\n")
        return EXIT_UNREADABLE
    verdict = verify_transcript(transcript, record_numbers(data))
    header = transcript.header
    assert header is not None
    seats = [(s.name, fingerprint(s.key)) for s in header.header.seats]
    if as_json:
        out.write(json.dumps(_as_json(path, verdict, seats, dict(header.header.options),
                                      header.header.game)) + "\n")
    else:
        out.write(_as_text(path, verdict, seats, header.header.game,
                           dict(header.header.options)))
    return EXIT_FOR[verdict.status]


def _as_json(path: str, v: Verdict, seats: list[tuple[str, str]], options: dict[str, object],
             game: str) -> dict[str, object]:
    return {
        "file": path, "status": v.status, "reason": v.reason, "seat_at_fault": v.seat,
        "record": v.record, "messages": v.messages, "game": game, "options": options,
        "seats": [{"name": n, "fingerprint": f} for n, f in seats],
        "winners": list(v.winners), "final_digest": v.final_digest.hex(),
        "notes": list(v.notes),
    }


def _as_text(path: str, v: Verdict, seats: list[tuple[str, str]], game: str,
             options: dict[str, object]) -> str:
    lines = [f"{path}: {v.status.upper()}",
             f"  game: {game} ({', '.join(f'{k} {val}' for k, val in sorted(options.items()))})"]
    for i, (name, fp) in enumerate(seats):
        mark = ""
        if v.winners and i in v.winners:
            mark = "  winner"
        if v.seat == i:
            mark += "  AT FAULT"
        lines.append(f"  seat {i}: {name} [{fp}]{mark}")
    lines.append(f"  messages checked: {v.messages}")
    checks = ("signatures and hash chains", "commitments and reveals",
              "chance outcomes recomputed from every seat's secret",
              "every action replayed through the rules",
              "every published torch key and the deliveries it opens",
              "the result and every playing seat's END")
    if v.status == VALID:
        lines += [f"  ok: {c}" for c in checks]
    lines += [f"  note: {note}" for note in v.notes]
    where = f" (record {v.record})" if v.record is not None else ""
    who = f" seat {v.seat}:" if v.seat is not None else ""
    lines.append(f"  {v.status}{where}:{who} {v.reason}")
    return "\n".join(lines) + "\n"
