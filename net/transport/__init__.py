"""One connection to another peer: frames, the join-code key exchange, the sealed channel, checked message shapes.

Tests: tests/net/transport/ (each module names its own).
"""
