"""``cryptcrawl verify FILE [FILE ...]``: a human summary (or JSON) of the protocol's verdict
on one copy of a match, or on several copies of one match (protocol.md §9.2–9.4)."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Sequence
from typing import Any, TextIO

from cli.text import wrap_text
from protocol.crypto import fingerprint
from protocol.verify.copies import DifferentMatches, verify_copies
from protocol.verify.verdicts import (
    CLAIMED,
    DISPUTED,
    EXIT_CODES,
    INVALID,
    SPLIT,
    UNREADABLE,
    USAGE,
    VALID,
    CopyReport,
    Verdict,
)
from protocol.verify.verifier import read_and_verify
from protocol.wire.header import Header
from protocol.wire.transcript import MAX_FILE, read_transcript

EXIT_FOR = EXIT_CODES
EXIT_UNREADABLE = EXIT_CODES[UNREADABLE]
EXIT_USAGE = EXIT_CODES[USAGE]


class Unreadable(Exception):
    """A file that cannot be read as asked (missing, not a regular file, too big): one line,
    ``cannot read PATH: REASON``; ``reason`` alone for a line that names the file itself."""

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        super().__init__(f"cannot read {shown(path)}: {reason}")
        self.reason = reason


def shown(path: str | os.PathLike[str]) -> str:
    """A path as text any terminal can print: bytes that are not UTF-8 (a file name from
    another system) as ``\\xff``, control characters escaped, so that writing it never fails
    and never breaks the line."""
    try:
        raw = os.fsencode(path)
    except (UnicodeError, TypeError):
        raw = str(path).encode("utf-8", "backslashreplace")
    text = raw.decode("utf-8", "backslashreplace")
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in text)


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a named pipe"),
          (stat.S_ISSOCK, "a socket"))


def read_limited(path: str | os.PathLike[str], limit: int) -> bytes:
    """At most ``limit + 1`` bytes of the regular file ``path`` (more than ``limit``: too big,
    the caller says so); :class:`Unreadable` for anything else — a directory, a device, a pipe
    (never opened for long: reading from one could wait or run forever), or an OS error."""
    try:
        _regular(path, os.stat(path).st_mode)  # (a device is not even opened)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise Unreadable(path, _os_reason(exc)) from None
    try:
        _regular(path, os.fstat(fd).st_mode)  # (what was opened, should it have changed)
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise Unreadable(path, _os_reason(exc)) from None
    finally:
        os.close(fd)


def _regular(path: str | os.PathLike[str], mode: int) -> None:
    if not stat.S_ISREG(mode):
        kind = next((name for test, name in _KINDS if test(mode)), "an unknown kind")
        raise Unreadable(path, f"not a regular file ({kind})")


def _os_reason(exc: OSError) -> str:
    return exc.strerror or "the system refused"


def read_match_file(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a match file, refusing anything that cannot be one (see
    :func:`read_limited`; over :data:`MAX_FILE` bytes: too big)."""
    data = read_limited(path, MAX_FILE)
    if len(data) > MAX_FILE:
        raise Unreadable(path, f"larger than {MAX_FILE // (1024 * 1024)} MiB: "
                               "not a match file")
    return data


