"""Protocol core II against cheaters and absentees: torch rounds, absent seats, reclaiming,
final signatures.  Each attack asserts that the honest peers agree and name the right seat."""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from typing import Any

import pytest
from protocol.match.core import (
    ChanceRedrawn,
    ChanceResolved,
    DecisionPending,
    Event,
    LocalSeat,
    MatchCore,
    PeerMisbehaved,
    PrivateKnowledge,
    ResultSigned,
    RoundKeyReleased,
    SeatReclaimed,
    SeatReplaced,
)
from protocol.mesh import Network, Stalled
from protocol.verify.verifier import INVALID, VALID, verify
from protocol.wire.delivery import open_delivery, seal_delivery
from protocol.wire.feed import Feed
from protocol.wire.messages import (
    AbsentBody,
    ActBody,
    CommitBody,
    DeliveryBody,
    KeyReleaseBody,
    Kind,
    Message,
    RevealBody,
    sign_message,
)

from benchmarks.scenario import raiders_network
from engine.core import GameState, Over
from engine.raiders.bots import RandomBot
from engine.sim import bot_key
from protocol.crypto import commit_set_digest, play_commitment
from tests.protocol.helpers import direct_reveals, match_file, patient

Decider = Callable[[GameState[Any], int], str]


def torch_decider(seed: bytes, keen: bool = True) -> Decider:
    """Peeks whenever it may (``keen``), else plays a random legal action."""
    bot = RandomBot()
    attempts: dict[tuple[str, int], int] = {}

    def decide(state: GameState[Any], seat: int) -> str:
        legal = [state.format_action(a) for a in state.legal_actions(seat)]
        if keen and "torch" in legal:
            return "torch"
        step = state.waiting.step  # type: ignore[union-attr]
        n = attempts.get((step, seat), 0)
        attempts[(step, seat)] = n + 1
        return state.format_action(bot.choose(state.view(seat), bot_key(seed, step, seat, n)))
    return decide


def keen_network(n: int, tag: bytes, keen: tuple[int, ...] = (0,)) -> Network:
    return raiders_network(n, tag=tag,
                           deciders=[torch_decider(b"d%d" % i, i in keen) for i in range(n)])


def all_events(net: Network, seat: int, kind: type) -> list[Any]:
    return [e for e in net.events[seat] if isinstance(e, kind)]


def silence(net: Network, seat: int, when: Callable[[Message], bool]) -> list[Message]:
    """From the first message ``seat`` would send for which ``when`` holds, it sends nothing
    more (a crash, or a refusal).  Returns the list the withheld messages go to."""
    local = net.seats[seat]
    original = local.messages_to_send
    withheld: list[Message] = []

    def send() -> list[Message]:
        if withheld:
            return []
        out = []
        for message in original():
            if withheld or when(message):
                withheld.append(message)
                local.sent.pop()
                continue
            out.append(message)
        return out
    local.messages_to_send = send  # type: ignore[method-assign]
    return withheld


def honest(net: Network, culprits: set[int]) -> list[int]:
    return [i for i in range(len(net.cores)) if i not in culprits]


def assert_honest_agree(net: Network, culprits: set[int]) -> None:
    seats = honest(net, culprits)
    digests = {net.cores[i].public_digest() for i in seats}
    assert len(digests) == 1
    for i in seats:
        core = net.cores[i]
        assert isinstance(core.state.waiting, Over)
        assert core.signed
        assert all_events(net, i, ResultSigned)
        blamed = {e.seat for e in all_events(net, i, PeerMisbehaved)}
        assert blamed <= culprits, f"peer {i} blamed {blamed}"


# --------------------------------------------------------------------------- torch rounds


@pytest.mark.parametrize("tag", [b"k1", b"k2", b"k3", b"k4"])
def test_torch_user_learns_exactly_the_face_down_rooms_and_nobody_else_anything(
        tag: bytes) -> None:
    net = keen_network(5, tag, keen=(0, 1, 2, 3, 4))
    net.pump()
    assert_honest_agree(net, set())
    turned = {e.event: e.outcome for e in all_events(net, 1, ChanceResolved)}
    learned = [e for i in range(5) for e in all_events(net, i, PrivateKnowledge)]
    assert learned, "no torch was used"
    rounds = net.cores[1].rounds
    users = {r.seat for r in rounds.values()}
    assert users  # those who hold a torch peek at once
    for event in learned:
        r = rounds[event.round]
        assert event.seat == r.seat  # only a torch user learns anything
        for room, card in event.knowledge:
            assert turned[room] == card  # and what it learns is the truth
        assert {room for room, _ in event.knowledge} == set(r.events)  # exactly the row's
    assert len(learned) == len(rounds)
    for i in set(range(5)) - users:
        assert net.seats[i].knowledge == {}
        assert not all_events(net, i, PrivateKnowledge)
    # Nobody but the torch user can open a delivery before the key is published: another
    # seat's torch key for the same round does not open it.
    core = net.cores[1]
    for r in core.rounds.values():
        for deliverer, message in r.deliveries.items():
            body = message.content
            assert isinstance(body, DeliveryBody)
            for other in range(5):
                if other == r.seat:
                    continue
                with pytest.raises(Exception, match="does not open"):
                    open_delivery(net.seats[other].round_private(r.id), body.sealed,
                                  match_id=core.match_id, receiver=r.seat,
                                  deliverer=deliverer, deliverer_key=core.keys[deliverer],
                                  events=r.deliverers[deliverer])
    # Every round's key was published at the end of its row, so the verifier checked them all.
    assert all(r.release is not None for r in core.rounds.values())
    verdict = verify(match_file(net, 2))
    assert verdict.verdict == VALID, verdict.reason
    assert sum("deliveries checked" in note for note in verdict.notes) == len(core.rounds)


