"""Metric families; ``toolscore.metrics.arguments`` is public (``calculate_argument_f1``)."""

from toolscore.metrics.arguments import calculate_argument_f1

__all__ = ["calculate_argument_f1"]
