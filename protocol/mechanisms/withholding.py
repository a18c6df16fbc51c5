"""Withholding forfeits (version 2, protocol.md §7.7): which replaced seat withheld an opening
whose result it could already know.

- **A play**: a step settles with a commitment of the seat held and no reveal of it taken —
  found by :meth:`protocol.mechanisms.steps.Steps.settle_step`.
- **A chance secret**: an event drawn again for lack of the seat's secret, when every other
  contributor had revealed its own secret of the event first, or a private-knowledge round of
  the seat had shown it the event.  Judged here, when the re-draw's commitments close, from the
  feeds alone: every live contributor's commitment to the re-draw is then taken, and what came
  before it in its feed (its reveal or delivery of the dead id, if it sent one) is the same on
  every peer whatever order the feeds were taken in — while the engine state at the moment of
  the replacement is not.
- **Seats that withhold together** (version 3, the coalition rule): each contributor replaced
  without revealing an event whose other contributors all revealed it withholds — none is exempt
  because another withheld too, or revealed and then went silent before the re-draw.

A seat found withholding is told to :meth:`protocol.mechanisms.absence.Seats.withheld`: it forfeits
at its
first decision from there (:meth:`protocol.mechanisms.steps.Steps.resign`)."""

from __future__ import annotations

from collections.abc import Sequence

from protocol.mechanisms.absence import Seats
from protocol.mechanisms.chance import Chance
from protocol.mechanisms.knowledge import KnowledgeRounds
from protocol.wire.feed import Feed
from protocol.wire.messages import DeliveryBody, revealed_secrets


class Withholding:
    """Judges the seats a re-draw was made for."""

    def __init__(self, *, seats: Seats, chance: Chance, knowledge: KnowledgeRounds,
                 feeds: Sequence[Feed], version: int = 2) -> None:
        self._version = version
        self._seats = seats
        self._chance = chance
        self._knowledge = knowledge
        self._feeds = feeds

    def judge(self, new_id: str, dead_id: str, lost: tuple[int, ...], engine_id: str) -> None:
        """The commitments to ``new_id``, drawn again for ``dead_id`` without the secrets of
        ``lost``, closed: each lost seat withheld if it could know ``dead_id``'s outcome."""
        committed = set(self._chance.commitments.get(new_id, {}))
        contributors = set(self._chance.commitments.get(dead_id, {}))
        if self._version >= 3:
            self._judge_coalition(new_id, dead_id, lost, engine_id, committed, contributors)
            return
        for seat in lost:
            others = contributors - {seat}
            if not others or not others <= committed:
                continue  # (another contributor left too: nobody here knew every secret)
            if all(self._revealed(t, dead_id, new_id) for t in sorted(others)):
                self._seats.withheld(seat, f"its secret of {engine_id} (every other secret "
                                     "of it was revealed first)")
            elif self._shown(seat, dead_id, new_id, committed):
                self._seats.withheld(seat, f"its secret of {engine_id} (shown to it in a "
                                     "private-knowledge round)")

    def _judge_coalition(self, new_id: str, dead_id: str, lost: tuple[int, ...],
                         engine_id: str, committed: set[int], contributors: set[int]) -> None:
        """Version 3: no seat is exempt because another withheld or went silent too.  A
        contributor of ``dead_id`` revealed it if its feed shows the reveal before its
        commitment to ``new_id`` or, replaced without one, before its replacement (a prefix of
        its feed either way, the same on every peer).  The withholders are the contributors
        replaced without revealing it (and without committing to ``new_id``); if every other
        contributor revealed it — the withholders together could know the outcome — each
        withholder forfeits.  (A live contributor that had not revealed it yet when the event
        was drawn again leaves the outcome unknown to all: nobody forfeits for it.)"""
        revealed = {t for t in contributors if self._revealed(t, dead_id, new_id)
                    or t in self._chance.published.get(dead_id, {})}
        withholders = sorted(contributors - revealed)
        if revealed and all(t in self._seats.absent and t not in committed
                            for t in withholders):
            for seat in withholders:
                self._seats.withheld(seat, f"its secret of {engine_id} (every other secret "
                                     "of it was revealed first)")
            return
        for seat in lost:
            if self._shown(seat, dead_id, new_id, committed):
                self._seats.withheld(seat, f"its secret of {engine_id} (shown to it in a "
                                     "private-knowledge round)")

    def _before(self, seat: int, new_id: str) -> list[object]:
        """The bodies of ``seat``'s messages before the one that committed it to ``new_id``
        (the same on every peer: a prefix of its feed); in version 3, for a seat replaced
        without such a message, those it had sent when it was replaced."""
        mark = self._chance.commit_messages.get(new_id, {}).get(seat)
        absence = self._seats.absent.get(seat)
        if mark is None and self._version >= 3 and absence is not None:
            return [m.content for m in self._feeds[seat].messages[:absence.count]]
        bodies: list[object] = []
        for message in self._feeds[seat].messages:
            if message.hash == mark:
                return bodies
            bodies.append(message.content)
        return []  # (not found: nothing is judged from it)

    def _revealed(self, seat: int, event: str, new_id: str) -> bool:
        """Before its commitment to ``new_id``, ``seat`` revealed ``event`` (a CHANCE_REVEAL,
        the secret of an early turn in a REVEAL, or a pool secret in an ACT)."""
        return any(e == event for body in self._before(seat, new_id)
                   for e, _ in revealed_secrets(body))

    def _shown(self, seat: int, event: str, new_id: str, committed: set[int]) -> bool:
        """A round of ``seat`` holding ``event`` had its key named (before the seat was
        replaced) and every deliverer, before its commitment to ``new_id``, delivered to it:
        ``seat`` could open every other secret of the event."""
        for r in self._knowledge.rounds.values():
            if r.seat != seat or event not in r.events or r.key_message is None:
                continue
            if set(r.deliverers) <= committed and all(
                    any(isinstance(b, DeliveryBody) and b.round == r.id
                        for b in self._before(d, new_id)) for d in r.deliverers):
                return True
        return False