def test_torch_knowledge_never_enters_the_public_part() -> None:
    for tag in (b"public", b"public-2", b"public-3", b"public-4"):
        net = keen_network(4, tag, keen=(2,))
        net.pump()
        learned = all_events(net, 2, PrivateKnowledge)
        if learned:
            break
    assert learned, "seat 2 never looked"
    for core in net.cores:
        # The shared state holds no seen card: only the engine's note of what is owed.
        position = core.state.to_position(private=True)
        assert "seen" not in str(position) or all(
            not k.get("seen") for k in position.get("knowledge", []))  # type: ignore[union-attr]


def test_lying_torch_delivery_is_proved_by_the_torch_user() -> None:
    net = keen_network(4, b"liar", keen=(0,))
    liar = net.seats[2]
    original = liar.messages_to_send
    lied: list[Message] = []

    def send() -> list[Message]:
        out = []
        for message in original():
            if message.kind is Kind.DELIVERY and not lied:
                body = message.content
                assert isinstance(body, DeliveryBody)
                core = net.cores[2]
                r = core.rounds[body.round]
                fake = tuple((e, bytes(32)) for e in r.deliverers[2])
                sealed = seal_delivery(liar.key, r.public_key, match_id=core.match_id,
                                       receiver=r.seat, deliverer=2, secrets=fake)
                liar.sent.pop()
                message = liar.sign_next(Kind.DELIVERY, dataclasses.replace(body, sealed=sealed))
                lied.append(message)
            out.append(message)
        return out
    liar.messages_to_send = send  # type: ignore[method-assign]
    net.pump()
    assert lied
    for i in honest(net, {2}):
        blames = all_events(net, i, PeerMisbehaved)
        assert [e.seat for e in blames] == [2]
        kinds = [m.kind for m in blames[0].evidence]
        assert kinds == [Kind.DELIVERY, Kind.SEAL_KEY, Kind.KEY_RELEASE]
        assert blames[0].evidence[0] == lied[0]
        released = all_events(net, i, RoundKeyReleased)
        assert released[0].bad == (2,)
        # Blamed, not replaced: the proof is in the torch user's feed, unordered with the
        # liar's own messages, so a replacement would not fall at the same point on every peer.
        assert not any(e.seat == 2 for e in all_events(net, i, SeatReplaced))
        assert 2 in net.cores[i].end_signatures  # it played on to the end
    # The torch user released at once, before the end of its row: its knowledge is void.
    assert not all_events(net, 0, PrivateKnowledge)[:1] or all(
        e.round != lied[0].content.round  # type: ignore[union-attr]
        for e in all_events(net, 0, PrivateKnowledge))
    assert_honest_agree(net, {2})
    verdict = verify(match_file(net, 1))
    assert verdict.verdict == INVALID and verdict.blamed == (2,)
    assert "lies" in verdict.reason


def test_torch_user_who_never_publishes_its_key_is_replaced() -> None:
    net = keen_network(4, b"keeper", keen=(1,))
    withheld = silence(net, 1, lambda m: m.kind is Kind.KEY_RELEASE)
    net.run_with_timeouts()
    assert withheld and withheld[0].kind is Kind.KEY_RELEASE
    for i in honest(net, {1}):
        replaced = all_events(net, i, SeatReplaced)
        assert [e.seat for e in replaced] == [1]
        assert "absent" in replaced[0].reason
    assert_honest_agree(net, {1})
    verdict = verify(match_file(net, 0))
    assert verdict.verdict == VALID, verdict.reason
    assert any("never published" in note for note in verdict.notes)
    assert any("seat 1 was replaced" in note for note in verdict.notes)
    assert any("played by its zombie" in note for note in verdict.notes)


# --------------------------------------------------------------------------- absent seats


def test_refusal_to_reveal_a_play_makes_the_seat_absent_and_its_zombie_plays() -> None:
    net = raiders_network(3, tag=b"refuse-play")
    silence(net, 2, lambda m: m.kind is Kind.REVEAL and m.content.step.startswith("L2"))  # type: ignore[union-attr]
    net.run_with_timeouts()
    assert_honest_agree(net, {2})
    for i in (0, 1):
        replaced = all_events(net, i, SeatReplaced)
        assert [(e.seat, "absent" in e.reason) for e in replaced] == [(2, True)]
        zombie = [e for e in net.events[i] if getattr(e, "zombie", False)]
        assert zombie and {e.seat for e in zombie} == {2}
    # Its end signature is not needed; the other two signed.
    assert set(net.cores[0].end_signatures) == {0, 1}
    verdict = verify(match_file(net, 0))
    assert verdict.verdict == VALID, verdict.reason


