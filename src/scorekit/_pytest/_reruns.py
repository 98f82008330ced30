"""Repeated tests (``@pytest.mark.llm_repeat``, ``--llm-repeat``) and the ceiling of borderline
reruns (``--llm-max-runs``): the pytest side of :mod:`scorekit.stats`' repeat estimators."""

from __future__ import annotations

import pytest

from scorekit._pytest._state import option_value, run_state
from scorekit.session import ScoreSession
from scorekit.stats import MARKER, RepeatPlan, RepeatResult, make_plan, repeat_run
from scorekit.stats._repeat import first_line

__all__ = [
    "DEFAULT_FULL_RUNS",
    "REPEAT_PLAN",
    "REPEAT_RESULT",
    "configure_max_runs",
    "plan_repeats",
    "run_repeated",
]

REPEAT_PLAN = pytest.StashKey[RepeatPlan]()
REPEAT_RESULT = pytest.StashKey[RepeatResult]()


def _whole_option(config: pytest.Config, name: str) -> int | None:
    """A positive whole number from ``--llm-<name>`` or ini ``llm_<name>``, or None."""
    raw, source = option_value(config, name)
    if raw is None:
        return None
    try:
        value = int(str(raw).strip())
    except ValueError:
        value = 0
    if value < 1:
        raise pytest.UsageError(f"{source}: expected a whole number of runs >= 1; got {raw!r}")
    return value


#: The ``full_runs`` of every ``texts_agg_*`` function unless a test gives its own.
DEFAULT_FULL_RUNS = 5


def configure_max_runs(config: pytest.Config, session: ScoreSession) -> None:
    """``--llm-max-runs`` (unless ``configure(max_runs=...)`` gave it): below the default
    ``full_runs`` it is a usage error now; below a test's own ``full_runs``, when it runs."""
    value = _whole_option(config, "llm_max_runs")
    if value is None or "max_runs" in session.configured:
        return
    if value < DEFAULT_FULL_RUNS:
        raise pytest.UsageError(
            f"--llm-max-runs {value} (ini llm_max_runs) is below the default"
            f" full_runs={DEFAULT_FULL_RUNS} of the texts_agg_* assertions; borderline reruns"
            f" add runs after full_runs, so give --llm-max-runs >= {DEFAULT_FULL_RUNS}"
        )
    session.max_runs = value


def plan_repeats(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Each marked test's plan (a usage error for a bad marker)."""
    override = _whole_option(config, "llm_repeat")
    for item in items:
        marker = item.get_closest_marker(MARKER)
        if marker is None:
            continue
        try:
            plan = make_plan(marker.args, marker.kwargs, where=item.nodeid, override=override)
        except ValueError as exc:
            raise pytest.UsageError(str(exc)) from None
        item.stash[REPEAT_PLAN] = plan


def run_repeated(pyfuncitem: pytest.Function) -> bool | None:
    """Run an ``llm_repeat`` test's body N times and turn the runs into one verdict.

    A failed assertion or any exception of the test's code is a failed run; a judge error
    (``JudgeError``) propagates, so the item is an error; a skip skips the item.
    """
    plan = pyfuncitem.stash.get(REPEAT_PLAN, None)
    if plan is None:
        return None
    from scorekit.judges import JudgeError

    function = pyfuncitem.obj
    argnames = pyfuncitem._fixtureinfo.argnames
    args = {name: pyfuncitem.funcargs[name] for name in argnames}
    result = RepeatResult(plan)
    for index in range(plan.runs):
        with repeat_run(index):
            try:
                function(**args)
            except JudgeError:
                raise
            except (Exception, pytest.fail.Exception) as exc:
                result.failures.append((index, first_line(exc)))
    pyfuncitem.stash[REPEAT_RESULT] = result
    run_state(pyfuncitem.config).repeats[pyfuncitem.nodeid] = result.to_dict()
    if result.missed():
        pytest.fail(result.message(), pytrace=False)
    return True
