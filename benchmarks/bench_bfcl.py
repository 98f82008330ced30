"""BFCL compatibility: agreement with BFCL's own checker, and the speed of ``toolscore bfcl``.

Run (from the repository root, in the dev environment with ``pip install --no-deps bfcl-eval``):
    python benchmarks/bench_bfcl.py
    python benchmarks/bench_bfcl.py --cases 20000 --seed 3 --repeat 7

1. Agreement. Generated model outputs (tests/toolscore/bfcl/bfcl_mutations.py: a correct output
   per record, then mutations of values, string styles, types, names, missing and extra
   parameters, call counts, orders, list items, dict keys, variable slots, and mixtures of
   two or three) for the records of simple_python, multiple, parallel, parallel_multiple and
   the live_* categories, read from bfcl-eval's own data (``bfcl_eval/data``; without
   bfcl-eval installed, the 100 sample records in tests/toolscore/bfcl/data). Each output is
   checked by BFCL's ``ast_checker`` and by ``toolscore.bfcl.check`` (every third one without a
   category, so the checker is picked from the record's shape); they agree when ``valid`` and,
   if invalid, ``error_type`` are equal. Printed: agreement overall, per mutation kind, per
   category, and the inputs on which BFCL's checker raised (left out). Targets: >= 99.9 %
   overall, >= 99 % per kind, over >= 10,000 cases. Then the same on made-up records
   (tests/toolscore/bfcl/bfcl_synthetic.py: random schemas, answers and outputs).
2. Speed. A result file of 1,000 prompt-mode outputs (correct and mutated, over the four
   categories and live_simple/live_multiple) scored by ``toolscore bfcl`` in this process
   (read, decode, check, print), best and median of ``--repeat`` runs, and once as a fresh
   process (interpreter start included). Target: < 1 s.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from statistics import median

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "toolscore" / "bfcl"))

import bfcl_mutations  # noqa: E402
import bfcl_reference  # noqa: E402
import bfcl_synthetic  # noqa: E402

from toolscore.cli import main  # noqa: E402

LIVE = ("live_simple", "live_multiple", "live_parallel", "live_parallel_multiple")


def data_folder(explicit: str | None) -> tuple[Path, tuple[str, ...]]:
    if explicit:
        return Path(explicit), bfcl_mutations.CATEGORIES + LIVE
    if bfcl_reference.available():
        import bfcl_eval

        return Path(bfcl_eval.__file__).parent / "data", bfcl_mutations.CATEGORIES + LIVE
    return bfcl_mutations.DATA, bfcl_mutations.CATEGORIES


def agreement(records: list[bfcl_mutations.Record], cases: int, seed: int) -> None:
    if cases <= 0:
        return
    per_kind: Counter[str] = Counter()
    bad_kind: Counter[str] = Counter()
    per_cat: Counter[str] = Counter()
    bad_cat: Counter[str] = Counter()
    crashes = 0
    examples = []
    started = time.perf_counter()
    for n, case in enumerate(bfcl_mutations.generate(records, cases, seed=seed)):
        record = case.record
        theirs, ours = bfcl_reference.both_verdicts(case, record.category if n % 3 else None)
        if theirs is None:
            crashes += 1
            continue
        per_kind[case.kind] += 1
        per_cat[record.category] += 1
        if ours != theirs:
            bad_kind[case.kind] += 1
            bad_cat[record.category] += 1
            if len(examples) < 5:
                examples.append(f"  {record.id} {case.kind}: BFCL {theirs}, ours {ours}")
    total = sum(per_kind.values())
    bad = sum(bad_kind.values())
    overall = 1 - bad / total
    print(f"Agreement with BFCL's checker: {total} cases ({time.perf_counter() - started:.1f} s)")
    print(
        f"  overall {overall:.4%} ({bad} disagreements)  target >= 99.9%  "
        f"{'PASS' if overall >= 0.999 and total >= 10_000 else 'FAIL'}"
    )
    worst = 1.0
    print("  by mutation kind:")
    for kind in bfcl_mutations.KINDS:
        share = 1 - bad_kind[kind] / per_kind[kind] if per_kind[kind] else 1.0
        worst = min(worst, share)
        print(f"    {kind:<12} {per_kind[kind]:>6}  {share:.4%}")
    print(f"  worst kind {worst:.4%}  target >= 99%  {'PASS' if worst >= 0.99 else 'FAIL'}")
    print("  by category:")
    for cat in sorted(per_cat):
        print(f"    {cat:<24} {per_cat[cat]:>6}  {1 - bad_cat[cat] / per_cat[cat]:.4%}")
    print(f"  left out: {crashes} inputs on which BFCL's checker itself raised")
    for line in examples:
        print(line)


def made_up(cases: int, seed: int) -> None:
    if cases <= 0:
        return
    agree = total = crashes = 0
    for case in bfcl_synthetic.generate(cases, seed=seed):
        theirs, ours = bfcl_reference.both_verdicts(case, case.record.category)
        if theirs is None:
            crashes += 1
            continue
        total += 1
        agree += ours == theirs
    print(
        f"\nMade-up records (random schemas, answers and outputs; "
        f"tests/toolscore/bfcl/bfcl_synthetic.py): {total} cases, agreement "
        f"{agree / total:.4%}; left out {crashes} on which BFCL's checker raised"
    )


def prompt_text(calls: list[dict[str, dict[str, object]]]) -> str:
    inner = ", ".join(
        f"{name}({', '.join(f'{k}={v!r}' for k, v in args.items())})"
        for call in calls
        for name, args in call.items()
    )
    return f"[{inner}]"


def speed(folder: Path, repeat: int, seed: int) -> None:
    categories = ("simple_python", "multiple", "parallel", "parallel_multiple")
    if (folder / "BFCL_v4_live_simple.json").exists():
        categories += ("live_simple", "live_multiple")
    records = bfcl_mutations.load_records(folder, categories)
    rng = random.Random(seed)
    chosen = rng.sample(records, min(1000, len(records)))
    while len(chosen) < 1000:  # the samples hold 100 records: repeat them under new ids
        chosen.append(rng.choice(records))
    with tempfile.TemporaryDirectory(prefix="bench-bfcl-") as folder_name:
        _time_command(Path(folder_name), chosen, records, rng, repeat)


def _time_command(
    tmp: Path,
    chosen: list[bfcl_mutations.Record],
    records: list[bfcl_mutations.Record],
    rng: random.Random,
    repeat: int,
) -> None:
    rows: list[str] = []
    questions: dict[str, list[str]] = {}
    answers: dict[str, list[str]] = {}
    for i, record in enumerate(chosen):
        calls = bfcl_mutations.correct_output(record, rng, False)
        if rng.random() < 0.3:
            kind = rng.choice(list(bfcl_mutations.MUTATIONS))
            bfcl_mutations.MUTATIONS[kind](calls, record, rng, False)
        test_id = record.id if i < len(records) else f"{record.category}_{100000 + i}"
        rows.append(json.dumps({"id": test_id, "result": prompt_text(calls)}))
        questions.setdefault(record.category, []).append(
            json.dumps({"id": test_id, "question": [], "function": record.functions})
        )
        answers.setdefault(record.category, []).append(
            json.dumps({"id": test_id, "ground_truth": record.ground_truth})
        )
    outputs = tmp / "outputs.jsonl"
    outputs.write_text("\n".join(rows) + "\n")
    argv = ["bfcl", str(outputs), "--partial"]
    for cat in questions:
        (tmp / f"q_{cat}.json").write_text("\n".join(questions[cat]) + "\n")
        (tmp / f"a_{cat}.json").write_text("\n".join(answers[cat]) + "\n")
        argv += ["-q", str(tmp / f"q_{cat}.json"), "-a", str(tmp / f"a_{cat}.json")]
    print(f"\n`toolscore bfcl` on 1,000 outputs ({', '.join(questions)})")
    for label, extra in (
        ("", []),
        (" --report json", ["--report", "json", "-o", str(tmp / "report.json")]),
    ):
        times = []
        for _ in range(repeat):
            sink = io.StringIO()
            started = time.perf_counter()
            code = main(argv + extra, out=sink)
            times.append(time.perf_counter() - started)
        overall = next((x for x in sink.getvalue().splitlines() if x.startswith("overall")), "?")
        print(f"  toolscore bfcl{label}: exit {code}; {' '.join(overall.split())}")
        print(
            f"    in process: best {min(times):.3f} s, median {median(times):.3f} s over "
            f"{repeat} runs  target < 1 s  {'PASS' if min(times) < 1.0 else 'FAIL'}"
        )
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "toolscore.cli", *argv],
        capture_output=True,
        check=False,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    print(
        f"  fresh process (interpreter start and imports included): "
        f"{time.perf_counter() - started:.3f} s"
    )


def main_() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=12_000, help="generated outputs")
    parser.add_argument("--made-up", type=int, default=5_000, help="made-up records")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5, help="timed runs of toolscore bfcl")
    parser.add_argument("--data", help="folder of BFCL_v4_<category>.json files (and answers)")
    args = parser.parse_args()
    folder, categories = data_folder(args.data)
    records = bfcl_mutations.load_records(folder, categories)
    print(
        f"Data: {folder} ({len(records)} records; "
        f"{', '.join(sorted({r.category for r in records}))})\n"
    )
    if bfcl_reference.available():
        agreement(records, args.cases, args.seed)
        made_up(args.made_up, args.seed)
    else:
        print(bfcl_reference.INSTALL_HINT + "; agreement skipped")
    speed(folder, args.repeat, args.seed)


if __name__ == "__main__":
    main_()
