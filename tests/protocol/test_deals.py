"""Private deals over the match core (version 2, protocol.md §7.13): the engine's PRIVATE chance
events dealt from a deck the seats shuffle together (docs/deck.md), through real signed feeds.
The game is tests/protocol/deal_toy.py: two private cards a seat, then every seat plays one of
them at once and opens it.

Each cheat is caught by every honest peer, with the cheat named, and the verifier agrees; a seat
lost during the deal makes it restart among the others; a restarted peer sends the same bytes."""

from __future__ import annotations

import dataclasses

import pytest
from protocol.match.events import (
    CardDealt,
    CardShown,
    DeckRestarted,
    HeadsDisputed,
    PeerMisbehaved,
    SeatReplaced,
)
from protocol.mesh import MeshGame, Network, bot_decider
from protocol.verify.verdicts import CLAIMED, INVALID, VALID
from protocol.verify.verifier import verify
from protocol.wire.messages import Kind

from protocol.deck import (
    DeckBody,
    DeckMessageBody,
    KeyBody,
    OpenBody,
    SharesBody,
    ShuffleBody,
)
from protocol.deck.elgamal import Proof
from protocol.deck.group import base_mul
from tests.protocol import deal_toy
from tests.protocol.helpers import (
    DeckLie,
    deck_lies,
    other_card,
    swapped_after_challenge,
    wrong_share,
)

TOY = MeshGame(deal_toy.GAME)


def table(n: int, tag: bytes) -> Network:
    return Network(n, TOY, tag, [bot_decider(b"high%d" % i, "high") for i in range(n)])


def dealt(net: Network, peer: int) -> dict[str, str]:
    """What ``peer`` was told of the deal: event -> card ("" for another seat's)."""
    return {e.event: e.card for e in net.events[peer] if isinstance(e, CardDealt)}


def faults(net: Network, peer: int) -> list[PeerMisbehaved | HeadsDisputed]:
    return [e for e in net.events[peer] if isinstance(e, PeerMisbehaved | HeadsDisputed)]


@pytest.mark.parametrize(("n", "scramble"), [(2, None), (3, b"order-3"), (5, b"order-5")])
def test_each_seat_learns_its_own_cards_only_and_the_file_verifies(
        n: int, scramble: bytes | None) -> None:
    net = table(n, b"deal-honest-%d" % n)
    net.pump(scramble=scramble)
    assert all(core.signed for core in net.cores)
    assert len({core.public_digest() for core in net.cores}) == 1
    cards: dict[str, str] = {}
    for peer in range(n):
        told = dealt(net, peer)
        assert sorted(told) == sorted(f"deal.{s}.{k}" for s in range(n) for k in range(2))
        mine = {e: c for e, c in told.items() if c}
        assert sorted(mine) == [f"deal.{peer}.0", f"deal.{peer}.1"]  # its own, no other
        cards.update(mine)
        assert net.cores[peer].decks.learnt == mine
        assert not faults(net, peer)
    assert len(set(cards.values())) == 2 * n  # no card dealt twice
    # Every played card is opened, and it is the card its seat was dealt.
    shown = {(e.seat, e.event, e.card) for e in net.events[0]
             if isinstance(e, CardShown) and not e.at_end}
    assert {(s, e) for s, e, _ in shown} == {(s, f"deal.{s}.{i}")
                                              for s, i in net.cores[0].state.played}
    assert all(cards[e] == c for _, e, c in shown)
    # ... and at the end, the card each kept back (the audit): every card dealt is then public.
    audit = {(e.seat, e.event, e.card) for e in net.events[0]
             if isinstance(e, CardShown) and e.at_end}
    assert {e: c for _, e, c in shown | audit} == cards
    best = max(shown, key=lambda x: deal_toy.CARDS.index(x[2]))
    for peer in range(n):
        v = verify(net.match_file(peer))
        assert (v.verdict, v.winners) == (VALID, (best[0],)), v
        assert sum("(the audit)" in note for note in v.notes) == n, v.notes
    # The public state never holds a card before its open; the wire never carries an owner's
    # share of its own card before the open.
    assert net.cores[0].state.public().known == ()
    for message in net.log:
        body = message.content
        if isinstance(body, DeckMessageBody) and isinstance(body.body, SharesBody):
            deck = net.cores[0].decks.decks["cards"]
            assert not set(body.body.positions) & set(deck.hand(message.seat))


def test_a_deal_sends_each_deck_step_once_per_seat() -> None:
    net = table(3, b"deal-count")
    net.pump()
    kinds = [(m.seat, m.body[0]) for m in net.log if m.kind is Kind.DECK]
    for seat in range(3):
        mine = [k for s, k in kinds if s == seat]
        assert mine == ["deck-key-commit", "deck-key", "deck-shuffle", "deck-shares",
                        "deck-open", "deck-open"]  # (the card played; the audit)


