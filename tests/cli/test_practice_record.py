"""The record of an offline game (cli/practice.py): ``play --deal-seed ... --out FILE`` writes
it, says it proves nothing, and ``verify`` plays it again — a solo game of each solo game, and a
person's typed moves — reaching the recorded result (status 9), while a record whose moves or
result were changed does not replay (status 1) and a damaged one is not read (status 3)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from cli import practice
from cli.play import Console, GameOptions, OfflineGame
from cli.verify import run_verify
from tests.cli.test_command import cryptcrawl


def _verify(path: Path, *, as_json: bool = False) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_verify([str(path)], as_json=as_json, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("game", ["kards", "paper"])
def test_a_solo_game_offline_writes_a_record_that_proves_nothing(tmp_path: Path,
                                                                  game: str) -> None:
    out = tmp_path / "solo.json"
    done = cryptcrawl("play", "--game", game, "--players", "1", "--bots", "1", "--plain",
                      "--deal-seed", "solo-record", "--seed", "s", "--out", str(out),
                      "--data-dir", str(tmp_path / "data"))
    assert done.returncode == 0, done.stderr
    assert "it proves nothing" in done.stdout
    doc = json.loads(out.read_text())
    assert doc["format"] == practice.FORMAT and doc["proves"].startswith("nothing")
    assert doc["players"] == 1 and doc["moves"] == []
    code, text, _ = _verify(out)
    assert code == practice.EXIT_REPLAYED, text
    assert text.startswith("OFFLINE GAME: it proves nothing") and "recorded result" in text
    assert all(len(line) <= 79 for line in text.splitlines()[1:])  # (the first: the path)
    code, text, _ = _verify(out, as_json=True)
    fields = json.loads(text)
    assert fields["verdict"] == "offline" and fields["replayed"] is True
    # Not a copy of a match: refused alongside another file.
    other = tmp_path / "other.json"
    other.write_bytes(out.read_bytes())
    outs, errs = io.StringIO(), io.StringIO()
    assert run_verify([str(out), str(other)], as_json=False, out=outs, err=errs) == 2
    assert "record of an offline game" in errs.getvalue()


class _Recorder(OfflineGame):
    """The offline game with every seat a bot, keeping seat 0's moves as a person types them."""

    def __init__(self, options: GameOptions) -> None:
        super().__init__(options, Console(io.StringIO(), io.StringIO()))
        self.seat0: list[str] = []

    def _apply(self, seat: int, text: str) -> None:
        if seat == 0:
            self.seat0.append(text)
        super()._apply(seat, text)


def _typed_record() -> dict[str, Any]:
    """A 2-seat Kards game in which the person (seat 0) typed its bot's moves."""
    bots = GameOptions(players=2, bots=2, game="kards", options=(("round_cap", 6),),
                       bot_seed="typed", deal_seed="typed")
    game = _Recorder(bots)
    outcome = game.run()
    person = GameOptions(players=2, bots=1, game="kards", options=(("round_cap", 6),),
                         bot_seed="typed", deal_seed="typed")
    return practice.record(person, game.seat0, outcome)


def test_a_persons_typed_moves_replay_and_a_changed_record_does_not(tmp_path: Path) -> None:
    doc = _typed_record()
    assert doc["moves"]
    path = tmp_path / "typed.json"
    practice.write(path, doc)
    code, text, _ = _verify(path)
    assert code == practice.EXIT_REPLAYED, text
    assert f"{len(doc['moves'])} typed move(s)" in " ".join(text.split())
    # A move changed: the game goes otherwise, or the move is not legal where it stands.
    changed = dict(doc, moves=["end", *doc["moves"][1:]])
    practice.write(path, changed)
    code, text, _ = _verify(path)
    assert code == 1 and "NOT REPLAYED" in text, text
    # Another result written in.
    practice.write(path, dict(doc, scores=[s + 1 for s in doc["scores"]]))
    code, text, _ = _verify(path)
    assert code == 1 and "ends otherwise" in " ".join(text.split()), text
    # Moves left over after the end.
    practice.write(path, dict(doc, moves=[*doc["moves"], "end"]))
    code, text, _ = _verify(path)
    assert code == 1 and "before its last recorded moves" in " ".join(text.split()), text
    # A field missing, another engine.
    practice.write(path, {k: v for k, v in doc.items() if k != "deal_seed"})
    code, text, _ = _verify(path)
    assert code == 1 and "damaged" in text, text
    practice.write(path, dict(doc, engine="kards/0"))
    code, text, _ = _verify(path)
    assert code == 1 and "cannot play it again" in " ".join(text.split()), text
    # Not JSON any more: not a record, and not a match file either.
    path.write_bytes(path.read_bytes()[:40])
    code, _, err = _verify(path)
    assert code == 3 and "not a readable match file" in err, err
