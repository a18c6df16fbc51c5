"""The full-screen Dungeon Raiders table: the game's slots of the generic :mod:`cli.screen`.

It shows what :class:`cli.netplay.NetGame` shows in line mode — the same render functions of the
engine's view of your seat — and answers the same ``choose`` call: a key selects a card, Enter
locks it in.  Each seat's line says whether it is choosing, locked in, away (overdue) or played
by a bot (:class:`cli.seats.SeatWatch`); the status names the seats the table waits for and the
decision's clock; the bell rings when it is your move.  The end of the match is an end screen
inside the full screen (scoreboard, result, the match file, how to check it, the rematch offer).
``NO_COLOR`` (any value) turns colours off; the layout needs 80×24 and follows resizes.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from pathlib import Path
from typing import Any

from cli import render
from cli.netplay import NetGame, NetOptions
from cli.play import Console, LeftGame
from cli.raiders_help import help_text
from cli.screen import Screen, StyledLine, plain
from engine.core import GameState, IllegalActionError, InvalidActionError, Simultaneous, Turn
from engine.raiders import RaidersView
from engine.raiders.cards import room_name

KEYS = {"1": "play 1", "2": "play 2", "3": "play 3", "4": "play 4", "5": "play 5",
        "k": "play key", "s": "play sword", "c": "play crystal", "t": "torch",
        "T": "play torch"}
PLAY_HINTS = ("1-5 card", "k key", "s sword", "c crystal ball", "t torch (look)",
              "T torch (play)", "Enter lock in", "Esc drop", "PgUp/PgDn log", "? help",
              "q leave")
MIN_SIZE = (80, 24)
STYLES = {"room.dark": "bg:#303030 #808080", "room.current": "reverse bold",
          "room.done": "#808080"}
DEALING = ("setup", "level", "deal")


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
        self.selected = ""  # the action a key selected (Enter locks it in)
        self.locked: tuple[str, str] | None = None  # (step, action) locked in
        self.asked_at = 0.0
        self.step = ""
        self.step_since = time.monotonic()
        self.confirm_quit = False
        self.over = False
        self.offer_rematch = False
        self.rematch: bool | None = None  # the end screen's answer (None: not asked there)
        self.screen = Screen(title=self._title, board=self._board, status=self._status,
                             hints=self._hints, on_key=self._press,
                             keys=[*KEYS, "q", "y", "n", "r"], help_text=self._help,
                             min_size=MIN_SIZE, bell=options.bell, styles=STYLES,
                             on_interrupt=lambda: self._leave(
                                 "interrupted; you left the game", 130))
        self.app = self.screen.app

    # ------------------------------------------------------------------ output

    def say(self, *lines: str) -> None:
        self.screen.say(*lines)

    def gap(self) -> None:
        if self.screen.log.lines and self.screen.log.lines[-1]:
            self.screen.say("")

    def _current_view(self) -> RaidersView | None:
        if self.peer is None:
            return None
        return self.view()

    def _waiting(self) -> tuple[str, list[int]]:
        """The step in play and the seats it waits for (none locked in yet); the clock of a
        step starts when this client first sees it."""
        if self.peer is None:
            return "", []
        waiting = self.peer.local.decision_state().waiting
        step = str(getattr(waiting, "step", ""))
        if step != self.step:
            self.step, self.step_since = step, time.monotonic()
        if isinstance(waiting, Simultaneous):
            seats = sorted(waiting.pending)
        elif isinstance(waiting, Turn):
            seats = [waiting.seat]
        else:
            seats = []
        return step, [s for s in seats if not self._locked(step, s)]

    def _locked(self, step: str, seat: int) -> bool:
        if seat == self.seat and self.locked is not None and self.locked[0] == step:
            return True
        return self.watch.is_locked(step, seat)

    def _now_of(self, view: RaidersView) -> dict[int, str]:
        """The seats' "now" column where this client knows more than the view."""
        step, _ = self._waiting()
        out: dict[int, str] = {}
        for sv in view.seats:
            text = ""
            if sv.status in ("choosing", "committed"):
                if self._locked(step, sv.seat) or sv.status == "committed":
                    text = "locked in"
                elif self.watch.is_overdue(step, sv.seat):
                    text = "away (overdue)"
                else:
                    text = render.seat_now(sv)
            if self.watch.bot_plays(sv.seat):
                text = "a bot" + (f": {text}" if text else " plays it")
            if text:
                out[sv.seat] = text
        return out

    def _title(self, width: int) -> list[StyledLine]:
        view = self._current_view()
        if self.over:
            return [plain(" cryptcrawl: Dungeon Raiders — the match is over", "class:title")]
        if view is None or not view.level:
            return [plain(" cryptcrawl: Dungeon Raiders — gathering the table...",
                          "class:title")]
        head = f" Level {view.level}/5 "
        rows: list[StyledLine] = [[("class:title", head)]]
        used = len(head)
        for room in view.row:
            if room.state == "down":
                text = "[ ? ]" + (f" (torch: {room_name(room.peeked)})" if room.peeked else "")
                style = "class:room.dark"
            elif not room.card:
                text, style = "[   ]", "class:room.dark"
            else:
                text = room_name(room.card)
                style = {"current": "class:room.current", "done": "class:room.done"}.get(
                    room.state, "")
            sep = " | " if room.position > 1 else " "
            cell = f"{room.position} {text}"
            if room.position > 1 and used + len(sep) + len(cell) > width:
                rows.append([("", " " * (len(head) - 2) + "|")])  # (a cell is never split)
                used = len(head) - 1
            rows[-1] += [("", sep), ("", f"{room.position} "), (style, text)]
            used += len(sep) + len(cell)
        return rows

    def _board(self, width: int) -> list[StyledLine]:
        view = self._current_view()
        if view is None:
            return [plain(" Waiting for the match to start...")]
        if not view.level or view.phase in DEALING:
            return [plain(f" Level {max(1, view.level)}: dealing the rooms (every seat "
                          "contributes a secret to each)...")]
        lines: list[StyledLine] = [plain(f" Room {view.room} of 5. "
                                         + render.render_supply(view) + ".")]
        described = render.render_room(view)
        if described:
            lines.append(plain(" " + " ".join(described)))
        now_of = self._now_of(view)
        seats = render.render_seats(view, self.labels, name=self.options.name, now_of=now_of)
        lines.append(plain(seats[0], "class:dim"))
        for sv, text in zip(view.seats, seats[1:], strict=True):
            lines.append(plain(text, "class:you" if sv.seat == self.seat and self.human
                               else ""))
        if self.human:
            hand = [line for line in render.render_hand(view)
                    if not line.startswith("You have chosen")]
            lines += [plain(line, "class:you") for line in hand]
            pick = self._pick_line()
            if pick:
                lines.append(pick)
        return lines

    def _pick_line(self) -> StyledLine:
        step, _ = self._waiting()
        if self.locked is not None and self.locked[0] == step:
            return plain(f"Locked in: {self.locked[1]} (hidden until everyone has chosen).",
                         "class:good")
        if self.selected and self._my_move():
            return plain(f"Selected: {self.selected}. Enter locks it in; another key changes "
                         "it.", "class:good")
        return []

    def _my_move(self) -> bool:
        return self.choice is not None and not self.choice.done()

    def _status(self, width: int) -> list[StyledLine]:
        if self.over:
            return [plain(" The match is over.", "class:status")]
        if self.confirm_quit:
            return [plain(f" Leave the match? {self.options.leaving.capitalize()}. y: leave, "
                          "any other key: stay.", "class:warn")]
        step, awaited = self._waiting()
        if self._my_move():
            left = max(0, int(self._turn_timeout([self.seat])
                              - (time.monotonic() - self.asked_at)))
            others = [s for s in awaited if s != self.seat]
            view = self._current_view()
            what = (", the follow-up to your crystal ball" if view is not None
                    and view.phase == "followup" else "")
            text = f" YOUR MOVE{what} ({left} s left)"
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
        left = max(0, int(self._turn_timeout(others) - (time.monotonic() - self.step_since)))
        return [plain(f" Waiting for {self._names(others)}; {left} s left on the clock.",
                      "class:status")]

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
            word = f"{render.seat_letter(s)} {label}" if label != render.seat_letter(s) else label
            if self.watch.is_overdue(self.step, s):
                word += " (away)"
            words.append(word)
        return render.join_words(words)

    def _hints(self, width: int) -> list[StyledLine]:
        if self.screen.showing_help:
            return hint_rows(("PgUp/PgDn scroll", "Esc close the help"), width)
        if self.over:
            items = ["r rematch (the same seats, a new match)"] if self.offer_rematch else []
            return hint_rows([*items, "q leave", "PgUp/PgDn scroll"], width)
        if self.confirm_quit:
            return hint_rows(("y leave", "any other key stay"), width)
        return hint_rows(PLAY_HINTS, width)

    def _help(self) -> str:
        return help_text(len(self.labels) or self.options.players, self.options.variant)

    # ------------------------------------------------------------------ input

    def _press(self, k: str) -> None:
        self.screen.message = ""
        if self.over:
            if k == "r" and self.offer_rematch:
                self.rematch = True
                self.screen.exit()
            elif k == "q":  # (not Enter: the Enter that locked the last card in may repeat)
                self.rematch = False
                self.screen.exit()
            return
        if self.confirm_quit:
            self.confirm_quit = False
            if k == "y":
                self._leave(self.options.left)
            return
        if k == "q":
            self.confirm_quit = True
        elif k in KEYS:
            self._select(KEYS[k])
        elif k == "enter":
            self._lock()
        elif k == "escape":
            self.selected = ""

    def _select(self, text: str) -> None:
        if not self._my_move() or self.state is None:
            self.screen.message = "Not your move yet."
            return
        try:
            action = self.state.parse_action(self.seat, text)
            self.state.check(self.seat, action)
        except (InvalidActionError, IllegalActionError) as exc:
            self.screen.message = " ".join(str(exc).split())
            return
        self.selected = self.state.format_action(action)

    def _lock(self) -> None:
        if not self._my_move() or self.choice is None:
            self.screen.message = "Not your move yet."
            return
        if not self.selected:
            self.screen.message = "Select a card first (1-5, k, s, c, t, T), then Enter."
            return
        step, _ = self._waiting()
        if self.selected != "torch":  # (a look is no play: the step still waits for one)
            self.locked = (step, self.selected)
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
        capture = self.screen.capture(self.console)
        capture.__enter__()

        def restore(_: object) -> None:
            capture.__exit__(None, None, None)
            for number in numbers:
                with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                    loop.remove_signal_handler(number)

        ui = self.screen.run()
        ui.add_done_callback(restore)
        return ui

    def _leave(self, why: str = "You left the game.", code: int = 0) -> None:
        if self.stop is None:
            self.stop = LeftGame(why, code)
        if self.task is not None:
            self.task.cancel()
        self.screen.exit()

    async def choose(self, state: GameState[Any], seat: int) -> str:
        self.state = state
        self.selected = ""
        self.choice = asyncio.get_running_loop().create_future()
        self.asked_at = time.monotonic()
        self.screen.bell()
        self.screen.invalidate()
        try:
            return await self.choice
        finally:
            self.choice = None
            self.screen.invalidate()

    def finish(self, core_state: GameState[Any], path: Path) -> None:
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
        self.ui: asyncio.Future[None] | None = None
        self.offer_rematch = options.role in ("host", "join")

    def attach(self, peer: Any) -> None:
        if self.ui is None:
            self.ui = self.run_ui()
        super().attach(peer)

    async def close_ui(self) -> None:
        """The match failed or was left: give the terminal back (once the screen is gone)."""
        self.screen.exit()
        if self.ui is not None:
            with contextlib.suppress(BaseException):
                await asyncio.shield(self.ui)

    async def wait_ui(self) -> None:
        """After :meth:`finish`: the end screen stays until the player leaves it; then the end
        is printed in the terminal's scrollback too."""
        if self.ui is None:
            return
        await self.ui
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
        result = await host(data_dir, game="raiders",
                            name=options.name or "you", players=options.players,
                            options={"variant": options.variant}, bots=options.bots,
                            bot=options.bot_kind, choose=game.choose, config=config,
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
