"""The verifier's vocabulary: every verdict with its exit status, every reason code, and what a
verdict holds (protocol.md §9.3).

A verdict names *who* is at fault only where the file proves it: ``blamed`` lists the seats one
of which, at least, broke the rules — one seat for a proof (``invalid``), both sides of a
``disputed`` message, none for a damaged file.  Its ``reason_code`` is one of
:data:`REASON_CODES`: stable, short, the same in every version of this program; ``reason``
says the same in words, and may change.  This module is data and pure functions only; the
verifier of one copy is :mod:`protocol.verify.verifier`, of several
:mod:`protocol.verify.copies`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from protocol.wire.messages import Message

VALID: Final = "valid"
INVALID: Final = "invalid"
USAGE: Final = "usage"
UNREADABLE: Final = "unreadable"
INCOMPLETE: Final = "incomplete"
CLAIMED: Final = "claimed"
DISPUTED: Final = "disputed"
ABANDONED: Final = "abandoned"
SPLIT: Final = "split"

EXIT_CODES: Final = {VALID: 0, INVALID: 1, USAGE: 2, UNREADABLE: 3, INCOMPLETE: 4,
                     CLAIMED: 5, DISPUTED: 6, ABANDONED: 7, SPLIT: 8}
"""The exit status of ``cryptcrawl verify`` for each verdict."""

VERDICTS: Final = tuple(EXIT_CODES)

VERIFIER_REVISION: Final = 5
"""The revision of this verifier's verdicts: one more whenever a verdict, its blamed seats or its
reason code may change for a file already written (so a cache of verdicts, such as ``cryptcrawl
matches``', checks its files again).  3: version 3's rules, and a seat's departure or a past
vote written into its own copy names it (issue 46).  4: a coalition of withholders, and a
seat that withheld its shares of a deal, forfeit (issue 47); a draw is a draw (issue 48).
5: a message signed before a departure taken first is a dispute with the seat that left (its
heads, or a body the departure changed), and a proof passed over at the floor gives the verdict
before a later finding; a vote is on a point its voter had passed when any of its earlier
messages names that point or a later one (issue 46)."""

# ---------------------------------------------------------------------------- reason codes

REASON_CODES: Final[dict[str, tuple[str, str]]] = {
    # valid
    "result_signed": (VALID, "the match reached its end and every live seat signed the result"),
    # unreadable
    "not_a_match_file": (UNREADABLE, "no file record: empty, another format, or too large"),
    "unreadable_header": (UNREADABLE, "record 1 cannot be read as a match header"),
    # invalid: a damaged or foreign record
    "header_signature": (INVALID, "the header reads, but a seat's signature of it is missing "
                                  "or does not verify"),
    "unplayable_header": (INVALID, "the header is signed, but names a game, engine, sampler or "
                                   "options this program cannot check"),
    "malformed_record": (INVALID, "a record is not a well-formed message"),
    "foreign_message": (INVALID, "a message of another match, of a seat not in the header, or "
                                 "of another protocol version"),
    "bad_signature": (INVALID, "a message whose signature does not verify with its seat's key"),
    "broken_chain": (INVALID, "a message that does not name its predecessor's hash"),
    # invalid: a seat's signed act proves its fault
    "fork": (INVALID, "a seat signed two versions of one slot of its feed (both cited)"),
    "reveal_mismatch": (INVALID, "a reveal (of a play or a chance secret) does not open the "
                                 "seat's own commitment"),
    "commit_set_mismatch": (INVALID, "a reveal names other commitments than the messages its "
                                     "own heads vouch for hold"),
    "heads_out_of_place": (INVALID, "a message names, as a seat's head, a message this copy "
                                    "holds elsewhere in that feed"),
    "illegal_action": (INVALID, "an action the rules refuse in the state the message vouches "
                                "for"),
    "bad_sealed": (INVALID, "sealed values the rules refuse: commitments for other slots than "
                            "the action seals, an opening of other slots than the rules ask, "
                            "or values the rules refuse (a token opened twice)"),
    "bad_deck": (INVALID, "a step of a shared deck its proof or the deck's rules refuse: a "
                          "false shuffle, key, decryption share or open, a body for a deck not "
                          "in play, or an open of a card not dealt to it (deck.md §9)"),
    "state_diverged": (INVALID, "a message carries another public state digest than the state "
                                "its heads vouch for"),
    "unexpected_message": (INVALID, "a message its seat may not send at that point (another "
                                    "kind, step, event or round is due)"),
    "bad_delivery": (INVALID, "a private-knowledge delivery, signed by its deliverer and "
                              "naming the round's key message, that does not open with that "
                              "key or does not hold its committed secrets"),
    "bad_key_release": (INVALID, "a published round key that is not the one its seat "
                                 "announced"),
    "false_result": (INVALID, "an END that signs another final state or transcript"),
    "after_result": (INVALID, "messages other than votes and welcomes after every live seat "
                              "signed the result"),
    "false_claim": (INVALID, "a CLAIM where the claimed seat owed nothing, or the claimant "
                             "owed a message itself"),
    "rule_broken": (INVALID, "any other rule broken (a reason this table does not name)"),
    # incomplete
    "torn_tail": (INCOMPLETE, "the last record is cut short (a crash while writing it)"),
    "missing_messages": (INCOMPLETE, "a feed lacks messages that later ones follow"),
    "unsigned_result": (INCOMPLETE, "the match ended, but not every live seat signed the "
                                    "result"),
    "unfinished": (INCOMPLETE, "the file stops before the match's end"),
    # claimed, abandoned
    "claimed": (CLAIMED, "with two seats live, one claimed the match of the other, silent "
                         "where it owed a message"),
    "abandoned": (ABANDONED, "fewer than two live seats were left: the match was abandoned"),
    # disputed
    "heads_disputed": (DISPUTED, "a seat's message names, as another seat's head (or a "
                                 "delivery as its round's key message), a message this copy "
                                 "does not hold"),
    "state_disputed": (DISPUTED, "a state digest differs after messages of other seats that "
                                 "the message does not vouch for"),
    "claim_disputed": (DISPUTED, "copies read together: one ended by a CLAIM, another holds "
                                 "messages of the claimed seat at or past the claimed point"),
    # split
    "split": (SPLIT, "copies carry every live seat's END over different results"),
    # usage
    "usage": (USAGE, "the command was given no file, or a bad option"),
    "different_matches": (USAGE, "the copies given are of different matches"),
}
"""Every reason code: the verdict it comes with and what it means (protocol.md §9.3)."""

PROOF_CODES: Final = frozenset({
    "fork", "reveal_mismatch", "commit_set_mismatch", "heads_out_of_place", "bad_delivery",
    "bad_key_release"})
"""Faults a seat's own signed messages prove whatever the other feeds of the copy hold."""

DAMAGE_CODES: Final = frozenset({
    "header_signature", "malformed_record", "foreign_message", "bad_signature", "torn_tail"})
"""Records the reader could not use: damage, not a seat's signed act in this match, so a verdict
for one of them blames no seat (a liar could flip a byte of an honest seat's message in its own
copy).  A broken chain is a seat's signed act: a message naming another predecessor than the
one its own feed holds."""

STATE_CODES: Final = frozenset({"state_diverged", "unexpected_message"})
"""Faults judged against the state the copy computes: in version 2 a proof only where the
message's heads vouch for every message that state rests on (else ``state_disputed``)."""

# The words of each reason (of every version) -> its code, tried in order.
_PATTERNS: Final = (
    ("bad deck step", "bad_deck"),
    ("equivocation", "fork"),
    ("a false claim", "false_claim"),
    ("an answer to no offer", "unexpected_message"),
    ("does not open with the round key", "bad_delivery"),
    ("names other commitments than", "commit_set_mismatch"),
    ("does not open", "reveal_mismatch"),
    ("out of place", "heads_out_of_place"),
    ("heads, not", "heads_out_of_place"),
    ("illegal action", "illegal_action"),
    ("its action seals", "bad_sealed"),
    ("its opening breaks the rules", "bad_sealed"),
    ("must open", "bad_sealed"),
    ("which it never sealed", "bad_sealed"),
    ("a second time", "bad_sealed"),  # it sealed SLOT / opened a sealed value a second time
    ("in the open in a simultaneous step", "illegal_action"),
    ("open action in a simultaneous step", "illegal_action"),
    ("public state digest", "state_diverged"),
    ("lies: it does not hold", "bad_delivery"),
    ("key is not the one", "bad_key_release"),
    ("END signs another", "false_result"),
    ("after every seat signed the result", "after_result"),
    ("cannot check this match", "unplayable_header"),
    (" where ", "unexpected_message"),  # sent X where Y was due
    (" is not expected now", "unexpected_message"),
    (" during ", "unexpected_message"),  # acted / committed / revealed in step X during Y
    ("revealed [", "unexpected_message"),
    ("committed to [", "unexpected_message"),
    ("twice", "unexpected_message"),
    ("not one it owes", "unexpected_message"),
    ("not its own open one", "unexpected_message"),
    ("not the round's", "unexpected_message"),
    ("where none was due", "unexpected_message"),
    ("revealed at once", "unexpected_message"),
    ("bad signature", "bad_signature"),
    ("broken chain", "broken_chain"),
    ("does not chain", "broken_chain"),
    ("from another match", "foreign_message"),
    ("not in the header", "foreign_message"),
    ("of protocol version", "foreign_message"),
    ("offered to seat", "foreign_message"),
)


def reason_code(reason: str) -> str:
    """The code of a fault's reason (a ``PeerMisbehaved`` or a reader's problem)."""
    for words, code in _PATTERNS:
        if words in reason:
            return code
    return "rule_broken"


# ---------------------------------------------------------------------------- what it holds


@dataclass(frozen=True)
class Where:
    """A record of a copy: ``copy`` counts the copies given from 0 (always 0 for one file),
    ``record`` the records of that file from 0 (the file record)."""

    copy: int
    record: int | None


@dataclass(frozen=True)
class ForkProof:
    """``seat`` signed two versions of its slot ``seq``: both, and where each is."""

    seat: int
    seq: int
    versions: tuple[Message, Message]
    where: tuple[Where, Where]


@dataclass(frozen=True)
class Dispute:
    """``seat``'s signed message ``seq`` contradicts what this copy holds of ``others``' feeds,
    and nothing in it says which side broke the rules.  ``kind``: ``heads`` (it names ``named``
    as ``others[0]``'s head where the copy holds its message ``held``, or none yet: -1),
    ``key`` (a delivery names ``named`` as the SEAL_KEY message of ``others[0]``'s round, where
    the copy holds its message ``held``), ``offer`` (version 3: an answer names ``named`` as
    the OFFER of ``others[0]`` it answers, where the copy holds its message ``held``) or
    ``state`` (its state digest differs after messages of ``others`` it does not vouch for)."""

    seat: int
    seq: int
    others: tuple[int, ...]
    kind: str
    named: bytes = b""
    held: int | None = None


@dataclass(frozen=True)
class CopyReport:
    """What one copy of several is (protocol.md §9.4): ``conditions`` among ``unreadable`` (no
    match file at all), ``edited`` (it holds a version of a forked slot that the other seats'
    messages do not name, and no other), ``forked`` (it holds one version of a forked slot and
    nothing tells which one came first), ``damaged`` (records it could not use: a header not
    signed, corrupt, badly signed or chained records) and ``short`` (it lacks messages the
    merged transcript holds, or its last record is torn: ``torn``); none: ``whole``.
    ``edited`` lists the slots (seat, message) it holds a version of the ``edited`` or
    ``forked`` kind.  ``verdict``: read alone."""

    label: str
    match_id: bytes
    conditions: tuple[str, ...]
    messages: int
    lacking: tuple[tuple[int, int], ...]  # (seat, how many of its messages it lacks)
    edited: tuple[tuple[int, int], ...]  # (seat, seq) of each slot it holds another version of
    problems: tuple[str, ...]
    verdict: Verdict
    torn: bool = False  # its last record is cut short

    @property
    def state(self) -> str:
        return self.conditions[0] if self.conditions else "whole"


@dataclass(frozen=True)
class Side:
    """One result of a split: the copies that carry it, the seats that signed it, and the first
    message of theirs (in their own replay's order) that the other copies do not hold."""

    copies: tuple[int, ...]
    seats: tuple[int, ...]
    winners: tuple[int, ...]
    final_digest: bytes
    parting: Message | None
    parting_at: Where | None


@dataclass(frozen=True)
class Verdict:
    """The verifier's answer (protocol.md §9.3).  ``record`` (with ``copy`` for several
    copies): the first record at fault, or the disputed message's; ``messages``: messages
    read into the feeds; ``waiting_for`` (``incomplete``): the seats the match waits for."""

    verdict: str
    reason_code: str
    reason: str
    blamed: tuple[int, ...] = ()
    record: int | None = None
    copy: int | None = None
    messages: int = 0
    winners: tuple[int, ...] = ()
    final_digest: bytes = b""
    notes: tuple[str, ...] = field(default=())
    dispute: Dispute | None = None
    forks: tuple[ForkProof, ...] = ()
    copies: tuple[CopyReport, ...] = ()
    sides: tuple[Side, ...] = ()
    waiting_for: tuple[int, ...] = ()  # incomplete: the seats whose messages the match awaits
    drawn: tuple[int, ...] = ()  # the match ended drawn: the seats that drew (no winners)

    @property
    def valid(self) -> bool:
        return self.verdict == VALID

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.verdict]
