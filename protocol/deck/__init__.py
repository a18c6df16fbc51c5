"""A shuffled deck with no dealer: private draws, public opens and an audit, each step proved.

The façade of ``protocol/deck/`` (docs/deck.md is the specification): the match core builds a
:class:`Deck` per deck per peer from a :class:`DeckSpec` and the local :class:`DeckSeat`, feeds
it every deck body in canonical order (:meth:`Deck.receive` / :meth:`Deck.receive_wire`), sends
what :meth:`Deck.to_send` returns, and reads the events.  Everything behind this module may
move.
"""

from protocol.deck.bodies import (
    MAX_CARDS,
    DeckBody,
    DeckDecodeError,
    DeckMessageBody,
    KeyBody,
    KeyCommitBody,
    OpenBody,
    SharesBody,
    ShuffleBody,
    decode_body,
    encode_body,
)
from protocol.deck.group import GroupError
from protocol.deck.state import (
    DECK_ALGORITHM,
    CardLearned,
    CardShown,
    Deck,
    DeckEvent,
    DeckFault,
    DeckSeat,
    DeckShuffled,
    DeckSpec,
    FaultCode,
    JointKeyAgreed,
    Owed,
    Phase,
    SharesAccepted,
    ShuffleAccepted,
    deck_id_for,
)

__all__ = [
    "DECK_ALGORITHM",
    "MAX_CARDS",
    "CardLearned",
    "CardShown",
    "Deck",
    "DeckBody",
    "DeckDecodeError",
    "DeckEvent",
    "DeckFault",
    "DeckMessageBody",
    "DeckSeat",
    "DeckShuffled",
    "DeckSpec",
    "FaultCode",
    "GroupError",
    "JointKeyAgreed",
    "KeyBody",
    "KeyCommitBody",
    "OpenBody",
    "Owed",
    "Phase",
    "SharesAccepted",
    "SharesBody",
    "ShuffleAccepted",
    "ShuffleBody",
    "deck_id_for",
    "decode_body",
    "encode_body",
]
