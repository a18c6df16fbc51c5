"""A draw is a draw everywhere (issue 48): a Dungeons of Kards match drawn at its round cap and a
Dungeon Twister match drawn at its turn cap read as drawn on the end screen's scoreboard, in
``verify`` (text and ``--json``: ``"outcome": "drawn"``, no winners), ``matches``, ``stats`` (a
draw column, no win) and ``export`` — and a listing cached before draws were read as such is
read again.  The signed result does not change (the END signs the final digest and the
transcript, not winners): older files read the same way."""

from __future__ import annotations

import hashlib
import io
import json
import sys
from functools import cache
from pathlib import Path

import pytest

from cli.games import make_ui
from cli.main import main
from cli.plugin import Seating
from engine.core import Over
from protocol.mesh import MeshGame, Network
from protocol.verify.verifier import read_and_verify
from protocol.wire.transcript import read_transcript

TAG = b"a draw"


@cache
def drawn(game: str) -> bytes:
    """A match of ``game`` that ends drawn at its cap (the first seat's file)."""
    options = {"kards": (("round_cap", 1),), "twister": (("turn_cap", 2),)}[game]
    net = Network(2, MeshGame(game, options), TAG + game.encode())
    net.pump()
    return net.match_file(0)


def run(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    return main(argv), out.getvalue()


def data_dir(tmp_path: Path, game: str) -> Path:
    """A data directory whose identity is seat 0 of the drawn match, which it holds."""
    folder = tmp_path / game
    (folder / "matches").mkdir(parents=True)
    key = folder / "identity.key"
    key.write_bytes(hashlib.sha256(TAG + game.encode() + b"key0").digest())
    key.chmod(0o600)
    (folder / "matches" / "d.crawl").write_bytes(drawn(game))
    return folder


@pytest.mark.parametrize("game", ["kards", "twister"])
def test_a_draw_reads_as_a_draw_in_every_place(game: str, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    data = data_dir(tmp_path, game)
    path = data / "matches" / "d.crawl"
    _, verdict = read_and_verify(path.read_bytes())
    assert verdict.verdict == "valid" and verdict.winners == () and verdict.drawn == (0, 1)

    # The end screen (every frontend's scoreboard).
    core_outcome = _outcome(path)
    ui = make_ui(game, 2, {}, Seating(("you", "Jo"), 0, "Ana"))
    board = "\n".join(ui.scoreboard(None, core_outcome, {}))
    assert "A draw between you and Jo: nobody wins." in board
    assert board.count("  1. ") == 2  # (the seats that drew share the first place)
    assert "win" not in board.replace("nobody wins", "")

    code, out = run(["verify", "--json", str(path)], monkeypatch)
    doc = json.loads(out)
    assert code == 0 and doc["outcome"] == "drawn" and doc["winners"] == []
    assert doc["drawn"] == [0, 1]
    code, out = run(["verify", str(path)], monkeypatch)
    assert "winner" not in out and out.count("  drawn") == 2, out

    code, out = run(["matches", "--data-dir", str(data)], monkeypatch)
    assert "drawn (P0, P1)" in out and "won by" not in out, out

    code, out = run(["stats", "--json", "--data-dir", str(data)], monkeypatch)
    record = json.loads(out)["games"][game]
    assert (record["games"], record["wins"], record["draws"]) == (1, 0, 1)
    code, out = run(["stats", "--data-dir", str(data)], monkeypatch)
    assert "1 game, 0 wins, 1 draw" in out, out

    code, out = run(["export", str(path)], monkeypatch)
    exported = json.loads(out)["verdict"]
    assert exported["outcome"] == "drawn" and exported["winners"] == []


def _outcome(path: Path) -> object:
    from protocol.match.core import MatchCore

    t = read_transcript(path.read_bytes())
    assert t.header is not None
    core = MatchCore(t.header)
    core.adopt(t.feeds)
    assert isinstance(core.state.waiting, Over)
    return core.state.waiting.outcome


def test_a_listing_cached_before_draws_is_read_again(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    data = data_dir(tmp_path, "kards")
    path = data / "matches" / "d.crawl"
    st = path.stat()
    old = {"verifier": "protocol 2; raiders/1; listing 2", "files": {"d.crawl": {
        "key": [st.st_size, st.st_mtime_ns, st.st_ino],
        "entry": {"game": "kards", "names": ["P0", "P1"], "status": "valid", "winners": [0, 1],
                  "bots": [], "under_way": True, "keys": ["00" * 32, "11" * 32],
                  "places": [1, 1], "bot_finished": []}}}}
    (data / "verdicts.json").write_text(json.dumps(old))
    _, first = run(["matches", "--data-dir", str(data)], monkeypatch)
    assert "drawn (P0, P1)" in first and "[cached]" not in first, first
    _, out = run(["matches", "--data-dir", str(data)], monkeypatch)
    assert "drawn (P0, P1) [cached]" in out, out
