"""The adversary suite's harness: peer processes (honest and scripted), a fault-injecting TCP
relay, and the checks every attack ends with.

Rules every test here keeps: traffic goes to 127.0.0.0/8 only; every data directory is under
``tmp_path``; every wait and every sending loop has a bound; every process a test starts is
killed by the fixture that started it, pass or fail; every relay is closed by its fixture.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from protocol.match.core import MatchCore
from protocol.verify.verifier import Verdict, verify
from protocol.wire.transcript import read_transcript

from p2p.wire import MAX_FRAME

REPO = Path(__file__).resolve().parents[2]
LOOPBACK = "127.0.0.1"
TURN = 1.5  # s: the turn timeout of every process here
SILENCE = 1.5  # s: the silence timeout
FINISH = 90.0  # s: the bound on one whole match under attack


# --------------------------------------------------------------------------- processes


@dataclass
class Proc:
    """One peer process (``python -m p2p`` or the evil peer) and its data directory."""

    name: str
    data_dir: Path
    proc: subprocess.Popen[bytes]
    out: Path
    err: Path
    report: Path | None = None

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stderr(self) -> str:
        return self.err.read_text(errors="replace")

    def stdout(self) -> str:
        return self.out.read_text(errors="replace")

    def match_file(self) -> Path | None:
        files = sorted((self.data_dir / "matches").glob("*.crawl")) \
            if (self.data_dir / "matches").exists() else []
        return files[0] if files else None

    def seat(self) -> int:
        infos = sorted((self.data_dir / "matches").glob("*.json"))
        assert len(infos) == 1, f"{self.name}: {infos}"
        return int(json.loads(infos[0].read_text())["seat"])

    def has_seat(self) -> bool:
        return (self.data_dir / "matches").exists() and bool(
            list((self.data_dir / "matches").glob("*.json")))

    def read_report(self) -> dict[str, Any]:
        assert self.report is not None
        if not self.report.exists():
            return {}
        return dict(json.loads(self.report.read_text()))

    def wait(self, timeout: float) -> int:
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"{self.name} did not finish within {timeout} s; stderr:\n"
                                 f"{self.stderr()[-3000:]}") from None

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=10)


class Processes:
    """Starts peer processes and kills every one of them at the end."""

    def __init__(self, root: Path, *, turn: float = TURN, silence: float = SILENCE,
                 linger: float = 1.0) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        self.timing = ["--timeouts", f"{turn},{turn},{turn},{silence}",
                       "--linger", str(linger)]
        self.started: list[Proc] = []
        self._runs = 0

    def _start(self, name: str, data_dir: Path, module: str, *args: str,
               report: Path | None = None) -> Proc:
        self._runs += 1
        env = dict(os.environ)
        env["PYTHONPATH"] = str(REPO)
        out = self.root / f"{name}.{self._runs}.out"
        err = self.root / f"{name}.{self._runs}.err"
        argv = [sys.executable, "-m", module, "--data-dir", str(data_dir), *self.timing,
                "--bind", LOOPBACK, "--name", name, "--seed", name, *args]
        with out.open("wb") as o, err.open("wb") as e:
            proc = subprocess.Popen(argv, cwd=REPO, env=env, stdout=o, stderr=e,
                                    stdin=subprocess.DEVNULL)
        peer = Proc(name, data_dir, proc, out, err, report)
        self.started.append(peer)
        return peer

    def host(self, players: int, *extra: str) -> tuple[Proc, int]:
        announce = self.root / "lobby.port"
        peer = self._start("host", self.root / "host", "p2p", "--announce", str(announce),
                           *extra, "host", "--game", "raiders", "--players", str(players),
                           "--port", "0")
        wait_for(lambda: announce.exists() and announce.read_text().strip().isdigit(), 20.0,
                 lambda: f"no lobby port; host stderr:\n{peer.stderr()}", alive=[peer])
        return peer, int(announce.read_text())

    def join(self, name: str, port: int) -> Proc:
        return self._start(name, self.root / name, "p2p", "join", f"{LOOPBACK}:{port}")

    def resume(self, peer: Proc) -> Proc:
        return self._start(peer.name, peer.data_dir, "p2p", "resume")

    def evil(self, script: str, port: int, *extra: str, name: str = "evil",
             max_seconds: float = FINISH + 30) -> Proc:
        report = self.root / f"{name}.report.json"
        return self._start(name, self.root / name, "tests.adversary.evil_peer", "--script",
                           script, "--report", str(report), "--max-seconds", str(max_seconds),
                           *extra, "join", f"{LOOPBACK}:{port}", report=report)

    def close(self) -> None:
        for peer in self.started:
            peer.kill()


def wait_for(check: Callable[[], Any], timeout: float, what: Callable[[], str],
             *, alive: Sequence[Proc] = (), poll: float = 0.02) -> Any:
    """Poll ``check`` until it holds (bounded); fail early if a process in ``alive`` died."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = check()
        if result:
            return result
        for peer in alive:
            if not peer.alive():
                raise AssertionError(f"{peer.name} exited ({peer.proc.returncode}) early; "
                                     f"stderr:\n{peer.stderr()[-3000:]}\n{what()}")
        time.sleep(poll)
    raise AssertionError(f"timed out after {timeout} s: {what()}")


