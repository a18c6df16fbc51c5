"""Storage faults: the match file's disk fills up, and a record is torn by a crash.

The disk is a small tmpfs this test mounts (and unmounts) under ``tmp_path``; that needs root,
so without it these tests are skipped with the reason.  A peer whose disk is full must stop
with a clear error; what it wrote must stay readable and check as far as it goes; the other
seats go on without it.  A torn last record (a crash in the middle of an append) is tolerated
by the reader and reported by the verifier; a peer resumed on such a file must not make it
unreadable.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from protocol.wire.transcript import read_transcript, split_records

from p2p.peer import PeerConfig, bot_decider
from p2p.store import StoreError
from tests.adversary.conftest import (
    Proc,
    Processes,
    cli_verify,
    finished,
    in_process_match,
    verdict_of,
    wait_for,
)

SMALL = "48k"  # a three-seat match file is about 70 kB: this fills up mid-match


@contextlib.contextmanager
def tmpfs(path: Path, size: str) -> Iterator[Path]:
    """A tmpfs of ``size`` mounted at ``path`` (made here) for the duration."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    path.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs",
                           str(path)], capture_output=True, timeout=30, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs: {done.stderr.decode(errors='replace').strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], capture_output=True, timeout=30,
                       check=False)


# --------------------------------------------------------------------------- a full disk


@dataclass
class Full:
    others: list[Path]
    small: Proc
    small_file: Path
    copy: Path  # the small peer's file, copied off the tmpfs before it is unmounted
    seat: int


@pytest.fixture(scope="module")
def disk_full(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Full]:
    root = tmp_path_factory.mktemp("disk-full")
    group = Processes(root)
    try:
        with tmpfs(root / "small-disk", SMALL) as disk:
            host, port = group.host(3)
            small = group._start("small", disk / "small", "p2p", "join",
                                 f"127.0.0.1:{port}")
            j2 = group.join("j2", port)
            others = [finished(host), finished(j2)]
            with contextlib.suppress(AssertionError):
                small.wait(10)  # it may hang: the test on a clear error says so
            small.kill()
            path = small.match_file()
            assert path is not None
            copy = root / "small.crawl"
            copy.write_bytes(path.read_bytes())
            seat = small.seat()
            yield Full(others, small, path, copy, seat)
    finally:
        group.close()


def test_full_disk_the_others_finish_and_what_was_written_checks(disk_full: Full) -> None:
    full = disk_full
    for path in full.others:
        v = verdict_of(path)
        assert v.verdict == "valid", (v.verdict, v.reason)
        assert any(n.startswith(f"seat {full.seat} was replaced") for n in v.notes), v.notes
    data = full.copy.read_bytes()
    assert 20_000 < len(data) < 48 * 1024
    t = read_transcript(data)
    assert t.header is not None and t.messages > 50
    # At most one problem, and only a torn tail (the last write was cut short by the disk).
    assert all(p.reason.startswith("torn record") for p in t.problems), t.problems
    v = verdict_of(full.copy)
    assert v.verdict == "incomplete", (v.verdict, v.reason)
    j = cli_verify(full.copy)
    assert j["status"] == "incomplete" and j["exit"] == 4, j
    # Everything it holds is what the others hold: byte for byte the same messages.
    theirs = read_transcript(full.others[0].read_bytes())
    for seat, feed in t.feeds.items():
        assert [m.hash for m in feed.messages] == [
            m.hash for m in theirs.feeds[seat].messages[:len(feed.messages)]]


