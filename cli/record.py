"""``cryptcrawl export FILE --json``, ``cryptcrawl replay FILE`` and ``cryptcrawl matches``: match
files, readable.

Export and replay run the file through the same match core the peers and the verifier run, so
what they show is what the feeds prove; they never trust anything else in the file.  Replay
says first, in one line, when the verifier finds the file invalid or disputed (and exits 1 or
6, as ``verify`` does).  Every file is read with :func:`cli.verify.read_match_file`'s limits
(a regular file of at most 64 MiB), and every path is printed with :func:`cli.verify.shown`.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from cli.games import make_ui
from cli.plugin import GameUI, Seating
from cli.seats import SeatWatch
from cli.story import Story
from cli.text import seat_letter
from cli.verify import EXIT_FOR, Unreadable, outcome_word, read_match_file
from cli.verify import shown as printable
from engine.core import EngineError
from engine.games import get_game
from protocol.crypto import fingerprint
from protocol.errors import BadMessage
from protocol.match.core import (
    ActionTaken,
    ChanceRedrawn,
    ChanceResolved,
    FloorReached,
    MatchClaimed,
    MatchCore,
    PeerMisbehaved,
    PlayRevealed,
    RoundKeyReleased,
    SeatForfeited,
    SeatLeft,
    SeatReclaimed,
    SeatReplaced,
)
from protocol.match.events import (
    CardDealt,
    CardShown,
    DeckRestarted,
    MatchResumed,
    OfferMade,
    OfferSettled,
    SealedOpened,
    SealedVoid,
)
from protocol.verify.verifier import DISPUTED, INVALID, Verdict, read_and_verify
from protocol.wire.transcript import Transcript


class RecordError(Exception):
    """The file cannot be shown (unreadable); one line."""


def _json_value(value: Any) -> Any:
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, tuple | list):
        return [_json_value(v) for v in value]
    return value


def replayed(t: Transcript, ui: GameUI | None = None) -> tuple[MatchCore, Story | None]:
    """The file's feeds through a match core; with ``ui``, told as they are taken (its
    story)."""
    if t.header is None:
        reason = t.problems[0].reason if t.problems else "no header"
        raise RecordError(f"not a readable match file: {reason}")
    try:
        core = MatchCore(t.header)
    except BadMessage as exc:  # (a game, engine or sampler this program does not have)
        raise RecordError(f"cannot show this match: {exc}") from None
    story = Story(core, ui) if ui is not None else None
    core.adopt(t.feeds)
    return core, story


def file_ui(t: Transcript) -> GameUI:
    """The game's plug-in for a file's table, every seat called by its name."""
    if t.header is None:
        reason = t.problems[0].reason if t.problems else "no header"
        raise RecordError(f"not a readable match file: {reason}")
    h = t.header.header
    names = tuple(s.name for s in h.seats)
    try:
        return make_ui(h.game, len(names), dict(h.options), Seating(names))
    except EngineError as exc:  # (a game this program does not have)
        raise RecordError(f"cannot show this match: {exc}") from None


def export_json(path: str, out: TextIO) -> int:
    t, verdict = read_and_verify(_read(path))
    core, story = replayed(t, file_ui(t))
    assert t.header is not None and story is not None
    told = story.tell()
    said: dict[int, list[str]] = {}
    for part in told:
        if part.events:
            said.setdefault(max(part.events), []).extend(part.lines)
    h = t.header.header
    events: list[dict[str, Any]] = []
    for i, e in enumerate(core.events):
        count = len(events)
        _export_event(e, events, core)
        if len(events) > count:
            events[-1]["said"] = said.get(i, [])
    document = {
        # 2: "by_bot"; 3: "round key"; 4: "opened", "void"; 5: "dealt", "shown", "deal
        # restarted"; 6: "said" (every event), "story"
        "format": "cryptcrawl-export/6",
        "file": printable(path),
        "match_id": t.header.match_id.hex(),
        "header": {
            "game": h.game, "options": dict(h.options), "protocol": h.protocol,
            "engine": h.engine, "sampler": h.sampler,
            "seats": [{"name": s.name, "fingerprint": fingerprint(s.key), "key": s.key.hex()}
                      for s in h.seats],
            "nonces": [n.hex() for n in h.nonces],
        },
        "verdict": {"verdict": verdict.verdict, "blamed": list(verdict.blamed),
                    "record": verdict.record, "reason_code": verdict.reason_code,
                    "reason": verdict.reason, "status": verdict.verdict,
                    "seat_at_fault": (verdict.blamed[0] if verdict.verdict == INVALID
                                      and len(verdict.blamed) == 1 else None),
                    "outcome": outcome_word(verdict), "winners": list(verdict.winners),
                    "drawn": list(verdict.drawn), "notes": list(verdict.notes)},
        "events": events,
        "story": [{"events": list(part.events), "lines": list(part.lines)} for part in told],
        "feeds": [[{"seq": m.seq, "kind": m.kind.name, "state": m.state.hex(),
                    "body": _json_value(m.body), "hash": m.hash.hex()}
                   for m in core.feeds[s].messages] for s in range(core.n)],
    }
    out.write(json.dumps(document, indent=1) + "\n")
    return 0


def _export_event(e: Any, events: list[dict[str, Any]], core: MatchCore) -> None:
    """``e`` as export's JSON, appended to ``events`` (nothing for an event not exported)."""
    if isinstance(e, ChanceResolved):
        events.append({"type": "chance", "event": e.event, "outcome": e.outcome,
                       "without": list(e.missing)})
    elif isinstance(e, PlayRevealed):
        events.append({"type": "reveal", "step": e.step, "seat": e.seat,
                       "action": e.action})
    elif isinstance(e, ActionTaken):
        events.append({"type": "action", "step": e.step, "seat": e.seat,
                       "action": e.action, "by_bot": e.zombie})
    elif isinstance(e, SeatReplaced):
        events.append({"type": "replaced", "seat": e.seat, "count": e.count,
                       "reason": e.reason})
    elif isinstance(e, SeatReclaimed):
        events.append({"type": "reclaimed", "seat": e.seat, "step": e.step})
    elif isinstance(e, SeatForfeited):
        events.append({"type": "forfeited", "seat": e.seat, "withheld": e.withheld})
    elif isinstance(e, SealedOpened):
        events.append({"type": "opened", "seat": e.seat, "values": [
            {"slot": slot, "value": value} for slot, value in e.values],
            "audit": e.at_end})
    elif isinstance(e, SealedVoid):
        events.append({"type": "void", "seat": e.seat, "slots": list(e.slots)})
    elif isinstance(e, CardDealt):
        events.append({"type": "dealt", "event": e.event, "deck": e.deck, "seat": e.seat})
    elif isinstance(e, CardShown):
        events.append({"type": "shown", "seat": e.seat, "event": e.event, "card": e.card,
                       "audit": e.at_end})
    elif isinstance(e, DeckRestarted):
        events.append({"type": "deal restarted", "deck": e.deck, "attempt": e.attempt,
                       "seats": list(e.seats), "lost": e.lost})
    elif isinstance(e, ChanceRedrawn):
        events.append({"type": "redrawn", "event": e.event, "as": e.new_id})
    elif isinstance(e, RoundKeyReleased):
        events.append({"type": "round key", "round": e.round, "seat": e.seat,
                       "lying deliveries": list(e.bad)})
    elif isinstance(e, PeerMisbehaved):
        events.append({"type": "misbehaved", "seat": e.seat, "reason": e.reason})
    elif isinstance(e, SeatLeft):
        events.append({"type": "resigned" if e.resigned else "left", "seat": e.seat,
                       "count": e.count})
    elif isinstance(e, OfferMade):
        events.append({"type": "offer", "seat": e.seat, "seq": e.seq, "what": e.what})
    elif isinstance(e, OfferSettled):
        events.append({"type": "offer settled", "seat": e.seat, "seq": e.seq,
                       "what": e.what, "agreed": e.agreed, "declined": list(e.declined),
                       "why": e.why})
    elif isinstance(e, MatchResumed):
        events.append({"type": "resumed", "seat": e.seat})
    elif isinstance(e, MatchClaimed):
        events.append({"type": "claimed", "claimant": e.claimant, "seat": e.seat,
                       "count": e.count, "crossed": e.contested})
    elif isinstance(e, FloorReached):
        events.append({"type": "floor", "seat": e.seat, "count": e.count,
                       "reason": e.reason, "blamed": list(e.blamed), "live": list(e.live),
                       "abandoned": core.ending.abandoned})


