"""``toolscore record``, ``toolscore approve`` and ``toolscore snapshots list|show|rm``."""

from __future__ import annotations

import argparse
import difflib
import json
import os
import shlex
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any, TextIO

from scorekit.format import fitted_lines
from toolscore._cli.common import EXIT_OK, CommandError, add_format_option
from toolscore.snapshots import DEFAULT_ROOT, Snapshot, SnapshotStore

__all__ = ["register"]

UPDATE_ENV = "TOOLSCORE_RECORD_UPDATE"
DIR_ENV = "TOOLSCORE_SNAPSHOT_DIR"


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add ``record``, ``approve`` and ``snapshots`` to the ``toolscore`` command."""
    rec = sub.add_parser(
        "record",
        help="record tool-call snapshots (run pytest, or read a trace file)",
        description="Record tool-call snapshots. Either run a command (usually pytest) whose "
        "toolscore_snapshot fixtures record them: toolscore record [--update] -- pytest "
        "tests/; or read the calls of a trace file: toolscore record --from-trace trace.json "
        "--name NAME. Approve what was recorded with toolscore approve.",
    )
    rec.add_argument(
        "--update",
        action="store_true",
        help="re-record existing snapshots and approve them (matchers that still match are kept)",
    )
    rec.add_argument("--from-trace", metavar="PATH", help="read the calls from this trace file")
    rec.add_argument("--name", help="the snapshot's name (needed with --from-trace)")
    add_format_option(rec, "trace file format, with --from-trace")
    rec.add_argument(
        "cmd",
        nargs=argparse.REMAINDER,
        metavar="-- COMMAND",
        help="the command to run, e.g. -- pytest tests/ -k booking",
    )
    rec.set_defaults(run=_record)

    app = sub.add_parser(
        "approve",
        help="approve snapshots (or their pending changes) as the baseline",
        description="Approve snapshots as the baseline: a new snapshot becomes approved, an "
        "approved one with a pending change (recorded when a test saw its calls drift) takes "
        "the change. Examples: toolscore approve 'tests/test_agent.py::test_booking'; "
        "toolscore approve --all.",
    )
    app.add_argument("names", nargs="*", metavar="NAME", help="snapshot names (or their files)")
    app.add_argument(
        "--all", dest="approve_all", action="store_true", help="approve everything pending"
    )
    app.set_defaults(run=_approve)

    snaps = sub.add_parser(
        "snapshots",
        help="list, show and delete recorded snapshots",
        description="List, show and delete recorded snapshots.",
    )
    snap_sub = snaps.add_subparsers(dest="snapshots_command", required=True, metavar="COMMAND")
    lst = snap_sub.add_parser("list", help="list the recorded snapshots")
    lst.add_argument("--pending", action="store_true", help="only what waits for approval")
    lst.set_defaults(run=_list)
    show = snap_sub.add_parser("show", help="show a snapshot's calls and its pending change")
    show.add_argument("name", metavar="NAME")
    show.set_defaults(run=_show)
    rm = snap_sub.add_parser("rm", help="delete a snapshot (and its pending change)")
    rm.add_argument("name", metavar="NAME")
    rm.add_argument("--yes", "-y", action="store_true", help="do not ask for confirmation")
    rm.set_defaults(run=_rm)
    for parser in (rec, app, lst, show, rm):
        parser.add_argument(
            "--dir",
            dest="snap_dir",
            metavar="PATH",
            help="snapshot folder (default: .toolscore/snapshots, relative to the working"
            " directory)",
        )


def _store(args: argparse.Namespace) -> SnapshotStore:
    """The store named by ``--dir`` (or the default folder)."""
    root = Path(args.snap_dir or DEFAULT_ROOT)
    if root.exists() and not root.is_dir():
        raise CommandError(f"--dir {root}: is a file, not a snapshot folder")
    return SnapshotStore(root)


def _find(store: SnapshotStore, name: str) -> str:
    """The snapshot name ``name`` refers to: a name, or the path of a snapshot file."""
    if store.exists(name) or store.change_path_for(name).exists():
        return name
    path = Path(name)
    if path.is_file() and path.name.endswith((".json", ".json.new")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = None
        if not isinstance(data, dict) or not isinstance(data.get("name"), str):
            raise CommandError(f"{name}: not a snapshot file")
        return str(data["name"])
    known = [s.name for s in store.list()]
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    also = f"; did you mean {close[0]!r}?" if close else " (toolscore snapshots list shows them)"
    raise CommandError(f"no snapshot named {name!r} in {store.root}{also}")


def _record(args: argparse.Namespace, out: TextIO) -> int:
    cmd = list(args.cmd)
    if cmd[:1] == ["--"]:
        cmd = cmd[1:]
    if args.from_trace and cmd:
        raise CommandError("use either --from-trace FILE or a command after --, not both")
    if args.from_trace:
        return _record_trace(args, out)
    if not cmd:
        raise CommandError(
            "give a command to run (toolscore record -- pytest tests/) "
            "or a trace file (--from-trace FILE --name NAME)"
        )
    if args.name:
        raise CommandError("--name goes with --from-trace; tests name their own snapshots")
    env = {**os.environ, "TOOLSCORE_RECORD": "1"}
    if args.update:
        env[UPDATE_ENV] = "1"
    if args.snap_dir:
        env[DIR_ENV] = str(Path(args.snap_dir).resolve())
    out.write(f"Recording snapshots: {' '.join(cmd)}\n")
    out.flush()
    try:
        code = subprocess.run(cmd, env=env, check=False).returncode
    except FileNotFoundError:
        raise CommandError(f"{cmd[0]}: command not found") from None
    store = _store(args)
    pending = store.pending() if store.root.is_dir() else []
    if pending:
        out.write(
            f"{len(pending)} snapshot(s) wait for approval in {store.root}: review them "
            "(toolscore snapshots list --pending), then run: toolscore approve --all\n"
        )
    if code != 0:
        out.write(f"The command exited with code {code}.\n")
    return code


def _record_trace(args: argparse.Namespace, out: TextIO) -> int:
    from toolscore._engine.check.evaluate_trace import load_trace
    from toolscore._engine.score.evaluate import evaluate
    from toolscore._engine.snapshots.drift import carry_over
    from toolscore._engine.snapshots.files import shown_path

    if not args.name:
        raise CommandError("--from-trace needs --name NAME (the snapshot's name)")
    store = _store(args)
    calls = [
        {"tool": c["tool"], "args": c.get("args") or {}}
        for c in load_trace(args.from_trace, args.format)
    ]
    existing = store.load(args.name)
    path = shown_path(store.path_for(args.name))
    if existing is not None and not args.update:
        raise CommandError(
            f"snapshot {args.name!r} already exists ({path}); pass --update to re-record "
            "and approve it"
        )
    if existing is not None:
        result = evaluate(existing.calls, calls)
        existing.calls = carry_over(existing.calls, calls, result)
        existing.approved, existing.source = True, "trace"
        store.save(existing)
        store.discard_change(args.name)
        out.write(f"Updated snapshot {args.name!r} ({len(calls)} call(s)), approved: {path}\n")
        return EXIT_OK
    store.save(Snapshot(name=args.name, calls=calls, source="trace"))
    out.write(
        f"Recorded snapshot {args.name!r} ({len(calls)} call(s)), pending approval: {path}\n"
        f"Review it, then run: toolscore approve {shlex.quote(args.name)}\n"
    )
    return EXIT_OK


def _status(store: SnapshotStore, snapshot: Snapshot) -> str:
    if store.change_path_for(snapshot.name).exists():
        return "changed"
    return "approved" if snapshot.approved else "pending"


def _approve(args: argparse.Namespace, out: TextIO) -> int:
    store = _store(args)
    if args.approve_all and args.names:
        raise CommandError("give snapshot names or --all, not both")
    if args.approve_all:
        names = [s.name for s in store.pending()]
        if not names:
            out.write(f"Nothing to approve: no pending snapshots in {store.root}.\n")
            return EXIT_OK
    elif args.names:
        names = [_find(store, n) for n in args.names]
    else:
        raise CommandError("give the snapshot names to approve, or --all")
    rows = [["name", "calls", "approved"]]
    for name in dict.fromkeys(names):
        before = store.load(name)
        had_change = store.change_path_for(name).exists()
        snapshot = store.approve(name)
        if had_change:
            what = "the pending change"
        elif before is not None and before.approved:
            what = "already approved"
        else:
            what = "new snapshot"
        rows.append([snapshot.name, str(len(snapshot.calls)), what])
    # The name first: on a narrow terminal it gets a line of its own, never cut.
    out.write(fitted_lines(rows, out, {1}))
    out.write(f"Approved {len(rows) - 1} snapshot(s) in {store.root}.\n")
    return EXIT_OK


def _list(args: argparse.Namespace, out: TextIO) -> int:
    store = _store(args)
    statuses = [(_status(store, s), s) for s in store.list()]
    if args.pending:
        statuses = [(st, s) for st, s in statuses if st != "approved"]
    if not statuses:
        what = "pending snapshots" if args.pending else "snapshots"
        out.write(f"No {what} in {store.root}.\n")
        return EXIT_OK
    rows = [["name", "status", "calls", "updated", "source"]] + [
        [s.name, status, str(len(s.calls)), s.updated_at[:19].replace("T", " "), s.source]
        for status, s in statuses
    ]
    out.write(fitted_lines(rows, out, {2}))
    counts = Counter(status for status, _ in statuses)
    out.write(
        f"{len(statuses)} snapshot(s): {counts['approved']} approved, {counts['changed']} with "
        f"a pending change, {counts['pending']} pending approval.\n"
    )
    return EXIT_OK


def _show(args: argparse.Namespace, out: TextIO) -> int:
    from toolscore._engine.snapshots.drift import calls_diff, encode_calls
    from toolscore._engine.snapshots.files import dumps_canonical, shown_path

    store = _store(args)
    name = _find(store, args.name)
    snapshot, change = store.load(name), store.load_change(name)
    shown = snapshot or change
    assert shown is not None
    if snapshot is None:
        status = "a pending change, no approved snapshot"
    else:
        status = {
            "approved": "approved",
            "pending": "pending approval",
            "changed": "approved; a change is pending approval",
        }[_status(store, snapshot)]
    out.write(f"Snapshot: {name} ({status})\n")
    out.write(f"File:     {shown_path(store.path_for(name))}\n")
    out.write(f"Source:   {shown.source}\nCreated:  {shown.created_at}\n")
    out.write(f"Updated:  {shown.updated_at}\nCalls:    {len(shown.calls)}\n")
    for i, call in enumerate(encode_calls(shown.calls, "calls"), 1):
        args_text = dumps_canonical(call["args"]).rstrip() if "args" in call else "(not checked)"
        out.write(f"\n{i}. {call['tool']}\n")
        out.write("".join(f"   {line}\n" for line in args_text.splitlines()))
    if snapshot is not None and change is not None:
        out.write("\nPending change (- approved, + pending):\n")
        diff = calls_diff(snapshot.calls, change.calls, "approved", "pending")
        out.write("".join(line + "\n" for line in diff))
        out.write(f"\nAccept it with: toolscore approve {shlex.quote(name)}\n")
    elif not shown.approved:
        out.write(f"\nApprove it with: toolscore approve {shlex.quote(name)}\n")
    return EXIT_OK


def _rm(args: argparse.Namespace, out: TextIO) -> int:
    store = _store(args)
    name = _find(store, args.name)
    if not args.yes:
        if not sys.stdin.isatty():
            raise CommandError(f"not deleting {name!r} without confirmation; pass --yes")
        answer = input(f"Delete snapshot {name!r}? [y/N] ").strip().lower()
        if answer not in ("y", "yes"):
            out.write("Not deleted.\n")
            return EXIT_OK
    store.delete(name)
    out.write(f"Deleted snapshot {name!r}.\n")
    return EXIT_OK
