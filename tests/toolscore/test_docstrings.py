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
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    outcome = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert outcome.failed == 0
