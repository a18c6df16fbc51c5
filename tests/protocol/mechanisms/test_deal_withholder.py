"""A deal withholder (version 3, protocol.md §7.13; issue 47 item 2): a seat learns its own cards
once every other seat's shares of them are in, before it must send its own shares of theirs.  A
seat replaced while it withholds those shares, after its own cards were delivered to it, vetoed
the deal knowing its hand: it withholds, and forfeits where the forfeit rule applies — found by
every live peer and by ``verify``.  A seat that goes silent before its cards were delivered
learnt nothing: it is replaced and the deal restarts, as before (the veto that remains)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from protocol.deck import DeckMessageBody, SharesBody, ShuffleBody
from protocol.deck.bodies import DeckBody
from protocol.match.events import DeckRestarted, SeatReplaced
from protocol.mesh import MeshGame, Network, bot_decider
from protocol.verify.verdicts import VALID
from protocol.verify.verifier import verify
from tests.protocol import deal_toy
from tests.protocol.mechanisms.test_deals import TOY


def _withholding(kind: type[DeckBody], version: int, tag: bytes,
                 scramble: bytes | None = None) -> Network:
    """Three seats deal; seat 2 never sends a DECK body of ``kind``."""
    assert deal_toy.GAME
    net = Network(3, TOY, tag, [bot_decider(b"high%d" % i, "high") for i in range(3)],
                  version=version)
    decks = net.cores[2].decks
    original: Callable[[int], DeckMessageBody | None] = decks.next_body
    decks.next_body = lambda s: (  # type: ignore[method-assign]
        None if (b := original(s)) is not None and isinstance(b.body, kind) else b)
    net.run_with_timeouts(scramble=scramble)
    for peer in (0, 1):
        assert net.cores[peer].signed
        assert [e.seat for e in net.events[peer] if isinstance(e, SeatReplaced)] == [2]
        assert {e.attempt for e in net.events[peer] if isinstance(e, DeckRestarted)} == {1}
    return net


def _noted(notes: tuple[str, ...] | list[str]) -> bool:
    """The verifier's note of seat 2's forfeit (the deal toy has none: it notes that)."""
    return any(n == "seat 2 forfeited where it was to decide: it withheld its shares of deck "
               "cards (its own cards were delivered to it)"
               or n.startswith("seat 2 did not forfeit") for n in notes)


@pytest.mark.parametrize("scramble", [None, b"veto-order"])
def test_a_seat_that_withholds_its_shares_after_it_had_its_cards_withholds(
        scramble: bytes | None) -> None:
    net = _withholding(SharesBody, 3, b"deal-veto", scramble)
    for peer in (0, 1):
        assert net.cores[peer].seats.withholders == {2}
        v = verify(net.match_file(peer))
        assert v.verdict == VALID, v
        assert _noted(v.notes), v.notes


def test_a_seat_silent_before_its_cards_were_delivered_does_not_withhold() -> None:
    net = _withholding(ShuffleBody, 3, b"deal-veto-blind")
    for peer in (0, 1):
        assert not net.cores[peer].seats.withholders
        v = verify(net.match_file(peer))
        assert v.verdict == VALID and not _noted(v.notes), v


def test_version_2_keeps_its_verdict_for_a_deal_withholder() -> None:
    net = _withholding(SharesBody, 2, b"deal-veto-v2")
    assert not net.cores[0].seats.withholders
    v = verify(net.match_file(0))
    assert v.verdict == VALID and not _noted(v.notes), v


def test_a_paper_seat_that_withholds_its_shares_forfeits_for_it() -> None:
    """Paper Dungeons: seat 2 has its powers and objectives, then never sends its shares of
    the others': it forfeits at its setup choice for having withheld them (not merely as a
    seat no zombie can play), and the others play on."""
    net = Network(3, MeshGame("paper"), b"deal-veto-paper")
    decks = net.cores[2].decks
    original: Callable[[int], DeckMessageBody | None] = decks.next_body
    decks.next_body = lambda s: (  # type: ignore[method-assign]
        None if (b := original(s)) is not None and isinstance(b.body, SharesBody) else b)
    for _ in range(5000):  # until seat 2 has learnt its cards
        net.pump(limit=1, partial=True)
        if decks.learnt:
            break
    assert decks.learnt
    net.crash(2)  # (and it stays away: its own client would wait for its cards)
    net.run_with_timeouts()
    assert net.cores[0].signed and net.cores[0].seats.withholders == {2}
    v = verify(net.match_file(0))
    assert v.verdict == VALID and 2 not in v.winners, v
    notes = [n for n in v.notes if n.startswith("seat 2 forfeited")]
    assert len(notes) == 1 and notes[0].startswith(
        "seat 2 forfeited where it was to decide: it withheld its shares of deck ") and (
        notes[0].endswith("(its own cards were delivered to it)")), v.notes
