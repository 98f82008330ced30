"""How far a text supports each statement: the passage it is matched to, and its signals.

The text is cut into passages (sentences, their clauses and comma pieces, and pairs of
adjacent sentences, so a fact told over two sentences is found). For every statement the
candidate passages are the closest by meaning and the ones sharing the most content words; the
statement is matched to the candidate with the most evidence (meaning, words and word pairs),
and its units are checked there (``_units``). The signals of that match (:data:`SIGNALS`) go to
the learned model (``_verdict``), which turns them into a probability that the text states
the statement.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from scorekit.local._arrangement import arrangement, index_text
from scorekit.local._entail import Entailer
from scorekit.local._lexicon import Features, features
from scorekit.local._model import Encoder, FloatArray
from scorekit.local._statements import clauses, focus, sentences
from scorekit.local._units import UnitCheck, check_units

#: How much of the statement its passage holds (more is never less support).
SUPPORT_SIGNALS = (
    "cosine", "credit", "text_credit", "weakest", "bigram", "trigram", "exact", "margin",
)  # fmt: skip
#: Units contradicted or found nowhere (each one vetoes part of the support).
CONFLICT_SIGNALS = (
    "name_conflict",
    "number_conflict",
    "polarity_conflict",
    "opposite_conflict",
    "modality_conflict",
    "relation_conflict",
    "swap_conflict",
    "missing_name",
    "missing_number",
)
#: The signals of one statement, in the order the model's weights use.
SIGNALS = SUPPORT_SIGNALS + CONFLICT_SIGNALS
#: Conflict kinds -> the signal they raise (a quantifier change counts as modality).
_CONFLICT_SIGNAL = {
    "name": "name_conflict",
    "number": "number_conflict",
    "polarity": "polarity_conflict",
    "opposite": "opposite_conflict",
    "modality": "modality_conflict",
    "quantifier": "modality_conflict",
    "relation": "relation_conflict",
    "swap": "swap_conflict",
}
#: Closeness of meaning (cosine) a passage needs before synonyms in it count.
SYNONYM_MIN_COSINE = 0.40
#: Candidate passages per statement, by meaning and by shared words.
TOP_K = 6
#: Candidates (closest first) whose neighbouring sentences are tried as a pair.
PAIR_AROUND = 3
#: Passages embedded at a time (bounds memory on long texts).
CHUNK = 256
_MIN_PIECE_WORDS = 3


@dataclass(frozen=True)
class Passage:
    """One window of the answering text."""

    text: str
    feats: Features
    #: Features of each sentence inside the window (polarity is judged per sentence).
    parts: tuple[Features, ...]
    #: Index of the (first) sentence the window comes from.
    sentence: int = 0


@dataclass(frozen=True)
class Match:
    """A statement matched to its passage: the signals and the unit checks behind them."""

    signals: tuple[float, ...]
    check: UnitCheck
    passage: str
    #: Entailment log-odds of the statement by its best passage (None: no entailment model).
    entail: float | None = None
    #: How much of the statement's arrangement the text holds (``_arrangement``).
    arrangement: tuple[float, ...] = (0.0, 0.0, 0.0, 1.0)


@lru_cache(maxsize=16384)
def _features(text: str) -> Features:
    return features(text)


def _windows(sents: Sequence[str]) -> list[Passage]:
    seen: set[str] = set()
    out: list[Passage] = []
    for i, sent in enumerate(sents):
        pieces = clauses(sent)
        commas = [p for p in sent.rstrip(".!?").split(", ") if len(p.split()) >= _MIN_PIECE_WORDS]
        extra = [*pieces, *commas] if len(pieces) > 1 or len(commas) > 1 else []
        # A piece ends like the statement written from it, so the two share one vector.
        for window, part in [(sent, sent), *((f"{p}.", p) for p in extra)]:
            if window not in seen:
                seen.add(window)
                out.append(Passage(window, _features(window), (_features(part),), i))
    return out


def pair(sents: Sequence[str], i: int) -> Passage:
    """The window of sentences ``i`` and ``i + 1``."""
    text = f"{sents[i]} {sents[i + 1]}"
    return Passage(text, _features(text), (_features(sents[i]), _features(sents[i + 1])), i)


def word_weights(sents: Sequence[str], others: Sequence[Features] = ()) -> dict[str, float]:
    """Inverse sentence frequency of each content word of a text's sentences: ``ln(1 + N / df)``.

    The content words of ``others`` that the text lacks weigh like its rarest word.
    """
    df: dict[str, int] = defaultdict(int)
    for sent in sents:
        for stem in _features(sent).content:
            df[stem] += 1
    n = max(1, len(sents))
    out = {stem: math.log(1.0 + n / count) for stem, count in df.items()}
    rarest = math.log(1.0 + n)
    for feats in others:
        for stem in feats.content:
            out.setdefault(stem, rarest)
    return out


def _gram_share(stmt: Features, passage: Features, n: int) -> float:
    """Share of the statement's word n-grams (function words included) the passage holds."""
    size = min(n, len(stmt.sequence))
    if size == 0:
        return 0.0
    grams = {stmt.sequence[i : i + size] for i in range(len(stmt.sequence) - size + 1)}
    seq = passage.sequence
    theirs = {seq[i : i + size] for i in range(len(seq) - size + 1)}
    return len(grams & theirs) / len(grams)


