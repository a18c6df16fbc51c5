"""The full-screen table: the generic frame of :mod:`cli.screen`, filled by the game's plug-in.

It shows what :class:`cli.netplay.NetGame` shows in line mode — the plug-in's lines from the
engine's view of your seat — and answers the same ``choose`` call: the plug-in's input model
(:mod:`cli.inputs`) turns keys into a move, which the engine checks and the screen shows as
selected; Enter locks it in, Backspace takes a part back, Esc drops it.  Each seat's line says
whether it is choosing, locked in, away (overdue) or played by a bot (:class:`cli.seats.SeatNow`);
the status names the seats the table waits for and the decision's clock; the bell rings when it
is your move.  The end of the match is an end screen inside the full screen (scoreboard, result,
the match file, how to check it, the rematch offer).  ``NO_COLOR`` (any value) turns colours
off, an ASCII-only terminal gets ASCII (:mod:`cli.charset`); the layout needs the plug-in's
minimum size (80x24) and follows resizes.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from pathlib import Path
from typing import Any

from cli.games import find_ui, make_ui
from cli.inputs import InputModel, Typed
from cli.netplay import NetGame, NetOptions
from cli.play import Console, LeftGame
from cli.plugin import Frame
from cli.screen import Screen, StyledLine, plain
from cli.seats import SeatNow
from cli.text import join_words, seat_letter, wrap_text
from engine.core import (
    GameState,
    IllegalActionError,
    InvalidActionError,
    Simultaneous,
    Turn,
    read_move,
)
from engine.games import get_game

PLAY_HINTS = ("Enter lock in", "Esc drop", ": type a move", "PgUp/PgDn log", "? help",
              "P pause", "q leave")
FRAME_KEYS = ("q", "y", "n", "r", "l", "s", "P", "D", "backspace")


def hint_rows(items: tuple[str, ...] | list[str], width: int) -> list[StyledLine]:
    """Key hints, whole items per row (an item is never split between rows)."""
    rows: list[str] = []
    line = ""
    for item in items:
        candidate = f"{line}  {item}" if line else f" {item}"
        if line and len(candidate) > width:
            rows.append(line)
            line = f" {item}"
        else:
            line = candidate
    rows.append(line)
    return [plain(row, "class:dim") for row in rows]


class FullScreenGame(NetGame):
    """:class:`NetGame` drawn full screen; the person answers with keys."""

    def __init__(self, options: NetOptions, console: Console) -> None:
        super().__init__(options, console)
        self.choice: asyncio.Future[str] | None = None
        self.state: GameState[Any] | None = None
        self.model: InputModel | None = None  # the keys' model of the decision asked for
        self.selected = ""  # the move the keys selected, checked (Enter locks it in)
        self.locked: tuple[str, str] | None = None  # (step, action) locked in
        self.asked_at = 0.0
        self.step = ""
        self.step_since = time.monotonic()
        self._paused_at: float | None = None  # the shown clock stopped here (a pause)
        self._pause_total = 0.0  # the shown clock stood still this long, in all
        self.confirm_quit = False
        self._leaving: asyncio.Future[None] | None = None  # (sending its LEAVE: l at a LAN table)
        self.over = False
        self.offer_rematch = False
        self.rematch: bool | None = None  # the end screen's answer (None: not asked there)
        self.use_game(options.game)

    def use_game(self, game: str) -> None:
        """Draw ``game`` (its plug-in's keys, styles and size): at the start, or once a table
        joined by address says which game it plays (before the screen runs)."""
        self.game = game
        self.kind = find_ui(game)  # (the plug-in class)
        self.title_text = get_game(game).title
        before = getattr(self, "screen", None)
        self.screen = Screen(title=self._title, board=self._board, status=self._status,
                             hints=self._hints, on_key=self._press,
                             keys=[*self.kind.keys, *FRAME_KEYS], help_text=self._help,
                             min_size=self.kind.min_size, bell=self.options.bell,
                             styles=dict(self.kind.styles),
                             on_interrupt=lambda: self._leave(
                                 "interrupted; you left the game", 130))
        if before is not None:
            self.screen.log.add(*before.log.lines)
        self.app = self.screen.app

    # ------------------------------------------------------------------ output

    line_mode = False  # the game has no full-screen table: everything as NetGame does it

    def say(self, *lines: str) -> None:
        if self.line_mode:
            super().say(*lines)
            return
        self.screen.say(*lines)

    def gap(self) -> None:
        if self.line_mode:
            super().gap()
        elif self.screen.log.lines and self.screen.log.lines[-1]:
            self.screen.say("")

    def _current_view(self) -> Any:
        if self.peer is None or self.ui is None:
            return None
        return self.view()

    def _waiting(self) -> tuple[str, list[int]]:
        """The step in play and the seats it waits for (none locked in yet); the clock of a
        step starts when this client first sees it."""
        if self.peer is None:
            return "", []
        step, seats = self._deciding()
        return step, [s for s in seats if not self._live(step, seats).locked(s)]

    def _deciding(self) -> tuple[str, list[int]]:
        """The step in play and every seat it asks."""
        assert self.peer is not None
        waiting = self.peer.local.decision_state().waiting
        step = str(getattr(waiting, "step", ""))
        if step != self.step:
            self.step, self.step_since = step, self._clock()
        if isinstance(waiting, Simultaneous):
            return step, sorted(waiting.pending)
        if isinstance(waiting, Turn):
            return step, [waiting.seat]
        return step, []

    def _live(self, step: str, seats: list[int]) -> SeatNow:
        mine = self.seat if self.locked is not None and self.locked[0] == step else None
        return SeatNow(self.watch, step, frozenset(seats), mine, self.bot_seats())

    def _title(self, width: int) -> list[StyledLine]:
        view = self._current_view()
        if self.over:
            return [plain(f" cryptcrawl: {self.title_text} — the match is over", "class:title")]
        rows = self.plugin.title(view, width) if view is not None else []
        return rows or [plain(f" cryptcrawl: {self.title_text} — gathering the table...",
                              "class:title")]

    def _board(self, width: int) -> list[StyledLine]:
        view = self._current_view()
        if view is None:
            return [plain(" Waiting for the match to start...")]
        step, seats = self._deciding()
        frame = Frame(width, self._live(step, seats),
                      self.model if self._my_move() else None, self.human,
                      height=self.screen.size[1])
        lines = self.plugin.board(view, frame)
        pick = self._pick_line() if self.human else []
        return [*lines, pick] if pick else lines

    def _pick_line(self) -> StyledLine:
        step, _ = self._waiting()
        if self.locked is not None and self.locked[0] == step:
            hidden = (" (hidden until everyone has chosen)" if isinstance(
                self.state.waiting if self.state is not None else None, Simultaneous) else "")
            return plain(f"Locked in: {self.locked[1]}{hidden}.", "class:good")
        if self.selected and self._my_move():
            return plain(f"Selected: {self.selected}. Enter locks it in; another key changes "
                         "it.", "class:good")
        shown = self.model.shown() if self.model is not None and self._my_move() else ""
        if shown:
            return plain(f"Choosing: {shown}. Backspace takes the last part back.",
                         "class:good")
        return []

    def _my_move(self) -> bool:
        return self.choice is not None and not self.choice.done()

    def _status(self, width: int) -> list[StyledLine]:
        if self.over:
            return [plain(" The match is over.", "class:status")]
        if self.departed:
            return [plain(" You are out of this match: it goes on without you, read-only here "
                          "until its end completes your copy. q leaves now.", "class:status")]
        if self.confirm_quit:
            if not self.options.local:
                return [plain(f" Leave? {self.quit_choices()}"
                              + ("; r: resign." if self.can_resign() else "."), "class:warn")]
            return [plain(f" Leave the match? {self.options.leaving.capitalize()}. y: leave, "
                          "any other key: stay.", "class:warn")]
        if self.offers_to_me:
            offers = "; ".join(f"{self.labels[s]} offers a {w}"
                               for s, w in sorted(self.offers_to_me.items()))
            return [plain(f" {offers}: y accept, n decline.", "class:warn")]
        paused = self._paused()
        step, awaited = self._waiting()
        if paused:
            frozen = (f" (your move: {self._my_left()} s left when it resumes)"
                      if self._my_move() else "")
            return [plain(f" Paused by agreement: no clock runs{frozen}. P resumes.",
                          "class:warn")]
        if self._my_move():
            left = self._my_left()
            others = [s for s in awaited if s != self.seat]
            view = self._current_view()
            what = self.plugin.move_note(view) if view is not None else ""
            text = f" YOUR MOVE{what} ({left} s left)" if left > 0 else (
                f" YOUR MOVE{what} ({self._overtime()})")
            if self.selected:
                text += f": {self.selected} selected, Enter locks it in"
            if others:
                text += f". Also waiting for {self._names(others)}"
            return [plain(text + ".", "class:status")]
        if not step:
            return [plain(" Waiting for the others...", "class:status")]
        others = [s for s in awaited if s != self.seat or not self.human]
        if not others:
            return [plain(" Waiting for the others...", "class:status")]
        left = max(0, int(self._turn_timeout(others) - (self._clock() - self.step_since)))
        return [plain(f" Waiting for {self._names(others)}; {left} s left on the clock.",
                      "class:status")]

    # ------------------------------------------------------------------ the clock

    def _clock(self) -> float:
        """The shown clock's time: the monotonic clock less every agreed pause (it stands
        still while a pause lasts, and goes on from the same value after it)."""
        now = time.monotonic()
        stopped = self._pause_total
        if self._paused_at is not None:
            stopped += now - self._paused_at
        return now - stopped

    def _paused(self) -> bool:
        """Is a pause agreed now (and the shown clock stopped)?"""
        paused = self.peer is not None and bool(self.peer.core.agreements.paused)
        if paused and self._paused_at is None:
            self._paused_at = time.monotonic()
        elif not paused and self._paused_at is not None:
            self._pause_total += time.monotonic() - self._paused_at
            self._paused_at = None
        return paused

    def _my_left(self) -> int:
        """The seconds left of the person's move on the shown clock."""
        return max(0, int(self._turn_timeout([self.seat]) - (self._clock() - self.asked_at)))

    def _overtime(self) -> str:
        """Past the move's timeout: how long the others still wait before a bot takes the
        seat (the match's own clock: it starts again whenever the match moves)."""
        core = self.peer.core if self.peer is not None else None
        if core is None:
            return "your time is up"
        clock = getattr(core, "clock", None)
        since = getattr(clock, "since", None)
        if not isinstance(since, float) or since <= 0:
            return "your time is up: a bot may take your seat"
        deadline = since + core.turn_timeout(self.seat) + core.config.silence_timeout
        wait = int(deadline - time.monotonic())
        if wait <= 0:
            return "your time is up: a bot may take your seat at any moment"
        return f"your time is up: a bot takes your seat in about {wait} s"

    def _turn_timeout(self, seats: list[int]) -> float:
        """How long the match gives ``seats`` now: the header's timeout for what each owes
        (its step's time class for a decision; protocol.md §6.6)."""
        if self.peer is None:
            return float(self.options.timeouts[1])
        return max(self.peer.core.turn_timeout(s) for s in seats)

    def _names(self, seats: list[int]) -> str:
        words = []
        for s in seats:
            label = self.labels[s] if s < len(self.labels) else str(s)
            word = f"{seat_letter(s)} {label}" if label != seat_letter(s) else label
            if self.watch.is_overdue(self.step, s):
                word += " (away)"
            elif s in self.bot_seats():
                word += " (thinking)"
            words.append(word)
        return join_words(words)

    def _hints(self, width: int) -> list[StyledLine]:
        if self.screen.showing_help:
            return hint_rows(("PgUp/PgDn scroll", "Esc close the help"), width)
        if self.over:
            items = ["r rematch (the same seats, a new match)"] if self.offer_rematch else []
            return hint_rows([*items, "q leave", "PgUp/PgDn the match's log"], width)
        if self.confirm_quit:
            if not self.options.local:
                return hint_rows(("l leave for good", "s step away",
                                  *(("r resign",) if self.can_resign() else ()),
                                  "any other key stay"), width)
            return hint_rows(("y leave", "any other key stay"), width)
        if self.offers_to_me:
            return hint_rows(("y accept", "n decline"), width)
        model = self.model.hints if self.model is not None and self._my_move() else ()
        paused = self.peer is not None and self.peer.core.agreements.paused
        frame = tuple("P resume" if paused and h == "P pause" else h for h in PLAY_HINTS)
        if self.can_draw():
            frame = (*frame[:-1], "D draw", frame[-1])
        return hint_rows((*self.kind.key_hints, *model, *frame), width)

    def _help(self) -> str:
        ui = self.ui or make_ui(self.game, self.options.players, dict(self.options.options))
        return ui.help_pane()

    # ------------------------------------------------------------------ input

    def _press(self, k: str) -> None:
        self.screen.message = ""
        if self.over:
            if k == "r" and self.offer_rematch:
                self.rematch = True
                self.screen.exit()
            elif k == "q":  # (not Enter: the Enter that locked the last move in may repeat)
                self.rematch = False
                self.screen.exit()
            return
        if self.departed:
            if k == "q":  # (the rest of the match is not waited for: the copy stops here)
                self._leave("You left; your copy of the match stops where it was.")
            return
        if self.confirm_quit:
            self.confirm_quit = False
            if self.options.local and k == "y":
                self._leave(self.options.left)
            elif not self.options.local and k == "s":
                self._leave(self.stepped_away())
            elif not self.options.local and k == "l":
                self._leave_for_good()
            elif not self.options.local and k == "r" and self.can_resign():
                self._leave_for_good(resign=True)
            return
        if self._typing() and (len(k) == 1 or k == "space"):
            self._select(k)  # (a typed move takes every printable key, q and y included)
        elif k == ":" and self._my_move() and self.state is not None:
            self._type_move()
        elif self.offers_to_me and k in ("y", "n"):
            self.say(self.answer_offers(k == "y"))  # (in the log, where the offer came)
        elif k in ("P", "D"):
            self.say(self.offer("pause" if k == "P" else "draw"))
        elif k == "q":
            self.confirm_quit = True
        elif k == "enter":
            self._lock()
        elif k == "escape":
            self.selected = ""
            if self._typing() and self.state is not None:  # (back to the game's own keys)
                self.model = self.plugin.inputs(self.state, self.seat)
            elif self.model is not None:
                self.model.clear()
        elif k == "backspace":
            self._undo()
        elif k in self.kind.keys:
            self._select(k)

    def _typing(self) -> bool:
        return isinstance(self.model, Typed) and self._my_move()

    def _type_move(self) -> None:
        """``:`` — type the move in the game's notation instead (any decision, however many
        moves it has); Esc goes back to the game's own keys."""
        self.model = Typed()
        self.selected = ""
        self.screen.message = ("Type your move in the game's notation; Enter checks and locks "
                               "it in, Esc goes back to the keys.")

    def _select(self, key: str) -> None:
        """A key of the game's input model: the move it builds, checked once it is whole."""
        if not self._my_move() or self.state is None or self.model is None:
            self.screen.message = "Not your move yet."
            return
        saved = self.model.snapshot()
        refused = self.model.press(key)
        if refused:
            self.screen.message = refused
            return
        if refused is None:  # (a key of the game that this decision does not take)
            return
        if not isinstance(self.model, Typed):  # (a typed move is checked whole, on Enter)
            self._check(saved)

    def _check(self, saved: Any) -> None:
        """The model's draft through the engine: selected if legal; else the reason, and the
        model as it was before the key."""
        assert self.model is not None and self.state is not None
        if not self.model.ready():
            self.selected = ""
            return
        try:
            self.selected = read_move(self.state, self.seat, self.model.draft())
        except (InvalidActionError, IllegalActionError) as exc:
            self.screen.message = (self.refused(exc, self.state, self.seat)
                                   if isinstance(self.model, Typed)
                                   else " ".join(str(exc).split()))
            self.model.restore(saved)  # (the selection stays what it was before the key)
            return

    def _undo(self) -> None:
        if not self._my_move() or self.model is None:
            self.screen.message = "Not your move yet."
            return
        if not self.model.undo():
            self.screen.message = "Nothing to take back."
            return
        if not isinstance(self.model, Typed):
            self._check(self.model.snapshot())

    def _lock(self) -> None:
        if not self._my_move() or self.choice is None or self.state is None:
            self.screen.message = "Not your move yet."
            return
        if isinstance(self.model, Typed) and self.model.ready():
            self._check(self.model.snapshot())  # (refused: the reason, and the text kept)
        if not self.selected:
            if not isinstance(self.model, Typed) or not self.model.ready():
                view = self._current_view()
                self.screen.message = (self.plugin.select_words(view) if view is not None
                                       else self.kind.select_hint)
            return
        step, _ = self._waiting()
        action = self.state.parse_action(self.seat, self.selected)
        if not get_game(self.state.game).free_action(self.state, self.seat, action):
            self.locked = (step, self.selected)  # (a free action is no move: still asked)
        self.choice.set_result(self.selected)
        self.selected = ""

    # ------------------------------------------------------------------ running

    def run_ui(self) -> asyncio.Future[None]:
        """Start the screen.  Ctrl-C sent as a signal (kill -INT), a terminal that hangs up, a
        kill: the game is left as with the keys, so the terminal gets its settings back (the
        screen closes normally) and the match file stays resumable; the exit status is 128
        plus the signal's number.  While it runs, nothing else writes to the terminal."""
        loop = asyncio.get_running_loop()
        numbers = [getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                   if hasattr(signal, name)]
        for number in numbers:
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(number, self._leave,
                                        f"{signal.Signals(number).name[3:].lower()}: you left "
                                        "the game", 128 + number)
        continued = getattr(signal, "SIGCONT", None)  # (back from a stop: everything again)
        if continued is not None:
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(continued, self.screen.redraw)
        capture = self.screen.capture(self.console)
        capture.__enter__()

        def restore(_: object) -> None:
            capture.__exit__(None, None, None)
            for number in [*numbers, *([continued] if continued is not None else [])]:
                with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                    loop.remove_signal_handler(number)

        ui = self.screen.run()
        ui.add_done_callback(restore)
        return ui

    def _leave_for_good(self, *, resign: bool = False) -> None:
        """Send this seat's LEAVE or RESIGN (protocol.md §7.7), then leave the screen."""
        if self._leaving is not None:
            return

        words = self.departed_words(resign=resign)

        async def go() -> None:
            sent = False
            try:
                sent = await self.leave_for_good(resign=resign)
            finally:
                if sent:  # (the match goes on without this seat: its end is shown here)
                    self.departed = True
                    self.say(*wrap_text(words))
                    self.screen.invalidate()
                else:
                    self._leave("You resigned." if resign else "You left the match.")

        self.screen.message = "Resigning..." if resign else "Leaving the match for good..."
        self._leaving = asyncio.ensure_future(go())

    def _leave(self, why: str = "You left the game.", code: int = 0) -> None:
        if self.stop is None:
            self.stop = LeftGame(why, code)
        if self.task is not None:
            self.task.cancel()
        self.screen.exit()

    @property
    def answer_keys(self) -> str:
        return super().answer_keys if self.line_mode else "y accept, n decline"

    def _ask_offer(self) -> None:
        if self.line_mode:
            super()._ask_offer()
            return
        self.screen.bell()
        self.screen.invalidate()

    async def choose(self, state: GameState[Any], seat: int) -> str:
        if self.line_mode:
            return await super().choose(state, seat)
        self.state = state
        self.selected = ""
        self.model = self.plugin.inputs(state, seat)
        self.choice = asyncio.get_running_loop().create_future()
        self.asked_at = self._clock()
        self.screen.bell()
        self.screen.invalidate()
        try:
            text = await self.choice
            self.say(*self.plugin.own_move(text))
            return text
        finally:
            self.choice = None
            self.screen.invalidate()

    def finish(self, core_state: GameState[Any], path: Path) -> None:
        if self.line_mode:
            super().finish(core_state, path)
            return
        self.end = self.end_lines(core_state, path)
        self.over = True
        self.screen.show_end(self.end)

    def printed_end(self) -> None:
        """After the screen closed: the end once more, in the terminal's scrollback."""
        end = getattr(self, "end", None)
        if end:
            self.console.say(*end)


