"""The framing attack (issue 24 item 1): a seat edits its own copy of a finished match — its
chance commitment and secret changed together for an event resolved before the next digest
round, or an open action, or the key of its private-knowledge round — and signs its feed again.
Every signature and chain of the copy checks out.

From that one copy the verdict must never blame a seat alone unless its own signed messages
prove it: it is ``disputed``, naming the liar and the honest seat whose message contradicts the
edited feed, and the slot.  Given the liar's copy and an honest one, the liar is proved: it
signed two versions of one slot (both cited), and its copy is the edited one.

Without this change the chance edits read ``incomplete`` (the match stalls behind the honest
seat's message, whose heads name the original), v1 files named the honest seat whose state
digest stopped matching, and an edited open action named the next honest seat (its state digest
after the edit: measured, 232 of 652 such files named an honest seat)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

import pytest
from protocol.mesh import Network
from protocol.verify.copies import verify_copies
from protocol.verify.verdicts import DISPUTED, INVALID, PROOF_CODES, Verdict
from protocol.verify.verifier import verify
from protocol.wire.delivery import round_key
from protocol.wire.messages import (
    ActBody,
    Body,
    KeyReleaseBody,
    Message,
    SealKeyBody,
)

from benchmarks.scenario import raiders, raiders_network
from tests.protocol.framing import Edit, chance_edit, copy_bytes, framed, resign

NETS: dict[tuple[int, str, int], Network] = {}


def finished(n: int, variant: str = "basic", version: int = 2) -> Network:
    key = (n, variant, version)
    if key not in NETS:
        tag = b"framing-%d-%s-%d" % (n, variant.encode(), version)
        net = Network(n, raiders(variant), tag, version=version) if version != 2 else (
            raiders_network(n, variant, tag=tag))
        net.pump()
        NETS[key] = net
    return NETS[key]


def feeds_of(net: Network) -> list[list[Message]]:
    return [list(f.messages) for f in net.cores[0].feeds]


def early_events(net: Network) -> list[str]:
    """The chance events resolved before the first digest round: setup, the first level card,
    its face-up rooms (each seat reveals them before its first CHANCE_DIGEST)."""
    feed = feeds_of(net)[0]
    digest = next(m.seq for m in feed if m.kind.name == "CHANCE_DIGEST")
    return [m.content.secrets[0][0] for m in feed[:digest]
            if m.kind.name == "CHANCE_REVEAL"]  # type: ignore[union-attr]


def liar_copy(net: Network, liar: int, edit: Edit) -> bytes:
    return framed(net.header, feeds_of(net), liar, net.keys[liar], edit)


def edit_chance(net: Network, liar: int, event: str) -> Edit:
    return chance_edit(feeds_of(net), liar, event, net.header.match_id,
                       net.header.header.seats[liar].key)


def assert_names_the_liar_never_alone_an_honest_seat(verdict: Verdict, liar: int) -> None:
    if verdict.blamed and verdict.blamed != (liar,):
        assert liar in verdict.blamed, verdict
    if verdict.verdict == INVALID and verdict.blamed == (liar,):
        return  # its own copy proves the liar wrong (a message inconsistent with its edit)
    assert verdict.verdict != INVALID or not verdict.blamed, verdict


def assert_proved_with_both_versions(net: Network, liar: int, data: bytes,
                                     honest: int, *, edited: str = "edited",
                                     both_orders: bool = False) -> None:
    orders = [(data, net.match_file(honest)), (net.match_file(honest), data)]
    for order in orders[:2 if both_orders else 1]:
        both = verify_copies(list(order), ["liar.crawl", "honest.crawl"][::1 if order[0] is data
                                                                          else -1])
        assert (both.verdict, both.reason_code, both.blamed) == (INVALID, "fork", (liar,)), both
        fork = both.forks[0]
        assert fork.seat == liar and {w.copy for w in fork.where} == {0, 1}
        for version in fork.versions:
            version.verify(net.header.header.seats[liar].key)  # both signed by the liar
        assert fork.versions[0].seq == fork.versions[1].seq == fork.seq
        states = {c.label: c.state for c in both.copies}
        want = {"liar.crawl": edited, "honest.crawl": "whole" if edited == "edited" else edited}
        assert states == want, states


@pytest.mark.parametrize("n", [3, 4])
def test_an_edited_chance_secret_is_disputed_from_one_copy_and_proved_from_two(n: int) -> None:
    net = finished(n)
    events = early_events(net)
    assert {"setup.character.0", "L1.level", "L1.R1"} <= set(events)
    for liar in range(n):
        for event in ("setup.character.0", "L1.level", "L1.R1"):
            data = liar_copy(net, liar, edit_chance(net, liar, event))
            v = verify(data)
            assert (v.verdict, v.reason_code) == (DISPUTED, "heads_disputed"), v
            assert liar in v.blamed and len(v.blamed) == 2, v.blamed
            assert v.dispute is not None and v.dispute.others == (liar,)
            honest = v.dispute.seat
            assert honest != liar and honest in v.blamed
            assert f"seat {honest}'s message {v.dispute.seq}" in v.reason
            assert f"as seat {liar}'s last message" in v.reason and v.record is not None
            assert v.exit_code == 6
            assert_proved_with_both_versions(net, liar, data, honest,
                                             both_orders=event == "L1.level")


def test_an_edit_in_a_version_1_file_is_disputed_between_contributors_and_signer() -> None:
    """Version 1 has no heads: a state digest refused after outcomes no digest round covered
    is disputed between those outcomes' contributors and the signer (it named the signer)."""
    net = finished(3, version=1)
    seen = set()
    for liar in range(3):
        for event in early_events(net)[:5]:
            data = liar_copy(net, liar, edit_chance(net, liar, event))
            v = verify(data)
            seen.add((v.verdict, v.reason_code))
            assert v.verdict in (DISPUTED, "incomplete"), v
            if v.verdict == DISPUTED:
                assert v.reason_code == "state_disputed" and liar in v.blamed
                assert v.dispute is not None and set(v.blamed) == {v.dispute.seat,
                                                                   *v.dispute.others}
            if event == "L1.level":  # (no heads: nothing tells which version came first)
                assert_proved_with_both_versions(net, liar, data, (liar + 1) % 3,
                                                 edited="forked")
    assert (DISPUTED, "state_disputed") in seen


