"""The local judge's real-data figures, each beside word-bigram precision.

Shared by ``fit_local_blend.py`` and ``bench_local_judge.py``. Every line says whether the
figure is *held out* (the combiner never saw that data) or *fitted*.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import local_rows as lr
import numpy as np

if TYPE_CHECKING:
    from fit_local_blend import Problem, Scored

Log = Callable[[str], None]


def balanced_accuracy(s: np.ndarray, y: np.ndarray, t: float) -> float:
    pos, neg = s[y > 0.5], s[y <= 0.5]
    return float(((pos >= t).mean() + (neg < t).mean()) / 2)


def best_threshold(groups: list[tuple[np.ndarray, np.ndarray]]) -> float:
    """The threshold with the best mean balanced accuracy over ``groups`` (middle of ties)."""
    values = np.unique(np.concatenate([s for s, _ in groups]))
    cands = np.concatenate([[-0.01], (values[1:] + values[:-1]) / 2, [1.01]])
    if len(cands) > 400:
        cands = np.quantile(cands, np.linspace(0, 1, 401))
    marks = np.array([np.mean([balanced_accuracy(s, y, t) for s, y in groups]) for t in cands])
    best = cands[marks >= marks.max() - 1e-12]
    return float(best[len(best) // 2])


def ranking(s: np.ndarray) -> float:
    """Share of (first, second) item pairs with the first above (ties: half)."""
    good, bad = s[0::2], s[1::2]
    return float(np.mean(np.where(good > bad, 1.0, np.where(good == bad, 0.5, 0.0))))


def bigrams(rows: lr.Rows) -> np.ndarray:
    return np.array([m["bigram"] for m in rows.meta])


def _frank(sc: dict[str, Scored], theta: np.ndarray, out: dict[str, float], log: Log) -> None:
    for split, how in (("frank_test", "held out"), ("frank_valid", "fitted")):
        if split not in sc:
            continue
        rows = sc[split].rows
        s, b, g = sc[split].scores(theta), bigrams(rows), np.array(rows.groups)
        for d in ("cnndm", "xsum"):
            k = g == d
            j = float(np.corrcoef(s[k], rows.labels[k])[0, 1])
            base = float(np.corrcoef(b[k], rows.labels[k])[0, 1])
            out[f"{split}_{d}_pearson"] = j
            log(
                f"{how:9} FRANK {split[6:]} {d} ({k.sum()} summaries): Pearson r with human"
                f" factuality, judge {j:.3f}, bigram precision {base:.3f}"
            )


def _summedits(
    sc: Scored, theta: np.ndarray, refit: Problem | None, out: dict[str, float], log: Log
) -> None:
    g = np.array(sc.rows.groups)
    doms = sorted(set(g))
    y, b = sc.rows.labels, bigrams(sc.rows)
    rows: dict[str, list[float]] = {"own": [], "others": [], "bigram_own": [], "bigram_others": []}
    for d in doms:
        theta_d = theta
        if refit is not None:  # refit without the domain, from the same starts as the fit
            theta_d = type(refit)(refit.parts, refit.floors, without=d).fit()
        s = sc.scores(theta_d)
        k = g == d
        groups = [(s[g == o], y[g == o]) for o in doms if o != d]
        rows["own"].append(balanced_accuracy(s[k], y[k], best_threshold([(s[k], y[k])])))
        rows["others"].append(balanced_accuracy(s[k], y[k], best_threshold(groups)))
        bgroups = [(b[g == o], y[g == o]) for o in doms if o != d]
        rows["bigram_own"].append(balanced_accuracy(b[k], y[k], best_threshold([(b[k], y[k])])))
        rows["bigram_others"].append(balanced_accuracy(b[k], y[k], best_threshold(bgroups)))
    how = "held out" if refit is not None else "fitted"
    for key in ("own", "others"):
        j, base = np.mean(rows[key]) * 100, np.mean(rows[f"bigram_{key}"]) * 100
        out[f"summedits_lodo_threshold_{key}"] = float(j / 100)
        out[f"summedits_lodo_threshold_{key}_bigram"] = float(base / 100)
        what = "its own threshold" if key == "own" else "threshold from the other 7 domains"
        log(
            f"{how:9} SummEdits dev, {len(doms)} domains, leave-one-domain-out ({what}):"
            f" balanced accuracy, judge {j:.1f}, bigram precision {base:.1f}"
        )


def _pairs(sc: dict[str, Scored], theta: np.ndarray, out: dict[str, float], log: Log) -> None:
    if "falke" in sc:
        g = np.array(sc["falke"].rows.groups)
        for half, how in (("held_out", "held out"), ("fit", "fitted")):
            part = sc["falke"].part(g == half)
            j, base = ranking(part.scores(theta)), ranking(bigrams(part.rows))
            out[f"falke_{half}_ranking"] = j
            log(
                f"{how:9} Falke {half} half ({len(part.rows) // 2} triples): correct ranked above"
                f" incorrect, judge {j * 100:.1f}, bigram precision {base * 100:.1f}"
            )
    for name, what in (("snli", "SNLI test 5000-5999"), ("halueval", "HaluEval 9500-9699")):
        if name not in sc:
            continue
        g = np.array(sc[name].rows.groups)
        fit, held = sc[name].part(g == "fit"), sc[name].part(g == "held_out")
        for label, s_fit, s_held in (
            ("judge", fit.scores(theta), held.scores(theta)),
            ("bigram precision", bigrams(fit.rows), bigrams(held.rows)),
        ):
            t = best_threshold([(s_fit, fit.rows.labels)])
            ba = balanced_accuracy(s_held, held.rows.labels, t)
            line = f"held out  {what}: balanced accuracy (threshold from the fitted range)"
            extra = ""
            if name == "halueval":
                m = np.array([x["matched"] for x in held.rows.meta])
                mba = balanced_accuracy(s_held[m], held.rows.labels[m], t)
                extra = f"; lengths matched ({m.sum() // 2} docs) {mba * 100:.1f}"
                extra += f"; pair ranking {ranking(s_held) * 100:.1f}"
                tag = "" if label == "judge" else "_bigram"
                out[f"halueval_held_out_length_matched_balanced_accuracy{tag}"] = mba
                out[f"halueval_held_out_pair_ranking{tag}"] = ranking(s_held)
            out[f"{name}_held_out_balanced_accuracy{'' if label == 'judge' else '_bigram'}"] = ba
            log(f"{line}, {label} {ba * 100:.1f}{extra}")


def figures(
    rows: dict[str, lr.Rows],
    theta: np.ndarray,
    refit: Problem | None = None,
    log: Log = print,
) -> dict[str, float]:
    """Print and return every figure of the combiner ``theta`` (``refit``: the fitting
    problem, for SummEdits leave-one-domain-out; None: the shipped weights, fitted on all)."""
    from fit_local_blend import Scored, case_misses, category_means

    sc = {k: Scored.of(v) for k, v in rows.items()}
    out: dict[str, float] = {}
    _frank(sc, theta, out, log)
    if "summedits" in sc:
        _summedits(sc["summedits"], theta, refit, out, log)
    _pairs(sc, theta, out, log)
    for name in ("cases", "cases_lower"):
        if name in sc:
            n = len(sc[name].rows) // 2
            wrong = case_misses(sc[name], theta)
            out[f"{name}_right"] = float(n - len(wrong))
            how = " lower-cased" if "lower" in name else ""
            right = n - len(wrong)
            log(
                f"floor     hand cases{how}: {right} of {n} right ({right / n:.1%});"
                f" wrong: {', '.join(sorted(wrong))}"
            )
    if "text_pairs" in sc:
        cats = category_means(sc["text_pairs"], theta)
        for c in ("paraphrase", "reordered_paraphrase"):
            p, r = cats[c]["precision"], cats[c]["recall"]
            out[f"text_pairs_{c}_precision"], out[f"text_pairs_{c}_recall"] = p, r
            log(f"floor     text_pairs {c}: precision {p:.3f}, recall {r:.3f} (floor 0.85)")
    return out
