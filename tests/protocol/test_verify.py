"""The verifier over whole match files written by in-memory peers: valid, tampered (flip a
byte, drop, reorder, truncate), cheating seats named, and unfinished matches incomplete."""

from __future__ import annotations

from typing import Any

import pytest
from protocol.mesh import Network
from protocol.verify.verifier import INCOMPLETE, INVALID, UNREADABLE, VALID, verify
from protocol.wire.messages import Kind
from protocol.wire.transcript import file_start, frame

from benchmarks.scenario import raiders_header, raiders_network
from tests.protocol.match.test_match import rewrite_reveal_action


def match_file(net: Network, order: list | None = None) -> bytes:
    msgs = net.log if order is None else order
    return file_start(net.header) + b"".join(frame(m.encode()) for m in msgs)


@pytest.fixture(scope="module")
def finished() -> Network:
    net = raiders_network(3, tag=b"verify")
    net.pump()
    return net


def test_valid_match(finished: Network) -> None:
    verdict = verify(match_file(finished))
    assert verdict.verdict == VALID, verdict
    assert verdict.final_digest == finished.cores[0].public_digest()
    assert verdict.messages == len(finished.log)


def test_any_interleaving_of_feeds_verifies(finished: Network) -> None:
    by_seat = sorted(finished.log, key=lambda m: (m.seat, m.seq))
    assert verify(match_file(finished, by_seat)).verdict == VALID


def test_truncated_file_is_incomplete(finished: Network) -> None:
    data = match_file(finished)
    verdict = verify(data[:-7])
    assert verdict.verdict == INCOMPLETE
    assert "torn" in verdict.reason


def test_unfinished_match_is_incomplete() -> None:
    net = raiders_network(3, tag=b"half")
    net.pump(limit=100, partial=True)
    verdict = verify(match_file(net))
    assert verdict.verdict == INCOMPLETE and "stops before its end" in verdict.reason


def test_dropped_message_is_incomplete_and_says_which(finished: Network) -> None:
    dropped = [m for m in finished.log if not (m.seat == 2 and m.seq == 5)]
    verdict = verify(match_file(finished, dropped))
    assert verdict.verdict == INCOMPLETE
    assert "seat 2 messages 5..5" in verdict.reason


def test_flipped_byte_is_invalid_with_its_record(finished: Network) -> None:
    data = bytearray(match_file(finished))
    start = len(file_start(finished.header))
    record = frame(finished.log[10].encode())
    offset = start + sum(len(frame(m.encode())) for m in finished.log[:10])
    assert data[offset:offset + len(record)] == record
    data[offset + len(record) - 3] ^= 0x20  # inside the signature
    verdict = verify(bytes(data))
    assert (verdict.verdict, verdict.reason_code) == (INVALID, "bad_signature")
    # Damage, not the seat's signed act: nobody is blamed (anyone can flip a byte of an honest
    # seat's message); the reason says whose message it is.
    assert verdict.record == 12 and verdict.blamed == ()
    assert f"seat {finished.log[10].seat}'s message" in verdict.reason


def test_cheating_reveal_is_invalid_naming_the_seat() -> None:
    net = raiders_network(3, tag=b"verify-cheat")
    rewrite_reveal_action(net, 2, "play 5")
    net.pump()
    verdict = verify(match_file(net))
    assert verdict.verdict == INVALID and verdict.blamed == (2,)
    assert "does not open its commitment" in verdict.reason
    assert verdict.record is not None and verdict.record >= 2


def test_not_a_match_file_is_unreadable() -> None:
    for data in (b"hello world", b""):
        verdict = verify(data)
        assert (verdict.verdict, verdict.reason_code, verdict.blamed) == (
            UNREADABLE, "not_a_match_file", ())
        assert verdict.exit_code == 3


def test_missing_final_signature_is_incomplete(finished: Network) -> None:
    without = [m for m in finished.log if not (m.seat == 1 and m.kind is Kind.END)]
    verdict = verify(match_file(finished, without))
    assert verdict.verdict == INCOMPLETE
    assert "not every seat signed the result (missing: seat 1)" in verdict.reason


def test_a_match_this_program_cannot_play_is_a_verdict_not_a_crash() -> None:
    import dataclasses

    from protocol.wire.header import SignedHeader, sign_header
    from protocol.wire.transcript import file_start

    signed, keys = raiders_header(3)
    header = dataclasses.replace(signed.header, engine="raiders/99")
    resigned = SignedHeader(header, tuple(sign_header(k, header) for k in keys))
    verdict = verify(file_start(resigned))
    assert verdict.verdict == "invalid"
    assert "cannot check this match" in verdict.reason and "raiders/99" in verdict.reason


@pytest.mark.parametrize(("options", "reason"), [
    ((("players", 3), ("zzz", 1)), "no option 'zzz' (it has players, variant)"),
    ((("players", 5),), "the header's options say 5 players, but it has 3 seats"),
])
def test_options_the_game_cannot_take_are_named_in_the_verdict(options: Any,
                                                                reason: str) -> None:
    """Found by exploratory testing: an unknown option gave Python's own wording ("new_game()
    got an unexpected keyword argument"), and a header of 3 seats saying 5 players was
    "incomplete" rather than invalid."""
    import dataclasses

    from protocol.wire.header import SignedHeader, sign_header
    from protocol.wire.transcript import file_start

    signed, keys = raiders_header(3)
    header = dataclasses.replace(signed.header, options=options)
    resigned = SignedHeader(header, tuple(sign_header(k, header) for k in keys))
    verdict = verify(file_start(resigned))
    assert verdict.verdict == "invalid"
    assert "cannot check this match" in verdict.reason and reason in verdict.reason, verdict
