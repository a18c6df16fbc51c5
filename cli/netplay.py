"""Line-mode play over the network: you (or a bot) at one seat of a real match.

``cryptcrawl play`` opens a table on loopback and fills the other seats with bots, each a real
peer (its own key, its own connections); ``host`` and ``join`` do the same across a LAN.  This
module only shows the match (from the engine's view of your seat and the protocol's events) and
reads your choices; every rule lives in the engine and the protocol.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cli.args import invocation, resume_command
from cli.games import DEFAULT_GAME, make_ui
from cli.play import Console, InputClosed, LeftGame, in_reader
from cli.plugin import GameUI, Seating
from cli.seats import SeatWatch
from cli.story import Story
from cli.text import YOU, join_words, seat_letter, wrap_text
from engine.core import (
    DEFAULT_LEVEL,
    EngineError,
    GameState,
    IllegalActionError,
    InvalidActionError,
    Over,
    read_move,
)
from p2p.lobby import LobbyError
from p2p.peer import MatchPeer, PeerConfig, bot_decider
from protocol.match.core import (
    Event,
    MatchClaimed,
    PrivateKnowledge,
    SeatLeft,
    SeatReplaced,
    SeatsOverdue,
)
from protocol.match.events import (
    CardDealt,
    MatchResumed,
    OfferMade,
    OfferSettled,
)
from protocol.wire.header import DEFAULT_TIMEOUTS

ALLOWED_LISTED = 12  # a refused typed move is followed by the moves allowed, up to this many

TABLE_HELP = """\
At the table (every game)
  pause              offer the others a pause: once all agree, no clock runs
  resume             end a pause
  draw               offer the others a draw (in a game that has one)
  accept / decline   answer an offer of a pause or a draw"""


@dataclass(frozen=True)
class NetOptions:
    players: int = 4
    bots: int = 3
    bot_kind: str = ""  # a level, or the game's bot by name ("": the default level)
    levels: tuple[str, ...] = ()  # ``host``: one level a bot seat (else ``bot_kind`` for all)
    game: str = DEFAULT_GAME
    options: tuple[tuple[str, Any], ...] = ()  # the game's options (players aside)
    bot_seed: str = ""
    name: str = ""
    # The table's (quick, normal, long, silence) seconds, signed into the header (``play``,
    # ``host``: --speed or --timeouts); a joiner plays the header's.
    timeouts: tuple[int, int, int, int] = DEFAULT_TIMEOUTS
    out: str = ""
    local: bool = False  # every other seat plays in this process (``play``): leaving stops it
    role: str = "play"  # play, host, join or resume: where the bots run
    bell: bool = True  # the full screen rings the terminal's bell when it is your move
    spectators: bool = True  # ``host``: the table lets people watch (spectate)

    def bot_kinds(self, count: int) -> tuple[str, ...]:
        """How each of ``count`` bots plays, in seat order: a level or a bot's name."""
        if self.levels:
            return self.levels[:count]
        return (self.bot_kind or DEFAULT_LEVEL,) * count

    @property
    def leaving(self) -> str:
        """What leaving the match does, for the question that asks first (``play``; at a LAN
        table the question offers :attr:`quit_choices`)."""
        if self.local:
            return f"the match stops here ({resume_command()} takes it up again)"
        return "the others play on, a bot plays your seat"

    @property
    def left(self) -> str:
        """What the player of a local game (``play``) is told once they left."""
        return ("You left the game; it stops here. To take it up again: "
                f"{resume_command()}")

    @property
    def bots_where(self) -> str:
        """Where the bots of the table run (each such machine can see its bots' hands)."""
        if self.role == "join":
            return "Any bots at this table run on the host's machine, which can see their hands."
        if self.role == "resume":
            return ("Any bots at this table run on the machine of the player who added them, "
                    "which can see their hands.")
        if self.role == "host" and not self.bots:
            return ""
        return "The bots run on this machine, which can see their hands."


