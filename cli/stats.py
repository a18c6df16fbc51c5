"""``cryptcrawl stats``: your record, per game, from the match files in the data directory.

"You" is the data directory's identity: a match counts for you when its header gives your key a
seat.  Per game: the games (valid files only), the wins, the draws (a draw is no win) and the
average placing (ties share the better place, as the game's plug-in ranks an outcome), and the
same against the bots of each level (a bot seat of ``play`` or ``host`` is named for its level:
"Bot 2 (strong)"; a table whose bots played several levels counts as "mixed").  A match in
which a bot played your seat to the end (you were voted absent and did not come back) is
"finished by a bot": not a win, and its placing is not yours.  Every other verdict —
incomplete, invalid, claimed, abandoned, split, disputed, whatever the verifier says — is
counted apart under its own name; none counts as a game.  Verdicts come from the same cache as
``cryptcrawl matches`` (:mod:`cli.matches`).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from cli.matches import VerdictCache, match_paths, read_entry
from cli.text import plural, wrap_text
from cli.verify import shown as printable
from engine.core import LEVELS
from engine.games import games, get_game
from p2p.run import bot_kind_of
from protocol.crypto import fingerprint, public_key_bytes
from protocol.verify.verifier import VALID


def table_level(names: tuple[str, ...], seat: int) -> str:
    """The level of the bots you played against: theirs if they all played one level,
    "mixed" if not, "" without bots."""
    levels = {bot_kind_of(n) for i, n in enumerate(names) if i != seat} - {""}
    if not levels:
        return ""
    return levels.pop() if len(levels) == 1 else "mixed"


@dataclass
class LevelRecord:
    """Your record against the bots of one level (in the games you played to the end)."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    placings: list[int] = field(default_factory=list)

    @property
    def average(self) -> float | None:
        return sum(self.placings) / len(self.placings) if self.placings else None

    def as_json(self) -> dict[str, Any]:
        return {"games": self.games, "wins": self.wins, "draws": self.draws,
                "average_placing": None if self.average is None else round(self.average, 3)}


@dataclass
class GameRecord:
    """One game's record."""

    game: str
    games: int = 0  # valid matches you sat in
    wins: int = 0  # of them, won in a seat you played to the end
    draws: int = 0  # of them, drawn in a seat you played to the end (a draw is no win)
    by_bot: int = 0  # of them, finished by a bot in your seat
    placings: list[int] = field(default_factory=list)  # in the games you finished
    tables: list[int] = field(default_factory=list)  # the players at those tables
    other: Counter[str] = field(default_factory=Counter)  # the other verdicts
    # Against bots, per level (their level, or "mixed"), of the games you finished.
    levels: dict[str, LevelRecord] = field(default_factory=dict)

    @property
    def title(self) -> str:
        return get_game(self.game).title if self.game in games() else self.game

    @property
    def average(self) -> float | None:
        return sum(self.placings) / len(self.placings) if self.placings else None

    def as_json(self) -> dict[str, Any]:
        return {"title": self.title, "games": self.games, "wins": self.wins,
                "draws": self.draws, "finished_by_bot": self.by_bot,
                "average_placing": None if self.average is None else round(self.average, 3),
                "placings": self.placings, "other": dict(sorted(self.other.items())),
                "against_bots": {level: r.as_json() for level, r in
                                 sorted(self.levels.items(), key=_level_order)}}


def _level_order(item: tuple[str, LevelRecord]) -> tuple[int, str]:
    order = (*LEVELS, "mixed")
    return (order.index(item[0]) if item[0] in order else len(order), item[0])


