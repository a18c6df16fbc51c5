"""The Dungeon Raiders matches the protocol benchmarks (and the tests that share their scenarios)
play on :mod:`protocol.mesh`'s in-memory mesh."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.core import GameState, Simultaneous, Turn
from engine.games import get_game
from engine.sim import Dealer, _serve_knowledge
from engine.stream import stream_key
from protocol.mesh import MeshGame, Network, make_header
from protocol.wire.header import SignedHeader

RAIDERS = MeshGame("raiders", (("variant", "basic"),))
TACTICAL = MeshGame("raiders", (("variant", "tactical"),))


def raiders(variant: str = "basic") -> MeshGame:
    return MeshGame("raiders", (("variant", variant),))


def raiders_network(n: int, variant: str = "basic", tag: bytes = b"", deciders: Any = None, *,
                    rebuild: bool = False) -> Network:
    """A mesh of ``n`` peers playing Dungeon Raiders (``variant``)."""
    return Network(n, raiders(variant), tag, deciders, rebuild=rebuild)


def raiders_header(n: int, variant: str = "basic", tag: bytes = b"") -> tuple[
        SignedHeader, list[Ed25519PrivateKey]]:
    return make_header(n, raiders(variant), tag)


Decide = Callable[[GameState[Any], int, bytes], Any]  # (state, seat, key) -> its action


def play_step(state: GameState[Any], waiting: Simultaneous | Turn, prefixes: Sequence[bytes],
              decide: Decide, dealer: Dealer) -> GameState[Any]:
    """engine.sim.play_out's step, one seat at a time (so the last to decide sees the others'
    plays applied): each seat waited for decides with the key of its stream (``prefixes``, a
    seat's), the step and its attempt, until it takes an action that is not free; what a seat
    asks to learn is answered from ``dealer``."""
    free = get_game(state.game).free_action
    step_key = stream_key(waiting.step)
    for seat in sorted(waiting.pending):
        attempt = 0
        while True:
            action = decide(state, seat, prefixes[seat] + step_key + bytes((seat, attempt & 0xFF)))
            is_free = free(state, seat, action)
            state = state.apply(seat, action)
            if state.knowledge_requests():
                state = _serve_knowledge(state, dealer, None)
            if not is_free:
                break
            attempt += 1
    return state
