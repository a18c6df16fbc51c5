"""A match that ends while its game still owes the openings due at the end (protocol.md §7.7,
§7.11): Dungeon Twister computes its result — a forfeit or an agreed draw included — after them.
After an agreed draw, or at the floor reached early (a RESIGN in the set-up's chance round), the
openings are taken, no digest round is held, each seat's audit OPEN is not stale, and the END
round follows: every copy is signed and verifies.  Before, the core skipped the OPEN (or the
CHANCE_DIGEST) its seat owed as stale, and the seat signed it again without end."""

from __future__ import annotations

from collections import Counter

import pytest
from protocol.mesh import MeshGame, Network
from protocol.verify.verdicts import VALID
from protocol.verify.verifier import verify

from tests.protocol.mechanisms.test_leave import pump_until


@pytest.mark.parametrize("what", ["draw", "resign"])
@pytest.mark.parametrize("after", [1, 2, 3, 5, 8, 13])
def test_the_openings_due_at_the_end_are_taken_and_the_match_signs(what: str,
                                                                    after: int) -> None:
    net = Network(2, MeshGame("twister"), b"twister-ending-%s-%d" % (what.encode(), after))
    for local in net.seats:
        local.answering = lambda offerer, offered: True
    pump_until(net, lambda: len(net.seats[1].sent) >= after)
    if what == "draw":
        net.seats[1].offer("draw")
    else:
        net.seats[1].leave(resign=True)
    net.pump(limit=5000, partial=True)
    for seat in (0, 1):
        sent = Counter(m.kind.name for m in net.seats[seat].sent)
        assert max(sent.values()) < 40, (seat, sent)  # (no message signed again and again)
    core = net.cores[0]
    assert core.signed, core.state.waiting
    v = verify(net.match_file(0))
    assert v.verdict == VALID, v
    if what == "draw":
        assert v.winners == () and "draw" in core.state.waiting.outcome.reason
    else:
        assert v.winners == (0,)
