"""The rematch offer at the end of ``cryptcrawl play`` on a terminal."""

from __future__ import annotations

import io

import pytest

from cli.commands import _numbered, _rematch
from cli.play import Console


def console(typed: str, *, interactive: bool = True) -> Console:
    c = Console(io.StringIO(typed), io.StringIO())
    c.interactive = interactive  # as on a terminal
    return c


@pytest.mark.parametrize(("typed", "again"), [
    ("y\n", True), ("yes\n", True), ("Y\n", True), ("n\n", False), ("\n", False),
    ("", False),  # input ended: no rematch, no error
    ("play 3\n", False),  # anything else is a no
])
def test_rematch_only_on_yes(typed: str, again: bool) -> None:
    c = console(typed)
    assert _rematch(c, True) is again
    assert "Rematch: the same seats, a new match? [y/N]" in c.out.getvalue()  # type: ignore[attr-defined]


def test_no_rematch_offer_off_a_terminal_or_for_an_all_bot_match() -> None:
    for c, human in ((console("y\n", interactive=False), True), (console("y\n"), False)):
        assert _rematch(c, human) is False
        assert c.out.getvalue() == ""  # type: ignore[attr-defined]


def test_each_rematch_copies_to_a_file_of_its_own() -> None:
    assert _numbered("games/out.crawl", 2) == "games/out-2.crawl"
    assert _numbered("out", 3) == "out-3"
