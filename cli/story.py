"""A match told as its game tells it: the one narration the log, ``replay``, ``spectate`` and
``export`` share.

A :class:`Story` follows a match core (:class:`~protocol.match.core.MatchCore`): every engine state
the core reaches (its ``state_observers``) and every event it reports.  :meth:`Story.tell`
turns what happened since the last call into lines, in order: each change of the engine state
is told by the game's plug-in (:meth:`cli.plugin.GameUI.narrate`, given the public state before,
the history entry that made the change and the public state after), and each fact about the
table — a seat replaced, back, gone, a claim, an offer, a forfeit — in the words of this module.

The entry of a change is found from the core's events: a chance outcome
(:class:`ChanceResolved`), a seat's open action (:class:`ActionTaken`), the plays revealed
together in a simultaneous step (:class:`PlayRevealed`, with the plays a bot made for a
replaced seat), sealed values opened (:class:`SealedOpened`), a private card dealt or shown
(:class:`CardDealt`, :class:`CardShown`).  A change no entry explains (a resignation the engine
applied, a forfeit, an agreed draw) is told from the states alone (the plug-in's ``narrate``
with no entry).  Nothing here names a game, and nothing private is told: the states are public
parts, and a seat's own cards are said by the frontends that may see them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cli.plugin import GameUI
from cli.text import YOU, named_seats, wrap_text, you_form
from engine.core import (
    Acted,
    ChanceResolved,
    Dealt,
    EngineError,
    Entry,
    GameState,
    JointActed,
    Opened,
    Shown,
    Simultaneous,
    Turn,
    Visibility,
    apply_entry,
)
from engine.core import Chance as ChancePending
from engine.core import Openings as OpeningsPending
from protocol.match.events import (
    ActionTaken,
    CardDealt,
    CardShown,
    ChanceRedrawn,
    DeckRestarted,
    Event,
    FloorReached,
    MatchClaimed,
    MatchResumed,
    OfferMade,
    OfferSettled,
    PeerMisbehaved,
    PlayRevealed,
    SealedOpened,
    SealedVoid,
    SeatForfeited,
    SeatLeft,
    SeatReclaimed,
    SeatReplaced,
)
from protocol.match.events import ChanceResolved as ChanceEvent

#: The events that carry a change of the engine state (told by the game, as its entry).
ENTRY_EVENTS = (ChanceEvent, ActionTaken, PlayRevealed, SealedOpened, CardDealt, CardShown)


@dataclass(frozen=True)
class Told:
    """Lines told at one point of the match: ``events`` are the indexes (into the core's
    events) of what they tell; ``pause``: a unit of the replay (the game's: a turn, a round)
    ends here."""

    lines: tuple[str, ...]
    events: tuple[int, ...] = ()
    pause: bool = False


@dataclass
class _Pending:
    """Entry events seen and not yet matched to a change of state."""

    acts: list[tuple[int, ActionTaken]] = field(default_factory=list)
    reveals: dict[str, dict[int, tuple[int, str]]] = field(default_factory=dict)
    opened: list[tuple[int, SealedOpened]] = field(default_factory=list)
    shown: list[tuple[int, CardShown]] = field(default_factory=list)
    dealt: list[tuple[int, CardDealt]] = field(default_factory=list)
    chances: dict[str, tuple[int, str]] = field(default_factory=dict)


class Story:
    """Tells one match core's play (see the module).  Attach it before the core takes the
    messages it should tell (at the core's start for the whole match)."""

    def __init__(self, core: Any, ui: GameUI) -> None:
        self.core = core
        self.ui = ui
        self.state: GameState[Any] = core.state.public()
        self._marks: list[tuple[GameState[Any], int]] = []
        self._scan = len(core.events)  # the next event to look at
        self._pending = _Pending()
        self._gone: set[int] = set()  # seats that left for good (their replacement is no news)
        core.state_observers.append(self._observe)

    def _observe(self, state: GameState[Any]) -> None:
        self._marks.append((state, len(self.core.events)))

    # ------------------------------------------------------------------ telling

    def tell(self) -> list[Told]:
        """Everything that happened since the last call, told in order."""
        out: list[Told] = []
        marks, self._marks = self._marks, []
        for state, count in marks:
            self._table(count, out)
            self._change(state, out)
        self._table(len(self.core.events), out)
        return out

    def lines(self) -> list[str]:
        """:meth:`tell`, as lines only."""
        return [line for told in self.tell() for line in told.lines]

    def _table(self, until: int, out: list[Told]) -> None:
        """Tell the table's events up to ``until``; keep the entry events for the changes."""
        events: list[Event] = self.core.events
        while self._scan < until:
            i = self._scan
            self._scan += 1
            event = events[i]
            if isinstance(event, ENTRY_EVENTS) and not (
                    isinstance(event, CardShown) and event.at_end):
                self._keep(i, event)
                continue
            lines = self.table_words(event, events[i + 1:i + 4])
            if lines:
                out.append(Told(tuple(lines), (i,)))

    def _keep(self, i: int, event: Event) -> None:
        p = self._pending
        if isinstance(event, ChanceEvent):
            p.chances[event.event] = (i, event.outcome)
        elif isinstance(event, PlayRevealed):
            p.reveals.setdefault(event.step, {})[event.seat] = (i, event.action)
        elif isinstance(event, ActionTaken):
            p.acts.append((i, event))
        elif isinstance(event, SealedOpened):
            p.opened.append((i, event))
        elif isinstance(event, CardShown):
            p.shown.append((i, event))
        elif isinstance(event, CardDealt):
            p.dealt.append((i, event))

    def _chance_outcome(self, event_id: str) -> tuple[int, str] | None:
        """The outcome of ``event_id``: the core reports it just after the state it made."""
        found = self._pending.chances.pop(event_id, None)
        events: list[Event] = self.core.events
        j = self._scan
        while found is None and j < len(events):
            e = events[j]
            if isinstance(e, ChanceEvent) and e.event == event_id:
                found = (j, e.outcome)
            j += 1
        return found

    def _entries(self, before: GameState[Any], after: GameState[Any]
                 ) -> list[tuple[Entry, tuple[int, ...]]]:
        """The history entries that made ``after`` from ``before``, with their events."""
        p = self._pending
        w = before.waiting
        if p.shown:  # (a card shown in public: a change of its own, in any phase)
            shown = [(Shown(e.seat, e.event, e.card), (i,)) for i, e in p.shown]
            p.shown.clear()
            opened = [(Opened(e.seat, e.values), (i,)) for i, e in p.opened]
            p.opened.clear()
            return [*shown, *opened]
        if isinstance(w, ChancePending):
            if w.event.visibility is Visibility.PRIVATE:
                idx = [i for i, e in p.dealt if e.event == w.event.id]
                p.dealt = [(i, e) for i, e in p.dealt if e.event != w.event.id]
                return [(Dealt(w.event.id), tuple(idx))]
            found = self._chance_outcome(w.event.id)
            if found is None:
                return []
            return [(ChanceResolved(w.event.id, found[1]), (found[0],))]
        if isinstance(w, OpeningsPending):
            openings: list[tuple[Entry, tuple[int, ...]]] = [
                (Opened(e.seat, e.values), (i,)) for i, e in p.opened]
            p.opened.clear()
            return openings
        if isinstance(w, Turn):
            for n, (i, act) in enumerate(p.acts):
                if act.step == w.step and act.seat == w.seat:
                    del p.acts[n]
                    return [(Acted(act.seat, act.action), (i,))]
            return []
        if isinstance(w, Simultaneous):
            aw = after.waiting
            still = isinstance(aw, Simultaneous) and aw.step == w.step
            for n, (i, act) in enumerate(p.acts):
                if act.step == w.step and not act.zombie and still:
                    del p.acts[n]  # (a free action: the step goes on)
                    return [(Acted(act.seat, act.action), (i,))]
            plays = dict(p.reveals.pop(w.step, {}))
            for i, act in [(i, a) for i, a in p.acts if a.step == w.step and a.zombie]:
                plays[act.seat] = (i, act.action)
            p.acts = [(i, a) for i, a in p.acts if a.step != w.step]
            if not plays:
                return []
            joint = JointActed(tuple((s, plays[s][1]) for s in sorted(plays)))
            return [(joint, tuple(sorted(i for i, _ in plays.values())))]
        return []

    def _change(self, after: GameState[Any], out: list[Told]) -> None:
        before = self.state
        target = after.public()
        self.state = target
        lines: list[str] = []
        events: list[int] = []
        current = before
        for entry, idx in self._entries(before, after):
            try:
                following = apply_entry(current, entry)
            except EngineError:
                break  # (several changes at once, or one the entry does not explain)
            lines += [you_form(line) for line in self.ui.narrate(current, entry, following)]
            events += idx
            current = following
        if current != target:
            lines += [you_form(line) for line in self.ui.narrate(current, None, target)]
        if lines or events:
            out.append(Told(tuple(lines), tuple(events), self.ui.pause_after(before, target)))

    # ------------------------------------------------------------------ the table's words

    def _name(self, seat: int) -> str:
        labels = self.ui.labels
        return labels[seat] if 0 <= seat < len(labels) else f"seat {seat}"

    def _subject(self, seat: int, verb_you: str, verb_other: str) -> str:
        name = self._name(seat)
        if name == YOU:
            return f"You {verb_you}"
        return f"{name} {verb_other}"

    def table_words(self, event: Event, following: Sequence[Event] = ()) -> list[str]:
        """A fact about the table (not a change of the game) in words; [] for none.
        ``following``: the events reported next (a replacement the floor follows leaves no
        seat for a bot to play)."""
        spec = self.ui.spec
        if isinstance(event, SeatReplaced):
            ends = any(isinstance(e, FloorReached) for e in following)
            if event.seat in self._gone:
                if ends:
                    return []
                if spec.replaced == "zombie":
                    whose = "your" if self._name(event.seat) == YOU else (
                        f"{self._name(event.seat)}'s")
                    return [f"A bot plays {whose} seat from now on."]
                return []
            reason = named_seats(event.reason, self.ui.labels)
            if spec.replaced != "zombie" or ends:
                return wrap_text(self._subject(event.seat, "are", "is") + " out of the match "
                                 f"({reason}).")
            return wrap_text(self._subject(event.seat, "are", "is") + " replaced by a bot "
                             f"from now on ({reason}).")
        if isinstance(event, SeatLeft):
            self._gone.add(event.seat)
            if event.resigned:
                return [self._subject(event.seat, "resigned", "resigned") + "."]
            return [self._subject(event.seat, "left", "left") + " the match for good."]
        if isinstance(event, SeatForfeited):
            return wrap_text(self._subject(event.seat, "forfeited", "forfeited") + ": held "
                             f"back {event.withheld} after the others' were out, so cannot "
                             "win this match.")
        if isinstance(event, SealedVoid) and event.slots:
            return wrap_text(f"{self._possessive(event.seat)} {len(event.slots)} face-down "
                             "value(s) stay sealed for good (the seat was replaced): the "
                             "game's ruling for them applies.")
        if isinstance(event, MatchClaimed):
            return wrap_text(self.claim_words(event))
        if isinstance(event, OfferMade):
            return [self._subject(event.seat, "offer", "offers") + f" a {event.what}."]
        if isinstance(event, OfferSettled):
            who = self._subject(event.seat, "offered", "offered")
            if event.agreed:
                return wrap_text(f"{who} a {event.what}; everyone agreed. " + (
                    "The game ends drawn." if event.what == "draw" else
                    "The match is paused: no clock runs until someone resumes it."))
            if event.declined:
                names = ", ".join(self._name(s) for s in event.declined)
                return wrap_text(f"{who} a {event.what}; declined by {names}. Play goes on.")
            return wrap_text(f"{who} a {event.what}; no {event.what} ({event.why}).")
        if isinstance(event, MatchResumed):
            return [self._subject(event.seat, "resumed", "resumed")
                    + " the match: the clocks run again."]
        if isinstance(event, SeatReclaimed):
            return [self._subject(event.seat, "are", "is") + " back (from "
                    f"{self.ui.step_words(event.step)})."]
        if isinstance(event, FloorReached):
            return wrap_text(f"Fewer than two players are left ({self._name(event.seat)} "
                             "gone): the match ends here"
                             + (", by the game's forfeit." if spec.replaced == "forfeit"
                                or spec.forfeit_plays_on or self._forfeits() else
                                ", abandoned."))
        if isinstance(event, PeerMisbehaved) and event.evidence:
            return wrap_text(f"{self._name(event.seat)} broke the rules: "
                             f"{named_seats(event.reason, self.ui.labels)}.")
        if isinstance(event, ChanceRedrawn):
            return wrap_text("A face-down draw is made again without a seat that left (its "
                             "secret for it was lost).")
        if isinstance(event, CardShown | DeckRestarted):
            return self.ui.deal_news(event, self.ui.labels, self.ui.me)
        return []

    def _forfeits(self) -> bool:
        """Does the game have a forfeit result (a seat gone below two live seats loses)?"""
        try:
            self.state.forfeit(0)
        except EngineError:
            return False
        return True

    def _possessive(self, seat: int) -> str:
        name = self._name(seat)
        return "Your" if name == YOU else f"{name}'s"

    def claim_words(self, claim: MatchClaimed) -> str:
        """What a CLAIM that ended the match says (protocol.md §7.7)."""
        who = self._subject(claim.claimant, "claimed", "claimed")
        whom = self._name(claim.seat)
        if claim.contested:
            return (f"{who} the match, but {whom} had sent a move meanwhile: the match is "
                    "abandoned.")
        return (f"{who} the match: {whom} stayed silent past the timeouts, and with only two "
                "players left nobody can vote. The match ends here.")


def told_lines(told: Sequence[Told]) -> list[str]:
    return [line for t in told for line in t.lines]


__all__ = ["ENTRY_EVENTS", "Story", "Told", "told_lines"]
