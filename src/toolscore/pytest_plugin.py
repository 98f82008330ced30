"""The ``toolscore`` pytest plugin (registered through the ``pytest11`` entry point).

It joins the run's scoring session (so ``assert_tools``/``test_agent``/``expect`` rows reach
the report), registers the ``toolscore`` marker, and offers fixtures. A failed tool-call
assertion shows in pytest's output as its failure text; toolscore's own frames are hidden from
the traceback (``__tracebackhide__``).

* ``toolscore_snapshot``: ``toolscore_snapshot(actual)`` records the test's tool calls on the
  first run and replays them against the approved snapshot afterwards
  (see :mod:`toolscore.snapshots`).
* ``toolscore_eval``: ``toolscore_eval("gold.json", "trace.json")`` evaluates files found in
  the gold and trace folders (relative to the working directory).
* ``toolscore_assert``: :class:`ToolscoreAssertions`, one metric at a time.
* ``toolscore_assert_tools``: the :func:`toolscore.assert_tools` function.
* ``toolscore_tools``: fake tools (:class:`toolscore.fakes.FakeTools`); a registration never
  used or a call nobody registered fails the test at teardown.

Options (each with an ini twin of the same name without dashes, ``toolscore_update`` ...):

* ``--toolscore-update``: re-record the snapshots the tests use, approved (also
  ``TOOLSCORE_RECORD_UPDATE=1``, which ``toolscore record --update`` sets).
* ``--toolscore-snapshot-dir``: the snapshot folder, relative to the rootdir
  (default ``.toolscore/snapshots``; also ``TOOLSCORE_SNAPSHOT_DIR``, which
  ``toolscore record --dir`` sets).
* ``--toolscore-allow-pending``: in CI, let a missing or unapproved snapshot pass with a
  warning instead of failing.
* ``--toolscore-fakes-lenient``: ``toolscore_tools`` warns instead of failing on unused
  registrations and unexpected calls.
* ``--toolscore-gold-dir`` / ``--toolscore-trace-dir``: the folders of ``toolscore_eval``
  (defaults ``tests/gold_standards`` and ``tests/traces``).

Importing this module stays cheap: ``toolscore`` itself loads on first use.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from toolscore._engine.check.metric_assertions import ToolscoreAssertions
    from toolscore._engine.score.result import EvaluationResult
    from toolscore._engine.snapshots.fixture import SnapshotCounts, SnapshotFixture
    from toolscore.fakes import FakeTools

__all__ = [
    "SnapshotFixture",
    "ToolscoreAssertions",
    "pytest_addoption",
    "pytest_configure",
    "toolscore_assert",
    "toolscore_assert_tools",
    "toolscore_eval",
    "toolscore_gold_dir",
    "toolscore_snapshot",
    "toolscore_tools",
    "toolscore_trace_dir",
]

UPDATE_ENV = "TOOLSCORE_RECORD_UPDATE"
DIR_ENV = "TOOLSCORE_SNAPSHOT_DIR"
WORKER_KEY = "toolscore_snapshots"
_TRUE = ("1", "true", "yes", "on")
_FALSE = ("", "0", "false", "no", "off")


@dataclass(frozen=True)
class _Options:
    """The plugin's resolved options (command line > ini > environment > default)."""

    gold_dir: Path
    trace_dir: Path
    snapshot_root: Path
    update: bool
    allow_pending: bool
    fakes_lenient: bool = False


def __getattr__(name: str) -> Any:
    # Toolscore's plugin module holds these classes; ours loads them on first use.
    if name == "SnapshotFixture":
        from toolscore._engine.snapshots.fixture import SnapshotFixture

        return SnapshotFixture
    if name == "ToolscoreAssertions":
        from toolscore._engine.check.metric_assertions import ToolscoreAssertions

        return ToolscoreAssertions
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_OPTIONS = pytest.StashKey[_Options]()
_COUNTS = pytest.StashKey["SnapshotCounts"]()


_PATHS = (
    ("gold_dir", "tests/gold_standards", "folder of gold files for toolscore_eval"),
    ("trace_dir", "tests/traces", "folder of trace files for toolscore_eval"),
    ("snapshot_dir", ".toolscore/snapshots", "folder of snapshot files, relative to the rootdir"),
)
_FLAGS = (
    (
        "update",
        "re-record the snapshots the tests use, approved; matchers that still match are kept "
        f"(also {UPDATE_ENV}=1)",
    ),
    (
        "allow_pending",
        "in CI, let a missing or unapproved snapshot pass with a warning instead of failing",
    ),
    (
        "fakes_lenient",
        "toolscore_tools: warn instead of failing on unused registrations and unexpected calls",
    ),
)


