"""The console, and the offline line-mode game: you against bots, driven by the engine on this
machine (``cryptcrawl play --deal-seed``).

A trusted local dealer (:class:`engine.sim.Dealer`) answers every chance event and serves the
private knowledge seats are owed; the bots are plain objects in this process.  Nothing here is
a rule: legality comes from the engine, and what is shown comes from the game's client plug-in
over the engine's per-seat views — so every registered game can be practised here, those whose
network play is not built yet included.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import shlex
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO, TypeVar

from cli.charset import ascii_only, to_ascii
from cli.games import DEFAULT_GAME, make_ui
from cli.plugin import Seating
from cli.text import plural, seat_labels, seat_letter, wrap_text
from engine.core import (
    DEFAULT_LEVEL,
    LEVELS,
    Chance,
    ChanceEvent,
    GameState,
    IllegalActionError,
    InvalidActionError,
    Openings,
    Outcome,
    Over,
    Simultaneous,
    Turn,
    Visibility,
    read_move,
)
from engine.games import get_game
from engine.sim import Dealer, bot_key


class LeftGame(Exception):
    """The player chose to leave; ``code`` is the exit status; ``for_good``: they left a LAN
    match for good (a LEAVE is sent first: a bot plays the seat, and it cannot come back);
    ``resign``: they resigned (a RESIGN instead: the game's resignation, then the same)."""

    def __init__(self, message: str, code: int = 0, *, for_good: bool = False,
                 resign: bool = False) -> None:
        super().__init__(message)
        self.code = code
        self.for_good = for_good or resign
        self.resign = resign


class InputClosed(EOFError):
    """Standard input ended while the game waited for the player."""


T = TypeVar("T")
_readers: set[threading.Thread] = set()  # threads blocked on the console (see in_reader)
_saved_tty: list[Any] = []  # the terminal's settings when the first Console was made


def in_reader(fn: Callable[..., T], *args: Any) -> asyncio.Future[T]:
    """Run ``fn(*args)`` — something that reads the console — in a daemon thread; its result
    (or exception) comes back on the running loop.  Not the loop's default executor: its
    threads are joined when the loop and the interpreter shut down, so Ctrl-C at a prompt
    would wait for the player to press Enter.  A thread still blocked at exit is abandoned
    by :func:`leave_if_input_blocked`."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def settle(result: Any, error: BaseException | None) -> None:
        if future.done():
            return  # (cancelled: the game stopped waiting)
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)

    def work() -> None:
        try:
            result, error = fn(*args), None
        except BaseException as exc:  # handed to the awaiting task, whatever it is
            result, error = None, exc
        _readers.discard(threading.current_thread())
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(settle, result, error)

    thread = threading.Thread(target=work, name="cryptcrawl-console", daemon=True)
    _readers.add(thread)
    thread.start()
    return future


def leave_if_input_blocked(code: int) -> None:
    """At exit: if a thread is still blocked reading the console (the player pressed Ctrl-C
    at a prompt), restore the terminal's settings, flush, and end the process at once with
    ``code`` — Python cannot finish shutting down while a daemon thread holds standard
    input's lock.  Otherwise return (a normal exit follows)."""
    if not any(thread.is_alive() for thread in _readers):
        return
    if _saved_tty:
        with contextlib.suppress(Exception):
            import termios

            termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, _saved_tty[0])
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)


@dataclass(frozen=True)
class GameOptions:
    players: int = 4
    bots: int = 3
    bot_kind: str = ""  # a level, or the game's bot by name ("": the default level)
    game: str = DEFAULT_GAME
    options: tuple[tuple[str, Any], ...] = ()  # the game's options (players aside)
    bot_seed: str = ""
    deal_seed: str = ""
    name: str = ""


