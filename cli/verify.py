"""``cryptcrawl verify FILE``: a human summary (or JSON) of the protocol's verdict."""

from __future__ import annotations

import json
import os
import stat
from typing import TextIO

from protocol.crypto import fingerprint
from protocol.transcript import MAX_FILE
from protocol.verify import (
    INCOMPLETE,
    INVALID,
    VALID,
    Verdict,
    read_and_verify,
)

EXIT_FOR = {VALID: 0, INVALID: 1, INCOMPLETE: 4}
EXIT_UNREADABLE = 3


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


def run_verify(path: str, *, as_json: bool, out: TextIO, err: TextIO) -> int:
    name = shown(path)
    try:
        data = read_match_file(path)
    except Unreadable as exc:
        err.write(f"cryptcrawl verify: {exc}\n")
        return EXIT_UNREADABLE
    transcript, verdict = read_and_verify(data)
    if transcript.header is None and transcript.records <= 2:
        reason = transcript.problems[0].reason if transcript.problems else "no header"
        if as_json:
            out.write(json.dumps({"file": name, "status": "unreadable", "reason": reason}) + "\n")
        else:
            err.write(f"cryptcrawl verify: {name} is not a readable match file: {reason}\n")
        return EXIT_UNREADABLE
    header = transcript.header
    assert header is not None
    seats = [(s.name, fingerprint(s.key)) for s in header.header.seats]
    if as_json:
        out.write(json.dumps(_as_json(name, verdict, seats, dict(header.header.options),
                                      header.header.game)) + "\n")
    else:
        out.write(_as_text(name, verdict, seats, header.header.game,
                           dict(header.header.options)))
    return EXIT_FOR[verdict.status]


def bot_words(note: str) -> str:
    """A verifier's note as a player reads it: a seat's public stand-in is "a bot" (the
    protocol's name for it, "zombie", is also a monster of the game)."""
    return note.replace("by its zombie", "by a bot").replace("its zombie", "a bot")


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
    lines += [f"  note: {bot_words(note)}" for note in v.notes]
    where = f" (record {v.record})" if v.record is not None else ""
    who = f" seat {v.seat}:" if v.seat is not None else ""
    lines.append(f"  {v.status}{where}:{who} {v.reason}")
    return "\n".join(lines) + "\n"
