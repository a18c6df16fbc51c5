"""The contract between the generic client and a game's client plug-in (``cli/games/<game>/``).

A plug-in is one subclass of :class:`GameUI`: class data (its help, its keys, whether it has a
full-screen table) plus hooks, each with a default that works for any game from the engine's API
alone — the engine's ``view()`` outlined as text (:mod:`cli.outline`), its notation for the
moves, its outcome for the end.  So a game with no plug-in of its own is still playable in line
mode, and a plug-in overrides only what its game shows better.

The frontends hold a plug-in (they never subclass one): line mode (:mod:`cli.netplay`), the full
screen (:mod:`cli.tui`), the offline practice game (:mod:`cli.play`), the replay
(:mod:`cli.record`), ``cryptcrawl rules`` and ``cryptcrawl stats``.  They never look inside a
view: every word about the game comes from here.  The registry is :mod:`cli.games`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from cli import outline
from cli.inputs import InputModel, ListChoice
from cli.text import (
    YOU,
    StyledLine,
    bot_notes,
    join_words,
    named_seats,
    plain,
    plural,
    seat_name,
    wrap_items,
    wrap_text,
)
from engine.core import DRAWN, Entry, GameSpec, GameState, Outcome, Standing
from protocol.match.events import CardDealt, CardShown, DeckRestarted

LINE_HELP = """\
How to play (line mode)
  Before each of your moves the table is shown, then the moves you may make.
  Type one in the game's notation and press Enter (an illegal one gets a
  one-line reason and the prompt again).
  look               show the table again
  rules              the rules in short
  ? or help          this help
  q or quit          leave the game"""


@dataclass(frozen=True)
class Seating:
    """Who is who at the table, for the words: ``labels[seat]`` is what the text calls a seat
    ("you" for the person at this terminal); ``me`` is that person's seat (None: nobody here
    plays — an all-bot match watched, a replay); ``name`` the person's own name."""

    labels: tuple[str, ...] = ()
    me: int | None = None
    name: str = ""

    @property
    def viewer(self) -> int:
        """The seat whose view is shown."""
        return self.me if self.me is not None else 0


class Live(Protocol):
    """What the client knows of each seat now beyond the engine's view (from the protocol's
    events, :class:`cli.seats.SeatNow`)."""

    def locked(self, seat: int) -> bool: ...
    def overdue(self, seat: int) -> bool: ...
    def bot(self, seat: int) -> bool: ...
    def thinking(self, seat: int) -> bool: ...
    def status(self, seat: int) -> str: ...


@dataclass
class Frame:
    """What a full-screen renderer is given besides the view: the width, the seats' live status,
    the move being built (None when it is not the person's move) and the window's height (0:
    unknown; a board may draw more where the window is tall)."""

    width: int
    live: Live
    inputs: InputModel | None = None
    human: bool = True
    height: int = 0


@dataclass
class Shown:
    """What a renderer has shown already (the news are the rest)."""

    log: int = 0
    chapter: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


