"""Who may do what at a table: admission, the guess limit, seat keys, signatures, and expelling a cheater.

Tests: tests/net/trust/ (each module names its own).
"""
