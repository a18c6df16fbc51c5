"""Vouching (version 2, protocol.md §7.10): every message that drives the engine names, for every
seat, the last message of that seat's feed that drove the engine and that its sender had
consumed at the point the message is owed — its *heads*.  A seat that edits its own copy of a
feed (a chance commitment and its secret, say, changed together and signed again) cannot then
make an honest seat's message look wrong: that message's heads name the original, so the copy
shows a dispute between the two seats at that slot, never a divergence of the honest one.

The heads (each canonical, so every honest peer computes the same; a replaced seat's entry is
not checked): every seat's feed head when
the current (or last) decision step began; in a CHANCE_REVEAL, each contributor's entry is its
message that committed to the event instead; in a REVEAL, each decider's that committed (a
COMMIT, or a direct REVEAL); an END's heads (and an OPEN's of the END round's audit) are every
seat's when the engine reached its end.
A replaced seat's entry is the mark of its replacement (:func:`protocol.crypto.replaced_head`):
peers that disagree on a replacement carry different heads, and wait rather than blame.
(A message vouches for every earlier message of its feed: each names the one before.)"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from protocol.deck import DeckMessageBody
from protocol.errors import Fault
from protocol.match.events import Event, HeadsDisputed
from protocol.mechanisms.absence import Seats
from protocol.mechanisms.chance import Chance
from protocol.mechanisms.deals import Decks
from protocol.mechanisms.ending import Ending
from protocol.mechanisms.steps import Steps
from protocol.wire.feed import Feed
from protocol.wire.messages import CORE_KINDS, ChanceRevealBody, Kind, Message


class Vouching:
    """Which heads each message must carry, and the disputes found."""

    def __init__(self, *, match_id: bytes, n: int, feeds: Sequence[Feed], seats: Seats,
                 chance: Chance, steps: Steps, ending: Ending, emit: Callable[[Event], None],
                 mark_unfit: Callable[[int], None], decks: Decks,
                 agreed: Callable[[], tuple[tuple[bytes, ...], tuple[bytes, ...]] | None] = (
                     lambda: None)) -> None:
        self._decks = decks
        # (Version 3) an agreed draw's heads — raw, and as ENDs name them — once there is one.
        self._agreed = agreed
        self._match_id = match_id
        self._n = n
        self._seats = seats
        self._feeds = feeds
        self._chance = chance
        self._steps = steps
        self._ending = ending
        self._emit = emit
        self._mark_unfit = mark_unfit
        # The messages whose heads contradicted this peer's feeds, the first of each seat.
        self.disputes: list[HeadsDisputed] = []
        self._reported: set[bytes] = set()  # (each such message is reported once)
        # The first message refused against a state resting on messages it does not vouch for:
        # (signer, message, the other seats of the dispute; note_unvouched).
        self.divergence: tuple[int, Message, tuple[int, ...]] | None = None
        # (Version 3) Per seat whose LEAVE or RESIGN was taken: the anchor then (§7.10 item 5).
        self._left_anchor: dict[int, tuple[bytes, ...]] = {}

    def note_departure(self, seat: int) -> None:
        """``seat``'s LEAVE or RESIGN was taken: keep the anchor as it was then."""
        self._left_anchor[seat] = self._steps.anchor_heads

    def expected(self, seat: int, kind: Kind, body: object) -> tuple[bytes, ...]:
        """The heads a message of ``kind`` (with ``body``) from ``seat`` carries now: a
        replaced seat's entry is the mark of its replacement.  None for a kind that does not
        drive the engine."""
        if kind not in CORE_KINDS:
            return ()
        raw = self._raw(kind, body)
        absent = self._seats.absent
        if not absent:
            return raw
        return tuple(self._seats.mark(s) if s in absent else h for s, h in enumerate(raw))

    def _raw(self, kind: Kind, body: object) -> tuple[bytes, ...]:
        base = self._steps.anchor_heads
        if kind is Kind.CHANCE_REVEAL and isinstance(body, ChanceRevealBody):
            by_seat = self._chance.commit_messages.get(body.secrets[0][0], {})
            return tuple(by_seat.get(s, base[s]) for s in range(self._n))
        if kind is Kind.REVEAL:
            return self._steps.reveal_heads()
        if kind is Kind.DECK and isinstance(body, DeckMessageBody):
            return self._decks.heads(body)
        drawn = self._agreed() if kind is Kind.OPEN and not self._ending.ended else None
        if drawn is not None:
            # The openings due at the end after an agreed draw (version 3): the draw's heads,
            # each seat's OFFER or ANSWER, so that these OPENs vouch for the agreement too.
            return drawn[0]
        if kind is Kind.OPEN and self._ending.cut and not self._ending.ended:
            # The openings due at the end, below two live seats (§7.11): as an END there,
            # every seat's feed as consumed when the OPEN is.
            return tuple(self._ending.core_head)
        if kind is Kind.END or (kind is Kind.OPEN and self._ending.ended):
            # The heads when the match ended; before (an END that is not due yet) and at the
            # floor (§7.7: a live seat's entry is its feed up to its END), every seat's now.
            ending = self._ending
            if ending.final_heads and not ending.cut:
                return ending.final_heads
            return tuple(ending.core_head)
        return base

    def vouches(self, seat: int, message: Message) -> bool:
        """Does ``message`` carry the heads this peer's feeds give?  If one names a message
        that seat's feed holds elsewhere (or, for its own seat, one its own feed does not hold),
        its signer claims what the rules never let an honest seat claim there: a
        :class:`Fault`.  If it names a message this peer does not hold, the feeds differ: the
        message waits, a :class:`HeadsDisputed` is reported (once per message), and it is
        unfit."""
        expected = self.expected(seat, message.kind, message.content)
        heads = message.heads
        if heads == expected:
            return True
        if len(heads) != self._n:
            raise Fault(f"its message names {len(heads)} heads, not {self._n}", message)
        # A replaced seat's entry may also be what it was before the replacement (its last
        # message taken, as the anchor or the seat's head gave it then): a message signed
        # before its sender saw the replacement, that the rules take after it.  A seat
        # replaced for good for a fault (a fork, misbehaviour) or after a forfeit may be named
        # by any entry — the version of its fork the sender held, its replacement elsewhere.
        # A seat that left (a LEAVE, a RESIGN, a claim) may not: its feed ends where it left,
        # the same on every peer, so an entry naming what its feed here does not hold is a
        # dispute with it (below), never a replacement seen elsewhere.
        absent = self._seats.absent
        raw = self._raw(message.kind, message.content) if absent else expected
        differ = [j for j in range(self._n) if heads[j] != expected[j]
                  and not (j in absent and ((absent[j].final and not absent[j].left) or heads[j]
                                            in (raw[j], self._steps.anchor_heads[j],
                                                self._ending.core_head[j])))]
        if not differ:
            return True
        contested = [j for j in differ if not self._replacement(j, heads[j], expected[j])]
        if contested and len(contested) == len(differ):
            # An entry naming a message another seat's feed here does not hold comes first: that
            # feed is not what the sender saw (or the sender lies), so the sender's steps may
            # begin elsewhere, and its other entries with them — a dispute, never a blame.
            unknown = [j for j in contested if j != seat and not self._holds(j, heads[j])]
            unseen = [] if unknown else self._unseen_departures(message, raw, contested,
                                                                 expected)
            if unseen:
                # (Version 3) Signed before a departure this peer took first: the anchor moved
                # with it (a zombie's or a resignation's move), so the message's steps begin
                # earlier — a dispute with the seat that left, never a blame (§7.10 item 5).
                gone = unseen[0]
                self._report(seat, message, gone, self._departure(gone))
                self._mark_unfit(seat)
                return False
            other = (unknown or contested)[0]
            return self._contradicts(seat, message, other, heads[other], expected[other],
                                     "as seat {other}'s last one that drove the engine")
        # Replacements differ (and maybe, because of them, the other entries: with other seats
        # replaced, a step begins elsewhere): its sender replaced a seat this peer did not (or
        # at another point), or did not replace one this peer did — peers that parted in a
        # network split disagree so.  Nobody signed anything impossible: the message waits
        # (a file that stops there is incomplete, waiting for its seat), and what this peer
        # holds is reported.
        other = differ[0]
        self._report(seat, message, other, expected[other], replaced=True)
        self._mark_unfit(seat)
        return False

    def _unseen_departures(self, message: Message, raw: Sequence[bytes], contested: list[int],
                           expected: Sequence[bytes]) -> list[int]:
        """(Version 3) The seats that left whose departure ``message`` was signed without —
        its entry for each is the one before its mark (from the table, the anchor or its core
        head), not the mark — when the anchor moved since that departure was taken for every
        ``contested`` entry, and each names its seat's feed no later than the expected one: a
        message signed before the departure, whose steps began before the anchor moved."""
        if message.version < 3:
            return []
        heads, anchor = message.heads, self._steps.anchor_heads
        unseen = [j for j, a in sorted(self._seats.absent.items())
                  if a.left and j in self._left_anchor and heads[j] != expected[j]
                  and heads[j] in (raw[j], anchor[j], self._ending.core_head[j])]
        if not unseen:
            return []
        for j in contested:
            named, due = self._position(j, heads[j]), self._position(j, expected[j])
            if named is None or due is None or named > due or all(
                    self._left_anchor[g][j] == anchor[j] for g in unseen):
                return []
        return unseen

    def _departure(self, seat: int) -> bytes:
        """The hash of the LEAVE or RESIGN with which ``seat`` left (its feed here)."""
        return next((m.hash for m in self._feeds[seat].messages
                     if m.kind in (Kind.LEAVE, Kind.RESIGN)), self._match_id)

    def _holds(self, seat: int, named: bytes) -> bool:
        """Is ``named`` the match id or a message of ``seat``'s feed held here?"""
        feed = self._feeds[seat]
        return named == feed.match_id or any(m.hash == named for m in feed.messages)

    def _replacement(self, seat: int, named: bytes, expected: bytes) -> bool:
        """Is a difference on ``seat``'s entry one of replacements: this peer replaced it (and
        the message names another of its messages, or another replacement), or the message
        names its replacement at some point of its feed?"""
        marked = self._seats.marked_at(seat, named, range(len(self._feeds[seat].messages) + 1))
        absence = self._seats.absent.get(seat)
        if marked is not None:
            # (A mark this peer made too, but of a resignation where it has a departure or the
            # other way round — a RESIGN and a LEAVE told apart: version 3 — is no replacement
            # seen elsewhere: the feeds differ.)
            return absence is None or marked != (absence.count, not absence.resigned)
        if absence is None:
            return False
        if absence.left:
            # (A message of its feed, or none yet: named where this peer replaced it elsewhere.
            # Anything else its feed here does not hold: a dispute with the seat that left.)
            return self._holds(seat, named)
        return True

    def names_key(self, seat: int, message: Message, owner: int, named: bytes,
                  held: Message) -> bool:
        """Does a DELIVERY of ``seat`` (version 2) name the SEAL_KEY message ``held`` this
        peer holds for the round?  As :meth:`vouches` for one entry."""
        if named == held.hash:
            return True
        return self._contradicts(seat, message, owner, named, held.hash,
                                 "as the key message of seat {other}'s round")

    def names_offer(self, seat: int, message: Message, owner: int, named: bytes,
                    held: Message) -> bool:
        """Does an ANSWER of ``seat`` (version 3) name the OFFER message ``held`` this peer
        holds in that slot?  As :meth:`vouches` for one entry."""
        if named == held.hash:
            return True
        return self._contradicts(seat, message, owner, named, held.hash,
                                 "as the OFFER of seat {other} it answers")

    def _contradicts(self, seat: int, message: Message, other: int, named: bytes,
                     expected: bytes, what: str) -> bool:
        """``seat``'s ``message`` names ``named`` where this peer's feeds give ``expected``, a
        message of ``other``'s feed.  A message this peer holds elsewhere in that feed (or, for
        its own seat, any): a :class:`Fault`.  One it does not hold: a dispute — the message
        waits, a :class:`HeadsDisputed` is reported (once per message), and it is unfit."""
        feed = self._feeds[other]
        place = next((m.seq for m in feed.messages if m.hash == named), None)
        if place is not None or named == feed.match_id or other == seat:
            where = "none" if place is None else f"its message {place}"
            raise Fault(f"its message names {where} {what.format(other=other)}, where the "
                        "match's rules name another (out of place)", message)
        self._report(seat, message, other, expected)
        self._mark_unfit(seat)
        return False

    def _report(self, seat: int, message: Message, other: int, expected: bytes, *,
                replaced: bool = False) -> None:
        """Report ``message`` (once) as naming, for ``other``, another message than
        ``expected``; a dispute over a live seat's feed is kept (:attr:`disputes`)."""
        if message.hash in self._reported:
            return
        self._reported.add(message.hash)
        held = tuple(m for m in self._feeds[other].messages if m.hash == expected)
        event = HeadsDisputed(seat, other, message, held, replaced)
        if not replaced and not any(d.seat == seat for d in self.disputes):
            self.disputes.append(event)
        self._emit(event)

    def note_unvouched(self, seat: int, message: Message,
                       uncovered: Iterable[tuple[str, tuple[int, ...]]] = ()) -> None:
        """``message`` is refused against the state (its digest, with the chance outcomes no
        digest round ``uncovered``; or its kind): keep the first such that is a dispute
        (:meth:`unvouched`) as :attr:`divergence`, which a verdict gives instead of a blame."""
        if self.divergence is None:
            self.divergence = self.unvouched(seat, message, uncovered)

    def note_unseen_departure(self, seat: int, evidence: Sequence[Message]) -> None:
        """(Version 3) ``seat``'s message (``evidence[0]``) has a body refused against what the
        state owes (a CHANCE_COMMIT of other ids than the batch): keep it as
        :attr:`divergence` if the state rests on a departure it does not name
        (:meth:`unseen_departure`)."""
        if self.divergence is None and evidence:
            self.divergence = self.unseen_departure(seat, evidence[0])

    def unseen_departure(self, seat: int, message: Message
                         ) -> tuple[int, Message, tuple[int, ...]] | None:
        """(Version 3) ``message``'s body is refused against what the state owes: is that a
        dispute because the state rests on the departure of seats that left (a LEAVE, a
        RESIGN, a claim on it) that its heads do not name by their replacement marks?  Then
        ``(seat, message, those seats)``."""
        if message.version < 3 or len(message.heads) != self._n:
            return None
        found = tuple(j for j, a in sorted(self._seats.absent.items())
                      if a.left and j != seat and message.heads[j] != self._seats.mark(j))
        return (seat, message, found) if found else None

    def unvouched(self, seat: int, message: Message,
                  uncovered: Iterable[tuple[str, tuple[int, ...]]] = ()
                  ) -> tuple[int, Message, tuple[int, ...]] | None:
        """``message`` is refused against the state (its digest, or its kind): is that a
        dispute rather than ``seat``'s fault?  Then ``(seat, message, the other seats)``.
        Version 1 (a refused digest): after outcomes no digest round covered (``uncovered``:
        event, contributors), with their contributors.  Version 2: where the state rests on
        messages of other live seats that its heads do not name — in a simultaneous step the
        step's start, which the heads of a step's messages cover; else every message taken
        when the state last changed — with those seats (protocol.md §9.3)."""
        if message.version < 2:
            others = sorted({c for _, cs in uncovered for c in cs})
            return (seat, message, tuple(others)) if others else None
        if len(message.heads) != self._n:
            return None
        basis = (self._steps.anchor_heads if self._steps.current is not None
                 else self._ending.state_heads)
        found = []
        for j in range(self._n):
            absence = self._seats.absent.get(j)
            if j == seat or (absence is not None and not absence.left):
                continue
            if absence is not None and message.heads[j] != self._seats.mark(j):
                # The state rests on the departure of a seat that left (its LEAVE, RESIGN or
                # the claim on it), which the message does not name: signed without it.
                found.append(j)
                continue
            if message.heads[j] == basis[j]:
                continue
            named, rests = self._position(j, message.heads[j]), self._position(j, basis[j])
            if named is None or (rests is not None and named < rests):
                found.append(j)
        return (seat, message, tuple(found)) if found else None

    def _position(self, seat: int, head: bytes) -> int | None:
        """Where ``head`` is in ``seat``'s feed (-1: the match id, before its first message;
        None: not there)."""
        feed = self._feeds[seat]
        if head == feed.match_id:
            return -1
        return next((m.seq for m in feed.chain if m.hash == head), None)
