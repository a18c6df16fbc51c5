"""The generic full-screen frame (cli/screen.py) without a terminal: its rows for a size."""

from __future__ import annotations

import io

from cli.games.raiders.ui import RaidersUI
from cli.screen import Screen, Scroll, plain, text_of, wrap
from cli.seats import SeatWatch
from cli.tui import PLAY_HINTS, hint_rows
from protocol.match.core import (
    ActionTaken,
    PlayCommitted,
    PlayRevealed,
    SeatReclaimed,
    SeatReplaced,
    SeatsOverdue,
)


def frame(board: int = 10, **kw: object) -> tuple[Screen, list[str]]:
    keys: list[str] = []
    screen = Screen(title=lambda w: [plain(" Level 1/5")],
                    board=lambda w: [plain(f"board {i}") for i in range(board)],
                    status=lambda w: [plain(" YOUR MOVE")],
                    hints=lambda w: hint_rows((*RaidersUI.key_hints, *PLAY_HINTS), w),
                    on_key=keys.append,
                    keys=["1", "q"], help_text=lambda: "\n".join(f"help {i}" for i in range(60)),
                    **kw)  # type: ignore[arg-type]
    return screen, keys


def rows(screen: Screen, width: int = 80, height: int = 24) -> list[str]:
    return [text_of(r) for r in screen.lines(width, height)]


def test_the_log_follows_its_newest_line_and_scrolls() -> None:
    screen, _ = frame()
    rows(screen)
    for i in range(100):
        screen.say(f"Room {i % 5 + 1}, line {i}")
    shown = rows(screen)
    assert len(shown) == 24
    assert "Room 5, line 99" in shown  # the newest line, at 80x24
    screen.press("pageup")
    older = rows(screen)
    assert "Room 5, line 99" not in older and any("older lines" in r for r in older)
    screen.press("pageup")
    screen.press("end")
    assert "Room 5, line 99" in rows(screen)
    screen.press("pageup")
    screen.press("pagedown")
    screen.press("pagedown")
    assert "Room 5, line 99" in rows(screen)


def test_the_board_gives_way_to_the_log_at_80x24() -> None:
    screen, _ = frame(board=40)
    screen.say("Room 3, Troll: you 5, B 4, C 2", "  Troll 14: 5+4+2 = 11, not defeated.")
    shown = rows(screen)
    assert len(shown) == 24 and shown[-3] == " YOUR MOVE", shown
    assert "Room 3, Troll: you 5, B 4, C 2" in shown, shown
    assert "  Troll 14: 5+4+2 = 11, not defeated." in shown, shown


def test_hints_and_long_lines_wrap_instead_of_being_cut() -> None:
    screen, _ = frame()
    screen.message = ("illegal 'play sword': you have no sword; a sword counts 5 against "
                      "monsters and the boss only, and you hold none of them now")
    for width in (80, 120):
        shown = rows(screen, width, 24 if width == 80 else 40)
        assert all(len(r) <= width for r in shown)
        joined = " ".join(" ".join(shown).split())
        assert "hold none of them now" in joined and "q leave" in joined and "? help" in joined
    assert [text_of(r) for r in wrap(plain("  " + "word " * 40), 30)][1].startswith("    ")


def test_a_window_too_small_says_the_minimum_and_keys_do_nothing() -> None:
    screen, keys = frame()
    shown = " ".join(rows(screen, 70, 20))
    assert "Window too small" in shown and "at least 80x24" in shown and "70x20" in shown
    screen.press("1")
    screen.press("enter")
    screen.press("?")
    assert keys == [] and not screen.showing_help
    rows(screen)  # (80x24 again)
    screen.press("1")
    assert keys == ["1"]


def test_help_pane_scrolls_and_escape_closes_it() -> None:
    screen, keys = frame()
    rows(screen)  # (drawn once: keys count from then on)
    screen.press("?")
    first = rows(screen)
    assert "help 0" in first and "help 59" not in first
    for _ in range(5):
        screen.press("pagedown")
    assert "help 59" in rows(screen)
    screen.press("1")  # game keys do not reach the game under the help
    assert keys == []
    screen.press("escape")
    assert not screen.showing_help and "board 0" in rows(screen)


