"""A table from one peer's point of view: the session and the parts it is built from (lobby, start, play, liveness, recovery, chat).

Tests: tests/net/table/.
"""
