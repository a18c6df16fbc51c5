"""Whole matches between in-memory peers: every honest peer ends in the same public state."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import pytest
from protocol.match.core import (
    ChanceResolved,
    ForkSuspected,
    HeadsDisputed,
    LocalSeat,
    MatchCore,
    MatchEnded,
    PeerMisbehaved,
    ResultSigned,
    SeatsOverdue,
    SeatTimedOut,
    zombie_action,
)
from protocol.mesh import Network
from protocol.verify.verifier import verify
from protocol.wire.feed import Feed
from protocol.wire.messages import (
    ChanceCommitBody,
    ChanceRevealBody,
    CommitBody,
    EndBody,
    Kind,
    Message,
    RevealBody,
    revealed_secrets,
    sign_message,
)

from benchmarks.scenario import raiders_header, raiders_network
from engine.core import Chance, Over, Simultaneous, Visibility
from protocol.crypto import commit_set_digest, play_commitment
from protocol.errors import LocalProtocolError
from tests.protocol.helpers import direct_reveals, match_file, patient


@pytest.mark.parametrize(("players", "variant"), [(3, "basic"), (4, "tactical"), (5, "basic")])
def test_whole_match_peers_agree(players: int, variant: str) -> None:
    net = raiders_network(players, variant, tag=b"%d%s" % (players, variant.encode()))
    net.pump()
    digests = {core.public_digest() for core in net.cores}
    assert len(digests) == 1
    for core, events in zip(net.cores, net.events, strict=True):
        assert isinstance(core.state.waiting, Over)
        assert not [e for e in events if isinstance(e, PeerMisbehaved)]
        assert sum(isinstance(e, MatchEnded) for e in events) == 1
        assert sum(isinstance(e, ResultSigned) for e in events) == 1
        assert core.signed and len(core.end_signatures) == players
        assert sum(isinstance(e, ChanceResolved) for e in events) == (
            players + (1 if variant == "tactical" else 0) + 5 * 6)


def rewrite_once(net: Network, seat: int, pick: Callable[[Message], bool],
                 make: Callable[[Message], tuple[Kind, Any] | None]) -> None:
    """Turn ``seat`` into a modified client: the first message it would send for which
    ``pick`` holds is replaced by one it signs from ``make(message)`` (kind and body; None
    keeps the original).  The replacement takes the original's place in its feed."""
    local = net.seats[seat]
    original = local.messages_to_send
    done: list[bool] = []

    def send() -> list[Message]:
        out = []
        for message in original():
            if not done and pick(message):
                replacement = make(message)
                if replacement is not None:
                    done.append(True)
                    local.sent.pop()
                    message = local.sign_next(*replacement)
            out.append(message)
        return out
    local.messages_to_send = send  # type: ignore[method-assign]


def rewrite_reveal_action(net: Network, seat: int, new_action: str) -> None:
    """``seat`` reveals ``new_action`` instead of what it committed to (once)."""
    def make(message: Message) -> tuple[Kind, Any] | None:
        body = message.content
        assert isinstance(body, RevealBody)
        if body.action == new_action:
            return None
        return Kind.REVEAL, RevealBody(body.step, new_action, body.salt, body.commit_set)
    rewrite_once(net, seat, lambda m: m.kind is Kind.REVEAL, make)


def misbehaving(net: Network) -> set[tuple[int, int]]:
    """(observer, culprit) pairs of every PeerMisbehaved event."""
    return {(i, e.seat) for i, events in enumerate(net.events) for e in events
            if isinstance(e, PeerMisbehaved)}


def honest_agree(net: Network, culprit: int) -> None:
    """Every honest peer named the culprit, with evidence, and they hold the same state."""
    for i, events in enumerate(net.events):
        if i == culprit:
            continue
        named = [e for e in events if isinstance(e, PeerMisbehaved)]
        assert named and {e.seat for e in named} == {culprit}
        assert all(e.evidence and e.evidence[0].seat == culprit for e in named)
    digests = {c.public_digest() for i, c in enumerate(net.cores) if i != culprit}
    assert len(digests) == 1


def test_reveal_of_another_action_is_caught_and_blamed() -> None:
    net = raiders_network(3, tag=b"reveal")
    rewrite_reveal_action(net, 1, "play 5")
    net.pump()
    culprits = misbehaving(net)
    assert {c for _, c in culprits} == {1}
    assert {o for o, _ in culprits} == {0, 1, 2}
    evidence = next(e for e in net.events[0] if isinstance(e, PeerMisbehaved))
    assert "does not open its commitment" in evidence.reason
    assert evidence.evidence[0].seat == 1 and evidence.evidence[0].kind is Kind.REVEAL
    # The honest peers agree on the state the match stopped in.
    assert net.cores[0].public_digest() == net.cores[2].public_digest()


