"""The wire: what a peer signs, sends and writes (protocol.md §2–§5).

:mod:`~protocol.wire.encoding` (canonical msgpack), :mod:`~protocol.wire.messages` (the signed
envelope and its kinds), :mod:`~protocol.wire.bodies` and :mod:`~protocol.wire.parsing` (each
kind's body and each version's parser), :mod:`~protocol.wire.header` (the match header and id),
:mod:`~protocol.wire.feed` (one sender's hash chain), :mod:`~protocol.wire.delivery` (secrets
sealed to one seat), :mod:`~protocol.wire.naming` and :mod:`~protocol.wire.v1_names` (the names
each version gives on the wire), :mod:`~protocol.wire.transcript` (the match file).
"""