def replay(path: str, out: TextIO, ask: Any = None) -> int:
    """Step by step, as the game's plug-in tells it (:class:`cli.story.Story`); ``ask`` (a
    prompt function) waits for Enter after each unit of the game (a turn, a round;
    ``None``: print everything, the ``--plain`` record)."""
    t, verdict = read_and_verify(_read(path))
    ui = file_ui(t)
    core, story = replayed(t, ui)
    assert story is not None
    wrong = verdict.verdict in (INVALID, DISPUTED)
    code = EXIT_FOR[verdict.verdict] if wrong else 0
    h = core.header.header
    names = [s.name for s in h.seats]
    out.write(f"{printable(path)}: {get_game(h.game).title}, {len(names)} players: "
              + ", ".join(f"{seat_letter(i)} {n}" for i, n in enumerate(names)) + "\n")
    if wrong:
        out.write(f"{_invalid(verdict, names)}; what follows is shown only as far as it "
                  "checks out (cryptcrawl verify gives the details)\n")
    for told in story.tell():
        if told.lines:
            out.write("\n".join(told.lines) + "\n")
            out.flush()
        if told.pause and told.lines and ask is not None:
            answer = ask(f"Enter: next {ui.replay_unit}, q: stop> ")
            if answer.strip().lower() in ("q", "quit"):
                return code
    out.write("".join(line + "\n" for line in ending_lines(core, ui, names,
                                                             unfinished=not wrong)))
    if wrong:
        out.write(f"\n{_invalid(verdict, names)}.\n")
    return code