def test_copied_commitment_cannot_be_opened_by_the_copier() -> None:
    net = raiders_network(3, tag=b"copy")

    def copy_seat_0(message: Message) -> tuple[Kind, Any] | None:
        theirs = [m.content for m in net.log if m.seat == 0 and m.kind is Kind.COMMIT]
        if not theirs:
            return None
        body = theirs[-1]
        assert isinstance(body, CommitBody)
        return Kind.COMMIT, CommitBody(body.step, body.commitment)
    rewrite_once(net, 2, lambda m: m.kind is Kind.COMMIT, copy_seat_0)
    net.pump()
    assert {c for _, c in misbehaving(net)} == {2}
    honest_agree(net, 2)


def test_chance_secret_that_does_not_open_its_commitment() -> None:
    net = raiders_network(3, tag=b"secret")

    def wrong_secret(message: Message) -> tuple[Kind, Any]:
        body = message.content
        assert isinstance(body, ChanceRevealBody)
        return Kind.CHANCE_REVEAL, ChanceRevealBody(((body.secrets[0][0], bytes(32)),),
                                                    body.commit_set)
    rewrite_once(net, 0, lambda m: m.kind is Kind.CHANCE_REVEAL, wrong_secret)
    net.pump()
    assert {c for _, c in misbehaving(net)} == {0}
    honest_agree(net, 0)


@pytest.mark.parametrize("lie", ["wrong secret", "not due", "another card"])
def test_early_turn_secret_carried_by_a_reveal_is_checked(lie: str) -> None:
    """A REVEAL may carry the seat's secret for the card its step turns early (protocol.md
    §7.4); a secret that does not open its commitment, one carried where no early turn is due,
    or one for another card, is blamed on the seat and the honest peers agree."""
    net = raiders_network(3, tag=b"early-" + lie.encode())
    local = net.seats[0]

    def carries(message: Message) -> bool:
        body = message.content
        if not isinstance(body, RevealBody):
            return False
        if lie == "not due":
            return not body.chance
        return bool(body.chance)

    def lying(message: Message) -> tuple[Kind, Any]:
        body = message.content
        assert isinstance(body, RevealBody)
        if lie == "wrong secret":
            chance = ((body.chance[0][0], bytes(32)),)
        elif lie == "not due":
            chance = (("L1.R5", local.secrets.chance_secret("L1.R5")),)
        else:
            chance = (("L5.R5", local.secrets.chance_secret("L5.R5")),)
        # (with the digest of the commitments the lie opens against, honestly computed)
        opens = net.cores[0].chance.open_digest((chance[0][0],))
        return Kind.REVEAL, RevealBody(body.step, body.action, body.salt, body.commit_set,
                                       chance, opens)
    rewrite_once(net, 0, carries, lying)
    net.pump()
    culprits = misbehaving(net)
    assert {c for _, c in culprits} == {0}
    reasons = {e.reason for e in net.events[1] if isinstance(e, PeerMisbehaved)}
    wanted = "does not open its commitment" if lie == "wrong secret" else "where none was due"
    assert any(wanted in r for r in reasons), reasons
    honest_agree(net, 0)


def test_equivocation_of_a_play_commitment_is_proved_by_two_signed_messages() -> None:
    net = raiders_network(3, tag=b"fork")
    while not any(m.kind is Kind.COMMIT for m in net.seats[1].sent):
        net.pump(limit=1, partial=True)
    forker = net.seats[1]
    first = next(m for m in forker.sent if m.kind is Kind.COMMIT)
    resent = sign_message(forker.key, match_id=first.match_id, seat=1, seq=first.seq,
                          prev=first.prev, kind=first.kind, state=first.state, body=first.body,
                          heads=first.heads)
    # The same content signs to the same bytes (Ed25519 is deterministic), so a resend after a
    # restart is harmless; a different commitment for the same slot is equivocation.
    body = first.content
    assert isinstance(body, CommitBody)
    other = sign_message(forker.key, match_id=first.match_id, seat=1, seq=first.seq,
                         prev=first.prev, kind=first.kind, state=first.state,
                         body=CommitBody(body.step, bytes(32)), heads=first.heads)
    assert resent == first and other != first
    for core in net.cores:
        core.receive(first)
    events = [core.receive(other) for core in net.cores]
    for observed in events:
        proofs = [e for e in observed if isinstance(e, PeerMisbehaved)]
        assert proofs and proofs[0].seat == 1 and len(proofs[0].evidence) == 2
        a, b = proofs[0].evidence
        a.verify(net.header.header.seats[1].key)
        b.verify(net.header.header.seats[1].key)
        assert a.seq == b.seq and a.encode() != b.encode()


def test_message_from_another_match_is_refused() -> None:
    net = raiders_network(3, tag=b"one")
    other = raiders_network(3, tag=b"two")
    other.pump(limit=10, partial=True)
    stray = other.log[0]
    events = net.cores[0].receive(stray)
    assert [e.seat for e in events if isinstance(e, PeerMisbehaved)] == [stray.seat]
    assert "another match" in next(e for e in events if isinstance(e, PeerMisbehaved)).reason


@pytest.mark.parametrize("players", [3, 5])
def test_reordered_and_delayed_delivery_still_agrees(players: int) -> None:
    """Every peer receives every message in its own random order: the canonical consumption
    still brings every peer to the same public state."""
    calm = raiders_network(players, tag=b"order")
    calm.pump()
    stormy = raiders_network(players, tag=b"order")
    stormy.pump(scramble=b"storm%d" % players)
    digests = {core.public_digest() for core in stormy.cores}
    assert digests == {calm.cores[0].public_digest()}
    assert not misbehaving(stormy)


