"""Bad input to ``verify``, ``replay``, ``export``, ``matches`` and ``id --import``: junk after a
match, devices, pipes, directories, files too big to be a match, tampered files, non-UTF-8 file
names.  Each gets a clear line — no traceback, no Python exception name — and nothing that can
be shown is lost."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.scenario import raiders_network
from protocol.mesh import Network
from protocol.wire.messages import sign_message
from protocol.wire.transcript import MAX_FILE, file_start, frame
from tests.cli.test_command import ROOT, cryptcrawl
from tests.cli.test_verify_command import run

EXCEPTION_NAME = re.compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z]+)+\b|Error\b|Traceback")


def _bytes_of(net: Network) -> bytes:
    return file_start(net.header) + b"".join(frame(m.encode()) for m in net.log)


@pytest.fixture(scope="module")
def finished() -> Network:
    net = raiders_network(3, tag=b"cli-limits")
    net.pump()
    return net


@pytest.fixture(scope="module")
def match_bytes(finished: Network) -> bytes:
    return _bytes_of(finished)


@pytest.fixture(scope="module")
def replaced_bytes() -> bytes:
    """A match in which seat C's peer stops for good: the others replace it by its bot."""
    net = raiders_network(3, tag=b"cli-limits-replaced")
    net.pump(limit=60, partial=True)
    net.crash(2)
    net.run_with_timeouts()
    return net.match_file(0)