def pytest_addoption(parser: pytest.Parser) -> None:
    """Register the ``--toolscore-*`` options and their ini twins (``toolscore_*``)."""
    group = parser.getgroup("toolscore", "tool-call evaluation (toolscore)")
    for name, default, what in _PATHS:
        also = f"; also {DIR_ENV}" if name == "snapshot_dir" else ""
        group.addoption(
            "--toolscore-" + name.replace("_", "-"),
            action="store",
            default=None,
            metavar="PATH",
            help=f"{what} (default: {default}{also}; ini: toolscore_{name})",
        )
        parser.addini(f"toolscore_{name}", f"{what} (default: {default})", default="")
    for name, what in _FLAGS:
        group.addoption(
            "--toolscore-" + name.replace("_", "-"),
            action="store_true",
            default=None,
            help=f"{what} (ini: toolscore_{name})",
        )
        parser.addini(f"toolscore_{name}", what, type="bool", default=False)


def _env_update() -> bool:
    raw = os.environ.get(UPDATE_ENV, "").strip().lower()
    if raw in _TRUE:
        return True
    if raw in _FALSE:
        return False
    raise pytest.UsageError(
        f"{UPDATE_ENV}={os.environ[UPDATE_ENV]!r} is not a yes/no value; "
        "set it to 1 (re-record snapshots) or 0, or unset it"
    )


def _resolve(config: pytest.Config) -> _Options:
    def path(name: str, env: str = "") -> Path:
        default = next(d for n, d, _ in _PATHS if n == name)
        given = (
            config.getoption(f"toolscore_{name}")
            or config.getini(f"toolscore_{name}")
            or (os.environ.get(env) if env else None)
            or default
        )
        return Path(str(given))

    def flag(name: str) -> bool:
        given = config.getoption(f"toolscore_{name}")
        return bool(config.getini(f"toolscore_{name}")) if given is None else bool(given)

    root = Path(config.rootpath) / path("snapshot_dir", DIR_ENV)  # an absolute path stays
    if root.exists() and not root.is_dir():
        raise pytest.UsageError(
            f"--toolscore-snapshot-dir: {root} is a file; snapshots need a folder "
            "(pass another path, or remove the file)"
        )
    return _Options(
        gold_dir=path("gold_dir"),
        trace_dir=path("trace_dir"),
        snapshot_root=root,
        update=flag("update") or _env_update(),
        allow_pending=flag("allow_pending"),
        fakes_lenient=flag("fakes_lenient"),
    )


def pytest_configure(config: pytest.Config) -> None:
    """Register the marker, resolve the options, join the run's scoring session."""
    from scorekit.pytest_state import ensure_session

    config.addinivalue_line(
        "markers", "toolscore: a test that scores an agent's tool calls with toolscore"
    )
    config.stash[_OPTIONS] = _resolve(config)
    ensure_session(config)


def _options(config: pytest.Config) -> _Options:
    options = config.stash.get(_OPTIONS, None)
    if options is None:  # a plugin loaded after configure (pytester in-process runs)
        options = config.stash[_OPTIONS] = _resolve(config)
    return options


def _counts(config: pytest.Config) -> SnapshotCounts:
    counts = config.stash.get(_COUNTS, None)
    if counts is None:
        from toolscore._engine.snapshots.fixture import SnapshotCounts

        counts = config.stash[_COUNTS] = SnapshotCounts()
    return counts


@pytest.fixture
def toolscore_snapshot(request: pytest.FixtureRequest) -> SnapshotFixture:
    """Snapshot test for the tool calls of this test: ``toolscore_snapshot(actual)``.

    The first run records the calls as a pending snapshot (named after the test) and warns;
    after ``toolscore approve NAME`` each run replays against the approved calls and fails,
    with a diff, when they drift. See :mod:`toolscore.snapshots`.

    Example:
        def test_books_a_flight(toolscore_snapshot):
            toolscore_snapshot(my_agent("book a flight to NYC"))
    """
    from toolscore._engine.snapshots.fixture import SnapshotFixture
    from toolscore.snapshots import SnapshotStore

    options = _options(request.config)
    return SnapshotFixture(
        request.node.nodeid,
        SnapshotStore(options.snapshot_root),
        update=options.update,
        allow_pending=options.allow_pending,
        counts=_counts(request.config),
    )


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """On a pytest-xdist worker, send the snapshot counts to the controller."""
    counts = session.config.stash.get(_COUNTS, None)
    output = getattr(session.config, "workeroutput", None)
    if counts is not None and output is not None:
        output[WORKER_KEY] = counts.as_dict()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """On the pytest-xdist controller, add a worker's snapshot counts."""
    data = (getattr(node, "workeroutput", None) or {}).get(WORKER_KEY)
    if isinstance(data, dict):
        _counts(node.config).add(data)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """One line with what the snapshot fixture did, when it was used."""
    if hasattr(config, "workerinput"):
        return
    counts = config.stash.get(_COUNTS, None)
    line = counts.summary_line() if counts is not None else None
    if line:
        terminalreporter.write_line(line)


