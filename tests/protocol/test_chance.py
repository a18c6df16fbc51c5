"""Chance on its own (protocol/mechanisms/chance.py, protocol.md §7.2–7.4): a :class:`Chance` over a
scripted game state, fed signed CHANCE_COMMIT / CHANCE_REVEAL / CHANCE_DIGEST messages."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from protocol.match.events import ChanceRedrawn, ChanceResolved, Event
from protocol.mechanisms.absence import Seats
from protocol.mechanisms.chance import Chance, commit_body, digest_body, reveal_body
from protocol.wire.messages import ChanceDigestBody
from protocol.wire.v1_names import secret_from_delivery

from engine.core import ChanceEvent, Simultaneous, Visibility
from protocol.crypto import chance_outcome, chance_set_digest
from protocol.errors import Fault, Mismatch
from tests.protocol.kit import (
    KEYS,
    MATCH_ID,
    NAMING,
    OTHER_SECRETS,
    SECRETS,
    STEP_STATE,
    VERSION,
    Box,
    Scripted,
    commit_to,
    keys,
    pending,
    reveal_of,
    signed,
)


@dataclass
class Rig:
    box: Box
    events: list[Event] = field(default_factory=list)
    shortfalls: list[str] = field(default_factory=list)
    n: int = 3

    def __post_init__(self) -> None:
        self.seats = Seats(self.n, self.events.append)
        self.chance = Chance(match_id=MATCH_ID, keys=keys(self.n), seats=self.seats,
                             state=self.box, emit=self.events.append,
                             shortfalls=self.shortfalls, naming=NAMING)

    def commit(self, seat: int, *events: str) -> bool:
        body = commit_to(seat, events or self.chance.wanted())
        return self.chance.on_commit(seat, signed(seat, body), body)

    def reveal(self, seat: int, event: str) -> bool:
        body = reveal_of(seat, event)
        return self.chance.on_reveal(seat, signed(seat, body), body, event)

    def digest(self, seat: int) -> bool:
        body = digest_body(self.chance)
        return self.chance.on_digest(seat, signed(seat, body), body)


def rig(*upcoming: str, n: int = 3) -> Rig:
    return Rig(Box(pending(*(upcoming or ("e",)))), n=n)


def event(state: Scripted) -> ChanceEvent:
    return state.waiting.event  # type: ignore[union-attr,no-any-return]


# --------------------------------------------------------------------------- commitments


def test_every_live_seat_owes_a_commitment_to_the_upcoming_batch() -> None:
    r = rig("e", "f")
    assert r.chance.wanted() == ("e", "f")
    assert all(r.chance.owes_commit(s) for s in range(3))
    assert r.commit(1)
    assert r.chance.commitments == {"e": {1: commit_to(1, "e").commitments[0][1]},
                                    "f": {1: commit_to(1, "f").commitments[0][1]}}
    assert r.chance.count == 2
    assert not r.chance.owes_commit(1) and r.chance.owes_commit(0)
    assert not r.chance.closed


def test_a_batch_closes_once_every_live_seat_committed() -> None:
    r = rig("e", "f")
    r.commit(0)
    r.commit(1)
    assert not r.chance.closed
    r.commit(2)
    assert r.chance.closed == {"e", "f"}
    assert r.chance.wanted() == ()
    assert not any(r.chance.owes_commit(s) for s in range(3))


@pytest.mark.parametrize("events", [("e",), ("f",), ("e", "f", "g"), ("e", "x")])
def test_a_commitment_to_another_batch_is_a_mismatch(events: tuple[str, ...]) -> None:
    r = rig("e", "f")
    body = commit_to(0, events)
    message = signed(0, body)
    with pytest.raises(Mismatch) as info:  # (it may have seen a re-draw this peer has not)
        r.chance.on_commit(0, message, body)
    assert info.value.reason == f"committed to {sorted(events)}, not ['e', 'f']"
    assert info.value.evidence == (message,)
    assert r.chance.commitments == {} and r.chance.count == 0


def test_a_replaced_seats_commitment_is_not_waited_for() -> None:
    r = rig("e")
    r.commit(0)
    r.commit(1)
    r.seats.replace(2, 0, "absent", final=False)
    assert not r.chance.closed
    r.chance.close_collections()  # (what the core does after a replacement)
    assert r.chance.closed == {"e"}


# --------------------------------------------------------------------------- reveals and outcomes


def committed(*upcoming: str, n: int = 3) -> Rig:
    r = rig(*upcoming, n=n)
    for s in range(n):
        r.commit(s)
    return r


def test_a_seat_owes_its_secret_once_the_event_is_closed() -> None:
    r = rig("e")
    r.commit(0)
    assert not r.chance.owes_reveal(0)
    r.commit(1)
    r.commit(2)
    assert r.chance.pending_id() == "e"
    assert all(r.chance.owes_reveal(s) for s in range(3))
    assert r.reveal(1, "e")
    assert r.chance.revealed(1, "e") and not r.chance.owes_reveal(1)
    assert r.chance.secrets == {"e": {1: SECRETS[1].chance_secret("e")}}


def test_a_reveal_of_another_event_is_a_fault() -> None:
    r = committed("e", "f")
    body = reveal_of(0, "f")
    message = signed(0, body)
    with pytest.raises(Fault) as info:
        r.chance.on_reveal(0, message, body, "e")
    assert not isinstance(info.value, Mismatch)
    assert info.value.reason == "revealed ['f'], not ['e']"
    assert info.value.evidence == (message,)


def test_a_secret_that_does_not_open_its_commitment_is_a_fault() -> None:
    r = committed("e")
    body = reveal_of(2, "e", OTHER_SECRETS)
    message = signed(2, body)
    with pytest.raises(Fault) as info:
        r.chance.on_reveal(2, message, body, "e")
    assert info.value.reason == "its secret for e does not open its commitment"
    assert info.value.evidence == (message,)
    assert not r.chance.revealed(2, "e")


def test_the_outcome_comes_from_every_contributors_secret_in_seat_order() -> None:
    r = committed("e")
    for s in (2, 0):
        r.reveal(s, "e")
        assert r.chance.resolve(event(r.box.state)) is None
    r.reveal(1, "e")
    found = r.chance.resolve(event(r.box.state))
    expected = chance_outcome(event(r.box.state),
                              [SECRETS[s].chance_secret("e") for s in range(3)])
    assert found == (expected, ChanceResolved("e", expected, ()))
    assert r.chance.resolved == {"e"}
    assert r.shortfalls == []


def test_an_event_is_not_resolved_before_it_is_closed() -> None:
    r = rig("e")
    r.commit(0)
    r.reveal(0, "e")  # (the core never takes this: the seat owes no reveal yet)
    assert r.chance.resolve(event(r.box.state)) is None


def test_a_seat_replaced_before_committing_is_missing_from_the_outcome() -> None:
    r = rig("e")
    r.seats.replace(2, 0, "absent", final=False)
    r.commit(0)
    r.commit(1)
    assert r.chance.closed == {"e"}
    r.reveal(0, "e")
    r.reveal(1, "e")
    found = r.chance.resolve(event(r.box.state))
    assert found is not None
    outcome, resolved = found
    assert outcome == chance_outcome(event(r.box.state),
                                     [SECRETS[s].chance_secret("e") for s in (0, 1)])
    assert resolved == ChanceResolved("e", outcome, (2,))
    assert r.shortfalls == ["e drawn without seat 2"]


# --------------------------------------------------------------------------- the digest round


def test_a_digest_round_is_due_once_commitments_are_held() -> None:
    r = rig("e", "f")
    assert not r.chance.digest_due()
    assert r.chance.close_digest_round() is None
    r.commit(0)
    assert r.chance.digest_due()
    entries = [(e, 0, c) for e, c in commit_to(0, ("e", "f")).commitments]
    assert r.chance.digest() == chance_set_digest(MATCH_ID, 1, entries)


def test_the_digest_round_closes_once_every_live_seat_signed_the_same_set() -> None:
    r = committed("e")
    assert all(r.chance.owes_digest(s) for s in range(3))
    wrong = ChanceDigestBody(1, bytes(32))
    # Another set of commitments: someone forked one; nobody is blamed, the digest waits.
    assert not r.chance.on_digest(0, signed(0, wrong), wrong)
    assert r.chance.owes_digest(0) and r.chance.digests == {}
    assert r.digest(0) and r.digest(1)
    assert not r.chance.owes_digest(0) and r.chance.owes_digest(2)
    assert r.chance.close_digest_round() is False
    assert r.digest(2)
    assert r.chance.close_digest_round() is True
    assert (r.chance.digest_rounds, r.chance.covered, r.chance.digests) == (1, 3, {})
    assert not r.chance.digest_due()
    assert r.chance.close_digest_round() is None


def test_a_replaced_seats_digest_is_not_waited_for() -> None:
    r = committed("e")
    r.digest(0)
    r.digest(1)
    r.seats.replace(2, 1, "absent", final=False)
    assert r.chance.close_digest_round() is True


def test_each_round_digests_under_its_own_stage() -> None:
    r = committed("e")
    first = r.chance.digest()
    for s in range(3):
        r.digest(s)
    r.chance.close_digest_round()
    r.box.state = pending("f")
    for s in range(3):
        r.commit(s)
    entries = [(e, s, c) for e, by_seat in r.chance.commitments.items()
               for s, c in by_seat.items()]
    assert r.chance.digest() == chance_set_digest(MATCH_ID, 2, entries) != first
    assert digest_body(r.chance).stage == 2


# --------------------------------------------------------------------------- a replaced seat


def test_an_event_a_replaced_seat_left_with_its_secret_is_drawn_again() -> None:
    r = committed("e")
    r.reveal(0, "e")
    r.reveal(1, "e")
    r.seats.replace(2, 1, "absent", final=False)
    r.chance.redraw_lost(lambda seat, event: False)
    assert r.events == [ChanceRedrawn("e", "e~1")]
    assert r.chance.alias == {"e": "e~1"}
    assert "e" in r.chance.dead and "e" in r.chance.resolved
    assert r.shortfalls == ["e drawn again as e~1 (seat 2 left with its secret)"]
    # The live seats commit afresh to the new id; the old one is refused.
    assert r.chance.pending_id() == "e~1" and r.chance.wanted() == ("e~1",)
    with pytest.raises(Mismatch):
        r.commit(0, "e")
    r.commit(0)
    r.commit(1)
    assert r.chance.closed >= {"e~1"}
    r.reveal(0, "e~1")
    r.reveal(1, "e~1")
    found = r.chance.resolve(event(r.box.state))
    posed = ChanceEvent("e~1", event(r.box.state).outcomes, Visibility.PUBLIC)
    expected = chance_outcome(posed, [SECRETS[s].chance_secret("e~1") for s in (0, 1)])
    assert found == (expected, ChanceResolved("e", expected, (2,)))  # (the engine's id)


def test_an_event_is_drawn_again_once_per_loss() -> None:
    r = committed("e")
    r.seats.replace(2, 1, "absent", final=False)
    r.chance.redraw_lost(lambda seat, event: False)
    r.chance.redraw_lost(lambda seat, event: False)
    assert r.events == [ChanceRedrawn("e", "e~1")]
    r.commit(0)
    r.commit(1)
    r.seats.replace(1, 2, "absent", final=False)
    r.chance.redraw_lost(lambda seat, event: False)
    assert r.events == [ChanceRedrawn("e", "e~1"), ChanceRedrawn("e", "e~2")]
    assert r.chance.pending_id() == "e~2"


@pytest.mark.parametrize("why", ["revealed", "recoverable", "resolved", "live"])
def test_a_secret_that_is_not_lost_is_not_drawn_again(why: str) -> None:
    r = committed("e")
    if why == "revealed":
        r.reveal(2, "e")
    if why == "resolved":
        for s in range(3):
            r.reveal(s, "e")
        r.chance.resolve(event(r.box.state))
    if why != "live":
        r.seats.replace(2, 1, "absent", final=False)
    r.chance.redraw_lost(lambda seat, event: why == "recoverable" and (seat, event) == (2, "e"))
    assert r.events == [] and r.chance.alias == {} and not r.chance.dead


def test_a_replaced_seats_published_secret_counts_as_revealed() -> None:
    r = committed("e", "f")
    secret = SECRETS[2].chance_secret("f")
    r.chance.published["f"] = {2: secret}
    r.seats.replace(2, 1, "absent", final=False)
    r.chance.use_published(2)
    assert r.chance.secrets == {"f": {2: secret}}
    assert r.shortfalls == [secret_from_delivery("f", 2)]
    r.chance.use_published(2)  # (once)
    assert r.shortfalls == [secret_from_delivery("f", 2)]


def test_a_published_secret_of_a_resolved_event_is_not_used() -> None:
    r = committed("e")
    for s in range(3):
        r.reveal(s, "e")
    r.chance.resolve(event(r.box.state))
    r.chance.published["e"] = {2: bytes(32)}
    r.chance.use_published(2)
    assert r.chance.secrets["e"][2] == SECRETS[2].chance_secret("e")
    assert r.shortfalls == []


# --------------------------------------------------------------------------- early turns


def step_turning(event_id: str, deciding: frozenset[int] = frozenset()) -> Scripted:
    return Scripted(Simultaneous("L1.R3.play", frozenset({0, 1, 2})),
                    turned=(event_id, deciding))


def digested(r: Rig) -> None:
    for s in range(r.n):
        r.digest(s)
    assert r.chance.close_digest_round()


def test_a_step_turns_a_closed_hidden_event_early() -> None:
    r = committed("L1.level", "h")
    digested(r)
    r.box.state = step_turning("h")
    assert r.chance.early_turn() == "h"
    assert [r.chance.early_secret_owed(s) for s in range(3)] == ["h", "h", "h"]
    assert r.reveal(1, "h")
    assert r.chance.early_secret_owed(1) is None
    assert reveal_body(r.chance, SECRETS[0], VERSION) == reveal_of(0, "h")


@pytest.mark.parametrize("why", ["follow-up", "digest due", "not closed", "resolved"])
def test_no_early_turn(why: str) -> None:
    r = committed("L1.level", "h")
    digested(r)
    if why == "digest due":
        r.box.state = pending("g")
        r.commit(0)
    if why == "resolved":
        r.box.state = pending("h", visibility=Visibility.HIDDEN)
        for s in range(3):
            r.reveal(s, "h")
        assert r.chance.resolve(event(r.box.state)) is not None
    r.box.state = step_turning("x" if why == "not closed" else "h",
                               frozenset({1}) if why == "follow-up" else frozenset())
    assert r.chance.early_turn() is None
    assert r.chance.early_secret_owed(0) is None


def test_an_early_turns_reveal_carries_the_state_of_its_step() -> None:
    r = committed("L1.level", "h")
    digested(r)
    r.box.state = step_turning("h")
    body = reveal_of(0, "h")
    assert not r.chance.early_reveal_state(body, signed(0, body, state=STEP_STATE))
    r.chance.note_early_turn(lambda: STEP_STATE)
    assert r.chance.early_state == {"h": {STEP_STATE}}
    assert r.chance.early_reveal_state(body, signed(0, body, state=STEP_STATE))
    assert not r.chance.early_reveal_state(body, signed(0, body))


def test_a_step_without_an_early_turn_notes_nothing() -> None:
    r = committed("L1.level", "h")
    r.box.state = step_turning("h", frozenset({2}))
    r.chance.note_early_turn(lambda: STEP_STATE)
    assert r.chance.early_state == {}


# --------------------------------------------------------------------------- the seat's bodies


def test_the_writers_bodies_are_taken() -> None:
    r = rig("e", "f")
    for s in range(3):
        body = commit_body(r.chance, SECRETS[s], KEYS[s], MATCH_ID, s)
        assert body == commit_to(s, ("e", "f"))
        assert r.chance.on_commit(s, signed(s, body), body)
    for s in range(3):
        body = reveal_body(r.chance, SECRETS[s], VERSION)
        assert r.chance.on_reveal(s, signed(s, body), body, "e")
        assert r.digest(s)
    assert r.chance.close_digest_round()
