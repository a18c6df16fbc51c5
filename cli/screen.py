"""The generic full-screen frame: a game's renderer fills it, the frame draws and scrolls it.

One prompt_toolkit window holds the whole screen, and :meth:`Screen.lines` makes every row of it
for the terminal's size at each redraw, so nothing is ever cut off or drawn stale: the title
(wrapped), the board (the game's), a log that follows its newest line (PgUp/PgDn scroll it, End
returns to the bottom), and the status lines at the bottom (the game's, then its key hints and
the last message, all wrapped).  On an ASCII-only terminal every row is ASCII
(:mod:`cli.charset`).  A help pane and an end pane take the place of board and log;
both scroll, and Esc closes the help.  Below the game's minimum size the screen only says how
large it must be, and keys do nothing.

While the screen runs, everything else that would write to the terminal behind its back — the
console's lines (:class:`cli.play.Console`), log records, stray writes to ``sys.stdout`` and
``sys.stderr`` — goes to the log pane instead (:meth:`Screen.capture`): one stray newline
scrolls the terminal and leaves the frame drawn over a shifted copy of itself.

Nothing here names a game.  A game gives the slots: ``title(width)``, ``board(width)``,
``status(width)`` (each styled lines), ``on_key(key)``, its key hints, its help text and the
styles its lines name beyond the generic ones.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.layout.controls import UIContent, UIControl
from prompt_toolkit.output import ColorDepth
from prompt_toolkit.styles import Style

from cli.charset import ascii_only, to_ascii
from cli.text import Fragment, StyledLine, plain, text_of

__all__ = ["Fragment", "Screen", "Scroll", "StyledLine", "plain", "text_of", "wrap", "wrap_all"]


MIN_LOG = 4  # log rows kept below the board (the newest result needs two or three)
LOG_LINES = 10_000  # the log keeps the whole match: its oldest lines go only past this many

STYLES = {
    "title": "bold",
    "dim": "#808080",
    "you": "bold",
    "status": "reverse",
    "hint": "",
    "warn": "bold #ff5f5f",
    "good": "bold",
}


def wrap(line: StyledLine, width: int, *, indent: int | None = None) -> list[StyledLine]:
    """``line`` broken into rows of at most ``width`` columns, between words where it can
    (a word longer than a row is cut into pieces); continuation rows are indented like the
    line plus two (``indent`` to choose), styles kept."""
    width = max(1, width)
    chars = [(style, ch) for style, text in line for ch in text]
    if len(chars) <= width:
        return [line]
    if indent is None:
        lead = len(text_of(line)) - len(text_of(line).lstrip(" "))
        indent = lead + 2
    indent = min(indent, width // 2)
    rows: list[StyledLine] = []
    start = 0
    first = True
    while start < len(chars):
        fits = width if first else width - indent
        if len(chars) - start <= fits:
            end = len(chars)
        else:
            cut = start + fits
            space = max((i for i in range(start + 1, cut + 1) if i < len(chars)
                         and chars[i][1] == " "), default=-1)
            end = space if space > start else cut
        piece = chars[start:end]
        row = _merge(piece)
        rows.append(row if first else [("", " " * indent), *row])
        first = False
        start = end
        while start < len(chars) and chars[start][1] == " ":
            start += 1
    return rows


def _merge(chars: Sequence[tuple[str, str]]) -> StyledLine:
    out: StyledLine = []
    for style, ch in chars:
        if out and out[-1][0] == style:
            out[-1] = (style, out[-1][1] + ch)
        else:
            out.append((style, ch))
    return out


def wrap_all(lines: Sequence[StyledLine], width: int) -> list[StyledLine]:
    return [row for line in lines for row in wrap(line, width)]


@dataclass
class Scroll:
    """Lines seen through a window of rows; ``back`` rows from the bottom (0: the newest)."""

    lines: deque[StyledLine] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    back: int = 0
    top_first: bool = False  # a page read from its top (help, end), not a log
    rows: int = 1  # the rows of the last drawing (a page)

    def add(self, *lines: StyledLine) -> None:
        self.lines.extend(lines)

    def page(self, pages: int) -> None:
        """Scroll ``pages`` pages back (positive: older / further up) or forward."""
        self.back = max(0, self.back + pages * max(1, self.rows - 1))

    def home(self) -> None:
        self.back = 0

    def view(self, width: int, height: int) -> list[StyledLine]:
        """Exactly ``height`` rows (blank ones at the end if there are fewer)."""
        rows = wrap_all(list(self.lines), width)
        self.rows = height
        if self.top_first:
            most = max(0, len(rows) - height)
            self.back = min(self.back, most)
            shown = rows[self.back:self.back + height]
            if self.back < most and height > 1:
                shown = [*shown[:height - 1], plain("-- more: PgDn --", "class:dim")]
        elif len(rows) <= height or height <= 1:
            self.back = 0
            shown = rows[-height:]
        else:
            # Scrolled back, the last row says so: the oldest row is still reachable.
            self.back = min(self.back, len(rows) - (height - 1))
            end = len(rows) - self.back
            if self.back:
                shown = [*rows[end - (height - 1):end],
                         plain("-- older lines: PgDn or End for the newest --", "class:dim")]
            else:
                shown = rows[end - height:end]
        return shown + [[] for _ in range(height - len(shown))]


class _Control(UIControl):
    """The whole screen as one control: its rows are made for the size it is given."""

    def __init__(self, lines: Callable[[int, int], list[StyledLine]]) -> None:
        self.lines = lines

    def create_content(self, width: int, height: int) -> UIContent:
        rows: list[StyleAndTextTuples] = [list(row) for row in self.lines(width, height)]
        return UIContent(get_line=lambda i: rows[i] if i < len(rows) else [],
                         line_count=len(rows), show_cursor=False)


Slot = Callable[[int], list[StyledLine]]


class Screen:
    """A full-screen frame for one match; the game fills its slots (see the module)."""

    def __init__(self, *, title: Slot, board: Slot, status: Slot, hints: Slot,
                 on_key: Callable[[str], None], keys: Sequence[str], help_text: Callable[[], str],
                 min_size: tuple[int, int] = (80, 24), bell: bool = True,
                 on_interrupt: Callable[[], None] | None = None,
                 styles: dict[str, str] | None = None, ascii: bool | None = None) -> None:
        self.ascii = ascii_only(sys.stdout) if ascii is None else ascii
        self.title = title
        self.board = board
        self.status = status
        self.hints = hints
        self.on_key = on_key
        self.help_text = help_text
        self.min_size = min_size
        self.bell_on = bell
        self.on_interrupt = on_interrupt
        self.log = Scroll()
        self.help = Scroll(top_first=True)
        self.end = Scroll(top_first=True)
        self.showing_help = False
        self.ended = False
        self.message = ""
        self.size = (0, 0)
        self.ignored = 0  # keys pressed while the window was too small
        self.app = self._application(keys, Style.from_dict({**STYLES, **(styles or {})}))

    # ------------------------------------------------------------------ content

    def say(self, *lines: str | StyledLine) -> None:
        self.log.add(*(plain(x) if isinstance(x, str) else x for x in lines))
        self.invalidate()

    def show_end(self, lines: Sequence[str | StyledLine]) -> None:
        """Put the end pane in the place of board and log (it stays until the game leaves)."""
        self.end.lines.clear()
        self.end.add(*(plain(x) if isinstance(x, str) else x for x in lines))
        self.end.back = 0
        self.ended = True
        self.showing_help = False
        self.invalidate()

    def bell(self) -> None:
        if self.bell_on and self.app.is_running:
            with contextlib.suppress(Exception):
                self.app.output.bell()

    def invalidate(self) -> None:
        if self.app.is_running:
            self.app.invalidate()

    def too_small(self) -> bool:
        width, height = self.size
        return width < self.min_size[0] or height < self.min_size[1]

    def lines(self, width: int, height: int) -> list[StyledLine]:
        """Every row of the screen at this size."""
        self.size = (width, height)
        if self.too_small():
            w, h = self.min_size
            text = (f"Window too small: cryptcrawl needs at least {w}x{h} (it is {width}x"
                    f"{height} now). Make it larger; until then keys do nothing (Ctrl-C leaves).")
            if self.ignored:
                text += f" Ignored: {self.ignored} key{'s' if self.ignored != 1 else ''}."
            rows = wrap(plain(text, "class:warn"), width, indent=0)
            return self._charset((rows + [[] for _ in range(height)])[:height])
        title = wrap_all(self.title(width), width)
        bottom = self._bottom(width)
        rule = plain("─" * width, "class:dim")
        space = height - len(title) - 1 - len(bottom)
        if self.showing_help:
            body = self.help.view(width, max(1, space))
        elif self.ended:
            # The end above, the log below it: PgUp/PgDn read the match back from there.
            end = wrap_all(list(self.end.lines), width)
            fit = max(1, min(len(end), space - 1 - MIN_LOG))
            top = end if fit >= len(end) else self.end.view(width, fit)
            body = [*top, rule, *self.log.view(width, max(1, space - len(top) - 1))]
        else:
            board = wrap_all(self.board(width), width)
            fit = max(0, min(len(board), space - 1 - MIN_LOG))
            body = [*board[:fit], rule, *self.log.view(width, max(1, space - fit - 1))]
        rows = [*title, rule, *body, *bottom]
        return self._charset((rows + [[] for _ in range(height)])[:height])

    def _charset(self, rows: list[StyledLine]) -> list[StyledLine]:
        """The rows as the terminal can show them (ASCII on an ASCII-only one)."""
        if not self.ascii:
            return rows
        return [[(style, to_ascii(text)) for style, text in row] for row in rows]

    def _bottom(self, width: int) -> list[StyledLine]:
        rows = wrap_all(self.status(width), width)
        if self.message:
            rows += wrap(plain(self.message, "class:warn"), width)
        rows += wrap_all(self.hints(width), width)
        return rows

    # ------------------------------------------------------------------ keys

    def _application(self, keys: Sequence[str], style: Style) -> Application[None]:
        kb = KeyBindings()

        def bind(name: str) -> None:
            @kb.add(name)
            def _(event: KeyPressEvent) -> None:
                self.press(name)

        for name in dict.fromkeys([*keys, "?", "escape", "pageup", "pagedown", "end", "home",
                                   "up", "down", "enter", ":"]):
            bind(name)

        @kb.add("<any>")
        def _(event: KeyPressEvent) -> None:  # (any other printable key: a typed move's text)
            if len(event.data) == 1 and event.data.isprintable():
                self.press(event.data)

        @kb.add("c-c")
        def _(event: KeyPressEvent) -> None:
            if self.on_interrupt is not None:
                self.on_interrupt()

        @kb.add("c-z")
        def _(event: KeyPressEvent) -> None:  # (the terminal gives it back; fg redraws all)
            if hasattr(signal, "SIGTSTP"):
                event.app.suspend_to_background()

        depth = ColorDepth.MONOCHROME if os.environ.get("NO_COLOR") else None
        return Application(layout=Layout(Window(_Control(self.lines), wrap_lines=False)),
                           key_bindings=kb, full_screen=True, style=style, color_depth=depth,
                           refresh_interval=1.0, mouse_support=False)

    def press(self, key: str) -> None:
        """A key, as the screen handles it before the game: nothing while the window is too
        small; scrolling; the help pane."""
        if self.too_small():
            self.ignored += 1  # (said on the screen: a person sees the key did nothing)
            self.invalidate()
            return
        self.ignored = 0
        # (On the end screen PgUp/PgDn scroll the log under the end, Up/Down the end itself.)
        pane = self.help if self.showing_help else self.log
        if self.ended and key in ("up", "down"):
            pane = self.end
        moves = {"pageup": 1, "pagedown": -1, "up": 1, "down": -1}
        if key in moves and (key.startswith("page") or pane is not self.log):
            step = -moves[key] if pane.top_first else moves[key]
            if key.startswith("page"):
                pane.page(step)
            else:
                pane.back = max(0, pane.back + step)
        elif key in ("end", "home") and pane is self.log:
            self.log.home()
        elif key == "?" and not self.ended:
            self.showing_help = not self.showing_help
            if self.showing_help:
                self.help.lines.clear()
                self.help.add(*(plain(line) for line in self.help_text().splitlines()))
                self.help.back = 0
        elif key == "escape" and self.showing_help:
            self.showing_help = False
        elif not self.showing_help:
            self.on_key(key)
        self.invalidate()

    # ------------------------------------------------------------------ running

    def run(self) -> asyncio.Future[None]:
        return asyncio.ensure_future(self.app.run_async(handle_sigint=False))

    def redraw(self) -> None:
        """Draw the whole screen again (the terminal was handed to another program meanwhile:
        a job stopped and continued, ``kill -CONT``)."""
        if self.app.is_running:
            with contextlib.suppress(Exception):
                self.app.renderer.reset()
            self.app.invalidate()

    def exit(self) -> None:
        if self.app.is_running:
            with contextlib.suppress(Exception):  # (already leaving)
                self.app.exit()

    @contextlib.contextmanager
    def capture(self, console: Any) -> Iterator[None]:
        """While the screen runs: the console's lines, log records (WARNING and up) and
        writes to ``sys.stdout`` / ``sys.stderr`` go to the log pane."""
        handler = _LogHandler(self)
        root = logging.getLogger()
        root.addHandler(handler)
        saved_streams = (sys.stdout, sys.stderr)
        sink = _Sink(self)
        sys.stdout = sys.stderr = sink
        saved_sink = getattr(console, "sink", None)
        console.sink = self.say
        try:
            yield
        finally:
            console.sink = saved_sink
            sys.stdout, sys.stderr = saved_streams
            root.removeHandler(handler)
            sink.flush()


class _LogHandler(logging.Handler):
    def __init__(self, screen: Screen) -> None:
        super().__init__(logging.WARNING)
        self.screen = screen

    def emit(self, record: logging.LogRecord) -> None:
        with contextlib.suppress(Exception):
            self.screen.say(*self.format(record).splitlines())


class _Sink(io.TextIOBase):
    """A text stream whose lines go to the log pane."""

    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.partial = ""

    def write(self, text: str) -> int:
        self.partial += text
        *whole, self.partial = self.partial.split("\n")
        lines = [line for line in whole if line.strip()]
        if lines:
            self.screen.say(*lines)
        return len(text)

    def flush(self) -> None:
        if self.partial.strip():
            self.screen.say(self.partial)
        self.partial = ""

    def isatty(self) -> bool:
        return False