def _hidden_reveal(net: Network) -> Callable[[Message], bool]:
    """A CHANCE_REVEAL of a face-down room (a hidden event turned in play)."""
    def pick(message: Message) -> bool:
        if message.kind is not Kind.CHANCE_REVEAL:
            return False
        event = message.content.secrets[0][0]  # type: ignore[union-attr]
        state = net.cores[0].state
        w = state.waiting
        return getattr(getattr(w, "event", None), "visibility", None) is not None and (
            w.event.visibility.name == "HIDDEN" and event.startswith("L"))  # type: ignore[union-attr]
    return pick


def test_refusal_to_reveal_a_hidden_secret_makes_the_room_drawn_again() -> None:
    net = raiders_network(4, tag=b"refuse-hidden")
    silence(net, 3, _hidden_reveal(net))
    net.run_with_timeouts()
    assert_honest_agree(net, {3})
    for i in (0, 1, 2):
        redrawn = all_events(net, i, ChanceRedrawn)
        assert redrawn, "no re-draw"
        turned = [e for e in all_events(net, i, ChanceResolved) if e.missing == (3,)]
        assert turned  # drawn from the three remaining seats
        assert all("~" not in e.event for e in turned)  # the engine sees its own event ids
    verdict = verify(match_file(net, 0))
    assert verdict.verdict == VALID, verdict.reason
    assert any("drawn again" in note for note in verdict.notes)
    assert any("drawn without seat 3" in note for note in verdict.notes)


def test_deliverer_leaving_mid_row_has_its_delivered_secrets_published() -> None:
    """A seat that delivered to a torch user and then goes silent: the torch user publishes
    its key, and the silent seat's secrets come from its own signed delivery (no re-draw of
    those rooms)."""
    net = keen_network(4, b"deliverer", keen=(0, 1, 2, 3))
    delivered: list[Message] = []

    def after_delivery(message: Message) -> bool:
        if delivered:
            return True
        if message.kind is Kind.DELIVERY:
            delivered.append(message)
        return False
    silence(net, 1, after_delivery)
    net.run_with_timeouts()
    assert delivered
    assert_honest_agree(net, {1})
    round_id = delivered[0].content.round  # type: ignore[union-attr]
    core = net.cores[0]
    r = core.rounds[round_id]
    assert r.release is not None  # published
    redrawn = {e.event for e in all_events(net, 0, ChanceRedrawn)}
    # Seat 1's secrets of that round's rooms were published, not lost: no re-draw of them.
    assert not redrawn & set(r.deliverers[1])
    for event in r.deliverers[1]:
        assert 1 in core.chance.secrets.get(event, {})
    verdict = verify(match_file(net, 0))
    assert verdict.verdict == VALID, verdict.reason


def _late_commit(net: Network, target: int) -> list[Message]:
    """``target``'s commitment of level 1's third room is held back (a slow link)."""
    held = silence(net, target, lambda m: m.kind is Kind.COMMIT and m.content.step.startswith(
        "L1.R3"))  # type: ignore[union-attr]
    net.pump()
    assert held, "the seat never got to the third room"
    return held


def _vote_then_deliver(net: Network, target: int, voters: tuple[int, ...],
                       held: list[Message]) -> None:
    """``voters`` sign that ``target`` is absent; their votes reach every peer before the
    target's late message does; the target runs the honest client again."""
    count = net.cores[voters[0]].cursor[target]
    for v in voters:
        net.queue.append(net.seats[v].sign_next(Kind.ABSENT, AbsentBody(target, count)))
    local = net.seats[target]
    del local.messages_to_send  # back to the honest client
    local.sent.append(held[0])
    local.pending_reveal.clear()
    local.restore(list(local.sent))
    net.queue.append(held[0])


def test_false_absence_by_all_other_seats_is_undone_by_a_reclaim() -> None:
    net = raiders_network(3, tag=b"collude")
    held = _late_commit(net, 2)
    _vote_then_deliver(net, 2, (0, 1), held)
    net.run_with_timeouts()
    for i in range(3):
        assert [e.seat for e in all_events(net, i, SeatReplaced)] == [2]
        assert [e.seat for e in all_events(net, i, SeatReclaimed)] == [2]
    assert held[0] in net.cores[0].stale  # its real message came too late, and is on file
    assert_honest_agree(net, set())
    assert set(net.cores[0].end_signatures) == {0, 1, 2}
    verdict = verify(match_file(net, 2))
    assert verdict.verdict == VALID, verdict.reason
    assert any("seat 2 was replaced" in note for note in verdict.notes)
    assert any("seat 2 reclaimed" in note for note in verdict.notes)
    kinds = [m.kind for m in net.cores[0].feeds[2].messages]
    assert Kind.RECLAIM in kinds
    assert [m.kind for m in net.cores[0].feeds[0].messages].count(Kind.WELCOME) == 1


