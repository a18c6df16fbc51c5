"""Sealed values (version 2, protocol.md §7.11): committed by one decision, opened later; only the
owner opens them, each opening checked against its commitment and the rules; a replaced seat's
values are void; every live seat opens what is left before its END (the audit).  The small game
of tests/protocol/sealed_toy.py, and Dungeon Twister (its 20 face-down tokens and two teams)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any, cast

import pytest

from protocol.crypto import play_commitment, sealed_commitment
from protocol.errors import Fault
from protocol.match.events import PeerMisbehaved, SealedOpened, SealedVoid
from protocol.match.seat import LocalSeat
from protocol.mesh import MeshGame, Network
from protocol.verify.verdicts import INVALID, VALID, reason_code
from protocol.verify.verifier import verify
from protocol.wire.messages import ActBody, Kind, OpenBody, RevealBody
from tests.protocol import sealed_toy
from tests.protocol.helpers import opening_lies, patient, sealing_lies

TOY = MeshGame(sealed_toy.GAME)


def hider(value: int, mark: int = 2) -> Callable[[Any, int], str]:
    return lambda state, seat: f"hide {value}" if state.stage == 0 else f"mark {mark}"


def toy(n: int, tag: bytes, values: tuple[int, ...] = (1, 2, 3)) -> Network:
    return Network(n, TOY, tag, [hider(values[i]) for i in range(n)])


def misbehaved(net: Network) -> list[PeerMisbehaved]:
    return [e for e in net.events[0] if isinstance(e, PeerMisbehaved)]


@pytest.mark.parametrize("n", [2, 3])
def test_values_stay_sealed_until_the_rules_open_them(n: int) -> None:
    net = toy(n, b"sealed-honest-%d" % n, (4, 2, 5))
    net.pump()
    assert all(core.signed for core in net.cores)
    # Nothing on the wire shows a value before its OPEN: the actions are public ("hide").
    plays = [m for m in net.log if isinstance(m.content, ActBody | RevealBody)]
    assert {m.content.action for m in plays} == {"hide", "mark"}
    first_open = next(i for i, m in enumerate(net.log) if m.kind is Kind.OPEN)
    assert all(m.kind is not Kind.OPEN for m in net.log[:first_open])
    for m in plays:
        ((slot, _),) = m.content.sealed
        assert slot == (f"hid.{m.seat}" if m.content.action == "hide" else "mark.0")
    opened = [e for e in net.events[1] if isinstance(e, SealedOpened)]
    assert [(e.seat, e.values, e.at_end) for e in opened] == [
        *[(s, ((f"hid.{s}", str((4, 2, 5)[s])),), False) for s in range(n)],
        (0, (("mark.0", "2"),), True)]  # the mark, never asked, opened in the audit
    winner = max(range(n), key=lambda s: (4, 2, 5)[s])
    v = verify(net.match_file(n - 1))
    assert (v.verdict, v.winners) == (VALID, (winner,))
    assert any("audit" in note and "mark.0 = 2" in note for note in v.notes), v.notes


def test_a_commitment_binds_the_value_and_the_seat() -> None:
    net = toy(2, b"sealed-binding")
    net.pump()
    reveal = next(m for m in net.log if isinstance(m.content, RevealBody) and m.seat == 1)
    slot, commitment = reveal.content.sealed[0]
    opening = next(m.content for m in net.log if isinstance(m.content, OpenBody) and m.seat == 1)
    _, value, salt = opening.values[0]
    keys = net.cores[0].keys
    match_id = net.cores[0].match_id
    assert sealed_commitment(match_id, slot, keys[1], value, salt) == commitment
    assert sealed_commitment(match_id, slot, keys[1], "5", salt) != commitment
    assert sealed_commitment(match_id, slot, keys[0], value, salt) != commitment
    # The play commitment covers the sealed commitments: no reveal can pick them late.
    body = reveal.content
    assert play_commitment(match_id, body.step, keys[1], body.action, body.salt,
                           body.sealed) != play_commitment(match_id, body.step, keys[1],
                                                           body.action, body.salt)


def test_an_opening_that_does_not_open_its_commitment_is_misbehaviour() -> None:
    net = toy(3, b"sealed-forged")
    opening_lies(net.seats[1], lambda slot, v: "5" if slot.startswith("hid.") else v)
    # (it sealed 2, and would win with 5)
    net.run_with_timeouts()
    blamed = misbehaved(net)
    assert blamed and blamed[0].seat == 1
    assert "does not open its commitment" in blamed[0].reason
    v = verify(net.match_file(0))
    assert (v.verdict, v.blamed, v.reason_code) == (INVALID, (1,), "reveal_mismatch"), v


def test_a_value_the_rules_refuse_is_misbehaviour_at_its_opening() -> None:
    """A modified client seals a 9 (the rules allow 1 to 5): nobody can tell until it opens it,
    and its signed opening proves it."""
    net = toy(3, b"sealed-nine", (1, 9, 3))
    net.run_with_timeouts()
    blamed = misbehaved(net)
    assert blamed and blamed[0].seat == 1
    assert "its opening breaks the rules" in blamed[0].reason
    v = verify(net.match_file(2))
    assert (v.verdict, v.blamed, v.reason_code) == (INVALID, (1,), "bad_sealed"), v


def test_a_play_must_commit_to_exactly_the_slots_it_seals() -> None:
    net = toy(3, b"sealed-missing")
    cheat = net.seats[2]
    cheat._commitments = lambda slots: ()  # type: ignore[method-assign]
    net.run_with_timeouts()
    blamed = misbehaved(net)
    assert blamed and blamed[0].seat == 2
    assert "its action seals hid.2, but it committed to none" in blamed[0].reason
    v = verify(net.match_file(0))
    assert (v.verdict, v.blamed, v.reason_code) == (INVALID, (2,), "bad_sealed"), v


def test_a_slot_sealed_a_second_time_is_bad_sealed() -> None:
    """No game lets an action seal a slot its seat sealed before (a slot names its count), but
    the check stands, and its fault reads ``bad_sealed`` (protocol.md §9.3), not the catch-all
    ``rule_broken`` (issue 46: the v3 vectors' scan of every fault's words found it)."""
    net = toy(2, b"sealed-again")
    net.pump()
    hide = next(m for m in net.log if m.seat == 0 and isinstance(m.content, ActBody | RevealBody)
                and m.content.sealed)
    body = hide.content
    assert isinstance(body, ActBody | RevealBody)
    again = cast(Any, SimpleNamespace(sealed_by=lambda seat, action: ("hid.0",)))
    with pytest.raises(Fault) as caught:
        net.cores[1].sealed.check(again, 0, "hide", body.sealed, hide)
    assert caught.value.reason == "it sealed hid.0 a second time"
    assert reason_code(caught.value.reason) == "bad_sealed"


def test_an_end_before_the_audit_is_misbehaviour() -> None:
    net = toy(2, b"sealed-no-audit")
    local = net.seats[0]
    original = local._body

    def skip_audit(expected: Kind) -> Any:
        if expected is Kind.OPEN and local.core.ending.ended:
            final = local.core.ending.final
            assert final is not None
            from protocol.wire.messages import EndBody
            return Kind.END, EndBody(final.digest, local.core.ending.end_transcript())
        return original(expected)
    local._body = skip_audit  # type: ignore[method-assign]
    net.run_with_timeouts()
    blamed = misbehaved(net)
    assert blamed and blamed[0].seat == 0
    assert "sent END where OPEN was due" in blamed[0].reason


def test_a_replaced_seat_s_values_are_void() -> None:
    """Seat 2 goes silent before the openings: it is voted out; its number stays sealed and
    scores 0 (the toy's ruling), and the file says so."""
    net = toy(3, b"sealed-void", (1, 2, 5))
    local = net.seats[2]
    local._open_body = lambda w: None  # type: ignore[method-assign]
    net.run_with_timeouts()
    assert all(core.signed for i, core in enumerate(net.cores) if i != 2)
    void = [e for e in net.events[0] if isinstance(e, SealedVoid)]
    assert void == [SealedVoid(2, ("hid.2",))]
    v = verify(net.match_file(0))
    assert (v.verdict, v.winners) == (VALID, (1,)), v  # (seat 2's 5 never counted)
    assert any("sealed values stay sealed, void: hid.2" in note for note in v.notes), v.notes


def test_a_restarted_seat_reopens_its_commitment_and_its_values(tmp_path: Any) -> None:
    """Seat 0 commits, then restarts from its persisted feed and stored choices: it reveals
    the same play with the same sealed commitments, and opens its value."""
    net = toy(2, b"sealed-restart", (3, 4))
    stored: dict[str, str] = {}
    net.seats[0].remember = stored.update
    patient(net, 1)
    net.pump(limit=3, partial=True)  # seat 0's COMMIT goes out
    assert any(m.kind is Kind.COMMIT and m.seat == 0 for m in net.log)
    assert stored.get("sealed hid.0") == "3" and stored.get("slots hide") == "hid.0"
    old = net.seats[0]
    fresh = LocalSeat(old.core, 0, old.key, old.seed, old.decide)
    fresh.restore(list(old.sent), dict(stored))
    assert fresh.pending_reveal == old.pending_reveal and fresh.sealed_values == {"hid.0": "3"}
    net.seats[0] = fresh
    net.pump()
    assert all(core.signed for core in net.cores)
    assert verify(net.match_file(1)).verdict == VALID


def test_twister_plays_over_the_protocol_with_sealed_tokens() -> None:
    """Dungeon Twister's teams and 20 face-down tokens travel as sealed values: no token's
    identity is on the wire before its opening, every opening is checked (R32: each of a
    seat's 14 tokens exactly once), and the file verifies."""
    net = Network(2, MeshGame("twister"), b"sealed-twister")
    net.pump()
    assert all(core.signed for core in net.cores)
    kinds = Counter(m.kind for m in net.log)
    assert kinds[Kind.OPEN] >= 2
    sealed = {(m.seat, slot) for m in net.log if isinstance(m.content, ActBody | RevealBody)
              for slot, _ in m.content.sealed}
    assert len([s for s in sealed if s[1].startswith("tok.")]) == 20
    assert len([s for s in sealed if s[1].startswith("start.")]) == 8
    for m in net.log:  # placements name a square, never a token
        if isinstance(m.content, ActBody) and m.content.action.startswith("place"):
            assert len(m.content.action.split()) == 2, m.content.action
    opened: dict[int, list[str]] = {0: [], 1: []}
    for e in net.events[0]:
        if isinstance(e, SealedOpened):
            opened[e.seat] += [v for slot, v in e.values if slot.startswith("tok.")]
    for seat in (0, 1):
        assert len(opened[seat]) == len(set(opened[seat]))
    assert verify(net.match_file(0)).verdict == VALID


def test_twister_a_token_placed_twice_is_misbehaviour_at_its_opening() -> None:
    """R32: seat 1's modified client seals its first token again for every later placement.
    Nobody can tell until the tokens are opened; then its signed OPEN proves it, and it
    forfeits."""
    net = Network(2, MeshGame("twister"), b"sealed-twister-twice")
    first: list[str] = []

    def lie(slot: str, value: str) -> str:
        if slot == "tok.1.1" and not first:
            first.append(value)
        return first[0] if slot.startswith("tok.") and first else value
    sealing_lies(net.seats[1], lie)
    net.run_with_timeouts()
    blamed = misbehaved(net)
    assert blamed and blamed[0].seat == 1, blamed
    assert "its opening breaks the rules" in blamed[0].reason, blamed[0].reason
    assert "twice" in blamed[0].reason
    # Two seats: its misbehaviour ends the match at the floor with Twister's forfeit; seat 0
    # first opens the tokens it still holds (the openings due at the end come first).
    assert all(core.signed for core in net.cores)
    v = verify(net.match_file(0))
    assert (v.verdict, v.blamed, v.winners) == (VALID, (1,), (0,)), v
    assert "forfeit" in v.reason
    last = [e for e in net.events[0] if isinstance(e, SealedOpened)][-1]
    assert last.seat == 0 and len(last.values) > 1
