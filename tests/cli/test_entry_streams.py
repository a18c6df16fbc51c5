"""How ``cryptcrawl`` meets its process (found by exploratory testing): Ctrl-C while it is still
starting, a standard stream that is closed, an output that is full or goes away, an empty
path, Ctrl-C or end of input in a command that is not a game, SIGTERM and SIGHUP at a prompt.
Each ends in one line on stderr and the documented status, never a traceback."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

import pytest

from tests.cli.test_command import ROOT, on_terminal

posix = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and descriptors")


def env_for(**extra: str) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), **extra}
    env.pop("CRYPTCRAWL_DEBUG", None)
    return env


def run(*args: str, timeout: float = 60, env: dict[str, str] | None = None,
        **kw: object) -> subprocess.CompletedProcess[str]:
    """``python -m cli ARGS`` with the standard streams given in ``kw`` (default: captured)."""
    kw.setdefault("stdin", subprocess.DEVNULL)
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    return subprocess.run([sys.executable, "-m", "cli", *args], text=True, cwd=ROOT,
                          env=env or env_for(), timeout=timeout, check=False,
                          **kw)  # type: ignore[call-overload]


@pytest.fixture(scope="module")
def match_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished, valid match file (an all-bot match over loopback)."""
    folder = tmp_path_factory.mktemp("match")
    out = folder / "m.crawl"
    done = run("play", "--bots", "3", "--players", "3", "--data-dir", str(folder / "data"),
               "--out", str(out), timeout=120)
    assert done.returncode == 0, done.stderr
    return out


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err, err
    return lines[0]


@contextlib.contextmanager
def stopped(proc: subprocess.Popen[bytes]) -> Iterator[subprocess.Popen[bytes]]:
    """``proc``, killed at the end if it is still running (pass or fail)."""
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)


# ---------------------------------------------------------------- 1. Ctrl-C while starting


