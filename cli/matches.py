"""``cryptcrawl matches``: one line per match file in the data directory, with its verdict.

Verifying a file in full costs tens of milliseconds, so each verdict is kept in a cache in the
data directory (``verdicts.json``), keyed by the file's name, size, ``mtime_ns``, inode and the
verifier's version: a file that changed in any of these (a match still being played, a file
replaced) is verified afresh, and so is every file when the verifier changes.  A verdict read
from the cache is marked ``[cached]``.  ``--prune`` deletes the interrupted starts that never got
under way (no card played), with their seeds.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from cli.verify import Unreadable, read_limited, read_match_file
from cli.verify import shown as printable
from engine.games import games, get_game
from protocol.verify.verdicts import VERIFIER_REVISION
from protocol.verify.verifier import VALID, Verdict, read_and_verify
from protocol.wire.header import PROTOCOL_VERSION
from protocol.wire.messages import Kind
from protocol.wire.transcript import Transcript

CACHE_NAME = "verdicts.json"
CACHE_FORMAT = 3  # 2: the seats' keys, the placings and the seats a bot finished; 3: draws
# (a draw was read as a shared win before: every file is read again)
CACHE_LIMIT = 16 * 1024 * 1024
VERIFIER = (f"protocol {PROTOCOL_VERSION}; verifier {VERIFIER_REVISION}; "
            + ", ".join(get_game(game).engine_version for game in games())
            + f"; listing {CACHE_FORMAT}")
PRUNE_AFTER = 600.0  # seconds unchanged before a start that never got under way is pruned
PLAYS = frozenset({Kind.COMMIT, Kind.REVEAL, Kind.ACT})


@dataclass(frozen=True)
class Entry:
    """What the listing and the record (``cryptcrawl stats``) need of one readable match file
    (kept in the cache)."""

    game: str
    names: tuple[str, ...]
    status: str
    winners: tuple[int, ...]
    bots: tuple[str, ...]  # "Ana's seat from level 2, room 3", one per seat a bot played
    under_way: bool  # some seat played a card (or took an action)
    keys: tuple[str, ...] = ()  # every seat's public key (hex)
    places: tuple[int, ...] = ()  # every seat's place (1 first; ties share), if it ended
    bot_finished: tuple[int, ...] = ()  # the seats a bot played to the end
    drawn: tuple[int, ...] = ()  # a drawn match: the seats that drew (no winners)

    def as_json(self) -> dict[str, Any]:
        return {"game": self.game, "names": list(self.names), "status": self.status,
                "winners": list(self.winners), "bots": list(self.bots),
                "under_way": self.under_way, "keys": list(self.keys),
                "places": list(self.places), "bot_finished": list(self.bot_finished),
                "drawn": list(self.drawn)}

    @classmethod
    def from_json(cls, value: Any) -> Entry | None:
        try:
            entry = cls(str(value["game"]), tuple(str(n) for n in value["names"]),
                        str(value["status"]), tuple(int(w) for w in value["winners"]),
                        tuple(str(b) for b in value["bots"]), bool(value["under_way"]),
                        tuple(str(k) for k in value["keys"]),
                        tuple(int(p) for p in value["places"]),
                        tuple(int(s) for s in value["bot_finished"]),
                        tuple(int(s) for s in value["drawn"]))
        except (KeyError, TypeError, ValueError):
            return None
        seats = len(entry.names)
        if (any(not 0 <= w < seats for w in entry.winners) or len(entry.keys) != seats
                or len(entry.places) not in (0, seats)
                or any(not 0 <= b < seats for b in (*entry.bot_finished, *entry.drawn))):
            return None
        return entry


def file_key(path: Path) -> list[int] | None:
    """The cache key of a file (size, mtime_ns, inode); None if it cannot be had."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ino]


class VerdictCache:
    """The cached entries of one data directory, read once and written back if changed."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / CACHE_NAME
        self.entries: dict[str, Any] = {}
        self.changed = False
        self.verified = 0  # files verified in full during this listing
        with contextlib.suppress(Unreadable, ValueError, UnicodeDecodeError):
            document = json.loads(read_limited(self.path, CACHE_LIMIT))
            if (isinstance(document, dict) and document.get("verifier") == VERIFIER
                    and isinstance(document.get("files"), dict)):
                self.entries = document["files"]

    def get(self, name: str, key: list[int]) -> Entry | None:
        cached = self.entries.get(name)
        if not isinstance(cached, dict) or cached.get("key") != key:
            return None
        return Entry.from_json(cached.get("entry"))

    def put(self, name: str, key: list[int], entry: Entry) -> None:
        self.entries[name] = {"key": key, "entry": entry.as_json()}
        self.changed = True

    def keep_only(self, names: set[str]) -> None:
        for name in set(self.entries) - names:
            del self.entries[name]
            self.changed = True

    def save(self) -> None:
        """Write the cache (a failure to write only costs the next listing its speed)."""
        if not self.changed:
            return
        data = json.dumps({"verifier": VERIFIER, "files": self.entries}).encode()
        tmp = self.path.with_name(f".{CACHE_NAME}.{os.getpid()}.tmp")
        with contextlib.suppress(OSError):
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            try:
                os.write(fd, data)
            finally:
                os.close(fd)
            os.replace(tmp, self.path)
        with contextlib.suppress(OSError):
            tmp.unlink()


def entry_of(t: Transcript, verdict: Verdict) -> Entry:
    """The listing's entry for a file with a readable header: a valid match (or one where a bot
    played a seat) is replayed for its placings and the seats a bot played."""
    assert t.header is not None
    h = t.header.header
    names = tuple(s.name for s in h.seats)
    under_way = any(m.kind in PLAYS for feed in t.feeds.values() for m in feed.messages)
    entry = Entry(h.game, names, verdict.verdict, tuple(verdict.winners), (), under_way,
                  tuple(s.key.hex() for s in h.seats), drawn=tuple(verdict.drawn))
    if verdict.verdict == VALID or any("replaced by" in note for note in verdict.notes):
        return replayed_entry(t, entry)
    return entry


def replayed_entry(t: Transcript, entry: Entry) -> Entry:
    """``entry`` with what the match replayed says: for each seat a bot played, "NAME's seat
    from STEP" (the step in the words of the game's plug-in), the seats a bot played to the
    end, and every seat's place if the match ended."""
    from cli.games import make_ui
    from cli.plugin import placings
    from cli.record import RecordError, replayed
    from cli.seats import SeatWatch
    from cli.text import join_words
    from engine.core import Over

    try:
        core, _ = replayed(t)
    except RecordError:
        return entry
    h = core.header.header
    ui = make_ui(h.game, len(h.seats), dict(h.options))
    watch = SeatWatch()
    for event in core.events:
        watch.on_event(event)
    bots, finished = [], []
    for seat, stretches in sorted(watch.played_by_bot().items()):
        spans = [f"from {ui.step_words(s.first)}"
                 + (f" until {ui.step_words(s.back)}" if s.back else "") for s in stretches]
        name = entry.names[seat]
        whose = "your seat" if name.lower() == "you" else f"{name}'s seat"
        bots.append(f"{whose} {join_words(spans)}")
        if not stretches[-1].back:
            finished.append(seat)
    places: tuple[int, ...] = ()
    if isinstance(core.state.waiting, Over):
        found = placings(ui, core.state.waiting.outcome)
        places = tuple(found.get(seat, 0) for seat in range(len(entry.names)))
    return dataclasses.replace(entry, bots=tuple(bots), places=places,
                               bot_finished=tuple(finished))


