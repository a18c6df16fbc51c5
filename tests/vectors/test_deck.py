"""The deck algorithm's conformance vectors (tests/vectors/deck, generate_deck.py): the code
still makes them byte for byte, and a verifier fed only the stored bytes agrees with them."""

from __future__ import annotations

import json
from typing import Any

import pytest
from protocol.wire.encoding import decode

from protocol.deck import CardLearned, CardShown, DeckFault, DeckSeat
from tests.vectors.generate_deck import DECK_VECTORS, OWNERS, build, replay, spec_of


def stored(name: str) -> Any:
    return json.loads((DECK_VECTORS / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", ["group.json", "deal.json"])
def test_the_generator_makes_the_stored_vectors_byte_for_byte(name: str) -> None:
    assert build()[name] == (DECK_VECTORS / name).read_text(encoding="utf-8")


def feed(honest: dict[str, Any], seat: int | None) -> list[object]:
    local = None
    if seat is not None:
        local = DeckSeat(seat, bytes.fromhex(honest["seeds"][seat]),
                         bytes.fromhex(honest["match_id"]))
    deck = spec_of(honest, local)
    events: list[object] = []
    for body in honest["bodies"]:
        if deck.dealt == 0 and body["kind"] == "deck-shares":
            deck.deal(OWNERS)
        events += deck.receive_wire(body["seat"], decode(bytes.fromhex(body["bytes"])))
    assert deck.owed() == ()
    return events


def test_a_verifier_reading_the_stored_bytes_accepts_the_deal() -> None:
    honest = stored("deal.json")["honest"]
    events = feed(honest, None)
    assert not [e for e in events if isinstance(e, DeckFault)]
    assert {str(e.position): e.card for e in events if isinstance(e, CardShown)} == (
        honest["shown"])


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_each_seat_learns_its_stored_cards_from_the_stored_bytes(seat: int) -> None:
    honest = stored("deal.json")["honest"]
    learnt = {str(e.position): e.card for e in feed(honest, seat) if isinstance(e, CardLearned)}
    assert learnt == honest["learnt"][str(seat)]


def test_the_tampered_shuffle_draws_its_stored_fault() -> None:
    vectors = stored("deal.json")
    honest, tampered = vectors["honest"], vectors["tampered"]
    fault = replay(honest["bodies"][: tampered["index"]], spec_of(honest), 1,
                   bytes.fromhex(tampered["bytes"]))
    assert {"seat": fault.seat, "code": fault.code.value, "reason": fault.reason} == (
        tampered["fault"])
