"""``cryptcrawl spectate HOST:PORT``: watch a live match, read-only, one move behind the table.

The seat at HOST:PORT (a seat's match port: ``host`` and ``join`` print it) relays the match's
signed messages one decision step late (p2p/watchers.py); this spectator runs its own match core
on them, so every signature, commitment, outcome and rule is checked here, as ``verify`` does, and
the table is shown as ``replay`` shows a file: the game's own words for each step, then the
result.  A message that does not check out is refused and said so, in one line, never shown as
play."""

from __future__ import annotations

import asyncio
from typing import Any, TextIO

from cli.args import invocation
from cli.games import make_ui
from cli.plugin import Seating
from cli.record import ending_lines
from cli.story import Story
from cli.text import seat_letter
from engine.games import get_game
from p2p.watchers import Relay, WatchRefused, watch
from protocol.errors import BadMessage
from protocol.match.core import MatchCore
from protocol.match.events import Event, HeadsDisputed, PeerMisbehaved

RELAYED = 4
"""How many spectators a relaying spectator serves."""


class SpectateError(Exception):
    """The watch cannot start (one line)."""


class Spectator:
    """Prints the match as it comes."""

    def __init__(self, out: TextIO, relay_port: int | None = None) -> None:
        self.out = out
        self.ui: Any = None
        self.names: list[str] = []
        self.refused = 0
        self.relay_port = relay_port
        self.relay: Relay | None = None
        self.core: MatchCore | None = None
        self.story: Story | None = None

    def say(self, *lines: str) -> None:
        if lines:
            self.out.write("".join(line + "\n" for line in lines))
            self.out.flush()

    def start(self, core: MatchCore) -> None:
        h = core.header.header
        self.names = [s.name for s in h.seats]
        self.ui = make_ui(h.game, len(self.names), dict(h.options), Seating(tuple(self.names)))
        self.say(f"Watching {get_game(h.game).title}, {len(self.names)} players: "
                 + ", ".join(f"{seat_letter(i)} {n}" for i, n in enumerate(self.names)) + ".",
                 "Read-only, one move behind the table; every message is checked here.")
        self.story = Story(core, self.ui)
        self.core = core
        if self.relay_port is not None:
            self.relay = Relay(core.header, RELAYED)

    async def open_relay(self) -> None:
        """Relay to other spectators on the port asked for (once the match is known)."""
        assert self.relay is not None and self.relay_port is not None
        port = await self.relay.open("0.0.0.0", self.relay_port)
        self.say(f"Relaying to other spectators: {invocation()} spectate THIS-HOST:{port}")

    def events(self, events: list[Event]) -> None:
        if self.relay is not None and self.core is not None:
            self.relay.update(self.core)
        if self.story is not None:
            for told in self.story.tell():
                self.say(*told.lines)
        for event in events:
            if isinstance(event, PeerMisbehaved) and not event.evidence:
                self.refused += 1
                seat = self.names[event.seat] if 0 <= event.seat < len(self.names) else "?"
                self.say(f"refused a message of {seat}: {event.reason}")
            elif isinstance(event, PeerMisbehaved):
                self.refused += 1
            elif isinstance(event, HeadsDisputed):
                self.say(f"a message of {self.names[event.seat]} waits: the copies disagree")

    def problem(self, text: str) -> None:
        self.refused += 1
        self.say(f"refused {text}")


async def _watch(viewer: Spectator, host: str, port: int) -> MatchCore:
    opened: list[asyncio.Task[None]] = []

    def start(core: MatchCore) -> None:
        viewer.start(core)
        if viewer.relay is not None:
            opened.append(asyncio.ensure_future(viewer.open_relay()))

    try:
        core = await watch(host, port, on_start=start, on_events=viewer.events,
                           on_problem=viewer.problem)
        for task in opened:
            await task  # (a relay port that cannot be opened is said, as an OSError)
        return core
    finally:
        if viewer.relay is not None:
            viewer.relay.close()
            await asyncio.sleep(0.2)  # (what was relayed last gets out)


def _address(target: str, out: TextIO, interfaces: list[str] | None,
             wait: float) -> tuple[str, int]:
    """``HOST:PORT``, or the table called ``target`` whose match is on (found with zeroconf)."""
    from cli.lan import UsageError, parse_target

    try:
        address = parse_target(target)
    except UsageError as exc:
        raise SpectateError(str(exc).replace("join", "spectate", 1)) from None
    if address is not None:
        return address
    from p2p.discovery import DiscoveryError, find_table

    out.write(f"Looking for the match of table {target!r} on the LAN...\n")
    out.flush()
    try:
        table = asyncio.run(find_table(interfaces, timeout=wait, match=lambda t: (
            target in (t.name, t.id) and t.live)))
    except TimeoutError:
        raise SpectateError(f"no match of a table {target!r} being played was found in "
                            f"{wait:g} s (a table that takes no spectators is not advertised "
                            "once it plays; where multicast does not reach, give HOST:PORT)"
                            ) from None
    except DiscoveryError as exc:
        raise SpectateError(str(exc)) from None
    return table.host, table.port


def spectate(target: str, out: TextIO, relay_port: int | None = None, *,
             interfaces: list[str] | None = None, wait: float = 5.0) -> int:
    """Watch the match the seat at ``target`` (HOST:PORT, or a table's name) relays (and with
    ``relay_port``, relay it to other spectators); 0 once it ended (or the seat closed)."""
    try:
        host, port = _address(target, out, interfaces, wait)
    except ValueError as exc:
        raise SpectateError(str(exc)) from None
    viewer = Spectator(out, relay_port)
    try:
        core = asyncio.run(_watch(viewer, host, port))
    except WatchRefused as exc:
        raise SpectateError(f"the seat at {target} does not relay to you: {exc}") from None
    except (BadMessage, OSError, TimeoutError) as exc:
        raise SpectateError(f"cannot watch at {target}: {exc or type(exc).__name__}") from None
    viewer.say(*ending_lines(core, viewer.ui, viewer.names, unfinished=False))
    if not core.signed:
        viewer.say("", "The seat stopped relaying before the end of the match.")
    return 0
