"""``cryptcrawl stats``: your record per game from the data directory's match files — valid files
only, a match a bot finished for your seat apart (not a win), every other verdict counted apart
by its name, ties sharing a placing; the same as JSON."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from cli.matches import Entry
from cli.stats import Record
from tests.cli.test_command import cryptcrawl
from tests.cli.test_matches import finished, with_a_bot


def data_dir(tmp_path: Path, name: str, tag: bytes, seat: int) -> Path:
    """A data directory whose identity is seat ``seat`` of the in-memory matches of ``tag``
    (their keys come from the tag: protocol.mesh.make_header)."""
    folder = tmp_path / name
    (folder / "matches").mkdir(parents=True)
    (folder / "identity.key").write_bytes(hashlib.sha256(tag + b"key%d" % seat).digest())
    (folder / "identity.key").chmod(0o600)
    return folder


def test_your_games_wins_placing_and_the_verdicts_counted_apart(tmp_path: Path) -> None:
    data = data_dir(tmp_path, "ann", b"stats", 1)
    whole = finished(b"stats")
    (data / "matches" / "a.crawl").write_bytes(whole)
    (data / "matches" / "b.crawl").write_bytes(whole[:-9])  # torn: incomplete
    (data / "matches" / "c.crawl").write_bytes(finished(b"someone else"))
    (data / "matches" / "d.crawl").write_bytes(b"not a match file")
    result = cryptcrawl("stats", "--json", "--data-dir", str(data))
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["files"] == 4 and doc["unreadable"] == 1 and doc["not_yours"] == 1
    raiders = doc["games"]["raiders"]
    listing = cryptcrawl("matches", "--data-dir", str(data)).stdout
    won = "won by P1" in next(line for line in listing.splitlines() if "a.crawl" in line)
    assert raiders["games"] == 1 and raiders["wins"] == int(won)
    assert raiders["finished_by_bot"] == 0 and raiders["other"] == {"incomplete": 1}
    assert len(raiders["placings"]) == 1 and 1 <= raiders["placings"][0] <= 3
    assert (raiders["placings"][0] == 1) == won
    text = cryptcrawl("stats", "--data-dir", str(data))
    assert text.returncode == 0, text.stderr
    assert "Dungeon Raiders (raiders)" in text.stdout
    assert f"1 game, {int(won)} win" in text.stdout and "average placing" in text.stdout
    assert "not counted (not valid): 1 incomplete" in text.stdout
    assert "1 file without a seat of yours" in text.stdout
    # Every line fits 80 columns but one that holds only the folder's path (a path is not broken).
    folder = str(data / "matches")
    assert all(len(line) <= 80 or line.strip().rstrip(".") == folder
               for line in text.stdout.splitlines()), text.stdout


def test_a_match_a_bot_finished_for_you_is_no_win(tmp_path: Path) -> None:
    data = data_dir(tmp_path, "bob", b"bot-played", 2)  # seat 2 went silent in level 2
    (data / "matches" / "b.crawl").write_bytes(with_a_bot())
    doc = json.loads(cryptcrawl("stats", "--json", "--data-dir", str(data)).stdout)
    raiders = doc["games"]["raiders"]
    assert raiders == {"title": "Dungeon Raiders", "games": 1, "wins": 0, "draws": 0,
                       "finished_by_bot": 1,
                       "average_placing": None, "placings": [], "other": {},
                       "against_bots": {}}
    text = cryptcrawl("stats", "--data-dir", str(data)).stdout
    assert "finished by a bot in your seat: 1 (not counted as wins" in text
    # The others' record of the same match counts it as theirs.
    other = data_dir(tmp_path, "cy", b"bot-played", 0)
    (other / "matches" / "b.crawl").write_bytes(with_a_bot())
    mine = json.loads(cryptcrawl("stats", "--json", "--data-dir", str(other)).stdout)
    assert mine["games"]["raiders"]["finished_by_bot"] == 0
    assert mine["games"]["raiders"]["placings"]


def test_every_other_verdict_is_counted_apart_by_its_name() -> None:
    record = Record("fp")
    mine = "aa" * 32
    for status in ("claimed", "abandoned", "split", "claimed", "valid"):
        record.add(Entry("kards", ("A", "B"), status, (0,), (), True, (mine, "bb" * 32),
                         (1, 2) if status == "valid" else ()), mine)
    kards = record.per_game["kards"]
    assert kards.other == {"claimed": 2, "abandoned": 1, "split": 1}
    assert (kards.games, kards.wins, kards.placings) == (1, 1, [1])
    record.add(Entry("kards", ("A", "B"), "valid", (0, 1), (), True, ("cc" * 32, mine),
                     (1, 1)), mine)  # a shared win: both first
    assert (kards.games, kards.wins, kards.placings, kards.average) == (2, 2, [1, 1], 1.0)


def test_the_record_against_bots_is_kept_per_level() -> None:
    """A bot seat of ``play`` or ``host`` is named for its level; a table of one level counts
    for it, a table of several as "mixed", a table without bots for none."""
    from cli.stats import lines_of

    record = Record("fp")
    mine = "aa" * 32
    keys = (mine, "bb" * 32, "cc" * 32)

    def add(names: tuple[str, ...], winners: tuple[int, ...], places: tuple[int, ...]) -> None:
        record.add(Entry("raiders", names, "valid", winners, (), True, keys, places), mine)

    add(("you", "Bot 1 (strong)", "Bot 2 (strong)"), (0,), (1, 2, 3))
    add(("you", "Bot 1 (strong)", "Bot 2 (strong)"), (1,), (3, 1, 2))
    add(("you", "Bot 1 (easy)", "Bot 2 (easy)"), (0,), (1, 3, 2))
    add(("you", "Bot 1 (easy)", "Bot 2 (strong)"), (2,), (2, 3, 1))
    add(("you", "Ana", "Joe"), (1,), (2, 1, 3))  # people only: no level
    raiders = record.per_game["raiders"]
    assert raiders.games == 5 and raiders.wins == 2
    doc = raiders.as_json()["against_bots"]
    assert doc == {"easy": {"games": 1, "wins": 1, "average_placing": 1.0},
                   "strong": {"games": 2, "wins": 1, "average_placing": 2.0},
                   "mixed": {"games": 1, "wins": 0, "average_placing": 2.0}}
    assert list(doc) == ["easy", "strong", "mixed"]
    text = "\n".join(lines_of(record, Path("m")))
    assert "against strong bots: 2 games, 1 win, average placing 2.00" in text
    assert "against easy bots: 1 game, 1 win, average placing 1.00" in text
    assert text.index("against easy") < text.index("against strong") < text.index("mixed")


def test_without_an_identity_there_is_no_record(tmp_path: Path) -> None:
    result = cryptcrawl("stats", "--data-dir", str(tmp_path))
    assert result.returncode == 0 and "No identity in" in result.stdout
    assert not (tmp_path / "identity.key").exists()  # (stats never makes one)
    doc = json.loads(cryptcrawl("stats", "--json", "--data-dir", str(tmp_path)).stdout)
    assert doc == {"identity": None, "files": 0, "games": {}}
