"""Golden screens: whole line-mode screens compared byte for byte with tests/cli/golden/*.txt.

tests/cli/test_render.py checks fragments of the render functions; here every case renders a
complete screen, the way a player reads it, and the text must equal its golden file exactly.
The screens come from the real line-mode code: :class:`cli.netplay.NetGame` (what
``cryptcrawl play --plain`` and the line mode of ``host`` and ``join`` print, driven below
over an engine state instead of a match peer), :class:`cli.play.OfflineGame` (``cryptcrawl
play --deal-seed``), each through the Raiders plug-in (:mod:`cli.games.raiders`), and the pure
functions of :mod:`cli.games.raiders.render`.  Every position is built
deterministically: scripted deals and ``from_position`` positions with scripted cards, or
whole games whose chance events come from a seeded :class:`engine.sim.Dealer` and whose every
seat is a :class:`RandomBot` keyed from a fixed seed (those also change when the engine's
rules, the bots or the dealer change).

Regenerate the files after an intended change of what is shown::

    CRYPTCRAWL_UPDATE_GOLDEN=1 python -m pytest -q tests/cli/games/raiders/test_golden.py \
        -p no:cacheprovider

With ``CRYPTCRAWL_UPDATE_GOLDEN=1`` each case writes its file instead of comparing; then read
every changed screen (``git diff tests/cli/golden/``) before committing it.  Without the
variable a missing file is a failure, and a different one fails with a unified diff.
"""

from __future__ import annotations

import difflib
import io
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from cli.games.raiders import render
from cli.games.raiders.ui import RaidersUI
from cli.netplay import NetGame, NetOptions
from cli.play import Console, GameOptions, OfflineGame
from cli.story import Story
from engine.core import Chance, ChanceEvent, Over, Simultaneous, Turn
from engine.games import get_game
from engine.raiders import RaidersState, RaidersView, from_position, new_game
from engine.raiders.bots import RandomBot
from engine.raiders.cards import BOSSES, MONSTERS, TRAPS, TREASURES, VAULTS
from engine.sim import Dealer, bot_key
from p2p.peer import MatchPeer
from protocol.match.core import (
    ActionTaken,
    ChanceResolved,
    PlayRevealed,
    PrivateKnowledge,
    SeatReplaced,
)

GOLDEN_DIR = Path(__file__).parent / "golden"
UPDATE_ENV = "CRYPTCRAWL_UPDATE_GOLDEN"
HOW = (f"if the change is intended, regenerate with {UPDATE_ENV}=1 python -m pytest "
       "tests/cli/games/raiders/test_golden.py and read the changed screens before "
       "committing them")
MATCH_FILE = Path("5d2c0a1e9f8b7a64.crawl")  # what the end screen names as the match file


# --------------------------------------------------------------------------- comparing


def _diff(expected: str, actual: str, path: Path) -> str:
    lines = difflib.unified_diff(expected.splitlines(keepends=True),
                                 actual.splitlines(keepends=True),
                                 fromfile=f"{path} (golden)", tofile=f"{path.name} (rendered now)")
    out = []
    for line in lines:
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def check_golden(name: str, text: str) -> None:
    """Compare ``text`` with golden/<name>.txt byte for byte (or write it, see the docstring)."""
    path = GOLDEN_DIR / f"{name}.txt"
    actual = text.encode("utf-8")
    if os.environ.get(UPDATE_ENV) == "1":
        GOLDEN_DIR.mkdir(exist_ok=True)
        if not path.exists() or path.read_bytes() != actual:
            path.write_bytes(actual)
        return
    if not path.exists():
        pytest.fail(f"{path} is missing; {HOW}\n" + _diff("", text, path), pytrace=False)
    expected = path.read_bytes()
    if expected == actual:
        return
    diff = _diff(expected.decode("utf-8", errors="replace"), text, path)
    if not diff:  # only bytes a text diff cannot show (a line ending, an encoding)
        diff = f"golden tail: {expected[-80:]!r}\nrendered tail: {actual[-80:]!r}\n"
    pytest.fail(f"{name}: the screen differs from {path}; {HOW}\n{diff}", pytrace=False)


# --------------------------------------------------------------------------- driving NetGame