def test_illegal_revealed_action_is_blamed() -> None:
    net = raiders_network(3, tag=b"illegal")
    # Seat 0 commits to and reveals a key in a room where keys are illegal (or holds none).
    local = net.seats[0]
    honest_choice = local.decide
    state0 = local.core.state

    def decide(state: Any, seat: int) -> str:
        if state is not state0 and state.waiting.step.endswith(".play"):
            legal = {state.format_action(a) for a in state.legal_actions(seat)}
            return next(a for a in ("play sword", "play key", "play crystal", "play torch")
                        if a not in legal)
        return honest_choice(state, seat)
    local.decide = decide
    with pytest.raises(LocalProtocolError):
        net.pump()  # our own seat refuses to send an illegal action
    # A modified client sends it anyway: every honest peer blames it.
    net2 = raiders_network(3, tag=b"illegal2")
    cheat = net2.seats[0]

    def commit_illegal(message: Message) -> tuple[Kind, Any]:
        body = message.content
        assert isinstance(body, CommitBody)
        state = cheat.core.state
        legal = {state.format_action(a) for a in state.legal_actions(0)}
        bad = next(a for a in ("play sword", "play key", "play crystal", "play torch")
                   if a not in legal)
        salt = cheat.secrets.salt_for(body.step)
        cheat.pending_reveal[body.step] = (bad, salt)
        return Kind.COMMIT, CommitBody(body.step, play_commitment(
            cheat.core.match_id, body.step, cheat.core.keys[0], bad, salt))
    rewrite_once(net2, 0, lambda m: m.kind is Kind.COMMIT, commit_illegal)
    net2.pump()
    blamed = [e for e in net2.events[1] if isinstance(e, PeerMisbehaved)]
    assert [e.seat for e in blamed] == [0] and "illegal" in blamed[0].reason
    honest_agree(net2, 0)


def test_skipped_sequence_number_waits_for_the_gap() -> None:
    net = raiders_network(3, tag=b"gap")
    net.pump(limit=30, partial=True)
    late = [m for m in net.log if m.seat == 1]
    fresh = raiders_network(3, tag=b"gap")
    core = fresh.cores[0]
    for m in net.log:
        if m is not late[0]:
            core.receive(m)
    before = core.public_digest()
    assert core.feeds[1].missing() == range(0, 1)
    core.receive(late[0])
    assert core.feeds[1].missing() == range(0, 0)
    assert core.public_digest() != before or core.cursor[1] > 0


def test_forged_signature_is_refused_and_blames_no_honest_seat() -> None:
    net = raiders_network(3, tag=b"forge")
    net.pump(limit=20, partial=True)
    impostor = sign_message(net.keys[2], match_id=net.header.match_id, seat=1, seq=0,
                            prev=net.header.match_id, kind=Kind.ACT, state=bytes(32),
                            body=("L1.R1.play", "play 1"), heads=(net.header.match_id,) * 3)
    fresh = raiders_network(3, tag=b"forge")
    events = fresh.cores[0].receive(impostor)
    assert [(e.seat, "signature" in e.reason) for e in events
            if isinstance(e, PeerMisbehaved)] == [(1, True)]
    # The forged message is not in seat 1's feed, and seat 1 is not blocked for it.
    assert fresh.cores[0].feeds[1].messages == ()
    assert 1 not in fresh.cores[0].blocked


def test_chance_commitment_equivocation_is_proved_by_two_signed_messages() -> None:
    """Seat 2 signs two versions of its first chance commitments (a fork of its feed).  The
    fork is caught as equivocation as soon as both versions meet in any peer's feed."""
    net = raiders_network(3, tag=b"chancefork")
    net.pump(limit=1, partial=True)
    first = next(m for m in net.log if m.seat == 2)
    assert first.kind is Kind.CHANCE_COMMIT
    body = first.content
    assert isinstance(body, ChanceCommitBody)
    forked_body = ChanceCommitBody(tuple((e, bytes(32)) for e, _ in body.commitments))
    fork = sign_message(net.keys[2], match_id=first.match_id, seat=2, seq=first.seq,
                        prev=first.prev, kind=first.kind, state=first.state, body=forked_body,
                        heads=first.heads)
    observer = raiders_network(3, tag=b"chancefork").cores[0]
    observer.receive(first)
    events = observer.receive(fork)
    proof = [e for e in events if isinstance(e, PeerMisbehaved)]
    assert proof and proof[0].seat == 2 and len(proof[0].evidence) == 2