def strict(*args: str | bytes) -> subprocess.CompletedProcess[bytes]:
    """The command with a strict UTF-8 stdout (as in a UTF-8 locale): a path that is not
    UTF-8 must not make it fail."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}
    env.pop("CRYPTCRAWL_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "cli.main", *args], capture_output=True,
                          cwd=ROOT, env=env, timeout=60, check=False)


# ----------------------------------------------------------------------- 1: junk after a match


def test_junk_after_a_match_gives_a_bounded_report(tmp_path: Path, match_bytes: bytes,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "x.crawl"
    path.write_bytes(match_bytes + bytes(200_000))  # 50,000 empty frames
    code, out, err = run(["verify", str(path)], monkeypatch)
    assert code == 1 and err == ""
    assert out.count("\n") < 40, out.count("\n")
    assert out.count("empty frame") == 16 + 1  # 16 notes, and the verdict
    assert "reading stopped after 16 damaged records: 199,936 more bytes not read" in out
    assert re.search(r"\n  invalid \(record \d+\): empty frame\n\Z", out)


def test_a_few_bad_records_still_each_get_a_note(tmp_path: Path, match_bytes: bytes,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "x.crawl"
    path.write_bytes(match_bytes + bytes(12))
    code, out, _ = run(["verify", str(path)], monkeypatch)
    assert code == 1 and out.count("note: ") == 3 and "reading stopped" not in out


# ------------------------------------------------- 2: devices, pipes, directories, huge files


@pytest.mark.parametrize("command", [("verify",), ("replay", "--plain"), ("export", "--json")])
def test_what_is_not_a_regular_file_is_refused_in_one_line(tmp_path: Path,
                                                           command: tuple[str, ...]) -> None:
    fifo = tmp_path / "pipe.crawl"
    os.mkfifo(fifo)
    (tmp_path / "dir.crawl").mkdir()
    cases = [(fifo, "not a regular file (a named pipe)"),
             (tmp_path / "dir.crawl", "not a regular file (a directory)")]
    if os.path.exists("/dev/zero"):
        cases.append((Path("/dev/zero"), "not a regular file (a character device)"))
    for path, reason in cases:
        result = cryptcrawl(*command, str(path), timeout=30)
        assert result.returncode == 3, (path, result.stderr)
        assert result.stderr == f"cryptcrawl {command[0]}: cannot read {path}: {reason}\n"
        assert result.stdout == ""


def test_a_file_larger_than_any_match_is_refused(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    big = tmp_path / "big.crawl"
    with open(big, "wb") as handle:
        handle.truncate(MAX_FILE + 1)  # (sparse: nothing is written)
    code, out, err = run(["verify", str(big)], monkeypatch)
    assert code == 3 and out == ""
    assert err == f"cryptcrawl verify: cannot read {big}: larger than 64 MiB: not a match file\n"
    code, _, err = run(["replay", "--plain", str(big)], monkeypatch)
    assert code == 3 and "larger than 64 MiB" in err and err.count("\n") == 1


def test_id_import_refuses_a_device_or_a_pipe(tmp_path: Path) -> None:
    fifo = tmp_path / "key"
    os.mkfifo(fifo)
    result = cryptcrawl("id", "--data-dir", str(tmp_path / "d"), "--import", str(fifo),
                        timeout=30)
    assert result.returncode == 1
    assert result.stderr == (f"cryptcrawl id: cannot read {fifo}: not a regular file "
                             "(a named pipe)\n")
    assert not (tmp_path / "d" / "identity.key").exists()


# ------------------------------------------------------------- 3: matches with bad entries


def test_matches_lists_every_match_and_a_line_per_bad_entry(
        tmp_path: Path, match_bytes: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "matches"
    folder.mkdir()
    (folder / "a.crawl").write_bytes(match_bytes)
    (folder / "b.crawl").mkdir()
    (folder / "c.crawl").symlink_to(tmp_path / "nothing-there")
    (folder / "d.crawl").write_bytes(b"not a match file")
    (folder / "e.crawl").write_bytes(match_bytes[:-9])
    locked = folder / "f.crawl"
    locked.write_bytes(match_bytes)
    locked.chmod(0)
    if os.path.exists("/dev/zero"):
        (folder / "g.crawl").symlink_to("/dev/zero")
    (folder / "z.crawl").write_bytes(match_bytes)
    code, out, err = run(["matches", "--data-dir", str(tmp_path)], monkeypatch)
    assert code == 0 and err == ""
    lines = {Path(line.split()[-1]).name: line for line in out.splitlines()}
    assert "won by" in lines["a.crawl"] and "won by" in lines["z.crawl"]
    assert "incomplete" in lines["e.crawl"]
    assert "(unreadable: not a regular file (a directory))" in lines["b.crawl"]
    assert "(unreadable: No such file or directory)" in lines["c.crawl"]
    assert "(unreadable: " in lines["d.crawl"]
    if os.geteuid() != 0:  # (root reads it anyway)
        assert "(unreadable: Permission denied)" in lines["f.crawl"]
    if os.path.exists("/dev/zero"):
        assert "(unreadable: not a regular file (a character device))" in lines["g.crawl"]
    assert len(out.splitlines()) == len(list(folder.iterdir()))
    assert not EXCEPTION_NAME.search(out)


def test_matches_in_an_empty_or_missing_folder(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(["matches", "--data-dir", str(tmp_path)], monkeypatch)
    assert code == 0 and out.startswith("No matches in ")


# ------------------------------------------------------------ 4: no Python exception names


def test_malformed_records_are_described_in_words(tmp_path: Path, match_bytes: bytes,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "x.crawl"
    path.write_bytes(match_bytes + frame(b"\x91\x01\x02") + frame(b"\xa2\xff\xfe"))
    code, out, _ = run(["verify", str(path)], monkeypatch)
    assert code == 1
    assert "malformed frame: trailing bytes after the message" in out
    assert "malformed frame: text that is not UTF-8" in out
    assert not EXCEPTION_NAME.search(out), out


# ------------------------------------------------------------------------------- 5: replay


def test_replay_notes_are_words_not_reprs(tmp_path: Path, replaced_bytes: bytes,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "r.crawl"
    path.write_bytes(replaced_bytes)
    code, out, err = run(["replay", "--plain", str(path)], monkeypatch)
    assert code == 0 and err == ""
    notes = [line for line in out.splitlines() if "replaced by a bot" in line]
    assert notes and all("SeatReplaced" not in n and "seat=" not in n for n in notes)
    assert re.fullmatch(r"P2 is replaced by a bot from now on \(absent: .*", notes[0]), notes[0]
    assert "INVALID" not in out and "Final scores" in out


def _tampered(net: Network, how: str) -> bytes:
    data = _bytes_of(net)
    if how == "flipped":  # one byte inside a message in the middle of the file
        changed = bytearray(data)
        changed[len(data) // 2] ^= 0x10
        return bytes(changed)
    # A message changed and re-signed with its seat's own key, its successors chained again:
    # every signature and chain checks out; the replay through the rules does not.
    seat, k = 0, 30
    feed = [m for m in net.log if m.seat == seat]
    new, prev = {}, feed[k].prev
    for m in feed[k:]:
        again = sign_message(net.keys[seat], match_id=m.match_id, seat=seat, seq=m.seq,
                             prev=prev, kind=m.kind,
                             state=bytes(32) if m.seq == k else m.state, body=m.body,
                             heads=m.heads)
        new[m.hash], prev = again, again.hash
    return file_start(net.header) + b"".join(frame(new.get(m.hash, m).encode())
                                             for m in net.log)


@pytest.mark.parametrize("how", ["flipped", "re-signed"])
def test_replay_of_a_tampered_file_says_invalid(tmp_path: Path, finished: Network, how: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "t.crawl"
    path.write_bytes(_tampered(finished, how))
    code, verified, _ = run(["verify", str(path)], monkeypatch)
    assert code == 1 and "INVALID" in verified
    code, out, err = run(["replay", "--plain", str(path)], monkeypatch)
    assert code == 1, out
    assert err == ""
    lines = out.splitlines()
    assert lines[1].startswith("This file is INVALID from record ")  # said at once
    assert lines[-1].startswith("This file is INVALID from record ")  # and at the end
    assert "stops before the end" not in out


def test_replay_of_a_cut_file_still_says_where_it_stops(tmp_path: Path, match_bytes: bytes,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "cut.crawl"
    path.write_bytes(match_bytes[:len(match_bytes) // 2])
    code, out, _ = run(["replay", "--plain", str(path)], monkeypatch)
    assert code == 0 and "The file stops before the end of the match." in out
    assert "INVALID" not in out


# ---------------------------------------------------------------- 6: file names not UTF-8


def test_paths_that_are_not_utf8_are_printed_escaped(tmp_path: Path,
                                                     match_bytes: bytes) -> None:
    folder = tmp_path / "matches"
    folder.mkdir()
    name = os.fsencode(folder) + b"/bad\xff.crawl"
    with open(name, "wb") as handle:
        handle.write(match_bytes)
    shown = os.fsdecode(folder).encode() + b"/bad\\xff.crawl"
    result = strict("verify", name)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(shown + b": VALID\n")
    result = strict("verify", "--json", name)
    assert result.returncode == 0 and b'"file": "' + shown.replace(b"\\", b"\\\\") in (
        result.stdout)
    result = strict("replay", "--plain", name)
    assert result.returncode == 0 and result.stdout.startswith(shown + b": Dungeon Raiders")
    result = strict("matches", "--data-dir", os.fsencode(tmp_path))
    assert result.returncode == 0 and result.stdout.rstrip().endswith(shown), result.stderr
    result = strict("verify", os.fsencode(folder) + b"/missing\xff.crawl")
    assert result.returncode == 3
    assert result.stderr.endswith(b"missing\\xff.crawl: No such file or directory\n")