class _NoPeer:
    """Stands where NetGame keeps its match peer: never used (``seat`` and ``view`` are
    answered by :class:`ScriptedTable`), only not None so that events are shown; its seat is
    not held for a person who is away (``local.hold_reclaim``)."""

    local = SimpleNamespace(hold_reclaim=False)


class ScriptedTable(NetGame):
    """cli.netplay's line mode over an engine state this test drives, in place of a peer.

    The engine state, the chance answers (``deal`` by event id, the rest from a seeded dealer)
    and every seat's card are the test's; what is printed is NetGame's own: its decision screen
    and prompt (fed the typed lines), its handling of events (resolutions, level headers, what
    a torch showed) and its end screen.  (It calls NetGame's ``_choose_blocking``, ``on_event``
    and ``finish`` and sets ``labels``, ``level_shown`` and ``peer``: a rename there shows up
    here first.)
    """

    def __init__(self, state: RaidersState, names: Sequence[str], *, me: int | None = 0,
                 deal: Mapping[str, str] | None = None, seed: bytes = b"golden",
                 new_level: bool = True) -> None:
        self.output = io.StringIO()
        players = len(names)
        name = names[me] if me is not None else ""
        super().__init__(NetOptions(players=players, bots=players if me is None else players - 1,
                                    name=name),
                         Console(io.StringIO(), self.output))
        self.state = state
        self.me = 0 if me is None else me
        self.peer = cast(MatchPeer, _NoPeer())
        self.seat_table("raiders", {"variant": state.view(0).variant}, list(names), self.me)
        self.deal = dict(deal or {})
        self.dealer = Dealer(seed)
        self.seed = seed
        self.attempts: dict[tuple[str, int], int] = {}
        if not new_level:  # a position in the middle of a level: no level header
            raiders = self.ui
            assert isinstance(raiders, RaidersUI)
            raiders.level_shown = self.view().level
        # What NetGame's story follows in place of a match core: the public states and the
        # events, as the protocol reports them (cli/story.py).
        self.core = SimpleNamespace(state=state.public(), events=[], state_observers=[])
        self.story = Story(self.core, self.plugin)
        self.settle()

    def _changed(self, before: RaidersState, event: Any) -> None:
        """The protocol's report of a change: the event, the new public state (a chance
        outcome is reported after its state, as the match core does), then the news."""
        if not isinstance(event, ChanceResolved):
            self.core.events.append(event)
        if self.state.public() != before.public():
            for observe in self.core.state_observers:
                observe(self.state.public())
        if isinstance(event, ChanceResolved):
            self.core.events.append(event)
        self.on_event(event)

    # NetGame reads these from its peer.
    @property
    def seat(self) -> int:
        return self.me

    def view(self) -> RaidersView:
        view = self.state.view(self.me)
        assert isinstance(view, RaidersView)
        return view

    def text(self) -> str:
        return self.output.getvalue()

    # ------------------------------------------------------------------ the table

    def _chance(self, event: ChanceEvent) -> str:
        wanted = self.deal.get(event.id)
        if wanted is None:
            return self.dealer.choose(event)
        assert wanted in event.outcomes, (event.id, wanted)
        return wanted

    def settle(self) -> None:
        """Answer chance events and serve torches until a seat must decide (or the end)."""
        while True:
            for request in self.state.knowledge_requests():
                preview = self.state.preview_hidden(self._chance)
                seen = {event: preview[event] for event in request.events}
                self.state = self.state.learn(request.seat, seen)
                if request.seat == self.me:
                    self.on_event(PrivateKnowledge(request.seat, "torch",
                                                   tuple(sorted(seen.items()))))
            waiting = self.state.waiting
            if not isinstance(waiting, Chance):
                return
            event = waiting.event
            outcome = self._chance(event)
            before = self.state
            self.state = self.state.apply_chance(event.id, outcome)
            self._changed(before, ChanceResolved(event.id, outcome))

    def report(self, event: Any) -> None:
        """An event of the protocol that changes no state (a seat replaced)."""
        self.core.events.append(event)
        self.on_event(event)

    def _apply(self, seat: int, text: str, *, zombie: bool = False) -> None:
        step = self.state.step
        before = self.state
        action = self.state.parse_action(seat, text)
        self.state = self.state.apply(seat, action)
        free = get_game("raiders").free_action(before, seat, action)
        self._changed(before, PlayRevealed(step, seat, text) if isinstance(
            before.waiting, Simultaneous) and not free and not zombie
            else ActionTaken(step, seat, text, zombie=zombie))
        self.settle()

    def you(self, *typed: str) -> None:
        """The person at this terminal decides: the screen, the prompt, the typed lines (the
        last one must be accepted)."""
        self.console.inp = io.StringIO("".join(line + "\n" for line in typed))
        text = self._choose_blocking(self.state, self.me)
        assert self.console.inp.read() == "", "typed lines left over: the script is wrong"
        self._apply(self.me, text)

    def random_choice(self, seat: int, seed: bytes) -> str:
        """A random bot's legal choice for ``seat``, keyed by the step and the attempt."""
        step = self.state.step
        attempt = self.attempts.get((step, seat), 0)
        self.attempts[(step, seat)] = attempt + 1
        action = RandomBot().choose(self.state.view(seat), bot_key(seed, step, seat, attempt))
        return self.state.format_action(action)

    def bot(self, seat: int, text: str = "", *, zombie: bool = False) -> None:
        """Another seat decides: ``text`` or a random bot's legal choice (``zombie``: the bot
        every peer plays for a replaced seat)."""
        self._apply(seat, text or self.random_choice(seat, self.seed), zombie=zombie)

    def pending(self) -> list[int]:
        waiting = self.state.waiting
        if isinstance(waiting, Simultaneous):
            return sorted(waiting.pending)
        if isinstance(waiting, Turn):
            return [waiting.seat]
        return []

    def play_room(self) -> None:
        """Every seat decides the current room by a random bot's choice, in seat order; the
        person at this terminal (if any) types it at the prompt."""
        level, room = self.state.level, self.state.room
        while self.pending() and (self.state.level, self.state.room) == (level, room):
            seat = self.pending()[0]
            if seat == self.me and self.human:
                self.you(self.random_choice(seat, self.seed + b"/you"))
            else:
                self.bot(seat)

    def to_the_end(self) -> None:
        while not isinstance(self.state.waiting, Over):
            self.play_room()
        self.finish(self.state, MATCH_FILE)


