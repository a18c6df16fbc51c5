"""Pure rendering of Dungeon Raiders views: the plug-in's lines, for line mode and full screen.

Every function here takes engine values (a :class:`~engine.raiders.view.RaidersView`, a
:class:`~engine.raiders.resolve.Resolution`, an :class:`~engine.core.Outcome`) and returns lines
of plain text: no I/O, no colour, no rules.  Lines stay within 80 columns where the content
allows (long rows wrap between rooms).

Seats are named by ``labels``: ``labels[seat]`` is what the text calls that seat, "you" for the
person at this terminal and a seat letter ("B", "C", ...) for everyone else (see
:func:`cli.text.seat_labels`).  The tables also show the seat letter, and the player's own
name if given.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from cli.text import (
    YOU,
    join_words,
    plural,
    seat_name,
    wrap_items,
    wrap_text,
)
from cli.text import bot_notes as text_bot_notes
from cli.text import subject as _subject
from cli.text import verb as _verb
from engine.core import Outcome
from engine.raiders.cards import (
    CARDS,
    CHARACTER_BY_KIND,
    ITEMS,
    LEVELS,
    ROOMS_PER_LEVEL,
    Benefit,
    Boss,
    Monster,
    Trap,
    Treasure,
    Vault,
    room_name,
)
from engine.raiders.resolve import Resolution
from engine.raiders.view import RaidersView, RoomView, SeatView

FACE_DOWN = "[  ?  ]"
NOT_DEALT = "[     ]"

_ITEM_WORDS = {"torch": "torch", "crystal": "crystal ball", "key": "key", "sword": "sword"}


# --------------------------------------------------------------------------- small words


def card_text(card: str) -> str:
    """A card from a hand as players say it: "4", "torch", "crystal ball", "key", "sword"."""
    return _ITEM_WORDS.get(card, card) if card else "-"


def character_name(kind: str) -> str:
    character = CHARACTER_BY_KIND.get(kind)
    return character.name if character is not None else (kind or "-")


# --------------------------------------------------------------------------- the level row


def room_cell(room: RoomView, *, torch: bool = True) -> str:
    """One room of the row: ``2 Dragon``, ``3 > Dragon <``, ``4 [  ?  ] (torch: Troll)``."""
    if room.state == "done":
        text = f"{room_name(room.card)} (done)"
    elif room.state == "current":
        text = f"> {room_name(room.card)} <"
    elif room.state == "up":
        text = room_name(room.card)
    elif room.state == "down":
        text = FACE_DOWN
        if torch and room.peeked:
            text += f" (torch: {room_name(room.peeked)})"
    else:
        text = NOT_DEALT
    return f"{room.position} {text}"


def render_row(view: RaidersView, *, torch: bool = True) -> list[str]:
    """The level row of five rooms; ``torch=False`` hides what the viewer's torch showed (for a
    spectator of an all-bot game)."""
    head = f"Level {view.level} of {LEVELS}: "
    return wrap_items([room_cell(r, torch=torch) for r in view.row], first=head,
                      indent=" " * len(head), sep=" | ")


# --------------------------------------------------------------------------- the current room


def benefit_text(benefit: Benefit) -> str:
    if benefit.item is not None:
        return _ITEM_WORDS[ITEMS[benefit.item]]
    if benefit.coins:
        return f"+{plural(benefit.coins, 'coin')}"
    return f"heal {plural(benefit.heal, 'wound')}"


def _attack_words(wounds: int, coins: int, eliminates: bool) -> str:
    parts = []
    if eliminates:
        parts.append("is eliminated")
    if wounds:
        parts.append(f"takes {plural(wounds, 'wound')}")
    if coins:
        parts.append(f"loses {plural(coins, 'coin')}")
    return join_words(parts) or "is unharmed"


def describe_room(card: str, players: int) -> list[str]:
    """The facts that matter about a room card for a game of ``players``, in plain words."""
    data = CARDS[card].data
    name = room_name(card)
    if isinstance(data, Monster):
        strength = data.strength[players - 3]
        text = (f"{name}: monster, strength {strength} with {players} players. If the cards "
                f"add up to less, the lowest card takes {plural(data.wounds, 'wound')} "
                f"(all tied on it). A sword counts 5, a torch 0.")
    elif isinstance(data, Treasure):
        text = f"{name}: the highest card takes the {data.big}-coin chest"
        if data.second:
            text += f", the next lower card the {data.second}-coin chest"
        text += ". Ties split a chest, rounded down; a key counts 5, a torch gets nothing."
    elif isinstance(data, Vault):
        picks = ", ".join(f"{v}: {benefit_text(b)}" for v, b in enumerate(data.benefits, 1))
        text = f"{name}: your card's value picks what you get: {picks}."
        if any(b.item is not None for b in data.benefits):
            text += (" If more players ask for an item than the supply holds, none of them "
                     "gets it.")
    elif isinstance(data, Trap):
        unit = "coin" if data.target == "coins" else "wound"
        sign = "-" if data.target == "coins" else "+"
        steps = ", ".join(f"{h}: {sign}{plural(p, unit)}"
                          for h in range(len(data.penalty) - 1, 0, -1)
                          if (p := data.penalty[h]))
        who = "most coins" if data.target == "coins" else "fewest wounds"
        text = (f"{name}: by the highest card played ({steps}); it hits everyone tied on the "
                f"{who}. A torch counts 0.")
    else:
        assert isinstance(data, Boss)
        text = describe_boss(data, players)
    return wrap_text(text)


def describe_boss(boss: Boss, players: int) -> str:
    target = "highest" if boss.attacks_highest else "lowest"
    attack = _attack_words(boss.wounds, boss.coins, boss.eliminates)
    if boss.strength is None:
        text = (f"{boss.name}: final boss, cannot be defeated. The {target} card {attack} "
                f"(all tied on it).")
    else:
        strength = boss.strength[players - 3]
        text = (f"{boss.name}: final boss, strength {strength} with {players} players. If the "
                f"cards add up to less, the {target} card {attack} (all tied on it).")
    if boss.eliminates:
        text += " If every player is attacked, everyone loses."
    if boss.top_bonus:
        text += (f" The highest card gains {plural(boss.top_bonus, 'coin')}, whether or not "
                 f"the {boss.name} is defeated (but nobody does if it is not defeated and "
                 f"everyone played the same value).")
    if boss.escape:
        text += f" Playing a {_ITEM_WORDS[boss.escape]} escapes it."
    if boss.value_override:
        cards = join_words([f"{card_text(c)}s" for c, _ in boss.value_override])
        value = boss.value_override[0][1]
        text += f" Here {cards} count {value}."
    return text


def render_room(view: RaidersView) -> list[str]:
    """Facts about the current room ([] if no room is in play)."""
    if not 1 <= view.room <= ROOMS_PER_LEVEL:
        return []
    card = view.row[view.room - 1].card
    if not card:
        return []
    return describe_room(card, view.players)


# --------------------------------------------------------------------------- seats and hand


def _played(play: str, followup: str) -> str:
    if play == "crystal" and followup:
        return f"crystal ball then {card_text(followup)}"
    return card_text(play)


def seat_now(sv: SeatView) -> str:
    """What a seat is doing in this room, from public facts only."""
    if sv.status == "out":
        return "eliminated"
    if sv.status == "committed":
        return "has chosen"
    if sv.status == "choosing":
        if sv.play == "crystal":
            return "choosing follow-up"
        return "choosing"
    if sv.play == "crystal":
        return f"played ball then {card_text(sv.followup)}" if sv.followup else "played ball"
    if sv.play:
        return "played " + card_text(sv.play)
    return ""


def render_seats(view: RaidersView, labels: Sequence[str], *, name: str = "",
                 now_of: Mapping[int, str] | None = None) -> list[str]:
    """One line per seat: name, character, coins, wounds, items, power cards played this
    level, and what it is doing now (``now_of[seat]`` in place of what the view says, where
    the client knows more: a seat locked in, away, played by a bot)."""
    width = max(5, *(len(seat_name(s.seat, labels, name)) for s in view.seats))
    lines = [f"  {'seat':<{width}} {'character':<9} coins wounds items  played     now"]
    for sv in view.seats:
        used = " ".join(str(v) for v in sv.used) or "-"
        now = (now_of or {}).get(sv.seat) or seat_now(sv)
        if view.variant == "tactical" and sv.seat == view.map:
            now = ("map, " + now) if now else "map"
        lines.append(
            f"  {seat_name(sv.seat, labels, name):<{width}} {character_name(sv.character):<9}"
            f" {sv.coins:>5} {sv.wounds:>6} {sv.items:>5}  {used:<10} {now}".rstrip())
    return lines


def render_hand(view: RaidersView) -> list[str]:
    power = [c for c in view.hand if c.isdigit()]
    items = []
    for card in dict.fromkeys(c for c in view.hand if not c.isdigit()):
        count = view.hand.count(card)
        items.append(card_text(card) + (f" x{count}" if count > 1 else ""))
    text = "Your cards: " + (" ".join(power) if power else "no power cards")
    if items:
        text += " + " + ", ".join(items)
    lines = wrap_text(text, indent="  ")
    if view.pending:
        lines.append(f"You have chosen: {card_text(view.pending)} (hidden until everyone "
                     f"has chosen)")
    return lines


def render_supply(view: RaidersView) -> str:
    parts = [f"{_ITEM_WORDS[item]} {count}" for item, count in zip(ITEMS, view.supply,
                                                                   strict=True)]
    return "Item supply: " + ", ".join(parts)


def render_view(view: RaidersView, labels: Sequence[str], *, name: str = "") -> list[str]:
    """Everything the viewer needs to decide: row, room, seats, supply and hand."""
    lines = render_row(view)
    lines.append(f"Room {view.room} of {ROOMS_PER_LEVEL}. " + render_supply(view) + ".")
    lines.extend(render_room(view))
    lines.extend(render_seats(view, labels, name=name))
    lines.extend(render_hand(view))
    return lines


def render_torch(view: RaidersView) -> list[str]:
    """What the viewer's torch showed of the current row."""
    seen = [f"room {r.position} {room_name(r.peeked)}" for r in view.row if r.peeked]
    if not seen:
        return ["Your torch shows nothing: no room of this row is face down."]
    return wrap_text("Your torch shows: " + ", ".join(seen) + ". Only you know this.",
                     indent="  ")