def test_a_reclaiming_seat_is_never_shown_a_play_before_it_commits() -> None:
    """With a seat that always decides last (and so reveals at once, protocol.md §7.1): while
    another seat reclaims, it commits as usual — a direct reveal would let the reclaiming seat
    rejoin the step after seeing that play.  On the wire, every REVEAL comes after every other
    live decider's commitment, the reclaiming seat's included."""
    net = raiders_network(3, tag=b"collude-direct")
    patient(net, 1)
    local, core = net.seats[1], net.cores[1]
    send = local.messages_to_send
    shown: list[tuple[str, bool]] = []  # (step, a reclaim pending) at each direct reveal

    def checked() -> list[Message]:
        out = send()
        for m in out:
            if m.kind is Kind.REVEAL and 1 not in core.step.commitments:  # type: ignore[union-attr]
                shown.append((m.content.step, bool(core.seats.reclaims)))  # type: ignore[union-attr]
        return out
    local.messages_to_send = checked  # type: ignore[method-assign]
    held = _late_commit(net, 2)
    _vote_then_deliver(net, 2, (0, 1), held)
    net.run_with_timeouts()
    rejoined = [e.step for e in all_events(net, 0, SeatReclaimed)]
    assert [e.seat for e in all_events(net, 0, SeatReclaimed)] == [2]
    assert_honest_agree(net, set())
    assert verify(match_file(net, 0)).verdict == VALID
    seat1 = net.cores[0].feeds[1].messages
    assert {m.content.step for m in direct_reveals(seat1)} == {  # type: ignore[union-attr]
        step for step, _ in shown}
    assert shown and not any(pending for _, pending in shown)
    assert any(m.kind is Kind.COMMIT and m.content.step == rejoined[0]  # type: ignore[union-attr]
               for m in seat1)


def test_a_replaced_seat_still_answers_present_before_it_reclaims() -> None:
    """A seat replaced in its own view answers "present" for another seat whose message it
    holds, before it reclaims: the others may not have replaced it yet, and with three seats
    its answer can be the only vote left to decide the other seat's case (seen over real
    sockets with 3 s stalls: two seats voted out at once at different points; the match
    stalled)."""
    net = raiders_network(3, tag=b"present-while-replaced")
    _late_commit(net, 2)
    core = net.cores[2]
    count, earlier = core.cursor[2], core.cursor[1] - 1
    votes = [net.seats[0].sign_next(Kind.ABSENT, AbsentBody(2, count)),
             net.seats[0].sign_next(Kind.ABSENT, AbsentBody(1, earlier)),
             net.seats[1].sign_next(Kind.ABSENT, AbsentBody(2, count))]
    for vote in votes:
        core.receive(vote)
    assert 2 in core.absent and core.live(1)
    local = net.seats[2]
    del local.messages_to_send  # the honest client again
    out = local.messages_to_send()
    assert [(m.kind, m.content) for m in out] == [(Kind.ABSENT, AbsentBody(1, earlier, 0))]
    core.receive(out[0])
    assert [m.kind for m in local.messages_to_send()] == [Kind.RECLAIM]


def test_false_absence_in_the_tactical_variant_is_undone_at_a_turn() -> None:
    """The tactical variant decides in turns (one seat at a time): a seat declared absent
    comes back at the first turn whose player welcomed it before acting."""
    net = raiders_network(3, "tactical", tag=b"collude-tactical")
    held = silence(net, 2, lambda m: m.kind is Kind.ACT and m.content.step.startswith(
        "L1.R3"))  # type: ignore[union-attr]
    net.pump()
    assert held, "the seat never got to the third room"
    _vote_then_deliver(net, 2, (0, 1), held)
    net.run_with_timeouts()
    for i in range(3):
        assert [e.seat for e in all_events(net, i, SeatReplaced)] == [2]
        assert [e.seat for e in all_events(net, i, SeatReclaimed)] == [2]
    assert_honest_agree(net, set())
    assert set(net.cores[0].end_signatures) == {0, 1, 2}
    assert verify(match_file(net, 1)).verdict == VALID


def test_absence_needs_every_other_seat() -> None:
    net = raiders_network(4, tag=b"partial")
    held = _late_commit(net, 2)
    _vote_then_deliver(net, 2, (0, 1), held)  # seat 3 does not join the claim
    net.pump()
    assert not any(all_events(net, i, SeatReplaced) for i in range(4))
    assert_honest_agree(net, set())
    assert set(net.cores[0].end_signatures) == {0, 1, 2, 3}
    assert verify(match_file(net, 3)).verdict == VALID


def test_two_seats_silent_at_once_are_both_replaced() -> None:
    net = raiders_network(5, tag=b"two-gone")
    silence(net, 1, lambda m: m.kind is Kind.COMMIT and m.content.step.startswith("L3"))  # type: ignore[union-attr]
    silence(net, 4, lambda m: m.kind is Kind.COMMIT and m.content.step.startswith("L3"))  # type: ignore[union-attr]
    net.run_with_timeouts()
    assert_honest_agree(net, {1, 4})
    assert {e.seat for e in all_events(net, 0, SeatReplaced)} == {1, 4}
    assert verify(match_file(net, 0)).verdict == VALID


# --------------------------------------------------------------------------- restarts, replays


