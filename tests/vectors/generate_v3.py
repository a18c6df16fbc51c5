"""Conformance vectors v3: protocol version 3 match files (and a few version 2 files that show
how version 2 differs, docs/protocol.md Appendix B) with the fields of the verdict each must get,
alone or with other copies of its match, and the usage errors of ``cryptcrawl verify --json``.

Every file is built from fixed tags, so running this again gives the same bytes::

    python -m tests.vectors.generate_v3           # write tests/vectors/v3/
    python -m tests.vectors.generate_v3 --check   # compare with tests/vectors/v3/, write nothing

Groups (tests/vectors/v3/README.md lists every vector, and which check of the protocol each
one shows):

* **honest** — small whole matches of the four games (Dungeon Raiders with private-knowledge
  rounds, Dungeons of Kards with dice pools, Dungeon Twister with sealed values, Paper Dungeons
  with shared decks), and the endings a seat chooses (a LEAVE, a RESIGN, a pause, an agreed
  draw, a claim) and a vote on a long-passed point;
* **rules** — one vector per rule version 3 changed, made by a seat that forged its own feed
  (a departure written in, a LEAVE turned into a RESIGN, a vote on a passed point, an OFFER
  or ANSWER edited, a point of a deck body that is not the group's) or by a copy that lacks a
  live seat's last messages;
* **appendix-b** — version 2 files of the same changes: the rules version 3 gave version 2 too
  (a departure, a past-point vote) and one it did not (a bad deck point);
* **sealed**, **pools**, **decks** — one negative vector per check of sealed values (§7.11),
  dice pools (§7.12) and shared decks (§7.13, docs/deck.md §8–§9) (a few are shown by
  tests/vectors/v2 only: :data:`V2_COVERS`);
* **copies** — several copies of one version 3 match (§9.4), a claim another copy disputes
  (``claim_disputed``) among them;
* **codes** — one vector for each reason code no other group gives (a damaged, cut or
  re-signed copy of honest/raiders-3; a lying delivery, a false claim, a claim, a match left
  to one seat; a split), so that every reason code of §9.3 but ``rule_broken`` (:data:`EXEMPT`)
  has a version 3 vector;
* **usage** — ``cryptcrawl verify --json`` given no file or a bad option.

The withholding forfeits of version 3 have vectors of their own (tests/vectors/forfeits_v3.py,
written to tests/vectors/v3/forfeits/): this generator leaves that folder alone.

The expected result of a vector is the fields of ``cryptcrawl verify --json`` (run from
tests/vectors/v3), as tests/vectors/generate_v2.py pins them, and the exit status; the
generator refuses to write a vector whose verdict does not show what it was made for
(each vector's :class:`Want`: verdict, blamed seats, reason code, and for some
the seats waited for).  A file whose verdict is ``invalid`` or ``disputed`` at a record is cut a few
records after it, the verdict unchanged (generate_v2.trimmed)."""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import io
import json
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from benchmarks.tampering.bases import at
from benchmarks.tampering.forging import Draft, h
from protocol.deck.bodies import KeyBody, KeyCommitBody, ShuffleBody
from protocol.deck.bodies import OpenBody as DeckOpenBody
from protocol.deck.bodies import SharesBody as DeckSharesBody
from protocol.deck.group import BASE, add, base_mul, encode_scalar
from protocol.mechanisms.chance import is_pool_slot
from protocol.mesh import Network
from protocol.verify.verdicts import EXIT_CODES, REASON_CODES, VERDICTS
from protocol.verify.verifier import verify
from protocol.wire.messages import (
    AbsentBody,
    ActBody,
    AnswerBody,
    ChanceCommitBody,
    ChanceRevealBody,
    ClaimBody,
    CommitBody,
    DeliveryBody,
    EndBody,
    KeyReleaseBody,
    Kind,
    LeaveBody,
    Message,
    OfferBody,
    OpenBody,
    ResignBody,
    RevealBody,
    sign_message,
)
from protocol.wire.transcript import file_start, frame
from tests.vectors.endings import ending_vectors
from tests.vectors.forging_v3 import Match, edit, network
from tests.vectors.generate_v2 import fields, manifest_text, run, trimmed
from tests.vectors.making import (
    Base,
    VectorNetwork,
    appended,
    assemble,
    differences,
    field_offsets,
    flipped,
    resigned_header,
    rewrite_once,
    rewritten,
    stored,
)
from tests.vectors.writing import FileSet, generator_main

V3 = Path(__file__).parent / "v3"
VERSION = 3
GROUPS = ("honest", "rules", "appendix-b", "sealed", "pools", "decks", "copies", "codes",
          "usage")
OTHERS = ("forfeits",)
"""Folders of tests/vectors/v3 another generator writes (left alone here)."""
L = 2**252 + 27742317777372353535851937790883648493
"""The order of the group of the shared decks (docs/deck.md §2)."""

EXEMPT: dict[str, str] = {
    "rule_broken": "no check gives it: protocol/verify/verdicts.py reason_code() gives it only to "
                   "a fault whose words no pattern names, and every fault the match core raises "
                   "has a pattern (tests/vectors/test_v3.py "
                   "test_no_fault_reason_falls_to_rule_broken)",
}
"""Reason codes no vector of tests/vectors/v3 (this generator's or another's, such as the
forfeits') gets, with why: only codes that no check of version 3 gives may be listed
(tests/vectors/test_v3.py reads this list)."""


# --------------------------------------------------------------------------- what each must show


@dataclass(frozen=True)
class Want:
    verdict: str
    blamed: tuple[int, ...] = ()
    code: str = ""
    waiting: tuple[int, ...] | None = None


def w(verdict: str, blamed: tuple[int, ...] | int = (), code: str = "",
      waiting: tuple[int, ...] | None = None) -> Want:
    return Want(verdict, (blamed,) if isinstance(blamed, int) else blamed, code, waiting)


VALID = w("valid", (), "result_signed")


def bad(seat: int, code: str) -> Want:
    return w("invalid", seat, code)


@dataclass(frozen=True)
class Entry:
    """One vector: its files (or, ``usage``, the arguments of ``cryptcrawl verify``), what it
    is, what it must show, and the checks of the protocol it shows (:data:`CHECKS`)."""

    name: str
    group: str
    description: str
    files: tuple[str, ...]
    want: Want
    checks: tuple[str, ...] = ()
    arguments: tuple[str, ...] | None = None

    @property
    def command(self) -> str:
        if self.arguments is not None:
            return "usage"
        return "single" if len(self.files) == 1 else "copies"


class Vectors(FileSet):
    """The files and entries being built."""

    def __init__(self) -> None:
        super().__init__()
        self.entries: list[Entry] = []

    def single(self, name: str, description: str, data: bytes, want: Want,
               *checks: str, cut: bool = True) -> str:
        if cut:
            data, description = trimmed(data, description)
        path = self.file(f"{name}.crawl", data)
        self.entries.append(Entry(name, name.split("/")[0], description, (path,), want, checks))
        return path

    def together(self, name: str, description: str, files: Iterable[str], want: Want,
                 *checks: str) -> None:
        paths = tuple(files)
        assert all(p in self.files for p in paths) and len(paths) > 1
        self.entries.append(Entry(name, name.split("/")[0], description, paths, want, checks))

    def usage(self, name: str, description: str, arguments: Sequence[str], want: Want,
              *checks: str) -> None:
        files = tuple(a for a in arguments if a.endswith(".crawl"))
        self.entries.append(Entry(name, "usage", description, files, want, checks,
                                  tuple(arguments)))


# --------------------------------------------------------------------------- the matches


def play(game: str, n: int, tag: bytes, setup: Callable[[Network], None] | None = None, *,
         keen: bool = False, version: int = VERSION) -> Match:
    net = network(game, n, tag, keen=keen, version=version)
    if setup is not None:
        setup(net)
    net.run_with_timeouts()
    match = Match(net)
    live = [i for i in range(n) if net.cores[i].live(i)]
    assert all(net.cores[i].signed for i in live), (game, tag)
    return match


def leaving(seat: int, sent: int, *, resign: bool = False) -> Callable[[Network], None]:
    return lambda net: at(net, seat, sent, lambda: net.seats[seat].leave(resign=resign))


def offering(seat: int, sent: int, what: str, resume: tuple[int, int] | None = None
             ) -> Callable[[Network], None]:
    def setup(net: Network) -> None:
        for local in net.seats:
            local.answering = lambda offerer, what: True
        at(net, seat, sent, lambda: net.seats[seat].offer(what))
        if resume is not None:
            at(net, resume[0], resume[1], net.seats[resume[0]].resume)
    return setup


def only_valid(match: Match) -> bytes:
    data = match.file()
    assert verify(data).valid
    return data


@dataclass
class Matches:
    """Every honest match the vectors start from (played once)."""

    raiders: Match
    leave: Match
    resign: Match
    kards: Match
    pause: Match
    draw: Match
    twister: Match
    paper: Match
    past_vote: Match
    v2_raiders: Match
    v2_paper: Match


def matches() -> Matches:
    past = network("raiders", 3, b"honest/past-point-vote")
    past.pump(limit=400, partial=True)
    past.queue.append(past.seats[2].sign_next(Kind.ABSENT, AbsentBody(0, 0, 1)))
    past.pump()
    return Matches(
        raiders=play("raiders", 3, b"honest/raiders-3", keen=True),
        leave=play("raiders", 3, b"honest/raiders-3-leave", leaving(2, 20)),
        resign=play("raiders", 3, b"honest/raiders-3-resign", leaving(2, 20, resign=True)),
        kards=play("kards", 2, b"honest/kards-2"),
        pause=play("kards", 2, b"honest/kards-2-pause", offering(0, 10, "pause", (1, 25))),
        draw=play("kards", 3, b"honest/kards-3-draw", offering(0, 10, "draw")),
        twister=play("twister", 2, b"honest/twister-2"),
        paper=play("paper", 2, b"honest/paper-2"),
        past_vote=Match(past),
        v2_raiders=play("raiders", 3, b"honest/raiders-3", keen=True, version=2),
        v2_paper=play("paper", 2, b"honest/paper-2", version=2),
    )


# --------------------------------------------------------------------------- honest