def test_end_pane_replaces_the_board_and_the_log_stays_below_it() -> None:
    screen, keys = frame()
    rows(screen)
    screen.say(*(f"Turn {i}: a line of the match" for i in range(1, 401)))
    screen.show_end(["Final scores", "You win with 20 coins!"])
    shown = rows(screen)
    assert "You win with 20 coins!" in shown and "board 0" not in shown
    assert "Turn 400: a line of the match" in shown  # (the last turns under the end)
    for _ in range(40):
        screen.press("pageup")  # (the whole match, from the end screen)
    assert "Turn 1: a line of the match" in rows(screen)
    assert "You win with 20 coins!" in rows(screen)
    screen.press("q")
    assert keys == ["q"]


def test_the_log_keeps_a_whole_match() -> None:
    screen, _ = frame()
    screen.say(*(f"line {i}" for i in range(12_000)))
    assert len(screen.log.lines) == 10_000 and text_of(screen.log.lines[0]) == "line 2000"


def test_scroll_of_a_page_from_its_top() -> None:
    page = Scroll(top_first=True)
    page.add(*(plain(str(i)) for i in range(30)))
    assert [text_of(r) for r in page.view(10, 5)][:4] == ["0", "1", "2", "3"]


def test_seat_watch_from_the_protocol_events() -> None:
    watch = SeatWatch()
    watch.on_event(PlayCommitted("L1.R2.play", 1))
    watch.on_event(PlayRevealed("L1.R2.play", 2, "play 3"))
    watch.on_event(SeatsOverdue((0, 1), "L1.R2.play", 5.0))
    assert watch.is_locked("L1.R2.play", 1) and watch.is_locked("L1.R2.play", 2)
    assert not watch.is_locked("L1.R3.play", 1)  # another step
    assert watch.is_overdue("L1.R2.play", 0) and not watch.is_overdue("L1.R2.play", 1)
    watch.on_event(SeatReplaced(0, 7, "absent"))
    assert watch.bot_plays(0)
    watch.on_event(ActionTaken("L2.R3.play", 0, "play 4", zombie=True))
    watch.on_event(ActionTaken("L2.R4.play", 0, "play 2", zombie=True))
    watch.on_event(SeatReclaimed(0, "L3.R1.play"))
    assert not watch.bot_plays(0)
    [stretch] = watch.played_by_bot()[0]
    assert (stretch.first, stretch.back) == ("L2.R3.play", "L3.R1.play")


def test_a_bot_seat_the_step_waits_on_is_thinking() -> None:
    """A seat a bot peer plays (its name says so: cli.netplay.NetGame.bot_seats) is shown as
    thinking while the step waits on it; locked in or away as any seat once it is."""
    from cli.seats import SeatNow

    watch = SeatWatch()
    watch.on_event(PlayCommitted("L1.R2.play", 2))
    watch.on_event(SeatsOverdue((3,), "L1.R2.play", 5.0))
    now = SeatNow(watch, "L1.R2.play", frozenset({0, 1, 2, 3}), None, frozenset({1, 2, 3}))
    assert [now.status(s) for s in range(4)] == ["choosing", "thinking", "locked in",
                                                 "away (overdue)"]
    assert now.thinking(1) and not now.thinking(0) and not now.thinking(2)
    idle = SeatNow(watch, "L1.R2.play", frozenset({0}), None, frozenset({1}))
    assert idle.status(1) == "" and not idle.thinking(1)


def test_a_bot_seat_is_known_by_its_name() -> None:
    from cli.netplay import NetGame, NetOptions
    from cli.play import Console

    game = NetGame(NetOptions(), Console(io.StringIO(), io.StringIO()))
    game.names = ["Ann", "Bot 1 (strong)", "Bot 2 (easy)", "Bot 3", "Joe (strong)"]
    assert game.bot_seats() == frozenset({1, 2})


def test_line_mode_says_which_bots_still_think_once_you_chose() -> None:
    from types import SimpleNamespace

    from cli.netplay import NetGame, NetOptions
    from cli.play import Console
    from engine.core import Simultaneous

    out = io.StringIO()
    game = NetGame(NetOptions(), Console(io.StringIO(), out))
    game.names = ["Ann", "Bot 1 (strong)", "Bot 2 (strong)", "Bot 3 (easy)"]
    game.labels = ("you", *game.names[1:])
    game.watch.on_event(PlayCommitted("L1.R2.play", 3))  # locked in already
    state = SimpleNamespace(waiting=Simultaneous("L1.R2.play", frozenset(range(4))))
    game._thinking_note(state, 0)  # type: ignore[arg-type]
    assert out.getvalue() == "Bot 1 (strong) and Bot 2 (strong) are thinking...\n"
