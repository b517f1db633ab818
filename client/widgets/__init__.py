"""Small reusable nodes: dialogs, tooltips, the chat box, fitted text, the thinking badge.

Tests: tests/client/widgets/.
"""