def honest(out: Vectors, m: Matches) -> None:
    out.single("honest/raiders-3", "Dungeon Raiders, three seats, basic, to its end; seat 0 "
               "peeks with a torch whenever it may (private-knowledge rounds: a SEAL_KEY, "
               "deliveries, a KEY_RELEASE). The file of seat 0, its records in the order sent.",
               only_valid(m.raiders), VALID, "H.raiders", "K.rounds")
    out.single("honest/kards-2", "Dungeons of Kards, two seats, to its end: every public die "
               "drawn from the pools (§7.12). The file of seat 0.", only_valid(m.kards), VALID,
               "H.kards", "P.honest")
    out.single("honest/twister-2", "Dungeon Twister, two seats, to its end: starting teams and "
               "face-down tokens sealed and opened (§7.11), the audit at the end. The file of "
               "seat 0.", only_valid(m.twister), VALID, "H.twister", "S.honest")
    out.single("honest/paper-2", "Paper Dungeons, two seats, to its end: powers and objectives "
               "dealt from shared decks (§7.13): keys, shuffles, shares, opens, the audit. The "
               "file of seat 0.", only_valid(m.paper), VALID, "H.paper", "D.honest")
    out.single("honest/raiders-3-leave", "Dungeon Raiders, three seats: seat 2 signs a LEAVE "
               "after its 20th message; every later message names its replacement mark "
               "(cryptcrawl/replaced/v2). The file of seat 0.", only_valid(m.leave), VALID,
               "R1.positive", "R6.leave")
    out.single("honest/raiders-3-resign", "The same, seat 2 signs a RESIGN: every later message "
               "names its own mark, H(\"cryptcrawl/resigned/v3\", match id, 2, count). The "
               "file of seat 0.", only_valid(m.resign), VALID, "R1.positive", "R6.positive")
    out.single("honest/kards-2-pause", "Dungeons of Kards, two seats: seat 0 offers a pause, "
               "seat 1 accepts (its ANSWER names the OFFER's hash), and resumes later. The file "
               "of seat 0.", only_valid(m.pause), VALID, "R5.pause")
    out.single("honest/kards-3-draw", "Dungeons of Kards, three seats: seat 0 offers a draw, "
               "seats 1 and 2 accept (each ANSWER names the OFFER's hash); the END round names "
               "each seat's OFFER or ANSWER as its heads. The file of seat 0.",
               only_valid(m.draw), VALID, "R5.positive")
    out.single("honest/raiders-3-past-point-vote", "Dungeon Raiders, three seats: in mid-game "
               "seat 2 signs ABSENT [0, 0, 1], a vote on seat 0's first message, taken long "
               "before (its own heads already name later messages of seat 0). A vote on a "
               "point its voter had passed is no vote (§7.6 item 3): nobody is replaced, and "
               "the copy is not waiting for votes. The file of seat 0.",
               only_valid(m.past_vote), VALID, "R2.positive")


# --------------------------------------------------------------------------- the rules


def departed(match: Match, liar: int, at_: int, body: Any, *, keep_rest: bool) -> bytes:
    """The liar's copy with a LEAVE or RESIGN put in as its message ``at_``: followed by its
    later messages signed again (``keep_rest``) or ending its feed."""
    plan = match.plan(liar)
    feed = match.own(liar)
    draft = Draft(body.KIND, body, feed[at_].state, ())
    return match.forged(liar, plan[:at_] + [draft] + (plan[at_:] if keep_rest else []))


def rules(out: Vectors, m: Matches) -> None:
    r = m.raiders
    # 1. A seat that left is named in the heads like a live seat.
    out.single("rules/leave-appended", "The match of honest/raiders-3: seat 2 keeps its first "
               "33 messages and appends a LEAVE, signed (its copy). The honest seats' later "
               "messages name messages of seat 2 this copy does not hold: a dispute with the "
               "seat that left (§7.10 item 4), not an honest seat's fault.",
               departed(r, 2, 33, LeaveBody(), keep_rest=False), w("disputed", (0, 2),
                                                                   "heads_disputed"),
               "R1.appended")
    out.single("rules/leave-inserted", "The match of honest/raiders-3: seat 2 puts a LEAVE in "
               "as its message 66 and signs every later message of its again: a dispute with "
               "seat 2.", departed(r, 2, 66, LeaveBody(), keep_rest=True),
               w("disputed", (1, 2), "heads_disputed"), "R1.inserted")
    out.single("rules/resign-inserted", "The match of honest/raiders-3: seat 1 puts a RESIGN "
               "in as its message 32 and signs the rest again: a dispute with seat 1.",
               departed(r, 1, 32, ResignBody(), keep_rest=True),
               w("disputed", (0, 1), "heads_disputed"), "R1.resign")
    out.single("rules/resign-appended-state", "The match of honest/raiders-3: seat 2 keeps its "
               "first 5 messages and appends a RESIGN. Seat 0's next message is refused "
               "against the state this copy reaches after the departure, which that message "
               "does not name: the state rests on the seat that left (§9.2 item 4), "
               "state_disputed naming it.",
               departed(r, 2, 5, ResignBody(), keep_rest=False),
               w("disputed", (0, 1, 2), "state_disputed"), "R1.state")
    # 2. A vote on a point its voter had passed is no vote.
    feed = r.own(2)
    plan = r.plan(2)
    at_ = 3 * len(feed) // 4
    vote = Draft(Kind.ABSENT, AbsentBody(0, 1, 1), feed[at_].state, ())
    out.single("rules/past-point-absent-inserted", f"The match of honest/raiders-3: seat 2 "
               f"puts in, as its message {at_}, ABSENT [0, 1, 1] (a vote on seat 0's message "
               "1, long passed) and signs the rest again. The vote is no vote, so the copy "
               "does not wait for votes (not incomplete): the honest seats' later messages "
               "name seat 2's original messages, a dispute with seat 2.",
               r.forged(2, [*plan[:at_], vote, *plan[at_:]]),
               w("disputed", (0, 2), "heads_disputed"), "R2.inserted")
    # 3. A copy lacking a live seat's later messages is incomplete, waiting for it.
    k = m.kards
    feeds = k.feeds(0)
    cut = len(feeds[1]) // 2
    short = k.copy([feeds[0], feeds[1][:cut]])
    out.single("rules/copy-lacks-live-tail", f"Seat 0's copy of honest/kards-2 without seat 1's "
               f"messages {cut} and later (seat 0's own later messages name them): seat 1 is "
               "live and has no END here, so the copy may simply not hold them yet — "
               "incomplete, waiting for seat 1 (§9.2 items 4a, 6), not a dispute. (The replay "
               "waits for seat 1's next message before it takes any message naming the "
               "missing ones, so version 2 reads it alike: rules/commit-edited-cut shows "
               "where the versions differ.)", short,
               w("incomplete", (), "unfinished", (1,)), "R3.short", cut=False)
    out.single("rules/commit-edited-cut", edited_cut_text(r, "") + " Seat 1 is live, has no "
               "END here and every message of its held here was taken: the copy may only lack "
               "its later messages — incomplete, waiting for seat 1 (§9.2 item 4a), where "
               "version 2 reads a dispute (appendix-b/commit-edited-cut).", edited_cut(r),
               w("incomplete", (), "unfinished", (1,)), "R3.edited")
    # 3b. The verdict is the replay's first finding: a proven lie before what its replacement
    # causes.
    plan = r.plan(1)
    i = [j for j, d in enumerate(plan) if d.kind is Kind.REVEAL][2]
    reveal = plan[i].body
    assert isinstance(reveal, RevealBody)
    other = "play 1" if reveal.action != "play 1" else "play 2"
    out.single("rules/proof-first", f"The match of honest/raiders-3: seat 1, in its copy, "
               f"reveals {other!r} in its message {i} where it committed to "
               f"{reveal.action!r}, and signs the rest of its feed again; the whole file, not "
               "cut. Replaced for it, seat 1 leaves the honest seats' later messages unfit in "
               "this copy (they too are refused in the replay), but the verdict is the first "
               "finding in canonical order (§9.2 item 4, the precedence table): seat 1's "
               "proven lie.", r.forged(1, edit(plan, i, body=dataclasses.replace(
                   reveal, action=other))), bad(1, "reveal_mismatch"), "R7.first", cut=False)
    # 4. A DECK body of the right shape with a point that is not the group's.
    p = m.paper
    shares = next(x for x in p.own(1) if isinstance(getattr(x.content, "body", None),
                                                    DeckSharesBody))
    body = _set(shares.body, 4, (bytes(32), *shares.body[4][1:]))
    out.single("rules/deck-shares-order-4", f"The match of honest/paper-2: seat 1's deck-shares "
               f"body (its message {shares.seq}) carries, as its first share, the encoding of "
               "a point of order 4 (y = 0), signed by seat 1 (its feed signed again from "
               "there). A body of the right shape: bad_deck, seat 1 blamed (§7.13).",
               p.forged(1, edit(p.plan(1), shares.seq, body=body)), bad(1, "bad_deck"),
               "R4.order4", "D.point")
    # 5. An ANSWER names the OFFER it answers; a drawn END round names OFFER and ANSWERs.
    pz = m.pause
    plan = pz.plan(0)
    i = next(j for j, d in enumerate(plan) if isinstance(d.body, OfferBody))
    out.single("rules/pause-turned-draw", "The match of honest/kards-2-pause: seat 0 turns its "
               "OFFER of a pause into a draw in its copy and signs its feed again. Seat 1's "
               "ANSWER names the OFFER it was given: a dispute with seat 0 (§7.7).",
               pz.forged(0, edit(plan, i, body=OfferBody("draw"))),
               w("disputed", (0, 1), "heads_disputed"), "R5.offer")
    d = m.draw
    plan = d.plan(1)
    i = next(j for j, x in enumerate(plan) if isinstance(x.body, AnswerBody))
    answer = plan[i].body
    assert isinstance(answer, AnswerBody)
    out.single("rules/answer-flipped", "The match of honest/kards-3-draw: seat 1 turns its "
               "ANSWER from yes to no in its copy and signs its feed again. Its own message of "
               "the drawn END round still names, as seat 0's head, seat 0's OFFER (held here "
               "elsewhere in seat 0's feed once the draw is refused): its own fault, "
               "heads_out_of_place, seat 1 alone blamed.",
               d.forged(1, edit(plan, i, body=dataclasses.replace(answer, yes=0))),
               bad(1, "heads_out_of_place"), "R5.answer")
    plan2 = d.plan(2)
    i2 = next(j for j, x in enumerate(plan2) if isinstance(x.body, AnswerBody))
    answer2 = plan2[i2].body
    assert isinstance(answer2, AnswerBody)
    out.single("rules/answer-flipped-last", "The match of honest/kards-3-draw: seat 2 (the "
               "last to answer) turns its ANSWER to no and signs its feed again. Seat 1's "
               "message of the drawn END round names seat 2's accepting ANSWER, which this "
               "copy does not hold: a dispute between seats 1 and 2 (the liar among them).",
               d.forged(2, edit(plan2, i2, body=dataclasses.replace(answer2, yes=0))),
               w("disputed", (1, 2), "heads_disputed"), "R5.end")
    out.single("rules/answer-names-another-message", "The match of honest/kards-3-draw: seat "
               "1's ANSWER names, as the OFFER it answers, seat 0's message 0 (held here, not "
               "the OFFER): its own fault, like a delivery's key message out of place.",
               d.forged(1, edit(plan, i, body=dataclasses.replace(
                   answer, offer=d.own(0)[0].hash))), bad(1, "heads_out_of_place"),
               "R5.other")
    out.single("rules/answer-to-own-seat", "The match of honest/kards-3-draw: seat 1's ANSWER "
               "names itself as the offerer (seat 1, the OFFER's sequence number and hash "
               "kept): an ANSWER to its own seat (§7.7), unexpected_message.",
               d.forged(1, edit(plan, i, body=dataclasses.replace(answer, seat=1))),
               bad(1, "unexpected_message"), "R5.own")
    out.single("rules/answer-names-unknown", "The match of honest/kards-3-draw: seat 1's ANSWER "
               "names, as the OFFER it answers, a hash of no message this copy holds: a "
               "dispute between seat 1 and the offerer.",
               d.forged(1, edit(plan, i, body=dataclasses.replace(
                   answer, offer=h(b"cryptcrawl/vectors/v3/unknown offer")))),
               w("disputed", (0, 1), "heads_disputed"), "R5.unknown")
    # 6. A seat that resigned has its own replacement mark.
    for match, src, dst, name, what, want in (
            (m.leave, LeaveBody, ResignBody(), "leave-turned-resign", "LEAVE into a RESIGN",
             (0, 2)),
            (m.resign, ResignBody, LeaveBody(), "resign-turned-leave", "RESIGN into a LEAVE",
             (1, 2))):
        plan = match.plan(2)
        i = next(j for j, x in enumerate(plan) if isinstance(x.body, src))
        out.single(f"rules/{name}", f"The match of honest/raiders-3-"
                   f"{'leave' if src is LeaveBody else 'resign'}: seat 2 turns its {what} in "
                   "its copy and signs it again. The others' later messages name its mark of "
                   "the other kind (cryptcrawl/replaced/v2 or cryptcrawl/resigned/v3): no "
                   "replacement difference but a dispute with seat 2 (§7.10).",
                   match.forged(2, edit(plan, i, body=dst)), w("disputed", want,
                                                                "heads_disputed"), "R6." + name)


