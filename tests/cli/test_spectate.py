"""``cryptcrawl spectate HOST:PORT``: a live match watched read-only, one move behind, over
loopback — the real command against real peers — and its one-line errors."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from p2p.peer import PeerConfig
from tests.cli.test_command import ROOT, cryptcrawl
from tests.p2p.conftest import start_match


@pytest.mark.parametrize(("target", "words"), [
    ("nowhere", "is not a valid HOST:PORT"),
    ("127.0.0.1:70000", "is not a valid HOST:PORT"),
])
def test_a_bad_address_is_one_line(target: str, words: str) -> None:
    result = cryptcrawl("spectate", target)
    assert result.returncode == 1, result.stderr
    assert result.stderr.count("\n") == 1 and words in result.stderr
    assert result.stderr.startswith("cryptcrawl spectate: ")


def test_nobody_there_is_one_line() -> None:
    import socket

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = cryptcrawl("spectate", f"127.0.0.1:{port}")
    assert result.returncode == 1 and result.stderr.count("\n") == 1, result.stderr
    assert f"cannot watch at 127.0.0.1:{port}" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.asyncio
async def test_the_command_watches_a_live_match_to_its_end(tmp_path: Path) -> None:
    config = PeerConfig(timeouts=(5, 5, 5, 5), linger=1.0)
    match = await start_match(tmp_path, 3, config, think=0.05)
    try:
        await match.wait_peers(3)
        host, port = match.peers[2].addresses[2]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        env.pop("CRYPTCRAWL_DEBUG", None)
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "cli.main", "spectate", f"{host or '127.0.0.1'}:{port}",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, cwd=ROOT, env=env)
        try:
            out, err = await asyncio.wait_for(proc.communicate(), 90)
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
        results = await match.results(60)
    finally:
        await match.cancel()
    text = out.decode()
    assert proc.returncode == 0, err.decode()[-2000:]
    assert text.startswith("Watching Dungeon Raiders, 3 players: A Host, B Bot 1, C Bot 2.")
    assert "one move behind the table" in text and "refused" not in text
    assert "Final" in text or "wins" in text, text[-1500:]
    assert all(r.core.signed for r in results)
