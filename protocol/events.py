"""The events a match core reports: facts in the past tense, frozen (style.md, h11's events).

Drivers (the network peer, the verifier, the command line) read them; nothing in the core reads
them back."""

from __future__ import annotations

from dataclasses import dataclass

from protocol.wire.messages import Message


@dataclass(frozen=True)
class ChanceResolved:
    event: str
    outcome: str
    missing: tuple[int, ...] = ()  # seats that did not contribute (replaced when committed)


@dataclass(frozen=True)
class ChanceRedrawn:
    """A replaced seat's secret for ``event`` is lost: it is drawn again as ``new_id`` from the
    remaining seats, and whatever a private-knowledge round showed of it is void."""

    event: str
    new_id: str


@dataclass(frozen=True)
class PlayCommitted:
    step: str
    seat: int


@dataclass(frozen=True)
class PlayRevealed:
    step: str
    seat: int
    action: str


@dataclass(frozen=True)
class ActionTaken:
    step: str
    seat: int
    action: str
    zombie: bool = False  # computed by every peer for a replaced seat


@dataclass(frozen=True)
class PeerMisbehaved:
    """``seat`` broke the rules; ``evidence`` holds the signed message(s) that prove it."""

    seat: int
    reason: str
    evidence: tuple[Message, ...]


@dataclass(frozen=True)
class SeatsOverdue:
    """``seats`` owe a message for ``step`` since ``since`` and the turn timeout has passed: the
    driver asks every peer for their missing messages (they may only be delayed)."""

    seats: tuple[int, ...]
    step: str
    since: float


@dataclass(frozen=True)
class SeatTimedOut:
    """``seat`` stayed silent past the silence timeout too: the local seat votes it absent at
    ``count`` (the number of its messages consumed)."""

    seat: int
    count: int
    step: str


@dataclass(frozen=True)
class SeatReplaced:
    """Every other live seat voted ``seat`` absent (``reason``): its zombie plays from now."""

    seat: int
    count: int
    reason: str


@dataclass(frozen=True)
class SeatLeft:
    """Version 2: ``seat`` signed a LEAVE (``resigned``: a RESIGN) after its message
    ``count - 1``: it leaves the match for good (resigning first, by the game's rule, where the
    game has one), and its zombie plays from its next message due."""

    seat: int
    count: int
    resigned: bool = False


@dataclass(frozen=True)
class SeatForfeited:
    """Version 2: ``seat`` withheld an opening whose result it could know (``withheld``: what)
    and forfeited by the game's rule where it was next to decide (protocol.md §7.7)."""

    seat: int
    withheld: str


@dataclass(frozen=True)
class SealedOpened:
    """Version 2: ``seat`` opened sealed values, ``(slot, value)`` each (``at_end``: in the END
    round's audit, not asked by the rules) (protocol.md §7.11)."""

    seat: int
    values: tuple[tuple[str, str], ...]
    at_end: bool = False


@dataclass(frozen=True)
class SealedVoid:
    """Version 2: ``seat``, replaced, could not open its sealed values ``slots``: they stay
    sealed, void, and the game's ruling for them applied (protocol.md §7.11)."""

    seat: int
    slots: tuple[str, ...]


@dataclass(frozen=True)
class CardDealt:
    """Version 2: the private chance event ``event`` dealt a card of deck ``deck`` to ``seat``
    (its identity is known to that seat alone; ``card``: the local seat's own, else "")
    (protocol.md §7.13)."""

    event: str
    deck: str
    seat: int
    card: str = ""


@dataclass(frozen=True)
class CardShown:
    """Version 2: ``seat`` opened in public the card ``event`` dealt it: ``card`` (``at_end``:
    in the END round's audit of the cards it still held)."""

    seat: int
    event: str
    card: str
    at_end: bool = False


@dataclass(frozen=True)
class DeckRestarted:
    """Version 2: the deal of deck ``deck`` lost seat ``lost`` before it completed: it restarts
    as attempt ``attempt`` among ``seats`` (a fresh deck; what the void deal showed means
    nothing)."""

    deck: str
    attempt: int
    seats: tuple[int, ...]
    lost: int


@dataclass(frozen=True)
class OfferMade:
    """Version 2: ``seat``'s OFFER (its message ``seq``) of ``what`` — a draw or a pause — was
    taken where a message of its that drives the engine is due: every other live seat is
    asked, and the match waits for their answers."""

    seat: int
    seq: int
    what: str


