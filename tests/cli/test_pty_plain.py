"""``cryptcrawl play --plain`` on a pseudo-terminal: a person against two bots, to the end.

The game runs as its own process with a pseudo-terminal for standard input, output and error,
as in a terminal window.  The test reads the screen; at each prompt for a card it picks one of
the choices the screen lists (a different one each time, so torches, crystal balls and their
follow-ups come up), types it and presses Enter; it declines the rematch offered at the end.
Every choice the screen offers must be accepted.  Then the match file the game names must
pass ``cryptcrawl verify --json``.  Each read waits at most a few seconds at a time, the whole
game at most ``GAME_SECONDS``; the child is killed in any case when the test ends.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from tests.cli.test_command import ROOT, cryptcrawl

GAME_SECONDS = 150.0  # the whole match, start to exit (a match takes a few seconds)
QUIET_SECONDS = 45.0  # the longest silence while the game should be talking
PROMPT = re.compile(r"your (card|follow-up)> ")
REMATCH = "Rematch: the same seats, a new match? [y/N] "
CHOICES = re.compile(r"(?:Choose|Follow-up for your crystal ball): (.*?)\n  \(\? for help",
                     re.S)
ESCAPES = re.compile(r"\x1b(?:\[[0-9;?]*[ -/]*[@-~]|[=>])")  # what a terminal library may add


def screen_text(raw: bytes) -> str:
    """The terminal output as text: escape sequences dropped, line ends normalised."""
    text = ESCAPES.sub("", raw.decode("utf-8", errors="replace"))
    return text.replace("\r\n", "\n").replace("\r", "")


def last_choices(text: str) -> list[str]:
    """The choices of the last "Choose: ..." list on the screen (it may wrap)."""
    found = CHOICES.findall(text)
    assert found, f"a prompt without a list of choices:\n{text[-1500:]}"
    return [c.strip() for c in " ".join(found[-1].split()).split(",") if c.strip()]


class Terminal:
    """A child process on a pseudo-terminal of 80x24."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        try:
            self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave,
                                         cwd=ROOT, env=env, start_new_session=True)
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        self.fd = master
        self.raw = b""
        self.closed = False

    def text(self) -> str:
        return screen_text(self.raw)

    def read(self, seconds: float) -> bool:
        """Read what the child wrote within ``seconds``; False once the terminal is closed."""
        if self.closed:
            return False
        ready, _, _ = select.select([self.fd], [], [], seconds)
        if not ready:
            return True
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:  # EIO: every process holding the terminal has gone
            chunk = b""
        if not chunk:
            self.closed = True
            return False
        self.raw += chunk
        return True

    def type(self, line: str) -> None:
        os.write(self.fd, line.encode() + b"\r")  # Enter

    def close(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=10)
        os.close(self.fd)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pseudo-terminals")
def test_a_person_plays_a_whole_match_on_a_terminal(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color"}
    env.pop("CRYPTCRAWL_DEBUG", None)
    data = tmp_path / "data"
    term = Terminal([sys.executable, "-m", "cli", "play", "--players", "3", "--plain",
                     "--seed", "pty", "--name", "Ana", "--data-dir", str(data),
                     "--timeouts", "30,30,30,20"], env)
    answered: list[str] = []  # what was typed at each card prompt, in order
    rematch_declined = False
    try:
        deadline = time.monotonic() + GAME_SECONDS
        last_output = time.monotonic()
        while True:
            now = time.monotonic()
            assert now < deadline, f"the match took over {GAME_SECONDS} s:\n{term.text()[-3000:]}"
            assert now - last_output < QUIET_SECONDS, (
                f"no output for {QUIET_SECONDS} s:\n{term.text()[-3000:]}")
            size = len(term.raw)
            if not term.read(min(2.0, deadline - now)):
                break
            if len(term.raw) == size:
                continue
            last_output = time.monotonic()
            text = term.text()
            prompts = PROMPT.findall(text)
            if len(prompts) > len(answered):
                assert len(prompts) == len(answered) + 1, "two prompts without an answer"
                choices = last_choices(text)
                choice = choices[len(answered) % len(choices)]
                answered.append(choice)
                term.type(choice)
            elif text.endswith(REMATCH) and not rematch_declined:
                rematch_declined = True
                term.type("n")
        code = term.proc.wait(timeout=max(1.0, deadline - time.monotonic()))
    finally:
        term.close()

    text = term.text()
    tail = text[-3000:]
    assert code == 0, tail
    assert "Traceback" not in text, tail
    assert "internal error" not in text, tail
    assert "Final scores" in text and "=== Game over" in text, tail
    assert rematch_declined, "the end of a match on a terminal offers a rematch"
    # Every choice the screen offered was accepted: no error line after any of them.
    errors = [line for line in text.splitlines()
              if line.startswith(("illegal ", "unknown action ", "Type a card"))]
    assert not errors, errors
    # A whole match: 25 rooms resolved, the person decided in every one.
    assert len(re.findall(r"^Room [1-5], ", text, re.M)) == 25, tail
    assert len(answered) >= 25
    assert "A you (Ana)" in text
    # What was typed is echoed by the terminal after its prompt.
    for choice in answered:
        assert re.search(rf"your (card|follow-up)> {re.escape(choice)}\n", text), choice

    found = re.search(r"The match file: (\S+\.crawl)", text)
    assert found, tail
    match_file = Path(found.group(1))
    assert match_file.is_file() and data in match_file.parents, match_file
    check = cryptcrawl("verify", "--json", str(match_file), timeout=60)
    assert check.returncode == 0, check.stdout + check.stderr
    verdict = json.loads(check.stdout)
    assert verdict["status"] == "valid", verdict
    assert verdict["seats"][0]["name"] == "Ana"
