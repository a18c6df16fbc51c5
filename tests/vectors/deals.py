"""Conformance vectors of private deals from shared decks (protocol.md §7.13, deck.md): Paper
Dungeons matches, whose powers and objectives are dealt privately from two 16-card decks the
seats shuffle together — keys, shuffles, decryption shares, the kept power's open after the
setup, the kept objective's open with its sealed index, and the audit of every card still unseen
at the end.

Each vector is a match of in-memory peers (protocol.mesh.Network) built from a fixed tag: keys,
nonces, per-match seeds (so every deck secret, permutation and proof nonce, deck.md §6) and bot
choices derive from it, and Ed25519 signatures are deterministic, so the bytes are the same on
every run.  A seat that cheats does it as a modified client would, signing with its own key."""

from __future__ import annotations

from collections.abc import Callable

from protocol.deck import Deck, DeckBody, DeckMessageBody, OpenBody, SharesBody, ShuffleBody
from protocol.deck.derive import Derivation
from protocol.deck.shuffle import prove_shuffle
from protocol.deck.state import proof_context
from protocol.match.events import DeckRestarted, PeerMisbehaved
from protocol.mesh import MeshGame, Network
from protocol.wire.messages import Kind, Message
from protocol.wire.transcript import file_start, frame
from tests.protocol.framing import framed
from tests.protocol.helpers import deck_lies, other_card, swapped_after_challenge, wrong_share
from tests.vectors.making import Expect, Vector, invalid, valid

PAPER = MeshGame("paper")
CHEAT = 1


def _network(n: int, tag: bytes) -> Network:
    return Network(n, PAPER, b"vectors/v2/deals/" + tag, version=2)


def _file(net: Network) -> bytes:
    """The header, then every message in the order it was sent."""
    return file_start(net.header) + b"".join(frame(m.encode()) for m in net.log)


def _cut_after(net: Network, message: Message) -> bytes:
    data = _file(net)
    record = frame(message.encode())
    return data[:data.index(record) + len(record)]


CHEATS = (
    ("deals/wrong-share", b"wrong-share", SharesBody, wrong_share, "bad-shares",
     "Seat 1's decryption shares of the deal: one share moved by the base point, with the "
     "proof of the true ones (the Chaum–Pedersen proof fails)."),
    ("deals/shuffle-changed", b"shuffle-changed", ShuffleBody, swapped_after_challenge,
     "bad-shuffle",
     "Seat 1's shuffle of the objectives deck with its first two output cards swapped after "
     "its proof was made (the Terelius–Wikström proof fails)."),
    ("deals/open-another-card", b"open-another-card", OpenBody, other_card, "wrong-card",
     "Seat 1's open of the power it kept claims the next card of the deck's list in place of "
     "the one its share unmasks."),
)
"""(vector, tag, the body seat 1 lies in, how, the deck's fault code, what)"""


def _honest() -> Vector:
    net = _network(2, b"honest-2")
    net.pump()
    assert all(core.signed for core in net.cores)
    return Vector(
        "deals/paper-honest",
        "Paper Dungeons, two seats, to its end: each deck (powers, objectives) keyed and "
        "shuffled by both seats, 2 powers and 2 objectives dealt to each seat in one round of "
        "decryption shares, the kept powers opened after the setup, the kept objectives opened "
        "with their sealed index at final scoring, every other card opened in the audit before "
        "the END. The match as sent, message by message.", _file(net), valid())


def _cheat(name: str, tag: bytes, kind: type, lie: Callable[[DeckBody], DeckBody],
           code: str, what: str) -> Vector:
    net = _network(3, tag)
    deck_lies(net, CHEAT, kind, lie)
    net.run_with_timeouts()
    fault = next(e for e in net.events[0] if isinstance(e, PeerMisbehaved))
    assert fault.seat == CHEAT and f"({code})" in fault.reason, fault
    assert fault.evidence[0].kind is Kind.DECK
    return Vector(name, what + " Three seats; the match as sent, cut right after that DECK.",
                  _cut_after(net, fault.evidence[0]), invalid(CHEAT, fault.reason))


def _lost() -> Vector:
    net = _network(3, b"lost-2")
    for _ in range(5000):  # until seat 2 has shown its key share of the powers
        net.pump(limit=1, partial=True)
        if sum(m.seat == 2 and m.kind is Kind.DECK for m in net.log) >= 3:
            break
    net.crash(2)
    net.run_with_timeouts()
    assert net.cores[0].signed and any(isinstance(e, DeckRestarted) for e in net.events[0])
    return Vector(
        "deals/seat-lost-restart",
        "Paper Dungeons, three seats: seat 2 stops during the deal (after its key commitments "
        "and a key); the others vote it absent, each deck it took part in restarts as attempt "
        "1 between seats 0 and 1 (new deck ids, keys and shuffles; seat 2's bodies of attempt 0 "
        "are left behind), seat 2's cards are never drawn, and its zombie plays on its public "
        "sheet. The match as sent.", _file(net),
        valid("restarts as attempt 1 among seats 0, 1", "was never drawn"))


def _framed() -> Vector:
    net = _network(2, b"framed-2")
    net.pump()
    decks = net.cores[1].decks
    spec = decks.decks["objectives"].spec
    before = Deck(spec)
    for message in net.log:
        body = message.content
        if isinstance(body, DeckMessageBody) and body.body.deck_id == spec.deck_id:
            if isinstance(body.body, ShuffleBody):
                break
            before.receive(message.seat, body.body)
    joint = before.joint_key
    assert joint is not None

    def edit(message: Message) -> DeckMessageBody | None:
        body = message.content
        if not (isinstance(body, DeckMessageBody) and isinstance(body.body, ShuffleBody)
                and body.body.deck_id == spec.deck_id):
            return None
        deck, proof = prove_shuffle(proof_context(spec, "shuffle", 0, 0), joint, before.deck,
                                    Derivation.from_seed(bytes(range(32)), spec.match_id))
        return DeckMessageBody(ShuffleBody(spec.deck_id, 0, deck, proof))

    data = framed(net.header, [list(f.messages) for f in net.cores[1].feeds], 0, net.keys[0],
                  edit)
    return Vector(
        "deals/rewritten-shuffle",
        "Seat 0's own copy of an honest two-seat Paper Dungeons match, in which it replaced its "
        "shuffle of the objectives by another it proved honestly, and signed and chained its "
        "feed again: seat 1's shuffle no longer checks against it, but seat 1's DECK names "
        "seat 0's original shuffle as seat 0's head (protocol.md §7.13, deck heads) — a "
        "dispute between the two seats, not seat 1's fault.", data, Expect(""))


def deal_vectors() -> list[Vector]:
    return [_honest(), *(_cheat(*cheat) for cheat in CHEATS), _lost(), _framed()]
