"""What each seat is doing, from the protocol's events alone: locked in, away, played by a bot.

The engine's view of a simultaneous step says only "choosing" for every seat whose play is not
revealed yet (a commitment hides the play, and the engine never sees one).  The protocol tells
more, in events every client receives: :class:`PlayCommitted` (a seat locked its play in),
:class:`SeatsOverdue` (the turn timeout passed while those seats owed a message),
:class:`SeatReplaced` / :class:`SeatReclaimed` (a bot plays the seat from now on / the seat is
back) and :class:`ActionTaken` with ``zombie`` set (the step a bot played for it).  Nothing here
names a game: steps are the engine's step ids, which the game's renderer puts in words.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from protocol.match.core import (
    ActionTaken,
    Event,
    MatchClaimed,
    PeerMisbehaved,
    PlayCommitted,
    PlayRevealed,
    SeatForfeited,
    SeatLeft,
    SeatReclaimed,
    SeatReplaced,
    SeatsOverdue,
)


@dataclass
class Stretch:
    """A stretch of the match a bot played a seat: from its first step, to the step the seat
    came back at ("" while the bot still plays it)."""

    first: str = ""
    back: str = ""


@dataclass
class SeatWatch:
    """Fed every event of a match (:meth:`on_event`); asked about the step now in play."""

    locked: set[tuple[str, int]] = field(default_factory=set)
    overdue: dict[str, set[int]] = field(default_factory=dict)
    bots: dict[int, list[Stretch]] = field(default_factory=dict)
    # How a seat left the match, in words (it left, resigned, was claimed, forfeited): what a
    # result the engine can only call "resigned" or "forfeited" means for that seat.
    departed: dict[int, str] = field(default_factory=dict)

    def on_event(self, event: Event) -> None:
        if isinstance(event, SeatLeft):
            self.departed[event.seat] = "resigned" if event.resigned else "left the match"
        elif isinstance(event, MatchClaimed) and not event.contested:
            self.departed.setdefault(event.seat, "claimed: silent past the timeouts")
        elif isinstance(event, SeatForfeited):
            self.departed.setdefault(event.seat, "forfeited: held back an opening")
        elif isinstance(event, PeerMisbehaved) and event.evidence:
            self.departed.setdefault(event.seat, "forfeited: broke the rules")
        elif isinstance(event, SeatReplaced) and event.reason.startswith("absent"):
            self.departed.setdefault(event.seat, "forfeited: silent past the timeouts")
        elif isinstance(event, SeatReclaimed):
            if self.departed.get(event.seat, "").endswith("silent past the timeouts"):
                del self.departed[event.seat]
        if isinstance(event, PlayCommitted | PlayRevealed):
            self.locked.add((event.step, event.seat))
        elif isinstance(event, SeatsOverdue):
            self.overdue.setdefault(event.step, set()).update(event.seats)
        elif isinstance(event, SeatReplaced):
            stretches = self.bots.setdefault(event.seat, [])
            if not stretches or stretches[-1].back:
                stretches.append(Stretch())
        elif isinstance(event, SeatReclaimed):
            stretches = self.bots.get(event.seat, [])
            if stretches and not stretches[-1].back:
                stretches[-1].back = event.step
        elif isinstance(event, ActionTaken) and event.zombie:
            stretches = self.bots.setdefault(event.seat, [])
            if not stretches or stretches[-1].back:
                stretches.append(Stretch())
            if not stretches[-1].first:
                stretches[-1].first = event.step

    def is_locked(self, step: str, seat: int) -> bool:
        return (step, seat) in self.locked

    def is_overdue(self, step: str, seat: int) -> bool:
        return seat in self.overdue.get(step, ()) and not self.is_locked(step, seat)

    def bot_plays(self, seat: int) -> bool:
        """A bot plays ``seat`` now."""
        stretches = self.bots.get(seat, [])
        return bool(stretches) and not stretches[-1].back

    def played_by_bot(self) -> dict[int, list[Stretch]]:
        """Every seat a bot played for some steps, with the stretches (a stretch whose first
        step is unknown — replaced after its last decision — is left out)."""
        return {seat: [s for s in stretches if s.first]
                for seat, stretches in self.bots.items() if any(s.first for s in stretches)}


@dataclass
class SeatNow:
    """Each seat's live status at the step in play (:class:`cli.plugin.Live`): what the
    protocol's events say (:class:`SeatWatch`), the seats the step waits for, and this client's
    own seat once it locked its move in (before the protocol's event about it comes back)."""

    watch: SeatWatch
    step: str = ""
    pending: frozenset[int] = frozenset()
    mine: int | None = None
    bot_seats: frozenset[int] = frozenset()  # seats a bot peer plays (its name says so)

    def locked(self, seat: int) -> bool:
        return seat == self.mine or self.watch.is_locked(self.step, seat)

    def overdue(self, seat: int) -> bool:
        return not self.locked(seat) and self.watch.is_overdue(self.step, seat)

    def bot(self, seat: int) -> bool:
        return self.watch.bot_plays(seat)

    def thinking(self, seat: int) -> bool:
        """A bot peer's seat the step waits for: its bot is thinking."""
        return (seat in self.bot_seats and seat in self.pending and not self.locked(seat)
                and not self.overdue(seat))

    def status(self, seat: int) -> str:
        """In words: "locked in", "away (overdue)", "thinking" (a bot's seat), "choosing" (or
        "" when not asked), with "a bot" in front while a bot plays the seat."""
        if self.locked(seat) and seat in self.pending:
            text = "locked in"
        elif self.overdue(seat) and seat in self.pending:
            text = "away (overdue)"
        elif self.thinking(seat):
            text = "thinking"
        else:
            text = "choosing" if seat in self.pending else ""
        if self.bot(seat):
            text = "a bot" + (f": {text}" if text else " plays it")
        return text
