"""Finding and reaching other peers: addresses, LAN discovery, router port mappings, reachability checks.

Tests: tests/net/reach/ (each module names its own).
"""
