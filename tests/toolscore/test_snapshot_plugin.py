"""The toolscore_snapshot fixture and its options, end to end through pytest (pytester)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolscore.cli import main

AGENT_TEST = """
import os
import pytest

def agent(prompt):
    city = os.environ.get("CITY", "NYC")
    day = os.environ.get("DAY", "01")
    args = json.dumps({"to": city, "date": "2025-01-" + day})
    return {"choices": [{"message": {"role": "assistant", "tool_calls": [
        {"id": "c1", "type": "function",
         "function": {"name": "search_flights", "arguments": args}},
        {"id": "c2", "type": "function",
         "function": {"name": "book", "arguments": '{"id": 7}'}},
    ]}}]}

import json

@pytest.mark.toolscore
def test_booking(toolscore_snapshot):
    toolscore_snapshot(agent("book a flight to NYC"))
"""

NODE = "test_agent.py::test_booking"


@pytest.fixture(autouse=True)
def _not_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("CI", "TOOLSCORE_RECORD_UPDATE", "TOOLSCORE_SNAPSHOT_DIR"):
        monkeypatch.delenv(name, raising=False)


def _snapshot_files(root: Path) -> list[str]:
    return sorted(p.name for p in root.iterdir()) if root.is_dir() else []


def test_the_whole_workflow(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytester.makepyfile(test_agent=AGENT_TEST)
    root = pytester.path / ".toolscore" / "snapshots"

    # 1. record: the test passes, warns, and the summary says what happened
    result = pytester.runpytest("--strict-markers")
    result.assert_outcomes(passed=1, warnings=1)
    result.stdout.fnmatch_lines(
        [
            f"*SnapshotWarning: snapshot '{NODE}' created with 2 call(s), pending approval: "
            "review .toolscore/snapshots/test_agent.py__test_booking-*.json, then run "
            f"`toolscore approve {NODE}`",
            "toolscore: 1 snapshot created (pending approval)",
        ]
    )
    (snapshot_file,) = _snapshot_files(root)

    # 2. approve with the CLI
    assert main(["approve", "--all"]) == 0
    out = capsys.readouterr().out
    assert f"{NODE}      2  new snapshot" in out
    assert json.loads((root / snapshot_file).read_text())["approved"] is True

    # 3. check: the replay passes
    result = pytester.runpytest()
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["toolscore: 1 passed"])

    # 4. change: the test fails with the diff and keeps the change pending
    monkeypatch.setenv("CITY", "Boston")
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            f"E       toolscore.ToolScoreAssertionError: Tool calls drifted from the approved "
            f"snapshot '{NODE}': score 0.9000 (grade A), below the required 1.0.",
            "E       Changes (- approved, + this run):",
            "E       --- approved  .toolscore/snapshots/test_agent.py__test_booking-*.json",
            "E       +++ this run",
            'E       -      "to": "NYC"',
            'E       +      "to": "Boston"',
            "E              to: expected 'NYC', actual 'Boston' (NOT ok)",
            "E       Hint: If the new calls are right, accept them with `toolscore approve *",
            "toolscore: 1 failed",
        ]
    )
    assert _snapshot_files(root) == [snapshot_file, snapshot_file + ".new"]
    result = pytester.runpytest()  # a pending change keeps failing
    result.assert_outcomes(failed=1)

    capsys.readouterr()
    assert main(["snapshots", "list"]) == 0
    listed = [line.split() for line in capsys.readouterr().out.splitlines()]
    assert listed[1][0] == NODE and listed[1][1:3] == ["changed", "2"]

    # 5. update: re-record and approve in one go
    monkeypatch.setenv("DAY", "02")
    result = pytester.runpytest("--toolscore-update")
    result.assert_outcomes(passed=1, warnings=1)
    result.stdout.fnmatch_lines(["*snapshot '*' updated and approved*", "toolscore: 1 updated"])
    assert _snapshot_files(root) == [snapshot_file]
    calls = json.loads((root / snapshot_file).read_text())["calls"]
    assert calls[0]["args"] == {"to": "Boston", "date": "2025-01-02"}

    # 6. a matcher written into the approved snapshot accepts other days
    data = json.loads((root / snapshot_file).read_text())
    data["calls"][0]["args"]["date"] = {"$regex": r"2025-01-\d\d"}
    (root / snapshot_file).write_text(json.dumps(data))
    monkeypatch.setenv("DAY", "17")
    result = pytester.runpytest()
    result.assert_outcomes(passed=1)
    monkeypatch.setenv("CITY", "Paris")
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(['E *"date": {"$regex": "2025-01-\\\\d\\\\d"},'])
    assert main(["approve", NODE]) == 0
    kept = json.loads((root / snapshot_file).read_text())["calls"][0]["args"]
    assert kept == {"to": "Paris", "date": {"$regex": r"2025-01-\d\d"}}


def test_marker_is_registered_under_strict_markers(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.toolscore
        def test_marked():
            pass
        """
    )
    result = pytester.runpytest("--strict-markers")
    result.assert_outcomes(passed=1)
    result = pytester.runpytest("--markers")
    result.stdout.fnmatch_lines(["@pytest.mark.toolscore: *"])


