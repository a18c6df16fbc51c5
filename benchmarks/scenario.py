"""The Dungeon Raiders matches the protocol benchmarks (and the tests that share their scenarios)
play on :mod:`protocol.mesh`'s in-memory mesh."""

from __future__ import annotations

from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
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