def run_until(net: Network, seat: int, what: str) -> None:
    """Deliver one message at a time until ``seat`` has sent a DECK body of kind ``what``."""
    for _ in range(5000):
        net.pump(limit=1, partial=True)
        if any(m.seat == seat and m.kind is Kind.DECK and m.body[0] == what for m in net.log):
            return
    raise AssertionError(f"seat {seat} never sent {what}")


@pytest.mark.parametrize("stage", ["deck-key-commit", "deck-key", "deck-shuffle"])
def test_a_seat_lost_during_the_deal_makes_it_restart_among_the_others(stage: str) -> None:
    net = table(3, b"deal-lost")
    run_until(net, 1, stage)
    net.crash(1)
    net.run_with_timeouts()
    for peer in (0, 2):
        core = net.cores[peer]
        assert core.signed and 1 in core.absent
        restarts = [e for e in net.events[peer] if isinstance(e, DeckRestarted)]
        assert restarts == [DeckRestarted("cards", 1, (0, 2), 1)]
        assert core.decks.decks["cards"].spec.seats == (0, 2)
        mine = {e: c for e, c in dealt(net, peer).items() if c}
        assert sorted(mine) == [f"deal.{peer}.0", f"deal.{peer}.1"]
        assert not faults(net, peer)
    v = verify(net.match_file(0))
    assert v.verdict == VALID, v
    assert any("restarts as attempt 1 among seats 0, 2" in n for n in v.notes), v.notes
    assert any("deal.1.0: a card for seat 1, replaced before the deal, was never drawn" in n
               for n in v.notes), v.notes


def test_a_seat_lost_after_its_shares_costs_only_its_own_cards() -> None:
    net = table(3, b"deal-lost-late")
    run_until(net, 1, "deck-shares")
    net.crash(1)
    net.run_with_timeouts()
    assert not any(isinstance(e, DeckRestarted) for e in net.events[0])
    v = verify(net.match_file(2))
    assert v.verdict == VALID and any("seat 1's card stays hidden" in n for n in v.notes), v


def test_a_two_seat_deal_that_loses_a_seat_ends_the_match() -> None:
    net = table(2, b"deal-lost-two")
    run_until(net, 1, "deck-key")
    net.crash(1)
    net.run_with_timeouts()
    assert net.cores[0].signed
    assert verify(net.match_file(0)).verdict == CLAIMED  # (two seats: the live one claims)


@pytest.mark.parametrize("stage", ["deck-key", "deck-shuffle", "deck-shares", "deck-open"])
def test_a_restarted_peer_sends_the_same_bytes(stage: str) -> None:
    net = table(3, b"deal-restart")
    seat = net.seats[1]
    before = {"deck-key": "deck-key-commit", "deck-shuffle": "deck-key",
              "deck-shares": "deck-shuffle", "deck-open": "deck-shares"}[stage]
    run_until(net, 1, before)
    for _ in range(5000):  # until seat 1 owes a body of ``stage``
        net.pump(limit=1, partial=True)
        core = net.cores[1]
        if (core.feeds[1].next_seq == len(seat.sent) and core.expects(1) is Kind.DECK
                and (body := core.decks.next_body(1)) is not None
                and DeckMessageBody(body.body).as_body()[0] == stage):
            break
    else:
        raise AssertionError(f"seat 1 never owed {stage}")
    (lost,) = seat.messages_to_send()  # made, then the process dies before it is stored
    seat.sent.pop()
    again = seat.rebuilt().messages_to_send()  # a new process, from the stored feed and seed
    assert [m.encode() for m in again] == [lost.encode()]


# ----------------------------------------------------------------------------- cheats

def no_knowledge(body: DeckBody) -> DeckBody:
    assert isinstance(body, KeyBody)
    return dataclasses.replace(body, proof=Proof(body.proof.challenge, body.proof.response + 1))


def other_key(body: DeckBody) -> DeckBody:
    assert isinstance(body, KeyBody)
    return dataclasses.replace(body, key=base_mul(31337))


def another_deck(body: DeckBody) -> DeckBody:
    assert isinstance(body, ShuffleBody)
    return dataclasses.replace(body, deck_id=bytes(32))


@pytest.mark.parametrize(("kind", "lie", "code"), [
    (SharesBody, wrong_share, "bad-shares"),
    (ShuffleBody, swapped_after_challenge, "bad-shuffle"),
    (KeyBody, no_knowledge, "bad-key-proof"),
    (KeyBody, other_key, "key-not-committed"),
    (OpenBody, other_card, "wrong-card"),
    (ShuffleBody, another_deck, "not-in-play"),
], ids=["wrong-share", "shuffle-changed-after-challenge", "key-without-proof",
        "key-not-committed", "open-of-another-card", "replayed-from-another-deck"])
