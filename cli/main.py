"""The ``cryptcrawl`` command.

Exit status: 0 ok (also when you leave a game on purpose), 1 any other failure (including input
ending while the game waits for you, or output that cannot be written), 2 a usage error, 130
interrupted (Ctrl-C); a game ended by SIGTERM or SIGHUP, 128 plus the signal's number (143,
129).  Every error is one line on stderr, never a traceback (set ``CRYPTCRAWL_DEBUG=1`` to see
one for an internal error).
"""

from __future__ import annotations

# Only light modules here: Ctrl-C can come at any moment, and until main() runs it cannot be
# answered with one line (the engine, the protocol and the network are imported by the
# commands that need them).
import contextlib
import errno
import io
import os
import signal
import sys
from collections.abc import Callable, Sequence
from types import FrameType
from typing import Any, TextIO, cast

from cli.args import EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_USAGE, PROG, build_parser, version
from cli.commands import command as run_command
from cli.commands import out_problem
from cli.interrupts import interrupted

__all__ = ["build_parser", "main", "version"]


GAME_COMMANDS = ("play", "host", "join", "resume")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status (see the module docstring)."""
    code = EXIT_INTERRUPTED
    try:  # Ctrl-C at any moment, the parser's included, is one line and status 130
        _standard_streams()
        _tolerant_streams()
        code = _main(argv)
    except BaseException as exc:  # (a Ctrl-C, or what one caused while a module loaded)
        if not interrupted(exc):
            raise
        _flush_quietly()
        _say(f"\n{PROG}: interrupted")
        code = EXIT_INTERRUPTED
    _forget_interrupt()
    play = sys.modules.get("cli.play")  # (not imported: no console thread either)
    if play is not None:
        play.leave_if_input_blocked(code)  # (Ctrl-C at a prompt: a thread still waits)
    return code


def _forget_interrupt() -> None:
    """CPython notes a KeyboardInterrupt that leaves code run by ``exec(text)`` (dataclasses
    and named tuples are made that way, so Ctrl-C while a module loads often does) and, at
    exit, kills the process with SIGINT instead of returning our status — even though the
    interrupt was caught and answered.  Running text again clears the note."""
    exec("None")


def _standard_streams() -> None:
    """A standard stream that is closed (``cryptcrawl play <&-``, ``cryptcrawl verify F >&-``)
    is ``None`` in Python: it becomes the null device, so input ends at once (the game says
    so) and output goes nowhere (the exit status still tells the verdict)."""
    for name, mode in (("stdin", "r"), ("stdout", "w"), ("stderr", "w")):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, mode, encoding="utf-8"))  # noqa: SIM115


def _tolerant_streams() -> None:
    """A character the terminal cannot show (a player named "José" on an ASCII-only terminal,
    say) is written as "?" instead of stopping the command; a byte typed or piped in that is not
    text is read as U+FFFD and refused like any typo."""
    for stream in (sys.stdin, sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            with contextlib.suppress(AttributeError, ValueError, io.UnsupportedOperation):
                stream.reconfigure(errors="replace")


class _OutputError(Exception):
    """Writing to standard output failed (``> /dev/full``, ``| head -1``)."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


