"""The full-screen terminal view (prompt_toolkit): the level row, the room, the seats, your hand,
a log of what happened, a turn countdown; single keys to play.

It shows what :class:`cli.netplay.NetGame` shows in line mode — the same render functions of
the engine's view of your seat — and answers the same ``choose`` call, from a key press.
``NO_COLOR`` (any value) turns colours off; the layout fits 80×24 and follows resizes.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections import deque
from pathlib import Path
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import HSplit, Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.output import ColorDepth
from prompt_toolkit.styles import Style

from cli import render
from cli.netplay import NetGame, NetOptions, copy_lines
from cli.play import HELP, Console
from engine.core import GameState, IllegalActionError, InvalidActionError, Over
from engine.raiders import RaidersView

KEYS = {"1": "play 1", "2": "play 2", "3": "play 3", "4": "play 4", "5": "play 5",
        "k": "play key", "s": "play sword", "c": "play crystal", "t": "torch",
        "T": "play torch"}
KEY_HELP = ("1-5 card  k key  s sword  c crystal ball  t torch (look)  T torch (play)  "
            "? help  q leave")

STYLE = Style.from_dict({
    "title": "bold",
    "room.dark": "bg:#303030 #808080",
    "room.current": "reverse bold",
    "room.done": "#808080",
    "dim": "#808080",
    "you": "bold",
    "status": "reverse",
    "warn": "bold #ff5f5f",
})


class FullScreenGame(NetGame):
    """:class:`NetGame` drawn full screen; the person answers with single keys."""

    def __init__(self, options: NetOptions, console: Console) -> None:
        super().__init__(options, console)
        self.log: deque[str] = deque(maxlen=300)
        self.choice: asyncio.Future[str] | None = None
        self.state: GameState[Any] | None = None
        self.message = ""
        self.asked_at = 0.0
        self.help = False
        self.confirm_quit = False
        self.over = False
        self.app = self._application()

    # ------------------------------------------------------------------ output

    def say(self, *lines: str) -> None:
        self.log.extend(lines)
        self.app.invalidate()

    def _current_view(self) -> RaidersView | None:
        if self.peer is None:
            return None
        return self.view()

    def _row(self) -> FormattedText:
        view = self._current_view()
        if view is None or not view.level:
            return FormattedText([("class:title", " cryptcrawl: Dungeon Raiders — gathering "
                                                  "the table...")])
        parts: list[tuple[str, str]] = [("class:title", f" Level {view.level}/5 ")]
        for room in view.row:
            name = render.room_cell(room)
            if room.position == view.room:
                style = "class:room.current"
            elif not room.card:
                style = "class:room.dark"
            elif room.position < view.room:
                style = "class:room.done"
            else:
                style = ""
            parts += [("", " "), (style, f"{room.position} {name}")]
        return FormattedText(parts)

    def _middle(self) -> FormattedText:
        view = self._current_view()
        if view is None:
            return FormattedText([])
        lines = [f" Room {view.room} of 5. " + render.render_supply(view) + "."]
        lines += [" " + line for line in render.render_room(view)]
        lines += render.render_seats(view, self.labels, name=self.options.name)
        hand = render.render_hand(view)
        used = {str(v) for v in view.seats[view.seat].used}
        out: list[tuple[str, str]] = []
        for line in lines:
            out.append(("", line + "\n"))
        for line in hand:
            out.append(("class:you", line + "\n"))
        if used:
            out.append(("class:dim", "  used this level: " + " ".join(sorted(used)) + "\n"))
        return FormattedText(out)

    def _log(self) -> FormattedText:
        if self.help:
            return FormattedText([("", "\n".join(HELP.splitlines()))])
        return FormattedText([("", "\n".join(list(self.log)[-40:]))])

    def _status(self) -> FormattedText:
        if self.over:
            return FormattedText([("class:status", " The match is over: press q or Enter to "
                                                    "leave. ")])
        if self.confirm_quit:
            return FormattedText([("class:warn", f" Leave the match? "
                                                 f"{self.options.leaving.capitalize()}. [y/N] ")])
        text = " " + KEY_HELP
        if self.choice is not None and not self.choice.done():
            left = max(0, int(self.options.turn_timeout - (time.monotonic() - self.asked_at)))
            text = f" YOUR MOVE ({left:>3} s)  " + KEY_HELP
        else:
            text = " waiting for the others...  " + KEY_HELP
        parts = [("class:status", text)]
        if self.message:
            parts.append(("class:warn", "  " + self.message))
        return FormattedText(parts)

    def _application(self) -> Application[None]:
        kb = KeyBindings()

        def key(k: str) -> None:
            @kb.add(k)
            def _(event: KeyPressEvent) -> None:
                self._press(k)

        for k in [*KEYS, "q", "y", "n", "?", "enter", "escape"]:
            key(k)

        @kb.add("c-c")
        def _(event: KeyPressEvent) -> None:
            self._leave("interrupted; you left the game", 130)

        layout = Layout(HSplit([
            Window(FormattedTextControl(self._row), height=1, wrap_lines=False),
            Window(height=1, char="─"),
            Window(FormattedTextControl(self._middle), height=Dimension(min=6, preferred=12),
                   wrap_lines=True),
            Window(height=1, char="─"),
            Window(FormattedTextControl(self._log), wrap_lines=True,
                   height=Dimension(min=3, weight=1)),
            Window(FormattedTextControl(self._status), height=1),
        ]))
        depth = ColorDepth.MONOCHROME if os.environ.get("NO_COLOR") else None
        return Application(layout=layout, key_bindings=kb, full_screen=True, style=STYLE,
                           color_depth=depth, refresh_interval=1.0, mouse_support=False)

    # ------------------------------------------------------------------ input

    def _press(self, k: str) -> None:
        self.message = ""
        if self.over:
            if k in ("q", "enter", "escape"):
                self.app.exit()
            return
        if self.confirm_quit:
            self.confirm_quit = False
            if k == "y":
                self._leave(self.options.left)
            self.app.invalidate()
            return
        if k == "q":
            self.confirm_quit = True
        elif k == "?":
            self.help = not self.help
        elif k in KEYS:
            self._try(KEYS[k])
        self.app.invalidate()

    def _try(self, text: str) -> None:
        if self.choice is None or self.choice.done() or self.state is None:
            self.message = "not your move yet"
            return
        try:
            action = self.state.parse_action(self.seat, text)
            self.state.check(self.seat, action)
        except (InvalidActionError, IllegalActionError) as exc:
            self.message = " ".join(str(exc).split())
            return
        self.choice.set_result(self.state.format_action(action))

    def run_ui(self) -> asyncio.Future[None]:
        """Start the screen.  Ctrl-C sent as a signal (kill -INT), a terminal that hangs up, a
        kill: the game is left as with the keys, so the terminal gets its settings back (the
        screen closes normally) and the match file stays resumable; the exit status is 128
        plus the signal's number."""
        loop = asyncio.get_running_loop()
        numbers = [getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                   if hasattr(signal, name)]
        for number in numbers:
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(number, self._leave,
                                        f"{signal.Signals(number).name[3:].lower()}: you left "
                                        "the game", 128 + number)

        def restore(_: object) -> None:
            for number in numbers:
                with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                    loop.remove_signal_handler(number)

        ui = asyncio.ensure_future(self.app.run_async(handle_sigint=False))
        ui.add_done_callback(restore)
        return ui

    def _leave(self, why: str = "You left the game.", code: int = 0) -> None:
        from cli.play import LeftGame

        if self.stop is None:
            self.stop = LeftGame(why, code)
        if self.task is not None:
            self.task.cancel()
        if self.app.is_running:
            self.app.exit()

    async def choose(self, state: GameState[Any], seat: int) -> str:
        self.state = state
        self.choice = asyncio.get_running_loop().create_future()
        self.asked_at = time.monotonic()
        self.app.invalidate()
        try:
            return await self.choice
        finally:
            self.choice = None
            self.app.invalidate()

    def finish(self, core_state: GameState[Any], path: Path) -> None:
        w = core_state.waiting
        if isinstance(w, Over):
            view = core_state.view(self.seat)
            assert isinstance(view, RaidersView)
            self.log.append("=== Game over")
            self.log.extend(render.render_scoreboard(view, w.outcome, self.labels,
                                                     name=self.options.name))
        self.log.extend(["", *copy_lines(path, self.options.out)])
        self.over = True
        self.app.invalidate()


