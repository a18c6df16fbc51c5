"""``cryptcrawl export FILE --json``, ``cryptcrawl replay FILE`` and ``cryptcrawl matches``: match
files, readable.

Export and replay run the file through the same match core the peers and the verifier run, so
what they show is what the feeds prove; they never trust anything else in the file.  Replay
says first, in one line, when the verifier finds the file invalid (and exits 1, as ``verify``
does).  Every file is read with :func:`cli.verify.read_match_file`'s limits (a regular file of
at most 64 MiB), and every path is printed with :func:`cli.verify.shown`.
"""

from __future__ import annotations

import datetime
import json
import os
from pathlib import Path
from typing import Any, TextIO

from cli import render
from cli.verify import EXIT_FOR, Unreadable, read_match_file
from cli.verify import shown as printable
from engine.core import GameState
from engine.raiders import RaidersView
from protocol.crypto import fingerprint
from protocol.errors import BadMessage
from protocol.match import (
    ActionTaken,
    ChanceRedrawn,
    ChanceResolved,
    MatchCore,
    PeerMisbehaved,
    PlayRevealed,
    RoundKeyReleased,
    SeatReclaimed,
    SeatReplaced,
)
from protocol.transcript import Transcript
from protocol.verify import INVALID, VALID, Verdict, read_and_verify


class RecordError(Exception):
    """The file cannot be shown (unreadable); one line."""


def _json_value(value: Any) -> Any:
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, tuple | list):
        return [_json_value(v) for v in value]
    return value


def _replay(t: Transcript) -> tuple[MatchCore, list[GameState[Any]]]:
    if t.header is None:
        reason = t.problems[0].reason if t.problems else "no header"
        raise RecordError(f"not a readable match file: {reason}")
    try:
        core = MatchCore(t.header)
    except BadMessage as exc:  # (a game, engine or sampler this program does not have)
        raise RecordError(f"cannot show this match: {exc}") from None
    states: list[GameState[Any]] = [core.state]
    core.state_observers.append(states.append)
    core.adopt(t.feeds)
    return core, states


def export_json(path: str, out: TextIO) -> int:
    t, verdict = read_and_verify(_read(path))
    core, _states = _replay(t)
    assert t.header is not None
    h = t.header.header
    events: list[dict[str, Any]] = []
    for e in core.events:
        if isinstance(e, ChanceResolved):
            events.append({"type": "chance", "event": e.event, "outcome": e.outcome,
                           "without": list(e.missing)})
        elif isinstance(e, PlayRevealed):
            events.append({"type": "reveal", "step": e.step, "seat": e.seat,
                           "action": e.action})
        elif isinstance(e, ActionTaken):
            events.append({"type": "action", "step": e.step, "seat": e.seat,
                           "action": e.action, "zombie": e.zombie})
        elif isinstance(e, SeatReplaced):
            events.append({"type": "replaced", "seat": e.seat, "count": e.count,
                           "reason": e.reason})
        elif isinstance(e, SeatReclaimed):
            events.append({"type": "reclaimed", "seat": e.seat, "step": e.step})
        elif isinstance(e, ChanceRedrawn):
            events.append({"type": "redrawn", "event": e.event, "as": e.new_id})
        elif isinstance(e, RoundKeyReleased):
            events.append({"type": "torch key", "round": e.round, "seat": e.seat,
                           "lying deliveries": list(e.bad)})
        elif isinstance(e, PeerMisbehaved):
            events.append({"type": "misbehaved", "seat": e.seat, "reason": e.reason})
    document = {
        "format": "cryptcrawl-export/1",
        "file": printable(path),
        "match_id": t.header.match_id.hex(),
        "header": {
            "game": h.game, "options": dict(h.options), "protocol": h.protocol,
            "engine": h.engine, "sampler": h.sampler,
            "seats": [{"name": s.name, "fingerprint": fingerprint(s.key), "key": s.key.hex()}
                      for s in h.seats],
            "nonces": [n.hex() for n in h.nonces],
        },
        "verdict": {"status": verdict.status, "reason": verdict.reason,
                    "seat_at_fault": verdict.seat, "record": verdict.record,
                    "winners": list(verdict.winners), "notes": list(verdict.notes)},
        "events": events,
        "feeds": [[{"seq": m.seq, "kind": m.kind.name, "state": m.state.hex(),
                    "body": _json_value(m.body), "hash": m.hash.hex()}
                   for m in core.feeds[s].messages] for s in range(core.n)],
    }
    out.write(json.dumps(document, indent=1) + "\n")
    return 0


