"""The snapshot state machine: what one check of a snapshot does, and its failure text.

:func:`check_snapshot` returns what happened (the states are listed at :func:`snapshot_check`);
``snapshot_check`` and the pytest fixture turn it into a warning, a result or a counted outcome.
"""

from __future__ import annotations

import os
import shlex
import time
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scorekit.format import format_bound, format_score
from toolscore._engine.snapshots.drift import calls_diff, carry_over, encode_calls
from toolscore._engine.snapshots.files import shown_path
from toolscore._engine.snapshots.store import Snapshot, SnapshotStore, SnapshotWarning

if TYPE_CHECKING:
    from toolscore._engine.score.result import EvaluationResult

__all__ = ["SnapshotOutcome", "check_snapshot", "snapshot_check"]


def _in_ci() -> bool:
    """True when the ``CI`` environment variable says so (read at call time)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _approve_command(name: str) -> str:
    return f"toolscore approve {shlex.quote(name)}"


def _plain_calls(actual: Any) -> list[dict[str, Any]]:
    """``actual`` read as ``evaluate`` reads it (call dicts, ``ToolCall`` objects, provider
    responses), kept as tool and arguments only: a snapshot records calls, not results."""
    from toolscore._engine.read.inputs import actual_calls

    read = actual_calls(actual)
    return [{"tool": t, "args": a or {}} for t, a in zip(read.tools, read.args, strict=True)]


@dataclass
class SnapshotOutcome:
    """What :func:`check_snapshot` did: ``created``, ``updated``, ``pending`` or ``passed``."""

    status: str
    result: EvaluationResult | None = None
    message: str = ""


def check_snapshot(
    name: str,
    actual: Any,
    *,
    store: SnapshotStore,
    update: bool = False,
    min_score: float = 1.0,
    weights: dict[str, float] | None = None,
    strict: bool = False,
    allow_pending: bool = False,
) -> SnapshotOutcome:
    """The snapshot state machine behind :func:`snapshot_check` and the pytest fixture."""
    __tracebackhide__ = True
    from toolscore._engine.check.failure import ToolScoreAssertionError, check_min_score, record_row
    from toolscore._engine.score.evaluate import evaluate

    started = time.perf_counter()
    threshold = check_min_score(min_score)
    calls = _plain_calls(actual)
    existing = store.load(name)
    path = shown_path(store.path_for(name))
    ci = _in_ci() and not allow_pending

    if existing is not None:
        result = evaluate(existing.calls, calls, weights=weights, strict=strict)
        merged = carry_over(existing.calls, calls, result)
        changed = encode_calls(merged, "calls") != encode_calls(existing.calls, "calls")

    if update:
        if existing is None:
            existing = Snapshot(name=name, calls=calls, approved=True)
        elif not changed and existing.approved:
            # Nothing to re-record: a plain replay, without a warning per unchanged test.
            record_row("snapshot_check", result, threshold, True, started)
            store.discard_change(name)
            return SnapshotOutcome("passed", result)
        else:
            existing.calls, existing.approved = merged, True
        store.save(existing)
        store.discard_change(name)
        return SnapshotOutcome(
            "updated",
            message=f"snapshot {name!r} updated and approved ({len(calls)} call(s); "
            f"matchers that still match were kept): {path}",
        )

    if existing is None:
        if ci:
            raise ToolScoreAssertionError(
                f"Snapshot {name!r} does not exist, and snapshots cannot be created in CI "
                "(the CI environment variable is set).\n"
                f"Hint: run the test locally to record {path}, review it, approve it with "
                f"`{_approve_command(name)}` and commit it (or pass --toolscore-allow-pending "
                "to let missing snapshots pass in CI)."
            )
        store.save(Snapshot(name=name, calls=calls, approved=False))
        return SnapshotOutcome(
            "created",
            message=f"snapshot {name!r} created with {len(calls)} call(s), pending approval: "
            f"review {path}, then run `{_approve_command(name)}`",
        )

    if not existing.approved:
        if ci:
            diff = calls_diff(existing.calls, merged, "recorded", "this run") if changed else []
            raise ToolScoreAssertionError(
                "\n".join(
                    [
                        f"Snapshot {name!r} is pending approval, and an unapproved snapshot "
                        "cannot be used as a baseline in CI (the CI environment variable is set).",
                        *(["", *diff] if diff else []),
                        f"Hint: review {path}, approve it locally with "
                        f"`{_approve_command(name)}` and commit it.",
                    ]
                ),
                result=result,
            )
        if changed:
            existing.calls = merged
            store.save(existing)
        again = " (re-recorded: this run's calls differ from the recorded ones)" if changed else ""
        return SnapshotOutcome(
            "pending",
            message=f"snapshot {name!r} pending approval{again}: review {path}, then run "
            f"`{_approve_command(name)}`",
        )

    passed = result.score >= threshold
    # A replay is an evaluation like assert_tools: it becomes a row of the run's report.
    record_row("snapshot_check", result, threshold, passed, started)
    if passed:
        store.discard_change(name)
        return SnapshotOutcome("passed", result)
    if not ci:
        store.save_change(Snapshot(name=name, calls=merged, source=existing.source))
    raise ToolScoreAssertionError(
        _drift_message(name, existing, merged, result, threshold, store, recorded=not ci),
        result=result,
        min_score=threshold,
    )


def _drift_message(
    name: str,
    approved: Snapshot,
    merged: list[dict[str, Any]],
    result: EvaluationResult,
    threshold: float,
    store: SnapshotStore,
    recorded: bool,
) -> str:
    from toolscore._engine.score.render import render_result

    path = shown_path(store.path_for(name))
    diff = calls_diff(approved.calls, merged, f"approved  {path}", "this run")
    if recorded:
        change = shown_path(store.change_path_for(name))
        hint = (
            f"If the new calls are right, accept them with `{_approve_command(name)}` (this "
            f"run's calls are kept as a pending change in {change})"
            " or re-run with --toolscore-update; if a value may differ from run to run, write "
            'a matcher in the snapshot instead, such as {"$any": true} or {"$regex": "..."}.'
        )
    else:
        hint = (
            "If the new calls are right, re-record the snapshot locally (pytest "
            "--toolscore-update), review the diff and commit it."
        )
    details = render_result(result, min_score=threshold, hint=hint).splitlines()[1:]
    head = (
        f"Tool calls drifted from the approved snapshot {name!r}: score"
        f" {format_score(result.score, threshold)} (grade {result.grade}), below the required"
        f" {format_bound(threshold)}."
    )
    changes = ["", "Changes (- approved, + this run):", *diff] if diff else []
    return "\n".join([head, *changes, *details])


def snapshot_check(
    name: str,
    actual: Any,
    *,
    store: SnapshotStore | None = None,
    update: bool = False,
    min_score: float = 1.0,
    weights: dict[str, float] | None = None,
    strict: bool = False,
    allow_pending: bool = False,
) -> EvaluationResult | None:
    """Record, approve and replay the snapshot called ``name``.

    ``actual`` (a provider response or a call list, read with
    :func:`toolscore.auto_extract`) is handled by the snapshot's state:

    1. **missing**: recorded as a pending snapshot with a :class:`SnapshotWarning`; returns
       ``None``. In CI (the ``CI`` environment variable set) the call fails instead and
       writes nothing, unless ``allow_pending``.
    2. ``update=True``: this run's calls become the approved snapshot (matchers that still
       match are kept); returns ``None`` (or, when the approved snapshot already matches this
       run exactly, the replay's result, without a warning).
    3. **pending** (recorded, not approved): a warning (the recording is refreshed if the calls
       changed); returns ``None``. In CI it fails, unless ``allow_pending``.
    4. **approved**: the calls are evaluated against it; returns the
       :class:`~toolscore.core.EvaluationResult` when the score reaches ``min_score``, else
       fails with the diff and keeps this run's calls as a pending change (not in CI).

    Args:
        name: the snapshot's identifier (the fixture passes the pytest node id).
        actual: the agent's calls or its provider response.
        store: where snapshots live (default: ``SnapshotStore()``, ``.toolscore/snapshots``).
        update: re-record and approve.
        min_score: the score a replay needs (default 1.0: the calls as approved).
        weights: custom score weights, as for :func:`toolscore.evaluate`.
        strict: exact types and values, as for :func:`toolscore.evaluate`.
        allow_pending: in CI, treat a missing or pending snapshot as locally (a warning).

    Raises:
        ToolScoreAssertionError: drift from the approved calls, or a missing or pending
            snapshot in CI; the message shows the diff and how to accept the change.
    """
    __tracebackhide__ = True
    outcome = check_snapshot(
        name,
        actual,
        store=store if store is not None else SnapshotStore(),
        update=update,
        min_score=min_score,
        weights=weights,
        strict=strict,
        allow_pending=allow_pending,
    )
    if outcome.message:
        warnings.warn(outcome.message, SnapshotWarning, stacklevel=2)
    return outcome.result