def test_a_cheat_is_caught_live_and_by_the_verifier(kind: type, lie: DeckLie, code: str) -> None:
    net = table(3, b"deal-cheat-" + code.encode())
    deck_lies(net, 1, kind, lie)
    net.run_with_timeouts()
    for peer in (0, 2):
        caught = [e for e in faults(net, peer) if isinstance(e, PeerMisbehaved)]
        assert [e.seat for e in caught] == [1], caught
        assert f"({code})" in caught[0].reason and "\n" not in caught[0].reason
        assert caught[0].evidence[0].kind is Kind.DECK
        assert net.cores[peer].signed and 1 in net.cores[peer].absent
    v = verify(net.match_file(0))
    assert (v.verdict, v.blamed, v.reason_code) == (INVALID, (1,), "bad_deck"), v
    if kind is not OpenBody:  # (caught during the deal: it restarted without the cheat)
        assert any(isinstance(e, DeckRestarted) for e in net.events[0])


def test_an_open_of_a_card_not_dealt_to_the_opener() -> None:
    net = table(3, b"deal-cheat-not-dealt")
    decks = net.cores[1].decks
    original = decks.next_body

    def next_body(s: int) -> DeckMessageBody | None:
        made = original(s)
        if made is None or not isinstance(made.body, OpenBody):
            return made
        # seat 1 opens seat 0's first card, with its own key share: not dealt to it
        deck = decks.decks["cards"]
        position = deck.hand(0)[0]
        body = made.body
        return DeckMessageBody(dataclasses.replace(body, positions=(position,)))
    decks.next_body = next_body  # type: ignore[method-assign]
    net.run_with_timeouts()
    caught = [e for e in faults(net, 0) if isinstance(e, PeerMisbehaved)]
    assert [e.seat for e in caught] == [1] and "it owes the open of deal.1." in caught[0].reason
    v = verify(net.match_file(2))
    assert (v.verdict, v.blamed, v.reason_code) == (INVALID, (1,), "bad_deck"), v


def test_a_seat_that_withholds_its_shares_is_replaced_and_the_deal_restarts() -> None:
    net = table(3, b"deal-withhold")
    decks = net.cores[2].decks
    original = decks.next_body
    decks.next_body = lambda s: (  # type: ignore[method-assign]
        None if (b := original(s)) is not None and isinstance(b.body, SharesBody) else b)
    net.run_with_timeouts()
    for peer in (0, 1):
        assert net.cores[peer].signed
        assert [e.seat for e in net.events[peer] if isinstance(e, SeatReplaced)] == [2]
        assert [e.attempt for e in net.events[peer] if isinstance(e, DeckRestarted)] == [1]
        assert not faults(net, peer)
    # (It reclaimed its seat after the deal: it plays on, with no card — never drawn.)
    v = verify(net.match_file(0))
    assert v.verdict == VALID, v
    assert any("deal.2.0: a card for seat 2, replaced before the deal, was never drawn" in n
               for n in v.notes), v.notes


def test_the_header_names_the_deck_algorithm_of_a_game_that_deals() -> None:
    from protocol.match.game import game_state_for
    from protocol.mesh import make_header

    from protocol.deck import DECK_ALGORITHM
    from protocol.errors import BadMessage

    header = make_header(3, TOY, b"deal-header")[0].header
    assert header.deck == DECK_ALGORITHM
    with pytest.raises(BadMessage, match="needs 'deck-tw-ed25519/v1'"):
        game_state_for(dataclasses.replace(header, deck=""))
    with pytest.raises(BadMessage, match="names deck algorithm 'deck-xx/v9'"):
        game_state_for(dataclasses.replace(header, deck="deck-xx/v9"))
    raiders = make_header(3, MeshGame("raiders"), b"deal-header")[0].header
    assert raiders.deck == ""
    with pytest.raises(BadMessage, match="Dungeon Raiders over this program needs 'none'"):
        game_state_for(dataclasses.replace(raiders, deck=DECK_ALGORITHM))