def _contains(seq: tuple[str, ...], part: tuple[str, ...]) -> bool:
    n = len(part)
    return n > 0 and any(seq[i : i + n] == part for i in range(len(seq) - n + 1))


def _candidates_by_words(stmt: Features, index: dict[str, list[int]], k: int) -> list[int]:
    counts: dict[int, int] = defaultdict(int)
    for word in stmt.content:
        for pid in index.get(word, ()):
            counts[pid] += 1
    return [pid for pid, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:k]]


def _candidates(
    encoder: Encoder,
    sents: list[str],
    windows: list[Passage],
    stmt_feats: list[Features],
    svec: FloatArray,
) -> list[dict[int, float]]:
    """Candidate passages of each statement with their cosine (``windows`` grows by the pairs).

    Memory stays bounded on long texts: passages are embedded ``CHUNK`` at a time and only the
    ``TOP_K`` closest per statement are kept.
    """
    n = len(stmt_feats)
    k = min(TOP_K, len(windows))
    best_cos = np.full((n, k), -2.0, dtype=np.float32)
    best_idx = np.zeros((n, k), dtype=np.int64)
    for start in range(0, len(windows), CHUNK):
        chunk = windows[start : start + CHUNK]
        wvec = encoder.embed([p.text for p in chunk])
        sims = svec @ wvec.T
        merged_cos = np.concatenate([best_cos, sims], axis=1)
        merged_idx = np.concatenate(
            [best_idx, np.arange(start, start + len(chunk))[None, :].repeat(n, axis=0)], axis=1
        )
        # A stable sort keeps ties in passage order, so results never depend on chunking.
        order = np.argsort(-merged_cos, axis=1, kind="stable")[:, :k]
        best_cos = np.take_along_axis(merged_cos, order, axis=1)
        best_idx = np.take_along_axis(merged_idx, order, axis=1)
    index: dict[str, list[int]] = defaultdict(list)
    for pid, p in enumerate(windows):
        for word in p.feats.content:
            index[word].append(pid)
    candidates: list[dict[int, float]] = []
    for i, stmt in enumerate(stmt_feats):
        cands = {int(best_idx[i, j]): float(best_cos[i, j]) for j in range(k)}
        extra = [pid for pid in _candidates_by_words(stmt, index, k) if pid not in cands]
        if extra:
            # Vectors of these passages were computed above (the encoder remembers them).
            evec = encoder.embed([windows[pid].text for pid in extra])
            for pid, cos in zip(extra, (evec @ svec[i]).tolist(), strict=True):
                cands[pid] = float(cos)
        candidates.append(cands)
    # A fact told over two sentences: the pairs around each statement's candidates.
    pair_ids: dict[int, int] = {}
    wanted: list[list[int]] = []
    for cands in candidates:
        # Around the closest few only: pairs are long to embed, and a fact told over two
        # sentences is close to at least one of them.
        near = sorted(cands, key=lambda pid: (-cands[pid], pid))[:PAIR_AROUND]
        firsts = {windows[pid].sentence + d for pid in near for d in (-1, 0)}
        wanted.append(sorted(j for j in firsts if 0 <= j < len(sents) - 1))
    for j in sorted({j for js in wanted for j in js}):
        pair_ids[j] = len(windows)
        windows.append(pair(sents, j))
    all_pairs = sorted(pair_ids)
    for start in range(0, len(all_pairs), CHUNK):
        firsts_chunk = all_pairs[start : start + CHUNK]
        texts = [windows[pair_ids[j]].text for j in firsts_chunk]
        pvec = dict(zip(firsts_chunk, encoder.embed(texts), strict=True))
        for i, js in enumerate(wanted):
            for j in js:
                if j in pvec:
                    candidates[i][pair_ids[j]] = float(pvec[j] @ svec[i])
    return candidates


