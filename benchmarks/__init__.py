"""Benchmarks: ``python -m benchmarks NAME [options]``; the last output line is one JSON object."""
