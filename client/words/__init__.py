"""What the window says: sentences for players in their language, from the engine's, the network's and the rules' facts.

Tests: tests/client/words/.
"""
