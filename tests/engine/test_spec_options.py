"""GameSpec-level choices every front end reads: the default bot and the options a command line
names (``--option KEY=VALUE``, ``--variant``), read by the game's own OptionSpecs."""

from __future__ import annotations

import pytest

from engine.core import GameSpec, parse_options
from engine.games import GAMES, get_game


def test_every_game_names_a_default_bot_it_has_and_not_the_random_one() -> None:
    for name in GAMES:  # (the tests' own games, registered at run time, may have no bot)
        spec = get_game(name)
        assert spec.default_bot in spec.bots, name
        if len(spec.bots) > 1:
            assert spec.default_bot != "random", name
    # Games call their strongest bot differently: the spec says which, nobody guesses.
    assert get_game("paper").default_bot == "search"
    assert get_game("raiders").default_bot == "heuristic"


def test_a_declared_default_bot_must_be_one_of_the_bots() -> None:
    spec = get_game("raiders")
    fields = {f: getattr(spec, f) for f in spec.__dataclass_fields__}
    chosen = GameSpec(**{**fields, "default_bot": "random"})
    assert chosen.default_bot == "random"
    with pytest.raises(ValueError, match="default bot 'genius' is not one of its bots"):
        GameSpec(**{**fields, "default_bot": "genius"})


def test_options_are_read_by_the_games_own_specs() -> None:
    kards = get_game("kards")
    assert parse_options(kards, ["mode=coop", "round_cap=off", "events=no"]) == {
        "mode": "coop", "round_cap": 0, "events": False}
    raiders = get_game("raiders")
    assert parse_options(raiders, []) == {"variant": "basic"}
    assert parse_options(raiders, [], variant="tactical") == {"variant": "tactical"}
    assert parse_options(raiders, ["variant=tactical"]) == {"variant": "tactical"}


@pytest.mark.parametrize(("game", "texts", "variant", "message"), [
    ("raiders", ["speed=9"], None, "Dungeon Raiders has no option 'speed' (its options: variant)"),
    ("raiders", [], "hard", "variant is one of basic, tactical, not 'hard'"),
    ("kards", ["mode"], None, "an option is KEY=VALUE, not 'mode'"),
    ("kards", ["mode=chess"], None, "mode is one of auto, arena, coop, solo, not 'chess'"),
    ("kards", [], "basic", "Dungeons of Kards has no variants"),
    ("twister", ["turn_cap=1"], None, "turn_cap is 2 to 1000 or off, not 1"),
])
def test_a_wrong_option_is_one_sentence_naming_what_is_allowed(
        game: str, texts: list[str], variant: str | None, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        parse_options(get_game(game), texts, variant=variant)
    assert str(caught.value) == message
    assert "\n" not in str(caught.value)
