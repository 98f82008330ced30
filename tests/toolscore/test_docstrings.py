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
    "toolscore._engine.check.assertions",
    "toolscore._engine.score.evaluate",
    "toolscore._engine.score.result",
    "toolscore._engine.align.assignment",
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
    "toolscore._engine.compare.rule",
    "toolscore._engine.read.otel",
    "toolscore._engine.score.result",
    "scorekit.report._csv_report",
    "scorekit.cli._arg_types",
    "scorekit.runtime._gc_pause",
    "toolscore._engine.score.display",
    "toolscore._engine.check.trajectory",
    "toolscore._engine.read.streams",
    "toolscore._engine.check.conversation",
    # Behind the public modules above (issue 23, item 4): the same docstrings, run where they live.
    "toolscore._engine.score.metrics.secrets",
    "toolscore._engine.score.metrics.steps",
    "toolscore._engine.score.metrics.policy",
    "toolscore._engine.score.metrics.correctness",
    "toolscore._engine.judge.config",
    "toolscore._engine.score.metrics.cost",
    "toolscore._engine.compare.matchers",
    "toolscore._engine.read.tool_call",
    "toolscore._engine.score.grades",
    "toolscore._engine.snapshots.store",
    "toolscore._engine.score.validators.schema",
    "toolscore._engine.score.validators.database",
    "toolscore._engine.score.validators.filesystem",
    "toolscore._engine.score.validators.http",
    "toolscore._engine.read.providers",
    "toolscore._engine.version",
    # The dataset engine both faces run on.
    "scorekit.batch._distribution",
    "scorekit.batch._done",
    "scorekit.batch._jsonlines",
    "scorekit.batch._local",
    "scorekit.batch._main_guard",
    "scorekit.batch._no_pandas",
    "scorekit.batch._readers",
    "scorekit.batch._scoring",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    outcome = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert outcome.attempted > 0, f"{name} has no docstring example to run"
    assert outcome.failed == 0