def match(
    encoder: Encoder,
    text: str,
    statements: Sequence[str],
    entailer: Entailer | None = None,
) -> list[Match | None]:
    """Match each statement to its passage of ``text`` and check its units there.

    With ``entailer``, each match also carries the entailment log-odds of the statement by
    the passages that hold it best (:func:`entail_passages`). None for a statement when the
    text has no passage at all.
    """
    if not statements:
        return []
    sents = sentences(text)
    windows = _windows(sents)
    if not windows:
        return [None for _ in statements]
    full_feats = [_features(s) for s in statements]
    stmt_feats = [_features(focus(s)) for s in statements]
    # Embedded as the sentence it was taken from reads, so its vector is shared with the
    # passage of the same words (one model run less per sentence).
    svec = encoder.embed([s if s[-1:] in ".!?" else f"{s}." for s in statements])
    candidates = _candidates(encoder, sents, windows, full_feats, svec)
    # Synonyms count only in passages already close in meaning (and only those need word
    # vectors, the costly part on long texts).
    needed: set[str] = set()
    for stmt, cands in zip(stmt_feats, candidates, strict=True):
        for pid, cos in cands.items():
            if cos < SYNONYM_MIN_COSINE:
                continue
            feats = windows[pid].feats
            lacking = {w for st, w in stmt.surface if st not in feats.content}
            lacking |= {n for n in stmt.maybe_names if n not in feats.words}
            if lacking:  # only words the passage lacks look for a synonym
                needed |= lacking
                needed |= {w for _, w in feats.surface} | feats.maybe_names | feats.names
    words = sorted(w for w in needed if w.isalpha())
    vectors = dict(zip(words, encoder.embed(words), strict=True))
    weights = word_weights(sents, stmt_feats)
    whole = [_features(s) for s in sents]
    text_stems = frozenset().union(*(f.content for f in whole))
    text_numbers = frozenset().union(*(f.numbers for f in whole))
    text_words = frozenset().union(*(f.words for f in whole))
    index = index_text(whole)
    out: list[Match | None] = []
    for stmt, full, cands in zip(stmt_feats, full_feats, candidates, strict=True):
        best: tuple[float, int, Match] | None = None
        for pid, cos in sorted(cands.items()):
            cos = round(cos, 4)
            p = windows[pid]
            check = check_units(
                stmt,
                p.feats,
                p.parts,
                text_stems,
                text_numbers,
                text_words,
                vectors if cos >= SYNONYM_MIN_COSINE else None,
                weights,
                full,
            )
            grams = (_gram_share(stmt, p.feats, 2), _gram_share(stmt, p.feats, 3))
            # 1: the passage is the statement, word for word; 0.5: it contains it.
            if p.feats.sequence == full.sequence or p.parts[0].sequence == full.sequence:
                exact = 1.0
            else:
                exact = 0.5 if _contains(p.feats.sequence, full.sequence) else 0.0
            evidence = cos + 0.5 * check.credit + 0.5 * grams[0] + exact
            if best is None or evidence > best[0] + 1e-9:
                best = (evidence, pid, Match(_signals(cos, check, grams, exact), check, p.text))
        assert best is not None
        found = replace(best[2], arrangement=arrangement(full, index))
        out.append(_with_margin(found, windows, best[1], cands))
    if entailer is not None:
        out = _with_entailment(entailer, statements, sents, windows, candidates, out)
    return out


