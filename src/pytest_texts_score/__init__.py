"""pytest_texts_score: does a generated text carry the same facts as a reference?

An LLM (or the embedded offline judge) writes yes/no questions from one text and answers
them from the other. **Precision** (alias *completeness*) asks questions written from
``given`` and answers them from ``expected``; **recall** (alias *correctness*) asks questions
written from ``expected`` and answers them from ``given``; F1 is their harmonic mean.

Example:
    >>> from pytest_texts_score import texts_expect_f1_equal
    >>> texts_expect_f1_equal(  # doctest: +SKIP
    ...     "The Eiffel Tower was completed in 1889.",
    ...     "Completed in 1889, the Eiffel Tower ...",
    ...     target=1.0, max_delta=0.2,
    ... )

The assertions work in pytest (with the ``texts_score`` fixture or imported directly) and in
plain Python; ``configure(...)`` picks the judge outside pytest.
"""

from typing import TYPE_CHECKING, Any

from pytest_texts_score._configure import configure
from pytest_texts_score._messages import TextsAssertionError
from pytest_texts_score._seams import RetriesExhaustedError
from pytest_texts_score.api import (
    texts_agg_f1_max,
    texts_agg_f1_mean,
    texts_agg_f1_median,
    texts_agg_f1_min,
    texts_agg_precision_max,
    texts_agg_precision_mean,
    texts_agg_precision_median,
    texts_agg_precision_min,
    texts_agg_recall_max,
    texts_agg_recall_mean,
    texts_agg_recall_median,
    texts_agg_recall_min,
    texts_expect_f1_equal,
    texts_expect_f1_range,
    texts_expect_precision_equal,
    texts_expect_precision_range,
    texts_expect_recall_equal,
    texts_expect_recall_range,
)
from pytest_texts_score.api_wrappers import (
    texts_agg_completeness_average,
    texts_agg_completeness_max,
    texts_agg_completeness_mean,
    texts_agg_completeness_median,
    texts_agg_completeness_min,
    texts_agg_correctness_average,
    texts_agg_correctness_max,
    texts_agg_correctness_mean,
    texts_agg_correctness_median,
    texts_agg_correctness_min,
    texts_agg_f1_average,
    texts_agg_precision_average,
    texts_agg_recall_average,
    texts_expect_completeness_equal,
    texts_expect_completeness_range,
    texts_expect_correctness_equal,
    texts_expect_correctness_range,
)

if TYPE_CHECKING:
    from pytest_texts_score._dataset import evaluate_dataset

__all__ = [
    "RetriesExhaustedError",
    "TextsAssertionError",
    "configure",
    "evaluate_dataset",
    "texts_agg_completeness_average",
    "texts_agg_completeness_max",
    "texts_agg_completeness_mean",
    "texts_agg_completeness_median",
    "texts_agg_completeness_min",
    "texts_agg_correctness_average",
    "texts_agg_correctness_max",
    "texts_agg_correctness_mean",
    "texts_agg_correctness_median",
    "texts_agg_correctness_min",
    "texts_agg_f1_average",
    "texts_agg_f1_max",
    "texts_agg_f1_mean",
    "texts_agg_f1_median",
    "texts_agg_f1_min",
    "texts_agg_precision_average",
    "texts_agg_precision_max",
    "texts_agg_precision_mean",
    "texts_agg_precision_median",
    "texts_agg_precision_min",
    "texts_agg_recall_average",
    "texts_agg_recall_max",
    "texts_agg_recall_mean",
    "texts_agg_recall_median",
    "texts_agg_recall_min",
    "texts_expect_completeness_equal",
    "texts_expect_completeness_range",
    "texts_expect_correctness_equal",
    "texts_expect_correctness_range",
    "texts_expect_f1_equal",
    "texts_expect_f1_range",
    "texts_expect_precision_equal",
    "texts_expect_precision_range",
    "texts_expect_recall_equal",
    "texts_expect_recall_range",
]

#: The 35 assertion functions by name (what the ``texts_score`` fixture returns, minus the
#: ``texts_`` prefix of the keys).
ASSERTIONS = {name: globals()[name] for name in __all__ if name.startswith("texts_")}


def __getattr__(name: str) -> Any:
    # The dataset layer (numpy, the batch engines) loads on first use, not with the plugin.
    if name == "evaluate_dataset":
        from pytest_texts_score._dataset import evaluate_dataset

        globals()[name] = evaluate_dataset
        return evaluate_dataset
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
