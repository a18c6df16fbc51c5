"""Private-knowledge rounds on their own (protocol/mechanisms/knowledge.py, protocol.md §7.5): a
:class:`KnowledgeRounds` over a :class:`Chance` and a scripted game state that owes a seat
hidden events, fed signed SEAL_KEY / DELIVERY / KEY_RELEASE messages."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from protocol.match.events import ChanceRedrawn, Event, PeerMisbehaved, RoundKeyReleased
from protocol.mechanisms.absence import Seats
from protocol.mechanisms.chance import Chance
from protocol.mechanisms.knowledge import (
    KnowledgeRound,
    KnowledgeRounds,
    delivery_body,
    key_body,
    release_body,
    round_private,
)
from protocol.wire.delivery import round_key
from protocol.wire.messages import (
    ChanceRevealBody,
    DeliveryBody,
    KeyReleaseBody,
    Message,
    ReclaimBody,
    SealKeyBody,
    WelcomeBody,
)
from protocol.wire.v1_names import (
    key_for_wrong_round,
    key_names_wrong_events,
    lying_delivery,
    released_wrong_key,
    round_id,
    secret_from_delivery,
)

from engine.core import KnowledgeRequest, Simultaneous, Visibility
from protocol.crypto import SeatSecrets
from protocol.errors import Fault, Mismatch
from tests.protocol.kit import (
    MATCH_ID,
    NAMING,
    OTHER_SECRETS,
    PRIVATE,
    SECRETS,
    Box,
    Scripted,
    commit_to,
    keys,
    pending,
    reveal_of,
    signed,
)

ROUND = round_id(0, "h1")
STEP = Simultaneous("L1.R2.play", frozenset({0, 1, 2}))


@dataclass
class Rig:
    box: Box
    n: int = 3
    events: list[Event] = field(default_factory=list)
    shortfalls: list[str] = field(default_factory=list)
    sent: dict[tuple[int, str], Message] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.seats = Seats(self.n, self.events.append)
        self.chance = Chance(match_id=MATCH_ID, keys=keys(self.n), seats=self.seats,
                             state=self.box, emit=self.events.append,
                             shortfalls=self.shortfalls, naming=NAMING)
        self.knowledge = KnowledgeRounds(match_id=MATCH_ID, keys=keys(self.n), seats=self.seats,
                                         chance=self.chance, emit=self.events.append,
                                         naming=NAMING)

    def owe(self, *requests: KnowledgeRequest) -> None:
        """The game now owes these requests (the core opens rounds at each new state)."""
        self.box.state = Scripted(STEP, requests=requests)
        self.knowledge.open_rounds(self.box.state)

    def round(self, name: str = ROUND) -> KnowledgeRound:
        return self.knowledge.rounds[name]

    def key(self, seat: int = 0) -> bool:
        body = key_body(self.knowledge, seat, SECRETS[seat])
        message = self.sent[(seat, "key")] = signed(seat, body)
        return self.knowledge.on_key(seat, message, body)

    def deliver(self, seat: int, secrets: tuple[SeatSecrets, ...] = SECRETS) -> bool:
        body = delivery_body(self.knowledge, seat, secrets[seat], PRIVATE[seat], MATCH_ID)
        message = self.sent[(seat, "delivery")] = signed(seat, body)
        return self.knowledge.on_delivery(seat, message, body)

    def release(self, seat: int = 0, name: str = ROUND) -> bool:
        body = KeyReleaseBody(name, round_private(SECRETS[seat], name, NAMING))
        message = self.sent[(seat, "release")] = signed(seat, body)
        return self.knowledge.on_release(seat, message, body)

    def turn(self, *events: str) -> None:
        """The hidden ``events`` are turned: every committed secret revealed, each resolved."""
        for e in events:
            self.box.state = pending(e, visibility=Visibility.HIDDEN)
            for s, _ in sorted(self.chance.commitments[e].items()):
                if not self.chance.revealed(s, e):
                    body = reveal_of(s, e)
                    self.chance.on_reveal(s, signed(s, body), body, e)
            assert self.chance.resolve(self.box.state.waiting.event) is not None
        self.box.state = Scripted(STEP)
        self.knowledge.mark_due(lambda: False)


def committed(*events: str, absent: tuple[int, ...] = ()) -> Rig:
    """Every live seat committed to the hidden ``events``."""
    r = Rig(Box(pending("L1.level", *(events or ("h1", "h2")))))
    for s in absent:
        r.seats.replace(s, 0, "absent", final=False)
    for s in r.seats.live_seats():
        body = commit_to(s, r.chance.wanted())
        r.chance.on_commit(s, signed(s, body), body)
    r.turn("L1.level")
    return r


def opened(*events: str) -> Rig:
    """Seat 0 is owed the hidden ``events`` (h1 and h2 by default)."""
    r = committed(*events)
    r.owe(KnowledgeRequest(0, events or ("h1", "h2")))
    return r


def keyed() -> Rig:
    r = opened()
    assert r.key()
    return r


def complete() -> Rig:
    r = keyed()
    assert r.deliver(1) and r.deliver(2)
    return r


def owed(r: Rig, predicate: str) -> list[int]:
    return [s for s in range(r.n) if getattr(r.knowledge, predicate)(s)]


# --------------------------------------------------------------------------- opening a round


def test_a_round_opens_for_the_seat_the_game_owes_hidden_events() -> None:
    r = opened()
    assert list(r.knowledge.rounds) == [ROUND]
    assert r.round() == KnowledgeRound(ROUND, 0, ("h1", "h2"),
                                       {1: ("h1", "h2"), 2: ("h1", "h2")})
    assert r.knowledge.live() == [r.round()]
    assert owed(r, "owes_key") == [0]
    assert owed(r, "gated") == [0]
    assert owed(r, "waits") == [0]
    assert owed(r, "owes_delivery") == owed(r, "owes_release") == []
    assert not r.knowledge.may_release(0)


def test_no_round_without_a_request() -> None:
    r = committed()
    r.owe()
    assert r.knowledge.rounds == {} and r.knowledge.live() == []
    assert not any(owed(r, p) for p in ("owes_key", "owes_delivery", "owes_release", "waits"))


def test_a_round_opens_once_per_event() -> None:
    r = committed("h1", "h2", "h3")
    r.owe(KnowledgeRequest(0, ("h1", "h2")))
    r.owe(KnowledgeRequest(0, ("h1", "h2")))  # the same state again, or a later one
    assert list(r.knowledge.rounds) == [ROUND]
    r.owe(KnowledgeRequest(0, ("h2", "h3")))
    assert list(r.knowledge.rounds) == [ROUND, round_id(0, "h3")]
    assert r.round(round_id(0, "h3")).events == ("h3",)


def test_a_round_waits_until_its_events_are_committed() -> None:
    r = committed("h1")
    r.owe(KnowledgeRequest(0, ("h1", "h9")))  # h9: not every seat committed to it yet
    assert r.round().events == ("h1",)
    r.box.state = pending("h9")
    for s in range(3):
        body = commit_to(s, ("h9",))
        r.chance.on_commit(s, signed(s, body), body)
    r.owe(KnowledgeRequest(0, ("h1", "h9")))
    assert r.round(round_id(0, "h9")).events == ("h9",)


def test_a_zombie_never_looks() -> None:
    r = committed()
    r.seats.replace(0, 3, "absent", final=False)
    r.owe(KnowledgeRequest(0, ("h1", "h2")))
    assert r.knowledge.rounds == {}
    # Even once it plays again, the events were shown (to its zombie, which never looks).
    assert r.seats.on_replaced_seat_message(0, ReclaimBody(3)) == "reclaim"
    for s in (1, 2):
        r.seats.on_welcome(s, WelcomeBody(0, 3), lambda seat: 0)
    r.seats.rejoin_at_turn(1, "L1.R2.play.1")
    assert r.seats.live(0)
    r.owe(KnowledgeRequest(0, ("h1", "h2")))
    assert r.knowledge.rounds == {}


def test_a_round_over_an_event_drawn_again_is_named_by_its_new_id() -> None:
    r = committed("h1")
    r.seats.replace(2, 4, "absent", final=False)
    r.chance.redraw_lost(lambda seat, event: False)
    r.box.state = pending("h1~1")
    for s in (0, 1):
        body = commit_to(s, r.chance.wanted())
        r.chance.on_commit(s, signed(s, body), body)
    r.owe(KnowledgeRequest(0, ("h1",)))  # (the engine names its own id)
    name = round_id(0, "h1~1")
    assert list(r.knowledge.rounds) == [name]
    assert r.round(name).events == ("h1~1",) and r.round(name).deliverers == {1: ("h1~1",)}


def test_only_live_contributors_deliver() -> None:
    r = committed(absent=(2,))
    r.owe(KnowledgeRequest(0, ("h1", "h2")))
    assert r.round().deliverers == {1: ("h1", "h2")}


# --------------------------------------------------------------------------- the key


def test_the_key_lets_the_deliveries_begin() -> None:
    r = keyed()
    assert r.round().key_message == r.sent[(0, "key")]
    assert r.round().public_key == round_key(SECRETS[0].round_randomness(ROUND))[1]
    assert owed(r, "owes_key") == [] and owed(r, "gated") == []
    assert owed(r, "owes_delivery") == [1, 2]
    assert r.knowledge.delivery_round(1) is r.round()
    assert owed(r, "waits") == [0]  # its decisions wait for the deliveries
    assert r.knowledge.may_release(0) and not r.knowledge.may_release(1)


@pytest.mark.parametrize(("seat", "name", "events", "reason"), [
    (1, ROUND, ("h1", "h2"), key_for_wrong_round(ROUND)),  # another seat's round
    (0, round_id(0, "h9"), ("h1", "h2"), key_for_wrong_round(round_id(0, "h9"))),  # no round
    (0, ROUND, ("h1",), key_names_wrong_events(("h1",), ("h1", "h2"))),
    (0, ROUND, ("h2", "h1"), key_names_wrong_events(("h2", "h1"), ("h1", "h2"))),
])
def test_a_wrong_key_is_a_fault(seat: int, name: str, events: tuple[str, ...],
                                reason: str) -> None:
    r = opened()
    body = SealKeyBody(name, events, bytes(32))
    message = signed(seat, body)
    with pytest.raises(Fault) as info:
        r.knowledge.on_key(seat, message, body)
    assert not isinstance(info.value, Mismatch)
    assert info.value.reason == reason and info.value.evidence == (message,)
    assert r.round().key_message is None


def test_a_second_key_is_a_fault() -> None:
    r = keyed()
    body = SealKeyBody(ROUND, ("h1", "h2"), bytes(32))
    with pytest.raises(Fault) as info:
        r.knowledge.on_key(0, signed(0, body, seq=1), body)
    assert info.value.reason == key_for_wrong_round(ROUND)


# --------------------------------------------------------------------------- deliveries


def test_the_round_is_complete_once_every_delivery_is_in() -> None:
    r = keyed()
    assert r.deliver(2)
    assert owed(r, "owes_delivery") == [1] and owed(r, "waits") == [0]
    assert r.deliver(1)
    assert r.round().complete
    assert r.round().deliveries == {1: r.sent[(1, "delivery")], 2: r.sent[(2, "delivery")]}
    assert owed(r, "owes_delivery") == [] and owed(r, "waits") == []
    assert owed(r, "owes_release") == []  # its events are still hidden


def test_a_delivery_before_the_key_waits() -> None:
    r = opened()
    body = DeliveryBody(ROUND, b"sealed")
    assert not r.knowledge.on_delivery(1, signed(1, body), body)
    other = DeliveryBody(round_id(1, "h1"), b"sealed")  # a round this peer has not opened
    assert not r.knowledge.on_delivery(2, signed(2, other), other)
    assert r.round().deliveries == {}


def test_a_delivery_not_owed_is_a_fault() -> None:
    r = keyed()
    r.deliver(1)
    for seat in (0, 1):  # the round's own seat; a second delivery
        body = DeliveryBody(ROUND, b"sealed")
        message = signed(seat, body, seq=2)
        with pytest.raises(Fault) as info:
            r.knowledge.on_delivery(seat, message, body)
        assert info.value.reason == f"sent a DELIVERY for round {ROUND!r}, not one it owes"
        assert info.value.evidence == (message,)


# --------------------------------------------------------------------------- the release


def test_the_key_is_owed_once_the_events_are_turned() -> None:
    r = complete()
    r.turn("h1")
    assert owed(r, "owes_release") == []
    r.turn("h2")
    assert owed(r, "owes_release") == [0] and owed(r, "gated") == [0]
    assert release_body(r.knowledge, 0, SECRETS[0]) == KeyReleaseBody(
        ROUND, round_private(SECRETS[0], ROUND, NAMING))


def test_the_key_is_owed_at_the_end_of_the_match() -> None:
    r = complete()
    r.knowledge.mark_due(lambda: True)
    assert owed(r, "owes_release") == [0]


def test_no_key_is_owed_before_the_round_is_complete() -> None:
    r = keyed()
    r.deliver(1)
    r.turn("h1", "h2")
    assert r.round().due and owed(r, "owes_release") == []


def test_the_release_opens_and_checks_every_delivery() -> None:
    r = complete()
    r.turn("h1", "h2")
    assert r.release()
    assert r.events == [RoundKeyReleased(ROUND, 0, ())]
    assert r.chance.published == {e: {s: SECRETS[s].chance_secret(e) for s in (1, 2)}
                                  for e in ("h1", "h2")}
    assert r.knowledge.live() == []  # finished: nobody owes it anything
    assert not any(owed(r, p) for p in ("owes_key", "owes_delivery", "owes_release", "waits",
                                         "gated"))
    with pytest.raises(Fault):  # (not open any more)
        r.release()


def test_a_lying_delivery_is_blamed_when_the_key_is_released() -> None:
    r = keyed()
    r.deliver(1)
    r.deliver(2, OTHER_SECRETS)
    r.turn("h1", "h2")
    assert r.release()
    assert r.events == [
        PeerMisbehaved(2, lying_delivery(0, ROUND),
                       (r.sent[(2, "delivery")], r.sent[(0, "key")], r.sent[(0, "release")])),
        RoundKeyReleased(ROUND, 0, (2,))]
    assert set(r.chance.published["h1"]) == {1}


@pytest.mark.parametrize("case", ["another seat", "no such round", "before its key"])
def test_a_release_not_of_its_own_keyed_round_is_a_fault(case: str) -> None:
    r = opened() if case == "before its key" else keyed()
    seat, name = {"another seat": (1, ROUND), "no such round": (0, "torch.0.h9"),
                  "before its key": (0, ROUND)}[case]
    body = KeyReleaseBody(name, bytes(32))
    message = signed(seat, body)
    with pytest.raises(Fault) as info:
        r.knowledge.on_release(seat, message, body)
    assert info.value.reason == f"released a key for round {name!r}, not its own open one"
    assert info.value.evidence == (message,)


def test_releasing_another_key_than_the_one_named_is_a_fault() -> None:
    r = complete()
    body = KeyReleaseBody(ROUND, round_private(SECRETS[1], ROUND, NAMING))
    message = signed(0, body, seq=1)
    with pytest.raises(Fault) as info:
        r.knowledge.on_release(0, message, body)
    assert info.value.reason == released_wrong_key()
    assert info.value.evidence == (r.sent[(0, "key")], message)
    assert r.round().release is None


def test_an_early_release_checks_late_deliveries_as_they_come() -> None:
    r = keyed()
    r.deliver(1)
    assert r.release()  # early, to prove a lie, say
    assert r.events == [RoundKeyReleased(ROUND, 0, ())]
    assert set(r.chance.published["h1"]) == {1}
    assert owed(r, "owes_delivery") == [2]  # the round still waits for seat 2
    assert r.deliver(2, OTHER_SECRETS)
    assert r.events[1:] == [PeerMisbehaved(2, lying_delivery(0, ROUND), (
        r.sent[(2, "delivery")], r.sent[(0, "key")], r.sent[(0, "release")]))]
    assert r.knowledge.live() == []


def test_a_late_honest_delivery_is_published_at_once() -> None:
    r = keyed()
    r.release()
    r.deliver(1)
    r.deliver(2)
    assert r.chance.published["h2"] == {s: SECRETS[s].chance_secret("h2") for s in (1, 2)}
    assert len(r.events) == 1


# --------------------------------------------------------------------------- a replaced seat


def test_the_round_of_a_replaced_seat_is_void() -> None:
    r = keyed()
    r.deliver(1)
    r.seats.replace(0, 2, "absent", final=False)
    r.knowledge.on_replaced(0)
    assert r.round().void and r.knowledge.live() == []
    assert not any(owed(r, p) for p in ("owes_key", "owes_delivery", "owes_release", "waits"))
    # A delivery its sender signed before it saw the replacement is skipped.
    assert r.knowledge.stale(2, DeliveryBody(ROUND, b"sealed"))
    assert not r.knowledge.stale(1, DeliveryBody(ROUND, b"sealed"))  # (it delivered already)
    assert not r.knowledge.recoverable(1, "h1")


def test_a_round_stops_waiting_for_a_deliverer_replaced_before_delivering() -> None:
    r = keyed()
    r.deliver(1)
    r.seats.replace(2, 4, "absent", final=False)
    r.knowledge.on_replaced(2)
    assert r.round().deliverers == {1: ("h1", "h2")}
    assert r.round().complete and owed(r, "waits") == []
    assert not r.knowledge.recoverable(2, "h1")


def test_a_released_round_stops_waiting_for_a_deliverer_replaced_before_delivering() -> None:
    r = keyed()
    r.deliver(1)
    r.seats.replace(1, 4, "absent", final=False)
    r.knowledge.on_replaced(1)
    assert r.round().publish
    assert r.release()  # early: what the round's seat does for a round to publish
    assert owed(r, "waits") == [0]  # (still waiting for seat 2's delivery, which may come)
    r.seats.replace(2, 4, "absent", final=False)
    r.knowledge.on_replaced(2)  # seat 2 leaves without delivering
    assert owed(r, "waits") == []
    assert r.knowledge.live() == []


def test_a_replaced_deliverers_secrets_are_published_with_the_key() -> None:
    r = complete()
    assert not r.knowledge.recoverable(2, "h9")
    r.seats.replace(2, 4, "absent", final=False)
    r.knowledge.on_replaced(2)
    assert r.round().publish
    assert r.knowledge.recoverable(2, "h1") and r.knowledge.recoverable(2, "h2")
    r.chance.redraw_lost(r.knowledge.recoverable)  # (what the core does): nothing lost
    assert r.events == []
    r.release()
    # Published on its behalf: its secrets count as revealed.
    assert {e: r.chance.secrets[e] for e in ("h1", "h2")} == {
        e: {2: SECRETS[2].chance_secret(e)} for e in ("h1", "h2")}
    assert r.shortfalls == [secret_from_delivery(e, 2) for e in ("h1", "h2")]


def test_a_replaced_deliverers_lie_draws_its_events_again() -> None:
    r = keyed()
    r.deliver(1)
    r.deliver(2, OTHER_SECRETS)
    r.seats.replace(2, 4, "absent", final=False)
    r.knowledge.on_replaced(2)
    r.release()
    assert ChanceRedrawn("h1", "h1~1") in r.events and ChanceRedrawn("h2", "h2~1") in r.events
    assert r.chance.dead == {"h1", "h2"}


def test_messages_about_an_event_drawn_again_are_stale() -> None:
    r = opened("h1")
    r.seats.replace(2, 4, "absent", final=False)
    r.knowledge.on_replaced(2)
    r.chance.redraw_lost(r.knowledge.recoverable)
    assert r.chance.dead == {"h1"}
    assert r.knowledge.stale(1, ChanceRevealBody((("h1", bytes(32)),)))
    assert not r.knowledge.stale(1, ChanceRevealBody((("h2", bytes(32)),)))
    # A round over it that never opened here is dead; the one open here is not.
    other = round_id(1, "h1")
    assert r.knowledge.stale(1, SealKeyBody(other, ("h1",), bytes(32)))
    assert r.knowledge.stale(0, DeliveryBody(other, b"sealed"))
    assert r.knowledge.stale(1, KeyReleaseBody(other, bytes(32)))
    assert not r.knowledge.stale(0, SealKeyBody(ROUND, ("h1",), bytes(32)))
    assert not r.knowledge.stale(1, SealKeyBody("not a round", ("h1",), bytes(32)))
