"""The metrics behind ``toolscore.metrics``.

Each reads call lists (and the pairing) and returns numbers.
"""