#: Closest sentences per statement whose entailment is asked (alone and joined).
ENTAIL_SENTENCES = 2


def entail_passages(
    sents: Sequence[str], windows: Sequence[Passage], cands: dict[int, float], matched: str
) -> list[str]:
    """The passages whose entailment of a statement is asked: the matched passage, the
    :data:`ENTAIL_SENTENCES` sentences closest in meaning, and those joined in text order
    (a fact told over two sentences that need not be adjacent)."""
    closest: dict[int, float] = {}
    for pid, cos in cands.items():
        # Sentences ranked by their own windows (a pair's closeness says little of each half).
        i = windows[pid].sentence
        if len(windows[pid].parts) == 1 and i < len(sents) and cos > closest.get(i, -2.0):
            closest[i] = cos
    near = sorted(closest, key=lambda i: (-closest[i], i))[:ENTAIL_SENTENCES]
    found = [matched, *(sents[i] for i in near)]
    if len(near) == 2:
        found.append(" ".join(sents[i] for i in sorted(near)))
    return list(dict.fromkeys(found))


def _with_entailment(
    entailer: Entailer,
    statements: Sequence[str],
    sents: Sequence[str],
    windows: Sequence[Passage],
    candidates: Sequence[dict[int, float]],
    found: list[Match | None],
) -> list[Match | None]:
    """Each match with the highest entailment log-odds of its statement over its passages."""
    asked: list[list[tuple[str, str]]] = []
    exact, n = SIGNALS.index("exact"), len(SUPPORT_SIGNALS)
    for stmt, cands, m in zip(statements, candidates, found, strict=True):
        # A passage that is the statement word for word, no unit flagged, is stated (1.0)
        # whatever the model says: no need to ask it.
        said = m is not None and m.signals[exact] == 1.0 and not any(m.signals[n:])
        texts = [] if m is None or said else entail_passages(sents, windows, cands, m.passage)
        asked.append([(stmt, t) for t in texts])
    values = iter(entailer.log_odds([p for pairs in asked for p in pairs]))
    out: list[Match | None] = []
    for m, pairs in zip(found, asked, strict=True):
        scores = [next(values) for _ in pairs]
        out.append(m if m is None or not scores else replace(m, entail=max(scores)))
    return out


def _with_margin(found: Match, windows: list[Passage], pid: int, cands: dict[int, float]) -> Match:
    """Add the margin: how much closer the matched passage is than the closest passage that
    shares no sentence with it (a fact stated once stands out; a topic does not)."""
    mine = _sentences_of(windows[pid])
    others = [cos for other, cos in cands.items() if not (_sentences_of(windows[other]) & mine)]
    cos = found.signals[SIGNALS.index("cosine")]
    margin = max(0.0, cos - max(others)) if others else cos
    values = list(found.signals)
    values[SIGNALS.index("margin")] = round(margin, 4)
    return replace(found, signals=tuple(values))


def _sentences_of(p: Passage) -> set[int]:
    return {p.sentence, p.sentence + 1} if len(p.parts) > 1 else {p.sentence}


def _signals(
    cos: float, check: UnitCheck, grams: tuple[float, float], exact: float
) -> tuple[float, ...]:
    values = dict.fromkeys(SIGNALS, 0.0)
    values.update(
        cosine=cos,
        credit=check.credit,
        text_credit=check.text_credit,
        weakest=check.weakest,
        bigram=grams[0],
        trigram=grams[1],
        exact=exact,
        missing_name=float(min(2, check.missing_names)),
        missing_number=float(min(2, check.missing_numbers)),
    )
    for kind in check.conflicts:
        values[_CONFLICT_SIGNAL[kind]] = 1.0
    return tuple(round(values[name], 4) for name in SIGNALS)