@dataclass(frozen=True)
class OfferSettled:
    """Version 2: ``seat``'s offer (its message ``seq``) of ``what`` was ``agreed`` by every
    live seat asked, or declined by the seats ``declined``; neither: it lapsed (``why``)."""

    seat: int
    seq: int
    what: str
    agreed: bool
    declined: tuple[int, ...] = ()
    why: str = ""


@dataclass(frozen=True)
class MatchResumed:
    """Version 2: ``seat`` ended the agreed pause: the timers run again."""

    seat: int


@dataclass(frozen=True)
class MatchClaimed:
    """Version 2: ``claimant`` claimed the match of ``seat``, silent where its message ``count``
    was owed; with ``contested``, a message of ``seat`` at ``count`` was here when the claim was
    taken (the two crossed): the match is abandoned instead, nobody blamed."""

    claimant: int
    seat: int
    count: int
    contested: bool


@dataclass(frozen=True)
class SeatReclaimed:
    """``seat`` plays again from ``step``."""

    seat: int
    step: str


@dataclass(frozen=True)
class RoundKeyReleased:
    """The seat private-knowledge round ``round`` served published its key; every delivery of
    the round was opened and checked (``bad``: the deliverers whose delivery lied)."""

    round: str
    seat: int
    bad: tuple[int, ...]


@dataclass(frozen=True)
class PrivateKnowledge:
    """What a private-knowledge round showed the local seat (event id -> outcome): known to it
    alone."""

    seat: int
    round: str
    knowledge: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class MatchEnded:
    """The engine reached its end: the result, the final public digest and the transcript
    digest every live seat now signs in its END message."""

    winners: tuple[int, ...]
    digest: bytes
    transcript: bytes = b""
    abandoned: bool = False  # ended below two live seats, with no forfeit result (no winner)


@dataclass(frozen=True)
class ResultSigned:
    """Every live seat signed the same final state and transcript: the match is agreed."""

    winners: tuple[int, ...]
    digest: bytes
    transcript: bytes
    abandoned: bool = False  # the match was abandoned (FloorReached): the state signed is not over


@dataclass(frozen=True)
class FloorReached:
    """Version 2: ``seat``'s replacement at its message ``count`` (``reason``) left fewer than
    two live seats (``live``), so the match ends (protocol.md §7.7): each live seat now owes
    only its END (after the keys it owes), and the match ends where that END is taken — with the
    game's forfeit result, or abandoned (:attr:`MatchEnded.abandoned`).  ``blamed``: the seats
    replaced for misbehaviour or a fork (none if every replacement was for silence)."""

    seat: int
    count: int
    reason: str
    blamed: tuple[int, ...]
    live: tuple[int, ...]


@dataclass(frozen=True)
class ForkSuspected:
    """``seat``'s REVEAL for ``step`` names other commitments than this peer holds: some seat
    showed different commitments to different peers.  Nobody is blamed yet; the driver sends
    ``held`` (the COMMIT messages this peer holds for the step) to every peer, so that the two
    signed versions meet and prove the fork."""

    step: str
    seat: int
    held: tuple[Message, ...]


@dataclass(frozen=True)
class HeadsDisputed:
    """Version 2: ``seat``'s message names, as ``other``'s last message that drove the engine,
    another message than this peer holds there (protocol.md §7.10): some feed differs between
    them.  Nobody is blamed; the message waits, and the driver sends ``held`` (the message this
    peer holds as ``other``'s head) to every peer, so that two signed versions of one slot meet
    and prove a fork — or, in a file, the verdict is a dispute between the two seats.  With
    ``replaced``, the heads differ only on replacements (the sender replaced ``other`` where
    this peer did not, or elsewhere, or the other way round — peers that parted): no dispute,
    the message waits, and a file that stops there is incomplete."""

    seat: int
    other: int
    message: Message
    held: tuple[Message, ...]
    replaced: bool = False  # the heads differ on replacements only: no dispute between two


Event = (ChanceResolved | ChanceRedrawn | PlayCommitted | PlayRevealed | ActionTaken
         | PeerMisbehaved | SeatsOverdue | SeatTimedOut | SeatReplaced | SeatLeft | MatchClaimed
         | SeatForfeited | SealedOpened | SealedVoid | CardDealt | CardShown | DeckRestarted
         | OfferMade | OfferSettled | MatchResumed
         | SeatReclaimed
         | RoundKeyReleased | PrivateKnowledge | MatchEnded | ResultSigned | ForkSuspected
         | HeadsDisputed | FloorReached)
