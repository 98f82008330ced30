"""Speed and memory of dataset scoring (``evaluate_dataset`` / ``eval-dataset``).

Run (the whole set takes a while; each part can be run alone):
    .venv/bin/python benchmarks/bench_dataset.py                      # everything
    .venv/bin/python benchmarks/bench_dataset.py --parts local        # 100k and 1M rows, local
    .venv/bin/python benchmarks/bench_dataset.py --parts ray --rows 1000000
    .venv/bin/python benchmarks/bench_dataset.py --parts texts --pairs 10000
    .venv/bin/python benchmarks/bench_dataset.py --parts ratio --repeat 3      # issue 24's ratio

Parts:
* ``local``: tool-call rows with 5 expected calls each (a changed argument in every 5th row, a
  dropped call in every 7th, an extra call in every 11th), JSON lines -> Parquet with the local
  engine, end to end as ``toolscore eval-dataset`` runs it (a fresh process). Printed: rows/s,
  CPU seconds per row (driver + workers), the peak RSS of the process tree (sampled every
  50 ms) and of its largest process, at each size in ``--sizes``, and their ratio (flat memory
  means ~1.0). The baseline: a plain one-core loop (``json.loads`` + ``toolscore.evaluate``)
  on the same rows, and the engine's speedup over it.
* ``ray``: the same file on a local Ray cluster with ``--workers`` CPUs: its time against the
  local engine's and whether every per-row result is identical.
* ``ratio``: the two-core target (issue 24): ``--ratio-rows`` (200,000) tool-call rows from
  JSON lines to Parquet with 2 workers, side by side with the plain one-core loop over the
  same whole file (``json.loads`` each line, ``toolscore.evaluate()``, keep the score), each
  ``--repeat`` times, alternating: the engine as ``toolscore eval-dataset`` in a fresh process
  (interpreter start and imports included; its bytecode cache written by a warm-up run) and as
  ``evaluate_dataset(..., workers=2)`` called here (worker start included; the first round
  also imports pyarrow here), with a loop run between any two of them. Printed per run:
  rows/s, CPU us/row (parent + workers), the ratio to the loop runs just before and after it
  (the machine's speed drifts; target >= 1.7x), peak RSS of the command's tree (target
  < 500 MB); then the ratio the CPU time bounds on two idle cores (``2 x loop CPU / engine
  CPU``), the figure that holds on a machine busy with other work; last, the median ratios.
* ``texts``: ``--pairs`` text pairs (built from ``text_pairs.jsonl``, each made distinct) on
  the local judge: pairs/s and how busy the cores were (CPU time of the process tree / wall
  time / cores).

Targets (issue 14, on a quiet 2-core machine): >= 30,000 rows/s for 1,000,000 rows, peak RSS
< 500 MB and flat from 100k to 1M; Ray within 1.5x of the local engine, identical results.
On a shared machine the absolute figures are noisy: the ratios (speedup over the plain loop,
CPU per row, RSS ratio, Ray / local) are the ones to compare.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TEXT_PAIRS = HERE.parent.parent / "shared" / "data" / "text_pairs.jsonl"


# -- data -------------------------------------------------------------------------------------


def tool_line(i: int) -> str:
    """Row ``i``: 5 expected calls and the agent's calls (some changed, dropped, added)."""
    expected = [
        {
            "tool": f"tool_{(i + k) % 12}",
            "args": {"city": f"city{i % 50}", "n": k, "flag": k % 2 == 0},
        }
        for k in range(5)
    ]
    actual = [{"tool": c["tool"], "args": dict(c["args"])} for c in expected]
    if i % 5 == 1:
        actual[2]["args"]["n"] = 99
    if i % 7 == 2:
        actual.pop(3)
    if i % 11 == 3:
        actual.append({"tool": "extra", "args": {}})
    return json.dumps({"id": f"r{i}", "expected": expected, "actual": actual})


def write_rows(path: Path, n: int) -> Path:
    if path.exists() and path.stat().st_size > 0:
        with path.open("rb") as fh:
            if sum(1 for _ in fh) == n:
                return path
    with path.open("w") as fh:
        for i in range(n):
            fh.write(tool_line(i) + "\n")
    return path


def write_pairs(path: Path, n: int) -> Path:
    base = [json.loads(line) for line in TEXT_PAIRS.read_text().splitlines()]
    with path.open("w") as fh:
        for i in range(n):
            pair = base[i % len(base)]
            # A distinct pair every time (the judge caches nothing across pairs).
            tag = f" Ref {i}."
            fh.write(
                json.dumps(
                    {"id": i, "expected": pair["expected"] + tag, "given": pair["given"] + tag}
                )
                + "\n"
            )
    return path