def edited_cut(match: Match) -> bytes:
    """Seat 1's copy with its fourth COMMIT naming another commitment, its feed ending there."""
    plan = match.plan(1)
    i = [j for j, d in enumerate(plan) if d.kind is Kind.COMMIT][3]
    body = plan[i].body
    assert isinstance(body, CommitBody)
    return match.forged(1, edit(plan, i, body=CommitBody(
        body.step, h(b"cryptcrawl/vectors/v3/another commitment")))[:i + 1])


def edited_cut_text(match: Match, what: str, base: str = "honest/raiders-3") -> str:
    plan = match.plan(1)
    i = [j for j, d in enumerate(plan) if d.kind is Kind.COMMIT][3]
    return (f"{what}The match of {base}: seat 1, in its copy, signs its message {i} "
            "(its fourth COMMIT) again naming another commitment, and its feed ends there; "
            "the other seats' later messages name its original COMMIT.")


def _set(wire: Any, index: int, value: Any) -> tuple[Any, ...]:
    out = list(wire)
    out[index] = value
    return tuple(out)


def appendix_b(out: Vectors, m: Matches) -> None:
    r = m.v2_raiders
    out.single("appendix-b/raiders-3", "Version 2: Dungeon Raiders, three seats, to its end "
               "(the base of this group's other version 2 files).", only_valid(r), VALID,
               "B.honest")
    out.single("appendix-b/leave-appended", "Version 2: seat 2 keeps its first 33 messages and "
               "appends a LEAVE. Version 2 files too name a seat that left in the heads "
               "(§9.2 item 4): a dispute with it.",
               departed(r, 2, 33, LeaveBody(), keep_rest=False), w("disputed", (1, 2),
                                                                   "heads_disputed"),
               "R1.v2")
    feed = r.own(2)
    plan = r.plan(2)
    at_ = 3 * len(feed) // 4
    vote = Draft(Kind.ABSENT, AbsentBody(0, 1, 1), feed[at_].state, ())
    out.single("appendix-b/past-point-absent-inserted", "Version 2: seat 2 puts in an ABSENT on "
               "seat 0's message 1, long passed, and signs the rest again: no vote in version "
               "2 either, so not incomplete; a dispute with seat 2.",
               r.forged(2, [*plan[:at_], vote, *plan[at_:]]),
               w("disputed", (0, 2), "heads_disputed"), "R2.v2")
    out.single("appendix-b/commit-edited-cut", edited_cut_text(
               r, "Version 2: ", "appendix-b/raiders-3") + " Version 2 reads a message "
               "naming a message another live seat's feed does not hold as disputed even "
               "where that feed may only lack its later messages (Appendix B).",
               edited_cut(r), w("disputed", (1, 2), "heads_disputed"), "R3.v2")
    p = m.v2_paper
    shares = next(x for x in p.own(1) if isinstance(getattr(x.content, "body", None),
                                                    DeckSharesBody))
    body = _set(shares.body, 4, (bytes(32), *shares.body[4][1:]))
    out.single("appendix-b/deck-shares-order-4", "Version 2: seat 1's deck-shares body with a "
               "point of order 4, signed by seat 1: a malformed message in version 2 (§3), its "
               "seat not blamed (Appendix B).",
               p.forged(1, edit(p.plan(1), shares.seq, body=body)),
               w("invalid", (), "malformed_record"), "R4.v2")


# --------------------------------------------------------------------------- sealed values


def sealed(out: Vectors, m: Matches) -> None:
    tw = m.twister
    liar = 1
    feed = tw.own(liar)

    def nth(kind: type, k: int = 0) -> Message:
        return [x for x in feed if isinstance(x.content, kind)][k]

    def sealing(k: int) -> Message:
        return [x for x in feed if isinstance(x.content, ActBody) and x.content.sealed][k]

    opens = [x for x in feed if isinstance(x.content, OpenBody)]
    act = sealing(0)
    a = act.content
    assert isinstance(a, ActBody)
    second, one, audit = opens[1], opens[2], opens[-1]
    o2, o3, o4 = second.content, one.content, audit.content
    assert isinstance(o2, OpenBody) and isinstance(o3, OpenBody) and isinstance(o4, OpenBody)
    assert len(o2.values) >= 2 and len(o4.values) >= 2
    move = next(x for x in feed[act.seq:] if isinstance(x.content, ActBody)
                and not x.content.sealed and x.content.pool is None)
    mb = move.content
    assert isinstance(mb, ActBody)
    other = next(v for _, v, _ in (*o2.values, *o4.values) if v != o2.values[0][1])
    base = "The match of honest/twister-2: seat 1, in its copy, "
    cases: list[tuple[str, str, Message, Any, Want, str]] = [
        ("act-extra-commitment", f"adds, to the ACT of {a.action!r} that seals "
         f"{a.sealed[0][0]}, a commitment for a slot the action does not seal", act,
         dataclasses.replace(a, sealed=(*a.sealed, ("tok.1.99", h(b"sealed"))))
         , bad(1, "bad_sealed"), "S.slots-extra"),
        ("act-wrong-slot", f"commits, in its ACT sealing {a.sealed[0][0]}, under another "
         "slot's name", act, dataclasses.replace(a, sealed=(("tok.1.7", a.sealed[0][1]),)),
         bad(1, "bad_sealed"), "S.slots-other"),
        ("act-seals-nothing", f"adds a sealed commitment to its ACT {mb.action!r}, which seals "
         "nothing", move, dataclasses.replace(mb, sealed=(("tok.1.11", h(b"nothing")),)),
         bad(1, "bad_sealed"), "S.slots-none"),
        ("open-never-sealed", "opens, in its second OPEN, a slot of seat 0's in place of its "
         "first", second, OpenBody((("tok.0.2", *o2.values[0][1:]), *o2.values[1:])),
         bad(1, "bad_sealed"), "S.open-unsealed"),
        ("open-again", "opens again, in its third OPEN, a value it opened before", one,
         OpenBody((o2.values[0],)), bad(1, "bad_sealed"), "S.open-twice"),
        ("open-wrong-salt", "opens a value with another salt than the one it committed with",
         second, OpenBody(((o2.values[0][0], o2.values[0][1], h(b"salt")), *o2.values[1:])),
         bad(1, "reveal_mismatch"), "S.commitment-salt"),
        ("open-fewer-slots", "opens fewer slots than the rules ask", second,
         OpenBody(o2.values[:1]), bad(1, "bad_sealed"), "S.request-fewer"),
        ("open-other-order", "opens the slots the rules ask in another order", second,
         OpenBody(o2.values[::-1]), bad(1, "bad_sealed"), "S.request-order"),
        ("audit-fewer-slots", "leaves a value out of its audit at the end", audit,
         OpenBody(o4.values[:-1]), bad(1, "bad_sealed"), "S.audit"),
        ("act-without-commitments", f"leaves out, of its ACT of {a.action!r}, the sealed "
         f"commitments of the slots it seals ({', '.join(s for s, _ in a.sealed)})", act,
         dataclasses.replace(a, sealed=()), bad(1, "bad_sealed"), "S.slots-missing"),
        ("open-wrong-value", f"opens {o2.values[0][0]} as another value ({other!r}) than the "
         "one it committed to, with the same salt", second,
         OpenBody(((o2.values[0][0], other, o2.values[0][2]), *o2.values[1:])),
         bad(1, "reveal_mismatch"), "S.commitment-value"),
    ]
    plan = tw.plan(liar)
    skip = plan.index(next(d for d in plan if d.origin is audit))
    assert plan[skip + 1].kind is Kind.END
    out.single("sealed/end-before-audit", f"{base}leaves out its audit OPEN at the end (its "
               f"message {audit.seq}) and signs its END in its place, with the heads the OPEN "
               "named (as a careful forger would): an "
               "END while the sealed audit is owed (§6.4 step 6, §7.11), unexpected_message.",
               tw.forged(liar, [*plan[:skip], dataclasses.replace(
                   plan[skip + 1], heads=audit.heads), *plan[skip + 2:]]),
               bad(1, "unexpected_message"), "S.audit-end")
    for name, what, target, body, want, check in cases:
        out.single(f"sealed/{name}", f"{base}{what} (its message {target.seq}), signed again "
                   "from there.", tw.forged(liar, edit(tw.plan(liar), target.seq, body=body)),
                   want, check)
    del nth