@posix
def test_ctrl_c_while_the_command_starts_is_one_line(tmp_path: Path) -> None:
    """Ctrl-C in the first moments: while the engine and the network code are imported,
    while the parser is built, as the match begins.  (Before: a traceback from inside an
    import, or an UnboundLocalError from version().)"""
    landed = 0
    # (Early moments only: a Ctrl-C just as the bots sit down can leave the match waiting for
    # good in p2p, a separate problem.)
    for k, delay in enumerate((0.03, 0.05, 0.07, 0.1, 0.12, 0.15)):
        proc = subprocess.Popen(
            [sys.executable, "-m", "cli", "play", "--bots", "3", "--players", "3",
             "--data-dir", str(tmp_path / f"data{k}")],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            cwd=ROOT, env=env_for(),
            # the default Ctrl-C handling even where the tests run with SIGINT ignored
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        with stopped(proc):
            time.sleep(delay)
            proc.send_signal(signal.SIGINT)
            _, raw = proc.communicate(timeout=30)
        err = raw.decode(errors="replace")
        ours = any(f"{ROOT / package}{os.sep}" in err
                   for package in ("cli", "engine", "protocol", "p2p"))
        if ("Traceback" in err and not ours) or (proc.returncode == -signal.SIGINT and not err):
            # Still in the interpreter's own start-up (site, a virtual environment's .pth
            # files — which may sit inside the checkout), before any of our code; or earlier
            # still, before the interpreter set its own Ctrl-C handler (the signal's default
            # action ended the process: on a loaded machine start-up takes longer).
            continue
        landed += 1
        assert "Traceback" not in err and "Error" not in err, (delay, err)
        if proc.returncode == 0:  # (finished first)
            continue
        assert proc.returncode == 130, (delay, proc.returncode, err)
        assert one_line(err) in ("cryptcrawl: interrupted",
                                 "cryptcrawl: interrupted; you left the game"), (delay, err)
    assert landed, "every Ctrl-C came before the command started: a machine this slow?"


def test_ctrl_c_while_the_version_is_looked_up(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C inside version()'s import (before: the except clause named a class that was not
    imported yet: UnboundLocalError, chained to the KeyboardInterrupt)."""
    from cli import main as cli_main

    class Interrupting:
        def find_spec(self, name: str, *_: object) -> None:
            if name == "importlib.metadata":
                raise KeyboardInterrupt

    monkeypatch.delitem(sys.modules, "importlib.metadata", raising=False)
    monkeypatch.setattr(sys, "meta_path", [Interrupting(), *sys.meta_path])
    with pytest.raises(KeyboardInterrupt):
        cli_main.version()
    assert cli_main.main(["--version"]) == 130
    assert capsys.readouterr().err.strip() == "cryptcrawl: interrupted"


def test_ctrl_c_while_a_dataclass_is_made_is_one_line(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C inside a dataclass's making while a module loads: Python 3.11 raises it as a
    RuntimeError ("Error calling __set_name__") caused by the KeyboardInterrupt (before: a
    traceback, seen once in CI's start-up test)."""
    from cli import interrupts
    from cli import main as cli_main

    def making(argv: object) -> int:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as exc:
            raise RuntimeError("Error calling __set_name__ on 'Field' instance 'bots'") from exc

    monkeypatch.setattr(cli_main, "_main", making)
    assert cli_main.main(["play"]) == 130
    assert capsys.readouterr().err.strip() == "cryptcrawl: interrupted"
    assert interrupts.interrupted(KeyboardInterrupt())
    assert not interrupts.interrupted(RuntimeError("something else"))
    with pytest.raises(SystemExit) as leaving:  # (an exit while a Ctrl-C is answered: its own)
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise SystemExit(2)  # noqa: B904
    assert not interrupts.interrupted(leaving.value)

    def failing(argv: object) -> int:
        raise RuntimeError("a real failure")

    monkeypatch.setattr(cli_main, "_main", failing)
    with pytest.raises(RuntimeError, match="a real failure"):
        cli_main.main(["play"])


# ---------------------------------------------------------------- 2. a closed stream


def close_fd(fd: int) -> Callable[[], None]:
    return lambda: os.close(fd)


@posix
@pytest.mark.parametrize("offline", [False, True])
def test_closed_input_ends_the_game_at_once(tmp_path: Path, offline: bool) -> None:
    """``cryptcrawl play <&-`` (before: "Task exception was never retrieved ...
    AttributeError" and a game that waited for the turn timeout, then exit 0; offline:
    "internal error: AttributeError")."""
    args = ["play", "--players", "3", "--plain", "--timeouts", "30,30,30,20", "--data-dir",
            str(tmp_path / "data")]
    if offline:
        args += ["--deal-seed", "x"]
    started = time.monotonic()
    done = run(*args, stdin=None, preexec_fn=close_fd(0), timeout=60)
    assert time.monotonic() - started < 25, "the game waited for the turn timeout"
    assert done.returncode == 1, done.stderr
    assert one_line(done.stderr) == ("cryptcrawl: input ended while the game waited for your "
                                     "move; you left the game")
    assert "your card> " in done.stdout


@posix
@pytest.mark.parametrize("as_json", [False, True])
def test_closed_output_still_gives_the_verdict(match_file: Path, as_json: bool) -> None:
    """``cryptcrawl verify FILE >&-``: nothing to show it to, the status says it."""
    args = ["verify", str(match_file), *(["--json"] if as_json else [])]
    done = run(*args, stdout=None, preexec_fn=close_fd(1))
    assert done.stderr == ""
    assert done.returncode == 0


# ---------------------------------------------------------------- 3. output errors


@posix
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("buffered", [True, False])
@pytest.mark.parametrize("args", [
    ("verify", "{file}"), ("verify", "--json", "{file}"), ("export", "--json", "{file}"),
    ("replay", "--plain", "{file}"), ("matches", "--data-dir", "{data}"), ("--help",),
    ("--version",), ("play", "--help"),
    ("play", "--players", "3", "--bots", "3", "--deal-seed", "x"),
])
def test_a_full_disk_is_one_line(match_file: Path, tmp_path: Path, args: tuple[str, ...],
                                 buffered: bool) -> None:
    """``> /dev/full`` (before: "internal error: OSError: [Errno 28] ...", and --help exited 0
    with nothing written)."""
    argv = [a.format(file=match_file, data=match_file.parent / "data") for a in args]
    env = env_for()
    if buffered:
        env.pop("PYTHONUNBUFFERED", None)
    else:
        env["PYTHONUNBUFFERED"] = "1"
    with open("/dev/full", "w") as full:
        done = run(*argv, stdout=full, env=env)
    name = "cryptcrawl" if argv[0].startswith("-") or "--help" in argv else f"cryptcrawl {argv[0]}"
    assert one_line(done.stderr) == f"{name}: cannot write the output: No space left on device"
    assert done.returncode == 1


@pytest.mark.mdns
@posix
@pytest.mark.parametrize("command", ["matches", "verify", "export", "replay"])
def test_a_broken_pipe_is_one_line_for_every_command(match_file: Path,
                                                     command: str) -> None:
    """``cryptcrawl matches | head -1`` (before: "cryptcrawl matches: [Errno 32] Broken
    pipe"; verify and the others: an internal error) — the wording ``play`` uses."""
    argv = {"matches": ["matches", "--data-dir", str(match_file.parent / "data")],
            "verify": ["verify", str(match_file)],
            "export": ["export", "--json", str(match_file)],
            "replay": ["replay", "--plain", str(match_file)]}[command]
    read, write = os.pipe()
    os.close(read)  # the reader is gone before anything is written
    try:
        done = run(*argv, stdout=write, env=env_for(PYTHONUNBUFFERED="1"))
    finally:
        os.close(write)
    assert one_line(done.stderr) == f"cryptcrawl {command}: the output went away (Broken pipe)"
    assert done.returncode == 1


# ---------------------------------------------------------------- 4. empty paths


@pytest.mark.parametrize("args", [
    ("play", "--data-dir", ""), ("play", "--bots", "3", "--players", "3", "--out", ""),
    ("host", "--players", "3", "--data-dir", ""), ("tables", "--data-dir", ""),
    ("join", "--data-dir", ""), ("resume", "--data-dir", ""), ("matches", "--data-dir", ""),
    ("id", "--data-dir", ""), ("id", "--import", ""), ("id", "--export", ""),
    ("replay", "x.crawl", "--data-dir", ""), ("export", "--json", "x.crawl", "--data-dir", ""),
    ("verify", "x.crawl", "--data-dir", ""), ("matches", "--data-dir="),
])
def test_an_empty_path_is_a_usage_error(tmp_path: Path, args: tuple[str, ...]) -> None:
    """``--data-dir "$UNSET"`` (before: the real user data directory, silently; ``id --import
    ""`` made a fresh key, ``id --export ""`` exported nothing)."""
    home, xdg = tmp_path / "home", tmp_path / "xdg"
    home.mkdir()
    xdg.mkdir()
    env = env_for(HOME=str(home), XDG_DATA_HOME=str(xdg), XDG_CONFIG_HOME=str(xdg))
    done = run(*args, env=env, timeout=30)
    assert done.returncode == 2, (done.returncode, done.stdout[-500:], done.stderr)
    line = one_line(done.stderr)
    assert line.startswith(f"cryptcrawl {args[0]}: error: argument --") and "empty" in line
    assert list(home.iterdir()) == [] and list(xdg.iterdir()) == []  # nothing made anywhere


# ---------------------------------------------------------------- 5. not a game: its wording


def after_prompts(n: int, then: bytes) -> Callable[[bytes], bytes | None]:
    """Enter at the first n-1 replay prompts, then ``then``."""
    prompt = b"Enter: next room, q: stop> "

    def answer(out: bytes) -> bytes | None:
        if not out.endswith(prompt):
            return None
        return then if out.count(prompt) >= n else b"\r"

    return answer


@posix
@pytest.mark.parametrize(("key", "status"), [(b"\x04", 0), (b"\x03", 130)])
def test_replay_stopped_at_its_prompt(match_file: Path, key: bytes, status: int) -> None:
    """Ctrl-D at the replay's prompt ends the replay like q; Ctrl-C says it interrupted the
    replay (before: "input ended while the game waited for your move; you left the game",
    status 1, and "interrupted; you left the game")."""
    code, screen = on_terminal(["replay", str(match_file)], after_prompts(2, key))
    assert "Traceback" not in screen and "game" not in screen.split("q: stop>")[-1], screen
    assert code == status, screen[-1500:]
    if status == 130:
        assert screen.rstrip().endswith("cryptcrawl replay: interrupted"), screen[-500:]


@pytest.mark.mdns
@posix
def test_ctrl_c_ends_tables_watch_with_a_line_and_success(tmp_path: Path) -> None:
    """``cryptcrawl tables --watch`` and Ctrl-C, the documented way to stop it: one line, exit
    status 0 (before: "interrupted", 130; and before that "interrupted; you left the game")."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli", "tables", "--watch", "--interface", "127.0.0.1",
         "--data-dir", str(tmp_path)],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
        env=env_for(PYTHONUNBUFFERED="1"),
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    with stopped(proc):
        assert proc.stdout is not None
        first = read_line(proc.stdout, 30)
        assert first.startswith("Tables on the LAN"), first
        proc.send_signal(signal.SIGINT)
        out, raw = proc.communicate(timeout=30)
    assert raw.decode(errors="replace") == ""
    assert out.decode().splitlines()[-1] == "Stopped listening."
    assert proc.returncode == 0


def default_hangup() -> None:
    for name in ("SIGHUP", "SIGTERM"):
        signal.signal(getattr(signal, name), signal.SIG_DFL)


def drained(proc: subprocess.Popen[bytes], timeout: float) -> tuple[bytes, bytes]:
    """Read ``proc``'s standard output and error until both end, leaving its input open; then
    wait for it.  Fails after ``timeout`` seconds."""
    assert proc.stdout is not None and proc.stderr is not None
    streams = {proc.stdout.fileno(): bytearray(), proc.stderr.fileno(): bytearray()}
    open_fds = set(streams)
    end = time.monotonic() + timeout
    while open_fds:
        left = end - time.monotonic()
        if left <= 0:
            pytest.fail(f"still running {timeout:g} s after the signal")
        ready, _, _ = select.select(list(open_fds), [], [], min(left, 0.5))
        for fd in ready:
            chunk = os.read(fd, 65536)
            if chunk:
                streams[fd] += chunk
            else:
                open_fds.discard(fd)
    proc.wait(timeout=max(1.0, end - time.monotonic()))
    return bytes(streams[proc.stdout.fileno()]), bytes(streams[proc.stderr.fileno()])


def read_line(stream: IO[bytes], timeout: float) -> str:
    fd = stream.fileno()
    seen = b""
    end = time.monotonic() + timeout
    while b"\n" not in seen and time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            seen += chunk
    return seen.decode(errors="replace")


# ---------------------------------------------------------------- 6. SIGTERM, SIGHUP


@pytest.fixture
def at_the_prompt(tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    """``cryptcrawl play --plain`` waiting for your card (its input kept open)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli", "play", "--players", "3", "--plain", "--timeouts",
         "60,60,60,40", "--data-dir", str(tmp_path / "data")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
        env=env_for(PYTHONUNBUFFERED="1"),
        # SIGHUP and SIGTERM at their defaults even where the tests run under nohup (which the
        # program respects: it leaves a signal alone that is not at its default).
        preexec_fn=default_hangup)
    with stopped(proc):
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        seen = b""
        end = time.monotonic() + 60
        while not seen.endswith(b"your card> ") and time.monotonic() < end:
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    break
                seen += chunk
        assert seen.endswith(b"your card> "), seen[-500:]
        yield proc


@posix
@pytest.mark.parametrize(("signame", "words"), [("SIGTERM", "terminated"),
                                                 ("SIGHUP", "hung up")])
def test_sigterm_and_sighup_at_the_prompt_say_so(at_the_prompt: subprocess.Popen[bytes],
                                                 signame: str, words: str) -> None:
    """(Before: the process ended without a word.)  The status stays 128 + the signal."""
    number = getattr(signal, signame)
    at_the_prompt.send_signal(number)
    # Its input stays open until it is gone (communicate() would close it at once: under load
    # the end of input could then be read before the signal is handled), and its output is
    # read meanwhile (a full pipe would hold it at exit).
    _, raw = drained(at_the_prompt, 60)
    assert one_line(raw.decode(errors="replace")) == f"cryptcrawl: {words}; you left the game"
    assert at_the_prompt.returncode == 128 + number