# --------------------------------------------------------------------------- positions


def seats(*rows: tuple[str, int, int, dict[str, int], list[int]]) -> list[dict[str, Any]]:
    """Seats of a position: (character, coins, wounds, items, used power cards)."""
    return [{"character": c, "coins": coins, "wounds": wounds, "items": items, "used": used}
            for c, coins, wounds, items, used in rows]


NAMES3 = ("Ana", "Bot 1", "Bot 2")
NAMES4 = ("Ana", "Bot 1", "Bot 2", "Bot 3")
NAMES5 = ("Ana", "Bot 1", "Bot 2", "Bot 3", "Bot 4")


def case_start_3p() -> str:
    """The start of a 3-player match: a monster in room 1, the others have chosen; then the
    fight and the next room."""
    deal = {"setup.character.0": "warrior", "setup.character.1": "thief",
            "setup.character.2": "wizard", "L1.level": "L5", "L1.R1": "goblin#1",
            "L1.R2": "treasure-3-2#1"}
    table = ScriptedTable(new_game(3), NAMES3, deal=deal)
    table.bot(1, "play 4")
    table.bot(2, "play 2")
    table.you("play 3")
    table.you("play 5")
    return table.text()


def case_start_5p() -> str:
    """The start of a 5-player match, seen from seat C (a player who joined a table): a treasure
    room, a card typed that is not in the hand, a key; then a room turned face up."""
    deal = {"setup.character.0": "explorer", "setup.character.1": "wizard",
            "setup.character.2": "thief", "setup.character.3": "knight",
            "setup.character.4": "warrior", "L1.level": "L7", "L1.R1": "treasure-4-2#1",
            "L1.R5": "magnetic", "L1.R2": "troll#2"}
    names = ("Dana", "Bot 1", "Ana", "Bot 2", "Eli")
    table = ScriptedTable(new_game(5), names, me=2, deal=deal)
    table.bot(0, "play 5")
    table.bot(1, "play 4")
    table.you("play sword", "play key")
    table.bot(3, "play 5")
    table.bot(4, "play 2")
    table.you("play 1")
    return table.text()