def run_verify(paths: str | Sequence[str], *, as_json: bool, out: TextIO,
               err: TextIO) -> int:
    """Verify one match file, or several copies of one match; the exit status (see
    :data:`protocol.verify.verdicts.EXIT_CODES`).  Every error is one line, never a traceback."""
    paths = [paths] if isinstance(paths, str) else list(paths)
    if not paths:
        if as_json:
            out.write(usage_json(["verify", "--json"], "no match file given"))
        err.write("cryptcrawl verify: no match file given\n")
        return EXIT_USAGE
    names = [shown(p) for p in paths]
    datas = []
    for path in paths:
        try:
            datas.append(read_match_file(path))
        except Unreadable as exc:
            err.write(f"cryptcrawl verify: {exc}\n")
            return EXIT_UNREADABLE
    from cli import practice

    records = [i for i, data in enumerate(datas) if practice.is_record(data)]
    if records and len(paths) > 1:
        err.write(f"cryptcrawl verify: {names[records[0]]} is the record of an offline game, "
                  "not a copy of a match: verify it alone\n")
        return EXIT_USAGE
    if records:
        return _practice(names[0], datas[0], as_json=as_json, out=out)
    if len(paths) == 1:
        return _one(names[0], datas[0], as_json=as_json, out=out, err=err)
    try:
        verdict = verify_copies(datas, names)
    except DifferentMatches as exc:
        a, b = exc.copies
        line = (f"{names[a]} and {names[b]} are copies of different matches "
                f"({exc.match_ids[0].hex()} and {exc.match_ids[1].hex()})")
        if as_json:
            out.write(json.dumps({
                "files": names, "verdict": USAGE, "status": USAGE, "blamed": [],
                "record": None, "reason_code": "different_matches", "reason": line,
                "match_ids": [m.hex() for m in exc.match_ids]}) + "\n")
        err.write(f"cryptcrawl verify: {line}\n")
        return EXIT_USAGE
    header = _header_of(datas)
    if as_json:
        out.write(json.dumps(_as_json(names, verdict, header)) + "\n")
    else:
        out.write(_as_text(names, verdict, header))
    return verdict.exit_code


def usage_json(given: Sequence[str], reason: str) -> str:
    """The JSON line of ``cryptcrawl verify --json`` for a usage error (no file, a bad
    option): verdict and reason code ``usage`` with the other fields of a verdict; ``files``:
    the words of ``given`` (the command line after the program's name) after ``verify`` that
    are not options.  The error is also one line on standard error, and the status 2."""
    words = list(given)
    after = words[words.index("verify") + 1:] if "verify" in words else words
    files = [w for w in after if not w.startswith("-")]
    return json.dumps({
        "files": files, "verdict": USAGE, "blamed": [], "record": None, "reason_code": "usage",
        "reason": reason, "status": USAGE, "seat_at_fault": None, "waiting_for": []}) + "\n"


def _practice(name: str, data: bytes, *, as_json: bool, out: TextIO) -> int:
    """An offline game's record (:mod:`cli.practice`): played again; it proves nothing."""
    from cli import practice

    done = practice.replay(data)
    if as_json:
        out.write(json.dumps({"file": name, "verdict": "offline", "replayed": done.ok,
                              "proves": practice.PROVES, "reason": " ".join(done.lines)})
                  + "\n")
    else:
        head = ("OFFLINE GAME: it proves nothing" if done.ok else
                "OFFLINE GAME, NOT REPLAYED: it proves nothing")
        out.write(f"{head} ({name})\n")
        for line in [*done.lines, f"It proves {practice.PROVES}."]:
            out.write("".join(f"{row}\n" for row in wrap_text("  " + line, indent="    ")))
    return practice.EXIT_REPLAYED if done.ok else EXIT_CODES[INVALID]


def _one(name: str, data: bytes, *, as_json: bool, out: TextIO, err: TextIO) -> int:
    transcript, verdict = read_and_verify(data)
    header = transcript.header.header if transcript.header else transcript.unsigned_header
    if verdict.verdict == UNREADABLE or header is None:
        if as_json:
            out.write(json.dumps({"file": name, **_fields(verdict)}) + "\n")
        else:
            err.write(f"cryptcrawl verify: {name} is not a readable match file: "
                      f"{verdict.reason}\n")
        return verdict.exit_code
    if as_json:
        out.write(json.dumps(_as_json([name], verdict, header)) + "\n")
    else:
        out.write(_as_text([name], verdict, header))
    return verdict.exit_code


