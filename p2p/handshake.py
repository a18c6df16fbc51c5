"""The mesh handshake (network.md §3): HELLO both ways, then each side proves its seat's key by
signing the other's challenge.  A spectator answers the seat's HELLO with WATCH instead
(:class:`Watching`: the connection goes to :mod:`p2p.watchers`)."""

from __future__ import annotations

import asyncio
import os

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2p.links import read_frame
from p2p.wire import LINK_VERSION, Frame, FrameKind, handshake_payload
from protocol.crypto import ed25519_valid
from protocol.errors import BadMessage


class Watching(Exception):
    """The other side is a spectator: its WATCH frame."""

    def __init__(self, frame: Frame) -> None:
        super().__init__("a spectator")
        self.frame = frame


async def handshake(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *,
                    match_id: bytes, seat: int, keys: tuple[bytes, ...],
                    key: Ed25519PrivateKey, expect: int | None) -> int:
    """Exchange HELLO and PROOF as ``seat``; returns the authenticated seat of the other side
    (``expect``: the seat dialled, None for a connection accepted).  BadMessage for anything
    wrong; :class:`Watching` for a spectator."""
    challenge = os.urandom(32)
    mine = keys[seat]
    writer.write(Frame(FrameKind.HELLO, (LINK_VERSION, match_id, seat, mine,
                                         challenge)).encode())
    hello = await read_frame(reader)
    if hello.kind is FrameKind.WATCH and expect is None:
        raise Watching(hello)
    if hello.kind is not FrameKind.HELLO:
        raise BadMessage("the connection did not start with HELLO")
    version, their_match, other, their_key, their_challenge = hello.fields
    if version != LINK_VERSION:
        raise BadMessage(f"link version {version}, this peer speaks {LINK_VERSION}")
    if their_match != match_id:
        raise BadMessage("a connection for another match")
    if not 0 <= other < len(keys) or other == seat or their_key != keys[other]:
        raise BadMessage(f"an unknown key for seat {other}")
    if expect is not None and other != expect:
        raise BadMessage(f"expected seat {expect}, got seat {other}")
    if expect is None and other > seat:
        # Only a lower seat dials a higher one.  Refusing the other direction is what keeps
        # a third seat from sitting between two others: it would have to claim to one of
        # them, on a connection it accepts, to be a higher seat.
        raise BadMessage(f"seat {other} is higher than this seat: this seat dials it")
    proof = key.sign(handshake_payload(match_id, their_challenge, mine, their_key))
    writer.write(Frame(FrameKind.PROOF, (proof,)).encode())
    answer = await read_frame(reader)
    if answer.kind is not FrameKind.PROOF:
        raise BadMessage("no PROOF after HELLO")
    proof = answer.fields[0]
    if not (isinstance(proof, bytes) and isinstance(their_key, bytes) and ed25519_valid(
            their_key, proof, handshake_payload(match_id, challenge, their_key, mine))):
        raise BadMessage(f"seat {other} did not prove its key")
    return int(other)
