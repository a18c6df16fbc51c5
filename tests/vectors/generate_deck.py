"""Conformance vectors of the deck algorithm ``deck-tw-ed25519/v1`` (docs/deck.md §9).

Everything is built from fixed inputs, so running this again gives the same bytes::

    python -m tests.vectors.generate_deck           # write tests/vectors/deck/
    python -m tests.vectors.generate_deck --check   # compare with the stored files, write nothing

Files (hex for every byte string):

* ``group.json`` — the base point, the generators ``h_0 … h_4``, card points, a hash to a
  scalar, a framed hash input, key shares and a permutation derived from fixed seeds;
* ``deal.json`` — a whole deal: 3 seats, a 4-card deck, the header inputs (match id, seat
  identity keys, seeds, cards, deck id), every body each seat sent, in consumption order, as
  its canonical msgpack bytes, the deal's owners, what each seat learnt and what a verifier
  shows; then the same deal with one byte of seat 1's shuffle flipped and the fault it draws.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from benchmarks.deck_scenario import DeckTable
from protocol.deck import DECK_ALGORITHM, Deck, DeckFault, DeckSeat, DeckSpec
from protocol.deck.derive import Derivation, permutation
from protocol.deck.elgamal import card_point
from protocol.deck.group import BASE, framed, generators, hash_to_scalar
from protocol.wire.encoding import decode

DECK_VECTORS = Path(__file__).resolve().parent / "deck"
CARDS = ("power-0", "power-1", "power-2", "power-3")
OWNERS = (2, 0, 1, None)


def _seed(label: str) -> bytes:
    return hashlib.sha256(label.encode()).digest()


def group_vectors() -> dict[str, Any]:
    match_id, seed, deck_id = _seed("vector match"), _seed("vector seed"), _seed("vector deck")
    derivation = Derivation.from_seed(seed, match_id).child("deck", deck_id, 1)
    return {
        "algorithm": DECK_ALGORITHM,
        "base_point": BASE.hex(),
        "generators": [g.hex() for g in generators(5)],
        "card_points": {card: card_point(card).hex() for card in CARDS},
        "framed": {"parts": ["cryptcrawl/deck-test/v1", "ab", 7, "00ff"],
                   "bytes": framed("cryptcrawl/deck-test/v1", "ab", 7, b"\x00\xff").hex()},
        "hash_to_scalar": {"domain": "cryptcrawl/deck-test/v1", "parts": ["x"],
                           "scalar": hash_to_scalar("cryptcrawl/deck-test/v1", "x")
                           .to_bytes(32, "little").hex()},
        "derivation": {"seed": seed.hex(), "match_id": match_id.hex(), "deck_id": deck_id.hex(),
                       "seat": 1,
                       "key_share": derivation.scalar("key-share").to_bytes(32, "little").hex(),
                       "permutation_key": {"label": "x",
                                           "key": derivation.key("x").hex()},
                       "permutation_16": list(permutation(derivation.key("x"), 16))},
    }


def deal_vectors() -> dict[str, Any]:
    table = DeckTable(3, {"a": CARDS}, tag=b"deck vectors")
    table.setup()
    table.deal("a", OWNERS)
    table.shares()
    if table.faults():
        raise SystemExit(f"error: the vector deal drew faults: {table.faults()}")
    spec = table.verifier["a"].spec
    honest = {
        "deck": "a", "attempt": 0,
        "match_id": spec.match_id.hex(), "deck_id": spec.deck_id.hex(),
        "seat_keys": [k.hex() for k in spec.seat_keys], "cards": list(CARDS),
        "seeds": [table.seed(s).hex() for s in range(3)],
        "owners": list(OWNERS),
        "bodies": [{"seat": s.seat, "kind": decode(s.data)[0], "bytes": s.data.hex()}
                   for s in table.log],
        "learnt": {str(s): {str(p): c for p, c in table.peers[s]["a"].learnt().items()}
                   for s in range(3)},
        "shown": {str(p): c for p, c in table.verifier["a"].shown().items()},
    }
    index = next(i for i, s in enumerate(table.log) if s.seat == 1
                 and decode(s.data)[0] == "deck-shuffle")
    flipped = bytearray(table.log[index].data)
    flipped[-40] ^= 0x01  # a byte of the last permutation response
    fault = replay(honest["bodies"][:index], spec_of(honest), 1, bytes(flipped))
    return {"honest": honest,
            "tampered": {"index": index, "bytes": bytes(flipped).hex(),
                         "fault": {"seat": fault.seat, "code": fault.code.value,
                                   "reason": fault.reason}}}


def spec_of(honest: dict[str, Any], local: DeckSeat | None = None) -> Deck:
    """A deck for the stored deal (a verifier's, or ``local``'s)."""
    return Deck(DeckSpec(bytes.fromhex(honest["match_id"]), bytes.fromhex(honest["deck_id"]),
                         (0, 1, 2), tuple(bytes.fromhex(k) for k in honest["seat_keys"]),
                         tuple(honest["cards"])), local)


def replay(bodies: list[dict[str, Any]], deck: Deck, seat: int, data: bytes) -> DeckFault:
    """Feed ``bodies`` to ``deck``, then ``data`` from ``seat``: the fault it draws."""
    for body in bodies:
        if deck.dealt == 0 and body["kind"] == "deck-shares":
            deck.deal(OWNERS)
        events = deck.receive_wire(body["seat"], decode(bytes.fromhex(body["bytes"])))
        if any(isinstance(e, DeckFault) for e in events):
            raise SystemExit(f"error: a stored body drew a fault: {events}")
    events = deck.receive_wire(seat, decode(data))
    if len(events) != 1 or not isinstance(events[0], DeckFault):
        raise SystemExit(f"error: the tampered body drew no fault: {events}")
    return events[0]


def build() -> dict[str, str]:
    """File name → its text."""
    return {name: json.dumps(value, indent=1, sort_keys=True) + "\n"
            for name, value in (("group.json", group_vectors()), ("deal.json", deal_vectors()))}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    built = build()
    if args.check:
        stale = [name for name, text in built.items()
                 if (DECK_VECTORS / name).read_text(encoding="utf-8") != text]
        print("stale: " + ", ".join(stale) if stale else "the deck vectors are up to date")
        return 1 if stale else 0
    DECK_VECTORS.mkdir(exist_ok=True)
    for name, text in built.items():
        (DECK_VECTORS / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(built)} files to {DECK_VECTORS}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