def replay(path: str, out: TextIO, ask: Any = None) -> int:
    """Room by room: each room's cards and resolution; ``ask`` (a prompt function) waits for
    Enter between rooms (``None``: print everything, the ``--plain`` record)."""
    t, verdict = read_and_verify(_read(path))
    core, states = _replay(t)
    code = EXIT_FOR[INVALID] if verdict.status == INVALID else 0
    names = [s.name for s in core.header.header.seats]
    out.write(f"{printable(path)}: Dungeon Raiders, {len(names)} players: "
              + ", ".join(f"{render.seat_letter(i)} {n}" for i, n in enumerate(names)) + "\n")
    if verdict.status == INVALID:
        out.write(f"{_invalid(verdict, names)}; what follows is shown only as far as it "
                  "checks out (cryptcrawl verify gives the details)\n")
    shown: tuple[int, int] | None = None
    level = 0
    for state in states:
        view = state.public().view(0)
        if not isinstance(view, RaidersView):
            continue
        if view.level and view.level != level:
            level = view.level
            out.write(f"\n=== Level {level} of 5\n")
            out.write("\n".join(render.render_row(view, torch=False)) + "\n")
        res = view.last
        if res is None or (res.level, res.position) == shown:
            continue
        shown = (res.level, res.position)
        out.write("\n".join(render.render_resolution(res, tuple(names))) + "\n")
        out.flush()
        if ask is not None:
            answer = ask("Enter: next room, q: stop> ")
            if answer.strip().lower() in ("q", "quit"):
                return code
    for e in core.events:
        if isinstance(e, SeatReplaced | SeatReclaimed):
            out.write(f"note: {seat_note(e, names)}\n")
    final = core.state.waiting
    outcome = getattr(final, "outcome", None)
    if outcome is not None:
        view = core.state.public().view(0)
        assert isinstance(view, RaidersView)
        out.write("\n" + "\n".join(render.render_scoreboard(view, outcome, tuple(names)))
                  + "\n")
    elif verdict.status != INVALID:
        out.write("\nThe file stops before the end of the match.\n")
    if verdict.status == INVALID:
        out.write(f"\n{_invalid(verdict, names)}.\n")
    return code


def _seat(seat: int, names: list[str]) -> str:
    name = names[seat] if 0 <= seat < len(names) else "?"
    return f"seat {render.seat_letter(seat) if 0 <= seat < len(names) else seat} ({name})"


def seat_note(event: SeatReplaced | SeatReclaimed, names: list[str]) -> str:
    """A replacement or a return, as the table said it during the match."""
    if isinstance(event, SeatReplaced):
        return (f"{_seat(event.seat, names)} replaced by a bot after its message "
                f"{event.count} ({event.reason})")
    return f"{_seat(event.seat, names)} is back (from {event.step})"


def _invalid(verdict: Verdict, names: list[str]) -> str:
    where = f" from record {verdict.record}" if verdict.record is not None else ""
    who = f"{_seat(verdict.seat, names)}: " if verdict.seat is not None else ""
    return f"This file is INVALID{where}: {who}{verdict.reason}"


def _read(path: str) -> bytes:
    try:
        return read_match_file(path)
    except Unreadable as exc:
        raise RecordError(str(exc)) from None


def list_matches(data_dir: Path, out: TextIO) -> int:
    """``cryptcrawl matches``: one line per match file in the data directory, oldest first —
    a file that cannot be read (not a regular file, unreadable, not a match file) is a line
    saying so, and the others are still listed."""
    from p2p.store import StoreError

    folder = data_dir / "matches"
    try:
        with os.scandir(folder) as entries:
            paths = [Path(e.path) for e in entries
                     if e.name.endswith(".crawl") and not e.name.startswith(".")]
    except FileNotFoundError:
        paths = []
    except OSError as exc:
        raise StoreError(f"cannot read {printable(folder)}: {exc.strerror}") from None
    if not paths:
        out.write(f"No matches in {printable(folder)} yet.\n")
        return 0
    for when, path in sorted(((_modified(p), p) for p in paths),
                             key=lambda item: (item[0] or 0.0, item[1])):
        stamp = _stamp(when)
        try:
            data = read_match_file(path)
        except Unreadable as exc:
            out.write(f"{stamp}  (unreadable: {exc.reason})  {printable(path)}\n")
            continue
        t, verdict = read_and_verify(data)
        if t.header is None:
            reason = t.problems[0].reason if t.problems else "no header"
            out.write(f"{stamp}  (unreadable: {reason})  {printable(path)}\n")
            continue
        h = t.header.header
        names = ", ".join(s.name for s in h.seats)
        if verdict.status == VALID:
            result = "won by " + (", ".join(h.seats[w].name for w in verdict.winners)
                                  or "nobody")
        else:
            result = verdict.status
        unfinished = _exists(path.with_suffix(".seed")) and verdict.status != VALID
        tail = "  (interrupted: cryptcrawl resume)" if unfinished else ""
        out.write(f"{stamp}  {h.game}  {names}  {result}  {printable(path)}{tail}\n")
    return 0


def _stamp(when: float | None) -> str:
    """A file's time as the listing shows it; ``????-??-?? ??:??`` if unknown, or out of the
    range a date can be shown in (a file can be dated year 3 million)."""
    if when is not None:
        try:
            return datetime.datetime.fromtimestamp(when).strftime("%Y-%m-%d %H:%M")
        except (ValueError, OverflowError, OSError):
            pass
    return "????-??-?? ??:??"


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:  # (a directory that can be listed but not searched)
        return False


def _modified(path: Path) -> float | None:
    """When the file (or, for a dangling link, the link) was last changed; None if unknown."""
    for follow in (True, False):
        try:
            return os.stat(path, follow_symlinks=follow).st_mtime
        except (OSError, ValueError):
            continue
    return None
