"""Sans-I/O protocol: messages, signed feeds, commit–reveal, shared randomness, verification."""
