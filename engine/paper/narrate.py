"""Paper Dungeons told in words (the log, ``replay``, ``spectate`` and ``export`` of the
client): one public change of the state at a time, from the public states before and after and
the history entry that made it — the deal, the choices shown, each round's dice and skull
damage, every seat's plan and what it did to that seat's sheet, the villain fights and rewards,
the gems crossed out, the missions scored, the objectives shown.  Nothing private is told: a
dealt card is "a power" until its owner shows it.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import (
    Acted,
    ChanceResolved,
    Dealt,
    Entry,
    JointActed,
    Opened,
    Over,
    Shown,
)
from engine.paper.actions import SetupChoice, parse_plan, parse_setup
from engine.paper.data import (
    DUNGEONS,
    GRID,
    HEROES,
    ITEM_NAMES_EN,
    LETTERS,
    MISSIONS,
    OBJECTIVES,
    POWERS,
    ROOM_NAMES,
    SEASON_END,
    SKULL,
    VILLAINS,
)
from engine.paper.records import Phase, parse_deal
from engine.paper.resolve import play_plan
from engine.paper.sheet import Sheet, gems, hp, rooms_of, track
from engine.paper.state import PaperState

SEASONS = ("I", "II", "III")


def power_words(power: str) -> str:
    """A power with what it does: "Healer (fill 2 potions)"."""
    p = POWERS.get(power)
    return f"{p.name} ({p.text})" if p is not None else power


def objective_words(card: str) -> str:
    o = OBJECTIVES.get(card)
    if o is None:
        return card
    return f"{card}, {o.text} ({'/'.join(map(str, o.tiers))} for 2/4/6 glory)"


def narrate(before: PaperState, entry: Entry | None, after: PaperState,
            names: Sequence[str]) -> list[str]:
    """One change, in words (see the module); ``names``: what the text calls each seat."""
    lines = _lines(before, entry, after, names)
    if isinstance(after.waiting, Over) and not isinstance(before.waiting, Over):
        lines.append(f"Game over: {after.waiting.outcome.reason}.")
    return lines


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"


def _lines(before: PaperState, entry: Entry | None, after: PaperState,
           names: Sequence[str]) -> list[str]:
    if isinstance(entry, ChanceResolved):
        return _chance(before, entry, after, names)
    if isinstance(entry, Dealt):
        deal = parse_deal(entry.event)
        if deal is None:
            return []
        kind, seat, k = deal
        return [f"{_name(names, seat)} is dealt {'a' if k == 0 else 'a second'} {kind}, face "
                "down (seen by its owner alone)."]
    if isinstance(entry, JointActed):
        if before.phase is Phase.CHOOSE:
            return _choices(before, entry, after, names)
        if before.phase is Phase.PLAN:
            return _plans(before, entry, after, names)
        return []
    if isinstance(entry, Acted) and before.phase is Phase.REWARD:
        lines = [f"{_name(names, entry.seat)} takes the reward: {entry.action}."]
        lines += _sheet_change(before.sheets[entry.seat], after.sheets[entry.seat],
                               _name(names, entry.seat))
        return lines + _round_end(before, after, names)
    if isinstance(entry, Shown):
        deal = parse_deal(entry.event)
        kind = deal[0] if deal is not None else "card"
        what = power_words(entry.card) if kind == "power" else objective_words(entry.card)
        return [f"{_name(names, entry.seat)} shows the {kind} dealt to them: {what}."]
    if isinstance(entry, Opened):
        index, card = after.shown[entry.seat]
        if index != after.kept[entry.seat] or not card:
            return [f"{_name(names, entry.seat)} opens the objective kept face down."]
        return [f"{_name(names, entry.seat)}'s kept objective: {objective_words(card)}."]
    if entry is None:
        lines = []
        for s, (b, a) in enumerate(zip(before.sheets, after.sheets, strict=True)):
            if a.resigned and not b.resigned:
                lines.append(f"{_name(names, s)}'s sheet stops here (the seat is out).")
        return lines
    return []


def _chance(before: PaperState, entry: ChanceResolved, after: PaperState,
            names: Sequence[str]) -> list[str]:
    if entry.event == "setup.dungeon":
        card = DUNGEONS[entry.outcome]
        villains = ", ".join(f"{SEASONS[k]} {VILLAINS[v].name}"
                             for k, v in enumerate(card.villains))
        lairs = ", ".join(ROOM_NAMES[r] for r in card.lairs)
        return [f"Dungeon card {entry.outcome}: lairs {lairs}; villains {villains}."]
    if entry.event.startswith("setup.mission."):
        m = MISSIONS[entry.outcome]
        return [f"Mission {entry.outcome} is open: {m.text}."]
    if before.phase is not Phase.ROLL:
        return []
    faces = entry.outcome.split(" ")
    dice = " ".join(f"{'W' if d <= 3 else 'B'}{d} {face}" for d, face in enumerate(faces, 1))
    head = f"Round {before.round}: dice {dice}"
    if after.phase is Phase.ROLL:
        return [f"{head} — three skulls or three clovers: rolled again."]
    skulls = faces.count(SKULL)
    lines = [head + (f" — {skulls} skull{'s' * (skulls != 1)}." if skulls else ".")]
    for s, (b, a) in enumerate(zip(before.sheets, after.sheets, strict=True)):
        hurt = _damage(b, a)
        if hurt:
            lines.append(f"  {_name(names, s)} {hurt} (skulls).")
    return lines


def _damage(b: Sheet, a: Sheet) -> str:
    """What the skulls or a fight did to a sheet's heroes and damage column."""
    parts = []
    if a.damage != b.damage:
        parts.append(f"takes {a.damage - b.damage} damage")
    lost = [f"{h} {x}→{y}" for h, x, y in zip(HEROES, b.levels, a.levels, strict=True) if y < x]
    if lost:
        parts.append("loses levels: " + ", ".join(lost))
    if a.hearts != b.hearts:
        parts.append(f"spends {a.hearts - b.hearts} heart{'s' * (a.hearts - b.hearts != 1)}")
    if a.resurrected and not b.resurrected:
        parts.append("is resurrected (-9 glory)")
    return ", ".join(parts)


