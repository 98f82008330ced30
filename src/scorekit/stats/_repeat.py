"""Repeated runs of one test: estimators, the verdict and the run index judge calls are keyed by.

``@pytest.mark.llm_repeat(runs=N, min_pass_rate=None, k=None, min_pass_k=None)`` runs a test
body N times in one item (``scorekit.pytest_plugin``); this module holds what does not need
pytest: the pass rate with its Wilson 95 % interval, the unbiased pass@k and pass^k estimators
of agent benchmarks, the verdict, its failure message, and :func:`current_repeat_run`, which
the judge adds to its cache keys so run 3 is never answered from run 2's entry.
"""

from __future__ import annotations

import contextlib
import math
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

#: z for a two-sided 95 % interval.
Z95 = 1.959963984540054
#: The k values every repeat report shows (those <= runs), plus the marker's ``k``.
REPORTED_K = (1, 2, 4, 8)
MARKER = "llm_repeat"

_run_lock = threading.Lock()
_current_run = 0


def current_repeat_run() -> int:
    """The index of the repeated run in progress (0 outside ``llm_repeat`` and in its first run).

    Example:
        >>> current_repeat_run()
        0
        >>> with repeat_run(3):
        ...     current_repeat_run()
        3
    """
    with _run_lock:
        return _current_run


@contextlib.contextmanager
def repeat_run(index: int) -> Iterator[None]:
    """Mark the judge calls made inside the block as belonging to repeated run ``index``.

    A plain module value, not a context variable: judge calls run on the judge's own event loop
    thread, which would not see the test thread's context.
    """
    global _current_run
    with _run_lock:
        previous, _current_run = _current_run, index
    try:
        yield
    finally:
        with _run_lock:
            _current_run = previous


