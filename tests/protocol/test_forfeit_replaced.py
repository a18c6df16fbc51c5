"""Forfeit instead of a zombie (version 2, protocol.md §7.7): in a game that declares it
(``GameSpec.replaced == "forfeit"`` — Dungeon Twister: no zombie could open a replaced seat's
hidden tokens), a replaced seat forfeits at its first decision since, for good, and the others
play on while two seats are live."""

from __future__ import annotations

import pytest
from protocol.mesh import MeshGame, Network
from protocol.verify.verdicts import VALID
from protocol.verify.verifier import verify
from protocol.wire.messages import Kind

from tests.protocol import duel
from tests.protocol.mechanisms.test_leave import whole
from tests.vectors.making import silence


def forfeit_network(tag: bytes) -> Network:
    return Network(3, MeshGame(duel.FORFEIT_GAME, ()), tag)


@pytest.mark.parametrize("seed", range(3))
def test_a_silent_seat_forfeits_at_its_next_decision_and_the_others_play_on(seed: int) -> None:
    net = forfeit_network(b"forfeit-replaced")
    silence(net, 2, lambda m: m.kind is Kind.COMMIT)
    net.run_with_timeouts(scramble=None if seed == 0 else b"f%d" % seed)
    for peer in (0, 1):
        core = net.cores[peer]
        assert core.signed and isinstance(core.state, duel.ForfeitDuel)
        assert core.state.out == frozenset({2}) and core.state.stage == 5, core.state
        assert "2:forfeit" in core.state.record
        assert core.absent[2].final, core.absent  # (out of the game: it never reclaims)
        v = verify(net.match_file(peer))
        assert (v.verdict, v.blamed) == (VALID, ()), v
        assert any(n.startswith("seat 2 forfeited where it was to decide") for n in v.notes)
    assert net.cores[0].public_digest() == net.cores[1].public_digest()
    assert whole(net, 0).public_digest() == net.cores[0].public_digest()


def test_a_zombie_game_keeps_its_zombie() -> None:
    net = Network(3, MeshGame(duel.GAME, (("forfeit", True),)), b"forfeit-zombie")
    silence(net, 2, lambda m: m.kind is Kind.COMMIT)
    net.run_with_timeouts()
    core = net.cores[0]
    assert core.signed and isinstance(core.state, duel.Duel) and core.state.out == frozenset()
    assert verify(net.match_file(0)).verdict == VALID
