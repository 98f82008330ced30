"""``toolscore init``: write a tool-call test suite that passes, for the project's framework."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

from toolscore._cli.common import EXIT_OK, CommandError
from toolscore.scaffold import FRAMEWORK_LABELS, SUPPORTED_FRAMEWORKS, detect_frameworks, scaffold

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add ``init`` to the ``toolscore`` command."""
    p = sub.add_parser(
        "init",
        help="write a tool-call test suite for your agent that passes right away",
        description="Detect the project's agent framework and write tests/test_agent_tools.py "
        "(a snapshot test and an expect() test of a sample agent, both passing), the snapshot "
        "folder and a GitHub Actions workflow.",
    )
    p.add_argument(
        "--framework",
        choices=SUPPORTED_FRAMEWORKS,
        help="the framework to write the tests for (default: detect it)",
    )
    p.add_argument("--dir", dest="directory", metavar="PATH", help="the project folder (default .)")
    p.add_argument(
        "--yes", "-y", action="store_true", help="take the detected framework without asking"
    )
    p.add_argument("--no-ci", action="store_true", help="do not write the GitHub Actions workflow")
    p.add_argument("--force", action="store_true", help="overwrite files that exist")
    p.set_defaults(run=_run)


def _choose(detected: list[str], ask: bool, out: TextIO) -> str:
    if not ask:
        return detected[0]
    out.write(f"Frameworks: {', '.join(SUPPORTED_FRAMEWORKS)}\n")
    out.flush()
    answer = input(f"Write the tests for which framework? [{detected[0]}] ").strip()
    if answer and answer not in SUPPORTED_FRAMEWORKS:
        raise CommandError(
            f"unknown framework {answer!r}; pick one of the list or pass --framework"
        )
    return answer or detected[0]


def _run(args: argparse.Namespace, out: TextIO) -> int:
    root = Path(args.directory or ".")
    if root.exists() and not root.is_dir():
        raise CommandError(f"--dir {root}: is a file, not a project folder")
    framework = args.framework
    if framework is None:
        detected = detect_frameworks(root) if root.is_dir() else ["generic"]
        names = ", ".join(FRAMEWORK_LABELS[f] for f in detected)
        found = "none found, using the generic tests" if detected == ["generic"] else names
        out.write(f"Detected agent framework: {found}\n")
        framework = _choose(
            detected, len(detected) > 1 and not args.yes and sys.stdin.isatty(), out
        )
    out.write(f"Writing tests for: {FRAMEWORK_LABELS[framework]}\n")
    try:
        written = scaffold(framework, root, with_ci=not args.no_ci, force=args.force)
    except FileExistsError as exc:
        raise CommandError(f"{exc} already exists; pass --force to overwrite it") from None
    for path in written:
        shown = path.relative_to(root) if path.is_relative_to(root) else path
        out.write(f"  created {shown}\n")
    out.write(
        "\nNext steps:\n"
        "  1. Run pytest: the snapshot test records the sample agent's calls and passes.\n"
        "  2. Review .toolscore/snapshots/, then approve: toolscore approve --all\n"
        "  3. Change a value in sample_agent and run pytest again: the test fails with a diff.\n"
        "  4. Replace sample_agent with a call to your agent.\n"
    )
    return EXIT_OK
