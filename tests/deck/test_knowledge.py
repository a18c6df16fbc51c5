"""The knowledge test: all the other seats pooled cannot tell the card dealt to a target.

Each deal: 3 seats, a 16-card deck, one card dealt privately to a target seat (the target
rotates, so it shuffles first, second or last).  The adversary pools every other seat — their
per-match seeds, so their key shares and their own shuffles — and every byte any of them
received.  It tries every way it has to unmask the target's card: its own shares, plus every
share point attached to that position in any body, with the target's share missing; if one
gives a card it names it, else it guesses.  Without the target's share (DDH) its hit rate
stays at 1/16; with the planted leak (the target publishes its own share, a test-only switch)
it is 1.
"""

from __future__ import annotations

import math

import pytest
from protocol.wire.encoding import decode, encode

from benchmarks.deck_scenario import DeckTable, cards_named
from engine.stream import sample_index
from protocol.crypto import H
from protocol.deck import DeckBody, SharesBody, decode_body, encode_body
from protocol.deck.derive import Derivation
from protocol.deck.elgamal import card_point, unmask
from protocol.deck.group import Point, mul

CARDS = cards_named("power", 16)
SEATS = 3


def _share_points(bodies: list[DeckBody], position: int) -> list[Point]:
    found = []
    for body in bodies:
        positions = getattr(body, "positions", ())
        shares = getattr(body, "shares", ())
        found += [share for p, share in zip(positions, shares, strict=False) if p == position]
    return found


def adversary_guess(table: DeckTable, target: int, position: int) -> str:
    """The pooled other seats' best guess of the target's card at ``position``."""
    others = [s for s in range(SEATS) if s != target]
    view = table.peers[others[0]]["a"]  # every other seat holds the same deck
    card = view.deck[position]
    keys = [Derivation.from_seed(table.seed(s), table.match_id)
            .child("deck", view.spec.deck_id, s).scalar("key-share") for s in others]
    own_shares = [mul(x, card[0]) for x in keys]
    received = [decode_body(decode(sent.data)) for sent in table.log]
    points = {card_point(c): c for c in CARDS}
    for extra in [[], *([share] for share in _share_points(received, position))]:
        for subset in (own_shares, []):
            candidate = unmask(card, [*subset, *extra])
            if candidate in points:
                return points[candidate]
    # no way to unmask it: a guess (uniform, from the public transcript)
    return CARDS[sample_index(H("cryptcrawl/deck-test/v1", *(s.data for s in table.log)), 16)]


def deal(index: int) -> tuple[bool, bool]:
    """One deal: whether the adversary hit the target's card without and with the leak."""
    table = DeckTable(SEATS, {"a": CARDS}, tag=b"knowledge|%d" % index, with_verifier=False)
    table.setup()
    target = index % SEATS
    (position,) = table.deal("a", [target])
    table.shares()
    truth = table.peers[target]["a"].learnt()[position]
    honest = adversary_guess(table, target, position) == truth
    # the planted leak: the target publishes its own share of its card
    opened = table.peers[target]["a"].open_body([position])
    leaked = SharesBody(opened.deck_id, 0, opened.positions, opened.shares, opened.proof)
    table.deliver(target, "a", encode(encode_body(leaked)), "leak")
    leaky = adversary_guess(table, target, position) == truth
    return honest, leaky


def wilson(hits: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def test_the_pooled_others_do_no_better_than_a_guess_and_a_planted_leak_shows() -> None:
    results = [deal(i) for i in range(48)]
    honest = sum(h for h, _ in results)
    leaky = sum(k for _, k in results)
    # 1/16 of 48 is 3; more than 10 has probability < 1e-4 for a guess
    assert honest <= 10, honest
    assert leaky == 48


@pytest.mark.slow
def test_knowledge_over_2000_deals() -> None:
    n = 2000
    results = [deal(10_000 + i) for i in range(n)]
    honest = sum(h for h, _ in results)
    leaky = sum(k for _, k in results)
    low, high = wilson(honest, n)
    print(f"\nknowledge: {honest}/{n} hits = {honest / n:.4f}, 95% CI [{low:.4f}, {high:.4f}]; "
          f"with the planted leak {leaky}/{n}")
    assert low <= 1 / 16 <= high
    assert high < 1 / 16 + 0.02
    # the same test against the planted leak fails
    leak_low, leak_high = wilson(leaky, n)
    assert not (leak_low <= 1 / 16 <= leak_high and leak_high < 1 / 16 + 0.02)


def test_the_interval_is_right() -> None:
    low, high = wilson(125, 2000)
    assert 0.052 < low < 0.0625 < high < 0.074