def render_reveal(view: RaidersView, labels: Sequence[str]) -> list[str]:
    """The room cards just revealed (before crystal-ball follow-ups)."""
    plays = [f"{labels[s.seat]} {card_text(s.play)}" for s in view.seats if s.play]
    users = [s.seat for s in view.seats if s.play == "crystal"]
    text = "Revealed: " + ", ".join(plays) + "."
    if users:
        subject, singular = _subject(users, labels)
        text += f" Now {subject} {_verb('play', singular)} a follow-up."
    return wrap_text(text, indent="  ")


# --------------------------------------------------------------------------- resolutions


def _final_words(play: str, followup: str, value: int) -> str:
    if play == "crystal" and not followup:
        return "crystal ball"
    text = _played(play, followup)
    final = followup or play
    printed = int(final) if final.isdigit() else 5 if final == "sword" else value
    if 0 <= value != printed:
        text += f" (counts {value})"
    return text


def _effects(res: Resolution, seat: int) -> tuple[tuple[str, int], ...]:
    out: list[tuple[str, int]] = []
    if res.eliminated[seat]:
        out.append(("eliminated", 0))
    if res.wound_delta[seat]:
        out.append(("wounds", res.wound_delta[seat]))
    if res.coin_delta[seat]:
        out.append(("coins", res.coin_delta[seat]))
    if res.gained[seat]:
        out.append(("item:" + res.gained[seat], 0))
    return tuple(out)


