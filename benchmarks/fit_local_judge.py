"""Fit the local judge's verdict weights (``src/scorekit/local/data/verdict.json``).

Run from the repository root (numpy only; no scikit-learn needed)::

    .venv/bin/python benchmarks/fit_local_judge.py [--data ../shared/data] [--check]

What is fitted: a logistic regression (L2, :data:`L2`) from the signals of a matched statement
(``scorekit.local._support.SIGNALS``) to "the text states it". Training rows are statements:

* SummEdits dev (``summedits/dev.jsonl``, 8 domains): every statement of a consistent summary
  is stated (1); in an inconsistent summary, a statement that also is a statement of the
  original summary it was edited from is stated (1), the others are not (0). Rows are unique
  per (document, statement), so a seed summary's unchanged statements count once.
* The fitting half of Falke et al. (``falke2019/val_sentence_pairs.json``), split by article
  (:func:`falke_split`): statements of the correct sentence are stated (1), statements of the
  incorrect one are not (0) unless the article sentence has the same statement.

``--check`` fits and prints the held-out figures without writing the weights. The held-out
figures (leave-one-domain-out on SummEdits, the other half of Falke) are printed by
``benchmarks/bench_local_judge.py`` with the same functions.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from scorekit.local._model import load_encoder  # noqa: E402
from scorekit.local._statements import sentences, statements  # noqa: E402
from scorekit.local._support import CONFLICT_SIGNALS, SIGNALS, SUPPORT_SIGNALS, match  # noqa: E402
from scorekit.local._verdict import WEIGHTS_FILE, Weights  # noqa: E402

#: L2 penalty of the logistic regression (on the sum of the log-loss over unit-weight rows).
L2 = 1.0
#: Weight of each contrast row against one SummEdits row (see :func:`contrast_items`).
CONTRAST_WEIGHT = 0.5
#: Weight of each Falke row.
FALKE_WEIGHT = 0.5
#: Weight of each row of a sentence asked of the rest of its own summary.
REST_WEIGHT = 0.5
#: Beta(1 + PRIOR, 1 + PRIOR) prior on each veto: a conflict seen a few times does not get a
#: veto of 1 from a handful of rows.
VETO_PRIOR = 1.0
#: Own sentences per document used as stated rows (see :func:`contrast_items`).
CONTRAST_PER_DOC = 12
#: Version written into the weights file: bump it with every refit that changes the answers.
VERSION = "local-judge-5"
DEFAULT_DATA = ROOT.parent / "shared" / "data"
#: Hand-written short texts: a reference, a faithful rewording, other facts on the same subject.
REWORDINGS = ROOT / "benchmarks" / "data" / "rewordings.jsonl"
#: Share of the calibration's total weight carried by the rewordings rows (the rest: the
#: SummEdits short-text rows). Half: two sources of short texts, counted alike.
REWORDING_SHARE = 0.5


@dataclass
class Item:
    """One summary (or candidate sentence) to score against its document."""

    group: str  # SummEdits domain, or "falke"
    doc: str
    summary: str
    label: int
    statements: list[str]
    statement_labels: list[int]


def _key(text: str) -> str:
    return " ".join(text.lower().split()).strip(" .")


def _questions(text: str) -> list[str]:
    found = statements(text)
    return found if found or not text.strip() else [" ".join(text.split())]


def load_summedits(path: Path) -> list[Item]:
    """SummEdits items with statement labels derived from the original summary."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        stmts = _questions(row["summary"])
        original = {_key(s) for s in _questions(row["original_summary"])}
        labels = [1 if row["label"] == 1 or _key(s) in original else 0 for s in stmts]
        if row["label"] == 0 and all(labels):
            labels = [0 for _ in stmts]  # the edit is not visible per statement: all suspect
        out.append(Item(row["domain"], row["doc"], row["summary"], row["label"], stmts, labels))
    return out


