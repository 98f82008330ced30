"""Quality and speed of the embedded offline judge (issue 4). Prints figures; asserts nothing.

Run from the repository root::

    .venv/bin/python benchmarks/bench_local_judge.py [--data ../shared/data] [--skip-long]

Scores go through the same path as the assertions (``evaluate_texts`` with a ``local``
session): precision = questions from ``given`` answered from ``expected``; recall = questions
from ``expected`` answered from ``given``; F1 their harmonic mean.

Figures:
  * text_pairs.jsonl: per category the mean F1 against the ideal, the mean absolute error of
    precision and recall against the ideal values, then the ordering checks with PASS/FAIL.
  * falke2019/val_sentence_pairs.json: the share of pairs where precision(expected=article
    sentence, given=correct sentence) > precision(..., incorrect sentence), ties counting half,
    beside a bigram-precision baseline.
  * speed: model load, a short pair, a 700-word article against a 3-sentence summary, and a
    20,000-word text (bounded memory; reported, not a target).
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from pytest_texts_score._pipeline import evaluate_texts  # noqa: E402
from scorekit._session import ScoreSession  # noqa: E402
from scorekit.judges import resolve_settings  # noqa: E402

CATEGORY_ORDER = [
    "identical", "paraphrase", "reordered_paraphrase", "partial", "superset",
    "partial_plus_new", "number_changed", "name_changed", "negation", "noun_swap",
    "unrelated", "same_topic_different_facts",
]  # fmt: skip


def ideal_f1(p: float, r: float) -> float:
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


def new_session() -> ScoreSession:
    return ScoreSession(resolve_settings(overrides={"provider": "local", "cache": "off"}, env={}))


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def text_pairs(path: Path, session: ScoreSession) -> None:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
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
    print(f"== {path.name}: {len(rows)} pairs, local judge ==")
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
    checks: list[tuple[str, bool, str]] = [
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
    for cat in ("number_changed", "name_changed", "negation"):
        gap = para - stats[cat]["f1"]
        checks.append(
            (f"{cat} F1 <= paraphrase F1 - 0.25", gap >= 0.25,
             f"{stats[cat]['f1']:.3f} vs {para:.3f}: gap {gap:.3f}"
             f" (ideal F1 of the category {stats[cat]['if1']:.3f})")
        )  # fmt: skip
    gap = para - stats["noun_swap"]["f1"]
    print("\n== ordering checks ==")
    for name, ok, detail in checks:
        print(f"{'PASS' if ok else 'FAIL'}  {name}: {detail}")
    print(f"info  noun_swap (reported, not required): F1 {stats['noun_swap']['f1']:.3f},"
          f" gap to paraphrase {gap:.3f}")  # fmt: skip


def _bigrams(text: str) -> list[tuple[str, str]]:
    toks = text.lower().split()
    return list(itertools.pairwise(toks))


def bigram_precision(reference: str, candidate: str) -> float:
    cand = _bigrams(candidate)
    ref = set(_bigrams(reference))
    return sum(1 for b in cand if b in ref) / len(cand) if cand else 0.0


def falke(path: Path, session: ScoreSession) -> None:
    rows = json.loads(path.read_text(encoding="utf-8"))

    def share(score: Callable[[str, str], float]) -> tuple[float, int, int, int]:
        wins = ties = losses = 0
        for r in rows:
            good = score(r["article_sent"], r["correct_sent"])
            bad = score(r["article_sent"], r["incorrect_sent"])
            if good > bad:
                wins += 1
            elif good == bad:
                ties += 1
            else:
                losses += 1
        return (wins + ties / 2) / len(rows), wins, ties, losses

    def local(article: str, candidate: str) -> float:
        out = evaluate_texts(article, candidate, metric="precision", session=session)
        assert out.precision is not None
        return out.precision

    (acc, w, t, lo), secs = timed(lambda: share(local))
    base, bw, bt, bl = share(bigram_precision)
    print(f"\n== {path.parent.name}/{path.name}: {len(rows)} pairs ==")
    print(
        f"{'PASS' if acc >= 0.75 else 'FAIL'}  local judge precision ranks correct > incorrect:"
        f" {acc:.1%} (wins {w}, ties {t}, losses {lo}; target >= 75%; {secs:.1f} s)"
    )
    print(
        f"info  bigram-precision baseline: {base:.1%} (wins {bw}, ties {bt}, losses {bl});"
        f" without ties as half: {bw / len(rows):.1%}"
    )


def _article(pairs_path: Path, words: int) -> str:
    rows = [json.loads(line) for line in pairs_path.read_text(encoding="utf-8").splitlines()]
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
    print("\n== speed (wall clock, this machine) ==")
    start = time.perf_counter()
    import onnxruntime  # noqa: F401

    imported = time.perf_counter() - start
    from scorekit.local._model import load_encoder

    _, load = timed(load_encoder)
    print(
        f"{'PASS' if load < 1 else 'FAIL'}  model load (sha256 check + ONNX session +"
        f" tokenizer): {load:.3f} s (target < 1 s; importing onnxruntime before it:"
        f" {imported:.3f} s)"
    )
    _, again = timed(load_encoder)
    print(f"info  second load in the same process (shared): {again * 1000:.2f} ms")

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
        f"{'PASS' if cold < 0.1 else 'FAIL'}  short pair (two 3-sentence texts, F1), texts never"
        f" seen before: {cold * 1000:.0f} ms; the same pair again: {warm * 1000:.0f} ms"
        " (target < 100 ms)"
    )

    article = _article(pairs_path, 700)
    summary = (
        "Version 4.1 of Quillpad adds offline sync for shared notebooks. The Eiffel Tower was"
        " finished in 1889. The Riverton Otters beat the Kessler Hawks 3-1 in the final."
    )
    out, secs = timed(lambda: evaluate_texts(article, summary, session=new_session()))
    print(
        f"{'PASS' if secs < 1 else 'FAIL'}  {len(article.split())}-word article vs 3-sentence"
        f" summary (F1 {out.f1:.3f}): {secs:.3f} s, cold (target < 1 s)"
    )
    if not skip_long:
        long_text = _article(pairs_path, 20_000)
        out, secs = timed(lambda: evaluate_texts(long_text, summary, session=new_session()))
        print(
            f"info  {len(long_text.split())}-word text vs 3-sentence summary (F1 {out.f1:.3f}):"
            f" {secs:.1f} s, cold (no target; memory is bounded by chunking)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--skip-long", action="store_true", help="skip the 20,000-word run")
    args = parser.parse_args()
    pairs_path = args.data / "text_pairs.jsonl"
    speed(pairs_path, args.skip_long)
    session = new_session()
    text_pairs(pairs_path, session)
    falke(args.data / "falke2019" / "val_sentence_pairs.json", session)


if __name__ == "__main__":
    main()
