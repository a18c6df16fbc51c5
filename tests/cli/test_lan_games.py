"""Tables show their game: ``cryptcrawl tables`` names each table's game (``--game`` lists one
game's only), over mDNS bound to loopback (``interfaces=["127.0.0.1"]``, shortened timings as in
tests/p2p/test_discovery.py); the lobby says what the table plays."""

from __future__ import annotations

import io
import secrets
from collections.abc import Iterator

import pytest

from cli.lan import list_tables, table_lines
from p2p import discovery
from p2p.discovery import Advertiser

pytestmark = pytest.mark.mdns  # multicast DNS on 127.0.0.1: one such test at a time

LOOPBACK = ["127.0.0.1"]
FP = "3f2a-91bc-0d4e-5f60-7a8b"


@pytest.fixture
def fast() -> Iterator[None]:
    with discovery.quick_timing():
        yield


@pytest.mark.asyncio
async def test_tables_name_their_game_and_list_one_game_on_request(fast: None) -> None:
    tag = secrets.token_hex(6)
    ads = [Advertiser(name=f"{game} {tag}", port=port, fingerprint=FP, table_id=f"{hexa}{tag}",
                      seats_total=3, game=game, interfaces=LOOPBACK)
           for game, port, hexa in (("raiders", 40101, "a"), ("kards", 40102, "b"))]
    try:
        for ad in ads:
            await ad.start()
        every, kards = io.StringIO(), io.StringIO()
        assert await list_tables(every, LOOPBACK, 2.0, False) == 0
        assert await list_tables(kards, LOOPBACK, 2.0, False, game="kards") == 0
    finally:
        for ad in ads:
            await ad.close()
    lines = every.getvalue().splitlines()
    assert any(f"raiders {tag}" in line and "(Dungeon Raiders)" in line for line in lines)
    assert any(f"kards {tag}" in line and "(Dungeons of Kards)" in line for line in lines)
    only = kards.getvalue()
    assert f"kards {tag}" in only and f"raiders {tag}" not in only, only


def test_the_lobby_says_what_the_table_plays() -> None:
    assert table_lines("raiders", 4, {"variant": "tactical"}) == [
        "The table plays Dungeon Raiders, 4 players, tactical variant."]
    lines = table_lines("kards", 2, {"mode": "arena", "round_cap": 12}, (30, 90, 300, 60))
    assert lines[0] == "The table plays Dungeons of Kards, 2 players (mode arena, round_cap 12)."
    assert " ".join(line.strip() for line in lines[1:]) == (
        "Timeouts: 30 s for a quick decision, 90 s for a turn, 300 s for a long plan; then 60 "
        "s of silence before a seat is replaced.")