class Console:
    """Line I/O.  When input does not come from a terminal, each line read is echoed after its
    prompt, so a piped session reads like a typed one."""

    def __init__(self, inp: TextIO, out: TextIO) -> None:
        self.inp = inp
        self.out = out
        self.interactive = _isatty(inp) and _isatty(out)
        self.ascii = ascii_only(out)  # (an ASCII-only terminal: every line in ASCII)
        self.at_gap = True  # the last line written was blank (or nothing was written)
        # Where lines go instead of ``out`` while a full screen runs (cli/screen.py): a line
        # written behind its back would scroll the terminal under it.
        self.sink: Callable[..., None] | None = None
        self.prompt = ""  # the prompt waiting for a line now (lines said meanwhile end it)
        if isinstance(inp, io.TextIOWrapper):
            # A byte that is not text (a stray key, a binary pipe) is read as U+FFFD and
            # refused as a card like any typo, instead of stopping the game.
            with contextlib.suppress(AttributeError, ValueError, io.UnsupportedOperation):
                inp.reconfigure(errors="replace")
        if not _saved_tty and _isatty(inp):
            with contextlib.suppress(Exception):
                import termios

                _saved_tty.append(termios.tcgetattr(inp.fileno()))

    def say(self, *lines: str) -> None:
        if self.sink is not None:
            self.sink(*lines)
            return
        if not lines:
            return
        prompt = self.prompt
        if prompt:  # (a prompt waits for its line: it ends first, and is shown again after)
            self.out.write("\n")
        for line in lines:
            self.out.write((to_ascii(line) if self.ascii else line) + "\n")
            self.at_gap = not line
        if prompt:
            self.out.write(prompt)
        self.out.flush()

    def gap(self) -> None:
        """A blank line, unless the last line already was one."""
        if self.sink is None and not self.at_gap:
            self.say("")

    def ask(self, prompt: str) -> str:
        self.prompt = prompt
        try:
            return self._ask(prompt)
        finally:
            self.prompt = ""

    def _ask(self, prompt: str) -> str:
        if self.interactive and self.inp is sys.stdin and self.out is sys.stdout:
            try:  # input() gives line editing on a terminal
                return input(prompt).strip()
            except EOFError:
                self.out.write("\n")
                raise InputClosed("input ended") from None
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            if not self.interactive:
                self.out.write("\n")
            raise InputClosed("input ended")
        if not self.interactive:
            self.out.write(line if line.endswith("\n") else line + "\n")
            self.out.flush()
        return line.strip()


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class OfflineGame:
    """Runs one game to the end: the dealer answers chance (a card dealt to one hand too), bots
    decide for their seats, the person at the console decides for seat 0 (unless every seat is
    a bot), sealed values are kept here until the rules open them.  Every word about the game
    comes from its client plug-in."""

    def __init__(self, options: GameOptions, console: Console) -> None:
        self.options = options
        self.console = console
        self.spec = get_game(options.game)
        self.state: GameState[Any] = self.spec.new(players=options.players,
                                                   **dict(options.options))
        self.dealer = Dealer(options.deal_seed.encode())
        self.bot_seed = options.bot_seed.encode()
        self.me: int | None = None if options.bots == options.players else 0
        kind = self.spec.bot_for(options.bot_kind)
        self.bots: dict[int, Any] = {
            s: self.spec.bots[kind]() for s in range(options.players) if s != self.me}
        self.labels = seat_labels(options.players, self.me)
        self.ui = make_ui(options.game, options.players, dict(options.options),
                          Seating(self.labels, self.me, options.name))
        self.attempts: dict[tuple[str, int], int] = {}
        self.sealed: dict[int, dict[str, str]] = {}  # a seat's sealed values, until opened
        self.typed: list[str] = []  # the person's moves, as typed (the record's)
        self.shows: list[tuple[int, str, str]] = []  # (seat, event, step): cards to show

    # ------------------------------------------------------------------ helpers

    @property
    def viewer(self) -> int:
        return self.me if self.me is not None else 0

    def view(self) -> Any:
        return self.state.view(self.viewer)

    def say(self, *lines: str) -> None:
        self.console.say(*lines)

    # ------------------------------------------------------------------ the loop

    def run(self) -> Outcome:
        self.say(*self._banner())
        while True:
            waiting = self.state.waiting
            if isinstance(waiting, Over):
                self._show_news()
                self._show_end(waiting.outcome)
                return waiting.outcome
            if isinstance(waiting, Chance):
                self._deal(waiting.event)
                continue
            if isinstance(waiting, Openings):
                self._open(waiting)
                continue
            assert isinstance(waiting, Simultaneous | Turn)
            self._show_chapter()
            pending = sorted(waiting.pending)
            bot_seats = [s for s in pending if s != self.me]
            if bot_seats:
                self._bot_decides(bot_seats[0], waiting.step)
            else:
                self._human_decides()

    def _deal(self, event: ChanceEvent) -> None:
        outcome = self.dealer.choose(event)
        if event.visibility is not Visibility.PRIVATE:
            self.state = self.state.apply_chance(event.id, outcome)
            return
        assert event.seat is not None  # (a card dealt to one hand: only that seat learns it)
        self.state = self.state.apply_private(event.id).learn(event.seat, {event.id: outcome})
        if event.seat == self.me:
            self.say(*self.ui.knowledge(self.view()))

    def _open(self, waiting: Openings) -> None:
        for request in waiting.requests:
            held = self.sealed.get(request.seat, {})
            values = {slot: held[slot] for slot in request.slots}
            for event in self.state.opening_claims(request.seat, values):
                self.state = self.state.open_private(request.seat, event,
                                                     self.dealer.dealt(event))
            self.state = self.state.open_sealed(request.seat, values)

    def _bot_decides(self, seat: int, step: str) -> None:
        tag = (step, seat)
        attempt = self.attempts.get(tag, 0)
        self.attempts[tag] = attempt + 1
        action = self.bots[seat].choose(self.state.view(seat),
                                        bot_key(self.bot_seed, step, seat, attempt))
        self._apply(seat, self.state.format_action(action))

    def _apply(self, seat: int, text: str) -> None:
        """``seat``'s move in the game's notation: its sealed values kept, the move applied, the
        private knowledge it is owed served, the news said."""
        before = self.view()
        step = str(getattr(self.state.waiting, "step", ""))
        text, values = self.state.split_private(seat, text)
        action = self.state.parse_action(seat, text)
        if not self.spec.free_action(self.state, seat, action):
            self.shows += [(seat, event, step)
                           for event in self.state.private_claims(seat, action)]
        self.state = self.state.apply(seat, action)
        if values:
            self.sealed.setdefault(seat, {}).update(values)
            self.state = self.state.learn(seat, dict(values))
        knowledge = self._serve_knowledge()
        if self.shows and str(getattr(self.state.waiting, "step", "")) != step:
            for owner, event, _ in self.shows:  # (once the step is revealed)
                self.state = self.state.open_private(owner, event, self.dealer.dealt(event))
            self.shows = []
        self.say(*self.ui.applied(seat, self.state.format_action(action), before, self.view()))
        self._show_news()
        self.say(*knowledge)

    def _serve_knowledge(self) -> list[str]:
        """Give every seat the private knowledge it is owed (the trusted dealer knows the hidden
        outcomes; a real match gets them from the other peers).  Returns what the player's own
        seat was shown, to print."""
        lines: list[str] = []
        for request in self.state.knowledge_requests():
            preview = self.state.preview_hidden(self.dealer.choose)
            self.state = self.state.learn(request.seat,
                                          {event: preview[event] for event in request.events})
            if request.seat == self.me:
                lines = self.ui.knowledge(self.view())
        return lines

    # ------------------------------------------------------------------ the person

    def _human_decides(self) -> None:
        assert self.me is not None
        ui = self.ui
        view = self.view()
        self.console.gap()
        self.say(*ui.table(view))
        self.say(*ui.choices_lines(self.state, self.me, view))
        while True:
            text = self.console.ask(ui.prompt(view))
            word = text.lower()
            if not word:
                moves = ui.choices(self.state, self.me)
                example = f", for example: {moves[0]}" if moves else " in the game's notation"
                self.say(f"{ui.type_hint}{example} (? for help).")
                continue
            if word in ("?", "h", "help"):
                self.say(*ui.line_help.splitlines())
                self.say(*ui.choices_lines(self.state, self.me, view))
                continue
            if word == "rules":
                self.say(*ui.rules().splitlines())
                self.say(*ui.choices_lines(self.state, self.me, view))
                continue
            if word in ("look", "l", "table"):
                self.say(*ui.table(view))
                self.say(*ui.choices_lines(self.state, self.me, view))
                continue
            extra = ui.command(view, text)
            if extra is not None:
                self.say(*extra)
                continue
            if word in ("q", "quit", "exit"):
                answer = self.console.ask("leave the game? [y/N] ").lower()
                if answer in ("y", "yes"):
                    raise LeftGame("You left the game.")
                continue
            try:
                text = read_move(self.state, self.me, text)
            except (InvalidActionError, IllegalActionError) as exc:
                self.say(" ".join(str(exc).split()))
                continue
            self._apply(self.me, text)
            self.typed.append(text)
            return

    # ------------------------------------------------------------------ announcements

    def _banner(self) -> list[str]:
        o = self.options
        bots = plural(len(self.bots), f"{o.bot_kind or DEFAULT_LEVEL} bot")
        lines = wrap_text(f"{self.ui.describe()}. OFFLINE game: no network yet.")
        if self.me is None:
            lines.append(f"Unattended game: {bots} play each other on this machine.")
        elif self.bots:
            lines.append(f"You are seat A, against {bots} (seats B to "
                         f"{seat_letter(o.players - 1)}) on this machine.")
        else:
            lines.append("You are seat A, alone at the table.")
        lines.extend(wrap_text(self.ui.offline_note))
        return lines

    def _show_chapter(self) -> None:
        chapter = self.ui.chapter(self.view())
        if chapter:
            self.console.gap()
            self.say(*chapter)

    def _show_news(self) -> None:
        news = self.ui.news(self.view())
        if news:
            self.say(*news)
            if self.me is not None:
                self.say("")

    def _show_end(self, outcome: Outcome) -> None:
        self.console.gap()
        self.say("=== Game over " + "=" * 65,
                 *self.ui.scoreboard(self.view(), outcome, {}))


