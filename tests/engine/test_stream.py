"""The sampler sha256-ctr/v1: fixed test vectors (old transcripts must stay verifiable) and
exact uniformity of the rejection sampling."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from engine.core import ChanceEvent, Visibility
from engine.sim import Dealer
from engine.stream import SAMPLER_VERSION, HashStream, derive_key, sample_index, stream_key


def test_version_is_named() -> None:
    assert SAMPLER_VERSION == "sha256-ctr/v1"


def test_vectors() -> None:
    h = HashStream(b"cryptcrawl")
    assert [h.below(6) for _ in range(8)] == [2, 0, 0, 4, 2, 5, 3, 0]
    assert derive_key("a", b"b").hex() == (
        "16275ef0f5d0eb9dd9e0a53277549fda5c886358a6872df23c797b13e11455bc")
    assert stream_key("ab", b"") == b"\x00\x00\x00\x02ab\x00\x00\x00\x00"
    levels = ChanceEvent("L1.level", tuple(f"L{i}" for i in range(1, 8)), Visibility.PUBLIC)
    assert Dealer(b"seed").choose(levels) == "L4"


def test_definition_first_word() -> None:
    key = b"k" * 40
    word = int.from_bytes(hashlib.sha256(key + bytes(8)).digest()[:8], "big")
    for n in (1, 2, 3, 7, 30, 255):
        assert sample_index(key, n) == HashStream(key).below(n) == word % n


def test_rejection_is_applied() -> None:
    # With n = 2**63 + 1 the limit is 2**63 + 1: about half of all words are rejected, so some
    # key among the first few rejects its first word; sample_index must agree with the stream.
    n = 2**63 + 1
    limit = 2**64 - (2**64 % n)
    rejected = 0
    for i in range(64):
        key = str(i).encode()
        first = int.from_bytes(hashlib.sha256(key + bytes(8)).digest()[:8], "big")
        value = sample_index(key, n)
        assert value == HashStream(key).below(n)
        if first >= limit:  # the first word is rejected: the second one decides
            rejected += 1
            second = int.from_bytes(hashlib.sha256(key + bytes(8)).digest()[8:16], "big")
            if second < limit:
                assert value == second % n
    assert rejected > 0


def test_uniform_small_n() -> None:
    stream = HashStream(b"u")
    counts = Counter(stream.below(5) for _ in range(20000))
    assert set(counts) == set(range(5))
    for c in counts.values():
        assert 3600 < c < 4400


def test_below_rejects_empty() -> None:
    with pytest.raises(ValueError):
        HashStream(b"x").below(0)
    with pytest.raises(ValueError):
        sample_index(b"x", 0)