def wilson_interval(passed: int, runs: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a pass rate ``passed / runs`` (95 % by default).

    Example:
        >>> low, high = wilson_interval(6, 10)
        >>> round(low, 4), round(high, 4)
        (0.3127, 0.8318)
        >>> wilson_interval(0, 0)
        (0.0, 1.0)
    """
    if runs <= 0:
        return (0.0, 1.0)
    p = passed / runs
    denom = 1 + z * z / runs
    centre = (p + z * z / (2 * runs)) / denom
    half = z * math.sqrt(p * (1 - p) / runs + z * z / (4 * runs * runs)) / denom
    low = 0.0 if passed <= 0 else max(0.0, centre - half)
    high = 1.0 if passed >= runs else min(1.0, centre + half)
    return (low, high)


def pass_at_k(runs: int, passed: int, k: int) -> float:
    """Unbiased pass@k: the chance that at least one of k runs drawn from the N passes.

    ``1 - C(N - c, k) / C(N, k)``.

    Example:
        >>> from fractions import Fraction
        >>> Fraction(pass_at_k(10, 6, 3)).limit_denominator(1000)
        Fraction(29, 30)
    """
    _check_k(runs, passed, k)
    return 1.0 - math.comb(runs - passed, k) / math.comb(runs, k)


def pass_hat_k(runs: int, passed: int, k: int) -> float:
    """Unbiased pass^k: the chance that all of k runs drawn from the N pass.

    ``C(c, k) / C(N, k)`` (not ``p ** k``).

    Example:
        >>> from fractions import Fraction
        >>> Fraction(pass_hat_k(10, 6, 3)).limit_denominator(1000)
        Fraction(1, 6)
    """
    _check_k(runs, passed, k)
    return math.comb(passed, k) / math.comb(runs, k)


def _check_k(runs: int, passed: int, k: int) -> None:
    if not 1 <= k <= runs or not 0 <= passed <= runs:
        raise ValueError(f"need 1 <= k <= runs and 0 <= passed <= runs; got {k}, {runs}, {passed}")


@dataclass(frozen=True)
class RepeatPlan:
    """The validated arguments of one ``llm_repeat`` marker (``runs`` after ``--llm-repeat``)."""

    runs: int
    min_pass_rate: float | None = None
    k: int | None = None
    min_pass_k: float | None = None

    @property
    def ks(self) -> list[int]:
        """The k values reported: 1, 2, 4, 8 (those <= runs) and the marker's k."""
        values = {k for k in REPORTED_K if k <= self.runs}
        if self.k is not None:
            values.add(self.k)
        return sorted(values)


def _check_values(head: str, values: Mapping[str, Any]) -> None:
    """Whole numbers >= 1 for ``runs`` and ``k``, numbers in [0, 1] for the bounds."""
    for name in ("runs", "k"):
        value = values.get(name)
        if value is None and name == "k":
            continue
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ValueError(f"{head}: {name} must be a whole number >= 1; got {value!r}")
    for name in ("min_pass_rate", "min_pass_k"):
        value = values.get(name)
        if value is None:
            continue
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if not number or not 0.0 <= float(value) <= 1.0:
            raise ValueError(f"{head}: {name} must be a number in [0, 1]; got {value!r}")


def make_plan(
    args: Sequence[Any], kwargs: Mapping[str, Any], *, where: str, override: int | None = None
) -> RepeatPlan:
    """Validate a marker's arguments; ``override`` is ``--llm-repeat`` (replaces ``runs``).

    Raises:
        ValueError: an unusable argument; the message names the marker, the test and the fix.

    Example:
        >>> make_plan((), {"runs": 10, "k": 3, "min_pass_k": 0.1}, where="t.py::t").ks
        [1, 2, 3, 4, 8]
    """
    head = f"@pytest.mark.{MARKER} on {where}"
    known = ("runs", "min_pass_rate", "k", "min_pass_k")
    if len(args) > 1:
        raise ValueError(f"{head}: takes at most one positional argument (runs); got {len(args)}")
    values: dict[str, Any] = dict(kwargs)
    if args:
        if "runs" in values:
            raise ValueError(f"{head}: runs given both positionally and by name")
        values["runs"] = args[0]
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise ValueError(
            f"{head}: unknown argument(s) {', '.join(unknown)}; use {', '.join(known)}"
        )
    if "runs" not in values:
        raise ValueError(f"{head}: runs is required, e.g. @pytest.mark.{MARKER}(runs=10)")
    _check_values(head, values)
    k = values.get("k")
    if values.get("min_pass_k") is not None and k is None:
        raise ValueError(f"{head}: min_pass_k needs k (pass^k at which k?), e.g. k=3")
    runs = int(values["runs"])
    if k is not None and k > runs:
        raise ValueError(f"{head}: k={k} is more than runs={runs}; use k <= runs")
    if override is not None:
        if k is not None and override < k:
            raise ValueError(
                f"--llm-repeat {override} is below k={k} of {head}; run at least {k} times"
            )
        runs = override
    rate = values.get("min_pass_rate")
    bound_k = values.get("min_pass_k")
    return RepeatPlan(
        runs=runs,
        min_pass_rate=None if rate is None else float(rate),
        k=k,
        min_pass_k=None if bound_k is None else float(bound_k),
    )


@dataclass
class RepeatResult:
    """The statistics and verdict of one repeated test."""

    plan: RepeatPlan
    failures: list[tuple[int, str]] = field(default_factory=list)

    @property
    def runs(self) -> int:
        """How many runs were made."""
        return self.plan.runs

    @property
    def passed(self) -> int:
        """How many runs passed."""
        return self.runs - len(self.failures)

    @property
    def pass_rate(self) -> float:
        """``passed / runs``."""
        return self.passed / self.runs

    @property
    def interval(self) -> tuple[float, float]:
        """The Wilson 95 % interval of the pass rate."""
        return wilson_interval(self.passed, self.runs)

    def pass_at(self) -> dict[int, float]:
        """pass@k for each reported k."""
        return {k: pass_at_k(self.runs, self.passed, k) for k in self.plan.ks}

    def pass_hat(self) -> dict[int, float]:
        """pass^k for each reported k."""
        return {k: pass_hat_k(self.runs, self.passed, k) for k in self.plan.ks}

    def missed(self) -> str | None:
        """The bound the result misses, as a phrase, or None when the test passes."""
        plan = self.plan
        if plan.min_pass_rate is None and plan.min_pass_k is None:
            if self.failures:
                return "every run must pass (no min_pass_rate or min_pass_k given)"
            return None
        if plan.min_pass_rate is not None and self.pass_rate < plan.min_pass_rate:
            return f"pass rate {self.pass_rate:.3g} is below min_pass_rate={plan.min_pass_rate:g}"
        if plan.min_pass_k is not None and plan.k is not None:
            value = pass_hat_k(self.runs, self.passed, plan.k)
            if value < plan.min_pass_k:
                return f"pass^{plan.k} {value:.3g} is below min_pass_k={plan.min_pass_k:g}"
        return None

    def summary(self) -> str:
        """One line: ``6/10 passed, pass rate 0.6 [0.313, 0.832], pass^3 0.167, pass@3 0.967``."""
        low, high = self.interval
        parts = [
            f"{self.passed}/{self.runs} runs passed",
            f"pass rate {self.pass_rate:.3g} (95% CI {low:.3g}-{high:.3g})",
        ]
        k = self.plan.k if self.plan.k is not None else max(self.plan.ks)
        parts.append(f"pass^{k} {pass_hat_k(self.runs, self.passed, k):.3g}")
        parts.append(f"pass@{k} {pass_at_k(self.runs, self.passed, k):.3g}")
        return ", ".join(parts)

    def message(self) -> str:
        """The failure message: each failed run's first line, the statistics, the bound missed."""
        lines = [f"run {index + 1}: {line}" for index, line in self.failures]
        lines.append(self.summary())
        missed = self.missed()
        if missed:
            lines.append(f"{MARKER}: {missed}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """The ``repeat`` object of the JSON report."""
        low, high = self.interval
        return {
            "runs": self.runs,
            "passed": self.passed,
            "pass_rate": self.pass_rate,
            "pass_rate_ci": [low, high],
            "pass_at_k": {str(k): v for k, v in self.pass_at().items()},
            "pass_hat_k": {str(k): v for k, v in self.pass_hat().items()},
            "min_pass_rate": self.plan.min_pass_rate,
            "k": self.plan.k,
            "min_pass_k": self.plan.min_pass_k,
            "outcome": "failed" if self.missed() else "passed",
        }


def first_line(exc: BaseException) -> str:
    """The first non-empty line of an exception's message, with its type."""
    text = str(exc).strip()
    line = text.splitlines()[0] if text else ""
    name = type(exc).__name__
    return f"{name}: {line}" if line else name


def repeat_lines(repeats: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Terminal summary lines, one per repeated test.

    Example:
        >>> r = RepeatResult(RepeatPlan(runs=4), failures=[(1, "AssertionError")]).to_dict()
        >>> repeat_lines({"t.py::t": r})[0]
        't.py::t  3/4 passed  rate 0.75 [0.301, 0.954]  pass^4 0  pass@4 1  failed'
    """
    out = []
    for test_id, rep in sorted(repeats.items()):
        low, high = rep["pass_rate_ci"]
        k = rep.get("k") or max(int(x) for x in rep["pass_hat_k"])
        hat = rep["pass_hat_k"][str(k)]
        at = rep["pass_at_k"][str(k)]
        out.append(
            f"{test_id}  {rep['passed']}/{rep['runs']} passed  rate {rep['pass_rate']:.3g}"
            f" [{low:.3g}, {high:.3g}]  pass^{k} {hat:.3g}  pass@{k} {at:.3g}  {rep['outcome']}"
        )
    return out


def junit_repeat_properties(rep: Mapping[str, Any]) -> list[tuple[str, str]]:
    """JUnit properties of a repeated test (``repeat_runs``, ``repeat_pass_rate``, ...)."""
    props = [
        ("repeat_runs", str(rep["runs"])),
        ("repeat_passed", str(rep["passed"])),
        ("repeat_pass_rate", f"{rep['pass_rate']:.6g}"),
        ("repeat_pass_rate_low", f"{rep['pass_rate_ci'][0]:.6g}"),
        ("repeat_pass_rate_high", f"{rep['pass_rate_ci'][1]:.6g}"),
    ]
    props += [(f"repeat_pass_at_{k}", f"{value:.6g}") for k, value in rep["pass_at_k"].items()]
    props += [(f"repeat_pass_hat_{k}", f"{value:.6g}") for k, value in rep["pass_hat_k"].items()]
    props.append(("repeat_outcome", str(rep["outcome"])))
    return props
