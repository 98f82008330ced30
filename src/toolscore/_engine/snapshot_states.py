"""The snapshot state machine: what one check of a snapshot does, and its failure text.

States: missing (record, or fail in CI), pending (warn, re-record a change, or fail in CI),
approved (replay: pass, or fail with the diff and keep this run's calls as a pending change),
and the update mode (re-record, keeping matchers that still match). :func:`check_snapshot`
returns what happened; ``toolscore.snapshots.snapshot_check`` and the pytest fixture turn it into
a warning, a result or a counted outcome.
"""

from __future__ import annotations

import os
import shlex
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scorekit._rounding import format_bound, format_score
from toolscore._engine.snapshot_drift import calls_diff, carry_over, encode_calls
from toolscore._engine.snapshot_files import shown_path
from toolscore._engine.snapshot_store import Snapshot, SnapshotStore

if TYPE_CHECKING:
    from toolscore._engine.result import EvaluationResult

__all__ = ["SnapshotOutcome", "check_snapshot"]


def _in_ci() -> bool:
    """True when the ``CI`` environment variable says so (read at call time)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _approve_command(name: str) -> str:
    return f"toolscore approve {shlex.quote(name)}"


def _plain_calls(actual: Any) -> list[dict[str, Any]]:
    """``actual`` read as ``evaluate`` reads it (call dicts, ``ToolCall`` objects, provider
    responses), kept as tool and arguments only: a snapshot records calls, not results."""
    from toolscore._engine.calls import actual_calls

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
    """The snapshot state machine behind :func:`snapshot_check` and the pytest fixture.

    Raises:
        ToolScoreAssertionError: drift from the approved calls (with the diff), or, in CI
            without ``allow_pending``, a missing or unapproved snapshot.
    """
    __tracebackhide__ = True
    from toolscore._engine.assertions import ToolScoreAssertionError, check_min_score, record_row
    from toolscore._engine.evaluate import evaluate

    started = time.perf_counter()
    threshold = check_min_score(min_score)
    calls = _plain_calls(actual)
    existing = store.load(name)
    path = shown_path(store.path_for(name))
    ci = _in_ci() and not allow_pending

    if update:
        if existing is None:
            existing = Snapshot(name=name, calls=calls, approved=True)
        else:
            result = evaluate(existing.calls, calls, weights=weights, strict=strict)
            merged = carry_over(existing.calls, calls, result)
            same = encode_calls(merged, "calls") == encode_calls(existing.calls, "calls")
            if same and existing.approved:
                # Nothing to re-record: a plain replay, without a warning per unchanged test.
                record_row("snapshot_check", result, threshold, True, time.perf_counter() - started)
                store.discard_change(name)
                return SnapshotOutcome("passed", result)
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

    result = evaluate(existing.calls, calls, weights=weights, strict=strict)
    merged = carry_over(existing.calls, calls, result)
    changed = encode_calls(merged, "calls") != encode_calls(existing.calls, "calls")

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
    record_row("snapshot_check", result, threshold, passed, time.perf_counter() - started)
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
    from toolscore._engine.render import render_result

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