class NetGame:
    """Shows one seat's match on a console and answers for that seat.  Every word about the
    game comes from its client plug-in (:attr:`ui`, made when the match starts: the header
    says which game it is)."""

    def __init__(self, options: NetOptions, console: Console) -> None:
        self.options = options
        self.console = console
        self.peer: MatchPeer | None = None
        self.human = options.bots < options.players
        self.labels: tuple[str, ...] = ()
        self.ui: GameUI | None = None
        self.check_bot = ""  # join --bot NAME: the table's game must have that bot
        self.task: asyncio.Task[Any] | None = None
        self.stop: BaseException | None = None
        self.names: list[str] = []
        self.watch = SeatWatch()
        self.gone: set[int] = set()  # seats that left for good (shown when their LEAVE came)
        self.claimed = False  # a CLAIM ended the match (shown as such, not as the floor)
        # Draws and pauses by agreement (protocol.md §7.7): the offers standing to this seat
        # (offerer -> what) and the person's answers to them (offerer -> yes).
        self.offers_to_me: dict[int, str] = {}
        self.my_answers: dict[int, bool] = {}
        self.choosing = False  # the line-mode prompt of a decision is up
        self.asking: asyncio.Future[None] | None = None  # the line-mode prompt of an answer
        self.story: Story | None = None  # the match told (made when the match starts)
        self.departed = False  # this seat left or resigned: the rest is taken read-only

    # ------------------------------------------------------------------ views

    @property
    def seat(self) -> int:
        assert self.peer is not None
        return self.peer.seat

    def view(self) -> Any:
        assert self.peer is not None
        return self.peer.local.decision_state().view(self.seat)

    @property
    def plugin(self) -> GameUI:
        assert self.ui is not None, "the match has not started"
        return self.ui

    def seat_table(self, game: str, options: dict[str, Any], names: list[str],
                   seat: int) -> None:
        """The table is known (the header): its labels, and the game's plug-in for it."""
        self.names = list(names)
        me = seat if self.human else None
        self.labels = tuple(YOU if i == me else n for i, n in enumerate(names))
        self.ui = make_ui(game, len(names), options,
                          Seating(self.labels, me, self.options.name))

    def bot_seats(self) -> frozenset[int]:
        """The seats bot peers play, as their names say ("Bot 2 (strong)")."""
        from p2p.run import bot_kind_of

        return frozenset(i for i, name in enumerate(self.names) if bot_kind_of(name))

    def say(self, *lines: str) -> None:
        self.console.say(*lines)

    def gap(self) -> None:
        self.console.gap()

    def bots(self) -> dict[int, list[tuple[str, str]]]:
        """The seats a bot played for some steps: seat -> (first step, step it came back at)."""
        return {seat: [(s.first, s.back) for s in stretches]
                for seat, stretches in self.watch.played_by_bot().items()}

    def stop_game(self, reason: BaseException) -> None:
        """Stop the match task for ``reason`` (raised by :func:`play_networked` in its place).
        The match file keeps what was played: ``cryptcrawl resume`` takes it up again."""
        if self.stop is None:
            self.stop = reason
        if self.task is not None:
            self.task.cancel()

    def _output_lost(self, exc: OSError) -> None:
        """The console's output went away (a closed pipe, a hung-up terminal): nobody can
        see the match, so it stops — instead of the connection that brought the event dying
        with the error and the match waiting for good."""
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self.console.out.fileno())  # (the exit's flush must not fail)
        self.stop_game(OSError(f"the output went away ({exc.strerror or exc}); you left the "
                               "game"))

    def attach(self, peer: MatchPeer) -> None:
        try:
            self._attach(peer)
        except OSError as exc:
            self._output_lost(exc)

    def _attach(self, peer: MatchPeer) -> None:
        from protocol.crypto import fingerprint

        self.peer = peer
        header = peer.core.header.header
        self.seat_table(header.game, dict(header.options), [s.name for s in header.seats],
                        peer.seat)
        spec = self.plugin.spec
        if self.check_bot and self.check_bot not in spec.bots:
            raise LobbyError(f"{spec.title} has no bot {self.check_bot!r} (its bots: "
                             f"{', '.join(spec.bots)}); you left the table")
        self.say(*wrap_text(f"{self.plugin.describe()}. Match "
                            f"{peer.core.match_id.hex()[:16]}."))
        for i, seat in enumerate(header.seats):
            self.say(f"  seat {seat_letter(i)} {self.labels[i]:<20} key "
                     f"{fingerprint(seat.key)}")
        self.say(*wrap_text(f"{self.plugin.no_dealer} {self.bots_words()}".rstrip()))
        if self.human and not self.options.local and peer.watchers.limit > 0:
            host, port = watch_address(peer.addresses, peer.seat)
            self.say(*wrap_text(f"Others may watch, one move behind: {invocation()} spectate "
                                f"{host}:{port}"))
            peer.watchers.on_change = self._watching
        if self.human:
            peer.local.answering = lambda offerer, what: self.my_answers.get(offerer)
        if peer.core.taken:  # (a resumed match: its story so far)
            self.say(*match_so_far(peer.core, self.plugin))
            if getattr(peer, "catching_up", False):
                self.say(*wrap_text("Learning where the match stands from the others before "
                                    "your next move..."))
        peer.on_notice = lambda text: self.say(*wrap_text(text))
        self.story = Story(peer.core, self.plugin)

    def bots_words(self) -> str:
        """Where the table's bots run, this seat's own included (``join --bot``)."""
        if self.options.role == "join" and not self.human:
            return ("Your seat's bot runs on this machine, which can see its hand; any other "
                    "bots at this table run on the host's machine.")
        return self.options.bots_where

    def _watching(self, address: str, started: bool, count: int) -> None:
        """A spectator started or stopped watching through this seat."""
        what = "started" if started else "stopped"
        self.say(f"A spectator {what} watching through your seat (from {address or '?'}): "
                 f"{count} watching now.")

    # ------------------------------------------------------------------ events

    def on_event(self, event: Event) -> None:
        try:
            self._on_event(event)
        except OSError as exc:
            self._output_lost(exc)

    def _on_event(self, event: Event) -> None:
        self.watch.on_event(event)
        if self.peer is None or self.ui is None:
            return
        self._show_progress()  # (the story so far: the game's changes and the table's facts)
        if isinstance(event, PrivateKnowledge) and self.human:
            self.say(*self.ui.knowledge(self.view()))
        elif isinstance(event, SeatReplaced) and event.seat == self.seat and (
                self.peer.local.hold_reclaim):
            self.say(*wrap_text(self.ui.reclaim_hint))
        elif isinstance(event, SeatLeft):
            self.gone.add(event.seat)
        elif isinstance(event, CardDealt):
            self.say(*self.ui.deal_news(event, self.labels, self.seat if self.human else None))
        elif isinstance(event, MatchClaimed):
            self.claimed = True
        elif isinstance(event, OfferMade | OfferSettled | MatchResumed):
            self._on_agreement(event)
        elif isinstance(event, SeatsOverdue):
            who = ", ".join(self.labels[s] for s in event.seats if s != self.seat)
            if who:
                self.say(f"Waiting for {who}...")

    # ------------------------------------------------------------------ agreements

    @property
    def answer_keys(self) -> str:
        """How the person answers an offer."""
        return "type accept or decline"

    def offer(self, what: str) -> str:
        """Offer the others a draw or a pause (protocol.md §7.7); what to tell the person."""
        peer = self.peer
        if peer is None or peer.core.ending.ended:
            return "The match is over."
        if peer.core.version < 2:
            return "This match's protocol version has no offers."
        if what == "pause" and peer.core.agreements.paused:
            peer.resume()
            return "Resuming the match..."
        if what == "draw":
            try:
                peer.local.decision_state().agree_draw()
            except EngineError as exc:
                return f"No draw: {exc}."
        if peer.core.agreements.holds(peer.seat):
            return "Your offer stands already: waiting for the answers."
        peer.offer(what)
        return f"You offer a {what} (it goes out when your move is due)."

    def answer_offers(self, yes: bool) -> str:
        """The person's answer to every offer standing to them."""
        if not self.offers_to_me or self.peer is None:
            return "Nobody is offering anything."
        for offerer in self.offers_to_me:
            self.my_answers[offerer] = yes
        self.offers_to_me.clear()
        self.peer.answered()
        return "You accepted." if yes else "You declined."

    def _on_agreement(self, event: OfferMade | OfferSettled | MatchResumed) -> None:
        """An offer to answer (the story said it), or one no longer standing."""
        me = self.seat if self.human else None
        if isinstance(event, OfferMade):
            if event.seat != me and self.human:
                self.offers_to_me[event.seat] = event.what
                self.my_answers.pop(event.seat, None)
                self.say(f"Your answer: {self.answer_keys}.")
                self._ask_offer()
            return
        if isinstance(event, OfferSettled):
            self.offers_to_me.pop(event.seat, None)

    def _ask_offer(self) -> None:
        """Line mode: with no prompt up, ask for the answer at once (the match waits)."""
        if self.choosing or not self.offers_to_me:
            return

        async def ask() -> None:
            with contextlib.suppress(InputClosed, OSError):
                text = await in_reader(self.console.ask, "accept? [y/N] ")
                self.say(self.answer_offers(text.strip().lower() in ("y", "yes", "accept")))
        self.asking = asyncio.ensure_future(ask())

    def _show_progress(self) -> None:
        """What happened since the last call, as the match's story tells it."""
        if self.story is None:
            return
        for told in self.story.tell():
            self.say(*told.lines)

    # ------------------------------------------------------------------ your decisions

    async def choose(self, state: GameState[Any], seat: int) -> str:
        self.choosing = True
        try:
            text = await in_reader(self._choose_blocking, state, seat)
            self._thinking_note(state, seat)
            self.say(*self.plugin.own_move(text))
            return text
        except OSError as exc:  # the output went away while the prompt was shown
            self._output_lost(exc)
            raise
        except (LeftGame, InputClosed) as exc:
            if isinstance(exc, LeftGame) and exc.for_good:
                words = self.departed_words(resign=exc.resign)
                if await self.leave_for_good(resign=exc.resign):
                    self.departed = True
                    self.say(*wrap_text(words))
                    # (The match goes on without this seat; the peer takes the rest, read-only,
                    # until it ends — then the end is shown — or until Ctrl-C.)
                    await asyncio.get_running_loop().create_future()
            self.stop_game(exc)
            raise
        finally:
            self.choosing = False

    def _thinking_note(self, state: GameState[Any], seat: int) -> None:
        """Line mode, once the person chose in a step all decide at once: the bots that still
        think about it (the full screen shows it in its status line)."""
        pending: frozenset[int] = getattr(state.waiting, "pending", frozenset()) - {seat}
        step = str(getattr(state.waiting, "step", ""))
        bots = [self.labels[s] for s in sorted(pending & self.bot_seats())
                if not self.watch.is_locked(step, s)]
        if bots:
            self.say(f"{join_words(bots)} {'is' if len(bots) == 1 else 'are'} thinking...")

    async def leave_for_good(self, *, resign: bool = False) -> bool:
        """Send this seat's LEAVE — or RESIGN — (after the openings it owes); False (and said)
        if it could not be sent."""
        if self.peer is not None and await self.peer.leave(resign=resign):
            return True
        self.say("Could not sign your leaving now; the timeouts will replace your seat.")
        return False

    # ------------------------------------------------------------------ leaving, in words

    def _leaving_facts(self) -> tuple[bool, bool, int]:
        """(a bot plays a replaced seat in this game, the match ends if this seat goes, the
        live seats now)."""
        spec = self.plugin.spec if self.ui is not None else None
        zombie = spec is None or spec.replaced == "zombie"
        live = len(self.peer.core.live_seats()) if self.peer is not None else self.options.players
        return zombie, live - 1 < 2, live

    def quit_choices(self) -> str:
        """At a LAN table: the ways to leave (protocol.md §7.7), in this match's words."""
        zombie, ends, live = self._leaving_facts()
        if ends:
            good = "with one player left the match ends here"
        elif zombie:
            good = "a bot plays your seat"
        else:
            good = "your seat forfeits"
        if live <= 2:
            away = "past the timeouts the other player may claim the match"
        elif zombie:
            away = "past the timeouts a bot plays your seat until you are back"
        else:
            away = "past the timeouts your seat forfeits"
        return (f"l: leave for good ({good}; you cannot come back), s: step away ({away}; "
                f"{resume_command()} to come back), any other: stay")

    def stepped_away(self) -> str:
        """What the player is told once they stepped away (or left a local game)."""
        if self.options.local:
            return self.options.left
        zombie, _, live = self._leaving_facts()
        if live <= 2:
            later = ("come back before the timeouts run out, or the other player may claim the "
                     "match")
        elif zombie:
            later = "after the timeouts a bot plays your seat until then"
        else:
            later = "after the timeouts your seat forfeits the match"
        return f"You stepped away. To come back: {resume_command()} ({later})."

    def departed_words(self, *, resign: bool) -> str:
        """What the player is told once their LEAVE or RESIGN is out (said before it goes)."""
        zombie, ends, _ = self._leaving_facts()
        head = "You resigned" if resign else "You left the match for good"
        if ends:
            head += "; with one player left, the match ends here"
        elif zombie:
            head += "; a bot plays your seat from now on"
        else:
            head += "; your seat forfeits"
        return (f"{head}. This program takes the rest of the match, read-only, so that your "
                "copy of it is complete, and shows the result (Ctrl-C stops it sooner).")

    def can_draw(self) -> bool:
        """Does this game have a draw by agreement now (protocol.md §7.7)?"""
        if self.peer is None:
            return False
        try:
            self.peer.local.decision_state().agree_draw()
        except EngineError:
            return False
        return True

    def can_resign(self) -> bool:
        """Does this game have a resignation rule for this seat now (protocol.md §7.7)?"""
        peer = self.peer
        if peer is None or peer.core.version < 2 or peer.core.ending.ended:
            return False
        try:
            peer.core.state.resign(peer.seat)
        except EngineError:
            return False
        return True

    def _choose_blocking(self, state: GameState[Any], seat: int) -> str:
        ui = self.plugin
        view = state.view(seat)
        self.console.gap()
        self.say(*ui.table(view))
        self.say(*ui.choices_lines(state, seat, view))
        while True:
            text = self.console.ask(ui.prompt(view))
            word = text.lower()
            if not word:
                self.say(empty_line_hint(ui, state, seat))
                continue
            if word in ("?", "h", "help"):
                self.say(*ui.line_help.splitlines())
                self.say(*TABLE_HELP.splitlines())
                self.say(*ui.choices_lines(state, seat, view))
                continue
            if word == "rules":
                self.say(*ui.rules().splitlines())
                self.say(*ui.choices_lines(state, seat, view))
                continue
            if word in ("look", "l", "table"):
                self.say(*ui.table(view))
                self.say(*ui.choices_lines(state, seat, view))
                continue
            extra = ui.command(view, text)
            if extra is not None:
                self.say(*extra)
                continue
            if word in ("pause", "resume", "draw"):
                self.say(self.offer("pause" if word == "resume" else word))
                continue
            if word in ("accept", "decline"):
                self.say(self.answer_offers(word == "accept"))
                continue
            if word in ("q", "quit", "exit"):
                if self.options.local:
                    if self.console.ask(f"leave the game? {self.options.leaving} [y/N] "
                                        ).lower() in ("y", "yes"):
                        raise LeftGame(self.options.left)
                    continue
                resign = self.can_resign()
                self.say(*wrap_text(f"Leave the match? {self.quit_choices()}"
                                    + ("; r: resign (you lose, as the game rules)."
                                       if resign else ".")))
                answer = self.console.ask(
                    "leave for good, step away, resign or stay? [l/s/r/N] " if resign else
                    "leave for good, step away or stay? [l/s/N] ").lower()
                if resign and answer in ("r", "resign"):
                    raise LeftGame("You resigned.", resign=True)
                if answer in ("l", "leave"):
                    raise LeftGame("You left the match for good.", for_good=True)
                if answer in ("s", "step", "away"):
                    raise LeftGame(self.stepped_away())
                continue
            try:
                return read_move(state, seat, text)
            except (InvalidActionError, IllegalActionError) as exc:
                self.say(*wrap_text(self.refused(exc, state, seat)))

    def refused(self, exc: Exception, state: GameState[Any], seat: int) -> str:
        """A typed move the engine refused: its reason, then what is allowed now (the moves,
        when they are few)."""
        text = " ".join(str(exc).split())
        moves = self.plugin.choices(state, seat)
        if moves and not text.endswith((".", "!", "?", ")")):
            text += "."
        if 0 < len(moves) <= ALLOWED_LISTED:
            text += " Allowed now: " + ", ".join(moves) + "."
        elif moves:
            text += f" ({len(moves)} moves are allowed now.)"
        return text

    # ------------------------------------------------------------------ the end

    def finish(self, core_state: GameState[Any], path: Path) -> None:
        self.gap()
        self.say(*self.end_lines(core_state, path))

    def end_lines(self, core_state: GameState[Any], path: Path) -> list[str]:
        """The end: the scoreboard and result (who a bot played, and from which step), the
        match file and the command that checks it."""
        w = core_state.waiting
        lines: list[str] = []
        ending = getattr(getattr(self.peer, "core", None), "ending", None)
        claim = getattr(ending, "claim", None)
        if claim is not None and not claim.contested and claim.seat == self.seat and self.human:
            lines += wrap_text(f"{self.labels[claim.claimant]} claimed the match while you were "
                               "away: you stayed silent past the timeouts, with only two "
                               "players left.")
        if isinstance(w, Over):
            self.plugin.departed = dict(self.watch.departed)
            lines += ["=== Game over " + "=" * 65,
                      *self.plugin.scoreboard(core_state.view(self.seat), w.outcome,
                                              self.bots())]
        return [*lines, "", *copy_lines(path, self.options.out)]


