"""Quality, speed and memory of the embedded offline judge (issues 4, 9 and 35).

Run from the repository root::

    .venv/bin/python benchmarks/bench_local_judge.py [--data ../shared/data] [--skip-long]
        [--cache /tmp/local-rows]

Every target is printed with PASS or FAIL, and every real-data figure says whether it is
*held out* (the combiner never saw that data) or *fitted*, with word-bigram precision beside
it. The combiner's weights (``src/scorekit/local/data/verdict.json``) are fitted by
``benchmarks/fit_local_blend.py`` on FRANK valid, SummEdits dev, the fitting half of Falke et
al., SNLI test 0-799 and HaluEval documents 9000-9149; the hand-made cases and text_pairs
(``tests/data/``) are floors of that fit, not its objective.

text_pairs, the hand-made cases, Falke's pipeline check and the speed figures go through the
same path as the assertions (``evaluate_texts`` with a ``local`` session): precision =
questions from ``given`` answered from ``expected``; recall = questions from ``expected``
answered from ``given``; F1 their harmonic mean. The real-data figures use the judge's rows
(``local_rows.py``: the same matching and verdict, without the pipeline around it; a sample is
checked against the pipeline) so that SummEdits can be refitted without each domain.

Without ``../shared/data`` (a clone on its own) the real-data figures are skipped with a
message; text_pairs and the hand-made cases are read from ``tests/data/``.
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from pytest_texts_score._pipeline import evaluate_texts  # noqa: E402
from scorekit.judges import resolve_settings  # noqa: E402
from scorekit.session import ScoreSession  # noqa: E402

TESTS_DATA = ROOT / "tests" / "data"
CATEGORY_ORDER = [
    "identical", "paraphrase", "reordered_paraphrase", "partial", "superset",
    "partial_plus_new", "number_changed", "name_changed", "negation", "noun_swap",
    "unrelated", "same_topic_different_facts",
]  # fmt: skip
Check = tuple[str, bool, str]


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def ideal_f1(p: float, r: float) -> float:
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


def new_session() -> ScoreSession:
    return ScoreSession(resolve_settings(overrides={"provider": "local", "cache": "off"}, env={}))


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def text_pairs(path: Path, session: ScoreSession) -> None:
    rows = read_jsonl(path)
    by_cat: dict[str, list[dict[str, float]]] = {}
    for row in rows:
        out = evaluate_texts(row["expected"], row["given"], session=session)
        assert out.precision is not None and out.recall is not None and out.f1 is not None
        by_cat.setdefault(row["category"], []).append(
            {
                "p": out.precision,
                "r": out.recall,
                "f1": out.f1,
                "ip": row["precision"],
                "ir": row["recall"],
                "if1": ideal_f1(row["precision"], row["recall"]),
            }
        )
    print(f"\n== {path.name}: {len(rows)} hand-written pairs (a floor of the combiner's fit) ==")
    print(
        f"{'category':28} {'n':>2} {'F1':>6} {'ideal':>6} {'MAE P':>6} {'MAE R':>6} {'max err':>7}"
    )
    stats: dict[str, dict[str, float]] = {}
    for cat in CATEGORY_ORDER + sorted(set(by_cat) - set(CATEGORY_ORDER)):
        items = by_cat.get(cat)
        if not items:
            continue
        s = {
            "f1": statistics.fmean(i["f1"] for i in items),
            "if1": statistics.fmean(i["if1"] for i in items),
            "maep": statistics.fmean(abs(i["p"] - i["ip"]) for i in items),
            "maer": statistics.fmean(abs(i["r"] - i["ir"]) for i in items),
            "max": max(max(abs(i["p"] - i["ip"]), abs(i["r"] - i["ir"])) for i in items),
        }
        stats[cat] = s
        print(
            f"{cat:28} {len(items):>2} {s['f1']:6.3f} {s['if1']:6.3f} {s['maep']:6.3f}"
            f" {s['maer']:6.3f} {s['max']:7.3f}"
        )
    para = stats["paraphrase"]["f1"]
    checks: list[Check] = [
        ("identical F1 >= 0.95", stats["identical"]["f1"] >= 0.95,
         f"{stats['identical']['f1']:.3f}"),
        ("paraphrase F1 >= 0.85", para >= 0.85, f"{para:.3f}"),
    ]  # fmt: skip
    for cat in ("partial", "superset", "partial_plus_new"):
        s = stats[cat]
        checks.append(
            (f"{cat}: mean |error| <= 0.15 on each side", max(s["maep"], s["maer"]) <= 0.15,
             f"P {s['maep']:.3f}, R {s['maer']:.3f} (largest single error {s['max']:.3f})")
        )  # fmt: skip
    for cat in ("unrelated", "same_topic_different_facts"):
        checks.append((f"{cat} F1 <= 0.15", stats[cat]["f1"] <= 0.15, f"{stats[cat]['f1']:.3f}"))
    # Issue 21 set the changed-name band at 0.20; the others stay at issue 4's 0.25.
    for cat, band in (("number_changed", 0.25), ("name_changed", 0.20), ("negation", 0.25)):
        gap = para - stats[cat]["f1"]
        checks.append(
            (f"{cat} F1 <= paraphrase F1 - {band:.2f}", gap >= band,
             f"{stats[cat]['f1']:.3f} vs {para:.3f}: gap {gap:.3f}"
             f" (ideal F1 of the category {stats[cat]['if1']:.3f})")
        )  # fmt: skip
    print("-- text_pairs category bands (issue 4) --")
    for name, ok, detail in checks:
        print(f"{verdict(ok)}  {name}: {detail}")
    gap = para - stats["noun_swap"]["f1"]
    print(f"info  noun_swap (reported, not required): F1 {stats['noun_swap']['f1']:.3f},"
          f" gap to paraphrase {gap:.3f}")  # fmt: skip


def hand_cases(path: Path, session: ScoreSession, lower: bool = False) -> None:
    rows = read_jsonl(path)
    wrong = []
    for case in rows:
        expected, given = case["expected"], case["given"]
        if lower:  # issue 21: case must not decide what a name is
            expected, given = expected.lower(), given.lower()
        out = evaluate_texts(expected, given, session=session)
        value = getattr(out, case["side"])
        ok = value <= case["max"] if "max" in case else value >= case["min"]
        if not ok:
            bound = f"<= {case['max']}" if "max" in case else f">= {case['min']}"
            wrong.append(
                f"      {case['id']} ({case['kind']}): {case['side']} {value:.3f}, wants {bound}"
            )
    right = len(rows) - len(wrong)
    how = "lower-cased, " if lower else ""
    print(f"\n== hand-made cases ({how}{path.relative_to(ROOT)}; a floor of the combiner's fit) ==")
    floor = 0.85 if lower else 0.90
    print(
        f"{verdict(right >= floor * len(rows))}  hand-made cases right: {right} of {len(rows)}"
        f" ({right / len(rows):.1%}; target >= {floor:.0%})"
    )
    for line in wrong:
        print(line)


def real_data(data: Path, cache: Path | None) -> None:
    """Every real-data figure of the shipped weights, each beside word-bigram precision."""
    import fit_local_blend as fb
    import local_figures

    from scorekit.local._verdict import weights

    print("\n== real data (FRANK, SummEdits, Falke, SNLI, HaluEval): judge vs bigram precision ==")
    rows = fb.load(data, cache, log=lambda line: print(f"info  {line}"))
    combiner = weights().combiner
    assert combiner is not None, "verdict.json has no combiner; run benchmarks/fit_local_blend.py"
    theta = np.array([combiner.intercept, *combiner.coef, *combiner.strengths])
    # The rows are the judge's own path minus the pipeline: check they agree on a sample.
    _same_as_the_pipeline(data, rows, theta)
    # SummEdits leave-one-domain-out refits without each domain (the floors still apply).
    fig = local_figures.figures(rows, theta, refit=fb.problem(rows), log=print)
    targets = [
        ("frank_test_cnndm_pearson", 0.459, "FRANK test cnndm r >= 0.459 (bigram's on test)"),
        ("frank_test_xsum_pearson", 0.0681, "FRANK test xsum r > 0.068 (bigram's on test)"),
        ("falke_held_out_ranking", 0.80, "Falke held-out half >= 80 %"),
        ("text_pairs_paraphrase_precision", 0.85, "text_pairs paraphrase precision >= 0.85"),
        ("text_pairs_paraphrase_recall", 0.85, "text_pairs paraphrase recall >= 0.85"),
        ("text_pairs_reordered_paraphrase_precision", 0.85,
         "text_pairs reordered paraphrase precision >= 0.85"),
        ("text_pairs_reordered_paraphrase_recall", 0.85,
         "text_pairs reordered paraphrase recall >= 0.85"),
    ]  # fmt: skip
    for key, bound, what in targets:
        if key in fig:
            print(f"{verdict(fig[key] >= bound)}  {what}: {fig[key]:.3f}")
    for key, what in (
        ("summedits_lodo_threshold_own", "SummEdits dev leave-one-domain-out"),
        ("halueval_held_out_balanced_accuracy", "HaluEval held out"),
        (
            "halueval_held_out_length_matched_balanced_accuracy",
            "HaluEval held out, lengths matched",
        ),
    ):
        if key in fig:
            gap = (fig[key] - fig[f"{key}_bigram"]) * 100
            print(
                f"{verdict(gap >= 3.0)}  {what}: judge {fig[key] * 100:.1f} vs bigram precision"
                f" {fig[f'{key}_bigram'] * 100:.1f}, {gap:+.1f} points (target >= +3)"
            )


def _same_as_the_pipeline(data: Path, rows: dict[str, Any], theta: np.ndarray) -> None:
    import fit_local_blend as fb
    import local_rows as lr

    frank = [r for r in lr.read_jsonl(data / "frank" / "frank.jsonl") if r["split"] == "valid"]
    scores = fb.Scored.of(rows["frank_valid"]).scores(theta)
    session = new_session()
    worst = 0.0
    for k in range(0, len(frank), 60):
        out = evaluate_texts(
            frank[k]["article"], frank[k]["summary"], metric="precision", session=session
        )
        assert out.precision is not None
        worst = max(worst, abs(out.precision - scores[k]))
    print(
        f"{verdict(worst < 1e-3)}  the figures' rows give the pipeline's precision (FRANK valid,"
        f" every 60th summary): largest difference {worst:.5f}"
    )


def _article(pairs_path: Path, words: int) -> str:
    rows = read_jsonl(pairs_path)
    sentences: list[str] = []
    for row in rows:
        sentences += re.split(r"(?<=[.!?])\s+", row["expected"])
    out: list[str] = []
    count = 0
    i = 0
    while count < words:
        s = sentences[i % len(sentences)]
        if i >= len(sentences):  # past one round: vary the sentence so every window is new
            s = f"In part {i // len(sentences) + 1}, {s[0].lower()}{s[1:]}"
        out.append(s)
        count += len(s.split())
        i += 1
    return " ".join(out)


def speed(pairs_path: Path, skip_long: bool) -> None:
    print("\n== speed and memory (wall clock, this machine; noisy when it is busy) ==")
    start = time.perf_counter()
    import onnxruntime  # noqa: F401

    imported = time.perf_counter() - start
    from scorekit.local._entail import load_entailer
    from scorekit.local._model import load_encoder

    _, load = timed(lambda: (load_encoder(), load_entailer()))
    print(
        f"{verdict(load < 1.5)}  judge load (both models: sha256 checks + ONNX sessions +"
        f" tokenizers): {load:.3f} s (target < 1.5 s; importing onnxruntime before it:"
        f" {imported:.3f} s)"
    )
    # The first call of a process also starts the judge's event loop and thread pool.
    _, first = timed(
        lambda: evaluate_texts("The tower is tall.", "The tower is high.", session=new_session())
    )
    print(f"info  first scoring call of the process (starts the judge loop): {first * 1000:.0f} ms")
    expected = (
        "The Nimbus 2 kettle holds 1.7 litres. It has a stainless steel body. It switches off"
        " automatically when the water boils."
    )
    given = (
        "A stainless steel body houses the Nimbus 2 kettle. It holds 1.7 litres of water. The"
        " kettle turns itself off once the water boils."
    )
    _, cold = timed(lambda: evaluate_texts(expected, given, session=new_session()))
    _, warm = timed(lambda: evaluate_texts(expected, given, session=new_session()))
    print(
        f"{verdict(cold < 0.15)}  short pair (two 3-sentence texts, F1), texts never seen"
        f" before: {cold * 1000:.0f} ms; the same pair again: {warm * 1000:.0f} ms"
        " (target < 150 ms)"
    )
    article = _article(pairs_path, 700)
    summary = (
        "Version 4.1 of Quillpad adds offline sync for shared notebooks. The Eiffel Tower was"
        " finished in 1889. The Riverton Otters beat the Kessler Hawks 3-1 in the final."
        " The library opens at nine on weekdays."
    )
    out, secs = timed(lambda: evaluate_texts(article, summary, session=new_session()))
    print(
        f"{verdict(secs < 1.5)}  {len(article.split())}-word article vs 4-sentence summary"
        f" (F1 {out.f1:.3f}): {secs:.3f} s, cold (target < 1.5 s)"
    )
    # Saturation: on a long on-topic article, a statement it does not make must stay low.
    probe = evaluate_texts(
        article,
        "Quillpad 4.1 adds offline sync for shared notebooks. Quillpad 4.1 removes the export"
        " to PDF.",
        metric="precision",
        session=new_session(),
    )
    answers = [e.answer for e in probe.evidence]
    print(
        f"{verdict(answers[0] >= 0.75 and answers[1] <= 0.5)}  no saturation on the long"
        f" article: a statement it makes {answers[0]:.2f}, an on-topic one it does not make"
        f" {answers[1]:.2f} (want >= 0.75 and <= 0.5)"
    )
    again = evaluate_texts(article, summary, session=new_session())
    same = [e.answer for e in again.evidence] == [e.answer for e in out.evidence]
    print(f"{verdict(same)}  deterministic: the same texts give the same answers in a new session")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"{verdict(peak < 600)}  peak RSS after the runs above (load, short pair, 700-word"
        f" article): {peak:.0f} MB (target < 600 MB)"
    )
    if not skip_long:
        long_text = _article(pairs_path, 20_000)
        out, secs = timed(lambda: evaluate_texts(long_text, summary, session=new_session()))
        print(
            f"info  {len(long_text.split())}-word text vs 3-sentence summary (F1 {out.f1:.3f}):"
            f" {secs:.1f} s, cold (no target; memory is bounded by chunking)"
        )
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"info  peak RSS after the 20,000-word text: {peak:.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--skip-long", action="store_true", help="skip the 20,000-word run")
    parser.add_argument("--cache", type=Path, help="folder for the rows (outside the repo)")
    args = parser.parse_args()
    pairs_path = TESTS_DATA / "text_pairs.jsonl"
    speed(pairs_path, args.skip_long)
    session = new_session()
    text_pairs(pairs_path, session)
    hand_cases(TESTS_DATA / "local_judge_cases.jsonl", session)
    hand_cases(TESTS_DATA / "local_judge_cases.jsonl", session, lower=True)
    if not (args.data / "frank" / "frank.jsonl").exists():
        print(
            f"\nskipped: the real-data figures need the shared data sets ({args.data} has"
            " no frank/frank.jsonl); pass --data with their folder"
        )
        return
    real_data(args.data, args.cache)
    print(
        "\nnot measurable here: the held-out news sets and SummEdits test (held by the issue's"
        " author)."
    )


if __name__ == "__main__":
    main()