def _choices(before: PaperState, entry: JointActed, after: PaperState,
             names: Sequence[str]) -> list[str]:
    lines = []
    for seat, text in entry.actions:
        choice = parse_setup(text)
        assert isinstance(choice, SetupChoice)
        styles = "/".join(choice.styles)
        lines.append(f"{_name(names, seat)} keeps the power {power_words(choice.power)}; "
                     f"training styles {styles} (warrior/wizard/cleric/rogue); an objective "
                     "kept face down.")
        lines += _sheet_change(before.sheets[seat], after.sheets[seat], _name(names, seat))
    return lines


def _plans(before: PaperState, entry: JointActed, after: PaperState,
           names: Sequence[str]) -> list[str]:
    lines = []
    for seat, text in entry.actions:
        name = _name(names, seat)
        lines.append(f"{name} plays: {text}.")
        played = play_plan(before.sheets[seat], parse_plan(text), before.board, before.roll)
        lines += _sheet_change(before.sheets[seat], played, name)
    crossed = []
    for seat, (b, a) in enumerate(zip(before.sheets, after.sheets, strict=True)):
        new = a.crossed & ~b.crossed
        if new:
            crossed.append(f"{_name(names, seat)}: {', '.join(_letters(new))}")
    if crossed:
        lines.append("Gems crossed out (taken by another this round): " + "; ".join(crossed)
                     + ".")
    return lines + _round_end(before, after, names)


def _letters(mask: int) -> list[str]:
    return [LETTERS[i] for i in range(len(LETTERS)) if mask >> i & 1]


def _sheet_change(b: Sheet, a: Sheet, name: str) -> list[str]:
    """What changed on one sheet, in a line (nothing if nothing did)."""
    parts = []
    up = [f"{h} {x}→{y}" for h, x, y in zip(HEROES, b.levels, a.levels, strict=True) if y > x]
    if up:
        parts.append("evolves " + ", ".join(up))
    if a.room != b.room and a.room >= 0:
        new = rooms_of(a.explored & ~b.explored)
        parts.append(f"moves to {ROOM_NAMES[a.room]}"
                     + (f" (explores {', '.join(ROOM_NAMES[r] for r in new)})" if new else ""))
    beaten = rooms_of(a.minions & ~b.minions)
    if beaten:
        parts.append("defeats " + ", ".join(
            f"the {GRID[r].minion} of {ROOM_NAMES[r]} (level {GRID[r].level})" for r in beaten)
            + f" (minions {track(a)})")
    taken = _letters(a.letters & ~b.letters)
    if taken:
        parts.append(f"takes gem {', '.join(taken)} (gems {gems(a)})")
    if a.potions != b.potions:
        parts.append(f"potions {b.potions}→{a.potions}")
    items = [f"{ITEM_NAMES_EN[i]} {x}→{y}/2" for i, (x, y) in
             enumerate(zip(b.items, a.items, strict=True)) if y != x]
    if items:
        parts.append("items: " + ", ".join(items))
    if a.traps != b.traps:
        parts.append(f"triggers {a.traps - b.traps} trap{'s' * (a.traps - b.traps != 1)}")
    hurt = _damage(b, a)
    if hurt:
        parts.append(hurt)
    if a.power and not b.power and a.power == "healer":
        pass  # (said with the power)
    if not parts:
        return []
    return [f"  {name}: " + "; ".join(parts) + f" (HP {hp(a)})."]


def _round_end(before: PaperState, after: PaperState, names: Sequence[str]) -> list[str]:
    """The end of a round: the villain's fight, the reward, the missions scored."""
    lines = []
    season = SEASON_END.get(before.round, 0)
    if season and before.phase is Phase.PLAN:
        villain = VILLAINS[DUNGEONS[before.dungeon].villains[season - 1]]
        lines.append(f"Season {SEASONS[season - 1]} ends: the {villain.name} (weak to the "
                     f"{HEROES[villain.weakness]}) is fought.")
        for s, level in enumerate(after.fight):
            b, a = before.sheets[s], after.sheets[s]
            if b.resigned:
                continue
            glory = a.villains[season - 1]
            if glory is None:
                continue
            name = _name(names, s)
            if level < 0:
                lines.append(f"  {name} did not reach the lair, or fled: {glory:+d} glory.")
            else:
                hurt = _damage(b, a)
                lines.append(f"  {name} fights at combat level {level}: {glory:+d} glory"
                             + (f", {hurt}" if hurt else "") + ".")
        if after.phase is Phase.REWARD:
            best = _name(names, after.reward)
            whose = "yours" if best == "you" else f"{best}'s"
            lines.append(f"  The best fight was {whose}: so is the choice of the reward "
                         f"({villain.reward}).")
    for s, (b, a) in enumerate(zip(before.sheets, after.sheets, strict=True)):
        for mission, glory in a.missions[len(b.missions):]:
            lines.append(f"{_name(names, s)} scores mission {mission} ({MISSIONS[mission].text})"
                         f": {glory:+d} glory.")
    if before.round != after.round or (after.phase is Phase.OPEN
                                       and before.phase is not Phase.OPEN):
        if after.phase is Phase.OPEN:
            lines.append("The eight rounds are over: every seat shows its objective.")
    return lines


__all__ = ["narrate", "objective_words", "power_words"]
