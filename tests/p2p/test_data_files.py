"""The small data files (``p2p/store.py``): the identity key, ``known_keys.json``, a match's
seat file ``matches/<id>.json`` and seed — and ``cryptcrawl matches``' dates.

Any of them damaged, missing, a FIFO or a directory gives one line (a StoreError; the command
line prints it as ``cryptcrawl COMMAND: message``), never a traceback, a hang, or a file
silently replaced.  Several runs making a new identity at once all get the same one.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2p.peer import PeerConfig, bot_decider
from p2p.run import host, resume
from p2p.store import CHOICES_COMPACT, KnownKeys, MatchStore, StoreError, load_identity
from protocol.crypto import public_key_bytes

CONFIG = PeerConfig(timeouts=(20, 20, 20, 15), linger=0.2, bot_think=0)
WAIT = 20.0  # seconds any one call may take before the test calls it hung


def bounded(call: Callable[[], Any], fifos: tuple[Path, ...] = (), timeout: float = WAIT) -> Any:
    """``call()`` in a thread, its result or exception; the test fails if it does not return
    in time (a read waiting on a FIFO is then let go: the FIFO is opened and closed for
    writing, so the thread ends too)."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = call()
        except BaseException as exc:  # (handed to the test)
            box["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        for fifo in fifos:
            with contextlib.suppress(OSError):
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        thread.join(5)
        pytest.fail(f"{call} did not return within {timeout:.0f} s (it waited on a FIFO?)")
    if "error" in box:
        raise box["error"]
    return box.get("value")


def cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``cryptcrawl ARGS`` as a process, bounded in time (killed if it hangs)."""
    env = {**os.environ, "TERM": "dumb"}
    env.pop("CRYPTCRAWL_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "cli", *args], capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL, env=env)


def one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    assert "Traceback" not in text and "internal error" not in text and "[Errno" not in text
    return lines[0]


# --------------------------------------------------------------------------- the identity key


def identities_made_at_once(data_dir: Path, runs: int) -> tuple[list[bytes], list[object]]:
    """``runs`` threads calling ``load_identity(data_dir)`` at the same moment: the public
    keys they got, and their errors."""
    start = threading.Barrier(runs)
    keys: list[bytes] = []
    errors: list[object] = []

    def make() -> None:
        start.wait(WAIT)
        try:
            keys.append(public_key_bytes(load_identity(data_dir)))
        except BaseException as exc:  # (handed to the test)
            errors.append(exc)

    threads = [threading.Thread(target=make, daemon=True) for _ in range(runs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT)
    return keys, errors


def test_runs_making_a_new_identity_at_once_all_get_the_same_key(tmp_path: Path) -> None:
    for attempt in range(5):  # (a race: a few new directories, each by 12 runs at once)
        data_dir = tmp_path / f"d{attempt}"
        keys, errors = identities_made_at_once(data_dir, 12)
        assert not errors, errors
        assert len(keys) == 12 and len(set(keys)) == 1, "two runs got two identities"
        on_disk = Ed25519PrivateKey.from_private_bytes((data_dir / "identity.key").read_bytes())
        assert public_key_bytes(on_disk) == keys[0], "the key in use is not the key kept"
        assert (data_dir / "identity.key").stat().st_mode & 0o777 == 0o600
        assert sorted(p.name for p in data_dir.iterdir()) == ["identity.key"]  # no temp left


def test_an_identity_key_that_is_a_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "identity.key"
    os.mkfifo(fifo)
    with pytest.raises(StoreError, match=r"identity\.key: not a regular file$"):
        bounded(lambda: load_identity(tmp_path), (fifo,))
    assert fifo.exists()
    d = tmp_path / "cli"
    d.mkdir()
    os.mkfifo(d / "identity.key")
    done = cli("id", "--data-dir", str(d))
    assert done.returncode == 1
    assert one_line(done.stderr) == f"cryptcrawl id: cannot read {d}/identity.key: not a " \
                                    "regular file"


def test_a_data_directory_that_cannot_be_made_is_one_plain_line(tmp_path: Path) -> None:
    with pytest.raises(StoreError) as info:
        load_identity(Path("/proc/nonexist/x"))  # (nothing can be made there)
    assert str(info.value) == ("cannot create the data directory /proc/nonexist/x: No such "
                               "file or directory")
    (tmp_path / "link").symlink_to(tmp_path / "gone")
    with pytest.raises(StoreError) as info:
        load_identity(tmp_path / "link" / "x")
    assert "[Errno" not in str(info.value)
    assert str(info.value).startswith(f"cannot create the data directory {tmp_path}/link/x: ")


def test_importing_an_identity_never_replaces_another(tmp_path: Path) -> None:
    from p2p.store import import_identity  # (for cryptcrawl id --import)

    raw = bytes(range(32))
    (tmp_path / "a" / "identity.key").mkdir(parents=True)
    with pytest.raises(StoreError) as info:
        import_identity(tmp_path / "a", raw)
    assert str(info.value) == f"cannot read {tmp_path}/a/identity.key: not a regular file"
    os.mkfifo(tmp_path / "identity.key")
    with pytest.raises(StoreError, match="not a regular file"):
        bounded(lambda: import_identity(tmp_path, raw), (tmp_path / "identity.key",))
    b = tmp_path / "b"
    import_identity(b, raw)
    import_identity(b, raw)  # (the same key again: nothing to do)
    with pytest.raises(StoreError, match="already holds another identity"):
        import_identity(b, bytes(32))
    assert (b / "identity.key").read_bytes() == raw
    assert (b / "identity.key").stat().st_mode & 0o777 == 0o600


# --------------------------------------------------------------------------- known_keys.json

GOOD = {"alice": "aaaa-bbbb-cccc-dddd-eeee", "bob": "1111-2222-3333-4444-5555"}


@pytest.mark.parametrize("damage", [b"", b"{not json", b"[1, 2]", b'{"L1.R1.play": 4}'])
def test_pending_choices_are_private_and_a_damaged_file_gives_none(tmp_path: Path,
                                                                    damage: bytes) -> None:
    store = MatchStore(tmp_path, bytes(32))
    store.save_choices({"L1.R1.play": "play 4"})
    assert store.choices_path.stat().st_mode & 0o777 == 0o600
    assert store.choices() == {"L1.R1.play": "play 4"}
    store.choices_path.write_bytes(damage)
    assert store.choices() == {}  # (reopened by search instead, where the game allows it)
    store.save_choices({"L1.R2.play": "play 5"})
    store.finish()  # (the match is over: the choices go with the seed)
    assert not store.choices_path.exists() and store.choices() == {}


def test_pending_choices_are_appended_and_the_last_whole_record_counts(tmp_path: Path) -> None:
    """Each save is one record appended to the same file (no new file and rename per COMMIT:
    that cost a millisecond in every step); a record cut short by a crash of the system is
    not read, the one before it is; a file grown past CHOICES_COMPACT is replaced by the last
    record; a file others could read is made private again."""
    store = MatchStore(tmp_path, bytes(32))
    store.save_choices({"L1.R1.play": "play 4"})
    inode = store.choices_path.stat().st_ino
    store.save_choices({"L1.R1.play": "play 4", "L1.R1.followup": "skip"})
    assert store.choices_path.stat().st_ino == inode  # appended, not replaced
    assert store.choices_path.read_bytes().count(b"\n") == 2
    assert store.choices() == {"L1.R1.play": "play 4", "L1.R1.followup": "skip"}
    with store.choices_path.open("ab") as f:
        f.write(b'{"L1.R2.play": "pl')  # (a power cut in the middle of the next record)
    assert store.choices() == {"L1.R1.play": "play 4", "L1.R1.followup": "skip"}
    store.close()
    store = MatchStore(tmp_path, bytes(32))  # (a restart appends to what is there)
    store.choices_path.chmod(0o644)
    store.save_choices({"L1.R2.play": "play 5"})
    assert store.choices_path.stat().st_mode & 0o777 == 0o600
    assert store.choices() == {"L1.R2.play": "play 5"}
    big = {f"L{k}.R1.play": "play 1" for k in range(40)}
    for _ in range(100):
        store.save_choices(big)
    assert store.choices_path.stat().st_size <= CHOICES_COMPACT
    assert store.choices_path.read_bytes().endswith(b"\n") and store.choices() == big
    store.save_choices({})
    assert store.choices() == {}
    store.finish()
    assert not store.choices_path.exists()
    store.close()


@pytest.mark.parametrize("damage", [
    json.dumps(GOOD)[:30],  # cut short
    "[1, 2]",
    '{"alice": 7}',
    "[" * 50_000,
    "\udcff",
], ids=["truncated", "a list", "not fingerprints", "nested", "not utf-8"])
def test_a_damaged_known_keys_file_is_refused_and_kept(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "known_keys.json"
    data = damage.encode("utf-8", "surrogateescape")
    path.write_bytes(data)
    with pytest.raises(StoreError) as info:
        KnownKeys(path)  # (the host makes this before its table opens)
    assert str(info.value).startswith(f"{path} is damaged (")
    assert str(info.value).endswith("): fix or remove it")
    assert "\n" not in str(info.value)
    assert path.read_bytes() == data


def test_known_keys_damaged_while_a_table_is_open_is_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "known_keys.json"
    path.write_text(json.dumps(GOOD))
    known = KnownKeys(path)
    assert known.check("alice", "zzzz-zzzz-zzzz-zzzz-zzzz") == GOOD["alice"]
    assert known.check("carol", "cccc-cccc-cccc-cccc-cccc") is None
    assert json.loads(path.read_text())["carol"] == "cccc-cccc-cccc-cccc-cccc"
    damaged = path.read_bytes()[:-5]
    path.write_bytes(damaged)
    assert known.check("dave", "dddd-dddd-dddd-dddd-dddd") is None
    assert path.read_bytes() == damaged, "every name remembered was wiped"
    assert [p.name for p in tmp_path.iterdir()] == ["known_keys.json"]


def test_a_known_keys_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    path = tmp_path / "known_keys.json"
    os.mkfifo(path)
    with pytest.raises(StoreError, match=r"known_keys\.json: not a regular file: fix or "):
        bounded(lambda: KnownKeys(path), (path,))


# --------------------------------------------------------------------------- resume


@pytest.fixture(scope="module")
def interrupted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data directory holding a match against two of its own bots, stopped in the middle
    (as by a kill)."""
    data_dir = tmp_path_factory.mktemp("interrupted")
    moves = 0

    def decide(state: Any, seat: int) -> str:
        nonlocal moves
        moves += 1
        return bot_decider("random", b"me")(state, seat)

    async def play_a_little() -> None:
        task = asyncio.ensure_future(host(data_dir, game="raiders", name="me", players=3, bots=2,
                                          bot="random", decide=decide, config=CONFIG))
        for _ in range(600):
            await asyncio.sleep(0.05)
            if moves >= 4 or task.done():
                break
        assert moves >= 4 and not task.done()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await asyncio.sleep(0.2)

    asyncio.run(play_a_little())
    return data_dir


@pytest.fixture
def copy(interrupted: Path, tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """A copy of the interrupted match's data directory and its seat file."""
    data_dir = tmp_path / "data"
    shutil.copytree(interrupted, data_dir, symlinks=True)
    [info] = (data_dir / "matches").glob("*.json")
    yield data_dir, info


def _info(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text())
    assert isinstance(data, dict)
    return data


def _with(path: Path, **changes: Any) -> str:
    return json.dumps({**_info(path), **changes})


def _own_port(path: Path, port: Any) -> str:
    info = _info(path)
    info["addresses"][0][1] = port
    return json.dumps(info)


DAMAGED: dict[str, tuple[Callable[[Path], str], str]] = {
    "empty object": (lambda p: "{}", "no seat number"),
    "seat out of range": (lambda p: _with(p, seat=7), "seat 7 of 3 seats"),
    "seat not a number": (lambda p: _with(p, seat="x"), "the seat is not a number"),
    "seat true": (lambda p: _with(p, seat=True), "the seat is not a number"),
    "own port 99999": (lambda p: _own_port(p, 99999),
                       "the address of seat 0 has no valid port (1 to 65535)"),
    "own port text": (lambda p: _own_port(p, "80"),
                      "the address of seat 0 has no valid port (1 to 65535)"),
    "addresses a string": (lambda p: _with(p, addresses="abc"), "no list of addresses"),
    "one address": (lambda p: _with(p, addresses=[["127.0.0.1", 1]]),
                    "1 addresses for 3 seats"),
    "address not a pair": (lambda p: _with(p, addresses=[["127.0.0.1", 1, 2]] * 3),
                           "the address of seat 0 is not a [host, port] pair"),
    "bad host": (lambda p: _with(p, addresses=[["a b", 1]] * 3),
                 "the address of seat 0 has no valid host"),
    "not JSON": (lambda p: '{"seat": 0, "addr', "not JSON: "),
    "a list": (lambda p: "[0]", "not a JSON object"),
}


@pytest.mark.parametrize("case", sorted(DAMAGED))
def test_resume_with_a_damaged_seat_file_says_so_in_one_line(
        copy: tuple[Path, Path], case: str) -> None:
    data_dir, info = copy
    make, why = DAMAGED[case]
    info.write_text(make(info))

    async def go() -> Any:
        return await asyncio.wait_for(resume(data_dir, config=CONFIG), WAIT)

    with pytest.raises(StoreError) as raised:
        asyncio.run(go())
    message = str(raised.value)
    assert message.startswith(f"{info} is damaged ({why}"), message
    assert message.endswith("); this match cannot be resumed"), message
    assert "\n" not in message


def test_resume_with_its_seat_file_gone_says_it_is_missing(copy: tuple[Path, Path]) -> None:
    data_dir, info = copy
    info.unlink()
    done = cli("resume", "--data-dir", str(data_dir))
    assert done.returncode == 1
    assert one_line(done.stderr) == (f"cryptcrawl resume: {info} is missing; this match "
                                     "cannot be resumed")


def test_resume_from_the_command_line_with_a_bad_seat_says_one_line(
        copy: tuple[Path, Path]) -> None:
    data_dir, info = copy
    info.write_text(_with(info, seat=7))
    done = cli("resume", "--data-dir", str(data_dir))
    assert done.returncode == 1
    assert one_line(done.stderr) == (f"cryptcrawl resume: {info} is damaged (seat 7 of 3 "
                                     "seats); this match cannot be resumed")


@pytest.mark.parametrize("name", ["identity.key", "json", "seed"])
def test_resume_with_a_fifo_for_a_data_file_does_not_hang(
        copy: tuple[Path, Path], name: str) -> None:
    data_dir, info = copy
    path = data_dir / name if "." in name else info.with_suffix(f".{name}")
    path.unlink()
    os.mkfifo(path)
    try:
        done = cli("resume", "--data-dir", str(data_dir), timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail(f"resume waited on the FIFO {path.name}")
    assert done.returncode == 1
    assert one_line(done.stderr).startswith("cryptcrawl resume: cannot read ")
    assert f"{path}: not a regular file" in done.stderr


# --------------------------------------------------------------------------- cryptcrawl matches


def test_matches_lists_a_file_dated_out_of_range(
        interrupted: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cli import matches as record

    [match] = (interrupted / "matches").glob("*.crawl")
    # (Such dates are set with ``touch -d @99999999999999`` on a tmpfs; other file systems
    # may clamp them, so the listing is handed them directly.)
    for when in (99999999999999.0, -99999999999.0, 1e300):
        monkeypatch.setattr(record, "_modified", lambda path, when=when: when)
        out = io.StringIO()
        assert record.list_matches(interrupted, out) == 0
        [line] = out.getvalue().splitlines()
        assert line.startswith("????-??-?? ??:??  raiders  me, Bot 1 (random), Bot 2 (random)  ")
        assert line.endswith(f"{match}  (interrupted: cryptcrawl resume)")
