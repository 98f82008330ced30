"""The examples in scorekit's docstrings (its public packages and what they hold) run and
print what they claim."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "scorekit.format",
    "scorekit.cli",
    "scorekit.cli._exit_codes",
    "scorekit.files._data_file",
    "scorekit.runtime._loop_thread",
    "scorekit.session",
    "scorekit.session._audit",
    "scorekit.session._questions",
    "scorekit.session._questions_file",
    "scorekit.stats._repeat",
    "pytest_texts_score._pipeline",
    "pytest_texts_score._outcome",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples to run"
    assert result.failed == 0
