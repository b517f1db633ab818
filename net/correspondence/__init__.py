"""Correspondence tables: a table's messages as files in a folder a file sync shares (issue 51).

Tests: tests/net/correspondence/ (each module names its own). docs/net.md, "Correspondence tables".
"""
