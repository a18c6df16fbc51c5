"""Verification after the fact (F8, protocol.md §9): :mod:`~protocol.verify.verifier` (one copy
of a match file, strictly), :mod:`~protocol.verify.copies` (several copies of one match
together), :mod:`~protocol.verify.verdicts` (the verdicts, reason codes and exit statuses).
"""
