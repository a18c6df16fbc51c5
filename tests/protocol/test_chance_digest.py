"""A seat that signs another CHANCE_DIGEST than the commitments give (protocol.md §7.2): its
digest round waits, as a reveal of another commitment set does, and its seat is owed — timed,
voted absent and replaced — so the match goes on.  (Before, nobody was owed and the match
stalled for good.)"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import protocol.match.seat as seat_module
import pytest
from protocol.verify.verifier import verify
from protocol.wire.messages import ChanceDigestBody, Kind

from benchmarks.scenario import raiders_network


@pytest.fixture
def junk_digests(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Seat 0 signs a digest of zeros from its second digest round on (the list counts them)."""
    body = seat_module.LocalSeat._body
    lies: list[int] = []

    def lying(self: Any, expected: Any) -> Any:
        made = body(self, expected)
        if (self.seat == 0 and made is not None and made[0] is Kind.CHANCE_DIGEST
                and self.core.chance.digest_rounds >= 1):
            lies.append(made[1].stage)
            return made[0], ChanceDigestBody(made[1].stage, bytes(32))
        return made

    monkeypatch.setattr(seat_module.LocalSeat, "_body", lying)
    yield lies


def test_a_seat_signing_a_wrong_chance_digest_is_owed_and_replaced(
        junk_digests: list[int]) -> None:
    net = raiders_network(3, tag=b"jd")
    net.run_with_timeouts(limit=10)
    assert junk_digests, "seat 0 signed no wrong digest"
    for seat in (1, 2):
        core = net.cores[seat]
        assert core.ending.signed
        assert list(core.seats.absent) == [0]
        verdict = verify(net.match_file(seat))
        assert verdict.verdict == "valid", verdict.reason
        assert any("seat 0 was replaced" in note for note in verdict.notes), verdict.notes
