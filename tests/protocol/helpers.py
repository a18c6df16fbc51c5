"""Helpers shared by the protocol tests: in-memory match files, seats that decide last, and
seats that lie about their sealed values, their pool secrets and their deck steps."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from protocol.match.core import DecisionPending, LocalSeat
from protocol.mesh import Network
from protocol.wire.messages import CommitBody, Message, OpenBody, RevealBody

from protocol.crypto import sealed_commitment
from protocol.deck import DeckBody, DeckMessageBody, SharesBody, ShuffleBody
from protocol.deck import OpenBody as DeckOpenBody
from protocol.deck.group import add, base_mul


def match_file(net: Network, peer: int) -> bytes:
    """What ``peer``'s match file would hold: the header and every feed it took."""
    return net.match_file(peer)


def patient(net: Network, seat: int) -> None:
    """``seat`` decides last: not before it holds every other live decider's commitment (as
    a person who takes longer than the others, or a bot that read its input first)."""
    local, core = net.seats[seat], net.cores[seat]
    decide = local.decide

    def wait_for_the_others(state: Any, s: int) -> str:
        step = core.step
        others = (set(step.seats) - set(core.absent) - {s}) if step is not None else set()
        if step is None or not others <= set(step.commitments):
            raise DecisionPending
        return decide(state, s)
    local.decide = wait_for_the_others


def direct_reveals(messages: list[Message] | tuple[Message, ...]) -> list[Message]:
    """The REVEALs of a feed that no COMMIT of their step precedes."""
    committed = {m.content.step for m in messages if isinstance(m.content, CommitBody)}
    return [m for m in messages
            if isinstance(m.content, RevealBody) and m.content.step not in committed]


Lie = Callable[[str, str], str]  # (slot, the value sealed) -> the value a cheat signs instead


def opening_lies(local: LocalSeat, lie: Lie) -> None:
    """``local``'s peer opens ``lie(slot, value)`` in place of each sealed value it opens (its
    commitments stay honest): what a modified client would sign."""
    original = local._open_body

    def opening(w: object) -> OpenBody | None:
        body = original(w)
        return None if body is None else OpenBody(tuple(
            (slot, lie(slot, value), salt) for slot, value, salt in body.values))
    local._open_body = opening  # type: ignore[method-assign]


def sealing_lies(local: LocalSeat, lie: Lie) -> None:
    """``local``'s peer commits to ``lie(slot, value)`` in place of each value it seals, and
    opens it so (its commitments open; the rules may still refuse the values)."""
    core = local.core

    def commitments(slots: tuple[str, ...]) -> tuple[tuple[str, bytes], ...]:
        return tuple((slot, sealed_commitment(core.match_id, slot, core.keys[local.seat],
                                              lie(slot, local.sealed_values[slot]),
                                              local.secrets.sealed_salt(slot)))
                     for slot in slots)
    local._commitments = commitments  # type: ignore[method-assign]
    opening_lies(local, lie)


def pool_lies(local: LocalSeat, how: str) -> None:
    """``local``'s peer puts a false pool secret in its turn actions (protocol.md §7.12):
    ``wrong-secret`` (32 zero bytes for the right slot), ``wrong-slot`` (its secret for
    ``pool.99``) or ``no-die`` (its secret for the next slot with an action that poses no die)."""
    original = local._pool_secret

    def pool(action: Any) -> tuple[str, bytes] | None:
        found = original(action)
        if how == "wrong-secret" and found is not None:
            return found[0], bytes(32)
        if how == "wrong-slot" and found is not None:
            return "pool.99", local.secrets.chance_secret("pool.99")
        if how == "no-die" and found is None:
            slot = f"pool.{local.core.chance.pool_used}"
            return slot, local.secrets.chance_secret(slot)
        return found
    local._pool_secret = pool  # type: ignore[method-assign]


DeckLie = Callable[[DeckBody], DeckBody]


def deck_lies(net: Network, seat: int, kind: type, lie: DeckLie) -> None:
    """``seat``'s peer signs ``lie(body)`` in place of each of its DECK bodies of ``kind``."""
    decks = net.cores[seat].decks
    original = decks.next_body

    def next_body(s: int) -> DeckMessageBody | None:
        made = original(s)
        if made is None or not isinstance(made.body, kind):
            return made
        return DeckMessageBody(lie(made.body))
    decks.next_body = next_body  # type: ignore[method-assign]


def wrong_share(body: DeckBody) -> DeckBody:
    """Decryption shares with the first moved by the base point (its proof then fails)."""
    assert isinstance(body, SharesBody)
    return dataclasses.replace(body, shares=(add(body.shares[0], base_mul(1)),
                                             *body.shares[1:]))


def swapped_after_challenge(body: DeckBody) -> DeckBody:
    """A shuffle whose first two output cards are swapped after its proof was made."""
    assert isinstance(body, ShuffleBody)
    return dataclasses.replace(body, deck=(body.deck[1], body.deck[0], *body.deck[2:]))


def other_card(body: DeckBody) -> DeckBody:
    """An open claiming the next card of the deck's list in place of the one it holds."""
    assert isinstance(body, DeckOpenBody)
    return dataclasses.replace(body, cards=((body.cards[0] + 1) % 16,))
