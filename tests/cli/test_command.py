"""The command as a process: exit codes, one-line errors, no tracebacks, Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def cryptcrawl(*args: str, stdin: str = "", module: str = "cli.main",
               timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("CRYPTCRAWL_DEBUG", None)
    return subprocess.run([sys.executable, "-m", module, *args], input=stdin, text=True,
                          capture_output=True, cwd=ROOT, env=env, timeout=timeout, check=False)


@pytest.mark.parametrize("args", [
    ("play", "--players", "7"),
    ("play", "--players", "three"),
    ("play", "--bots", "9"),
    ("play", "--bot-kind", "genius"),
    ("play", "--timeouts", "1,1,1,1"),  # healthy peers would time each other out
    ("play", "--timeouts", "30,90,300"),  # not four
    ("host", "--timeouts", "90,30,300,60"),  # quick above normal
    ("play", "--speed", "blitz"),
    ("play", "--speed", "fast", "--timeouts", "30,90,300,60"),  # one or the other
    ("join", "--speed", "fast"),  # the table chooses, not a joiner
    ("host", "--table-name", "x" * 49),  # longer than the advert carries: join NAME missed it
    ("play", "--no-such-option"),
    ("teleport",),
])
def test_usage_error_exits_2_with_one_line(args: tuple[str, ...]) -> None:
    result = cryptcrawl(*args)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("cryptcrawl")
    assert result.stdout == ""


def test_players_7_message() -> None:
    result = cryptcrawl("play", "--players", "7")
    assert result.stderr == ("cryptcrawl play: error: argument --players: Dungeon Raiders is "
                             "for 3 to 5 players, not 7 (see cryptcrawl play --help)\n")


def test_python_dash_m_cli_version() -> None:
    result = cryptcrawl("--version", module="cli")
    assert result.returncode == 0
    assert result.stdout.startswith("cryptcrawl ")


def test_piped_game_and_end_of_input() -> None:
    result = cryptcrawl("play", "--players", "3", "--seed", "s", "--deal-seed", "d",
                        stdin="play 3\nplay 3\nplay 2\n")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr == ("cryptcrawl: input ended while the game waited for your move; "
                             "you left the game\n")
    assert "your card> play 3\n" in result.stdout
    assert "illegal 'play 3': you already played your 3 in this level" in result.stdout


def test_all_bots_as_a_process() -> None:
    result = cryptcrawl("play", "--players", "5", "--bots", "5", "--seed", "s",
                        "--deal-seed", "d")
    assert result.returncode == 0, result.stderr
    assert "Final scores" in result.stdout
    assert result.stderr == ""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_leaves_cleanly() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # The child gets the default Ctrl-C handling even where this test runs with SIGINT
    # ignored (a background job of a non-interactive shell).
    proc = subprocess.Popen([sys.executable, "-m", "cli", "play", "--deal-seed", "d"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=ROOT, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert proc.stdout is not None
        seen = b""
        deadline = time.monotonic() + 30
        while not seen.endswith(b"your card> ") and time.monotonic() < deadline:
            chunk = proc.stdout.read1(4096)  # type: ignore[attr-defined]
            if not chunk:
                break
            seen += chunk
        assert seen.endswith(b"your card> ")
        proc.send_signal(signal.SIGINT)
        # Wait before closing standard input: closing it first races the signal (end of input
        # is a different way to leave, with another status).
        proc.wait(timeout=30)
        assert proc.stderr is not None
        err = proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130
    assert b"Traceback" not in err
    assert err.strip() == b"cryptcrawl: interrupted; you left the game"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pseudo-terminals")
def test_game_through_a_pseudo_terminal() -> None:
    """A person at a terminal: input() with line editing, answered prompt by prompt."""
    attempts = 0

    def card(shown: bytes) -> bytes | None:
        nonlocal attempts
        if not shown.endswith((b"your card> ", b"your follow-up> ")):
            return None
        attempts += 1
        return f"play {(attempts - 1) % 5 + 1}\r".encode()

    status, text = on_terminal(["play", "--players", "3", "--seed", "s", "--deal-seed", "d",
                                "--plain"], card, deadline=120, pause=0)
    assert status == 0, text[-2000:]
    assert "Final scores" in text
    assert "Traceback" not in text
    assert "\x1b[" not in text.replace("\x1b[?1034h", "")  # no colours (readline may set meta)


def on_terminal(argv: list[str], answer: Callable[[bytes], bytes | None],
                deadline: float = 60, pause: float = 0.1) -> tuple[int, str]:
    """Run ``python -m cli ARGV`` on a pseudo-terminal; ``answer`` gets everything shown so
    far and returns what to type (or None), typed ``pause`` s later.  Returns the exit status
    and the screen."""
    import pty
    import select

    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, on the terminal
        os.environ["PYTHONPATH"] = str(ROOT)
        os.environ.pop("CRYPTCRAWL_DEBUG", None)
        os.chdir(ROOT)
        try:
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.execv(sys.executable, [sys.executable, "-m", "cli", *argv])
        finally:
            os._exit(127)
    out = b""
    end = time.monotonic() + deadline
    try:
        while time.monotonic() < end:
            ready, _, _ = select.select([fd], [], [], 0.2)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            out += chunk
            typed = answer(out)
            if typed:
                time.sleep(pause)
                os.write(fd, typed)
        else:
            os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    finally:
        os.close(fd)
    return os.waitstatus_to_exitcode(status), out.decode(errors="replace")