class LanFullScreenGame(FullScreenGame):
    """``host``, ``join`` and ``resume`` on a terminal: the lobby talks in line mode (joiners to
    approve, fingerprints, warnings); the screen takes over when the match starts."""

    def __init__(self, options: NetOptions, console: Console) -> None:
        super().__init__(options, console)
        self.screen_task: asyncio.Future[None] | None = None
        self.offer_rematch = options.role in ("host", "join")

    def attach(self, peer: Any) -> None:
        game = peer.core.header.header.game
        if game != self.game:
            self.use_game(game)
        if not self.kind.full_screen:  # (a table joined by address: its game has none)
            self.line_mode = True
            self.console.say(f"{self.title_text} has no full-screen table yet: line mode "
                             "(--plain) it is.")
        elif self.screen_task is None:
            self.screen_task = self.run_ui()
        super().attach(peer)

    async def close_ui(self) -> None:
        """The match failed or was left: give the terminal back (once the screen is gone)."""
        self.screen.exit()
        if self.screen_task is not None:
            with contextlib.suppress(BaseException):
                await asyncio.shield(self.screen_task)

    async def wait_ui(self) -> None:
        """After :meth:`finish`: the end screen stays until the player leaves it; then the end
        is printed in the terminal's scrollback too."""
        if self.screen_task is None:
            return
        await self.screen_task
        self.printed_end()


