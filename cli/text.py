"""Words and lines for every game's text: seat letters and labels, plurals, lists in prose,
wrapping to 80 columns, and styled lines (what the full screen draws).

Pure functions, no I/O and no game: a game's renderer (``cli/games/<game>/``) builds its lines
with these, and so does the generic client.  Seats are named by ``labels``: ``labels[seat]`` is
what the text calls that seat, "you" for the person at this terminal and the seat's name or
letter for everyone else (:func:`seat_labels`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

WIDTH = 80
LETTERS = "ABCDEFGH"  # a match has at most 8 seats (protocol.wire.header.MAX_SEATS)
YOU = "you"

Fragment = tuple[str, str]  # (prompt_toolkit style, text)
StyledLine = list[Fragment]


def plain(text: str, style: str = "") -> StyledLine:
    """A styled line of one fragment."""
    return [(style, text)]


def text_of(line: StyledLine) -> str:
    return "".join(text for _, text in line)


def seat_letter(seat: int) -> str:
    return LETTERS[seat] if 0 <= seat < len(LETTERS) else str(seat)


def seat_labels(players: int, me: int | None) -> tuple[str, ...]:
    """What the text calls each seat: "you" for ``me``, the seat letter for the others."""
    return tuple(YOU if s == me else seat_letter(s) for s in range(players))


def seat_name(seat: int, labels: Sequence[str], name: str = "") -> str:
    """A seat as a table shows it: its letter, its label if that is not the letter, and the
    person's own name after "you" ("A you (Ann)", "B Bot 1", "C")."""
    label = labels[seat]
    text = seat_letter(seat) if label == seat_letter(seat) else f"{seat_letter(seat)} {label}"
    if label == YOU and name:
        text += f" ({name})"
    return text


_SEAT_NUMBER = re.compile(r"\b([Ss])eat (\d+)\b")


def named_seats(text: str, labels: Sequence[str]) -> str:
    """``text`` (an engine's words, "seat 0 wins") with each seat number as the table calls
    the seat ("Ana wins"); at the start of a sentence "you" becomes "You"."""
    def name(found: re.Match[str]) -> str:
        seat = int(found.group(2))
        if not 0 <= seat < len(labels):
            return found.group(0)
        label = labels[seat]
        return label[:1].upper() + label[1:] if found.group(1) == "S" else label

    return _SEAT_NUMBER.sub(name, text)


_YOU_VERBS = {"is": "are", "has": "have", "was": "were", "goes": "go", "does": "do"}
_YOU_LINE = re.compile(r"^(\s*)[Yy]ou((?: \([A-H]\))?)('s)? ([a-z]+)\b")


def you_form(line: str) -> str:
    """A line of a game's story that names the person at this terminal ("you", as its labels
    call the seat) in the third person, in the second: "you takes the Mage" (or "You takes",
    where the game's words begin the sentence with the seat) -> "You take the Mage", "you's
    kept objective" -> "Your kept objective"."""
    found = _YOU_LINE.match(line)
    if found is None:
        return line
    lead, letter, owner, word = found.groups()
    if owner:
        return f"{lead}Your{letter} {word}" + line[found.end():]
    if word in _YOU_VERBS:
        word = _YOU_VERBS[word]
    elif word.endswith(("ches", "shes", "sses", "xes")):
        word = word[:-2]
    elif word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("s") and not word.endswith("ss") and len(word) > 2:
        word = word[:-1]
    rest = line[found.end():].replace(" dealt to them", " dealt to you", 1)
    return f"{lead}You{letter} {word}{rest}"


def plural(count: int, word: str) -> str:
    """``plural(1, "coin")`` -> "1 coin", ``plural(3, "coin")`` -> "3 coins"."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def join_words(words: Sequence[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    if not words:
        return ""
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " and " + words[-1]


def subject(seats: Sequence[int], labels: Sequence[str]) -> tuple[str, bool]:
    """The subject naming ``seats`` and whether its verb takes the singular -s."""
    words = [labels[s] for s in seats]
    return join_words(words), len(words) == 1 and words[0] != YOU


def verb(base: str, singular: bool) -> str:
    """``verb("take", True)`` -> "takes"; "are" -> "is"."""
    if not singular:
        return base
    if base == "are":
        return "is"
    return base + ("es" if base.endswith(("s", "sh", "ch")) else "s")


def wrap_items(items: Sequence[str], *, first: str = "", indent: str = "  ",
               sep: str = "  ", width: int = WIDTH) -> list[str]:
    """Join ``items`` with ``sep`` after ``first``, breaking lines between items only (a
    broken line keeps the separator's visible part, continuation lines start with ``indent``).
    Lines stay below ``width`` unless a single item is too long."""
    lines: list[str] = []
    line = first
    started = False
    for item in items:
        if not started:
            line += item
            started = True
            continue
        candidate = line + sep + item
        if len(candidate) + len(sep.rstrip()) > width - 1:
            lines.append(line + sep.rstrip())
            line = indent + item
        else:
            line = candidate
    lines.append(line)
    return lines


def wrap_text(text: str, *, indent: str = "", width: int = WIDTH) -> list[str]:
    """Wrap prose on spaces to ``width`` - 1 columns; continuation lines get ``indent``.  A
    number stays with the word before it ("Bot 3", "Dragon 18", "take 2 wounds" never starts
    a line with the number)."""
    words: list[str] = []
    for word in text.split(" "):
        if words and _NUMBER.fullmatch(word):
            words[-1] += " " + word
        else:
            words.append(word)
    return wrap_items(words, sep=" ", indent=indent, width=width)


_NUMBER = re.compile(r"[0-9]+[,.;)]?")


def bot_notes(bots: Mapping[int, Sequence[tuple[str, str]]], labels: Sequence[str],
              where: Callable[[str], str]) -> list[str]:
    """One sentence per seat a bot played for part of the match: from which step (and to which,
    if the seat came back), each put in words by ``where`` (the game's).  ``bots``: seat ->
    (first step, step it came back at or "")."""
    lines: list[str] = []
    for seat in sorted(bots):
        if not 0 <= seat < len(labels):
            continue
        whose = "your seat" if labels[seat] == YOU else f"{labels[seat]}'s seat"
        spans = []
        for first, back in bots[seat]:
            span = f"from {where(first)}"
            if back:
                span += f" until {where(back)}"
            spans.append(span)
        lines.extend(wrap_text(f"A bot played {whose} {join_words(spans)}.", indent="  "))
    return lines