def test_torch_user_restarted_mid_round_learns_the_same_rooms() -> None:
    net = keen_network(4, b"restart-torch", keen=(0,))
    net.pump(limit=900, partial=True)
    core = net.cores[0]
    assert any(r.key_message is not None for r in core.rounds.values()), "no torch yet"
    before = dict(net.seats[0].knowledge)
    old = net.seats[0]
    fresh = LocalSeat(core, 0, old.key, hashlib.sha256(b"restart-torch" + b"seed0").digest(),
                      old.decide)
    resent = fresh.restore(list(old.sent))
    assert [m.encode() for m in resent] == [m.encode() for m in old.sent]
    net.seats[0] = fresh
    for message in resent:  # duplicates: harmless
        for c in net.cores:
            c.receive(message)
    net.pump()
    assert_honest_agree(net, set())
    learned: dict[str, str] = {}
    for event in fresh.take_events() + all_events(net, 0, PrivateKnowledge):
        if isinstance(event, PrivateKnowledge):
            learned.update(dict(event.knowledge))
    assert before.items() <= learned.items() or not before
    assert not any(core.equivocations for core in net.cores)


@pytest.mark.parametrize("kind", [Kind.SEAL_KEY, Kind.DELIVERY, Kind.ABSENT])
def test_new_kinds_replayed_from_another_match_are_refused(kind: Kind) -> None:
    first = keen_network(4, b"match-a", keen=(0,))
    first.pump()
    foreign = next(m for m in first.log if m.kind is kind) if kind is not Kind.ABSENT else (
        first.seats[1].sign_next(Kind.ABSENT, AbsentBody(2, 0)))
    second = keen_network(4, b"match-b", keen=(0,))
    events: list[Event] = second.cores[0].receive(foreign)
    assert [type(e).__name__ for e in events] == ["PeerMisbehaved"]
    assert "match" in events[0].reason  # type: ignore[union-attr]
    assert second.cores[0].cursor == [0, 0, 0, 0]
    second.pump()
    assert second.cores[0].signed and not second.cores[0].blocked


# --------------------------------------------------------------------------- chaos


@pytest.mark.parametrize("seed", range(10))
def test_chaos_silent_seats_and_scrambled_links_still_agree_and_verify(seed: int) -> None:
    """Random seats fall silent at random points while every link reorders and delays; the
    remaining peers finish the same match, and an honest peer's file verifies."""
    n = 3 + seed % 3
    tag = b"chaos%d" % seed
    net = keen_network(n, tag, keen=tuple(range(0, n, 2)))
    stream = hashlib.sha256(tag).digest()
    silent = {stream[0] % n}
    if n == 5:
        silent.add((stream[0] + 1 + stream[1] % 4) % n)
    for seat in silent:
        stop = 10 + stream[2 + seat] % 70
        silence(net, seat, lambda m, stop=stop: m.seq >= stop)
    net.run_with_timeouts(scramble=stream)
    assert_honest_agree(net, silent)
    witness = min(set(range(n)) - silent)
    assert {e.seat for e in all_events(net, witness, SeatReplaced)} == silent
    verdict = verify(match_file(net, witness))
    assert verdict.verdict == VALID, verdict.reason


def test_a_lone_peer_cannot_vote_everyone_out_and_finish_alone() -> None:
    """Two of three seats fall silent: the last one cannot replace both (a match needs two
    players), so its file stays incomplete instead of claiming a result."""
    net = raiders_network(3, tag=b"alone")
    silence(net, 1, lambda m: m.seq >= 20)
    silence(net, 2, lambda m: m.seq >= 20)
    with pytest.raises(Stalled):
        net.run_with_timeouts(limit=6)
    core = net.cores[0]
    assert len(core.absent) <= 1 and not core.signed
    assert verify(match_file(net, 0)).verdict == "incomplete"


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(300))
def test_chaos_sweep(seed: int) -> None:
    """The long sweep (``pytest -m slow``): 300 scenarios of one or two seats falling silent at
    random points, basic and tactical, scrambled links on odd seeds."""
    n = 3 + seed % 3
    variant = "tactical" if seed % 4 == 3 else "basic"
    tag = b"sweep%d" % seed
    net = raiders_network(n, variant, tag=tag,
                  deciders=[torch_decider(b"d%d" % i, i % 2 == 0) for i in range(n)])
    stream = hashlib.sha256(tag).digest()
    silent = {stream[0] % n}
    if n >= 4 and stream[5] % 2:
        silent.add((stream[0] + 1 + stream[1] % (n - 1)) % n)
    for seat in silent:
        stop = 5 + stream[2 + seat] % 90
        silence(net, seat, lambda m, stop=stop: m.seq >= stop)
    net.run_with_timeouts(scramble=stream if seed % 2 else None)
    assert_honest_agree(net, silent)
    witness = min(set(range(n)) - silent)
    verdict = verify(match_file(net, witness))
    assert verdict.verdict == VALID, verdict.reason


# --------------------------------------------------------------------------- reveals out of turn


