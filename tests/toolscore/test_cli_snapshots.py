"""toolscore record / approve / snapshots list|show|rm, --version and the tool-scorer alias."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from toolscore.cli import main
from toolscore.snapshots import Snapshot, SnapshotStore

TRACE = [
    {"tool": "search_flights", "args": {"to": "NYC", "date": "2025-01-01"}},
    {"tool": "book", "args": {"id": 7}},
]


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("CI", "TOOLSCORE_RECORD_UPDATE", "TOOLSCORE_SNAPSHOT_DIR"):
        monkeypatch.delenv(name, raising=False)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _trace(path: str, calls: list[dict[str, object]]) -> str:
    Path(path).write_text(json.dumps(calls))
    return path


def test_version_and_alias(capsys: pytest.CaptureFixture[str]) -> None:
    from toolscore import __version__

    code, out, _ = _run(capsys, "--version")
    assert (code, out) == (0, f"toolscore, version {__version__}\n")
    scripts = {ep.name: ep.value for ep in entry_points(group="console_scripts")}
    assert scripts["tool-scorer"] == scripts["toolscore"] == "toolscore.cli:main"


def test_record_from_a_trace_then_approve(capsys: pytest.CaptureFixture[str]) -> None:
    trace = _trace("trace.json", TRACE)
    code, out, err = _run(capsys, "record", "--from-trace", trace, "--name", "booking")
    assert (code, err) == (0, "")
    assert out == (
        "Recorded snapshot 'booking' (2 call(s)), pending approval: "
        ".toolscore/snapshots/booking-" + SnapshotStore().path_for("booking").name[8:] + "\n"
        "Review it, then run: toolscore approve booking\n"
    )
    snap = SnapshotStore().load("booking")
    assert snap is not None and snap.source == "trace" and not snap.approved
    assert snap.calls == TRACE

    code, out, err = _run(capsys, "record", "--from-trace", trace, "--name", "booking")
    assert code == 2 and out == ""
    assert err == (
        "toolscore: error: snapshot 'booking' already exists (.toolscore/snapshots/"
        f"{SnapshotStore().path_for('booking').name}); pass --update to re-record and approve it\n"
    )

    code, out, _ = _run(capsys, "approve", "booking")
    assert code == 0
    assert out.splitlines() == [
        "name     calls  approved",
        "booking      2  new snapshot",
        "Approved 1 snapshot(s) in .toolscore/snapshots.",
    ]


def test_record_update_keeps_matchers(capsys: pytest.CaptureFixture[str]) -> None:
    from toolscore import ANY

    store = SnapshotStore()
    store.save(Snapshot("s", [{"tool": "search_flights", "args": {"to": "NYC", "date": ANY}}]))
    trace = _trace("t.json", [{"tool": "search_flights", "args": {"to": "LA", "date": "x"}}])
    code, out, _ = _run(capsys, "record", "--from-trace", trace, "--name", "s", "--update")
    assert code == 0 and out.startswith("Updated snapshot 's' (1 call(s)), approved: ")
    snap = store.load("s")
    assert snap is not None and snap.approved
    assert snap.calls == [{"tool": "search_flights", "args": {"to": "LA", "date": ANY}}]
    assert snap.calls[0]["args"]["date"] is ANY


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["record"], "give a command to run (toolscore record -- pytest tests/) or a trace file"),
        (["record", "--from-trace", "t.json"], "--from-trace needs --name NAME"),
        (["record", "--from-trace", "t.json", "--name", "x", "--", "pytest"], "use either"),
        (["record", "--name", "x", "--", "pytest"], "--name goes with --from-trace"),
        (["record", "--from-trace", "missing.json", "--name", "x"], "missing.json: no such file"),
        (["approve"], "give the snapshot names to approve, or --all"),
        (["approve", "x", "--all"], "give snapshot names or --all, not both"),
        (["snapshots", "show", "nope"], "no snapshot named 'nope' in .toolscore/snapshots"),
        (["record", "--", "no-such-command-xyz"], "no-such-command-xyz: command not found"),
    ],
)
def test_bad_input_is_one_line_and_exit_two(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    _trace("t.json", TRACE)
    code, _, err = _run(capsys, *argv)
    assert code == 2
    assert err.startswith("toolscore: error: ") and err.count("\n") == 1
    assert message in err


def test_unknown_names_get_a_suggestion(capsys: pytest.CaptureFixture[str]) -> None:
    SnapshotStore().save(Snapshot("tests/test_agent.py::test_booking", TRACE))
    code, _, err = _run(capsys, "approve", "tests/test_agent.py::test_bookin")
    assert code == 2
    assert err.endswith("did you mean 'tests/test_agent.py::test_booking'?\n")


def test_approve_takes_a_file_path_and_all(capsys: pytest.CaptureFixture[str]) -> None:
    store = SnapshotStore()
    path = store.save(Snapshot("a::b", TRACE))
    store.save(Snapshot("c", TRACE))
    store.save(Snapshot("d", TRACE, approved=True))
    code, out, _ = _run(capsys, "approve", str(path))
    assert code == 0 and "a::b" in out
    code, out, _ = _run(capsys, "approve", "--all")
    assert code == 0 and out.splitlines()[1:] == [
        "c         2  new snapshot",
        "Approved 1 snapshot(s) in .toolscore/snapshots.",
    ]
    code, out, _ = _run(capsys, "approve", "--all")
    assert out == "Nothing to approve: no pending snapshots in .toolscore/snapshots.\n"


def test_list_show_rm(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "snapshots", "list")
    assert (code, out) == (0, "No snapshots in .toolscore/snapshots.\n")
    store = SnapshotStore("snaps")
    stamp = "2025-03-04T05:06:07+00:00"
    store.save(Snapshot("new", TRACE[:1], created_at=stamp))
    store.save(Snapshot("old", TRACE, approved=True, created_at=stamp))
    store.save_change(Snapshot("old", [TRACE[0], {"tool": "book", "args": {"id": 8}}]))
    store.save(Snapshot("same", TRACE, approved=True, source="trace", created_at=stamp))

    code, out, _ = _run(capsys, "snapshots", "list", "--dir", "snaps")
    rows = [line.split() for line in out.splitlines()]
    assert rows[0] == ["name", "status", "calls", "updated", "source"]
    assert [(r[0], r[1], r[2], r[-1]) for r in rows[1:4]] == [
        ("new", "pending", "1", "pytest"),
        ("old", "changed", "2", "pytest"),
        ("same", "approved", "2", "trace"),
    ]
    assert out.splitlines()[-1] == (
        "3 snapshot(s): 1 approved, 1 with a pending change, 1 pending approval."
    )
    code, out, _ = _run(capsys, "snapshots", "list", "--pending", "--dir", "snaps")
    assert [line.split()[0] for line in out.splitlines()[1:3]] == ["new", "old"]

    code, out, _ = _run(capsys, "snapshots", "show", "old", "--dir", "snaps")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Snapshot: old (approved; a change is pending approval)"
    assert lines[1] == f"File:     snaps/{store.path_for('old').name}"
    assert lines[3] == f"Created:  {stamp}"
    assert lines[5:] == [
        "Calls:    2",
        "",
        "1. search_flights",
        "   {",
        '     "date": "2025-01-01",',
        '     "to": "NYC"',
        "   }",
        "",
        "2. book",
        "   {",
        '     "id": 7',
        "   }",
        "",
        "Pending change (- approved, + pending):",
        "--- approved",
        "+++ pending",
        "@@ -8,7 +8,7 @@",
        "   },",
        "   {",
        '     "args": {',
        '-      "id": 7',
        '+      "id": 8',
        "     },",
        '     "tool": "book"',
        "   }",
        "",
        "Accept it with: toolscore approve old",
    ]

    code, _, err = _run(capsys, "snapshots", "rm", "old", "--dir", "snaps")
    assert code == 2 and "not deleting 'old' without confirmation; pass --yes" in err
    code, out, _ = _run(capsys, "snapshots", "rm", "old", "--yes", "--dir", "snaps")
    assert (code, out) == (0, "Deleted snapshot 'old'.\n")
    assert not store.exists("old") and not store.change_path_for("old").exists()


def test_record_runs_the_command_with_the_update_flag(
    capsys: pytest.CaptureFixture[str],
) -> None:
    probe = (
        "import os, sys; "
        "sys.exit(3 if os.environ.get('TOOLSCORE_RECORD_UPDATE') == '1' "
        "and os.environ.get('TOOLSCORE_SNAPSHOT_DIR', '').endswith('my-snaps') else 4)"
    )
    code, out, _ = _run(
        capsys, "record", "--update", "--dir", "my-snaps", "--", sys.executable, "-c", probe
    )
    assert code == 3
    assert out.splitlines()[-1] == "The command exited with code 3."
    code, _, _ = _run(capsys, "record", "--", sys.executable, "-c", probe)
    assert code == 4


def test_record_runs_pytest_and_lists_what_waits(tmp_path: Path) -> None:
    (tmp_path / "test_agent.py").write_text(
        "def test_a(toolscore_snapshot):\n"
        "    toolscore_snapshot([{'tool': 'search', 'args': {'q': 'x'}}])\n"
    )
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "toolscore.cli",
            "record",
            "--",
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "test_agent.py",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("Recording snapshots: ")
    assert lines[-1] == (
        "1 snapshot(s) wait for approval in .toolscore/snapshots: review them "
        "(toolscore snapshots list --pending), then run: toolscore approve --all"
    )
    assert [s.name for s in SnapshotStore().pending()] == ["test_agent.py::test_a"]


def test_clicks_test_runner_drives_the_command() -> None:
    testing = pytest.importorskip("click.testing")
    _trace("trace.json", TRACE)
    result = testing.CliRunner().invoke(
        main, ["record", "--from-trace", "trace.json", "--name", "r"]
    )
    assert result.exit_code == 0 and "Recorded snapshot 'r'" in result.output
    result = testing.CliRunner().invoke(main, ["approve", "missing"])
    assert result.exit_code == 2 and "no snapshot named 'missing'" in result.output
    assert main.main(["approve", "r"], standalone_mode=False) == 0