def ending_lines(core: MatchCore, ui: Any, names: list[str], *, unfinished: bool = True
                 ) -> list[str]:
    """What a replay (or a spectator) shows once the feeds are taken (after the story, which
    told the seats replaced and back): the final standings, a claim or an abandonment
    (``unfinished``: say so when none of them is there)."""
    lines: list[str] = []
    watch = SeatWatch()
    for e in core.events:
        watch.on_event(e)
    bots = {seat: [(s.first, s.back) for s in stretches]
            for seat, stretches in watch.played_by_bot().items()}
    final = core.state.waiting
    outcome = getattr(final, "outcome", None)
    if outcome is not None:
        ui.departed = dict(watch.departed)
        view = core.state.spectator_view()
        lines += ["", *ui.scoreboard(view, outcome, bots)]
    elif (claim := core.ending.claim) is not None and not claim.contested:
        lines += ["", f"{names[claim.claimant]} claimed the match: {names[claim.seat]} stayed "
                  "silent past the timeouts where its move was owed, with only two players "
                  "left."]
    elif core.ending.abandoned and core.ending.floor is not None:
        floor = core.ending.floor
        lines += ["", f"The match was abandoned: fewer than two players were left once "
                  f"{names[floor.seat]} was replaced ({floor.reason}), and this game has no "
                  "forfeit result."]
    elif unfinished:
        lines += ["", "The file stops before the end of the match."]
    return lines


def _seat(seat: int, names: list[str]) -> str:
    name = names[seat] if 0 <= seat < len(names) else "?"
    return f"seat {seat_letter(seat) if 0 <= seat < len(names) else seat} ({name})"


def _invalid(verdict: Verdict, names: list[str]) -> str:
    where = f" from record {verdict.record}" if verdict.record is not None else ""
    who = " and ".join(_seat(s, names) for s in verdict.blamed)
    return f"This file is {verdict.verdict.upper()}{where}: {who}{': ' if who else ''}" + (
        verdict.reason)


def _read(path: str) -> bytes:
    try:
        return read_match_file(path)
    except Unreadable as exc:
        raise RecordError(str(exc)) from None
