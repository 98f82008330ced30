"""The scalar metrics of one tool-call evaluation, in the order reports show them.

``toolscore``'s ``EvaluationResult`` has one attribute per name and copies them into
``ToolScoreRow.metrics``; the HTML report lists them in this order. The names live here, in
the shared engine, because ``scorekit`` must not import ``toolscore``; this module imports
nothing, so ``import toolscore`` stays light.
"""

__all__ = ["TOOL_METRIC_NAMES"]

TOOL_METRIC_NAMES = (
    "score",
    "selection_accuracy",
    "tool_precision",
    "tool_recall",
    "tool_f1",
    "argument_precision",
    "argument_recall",
    "argument_f1",
    "sequence_accuracy",
    "redundant_rate",
    "required_call_recall",
)