async def play_full_screen(options: NetOptions, console: Console, data_dir: Path) -> tuple[
        int, bool]:
    """``cryptcrawl play`` on a terminal: the same match as line mode, drawn full screen.
    Returns the exit status and whether the end screen asked for a rematch."""
    from p2p.peer import PeerConfig
    from p2p.run import host

    game = FullScreenGame(options, console)
    game.offer_rematch = True
    config = PeerConfig(linger=0.5)

    async def go() -> None:
        result = await host(data_dir, game=options.game,
                            name=options.name or "you", players=options.players,
                            options=dict(options.options), bots=options.bots,
                            bot=options.bot_kinds(options.bots), choose=game.choose,
                            config=config,
                            on_event=game.on_event, on_peer=game.attach,
                            bot_dir=data_dir / "bots",
                            bot_seed=options.bot_seed.encode() or None,
                            timeouts=options.timeouts)
        game.finish(result.core.state, result.path)

    game.task = asyncio.ensure_future(go())
    ui = game.run_ui()
    try:
        done, _ = await asyncio.wait({game.task, ui}, return_when=asyncio.FIRST_COMPLETED)
        if game.task in done and not game.task.cancelled():
            error = game.task.exception()
            if error is not None:
                game.screen.exit()
                with contextlib.suppress(BaseException):
                    await ui
                raise error
        await ui
    finally:
        if not game.task.done():
            game.task.cancel()
    if game.stop is not None:
        raise game.stop
    game.printed_end()
    return 0, bool(game.rematch)