def test_knowledge_no_face_down_room_before_it_is_turned() -> None:
    """A peer that records every byte it receives cannot name a face-down room before the last
    decision that precedes its turn is committed: every secret of a hidden event first appears
    on the wire either when the engine turns that room, or — an early turn — in the step just
    before it, once every decider of that step has committed and when nobody can decide
    anything before the turn (no follow-up: nobody holds a crystal ball); no decision is taken
    between that first secret and the turn, and no earlier byte contains it (replayed here
    message by message).  Before that, the room is fixed by commitments that are SHA-256
    hashes of 32 random bytes."""
    net = raiders_network(4, tag=b"knowledge")
    net.pump()
    replay = raiders_network(4, tag=b"knowledge").cores[0]
    hidden_turned = early = carried = 0
    seen = b""
    out: set[str] = set()  # hidden events whose first secret is on the wire, not yet turned
    for message in net.log:
        body = message.content
        if revealed_secrets(body):  # a CHANCE_REVEAL, or a REVEAL carrying an early turn's
            (event, secret), = revealed_secrets(body)
            w = replay.state.waiting
            assert secret not in seen  # never on the wire before
            if isinstance(w, Chance):
                assert w.event.id == event or event in out  # only when it is due
                hidden_turned += w.event.visibility is Visibility.HIDDEN
            else:
                assert isinstance(w, Simultaneous)
                assert event in out or event == replay.chance.early_turn()
                assert replay.state.turned_next() == (event, frozenset())
                step = replay.step
                # Every decision of the step is committed — the sender's own, in a direct reveal
                # (no COMMIT before it: the REVEAL commits and opens at once), by this message.
                direct = message.seat if isinstance(body, RevealBody) else None
                assert step is not None and all(s in step.commitments or s == direct
                                                for s in w.seats)
                if isinstance(body, RevealBody):  # with the play: its own reveal opens it
                    assert body.step == step.name
                    carried += 1
                early += event not in out
                hidden_turned += 1
                out.add(event)
        elif out:
            assert message.kind not in (Kind.COMMIT, Kind.ACT) and not (
                isinstance(body, RevealBody) and replay.step is not None
                and body.step != replay.step.name), (
                "a decision was taken while a face-down room's secrets were out")
        seen += message.encode()
        for e in replay.receive(message):
            if isinstance(e, ChanceResolved):
                out.discard(e.event)
    assert hidden_turned >= 5 * 4  # every face-down room and the boss, from all 4 seats
    assert early >= 1 and carried >= 1  # the early path was taken, with plays too


def test_docs_show_the_transition_table() -> None:
    from pathlib import Path

    from protocol.match.core import describe_transitions

    docs = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text()
    assert describe_transitions() in docs, (
        "docs/protocol.md must show the table describe_transitions() generates")


@pytest.mark.parametrize("commits", [1, 4, 12])
def test_restart_mid_step_resends_the_same_bytes(commits: int) -> None:
    """Seat 1 crashes right after persisting its ``commits``-th commitment, before revealing,
    and restarts from its match file: it takes back its persisted feed, re-sends the same bytes
    (harmless duplicates) and reopens the unrevealed commitment from its seed alone; the match
    completes with no false equivocation, exactly as without the crash."""
    calm = raiders_network(3, tag=b"restart")
    calm.pump()
    net = raiders_network(3, tag=b"restart")
    while sum(m.kind is Kind.COMMIT for m in net.seats[1].sent) < commits:
        net.pump(limit=1, partial=True)
    old = net.seats[1]
    persisted = list(old.sent)
    assert persisted[-1].kind is Kind.COMMIT
    # The restarted peer: a fresh core rebuilt from its file, a fresh local seat.
    core = MatchCore(net.header)
    for message in net.log:
        core.receive(message)
    stored_seed = hashlib.sha256(b"restartseed1").digest()  # as protocol.mesh derives it
    seat = LocalSeat(core, 1, old.key, stored_seed, old.decide)
    net.cores[1] = core
    net.seats[1] = seat
    resent = seat.restore(persisted)
    assert [m.encode() for m in resent] == [m.encode() for m in persisted]
    assert len(seat.pending_reveal) == 1  # reopened without any stored choice
    net.queue.extend(resent)  # sent again
    net.pump()
    assert not misbehaving(net)
    assert {c.public_digest() for c in net.cores} == {calm.cores[0].public_digest()}