def case_monster_crystal_ball() -> str:
    """A monster in the middle of level 3: you play a crystal ball, see the others' cards and
    follow up."""
    state = from_position({
        "players": 4, "phase": "play", "level": 3, "room": 2, "layout": "L2",
        "row": ["treasure-2", "troll#1", "down", "vault-coins#1", "down"],
        "seats": seats(("wizard", 4, 2, {"crystal": 2}, [3]),
                       ("warrior", 6, 1, {}, [5]),
                       ("knight", 3, 3, {"sword": 1}, [1]),
                       ("explorer", 7, 4, {"torch": 1}, [2]))})
    table = ScriptedTable(state, NAMES4, new_level=False)
    table.bot(1, "play 4")
    table.you("play crystal")
    table.bot(2, "play sword")
    table.bot(3, "play 5")
    table.you("play 2")
    return table.text()


def case_vault() -> str:
    """An items vault with one torch left in the supply, asked for twice; a bot's crystal ball."""
    state = from_position({
        "players": 4, "phase": "play", "level": 2, "room": 3, "layout": "L6",
        "row": ["zombie#1", "treasure-3", "vault-items#2", "lava", "down"],
        "seats": seats(("warrior", 5, 1, {}, [2, 4]),
                       ("wizard", 3, 2, {"crystal": 1}, [3, 5]),
                       ("thief", 7, 2, {"key": 1, "torch": 2}, [3, 4]),
                       ("knight", 2, 0, {"sword": 1, "torch": 3}, [2, 5]))})
    table = ScriptedTable(state, NAMES4, new_level=False)
    table.you("play 4", "play 3")
    table.bot(1, "play crystal")
    table.bot(2, "play 1")
    table.bot(3, "play 1")
    table.bot(1, "play 4")
    return table.text()


def case_trap() -> str:
    """A spike trap late in the game: the highest card hurts those with the fewest wounds."""
    state = from_position({
        "players": 3, "phase": "play", "level": 4, "room": 4, "layout": "L4",
        "row": ["zombie#1", "treasure-2-1#1", "snake", "spikes", "treasure-4"],
        "seats": seats(("thief", 9, 1, {"key": 1}, [1, 2, 5]),
                       ("knight", 6, 1, {"sword": 2}, [3, 4, 5]),
                       ("explorer", 11, 4, {"torch": 1}, [1, 3, 4]))})
    table = ScriptedTable(state, NAMES3, new_level=False)
    table.bot(1, "play 2")
    table.bot(2, "play torch")
    table.you("play 4")
    return table.text()


def case_boss_and_scoreboard() -> str:
    """The last room of a 5-player match, the Wolf Pack: you escape with a torch; the end
    screen with a fainted seat and a winner."""
    state = from_position({
        "players": 5, "phase": "play", "level": 5, "room": 5, "layout": "L3",
        "row": ["goblin#1", "treasure-3", "vault-items#1", "lava", "wolf_pack"],
        "seats": seats(("explorer", 12, 3, {"torch": 1}, [1, 2, 3, 5]),
                       ("wizard", 14, 7, {"crystal": 1}, [1, 2, 4, 5]),
                       ("thief", 9, 2, {"key": 1}, [2, 3, 4, 5]),
                       ("knight", 13, 4, {"sword": 1}, [1, 2, 3, 4]),
                       ("warrior", 11, 5, {}, [1, 3, 4, 5]))})
    table = ScriptedTable(state, NAMES5, new_level=False)
    table.bot(1, "play 3")
    table.bot(2, "play 1")
    table.bot(3, "play sword")
    table.bot(4, "play 2")
    table.you("play torch")
    assert isinstance(table.state.waiting, Over)
    table.finish(table.state, MATCH_FILE)
    return table.text()


def case_bot_played_your_seat() -> str:
    """Your seat was voted absent in level 5 and a bot played it to a win: the result says so
    (a bot's win is not credited to you), and from which room."""
    state = from_position({
        "players": 3, "phase": "play", "level": 5, "room": 4, "layout": "L3",
        "row": ["goblin#1", "treasure-3", "vault-items#1", "treasure-4", "down"],
        "seats": seats(("explorer", 17, 2, {"torch": 1}, [1, 2, 3]),
                       ("wizard", 9, 3, {"crystal": 1}, [1, 2, 4]),
                       ("thief", 8, 2, {"key": 1}, [2, 3, 4]))})
    table = ScriptedTable(state, NAMES3, new_level=False)
    table.bot(1, "play 5")
    table.bot(2, "play 1")
    table.report(SeatReplaced(0, 40, "absent: silent past the timeouts"))
    table.bot(0, "play 4", zombie=True)
    while not isinstance(table.state.waiting, Over):
        for seat in table.pending():
            table.bot(seat)
    table.finish(table.state, MATCH_FILE)
    return table.text()


