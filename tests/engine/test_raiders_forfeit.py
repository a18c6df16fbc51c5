"""Dungeon Raiders' forfeit (docs/rules/raiders.md, "Forfeits"; protocol.md §7.7): the seat stays
in play — its zombie plays its cards, so every room is the same for the others — but it cannot
win; final scoring ranks the others as if it were not there."""

from __future__ import annotations

import pytest

from engine.core import IllegalActionError, Over
from engine.raiders import from_position, new_game
from engine.raiders.bots import make_bot
from engine.sim import Dealer, play_out
from tests.engine.test_rules import A, B, C, D, over


def test_a_forfeited_seat_cannot_win_and_the_next_best_does() -> None:
    state = from_position({**over(4, [1, 2, 1, 3], [20, 12, 11, 5]), "forfeited": [A]})
    w = state.waiting
    assert isinstance(w, Over)
    assert w.outcome.winners == frozenset({B})
    assert [s.status for s in w.outcome.standings] == ["forfeited", "winner", "lost", "fainted"]


def test_the_fainting_rule_looks_past_a_forfeited_seat() -> None:
    # D has the most wounds among the seats still ranked, so D faints; A (forfeited) is not
    # counted among the survivors, though it has even more wounds.
    state = from_position({**over(4, [6, 2, 1, 3], [3, 12, 11, 20]), "forfeited": [A]})
    w = state.waiting
    assert isinstance(w, Over)
    assert w.outcome.winners == frozenset({B})
    assert w.outcome.standings[D].status == "fainted"


def test_nobody_left_to_win() -> None:
    state = from_position({**over(3, [1, 1, 1], [5, 6, 7], (B, C)), "forfeited": [A]})
    w = state.waiting
    assert isinstance(w, Over)
    assert w.outcome.winners == frozenset() and "nobody" in w.outcome.reason


def test_a_forfeit_keeps_the_seat_in_play_and_changes_no_room() -> None:
    dealer = Dealer(b"forfeit-rooms")
    bots = [make_bot("heuristic") for _ in range(4)]
    plain = play_out(new_game(4), bots, dealer)
    forfeited = play_out(new_game(4).forfeit(C), bots, dealer)
    end, end_f = plain.state, forfeited.state
    assert end.players == end_f.players and end.rooms == end_f.rooms  # type: ignore[attr-defined]
    w = end_f.waiting
    assert isinstance(w, Over) and C not in w.outcome.winners
    assert w.outcome.standings[C].status == "forfeited"


def test_a_forfeit_round_trips_through_a_position_and_the_digest_of_none_is_unchanged() -> None:
    state = new_game(4)
    assert "forfeited" not in state.to_position()
    once = state.forfeit(B)
    assert once.digest() != state.digest()
    assert from_position(once.to_position()) == once
    with pytest.raises(IllegalActionError, match="already forfeited"):
        once.forfeit(B)
    with pytest.raises(IllegalActionError, match="no seat"):
        once.forfeit(7)


@pytest.mark.parametrize("bad", [[9], [1, 1], ["1"], "1"])
def test_a_bad_forfeited_list_is_a_position_error(bad: object) -> None:
    with pytest.raises(ValueError, match="forfeited"):
        from_position({**over(4, [1, 1, 1, 1], [1, 2, 3, 4]), "forfeited": bad})
