"""The deck state machine with honest peers: keys, shuffles, private and public draws, opens,
the audit, a restart, determinism across a restart, and what each peer checks itself."""

from __future__ import annotations

import dataclasses

import pytest

from benchmarks.deck_scenario import VERIFIER, DeckTable, cards_named
from protocol.deck import (
    CardLearned,
    CardShown,
    Deck,
    DeckEvent,
    DeckFault,
    DeckSeat,
    DeckSpec,
    FaultCode,
    KeyCommitBody,
    OpenBody,
    Owed,
    Phase,
    SharesBody,
    ShuffleBody,
    deck_id_for,
    decode_body,
    encode_body,
)
from protocol.deck.elgamal import Proof
from protocol.errors import LocalProtocolError
from protocol.wire.encoding import decode, encode

CARDS = cards_named("power", 16)


def dealt_table(seats: int = 4, tag: bytes = b"state") -> DeckTable:
    table = DeckTable(seats, {"a": CARDS}, tag=tag)
    table.setup()
    assert table.ready() and not table.faults()
    return table


@pytest.fixture(scope="module")
def four() -> DeckTable:
    table = dealt_table()
    table.deal("a", [0, 1, 2, 3, 0, 1, 2, 3])
    table.shares()
    return table


def test_every_owner_learns_its_cards_and_no_one_else_does(four: DeckTable) -> None:
    seen: dict[int, str] = {}
    for seat in range(4):
        deck = four.peers[seat]["a"]
        learnt = deck.learnt()
        assert sorted(learnt) == [seat, seat + 4] == list(deck.hand(seat))
        assert [e for e in four.events[seat] if isinstance(e, CardLearned)] == [
            CardLearned(p, c) for p, c in sorted(learnt.items())]
        seen.update(learnt)
        assert not deck.shown()
    assert len(set(seen.values())) == 8 and set(seen.values()) <= set(CARDS)
    assert four.verifier["a"].learnt() == {} and not four.faults()
    assert all(d["a"].owed() == () for d in four.peers.values())


def test_every_peer_checks_every_proof_itself(four: DeckTable) -> None:
    for seat in range(4):
        # three other seats: three key proofs, three shuffles, three share bodies
        assert four.peers[seat]["a"].verify_counts == {"key": 3, "shuffle": 3, "shares": 3}
    assert four.verifier["a"].verify_counts == {"key": 4, "shuffle": 4, "shares": 4}


def test_the_owner_share_is_never_published_in_a_private_draw(four: DeckTable) -> None:
    for sent in four.log:
        body = decode_body(decode(sent.data))
        if isinstance(body, SharesBody):
            deck = four.verifier["a"]
            assert all(deck.hand(sent.seat).count(p) == 0 for p in body.positions)


def test_a_public_draw_shows_the_same_card_to_everyone() -> None:
    table = dealt_table(3, b"public")
    positions = table.deal("a", [None, 1, None])
    table.shares()
    shown = table.verifier["a"].shown()
    assert sorted(shown) == [positions[0], positions[2]]
    for seat in range(3):
        assert table.peers[seat]["a"].shown() == shown
    assert table.peers[1]["a"].learnt()[1] not in shown.values()


def test_an_open_and_the_audit_show_the_owners_cards() -> None:
    table = dealt_table(3, b"open")
    table.deal("a", [0, 1, 2, 0])
    table.shares()
    card = table.peers[0]["a"].learnt()[0]
    body = table.peers[0]["a"].open_body([0])
    table.deliver(0, "a", encode(encode_body(body)), "open")
    for who in (0, 1, 2, VERIFIER):
        deck = table.verifier["a"] if who == VERIFIER else table.peers[who]["a"]
        assert deck.shown() == {0: card}
        assert CardShown(0, card, 0) in table.events[who]
    # the audit: seat 0 owes position 3, seat 1 position 1
    for deck in [*(d["a"] for d in table.peers.values()), table.verifier["a"]]:
        deck.request_audit({0: [3], 1: [1]})
        assert set(deck.owed()) == {Owed(0, "deck-open", 0, (3,)), Owed(1, "deck-open", 0, (1,))}
    table.send_owed("audit")
    assert table.verifier["a"].owed() == ()
    assert table.verifier["a"].shown() == {0: card, 1: table.peers[1]["a"].learnt()[1],
                                           3: table.peers[0]["a"].learnt()[3]}
    assert not table.faults()
    with pytest.raises(LocalProtocolError):
        table.verifier["a"].request_audit({2: [0]})


def test_a_restart_deals_afresh_among_the_remaining_seats() -> None:
    table = DeckTable(4, {"a": CARDS}, tag=b"restart")
    table.send_owed("commit")
    table.send_owed("keys")
    table.send_owed("shuffle-0", seats=[0])  # seat 3 leaves now, mid-deal
    old = table.peers[0]["a"]
    fresh = DeckTable(4, {"a": CARDS}, tag=b"restart", attempt=1, taking_part=(0, 1, 2))
    new = old.restarted(deck_id_for(table.match_id, "a", 1), (0, 1, 2))
    assert new.spec == fresh.peers[0]["a"].spec and new.phase is Phase.KEY_COMMITS
    assert old.restarted(new.spec.deck_id, (0, 1, 2)).to_send() == new.to_send()
    fresh.setup()
    fresh.deal("a", [0, 1, 2])
    fresh.shares()
    assert not fresh.faults() and [len(fresh.peers[s]["a"].learnt()) for s in (0, 1, 2)] == [
        1, 1, 1]
    assert fresh.peers[0]["a"].joint_key != table.peers[0]["a"].joint_key
    # a seat left out of the restart has no local part in it
    assert table.peers[3]["a"].restarted(new.spec.deck_id, (0, 1, 2)).to_send() == ()


