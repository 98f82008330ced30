"""Kill a 200,000-row ``toolscore eval-dataset`` run at each point, resume it, compare.

Run: ``.venv/bin/python benchmarks/kill_matrix.py [--rows 200000] [--formats jsonl,parquet]``

For each output format (JSON lines, Parquet) and each signal (SIGKILL, and SIGINT as Ctrl-C
sends it), a run with 2 workers is stopped at each kill point, then resumed with ``--resume``
until it finishes; the output must match an uninterrupted run row for row (same bytes for JSON
lines, an equal table for Parquet). Kill points:

* ``early``, ``40%``, ``85%``: once that share of the rows is written (whole lines; rows in
  committed Parquet parts, 10,000 rows each here);
* ``merge``: Parquet only, at the final merge, just before the merged file replaces the output;
* ``merge-cleanup``: Parquet only, after the output landed, before the first part is removed;
* ``resume-killed``: killed at 40 %, the resumed run killed again at 70 %, then resumed.

The merge points are reached from inside the run (an audit hook, as ``tests/batch/kill_at.py``
does: the process signals itself at that exact step). A signal goes to the run's whole process
group, workers included. The result of each case is printed as it ends, then a summary line.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import runpy
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_dataset import write_rows  # noqa: E402

PART_ROWS = 10_000
MERGE_STEPS = {
    "merge": ("os.rename", ".merging"),
    "merge-cleanup": ("os.remove", "part-000000.parquet"),
}
POINTS = ["early", "40%", "85%", "merge", "merge-cleanup", "resume-killed"]
SHARES = {"early": 0.05, "40%": 0.40, "85%": 0.85}


def _child(sig_name: str, event: str, suffix: str, argv: list[str]) -> None:
    """Run ``toolscore.cli`` and signal this process at the first ``event`` on ``suffix``."""
    sig = getattr(signal, sig_name)
    fired = {"done": False}

    def hook(name: str, args: tuple[Any, ...]) -> None:
        if fired["done"] or name != event or not args:
            return
        target = args[0]
        if isinstance(target, (str, bytes, os.PathLike)) and os.fsdecode(target).endswith(suffix):
            fired["done"] = True
            sys.stderr.write(f"kill_matrix: {sig_name} at {event} {suffix}\n")
            sys.stderr.flush()
            os.killpg(os.getpgid(0), sig) if sig == signal.SIGKILL else os.kill(os.getpid(), sig)

    sys.addaudithook(hook)
    sys.argv = ["toolscore", *argv]
    runpy.run_module("toolscore.cli", run_name="__main__", alter_sys=True)


def _cli(source: Path, out: Path, *extra: str) -> list[str]:
    return ["eval-dataset", str(source), "-o", str(out), "--workers", "2", "--no-progress", *extra]


def _written(out: Path) -> int:
    if out.suffix == ".jsonl":
        return out.read_bytes().count(b"\n") if out.exists() else 0
    import pyarrow.parquet as pq

    total = 0
    for part in out.with_name(out.name + ".parts").glob("part-*.parquet"):
        with contextlib.suppress(Exception):  # removed meanwhile
            total += pq.ParquetFile(part).metadata.num_rows
    return total


def _env() -> dict[str, str]:
    return {**os.environ, "SCOREKIT_PARQUET_PART_ROWS": str(PART_ROWS)}


def _run_until(argv: list[str], out: Path, rows: int, sig: signal.Signals) -> str:
    """Start a run; signal its process group once ``out`` holds ``rows`` rows."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "toolscore.cli", *argv],
        env=_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    while _written(out) < rows:
        if proc.poll() is not None:
            return f"ended before the kill point (exit {proc.returncode})"
        time.sleep(0.02)
    at = _written(out)
    os.killpg(proc.pid, sig)
    proc.wait()
    return f"signalled at {at:,} rows written (exit {proc.returncode})"


def _run_to_step(argv: list[str], sig: signal.Signals, step: str) -> str:
    event, suffix = MERGE_STEPS[step]
    cmd = [sys.executable, __file__, "--child", sig.name, event, suffix, "--", *argv]
    proc = subprocess.run(cmd, env=_env(), capture_output=True, text=True, start_new_session=True)
    if "kill_matrix: " not in proc.stderr:
        return f"never reached the step (exit {proc.returncode})"
    return f"signalled at the {step} step (exit {proc.returncode})"


def _resume(source: Path, out: Path) -> int:
    done = subprocess.run(
        [sys.executable, "-m", "toolscore.cli", *_cli(source, out, "--resume")],
        env=_env(),
        capture_output=True,
        check=False,
    )
    return done.returncode


def _same(out: Path, reference: Path) -> bool:
    if not out.exists():
        return False
    if out.suffix == ".jsonl":
        return out.read_bytes() == reference.read_bytes()
    import pyarrow.parquet as pq

    return bool(pq.read_table(out).equals(pq.read_table(reference)))


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        sig_name, event, suffix, sep, *argv = sys.argv[2:]
        assert sep == "--"
        _child(sig_name, event, suffix, argv)
        return
    # A shell starts a background job with SIGINT ignored, and the runs would inherit that:
    # restore it, so the SIGINT cases are Ctrl-C indeed (exit 130), not a run left to finish.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--formats", default="jsonl,parquet")
    parser.add_argument("--signals", default="SIGKILL,SIGINT")
    parser.add_argument("--work-dir", default=None, help="keep the data here (reused)")
    args = parser.parse_args()
    work = Path(args.work_dir or tempfile.mkdtemp(prefix="kill-matrix-"))
    work.mkdir(parents=True, exist_ok=True)
    n = args.rows
    source = write_rows(work / f"rows-{n}.jsonl", n)
    print(f"{n:,} rows in {source}; load average {os.getloadavg()[0]:.1f}", flush=True)
    matched = failed = 0
    for fmt in args.formats.split(","):
        reference = work / f"reference.{fmt}"
        subprocess.run(
            [sys.executable, "-m", "toolscore.cli", *_cli(source, reference)],
            env=_env(),
            check=True,
            capture_output=True,
        )
        for sig_name in args.signals.split(","):
            sig = getattr(signal, sig_name)
            for point in POINTS:
                if point in MERGE_STEPS and fmt != "parquet":
                    continue
                out = work / f"out-{point.rstrip('%')}-{sig_name}.{fmt}"
                out.unlink(missing_ok=True)
                subprocess.run(["rm", "-rf", f"{out}.parts"], check=True)
                started = time.monotonic()
                if point in SHARES:
                    how = _run_until(_cli(source, out), out, int(SHARES[point] * n), sig)
                elif point in MERGE_STEPS:
                    how = _run_to_step(_cli(source, out), sig, point)
                else:
                    how = _run_until(_cli(source, out), out, int(0.4 * n), sig)
                    how += "; resumed, " + _run_until(
                        _cli(source, out, "--resume"), out, int(0.7 * n), sig
                    )
                code = _resume(source, out)
                ok = code == 0 and _same(out, reference)
                matched += ok
                failed += not ok
                print(
                    f"{fmt:7} {sig_name:7} {point:13} {'MATCHED' if ok else 'DIFFERS'}:"
                    f" {how}; resume exit {code}; {time.monotonic() - started:.0f} s",
                    flush=True,
                )
    print(f"{matched} matched, {failed} differ")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
