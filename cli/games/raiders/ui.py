"""Dungeon Raiders' client plug-in: its words, its table in line mode and full screen, one key
per card.

The lines come from :mod:`cli.games.raiders.render` (pure functions of the engine's
:class:`~engine.raiders.view.RaidersView`); the help from :mod:`cli.games.raiders.help`.  What it
has shown already (the latest room's result, the level's header) it keeps itself: each hook
returns only what is new.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from cli.games.raiders import help as raiders_help
from cli.games.raiders import render
from cli.inputs import InputModel, KeyChoice
from cli.plugin import Frame, GameUI, Live
from cli.text import StyledLine, join_words, plain, subject, verb
from engine.core import Acted, ChanceResolved, Entry, GameState, JointActed, Outcome, Standing
from engine.raiders import RaidersView
from engine.raiders.cards import LEVELS, room_name

KEYS = {"1": "play 1", "2": "play 2", "3": "play 3", "4": "play 4", "5": "play 5",
        "k": "play key", "s": "play sword", "c": "play crystal", "t": "torch",
        "T": "play torch"}
DEALING = ("setup", "level", "deal")  # phases before a level's rooms are on the table
ORDER = render.ORDER
LOOK = "torch"  # the free action: a look at the face-down rooms


def _view(view: Any) -> RaidersView:
    assert isinstance(view, RaidersView), type(view).__name__
    return view


class RaidersUI(GameUI):
    """Dungeon Raiders at the terminal (see the module)."""

    full_screen = True
    keys_help = raiders_help.KEY_LINES
    line_help = raiders_help.LINE_HELP
    keys: ClassVar[tuple[str, ...]] = tuple(KEYS)
    key_hints = ("1-5 card", "k key", "s sword", "c crystal ball", "t torch (look)",
                 "T torch (play)")
    select_hint = "Select a card first (1-5, k, s, c, t, T), then Enter."
    styles: ClassVar[Mapping[str, str]] = {"room.dark": "bg:#303030 #808080",
                                           "room.current": "reverse bold",
                                           "room.done": "#808080"}
    no_dealer = ("No dealer: every face-down room comes from secrets all seats contribute; "
                 "every move is signed.")
    offline_note = ("A local, trusted dealer deals the rooms; each bot decides from its own "
                    "view only. 5 levels of 5 rooms: most coins wins, but the most wounded "
                    "faints and cannot win.")
    type_hint = "Type a card to play"
    reclaim_hint = ("The bot plays your seat until you answer: choose a card when you are "
                    "back, and you play again from a later room.")
    replay_unit = "room"

    level_shown = 0  # the level whose header was shown
    last_shown: tuple[int, int] | None = None  # the room whose result was shown
    revealed = False  # the offline game just showed the cards revealed for a follow-up

    @property
    def variant(self) -> str:
        return str(self.options.get("variant", "basic"))

    # ------------------------------------------------------------------ words

    def describe(self) -> str:
        variant = "tactical variant" if self.variant == "tactical" else "basic game"
        return f"Dungeon Raiders, {self.players} players, {variant}"

    def rules(self) -> str:
        return raiders_help.rules_text(self.players, self.variant)

    def step_words(self, step: str) -> str:
        return render.step_place(step)

    def placing_key(self, outcome: Outcome, standing: Standing) -> tuple[int, ...]:
        return (ORDER.get(standing.status, 9), -standing.score, -standing.tiebreak)

    # ------------------------------------------------------------------ line mode

    def table(self, view: Any) -> list[str]:
        v = _view(view)
        brief, self.revealed = self.revealed and v.phase == "followup", False
        if brief:  # (the cards revealed were just shown: the seats and the hand are new)
            return [*render.render_seats(v, self.labels, name=self.seating.name),
                    *render.render_hand(v)]
        return render.render_view(v, self.labels, name=self.seating.name)

    def choices_head(self, view: Any) -> str:
        followup = _view(view).phase == "followup"
        return "Follow-up for your crystal ball: " if followup else "Choose: "

    def prompt(self, view: Any) -> str:
        return "your follow-up> " if _view(view).phase == "followup" else "your card> "

    def knowledge(self, view: Any) -> list[str]:
        return render.render_torch(_view(view))

    def action_news(self, seat: int, text: str) -> list[str]:
        if text == LOOK:
            return [f"{self.labels[seat]} uses a torch to look at the face-down rooms."]
        return []

    def applied(self, seat: int, text: str, before: Any, after: Any) -> list[str]:
        lines = super().applied(seat, text, before, after)
        if (self.variant == "tactical" and text != LOOK and seat != self.me
                and text.startswith("play ")):
            verb = "follows up with" if _view(before).phase == "followup" else "plays"
            lines.append(f"{self.labels[seat]} {verb} {render.card_text(text[5:])}.")
        if (self.variant == "basic" and _view(before).phase == "play"
                and _view(after).phase == "followup" and self.me is not None):
            lines += render.render_reveal(_view(after), self.labels)
            self.revealed = True
        return lines

    def news(self, view: Any) -> list[str]:
        res = _view(view).last
        if res is None or (res.level, res.position) == self.last_shown:
            return []
        self.last_shown = (res.level, res.position)
        return render.render_resolution(res, self.labels)

    def chapter(self, view: Any) -> list[str]:
        # Once the level's face-up rooms are dealt: at the level card, the row is all blanks.
        v = _view(view)
        if not v.level or v.level == self.level_shown or v.phase in DEALING:
            return []
        self.level_shown = v.level
        lines = [f"=== Level {v.level} of {LEVELS} " + "=" * 60]
        if self.me is None:
            lines += render.render_row(v, torch=False)
        return lines

    def scoreboard(self, view: Any, outcome: Outcome,
                   bots: Mapping[int, Sequence[tuple[str, str]]]) -> list[str]:
        return render.render_scoreboard(_view(view), outcome, self.labels,
                                        name=self.seating.name, bots=bots)

    def narrate(self, before: GameState[Any], entry: Entry | None,
                after: GameState[Any]) -> list[str]:
        b, a = _view(before.spectator_view()), _view(after.spectator_view())
        labels = self.labels
        lines: list[str] = []
        watching = self.me is None  # (a seat's own table shows the row and the totals)
        if isinstance(entry, ChanceResolved):
            lines += self._chance(entry, b, a)
        elif isinstance(entry, Acted):
            who, one = subject([entry.seat], labels)
            if entry.action == LOOK:
                lines.append(f"{who} {verb('use', one)} a torch to look at the face-down "
                             "rooms.")
            elif entry.action.startswith("play ") and a.last == b.last:
                did = "follow up with" if b.phase == "followup" else "play"
                lines.append(f"{who} {verb(did, one)} {render.card_text(entry.action[5:])}.")
        elif isinstance(entry, JointActed) and a.phase == "followup" and a.last == b.last:
            lines += render.render_reveal(a, labels)
        if a.last is not None and a.last != b.last:
            lines += render.render_resolution(a.last, labels)
            if watching:
                lines += render.render_totals(a, labels)
        if watching and a.level and a.phase not in DEALING and (
                b.phase in DEALING or b.level != a.level):
            lines += render.render_row(a, torch=False)
        return [line[:1].upper() + line[1:] for line in lines]

    def _chance(self, entry: ChanceResolved, b: RaidersView, a: RaidersView) -> list[str]:
        event = entry.event
        if event.startswith("setup.character."):
            seat = int(event.rsplit(".", 1)[1])
            return [f"{self.labels[seat]}: the {render.character_name(a.seats[seat].character)}."]
        if event == "setup.map":
            return [f"{self.labels[a.map]} holds the map: the first to play."]
        if event.endswith(".level"):
            ups = [str(r.position) for r in a.row if r.state == "up" or (
                r.state != "down" and not r.card)]
            downs = [str(r.position) for r in a.row if r.state == "down"]
            return ["", f"=== Level {a.level} of {LEVELS} " + "=" * 60,
                    f"Level card {a.layout}: {'room' if len(ups) == 1 else 'rooms'} "
                    f"{join_words(ups)} face up"
                    + (f"; {join_words(downs)} face down." if downs else ".")]
        position = int(event.rsplit("R", 1)[1])
        card = a.row[position - 1].card
        turned = b.row[position - 1].state == "down"
        if not card:
            return []
        what = "the boss" if position == 5 and a.level == LEVELS else f"room {position}"
        if turned:
            return [f"{what[:1].upper() + what[1:]} is turned face up: {room_name(card)}."]
        return [f"{what[:1].upper() + what[1:]} (face up): {room_name(card)}."]

    def pause_after(self, before: GameState[Any], after: GameState[Any]) -> bool:
        b, a = _view(before.spectator_view()), _view(after.spectator_view())
        return (a.last is not None and a.last != b.last) or a.phase == "over"

    # ------------------------------------------------------------------ full screen

    def title(self, view: Any, width: int) -> list[StyledLine]:
        v = _view(view)
        if not v.level:
            return []
        head = f" Level {v.level}/{LEVELS} "
        rows: list[StyledLine] = [[("class:title", head)]]
        used = len(head)
        for room in v.row:
            if room.state == "down":
                text = "[ ? ]" + (f" (torch: {room_name(room.peeked)})" if room.peeked else "")
                style = "class:room.dark"
            elif not room.card:
                text, style = "[   ]", "class:room.dark"
            else:
                text = room_name(room.card)
                style = {"current": "class:room.current", "done": "class:room.done"}.get(
                    room.state, "")
            sep = " | " if room.position > 1 else " "
            cell = f"{room.position} {text}"
            if room.position > 1 and used + len(sep) + len(cell) > width:
                # (A cell is never split: the row ends with the separator, as the line-mode
                # row does, and the next starts under the first cell.)
                rows[-1].append(("", " |"))
                rows.append([("", " " * (len(head) + 1))])
                used, sep = len(head) + 1, ""
            rows[-1] += [("", sep), ("", f"{room.position} "), (style, text)]
            used += len(sep) + len(cell)
        return rows

    def board(self, view: Any, frame: Frame) -> list[StyledLine]:
        v = _view(view)
        if not v.level or v.phase in DEALING:
            return [plain(f" Level {max(1, v.level)}: dealing the rooms (every seat "
                          "contributes a secret to each)...")]
        lines: list[StyledLine] = [plain(f" Room {v.room} of 5. "
                                         + render.render_supply(v) + ".")]
        described = render.render_room(v)
        if described:
            lines.append(plain(" " + " ".join(described)))
        seats = render.render_seats(v, self.labels, name=self.seating.name,
                                    now_of=self._now_of(v, frame.live))
        lines.append(plain(seats[0], "class:dim"))
        for sv, text in zip(v.seats, seats[1:], strict=True):
            lines.append(plain(text, "class:you" if sv.seat == self.me else ""))
        if frame.human:
            hand = [line for line in render.render_hand(v)
                    if not line.startswith("You have chosen")]
            lines += [plain(line, "class:you") for line in hand]
        return lines

    def _now_of(self, view: RaidersView, live: Live) -> dict[int, str]:
        """The seats' "now" column where the client knows more than the view."""
        out: dict[int, str] = {}
        for sv in view.seats:
            text = ""
            if sv.status in ("choosing", "committed"):
                if live.locked(sv.seat) or sv.status == "committed":
                    text = "locked in"
                elif live.overdue(sv.seat):
                    text = "away (overdue)"
                elif live.thinking(sv.seat):
                    text = "thinking"
                else:
                    text = render.seat_now(sv)
            if live.bot(sv.seat):
                text = "a bot" + (f": {text}" if text else " plays it")
            if text:
                out[sv.seat] = text
        return out

    def move_note(self, view: Any) -> str:
        if _view(view).phase == "followup":
            return ", the follow-up to your crystal ball"
        return ""

    def inputs(self, state: GameState[Any], seat: int) -> InputModel:
        return KeyChoice(KEYS)


__all__ = ["KEYS", "RaidersUI"]
