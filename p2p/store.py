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
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
)

from protocol.header import SignedHeader
from protocol.messages import Message
from protocol.transcript import MAX_FILE, file_start, frame, split_records


class StoreError(Exception):
    """A file could not be read or written (the message says which and why)."""


def default_data_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("cryptcrawl", appauthor=False))


def _write_private(path: Path, data: bytes) -> None:
    """Create ``path`` with mode 0600 (never readable by others, even for a moment)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def load_identity(data_dir: Path, *, create: bool = True) -> Ed25519PrivateKey:
    """The identity key of this data directory (made on first use)."""
    path = data_dir / "identity.key"
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        if not create:
            raise StoreError(f"no identity in {data_dir} (run `cryptcrawl id`)") from None
        key = Ed25519PrivateKey.generate()
        _write_private(path, key.private_bytes(Encoding.Raw, PrivateFormat.Raw,
                                               NoEncryption()))
        return key
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror}") from None
    if len(raw) != 32:
        raise StoreError(f"{path} is not an identity key (32 bytes expected, {len(raw)} found)")
    return Ed25519PrivateKey.from_private_bytes(raw)


@dataclass
class KnownKeys:
    """Fingerprints seen per name: a known name with a new key is flagged in the lobby."""

    path: Path

    def load(self) -> dict[str, str]:
        try:
            data = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return {}
        return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}

    def check(self, name: str, fp: str) -> str | None:
        """None if new or unchanged (and remember it); else the fingerprint known before."""
        known = self.load()
        before = known.get(name)
        if before is not None and before != fp:
            return before
        if before is None:
            known[name] = fp
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps(known, indent=1, sort_keys=True))
        return None


class MatchStore:
    """One match's files: the append-only match file, the seed, the seat and addresses."""

    def __init__(self, data_dir: Path, match_id: bytes) -> None:
        self.dir = data_dir / "matches"
        stem = match_id.hex()[:16]
        self.path = self.dir / f"{stem}.crawl"
        self.seed_path = self.dir / f"{stem}.seed"
        self.info_path = self.dir / f"{stem}.json"
        self._fd: int | None = None

    # -- creating and opening

    def create(self, header: SignedHeader, seed: bytes, info: dict[str, Any]) -> None:
        """Write the seed (0600) and the file's first two records, before any message."""
        self.dir.mkdir(parents=True, exist_ok=True)
        _write_private(self.seed_path, seed)
        self.info_path.write_text(json.dumps(info, indent=1))
        if not self.path.exists():
            self._append(file_start(header))

    def exists(self) -> bool:
        return self.path.exists()

    def read(self) -> bytes:
        """The match file, whole; a file over :data:`protocol.transcript.MAX_FILE` bytes, or
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
            seed = self.seed_path.read_bytes()
        except OSError as exc:
            raise StoreError(f"cannot read the match seed {self.seed_path}: {exc.strerror}; "
                             "this match cannot be resumed here") from None
        if len(seed) != 32:
            raise StoreError(f"{self.seed_path} is damaged")
        return seed

    def info(self) -> dict[str, Any]:
        try:
            data = json.loads(self.info_path.read_text())
        except (OSError, ValueError) as exc:
            raise StoreError(f"cannot read {self.info_path}: {exc}") from None
        if not isinstance(data, dict):
            raise StoreError(f"{self.info_path} is damaged")
        return data

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
            self.dir.mkdir(parents=True, exist_ok=True)
            self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            written = os.write(self._fd, data)  # straight to the kernel: survives a kill -9
        except OSError as exc:
            raise StoreError(f"cannot write {self.path}: {exc.strerror}") from None
        if written != len(data):
            # A short write to a regular file: the disk filled up in the middle of it.
            raise StoreError(f"cannot write {self.path}: {os.strerror(errno.ENOSPC)}")

    def append(self, message: Message) -> None:
        """Persist one message (called before the message is sent to anyone)."""
        self._append(frame(message.encode()))

    def finish(self) -> None:
        """The match is over and every secret revealed: the seed is no longer needed."""
        with contextlib.suppress(FileNotFoundError):
            self.seed_path.unlink()

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def unfinished_matches(data_dir: Path) -> list[MatchStore]:
    """Match stores whose seed is still on disk (the match was not finished here), the most
    recently started last."""
    out = []
    seeds = sorted((data_dir / "matches").glob("*.seed"), key=lambda p: p.stat().st_mtime)
    for seed in seeds:  # oldest first: the last is the most recent
        store = MatchStore.__new__(MatchStore)
        store.dir = seed.parent
        store.path = seed.with_suffix(".crawl")
        store.seed_path = seed
        store.info_path = seed.with_suffix(".json")
        store._fd = None
        out.append(store)
    return out
