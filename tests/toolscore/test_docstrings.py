"""The examples in toolscore's docstrings run and print what they claim."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "toolscore",
    "toolscore.core",
    "toolscore.matchers",
    "toolscore.expect",
    "toolscore.integrations",
    "toolscore._engine.assertions",
    "toolscore._engine.evaluate",
    "toolscore._engine.result",
    "toolscore._engine.assignment",
    "toolscore.metrics.arguments",
    "toolscore.adapters.base",
    "toolscore.adapters",
    "toolscore.adapters.otel",
    "toolscore.verdict",
    "toolscore.diff",
    "toolscore.explainer",
    "toolscore.capture",
    "toolscore.reports",
    "toolscore.metrics.accuracy",
    "toolscore.metrics.sequence",
    "toolscore.metrics.efficiency",
    "toolscore.metrics.tool_correctness",
    "toolscore.metrics.trajectory",
    "toolscore.metrics.policy",
    "toolscore.metrics.security",
    "toolscore.metrics.cost",
    "toolscore.metrics.cost_estimator",
    "toolscore.metrics.side_effects",
    "toolscore._engine.compare",
    "toolscore._engine.otel",
    "toolscore._engine.result",
    "scorekit.report._csv_report",
    "scorekit._arg_types",
    "scorekit._gc_pause",
    "toolscore._engine.details",
    "toolscore._engine.trajectory",
    "toolscore._engine.streams",
    "toolscore._engine.conversation",
    # Behind the public modules above (issue 23, item 4): the same docstrings, run where they live.
    "toolscore._engine.secrets",
    "toolscore._engine.trajectory_steps",
    "toolscore._engine.policy",
    "toolscore._engine.correctness",
    "toolscore._engine.judge_config",
    "toolscore._engine.cost",
    "toolscore._engine.matchers",
    "toolscore._engine.tool_call",
    "toolscore._engine.grades",
    "toolscore._engine.snapshot_store",
    "toolscore._engine.schema_validation",
    "toolscore._engine.sql_validator",
    "toolscore._engine.filesystem_validator",
    "toolscore._engine.http_validator",
    "toolscore._engine.provider_calls",
    "toolscore._engine.version",
    # The dataset engine both faces run on.
    "scorekit.batch._distribution",
    "scorekit.batch._done",
    "scorekit.batch._jsonlines",
    "scorekit.batch._local",
    "scorekit.batch._main_guard",
    "scorekit.batch._no_pandas",
    "scorekit.batch._readers",
    "scorekit.batch._task",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    outcome = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert outcome.attempted > 0, f"{name} has no docstring example to run"
    assert outcome.failed == 0