def _header_of(datas: list[bytes]) -> Header | None:
    """The header of the first copy that has one (the copies are of one match)."""
    for data in datas:
        t = read_transcript(data)
        if t.header is not None:
            return t.header.header
    return None


def bot_words(note: str) -> str:
    """A verifier's note as a player reads it: a seat's public stand-in is "a bot" (the
    protocol's name for it, "zombie", is also a monster of the game)."""
    return note.replace("by its zombie", "by a bot").replace("its zombie", "a bot")


def outcome_word(v: Verdict) -> str | None:
    """How the match came out, for ``--json``: "drawn", "won" (with winners), "nobody won"
    (it ended with no winner: a lost campaign), or None (no result: not finished, invalid,
    abandoned)."""
    if v.drawn:
        return "drawn"
    if v.winners:
        return "won"
    if v.verdict in (VALID, CLAIMED) and v.final_digest:
        return "nobody won"
    return None


def _fields(v: Verdict) -> dict[str, Any]:
    """The fields every verdict has, in JSON (the conformance vectors compare ``verdict``,
    ``blamed``, ``record`` and ``reason_code``; ``status`` and ``seat_at_fault`` are the older
    names, kept for clients; ``waiting_for``: the seats an ``incomplete`` match waits for)."""
    single = v.blamed[0] if v.verdict == INVALID and len(v.blamed) == 1 else None
    return {"verdict": v.verdict, "blamed": list(v.blamed), "record": v.record,
            "reason_code": v.reason_code, "reason": v.reason, "status": v.verdict,
            "seat_at_fault": single, "waiting_for": list(v.waiting_for)}


def _as_json(paths: list[str], v: Verdict, header: Header | None) -> dict[str, Any]:
    out: dict[str, Any] = {"file": paths[0]} if len(paths) == 1 else {"files": paths}
    out.update(_fields(v))
    if v.copy is not None and len(paths) > 1:
        out["copy"] = v.copy
    out.update({
        "messages": v.messages,
        "game": header.game if header else None,
        "options": dict(header.options) if header else {},
        "match_id": header.match_id.hex() if header else None,
        "seats": [{"seat": i, "name": s.name, "fingerprint": fingerprint(s.key)}
                  for i, s in enumerate(header.seats)] if header else [],
        "outcome": outcome_word(v), "winners": list(v.winners), "drawn": list(v.drawn),
        "final_digest": v.final_digest.hex(),
        "notes": list(v.notes),
        "dispute": None if v.dispute is None else {
            "seat": v.dispute.seat, "message": v.dispute.seq, "others": list(v.dispute.others),
            "kind": v.dispute.kind, "named": v.dispute.named.hex() or None,
            "held": v.dispute.held},
        "forks": [{"seat": f.seat, "message": f.seq, "versions": [
            {"copy": w.copy, "record": w.record, "hash": m.hash.hex(), "kind": m.kind.name}
            for m, w in zip(f.versions, f.where, strict=True)]} for f in v.forks],
    })
    if v.sides:
        out["sides"] = [{"copies": list(s.copies), "seats": list(s.seats),
                         "winners": list(s.winners), "final_digest": s.final_digest.hex(),
                         "parting": None if s.parting is None else {
                             "seat": s.parting.seat, "message": s.parting.seq,
                             "kind": s.parting.kind.name,
                             "copy": s.parting_at.copy if s.parting_at else None,
                             "record": s.parting_at.record if s.parting_at else None}}
                        for s in v.sides]
    if len(paths) > 1:
        out["copies"] = [_copy_json(c) for c in v.copies]
    return out


def _copy_json(c: CopyReport) -> dict[str, Any]:
    return {"file": c.label, "state": c.state, "conditions": list(c.conditions),
            "messages": c.messages, "torn": c.torn,
            "lacking": [{"seat": s, "messages": k} for s, k in c.lacking],
            "edited": [{"seat": s, "message": q} for s, q in c.edited],
            "problems": list(c.problems), "alone": _fields(c.verdict)}