# --------------------------------------------------------------------------- dice pools


def pools(out: Vectors, m: Matches) -> None:
    kd = m.kards
    liar = 1
    feed = kd.own(liar)
    act = next(x for x in feed if isinstance(x.content, ActBody) and x.content.pool)
    reveal = next(x for x in feed if isinstance(x.content, ChanceRevealBody)
                  and is_pool_slot(x.content.secrets[0][0]))
    commit = next(x for x in feed if isinstance(x.content, ChanceCommitBody)
                  and any(is_pool_slot(e) for e, _ in x.content.commitments))
    a, r, c = act.content, reveal.content, commit.content
    assert isinstance(a, ActBody) and isinstance(r, ChanceRevealBody)
    assert isinstance(c, ChanceCommitBody) and a.pool is not None
    used = int(a.pool[0].split(".")[1])
    plain = next(x for x in feed if isinstance(x.content, ActBody) and x.content.pool is None
                 and x.seq > act.seq)
    still = plain.content
    assert isinstance(still, ActBody)
    slot = r.secrets[0][0]
    later = f"pool.{int(slot.split('.')[1]) + 1}"
    base = "The match of honest/kards-2: seat 1, in its copy, "
    cases: list[tuple[str, str, Message, Any, Want, str]] = [
        ("act-secret-other-slot", f"puts in its ACT {a.action!r} its secret for pool.{used + 1} "
         f"where the action takes pool.{used}", act,
         dataclasses.replace(a, pool=(f"pool.{used + 1}", a.pool[1])),
         bad(1, "unexpected_message"), "P.act-slot"),
        ("reveal-wrong-secret", f"reveals another secret for {slot} than the one it committed "
         "to", reveal, dataclasses.replace(r, secrets=((slot, h(b"pool secret")),)),
         bad(1, "reveal_mismatch"), "P.reveal-secret"),
        ("reveal-other-slot", f"reveals its secret for {later} where {slot} is due", reveal,
         dataclasses.replace(r, secrets=((later, r.secrets[0][1]),)),
         bad(1, "unexpected_message"), "P.reveal-slot"),
        ("reveal-commit-set", f"names, in its reveal of {slot}, a digest of other commitments "
         "than the feeds it vouched for hold", reveal,
         dataclasses.replace(r, commit_set=bytes(32)), bad(1, "commit_set_mismatch"),
         "P.reveal-set"),
        ("commit-other-batch", "commits to a batch of slots one further than the pool batch",
         commit, dataclasses.replace(c, commitments=tuple(
             (f"pool.{int(e.split('.')[1]) + 1}", x) for e, x in c.commitments)),
         bad(1, "unexpected_message"), "P.commit-batch"),
        ("commit-short-batch", "commits to the pool batch less its last slot", commit,
         dataclasses.replace(c, commitments=c.commitments[:-1]),
         bad(1, "unexpected_message"), "P.commit-short"),
        ("act-secret-wrong", f"puts in its ACT {a.action!r} another secret for {a.pool[0]} "
         "than the one it committed to", act,
         dataclasses.replace(a, pool=(a.pool[0], h(b"cryptcrawl/vectors/v3/pool secret"))),
         bad(1, "reveal_mismatch"), "P.act-secret"),
        ("act-secret-not-due", f"puts a pool secret in its ACT {still.action!r}, which poses "
         "no die", plain, dataclasses.replace(still, pool=a.pool), bad(1, "unexpected_message"),
         "P.act-not-due"),
    ]
    for name, what, target, body, want, check in cases:
        out.single(f"pools/{name}", f"{base}{what} (its message {target.seq}), signed again "
                   "from there.", kd.forged(liar, edit(kd.plan(liar), target.seq, body=body)),
                   want, check)


# --------------------------------------------------------------------------- decks


def decks(out: Vectors, m: Matches) -> None:
    pp = m.paper
    liar = 1
    feed = pp.own(liar)

    def of(kind: type, k: int = 0) -> Message:
        return [x for x in feed if isinstance(getattr(x.content, "body", None), kind)][k]

    commit, key, shuffle, shares = of(KeyCommitBody), of(KeyBody), of(ShuffleBody), of(
        DeckSharesBody)
    opens = [x for x in feed if isinstance(getattr(x.content, "body", None), DeckOpenBody)]
    kept, preopen, audit = opens[0], opens[1], opens[2]
    kw, sw, hw, ow = key.body, shuffle.body, shares.body, kept.body
    response = (int.from_bytes(kw[4], "little") + 1) % L
    challenge = (int.from_bytes(sw[6][0], "little") + 1) % L
    base = "The match of honest/paper-2: seat 1, in its copy, "
    cases: list[tuple[str, str, Message, Any, Want, str]] = [
        ("key-not-committed", "shows another key share than the one it committed to (with "
         "its proof for the first)", key, _set(kw, 2, base_mul(7)), bad(1, "bad_deck"),
         "D.key-commitment"),
        ("key-proof", "shows its key share with a proof whose response is changed", key,
         _set(kw, 4, encode_scalar(response)), bad(1, "bad_deck"), "D.key-proof"),
        ("shuffle-proof", "shuffles with a proof whose challenge is changed", shuffle,
         _set(sw, 6, (encode_scalar(challenge), *sw[6][1:])), bad(1, "bad_deck"),
         "D.shuffle-proof"),
        ("shuffle-wrong-shape", "sends a shuffle one card short (the body's arrays do not fit "
         "deck.md §7: a malformed message, nobody blamed)", shuffle,
         _set(sw, 3, tuple(sw[3][:-2])), w("invalid", (), "malformed_record"), "D.shape"),
        ("shares-proof", "sends its decryption shares with a proof whose response is "
         "changed", shares, _set(hw, 6, encode_scalar(
             (int.from_bytes(hw[6], "little") + 1) % L)), bad(1, "bad_deck"),
         "D.shares-proof"),
        ("shares-positions", "sends its decryption shares for fewer positions than the round "
         "owes", shares, _set(_set(hw, 3, (hw[3][0],)), 4, (hw[4][0],)), bad(1, "bad_deck"),
         "D.shares-owed"),
        ("open-not-owed", "opens another position than the one whose open it owes", kept,
         _set(ow, 2, (1,)), bad(1, "bad_deck"), "D.open-owed"),
        ("open-not-dealt", "opens, before its OPEN, a position dealt to seat 0", preopen,
         _set(preopen.body, 2, (1,)), bad(1, "bad_deck"), "D.open-not-dealt"),
        ("open-shares-proof", "opens its kept power with its share moved (its proof fails)",
         kept, _set(ow, 4, (add(ow[4][0], BASE),)), bad(1, "bad_deck"), "D.open-proof"),
        ("open-card-not-in-deck", "claims, in its open, card 99 of a 16-card deck", kept,
         _set(ow, 3, (99,)), bad(1, "bad_deck"), "D.open-card"),
        ("audit-positions", "opens, in its audit at the end, another position than the ones "
         "it holds unseen", audit, _set(audit.body, 2, (2,)), bad(1, "bad_deck"),
         "D.audit-owed"),
        ("not-in-play", "sends its key commitment for a deck id of no attempt", commit,
         _set(commit.body, 1, h(b"cryptcrawl/vectors/v3/no deck")), bad(1, "bad_deck"),
         "D.not-in-play"),
        ("key-identity", "shows the identity point as its key share (a body of the right "
         "shape)", key, _set(kw, 2, b"\x01" + bytes(31)), bad(1, "bad_deck"), "D.point"),
        ("key-not-canonical", "shows a key share whose encoding is not canonical (y = p)", key,
         _set(kw, 2, b"\xed" + b"\xff" * 30 + b"\x7f"), bad(1, "bad_deck"), "D.point"),
        ("shuffle-off-curve", "shuffles with a first card point off the curve", shuffle,
         _set(sw, 3, (b"\x02" + bytes(31), *sw[3][1:])), bad(1, "bad_deck"), "D.point"),
        ("open-scalar-over-order", "opens with a proof response not below the group order",
         kept, _set(ow, 6, b"\xff" * 32), bad(1, "bad_deck"), "D.scalar"),
    ]
    for name, what, target, body, want, check in cases:
        out.single(f"decks/{name}", f"{base}{what} (its message {target.seq}), signed again "
                   "from there.", pp.forged(liar, edit(pp.plan(liar), target.seq, body=body)),
                   want, check)
    plan = pp.plan(liar)
    shown = plan.index(next(d for d in plan if d.origin is preopen))
    out.single("decks/opening-not-shown", f"{base}leaves out its deck-open of the objective it "
               f"kept (its message {preopen.seq}) and signs the rest again: its OPEN then shows "
               "the card's event without the deck's open of it first.",
               pp.forged(liar, plan[:shown] + plan[shown + 1:]), bad(1, "bad_deck"),
               "D.not-shown")


