"""Files on disk: the identity key, match files, per-match seeds, known keys.

Layout under the data directory (``--data-dir``, default the user data directory of
platformdirs, for example ``~/.local/share/cryptcrawl`` on Linux)::

    identity.key            the Ed25519 identity (raw 32 bytes, mode 0600)
    known_keys.json         name -> fingerprint of every key seen at a table
    matches/<id>.crawl      one match file per match (id: the first 16 hex digits of the
                            match id), appended and flushed message by message
    matches/<id>.seed       the per-match seed the secrets derive from (mode 0600), deleted
                            once the match is over and every secret is revealed
    matches/<id>.json       the seat this peer plays and every seat's address (to resume)

Each of these is read only if it is a regular file of a bounded size (opened non-blocking: a
FIFO is refused, never waited on).  The small ones (all but the match file, which is only
appended to) are written whole under a temporary name of their own, then renamed into place
(a reader never sees half a file).  The identity key is never replaced:
of several runs making it at once, the first one's key is kept and every run uses it.  A
damaged file gives one line (StoreError) and is left as it is.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import secrets
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
)
from protocol.wire.header import SignedHeader
from protocol.wire.messages import Message
from protocol.wire.transcript import MAX_FILE, file_start, frame, split_records

from p2p.wire import valid_host, valid_port

log = logging.getLogger("cryptcrawl.p2p")


class StoreError(Exception):
    """A file could not be read or written (the message says which and why)."""


SMALL_FILE = 64 * 1024
"""The most bytes read of a small data file (the identity key, a match's seed and seat
file): anything larger is not a file this program wrote."""


CHOICES_COMPACT = SMALL_FILE // 2
"""A match's stored choices are a log of records, each the whole set of pending choices: past
this many bytes the next record replaces the file instead of being appended to it."""


KNOWN_KEYS_LIMIT = 1024 * 1024
"""The most bytes of known_keys.json read (some 20 000 names)."""


def default_data_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("cryptcrawl", appauthor=False))


def _make_dir(path: Path, what: str = "the directory") -> None:
    """``mkdir -p``; StoreError (one line, the path named once) if it cannot be made."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError as exc:
        where = ("there is a file of that name" if exc.filename in (None, str(path))
                 else f"{exc.filename} is in the way (not a directory)")
        raise StoreError(f"cannot create {what} {path}: {where}") from None
    except OSError as exc:
        raise StoreError(f"cannot create {what} {path}: {exc.strerror}") from None