def watch_address(addresses: Sequence[tuple[str, int]], seat: int) -> tuple[str, int]:
    """Where others reach this seat to watch: its match address, but at a table on a LAN never
    a loopback one (which only this machine reaches) — this machine's LAN address instead, or
    THIS-HOST when it has none."""
    host, port = addresses[seat]
    lan = any(not _local(h) for s, (h, _) in enumerate(addresses) if s != seat)
    if host and not _local(host) and host != "0.0.0.0":
        return host, port
    if not lan and host and host != "0.0.0.0":
        return host, port  # (every seat on this machine: loopback is where they are)
    from p2p.discovery import list_interfaces

    found = [address for _, address in list_interfaces()]
    return (found[0] if found else "THIS-HOST"), port


def _local(host: str) -> bool:
    import ipaddress

    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def match_so_far(core: Any, ui: GameUI) -> list[str]:
    """The story of a match up to where ``core`` stands (a resumed match), told from its
    feeds by a match core of its own."""
    from protocol.match.core import MatchCore

    again = MatchCore(core.header)
    story = Story(again, ui)
    again.adopt(dict(enumerate(core.feeds)))
    return ["The match so far:", *story.lines()]


def empty_line_hint(ui: GameUI, state: GameState[Any], seat: int) -> str:
    """What an empty line at the prompt is told: how to give a move, with one for example."""
    moves = ui.choices(state, seat)
    example = f", for example: {moves[0]}" if moves else " in the game's notation"
    return f"{ui.type_hint}{example} (? for help)."