def premature_reveal(net: Network, seat: int, action: Callable[[Any], str], *,
                     when: Callable[[Message], bool], silent: bool = False,
                     commit_first: bool = False) -> list[str]:
    """``seat`` runs a modified client: at the first message it owes for which ``when`` holds,
    during a step it decides in and has not committed to, it sends instead a REVEAL of
    ``action(state)`` — in place of its COMMIT, or (``commit_first``) after a COMMIT of it —
    with a commitment set over what it holds; with ``silent`` it sends nothing more.  Returns
    the steps it did it in."""
    local, core = net.seats[seat], net.cores[seat]
    original = local.messages_to_send
    done: list[str] = []

    def send() -> list[Message]:
        if done and silent:
            return []
        out = original()
        step = core.step
        if done or not out or not when(out[0]) or step is None or (
                seat not in core.steps.deciders(step)) or seat in step.commitments:
            return out
        for _ in out:
            local.sent.pop()
        play = action(core.state)
        salt = local.secrets.salt_for(step.name)
        commitment = play_commitment(core.match_id, step.name, core.keys[seat], play, salt)
        held = [step.commitments.get(s) for s in range(core.n)]
        held[seat] = commitment
        messages = [local.sign_next(Kind.COMMIT, CommitBody(step.name, commitment))] if (
            commit_first) else []
        messages.append(local.sign_next(Kind.REVEAL, RevealBody(
            step.name, play, salt, commit_set_digest(core.match_id, step.name, held))))
        done.append(step.name)
        return messages
    local.messages_to_send = send  # type: ignore[method-assign]
    return done


def blamed_for(net: Network, culprit: int, words: str) -> None:
    """Every other peer blamed ``culprit`` (and nobody else) for ``words``, and finished."""
    for i in honest(net, {culprit}):
        reasons = [e.reason for e in all_events(net, i, PeerMisbehaved)]
        assert reasons and all(words in r for r in reasons), reasons
        assert {e.seat for e in all_events(net, i, PeerMisbehaved)} == {culprit}
    assert_honest_agree(net, {culprit})


def test_a_reveal_at_once_instead_of_a_torch_delivery_is_blamed() -> None:
    """Seat 2 owes its secrets to seat 0's torch round; it sends a REVEAL in place of its
    COMMIT instead, and nothing more.  Seat 0 cannot commit before its round is complete, so
    that reveal could never be taken: waiting for it would stall the match with nobody owing
    anything.  It cannot be an honest seat's (its delivery would come first), so it is blamed,
    and the others finish."""
    for tag in (b"k1", b"k2", b"k3", b"k4", b"k5"):
        net = keen_network(3, tag, keen=(0,))
        local, core = net.seats[2], net.cores[2]
        decide = local.decide

        def after_the_torch(state: Any, seat: int, core: Any = core, decide: Any = decide) -> str:
            step = core.step  # (it waits until it owes seat 0's round its secrets)
            if step is not None and 0 not in step.commitments and not (
                    core.knowledge.owes_delivery(2)):
                raise DecisionPending
            return str(decide(state, seat))
        local.decide = after_the_torch
        done = premature_reveal(net, 2, lambda st: st.format_action(st.legal_actions(2)[0]),
                                when=lambda m: m.kind is Kind.DELIVERY, silent=True)
        net.run_with_timeouts(limit=6)
        if done:
            break
    assert done, "seat 2 never owed a delivery while deciding"
    blamed_for(net, 2, "before delivering to seat 0's private-knowledge round")


@pytest.mark.parametrize("commit_first", [False, True])
def test_a_revealed_torch_peek_is_blamed_not_a_crash(commit_first: bool) -> None:
    """A REVEAL whose play is a torch peek (a free action, taken on its own: never a card of
    the joint decision) is an illegal play: it is blamed when revealed — it used to pass the
    reveal and make every peer's core, and the verifier, fail when the step resolved."""
    net = raiders_network(3, tag=b"peek-reveal")
    patient(net, 2)
    done = premature_reveal(
        net, 2, lambda st: "torch",
        when=lambda m: m.kind in (Kind.COMMIT, Kind.REVEAL) and "torch" in [
            net.cores[2].state.format_action(a) for a in net.cores[2].state.legal_actions(2)],
        commit_first=commit_first)
    net.run_with_timeouts(limit=6)
    assert done
    # A REVEAL right after its own COMMIT, before the others committed, names as their
    # heads what they had sent before the step (version 2): out of place, an impossible
    # claim for an honest seat, blamed before its play is looked at.
    blamed_for(net, 2, "out of place" if commit_first else "revealed an illegal action 'torch'")
    verdict = verify(match_file(net, 0))
    assert verdict.verdict == INVALID and verdict.blamed == (2,)


