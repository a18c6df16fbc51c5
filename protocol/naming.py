"""The names a protocol version gives the generic private-knowledge round on the wire and in
verdicts.

Version 2 uses the mechanism's own, game-neutral names: message kind 8 is ``SEAL_KEY``, a round is
``round.<seat>.<first event>``, its keys derive under ``cryptcrawl/round-key/v2``.  Version 1
shipped with the first game's words for them; those bytes are frozen in
:mod:`protocol.wire.v1_names`, and a version 1 file is read and verified with them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from protocol.wire import v1_names
from protocol.wire.messages import Kind


@dataclass(frozen=True)
class Naming:
    """One version's names and texts for the private-knowledge round."""

    seal_key_name: str  # the wire name of Kind.SEAL_KEY
    round_prefix: str  # round ids: <prefix>.<seat>.<first event>
    key_domain: str  # the derivation domain of a round's key randomness
    key_for_wrong_round: Callable[[str], str]
    key_names_wrong_events: Callable[[Sequence[str], Sequence[str]], str]
    lying_delivery: Callable[[int, str], str]
    released_wrong_key: Callable[[], str]
    revealed_before_delivering: Callable[[int], str]
    secret_from_delivery: Callable[[str, int], str]
    key_published_note: Callable[[str, int, int], str]
    key_never_published_note: Callable[[str, int, int], str]

    def kind_name(self, kind: Kind) -> str:
        """A kind as this version's wire format, and its verdicts, name it."""
        return self.seal_key_name if kind is Kind.SEAL_KEY else kind.name

    def round_id(self, seat: int, first_event: str) -> str:
        return f"{self.round_prefix}.{seat}.{first_event}"

    def round_first_event(self, name: str) -> str | None:
        """The first event a round id names (None: not a round id of this version)."""
        parts = name.split(".", 2)
        return parts[2] if len(parts) == 3 and parts[0] == self.round_prefix else None


V1: Final = Naming(
    seal_key_name=v1_names.SEAL_KEY_NAME, round_prefix=v1_names.ROUND_PREFIX,
    key_domain=v1_names.KEY_DOMAIN, key_for_wrong_round=v1_names.key_for_wrong_round,
    key_names_wrong_events=v1_names.key_names_wrong_events,
    lying_delivery=v1_names.lying_delivery, released_wrong_key=v1_names.released_wrong_key,
    revealed_before_delivering=v1_names.revealed_before_delivering,
    secret_from_delivery=v1_names.secret_from_delivery,
    key_published_note=v1_names.key_published_note,
    key_never_published_note=v1_names.key_never_published_note)

V2: Final = Naming(
    seal_key_name="SEAL_KEY", round_prefix="round", key_domain="cryptcrawl/round-key/v2",
    key_for_wrong_round=lambda name: (
        f"sent SEAL_KEY for round {name!r}, not its own open one"),
    key_names_wrong_events=lambda named, owed: (
        f"its SEAL_KEY names {list(named)}, not the round's {list(owed)}"),
    lying_delivery=lambda owner, name: (
        f"its delivery to seat {owner}'s private-knowledge round ({name}) lies: it does not "
        "hold its committed secrets"),
    released_wrong_key=lambda: "its released round key is not the one its SEAL_KEY named",
    revealed_before_delivering=lambda owner: (
        f"revealed at once before delivering to seat {owner}'s private-knowledge round, so it "
        f"cannot have held seat {owner}'s commitment"),
    secret_from_delivery=lambda event, seat: (
        f"{event}: seat {seat}'s secret taken from its delivery to a private-knowledge round "
        "(it left before revealing it)"),
    key_published_note=lambda name, seat, deliveries: (
        f"private-knowledge round {name} (seat {seat}): key published, {deliveries} deliveries "
        "checked"),
    key_never_published_note=lambda name, seat, deliveries: (
        f"private-knowledge round {name} (seat {seat}): its key was never published, so its "
        f"{deliveries} deliveries could not be checked"))

_BY_VERSION: Final = {1: V1, 2: V2}


def naming(version: int) -> Naming:
    """The names of protocol ``version``."""
    return _BY_VERSION[version]