# --------------------------------------------------------------------------- several copies


CROSSED_AFTER = 13
"""Seat 1's messages before the link goes down in :func:`claim_crossed` (seat 1 then has more
messages of its own than seat 0 took: its copy holds the message the claim crossed)."""


def claim_crossed() -> Network:
    """Dungeons of Kards, two seats: seat 1 sends 13 messages, then the link goes down both
    ways; seat 0 times seat 1 out and claims the match while seat 1 had played on (as
    tests/protocol/mechanisms/test_claim.py)."""
    net = network("kards", 2, b"copies/claim-crossed")
    for _ in range(20000):
        if len(net.seats[1].sent) >= CROSSED_AFTER:
            break
        net.pump(limit=1, partial=True)
    cut = list(net.queue)
    net.queue.clear()
    for x in cut:
        net.deliver(x.seat, x)
    for _ in range(20):
        sent = [x for s in (0, 1) for x in net.seats[s].messages_to_send()]
        for x in sent:
            net.deliver(x.seat, x)
        cut += sent
    net.run_clock(0)
    net.run_clock(0)
    claim = net.seats[0].messages_to_send()
    assert [x.kind for x in claim] == [Kind.CLAIM], claim
    for x in claim:
        net.deliver(0, x)
    for x in cut + claim:
        net.deliver(1 - x.seat, x)
    net.pump()
    return net


