"""Plain-Python statistics: intervals of run scores, repeated runs, calibration, significance."""

from scorekit.stats._calibration import (
    Consistency,
    balanced_accuracy,
    best_threshold,
    cohen_kappa,
    confusion,
    roc_auc,
    self_consistency,
    verdicts,
)
from scorekit.stats._intervals import (
    AggregateStats,
    aggregate_stats,
    bootstrap_interval,
    straddles,
    t975,
    t_interval,
)
from scorekit.stats._repeat import (
    MARKER,
    REPORTED_K,
    RepeatPlan,
    RepeatResult,
    current_repeat_run,
    make_plan,
    pass_at_k,
    pass_hat_k,
    repeat_run,
    wilson_interval,
)
from scorekit.stats._significance import fisher_less, student_t_cdf, welch_less

__all__ = [
    "MARKER",
    "REPORTED_K",
    "AggregateStats",
    "Consistency",
    "RepeatPlan",
    "RepeatResult",
    "aggregate_stats",
    "balanced_accuracy",
    "best_threshold",
    "bootstrap_interval",
    "cohen_kappa",
    "confusion",
    "current_repeat_run",
    "fisher_less",
    "make_plan",
    "pass_at_k",
    "pass_hat_k",
    "repeat_run",
    "roc_auc",
    "self_consistency",
    "straddles",
    "student_t_cdf",
    "t975",
    "t_interval",
    "verdicts",
    "welch_less",
    "wilson_interval",
]
