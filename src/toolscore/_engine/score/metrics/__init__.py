"""The metrics behind ``toolscore.metrics``: each reads call lists and returns numbers."""