# -- measuring a process tree ---------------------------------------------------------------------


def _children(pid: int) -> list[int]:
    out: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as fh:
                out.extend(int(c) for c in fh.read().split())
    except OSError:
        pass
    return out


def _rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _cpu_seconds(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        tick = os.sysconf("SC_CLK_TCK")
        return (int(fields[11]) + int(fields[12])) / tick  # utime + stime
    except (OSError, IndexError, ValueError):
        return 0.0


class TreeMonitor:
    """Samples the RSS of a process and its descendants (sum and largest) and their CPU time."""

    def __init__(self, pid: int, interval: float = 0.05) -> None:
        self.pid = pid
        self.interval = interval
        self.peak_total = 0.0
        self.peak_single = 0.0
        self.cpu: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _tree(self) -> list[int]:
        seen, todo = [], [self.pid]
        while todo:
            pid = todo.pop()
            seen.append(pid)
            todo.extend(_children(pid))
        return seen

    def _run(self) -> None:
        while not self._stop.is_set():
            pids = self._tree()
            sizes = [_rss_mb(p) for p in pids]
            self.peak_total = max(self.peak_total, sum(sizes))
            self.peak_single = max(self.peak_single, max(sizes, default=0.0))
            for p in pids:
                self.cpu[p] = max(self.cpu.get(p, 0.0), _cpu_seconds(p))
            self._stop.wait(self.interval)

    def __enter__(self) -> TreeMonitor:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    @property
    def cpu_seconds(self) -> float:
        return sum(self.cpu.values())

    @property
    def driver_cpu_seconds(self) -> float:
        return self.cpu.get(self.pid, 0.0)


def run_cli(argv: list[str], env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run a console command in a fresh process; wall time, CPU and memory of its tree."""
    started = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    with TreeMonitor(proc.pid) as mon:
        out, err = proc.communicate()
    wall = time.perf_counter() - started
    if proc.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed ({proc.returncode}):\n{err.decode()[-2000:]}")
    return {
        "wall": wall,
        "cpu": mon.cpu_seconds,
        "driver_cpu": mon.driver_cpu_seconds,
        "per_process_cpu": sorted(mon.cpu.values(), reverse=True),
        "peak_total_mb": mon.peak_total,
        "peak_single_mb": mon.peak_single,
        "stdout": out.decode(),
    }


def _bin(name: str) -> str:
    return str(Path(sys.executable).with_name(name))


# -- parts --------------------------------------------------------------------------------------


def plain_loop_rate(path: Path, limit: int) -> tuple[float, float]:
    """Rows/s and CPU us/row of the obvious one-core loop over the first ``limit`` rows."""
    import toolscore

    cpu = time.process_time()
    started = time.perf_counter()
    n = 0
    total = 0.0
    with path.open("rb") as fh:
        for line in fh:
            row = json.loads(line)
            total += toolscore.evaluate(row["expected"], row["actual"]).score
            n += 1
            if n >= limit:
                break
    return n / (time.perf_counter() - started), (time.process_time() - cpu) / n * 1e6


def _children_cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def part_ratio(work: Path, n: int, repeat: int) -> None:
    import toolscore

    source = write_rows(work / f"rows-{n}.jsonl", n)
    out = work / f"ratio-{n}.parquet"
    argv = [_bin("toolscore"), "eval-dataset", str(source), "-o", str(out)]
    # The command as an installed one runs: with its modules' bytecode cache (a shell that
    # sets PYTHONDONTWRITEBYTECODE would make every run compile them again, 0.2 s of CPU),
    # after one warm-up run that writes the cache and reads the file into the page cache.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    warm = write_rows(work / "rows-2000.jsonl", 2000)
    run_cli([*argv[:2], str(warm), "-o", str(work / "warm.parquet"), "--workers", "2"], env)
    # The machine's speed drifts (a shared VM): each engine run is compared with the mean of
    # the loop runs just before and after it.
    loops = [plain_loop_rate(source, n)]
    cli_ratios: list[float] = []
    api_ratios: list[float] = []
    for run in range(1, repeat + 1):
        fig = run_cli([*argv, "--workers", "2", "--no-progress"], env)
        cli_rate, cli_cpu = n / fig["wall"], fig["cpu"] / n * 1e6
        loops.append(plain_loop_rate(source, n))
        cpu, children, started = time.process_time(), _children_cpu(), time.perf_counter()
        toolscore.evaluate_dataset(source, output=out, workers=2, progress=False)
        wall = time.perf_counter() - started
        api_cpu = (time.process_time() - cpu + _children_cpu() - children) / n * 1e6
        api_rate = n / wall
        loops.append(plain_loop_rate(source, n))
        cli_loop, api_loop = _mean_loop(loops[-3:-1]), _mean_loop(loops[-2:])
        cli_ratios.append(cli_rate / cli_loop[0])
        api_ratios.append(api_rate / api_loop[0])
        print(
            f"ratio run {run}: eval-dataset --workers 2 {cli_rate:,.0f} rows/s"
            f" ({cli_cpu:.1f} us/row, peak RSS tree {fig['peak_total_mb']:.0f} MB) ="
            f" {cli_ratios[-1]:.2f}x the plain loop around it ({cli_loop[0]:,.0f} rows/s,"
            f" {cli_loop[1]:.1f} us/row); evaluate_dataset(workers=2) {api_rate:,.0f} rows/s"
            f" ({api_cpu:.1f} us/row) = {api_ratios[-1]:.2f}x ({api_loop[0]:,.0f} rows/s,"
            f" {api_loop[1]:.1f} us/row)  [load {os.getloadavg()[0]:.1f}]"
        )
        # On a machine whose cores are busy with other work, wall-clock ratios say little; the
        # CPU time per row does: on 2 idle cores the engine can reach at most
        # 2 x loop CPU / engine CPU (target >= 1.7x).
        print(
            f"ratio run {run} CPU: eval-dataset {cli_cpu:.1f} us/row (bound on 2 idle cores"
            f" {2 * cli_loop[1] / cli_cpu:.2f}x); evaluate_dataset {api_cpu:.1f} us/row"
            f" (bound {2 * api_loop[1] / api_cpu:.2f}x)"
        )
    print(
        f"ratio, median of {repeat}: eval-dataset {statistics.median(cli_ratios):.2f}x,"
        f" evaluate_dataset {statistics.median(api_ratios):.2f}x (target >= 1.7x)"
    )


def _mean_loop(runs: list[tuple[float, float]]) -> tuple[float, float]:
    """Rows/s and CPU us/row of loop runs over the same rows, taken together."""
    seconds = sum(1 / rate for rate, _ in runs) / len(runs)
    return 1 / seconds, sum(cpu for _, cpu in runs) / len(runs)


def part_local(work: Path, sizes: list[int], workers: int | None) -> dict[int, dict[str, Any]]:
    figures: dict[int, dict[str, Any]] = {}
    for n in sizes:
        source = write_rows(work / f"rows-{n}.jsonl", n)
        out = work / f"local-{n}.parquet"
        argv = [_bin("toolscore"), "eval-dataset", str(source), "-o", str(out), "--no-progress"]
        if workers:
            argv += ["--workers", str(workers)]
        fig = run_cli(argv)
        fig["rows"] = n
        fig["rows_per_s"] = n / fig["wall"]
        fig["cpu_us_per_row"] = fig["cpu"] / n * 1e6
        fig["driver_us_per_row"] = fig["driver_cpu"] / n * 1e6
        figures[n] = fig
        print(
            f"local {n:>9,} rows: {fig['wall']:6.1f} s  {fig['rows_per_s']:>9,.0f} rows/s"
            f"  CPU {fig['cpu_us_per_row']:5.1f} us/row (driver {fig['driver_us_per_row']:.1f})"
            "  peak RSS tree"
            f" {fig['peak_total_mb']:5.0f} MB (largest process {fig['peak_single_mb']:4.0f} MB)"
        )
    base, base_cpu = plain_loop_rate(work / f"rows-{sizes[0]}.jsonl", min(sizes[0], 50_000))
    last = figures[sizes[-1]]
    cores = os.cpu_count() or 1
    print(
        f"plain one-core loop (json.loads + evaluate().score): {base:,.0f} rows/s, CPU"
        f" {base_cpu:.1f} us/row"
    )
    print(
        f"engine / plain loop: {last['rows_per_s'] / base:.2f}x in wall time"
        f" ({last['rows_per_s']:,.0f} rows/s at {sizes[-1]:,} rows; target >= 30,000); CPU per"
        f" row {last['cpu_us_per_row'] / base_cpu:.2f}x the loop's, so on {cores} idle cores"
        f" about {cores / last['cpu_us_per_row'] * 1e6:,.0f} rows/s"
    )
    if len(sizes) > 1:
        first = figures[sizes[0]]
        print(
            f"peak RSS {sizes[-1]:,} / {sizes[0]:,} rows: tree"
            f" {last['peak_total_mb'] / first['peak_total_mb']:.2f}x, largest process"
            f" {last['peak_single_mb'] / first['peak_single_mb']:.2f}x (flat = 1.0; target"
            " < 500 MB)"
        )
    return figures


def part_ray(work: Path, n: int, workers: int, local_wall: float | None) -> None:
    source = write_rows(work / f"rows-{n}.jsonl", n)
    out = work / f"ray-{n}.parquet"
    local_out = work / f"local-{n}.parquet"
    if local_wall is None or not local_out.exists():
        fig = run_cli(
            [
                _bin("toolscore"),
                "eval-dataset",
                str(source),
                "-o",
                str(local_out),
                "--workers",
                str(workers),
                "--no-progress",
            ]
        )
        local_wall = fig["wall"]
    fig = run_cli(
        [
            _bin("toolscore"),
            "eval-dataset",
            str(source),
            "-o",
            str(out),
            "--engine",
            "ray",
            "--workers",
            str(workers),
            "--no-progress",
        ]
    )
    import pyarrow.parquet as pq

    same = pq.read_table(out).equals(pq.read_table(local_out))
    print(
        f"ray {n:>9,} rows on a local {workers}-CPU cluster: {fig['wall']:6.1f} s (Ray start"
        f" included), {n / fig['wall']:,.0f} rows/s; local engine {local_wall:.1f} s; ray /"
        f" local = {fig['wall'] / local_wall:.2f}x (target <= 1.5x); per-row results"
        f" identical: {same}"
    )


def part_texts(work: Path, pairs: int, workers: int | None) -> None:
    source = write_pairs(work / f"pairs-{pairs}.jsonl", pairs)
    out = work / f"texts-{pairs}.parquet"
    argv = [
        _bin("texts-score"),
        "eval-dataset",
        str(source),
        "-o",
        str(out),
        "--no-progress",
        "--cache",
        "off",
    ]
    if workers:
        argv += ["--workers", str(workers)]
    fig = run_cli(argv)
    cores = os.cpu_count() or 1
    busy = fig["cpu"] / (fig["wall"] * cores)
    busiest = ", ".join(f"{100 * c / fig['wall']:.0f}%" for c in fig["per_process_cpu"][:3])
    print(
        f"texts {pairs:,} pairs on the local judge: {fig['wall']:.1f} s, {pairs / fig['wall']:.1f}"
        f" pairs/s, cores busy {100 * busy:.0f}% of {cores} (CPU {fig['cpu']:.0f} s; the three"
        f" busiest processes {busiest} of one core each), peak RSS tree"
        f" {fig['peak_total_mb']:.0f} MB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--parts", default="local,ray,texts", help="local, ray, texts")
    parser.add_argument("--sizes", default="100000,1000000", help="row counts for local")
    parser.add_argument("--rows", type=int, default=1_000_000, help="rows for ray")
    parser.add_argument("--pairs", type=int, default=10_000, help="text pairs")
    parser.add_argument("--ratio-rows", type=int, default=200_000, help="rows for ratio")
    parser.add_argument("--repeat", type=int, default=3, help="runs of ratio")
    parser.add_argument("--workers", type=int, default=None, help="default: every CPU")
    parser.add_argument("--work-dir", default=None, help="keep the data here (reused)")
    args = parser.parse_args()
    parts = {p.strip() for p in args.parts.split(",")}
    work = Path(args.work_dir or tempfile.mkdtemp(prefix="bench-dataset-"))
    work.mkdir(parents=True, exist_ok=True)
    print(f"data in {work}; {os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.1f}")
    local_wall = None
    if "local" in parts:
        sizes = [int(s) for s in args.sizes.split(",")]
        figures = part_local(work, sizes, args.workers)
        local_wall = figures.get(args.rows, {}).get("wall")
    if "ray" in parts:
        part_ray(work, args.rows, args.workers or os.cpu_count() or 2, local_wall)
    if "texts" in parts:
        part_texts(work, args.pairs, args.workers)
    if "ratio" in parts:
        part_ratio(work, args.ratio_rows, args.repeat)


if __name__ == "__main__":
    main()
