"""How a statement's words are put together, and whether the text puts them together so.

The unit checks (``_units``) look up each word of a statement on its own. A summary that
recombines the text's own words into a claim the text never makes ("Leeds scored an unbeaten
run against the Tigers") finds every word somewhere. What tells it apart is the arrangement:
which words stand next to which. This module measures it with pairs of content words:

* the statement's pairs are its adjacent content words and those one or two content words
  apart (skip pairs, so an added adjective does not break a pair);
* a pair is found in a sentence of the text when both words (or WordNet synonyms, or other
  forms of them) stand within :data:`NEAR` content words of each other, in either order (a
  passive or a reordered clause keeps the relation; a swapped role is the unit checks' job);
* :func:`arrangement` gives the share of pairs found in the single best passage (a sentence,
  or two adjacent sentences), the share found anywhere in the text (a fact told across
  sentences) and the share of plain adjacent word pairs, function words included, found in the
  text (what word-bigram precision counts).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from scorekit.local._lexicon import Features
from scorekit.local._units import synonyms

#: Content words a statement's pair may stand apart in the statement (1: adjacent).
SKIP = 3
#: Content words a pair's two words may stand apart in a sentence of the text.
NEAR = 4
#: The arrangement signals, in the order the verdict's weights use; the last one is the
#: number of sentences of the text (a statement is read against a few of them).
ARRANGEMENT_SIGNALS = ("pairs_passage", "pairs_text", "bigrams_text", "sentences")


@dataclass(frozen=True)
class TextIndex:
    """Where each content stem stands in each sentence of a text."""

    #: stem -> [(sentence, position among the sentence's content words)]
    places: dict[str, list[tuple[int, int]]]
    #: every adjacent pair of stems of the text (function words included)
    bigrams: frozenset[tuple[str, str]]
    sentences: int


def content_sequence(feats: Features) -> tuple[str, ...]:
    """The stems of ``feats``' content words in order (stop words and negations left out)."""
    return tuple(s for s in feats.sequence if s in feats.content)


def index_text(sentences: Sequence[Features]) -> TextIndex:
    """Index the content words of a text's sentences (features of each, in order)."""
    places: dict[str, list[tuple[int, int]]] = defaultdict(list)
    bigrams: set[tuple[str, str]] = set()
    for i, feats in enumerate(sentences):
        for j, s in enumerate(content_sequence(feats)):
            places[s].append((i, j))
        bigrams.update(pairwise(feats.sequence))
    return TextIndex(dict(places), frozenset(bigrams), len(sentences))


@lru_cache(maxsize=65536)
def _forms(s: str) -> frozenset[str]:
    return frozenset({s}) | synonyms(s)


def statement_pairs(seq: Sequence[str]) -> list[tuple[str, str]]:
    """The content-word pairs of a statement: each word with the next :data:`SKIP`.

    Example:
        >>> statement_pairs(["leeds", "beat", "hull", "friday"])[:4]
        [('leeds', 'beat'), ('leeds', 'hull'), ('leeds', 'friday'), ('beat', 'hull')]
    """
    out: list[tuple[str, str]] = []
    for i, a in enumerate(seq):
        for b in seq[i + 1 : i + 1 + SKIP]:
            if a != b:
                out.append((a, b))
    return list(dict.fromkeys(out))


def _where(index: TextIndex, s: str) -> list[tuple[int, int]]:
    return [p for f in _forms(s) for p in index.places.get(f, ())]


def _found_in(index: TextIndex, a: str, b: str) -> set[int]:
    """The sentences in which ``a`` and ``b`` (or their synonyms) stand near each other."""
    where_b: dict[int, list[int]] = defaultdict(list)
    for i, j in _where(index, b):
        where_b[i].append(j)
    out: set[int] = set()
    for i, j in _where(index, a):
        if any(abs(j - k) <= NEAR for k in where_b.get(i, ())):
            out.add(i)
    return out


def arrangement(stmt: Features, index: TextIndex) -> tuple[float, ...]:
    """:data:`ARRANGEMENT_SIGNALS` of a statement against an indexed text (shares in ``[0, 1]``).

    A statement of one content word counts that word as its pair.
    """
    seq = content_sequence(stmt)
    pairs = statement_pairs(seq)
    words = list(pairwise(stmt.sequence))
    bigrams = sum(g in index.bigrams for g in words) / len(words) if words else 0.0
    n_sents = float(index.sentences)
    if not pairs:
        found = float(bool(seq) and all(_where(index, s) for s in seq))
        return (found, found, round(bigrams, 4), n_sents)
    per_sentence: dict[int, set[int]] = defaultdict(set)
    anywhere = 0
    for k, (a, b) in enumerate(pairs):
        where = _found_in(index, a, b)
        anywhere += bool(where)
        for i in where:
            per_sentence[i].add(k)
    # Two adjacent sentences count as one passage: a pair found in either is found in it.
    empty: set[int] = set()
    best = max(
        (len(found | per_sentence.get(i + 1, empty)) for i, found in per_sentence.items()),
        default=0,
    )
    n = len(pairs)
    return (round(best / n, 4), round(anywhere / n, 4), round(bigrams, 4), n_sents)