def case_medusa_everyone_eliminated() -> str:
    """The Medusa, everyone on the same card: everyone is eliminated and nobody wins."""
    state = from_position({
        "players": 3, "phase": "play", "level": 5, "room": 5, "layout": "L5",
        "row": ["skeleton", "treasure-2", "spikes", "vault-coins#2", "medusa"],
        "seats": seats(("warrior", 8, 2, {}, [2, 3, 4, 5]),
                       ("wizard", 10, 3, {}, [2, 3, 4, 5]),
                       ("thief", 6, 1, {}, [2, 3, 4, 5]))})
    table = ScriptedTable(state, NAMES3, new_level=False)
    table.bot(1, "play 1")
    table.bot(2, "play 1")
    table.you("play 1")
    assert isinstance(table.state.waiting, Over)
    table.finish(table.state, MATCH_FILE)
    return table.text()


def case_torch() -> str:
    """A seat that used its torch: what it showed, then the row with the peeked rooms (only
    this seat sees them) and the choice again."""
    deal = {"setup.character.0": "explorer", "setup.character.1": "wizard",
            "setup.character.2": "thief", "setup.character.3": "knight", "L1.level": "L1",
            "L1.R1": "dragon#1", "L1.R3": "treasure-4-2#1", "L1.R2": "troll#1",
            "L1.R4": "vault-items#1", "L1.R5": "lava"}
    table = ScriptedTable(new_game(4), NAMES4, deal=deal)
    table.bot(2, "play 3")
    table.you("torch")
    table.you("play 5")
    return table.text()


def case_spectator() -> str:
    """An all-bot match watched from the host's terminal: the rows never show what a torch
    showed (seat A peeks in level 1), and each level's row is printed once its face-up rooms
    are dealt."""
    deal = {"setup.character.0": "explorer", "setup.character.1": "knight",
            "setup.character.2": "wizard", "L1.level": "L2", "L1.R1": "zombie#2",
            "L1.R4": "treasure-2-1#2", "L1.R2": "vault-coins#1", "L1.R3": "boulder",
            "L1.R5": "thing", "L2.level": "L4"}
    # The host's bot is "Bot 0" (no --name), as in `cryptcrawl play --bots 3`.
    table = ScriptedTable(new_game(3), ("Bot 0", "Bot 1", "Bot 2"), me=None, deal=deal)
    table.bot(0, "torch")
    while table.state.level == 1:
        table.play_room()
    return table.text()


def case_whole_match_4p() -> str:
    """A whole 4-player match as NetGame prints it for seat A, every seat a random bot (your
    cards typed at the prompt), to the end screen."""
    table = ScriptedTable(new_game(4, "basic"), NAMES4, seed=b"cryptcrawl/golden/match-4p")
    table.to_the_end()
    return table.text()


class _TypingConsole(Console):
    """The console of an OfflineGame whose person types what a random bot picks for seat A
    (echoed after the prompt, as piped input is)."""

    def __init__(self, out: io.StringIO) -> None:
        super().__init__(io.StringIO(), out)
        self.game: OfflineGame | None = None
        self.attempts: dict[str, int] = {}

    def ask(self, prompt: str) -> str:
        assert self.game is not None
        state = self.game.state
        view = state.view(0)
        assert isinstance(view, RaidersView)
        attempt = self.attempts.get(view.step, 0)
        self.attempts[view.step] = attempt + 1
        action = RandomBot().choose(view, bot_key(b"golden/offline/you", view.step, 0, attempt))
        self.inp = io.StringIO(state.format_action(action) + "\n")
        return super().ask(prompt)


def case_offline_3p() -> str:
    """A whole offline game (``cryptcrawl play --deal-seed``) as cli/play.py prints it: the
    banner, the reveals, the torches, every room and the scoreboard."""
    out = io.StringIO()
    console = _TypingConsole(out)
    options = GameOptions(players=3, bots=2, bot_kind="random", bot_seed="golden-bots",
                          deal_seed="golden-deal", name="Ana")
    game = OfflineGame(options, console)
    console.game = game
    game.run()
    return out.getvalue()