def read_small(path: Path, limit: int = SMALL_FILE) -> bytes:
    """A small data file, whole.  Only a regular file of at most ``limit`` bytes is read, and
    it is opened non-blocking (a FIFO there is refused, never waited on for a writer).
    FileNotFoundError passes through (what a missing file means is the caller's to say);
    anything else is a StoreError, one line."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise StoreError(f"cannot read {path}: not a regular file")
        too_big = StoreError(f"cannot read {path}: larger than {limit} bytes, not a file "
                             "this program wrote")
        if info.st_size > limit:
            raise too_big
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise too_big
        return b"".join(chunks)
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror}") from None
    finally:
        os.close(fd)


def _temp_file(path: Path, data: bytes, mode: int, flush: bool = True) -> Path:
    """``data`` in a new file of a name no other writer uses, next to ``path`` (created
    with ``mode``, never readable by more than that; flushed to disk if ``flush``)."""
    for _ in range(100):
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(6)}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        except FileExistsError:
            continue
        except OSError as exc:
            raise StoreError(f"cannot write {path}: {exc.strerror}") from None
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            if flush:
                os.fsync(fd)
        except OSError as exc:
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise StoreError(f"cannot write {path}: {exc.strerror}") from None
        os.close(fd)
        return tmp
    raise StoreError(f"cannot write {path}: no free temporary name next to it")


def _write_atomic(path: Path, data: bytes, mode: int = 0o600, *, flush: bool = True) -> None:
    """Replace ``path`` with ``data`` at once: a reader sees the old file or the new one,
    whole, never a part (a temporary file of its own, then renamed over ``path``).
    ``flush``: the data reaches the disk first (without, a crash of the process still loses
    nothing; one of the system may)."""
    _make_dir(path.parent)
    tmp = _temp_file(path, data, mode, flush)
    try:
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise StoreError(f"cannot write {path}: {exc.strerror}") from None


def _open_append(directory: Path, path: Path, mode: int, *, readable: bool = False) -> int:
    """A descriptor appending to ``path`` (created with ``mode``; ``readable``: read too)."""
    _make_dir(directory)
    try:
        return os.open(path, (os.O_RDWR if readable else os.O_WRONLY) | os.O_CREAT
                       | os.O_APPEND, mode)
    except OSError as exc:
        raise StoreError(f"cannot write {path}: {exc.strerror}") from None


def _write_all(fd: int, path: Path, data: bytes) -> None:
    """``data`` with one ``write(2)``, with no user-space buffer: once it returns, a crash of
    the process (even ``kill -9``) loses nothing."""
    try:
        written = os.write(fd, data)
    except OSError as exc:
        raise StoreError(f"cannot write {path}: {exc.strerror}") from None
    if written != len(data):
        # A short write to a regular file: the disk filled up in the middle of it.
        raise StoreError(f"cannot write {path}: {os.strerror(errno.ENOSPC)}")


def _write_private(path: Path, data: bytes) -> None:
    """Create or replace ``path`` with mode 0600 (never readable by others, even for a
    moment), atomically."""
    _write_atomic(path, data, 0o600)


def _create_private(path: Path, data: bytes) -> bool:
    """Create ``path`` (mode 0600) holding ``data`` — only if there is no file there yet: of
    several runs creating it at once, the first wins and the others find its file (False).
    A reader never sees it half written: it is written whole under another name first, then
    linked to ``path`` (a link fails if ``path`` is there)."""
    _make_dir(path.parent, "the data directory")
    tmp = _temp_file(path, data, 0o600)
    try:
        os.link(tmp, path)
    except FileExistsError:
        return False
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK,
                             errno.ENOSYS):
            raise StoreError(f"cannot write {path}: {exc.strerror}") from None
        return _create_without_link(path, data)  # (a file system without hard links)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    return True


def _create_without_link(path: Path, data: bytes) -> bool:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return False
    except OSError as exc:
        raise StoreError(f"cannot write {path}: {exc.strerror}") from None
    try:
        os.write(fd, data)
        os.fsync(fd)
    except OSError as exc:
        raise StoreError(f"cannot write {path}: {exc.strerror}") from None
    finally:
        os.close(fd)
    return True


def _identity_bytes(path: Path) -> bytes | None:
    """The raw key in ``path``; None if there is no file."""
    try:
        raw = read_small(path)
    except FileNotFoundError:
        return None
    if len(raw) != 32:
        raise StoreError(f"{path} is not an identity key (32 bytes expected, {len(raw)} found)")
    return raw


def load_identity(data_dir: Path, *, create: bool = True) -> Ed25519PrivateKey:
    """The identity key of this data directory (made on first use; of several runs making
    it at once, every one gets the same key: the first one written)."""
    path = data_dir / "identity.key"
    raw = _identity_bytes(path)
    if raw is None:
        if not create:
            raise StoreError(f"no identity in {data_dir} (run `cryptcrawl id`)")
        key = Ed25519PrivateKey.generate()
        if _create_private(path, key.private_bytes(Encoding.Raw, PrivateFormat.Raw,
                                                   NoEncryption())):
            return key
        raw = _identity_bytes(path)  # another run made it first: that key is the identity
        if raw is None:
            raise StoreError(f"cannot read {path}: there is no such file (a link to "
                             "nowhere?)")
    return Ed25519PrivateKey.from_private_bytes(raw)


def import_identity(data_dir: Path, raw: bytes) -> None:
    """Make the 32 bytes ``raw`` the identity key of ``data_dir``: StoreError if it holds
    another one already (it is never replaced), or if it cannot be read or written."""
    path = data_dir / "identity.key"
    if len(raw) != 32:
        raise StoreError("an identity key is 32 raw bytes")
    there = _identity_bytes(path)
    if there is None and _create_private(path, raw):
        return
    if (there if there is not None else _identity_bytes(path)) != raw:
        raise StoreError(f"{path} already holds another identity; move it away first")


def _json_of(raw: bytes, damaged: Callable[[str], StoreError]) -> Any:
    """The JSON value in ``raw``; ``damaged(why)`` is raised if it is not UTF-8 JSON."""
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise damaged("not UTF-8 text") from None
    except ValueError as exc:  # (json.JSONDecodeError)
        raise damaged(f"not JSON: {exc}") from None
    except RecursionError:
        raise damaged("not JSON: nested too deep") from None


@dataclass
class KnownKeys:
    """Fingerprints seen per name: a known name with a new key is flagged in the lobby.

    A damaged file (not JSON, not names to fingerprints, not a regular file) is never
    overwritten — it holds every name remembered so far: making a ``KnownKeys`` fails with
    one line saying so (so a table does not open until it is fixed or removed)."""

    path: Path

    def __post_init__(self) -> None:
        self.load()

    def load(self) -> dict[str, str]:
        """Name -> fingerprint; {} if there is no file yet; StoreError if it is damaged."""
        try:
            raw = read_small(self.path, KNOWN_KEYS_LIMIT)
        except FileNotFoundError:
            return {}
        except StoreError as exc:
            raise StoreError(f"{exc}: fix or remove it") from None
        data = _json_of(raw, self._damaged)
        if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
            raise self._damaged("not a list of names and fingerprints")
        return {str(k): v for k, v in data.items()}

    def _damaged(self, why: str) -> StoreError:
        return StoreError(f"{self.path} is damaged ({why}): fix or remove it")

    def check(self, name: str, fp: str) -> str | None:
        """None if new or unchanged (and remember it); else the fingerprint known before.

        (Called while a table is open: a file damaged since the table opened is left as it
        is, with a warning logged, and the name is not checked.)"""
        try:
            known = self.load()
        except StoreError as exc:
            log.warning("%s", exc)
            return None
        before = known.get(name)
        if before is not None and before != fp:
            return before
        if before is None:
            known[name] = fp
            try:
                _write_atomic(self.path, json.dumps(known, indent=1, sort_keys=True).encode(),
                              0o644)
            except StoreError as exc:
                log.warning("%s", exc)
        return None


class MatchStore:
    """One match's files: the append-only match file, the seed, the seat and addresses."""

    def __init__(self, data_dir: Path, match_id: bytes) -> None:
        self._files(data_dir / "matches", match_id.hex()[:16])

    def _files(self, directory: Path, stem: str) -> None:
        self.dir = directory
        self.path = directory / f"{stem}.crawl"
        self.seed_path = directory / f"{stem}.seed"
        self.info_path = directory / f"{stem}.json"
        self.choices_path = directory / f"{stem}.choices"
        self._fd: int | None = None
        self._choices_fd: int | None = None  # (opened at the first save)
        self._choices_size = 0

    @classmethod
    def of_seed(cls, seed: Path) -> MatchStore:
        """The store whose seed file is ``seed``."""
        store = cls.__new__(cls)
        store._files(seed.parent, seed.stem)
        return store

    # -- creating and opening

    def create(self, header: SignedHeader, seed: bytes, info: dict[str, Any]) -> None:
        """Write the seed (0600) and the file's first two records, before any message."""
        _make_dir(self.dir)
        _write_private(self.seed_path, seed)
        _write_atomic(self.info_path, json.dumps(info, indent=1).encode(), 0o644)
        if not self.path.exists():
            self._append(file_start(header))

    def exists(self) -> bool:
        return self.path.exists()

    def read(self) -> bytes:
        """The match file, whole; a file over :data:`protocol.wire.transcript.MAX_FILE` bytes, or
        one that is not a regular file, is refused without being read (resume reads this)."""
        try:
            # (Non-blocking: opening a FIFO for reading would wait for a writer.)
            fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
            with os.fdopen(fd, "rb") as f:
                info = os.fstat(f.fileno())
                if not stat.S_ISREG(info.st_mode):
                    raise StoreError(f"cannot read {self.path}: not a regular file")
                if info.st_size > MAX_FILE:
                    raise StoreError(f"cannot read {self.path}: larger than "
                                     f"{MAX_FILE // (1024 * 1024)} MiB, not a match file this "
                                     "program wrote")
                return f.read(MAX_FILE + 1)
        except OSError as exc:
            raise StoreError(f"cannot read {self.path}: {exc.strerror}") from None

    def seed(self) -> bytes:
        try:
            seed = read_small(self.seed_path)
        except FileNotFoundError:
            raise StoreError(f"the match seed {self.seed_path} is missing; this match cannot "
                             "be resumed here") from None
        except StoreError as exc:
            raise StoreError(f"{exc}; this match cannot be resumed here") from None
        if len(seed) != 32:
            raise StoreError(f"{self.seed_path} is damaged")
        return seed

    def info(self) -> dict[str, Any]:
        """The seat file (``<id>.json``) as written; StoreError (one line) if it is missing,
        not a regular file, or not a JSON object."""
        try:
            raw = read_small(self.info_path)
        except FileNotFoundError:
            raise StoreError(f"{self.info_path} is missing; this match cannot be "
                             "resumed") from None
        except StoreError as exc:
            raise StoreError(f"{exc}; this match cannot be resumed") from None
        data = _json_of(raw, self._damaged)
        if not isinstance(data, dict):
            raise self._damaged("not a JSON object")
        return data

    def seat_and_addresses(self, seats: int) -> tuple[int, list[tuple[str, int]]]:
        """The seat this peer plays and every seat's ``(host, port)``, from the seat file,
        checked against the match's ``seats``: StoreError (one line) if anything is off."""
        info = self.info()
        seat = info.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise self._damaged("no seat number" if seat is None else "the seat is not a number")
        if not 0 <= seat < seats:
            raise self._damaged(f"seat {seat} of {seats} seats")
        value = info.get("addresses")
        if not isinstance(value, list):
            raise self._damaged("no list of addresses")
        if len(value) != seats:
            raise self._damaged(f"{len(value)} addresses for {seats} seats")
        addresses: list[tuple[str, int]] = []
        for index, entry in enumerate(value):
            if not isinstance(entry, list) or len(entry) != 2:
                raise self._damaged(f"the address of seat {index} is not a [host, port] pair")
            host, port = entry
            if not isinstance(host, str) or (host and not valid_host(host)):
                raise self._damaged(f"the address of seat {index} has no valid host")
            if not valid_port(port):
                raise self._damaged(f"the address of seat {index} has no valid port "
                                    "(1 to 65535)")
            addresses.append((host, port))
        return seat, addresses

    def _damaged(self, why: str) -> StoreError:
        return StoreError(f"{self.info_path} is damaged ({why}); this match cannot be resumed")

    def cut_torn_tail(self) -> int:
        """Cut off a torn last record (a crash in the middle of a write) before appending
        again, so that the next record does not land inside it; returns the bytes cut."""
        data = self.read()
        bad = [(offset, problem) for offset, payload, problem in split_records(data)
               if payload is None]
        if not bad:
            return 0
        end, problem = bad[0]
        if not problem.startswith("torn"):
            raise StoreError(f"{self.path} is damaged at byte {end} ({problem}); "
                             "it cannot be resumed")
        try:
            os.truncate(self.path, end)
        except OSError as exc:
            raise StoreError(f"cannot repair {self.path}: {exc.strerror}") from None
        return len(data) - end

    # -- appending

    def _append(self, data: bytes) -> None:
        if self._fd is None:
            self._fd = _open_append(self.dir, self.path, 0o644)
        _write_all(self._fd, self.path, data)

    def append(self, message: Message) -> None:
        """Persist one message (called before the message is sent to anyone)."""
        self._append(frame(message.encode()))

    def save_choices(self, choices: Mapping[str, str]) -> None:
        """Store this seat's pending choices (step -> action, each committed but not revealed
        yet), readable by its owner only — called before the COMMIT they belong to is
        persisted (protocol.md §8.1).

        As durable as the match file and as cheap to write: one record, the whole set as a
        line of JSON, appended with one ``write(2)`` (a crash of the process loses nothing;
        like the match file it is not fsync'd, network.md §16).  The last whole line is the
        set; a line cut short by a crash of the system is not read.  Past
        :data:`CHOICES_COMPACT` bytes the record replaces the file at once (renamed into place).
        """
        record = json.dumps(dict(choices), sort_keys=True).encode() + b"\n"
        fd, lead = self._choices_fd, b""
        if fd is None:
            fd, cut = self._open_choices()
            if cut:
                lead = b"\n"  # (a record cut short before: end it, unread)
        if self._choices_size + len(lead) + len(record) > CHOICES_COMPACT:
            self._close_choices()
            _write_atomic(self.choices_path, record, 0o600, flush=False)
            return
        _write_all(fd, self.choices_path, lead + record)
        self._choices_size += len(lead) + len(record)

    def _open_choices(self) -> tuple[int, bool]:
        """Open the choices for appending: the descriptor, and whether the file ends inside a
        record."""
        fd = _open_append(self.dir, self.choices_path, 0o600, readable=True)
        try:
            info = os.fstat(fd)
            if info.st_mode & 0o077 and hasattr(os, "fchmod"):
                os.fchmod(fd, 0o600)  # (never readable by others, even if it was made so)
            cut = bool(info.st_size) and (
                os.lseek(fd, -1, os.SEEK_END) < 0 or os.read(fd, 1) != b"\n")
        except OSError as exc:
            os.close(fd)
            raise StoreError(f"cannot write {self.choices_path}: {exc.strerror}") from None
        self._choices_fd, self._choices_size = fd, info.st_size
        return fd, cut

    def choices(self) -> dict[str, str]:
        """The stored pending choices (the last whole record); none if there is no file.  A
        damaged file gives none (the commitments are then reopened by search, where the game
        allows it)."""
        try:
            raw = read_small(self.choices_path)
        except (FileNotFoundError, StoreError):
            return {}
        whole = raw.rsplit(b"\n", 2)  # (what follows the last newline was cut short)
        if len(whole) < 2:
            return {}
        try:
            data = json.loads(whole[-2])
        except ValueError:
            return {}
        if not isinstance(data, dict):
            return {}
        return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}

    def finish(self) -> None:
        """The match is over and every secret revealed: the seed and the stored choices are
        no longer needed."""
        self._close_choices()
        for path in (self.seed_path, self.choices_path):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        self._close_choices()

    def _close_choices(self) -> None:
        if self._choices_fd is not None:
            os.close(self._choices_fd)
            self._choices_fd = None


def unfinished_matches(data_dir: Path) -> list[MatchStore]:
    """Match stores whose seed is still on disk (the match was not finished here), the most
    recently started last."""
    out = []
    seeds = sorted((data_dir / "matches").glob("*.seed"), key=lambda p: (_mtime(p), p.name))
    for seed in seeds:  # oldest first: the last is the most recent
        out.append(MatchStore.of_seed(seed))
    return out


def _mtime(path: Path) -> float:
    """When ``path`` (or, for a link to nowhere, the link) last changed; 0 if unknown."""
    for follow in (True, False):
        try:
            return os.stat(path, follow_symlinks=follow).st_mtime
        except (OSError, ValueError):
            continue
    return 0.0
