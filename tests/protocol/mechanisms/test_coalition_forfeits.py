"""Coalition forfeits (version 3, protocol.md §7.7; issue 47): two seats that swap their chance
secrets off the table know an event's outcome once the honest seats have revealed.  Whatever
seats withhold a secret of an event whose other secrets were all revealed each forfeit — (a)
both colluders withhold, (b) one withholds while its partner revealed and then went silent
before committing to the re-draw.  In version 2 neither forfeits (its verdicts stand)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from benchmarks.scenario import raiders
from engine.core import Over
from protocol.mesh import MeshGame, Network
from protocol.verify.verdicts import VALID
from protocol.verify.verifier import verify
from protocol.wire.messages import Kind, Message
from tests.protocol import dice_toy
from tests.vectors.making import silence


def _standing(net: Network, peer: int, seat: int) -> Any:
    w = net.cores[peer].state.waiting
    assert isinstance(w, Over), w
    return w.outcome.standings[seat].status


def _after_reveal() -> Callable[[Message], bool]:
    """Silent from the first message after the seat's first CHANCE_REVEAL."""
    seen: list[Message] = []

    def when(m: Message) -> bool:
        if seen:
            return True
        if m.kind is Kind.CHANCE_REVEAL:
            seen.append(m)
        return False
    return when


def _is_reveal(m: Message) -> bool:
    return m.kind is Kind.CHANCE_REVEAL


def coalition(variant: str, version: int, tag: bytes = b"coalition",
              scramble: bytes | None = None) -> tuple[Network, str]:
    """A four-seat Raiders mesh in which seats 2 and 3 collude on the first face-up room: seat 3
    withholds its secret; seat 2 withholds too (``both``) or reveals and then goes silent
    (``partner``).  Returns the played network and the room's engine id."""
    net = Network(4, raiders(), tag, version=version)
    withheld3 = silence(net, 3, _is_reveal)
    withheld2 = silence(net, 2, _is_reveal if variant == "both" else _after_reveal())
    net.run_with_timeouts(scramble=scramble)
    assert withheld3 and withheld2
    event = withheld3[0].content.secrets[0][0]  # type: ignore[union-attr]
    if variant == "both":
        assert withheld2[0].content.secrets[0][0] == event  # type: ignore[union-attr]
    return net, event


def _notes(notes: tuple[str, ...] | list[str], seat: int) -> list[str]:
    return [n for n in notes if n.startswith(f"seat {seat} forfeited")]


@pytest.mark.parametrize(("variant", "scramble"), [
    ("both", None), ("both", b"co1"), ("partner", None), ("partner", b"co2")])
def test_a_coalition_that_withholds_forfeits(variant: str, scramble: bytes | None) -> None:
    """Judged from the feeds, so every peer finds it alike in any arrival order."""
    net, event = coalition(variant, 3, scramble=scramble)
    withholders = {2, 3} if variant == "both" else {3}
    for peer in (0, 1):
        core = net.cores[peer]
        assert core.signed and {2, 3} <= set(core.absent)
        assert core.seats.withholders == withholders
        for seat in withholders:
            assert _standing(net, peer, seat) == "forfeited"
        v = verify(net.match_file(peer))
        assert v.verdict == VALID, v
        for seat in withholders:
            assert _notes(v.notes, seat) == [
                f"seat {seat} forfeited where it was to decide: it withheld its secret of "
                f"{event} (every other secret of it was revealed first)"], v.notes
        if variant == "partner":
            assert not _notes(v.notes, 2)
    assert net.cores[0].public_digest() == net.cores[1].public_digest()


@pytest.mark.parametrize("variant", ["both", "partner"])
def test_version_2_keeps_its_verdict_for_a_coalition(variant: str) -> None:
    net, _ = coalition(variant, 2)
    for peer in (0, 1):
        assert not net.cores[peer].seats.withholders
        v = verify(net.match_file(peer))
        assert v.verdict == VALID and not _notes(v.notes, 2) and not _notes(v.notes, 3), v


def _pool_coalition(variant: str, version: int) -> Network:
    """The dice toy with four seats: seats 2 and 3 collude on die ``d5.1`` (a pool slot, §7.12,
    seat 0's decision, whose secret rides in its ACT): both go silent where its secrets are owed
    (``both``), or seat 2 reveals its secret and then goes silent (``partner``); both come back
    and reclaim once the die is drawn again."""
    net = Network(4, MeshGame(dice_toy.GAME, (("turns", 12), ("dice", "one"))),
                  b"pools-coalition", version=version)
    for seat in (2, 3):
        local = net.seats[seat]
        original = local.messages_to_send
        sent: list[Message] = []

        def silent(local: Any = local, original: Any = original, seat: int = seat,
                   sent: list[Message] = sent) -> list[Message]:
            if sent and seat == 2 and variant == "partner":
                return []
            w = local.core.state.waiting
            if getattr(w, "event", None) is not None and w.event.id == "d5.1":
                if seat == 3 or variant == "both":
                    return []
                out: list[Message] = original()
                sent.extend(m for m in out if m.kind is Kind.CHANCE_REVEAL)
                return out
            return original()  # type: ignore[no-any-return]
        local.messages_to_send = silent  # type: ignore[method-assign]
    net.run_with_timeouts()
    return net


@pytest.mark.parametrize("variant", ["both", "partner"])
def test_a_coalition_that_withholds_a_pool_slot_forfeits(variant: str) -> None:
    net = _pool_coalition(variant, 3)
    withholders = {2, 3} if variant == "both" else {3}
    for peer in (0, 1):
        core = net.cores[peer]
        assert core.signed and core.chance.alias["d5.1"] == "d5.1~1"
        assert core.seats.withholders == withholders
        v = verify(net.match_file(peer))
        assert v.verdict == VALID, v
        assert all(any(n.startswith(f"seat {s} was replaced") for n in v.notes) for s in (2, 3))
        # (The toy has no forfeit: the verifier notes it.)
        for seat in (2, 3):
            assert any(n.startswith(f"seat {seat} did not forfeit") for n in v.notes) == (
                seat in withholders), v.notes


def test_version_2_keeps_its_verdict_for_a_pool_coalition() -> None:
    net = _pool_coalition("both", 2)
    assert not net.cores[0].seats.withholders
    v = verify(net.match_file(0))
    assert v.verdict == VALID and not any("did not forfeit" in n for n in v.notes), v