def copy_lines(path: Path, out: str) -> list[str]:
    """Where the match file is, after writing its copy to ``out`` (if any) — never over a file
    that is there already (``--out`` is checked before the match, but one may have appeared
    meanwhile): then the lines say so, and name the file in the data directory."""
    target = path
    lines: list[str] = []
    if out:
        try:
            with open(out, "xb") as copy:
                copy.write(path.read_bytes())
            target = Path(out)
        except OSError as exc:
            lines.append(f"Could not write {out}: {exc.strerror or exc}.")
    return [*lines, f"The match file: {target}",
            f"Check it: {invocation()} verify {shlex.quote(str(target))}"]


async def play_networked(options: NetOptions, console: Console, data_dir: Path) -> int:
    """``cryptcrawl play``: a table on loopback (never advertised), bots at the other seats."""
    from p2p.run import bot_seat_name, host

    game = NetGame(options, console)
    config = PeerConfig(linger=0.5)
    seed = (options.bot_seed or "").encode()
    own_bots = options.bots if game.human else options.bots - 1
    kinds = options.bot_kinds(options.bots)
    decide = None if game.human else bot_decider(kinds[0], b"host" + seed)

    async def go() -> Any:
        return await host(data_dir, game=options.game,
                          name=options.name or ("you" if game.human else
                                                bot_seat_name(0, kinds[0])),
                          players=options.players,
                          options=dict(options.options), bots=own_bots,
                          bot=kinds[-own_bots:] if own_bots else (), decide=decide,
                          choose=game.choose if game.human else None, config=config,
                          on_event=game.on_event, on_peer=game.attach,
                          bot_dir=data_dir / "bots",
                          bot_seed=options.bot_seed.encode() or None,
                          timeouts=options.timeouts)

    game.task = asyncio.ensure_future(go())
    try:
        result = await game.task
    except asyncio.CancelledError:
        if game.stop is not None:
            raise game.stop from None
        raise
    game.finish(result.core.state, result.path)
    return 0
