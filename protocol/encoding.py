"""Canonical encoding: msgpack of positional arrays, and nothing else.

Allowed values: ``None``, ``bool``, ``int`` (-2**63 .. 2**64 - 1), ``str`` (UTF-8), ``bytes``
(msgpack bin) and ``tuple``/``list`` of allowed values (msgpack array; decoded as ``tuple``).
No maps, no floats, no extension types.  Every value has exactly one encoding — msgpack's
smallest form — and :func:`decode` accepts only that form: it decodes, checks every value, and
re-encodes, and the bytes must be identical.  So two peers that agree on a value agree on its
bytes, which is what signatures and hashes are computed over.

Limits: a frame is at most :data:`MAX_FRAME` bytes (64 KiB), nesting at most
:data:`MAX_DEPTH` arrays deep.  Anything else raises :class:`~protocol.errors.BadMessage`
(one error type for all bad input).
"""

from __future__ import annotations

from typing import Any, Final

import msgpack  # type: ignore[import-untyped]

from protocol.errors import BadMessage

MAX_FRAME: Final = 64 * 1024
MAX_DEPTH: Final = 8

Value = Any  # None | bool | int | str | bytes | tuple[Value, ...]

_INT_MIN: Final = -(2**63)
_INT_MAX: Final = 2**64 - 1


def _check(value: object, depth: int) -> None:
    if value is None or isinstance(value, bool | str | bytes):
        return
    if isinstance(value, int):
        if not _INT_MIN <= value <= _INT_MAX:
            raise BadMessage(f"integer out of range: {value}")
        return
    if isinstance(value, tuple | list):
        if depth >= MAX_DEPTH:
            raise BadMessage(f"arrays nested deeper than {MAX_DEPTH}")
        for item in value:
            _check(item, depth + 1)
        return
    raise BadMessage(f"{type(value).__name__} values are not allowed (arrays of "
                     "nil, bool, int, str and bytes only)")


def encode(value: Value) -> bytes:
    """The canonical bytes of ``value``; raises BadMessage for values outside the model."""
    _check(value, 0)
    data: bytes = msgpack.packb(value, use_bin_type=True)
    if len(data) > MAX_FRAME:
        raise BadMessage(f"encoded value is {len(data)} bytes, over the {MAX_FRAME}-byte cap")
    return data


def encode_checked(value: Value) -> bytes:
    """:func:`encode` for a value whose every part the caller has already checked against the
    model (a :class:`~protocol.wire.messages.Message`, validated field by field on construction):
    the same bytes, without checking it all again."""
    try:
        data: bytes = msgpack.packb(value, use_bin_type=True)
    except (TypeError, ValueError, OverflowError) as exc:
        raise BadMessage(f"cannot encode the value: {exc}") from None
    if len(data) > MAX_FRAME:
        raise BadMessage(f"encoded value is {len(data)} bytes, over the {MAX_FRAME}-byte cap")
    return data


def decode(data: bytes, *, max_size: int = MAX_FRAME) -> Value:
    """Decode canonical bytes; raise BadMessage for anything else (never another error)."""
    data = _frame_bytes(data, max_size)
    value = _unpack(data, max_size)
    try:
        _check_decoded(value, 0)
    except RecursionError:
        raise BadMessage("arrays nested too deep") from None
    _check_canonical(value, data)
    return value


def decode_unchecked(data: bytes, *, max_size: int = MAX_FRAME) -> Value:
    """:func:`decode` without walking the value for types outside the model: for a caller that
    checks every part of it itself (a :class:`~protocol.wire.messages.Message` checks each field's
    type and the body's, so a float or a map anywhere is refused there).  The bytes must
    still be the canonical encoding of the value; anything else raises BadMessage."""
    data = _frame_bytes(data, max_size)
    value = _unpack(data, max_size)
    _check_canonical(value, data)
    return value


def _frame_bytes(data: bytes, max_size: int) -> bytes:
    if not isinstance(data, bytes | bytearray | memoryview):
        raise BadMessage(f"a frame is bytes, not {type(data).__name__}")
    data = bytes(data)
    if len(data) > max_size:
        raise BadMessage(f"frame of {len(data)} bytes is over the {max_size}-byte cap")
    if not data:
        raise BadMessage("empty frame")
    return data


def _unpack(data: bytes, max_size: int) -> Value:
    try:
        return msgpack.unpackb(
            data, raw=False, use_list=False, strict_map_key=True,
            max_str_len=max_size, max_bin_len=max_size,
            max_array_len=max_size, max_map_len=0, max_ext_len=0,
        )
    except Exception as exc:  # msgpack may raise others on hostile input; never let them out
        raise BadMessage(f"malformed frame: {_plain(exc)}") from None


def _plain(exc: Exception) -> str:
    """What msgpack's error means, in words (people read these; exception names say nothing)."""
    if isinstance(exc, msgpack.ExtraData):
        return "trailing bytes after the message"
    if isinstance(exc, UnicodeDecodeError):
        return "text that is not UTF-8"
    if isinstance(exc, msgpack.StackError | RecursionError):
        return "arrays nested too deep"
    if isinstance(exc, msgpack.FormatError):
        return "a byte that starts no value"
    text = str(exc)
    if isinstance(exc, ValueError) and "incomplete input" in text:
        return "a value cut short"
    if isinstance(exc, ValueError) and "max_map_len" in text:
        return "a map (not allowed)"
    if isinstance(exc, ValueError) and "max_ext_len" in text:
        return "an extension type (not allowed)"
    if isinstance(exc, ValueError) and "exceeds" in text:
        return "a length over the cap"
    if isinstance(exc, ValueError | OverflowError):
        return "a value out of range"
    if isinstance(exc, TypeError):
        return "a value of a type that is not allowed"
    return "bytes that cannot be read"


def _check_canonical(value: Value, data: bytes) -> None:
    try:
        canonical = msgpack.packb(value, use_bin_type=True)
    except Exception:  # (a value msgpack read but cannot write back: not canonical)
        raise BadMessage("malformed frame: a value that cannot be written back") from None
    if canonical != data:
        raise BadMessage("not the canonical encoding of its value")


def _check_decoded(value: object, depth: int) -> None:
    """One pass over a decoded value (arrays come back as tuples): only nil, bool, int, str,
    bytes and arrays, nested at most MAX_DEPTH deep."""
    if value is None or isinstance(value, bool | str | bytes | int):
        return
    if isinstance(value, tuple):
        if depth >= MAX_DEPTH:
            raise BadMessage(f"arrays nested deeper than {MAX_DEPTH}")
        for item in value:
            if not isinstance(item, str | bytes | int) or isinstance(item, bool):
                _check_decoded(item, depth + 1)
        return
    if isinstance(value, float):
        raise BadMessage("floats are not allowed")
    if isinstance(value, dict):
        raise BadMessage("maps are not allowed")
    raise BadMessage(f"{type(value).__name__} values are not allowed")


