"""Deciders: a bot's choice for a seat, from the game's registered bots and a hash stream.

A cheap bot decides on the spot, on the event loop.  A bot that searches (its ``searches``
attribute: the ``strong`` level) thinks for up to a second of CPU a decision, so it thinks in a
**child process** of its own (:class:`BotDecider.think`, ``python -m p2p.think``): the event
loop only waits on the pipe for the answer, and goes on reading, relaying and answering the
other peers meanwhile.  A process, not a thread: the search is pure Python, and a thread running
it would hold the interpreter's lock for the whole decision.  The child gets the seat's state as
its position (the game's JSON, with this seat's own knowledge only) and plays the same bot with
the same key as the parent would, so the choice is the same either way.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import logging
import os
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from engine.core import GameState
from engine.games import get_game
from engine.sim import bot_input, bot_key
from protocol.match.seat import DecisionPending

log = logging.getLogger("cryptcrawl.p2p")

Decider = Callable[[GameState[Any], int], str]
AsyncDecider = Callable[[GameState[Any], int], Awaitable[str]]
BotMaker = str  # "module:function", a function of the game's name to a bot (a test's own)


class ThinkError(Exception):
    """The child process that thinks for a bot failed or is gone."""


def make_bot(name: str, game: str, make: BotMaker | None = None) -> Any:
    """A fresh bot: the game's ``name`` (a bot or a level), or ``make``'s (see BotDecider)."""
    if make is not None:
        module, _, function = make.partition(":")
        return getattr(importlib.import_module(module), function)(game)
    spec = get_game(game)
    return spec.bots[spec.bot_for(name)]()


class BotDecider:
    """A bot's decisions for one seat (``name``: a bot or a level of the game, "" its default
    bot; ``seed`` keys its choices).  Called, it decides on the spot; :meth:`searches` says
    whether to :meth:`think` in the child process instead.  ``make`` ("module:function", a
    function of the game's name) builds the bot in place of the game's: a test's own bot, which
    the child imports by that name."""

    def __init__(self, name: str, seed: bytes, *, make: BotMaker | None = None) -> None:
        self.name = name
        self.seed = seed
        self.make = make
        self._bots: dict[str, Any] = {}
        self._tries: dict[tuple[str, int], int] = {}
        self._child: _Child | None = None
        self._step: str | None = None  # the step the child thinks about (thought)
        self._choices: dict[str, str] = {}  # step -> the move thought out for it

    def bot(self, game: str) -> Any:
        bot = self._bots.get(game)
        if bot is None:
            bot = self._bots[game] = make_bot(self.name, game, self.make)
        return bot

    def searches(self, game: str) -> bool:
        """Does this seat's bot search (and so think in the child process)?"""
        return bool(getattr(self.bot(game), "searches", False))

    def _key(self, state: GameState[Any], seat: int) -> tuple[str, bytes]:
        step = str(getattr(state.waiting, "step", ""))
        n = self._tries.get((step, seat), 0)
        self._tries[(step, seat)] = n + 1
        return step, bot_key(self.seed, step, seat, n)

    def __call__(self, state: GameState[Any], seat: int) -> str:
        bot = self.bot(state.game)
        step, key = self._key(state, seat)
        return state.format_action(bot.choose(bot_input(bot, state, seat, step), key))

    @property
    def thinking(self) -> bool:
        """Is the child thinking about a move (:meth:`thought`) now?"""
        return self._step is not None

    def thought(self, state: GameState[Any], seat: int, spawn: Callable[[Awaitable[Any]], None],
                then: Callable[[Exception | None], None]) -> str:
        """A peer's way to ask: the move the child thought out for the state's step, or
        DecisionPending — the child thinks meanwhile (in a task handed to ``spawn``), and
        ``then(None)`` is called once the move is in (``then(error)`` if there is none)."""
        step = str(getattr(state.waiting, "step", ""))
        if step in self._choices:
            return self._choices.pop(step)
        if self._step != step:
            self._step = step
            spawn(self._ponder(state, seat, step, then))
        raise DecisionPending

    async def _ponder(self, state: GameState[Any], seat: int, step: str,
                      then: Callable[[Exception | None], None]) -> None:
        try:
            try:
                choice = await self.think(state, seat)
            except ThinkError as exc:
                # (The child is gone, or the bot failed there: decide here, on the loop.)
                log.warning("the bot's thinking process failed (%s); deciding here", exc)
                choice = self(state, seat)
        except Exception as exc:
            self._step = None
            then(exc)
            return
        self._choices[step] = choice
        self._step = None
        then(None)

    async def think(self, state: GameState[Any], seat: int) -> str:
        """The same decision as a call, made in the child process (started at the first)."""
        step, key = self._key(state, seat)
        if self._child is None:
            self._child = await _Child.start()
        child = self._child
        request = {"game": state.game, "position": state.to_position(private=True),
                   "seat": seat, "step": step, "key": key.hex(), "name": self.name,
                   "make": self.make}
        try:
            return await child.ask(request)
        except ThinkError:
            if self._child is child:
                await self.aclose()  # (the next decision starts a new one)
            raise

    def close(self) -> None:
        """Stop the child process (if any; a decision it was making is dropped)."""
        child, self._child = self._child, None
        if child is not None:
            child.stop()

    async def aclose(self) -> None:
        """:meth:`close`, and wait until the child process has ended."""
        child, self._child = self._child, None
        if child is not None:
            await child.wait()


def bot_decider(name: str, seed: bytes) -> BotDecider:
    """The game's bot ``name`` (of :attr:`GameSpec.bots`, or a level of ``LEVELS``; "": its
    :attr:`GameSpec.default_bot`): its choice from the seat's view and a hash stream (never
    ``random``)."""
    return BotDecider(name, seed)


# ---------------------------------------------------------------------- the child process


class _Child:
    """One child process (``python -m p2p.think``) and the pipes to it: one JSON line a
    request, one a reply; one request at a time."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self._process = process
        self._lock = asyncio.Lock()

    @classmethod
    async def start(cls) -> _Child:
        # The child imports what this process imports: the same code, wherever it runs from.
        env = dict(os.environ)
        paths = [p for p in sys.path if p] + [env.get("PYTHONPATH", "")]
        env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "p2p.think", stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, env=env)
        return cls(process)

    async def ask(self, request: dict[str, Any]) -> str:
        """Send ``request``; the action's text (ThinkError if the child failed)."""
        stdin, stdout = self._process.stdin, self._process.stdout
        assert stdin is not None and stdout is not None
        async with self._lock:
            try:
                stdin.write(json.dumps(request).encode() + b"\n")
                await stdin.drain()
                line = await stdout.readline()
            except (OSError, ValueError) as exc:
                raise ThinkError(f"the bot's thinking process stopped ({exc})") from exc
        if not line:
            raise ThinkError("the bot's thinking process stopped")
        try:
            reply = json.loads(line)
        except ValueError:
            raise ThinkError("the bot's thinking process answered nonsense") from None
        if not reply.get("ok"):
            raise ThinkError(str(reply.get("error")))
        return str(reply["action"])

    def stop(self) -> None:
        """End the process now (it holds nothing worth a goodbye)."""
        if self._process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self._process.kill()

    async def wait(self) -> None:
        """:meth:`stop`, and wait until it has ended and its pipes are closed."""
        self.stop()
        with contextlib.suppress(OSError, ValueError):
            await self._process.communicate()
        await self._process.wait()


__all__ = ["AsyncDecider", "BotDecider", "BotMaker", "Decider", "ThinkError", "bot_decider",
           "make_bot"]
