"""``MatchStore.read`` (what ``resume`` reads) refuses a match file it would not read whole:
over ``MAX_FILE`` bytes, or not a regular file — with one line, before reading it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from protocol.wire.transcript import MAX_FILE

from p2p.store import MatchStore, StoreError

MATCH_ID = bytes(range(32))


def store_at(tmp_path: Path) -> MatchStore:
    store = MatchStore(tmp_path, MATCH_ID)
    store.dir.mkdir(parents=True)
    return store


def test_a_match_file_over_the_limit_is_refused_unread(tmp_path: Path) -> None:
    store = store_at(tmp_path)
    with store.path.open("wb") as f:
        f.truncate(MAX_FILE + 1)  # (sparse: nothing is written)
    with pytest.raises(StoreError, match=r"larger than 64 MiB, not a match file") as info:
        store.read()
    assert "\n" not in str(info.value)


def test_a_match_file_at_the_limit_is_read(tmp_path: Path) -> None:
    store = store_at(tmp_path)
    store.path.write_bytes(b"x" * 1000)
    assert store.read() == b"x" * 1000


def test_a_match_path_that_is_not_a_regular_file_is_refused(tmp_path: Path) -> None:
    store = store_at(tmp_path)
    os.mkfifo(store.path)
    with pytest.raises(StoreError, match="not a regular file"):
        store.read()