def test_unnamed_calls_get_numbered_and_names_can_be_given(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_many="""
        def test_many(toolscore_snapshot):
            toolscore_snapshot([{"tool": "a", "args": {}}])
            toolscore_snapshot([{"tool": "b", "args": {}}])
            toolscore_snapshot([{"tool": "c", "args": {}}], name="custom")
            assert toolscore_snapshot.store.exists("test_many.py::test_many-2")
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, warnings=3)
    result.stdout.fnmatch_lines(["toolscore: 3 snapshots created (pending approval)"])
    names = sorted(
        json.loads(p.read_text())["name"]
        for p in (pytester.path / ".toolscore" / "snapshots").glob("*.json")
    )
    assert names == ["custom", "test_many.py::test_many", "test_many.py::test_many-2"]


def test_ini_twins(pytester: pytest.Pytester) -> None:
    pytester.makeini(
        """
        [pytest]
        toolscore_snapshot_dir = snaps
        toolscore_update = true
        """
    )
    pytester.makepyfile(test_agent=AGENT_TEST)
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, warnings=1)
    result.stdout.fnmatch_lines(["toolscore: 1 updated"])
    (name,) = _snapshot_files(pytester.path / "snaps")
    assert json.loads((pytester.path / "snaps" / name).read_text())["approved"] is True
    # the command line wins over the ini file
    result = pytester.runpytest("--toolscore-snapshot-dir=other")
    assert _snapshot_files(pytester.path / "other") == [name]


def test_update_from_the_environment(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(test_agent=AGENT_TEST)
    monkeypatch.setenv("TOOLSCORE_RECORD_UPDATE", "1")
    pytester.runpytest().stdout.fnmatch_lines(["toolscore: 1 updated"])
    monkeypatch.setenv("TOOLSCORE_RECORD_UPDATE", "maybe")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["ERROR: TOOLSCORE_RECORD_UPDATE='maybe' is not a yes/no value; set it to 1 *"]
    )


def test_snapshot_dir_that_is_a_file_is_a_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makefile(".txt", snaps="not a folder")
    result = pytester.runpytest("--toolscore-snapshot-dir=snaps.txt")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: --toolscore-snapshot-dir: *snaps.txt is a file; *"])


def test_ci_fails_on_missing_snapshots_unless_allowed(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(test_agent=AGENT_TEST)
    monkeypatch.setenv("CI", "true")
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            f"E   *Snapshot '{NODE}' does not exist, and snapshots cannot be created in CI *",
            "toolscore: 1 failed",
        ]
    )
    assert not (pytester.path / ".toolscore").exists()
    result = pytester.runpytest("--toolscore-allow-pending")
    result.assert_outcomes(passed=1, warnings=1)
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([f"E   *Snapshot '{NODE}' is pending approval, and *"])


def test_snapshot_dir_from_the_environment(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    pytester.makepyfile(test_agent=AGENT_TEST)
    target = tmp_path / "elsewhere"
    monkeypatch.setenv("TOOLSCORE_SNAPSHOT_DIR", str(target))
    pytester.runpytest().assert_outcomes(passed=1, warnings=1)
    assert len(_snapshot_files(target)) == 1


def test_counts_are_merged_across_xdist_workers(pytester: pytest.Pytester) -> None:
    pytest.importorskip("xdist")
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.parametrize("n", range(6))
        def test_n(toolscore_snapshot, n):
            toolscore_snapshot([{"tool": "t", "args": {"n": n}}])
        """
    )
    result = pytester.runpytest_subprocess("-n", "2", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=6, warnings=6)
    result.stdout.fnmatch_lines(["toolscore: 6 snapshots created (pending approval)"])
    root = pytester.path / ".toolscore" / "snapshots"
    assert len(_snapshot_files(root)) == 6
    assert not [p for p in root.iterdir() if p.name.startswith(".")]  # no temp files left


def test_replays_are_report_rows(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_agent=AGENT_TEST)
    pytester.makeconftest(
        """
        def pytest_sessionfinish(session):
            from scorekit.pytest_state import get_session
            rows = get_session(session.config).recorder.rows
            print("ROWS", ";".join(f"{r.function}/{r.outcome}/{r.test_id}" for r in rows))
        """
    )
    pytester.runpytest().assert_outcomes(passed=1, warnings=1)  # recording: no evaluation
    assert main(["approve", "--all"]) == 0
    result = pytester.runpytest("-s")
    result.stdout.fnmatch_lines([f"*ROWS snapshot_check/passed/{NODE}"])
