"""How far a text supports a statement: semantic match, lexical evidence, conflict checks.

The text is cut into passages (sentences, their clauses and comma pieces, and pairs of
adjacent sentences, so a fact told over two sentences is found). For every statement the
candidate passages are the closest by meaning and the ones sharing the most content words; each
candidate gets the evidence

    z = cosine + LEX_WEIGHT * content-word overlap + BIGRAM_WEIGHT * word-pair overlap

(content words weighted by inverse sentence frequency, a synonym counting in part), mapped to
[0, 1] by a steep logistic with a small linear share (``_calibrate``). A passage that states a
different number, a different name or the opposite polarity gives no support. The statement's
support is the best among the passages nearly as close as the closest one (``decide``), so a
contradiction is not outvoted by a merely related passage.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from scorekit.local._lexicon import Features, features
from scorekit.local._model import Encoder, FloatArray
from scorekit.local._statements import clauses, sentences

# Tuned on ../shared/data by a small grid search (benchmarks/bench_local_judge.py prints the
# figures); no held-out set, so treat the figures as fitted, not as a generalisation estimate.
LEX_WEIGHT = 0.45
BIGRAM_WEIGHT = 0.10
MIDPOINT = 0.77
STEEPNESS = 32.0
#: Share of the support that grows linearly with the evidence (see ``_calibrate``).
TAIL = 0.01
#: Share of support kept when a passage contradicts the statement: a contradiction is no support.
NUMBER_KEEP = 0.0
NAME_KEEP = 0.0
NEGATION_KEEP = 0.0
#: Content-word overlap from which a polarity flip counts as a contradiction (full at 1.0).
NEGATION_OVERLAP = 0.7
#: Word closeness (cosine of word vectors) from which a synonym starts to count, and counts fully.
WORD_LOW = 0.45
WORD_HIGH = 0.80
#: Closeness of meaning (cosine) a passage needs before synonyms in it count.
SYNONYM_MIN_COSINE = 0.40
#: Weigh content words by inverse sentence frequency in the answering text.
IDF = True
#: Passages whose support before the checks is this close to the best one's take part.
DECISION_MARGIN = 0.10
#: Candidate passages per statement, by meaning and by shared words.
TOP_K = 6
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


@lru_cache(maxsize=16384)
def _features(text: str) -> Features:
    return features(text)


def passages(text: str) -> list[Passage]:
    """The single-sentence windows of ``text`` (sentences, clauses, comma pieces), in order.

    Pairs of adjacent sentences come from :func:`pair` when a statement needs them.
    """
    return _windows(sentences(text))


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


def _overlap(a: frozenset[object], b: frozenset[object]) -> float:
    return len(a & b) / len(a) if a else 0.0


def _logistic(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-STEEPNESS * (z - MIDPOINT)))


def _calibrate(z: float) -> float:
    """Evidence ``z`` to support: a steep logistic for the yes/no decision, plus a gentle
    linear share (``TAIL``) so that among well-supported statements more evidence still
    ranks higher instead of every one rounding to 1.0."""
    top = 1.0 + LEX_WEIGHT + BIGRAM_WEIGHT
    gentle = min(1.0, max(0.0, (z - MIDPOINT) / (top - MIDPOINT)))
    return (1.0 - TAIL) * _logistic(z) + TAIL * gentle


def conflicts(statement: Features, passage: Passage) -> dict[str, float]:
    """Contradiction checks: the share of support each check keeps (1.0: no conflict).

    Example:
        >>> p = passages("The wall fell in 1989.")[0]
        >>> conflicts(features("The wall fell in 1987."), p)["number"] < 1
        True
    """
    out = {"number": 1.0, "name": 1.0, "negation": 1.0}
    w = passage.feats
    missing = [(v, u) for v, u in statement.quantities if v not in w.numbers]
    extra = [(v, u) for v, u in w.quantities if v not in statement.numbers]
    # Only numbers of the same kind contradict: "3.1%" does not contradict "six withdrawals".
    if any(not a or not b or a == b for _, a in missing for _, b in extra):
        out["number"] = NUMBER_KEEP
    missing_names = {n for n in statement.names if n not in w.words}
    extra_names = {n for n in w.names if n not in statement.words}
    if missing_names and extra_names:
        out["name"] = NAME_KEEP
    best = max(passage.parts, key=lambda p: _overlap(statement.content, p.content))
    shared = statement.content & best.content
    # A negation counts only when it denies words both sides share ("is not refunded" vs
    # "is refunded"), not a clause of its own ("... if he is not sure").
    theirs = sum(1 for scope in best.negation_scopes if scope & shared)
    ours = sum(1 for scope in statement.negation_scopes if scope & shared)
    if theirs % 2 != ours % 2:
        overlap = _overlap(statement.content, best.content)
        if overlap >= NEGATION_OVERLAP:
            strength = min(1.0, (overlap - NEGATION_OVERLAP) / (1.0 - NEGATION_OVERLAP) + 0.5)
            out["negation"] = 1.0 - strength * (1.0 - NEGATION_KEEP)
    return out


def _soft_overlap(
    statement: Features,
    passage: Features,
    vectors: Mapping[str, FloatArray] | None,
    weights: Mapping[str, float] | None = None,
) -> float:
    """Weighted share of the statement's content words the passage holds.

    A word the passage lacks earns the closeness of its nearest passage word (word vectors of
    the same model), ramped from ``WORD_LOW`` (nothing) to ``WORD_HIGH`` (a full match).
    Numbers match only exactly. ``weights`` (inverse sentence frequency in the answering text)
    make the topic words every sentence repeats count less than the specific ones.
    """
    if not statement.surface:
        return 0.0
    w = [1.0 if weights is None else weights.get(st, 1.0) for st, _ in statement.surface]
    exact = [st in passage.content for st, _ in statement.surface]
    others = [word for _, word in passage.surface if word.isalpha()]
    pmat = None
    if vectors is not None and others and not all(exact):
        pmat = np.stack([vectors[o] for o in others])
    total = 0.0
    for weight, hit, (_, word) in zip(w, exact, statement.surface, strict=True):
        if hit:
            total += weight
        elif pmat is not None and vectors is not None and word.isalpha():
            best = float((pmat @ vectors[word]).max())
            total += weight * min(1.0, max(0.0, (best - WORD_LOW) / (WORD_HIGH - WORD_LOW)))
    return total / sum(w)


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


def score_pair(
    statement: Features,
    cosine: float,
    passage: Passage,
    vectors: Mapping[str, FloatArray] | None = None,
    weights: Mapping[str, float] | None = None,
) -> tuple[float, float]:
    """Support of one statement by one passage: ``(before, after)`` the conflict checks."""
    uni = _soft_overlap(statement, passage.feats, vectors, weights if IDF else None)
    bi = _overlap(statement.bigrams, passage.feats.bigrams)
    z = cosine + LEX_WEIGHT * uni + BIGRAM_WEIGHT * bi
    if statement.sequence and passage.feats.sequence == statement.sequence:
        raw = 1.0  # the passage is the statement, word for word
    else:
        raw = _calibrate(z)
    value = raw
    for keep in conflicts(statement, passage).values():
        value *= keep
    return raw, value


def decide(scored: Sequence[tuple[float, float]]) -> float:
    """The support of a statement from its candidates' ``(before, after)`` conflict scores.

    Only passages nearly as close as the closest one speak for the statement, so a passage
    that contradicts it cannot be outvoted by a weaker, merely related passage.
    """
    if not scored:
        return 0.0
    top = max(raw for raw, _ in scored)
    return max(value for raw, value in scored if raw >= top - DECISION_MARGIN)


def _candidates_by_words(stmt: Features, index: dict[str, list[int]], k: int) -> list[int]:
    counts: dict[int, int] = defaultdict(int)
    for word in stmt.content:
        for pid in index.get(word, ()):
            counts[pid] += 1
    return [pid for pid, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:k]]


def support(encoder: Encoder, text: str, statements: Sequence[str]) -> list[float]:
    """Support in [0, 1] of each statement by ``text``, rounded to 4 decimals.

    Memory stays bounded on long texts: passages are embedded ``CHUNK`` at a time and only the
    ``TOP_K`` closest per statement are kept.
    """
    if not statements:
        return []
    sents = sentences(text)
    windows = _windows(sents)
    if not windows:
        return [0.0 for _ in statements]
    stmt_feats = [_features(s) for s in statements]
    # Embedded as the sentence it was taken from reads, so its vector is shared with the
    # passage of the same words (one model run less per sentence).
    svec = encoder.embed([s if s[-1:] in ".!?" else f"{s}." for s in statements])
    n = len(statements)
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
    extras: list[list[int]] = []
    for i, stmt in enumerate(stmt_feats):
        cands = {int(best_idx[i, j]): float(best_cos[i, j]) for j in range(k)}
        extras.append([pid for pid in _candidates_by_words(stmt, index, k) if pid not in cands])
        candidates.append(cands)
    # Vectors of these passages were computed above (the encoder remembers recent ones).
    for i, extra in enumerate(extras):
        if extra:
            evec = encoder.embed([windows[pid].text for pid in extra])
            for pid, cos in zip(extra, (evec @ svec[i]).tolist(), strict=True):
                candidates[i][pid] = float(cos)
    # A fact told over two sentences: the pairs around each statement's candidates.
    pair_ids: dict[int, int] = {}
    wanted: list[list[int]] = []
    for cands in candidates:
        firsts = {windows[pid].sentence + d for pid in cands for d in (-1, 0)}
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
    # Synonyms count only in passages already close in meaning (and only those need word
    # vectors, the costly part on long texts).
    live = [
        [(pid, round(cos, 4)) for pid, cos in sorted(cands.items()) if cos >= SYNONYM_MIN_COSINE]
        for cands in candidates
    ]
    needed: set[str] = set()
    for stmt, pairs in zip(stmt_feats, live, strict=True):
        for pid, _ in pairs:
            lacking = {w for st, w in stmt.surface if st not in windows[pid].feats.content}
            if lacking:  # only words the passage lacks look for a synonym
                needed |= lacking
                needed |= {w for _, w in windows[pid].feats.surface}
    words = sorted(needed)
    words = [w for w in words if w.isalpha()]
    vectors = dict(zip(words, encoder.embed(words), strict=True)) if WORD_HIGH > WORD_LOW else None
    weights = word_weights(sents, stmt_feats)
    out: list[float] = []
    for stmt, cands, pairs in zip(stmt_feats, candidates, live, strict=True):
        alive = {pid for pid, _ in pairs}
        scored = [
            score_pair(
                stmt, round(cos, 4), windows[pid], vectors if pid in alive else None, weights
            )
            for pid, cos in sorted(cands.items())
        ]
        out.append(round(min(1.0, max(0.0, decide(scored))), 4))
    return out