def act_edits(net: Network, liar: int) -> Iterator[Edit]:
    acts = [m for m in feeds_of(net)[liar] if isinstance(m.content, ActBody)]
    for target in acts[::3]:
        for alternative in ("play 1", "play 3", "play 5"):
            body = target.content
            assert isinstance(body, ActBody)
            if alternative != body.action:
                yield (lambda m, t=target, a=alternative:
                       ActBody(m.content.step, a) if m.hash == t.hash else None)  # type: ignore[union-attr]


def test_an_edited_action_never_names_an_honest_seat_alone() -> None:
    """An open action edited (tactical: every play is a turn).  The next honest message either
    names the original (``heads_disputed``) or carries the state after it while its heads do not
    name it (a chance reveal after the room: ``state_disputed``); an edit the rules refuse is
    the liar's own illegal action."""
    net = finished(3, "tactical")
    seen: set[tuple[str, str]] = set()
    for liar in range(3):
        for edit in act_edits(net, liar):
            data = liar_copy(net, liar, edit)
            v = verify(data)
            seen.add((v.verdict, v.reason_code))
            assert_names_the_liar_never_alone_an_honest_seat(v, liar)
            if v.verdict == INVALID:
                assert v.reason_code in PROOF_CODES | {"illegal_action", "state_diverged"}
    assert {(DISPUTED, "heads_disputed"), (DISPUTED, "state_disputed"),
            (INVALID, "illegal_action")} <= seen, seen
    liar = 1
    data = liar_copy(net, liar, next(act_edits(net, liar)))
    assert_proved_with_both_versions(net, liar, data, 0)


def seal_edit(round_id: str) -> Edit:
    private, public = round_key(hashlib.sha256(b"framing/" + round_id.encode()).digest())

    def edit(message: Message) -> Body | None:
        body = message.content
        if isinstance(body, SealKeyBody) and body.round == round_id:
            return SealKeyBody(round_id, body.events, public)
        if isinstance(body, KeyReleaseBody) and body.round == round_id:
            return KeyReleaseBody(round_id, private)
        return None
    return edit


def test_an_edited_round_key_never_names_an_honest_deliverer() -> None:
    """The seat a private-knowledge round serves edits its key (and the one it publishes): the
    honest deliveries, sealed to the original, do not open.  That is no proof against the
    deliverer (it was: "its delivery lies")."""
    codes = set()
    nets = [finished(3), finished(4), raiders_network(5, tag=b"seal5b")]
    nets[-1].pump()  # (in this one a delivery is checked before the deliverer's next heads)
    for net in nets:
        n = net.cores[0].n
        for liar in range(n):
            for m in feeds_of(net)[liar]:
                if isinstance(m.content, SealKeyBody):
                    data = liar_copy(net, liar, seal_edit(m.content.round))
                    v = verify(data)
                    assert_names_the_liar_never_alone_an_honest_seat(v, liar)
                    assert v.verdict == DISPUTED, v
                    if v.reason_code not in codes:
                        codes.add(v.reason_code)
                        assert verify_copies([data, net.match_file((liar + 1) % n)]).blamed == (
                            liar,)
    # (Its next message names the original key's message as its head, or a delivery names it
    # as its round's key message: version 2 DELIVERY names its SEAL_KEY message.)
    assert codes == {"heads_disputed"}, codes


def test_a_seat_that_lies_in_its_own_message_is_still_proved() -> None:
    """Where its heads vouch for the state (a simultaneous step), a wrong state digest is its
    signer's own fault, as a reveal of an illegal play is."""
    net = finished(3)
    feeds = feeds_of(net)
    liar = 2
    commit = next(m for m in feeds[liar] if m.kind.name == "COMMIT")
    changed = [list(f) for f in feeds]
    changed[liar] = resign(feeds[liar], net.keys[liar], lambda m: None,
                           state=lambda m: bytes(32) if m.hash == commit.hash else None)
    v = verify(copy_bytes(net.header, changed))
    assert (v.verdict, v.reason_code, v.blamed) == (INVALID, "state_diverged", (liar,)), v