@pytest.fixture
def toolscore_tools(request: pytest.FixtureRequest) -> Iterator[FakeTools]:
    """Fake tools for the agent under test (:class:`toolscore.fakes.FakeTools`).

    Register answers with ``toolscore_tools.add(tool, args, result=...)``; hand the agent
    ``toolscore_tools.call``, ``.answer(response)`` or ``.serve_mcp()``. At teardown a
    registration never used (and not ``optional``) or a call no registration matched fails
    the test; ``--toolscore-fakes-lenient`` (ini ``toolscore_fakes_lenient``) makes both
    warnings.

    Example:
        def test_weather(toolscore_tools):
            toolscore_tools.add("get_weather", {"city": "NYC"}, result={"temp_c": 21})
            assert my_agent("weather in NYC?", tools=toolscore_tools) == "21 C"
    """
    from toolscore.fakes import FakeTools

    fakes = FakeTools()
    yield fakes
    text = fakes.failure_text()
    if text is None:
        return
    if _options(request.config).fakes_lenient:
        warnings.warn(text, UserWarning, stacklevel=1)
    else:
        pytest.fail(text, pytrace=False)


@pytest.fixture
def toolscore_assert_tools() -> Callable[..., EvaluationResult]:
    """The :func:`toolscore.assert_tools` function.

    Example:
        def test_agent(toolscore_assert_tools):
            toolscore_assert_tools(expected=[{"tool": "search"}], actual=my_agent("x"))
    """
    from toolscore._engine.check.assertions import assert_tools

    return assert_tools


@pytest.fixture
def toolscore_assert() -> ToolscoreAssertions:
    """Metric-by-metric assertion helpers (:class:`ToolscoreAssertions`).

    Example:
        def test_agent(toolscore_eval, toolscore_assert):
            result = toolscore_eval("gold.json", "trace.json")
            toolscore_assert.assert_invocation_accuracy(result, 0.9)
    """
    from toolscore._engine.check.metric_assertions import ToolscoreAssertions

    return ToolscoreAssertions()


@pytest.fixture
def toolscore_gold_dir(request: pytest.FixtureRequest) -> Path:
    """The gold folder (``--toolscore-gold-dir``), relative to the working directory."""
    return _options(request.config).gold_dir


@pytest.fixture
def toolscore_trace_dir(request: pytest.FixtureRequest) -> Path:
    """The trace folder (``--toolscore-trace-dir``), relative to the working directory."""
    return _options(request.config).trace_dir


@pytest.fixture
def toolscore_eval(
    toolscore_gold_dir: Path, toolscore_trace_dir: Path
) -> Callable[..., EvaluationResult]:
    """``toolscore_eval(gold_file, trace_file, format="auto", validate_side_effects=True)``.

    Evaluates a trace file against a gold file with :func:`toolscore.evaluate_trace`. A
    relative name is looked up in the gold (trace) folder; an absolute path is used as it is.

    Example:
        def test_agent(toolscore_eval):
            result = toolscore_eval("gold_calls.json", "trace.json")
            assert result.metrics["invocation_accuracy"] >= 0.9
    """

    def run(
        gold_file: str | os.PathLike[str],
        trace_file: str | os.PathLike[str],
        format: str = "auto",
        validate_side_effects: bool = True,
        **kwargs: Any,
    ) -> EvaluationResult:
        from toolscore._engine.check.evaluate_trace import evaluate_trace

        # An absolute name replaces the folder when joined.
        gold, trace = toolscore_gold_dir / gold_file, toolscore_trace_dir / trace_file
        return evaluate_trace(
            gold, trace, format, validate_side_effects=validate_side_effects, **kwargs
        )

    return run