@pytest.mark.parametrize("stored", ["right", "wrong"])
def test_a_restart_reopens_from_the_stored_choice_without_searching(stored: str) -> None:
    """The driver stores each pending choice before its COMMIT is persisted
    (``LocalSeat.remember``, protocol.md §8.1).  Restarted with the stored choice, the seat
    reopens its commitment from it — no search of the step's actions, so a game whose actions
    are too many to list restarts too.  A stored choice that does not open the commitment (a
    damaged file) is not used: the seat searches where the game lists its actions, and says
    so where it cannot."""
    net = raiders_network(3, tag=b"restart-stored")
    remembered: list[dict[str, str]] = []
    net.seats[1].remember = lambda choices: remembered.append(dict(choices))
    while not net.seats[1].sent or net.seats[1].sent[-1].kind is not Kind.COMMIT:
        net.pump(limit=1, partial=True)
    old = net.seats[1]
    step = old.sent[-1].content.step  # type: ignore[union-attr]
    assert remembered and remembered[-1] == {step: old.pending_reveal[step][0]}
    choices = dict(remembered[-1]) if stored == "right" else {step: "play torch-ish"}
    core = MatchCore(net.header)
    for message in net.log:
        core.receive(message)
    seat = LocalSeat(core, 1, old.key, hashlib.sha256(b"restart-storedseed1").digest(),
                     old.decide)
    state_class = type(core.state)
    with pytest.MonkeyPatch.context() as patch:  # (a game whose actions cannot be listed)
        patch.setattr(state_class, "lists_actions", lambda self, seat: False)
        if stored == "right":
            seat.restore(list(old.sent), choices)
            assert seat.pending_reveal == old.pending_reveal
        else:
            seat.restore(list(old.sent), choices)
            assert not seat.pending_reveal  # (put off: reopened when its reveal is due)
            with pytest.raises(LocalProtocolError, match="too many to search"):
                seat._reopen(old.sent[-1].content)  # type: ignore[arg-type]
    if stored == "wrong":
        seat.restore(list(old.sent), choices)  # (a game that lists them: found by search)
        assert seat.pending_reveal == old.pending_reveal
    net.cores[1], net.seats[1] = core, seat
    net.queue.extend(list(old.sent))
    net.pump()
    assert not misbehaving(net) and all(c.signed for c in net.cores)


@pytest.mark.parametrize("what", ["salt", "action"])
def test_reveal_with_wrong_salt_or_action_is_blamed(what: str) -> None:
    net = raiders_network(3, tag=b"wrong-" + what.encode())
    local = net.seats[1]

    def wrong(message: Message) -> tuple[Kind, Any]:
        body = message.content
        assert isinstance(body, RevealBody)
        salt, action = body.salt, body.action
        if what == "salt":
            salt = bytes(32)
        else:
            state = local.core.state
            action = next(state.format_action(a) for a in state.legal_actions(1)
                          if state.format_action(a) != body.action)
        return Kind.REVEAL, RevealBody(body.step, action, salt, body.commit_set)
    rewrite_once(net, 1, lambda m: m.kind is Kind.REVEAL, wrong)
    net.pump()
    assert {c for _, c in misbehaving(net)} == {1}
    honest_agree(net, 1)


def test_timer_names_the_silent_seat_once() -> None:
    net = raiders_network(3, tag=b"silent")
    silent = net.seats[2]
    silent.messages_to_send = lambda: []  # type: ignore[method-assign]
    net.pump()
    core = net.cores[0]
    assert core.owing() == (2,)
    deadline = core.get_timer()
    assert deadline == core.config.turn_timeout  # waiting since t = 0 (no clock was given)
    assert core.handle_timer(deadline - 0.5) == []
    overdue = core.handle_timer(deadline + 0.5)
    assert [(e.seats, e.since) for e in overdue if isinstance(e, SeatsOverdue)] == [((2,), 0.0)]
    assert core.handle_timer(deadline + 30) == []  # once per wait
    silence = core.get_timer()
    assert silence == deadline + core.config.silence_timeout
    timed_out = core.handle_timer(silence + 0.5)
    assert [(e.seat, e.count) for e in timed_out if isinstance(e, SeatTimedOut)] == [(2, 0)]
    assert core.handle_timer(silence + 600) == []  # once per wait, too
    assert core.get_timer() is None


def test_timer_restarts_when_the_match_moves_on() -> None:
    net = raiders_network(3, tag=b"clock")
    core = net.cores[0]
    assert core.get_timer() is None  # nothing received yet: waits for nobody known
    t = 0.0
    for _ in range(40):
        for seat in net.seats:
            for message in seat.messages_to_send():
                t += 1.0
                for c in net.cores:
                    c.receive(message, now=t)
    timer = core.get_timer()
    assert timer is not None and timer > core.config.turn_timeout  # dated by the latest wait


def test_diverged_state_digest_is_blamed() -> None:
    net = raiders_network(3, tag=b"diverge")
    local = net.seats[0]
    original = local.sign_next

    def sign(kind: Kind, body: Any) -> Message:
        message = original(kind, body)
        if kind is Kind.COMMIT and "done" not in local.__dict__:
            local.__dict__["done"] = True
            local.sent.pop()
            message = sign_message(local.key, match_id=message.match_id, seat=0,
                                   seq=message.seq, prev=message.prev, kind=kind,
                                   state=bytes([7]) * 32, body=body, heads=message.heads)
            local.sent.append(message)
        return message
    local.sign_next = sign  # type: ignore[method-assign]
    net.pump()
    blamed = {c for _, c in misbehaving(net)}
    assert blamed == {0}
    honest_agree(net, 0)
    reasons = [e.reason for e in net.events[1] if isinstance(e, PeerMisbehaved)]
    assert "public state digest" in reasons[0]


@pytest.mark.parametrize(("field", "value", "words"), [
    ("sampler", "sha256-ctr/v9", "sampler"),
    ("engine", "raiders/7", "engine"),
    ("game", "chess", "cannot play"),
])
def test_header_versions_this_program_lacks_are_refused(field: str, value: str,
                                                        words: str) -> None:
    import dataclasses

    from protocol.wire.header import SignedHeader, sign_header

    from protocol.errors import BadMessage

    signed, keys = raiders_header(3)
    header = dataclasses.replace(signed.header, **{field: value})
    resigned = SignedHeader(header, tuple(sign_header(k, header) for k in keys))
    with pytest.raises(BadMessage, match=words):
        MatchCore(resigned)


