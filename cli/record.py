"""``cryptcrawl export FILE --json`` and ``cryptcrawl replay FILE``: a match file, readable.

Both replay the file through the same match core the peers and the verifier run, so what they
show is what the feeds prove; they never trust anything else in the file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO

from cli import render
from engine.core import GameState
from engine.raiders import RaidersView
from protocol.crypto import fingerprint
from protocol.match import (
    ActionTaken,
    ChanceRedrawn,
    ChanceResolved,
    MatchCore,
    PeerMisbehaved,
    PlayRevealed,
    SeatReclaimed,
    SeatReplaced,
    TorchKeyReleased,
)
from protocol.transcript import read_transcript
from protocol.verify import record_numbers, verify_transcript


class RecordError(Exception):
    """The file cannot be shown (unreadable); one line."""


def _json_value(value: Any) -> Any:
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, tuple | list):
        return [_json_value(v) for v in value]
    return value


def _replay(data: bytes) -> tuple[MatchCore, list[GameState[Any]]]:
    t = read_transcript(data)
    if t.header is None:
        reason = t.problems[0].reason if t.problems else "no header"
        raise RecordError(f"not a readable match file: {reason}")
    core = MatchCore(t.header)
    states: list[GameState[Any]] = [core.state]
    original = core._set_state

    def capture(state: GameState[Any]) -> None:
        original(state)
        states.append(state)
    core._set_state = capture  # type: ignore[method-assign]
    core.adopt(t.feeds)
    return core, states


def export_json(path: str, out: TextIO) -> int:
    data = _read(path)
    t = read_transcript(data)
    core, _states = _replay(data)
    verdict = verify_transcript(t, record_numbers(data))
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
        elif isinstance(e, TorchKeyReleased):
            events.append({"type": "torch key", "round": e.round, "seat": e.seat,
                           "lying deliveries": list(e.bad)})
        elif isinstance(e, PeerMisbehaved):
            events.append({"type": "misbehaved", "seat": e.seat, "reason": e.reason})
    document = {
        "format": "cryptcrawl-export/1",
        "file": path,
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
    data = _read(path)
    core, states = _replay(data)
    names = [s.name for s in core.header.header.seats]
    out.write(f"{path}: Dungeon Raiders, {len(names)} players: "
              + ", ".join(f"{render.seat_letter(i)} {n}" for i, n in enumerate(names)) + "\n")
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
                return 0
    replacements = [e for e in core.events if isinstance(e, SeatReplaced | SeatReclaimed)]
    for e in replacements:
        out.write(f"note: {e}\n")
    final = core.state.waiting
    outcome = getattr(final, "outcome", None)
    if outcome is not None:
        view = core.state.public().view(0)
        assert isinstance(view, RaidersView)
        out.write("\n" + "\n".join(render.render_scoreboard(view, outcome, tuple(names)))
                  + "\n")
    else:
        out.write("\nThe file stops before the end of the match.\n")
    return 0


def _read(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