def test_a_restarted_peer_sends_the_same_bytes() -> None:
    first = dealt_table(3, b"same-bytes")
    first.deal("a", [2, 1, 0])
    first.shares()
    again = dealt_table(3, b"same-bytes")
    again.deal("a", [2, 1, 0])
    again.shares()
    assert [s.data for s in first.log] == [s.data for s in again.log]
    # a peer rebuilt from its seed mid-deal, fed what it had received, re-makes its shuffle
    spec = first.verifier["a"].spec
    rebuilt = Deck(spec, DeckSeat(2, first.seed(2), first.match_id))
    shuffle_of_2 = next(s for s in first.log if s.seat == 2
                        and decode(s.data)[0] == "deck-shuffle")
    for sent in first.log[: first.log.index(shuffle_of_2)]:
        if sent.seat != 2 or decode(sent.data)[0] != "deck-shuffle":
            rebuilt.receive_wire(sent.seat, decode(sent.data))
    assert [encode(encode_body(b)) for b in rebuilt.to_send()] == [shuffle_of_2.data]


def test_bodies_out_of_place_are_faults_that_change_nothing() -> None:
    table = DeckTable(3, {"a": cards_named("x", 4)}, tag=b"order")
    early = Deck(table.verifier["a"].spec)
    table.send_owed("commit")
    deck = table.verifier["a"]
    commit = decode_body(decode(table.log[0].data))
    assert isinstance(commit, KeyCommitBody)
    assert _code(deck.receive(0, commit)) is FaultCode.NOT_OWED
    assert _code(deck.receive(5, commit)) is FaultCode.NOT_TAKING_PART
    assert _code(deck.receive(0, dataclasses.replace(commit, deck_id=bytes(32)))) is (
        FaultCode.WRONG_DECK)
    key = table.peers[1]["a"].to_send()[0]
    assert early.receive(0, commit) == [] and _code(early.receive(1, key)) is FaultCode.NOT_YET
    table.send_owed("keys")
    table.send_owed("s0", seats=[0])
    assert table.peers[2]["a"].to_send() == ()  # not its turn
    shuffle = table.peers[1]["a"].to_send()[0]
    assert isinstance(shuffle, ShuffleBody) and shuffle.step == 1
    assert _code(deck.receive(2, shuffle)) is FaultCode.NOT_OWED  # step 1 is seat 1's
    assert _code(deck.receive(2, dataclasses.replace(shuffle, step=2))) is FaultCode.NOT_YET
    assert _code(deck.receive(1, dataclasses.replace(shuffle, step=0))) is FaultCode.NOT_OWED
    assert deck.phase is Phase.SHUFFLES and deck.owed() == (Owed(1, "deck-shuffle", 1),)
    with pytest.raises(LocalProtocolError):
        deck.deal([0])
    table.send_owed("s1", seats=[1])
    table.send_owed("s2", seats=[2])
    assert not table.faults() and deck.phase is Phase.READY
    assert _code(deck.receive(1, shuffle)) is FaultCode.NOT_OWED


def _code(events: list[DeckEvent]) -> FaultCode:
    assert len(events) == 1 and isinstance(events[0], DeckFault), events
    return events[0].code


def test_a_local_seat_must_take_part_and_specs_are_checked() -> None:
    spec = DeckSpec(bytes(32), bytes(32), (0, 1), (bytes(32), bytes(32)), ("a", "b"))
    with pytest.raises(LocalProtocolError):
        Deck(spec, DeckSeat(2, bytes(32), bytes(32)))
    bad_fields: list[dict[str, object]] = [
        {"seats": (0, 0)}, {"seats": (0, 2)}, {"cards": ("a",)}, {"cards": ("a", "a")},
        {"deck_id": bytes(31)}]
    for bad in bad_fields:
        with pytest.raises(LocalProtocolError):
            _spec(spec, **bad)


def _spec(spec: DeckSpec, **changes: object) -> DeckSpec:
    return dataclasses.replace(spec, **changes)  # type: ignore[arg-type]


def test_an_audit_of_a_card_not_learnt_yet_waits_and_an_empty_open_is_refused() -> None:
    table = dealt_table(3, b"audit-wait")
    table.deal("a", [0, 1, 2])
    table.shares(withhold=frozenset({1}))  # seat 0 cannot learn its card yet
    deck0 = table.peers[0]["a"]
    deck0.request_audit({0: [0]})
    assert deck0.to_send() == ()
    empty = OpenBody(deck0.spec.deck_id, (), (), (), Proof(1, 1))
    assert _code(table.verifier["a"].receive(0, empty)) is FaultCode.NOT_OWED