_CHECKS = ("signatures and hash chains", "commitments and reveals",
           "chance outcomes recomputed from every seat's secret",
           "every action replayed through the rules",
           "every published private-knowledge key and the deliveries it opens",
           "every sealed value opened against its commitment and the rules",
           "the result and every playing seat's END")


def _as_text(paths: list[str], v: Verdict, header: Header | None) -> str:
    several = len(paths) > 1
    title = (f"{len(paths)} copies of one match" if several else paths[0])
    lines = [f"{title}: {v.verdict.upper()}"]
    if header is not None:
        options = ", ".join(f"{k} {val}" for k, val in sorted(dict(header.options).items()))
        lines.append(f"  game: {header.game} ({options})")
        for i, s in enumerate(header.seats):
            mark = ("  winner" if i in v.winners else "  drawn" if i in v.drawn else "")
            if i in v.blamed:
                mark += "  DISPUTED" if v.verdict == DISPUTED else "  AT FAULT"
            for k, side in enumerate(v.sides):
                if i in side.seats:
                    mark += f"  signed result {k + 1}"
            lines.append(f"  seat {i}: {s.name} [{fingerprint(s.key)}]{mark}")
    for i, c in enumerate(v.copies):
        lines.append(f"  copy {i} ({c.label}): {_copy_text(c)}")
    lines.append(f"  messages checked: {v.messages}")
    if v.waiting_for:
        lines.append("  waiting for: " + ", ".join(
            f"seat {s}" + (f" ({header.seats[s].name})" if header is not None
                           and s < len(header.seats) else "") for s in v.waiting_for))
    if v.verdict == VALID:
        lines += [f"  ok: {c}" for c in _CHECKS]
    for f in v.forks:
        lines.append(f"  fork: seat {f.seat} signed two versions of its message {f.seq}: "
                     + " and ".join(_at(w.copy, w.record, paths) for w in f.where))
    lines += [f"  note: {bot_words(note)}" for note in v.notes]
    where = (f" ({_at(v.copy, v.record, paths)})" if v.record is not None and several
             else f" (record {v.record})" if v.record is not None else "")
    who = ""
    if v.verdict == INVALID and v.blamed:
        who = " seat" + ("s " if len(v.blamed) > 1 else " ") + ", ".join(map(str, v.blamed)) + ":"
    elif v.verdict in (DISPUTED, SPLIT) and v.blamed:
        who = " seats " + " and ".join(map(str, v.blamed)) + ":" if v.verdict == DISPUTED else (
            " proved forked: seat" + ("s " if len(v.blamed) > 1 else " ")
            + ", ".join(map(str, v.blamed)) + ";")
    lines.append(f"  {v.verdict}{where}:{who} {v.reason}")
    return "\n".join(lines) + "\n"


def _at(copy: int | None, record: int | None, paths: list[str]) -> str:
    name = paths[copy] if copy is not None and len(paths) > 1 else ""
    where = f"record {record}" if record is not None else "no record"
    return f"{name} {where}".strip()


def _copy_text(c: CopyReport) -> str:
    parts = []
    if "unreadable" in c.conditions:
        parts.append("unreadable")
    if c.edited:
        which = "edited (holds another version of " if "edited" in c.conditions else (
            "forked (holds one of two versions, which came first is not known, of ")
        parts.append(which + ", ".join(f"seat {s}'s message {q}" for s, q in c.edited) + ")")
    if "damaged" in c.conditions:
        parts.append(f"damaged ({len(c.problems)} record(s) it could not use)")
    if "short" in c.conditions:
        torn = ["its last record torn"] if c.torn else []
        parts.append("short (" + ", ".join(torn + [
            f"lacks {k} message(s) of seat {s}" for s, k in c.lacking]) + ")")
    alone = f"read alone: {c.verdict.verdict}"
    return ", ".join(parts or ["whole"]) + f"; {alone}"
