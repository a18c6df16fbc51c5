"""Whole games through the offline loop (engine.sim.play_out): private deals without
replacement, the kept power shown with its deal, the sealed objective learned, opened at final
scoring with its deal shown, and the record replayed, whole or public."""

from __future__ import annotations

from collections import Counter

from engine.core import (
    Dealt,
    Learned,
    Opened,
    Openings,
    Over,
    Shown,
)
from engine.games import replay
from engine.paper import PaperState, new_game
from engine.paper.bots import RandomBot, SearchBot, zombie_bot
from engine.paper.data import OBJECTIVES
from engine.sim import Dealer, play_out


def test_a_whole_game_with_private_deals_and_sealed_objectives() -> None:
    bots = [SearchBot(budget=1200, beam=6), zombie_bot(), RandomBot(), RandomBot()]
    seen: list[PaperState] = []
    run = play_out(new_game(4), bots, Dealer(b"whole game"),
                   on_state=lambda s: seen.append(s))  # type: ignore[arg-type,func-returns-value]
    history = run.history
    kinds = Counter(type(e).__name__ for e in history)
    assert kinds["Dealt"] == 16 and kinds["Opened"] == 4 and kinds["Shown"] == 8
    dealt = [e.event for e in history if isinstance(e, Dealt)]
    cards = {e: c for x in history if isinstance(x, Learned) for e, c in x.knowledge}
    assert len({cards[e] for e in dealt if ".power." in e}) == 8  # no duplicates
    assert len({cards[e] for e in dealt if ".objective." in e}) == 8
    # The setup step was committed seat by seat: public choices, objectives learned apart.
    setup = [e for e in history if isinstance(e, Learned) and e.knowledge[0][0].startswith(
        "objective.")]
    assert len(setup) == 4
    assert not any("objective" in e.action for e in history if type(e).__name__ == "Acted")
    # Kept powers are shown right after the setup; objectives at the end, then opened.
    shown = [e for e in history if isinstance(e, Shown)]
    assert [e.event.split(".")[1] for e in shown] == ["power"] * 4 + ["objective"] * 4
    for e in shown:
        assert cards[e.event] == e.card
    opened = [e for e in history if isinstance(e, Opened)]
    state = run.state
    assert isinstance(state, PaperState) and isinstance(state.waiting, Over)
    for e in opened:
        ((_, value),) = e.values
        card = cards[f"setup.objective.{e.seat}.{value}"]
        assert OBJECTIVES[card].styles == state.sheets[e.seat].styles
        assert f"objective {card}" in state.waiting.outcome.standings[e.seat].detail
    assert any(isinstance(s.waiting, Openings) for s in seen)
    # Replay: whole, and the public record (no private knowledge) to the same public state.
    assert replay("paper", history, options={"players": 4}) == state
    public = [e for e in history if not isinstance(e, Learned)]
    assert replay("paper", public, options={"players": 4}).public_bytes() == (
        state.public_bytes())


def test_a_replaced_seats_objective_scores_zero() -> None:
    run = play_out(new_game(2), [RandomBot(), RandomBot()], Dealer(b"replaced"))
    cut = next(i for i, e in enumerate(run.history) if isinstance(e, Shown) and (
        ".objective." in e.event))
    state = replay("paper", run.history[:cut], options={"players": 2})
    assert isinstance(state.waiting, Openings)
    state = state.void_sealed(1)
    for entry in run.history[cut:]:
        if getattr(entry, "seat", 0) == 0:
            state = (state.open_private(0, entry.event, entry.card) if isinstance(entry, Shown)
                     else state.open_sealed(0, dict(entry.values)))  # type: ignore[union-attr]
    w = state.waiting
    assert isinstance(w, Over)
    assert "never opened" in w.outcome.standings[1].detail
