"""The rules: pure, deterministic game engines (no I/O, clock, randomness or keys)."""
