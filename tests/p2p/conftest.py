"""Shared helpers for the network tests: loopback only, bounded waits, every process stopped.

Rules every test here keeps: traffic goes to 127.0.0.1 only; every data directory is under
``tmp_path``; every wait has a bound; every process a test starts is killed by the fixture that
started it, whether the test passed or not.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from protocol.verify.verifier import Verdict, verify
from protocol.wire.transcript import read_transcript

from p2p.peer import LinkClosed, MatchPeer, PeerConfig, bot_decider, read_frame
from p2p.run import Result, host, join
from p2p.wire import Frame, parse_frame

REPO = Path(__file__).resolve().parents[2]
LOOPBACK = "127.0.0.1"


def verdict_of(path: Path) -> Verdict:
    return verify(path.read_bytes())


def crawl_files(root: Path) -> list[Path]:
    """Every match file under ``root`` (one per data directory that played)."""
    return sorted(root.rglob("*.crawl"))


def assert_agreed(paths: list[Path], players: int) -> list[Verdict]:
    """Every file is of one match of ``players`` seats, verifies valid, and all of them
    agree on the result."""
    headers = [read_transcript(p.read_bytes()).header for p in paths]
    assert all(h is not None and len(h.header.seats) == players for h in headers)
    assert len({h.match_id for h in headers if h is not None}) == 1, "files of two matches"
    verdicts = [verdict_of(p) for p in paths]
    for path, v in zip(paths, verdicts, strict=True):
        assert v.verdict == "valid", f"{path}: {v.verdict}: {v.reason} {v.notes}"
    assert len({v.final_digest for v in verdicts}) == 1, "the files disagree on the result"
    assert len({v.winners for v in verdicts}) == 1
    assert all(len(v.final_digest) == 32 for v in verdicts)
    return verdicts


async def read_until_closed(reader: asyncio.StreamReader, timeout: float = 5.0) -> list[Frame]:
    """Frames the other side sends until it closes the connection (bounded in time)."""
    frames: list[Frame] = []

    async def drain() -> None:
        while True:
            try:
                frames.append(await read_frame(reader))
            except LinkClosed:
                return
    await asyncio.wait_for(drain(), timeout)
    return frames


# --------------------------------------------------------------------------- in-process matches


@dataclass
class Match:
    """An in-process match on loopback whose every seat is a real peer we can reach."""

    peers: dict[int, MatchPeer] = field(default_factory=dict)
    tasks: list[asyncio.Task[Result]] = field(default_factory=list)
    dirs: list[Path] = field(default_factory=list)  # each task's data directory
    lobby_port: int = 0

    def task_of(self, peer: MatchPeer) -> asyncio.Task[Result]:
        return self.tasks[self.dirs.index(peer.store.path.parent.parent)]

    async def wait_peers(self, players: int, timeout: float = 15.0) -> None:
        async def all_in() -> None:
            while len(self.peers) < players:
                await asyncio.sleep(0.01)
        await asyncio.wait_for(all_in(), timeout)

    async def results(self, timeout: float) -> list[Result]:
        done = await asyncio.wait_for(asyncio.gather(*self.tasks), timeout)
        return sorted(done, key=lambda r: r.seat)

    async def cancel(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.wait_for(asyncio.gather(*self.tasks, return_exceptions=True), 10)


def thinking(seed: bytes, think: float) -> Any:
    """A random bot that takes ``think`` seconds over every decision (an async decider)."""
    bot = bot_decider("random", seed)

    async def choose(state: Any, seat: int) -> str:
        await asyncio.sleep(think)
        return bot(state, seat)
    return choose


async def start_match(root: Path, players: int, config: PeerConfig, *,
                      choose: Any = None, passphrase: str = "", think: float = 0.0,
                      game: str = "raiders", options: dict[str, Any] | None = None) -> Match:
    """Open a table (seat 0, deciding through ``choose`` if given, else a random bot) and
    sit ``players - 1`` random bots down through ``join``, each with its own data directory
    under ``root``; returns once the lobby port is known (the match plays on in tasks).
    ``think``: every bot takes that long over each decision."""
    match = Match()
    loop = asyncio.get_running_loop()
    port: asyncio.Future[int] = loop.create_future()

    def seat_of(peer: MatchPeer) -> None:
        match.peers[peer.seat] = peer

    def decider(seed: bytes) -> dict[str, Any]:
        if think:
            return {"choose": thinking(seed, think)}
        return {"decide": bot_decider("random", seed)}

    mine = {"choose": choose} if choose is not None else decider(b"\x00" * 32)
    match.dirs.append(root / "seat-host")
    match.tasks.append(asyncio.ensure_future(host(
        match.dirs[0], game=game, options=options,
        name="Host", players=players, config=config, passphrase=passphrase,
        on_port=port.set_result, on_peer=seat_of, **mine)))
    match.lobby_port = await asyncio.wait_for(port, 10)
    for i in range(1, players):
        match.dirs.append(root / f"seat-join{i}")
        match.tasks.append(asyncio.ensure_future(join(
            match.dirs[i], LOOPBACK, match.lobby_port, name=f"Bot {i}", config=config,
            bind=LOOPBACK, passphrase=passphrase, on_peer=seat_of,
            **decider(bytes([i]) * 32))))
    return match


# --------------------------------------------------------------------------- peer processes


@dataclass
class PeerProcess:
    """One ``python -m p2p`` process and its own data directory."""

    name: str
    data_dir: Path
    proc: subprocess.Popen[bytes]
    out: Path
    err: Path

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stderr(self) -> str:
        return self.err.read_text(errors="replace")

    def stdout(self) -> str:
        return self.out.read_text(errors="replace")

    def match_file(self) -> Path | None:
        files = crawl_files(self.data_dir / "matches") if (self.data_dir / "matches").exists() \
            else []
        return files[0] if files else None

    def seat(self) -> int:
        import json

        infos = sorted((self.data_dir / "matches").glob("*.json"))
        assert len(infos) == 1, f"{self.name}: {infos}"
        return int(json.loads(infos[0].read_text())["seat"])

    def wait(self, timeout: float) -> int:
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"{self.name} did not finish within {timeout} s; stderr:\n"
                                 f"{self.stderr()}") from None

    def kill(self) -> None:
        """SIGKILL (a stopped process dies too); reaped."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):  # SIGKILL is always delivered
            self.proc.wait(timeout=10)