def case_offline_4p_tactical_bots() -> str:
    """An unattended offline game of the tactical variant: cards played one at a time, the map
    holder in the table."""
    out = io.StringIO()
    options = GameOptions(players=4, bots=4, bot_kind="random", options=(("variant", "tactical"),),
                          bot_seed="golden-bots", deal_seed="golden-tactical")
    OfflineGame(options, Console(io.StringIO(), out)).run()
    return out.getvalue()


def case_rooms() -> str:
    """What the table says about every kind of room, for 3, 4 and 5 players."""
    kinds: list[str] = [m.kind for m, _ in MONSTERS] + [t.kind for t, _ in TREASURES]
    kinds += [v.kind for v, _ in VAULTS] + [t.kind for t, _ in TRAPS] + [b.kind for b in BOSSES]
    copies = {m.kind: n for m, n in MONSTERS} | {t.kind: n for t, n in TREASURES} | {
        v.kind: n for v, n in VAULTS}
    lines: list[str] = []
    for kind in kinds:
        card = f"{kind}#1" if copies.get(kind, 1) > 1 else kind
        texts = {players: render.describe_room(card, players) for players in (3, 4, 5)}
        if texts[3] == texts[4] == texts[5]:
            lines += [f"--- {card}, 3 to 5 players", *texts[3]]
            continue
        for players, text in texts.items():
            lines += [f"--- {card}, {players} players", *text]
    return "\n".join(lines) + "\n"


CASES: dict[str, Callable[[], str]] = {
    "start-3p": case_start_3p,
    "start-5p": case_start_5p,
    "monster-crystal-ball": case_monster_crystal_ball,
    "vault": case_vault,
    "trap": case_trap,
    "boss-and-scoreboard": case_boss_and_scoreboard,
    "medusa-everyone-eliminated": case_medusa_everyone_eliminated,
    "bot-played-your-seat": case_bot_played_your_seat,
    "torch": case_torch,
    "spectator": case_spectator,
    "whole-match-4p": case_whole_match_4p,
    "offline-3p": case_offline_3p,
    "offline-4p-tactical-bots": case_offline_4p_tactical_bots,
    "rooms": case_rooms,
}


# --------------------------------------------------------------------------- the tests


@pytest.mark.parametrize("name", list(CASES))
def test_golden_screen(name: str) -> None:
    check_golden(name, CASES[name]())


@pytest.mark.parametrize("name", list(CASES))
def test_screens_are_plain_and_fit_80_columns(name: str) -> None:
    for line in CASES[name]().splitlines():
        assert "\x1b" not in line and line.isprintable(), repr(line)
        if line.startswith(("illegal ", "unknown action ")):
            continue  # the engine's messages, shown whole on one line
        assert len(line) <= 80, line


def test_no_color_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """NO_COLOR only matters to the full-screen view; line mode has no colour to turn off, so
    the screens with NO_COLOR set (on a colour terminal) are the golden ones, unchanged."""
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.delenv(UPDATE_ENV, raising=False)
    for name in ("start-3p", "torch", "boss-and-scoreboard"):
        check_golden(name, CASES[name]())


FRAMES = ("full-screen-80x24", "full-screen-120x40", "full-screen-end-80x24")


def test_every_golden_file_has_a_case() -> None:
    stray = sorted(p.name for p in GOLDEN_DIR.glob("*.txt")
                   if p.stem not in CASES and p.stem not in FRAMES)
    assert not stray, f"golden files without a case (delete them): {stray}"


