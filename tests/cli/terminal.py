"""``cryptcrawl`` on a pseudo-terminal, its output rendered by a terminal emulator (pyte).

A test reads the screen as a person sees it — rows of text at the terminal's size — instead
of the bytes written: a line written behind the full screen's back, a fragment drawn over
another, a hint cut off at the right edge all show in :meth:`Terminal.text`.  The emulator
answers the program's cursor-position queries, as a real terminal does.

Every wait has a deadline (generous: other tests may load the machine) and fails with the
screen as it stands; :meth:`Terminal.close` kills the process group and reaps it, and the
``terminal`` fixture calls it for every terminal a test opened.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pyte
import pytest

ROOT = Path(__file__).resolve().parents[2]
WAIT = 90.0  # seconds any one thing may take to show up on a busy machine


class _Screen(pyte.Screen):  # type: ignore[misc]
    """A pyte screen that answers device-status queries to the program."""

    def __init__(self, columns: int, lines: int, answer: Callable[[bytes], None]) -> None:
        super().__init__(columns, lines)
        self.answer = answer

    def write_process_input(self, data: str) -> None:
        self.answer(data.encode())


class Terminal:
    """One ``python -m MODULE ARGV`` (``cli``: the command) on a ``columns`` x ``lines``
    pseudo-terminal."""

    def __init__(self, argv: list[str], columns: int = 80, lines: int = 24, *,
                 env: dict[str, str] | None = None, module: str = "cli") -> None:
        self.raw = bytearray()
        self.columns, self.lines = columns, lines
        pid, fd = pty.fork()
        if pid == 0:  # pragma: no cover (the child)
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                os.environ.update(PYTHONPATH=str(ROOT), TERM="xterm", **(env or {}))
                os.environ.pop("CRYPTCRAWL_DEBUG", None)
                os.environ.pop("NO_COLOR", None)
                os.chdir(ROOT)
                os.execv(sys.executable, [sys.executable, "-m", module, *argv])
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        self.code: int | None = None
        self.screen = _Screen(columns, lines, self.send)
        self.stream = pyte.ByteStream(self.screen)

    # ------------------------------------------------------------------ output

    def pump(self, timeout: float = 0.1) -> bool:
        """Read what the program wrote (waiting at most ``timeout``); False once it is gone."""
        if not select.select([self.fd], [], [], timeout)[0]:
            return True
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:
            return False
        if not chunk:
            return False
        self.raw += chunk
        self.stream.feed(chunk)
        return True

    def text(self) -> str:
        return "\n".join(row.rstrip() for row in self.screen.display)

    def rows(self) -> list[str]:
        return [row.rstrip() for row in self.screen.display]

    def wait(self, check: str | Callable[[str], bool], timeout: float = WAIT) -> str:
        """Read until the screen shows ``check`` (a text, or a test of the screen's text);
        the screen then.  Fails with the screen as it stands at the deadline."""
        test = (lambda screen: check in screen) if isinstance(check, str) else check
        deadline = time.monotonic() + timeout
        while True:
            screen = self.text()
            if test(screen):
                return screen
            if time.monotonic() > deadline:
                pytest.fail(f"not on the screen after {timeout:g} s: {check!r}\n{screen}",
                            pytrace=False)
            if not self.pump(0.2) and not test(self.text()):
                pytest.fail(f"the program ended before the screen showed {check!r}:\n"
                            f"{self.text()}\n--- last bytes: {bytes(self.raw[-600:])!r}",
                            pytrace=False)

    def steady(self, check: str | Callable[[str], bool], timeout: float = WAIT) -> str:
        """:meth:`wait` for ``check`` on a screen drawn whole: a frame can arrive in pieces,
        so the screen must still show it once nothing more came for a moment."""
        test = (lambda screen: check in screen) if isinstance(check, str) else check
        deadline = time.monotonic() + timeout
        while True:
            self.wait(test, max(0.0, deadline - time.monotonic()))
            screen = self.settle(0.25)
            if test(screen):
                return screen

    def settle(self, quiet: float = 0.5, timeout: float = 10.0) -> str:
        """Read until nothing came for ``quiet`` seconds (the screen is drawn)."""
        deadline = time.monotonic() + timeout
        last = len(self.raw)
        calm = time.monotonic()
        while time.monotonic() < deadline:
            if not self.pump(0.1):
                break
            if len(self.raw) != last:
                last, calm = len(self.raw), time.monotonic()
            elif time.monotonic() - calm >= quiet:
                break
        return self.text()

    # ------------------------------------------------------------------ input

    def send(self, data: bytes) -> None:
        with contextlib.suppress(OSError):
            os.write(self.fd, data)

    def resize(self, columns: int, lines: int) -> None:
        """The window changes size: the program gets SIGWINCH from the terminal driver."""
        self.columns, self.lines = columns, lines
        self.screen.resize(lines, columns)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))

    # ------------------------------------------------------------------ the end

    def finished(self, timeout: float = WAIT) -> int:
        """Read until the program exits; its exit status."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.pump(0.2):
                break
        return self.close(kill=time.monotonic() >= deadline)

    def close(self, *, kill: bool = True) -> int:
        if self.code is None:
            if kill:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.pid, signal.SIGKILL)
            _, status = os.waitpid(self.pid, 0)
            self.code = os.waitstatus_to_exitcode(status)
            with contextlib.suppress(OSError):
                os.close(self.fd)
        return self.code


@pytest.fixture
def terminal() -> Iterator[Callable[..., Terminal]]:
    """Opens terminals (``terminal(argv, columns, lines)``); every one is closed after."""
    opened: list[Terminal] = []

    def open_one(argv: list[str], columns: int = 80, lines: int = 24, **kw: object) -> Terminal:
        term = Terminal(argv, columns, lines, **kw)  # type: ignore[arg-type]
        opened.append(term)
        return term

    yield open_one
    for term in opened:
        term.close()