def test_forked_chance_commitment_never_blames_an_honest_seat() -> None:
    """Peer 0 holds one version of seat 2's chance commitments, peers 1 and 2 another: the
    match cannot go on, and no honest seat is ever blamed for it."""
    net = raiders_network(3, tag=b"split")
    forker = net.seats[2]
    original = forker.messages_to_send
    forks: list[Message] = []

    def send() -> list[Message]:
        out = original()
        for message in out:
            if message.kind is Kind.CHANCE_COMMIT and message.seq == 0:
                body = message.content
                assert isinstance(body, ChanceCommitBody)
                forks.append(sign_message(
                    forker.key, match_id=message.match_id, seat=2, seq=0, prev=message.prev,
                    kind=message.kind, state=message.state, heads=message.heads,
                    body=ChanceCommitBody(tuple((e, bytes(32)) for e, _ in body.commitments))))
        return out
    forker.messages_to_send = send  # type: ignore[method-assign]
    # Deliver by hand: peer 0 gets the fork instead of the original, the others the original.
    for _ in range(2000):
        sent = [m for seat in net.seats for m in seat.messages_to_send()]
        if not sent:
            break
        for message in sent:
            for i, core in enumerate(net.cores):
                if i == 0 and forks and message.seat == 2 and message.seq == 0:
                    net.events[i].extend(core.receive(forks[0]))
                else:
                    net.events[i].extend(core.receive(message))
    # Only the forker can ever be blamed (peer 0 catches it when a reveal does not open the
    # version it holds); the honest seats never are, and the match cannot go on.
    assert {c for _, c in misbehaving(net)} <= {2}
    assert not any(isinstance(c.state.waiting, Over) for c in net.cores)
    # When the two versions meet (a relay), the fork itself is proved.
    events = net.cores[1].receive(forks[0])
    proofs = [e for e in events if isinstance(e, PeerMisbehaved)]
    assert [e.seat for e in proofs] == [2] and len(proofs[0].evidence) == 2


@pytest.mark.parametrize("scramble", [None, b"order-1", b"order-2", b"order-3"])
def test_wrong_final_claim_is_blamed(scramble: bytes | None) -> None:
    """Whatever order the END messages arrive in, the liar is named, replaced, and the
    honest seats' signatures settle the result (the liar's is not needed)."""
    net = raiders_network(3, tag=b"claim")

    def lie(message: Message) -> tuple[Kind, Any]:
        body = message.content
        assert isinstance(body, EndBody)
        return Kind.END, EndBody(bytes(32), body.transcript)
    rewrite_once(net, 2, lambda m: m.kind is Kind.END, lie)
    net.pump(scramble=scramble)
    assert {c for _, c in misbehaving(net)} == {2}
    honest_agree(net, 2)
    for core in net.cores[:2]:
        assert core.signed and set(core.end_signatures) == {0, 1}


# --------------------------------------------------------------------------- direct reveals


@pytest.mark.parametrize("scramble", [None, b"direct-1", b"direct-2"])
def test_the_last_to_decide_reveals_at_once(scramble: bytes | None) -> None:
    """A seat that decides when every other play is committed sends its REVEAL in place of its
    COMMIT (protocol.md §7.1): one message instead of two, every peer agrees, and the file
    verifies — with every message of that seat and every other, in any arrival order."""
    net = raiders_network(3, tag=b"direct")
    patient(net, 2)
    net.pump(scramble=scramble)
    assert not misbehaving(net)
    assert len({core.public_digest() for core in net.cores}) == 1
    assert all(core.signed for core in net.cores)
    mine = net.cores[0].feeds[2].messages
    direct = direct_reveals(mine)
    assert direct and len(direct) == sum(isinstance(m.content, RevealBody) for m in mine)
    assert not any(isinstance(m.content, CommitBody) for m in mine)  # it never had to commit
    for peer in range(3):
        assert verify(match_file(net, peer)).verdict == "valid"
    calm = raiders_network(3, tag=b"direct")  # the same match, no seat waiting for the others
    calm.pump()
    assert calm.cores[0].public_digest() == net.cores[0].public_digest()
    for network in (net, calm):  # every play committed once: by a COMMIT, or its direct reveal
        log = network.log
        assert sum(isinstance(m.content, CommitBody) for m in log) + sum(
            len(direct_reveals(network.cores[0].feeds[s].messages)) for s in range(3)) == sum(
            isinstance(m.content, RevealBody) for m in log)
    assert len(net.log) < len(calm.log) - len(direct) // 2


