"""The games of round two played over the network by the real command: ``cryptcrawl play`` with
every seat a bot, each a real peer over loopback (never advertised), and the match file checked
by ``cryptcrawl verify`` — Dungeon Twister's tokens and teams as sealed values (protocol.md
§7.11), Dungeons of Kards' dice from the pools (§7.12), Paper Dungeons' powers and objectives
dealt privately from shared decks (§7.13)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from protocol.mechanisms.chance import is_pool_slot
from protocol.wire.messages import ActBody, Kind, OpenBody, RevealBody
from protocol.wire.transcript import read_transcript

from tests.cli.test_command import cryptcrawl


@pytest.mark.parametrize(("game", "players"), [("twister", 2), ("kards", 4), ("paper", 3)])
def test_a_round_two_game_plays_over_the_network_and_verifies(tmp_path: Path, game: str,
                                                              players: int) -> None:
    out = tmp_path / "match.crawl"
    played = cryptcrawl("play", "--game", game, "--players", str(players), "--bots",
                        str(players), "--plain", "--speed", "fast", "--seed", "net",
                        "--data-dir", str(tmp_path / "data"), "--out", str(out), timeout=240)
    assert played.returncode == 0, played.stderr[-2000:]
    assert "Traceback" not in played.stderr and out.exists()
    checked = cryptcrawl("verify", "--json", str(out))
    assert checked.returncode == 0, checked.stdout[-2000:]
    assert json.loads(checked.stdout)["verdict"] == "valid"
    t = read_transcript(out.read_bytes())
    messages = [m for feed in t.feeds.values() for m in feed.messages]
    if game == "twister":
        sealed = [m for m in messages if isinstance(m.content, ActBody | RevealBody)
                  and m.content.sealed]
        assert len(sealed) >= 22  # two teams and 20 face-down tokens
        assert any(isinstance(m.content, OpenBody) for m in messages)
    elif game == "paper":
        deck = [m.body[0] for m in messages if m.kind is Kind.DECK]
        assert deck.count("deck-shuffle") == 2 * players  # each seat shuffles both decks
        assert deck.count("deck-shares") == 2 * players  # one round a deck
        # the kept power after the setup, the kept objective at scoring, the rest: audited
        assert deck.count("deck-open") >= 3 * players
        assert t.header is not None and t.header.header.deck == "deck-tw-ed25519/v1"
    else:
        reveals = [e for m in messages if m.kind is Kind.CHANCE_REVEAL
                   for e, _ in m.content.secrets]  # type: ignore[union-attr]
        assert reveals and sum(map(is_pool_slot, reveals)) >= len(reveals) * 0.8
        assert any(isinstance(m.content, ActBody) and m.content.pool for m in messages)
