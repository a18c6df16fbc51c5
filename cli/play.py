"""The offline line-mode game: you against bots, driven by the engine on this machine.

This is the first, offline driver of ``cryptcrawl play``.  A trusted local dealer
(:class:`engine.sim.Dealer`) answers every chance event and serves torch peeks; the bots are
plain objects in this process.  A later version replaces this driver with real peers over
loopback (commit-reveal, shared randomness), so nothing here is a rule: legality comes from the
engine, and what is shown comes from the engine's per-seat views.
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

from cli import render
from engine.core import (
    Chance,
    IllegalActionError,
    InvalidActionError,
    Outcome,
    Over,
    Simultaneous,
    Turn,
)
from engine.raiders import PEEK, Action, RaidersState, RaidersView, new_game
from engine.raiders.bots import HeuristicBot, RandomBot, make_bot
from engine.sim import Dealer, bot_key

HELP = """\
How to play (line mode)
  Each room, every player plays one card (all at once; in the tactical variant
  one at a time, face up), then the room resolves.
  play 1 .. play 5   play a power card (each once per level; you get them back
                     after room 5). A bare number works too: 4
  play sword         counts 5, monster rooms and the boss only
  play key           counts 5, treasure rooms (and escapes the Mega-Dragon)
  play torch         counts 0, and shows you the face-down rooms of this level
  play crystal       play a crystal ball: see everyone's card, then play another
  torch              use a torch just to look at the face-down rooms, then choose
  look               show the table again
  ? or help          this help
  q or quit          leave the game