class GameUI:
    """How the client shows and drives one game.  The defaults serve any game (see the module);
    a plug-in sets its class data and overrides the hooks its game shows better."""

    # ------------------------------------------------------------------ class data

    full_screen: ClassVar[bool] = False
    """Has a full-screen table; without one, a terminal plays in line mode too."""
    networked: ClassVar[str] = ""
    """Why the game cannot be played over the network yet ("" if it can)."""
    keys_help: ClassVar[str] = ""
    """The full screen's help: its keys (the rules follow)."""
    line_help: ClassVar[str] = LINE_HELP
    """Line mode's ``?``."""
    key_hints: ClassVar[tuple[str, ...]] = ()
    """The full screen's hints for the game's own keys (the generic ones follow)."""
    keys: ClassVar[tuple[str, ...]] = ()
    """Every key the game's input models take (bound by the full screen)."""
    select_hint: ClassVar[str] = "Choose your move first, then Enter."
    styles: ClassVar[Mapping[str, str]] = {}
    min_size: ClassVar[tuple[int, int]] = (80, 24)
    no_dealer: ClassVar[str] = ("No dealer: every chance outcome comes from secrets all seats "
                                "contribute; every move is signed.")
    offline_note: ClassVar[str] = ("A local, trusted dealer answers every chance event; each "
                                   "bot decides from its own view only.")
    type_hint: ClassVar[str] = "Type your move"
    reclaim_hint: ClassVar[str] = ("The bot plays your seat until you answer: make your move "
                                   "when you are back, and you play again from a later step.")
    replay_unit: ClassVar[str] = "step"
    most_listed: ClassVar[int] = 40
    """Line mode lists at most this many legal moves (then says how many there are)."""

    def __init__(self, spec: GameSpec, players: int, options: Mapping[str, Any],
                 seating: Seating = Seating()) -> None:
        self.spec = spec
        self.players = players
        self.options = dict(options)
        self.seating = seating
        self.shown = Shown()
        # How seats left the match (the frontends set it from the protocol's events,
        # cli.seats.SeatWatch.departed): the scoreboard says it where the engine's result
        # only says "resigned" or "forfeited".
        self.departed: dict[int, str] = {}

    @property
    def labels(self) -> tuple[str, ...]:
        return self.seating.labels

    @property
    def me(self) -> int | None:
        return self.seating.me

    # ------------------------------------------------------------------ words

    def describe(self) -> str:
        """The table in a few words: its title, the players, the options not at their default
        ("TITLE, 3 players (mode coop)")."""
        text = f"{self.spec.title}, {plural(self.players, 'player')}"
        chosen = [f"{k} {_option_text(v)}" for k, v in sorted(self.options.items())
                  if k != "players" and not self._default(k, v)]
        return text + (f" ({', '.join(chosen)})" if chosen else "")

    def _default(self, key: str, value: Any) -> bool:
        if key == "variant":
            return bool(self.spec.variants) and value == self.spec.variants[0]
        try:
            return bool(self.spec.option(key).default == value)
        except KeyError:
            return False

    def rules(self) -> str:
        """The rules in short (``cryptcrawl rules GAME``, the full screen's help after the keys,
        line mode's ``rules``): at most about 60 lines of at most 79 columns."""
        lines = [f"{self.spec.title}: {join_words([str(p) for p in self.spec.players])} "
                 "players.", "",
                 "This program has no summary of its rules yet; its options:"]
        for o in self.spec.options:
            lines += wrap_text(f"  {o.name} (default {_option_text(o.default)}): {o.help}",
                               indent="    ", width=79)
        return "\n".join(lines)

    def help_pane(self) -> str:
        """The full screen's ``?``: the keys, then the rules."""
        return f"{self.keys_help}\n\n{self.rules()}" if self.keys_help else self.rules()

    def step_words(self, step: str) -> str:
        """A step id in words, for "a bot played your seat from ..."."""
        return f"step {step}"

    def placing_key(self, outcome: Outcome, standing: Standing) -> tuple[int, ...]:
        """Sorts the seats from first to last place; equal keys share a placing (the seats
        that drew share the first)."""
        if outcome.drawn:
            return (0,) if standing.status in DRAWN else (1, -standing.score,
                                                           -standing.tiebreak)
        return (0 if standing.seat in outcome.winners else 1, -standing.score,
                -standing.tiebreak)

    # ------------------------------------------------------------------ line mode

    def table(self, view: Any) -> list[str]:
        """Everything the viewer needs to decide (line mode)."""
        return outline.outline(outline.data_of(view), skip=outline.SKIPPED)

    def command(self, view: Any, text: str) -> list[str] | None:
        """A look-up command of the game's own at line mode's prompt (another seat's part of
        the table, say): the lines it shows, or None when ``text`` is no such command (then it
        is read as a move)."""
        return None

    def choices(self, state: GameState[Any], seat: int) -> list[str]:
        """The moves to list before the prompt ([] when the step has too many to list)."""
        if not state.lists_actions(seat):
            return []
        return [state.format_action(a) for a in state.legal_actions(seat)]

    def choices_lines(self, state: GameState[Any], seat: int, view: Any) -> list[str]:
        """The moves, listed (or how to give one), then the reminder of ? and q."""
        moves = self.choices(state, seat)
        head = self.choices_head(view)
        if not moves:
            lines = wrap_text(f"{head}type your move in the game's notation (rules: the "
                              "rules in short).", indent="  ")
        else:
            shown = moves[:self.most_listed]
            if len(head) + len(shown[0]) >= 79:  # (long moves: one line each, below the head)
                lines = [head.rstrip(), *wrap_items(shown, first="  ", sep=", ", indent="  ")]
            else:
                lines = wrap_items(shown, first=head, sep=", ", indent="  ")
            if len(moves) > len(shown):
                lines.append(f"  ... and {len(moves) - len(shown)} more (any legal move in "
                             "the game's notation)")
        return [*lines, "  (? for help, q to quit)"]

    def choices_head(self, view: Any) -> str:
        return "Choose: "

    def prompt(self, view: Any) -> str:
        return "your move> "

    def knowledge(self, view: Any) -> list[str]:
        """What the viewer just learned privately (said to that seat alone)."""
        return ["You learned something only you know (look shows the table)."]

    def action_news(self, seat: int, text: str) -> list[str]:
        """Another seat's action, as it happens (line mode announces what a result will not)."""
        return []

    def own_move(self, text: str) -> list[str]:
        """The person's own move, locked in, as only they may read it (what a face-down part
        holds); [] when the story says all of it."""
        return []

    def opening_news(self, seat: int, values: tuple[tuple[str, str], ...],
                     label: str) -> list[str]:
        """``seat`` (called ``label``) opened sealed values (slot, value): what was face down
        until now.  The game's words where it has them; by default the values."""
        shown = ", ".join(value for _, value in values)
        return [f"{label} opened {len(values)} sealed value{'s' * (len(values) != 1)}: "
                f"{shown}."]

    def deal_news(self, event: CardDealt | CardShown | DeckRestarted, labels: Sequence[str],
                  me: int | None) -> list[str]:
        """A private deal (protocol.md §7.13): the person's own card dealt (``me``: its seat,
        None when no person plays here), a card opened in public, a deal restarted."""
        if isinstance(event, CardDealt):
            if me is None or event.seat != me or not event.card:
                return []
            return [f"You were dealt {event.card} ({event.deck}): only you can see it."]
        if isinstance(event, CardShown):
            when = " at the end (the audit of what it held)" if event.at_end else ""
            line = f"{labels[event.seat]} showed {event.card}{when}."
            return [line[:1].upper() + line[1:]]  # ("you showed" opens a line: "You")
        return wrap_text(f"{labels[event.lost]} left during the deal: the {event.deck} are "
                         "shuffled again by " + ", ".join(labels[s] for s in event.seats)
                         + " (a fresh deck; nothing seen before counts).")

    def applied(self, seat: int, text: str, before: Any, after: Any) -> list[str]:
        """The offline game: ``seat``'s action ``text`` was applied (views before and after)."""
        return self.action_news(seat, text) if seat != self.me else []

    def news(self, view: Any) -> list[str]:
        """What happened since the last call: new entries of the view's log."""
        log = outline.log_of(view)
        if log is None:
            return []
        fresh = list(log[self.shown.log:])
        self.shown.log = len(log)
        return [line for entry in fresh for line in wrap_text(entry, indent="  ")]

    def chapter(self, view: Any) -> list[str]:
        """A header when a new stage of the match begins ([] otherwise)."""
        return []

    def scoreboard(self, view: Any, outcome: Outcome,
                   bots: Mapping[int, Sequence[tuple[str, str]]]) -> list[str]:
        """The end: every seat's place and result, the winners, the seats a bot played."""
        labels = self.labels or tuple(f"seat {s}" for s in range(len(outcome.standings)))
        places = placings(self, outcome)
        lines = ["Final standings"]
        for st in sorted(outcome.standings, key=lambda st: (places[st.seat], st.seat)):
            status, detail = st.status, st.detail
            if status in ("resigned", "forfeited") and st.seat in self.departed:
                status = self.departed[st.seat]
                detail = self.departed_detail(st)
            detail = f"; {named_seats(detail, labels)}" if detail else ""
            who = seat_name(st.seat, labels, self.seating.name)
            lines += wrap_text(f"  {places[st.seat]}. {who}: {status}, score {st.score}"
                               f"{detail}", indent="     ")
        winners = sorted(outcome.winners)
        if outcome.drawn:
            drew = [labels[st.seat] for st in outcome.standings if st.status in DRAWN]
            lines.append(f"A draw between {join_words(drew)}: nobody wins."
                         if len(drew) > 1 else "A draw: nobody wins.")
        elif not winners:
            lines.append("Nobody wins.")
        elif len(winners) > 1:
            lines.append(f"Shared win: {join_words([labels[s] for s in winners])}.")
        elif labels[winners[0]] == YOU and winners[0] in bots:
            lines.append("Your seat wins (a bot played it: not your win alone).")
        elif labels[winners[0]] == YOU:
            lines.append("You win!")
        else:
            lines.append(f"{labels[winners[0]]} wins.")
        lines += wrap_text(f"({named_seats(outcome.reason, labels)})", indent="  ")
        return lines + bot_notes(bots, labels, self.step_words)

    def departed_detail(self, standing: Standing) -> str:
        """The detail of a seat that left the match before its end (the game's words)."""
        return standing.detail

    def narrate(self, before: GameState[Any], entry: Entry | None,
                after: GameState[Any]) -> list[str]:
        """One change of the match, in words (:class:`cli.story.Story`): ``before`` and
        ``after`` are public states, ``entry`` the history entry that made the change (None:
        a change no entry explains — a resignation, a forfeit, an agreed draw).  By default
        the lines the view's log gained."""
        old = outline.log_of(before.spectator_view())
        new = outline.log_of(after.spectator_view())
        if new is None:
            return []
        return [line for entry_text in log_added(old or (), new)
                for line in wrap_text(entry_text, indent="  ")]

    def pause_after(self, before: GameState[Any], after: GameState[Any]) -> bool:
        """Does a unit of the replay (:attr:`replay_unit`) end with this change?  By default
        every change is one."""
        return True

    # ------------------------------------------------------------------ full screen

    def title(self, view: Any, width: int) -> list[StyledLine]:
        """The rows above the board ([]: the generic title)."""
        return []

    def board(self, view: Any, frame: Frame) -> list[StyledLine]:
        """The board pane: the table, every seat with its live status."""
        lines = [plain(" " + line) for line in self.table(view)]
        lines.append(plain(" Seats: " + "; ".join(
            f"{seat_name(s, self.labels, self.seating.name)} {frame.live.status(s) or '-'}"
            for s in range(len(self.labels)))))
        return lines

    def select_words(self, view: Any) -> str:
        """What Enter says with nothing selected yet, for the decision of ``view``."""
        return self.select_hint

    def move_note(self, view: Any) -> str:
        """Words after "YOUR MOVE" (what the decision is, if not the usual one)."""
        return ""

    def inputs(self, state: GameState[Any], seat: int) -> InputModel:
        """The input model of a decision: by default a list of the legal moves to pick from."""
        return ListChoice(self.choices(state, seat))


def placings(ui: GameUI, outcome: Outcome) -> dict[int, int]:
    """Every seat's place (1 = first); seats with equal keys share the better place."""
    keys = {st.seat: ui.placing_key(outcome, st) for st in outcome.standings}
    return {seat: 1 + sum(1 for other in keys.values() if other < key)
            for seat, key in keys.items()}


def log_added(old: Sequence[str], new: Sequence[str]) -> Sequence[str]:
    """The lines a log that keeps its last lines gained from ``old`` to ``new``: ``new`` is
    ``old`` plus the lines added, cut to its length (the largest overlap is taken)."""
    for cut in range(len(old) + 1):
        kept = old[cut:]
        if tuple(new[:len(kept)]) == tuple(kept):
            return new[len(kept):]
    return new


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)
