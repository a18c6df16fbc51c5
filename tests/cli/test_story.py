"""Every game tells its story (issue 48): a whole match of each game, played by bots between
in-memory peers, is told by :class:`cli.story.Story` — every public event of the match file
has its lines, in words a player knows (no internal ids) — and the same lines, in the same
order, reach ``replay --plain``, ``export`` (each event's ``said``), a spectator fed the
messages one by one, and the log of a seat's screen (:class:`cli.netplay.NetGame`)."""

from __future__ import annotations

import io
import json
import re
from collections import Counter
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from cli.netplay import NetGame, NetOptions
from cli.play import Console
from cli.record import export_json, file_ui, replay, replayed
from cli.spectate import Spectator
from cli.story import Story, Told
from p2p.peer import MatchPeer
from protocol.match.core import MatchCore
from protocol.match.events import (
    ActionTaken,
    CardDealt,
    ChanceResolved,
    PlayRevealed,
    SealedOpened,
)
from protocol.mesh import MeshGame, Network
from protocol.wire.transcript import read_transcript

GAMES = {
    "raiders": (3, ()),
    "kards": (3, (("round_cap", 12),)),
    "twister": (2, (("turn_cap", 12),)),
    "paper": (2, ()),
}
#: The events of the game itself: each must be told.
PUBLIC = (ChanceResolved, ActionTaken, PlayRevealed, SealedOpened, CardDealt)
#: What a player never reads: the protocol's and the engine's internal names.
INTERNAL = re.compile(r"\b(tok|start|slot|setup|objective|power)\.\d|\bL\d\.R\d\b|\bT\d+\.\d"
                      r"|\bR\d+\.(roll|plan)\b|\bseat \d\b|[A-Z][a-z]+\(")


@cache
def played(game: str) -> tuple[bytes, tuple[Any, ...]]:
    """A whole match of ``game`` (its file, and every message in the order it was sent)."""
    players, options = GAMES[game]
    net = Network(players, MeshGame(game, options), f"story {game}".encode())
    net.pump()
    return net.match_file(0), tuple(net.log)


@pytest.fixture(scope="module")
def matches() -> dict[str, tuple[bytes, tuple[Any, ...]]]:
    """Every game's match, played once for this module's tests (on one worker)."""
    return {game: played(game) for game in GAMES}


def _told(data: bytes) -> tuple[MatchCore, list[Told]]:
    t = read_transcript(data)
    core, story = replayed(t, file_ui(t))
    assert story is not None
    return core, story.tell()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_public_event_is_told_in_words_a_player_knows(
        game: str, matches: dict[str, tuple[bytes, tuple[Any, ...]]], tmp_path: Path) -> None:
    data = matches[game][0]
    core, told = _told(data)
    assert core.signed, "the match was played to its end"
    covered = {i for part in told if part.lines for i in part.events}
    untold = [e for i, e in enumerate(core.events) if isinstance(e, PUBLIC) and i not in covered]
    assert not untold, untold[:5]
    lines = [line for part in told for line in part.lines]
    wrong = [line for line in lines if INTERNAL.search(line)]
    assert not wrong, wrong[:5]
    assert all(len(line) <= 79 for line in lines), [x for x in lines if len(x) > 79][:3]
    path = tmp_path / f"{game}.crawl"
    path.write_bytes(data)
    out = io.StringIO()
    assert replay(str(path), out) == 0
    _in_order(lines, out.getvalue().splitlines(), "replay --plain")


@pytest.mark.parametrize("game", [
    "kards", "raiders", "twister",
    pytest.param("paper", marks=pytest.mark.slow)])  # (paper: the longest; the rest cover it)
def test_export_spectate_and_the_log_tell_the_same_story(
        game: str, matches: dict[str, tuple[bytes, tuple[Any, ...]]], tmp_path: Path) -> None:
    data, sent = matches[game]
    path = tmp_path / f"{game}.crawl"
    path.write_bytes(data)
    _, told = _told(data)
    story = [line for part in told for line in part.lines]
    assert story

    exported = io.StringIO()
    export_json(str(path), exported)
    doc = json.loads(exported.getvalue())
    assert doc["format"] == "cryptcrawl-export/6"
    assert [line for part in doc["story"] for line in part["lines"]] == story
    said = [line for event in doc["events"] for line in event["said"]]
    _in_order([line for part in told if part.events for line in part.lines], said, "export")

    t = read_transcript(data)
    assert t.header is not None
    told_live = MatchCore(t.header)  # (told as the messages came, one by one)
    live_story = Story(told_live, file_ui(t))
    for message in sent:
        told_live.receive(message, verified=True)
    as_it_came = live_story.lines()
    # (The same lines; the table's facts may fall elsewhere between two changes of the game,
    # for the match core takes what comes as it comes.)
    assert Counter(as_it_came) == Counter(story)
    watching = io.StringIO()
    viewer = Spectator(watching)
    core = MatchCore(t.header)
    viewer.start(core)
    game_log = io.StringIO()
    seat = NetGame(NetOptions(players=core.n, bots=core.n, game=game),
                   Console(io.StringIO(), game_log))
    live = MatchCore(t.header)
    seat.attach(cast(MatchPeer, SimpleNamespace(
        core=live, seat=0, local=SimpleNamespace(decision_state=lambda: live.state,
                                                 hold_reclaim=False))))
    for message in sent:  # (as they came, one by one)
        viewer.events(core.receive(message, verified=True))
        for event in live.receive(message, verified=True):
            seat.on_event(event)
    _in_order(as_it_came, watching.getvalue().splitlines(), "spectate")
    _in_order(as_it_came, game_log.getvalue().splitlines(), "a seat's log")


def _in_order(story: list[str], shown: list[str], where: str) -> None:
    """``story`` is told in ``shown``, line after line (other lines may come between)."""
    at = 0
    for line in shown:
        if at < len(story) and line == story[at]:
            at += 1
    assert at == len(story), f"{where} stops telling at {story[at]!r}"