def test_a_direct_reveal_never_comes_before_the_other_commitments() -> None:
    """F1 with direct reveals: on the wire, a seat's REVEAL of a step (direct or not) comes only
    after every other live decider's COMMIT of that step — replayed message by message."""
    net = raiders_network(4, tag=b"direct-order")
    patient(net, 1)
    net.pump(scramble=b"direct-order")
    replay = MatchCore(net.header)
    for message in net.log:
        body = message.content
        if isinstance(body, RevealBody):
            step = replay.step
            assert step is not None and step.name == body.step
            assert set(step.seats) - {message.seat} <= set(step.commitments)
        replay.receive(message)
    assert replay.signed
    assert direct_reveals(replay.feeds[1].messages)


def test_an_early_direct_reveal_waits_for_the_other_commitments() -> None:
    """A REVEAL in place of a COMMIT that arrives before another decider's commitment is not
    blamed: it waits, and is taken once that commitment is in (its sender only showed its own
    play early)."""
    net = raiders_network(3, tag=b"direct-early")
    patient(net, 2)
    net.pump()
    seat2 = net.cores[0].feeds[2].messages
    first = direct_reveals(seat2)[0]
    step = first.content.step  # type: ignore[union-attr]
    # A fresh peer gets seat 2's direct reveal before seat 1's commitment of that step.
    fresh = MatchCore(net.header)
    held_back = next(m for m in net.log if m.seat == 1 and isinstance(m.content, CommitBody)
                     and m.content.step == step)
    events = []
    for message in net.log:
        if message is held_back:
            continue
        events += fresh.receive(message)
        if message is first:
            break
    assert fresh.step is not None and fresh.step.name == step
    assert 2 not in fresh.step.reveals and not fresh.blocked
    assert not [e for e in events if isinstance(e, PeerMisbehaved)]
    fresh.receive(held_back)
    assert fresh.step is None or fresh.step.name != step or 2 in fresh.step.reveals
    assert not fresh.blocked


def test_a_direct_reveal_of_an_illegal_play_is_blamed() -> None:
    """A direct reveal is checked like any reveal: an illegal play names its seat."""
    net = raiders_network(3, tag=b"direct-illegal")
    patient(net, 2)
    local = net.seats[2]
    original = local.messages_to_send
    done = []

    def illegal() -> list[Message]:
        out = original()
        if not done and out and out[0].kind is Kind.REVEAL:
            body = out[0].content
            assert isinstance(body, RevealBody)
            core = net.cores[2]
            legal = {core.state.format_action(a) for a in core.state.legal_actions(2)}
            action = next(f"play {c}" for c in ("key", "sword", "1", "2", "3", "4", "5")
                          if f"play {c}" not in legal)
            local.sent.pop()
            commitment = play_commitment(core.match_id, body.step, core.keys[2], action,
                                         body.salt)
            held = [core.step.commitments.get(s) for s in range(3)]  # type: ignore[union-attr]
            held[2] = commitment
            out = [local.sign_next(Kind.REVEAL, RevealBody(
                body.step, action, body.salt, commit_set_digest(core.match_id, body.step, held),
                body.chance))]
            done.append(action)
        return out
    local.messages_to_send = illegal  # type: ignore[method-assign]
    net.pump()
    assert done
    blamed = misbehaving(net)
    assert blamed and {c for _, c in blamed} == {2}
    assert all("illegal action" in e.reason for core_events in net.events for e in core_events
               if isinstance(e, PeerMisbehaved))



def test_a_forked_direct_reveal_is_proved_and_the_others_finish() -> None:
    """A seat that reveals at once shows one play to peer 0 and another to peer 1 (two signed
    versions of one slot, each opening its own commitment).  The honest seats' reveals carry
    commitment sets that differ; the driver relays what each holds (ForkSuspected, as the
    network layer does); the two versions meet, the fork is proved, the forker is replaced
    and the honest seats finish on the same state."""
    net = raiders_network(3, tag=b"direct-fork")
    patient(net, 2)
    forker = net.seats[2]
    original = forker.messages_to_send
    forks: list[Message] = []

    def send() -> list[Message]:
        out = original()
        for message in out:
            body = message.content
            core = net.cores[2]
            if forks or not isinstance(body, RevealBody) or (
                    core.step is None or 2 in core.step.commitments):
                continue  # (only its first reveal at once, before its own core takes it)
            other = next(a for a in (core.state.format_action(x)
                                     for x in core.state.legal_actions(2)) if a != body.action)
            salt = bytes(32)
            held = [core.step.commitments.get(s) for s in range(3)]  # type: ignore[union-attr]
            held[2] = play_commitment(core.match_id, body.step, core.keys[2], other, salt)
            forks.append(sign_message(
                forker.key, match_id=message.match_id, seat=2, seq=message.seq,
                prev=message.prev, kind=Kind.REVEAL, state=message.state, heads=message.heads,
                body=RevealBody(body.step, other, salt,
                                commit_set_digest(core.match_id, body.step, held), body.chance,
                                body.chance_set)))
        return out
    forker.messages_to_send = send  # type: ignore[method-assign]
    relayed: set[bytes] = set()

    def take(i: int, message: Message) -> None:
        events = net.cores[i].receive(message)
        net.events[i].extend(events)
        if net.cores[i].fork_behind():  # past the fork: rebuild from the feeds, as a peer does
            old, seat = net.cores[i], net.seats[i]
            net.cores[i] = MatchCore(old.header)
            net.cores[i].adopt(dict(enumerate(old.feeds)))
            net.seats[i] = LocalSeat(net.cores[i], i, seat.key,
                                     hashlib.sha256(b"direct-fork" + b"seed%d" % i).digest(),
                                     seat.decide)
            net.seats[i].restore(list(old.feeds[i].messages))
        for e in events:  # what the network layer sends on: the commitments a peer holds
            # when a reveal does not fit (ForkSuspected), both versions of a proved fork
            sent_on: tuple[Message, ...] = ()
            if isinstance(e, ForkSuspected | HeadsDisputed):
                sent_on = e.held
            elif isinstance(e, PeerMisbehaved) and len(e.evidence) == 2:
                sent_on = e.evidence
            for held in sent_on:
                if held.hash not in relayed:
                    relayed.add(held.hash)
                    for j in range(3):
                        if j != i:
                            take(j, held)

    for _ in range(5000):
        sent = []
        for i in range(3):  # each peer takes its own messages at once, as a real one does
            for message in net.seats[i].messages_to_send():
                take(i, message)
                sent.append(message)
        if not sent:
            break
        for message in sent:
            for i in range(3):
                fork = forks[0] if forks else None
                if i != message.seat:
                    take(i, fork if (i == 1 and fork is not None and message.seat == 2
                                     and message.seq == fork.seq) else message)
    assert forks, "seat 2 never revealed at once"
    assert {c for _, c in misbehaving(net)} == {2}
    for core in net.cores[:2]:
        assert core.feeds[2].equivocations  # both versions, side by side
        assert 2 in core.absent and core.signed
    assert len({core.public_digest() for core in net.cores[:2]}) == 1


