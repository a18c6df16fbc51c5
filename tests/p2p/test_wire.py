"""Link frames, pure: the frame splitter a connection reads through, and the MSG fast path of
``parse_frame`` (it must accept exactly what the general decoder accepts)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2p.wire import MAX_FRAME, Frame, FrameKind, FrameSplitter, _msg_frame, parse_frame
from protocol.errors import BadMessage
from protocol.wire.encoding import decode
from tests.tiers import examples


def _frames() -> list[bytes]:
    return [Frame(FrameKind.MSG, (bytes([i]) * size,)).encode()
            for i, size in enumerate((0, 1, 255, 256, 300, 4000))] + [
        Frame(FrameKind.WANT, (2, 17)).encode(), Frame(FrameKind.BYE, ("done",)).encode()]


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=64), min_size=1, max_size=40))
def test_splitter_gives_every_frame_whole_however_the_stream_is_cut(cuts: list[int]) -> None:
    stream = b"".join(_frames())
    splitter = FrameSplitter()
    got: list[bytes] = []
    at, i = 0, 0
    while at < len(stream):
        step = cuts[i % len(cuts)]
        got.extend(splitter.feed(stream[at:at + step]))
        at, i = at + step, i + 1
    assert got == [frame[4:] for frame in _frames()]
    assert splitter.pending == 0


def test_splitter_refuses_an_oversized_length_at_once() -> None:
    splitter = FrameSplitter()
    assert splitter.feed(Frame(FrameKind.BYE, ("x",)).encode()[:3]) == []
    with pytest.raises(BadMessage, match="over the"):
        FrameSplitter().feed((MAX_FRAME + 1).to_bytes(4, "big") + b"\x00")
    assert splitter.pending == 3  # what it holds is never more than one frame's start


@pytest.mark.parametrize("size", [0, 1, 100, 255, 256, 257, 1000, 60000])
def test_msg_fast_path_agrees_with_the_decoder(size: int) -> None:
    payload = Frame(FrameKind.MSG, (bytes(range(256)) * (size // 256) + bytes(size % 256),)
                    ).encode()[4:]
    fast = _msg_frame(payload)
    assert fast is not None and fast == parse_frame(payload)
    assert decode(payload) == (FrameKind.MSG, fast.fields[0])


@pytest.mark.parametrize("payload", [
    b"\x92\x03\xc5\x00\x05hello",  # bin 16 for 5 bytes: not canonical
    b"\x92\x03\xc4\x06hello",  # a length that does not match
    b"\x92\x03\xc4\x04hello",  # trailing bytes
    b"\x92\x03\xa5hello",  # a string, not bytes
    b"\x93\x03\xc4\x05hello\x00",  # three fields
])
def test_msg_fast_path_leaves_anything_else_to_the_decoder(payload: bytes) -> None:
    assert _msg_frame(payload) is None
    with pytest.raises(BadMessage):
        parse_frame(payload)
