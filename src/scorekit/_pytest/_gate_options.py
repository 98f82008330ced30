"""The CI gate options of the shared pytest plugin: judge budgets (and their prices), and the
baseline gate (``--llm-baseline`` read at start-up, the run compared with it at the end;
``--llm-fail-on-regression`` turns a regression into exit code 1).

Each option has an ini twin (``--llm-budget-usd`` / ``llm_budget_usd``); the command line wins.
Read once at start-up; a run that sets none of them does no extra work.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from scorekit._pytest._state import RunState, option_value, stats_dict
from scorekit.judges._settings import JudgeSettings, Option
from scorekit.session import ScoreSession
from scorekit.session._budget import BudgetCaps, price_of

__all__ = [
    "GATE_OPTIONS",
    "add_gate_options",
    "budget_caps",
    "compare_with_baseline",
    "fail_on_regression",
    "gate_value",
    "load_baseline",
]


#: The judge option table's ``Option``: only ``name``, ``help`` and ``kind`` are used here.
GATE_OPTIONS: tuple[Option, ...] = (
    Option(
        "llm_budget_usd",
        "Cap the judge's estimated spend for the session, in US dollars (all xdist workers).",
        kind="float",
    ),
    Option("llm_budget_calls", "Cap the judge requests of the session.", kind="int"),
    Option("llm_budget_tokens", "Cap the judge tokens (prompt + completion).", kind="int"),
    Option(
        "llm_price_input_per_mtok",
        "US dollars per million prompt tokens (instead of the built-in price table).",
        kind="float",
    ),
    Option(
        "llm_price_output_per_mtok",
        "US dollars per million completion tokens (instead of the built-in price table).",
        kind="float",
    ),
    Option(
        "llm_baseline",
        "An earlier run's JSON report (--llm-report): compare every scored assertion with it.",
    ),
    Option(
        "llm_regression_delta",
        "Smallest score drop against the baseline that counts as a regression (default 0.05).",
        kind="float",
    ),
)

_FAIL_HELP = "Exit with code 1 when an assertion regressed against --llm-baseline."


def add_gate_options(parser: pytest.Parser) -> None:
    """Register the gate options and their ini twins."""
    group = parser.getgroup(
        "llm-scorekit-gates", "CI gates (llm-scorekit): judge budgets, baselines"
    )
    for opt in GATE_OPTIONS:
        group.addoption(opt.flag, dest=opt.name, default=None, help=opt.help)
        parser.addini(opt.name, opt.help, default=None)
    group.addoption(
        "--llm-fail-on-regression",
        dest="llm_fail_on_regression",
        action="store_true",
        default=False,
        help=_FAIL_HELP,
    )
    parser.addini("llm_fail_on_regression", _FAIL_HELP, type="bool", default=False)


def fail_on_regression(config: pytest.Config) -> bool:
    """``--llm-fail-on-regression`` or the ini twin."""
    return bool(config.getoption("llm_fail_on_regression", False)) or bool(
        config.getini("llm_fail_on_regression")
    )


def gate_value(config: pytest.Config, name: str) -> Any:
    """The option's value (command line > ini), converted; None when not given.

    Raises:
        pytest.UsageError: not a number >= 0 (the message names the option).
    """
    opt = next(o for o in GATE_OPTIONS if o.name == name)
    raw, label = option_value(config, name)
    if raw is None:
        return None
    text = str(raw).strip()
    if opt.kind == "str":
        return text or None
    try:
        value: float | int = int(text) if opt.kind == "int" else float(text)
    except ValueError:
        kind = "a whole number" if opt.kind == "int" else "a number"
        raise pytest.UsageError(f"{label} must be {kind} >= 0, got {text!r}.") from None
    if not math.isfinite(value) or value < 0:
        raise pytest.UsageError(f"{label} must be a finite number >= 0, got {text!r}.")
    return value


def budget_caps(config: pytest.Config, settings: JudgeSettings) -> BudgetCaps | None:
    """The session's budget, or None when no cap is set or the judge is the free local one.

    Raises:
        pytest.UsageError: a bad value, or a dollar cap without a known price.
    """
    usd = gate_value(config, "llm_budget_usd")
    calls = gate_value(config, "llm_budget_calls")
    tokens = gate_value(config, "llm_budget_tokens")
    price_in = gate_value(config, "llm_price_input_per_mtok")
    price_out = gate_value(config, "llm_price_output_per_mtok")
    if usd is None and calls is None and tokens is None:
        return None
    provider = settings.resolved_provider
    if provider == "local":
        return None  # the local judge is free: nothing to count
    model = settings.model or settings.deployment
    table = price_of(model) or (None, None)
    price_in = table[0] if price_in is None else price_in
    price_out = table[1] if price_out is None else price_out
    if usd is not None and (price_in is None or price_out is None):
        raise pytest.UsageError(
            f"--llm-budget-usd: no price is known for the {provider} judge's model"
            f" {model!r}; set llm_price_input_per_mtok and llm_price_output_per_mtok"
            " (US dollars per million tokens), or cap --llm-budget-calls or"
            " --llm-budget-tokens instead."
        )
    return BudgetCaps(
        usd=usd,
        calls=calls,
        tokens=tokens,
        price_input=price_in or 0.0,
        price_output=price_out or 0.0,
    )


def load_baseline(config: pytest.Config, state: RunState) -> None:
    """Read ``--llm-baseline`` (a usage error when it cannot be used)."""
    path = gate_value(config, "llm_baseline")
    delta = gate_value(config, "llm_regression_delta")
    state.fail_on_regression = fail_on_regression(config)
    if path is None:
        if state.fail_on_regression:
            raise pytest.UsageError(
                "--llm-fail-on-regression needs --llm-baseline PATH (an earlier run's"
                " --llm-report JSON file)."
            )
        return
    from scorekit.report._baseline import BaselineError, load_report

    try:
        state.baseline = load_report(
            config.invocation_params.dir / path, "--llm-baseline", shown=path
        )
    except BaselineError as exc:
        raise pytest.UsageError(str(exc)) from None
    state.baseline_path = path
    if delta is not None:
        state.regression_delta = float(delta)


def compare_with_baseline(
    session: pytest.Session, score_session: ScoreSession, state: RunState
) -> None:
    """Compare the run with the baseline; fail the session on a regression when asked."""
    from scorekit.report._baseline import compare_reports
    from scorekit.report._comparison_text import regression_message
    from scorekit.report._document import report_document

    assert state.baseline is not None
    current = report_document(
        list(score_session.recorder.rows), stats_dict(score_session), repeats=state.repeats
    )
    state.comparison = compare_reports(state.baseline, current, min_delta=state.regression_delta)
    if state.fail_on_regression and state.comparison.regressed:
        state.regression_message = regression_message(state.comparison)
        if session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