Most coins wins, but whoever ends with the most wounds faints and cannot win."""


class LeftGame(Exception):
    """The player chose to leave; ``code`` is the exit status."""

    def __init__(self, message: str, code: int = 0) -> None:
        super().__init__(message)
        self.code = code


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
    bot_kind: str = "heuristic"
    variant: str = "basic"
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
        self.at_gap = True  # the last line written was blank (or nothing was written)
        # Where lines go instead of ``out`` while a full screen runs (cli/screen.py): a line
        # written behind its back would scroll the terminal under it.
        self.sink: Callable[..., None] | None = None
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
        for line in lines:
            self.out.write(line + "\n")
            self.at_gap = not line
        self.out.flush()

    def gap(self) -> None:
        """A blank line, unless the last line already was one."""
        if self.sink is None and not self.at_gap:
            self.say("")

    def ask(self, prompt: str) -> str:
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
    """Runs one game to the end: the dealer answers chance, bots decide for their seats, and
    the person at the console decides for seat 0 (unless every seat is a bot)."""

    def __init__(self, options: GameOptions, console: Console) -> None:
        self.options = options
        self.console = console
        self.state: RaidersState = new_game(options.players, options.variant)
        self.dealer = Dealer(options.deal_seed.encode())
        self.bot_seed = options.bot_seed.encode()
        self.me: int | None = None if options.bots == options.players else 0
        self.bots: dict[int, RandomBot | HeuristicBot] = {
            s: make_bot(options.bot_kind) for s in range(options.players) if s != self.me}
        self.labels = render.seat_labels(options.players, self.me)
        self.attempts: dict[tuple[str, int], int] = {}
        self.level_shown = 0
        self.last_shown: tuple[int, int] | None = None

    # ------------------------------------------------------------------ helpers

    @property
    def viewer(self) -> int:
        return self.me if self.me is not None else 0

    def view(self) -> RaidersView:
        view = self.state.view(self.viewer)
        assert isinstance(view, RaidersView)
        return view

    def say(self, *lines: str) -> None:
        self.console.say(*lines)

    # ------------------------------------------------------------------ the loop

    def run(self) -> Outcome:
        self.say(*self._banner())
        while True:
            waiting = self.state.waiting
            if isinstance(waiting, Over):
                self._show_resolution()
                self._show_end(waiting.outcome)
                return waiting.outcome
            if isinstance(waiting, Chance):
                event = waiting.event
                self.state = self.state.apply_chance(event.id, self.dealer.choose(event))
                continue
            assert isinstance(waiting, Simultaneous | Turn)
            self._show_level()
            pending = sorted(waiting.pending)
            bot_seats = [s for s in pending if s != self.me]
            if bot_seats:
                self._bot_decides(bot_seats[0], waiting.step)
            else:
                self._human_decides()

    def _bot_decides(self, seat: int, step: str) -> None:
        tag = (step, seat)
        attempt = self.attempts.get(tag, 0)
        self.attempts[tag] = attempt + 1
        action = self.bots[seat].choose(self.state.view(seat),
                                        bot_key(self.bot_seed, step, seat, attempt))
        self._apply(seat, action)

    def _apply(self, seat: int, action: Action) -> None:
        before = self.view()
        self.state = self.state.apply(seat, action)
        label = self.labels[seat]
        if action == PEEK:
            if seat != self.me:
                self.say(f"{label} uses a torch to look at the face-down rooms.")
        elif self.options.variant == "tactical" and seat != self.me:
            verb = "follows up with" if before.phase == "followup" else "plays"
            self.say(f"{label} {verb} {render.card_text(action.card)}.")
        torch_lines = self._serve_torches()
        after = self.view()
        if (self.options.variant == "basic" and before.phase == "play"
                and after.phase == "followup" and self.me is not None):
            self.say(*render.render_reveal(after, self.labels))
        self._show_resolution()
        self.say(*torch_lines)

    def _serve_torches(self) -> list[str]:
        """Give every seat the private knowledge its torch is owed (the trusted dealer knows the
        face-down rooms; a real match gets them from the other peers).  Returns what the
        player's own torch showed, to print."""
        lines: list[str] = []
        for request in self.state.knowledge_requests():
            preview = self.state.preview_hidden(self.dealer.choose)
            self.state = self.state.learn(request.seat,
                                          {event: preview[event] for event in request.events})
            if request.seat == self.me:
                lines = render.render_torch(self.view())
        return lines

    # ------------------------------------------------------------------ the person

    def _human_decides(self) -> None:
        view = self.view()
        self.console.gap()
        if view.phase == "followup":  # the table was just shown; the reveal is what is new
            self.say(*render.render_seats(view, self.labels, name=self.options.name),
                     *render.render_hand(view))
        else:
            self.say(*render.render_view(view, self.labels, name=self.options.name))
        self._show_choices(view)
        prompt = "your follow-up> " if view.phase == "followup" else "your card> "
        while True:
            text = self.console.ask(prompt)
            word = text.lower()
            if not word:
                self.say("Type a card to play, for example: "
                         f"{self._notation(view.legal[0])} (? for help).")
                continue
            if word in ("?", "h", "help"):
                self.say(*HELP.splitlines())
                self._show_choices(view)
                continue
            if word in ("look", "l", "table"):
                self.say(*render.render_view(view, self.labels, name=self.options.name))
                self._show_choices(view)
                continue
            if word in ("q", "quit", "exit"):
                answer = self.console.ask("leave the game? [y/N] ").lower()
                if answer in ("y", "yes"):
                    raise LeftGame("You left the game.")
                continue
            assert self.me is not None
            try:
                action = self.state.parse_action(self.me, text)
            except (InvalidActionError, IllegalActionError) as exc:
                self.say(" ".join(str(exc).split()))
                continue
            self._apply(self.me, action)
            return

    def _notation(self, action: Action) -> str:
        return self.state.format_action(action)

    def _show_choices(self, view: RaidersView) -> None:
        choices = [self._notation(a) for a in view.legal]
        head = "Follow-up for your crystal ball: " if view.phase == "followup" else "Choose: "
        self.say(*render.wrap_items(choices, first=head, sep=", ", indent="  "),
                 "  (? for help, q to quit)")

    # ------------------------------------------------------------------ announcements

    def _banner(self) -> list[str]:
        o = self.options
        bots = render.plural(len(self.bots), f"{o.bot_kind} bot")
        variant = "tactical variant" if o.variant == "tactical" else "basic game"
        lines = [f"Dungeon Raiders, {o.players} players, {variant}. OFFLINE game: no network "
                 "yet."]
        if self.me is None:
            lines.append(f"Unattended game: {bots} play each other on this machine.")
        else:
            lines.append(f"You are seat A, against {bots} (seats B to "
                         f"{render.seat_letter(o.players - 1)}) on this machine.")
        lines.extend(render.wrap_text(
            "A local, trusted dealer deals the rooms; each bot decides from its own view only. "
            "5 levels of 5 rooms: most coins wins, but the most wounded faints and cannot win."))
        return lines

    def _show_level(self) -> None:
        view = self.view()
        if view.level == self.level_shown:
            return
        self.level_shown = view.level
        self.console.gap()
        self.say(f"=== Level {view.level} of 5 " + "=" * 60)
        if self.me is None:
            self.say(*render.render_row(view, torch=False))

    def _show_resolution(self) -> None:
        res = self.view().last
        if res is None or (res.level, res.position) == self.last_shown:
            return
        self.last_shown = (res.level, res.position)
        self.say(*render.render_resolution(res, self.labels))
        if self.me is not None:
            self.say("")

    def _show_end(self, outcome: Outcome) -> None:
        self.console.gap()
        self.say("=== Game over " + "=" * 65,
                 *render.render_scoreboard(self.view(), outcome, self.labels,
                                           name=self.options.name))


def play_offline(options: GameOptions, inp: TextIO, out: TextIO) -> Outcome:
    """Play one offline game on the given streams; returns the outcome.

    Raises :class:`LeftGame` if the player quits and :class:`InputClosed` if input ends while
    the game waits for the player.
    """
    return OfflineGame(options, Console(inp, out)).run()


def replay_hint(options: GameOptions) -> str:
    """The command line that deals the same game again (the bots answer the same moves the
    same way).  Options at their defaults are left out."""
    o = options
    parts = ["cryptcrawl play"]
    if o.players != 4:
        parts.append(f"--players {o.players}")
    if o.bots != o.players - 1:
        parts.append(f"--bots {o.bots}")
    if o.bot_kind != "heuristic":
        parts.append(f"--bot-kind {o.bot_kind}")
    if o.variant != "basic":
        parts.append(f"--variant {o.variant}")
    parts.extend((f"--seed {shlex.quote(o.bot_seed)}", f"--deal-seed {shlex.quote(o.deal_seed)}"))
    return " ".join(parts)
