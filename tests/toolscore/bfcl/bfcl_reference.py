"""BFCL's own checker and decoder from ``bfcl-eval`` (installed ``--no-deps``), for comparison.

The checker module imports ``bfcl_eval.constants.model_config``, which imports every provider
SDK; a stub module with two model entries stands in for it (``prompt-model``: names as
written, ``fc-model``: ``underscore_to_dot``). The prompt decoder's module imports
``tenacity``, ``filelock`` and a tree-sitter parser for Java; stubs stand in for those only
when they are not installed. Nothing is downloaded: without ``bfcl_eval`` the callers skip.
"""

from __future__ import annotations

import copy
import importlib
import importlib.util
import sys
import types
from typing import Any

PROMPT_MODEL = "prompt-model"
FC_MODEL = "fc-model"
INSTALL_HINT = (
    "BFCL's checker (bfcl-eval) is not installed; install it without its heavy dependencies: "
    "pip install --no-deps bfcl-eval"
)


class _Config:
    def __init__(self, underscore_to_dot: bool) -> None:
        self.underscore_to_dot = underscore_to_dot


def available() -> bool:
    return importlib.util.find_spec("bfcl_eval") is not None


def _stub(name: str, **attrs: Any) -> None:
    module = types.ModuleType(name)
    module.__dict__.update(attrs)
    sys.modules[name] = module


def _checker() -> Any:
    if "bfcl_eval.eval_checker.ast_eval.ast_checker" not in sys.modules:
        _stub(
            "bfcl_eval.constants.model_config",
            MODEL_CONFIG_MAPPING={PROMPT_MODEL: _Config(False), FC_MODEL: _Config(True)},
        )
    return importlib.import_module("bfcl_eval.eval_checker.ast_eval.ast_checker")


def reference_check(
    functions: list[Any],
    ground_truth: list[Any],
    output: list[Any],
    category: str,
    underscore_to_dot: bool,
) -> tuple[bool, str | None] | None:
    """BFCL's (valid, error_type), or None when BFCL's checker raises (a crash)."""
    module = _checker()
    from bfcl_eval.constants.enums import Language

    try:
        result = module.ast_checker(
            copy.deepcopy(functions),
            copy.deepcopy(output),
            copy.deepcopy(ground_truth),
            Language.PYTHON,
            category,
            FC_MODEL if underscore_to_dot else PROMPT_MODEL,
        )
    except Exception:
        return None
    return bool(result["valid"]), None if result["valid"] else result["error_type"]


def _decoder() -> tuple[Any, Any]:
    _checker()  # the model_config stub
    for name, attrs in (
        ("tenacity", ("retry", "retry_if_exception_message", "retry_if_exception_type")),
        ("filelock", ("FileLock",)),
    ):
        if name not in sys.modules and importlib.util.find_spec(name) is None:
            _stub(name, **{a: object for a in attrs}, wait_random_exponential=object)
    for name, attr in (
        ("bfcl_eval.model_handler.parser.java_parser", "parse_java_function_call"),
        ("bfcl_eval.model_handler.parser.js_parser", "parse_javascript_function_call"),
    ):
        if importlib.util.find_spec("tree_sitter") is None and name not in sys.modules:
            _stub(name, **{attr: None})
    utils = importlib.import_module("bfcl_eval.model_handler.utils")
    gate = importlib.import_module("bfcl_eval.utils").is_function_calling_format_output
    return utils.default_decode_ast_prompting, gate


def reference_decode(text: str) -> tuple[str, Any]:
    """What BFCL's prompt-mode decoder makes of a text: ("ok", calls), ("failed", None) or
    ("format", None) when it decodes to something that is not a list of calls."""
    decode, gate = _decoder()
    try:
        calls = decode(text)
    except Exception:
        return "failed", None
    return ("ok", calls) if gate(calls) else ("format", None)


def both_verdicts(case: Any, our_category: str | None) -> tuple[Any, tuple[Any, Any]]:
    """BFCL's and our (valid, error_type) on a generated case (``bfcl_mutations.Case``);
    BFCL's is None when its checker raised, ours ("raised", repr) when ours did."""
    from toolscore.bfcl import check

    record = case.record
    theirs = reference_check(
        record.functions, record.ground_truth, case.output, record.category, case.underscore_to_dot
    )
    try:
        v = check(
            record.functions,
            record.ground_truth,
            copy.deepcopy(case.output),
            underscore_to_dot=case.underscore_to_dot,
            category=our_category,
        )
    except Exception as exc:  # a disagreement to report, not a crash of the comparison
        return theirs, ("raised", repr(exc))
    return theirs, (v.valid, v.error_type)