def play_offline(options: GameOptions, inp: TextIO, out: TextIO,
                 typed: list[str] | None = None) -> Outcome:
    """Play one offline game on the given streams; returns the outcome (``typed``, if given,
    receives the person's moves in order: the record's, :mod:`cli.practice`).

    Raises :class:`LeftGame` if the player quits and :class:`InputClosed` if input ends while
    the game waits for the player.
    """
    game = OfflineGame(options, Console(inp, out))
    if typed is not None:
        game.typed = typed
    return game.run()


def replay_hint(options: GameOptions, default_players: int) -> str:
    """The command line that deals the same game again (the bots answer the same moves the
    same way).  Options at their defaults are left out."""
    o = options
    parts = ["cryptcrawl play"]
    if o.game != DEFAULT_GAME:
        parts.append(f"--game {o.game}")
    if o.players != default_players:
        parts.append(f"--players {o.players}")
    if o.bots != o.players - 1:
        parts.append(f"--bots {o.bots}")
    if o.bot_kind in LEVELS:
        parts.append(f"--bot {o.bot_kind}")
    elif o.bot_kind:
        parts.append(f"--bot-kind {o.bot_kind}")
    spec = get_game(o.game)
    for key, value in o.options:
        if key == "variant":
            if value != spec.variants[0]:
                parts.append(f"--variant {shlex.quote(str(value))}")
        elif value != spec.option(key).default:
            parts.append(f"--option {shlex.quote(f'{key}={_value(value)}')}")
    parts.extend((f"--seed {shlex.quote(o.bot_seed)}", f"--deal-seed {shlex.quote(o.deal_seed)}"))
    return " ".join(parts)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)