def test_a_seat_that_rewrites_its_shuffle_in_its_copy_frames_nobody() -> None:
    """Seat 0 swaps its shuffle, in its own copy, for another it proves honestly, and signs its
    feed again: seat 1's shuffle no longer checks against it, but seat 1's heads name the
    original — one copy shows a dispute between the two, never seat 1's fault, and the two
    copies together prove seat 0 signed two versions."""
    from protocol.verify.copies import verify_copies
    from protocol.wire.messages import Message

    from protocol.deck import Deck
    from protocol.deck.derive import Derivation
    from protocol.deck.shuffle import prove_shuffle
    from protocol.deck.state import proof_context
    from tests.protocol.framing import framed

    net = table(3, b"deal-frame")
    net.pump()
    decks = net.cores[2].decks
    spec = decks.decks["cards"].spec
    before = Deck(spec)  # the deck seat 0 shuffled: every key, no shuffle yet
    for message in net.log:
        body = message.content
        if isinstance(body, DeckMessageBody) and isinstance(body.body, ShuffleBody):
            break
        if isinstance(body, DeckMessageBody):
            before.receive(message.seat, body.body)
    assert before.joint_key is not None

    def edit(message: Message) -> DeckMessageBody | None:
        body = message.content
        if not (isinstance(body, DeckMessageBody) and isinstance(body.body, ShuffleBody)):
            return None
        assert before.joint_key is not None
        deck, proof = prove_shuffle(proof_context(spec, "shuffle", 0, 0), before.joint_key,
                                    before.deck, Derivation.from_seed(bytes(range(32)),
                                                                      spec.match_id))
        return DeckMessageBody(ShuffleBody(body.body.deck_id, 0, deck, proof))

    copy = framed(net.header, [list(f.messages) for f in net.cores[2].feeds], 0, net.keys[0],
                  edit)
    v = verify(copy)
    assert (v.verdict, v.blamed, v.reason_code) == ("disputed", (0, 1), "heads_disputed"), v
    both = verify_copies([copy, net.match_file(1)], ["liar", "honest"])
    assert (both.verdict, both.blamed, both.reason_code) == (INVALID, (0,), "fork"), both


# ----------------------------------------------------------------------------- Paper Dungeons


def test_paper_deals_powers_and_objectives_and_shows_what_the_rules_ask() -> None:
    """Paper Dungeons over the match core: both decks dealt in one deal; each kept power shown
    after the setup; each kept objective shown with the OPEN of its sealed index; every other
    card shown in the audit before the END."""
    net = Network(3, MeshGame("paper"), b"deal-paper")
    net.pump()
    assert all(core.signed for core in net.cores)
    shown = [e for e in net.events[0] if isinstance(e, CardShown)]
    kept = [e.event for e in shown if not e.at_end]
    assert sorted(e.split(".")[1] for e in kept) == ["objective"] * 3 + ["power"] * 3
    assert len([e for e in shown if e.at_end]) == 6  # the discards: 4 cards a seat, 2 kept
    assert len({e.card for e in shown}) == 12
    for peer in range(3):  # what each peer learnt is what the others were later shown
        for event, card in net.cores[peer].decks.learnt.items():
            assert (peer, event, card) in {(e.seat, e.event, e.card) for e in shown}
    opens = [m for m in net.log if m.kind is Kind.OPEN]
    for message in opens:  # the kept objective's card is opened just before its OPEN
        before = net.log[:net.log.index(message)]
        mine = [m for m in before if m.seat == message.seat]
        assert mine[-1].kind is Kind.DECK and mine[-1].body[0] == "deck-open"
    v = verify(net.match_file(1))
    assert v.verdict == VALID and sum("(the audit)" in n for n in v.notes) == 6, v


def test_a_paper_seat_lost_before_its_setup_choice_leaves_the_match() -> None:
    """Its cards are dealt, but no zombie can choose among cards it cannot see: it forfeits at
    the choice (its sheet stops), its cards stay hidden, and the others play on."""
    net = Network(3, MeshGame("paper"), b"deal-paper-lost")
    for _ in range(5000):  # until seat 2 sent its shares of both decks
        net.pump(limit=1, partial=True)
        if sum(m.seat == 2 and m.kind is Kind.DECK and m.body[0] == "deck-shares"
               for m in net.log) == 2:
            break
    net.crash(2)
    net.run_with_timeouts()
    assert net.cores[0].signed and not any(isinstance(e, DeckRestarted) for e in net.events[0])
    v = verify(net.match_file(0))
    assert v.verdict == VALID and 2 not in v.winners, v
    assert any("seat 2 forfeited where it was to decide: no zombie can make this decision" in n
               for n in v.notes), v.notes


def test_every_peer_checks_every_other_seats_proofs_itself() -> None:
    n = 4
    net = table(n, b"deal-checks")
    net.pump()
    for core in net.cores:
        deck = core.decks.decks["cards"]
        # its own key, shuffle and shares it made itself; every other seat's it checked; every
        # open (the cards played, then the audits) it checked, its own included
        assert deck.verify_counts == {"key": n - 1, "shuffle": n - 1, "shares": n - 1,
                                      "open": 2 * n}
