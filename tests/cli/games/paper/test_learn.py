"""Paper Dungeons taught on the screen (issue 48): before the setup choice the full screen
says what each dealt power does, what each objective counts and what the styles mean; the
villains with their lairs and the open missions are on the full screen; a 120x40 window shows
more than 80x24; Enter with nothing chosen at the setup choice says how to choose; the rules
(``?``, ``cryptcrawl rules paper``) explain every power, the hearts and the score letters,
which the final scoreboard names too."""

from __future__ import annotations

from typing import Any

from cli.games import make_ui
from cli.plugin import Frame, Seating
from cli.text import text_of
from engine.core import Over, Simultaneous
from engine.games import get_game
from engine.paper.data import MISSIONS, POWERS
from engine.sim import Dealer, play_out
from tests.cli.games.cursor import NoLive


def _states() -> list[Any]:
    spec = get_game("paper")
    seen: list[Any] = []
    play_out(spec.new(players=2), [spec.bots["random"]() for _ in range(2)],
             Dealer(b"learn paper"), on_state=seen.append)
    return seen


def _ui() -> Any:
    return make_ui("paper", 2, {}, Seating(("you", "Bo"), 0, "me"))


def _board(state: Any, width: int, height: int) -> str:
    ui = _ui()
    view = state.view(0)
    model = ui.inputs(state, 0)
    return "\n".join(text_of(line) for line in ui.board(view, Frame(
        width, NoLive(), model, height=height)))


def test_the_setup_choice_says_what_the_powers_objectives_and_styles_are() -> None:
    state = next(s for s in _states() if isinstance(s.waiting, Simultaneous)
                 and s.view(0).phase == "choose")
    text = " ".join(_board(state, 80, 24).split())
    for power in (c for c in state.view(0).powers if c):
        assert f"{POWERS[power].name}: {POWERS[power].text}" in text, text
    assert "warrior/wizard/cleric/rogue in that order, B black or W white" in text
    assert _ui().select_words(state.view(0)) == "Choose with Up/Down first, then Enter."


def test_villains_lairs_and_missions_are_on_the_full_screen_and_a_large_window_shows_more(
        ) -> None:
    state = next(s for s in _states() if s.view(0).phase == "plan")
    small = _board(state, 80, 24)
    large = _board(state, 120, 40)
    view = state.view(0)
    assert "Villains (lair/weak to): I " in small and "Missions open: " in small
    for lair in view.lairs:
        assert lair in small.split("Villains", 1)[1]
    assert all(len(line) <= 80 for line in small.splitlines())
    assert "(lair " in large and "Bo: " in large  # (in full; every other seat on its own line)
    assert all(MISSIONS[m].text in " ".join(large.split()) for m in view.open_missions)
    assert max(len(line) for line in large.splitlines()) > 80  # (the window's width is used)


def test_the_rules_explain_every_power_the_hearts_and_the_score_letters() -> None:
    ui = _ui()
    rules = ui.rules()
    for power in POWERS:
        assert f"{power}:" in rules, power
    assert "a heart" in rules and "A-C the three fights" in rules
    final = next(s for s in _states() if isinstance(s.waiting, Over))
    board = "\n".join(ui.scoreboard(final.view(0), final.waiting.outcome, {}))
    assert "A-C the three villain fights" in board and "L the total" in board