def read_entry(path: Path, cache: VerdictCache) -> tuple[Entry | None, str, bool]:
    """The entry of one match file, from the cache or verified afresh (and cached): (entry,
    "", cached), or (None, why it cannot be read, False)."""
    key = file_key(path)
    entry = cache.get(path.name, key) if key is not None else None
    if entry is not None:
        return entry, "", True
    try:
        data = read_match_file(path)
    except Unreadable as exc:
        return None, exc.reason, False
    t, verdict = read_and_verify(data)
    cache.verified += 1
    if t.header is None:
        return None, t.problems[0].reason if t.problems else "no header", False
    entry = entry_of(t, verdict)
    if key is not None and key == file_key(path):  # (unchanged while it was read)
        cache.put(path.name, key, entry)
    return entry, "", False


def match_paths(data_dir: Path) -> list[Path]:
    """The match files of the data directory (StoreError if its folder cannot be read)."""
    from p2p.store import StoreError

    folder = data_dir / "matches"
    try:
        with os.scandir(folder) as entries:
            return [Path(e.path) for e in entries
                    if e.name.endswith(".crawl") and not e.name.startswith(".")]
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise StoreError(f"cannot read {printable(folder)}: {exc.strerror}") from None


def list_matches(data_dir: Path, out: TextIO, *, prune: bool = False,
                 now: float | None = None) -> int:
    """One line per match file in the data directory, oldest first — a file that cannot be
    read (not a regular file, unreadable, not a match file) is a line saying so, and the
    others are still listed.  ``prune``: first delete the interrupted starts that never got
    under way (unchanged for :data:`PRUNE_AFTER` seconds)."""
    from cli.args import resume_command

    folder = data_dir / "matches"
    paths = match_paths(data_dir)
    cache = VerdictCache(data_dir)
    if not paths:
        out.write(f"No matches in {printable(folder)} yet.\n")
        return 0
    lines: list[str] = []
    pruned: list[Path] = []
    for when, path in sorted(((_modified(p), p) for p in paths),
                             key=lambda item: (item[0] or 0.0, item[1])):
        stamp = _stamp(when)
        entry, problem, cached = read_entry(path, cache)
        if entry is None:
            lines.append(f"{stamp}  (unreadable: {problem})  {printable(path)}")
            continue
        unfinished = _exists(path.with_suffix(".seed")) and entry.status != VALID
        if (prune and unfinished and not entry.under_way and when is not None
                and (time.time() if now is None else now) - when >= PRUNE_AFTER):
            pruned.append(path)
            continue
        if entry.status == VALID and entry.drawn:
            result = "drawn (" + ", ".join(entry.names[w] for w in entry.drawn) + ")"
        elif entry.status == VALID:
            result = "won by " + (", ".join(entry.names[w] for w in entry.winners) or "nobody")
        else:
            result = entry.status
        if entry.bots:
            result += " (a bot played " + "; ".join(entry.bots) + ")"
        if cached:
            result += " [cached]"
        tail = f"  (interrupted: {resume_command()})" if unfinished else ""
        lines.append(f"{stamp}  {entry.game}  {', '.join(entry.names)}  {result}  "
                     f"{printable(path)}{tail}")
    for path in pruned:
        _prune(data_dir, path)
        lines.append(f"pruned: {printable(path)} (an interrupted start: no card was played)")
    cache.keep_only({p.name for p in paths if p not in pruned})
    cache.save()
    out.write("".join(line + "\n" for line in lines))
    return 0


def _prune(data_dir: Path, path: Path) -> None:
    """Delete a match's files here and in this machine's bots' data directories."""
    folders = [path.parent]
    bots = data_dir / "bots"
    with contextlib.suppress(OSError):
        folders += [d / "matches" for d in sorted(bots.iterdir()) if d.is_dir()]
    for folder in folders:
        for suffix in (".crawl", ".seed", ".json"):
            with contextlib.suppress(OSError):
                (folder / path.name).with_suffix(suffix).unlink()


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