def _effect_phrase(effect: tuple[str, int], singular: bool) -> str:
    kind, amount = effect
    if kind == "eliminated":
        return f"{_verb('are', singular)} eliminated"
    if kind == "wounds":
        if amount > 0:
            return f"{_verb('take', singular)} {plural(amount, 'wound')}"
        return f"{_verb('heal', singular)} {plural(-amount, 'wound')}"
    if kind == "coins":
        if amount > 0:
            return f"{_verb('gain', singular)} {plural(amount, 'coin')}"
        return f"{_verb('lose', singular)} {plural(-amount, 'coin')}"
    item = kind.split(":", 1)[1]
    return f"{_verb('take', singular)} a {_ITEM_WORDS.get(item, item)}"


def resolution_effects(res: Resolution, labels: Sequence[str]) -> str:
    """What the room did to whom, seats with the same fate grouped: "C and D take 3 wounds"."""
    groups: dict[tuple[tuple[str, int], ...], list[int]] = {}
    for seat in range(len(res.plays)):
        effects = _effects(res, seat)
        if effects:
            groups.setdefault(effects, []).append(seat)
    clauses = []
    for effects, seats in groups.items():
        subject, singular = _subject(seats, labels)
        clauses.append(f"{subject} {join_words([_effect_phrase(e, singular) for e in effects])}")
    return "; ".join(clauses)


def resolution_summary(res: Resolution, labels: Sequence[str]) -> str:
    """One line of what happened: "Dragon 18: 5+4+3+3 = 15, not defeated; C and D take 3
    wounds"."""
    data = CARDS[res.card].data
    name = room_name(res.card)
    effects = resolution_effects(res, labels)
    notes = list(res.notes)
    if isinstance(data, Monster | Boss):
        fighters = [v for v in res.values if v >= 0]
        escaped = [s for s, v in enumerate(res.values) if v < 0]
        head = f"{name} {res.strength}" if res.strength >= 0 else f"{name} (unbeatable)"
        sums = "+".join(str(v) for v in fighters) or "0"
        text = f"{head}: {sums} = {res.total}"
        if res.strength >= 0:
            text += ", defeated" if res.defeated else ", not defeated"
        if escaped:
            subject, singular = _subject(escaped, labels)
            text += f"; {subject} {_verb('escape', singular)}"
        if effects:
            text += "; " + effects
    else:
        if isinstance(data, Trap) and effects:
            name += f", highest card {max([0, *res.values])}"
        if effects:
            text = f"{name}: {effects}"
        elif notes:
            text = f"{name}: {notes.pop(0)}"
        else:
            text = f"{name}: nobody gains or loses anything"
    text += "."
    if notes:
        text += " (" + "; ".join(notes) + ")"
    return text