def copies(out: Vectors, m: Matches) -> None:
    k = m.kards
    a = out.file("copies/kards-2-seat1.crawl", k.file(1))
    whole = "honest/kards-2.crawl"
    out.together("copies/two-whole", "Seats 0 and 1's copies of honest/kards-2.", (whole, a),
                 VALID, "C.whole")
    feeds = k.feeds(0)
    half = out.single("copies/kards-2-half", "Seat 0's copy of honest/kards-2 cut at half its "
                      "records.", k.file(0)[:_half(k.file(0))], w("incomplete", (), "unfinished",
                                                                  (1,)), cut=False)
    out.together("copies/short-and-whole", "A copy cut at half its records and a whole copy: "
                 "the short one is reported short, the merged transcript valid.",
                 (half, whole), VALID, "C.short")
    liar_plan = k.plan(1)
    act = next(j for j, d in enumerate(liar_plan) if isinstance(d.body, ActBody)
               and not d.body.pool and j > 4)
    body = liar_plan[act].body
    assert isinstance(body, ActBody)
    edited = out.single("copies/kards-2-edited", "Seat 1's copy of honest/kards-2 with its "
                        f"message {act} ({body.action!r}) signed again as 'end' and every later "
                        "one signed again after it. Alone, the copy proves the edit: an action "
                        "the rules refuse in the state the message vouches for, seat 1 blamed.",
                        k.forged(1, edit(liar_plan, act,
                                         body=dataclasses.replace(body, action="end"))),
                        bad(1, "illegal_action"), "C.alone")
    out.together("copies/edited-and-whole", "The edited copy beside seat 0's whole copy: seat 1 "
                 "signed two versions of a slot (a fork across copies); the edited copy is "
                 "reported edited.", (edited, whole), bad(1, "fork"), "C.fork", "C.edited")
    flipped = bytearray(k.file(0))
    flipped[len(flipped) // 2] ^= 0x01
    damaged = out.single("copies/kards-2-damaged", "Seat 0's copy of honest/kards-2 with one "
                         "bit flipped mid-file.", bytes(flipped), w("invalid", (),
                                                                    "bad_signature"))
    out.together("copies/damaged-and-whole", "A damaged copy and a whole one: the first is "
                  "reported damaged, the merged transcript valid.", (damaged, whole), VALID,
                 "C.damaged")
    out.together("copies/different-matches", "Copies of two different matches: usage, naming "
                 "both match ids.", (whole, "honest/twister-2.crawl"),
                 w("usage", (), "different_matches"), "C.different")
    net = claim_crossed()
    claimed = out.single("copies/claim-crossed-seat0", "Dungeons of Kards, two seats: the link "
                         f"goes down both ways after seat 1's {CROSSED_AFTER}th message; seat 0 "
                         "times seat 1 out and claims the match. The file of seat 0: claimed.",
                         Match(net).file(0), w("claimed", (), "claimed"), cut=False)
    crossed = out.single("copies/claim-crossed-seat1", "The same match: the file of seat 1, "
                         "whose message reached its own file before seat 0's claim arrived "
                         "(the claim crossed it): seat 0 is replaced, one live seat is left, "
                         "abandoned, nobody blamed (§7.7).", Match(net).file(1),
                         w("abandoned", (), "abandoned"), cut=False)
    out.together("copies/claim-disputed", "The two copies of copies/claim-crossed-seat0 read "
                 "together: one ended by a CLAIM, the other holds the claimed seat's message "
                 "at the claimed count — the claimed seat was only slow, or the claim came too "
                 "early: disputed between the two (§9.4 item 4).", (claimed, crossed),
                 w("disputed", (0, 1), "claim_disputed"), "C.claim-disputed")
    del feeds


# --------------------------------------------------------------------------- the other codes


def codes(out: Vectors, m: Matches) -> None:
    """One vector for each reason code (and verdict) no other group gives: honest/raiders-3's
    file damaged, cut or re-signed (as tests/vectors/making.py's tampered vectors of version 2),
    and matches played with a seat that lies, claims, leaves or is cut off."""
    r = m.raiders
    base = Base(cast(Any, r.net), r.file(0))
    data, payloads, messages = base.data, base.payloads, base.messages
    header = r.net.header
    whole = "A copy of honest/raiders-3 (the file of seat 0)"

    def one(name: str, description: str, tampered: bytes, want: Want, *checks: str) -> None:
        out.single(f"codes/{name}", description, tampered, want, *checks)

    # --- the file record and the header
    one("empty", "An empty file.", b"", w("unreadable", (), "not_a_match_file"), "F.file")
    one("not-a-match-file", "A line of text.", b"hello, this is not a match file\n",
        w("unreadable", (), "not_a_match_file"), "F.file")
    longer = bytearray(data)
    at = base.start(1)
    longer[at - 4:at] = (len(payloads[1]) + 1).to_bytes(4, "big")
    one("header-length-prefix", f"{whole} with the header record's length prefix one more "
        "than its length: record 1 does not read as a header.", bytes(longer),
        w("unreadable", (), "unreadable_header"), "F.header")
    one("header-flip-signature", f"{whole} with a byte of seat 2's header signature flipped.",
        flipped(data, at + payloads[1].index(header.signatures[2]) + 10),
        w("invalid", (), "header_signature"), "F.header-signed")
    one("header-unknown-engine", "A header naming engine raiders/99, signed by every seat of "
        "honest/raiders-3; no message.",
        file_start(resigned_header(base, {"engine": "raiders/99"})),
        w("invalid", (), "unplayable_header"), "F.playable")
    # --- records
    mid = 2 + len(messages) // 2
    start = base.start(mid)
    one("message-flip-signature", f"{whole} with a byte of record {mid}'s signature flipped.",
        flipped(data, start + field_offsets(messages[mid - 2])["sig"][0] + 20),
        w("invalid", (), "bad_signature"), "F.signature")
    misframed = bytearray(data)
    misframed[start - 4:start] = (len(payloads[mid]) + 1).to_bytes(4, "big")
    one("message-length-prefix", f"{whole} with record {mid}'s length prefix one more than its "
        "length (every later record is misframed).", bytes(misframed),
        w("invalid", (), "malformed_record"), "F.record")
    stranger = m.kards.own(0)[0]
    one("message-of-another-match", f"{whole} with honest/kards-2's first message (of another "
        "match) put in after its first records.",
        file_start(header) + assemble([*payloads[2:12], stranger.encode(), *payloads[12:]]),
        w("invalid", (), "foreign_message"), "F.foreign")
    victim = base.find(lambda x: x.seat == 1 and x.kind is Kind.COMMIT, 2)
    broken = sign_message(base.key(1), version=VERSION, match_id=victim.match_id, seat=1,
                          seq=victim.seq, prev=h(b"cryptcrawl/vectors/v3/another predecessor"),
                          kind=victim.kind, state=victim.state, body=victim.body,
                          heads=victim.heads)
    one("broken-chain", f"{whole}: seat 1's message {victim.seq} (a COMMIT), signed by seat 1, "
        "names another predecessor.", file_start(header) + assemble(
            broken.encode() if x is victim else x.encode() for x in messages),
        bad(1, "broken_chain"), "F.chain")
    body = victim.content
    assert isinstance(body, CommitBody)
    fork = sign_message(base.key(1), version=VERSION, match_id=victim.match_id, seat=1,
                        seq=victim.seq, prev=victim.prev, kind=victim.kind, state=victim.state,
                        body=CommitBody(body.step, h(b"cryptcrawl/vectors/v3/fork")),
                        heads=victim.heads)
    one("equivocation", f"{whole} with a second COMMIT for seat 1's slot {victim.seq}, signed "
        "by seat 1, appended: two signed versions of one slot in one copy.",
        data + frame(fork.encode()), bad(1, "fork"), "F.fork")
    dropped = next(x for x in messages if x.seat == 2 and x.seq == 5)
    one("drop-message", f"{whole} without seat 2's message 5: later ones follow it.",
        file_start(header) + assemble(x.encode() for x in messages if x is not dropped),
        w("incomplete", (), "missing_messages", (2,)), "F.missing")
    end1 = base.find(lambda x: x.kind is Kind.END and x.seat == 1)
    one("drop-end", f"{whole} without seat 1's END.",
        file_start(header) + assemble(x.encode() for x in messages if x is not end1),
        w("incomplete", (), "unsigned_result", (1,)), "F.unsigned")
    one("truncate-mid-record", f"{whole} with its last 7 bytes cut off (a torn last record).",
        data[:-7], w("incomplete", (), "torn_tail"), "F.torn")
    # --- a seat's own messages, signed again
    state = base.find(lambda x: x.seat == 0 and x.kind is Kind.COMMIT, 5)
    one("rewrite-state-digest", f"{whole}: seat 0's message {state.seq} (a COMMIT) carries "
        "another public state digest; seat 0's feed signed again from there.",
        rewritten(base, state, state=h(b"cryptcrawl/vectors/v3/another state")),
        bad(0, "state_diverged"), "F.state")
    release = base.find(lambda x: x.kind is Kind.KEY_RELEASE)
    kb = release.content
    assert isinstance(kb, KeyReleaseBody)
    one("rewrite-key-release", f"{whole}: seat {release.seat}'s KEY_RELEASE publishes another "
        "private key; its feed signed again from there.",
        rewritten(base, release, body=KeyReleaseBody(kb.round, h(b"cryptcrawl/vectors/v3/k"))),
        bad(release.seat, "bad_key_release"), "K.release")
    end2 = base.find(lambda x: x.kind is Kind.END and x.seat == 2)
    e2 = end2.content
    assert isinstance(e2, EndBody)
    one("rewrite-end-result", f"{whole}: seat 2's END names another final state; signed again.",
        rewritten(base, end2, body=EndBody(bytes(32), e2.transcript)),
        bad(2, "false_result"), "F.end")
    act = base.find(lambda x: x.seat == 1 and x.kind is Kind.REVEAL)
    ab = act.content
    assert isinstance(ab, RevealBody)
    one("after-result-act", f"{whole} with a signed ACT of seat 1 appended after every seat "
        "signed the result.", appended(base, 1, Kind.ACT, ActBody(ab.step, ab.action)),
        bad(1, "after_result"), "F.after")
    # --- matches played with such a seat
    lying = play("raiders", 3, b"codes/lying-delivery", lying_delivery, keen=True)
    one("lying-delivery", "Dungeon Raiders, three seats; seat 0 peeks with a torch whenever it "
        "may. Seat 2 answers its first torch round with a DELIVERY whose sealed bytes do not "
        "open with the round's key (a byte of the ciphertext flipped before it signed); seat 0 "
        "publishes the round's key to prove it. The file of seat 1.", lying.file(1),
        bad(2, "bad_delivery"), "K.delivery")
    liar = play("raiders", 3, b"codes/false-claim", false_claiming)
    one("false-claim", "Dungeon Raiders, three seats: seat 2 leaves for good after its 20th "
        "message. Later, in a simultaneous step where seat 0 has committed and seat 1 owes "
        "its own commitment, seat 1 claims the match of seat 0 (which owes nothing: a false "
        "claim, §7.7 item 4) and sends nothing more: it is replaced, one live seat is left "
        "and the match ends there; the false claim still reads invalid (§9.2 item 4). The "
        "file of seat 0.", liar.file(0), bad(1, "false_claim"), "E.false-claim")
    endings = {v.name.split("/")[1]: v for v in ending_vectors(VERSION)}
    for name, want, check in (("claim", w("claimed", (), "claimed"), "E.claim"),
                              ("leave-to-one", w("abandoned", (), "abandoned"), "E.floor")):
        v = endings[name]
        one(name, v.description, v.data, want, check)
    split = split_network()
    a = out.single("codes/split-seat0", "Dungeon Raiders, four seats; after 60 deliveries the "
                   "network splits into {0, 1} and {2, 3} for good: each side votes the other "
                   "absent, its zombies play, and it finishes. The file of seat 0.",
                   split.file(0), VALID)
    b = out.single("codes/split-seat2", "The same match: the file of seat 2 (its side finished "
                   "another result).", split.file(2), VALID)
    out.together("codes/split", "The two sides' copies of codes/split-seat0: each valid alone, "
                 "over different results (§9.4 item 5).", (a, b), w("split", (), "split"),
                 "C.split")
    raiders = "honest/raiders-3.crawl"
    out.together("copies/torn-and-whole", "A copy whose last record is torn "
                 "(codes/truncate-mid-record) and a whole copy: the first is reported short and "
                 "torn, the merged transcript valid.", ("codes/truncate-mid-record.crawl",
                                                        raiders), VALID, "C.torn")
    out.together("copies/holed-and-whole", "A copy lacking seat 2's message 5 "
                 "(codes/drop-message) and a whole copy: the first is reported short (lacking "
                 "one message of seat 2), the merged transcript valid.",
                 ("codes/drop-message.crawl", raiders), VALID, "C.short")
    out.together("copies/unreadable", "Two files that are no match file: unreadable.",
                 ("codes/empty.crawl", "codes/not-a-match-file.crawl"),
                 w("unreadable", (), "not_a_match_file"), "C.unreadable")


def false_claiming(net: Network) -> None:
    """Seat 2 leaves after its 20th message; once seat 0 owes nothing and seat 1 owes a
    COMMIT, seat 1 claims seat 0's match and then sends nothing."""
    leaving(2, 20)(net)
    local = net.seats[1]
    original = local.messages_to_send
    done: list[Message] = []

    def send() -> list[Message]:
        core = local.core
        if not done and 2 in core.absent and core.expects(1) is Kind.COMMIT and (
                core.expects(0) is None and core.feeds[1].next_seq == len(local.sent)):
            done.append(local.sign_next(Kind.CLAIM, ClaimBody(0, core.cursor[0])))
            return done[:]
        return [] if done else original()
    local.messages_to_send = send  # type: ignore[method-assign]


def lying_delivery(net: Network) -> None:
    """Seat 2 signs, as its first DELIVERY, one whose sealed bytes do not open."""
    def lie(message: Message) -> tuple[Kind, Any]:
        body = message.content
        assert isinstance(body, DeliveryBody)
        return Kind.DELIVERY, dataclasses.replace(body, sealed=flipped(body.sealed, 40))
    rewrite_once(net, 2, lambda x: x.kind is Kind.DELIVERY, lie)


def split_network() -> VectorNetwork:
    """Four seats of Dungeon Raiders; the network splits into {0, 1} and {2, 3} for good after
    60 deliveries (as tests/vectors/generate_v2.py's, in version 3)."""
    net = VectorNetwork(4, tag=b"copies/split", version=VERSION)
    net.pump(limit=60, partial=True)
    net.land_in_flight()
    apart = {(a, b) for a in (0, 1) for b in (2, 3)}
    net.stall(apart | {(b, a) for a, b in apart}, rounds=2)
    assert all(core.signed for core in net.cores)
    return net


def _half(data: bytes) -> int:
    from tests.vectors.generate_v2 import records
    offsets = records(data)
    return offsets[len(offsets) // 2]


def usage(out: Vectors) -> None:
    out.usage("usage/no-file", "`cryptcrawl verify --json` given no file: a usage error, as "
              "JSON on standard output and one line on standard error.", ("--json",),
              w("usage", (), "usage"), "U.no-file")
    out.usage("usage/bad-option", "`cryptcrawl verify --json --no-such-option FILE`: a usage "
              "error, as JSON on standard output and one line on standard error.",
              ("--json", "--no-such-option", "honest/kards-2.crawl"), w("usage", (), "usage"),
              "U.bad-option")


# --------------------------------------------------------------------------- the checks


CHECKS: tuple[tuple[str, str, str], ...] = (
    # (id, where, what)
    ("H.raiders", "§7.5", "an honest Dungeon Raiders match with private-knowledge rounds"),
    ("H.kards", "§7.12", "an honest Dungeons of Kards match (dice pools)"),
    ("H.twister", "§7.11", "an honest Dungeon Twister match (sealed values)"),
    ("H.paper", "§7.13", "an honest Paper Dungeons match (shared decks)"),
    ("K.rounds", "§7.5", "private-knowledge rounds: key, deliveries, release"),
    ("B.honest", "Appendix B", "an honest version 2 match read by version 3's verifier"),
    ("R1.positive", "§7.10", "a seat that left or resigned, named by its mark: valid"),
    ("R1.appended", "§7.10, §9.2 item 4", "a LEAVE appended to a liar's truncated feed"),
    ("R1.inserted", "§7.10", "a LEAVE inserted mid-feed, the rest signed again"),
    ("R1.resign", "§7.10", "a RESIGN inserted mid-feed"),
    ("R1.state", "§9.2 item 4", "a state refused after a departure the message does not name"),
    ("R1.v2", "Appendix B", "a departure written in, in a version 2 file"),
    ("R2.positive", "§7.6 item 3", "a live vote on a long-passed point: no vote, valid"),
    ("R2.inserted", "§7.6 item 3", "a past-point ABSENT inserted by a liar: not incomplete"),
    ("R2.v2", "Appendix B", "the same in a version 2 file"),
    ("R3.short", "§9.2 item 4", "a copy lacking a live seat's later messages: incomplete"),
    ("R3.edited", "§9.2 item 4a", "a live seat's feed edited and cut where it was edited: "
     "incomplete, waiting for it"),
    ("R3.v2", "Appendix B", "the same in a version 2 file: heads_disputed"),
    ("R7.first", "§9.2 item 4", "a proven lie before the findings its replacement causes"),
    ("R4.order4", "§7.13", "a deck body of the right shape with a point of order 4"),
    ("R4.v2", "Appendix B", "the same in a version 2 file: malformed, nobody blamed"),
    ("R5.positive", "§7.7", "an agreed draw, each ANSWER naming the OFFER: valid"),
    ("R5.pause", "§7.7", "an agreed pause and a RESUME: valid"),
    ("R5.offer", "§7.7", "an OFFER of a pause turned into a draw"),
    ("R5.answer", "§7.7, §7.10", "an ANSWER flipped: the flipper's own END round message out "
     "of place"),
    ("R5.end", "§7.7, §7.10", "the last ANSWER flipped: the END round names the ANSWER "
     "given"),
    ("R5.other", "§7.10", "an ANSWER naming another message of the offerer"),
    ("R5.unknown", "§7.10", "an ANSWER naming a message the copy does not hold"),
    ("R5.own", "§7.7, §9.2", "an ANSWER to its own seat: unexpected_message"),
    ("R6.positive", "§7.10", "a RESIGN marked cryptcrawl/resigned/v3: valid"),
    ("R6.leave", "§7.10", "a LEAVE marked cryptcrawl/replaced/v2: valid"),
    ("R6.leave-turned-resign", "§7.10", "a LEAVE turned into a RESIGN"),
    ("R6.resign-turned-leave", "§7.10", "a RESIGN turned into a LEAVE"),
    ("S.honest", "§7.11", "sealing, openings and the audit of an honest match"),
    ("S.slots-none", "§7.11 sealing", "sealed commitments where the action seals nothing"),
    ("S.slots-missing", "§7.11 sealing", "an action that seals, without its commitments"),
    ("S.slots-extra", "§7.11 sealing", "a commitment for a slot the action does not seal"),
    ("S.slots-other", "§7.11 sealing", "a commitment under another slot's name"),
    ("S.open-unsealed", "§7.11 openings", "an opening of a slot the sender never sealed"),
    ("S.open-twice", "§7.11 openings", "an opening of a slot opened before"),
    ("S.commitment-value", "§7.11 openings", "an opening of another value than committed"),
    ("S.commitment-salt", "§7.11 openings", "an opening with another salt than committed"),
    ("S.request-fewer", "§7.11 openings", "fewer slots than the request's"),
    ("S.request-order", "§7.11 openings", "the request's slots in another order"),
    ("S.rules", "§7.11 openings", "values the rules refuse (a token opened twice)"),
    ("S.audit", "§7.11 audit", "an audit leaving a sealed value out"),
    ("S.audit-end", "§7.11 audit, §6.4 step 6", "an END where the audit OPEN is owed"),
    ("P.honest", "§7.12", "dice drawn from the pools in an honest match"),
    ("P.act-not-due", "§7.12 revealing", "a pool secret in an ACT that poses no die"),
    ("P.act-slot", "§7.12 revealing", "a pool secret for another slot than pool.used"),
    ("P.act-secret", "§7.12 revealing", "a pool secret in an ACT that does not open"),
    ("P.reveal-secret", "§7.12 revealing", "a CHANCE_REVEAL of a slot that does not open"),
    ("P.reveal-slot", "§7.3, §7.12", "a CHANCE_REVEAL of another slot than the one due"),
    ("P.reveal-set", "§7.3, §7.12", "a CHANCE_REVEAL whose chance set is not the held one"),
    ("P.commit-batch", "§7.12 slots", "a commitment to another batch than the pool batch"),
    ("P.commit-short", "§7.12 slots", "a commitment to part of the pool batch"),
    ("D.honest", "§7.13", "keys, shuffles, shares, opens and the audit of an honest match"),
    ("D.key-commitment", "deck.md §8 (key-not-committed)", "a key share that does not open "
     "its commitment"),
    ("D.key-proof", "deck.md §8 (bad-key-proof)", "a key share whose proof fails"),
    ("D.shuffle-proof", "deck.md §8 (bad-shuffle)", "a shuffle whose proof fails"),
    ("D.shares-proof", "deck.md §8 (bad-shares)", "decryption shares whose proof fails"),
    ("D.shares-owed", "deck.md §8 (not-owed)", "shares for other positions than the round's"),
    ("D.open-card", "deck.md §8 (wrong-card)", "an open claiming another card"),
    ("D.open-proof", "deck.md §8 (bad-shares)", "an open whose share's proof fails"),
    ("D.open-not-dealt", "deck.md §8 (not-dealt)", "an open of a position dealt to another"),
    ("D.open-owed", "§7.13 opens (not-owed)", "an open of another position than the one owed"),
    ("D.audit-owed", "§7.13 audit (not-owed)", "an audit of other positions than held unseen"),
    ("D.not-shown", "§7.13 opens (not-shown)", "an OPEN showing a card not opened first"),
    ("D.not-in-play", "§7.13 taking item 1", "a body of a deck id of no attempt"),
    ("D.point", "§7.13, deck.md §7", "a point that is not the group's (identity, not "
     "canonical, off the curve, order 4)"),
    ("D.scalar", "§7.13, deck.md §7", "a scalar not below the group order"),
    ("D.shape", "§7.13, deck.md §7", "a body of the wrong shape: malformed, nobody blamed"),
    ("D.restart", "§7.13 a seat lost", "a seat lost during the deal: the deck restarts"),
    ("D.heads", "§7.13 deck heads", "a seat's copy with its shuffle rewritten: a dispute"),
    ("C.whole", "§9.4 item 6", "whole copies"),
    ("C.short", "§9.4 items 3, 6", "a short copy completed by a whole one"),
    ("C.torn", "§9.4 item 6", "a copy whose last record is torn"),
    ("C.damaged", "§9.4 item 6", "a damaged copy beside a whole one"),
    ("C.edited", "§9.4 item 6", "an edited copy (it holds the version nothing names)"),
    ("C.forked", "§9.4 item 6", "copies each holding one version nothing names"),
    ("C.unreadable", "§9.4 item 6", "copies that are no match file"),
    ("C.alone", "§9.2", "an edited copy alone: the liar named"),
    ("C.fork", "§9.4 item 2", "two signed versions of a slot across copies: fork"),
    ("C.different", "§9.4 item 1", "copies of different matches: usage"),
    ("C.split", "§9.4 item 5", "copies valid alone over different results: split"),
    ("C.claims-cross", "§9.4 item 4", "claims that cross: abandoned"),
    ("C.claim-disputed", "§9.4 item 4", "a claim another copy holds messages past"),
    ("F.file", "§9.1, §9.2 item 2", "no file record: unreadable"),
    ("F.header", "§9.2 item 2", "a record 1 that is no header: unreadable"),
    ("F.header-signed", "§9.2 item 2", "a header a seat's signature does not verify"),
    ("F.playable", "§9.2 item 3", "a signed header naming an engine the verifier lacks"),
    ("F.signature", "§9.2 item 2", "a message whose signature does not verify"),
    ("F.record", "§9.2 item 2", "a record that is not a well-formed message"),
    ("F.foreign", "§9.2 item 2", "a message of another match"),
    ("F.chain", "§9.2 item 2", "a signed message naming another predecessor"),
    ("F.fork", "§9.2 item 2", "two signed versions of one slot in one copy"),
    ("F.missing", "§9.2 item 6", "a feed lacking messages later ones follow"),
    ("F.unsigned", "§9.2 item 5", "an END missing: the result unsigned"),
    ("F.torn", "§9.2 items 5, 6", "a torn last record"),
    ("F.state", "§9.2 item 4b", "a state digest the state its heads vouch for refutes"),
    ("F.end", "§7.8", "an END signing another final state"),
    ("F.after", "§9.2 item 5", "a message other than a vote after the result"),
    ("K.release", "§7.5", "a published round key that is not the one announced"),
    ("K.delivery", "§7.5", "a delivery that does not open with the round key"),
    ("E.claim", "§7.7", "a claim on a seat silent past the timeouts: claimed"),
    ("E.false-claim", "§7.7", "a claim where the claimant owed a message itself"),
    ("E.floor", "§7.7", "a LEAVE leaving one live seat: abandoned"),
    ("U.no-file", "§9.3", "verify --json with no file: usage"),
    ("U.bad-option", "§9.3", "verify --json with a bad option: usage"),
)
"""Every check the vectors show (tests/vectors/v3/README.md's table)."""

V2_COVERS: dict[str, tuple[str, ...]] = {
    "S.slots-missing": ("sealed/missing-commitment",),
    "S.commitment-value": ("sealed/forged-opening",),
    "S.rules": ("sealed/token-twice", "sealed/token-twice-forfeit"),
    "P.act-not-due": ("pools/act-secret-not-due",),
    "P.act-secret": ("pools/act-secret-wrong",),
    "D.shuffle-proof": ("deals/shuffle-changed",),
    "D.shares-proof": ("deals/wrong-share",),
    "D.open-card": ("deals/open-another-card",),
    "D.restart": ("deals/seat-lost-restart",),
    "D.heads": ("deals/rewritten-shuffle",),
    "C.whole": ("copies/two-whole",),
    "C.short": ("copies/short-and-whole", "copies/holed-and-whole", "copies/short-only"),
    "C.torn": ("copies/torn-and-whole",),
    "C.damaged": ("copies/damaged-and-whole", "copies/header-damaged-and-whole"),
    "C.edited": ("copies/edited-and-whole",),
    "C.forked": ("campaign/3seats-liar1-reveal-first-truncate.with-honest0",),
    "C.unreadable": ("copies/unreadable",),
    "C.fork": ("copies/edited-and-whole",),
    "C.different": ("copies/different-matches",),
    "C.split": ("copies/split",),
    "C.claims-cross": ("copies/claims-crossed",),
}
"""The checks tests/vectors/v2 already shows (its vectors count: version 3 reads v2 files)."""


# --------------------------------------------------------------------------- building


def generate() -> Vectors:
    out = Vectors()
    m = matches()
    honest(out, m)
    rules(out, m)
    appendix_b(out, m)
    sealed(out, m)
    pools(out, m)
    decks(out, m)
    copies(out, m)
    codes(out, m)
    usage(out)
    return out


def run_usage(arguments: Sequence[str], root: Path) -> tuple[int, dict[str, Any], str]:
    """``cryptcrawl verify ARGUMENTS`` in process, from ``root``: the exit status, the pinned
    fields of the JSON it printed, and its standard error."""
    from cli.main import main

    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.chdir(root), contextlib.redirect_stdout(stdout), \
            contextlib.redirect_stderr(stderr):
        code = main(["verify", *arguments])
    return code, fields(json.loads(stdout.getvalue())), stderr.getvalue()


def result(entry: Entry, root: Path) -> tuple[int, dict[str, Any]]:
    if entry.arguments is not None:
        code, got, err = run_usage(entry.arguments, root)
        assert err.count("\n") == 1, err
        return code, got
    return run(root, entry.files)


def problems_of(entry: Entry, code: int, got: dict[str, Any]) -> list[str]:
    want = entry.want
    out = []
    have = (got["verdict"], tuple(got["blamed"]), got["reason_code"])
    if have != (want.verdict, want.blamed, want.code):
        out.append(f"{have}, not {(want.verdict, want.blamed, want.code)}")
    if want.waiting is not None and tuple(got["waiting_for"]) != want.waiting:
        out.append(f"waiting for {got['waiting_for']}, not {list(want.waiting)}")
    if code != EXIT_CODES[got["verdict"]]:
        out.append(f"exit {code}")
    return out


def build() -> dict[str, bytes]:
    """Every file of tests/vectors/v3 this generator writes: path (relative to v3) -> bytes."""
    vectors = generate()
    names = [e.name for e in vectors.entries]
    assert len(set(names)) == len(names), "two vectors share a name"
    known = {c for c, _, _ in CHECKS}
    assert {c for e in vectors.entries for c in e.checks} <= known
    entries, problems = [], []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for path, data in vectors.files.items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_bytes(data)
        for e in vectors.entries:
            code, got = result(e, root)
            problems += [f"{e.name}: {p}" for p in problems_of(e, code, got)]
            entry: dict[str, Any] = {"name": e.name, "group": e.group, "command": e.command}
            if e.arguments is not None:
                entry["arguments"] = list(e.arguments)
            entry.update({"files": list(e.files), "exit": code, "expected": got,
                          "checks": list(e.checks), "description": e.description})
            entries.append(entry)
    if problems:
        raise AssertionError("vectors that do not show what they were made for:\n  "
                             + "\n  ".join(problems))
    listed = {p for e in entries for p in e["files"]}
    assert listed == set(vectors.files), sorted(set(vectors.files) ^ listed)
    manifest = {
        "format": 1, "protocol": VERSION, "generator": "python -m tests.vectors.generate_v3",
        "command": {"single": "cryptcrawl verify --json FILE", "copies":
                    "cryptcrawl verify --json FILE FILE ...", "usage":
                    "cryptcrawl verify ARGUMENTS ...", "cwd": "tests/vectors/v3"},
        "files": {p: {"size": len(d), "sha256": hashlib.sha256(d).hexdigest()}
                  for p, d in sorted(vectors.files.items())},
        "vectors": entries}
    files = dict(sorted(vectors.files.items()))
    files["manifest.json"] = manifest_text(manifest).encode()
    files["README.md"] = readme(entries, files)
    return files


def reason_coverage(manifests: Iterable[dict[str, Any]]) -> dict[str, list[str]]:
    """Reason code -> the vectors (``PREFIX:NAME``) whose verdict gives it, in every manifest
    given (each with a ``prefix``); every code of :data:`REASON_CODES` is a key."""
    seen: dict[str, list[str]] = {code: [] for code in REASON_CODES}
    for manifest in manifests:
        for e in manifest["vectors"]:
            seen.setdefault(e["expected"]["reason_code"], []).append(
                f"{manifest['prefix']}:{e['name']}")
    return seen


def uncovered(manifests: Iterable[dict[str, Any]]) -> list[str]:
    """The reason codes no vector of ``manifests`` gets and :data:`EXEMPT` does not list."""
    seen = reason_coverage(manifests)
    return [code for code in REASON_CODES if not seen[code] and code not in EXEMPT]


def manifests(root: Path = V3) -> list[dict[str, Any]]:
    """Every manifest of tests/vectors/v3 — this generator's (prefix ``v3``) and those of
    the folders other generators write there (prefix ``v3/FOLDER``, e.g. ``v3/forfeits``)."""
    out = []
    # (this generator's own first: "forfeits/manifest.json" sorts before "manifest.json")
    for path in sorted(root.rglob("manifest.json"), key=lambda p: (p.parent != root, p)):
        folder = path.parent.relative_to(root).as_posix()
        prefix = "v3" if folder == "." else f"v3/{folder}"
        out.append({**json.loads(path.read_text(encoding="utf-8")), "prefix": prefix})
    return out


README = """\
# Conformance vectors, protocol v3

Match files of protocol version 3 (`.crawl`, docs/protocol.md §9.1) — and, in `appendix-b/`, a
few version 2 files that show how version 2 reads (Appendix B) — with the verdict `cryptcrawl
verify` must give each, alone or with other copies of its match (§9.4), as fields, never prose
(§9.3); and the usage errors of `cryptcrawl verify --json`.

Every file here is written by `python -m tests.vectors.generate_v3` from fixed tags (keys,
nonces, seeds, bot choices; Ed25519 signatures are deterministic, every delivery is sealed under
an ephemeral key derived from a tag). `python -m tests.vectors.generate_v3 --check` compares
without writing. `tests/vectors/test_v3.py` checks every expected field and exit status, the
manifest's hashes, the size of this folder (at most 8 MB), that every reason code of §9.3 has a
vector in one of the manifests of this folder or of its subfolders (`forfeits/`: the version 3
withholding forfeits, written by `python -m tests.vectors.forfeits_v3`; this generator leaves
that folder alone) — but `rule_broken`, which no check gives (below) — and that the generator
writes these files again byte for byte.

The games: Dungeon Raiders (private-knowledge rounds), Dungeons of Kards (dice pools, §7.12),
Dungeon Twister (sealed values, §7.11), Paper Dungeons (shared decks, §7.13, docs/deck.md).

## Running them

From this directory, for every entry of `manifest.json`'s `vectors`:

- `command` `single`: `cryptcrawl verify --json FILE`; `copies`: `cryptcrawl verify --json FILE
  FILE …` (its files in order); `usage`: `cryptcrawl verify ARGUMENTS …` (its `arguments`);
- compare the exit status with `exit`, and the JSON printed on standard output with `expected`,
  key by key (lists in order). A `usage` verdict also prints one line on standard error.

Exit status: valid 0, invalid 1, usage 2, unreadable 3, incomplete 4, claimed 5, disputed 6,
abandoned 7, split 8. `expected` holds the fields of ../v2/README.md (`verdict`, `blamed`,
`record`, `reason_code`, `waiting_for`; for several copies `copy`, `copies`, and `forks`,
`sides`, `match_ids` where the verdict has them). `checks` names the checks of the protocol a
vector shows (the table below).

## Groups

- `honest/`: small whole matches of the four games; a LEAVE, a RESIGN, a pause, an agreed draw;
  a vote on a long-passed point.
- `rules/`: one vector per rule version 3 changed. Most are a seat's own copy that it edited and
  signed again with its own key (a forger's best: every signature and chain checks out): the
  verdict names the forger, never an honest seat alone.
- `appendix-b/`: version 2 files of the same changes.
- `sealed/`, `pools/`, `decks/`: a seat's own copy with one value of its own changed (and its
  feed signed again from there): one vector per check of §7.11, §7.12, §7.13 and deck.md §8–§9
  (a few checks are shown only by `../v2/`, marked `v2:` below; version 3 reads them alike).
- `copies/`: several copies of one match: whole, short, torn, damaged, edited, unreadable;
  a fork across copies, a claim disputed by another copy, copies of two matches.
- `codes/`: one vector for each reason code the groups above do not give: honest/raiders-3
  damaged, cut or re-signed after the fact (the file record, the header, a record, a chain, a
  fork, a state digest, a round key, an END, a message after the result), a lying delivery, a
  false claim, a claim, a match left to one seat, and a split (two copies).
- `usage/`: `cryptcrawl verify --json` with no file, or with a bad option.

A file whose verdict is `invalid` or `disputed` is kept only a few records past the record at
fault (its description says where it was cut; the verdict is the whole file's).

"""


def readme(entries: list[dict[str, Any]], files: dict[str, bytes]) -> bytes:
    lines = [README.rstrip("\n"), "", "## Checks and the vectors that show them", "",
             "Vectors of `../v2/` are marked `v2:`.", "", "| check | where | what | vectors |",
             "|---|---|---|---|"]
    by_check: dict[str, list[str]] = {}
    for e in entries:
        for c in e["checks"]:
            by_check.setdefault(c, []).append(f"`{e['name']}`")
    for c, where, what in CHECKS:
        shown = by_check.get(c, []) + [f"`v2:{n}`" for n in V2_COVERS.get(c, ())]
        lines.append(f"| {c} | {where} | {what} | {', '.join(shown) or 'none'} |")
    lines += ["", "## Reason codes", "", "Every reason code of §9.3 and the vectors of this "
              "folder whose verdict gives it (the forfeits' vectors, in `forfeits/`, list "
              "theirs in their own manifest):", "",
              "| verdict | reason code | vectors |", "|---|---|---|"]
    seen = reason_coverage([{"prefix": "v3", "vectors": entries}])
    for code, (verdict, _meaning) in REASON_CODES.items():
        names = [n.removeprefix("v3:") for n in seen[code]]
        shown = (", ".join(f"`{n}`" for n in names[:4]) + (f" (and {len(names) - 4} more)"
                                                            if len(names) > 4 else "")
                 or (f"none: {EXEMPT[code]}" if code in EXEMPT
                     else "none in this folder (see the other folders' manifests)"))
        lines.append(f"| {verdict} | `{code}` | {shown} |")
    lines += ["", "## Files and vectors per group", "", "| group | files | bytes | vectors |",
              "|---|---|---|---|"]
    for group in GROUPS:
        held = [d for p, d in files.items() if p.startswith(group + "/")]
        count = sum(e["group"] == group for e in entries)
        lines.append(f"| {group} | {len(held)} | {sum(map(len, held)):,} | {count} |")
    lines += ["", "## The vectors", ""]
    for group in GROUPS:
        lines += [f"### {group}", "", "| vector | files | verdict | blamed | reason code |",
                  "|---|---|---|---|---|"]
        for e in entries:
            if e["group"] != group:
                continue
            x = e["expected"]
            given = ("" if e["command"] == "single" and e["files"][0] == e["name"] + ".crawl"
                     else " ".join(f"`{f}`" for f in e.get("arguments", e["files"])))
            lines.append(f"| `{e['name']}` | {given} | {x['verdict']} | "
                         f"{', '.join(map(str, x['blamed']))} | `{x['reason_code']}` |")
        lines.append("")
    assert all(v in VERDICTS for v in Counter(e["expected"]["verdict"] for e in entries))
    return ("\n".join(lines).rstrip("\n") + "\n").encode()


def held() -> dict[str, bytes]:
    """The files of tests/vectors/v3 this generator writes (other generators' folders left
    out)."""
    return {p: d for p, d in stored(V3).items() if p.split("/")[0] not in OTHERS}


def main(argv: list[str] | None = None) -> int:
    return generator_main(argv, prog="python -m tests.vectors.generate_v3", doc=__doc__,
                          folder=V3, build=build, held=held,
                          differences=differences)


if __name__ == "__main__":
    sys.exit(main())