def test_a_changed_screen_fails_with_a_diff(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison itself: one changed character fails with a unified diff; a missing file
    fails (never skips); the update variable writes the file."""
    monkeypatch.setattr(f"{__name__}.GOLDEN_DIR", tmp_path)
    monkeypatch.delenv(UPDATE_ENV, raising=False)
    with pytest.raises(pytest.fail.Exception) as missing:
        check_golden("x", "Level 1 of 5\n")
    assert "x.txt is missing" in str(missing.value) and "+Level 1 of 5" in str(missing.value)
    monkeypatch.setenv(UPDATE_ENV, "1")
    check_golden("x", "Level 1 of 5\nRoom 1 of 5.\n")
    assert (tmp_path / "x.txt").read_bytes() == b"Level 1 of 5\nRoom 1 of 5.\n"
    monkeypatch.delenv(UPDATE_ENV)
    check_golden("x", "Level 1 of 5\nRoom 1 of 5.\n")
    with pytest.raises(pytest.fail.Exception) as changed:
        check_golden("x", "Level 1 of 5\nRoom 2 of 5.\n")
    message = str(changed.value)
    assert "--- " in message and "+++ " in message and "@@ " in message
    assert "-Room 1 of 5.\n+Room 2 of 5.\n" in message
    with pytest.raises(pytest.fail.Exception) as ending:
        check_golden("x", "Level 1 of 5\nRoom 1 of 5.")
    assert "No newline at end of file" in str(ending.value)


# --------------------------------------------------------------------------- full-screen frames


class _Local:
    def __init__(self, table: ScriptedTable) -> None:
        self.table = table
        self.hold_reclaim = False

    def decision_state(self) -> RaidersState:
        return self.table.state


class _Agreements:
    paused = False  # (no pause agreed: protocol.md §7.7)


class _Core:
    """What the full screen reads of the match core: the timeout each seat is owed under, and
    whether a pause is agreed."""

    agreements = _Agreements()

    def turn_timeout(self, seat: int) -> float:
        return 90.0  # (a normal decision at the normal speed)


class _ScreenPeer:
    """What the full screen reads of its match peer: the seat, the state it decides on, and
    the core's timeouts (for its clock)."""

    def __init__(self, table: ScriptedTable, seat: int) -> None:
        self.seat = seat
        self.local = _Local(table)
        self.core = _Core()


def full_screen_frame(columns: int, lines: int, *, end: bool = False) -> str:
    # (The decision's clock reads time.monotonic(): the test stops it, see below.)
    """The full screen (cli/tui.py on cli/screen.py) of a 4-player match in level 3, as rows of
    text at ``columns`` x ``lines``: a seat locked in, one away, one played by a bot, the log
    of the rooms before; or the end screen."""
    from cli.tui import FullScreenGame
    from protocol.match.core import PlayCommitted, SeatsOverdue

    state = from_position({
        "players": 4, "phase": "play", "level": 3, "room": 2, "layout": "L2",
        "row": ["treasure-2", "troll#1", "down", "vault-coins#1", "down"],
        "seats": seats(("wizard", 4, 2, {"crystal": 2}, [3]),
                       ("warrior", 6, 1, {}, [5]),
                       ("knight", 3, 3, {"sword": 1}, [1]),
                       ("explorer", 7, 4, {"torch": 1}, [2]))})
    table = ScriptedTable(state, NAMES4, new_level=False)
    game = FullScreenGame(NetOptions(players=4, bots=3, name="Ana", bell=False),
                          Console(io.StringIO(), io.StringIO()))
    game.peer = cast(MatchPeer, _ScreenPeer(table, 0))
    game.seat_table("raiders", {"variant": "basic"}, list(NAMES4), 0)
    for line in table.text().splitlines():
        game.say(line)
    game.say(*(f"Room {r}, Treasure 2: you {r}, Bot 1 5, Bot 2 4, Bot 3 3" for r in range(1, 9)))
    step = str(getattr(state.waiting, "step", ""))
    for event in (PlayCommitted(step, 1), SeatsOverdue((3,), step, 0.0),
                  SeatReplaced(2, 30, "absent: silent past the timeouts"),
                  ActionTaken(step.replace("R2", "R1"), 2, "play 1", zombie=True)):
        game.watch.on_event(event)
    if end:
        while not isinstance(table.state.waiting, Over):
            for seat in table.pending():
                table.bot(seat)
        game.finish(table.state, MATCH_FILE)
    rows = game.screen.lines(columns, lines)
    return "".join("".join(text for _, text in row).rstrip() + "\n" for row in rows)


def test_full_screen_frames_are_golden(monkeypatch: pytest.MonkeyPatch) -> None:
    import cli.tui

    monkeypatch.setattr(cli.tui, "time", SimpleNamespace(monotonic=lambda: 1000.0))
    for columns, lines in ((80, 24), (120, 40)):
        frame = full_screen_frame(columns, lines)
        assert len(frame.splitlines()) == lines
        assert all(len(row) <= columns for row in frame.splitlines())
        check_golden(f"full-screen-{columns}x{lines}", frame)
    check_golden("full-screen-end-80x24", full_screen_frame(80, 24, end=True))
