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


async def spectate_command(*args: str) -> tuple[int | None, str, str]:
    """``cryptcrawl spectate ARGS`` in a process of its own: (status, output, errors)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("CRYPTCRAWL_DEBUG", None)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "cli.main", "spectate", *args, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, cwd=ROOT, env=env)
    try:
        out, err = await asyncio.wait_for(proc.communicate(), 90)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    return proc.returncode, out.decode(), err.decode()


@pytest.mark.parametrize(("target", "words"), [
    ("nowhere", "no match of a table 'nowhere' being played was found in 0.5 s"),
    ("127.0.0.1:70000", "is not a valid HOST:PORT"),
])
def test_a_bad_address_is_one_line(target: str, words: str) -> None:
    # (zeroconf on loopback only: tests never multicast on the machine's interfaces)
    result = cryptcrawl("spectate", target, "--interface", "127.0.0.1", "--wait", "0.5")
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
    match = await start_match(tmp_path, 3, config, think=0.4)  # (long enough to be watched)
    try:
        await match.wait_peers(3)
        host, port = match.peers[2].addresses[2]
        code, text, err = await spectate_command(f"{host or '127.0.0.1'}:{port}")
        results = await match.results(60)
    finally:
        await match.cancel()
    assert code == 0, err[-2000:]
    assert text.startswith("Watching Dungeon Raiders, 3 players: A Host, B Bot 1, C Bot 2.")
    assert "one move behind the table" in text and "refused" not in text
    assert "Final" in text or "wins" in text, text[-1500:]
    assert all(r.core.signed for r in results)


@pytest.mark.mdns
@pytest.mark.asyncio
async def test_a_live_match_is_found_by_its_tables_name(tmp_path: Path) -> None:
    """A table whose match is on is advertised live at a seat's match port (as `host` does
    once play starts): `spectate NAME` finds it with zeroconf — on loopback only — and watches
    it; `tables` lists it as playing, and `join NAME` would not (it is full)."""
    import secrets

    from p2p import discovery
    from p2p.discovery import Advertiser, find_table

    config = PeerConfig(timeouts=(5, 5, 5, 5), linger=1.0)
    match = await start_match(tmp_path, 3, config, think=0.4)  # (long enough to be watched)
    name = f"live {secrets.token_hex(4)}"
    try:
        await match.wait_peers(3)
        _host, port = match.peers[0].addresses[0]
        with discovery.quick_timing():
            async with Advertiser(name=name, port=port, fingerprint="aaaa-bbbb",
                                  table_id=secrets.token_hex(8), seats_total=3, seats_taken=3,
                                  game="raiders", interfaces=["127.0.0.1"], live=True):
                found = await find_table(["127.0.0.1"], timeout=5, match=lambda t: t.name == name)
                assert found.live and found.full and not found.joinable
                code, text, err = await spectate_command(
                    name, "--interface", "127.0.0.1", "--wait", "10")
        await match.results(60)
    finally:
        await match.cancel()
    assert code == 0, err[-2000:]
    assert text.startswith(f"Looking for the match of table {name!r} on the LAN...\n"
                           "Watching Dungeon Raiders, 3 players")


@pytest.mark.asyncio
@pytest.mark.parametrize(("game", "options", "title"), [
    ("twister", {"turn_cap": 4}, "Dungeon Twister"),
    ("kards", {"round_cap": 3}, "Dungeons of Kards"),
    ("paper", {}, "Paper Dungeons"),
])
async def test_the_command_watches_each_game_and_sees_no_secret(
        tmp_path: Path, game: str, options: dict[str, object], title: str) -> None:
    """``spectate`` watches a 2-seat match of each round-two game to its end: its own table
    (the spectator's view: no face-down token's identity, no dealt card, nobody's peek), and
    nothing refused."""
    config = PeerConfig(timeouts=(10, 10, 10, 10), linger=1.0)
    match = await start_match(tmp_path, 2, config, think=0.15, game=game, options=options)
    try:
        await match.wait_peers(2)
        host, port = match.peers[1].addresses[1]
        code, text, err = await spectate_command(f"{host or '127.0.0.1'}:{port}")
        results = await match.results(90)
    finally:
        await match.cancel()
    assert code == 0, err[-2000:]
    assert text.startswith(f"Watching {title}, 2 players"), text[:300]
    assert "refused" not in text and "Traceback" not in err
    assert "Final" in text or "wins" in text or "draw" in text, text[-1500:]
    for secret in ("only you know", "Dealt to you", "only you can see", "showed you"):
        assert secret not in text, secret
    assert all(r.core.signed for r in results)