def test_torn_last_record_is_tolerated_and_reported(disk_full: Full, tmp_path: Path) -> None:
    """Cut the last record of a finished match file in half (a crash in the middle of the
    append): the reader keeps every record before it, the verifier says incomplete and why."""
    data = disk_full.others[0].read_bytes()
    offsets = [offset for offset, _, _ in split_records(data)]
    torn = tmp_path / "torn.crawl"
    torn.write_bytes(data[:offsets[-1] + (len(data) - offsets[-1]) // 2])
    whole, cut = read_transcript(data), read_transcript(torn.read_bytes())
    assert cut.torn and cut.messages == whole.messages - 1
    v = verdict_of(torn)
    assert v.verdict == "incomplete" and "torn" in v.reason, v.reason
    j = cli_verify(torn)
    assert j["exit"] == 4 and "torn" in j["reason"], j
    assert any("torn record" in n for n in j["notes"]), j["notes"]


@pytest.mark.asyncio
async def test_full_disk_stops_the_peer_with_a_clear_error(tmp_path: Path) -> None:
    """Deterministic: the match is held at the host's first decision, seat 1's disk is then
    filled to the last byte, and the gate opens — the next thing seat 1 must store is a
    message it receives."""
    gate = asyncio.Event()
    asked = asyncio.Event()
    bot = bot_decider("random", b"d" * 32)

    async def choose(state: Any, seat: int) -> str:
        asked.set()
        await gate.wait()
        return bot(state, seat)

    errors: list[dict[str, Any]] = []
    asyncio.get_running_loop().set_exception_handler(lambda _l, c: errors.append(c))
    config = PeerConfig(timeouts=(30, 30, 30, 30), linger=0.2)
    with tmpfs(tmp_path / "seat-join1", "256k") as disk:
        match = await in_process_match(tmp_path, 3, config, choose=choose)
        try:
            await asyncio.wait_for(asked.wait(), 20)
            small = next(p for p in match.peers.values() if p.store.path.is_relative_to(disk))
            filler = disk / "filler"
            with contextlib.suppress(OSError), filler.open("wb") as out:
                while True:
                    out.write(b"\0" * 4096)
                    out.flush()
            task = match.task_of(small)
            gate.set()
            done, _ = await asyncio.wait({task}, timeout=6)
            assert task in done, "the peer went on after its disk filled up"
            assert isinstance(task.exception(), StoreError), task.exception()
            assert "No space left" in str(task.exception())
            assert not errors, [str(e.get("exception") or e.get("message")) for e in errors]
        finally:
            gate.set()
            await match.cancel()


# --------------------------------------------------------------------------- resuming, torn


@dataclass
class Resumed:
    others: list[Path]
    resumed: Proc
    path: Path
    size_before: int


@pytest.fixture(scope="module")
def torn_then_resumed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Resumed]:
    """Seat j1 is killed mid-match; a half-written record is left at the end of its file (a
    crash in the middle of an append); it is resumed and the match plays to the end."""
    group = Processes(tmp_path_factory.mktemp("torn-resume"), turn=2.0, silence=2.0)
    try:
        host, port = group.host(3)
        j1, j2 = group.join("j1", port), group.join("j2", port)

        def grown() -> bool:
            path = j1.match_file()
            return path is not None and path.stat().st_size > 20_000
        wait_for(grown, 30.0, lambda: "j1's match file did not grow", alive=[j1], poll=0.002)
        j1.proc.send_signal(signal.SIGKILL)
        j1.proc.wait(10)
        path = j1.match_file()
        assert path is not None
        with path.open("ab") as out:
            out.write((300).to_bytes(4, "big") + b"\x93" * 100)  # 100 of 300 bytes
        size = path.stat().st_size
        assert verdict_of(path).verdict == "incomplete"
        again = group.resume(j1)
        others = [finished(host), finished(j2)]
        assert again.wait(60) == 0, again.stderr()[-2000:]
        yield Resumed(others, again, path, size)
    finally:
        group.close()


def test_resumed_after_a_torn_record_the_match_finishes(torn_then_resumed: Resumed) -> None:
    r = torn_then_resumed
    verdicts = [verdict_of(p) for p in r.others]
    assert all(v.verdict == "valid" for v in verdicts), [v.reason for v in verdicts]
    assert r.path.stat().st_size > r.size_before


def test_resumed_after_a_torn_record_its_file_still_verifies(
        torn_then_resumed: Resumed) -> None:
    r = torn_then_resumed
    v = verdict_of(r.path)
    assert v.verdict == "valid", (v.verdict, v.record, v.reason)