class _Output:
    """Standard output for the commands that print (and for offline play): a failed write or
    flush becomes :class:`_OutputError`, told apart from the OSErrors of files and sockets."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except OSError as exc:
            raise _OutputError(exc) from exc

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        try:
            self.stream.flush()
        except OSError as exc:
            raise _OutputError(exc) from exc

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


class _Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP during a game: left like Ctrl-C, with the signal's status."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number


def _terminate(number: int, frame: FrameType | None) -> None:
    """The handler: raise :class:`_Terminated` — from a callback of the running event loop if
    there is one (as asyncio does with Ctrl-C), not inside whatever task the signal happened
    to interrupt (that task would keep the exception and log it as never retrieved)."""
    running = getattr(sys.modules.get("asyncio"), "get_running_loop", None)  # (loaded yet?)
    loop: Any = None
    if running is not None:
        with contextlib.suppress(RuntimeError):
            loop = running()
    if loop is None:
        if _importing(frame):
            # Raised here, it could land in a callback of the import system, which drops it:
            # the signal would be lost.  Nothing has begun yet: say so, end as the signal does.
            _say(_termination_line(number))
            signal.signal(number, signal.SIG_DFL)
            os.kill(os.getpid(), number)
        raise _Terminated(number)
    try:
        loop.call_soon_threadsafe(_raise_terminated, number)
    except RuntimeError:  # (a loop that is closing)
        raise _Terminated(number) from None


def _raise_terminated(number: int) -> None:
    raise _Terminated(number)


def _importing(frame: FrameType | None) -> bool:
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


def _termination_line(number: int) -> str:
    what = "hung up" if number == getattr(signal, "SIGHUP", None) else "terminated"
    return f"\n{PROG}: {what}; you left the game"


def _leave_on_termination() -> Callable[[], None]:
    """For a game: SIGTERM and SIGHUP leave it like Ctrl-C (the match file is closed as it
    stands; one line says why) instead of ending the process without a word.  A signal that
    is not at its default (``nohup`` ignores SIGHUP) is left alone.  Returns the undo."""
    saved: dict[int, Any] = {}
    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is None:
            continue
        with contextlib.suppress(ValueError, OSError, TypeError):  # (not the main thread)
            if signal.getsignal(number) == signal.SIG_DFL:
                saved[number] = signal.signal(number, _terminate)

    def restore() -> None:
        for number, handler in saved.items():
            with contextlib.suppress(ValueError, OSError, TypeError):
                signal.signal(number, handler)

    return restore


def _main(argv: Sequence[str] | None = None) -> int:
    # Output errors are told apart from those of files and sockets (see _Output) — but a
    # networked game stops on its own when its output goes away (cli/netplay.py).
    from cli.args import note_data_dir

    note_data_dir(None)  # (each run its own: main() may run several times in one process)
    stdout = sys.stdout
    sys.stdout = cast(TextIO, _Output(stdout))
    try:
        return _parse_and_run(argv)
    finally:
        note_data_dir(None)
        if isinstance(sys.stdout, _Output):
            sys.stdout = stdout


def _parse_and_run(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version and usage errors
        return _flushed(exc.code if isinstance(exc.code, int) else EXIT_USAGE, PROG, False)
    except _OutputError as exc:  # (--help > /dev/full: argparse itself ignores OSError)
        return _output_failed(exc.error, PROG, False)
    command: str | None = args.command
    name = f"{PROG} {command}" if command else PROG
    problem = out_problem(args)
    if problem is not None:
        sys.stderr.write(f"{name}: error: {problem}\n")
        return EXIT_USAGE
    game = command in GAME_COMMANDS
    if game and getattr(args, "deal_seed", None) is None and isinstance(sys.stdout, _Output):
        sys.stdout = sys.stdout.stream
    restore = _leave_on_termination() if game else (lambda: None)
    try:
        return _flushed(run_command(args, parser), name, game)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else EXIT_FAILURE
    except _Terminated as exc:
        _flush_quietly()
        _say(_termination_line(exc.number))
        return 128 + exc.number
    except KeyboardInterrupt:
        _flush_quietly()
        _say(f"\n{PROG}: interrupted; you left the game" if game else f"\n{name}: interrupted")
        return EXIT_INTERRUPTED
    except _OutputError as exc:
        return _output_failed(exc.error, name, game)
    except EOFError:  # cli.play.InputClosed
        _flush_quietly()
        _say(f"{PROG}: input ended while the game waited for your move; you left the game"
             if game else f"{name}: input ended")
        return EXIT_FAILURE
    except BrokenPipeError as exc:
        return _output_failed(exc, name, game)
    except Exception as exc:
        if os.environ.get("CRYPTCRAWL_DEBUG"):
            import traceback

            traceback.print_exc()
        _say(f"{PROG}: internal error: {type(exc).__name__}: {exc} "
             f"(set CRYPTCRAWL_DEBUG=1 for details)")
        return EXIT_FAILURE
    finally:
        restore()


def _flushed(code: int, name: str, game: bool) -> int:
    """The exit status once what is left of the output is written: a failure to write it (a
    full disk, a closed pipe) is one line and status 1, not a silent loss at exit."""
    try:
        sys.stdout.flush()
    except _OutputError as exc:
        return _output_failed(exc.error, name, game)
    except OSError as exc:
        return _output_failed(exc, name, game)
    except ValueError:  # (closed)
        pass
    return code


def _output_failed(exc: OSError, name: str, game: bool) -> int:
    _silence_stdout()
    if isinstance(exc, BrokenPipeError) or exc.errno == errno.EPIPE:
        _say(f"{name}: the output went away ({exc.strerror or exc})"
             + ("; you left the game" if game else ""))
    else:
        _say(f"{name}: cannot write the output: {exc.strerror or exc}")
    return EXIT_FAILURE


def _say(line: str) -> None:
    """One line on stderr, whatever became of it (a closed pipe, a hung-up terminal)."""
    with contextlib.suppress(Exception):
        sys.stderr.write(line + "\n")
        sys.stderr.flush()


def _flush_quietly() -> None:
    with contextlib.suppress(Exception):
        sys.stdout.flush()


def _silence_stdout() -> None:
    """After a failed write, point stdout at /dev/null so the exit flush does not fail."""
    try:
        devnull, fd = os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno()
        if devnull != fd:
            os.dup2(devnull, fd)
            os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass
    with contextlib.suppress(Exception):
        sys.stdout.flush()  # (what could not be written goes to /dev/null now)


if __name__ == "__main__":
    raise SystemExit(main())

