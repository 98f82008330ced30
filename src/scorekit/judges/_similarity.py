"""The offline equivalence fallback: sentence-embedding similarity, no LLM, no network.

Used when no LLM judge is configured (the ``local`` judge) or the configured judge cannot
judge equivalence. Two values are equivalent when the cosine similarity of their MiniLM
sentence vectors is at least :data:`SIMILARITY_THRESHOLD` and, when both hold numbers, they
hold the same numbers (vectors barely separate ``2024-05-01`` from ``2024-06-01``). Strings
are compared as they are; other values as compact JSON. It is a blunt instrument: it catches
rewordings, case and common abbreviations, and misses what needs knowledge ("SF" for "San
Francisco" scores 0.81). Configure an LLM judge for those.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Sequence
from typing import Any

from scorekit.format._rounding import format_bound, format_score
from scorekit.judges._equivalence import EquivalenceItem, Verdict

__all__ = ["SIMILARITY_THRESHOLD", "SimilarityJudge"]

#: Cosine similarity from which two values count as equivalent (unit vectors of MiniLM).
SIMILARITY_THRESHOLD = 0.85

_NUMBER_RE = re.compile(r"\d+(?:[.,]\d+)?")
_lock = threading.Lock()
_judges: dict[str | None, SimilarityJudge] = {}


def _as_text(value: Any) -> str:
    if isinstance(value, str):
        return " ".join(value.split())
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=repr)


def _numbers(text: str) -> list[float]:
    return sorted(float(n.replace(",", ".")) for n in _NUMBER_RE.findall(text))


class SimilarityJudge:
    """Equivalence by sentence-embedding similarity (see the module docstring).

    Args:
        model_path: another ONNX sentence-embedding model (default: the packaged MiniLM).
        threshold: the similarity from which values are equivalent.
    """

    name = "similarity"

    def __init__(
        self, model_path: str | None = None, threshold: float = SIMILARITY_THRESHOLD
    ) -> None:
        self.model_path = model_path
        self.threshold = threshold
        self._encoder: Any = None

    @classmethod
    def shared(cls, model_path: str | None = None) -> SimilarityJudge:
        """One judge per model file for the process (the model loads once)."""
        with _lock:
            judge = _judges.get(model_path)
            if judge is None:
                judge = _judges[model_path] = cls(model_path)
            return judge

    def _embed(self, texts: list[str]) -> Any:
        if self._encoder is None:
            # The narrowest door onto the local judge: its sentence encoder, nothing else.
            from scorekit.local._model import load_encoder

            self._encoder = load_encoder(self.model_path)
        return self._encoder.embed(texts)

    def judge_equivalence(self, items: Sequence[EquivalenceItem]) -> list[Verdict]:
        """One verdict per item, from the similarity of the two values."""
        pairs = [(_as_text(i.expected), _as_text(i.actual)) for i in items]
        texts = sorted({t for pair in pairs for t in pair})
        vectors = dict(zip(texts, self._embed(texts), strict=True)) if texts else {}
        out: list[Verdict] = []
        for expected, actual in pairs:
            if expected.casefold() == actual.casefold():
                out.append(Verdict(True, "the same text apart from case", "similarity", 1.0))
                continue
            score = float(vectors[expected] @ vectors[actual])
            left, right = _numbers(expected), _numbers(actual)
            if left and right and left != right:
                out.append(
                    Verdict(
                        False, f"the numbers differ ({similarity_note(score)})", "similarity", score
                    )
                )
                continue
            ok = score >= self.threshold
            out.append(
                Verdict(
                    ok,
                    f"{similarity_note(score, self.threshold)} {'>=' if ok else '<'}"
                    f" {format_bound(self.threshold)}",
                    "similarity",
                    score,
                )
            )
        return out


def similarity_note(score: float, threshold: float | None = None) -> str:
    """``offline similarity 0.9123`` (never reading the same as ``threshold`` unless equal)."""
    return f"offline similarity {format_score(score, threshold)}"
