"""Frozen: the names and texts of protocol v1 that carry Dungeon Raiders' words.

The match core is game-agnostic: it calls the round in which one seat learns hidden chance
events privately a *private-knowledge round*, and its key message ``Kind.SEAL_KEY``.  Protocol v1
shipped with Dungeon Raiders' words for them on the wire and in verdicts: the kind is named
``TORCH``, a round is named ``torch.<seat>.<first event>``, its keys derive under the domain
``cryptcrawl/torch-key/v1``, and the reasons and notes of a verdict say "torch".  Files of v1 keep
those bytes for good, so they live here, and only here (a test exempts this module alone from the
no-game-words rule).  Nothing in this module may change."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

ROUND_PREFIX: Final = "torch"
"""The first part of a private-knowledge round's id: ``torch.<seat>.<first event>``."""

KEY_DOMAIN: Final = "cryptcrawl/torch-key/v1"
"""The derivation domain of a round's X25519 key randomness."""

SEAL_KEY_NAME: Final = "TORCH"
"""The v1 name of message kind 8 (``Kind.SEAL_KEY``)."""

USER: Final = "torch user"
"""Who a private-knowledge round serves, as v1's texts say it."""


def round_id(seat: int, first_event: str) -> str:
    """The id of ``seat``'s round whose first event is ``first_event``."""
    return f"{ROUND_PREFIX}.{seat}.{first_event}"


def round_first_event(name: str) -> str | None:
    """The first event a round id names (None: not a round id)."""
    parts = name.split(".", 2)
    return parts[2] if len(parts) == 3 and parts[0] == ROUND_PREFIX else None


# Texts of verdicts (reasons and notes) that name the round.


def key_for_wrong_round(name: str) -> str:
    return f"sent {SEAL_KEY_NAME} for round {name!r}, not its own open one"


def key_names_wrong_events(named: Sequence[str], owed: Sequence[str]) -> str:
    return f"its {SEAL_KEY_NAME} names {list(named)}, not the round's {list(owed)}"


def lying_delivery(owner: int, name: str) -> str:
    return (f"its delivery to seat {owner}'s torch ({name}) lies: it does not hold its "
            "committed secrets")


def released_wrong_key() -> str:
    return f"its released torch key is not the one its {SEAL_KEY_NAME} named"


def revealed_before_delivering(owner: int) -> str:
    return (f"revealed at once before delivering to seat {owner}'s torch round, so it cannot "
            f"have held seat {owner}'s commitment")


def secret_from_delivery(event: str, seat: int) -> str:
    return (f"{event}: seat {seat}'s secret taken from its torch delivery (it left before "
            "revealing it)")


def key_published_note(name: str, seat: int, deliveries: int) -> str:
    return f"torch round {name} (seat {seat}): key published, {deliveries} deliveries checked"


def key_never_published_note(name: str, seat: int, deliveries: int) -> str:
    return (f"torch round {name} (seat {seat}): its key was never published, so its "
            f"{deliveries} deliveries could not be checked")
