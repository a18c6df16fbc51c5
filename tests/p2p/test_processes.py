"""Seats as separate ``python -m p2p`` processes on loopback: a whole match, a peer killed
with SIGKILL and resumed from its data directory, a peer that goes silent (SIGSTOP) and is
replaced.

Each process has its own data directory under ``tmp_path`` and short timeouts (turn 2 s,
silence 2 s); the ``procs`` fixture kills every process it started, pass or fail.
"""

from __future__ import annotations

import signal
from pathlib import Path

from protocol.wire.transcript import read_transcript

from tests.p2p.conftest import PeerProcess, Processes, assert_agreed, verdict_of, wait_for

PLAYERS = 3
FINISH = 60.0  # s: the bound on a whole match (a 3-seat match takes about 2 s unhindered)
MID_MATCH = 20_000  # bytes: a 3-seat match file ends near 70 kB; past this we are mid-match


def finished(peer: PeerProcess) -> Path:
    """Wait for a peer process to end well; its match file."""
    code = peer.wait(FINISH)
    err = peer.stderr()
    assert code == 0, f"{peer.name} exited {code}; stderr:\n{err}"
    assert "Traceback" not in err, f"{peer.name} printed a traceback:\n{err}"
    path = peer.match_file()
    assert path is not None
    assert f"match over: {path}" in peer.stdout()
    assert not list((peer.data_dir / "matches").glob("*.seed")), "the seed outlived the match"
    return path


def start_three(procs: Processes) -> tuple[PeerProcess, PeerProcess, PeerProcess]:
    host, port = procs.host(PLAYERS)
    return host, procs.join("j1", port), procs.join("j2", port)


def mid_match(peer: PeerProcess, others: list[PeerProcess]) -> None:
    """Wait (bounded) until ``peer``'s match file is past the first third of a match."""
    def grown() -> bool:
        path = peer.match_file()
        return path is not None and path.stat().st_size > MID_MATCH
    wait_for(grown, 30.0, lambda: f"{peer.name}'s match file never grew past {MID_MATCH} B",
             alive=[peer, *others], poll=0.002)


def test_three_processes_play_to_the_end(procs: Processes) -> None:
    host, j1, j2 = start_three(procs)
    paths = [finished(p) for p in (host, j1, j2)]
    assert len({p.name for p in paths}) == 1  # one match id, three copies
    assert sorted(p.seat() for p in (host, j1, j2)) == [0, 1, 2]
    for v in assert_agreed(paths, PLAYERS):
        assert not any("replaced" in note for note in v.notes), v.notes
    for peer in (host, j1, j2):  # the identity key is private to its owner
        assert (peer.data_dir / "identity.key").stat().st_mode & 0o077 == 0


def test_killed_peer_resumes_without_equivocating(procs: Processes) -> None:
    host, j1, j2 = start_three(procs)
    mid_match(j1, [host, j2])
    assert j1.alive(), "the match ended before the kill"
    j1.kill()  # SIGKILL: no chance to flush or say goodbye
    assert j1.proc.returncode == -signal.SIGKILL
    path = j1.match_file()
    assert path is not None
    before = read_transcript(path.read_bytes())
    seat = j1.seat()
    sent_before = before.feeds[seat].messages
    assert sent_before, "the killed peer had sent nothing yet"
    assert verdict_of(path).verdict == "incomplete"
    assert (j1.data_dir / "matches" / (path.stem + ".seed")).exists()

    again = procs.resume(j1)
    paths = [finished(p) for p in (host, again, j2)]
    assert paths[1] == path  # the same file, appended to
    assert_agreed(paths, PLAYERS)
    mine = read_transcript(path.read_bytes())
    assert not mine.equivocations and not mine.problems
    # What it sent before the kill is still its feed's beginning, byte for byte, in its own
    # file and in every other seat's copy: nothing was ever re-signed differently.
    for other in paths:
        t = read_transcript(other.read_bytes())
        assert not t.equivocations, other
        feed = t.feeds[seat].messages
        assert [m.hash for m in feed[:len(sent_before)]] == [m.hash for m in sent_before]
        assert [m.hash for m in feed] == [m.hash for m in mine.feeds[seat].messages]


def test_silent_peer_is_replaced_and_the_others_finish(procs: Processes) -> None:
    host, j1, j2 = start_three(procs)
    mid_match(j1, [host, j2])
    assert j1.alive(), "the match ended before the stop"
    seat = j1.seat()
    j1.proc.send_signal(signal.SIGSTOP)  # alive, connections open, says nothing
    try:
        paths = [finished(p) for p in (host, j2)]
    finally:
        j1.kill()
    verdicts = assert_agreed(paths, PLAYERS)
    for v in verdicts:
        assert any(note.startswith(f"seat {seat} was replaced") for note in v.notes), v.notes
    own = j1.match_file()
    assert own is not None
    assert verdict_of(own).verdict == "incomplete"  # cut short, but nothing wrong in it