def contrast_items(items: Sequence[Item], per_doc: int = CONTRAST_PER_DOC) -> list[Item]:
    """Rows that teach the model what plain support looks like, from the same documents.

    * Each document's own sentences (up to ``per_doc``, spread over the document) are stated
      by it (1).
    * Those sentences asked of the sentences around them (without them) are not stated (0):
      the same topic, other facts (a fact told twice in a document makes a few of these
      rows wrong; they are few).
    * The statements of each summary, asked of another document of the same domain (the next
      one in a fixed order), are not stated by it (0): same kind of text, other facts.

    SummEdits alone cannot teach this: its consistent summaries are rewordings and its
    inconsistent ones change a single word, so word overlap hardly separates them there.
    """
    by_group: dict[str, list[str]] = defaultdict(list)
    for item in items:
        if item.doc not in by_group[item.group]:
            by_group[item.group].append(item.doc)
    out: list[Item] = []
    for group, docs in sorted(by_group.items()):
        ordered = sorted(docs, key=lambda d: hashlib.sha256(d.encode()).hexdigest())
        for k, doc in enumerate(ordered):
            own = [s for s in _questions(doc) if len(s.split()) >= 6]
            step = max(1, len(own) // per_doc)
            picked = own[::step][:per_doc]
            out.append(Item(group, doc, " ".join(picked), 1, picked, [1] * len(picked)))
            # The same sentences asked of their neighbours: same topic, other facts.
            sents = sentences(doc)
            for sent in sents[:: max(1, len(sents) // per_doc)][:per_doc]:
                j = sents.index(sent)
                near = [x for x in sents[max(0, j - 3) : j + 4] if x != sent]
                mine = [q for q in _questions(sent) if len(q.split()) >= 6]
                if near and mine:
                    out.append(Item(group, " ".join(near), sent, 0, mine, [0] * len(mine)))
            other = ordered[(k + 1) % len(ordered)]
            stmts = sorted({s for i in items if i.doc == doc for s in i.statements})
            out.append(Item(group, other, " ".join(stmts), 0, stmts, [0] * len(stmts)))
    return out


def reference_items(path: Path) -> list[Item]:
    """Each SummEdits summary asked of the original summary it was edited from.

    Two short texts, as the judge is used: the original is the reference, a consistent edit
    is a rewording of it (every statement stated), an inconsistent edit changes one fact
    (its changed statements are not stated, the others are).
    """
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row["summary"].strip() == row["original_summary"].strip():
            continue
        stmts = _questions(row["summary"])
        original = {_key(s) for s in _questions(row["original_summary"])}
        labels = [1 if row["label"] == 1 or _key(s) in original else 0 for s in stmts]
        if row["label"] == 0 and all(labels):
            continue
        out.append(
            Item(
                row["domain"], row["original_summary"], row["summary"], row["label"], stmts, labels
            )
        )
    return out


def short_contrast_items(references: Sequence[Item], own: bool = False) -> list[Item]:
    """Statements of a seed summary asked of a short text that does not state them (0).

    ``own=False``: another seed summary of the same domain (same kind of subject, other
    facts). ``own=True``: each sentence asked of the rest of its own summary (the same
    subject, other facts; a summary that says a thing twice makes a few of these rows wrong,
    so they weigh :data:`REST_WEIGHT`).
    """
    seeds: dict[str, dict[str, str]] = defaultdict(dict)
    for item in references:
        seeds[item.group].setdefault(item.doc, item.doc)
    out = []
    for group, texts in sorted(seeds.items()):
        ordered = sorted(texts, key=lambda t: hashlib.sha256(t.encode()).hexdigest())
        for k, text in enumerate(ordered):
            if not own:
                other = ordered[(k + 1) % len(ordered)]
                stmts = _questions(text)
                if other != text:
                    out.append(Item(group, other, text, 0, stmts, [0] * len(stmts)))
                continue
            sents = sentences(text)
            for j, sent in enumerate(sents):
                rest = " ".join(sents[:j] + sents[j + 1 :])
                mine = _questions(sent)
                if rest and mine:
                    out.append(Item(group, rest, sent, 0, mine, [0] * len(mine)))
    return out


def rewording_items(path: Path = REWORDINGS) -> list[Item]:
    """Short texts as the judge is used on them, from ``benchmarks/data/rewordings.jsonl``.

    Each row is a reference, a faithful rewording of it (other words, number words, units
    written out, clauses turned round) and three other facts on the same subject. Every
    statement of the rewording is stated by the reference and the other way round (1); every
    statement of the other facts is not stated by the reference, nor the reference's by them
    (0). SummEdits' references are summaries edited a word at a time, so they teach the scale
    little about heavy rewordings; these rows do. Written for this project (20 rows in 20
    subjects), separate from ``tests/data/text_pairs.jsonl`` and the hand-made cases.
    """
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        ref, new, other = row["reference"], row["rewording"], row["other_facts"]
        for doc, summary, label in ((ref, new, 1), (new, ref, 1), (ref, other, 0), (other, ref, 0)):
            stmts = _questions(summary)
            out.append(Item("rewordings", doc, summary, label, stmts, [label] * len(stmts)))
    return out


def falke_split(article_id: str) -> str:
    """``"fit"`` or ``"held_out"``: half of the articles by a hash of their id."""
    return (
        "fit" if int(hashlib.sha256(article_id.encode()).hexdigest(), 16) % 2 == 0 else "held_out"
    )


def load_falke(path: Path) -> dict[str, list[dict[str, Any]]]:
    """Falke triples split into ``fit`` and ``held_out`` by article."""
    rows = json.loads(path.read_text(encoding="utf-8"))
    out: dict[str, list[dict[str, Any]]] = {"fit": [], "held_out": []}
    for row in rows:
        out[falke_split(row["article_id"])].append(row)
    return out


def falke_items(rows: list[dict[str, Any]]) -> list[Item]:
    """Two items per triple: the correct sentence (1) and the incorrect one (0)."""
    out = []
    for row in rows:
        art = {_key(s) for s in _questions(row["article_sent"])}
        good = _questions(row["correct_sent"])
        bad = _questions(row["incorrect_sent"])
        out.append(
            Item("falke", row["article_sent"], row["correct_sent"], 1, good, [1] * len(good))
        )
        labels = [1 if _key(s) in art else 0 for s in bad]
        out.append(Item("falke", row["article_sent"], row["incorrect_sent"], 0, bad, labels))
    return out


def signals_of(items: Sequence[Item]) -> list[np.ndarray]:
    """The signal matrix (statements x signals) of each item, documents scored together."""
    encoder = load_encoder()
    by_doc: dict[str, list[int]] = defaultdict(list)
    for i, item in enumerate(items):
        by_doc[item.doc].append(i)
    out: list[np.ndarray] = [np.zeros((0, len(SIGNALS))) for _ in items]
    for doc, idx in by_doc.items():
        wanted = sorted({s for i in idx for s in items[i].statements})
        found = dict(zip(wanted, match(encoder, doc, wanted), strict=True))
        for i in idx:
            rows = []
            for s in items[i].statements:
                m = found[s]
                rows.append(m.signals if m is not None else (0.0,) * len(SIGNALS))
            out[i] = np.array(rows, dtype=np.float64).reshape(-1, len(SIGNALS))
    return out


def training_rows(
    items: Sequence[Item], sigs: Sequence[np.ndarray]
) -> tuple[np.ndarray, np.ndarray]:
    """Unique (document, statement) rows with their labels."""
    seen: dict[tuple[str, str], tuple[np.ndarray, int]] = {}
    for item, matrix in zip(items, sigs, strict=True):
        for s, label, row in zip(item.statements, item.statement_labels, matrix, strict=True):
            key = (hashlib.sha256(item.doc.encode()).hexdigest(), _key(s))
            if key in seen and seen[key][1] != label:
                label = min(label, seen[key][1])  # the same words judged both ways: not stated
            seen[key] = (row, label)
    x = np.array([r for r, _ in seen.values()], dtype=np.float64)
    y = np.array([lab for _, lab in seen.values()], dtype=np.float64)
    return x, y


def fit_logistic(
    x: np.ndarray,
    y: np.ndarray,
    l2: float = L2,
    signs: Sequence[int] | None = None,
    sample_weight: np.ndarray | None = None,
) -> Weights:
    """L2-regularised logistic regression (the intercept is not penalised), by Newton's method
    on the weights left free by the sign constraints.

    ``signs`` (default all ``+1``, one per column): ``+1`` keeps a weight >= 0 (more support
    never lowers the answer), ``-1`` keeps it <= 0 (a conflict never raises it), ``0`` is free.
    A weight that would cross zero is held at zero (an active set, as in non-negative least
    squares), so a signal that only helps on the fitting data by its wrong sign is dropped.

    Example:
        >>> x = np.array([[0.0], [0.2], [0.8], [1.0]]); y = np.array([0.0, 0.0, 1.0, 1.0])
        >>> w = fit_logistic(x, y, l2=0.1, signs=[1])
        >>> w.probability((1.0,)) > 0.9 > 0.1 > w.probability((0.0,))
        True
    """
    n, d = x.shape
    sw = np.ones(n) if sample_weight is None else np.asarray(sample_weight, float)
    sign = np.array(list(signs) if signs is not None else [1] * d, float)
    a = np.hstack([x, np.ones((n, 1))])
    w = np.zeros(d + 1)
    penalty = np.full(d + 1, l2)
    penalty[-1] = 0.0
    free = np.ones(d + 1, dtype=bool)

    def loss(v: np.ndarray) -> float:
        z = a @ v
        return float(np.sum(sw * (np.logaddexp(0.0, z) - y * z)) + 0.5 * np.sum(penalty * v * v))

    def newton(free: np.ndarray) -> np.ndarray:
        v = np.where(free, w, 0.0)
        current = loss(v)
        for _ in range(200):
            p = 1.0 / (1.0 + np.exp(-np.clip(a @ v, -30, 30)))
            grad = (a.T @ (sw * (p - y)) + penalty * v)[free]
            af = a[:, free]
            hess = (af * (sw * p * (1 - p))[:, None]).T @ af + np.diag(penalty[free])
            step = np.linalg.solve(hess + 1e-9 * np.eye(int(free.sum())), grad)
            t = 1.0
            while t > 1e-8:  # damped: halve the step until the loss goes down
                trial = v.copy()
                trial[free] -= t * step
                new = loss(trial)
                if new <= current:
                    break
                t /= 2
            v, current = trial, new
            if np.max(np.abs(t * step)) < 1e-9:
                break
        return v

    for _ in range(4 * (d + 1)):
        w = newton(free)
        wrong = np.zeros(d + 1, dtype=bool)
        wrong[:-1] = free[:-1] & (sign * w[:-1] < 0)
        if wrong.any():
            free &= ~wrong
            continue
        # A held weight is freed again when the loss wants it to move the allowed way.
        p = 1.0 / (1.0 + np.exp(-np.clip(a @ w, -30, 30)))
        grad = a.T @ (sw * (p - y)) + penalty * w
        back = np.zeros(d + 1, dtype=bool)
        back[:-1] = ~free[:-1] & (sign * -grad[:-1] > 1e-6)
        if not back.any():
            break
        free |= back
    return Weights(tuple(float(c) for c in w[:-1]), float(w[-1]), (), VERSION)


@dataclass
class Rows:
    """Training rows: signals, labels (1 = stated) and the weight of each row."""

    x: np.ndarray
    y: np.ndarray
    w: np.ndarray

    @staticmethod
    def of(items: Sequence[Item], sigs: Sequence[np.ndarray], weight: float = 1.0) -> Rows:
        if not items:
            return Rows(np.zeros((0, len(SIGNALS))), np.zeros(0), np.zeros(0))
        x, y = training_rows(items, sigs)
        return Rows(x, y, np.full(len(y), weight))

    def __add__(self, other: Rows) -> Rows:
        return Rows(
            np.vstack([self.x, other.x]),
            np.concatenate([self.y, other.y]),
            np.concatenate([self.w, other.w]),
        )

    def stated(self) -> Rows:
        keep = self.y == 1
        return Rows(self.x[keep], self.y[keep], self.w[keep])


@dataclass
class Part:
    """One kind of training item with its signals."""

    items: list[Item]
    sigs: list[np.ndarray]
    weight: float = 1.0

    def rows(self, without: str | None = None) -> Rows:
        keep = [k for k, i in enumerate(self.items) if i.group != without]
        return Rows.of([self.items[k] for k in keep], [self.sigs[k] for k in keep], self.weight)


@dataclass
class Data:
    """Everything the fit reads (see the module docstring)."""

    summedits: Part  # summaries asked of their documents
    references: Part  # summaries asked of the original summary they were edited from
    contrast: Part  # documents' own sentences; other facts of the same domain
    short_contrast: Part  # a seed summary's statements asked of another seed summary
    short_rest: Part  # a seed summary's sentence asked of the rest of that summary
    falke: Part  # the fitting half of Falke et al.
    rewordings: Part  # hand-written rewordings and other facts (benchmarks/data/)

    @staticmethod
    def load(folder: Path) -> Data:
        summedits_path = folder / "summedits" / "dev.jsonl"
        items = load_summedits(summedits_path)
        refs = reference_items(summedits_path)
        contrast = contrast_items(items)
        short = short_contrast_items(refs)
        rest = short_contrast_items(refs, own=True)
        falke = falke_items(load_falke(folder / "falke2019" / "val_sentence_pairs.json")["fit"])
        reworded = rewording_items()
        return Data(
            Part(items, signals_of(items)),
            Part(refs, signals_of(refs)),
            Part(contrast, signals_of(contrast), CONTRAST_WEIGHT),
            Part(short, signals_of(short)),
            Part(rest, signals_of(rest), REST_WEIGHT),
            Part(falke, signals_of(falke), FALKE_WEIGHT),
            Part(reworded, signals_of(reworded)),
        )


def robust_calibration(
    score: np.ndarray, y: np.ndarray, weight: np.ndarray | None = None
) -> tuple[float, float]:
    """``(slope, intercept)`` of ``P(stated) = logistic(slope * score + intercept)``.

    Fitted by maximum likelihood under a label-noise model (robust logistic regression): the
    observed label is flipped with probability ``eps``, itself fitted, so
    ``P(observed 1) = eps + (1 - 2 eps) * logistic(...)``. A few rows labelled wrongly by the
    data's construction (a rewording that is not one, a neighbour sentence that repeats the
    fact) then do not flatten the curve; the judge uses the noise-free curve. Classes are
    weighted to equal total weight. Grid search (slope 0.1 to 6 and intercept -15 to 15 in
    steps of 0.05, eps 0 to 0.3 in steps of 0.02), then a finer grid (steps of 0.005) around
    the best point: a step of 0.05 moves every answer of a short text by up to a percent.

    Example:
        >>> s = np.array([-2.0, -1.0, 1.0, 2.0, 2.5]); lab = np.array([0, 0, 1, 1, 0.0])
        >>> a, b = robust_calibration(s, lab)
        >>> a > 0
        True
    """
    w = np.ones(len(y)) if weight is None else weight

    def search(
        epsilons: np.ndarray, slopes: np.ndarray, intercepts: np.ndarray
    ) -> tuple[float, float, float, float]:
        found = (-np.inf, 0.0, 1.0, 0.0)  # (log-likelihood, eps, slope, intercept)
        for eps in epsilons:
            for a in slopes:
                p = 1.0 / (1.0 + np.exp(-(a * score[None, :] + intercepts[:, None])))
                q = np.clip(eps + (1 - 2 * eps) * p, 1e-12, 1 - 1e-12)
                ll = (w * (y * np.log(q) + (1 - y) * np.log(1 - q))).sum(axis=1)
                i = int(np.argmax(ll))
                if ll[i] > found[0] + 1e-12:
                    found = (float(ll[i]), float(eps), float(a), float(intercepts[i]))
        return found

    _, eps, a, b = search(
        np.arange(0.0, 0.3001, 0.02), np.arange(0.1, 6.001, 0.05), np.arange(-15.0, 15.001, 0.05)
    )
    fine = np.arange(-0.05, 0.05001, 0.005)
    _, _, a, b = search(
        np.clip(eps + np.arange(-0.02, 0.02001, 0.005), 0.0, 0.3), a + fine, b + fine
    )
    return round(a, 4), round(b, 4)


def fit_verdict(data: Data, without: str | None = None) -> Weights:
    """Fit the verdict on every part, leaving out the SummEdits domain ``without``.

    1. Support direction: a logistic regression with weights >= 0 over the support signals,
       on rows whose label is about support: stated SummEdits statements (asked of the
       document and of the original summary), the contrast rows and the Falke rows. The
       SummEdits statements changed by one word are left out of this part: with nothing
       flagged they look fully supported, and fitting support to them would only teach the
       model to doubt every statement (a faithful rewording would score about 0.5).
    2. Support scale: the direction's score is calibrated (:func:`robust_calibration`) on
       short texts as the judge is used: rewordings of the original summary (stated) against
       statements of another seed summary or of the rest of the same summary (not stated),
       and the hand-written rewordings and other facts of :func:`rewording_items`, the two
       sources weighing alike (:data:`REWORDING_SHARE`).
    3. Vetoes: for each conflict signal, the share of support it removes, by maximum
       likelihood over all rows with the support part fixed, under a Beta prior
       (:data:`VETO_PRIOR`); coordinate ascent on a grid of 0.005.
    """
    n = len(SUPPORT_SIGNALS)
    summedits = data.summedits.rows(without)
    references = data.references.rows(without)
    contrast = data.contrast.rows(without)
    falke = data.falke.rows()
    part = summedits.stated() + references.stated() + contrast + falke
    direction = fit_logistic(part.x[:, :n], part.y, sample_weight=part.w)
    cal = references.stated() + data.short_contrast.rows(without) + data.short_rest.rows(without)
    reworded = data.rewordings.rows()
    if len(reworded.y):
        scale = REWORDING_SHARE / (1 - REWORDING_SHARE) * cal.w.sum() / reworded.w.sum()
        cal = cal + Rows(reworded.x, reworded.y, reworded.w * scale)
    slope, intercept = robust_calibration(cal.x[:, :n] @ np.array(direction.coef), cal.y, cal.w)
    coef = tuple(slope * c for c in direction.coef)
    every = summedits + references + contrast + falke
    z = intercept + every.x[:, :n] @ np.array(coef)
    base = 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))
    conflicts = every.x[:, n:]
    vetoes = np.zeros(conflicts.shape[1])
    grid = np.arange(0.0, 0.9951, 0.005)
    for _ in range(4):
        for k in range(len(vetoes)):
            fired = conflicts[:, k] > 0
            if not fired.any():
                vetoes[k] = 0.0
                continue
            others = np.prod(
                (1.0 - np.delete(vetoes, k))[None, :] ** np.delete(conflicts[fired], k, axis=1),
                axis=1,
            )
            rest = base[fired] * others
            y, w, c = every.y[fired], every.w[fired], conflicts[fired, k]
            best, best_ll = 0.0, -np.inf
            for v in grid:
                p = np.clip(rest * (1.0 - v) ** c, 1e-9, 1 - 1e-9)
                ll = float(np.sum(w * (y * np.log(p) + (1 - y) * np.log(1 - p))))
                ll += VETO_PRIOR * (np.log(max(v, 1e-9)) + np.log(1 - v))
                if ll > best_ll:
                    best, best_ll = float(v), ll
            vetoes[k] = best
    return Weights(coef, intercept, tuple(float(v) for v in vetoes), VERSION)


def item_scores(model: Weights, sigs: Sequence[np.ndarray]) -> list[float]:
    """Precision of each item as the judge computes it: the mean of its statements' answers."""
    out = []
    for matrix in sigs:
        answers = [_lexical_answer(model, tuple(float(v) for v in row)) for row in matrix]
        out.append(sum(answers) / len(answers) if answers else 1.0)
    return out


def _lexical_answer(model: Weights, signals: tuple[float, ...]) -> float:
    """The lexical stage's answer (the combiner of ``fit_local_blend.py`` is fitted after it):
    1.0 for a statement that is a passage word for word with nothing flagged, else the
    lexical probability."""
    n = len(model.coef)
    if signals[SIGNALS.index("exact")] == 1.0 and not any(signals[n:]):
        return 1.0
    return round(model.probability(signals), 4)


def balanced_accuracy(scores: Sequence[float], labels: Sequence[int], threshold: float) -> float:
    """Mean of the recall of each class when ``score >= threshold`` predicts consistent."""
    pos = [s >= threshold for s, lab in zip(scores, labels, strict=True) if lab == 1]
    neg = [s < threshold for s, lab in zip(scores, labels, strict=True) if lab == 0]
    parts = [sum(v) / len(v) for v in (pos, neg) if v]
    return sum(parts) / len(parts)


def best_threshold(groups: Sequence[tuple[Sequence[float], Sequence[int]]]) -> float:
    """The threshold with the highest mean balanced accuracy over ``groups`` (the middle of
    the best candidates, so ties do not pick an edge)."""
    values = sorted({s for scores, _ in groups for s in scores})
    cands = [0.0, *((a + b) / 2 for a, b in itertools.pairwise(values)), 1.01]
    marks = [float(np.mean([balanced_accuracy(s, lab, t) for s, lab in groups])) for t in cands]
    top = max(marks)
    best = [t for t, m in zip(cands, marks, strict=True) if m >= top - 1e-12]
    return best[len(best) // 2]


@dataclass
class DomainResult:
    """Balanced accuracy on one SummEdits domain, weights fitted without it."""

    domain: str
    held_out: float  # threshold chosen on the other domains
    oracle: float  # threshold chosen on the domain itself (SummEdits' own protocol)
    threshold: float


def leave_one_domain_out(
    data: Data, log: Callable[[str], None] | None = None
) -> list[DomainResult]:
    """Fit without one domain (every part), score that domain; for each of the 8 domains.

    The threshold for the domain left out is the one with the best mean balanced accuracy on
    the training domains, scored by the same model: no label of the held-out domain is used.
    The ``oracle`` figure picks the threshold on the held-out domain itself (SummEdits' own
    protocol, a threshold per domain), with weights that still never saw that domain.
    """
    items, sigs = data.summedits.items, data.summedits.sigs
    domains = sorted({i.group for i in items})
    out = []
    for d in domains:
        model = fit_verdict(data, without=d)
        groups = {}
        for other in domains:
            ks = [k for k, i in enumerate(items) if i.group == other]
            groups[other] = (
                item_scores(model, [sigs[k] for k in ks]),
                [items[k].label for k in ks],
            )
        t = best_threshold([g for o, g in groups.items() if o != d])
        scores, labels = groups[d]
        res = DomainResult(
            d,
            balanced_accuracy(scores, labels, t),
            balanced_accuracy(scores, labels, best_threshold([(scores, labels)])),
            t,
        )
        if log:
            log(
                f"  {d:12} balanced accuracy {res.held_out:.3f} (threshold {t:.3f} from the"
                f" other domains), {res.oracle:.3f} (threshold chosen on the domain)"
            )
        out.append(res)
    return out


def falke_ranking(model: Weights, rows: list[dict[str, Any]]) -> float:
    """Share of triples where the correct sentence gets the higher precision (ties: half)."""
    items = falke_items(rows)
    scores = item_scores(model, signals_of(items))
    wins = 0.0
    for k in range(0, len(items), 2):
        good, bad = scores[k], scores[k + 1]
        wins += 1.0 if good > bad else 0.5 if good == bad else 0.0
    return wins / (len(items) // 2)


def weights_document(model: Weights, data: Data, figures: dict[str, float]) -> dict[str, Any]:
    """The JSON document of ``verdict.json``."""
    return {
        "version": VERSION,
        "support_signals": list(SUPPORT_SIGNALS),
        "coef": [round(c, 6) for c in model.coef],
        "intercept": round(model.intercept, 6),
        "conflict_signals": list(CONFLICT_SIGNALS),
        "vetoes": [round(v, 4) for v in model.vetoes],
        "fitted_on": {
            "summedits_dev_statements": len(data.summedits.rows().y),
            "summedits_reference_statements": len(data.references.rows().y),
            "contrast_statements": len(data.contrast.rows().y),
            "short_contrast_statements": len(data.short_contrast.rows().y),
            "short_rest_statements": len(data.short_rest.rows().y),
            "rest_weight": REST_WEIGHT,
            "falke_fit_half_statements": len(data.falke.rows().y),
            "rewording_statements": len(data.rewordings.rows().y),
            "rewording_share_of_scale_calibration": REWORDING_SHARE,
            "contrast_weight": CONTRAST_WEIGHT,
            "falke_weight": FALKE_WEIGHT,
            "l2": L2,
            "veto_prior": VETO_PRIOR,
        },
        "held_out_figures": {k: round(v, 4) for k, v in figures.items()},
        "refit": "python benchmarks/fit_local_judge.py --data ../shared/data",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--check", action="store_true", help="print figures, write nothing")
    args = parser.parse_args()
    for p in (args.data / "summedits" / "dev.jsonl", args.data / "falke2019"):
        if not p.exists():
            sys.exit(f"{p} not found: pass --data with the folder of the shared data sets")
    data = Data.load(args.data)
    print("leave-one-domain-out on SummEdits dev (weights never see the domain scored):")
    results = leave_one_domain_out(data, log=print)
    lodo = float(np.mean([r.held_out for r in results]))
    oracle = float(np.mean([r.oracle for r in results]))
    print(f"  mean: {lodo:.3f} (thresholds from other domains), {oracle:.3f} (per domain)")
    model = fit_verdict(data)
    held_rows = load_falke(args.data / "falke2019" / "val_sentence_pairs.json")["held_out"]
    held = falke_ranking(model, held_rows)
    print(f"Falke ranking on the held-out half ({len(held_rows)} triples): {held:.3f}")
    for name, c in zip(SUPPORT_SIGNALS, model.coef, strict=True):
        print(f"  {name:18} {c:+.3f}")
    print(f"  {'intercept':18} {model.intercept:+.3f}")
    for name, v in zip(CONFLICT_SIGNALS, model.vetoes, strict=True):
        print(f"  {name:18} veto {v:.3f}")
    if args.check:
        return
    figures = {
        "summedits_lodo_threshold_from_other_domains": lodo,
        "summedits_lodo_threshold_per_domain": oracle,
        "falke_held_out_half_ranking": held,
    }
    doc = weights_document(model, data, figures)
    # The combiner (fit_local_blend.py) is kept; refit it after the lexical stage changes.
    old = json.loads(WEIGHTS_FILE.read_text(encoding="utf-8"))
    doc.update({k: v for k, v in old.items() if "combiner" in k})
    WEIGHTS_FILE.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {WEIGHTS_FILE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
