"""Adversaries and faults: real peers attacked over real loopback sockets (issue 7)."""
