"""What the shared plugin keeps for one run (in ``config.stash``), and the judge counters."""

from __future__ import annotations

from typing import Any

import pytest

from scorekit.report._rows import TextScoreRow
from scorekit.session import ScoreSession

__all__ = ["BUDGET_KEY", "WORKER_KEY", "RunState", "is_worker", "run_state", "stats_dict"]

#: ``workeroutput`` key of a pytest-xdist worker's rows, counters and repeats.
WORKER_KEY = "scorekit_report"
#: ``workerinput`` key of the controller's budget counter file.
BUDGET_KEY = "scorekit_budget_db"
_RUN_STATE = pytest.StashKey["RunState"]()


class RunState:
    """What the plugin itself keeps for one run (in ``config.stash``)."""

    def __init__(self) -> None:
        self.merged_from_workers = False
        self.messages: list[str] = []
        #: The shared budget counter's file (``--llm-budget-*``), or None.
        self.budget_path: str | None = None
        #: ``--llm-baseline``: the earlier report, its path, the delta and the comparison.
        self.baseline: dict[str, Any] | None = None
        self.baseline_path: str | None = None
        self.regression_delta = 0.05
        self.fail_on_regression = False
        self.comparison: Any = None
        self.regression_message: str | None = None
        #: ``repeat`` objects of the ``llm_repeat`` tests, by test id.
        self.repeats: dict[str, dict[str, Any]] = {}


def run_state(config: pytest.Config) -> RunState:
    """The run's state, created on first use."""
    state = config.stash.get(_RUN_STATE, None)
    if state is None:
        state = config.stash[_RUN_STATE] = RunState()
    return state


def option_value(config: pytest.Config, name: str) -> tuple[Any, str]:
    """An option's raw value, command line before ini (None when neither gives one), and where
    it came from (``--llm-max-runs`` or ``ini llm_max_runs``), for messages."""
    raw = config.getoption(name, None)
    if raw not in (None, ""):
        return raw, "--" + name.replace("_", "-")
    raw = config.getini(name)
    return (None if raw in (None, "", []) else raw), f"ini {name}"


def is_worker(config: pytest.Config) -> bool:
    """Whether this is a pytest-xdist worker (the controller writes the reports)."""
    return hasattr(config, "workerinput")


def stats_dict(session: ScoreSession) -> dict[str, Any]:
    """The session's judge counters plus the judge's name and model (for the cost estimate)."""
    stats: dict[str, Any] = dict(session.stats.as_dict())
    # The rows know the judge that actually ran (a custom judge's class name).
    names = [r.judge for r in session.recorder.rows if isinstance(r, TextScoreRow) and r.judge]
    stats["judge"] = ", ".join(dict.fromkeys(names)) or session.judge_name
    stats["model"] = session.settings.model or session.settings.deployment
    if session.budget is not None:
        stats["budget"] = session.budget.totals()
    return stats
