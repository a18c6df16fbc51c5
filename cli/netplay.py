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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from protocol.match.core import (
    ActionTaken,
    Event,
    FloorReached,
    MatchClaimed,
    PeerMisbehaved,
    PrivateKnowledge,
    SeatForfeited,
    SeatLeft,
    SeatReclaimed,
    SeatReplaced,
    SeatsOverdue,
)
from protocol.match.events import (
    CardDealt,
    CardShown,
    DeckRestarted,
    MatchResumed,
    OfferMade,
    OfferSettled,
    SealedOpened,
    SealedVoid,
)
from protocol.wire.header import DEFAULT_TIMEOUTS

from cli.args import invocation
from cli.games import DEFAULT_GAME, make_ui
from cli.play import Console, InputClosed, LeftGame, in_reader
from cli.plugin import GameUI, Seating
from cli.seats import SeatWatch
from cli.text import YOU, join_words, seat_letter, wrap_text
from engine.core import (
    DEFAULT_LEVEL,
    EngineError,
    GameState,
    IllegalActionError,
    InvalidActionError,
    Over,
)
from p2p.lobby import LobbyError
from p2p.peer import MatchPeer, PeerConfig, bot_decider

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
            return f"the match stops here ({invocation()} resume takes it up again)"
        return "the others play on, a bot plays your seat"

    @property
    def quit_choices(self) -> str:
        """At a LAN table: the two ways to leave (protocol.md §7.7)."""
        return ("l: leave for good (a bot plays your seat; you cannot come back), s: step "
                f"away (the timeouts run; {invocation()} resume to come back), any other: "
                "stay")

    @property
    def left(self) -> str:
        """What the player is told once they left (or stepped away)."""
        if self.local:
            return ("You left the game; it stops here. To take it up again: "
                    f"{invocation()} resume")
        return (f"You stepped away. To come back: {invocation()} resume (after the timeouts a "
                "bot plays your seat until then).")

    @property
    def left_for_good(self) -> str:
        return "You left the match for good; a bot plays your seat."

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
        self.say(*wrap_text(f"{self.plugin.no_dealer} {self.options.bots_where}".rstrip()))
        if self.human and not self.options.local and peer.watchers.limit > 0:
            host, port = peer.addresses[peer.seat]
            self.say(*wrap_text(f"Others may watch, one move behind: {invocation()} spectate "
                                f"{host if host and host != '0.0.0.0' else 'THIS-HOST'}:{port}"))
            peer.watchers.on_change = self._watching
        if self.human:
            peer.local.answering = lambda offerer, what: self.my_answers.get(offerer)
        self._show_progress()  # (a resumed match: its stage and its latest result)

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
        if isinstance(event, PrivateKnowledge) and self.human:
            self.say(*self.ui.knowledge(self.view()))
        elif isinstance(event, SeatReplaced) and event.seat not in self.gone:
            who = "You are" if event.seat == self.seat and self.human else (
                f"{self.labels[event.seat]} is")
            self.say(f"{who} replaced by a bot from now on ({event.reason}).")
            if event.seat == self.seat and self.peer.local.hold_reclaim:
                self.say(*wrap_text(self.ui.reclaim_hint))
        elif isinstance(event, SeatLeft) and event.seat != self.seat:
            self.gone.add(event.seat)
            self.say(f"{self.labels[event.seat]} resigned." if event.resigned else
                     f"{self.labels[event.seat]} left the match for good; a bot plays their "
                     "seat.")
        elif isinstance(event, SeatForfeited):
            who = "You" if event.seat == self.seat and self.human else self.labels[event.seat]
            self.say(*wrap_text(f"{who} forfeited: held back {event.withheld} after the "
                                "others' were out, so cannot win this match (a bot or the "
                                "player may still play the seat)."))
        elif isinstance(event, SealedOpened) and not (event.seat == self.seat and self.human):
            self.say(*self.ui.opening_news(event.seat, event.values, self.labels[event.seat]))
        elif isinstance(event, CardDealt | CardShown | DeckRestarted):
            self.say(*self.ui.deal_news(event, self.labels, self.seat if self.human else None))
        elif isinstance(event, SealedVoid) and event.slots:
            self.say(*wrap_text(f"{self.labels[event.seat]}'s {len(event.slots)} sealed "
                                "value(s) stay sealed for good (the seat was replaced): the "
                                "game's ruling for them applies."))
        elif isinstance(event, MatchClaimed):
            self.claimed = True
            self.say(*wrap_text(self._claim_words(event)))
        elif isinstance(event, OfferMade | OfferSettled | MatchResumed):
            self._on_agreement(event)
        elif isinstance(event, SeatReclaimed):
            who = "You are" if event.seat == self.seat and self.human else (
                f"{self.labels[event.seat]} is")
            self.say(f"{who} back (from {event.step}).")
        elif isinstance(event, SeatsOverdue):
            who = ", ".join(self.labels[s] for s in event.seats if s != self.seat)
            if who:
                self.say(f"Waiting for {who}...")
        elif isinstance(event, ActionTaken) and (event.seat != self.seat or not self.human):
            self.say(*self.ui.action_news(event.seat, event.action))
        if isinstance(event, PeerMisbehaved) and event.evidence:
            self.say(f"{self.labels[event.seat]} broke the rules: {event.reason}.")
        if isinstance(event, FloorReached) and not self.claimed:
            self.say(f"Fewer than two players are left ({self.labels[event.seat]} was "
                     "replaced): the match ends here, by the game's forfeit where it has one, "
                     "else abandoned.")
        self._show_progress()

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
        me = self.seat if self.human else None
        if isinstance(event, MatchResumed):
            who = "You" if event.seat == me else self.labels[event.seat]
            self.say(f"{who} resumed the match: the clocks run again.")
            return
        who = "You" if event.seat == me else self.labels[event.seat]
        if isinstance(event, OfferMade):
            if event.seat == me:
                self.say(f"Your offer of a {event.what} is out; the match waits for every "
                         "answer.")
            elif self.human:
                self.offers_to_me[event.seat] = event.what
                self.my_answers.pop(event.seat, None)
                self.say(f"{who} offers a {event.what}: {self.answer_keys}.")
                self._ask_offer()
            else:
                self.say(f"{who} offers a {event.what}.")
            return
        self.offers_to_me.pop(event.seat, None)
        if event.agreed:
            self.say(f"{who} offered a {event.what}; everyone agreed. " + (
                "The game ends drawn." if event.what == "draw" else
                "The match is paused: no clock runs until someone resumes it."))
        elif event.declined:
            names = ", ".join("you" if s == me else self.labels[s] for s in event.declined)
            self.say(f"{who} offered a {event.what}; declined by {names}. Play goes on.")
        else:
            self.say(f"{who} offered a {event.what}; no {event.what} ({event.why}).")

    def _ask_offer(self) -> None:
        """Line mode: with no prompt up, ask for the answer at once (the match waits)."""
        if self.choosing or not self.offers_to_me:
            return

        async def ask() -> None:
            with contextlib.suppress(InputClosed, OSError):
                text = await in_reader(self.console.ask, "accept? [y/N] ")
                self.say(self.answer_offers(text.strip().lower() in ("y", "yes", "accept")))
        self.asking = asyncio.ensure_future(ask())

    def _claim_words(self, claim: MatchClaimed) -> str:
        """What a CLAIM that ended the match says (protocol.md §7.7)."""
        me = self.seat if self.human else None
        who = "You" if claim.claimant == me else self.labels[claim.claimant]
        whom = "you" if claim.seat == me else self.labels[claim.seat]
        if claim.contested:
            return (f"{who} claimed the match, but {whom} had sent a move meanwhile: the match "
                    "is abandoned.")
        return (f"{who} claimed the match: {whom} stayed silent past the timeouts, and with "
                "only two players left nobody can vote. The match ends here.")

    def _show_progress(self) -> None:
        view = self.view()
        news = self.plugin.news(view)
        if news:
            self.say(*news)
        chapter = self.plugin.chapter(view)
        if chapter:
            self.gap()
            self.say(*chapter)

    # ------------------------------------------------------------------ your decisions

    async def choose(self, state: GameState[Any], seat: int) -> str:
        self.choosing = True
        try:
            chosen = await in_reader(self._choose_blocking, state, seat)
            self._thinking_note(state, seat)
            return chosen
        except OSError as exc:  # the output went away while the prompt was shown
            self._output_lost(exc)
            raise
        except (LeftGame, InputClosed) as exc:
            if isinstance(exc, LeftGame) and exc.for_good:
                await self.leave_for_good(resign=exc.resign)
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

    async def leave_for_good(self, *, resign: bool = False) -> None:
        """Send this seat's LEAVE — or RESIGN — (after the openings it owes) before the match
        stops here."""
        if self.peer is not None and not await self.peer.leave(resign=resign):
            self.say("Could not sign your leaving now; the timeouts will replace your seat.")

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
                self.say(*wrap_text(f"Leave the match? {self.options.quit_choices}"
                                    + ("; r: resign (you lose, as the game rules)."
                                       if resign else ".")))
                answer = self.console.ask(
                    "leave for good, step away, resign or stay? [l/s/r/N] " if resign else
                    "leave for good, step away or stay? [l/s/N] ").lower()
                if resign and answer in ("r", "resign"):
                    raise LeftGame("You resigned.", resign=True)
                if answer in ("l", "leave"):
                    raise LeftGame(self.options.left_for_good, for_good=True)
                if answer in ("s", "step", "away"):
                    raise LeftGame(self.options.left)
                continue
            try:
                action = state.parse_action(seat, text)
                state.check(seat, action)
            except (InvalidActionError, IllegalActionError) as exc:
                self.say(" ".join(str(exc).split()))
                continue
            return state.format_action(action)

    # ------------------------------------------------------------------ the end

    def finish(self, core_state: GameState[Any], path: Path) -> None:
        self.gap()
        self.say(*self.end_lines(core_state, path))

    def end_lines(self, core_state: GameState[Any], path: Path) -> list[str]:
        """The end: the scoreboard and result (who a bot played, and from which step), the
        match file and the command that checks it."""
        w = core_state.waiting
        lines: list[str] = []
        if isinstance(w, Over):
            lines += ["=== Game over " + "=" * 65,
                      *self.plugin.scoreboard(core_state.view(self.seat), w.outcome,
                                              self.bots())]
        return [*lines, "", *copy_lines(path, self.options.out)]


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
