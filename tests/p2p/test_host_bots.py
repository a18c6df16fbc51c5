"""A table's own bot that cannot sit down ends the wait at once with its error (p2p/run.py
``_gather_watching``): before, ``cryptcrawl play`` waited for good, printing nothing, when a
bot's key was damaged."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from p2p.run import host
from p2p.store import StoreError


@pytest.mark.asyncio
async def test_a_bot_with_a_damaged_key_fails_the_table_at_once(tmp_path: Path) -> None:
    bots = tmp_path / "bots"
    (bots / "bot2").mkdir(parents=True)
    (bots / "bot2" / "identity.key").write_bytes(b"not a key\n")
    with pytest.raises(StoreError, match=r"^bot 2 could not sit down: .*identity\.key"):
        await asyncio.wait_for(host(tmp_path, game="raiders",
                                    name="you", players=3, bots=2, bot="random",
                                    bot_dir=bots), timeout=20)
    # The other bot and the lobby are cancelled with it: nothing is left running.
    for _ in range(100):
        left = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        if not left:
            break
        await asyncio.sleep(0.01)
    assert not left, left
