"""Draws and pauses by agreement (version 2, protocol.md §7.7).  A seat OFFERs one where a
message of its that drives the engine is due; the engine then waits until every other live seat
ANSWERs.  A decline ends the offer and play goes on; an agreement applies it in that state — a
draw ends the game with its drawn result (a valid ending), a pause stops every timer until a
seat RESUMEs."""

from __future__ import annotations

import pytest

from benchmarks.scenario import raiders_network
from engine.core import Over
from protocol.match.core import MatchCore
from protocol.mesh import Network
from protocol.verify.verdicts import INVALID, VALID
from protocol.verify.verifier import verify
from protocol.wire.messages import AnswerBody, Kind, Message, OfferBody, check_body
from tests.protocol.duel import Duel
from tests.protocol.mechanisms.test_floor import duel_network
from tests.protocol.mechanisms.test_leave import pump_until, whole


def answers(net: Network, *, yes: bool | None) -> None:
    """Every seat answers every offer ``yes`` (None: its person never decides)."""
    for local in net.seats:
        local.answering = lambda offerer, what, yes=yes: yes


def offer_after(net: Network, seat: int, messages: int, what: str = "draw") -> None:
    pump_until(net, lambda: len(net.seats[seat].sent) >= messages)
    net.seats[seat].offer(what)


def settled(net: Network, peer: int) -> list[object]:
    from protocol.match.events import OfferSettled
    return [e for e in net.events[peer] if isinstance(e, OfferSettled)]


def drawn(core: MatchCore) -> bool:
    return isinstance(core.state, Duel) and core.state.drawn


@pytest.mark.parametrize(("players", "offerer", "after"), [(2, 0, 1), (2, 1, 4), (3, 2, 3),
                                                             (3, 0, 6)])
def test_a_draw_every_live_seat_agrees_to_ends_the_game_drawn(players: int, offerer: int,
                                                              after: int) -> None:
    net = duel_network(b"draw-agreed", forfeit=True, players=players)
    answers(net, yes=True)
    offer_after(net, offerer, after)
    net.pump()  # (no clock: nobody is timed out)
    for peer in range(players):
        core = net.cores[peer]
        assert core.signed and drawn(core) and isinstance(core.state.waiting, Over)
        assert [(e.seat, e.agreed) for e in settled(net, peer)] == [(offerer, True)]
        v = verify(net.match_file(peer))
        # (A draw is no win: no winners, every seat drew — issue 48.)
        assert (v.verdict, v.blamed, v.winners, v.drawn) == (
            VALID, (), (), tuple(range(players))), v
        assert any(f"seat {offerer} offered a draw" in n and "agreed" in n for n in v.notes), \
            v.notes
    assert len({net.cores[p].public_digest() for p in range(players)}) == 1
    assert whole(net, 0).public_digest() == net.cores[0].public_digest()


@pytest.mark.parametrize("decliner", [1, 2])
def test_a_declined_draw_ends_the_offer_and_play_goes_on(decliner: int) -> None:
    net = duel_network(b"draw-declined", forfeit=True, players=3)
    answers(net, yes=True)
    net.seats[decliner].answering = lambda offerer, what: False
    offer_after(net, 0, 2)
    net.pump()
    for peer in range(3):
        core = net.cores[peer]
        assert core.signed and not drawn(core) and core.state.stage == 5
        [offer] = settled(net, peer)
        assert not offer.agreed and offer.declined == (decliner,)  # type: ignore[attr-defined]
    v = verify(net.match_file(0))
    assert (v.verdict, v.winners) == (VALID, (0,)), v
    assert any(f"declined by seat {decliner}" in n for n in v.notes), v.notes


@pytest.mark.parametrize("order", range(4))
def test_the_draw_applies_in_the_same_state_in_any_arrival_order(order: int) -> None:
    net = duel_network(b"draw-order", forfeit=True, players=3)
    answers(net, yes=True)
    offer_after(net, 1, 2 + order)
    net.land_in_flight()  # (what is in flight first: a scrambled pump has inboxes of its own)
    net.pump(scramble=b"draw%d" % order)
    digests = {net.cores[p].public_digest() for p in range(3)}
    assert len(digests) == 1 and all(drawn(c) and c.signed for c in net.cores)
    assert whole(net, 2).public_digest() in digests


def test_a_game_without_draws_refuses_the_agreement_and_play_goes_on() -> None:
    net = raiders_network(3, tag=b"draw-raiders")
    answers(net, yes=True)
    offer_after(net, 1, 12)
    net.pump()
    for peer in range(3):
        core = net.cores[peer]
        assert core.signed
        [offer] = settled(net, peer)
        assert not offer.agreed and "no draw by agreement" in offer.why  # type: ignore[attr-defined]
        assert verify(net.match_file(peer)).verdict == VALID


def test_an_agreed_pause_stops_every_timer_until_a_seat_resumes() -> None:
    net = raiders_network(3, tag=b"pause")
    answers(net, yes=True)
    offer_after(net, 0, 10, "pause")
    pump_until(net, lambda: all(c.agreements.paused for c in net.cores))
    # Paused: a silent seat is owed nothing, and no timer falls.
    for core in net.cores:
        assert core.waiting.owing() == () and core.waiting.get_timer() is None
    net.seats[2].resume()
    net.pump()
    for peer in range(3):
        core = net.cores[peer]
        assert core.signed and not core.agreements.paused
        v = verify(net.match_file(peer))
        assert v.verdict == VALID and any("resumed" in n for n in v.notes), v.notes