class LanFullScreenGame(FullScreenGame):
    """``host``, ``join`` and ``resume`` on a terminal: the lobby talks in line mode (joiners to
    approve, fingerprints, warnings); the screen takes over when the match starts."""

    def __init__(self, options: NetOptions, console: Console) -> None:
        super().__init__(options, console)
        self.ui: asyncio.Future[None] | None = None

    def attach(self, peer: Any) -> None:
        super().attach(peer)
        if self.ui is None:
            self.ui = self.run_ui()

    def close_ui(self) -> None:
        """The match failed or was left: give the terminal back."""
        if self.app.is_running:
            self.app.exit()

    async def wait_ui(self) -> None:
        """After :meth:`finish`: the end screen stays until the player leaves it; then the last
        lines (scoreboard, match file) are printed in the terminal's scrollback too."""
        if self.ui is None:
            return
        await self.ui
        for line in list(self.log)[-12:]:
            self.console.say(line)


async def play_full_screen(options: NetOptions, console: Console, data_dir: Path) -> int:
    """``cryptcrawl play`` on a terminal: the same match as line mode, drawn full screen."""
    from p2p.peer import PeerConfig
    from p2p.run import host

    game = FullScreenGame(options, console)
    config = PeerConfig(turn_timeout=options.turn_timeout,
                        silence_timeout=options.silence_timeout, linger=0.5)

    async def go() -> None:
        result = await host(data_dir, game="raiders",
                            name=options.name or "you", players=options.players,
                            options={"variant": options.variant}, bots=options.bots,
                            bot=options.bot_kind, choose=game.choose, config=config,
                            on_event=game.on_event, on_peer=game.attach,
                            bot_dir=data_dir / "bots",
                            bot_seed=options.bot_seed.encode() or None)
        game.finish(result.core.state, result.path)

    game.task = asyncio.ensure_future(go())
    ui = game.run_ui()
    try:
        done, _ = await asyncio.wait({game.task, ui}, return_when=asyncio.FIRST_COMPLETED)
        if game.task in done and not game.task.cancelled():
            error = game.task.exception()
            if error is not None:
                if game.app.is_running:
                    game.app.exit()
                raise error
        await ui
    finally:
        if not game.task.done():
            game.task.cancel()
    if game.stop is not None:
        raise game.stop
    for line in list(game.log)[-12:]:
        console.say(line)
    return 0