def render_resolution(res: Resolution, labels: Sequence[str]) -> list[str]:
    """Two or more lines: who played what in the room, then what it did."""
    plays = [f"{labels[s]} {_final_words(p, f, v)}"
             for s, (p, f, v) in enumerate(zip(res.plays, res.followups, res.values,
                                               strict=True))]
    head = f"Room {res.position}, {room_name(res.card)}: "
    lines = wrap_items(plays, first=head + "", sep=", ", indent="  ")
    lines.extend(wrap_text("  " + resolution_summary(res, labels), indent="    "))
    return lines


def render_totals(view: RaidersView, labels: Sequence[str]) -> list[str]:
    """The running totals after a room: every seat's coins and wounds."""
    parts = [f"{labels[sv.seat]} {sv.coins}c/{sv.wounds}w" + (" (out)" if sv.eliminated else "")
             for sv in view.seats]
    return wrap_items(parts, first="  Totals (coins/wounds): ", sep=", ", indent="    ")


# --------------------------------------------------------------------------- the end


ORDER = {"winner": 0, "lost": 1, "fainted": 2, "eliminated": 3, "forfeited": 4}


def render_scoreboard(view: RaidersView, outcome: Outcome, labels: Sequence[str], *,
                      name: str = "",
                      bots: Mapping[int, Sequence[tuple[str, str]]] | None = None) -> list[str]:
    """The final scoreboard: every seat's coins, wounds and result, then the winner(s), then
    which seats a bot played and from which room (``bots``, see :func:`bot_notes`)."""
    lines = _scoreboard(view, outcome, labels, name=name, bots=bots or {})
    return lines + text_bot_notes(bots or {}, labels, step_place)


def _scoreboard(view: RaidersView, outcome: Outcome, labels: Sequence[str], *, name: str,
                bots: Mapping[int, Sequence[tuple[str, str]]]) -> list[str]:
    seats = {sv.seat: sv for sv in view.seats}
    standings = sorted(outcome.standings, key=lambda st: (
        ORDER.get(st.status, 9), -seats[st.seat].coins, seats[st.seat].wounds, st.seat))
    width = max(5, *(len(seat_name(s, labels, name)) for s in seats))
    lines = ["Final scores", f"  {'seat':<{width}} {'character':<9} coins wounds  result"]
    for st in standings:
        sv = seats[st.seat]
        lines.append(f"  {seat_name(st.seat, labels, name):<{width}} "
                     f"{character_name(sv.character):<9} {sv.coins:>5} {sv.wounds:>6}  "
                     f"{st.status}")
    winners = sorted(outcome.winners)
    if not winners:
        if all(seats[s].eliminated for s in seats):
            lines.append("Nobody wins: the Medusa eliminated everyone.")
        else:
            lines.append("Nobody wins.")
        return lines
    forfeited = [st.seat for st in outcome.standings if st.status == "forfeited"]
    if forfeited:
        subject, _ = _subject(forfeited, labels)
        lines.append(f"{subject[0].upper()}{subject[1:]} forfeited for holding back a card or "
                     "a secret, and cannot win.")
    fainted = [st.seat for st in outcome.standings if st.status == "fainted"]
    if fainted:
        subject, singular = _subject(fainted, labels)
        lines.append(f"{subject[0].upper()}{subject[1:]} {_verb('faint', singular)} with the "
                     f"most wounds and cannot win.")
    best = seats[winners[0]]
    if len(winners) > 1:
        lines.append(f"Shared win: {join_words([labels[s] for s in winners])}, with "
                     f"{plural(best.coins, 'coin')} and {plural(best.wounds, 'wound')} each.")
    elif labels[winners[0]] == YOU and winners[0] in bots:
        lines.append(f"Your seat wins with {plural(best.coins, 'coin')} (a bot played it: "
                     "not your win alone).")
    elif labels[winners[0]] == YOU:
        lines.append(f"You win with {plural(best.coins, 'coin')}!")
    else:
        lines.append(f"{labels[winners[0]]} wins with {plural(best.coins, 'coin')}.")
    return lines


def step_place(step: str) -> str:
    """Where a step id is, in words: ``L2.R3.play`` -> "level 2, room 3"."""
    found = _STEP.match(step)
    if found is None:
        return step
    return f"level {found.group(1)}, room {found.group(2)}"


_STEP = re.compile(r"L([0-9]+)\.R([0-9]+)")
