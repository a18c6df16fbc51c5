"""Sans-I/O protocol: messages, signed feeds, commit–reveal, shared randomness, verification.

The map, from the bottom up:

* :mod:`protocol.errors` — errors, split by who is at fault; :mod:`protocol.versions`;
  :mod:`protocol.crypto` — small pure functions with domain separation;
* :mod:`protocol.wire` — the encoding, the signed messages and their bodies, the header, feeds,
  sealed deliveries, the match file;
* :mod:`protocol.deck` — decks shuffled together with no dealer (the group, ElGamal, shuffle
  and share proofs);
* :mod:`protocol.mechanisms` — one module per mechanism of protocol.md §7 (steps, chance,
  votes, departures, ...);
* :mod:`protocol.match` — the match core that composes them, the local seat, the transition
  table and timing;
* :mod:`protocol.verify` — the verifier of one copy and of several;
* :mod:`protocol.mesh` — an in-memory mesh of peers, for tests and benchmarks.
"""
