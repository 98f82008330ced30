"""Order of the calls: edit distance between the expected and the actual tool-name sequence.

Example:
    >>> from toolscore.adapters.base import ToolCall
    >>> calculate_edit_distance([ToolCall("a"), ToolCall("b")], [ToolCall("b"), ToolCall("a")])
    {'edit_distance': 2.0, 'normalized_distance': 1.0, 'sequence_accuracy': 0.0}
"""

from toolscore._engine.score.metrics.sequence import calculate_edit_distance, sequence_metrics

__all__ = ["calculate_edit_distance", "sequence_metrics"]