def test_the_match_waits_for_every_answer_and_the_offerer_waits_too() -> None:
    net = duel_network(b"draw-waits", forfeit=True, players=3)
    answers(net, yes=True)
    net.seats[2].answering = lambda offerer, what: None  # (its person never decides)
    offer_after(net, 0, 2)
    net.pump()
    for core in net.cores:
        assert core.agreements.offers and not core.signed and not drawn(core)
    # The silent answerer is owed its answer (it is timed); the offerer is not.
    owing = net.cores[0].waiting.owing()
    assert 2 in owing and 0 not in owing
    net.seats[2].answering = lambda offerer, what: True
    net.pump()
    assert all(c.signed and drawn(c) for c in net.cores)


@pytest.mark.parametrize(("offerer", "fault"), [(2, True), (7, True), (0, False)])
def test_an_answer_to_no_offer_counts_for_nothing(offerer: int, fault: bool) -> None:
    """To its own seat, or to no seat, it is its sender's fault; to a message of another seat
    that is not an OFFER it is skipped as stale."""
    net = duel_network(b"answer-nothing", forfeit=True, players=3)
    local = net.seats[2]
    original = local.messages_to_send
    sent: list[object] = []

    def send() -> list[Message]:
        out = original()
        if not out and not sent and len(local.sent) >= 3 and (
                local.core.cursor[2] == len(local.sent)):
            sent.append(local.sign_next(Kind.ANSWER, AnswerBody(offerer, 0, 1, bytes(32))))
            return [local.sent[-1]]
        return out
    local.messages_to_send = send  # type: ignore[method-assign]
    net.run_with_timeouts()
    assert sent
    v = verify(net.match_file(0))
    if fault:
        assert (v.verdict, v.blamed) == (INVALID, (2,)), v
        assert "an answer to no offer" in v.reason, v
    else:
        assert (v.verdict, v.blamed) == (VALID, ()), v
        assert sent[0] in net.cores[0].stale


def test_an_offer_round_trips_and_is_checked() -> None:
    from protocol.errors import BadMessage
    from protocol.wire.messages import Message, ResumeBody
    net = raiders_network(3, tag=b"offer-wire")
    answer = AnswerBody(1, 7, 0, bytes([9]) * 32)  # (version 3: the OFFER's hash)
    for kind, body in ((Kind.OFFER, OfferBody("pause")), (Kind.ANSWER, answer),
                       (Kind.RESUME, ResumeBody())):
        message = net.seats[0].sign_next(kind, body)
        again = Message.decode(message.encode(), 3)
        assert again == message and again.content == body
    assert AnswerBody.from_body((1, 7, 0)) == AnswerBody(1, 7, 0)  # (version 2: no hash)
    with pytest.raises(BadMessage, match="ANSWER body has 3 fields, not 4"):
        check_body(Kind.ANSWER, (1, 7, 0), 3)
    with pytest.raises(BadMessage, match="OFFER what must be one of draw, pause"):
        OfferBody.from_body(("resign",))
    with pytest.raises(BadMessage, match="ANSWER yes 2 is out of range"):
        AnswerBody.from_body((1, 2, 2))




@pytest.mark.parametrize("players", [2, 3])
def test_every_copy_of_a_drawn_match_agrees(players: int) -> None:
    from protocol.verify.copies import verify_copies
    net = duel_network(b"draw-copies", forfeit=True, players=players)
    answers(net, yes=True)
    offer_after(net, 1, 3)
    net.pump()
    v = verify_copies([net.match_file(p) for p in range(players)])
    assert (v.verdict, v.winners, v.drawn) == (VALID, (), tuple(range(players))), v


def test_an_answer_names_the_offer_it_answers_so_no_copy_turns_a_pause_into_a_draw() -> None:
    """Issue 46: an OFFER and an ANSWER drive no engine state and carry no heads, so a seat that
    turned its own pause into a draw (or back) in its copy made the honest seats' later
    messages look wrong.  In version 3 an ANSWER names the OFFER message it answers (as a
    DELIVERY names its round's key), and an agreed draw's END round names each seat's OFFER
    or ANSWER in its heads: an edited offer or answer is a dispute with its seat."""
    from tests.protocol.framing import copy_bytes, resign
    net = duel_network(b"answer-binds", forfeit=True, players=3)
    answers(net, yes=True)
    offer_after(net, 1, 3, "pause")
    net.pump()
    assert all(core.signed for core in net.cores)
    feeds = [list(f.messages) for f in net.cores[0].feeds]
    offer = next(m for m in feeds[1] if isinstance(m.content, OfferBody))
    answered = [m for f in feeds for m in f if isinstance(m.content, AnswerBody)]
    assert answered and all(m.content.offer == offer.hash for m in answered)  # type: ignore[union-attr]

    def draw(m: Message) -> OfferBody | None:
        return OfferBody("draw") if m.hash == offer.hash else None
    feeds[1] = resign(feeds[1], net.seats[1].key, draw)
    v = verify(copy_bytes(net.header, feeds))
    assert v.verdict == "disputed" and 1 in v.blamed, (v.verdict, v.blamed, v.reason)
