"""What every subcommand shares: exit codes, the one-line error, common options."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toolscore.snapshots import SnapshotStore

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_BELOW",
    "EXIT_OK",
    "CommandError",
    "add_format_option",
    "add_snapshot_dir_option",
    "snapshot_store",
]

EXIT_OK = 0
EXIT_BELOW = 1
EXIT_BAD_INPUT = 2


class CommandError(Exception):
    """Bad input: printed as ``toolscore: error: <message>``, exit code 2."""


def add_format_option(parser: argparse.ArgumentParser, what: str = "trace file format") -> None:
    """``-f/--format``: the trace formats :func:`toolscore.core.load_trace` reads."""
    from toolscore._engine.read.trace_files import TRACE_FORMATS

    parser.add_argument(
        "--format",
        "-f",
        choices=TRACE_FORMATS,
        default="auto",
        help=f"{what} (default: auto-detect)",
    )


def add_snapshot_dir_option(parser: argparse.ArgumentParser) -> None:
    """``--dir PATH``: the snapshot folder (default ``.toolscore/snapshots``)."""
    parser.add_argument(
        "--dir",
        dest="snap_dir",
        metavar="PATH",
        default=None,
        help="snapshot folder (default: .toolscore/snapshots, relative to the working directory)",
    )


def snapshot_store(args: argparse.Namespace) -> SnapshotStore:
    """The store named by ``--dir`` (or the default folder)."""
    from toolscore.snapshots import DEFAULT_ROOT, SnapshotStore

    root = Path(args.snap_dir or DEFAULT_ROOT)
    if root.exists() and not root.is_dir():
        raise CommandError(f"--dir {root}: is a file, not a snapshot folder")
    return SnapshotStore(root)