def test_a_reveal_at_once_while_welcoming_a_reclaim_is_blamed() -> None:
    """Seat 1 welcomed seat 2 back, and at the next step reveals at once: were it taken, seat 2
    could rejoin that step after seeing seat 1's play (an honest seat never reveals at once
    while a seat reclaims).  It is blamed, and the others finish."""
    net = raiders_network(3, tag=b"collude-welcome")
    patient(net, 1)
    core = net.cores[1]
    done = premature_reveal(
        net, 1, lambda st: st.format_action(st.legal_actions(1)[0]),
        when=lambda m: m.kind is Kind.COMMIT and 2 in core.seats.reclaims
        and 1 in core.seats.welcomed.get(2, set()))
    held = _late_commit(net, 2)
    _vote_then_deliver(net, 2, (0, 1), held)
    net.run_with_timeouts()
    assert done, "seat 1 never had to decide while seat 2 reclaimed"
    for i in (0, 2):
        reasons = [e.reason for e in all_events(net, i, PeerMisbehaved)]
        assert reasons and all("which it welcomed back, reclaims" in r for r in reasons), reasons
    assert len({net.cores[i].public_digest() for i in (0, 2)}) == 1
    assert all(net.cores[i].signed for i in (0, 2))


def _never_fits(net: Network, seat: int) -> list[Message]:
    """Seat ``seat`` sends, in place of its first commitment, a key release for a torch round
    that never opens, and nothing more (the message is returned once sent)."""
    local = net.seats[seat]
    original = local.messages_to_send
    done: list[Message] = []

    def send() -> list[Message]:
        if done:
            return []
        out = original()
        if out and out[0].kind is Kind.COMMIT:
            for _ in out:
                local.sent.pop()
            done.append(local.sign_next(Kind.KEY_RELEASE,
                                        KeyReleaseBody(f"torch.{seat}.nothing", bytes(32))))
            return list(done)
        return out
    local.messages_to_send = send  # type: ignore[method-assign]
    return done


def test_a_seat_that_owes_a_vote_on_a_stuck_seat_votes_it_absent() -> None:
    """Seat 0's clock times the stuck seat out first and votes; seat 1 then owes a vote on it
    — and that owed vote used to count as a message the match lacked, so the seat no longer
    looked stuck to seat 1, which answered "present" (it holds the message) and the match
    stopped again (found over real sockets, tests/adversary)."""
    net = raiders_network(3, tag=b"never-fits-one-clock")
    done = _never_fits(net, 2)
    net.pump()
    assert done and all(c.stuck(2) and c.owing() == (2,) for c in net.cores[:2])
    for _ in ("turn", "silence"):
        net.run_clock(0)
    net.pump()
    point = (2, done[0].seq)
    assert net.cores[1].ballots[point] == {0: 1}
    assert net.cores[1].stuck(2) and net.seats[1]._present_vote() is None
    for _ in ("turn", "silence"):
        net.run_clock(1)
    net.run_with_timeouts(limit=2)
    for core in net.cores[:2]:
        assert core.ballots[point] == {0: 1, 1: 1} and 2 in core.absent and core.signed


def test_a_message_that_never_fits_does_not_stop_the_match() -> None:
    """Seat 2 sends, in place of its first commitment, a key release for a torch round that
    never opens, and nothing more.  It is in hand, so nobody lacked anything and no timer ran:
    the match stopped for good.  Now the seat is stuck (protocol.md §6.6): its timers run, the
    others vote it absent instead of answering "present", replace it and finish, and the file
    verifies and names it."""
    net = raiders_network(3, tag=b"never-fits")
    done = _never_fits(net, 2)
    net.run_with_timeouts(limit=4)
    assert done
    assert all(net.cores[i].signed for i in (0, 1))
    assert all(2 in net.cores[i].absent for i in (0, 1))
    assert all(net.cores[i].ballots[(2, done[0].seq)] == {0: 1, 1: 1} for i in (0, 1))
    assert len({net.cores[i].public_digest() for i in (0, 1)}) == 1
    verdict = verify(match_file(net, 0))
    assert verdict.verdict == VALID, verdict
    assert any("seat 2" in note and "absent" in note for note in verdict.notes), verdict.notes


def test_torch_messages_for_events_drawn_again_at_a_fork_are_skipped_not_a_stall() -> None:
    """Seat 1 peeks with a torch and seat 0 delivers to it while seat 2 is still live; then
    seat 2's message of that step proves forked.  Rebuilt from the feeds, the match replaces
    seat 2 at the fork — at the step's start — and draws again the face-down rooms whose
    secrets it took away, so the torch round those messages name never opens.  They are
    skipped (stale), as a chance reveal of an event drawn again is; before, they waited
    forever and nobody's timer ran (tests/adversary equivocation, a 90 s stall)."""
    for tag in (b"torch-fork", b"torch-fork-2", b"torch-fork-3", b"torch-fork-4"):
        net = keen_network(3, tag, keen=(1,))
        net.pump()
        feeds = net.cores[0].feeds
        torch = next(m for m in feeds[1].messages if m.kind is Kind.SEAL_KEY)
        act = feeds[1].messages[torch.seq - 1]
        assert isinstance(act.content, ActBody) and act.content.action == "torch"
        step = act.content.step
        delivery = next(m for m in feeds[0].messages if isinstance(m.content, DeliveryBody)
                        and m.content.round == torch.content.round)  # type: ignore[union-attr]
        first = next(m for m in feeds[2].messages
                     if isinstance(m.content, CommitBody | RevealBody) and m.content.step == step)
        # (A match where seat 2 did not look itself in that step: its decision then waits for
        # nothing, and its forked message is due at the step's start.)
        if not any(isinstance(m.content, ActBody) and m.content.step == step
                   for m in feeds[2].messages[:first.seq]):
            break
    else:
        raise AssertionError("no match in which only seat 1 looked in that step")
    forker = net.seats[2]
    other = sign_message(forker.key, match_id=first.match_id, seat=2, seq=first.seq,
                         prev=first.prev, kind=Kind.COMMIT, state=first.state,
                         body=CommitBody(step, bytes(32)), heads=first.heads)
    core = MatchCore(net.header)
    taken = {}
    for s, last in ((0, delivery), (1, torch), (2, first)):
        feed = Feed(s, core.keys[s], core.match_id)
        for m in feeds[s].messages[:last.seq + 1]:
            feed.add(m)
        taken[s] = feed
    assert taken[2].add(other).equivocation is not None
    events = core.adopt(taken)
    assert set(core.absent) == {2}
    assert any(isinstance(e, ChanceRedrawn) for e in events)
    assert {e.seat for e in events if isinstance(e, PeerMisbehaved)} <= {2}
    assert core.cursor[0] == delivery.seq + 1 and core.cursor[1] == torch.seq + 1
    assert torch in core.stale and delivery in core.stale
    assert core.owing(), "nobody owes anything: the match would wait forever"


