"""Private knowledge: the cards dealt to a seat, its setup choice against them, showing dealt
cards and opening the sealed objective (issue 32's rulings; docs/rules/paper.md, "Private deals
and the sealed objective").

* A seat **learns** the two powers and two objectives dealt to it (each once, two different
  cards), and, after its setup choice, its own sealed objective index.
* Its **setup choices** (legal actions) are known only to a state that knows its four cards;
  a choice naming a card is checked against them where they are known.

* The **kept power** is public with the setup choice.  Its deal is shown (``open_private``) once
  the setup is revealed: the card must be the power the choice named, and nothing changes.
* The **kept objective** is a sealed index (0 or 1).  At final scoring the state waits on
  :class:`~engine.core.Openings`; the seat shows the card of that deal (``open_private``, with
  the deck's proof) and opens the index (``open_sealed``).  The card must mark the seat's public
  training styles: a mismatch is :class:`~engine.core.IllegalActionError`, the seat's
  misbehaviour.  A state holding the seat's own knowledge (the seat itself, the offline dealer)
  may open the index without the card shown first; the card is then taken from its knowledge,
  and the public result is the same.
* At the end, any deal may be shown (the audit of the discards): it is checked against what is
  public (a discarded power is nobody's kept power, a discarded objective differs from the kept
  one) and changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.core import IllegalActionError, InvalidKnowledgeError, OpeningRequest, Openings
from engine.paper.actions import SetupChoice
from engine.paper.data import OBJECTIVE_IDS, OBJECTIVES, POWER_IDS
from engine.paper.records import (
    OBJECTIVES_DECK,
    POWERS_DECK,
    Knowledge,
    Phase,
    objective_slot,
    parse_deal,
)
from engine.paper.rounds import setup_answers

if TYPE_CHECKING:
    from engine.paper.state import PaperState


def learn(state: PaperState, seat: object, knowledge: Mapping[str, str]) -> PaperState:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.n:
        raise InvalidKnowledgeError(f"there is no seat {seat!r}")
    k = state.knowledge[seat]
    cards = dict(k.cards)
    objective = k.objective
    for key, value in knowledge.items():
        if key == objective_slot(seat):
            objective = _learn_objective(state, seat, k, cards, value)
            continue
        deal = parse_deal(key)
        if deal is None or deal[1] != seat:
            raise InvalidKnowledgeError(f"seat {seat} is owed nothing called {key!r}")
        what, _, i = deal
        index = (2 * seat + i) if what == "power" else (2 * state.n + 2 * seat + i)
        if index >= state.dealt:
            raise InvalidKnowledgeError(f"{key} has not been dealt yet")
        deck = POWER_IDS if what == "power" else OBJECTIVE_IDS
        other = cards.get(f"setup.{what}.{seat}.{1 - i}")
        if value not in deck or value == other:
            raise InvalidKnowledgeError(f"{value!r} cannot be the card of {key}")
        if cards.get(key, value) != value:
            raise InvalidKnowledgeError(f"seat {seat} already knows the card of {key}")
        cards[key] = value
    new = state._copy()
    all_k = list(state.knowledge)
    all_k[seat] = Knowledge(tuple(sorted(cards.items())), objective, k.pending)
    new.knowledge = tuple(all_k)
    return new


def _learn_objective(state: PaperState, seat: int, k: Knowledge, cards: Mapping[str, str],
                     value: str) -> int:
    if value not in ("0", "1"):
        raise InvalidKnowledgeError("the kept objective's index is 0 or 1")
    choice = k.pending if isinstance(k.pending, SetupChoice) else state.setup[seat]
    if choice is None:
        raise InvalidKnowledgeError(f"seat {seat} has not chosen its objective yet")
    j = int(value)
    if k.objective not in (-1, j):
        raise InvalidKnowledgeError(f"seat {seat} already sealed objective {k.objective}")
    card = cards.get(f"setup.objective.{seat}.{j}")
    if card and OBJECTIVES[card].styles != choice.styles:
        raise InvalidKnowledgeError(f"objective {card} does not mark the styles "
                                    f"{'/'.join(choice.styles)}")
    return j


def setup_choices(state: PaperState, seat: int) -> tuple[SetupChoice, ...]:
    """Every setup choice of ``seat`` (with its objective index), if ``state`` knows its four
    cards; else none."""
    powers = [state.card(seat, POWERS_DECK, k) for k in (0, 1)]
    objectives = [state.card(seat, OBJECTIVES_DECK, k) for k in (0, 1)]
    if not all(powers) or not all(objectives):
        return ()
    out = []
    for deal, power in enumerate(powers):
        for args in setup_answers(power):
            for j, objective in enumerate(objectives):
                out.append(SetupChoice(deal, power, args, OBJECTIVES[objective].styles, j))
    return tuple(out)


def check_dealt(state: PaperState, seat: int, c: SetupChoice) -> None:
    """A setup choice against the cards ``state`` knows were dealt to ``seat``."""
    power = state.card(seat, POWERS_DECK, c.deal)
    if power and power != c.power:
        raise IllegalActionError(f"your deal {c.deal} is the {power}, not the {c.power}")
    objectives = [state.card(seat, OBJECTIVES_DECK, k) for k in (0, 1)]
    if c.objective >= 0 and objectives[c.objective]:
        card = objectives[c.objective]
        if OBJECTIVES[card].styles != c.styles:
            raise IllegalActionError(f"your objective {card} marks the styles "
                                     f"{'/'.join(OBJECTIVES[card].styles)}")
    elif all(objectives) and c.styles not in (OBJECTIVES[o].styles for o in objectives):
        raise IllegalActionError("neither of your objectives marks these styles")


def open_private(state: PaperState, seat: object, event_id: str, card: str) -> PaperState:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.n:
        raise InvalidKnowledgeError(f"there is no seat {seat!r}")
    deal = parse_deal(event_id) if isinstance(event_id, str) else None
    if deal is None or deal[1] != seat:
        raise InvalidKnowledgeError(f"{event_id!r} is no deal of seat {seat}")
    what, _, k = deal
    index = (2 * seat + k) if what == "power" else (2 * state.n + 2 * seat + k)
    if index >= state.dealt:
        raise InvalidKnowledgeError(f"{event_id} has not been dealt")
    if card not in (POWER_IDS if what == "power" else OBJECTIVE_IDS):
        raise InvalidKnowledgeError(f"{card!r:.40} is no {what} card")
    known = state.card(seat, OBJECTIVES_DECK if what == "objective" else "powers", k)
    if known and known != card:
        raise IllegalActionError(f"seat {seat} was dealt {known} by {event_id}, not {card}")
    over = state.phase is Phase.OVER
    if what == "power":
        choice = state.setup[seat]
        if choice is not None and choice.deal == k:
            if card != choice.power:
                raise IllegalActionError(f"seat {seat} kept the {choice.power} from "
                                         f"{event_id}, but that deal is the {card}")
            return state
        if not over:
            raise InvalidKnowledgeError(f"{event_id} may not be shown now (a discarded or "
                                        "unchosen card stays hidden until the end)")
        for s, kept in enumerate(state.setup):
            if kept is not None and kept.power == card:
                raise IllegalActionError(f"{card} was kept by seat {s}: it cannot have been "
                                         f"dealt to seat {seat} too")
        return state
    shown_index, shown_card = state.shown[seat]
    if over and state.kept[seat] != k:
        if card == shown_card:
            raise IllegalActionError(f"{card} is seat {seat}'s kept objective, not its "
                                     "discarded one")
        return state
    if state.phase is not Phase.OPEN and not over:
        raise InvalidKnowledgeError(f"{event_id} may not be shown before final scoring")
    if shown_index >= 0:
        if (shown_index, shown_card) != (k, card):
            raise InvalidKnowledgeError(f"seat {seat} has shown its objective deal already")
        return state
    if state.kept[seat] >= 0 and state.kept[seat] != k:
        raise IllegalActionError(f"seat {seat} opened objective {state.kept[seat]}, not {k}")
    for s, (_, c) in enumerate(state.shown):
        if c == card:
            raise IllegalActionError(f"{card} was shown by seat {s} already")
    _check_styles(state, seat, card)
    new = state._copy()
    shown = list(state.shown)
    shown[seat] = (k, card)
    new.shown = tuple(shown)
    return new


def _check_styles(state: PaperState, seat: int, card: str) -> None:
    styles = state.sheets[seat].styles
    if OBJECTIVES[card].styles != styles:
        raise IllegalActionError(
            f"seat {seat}'s objective {card} marks the styles "
            f"{'/'.join(OBJECTIVES[card].styles)}, but its sheet trains "
            f"{'/'.join(styles) or 'nothing'}: the setup choice did not match the objective")


def openings(state: PaperState) -> Openings:
    """What the state waits for in the OPEN phase: each seat still to open opens its kept
    objective."""
    return Openings(tuple(OpeningRequest(s, (objective_slot(s),)) for s in state._to_open()))


def open_sealed(state: PaperState, seat: object, values: Mapping[str, str]) -> PaperState:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.n:
        raise IllegalActionError(f"there is no seat {seat!r}")
    if state.phase is not Phase.OPEN or seat not in state._to_open():
        raise IllegalActionError(f"seat {seat} has nothing to open now")
    slot = objective_slot(seat)
    if set(values) != {slot}:
        raise IllegalActionError(f"seat {seat} opens exactly {slot}")
    value = values[slot]
    if value not in ("0", "1"):
        raise IllegalActionError(f"{slot} is 0 or 1, not {value!r:.20}")
    j = int(value)
    sealed = state.knowledge[seat].objective
    if sealed >= 0 and sealed != j:
        raise IllegalActionError(f"seat {seat} sealed objective {sealed}, not {j}")
    shown_index, card = state.shown[seat]
    if shown_index >= 0 and shown_index != j:
        raise IllegalActionError(f"seat {seat} showed objective deal {shown_index}, "
                                 f"but opens {j}")
    if shown_index < 0:
        card = state.card(seat, OBJECTIVES_DECK, j)
        if not card:
            raise IllegalActionError(f"the card of setup.objective.{seat}.{j} must be shown "
                                     "(open_private) with the opening")
        for s, (_, c) in enumerate(state.shown):
            if c == card:
                raise IllegalActionError(f"{card} was shown by seat {s} already")
        _check_styles(state, seat, card)
    new = state._copy()
    kept = list(state.kept)
    kept[seat] = j
    new.kept = tuple(kept)
    shown = list(state.shown)
    shown[seat] = (j, card)
    new.shown = tuple(shown)
    if not new._to_open():
        return new._finish()
    return new