@pytest.fixture
def procs(tmp_path: Path) -> Iterator[Processes]:
    group = Processes(tmp_path)
    try:
        yield group
    finally:
        group.close()


# --------------------------------------------------------------------------- checks


def finished(peer: Proc, timeout: float = FINISH) -> Path:
    """Wait for an honest peer process to end well; its match file."""
    code = peer.wait(timeout)
    err = peer.stderr()
    assert code == 0, f"{peer.name} exited {code}; stderr:\n{err[-3000:]}"
    assert "Traceback" not in err, f"{peer.name} printed a traceback:\n{err}"
    path = peer.match_file()
    assert path is not None
    return path


def verdict_of(path: Path) -> Verdict:
    return verify(path.read_bytes())


def cli_verify(path: Path) -> dict[str, Any]:
    """``cryptcrawl verify FILE --json``, as a user would run it."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO)
    done = subprocess.run([sys.executable, "-m", "cli", "verify", str(path), "--json"],
                          cwd=REPO, env=env, capture_output=True, timeout=60, check=False)
    assert done.stdout, done.stderr.decode(errors="replace")
    result = dict(json.loads(done.stdout))
    result["exit"] = done.returncode
    return result


def final_digests(paths: Sequence[Path]) -> set[bytes]:
    return {verdict_of(p).final_digest for p in paths}


def replay(path: Path) -> MatchCore:
    """A fresh core that took over every feed of a match file (as the verifier does)."""
    t = read_transcript(path.read_bytes())
    assert t.header is not None
    core = MatchCore(t.header)
    core.adopt(t.feeds)
    return core


def one_match(paths: Sequence[Path], players: int) -> None:
    headers = [read_transcript(p.read_bytes()).header for p in paths]
    assert all(h is not None and len(h.header.seats) == players for h in headers)
    assert len({h.match_id for h in headers if h is not None}) == 1, "files of two matches"


def assert_blamed(paths: Sequence[Path], seat: int, reason: str) -> list[dict[str, Any]]:
    """Every honest file is of one finished match, agrees on the result, and both the verifier
    and ``cryptcrawl verify --json`` call it invalid naming ``seat`` for ``reason``."""
    verdicts = [verdict_of(p) for p in paths]
    out = []
    for path, v in zip(paths, verdicts, strict=True):
        assert v.verdict == "invalid", f"{path}: {v.verdict}: {v.reason} {v.notes}"
        assert v.blamed == (seat,) and reason in v.reason, (v.blamed, v.reason)
        assert v.record is not None and v.record >= 2
        j = cli_verify(path)
        assert j["status"] == "invalid" and j["exit"] == 1, j
        assert j["seat_at_fault"] == seat and reason in j["reason"], j
        out.append(j)
    return out


def assert_agree_to_the_end(paths: Sequence[Path]) -> None:
    """The honest copies reached the same end: one final public state, one result."""
    cores = [replay(p) for p in paths]
    for path, core in zip(paths, cores, strict=True):
        assert core.ending.ended and core.final is not None, f"{path}: the match did not end"
    assert len({c.final.digest for c in cores if c.final}) == 1, "honest peers diverged"
    assert len({c.final.transcript for c in cores if c.final}) == 1, "transcripts differ"
    assert len({c.final.winners for c in cores if c.final}) == 1


# --------------------------------------------------------------------------- an in-process match


@dataclass
class InProcess:
    """An in-process match on loopback: every seat a real :class:`MatchPeer` with its own data
    directory; each seat's advertised mesh address may be a :class:`Relay` in front of it."""

    peers: dict[int, Any] = field(default_factory=dict)
    tasks: list[asyncio.Task[Any]] = field(default_factory=list)
    dirs: list[Path] = field(default_factory=list)
    relays: list[Relay] = field(default_factory=list)

    def task_of(self, peer: Any) -> asyncio.Task[Any]:
        return self.tasks[self.dirs.index(peer.store.path.parent.parent)]

    async def results(self, timeout: float) -> list[Any]:
        done = await asyncio.wait_for(asyncio.gather(*self.tasks), timeout)
        return sorted(done, key=lambda r: r.seat)

    async def cancel(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.wait_for(asyncio.gather(*self.tasks, return_exceptions=True), 10)
        for relay in self.relays:
            await relay.close()


async def in_process_match(root: Path, players: int, config: Any, *,
                           relay: Callable[[int, int], Relay | None] | None = None,
                           bot: str = "random", choose: Any = None) -> InProcess:
    """Open a table (seat 0, deciding through ``choose`` if given) and sit ``players - 1``
    bots down; with ``relay``, a joiner's mesh address is the relay ``relay(index,
    real_port)`` makes in front of its listener (None: no relay), so every connection to it
    passes through that relay (a lower seat dials a higher one: with a relay in front of
    every joiner, every connection of the mesh passes through exactly one)."""
    from p2p.lobby import join_table
    from p2p.peer import bot_decider, listen_socket
    from p2p.run import host, play_seated
    from p2p.store import load_identity

    match = InProcess()
    loop = asyncio.get_running_loop()
    port: asyncio.Future[int] = loop.create_future()

    def seat_of(peer: Any) -> None:
        match.peers[peer.seat] = peer

    match.dirs.append(root / "seat-host")
    mine = {"choose": choose} if choose is not None else {"decide": bot_decider(bot, bytes(32))}
    match.tasks.append(asyncio.ensure_future(host(
        match.dirs[0], game="raiders",
        name="Host", players=players, config=config, on_port=port.set_result,
        on_peer=seat_of, **mine)))
    lobby = await asyncio.wait_for(port, 10)

    async def joiner(i: int) -> Any:
        data = root / f"seat-join{i}"
        key = load_identity(data)
        sock = listen_socket(0, LOOPBACK)
        mesh = sock.getsockname()[1]
        r = relay(i, mesh) if relay is not None else None
        if r is not None:
            await r.start()
            match.relays.append(r)
            mesh = r.port
        seated = await join_table(key, f"Bot {i}", LOOPBACK, lobby, mesh)
        return await play_seated(data, key, seated, sock, decide=bot_decider(bot, bytes([i]) * 32),
                                 config=config, on_peer=seat_of)

    for i in range(1, players):
        match.dirs.append(root / f"seat-join{i}")
        match.tasks.append(asyncio.ensure_future(joiner(i)))
    return match


@contextlib.asynccontextmanager
async def running(match_coro: Any) -> AsyncIterator[InProcess]:
    match = await match_coro
    try:
        yield match
    finally:
        await match.cancel()


# --------------------------------------------------------------------------- the relay


@dataclass
class Faults:
    """What a :class:`Relay` does to the bytes it forwards (each direction separately)."""

    delay: float = 0.0  # s added to every chunk
    jitter: float = 0.0  # s, uniform in [0, jitter), added to every chunk (order kept)
    split: bool = False  # forward one byte at a time
    stall_every: int = 0  # bytes: after this many, stall the direction for stall_for s
    stall_for: float = 0.0
    reset_every: float = 0.0  # s: abort (RST) every connection this often
    max_resets: int = 0  # resets in all (bounded)


@dataclass(eq=False)
class Connection:
    """One relayed connection: the dialler's side and the listener's side."""

    client: asyncio.StreamWriter
    server: asyncio.StreamWriter
    frames: list[int] = field(default_factory=lambda: [0, 0])  # whole frames, each way
    ended: bool = False  # one direction reached its end (the other stops holding bytes back)

    @property
    def authenticated(self) -> bool:
        """Both HELLO and PROOF went through, each way (whole-frame mode only)."""
        return self.frames[0] >= 2 and self.frames[1] >= 2 and not self.server.is_closing()


class Relay:
    """A fault-injecting TCP relay on loopback: accepts on its own port and forwards each
    connection to ``target`` (a peer's mesh listener), through :class:`Faults`.  ``cut()``
    drops every connection and refuses new ones until ``restore()``; ``hold_back(direction)``
    stops one direction of every connection (0: to the target, 1: from it) until ``let_go()``
    — bytes wait, none is lost, as on a path that carries one way only.  With ``framed``, it
    forwards whole frames only, so a test can write frames of its own into a connection
    (:meth:`inject`) between the real ones."""

    def __init__(self, target: int, faults: Faults | None = None, *, seed: int = 0,
                 framed: bool = False) -> None:
        self.target = target
        self.faults = faults or Faults()
        self.rng = random.Random(seed)
        self.framed = framed
        self.server: asyncio.Server | None = None
        self.port = 0
        self.cut_off = False
        self.holding = [False, False]
        self.connections = 0
        self.resets = 0
        self.bytes = 0
        self.live: list[Connection] = []
        self._tasks: set[asyncio.Task[Any]] = set()

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._accept, LOOPBACK, 0)
        self.port = int(self.server.sockets[0].getsockname()[1])
        if self.faults.reset_every:
            self._spawn(self._resetter())

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        self._drop_all()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def cut(self) -> None:
        """Drop every connection (FIN) and refuse new ones until :meth:`restore`."""
        self.cut_off = True
        self._drop_all()

    def restore(self) -> None:
        self.cut_off = False

    def hold_back(self, direction: int) -> None:
        self.holding[direction] = True

    def let_go(self) -> None:
        self.holding = [False, False]

    def _drop_all(self, *, reset: bool = False) -> None:
        for conn in list(self.live):
            for w in (conn.client, conn.server):
                if reset:
                    w.transport.abort()
                else:
                    w.close()
        self.live.clear()

    async def _resetter(self) -> None:
        while self.resets < self.faults.max_resets:
            await asyncio.sleep(self.faults.reset_every)
            if self.live:
                self.resets += 1
                self._drop_all(reset=True)

    def authenticated(self) -> list[Connection]:
        return [c for c in self.live if c.authenticated]

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        if self.cut_off:
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(LOOPBACK, self.target)
        except OSError:
            writer.close()
            return
        self.connections += 1
        conn = Connection(writer, up_writer)
        self.live.append(conn)
        try:
            await asyncio.gather(self._pipe(reader, up_writer, conn, 0),
                                 self._pipe(up_reader, writer, conn, 1))
        except (ConnectionError, OSError):
            pass
        finally:
            if conn in self.live:
                self.live.remove(conn)
            for w in (writer, up_writer):
                w.close()

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                    conn: Connection, direction: int) -> None:
        f = self.faults
        since_stall = 0
        pending = b""
        try:
            while True:
                chunk = await reader.read(65536)
                if not chunk:
                    break
                self.bytes += len(chunk)
                if f.delay or f.jitter:
                    await asyncio.sleep(f.delay + self.rng.random() * f.jitter)
                if self.framed:
                    pending += chunk
                    chunk = b""
                    while len(pending) >= 4:
                        size = int.from_bytes(pending[:4], "big")
                        if size > MAX_FRAME:  # not ours to judge: pass it on
                            chunk, pending = chunk + pending, b""
                            break
                        if len(pending) < 4 + size:
                            break
                        chunk += pending[:4 + size]
                        pending = pending[4 + size:]
                        conn.frames[direction] += 1
                    if not chunk:
                        continue
                pieces = [chunk[i:i + 1] for i in range(len(chunk))] if f.split else [chunk]
                for piece in pieces:
                    if self.holding[direction]:
                        while self.holding[direction] and not (conn.ended or self.cut_off):
                            await asyncio.sleep(0.02)
                        if conn.ended:
                            return  # (the connection closed while this direction held)
                    if self.cut_off:
                        return
                    writer.write(piece)
                    await writer.drain()
                    since_stall += len(piece)
                    if f.stall_every and since_stall >= f.stall_every:
                        since_stall = 0
                        await asyncio.sleep(f.stall_for)
        finally:
            conn.ended = True
            with contextlib.suppress(Exception):
                writer.close()