class Processes:
    """Starts peer processes and kills every one of them at the end."""

    def __init__(self, root: Path, *, turn: float = 2.0, silence: float = 2.0,
                 linger: float = 1.0) -> None:
        self.root = root
        self.timing = ["--timeouts", f"{turn},{turn},{turn},{silence}",
                       "--linger", str(linger)]
        self.started: list[PeerProcess] = []
        self._runs = 0

    def start(self, name: str, data_dir: Path, *role: str, seed: str = "") -> PeerProcess:
        self._runs += 1
        env = dict(os.environ)
        env["PYTHONPATH"] = str(REPO)
        out = self.root / f"{name}.{self._runs}.out"
        err = self.root / f"{name}.{self._runs}.err"
        argv = [sys.executable, "-m", "p2p", "--data-dir", str(data_dir), *self.timing,
                "--bind", LOOPBACK, "--name", name, "--seed", seed or name, *role]
        with out.open("wb") as o, err.open("wb") as e:
            proc = subprocess.Popen(argv, cwd=REPO, env=env, stdout=o, stderr=e,
                                    stdin=subprocess.DEVNULL)
        peer = PeerProcess(name, data_dir, proc, out, err)
        self.started.append(peer)
        return peer

    def host(self, players: int) -> tuple[PeerProcess, int]:
        """A host process; returns it with its lobby port (read from its announce file)."""
        announce = self.root / "lobby.port"
        peer = self.start("host", self.root / "host", "--announce", str(announce), "host",
                          "--game", "raiders", "--players", str(players), "--port", "0")
        port = wait_for(lambda: announce.exists() and announce.read_text().strip().isdigit(),
                        15.0, lambda: f"no lobby port; host stderr:\n{peer.stderr()}",
                        alive=[peer])
        assert port
        return peer, int(announce.read_text())

    def join(self, name: str, port: int) -> PeerProcess:
        return self.start(name, self.root / name, "join", f"{LOOPBACK}:{port}")

    def resume(self, peer: PeerProcess) -> PeerProcess:
        return self.start(peer.name, peer.data_dir, "resume")

    def close(self) -> None:
        for peer in self.started:
            peer.kill()


def wait_for(check: Callable[[], bool], timeout: float, what: Callable[[], str],
             *, alive: Sequence[PeerProcess] = (), poll: float = 0.005) -> bool:
    """Poll ``check`` until it holds (bounded); fail early if a process in ``alive`` died."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        for peer in alive:
            if not peer.alive():
                raise AssertionError(f"{peer.name} exited ({peer.proc.returncode}) early; "
                                     f"stderr:\n{peer.stderr()}\n{what()}")
        time.sleep(poll)
    raise AssertionError(f"timed out after {timeout} s: {what()}")


@pytest.fixture
def procs(tmp_path: Path) -> Iterator[Processes]:
    group = Processes(tmp_path)
    try:
        yield group
    finally:
        group.close()


class FakeWriter:
    """Stands in for a connection's writer: records what the peer sends on it."""

    def __init__(self) -> None:
        self.sent = bytearray()
        self.closed = False

    def write(self, data: bytes) -> None:
        self.sent += data

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def frames(self) -> list[Frame]:
        """Every frame written, parsed back (the length prefix, then the payload)."""
        data, out = bytes(self.sent), []
        while data:
            size = int.from_bytes(data[:4], "big")
            out.append(parse_frame(data[4:4 + size]))
            data = data[4 + size:]
        return out