def test_two_seats_left_that_time_each_other_out_play_on() -> None:
    """With one seat of three replaced, the two left time each other out at once (their
    messages crossed a slow link) and vote each other absent.  A vote needs two voters, so
    neither vote can ever pass: it must not hold anything up either — before, each seat's
    message waited for the vote on it and each voter's for its own vote, and the match
    stopped for good (tests/adversary equivocation, a 90 s stall).  Nor do they claim each
    other's match (protocol.md §7.7): seat 2, replaced for silence, may still come back."""
    net = raiders_network(3, tag=b"two-left")
    silence(net, 2, lambda m: m.kind in (Kind.COMMIT, Kind.REVEAL))
    for _ in range(5000):  # play until seats 0 and 1 have replaced seat 2, and no further
        if all(2 in c.absent for c in net.cores[:2]):
            break
        before = (len(net.log), len(net.queue))
        net.pump(limit=1, partial=True)
        if before == (len(net.log), len(net.queue)) == (before[0], 0):
            for i in (0, 1):  # past the turn, then the silence timeout
                net.run_clock(i)
                net.run_clock(i)
    else:
        raise AssertionError("seat 2 was never replaced")
    net.land_in_flight()
    # Seats 0 and 1 each send what they owe next, which the other does not get in time.
    held: list[Message] = []
    for _ in range(20):
        out = [(i, m) for i in (0, 1) for m in net.seats[i].messages_to_send()]
        if not out:
            break
        for i, m in out:
            net.events[i].extend(net.cores[i].receive(m))
            held.append(m)
    for i in (0, 1):  # each times the other out ...
        core = net.cores[i]
        assert net.run_clock(i) and net.run_clock(i), f"peer {i} waits for nobody"
        assert 1 - i in core.clock.timed_out
        assert not net.seats[i].messages_to_send()  # ... but casts no vote: none could pass
        # A vote cast all the same (by a peer that had not seen seat 2 replaced yet, or
        # another program) must not hold anything up either.
        vote = net.seats[i].sign_next(Kind.ABSENT, AbsentBody(1 - i, core.cursor[1 - i], 1))
        net.events[i].extend(core.receive(vote))
        held.append(vote)
    net.queue.extend(held)  # the slow link delivers at last
    net.run_with_timeouts(limit=6)
    for i in (0, 1):
        assert set(net.cores[i].absent) == {2}
        assert net.cores[i].signed
    assert net.cores[0].public_digest() == net.cores[1].public_digest()


def test_a_reveal_waiting_on_a_silent_seats_commitment_does_not_stop_the_match() -> None:
    """Seat 2 goes silent at its first commitment; seat 3 sends, in place of its own, a REVEAL
    (which waits for every other commitment, seat 2's among them) and then nothing — not even
    its vote on seat 2.  Seat 2's replacement needs that vote; seat 3's message is in hand, so
    it is not silent, and seat 2 lacks a message, so nothing looked stuck: the match stopped.
    A seat lacking a message that is already under a vote does not count against a stuck
    one (its case is the vote's): seats 0 and 1 vote seat 3 out as stuck, then seat 2."""
    net = raiders_network(4, tag=b"reveal-on-silent")
    silence(net, 2, lambda m: m.kind is Kind.COMMIT)
    done = premature_reveal(net, 3, lambda st: st.format_action(st.legal_actions(3)[0]),
                            when=lambda m: m.kind is Kind.COMMIT, silent=True)
    net.run_with_timeouts(limit=6)
    assert done
    for i in (0, 1):
        assert set(net.cores[i].absent) == {2, 3} and net.cores[i].signed
    assert not any(isinstance(e, PeerMisbehaved) for i in (0, 1) for e in net.events[i])
    assert len({net.cores[i].public_digest() for i in (0, 1)}) == 1
    verdict = verify(match_file(net, 0))
    assert verdict.verdict == VALID, verdict