@dataclass
class Record:
    """Everything ``stats`` found in one data directory."""

    identity: str
    files: int = 0
    unreadable: int = 0
    not_yours: int = 0
    per_game: dict[str, GameRecord] = field(default_factory=dict)

    def add(self, entry: Any, mine: str) -> None:
        if mine not in entry.keys:
            self.not_yours += 1
            return
        seat = entry.keys.index(mine)
        record = self.per_game.setdefault(entry.game, GameRecord(entry.game))
        if entry.status != VALID:
            record.other[entry.status] += 1
            return
        record.games += 1
        if seat in entry.bot_finished:
            record.by_bot += 1
            return
        won = seat in entry.winners
        drew = seat in entry.drawn
        record.wins += won
        record.draws += drew
        if entry.places:
            record.placings.append(entry.places[seat])
            record.tables.append(len(entry.names))
        level = table_level(entry.names, seat)
        if level:
            against = record.levels.setdefault(level, LevelRecord())
            against.games += 1
            against.wins += won
            against.draws += drew
            if entry.places:
                against.placings.append(entry.places[seat])

    def as_json(self) -> dict[str, Any]:
        return {"identity": self.identity, "files": self.files, "unreadable": self.unreadable,
                "not_yours": self.not_yours,
                "games": {game: r.as_json() for game, r in sorted(self.per_game.items())}}


def gather(data_dir: Path) -> Record | None:
    """The record of the data directory's identity (None if it has none yet)."""
    from p2p.store import StoreError, load_identity

    try:
        key = public_key_bytes(load_identity(data_dir, create=False))
    except StoreError:
        return None
    record = Record(fingerprint(key))
    cache = VerdictCache(data_dir)
    for path in sorted(match_paths(data_dir)):
        record.files += 1
        entry, _problem, _cached = read_entry(path, cache)
        if entry is None:
            record.unreadable += 1
        else:
            record.add(entry, key.hex())
    cache.save()
    return record


def lines_of(record: Record, folder: Path) -> list[str]:
    """The record as a person reads it (80 columns)."""
    lines = wrap_text(f"Your record (identity {record.identity}), from "
                      f"{plural(record.files, 'match file')} in {printable(folder)}.")
    if not record.per_game:
        lines.append("No match of yours yet.")
    for game, r in sorted(record.per_game.items(), key=lambda item: item[1].title):
        lines += ["", f"{r.title} ({game})"]
        head = f"  {plural(r.games, 'game')}, {plural(r.wins, 'win')}"
        if r.draws:
            head += f", {plural(r.draws, 'draw')}"
        if r.average is not None:
            low, high = min(r.tables), max(r.tables)
            at = f"{low}" if low == high else f"{low} to {high}"
            head += f", average placing {r.average:.2f} (tables of {at} players)"
        lines += wrap_text(head, indent="    ")
        for level, against in sorted(r.levels.items(), key=_level_order):
            text = (f"  against {level} bots: {plural(against.games, 'game')}, "
                    f"{plural(against.wins, 'win')}")
            if against.draws:
                text += f", {plural(against.draws, 'draw')}"
            if against.average is not None:
                text += f", average placing {against.average:.2f}"
            lines += wrap_text(text, indent="    ")
        if r.by_bot:
            lines += wrap_text(f"  finished by a bot in your seat: {r.by_bot} (not counted "
                               "as wins; their placings are not yours)", indent="    ")
        if r.other:
            counted = ", ".join(f"{n} {status}" for status, n in sorted(r.other.items()))
            lines += wrap_text(f"  not counted (not valid): {counted}", indent="    ")
    tail = []
    if record.not_yours:
        tail.append(f"{plural(record.not_yours, 'file')} without a seat of yours")
    if record.unreadable:
        tail.append(f"{record.unreadable} unreadable (cryptcrawl matches says why)")
    if tail:
        lines += ["", *wrap_text("Also: " + "; ".join(tail) + ".")]
    return lines


def show_stats(data_dir: Path, out: TextIO, *, as_json: bool = False) -> int:
    """``cryptcrawl stats`` (``--json``: the same as one JSON object)."""
    record = gather(data_dir)
    if record is None:
        if as_json:
            out.write(json.dumps({"identity": None, "files": 0, "games": {}}) + "\n")
        else:
            out.write(f"No identity in {printable(data_dir)} yet: no match of yours to count "
                      "(cryptcrawl id makes one).\n")
        return 0
    if as_json:
        out.write(json.dumps(record.as_json(), indent=1) + "\n")
    else:
        out.write("".join(line + "\n" for line in lines_of(record, data_dir / "matches")))
    return 0