def test_a_fork_right_after_a_direct_reveal_replaces_the_forker_only_when_it_owes() -> None:
    """The forker (seat 2, deciding last) reveals at once, then forks its next message.  A
    peer that rebuilds from the feeds (a fork-behind peer, the verifier) holds that reveal
    before the honest seats' reveals of the step: the forker must not be replaced there — its
    zombie would play the step in place of the play it opened, and the honest seats' next
    messages, signed on the state the real play made, would be blamed.  It is replaced where
    its forked message is due, so every peer agrees whatever order it took the feeds in."""
    net = raiders_network(3, tag=b"fork-after-direct")
    core2 = net.cores[2]

    def not_as_its_zombie(state: Any, s: int) -> str:  # (else replacing it changes nothing)
        assert core2.step is not None
        zombie = state.format_action(zombie_action(state, s, core2.match_id, core2.step.name))
        plays = [state.format_action(a) for a in state.legal_actions(s)]
        return next((a for a in plays if a != zombie), zombie)
    net.seats[2].decide = not_as_its_zombie
    patient(net, 2)
    net.pump()
    feeds = net.cores[0].feeds
    forker = net.seats[2]
    reveal = direct_reveals(feeds[2].messages)[0]
    step = reveal.content.step  # type: ignore[union-attr]
    real = feeds[2].messages[reveal.seq + 1]
    other = sign_message(forker.key, match_id=real.match_id, seat=2, seq=real.seq,
                         prev=real.prev, kind=Kind.ABSENT if real.kind is Kind.COMMIT
                         else Kind.COMMIT, state=real.state, heads=real.heads,
                         body=CommitBody("elsewhere", bytes(32)))
    # Each honest seat's feed up to its first message after its own reveal of ``step``.
    taken_feeds: dict[int, Feed] = {}
    cut = {s: next(m.seq for m in feeds[s].messages
                   if m.seq > 0 and isinstance(feeds[s].messages[m.seq - 1].content, RevealBody)
                   and feeds[s].messages[m.seq - 1].content.step == step)  # type: ignore[union-attr]
           for s in (0, 1)}
    taken: list[Message] = []
    core = MatchCore(net.header)
    for s in (0, 1, 2):
        feed = Feed(s, core.keys[s], core.match_id)
        for m in feeds[s].messages[:cut.get(s, real.seq) + 1]:
            feed.add(m)
            taken.append(m)
        if s == 2:
            assert feed.add(other).equivocation is not None
        taken_feeds[s] = feed
    events = core.adopt(taken_feeds)
    blamed = {e.seat for e in events if isinstance(e, PeerMisbehaved)}
    assert blamed <= {2} and set(core.absent) == {2}, (core.absent, blamed)
    assert all(core.cursor[s] == cut[s] + 1 for s in (0, 1))
    assert core.absent[2].count == real.seq
    # A peer that got the fork proof before the honest seats' reveals agrees.
    live = MatchCore(net.header)
    for m in [m for m in taken if m.seat == 2 and m is not real] + [other]:
        live.receive(m)
    assert {e.seat for e in live.receive(real) if isinstance(e, PeerMisbehaved)} == {2}
    for m in taken:
        if m.seat != 2:
            live.receive(m)
    assert not live.fork_behind()
    assert live.public_digest() == core.public_digest() and set(live.absent) == {2}
