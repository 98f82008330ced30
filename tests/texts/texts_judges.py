"""Judges scripted for the pytest_texts_score tests: custom backends, the public extension
point. The fixtures that activate them are in ``texts_fixtures.py``."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from dataclasses import dataclass, field


def sentences(text: str) -> list[str]:
    return [s.strip() for s in text.replace("!", ".").split(".") if s.strip()]


@dataclass
class Call:
    kind: str  # "questions" | "answers"
    text: str
    questions: list[str] | None = None


@dataclass
class ScriptedJudge:
    """Questions: one per sentence (``"<sentence>?"``). Answers: ``answers[question]`` if
    scripted, else 1.0 when the sentence occurs in the text, else 0.0."""

    answers: dict[str, float] = field(default_factory=dict)
    calls: list[Call] = field(default_factory=list)
    name: str = "scripted"
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def make_questions(self, text: str) -> list[str]:
        with self._lock:
            self.calls.append(Call("questions", text))
        return [s + "?" for s in sentences(text)]

    def answer_questions(self, text: str, questions: list[str]) -> list[float]:
        with self._lock:
            self.calls.append(Call("answers", text, list(questions)))
        out = []
        for q in questions:
            if q in self.answers:
                out.append(self.answers[q])
            else:
                out.append(1.0 if q[:-1] in text else 0.0)
        return out

    def count(self, kind: str) -> int:
        return sum(1 for c in self.calls if c.kind == kind)


class InFlightJudge:
    """An async judge that records how many calls of each kind are in flight at once.

    Each call waits (up to ``patience`` seconds) until ``expect[kind]`` calls of its kind are
    in flight, so a judge layer that sends the calls together reaches that number, and one
    that sends them one by one never gets past 1 (it only loses ``patience`` per call; it never
    hangs). No timing is asserted: only counts.
    """

    name = "inflight"

    def __init__(self, questions: int, answers: int, patience: float = 2.0) -> None:
        self.expect = {"questions": questions, "answers": answers}
        self.patience = patience
        self.in_flight = {"questions": 0, "answers": 0}
        self.max_in_flight = {"questions": 0, "answers": 0}
        self.calls = {"questions": 0, "answers": 0}
        self._events: dict[str, asyncio.Event] = {}

    async def _visit(self, kind: str) -> None:
        event = self._events.setdefault(kind, asyncio.Event())
        self.calls[kind] += 1
        self.in_flight[kind] += 1
        self.max_in_flight[kind] = max(self.max_in_flight[kind], self.in_flight[kind])
        if self.in_flight[kind] >= self.expect[kind]:
            event.set()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(event.wait(), self.patience)
        self.in_flight[kind] -= 1

    async def make_questions(self, text: str) -> list[str]:
        await self._visit("questions")
        return [s + "?" for s in sentences(text)]

    async def answer_questions(self, text: str, questions: list[str]) -> list[float]:
        await self._visit("answers")
        return [1.0] * len(questions)


class VaryingJudge:
    """A judge whose runs differ: each question set written from ``varying_base`` is one
    question, ``"varying fact <k>?"`` for the k-th such call, answered ``values[k % n]``;
    questions from any other text are answered 1.0.

    Which run gets which value depends on call order, but the *set* of run scores does not,
    so min, max, median and mean over the runs are known in advance.
    """

    name = "varying"

    def __init__(self, varying_base: str, values: list[float]) -> None:
        self.varying_base = varying_base
        self.values = values
        self._next = 0
        self._lock = threading.Lock()

    def make_questions(self, text: str) -> list[str]:
        if text != self.varying_base:
            return ["steady fact?"]
        with self._lock:
            k, self._next = self._next, self._next + 1
        return [f"varying fact {k}?"]

    def answer_questions(self, text: str, questions: list[str]) -> list[float]:
        return [
            self.values[int(q.removeprefix("varying fact ").rstrip("?")) % len(self.values)]
            if q.startswith("varying fact ")
            else 1.0
            for q in questions
        ]


#: Run scores whose minimum, maximum, median and mean all differ: sorted 0.1, 0.2, 0.8, 0.85,
#: 0.9, so min 0.1, max 0.9, median 0.8, mean 2.85 / 5 = 0.57.
RUN_VALUES = [0.1, 0.9, 0.8, 0.85, 0.2]

#: For each aggregation over RUN_VALUES: keyword arguments it passes with, then ones it fails
#: with. Each failing bound passes for every other aggregation, so an aggregation swapped for
#: another (all forced to the mean, say) fails a test.
RUN_BOUNDS = {
    "min": ({"lower_bound": 0.1}, {"lower_bound": 0.15}),
    "max": ({"upper_bound": 0.9}, {"upper_bound": 0.87}),
    "median": ({"target": 0.8, "max_delta": 0.05}, {"target": 0.57, "max_delta": 0.05}),
    "mean": ({"target": 0.57, "max_delta": 0.05}, {"target": 0.8, "max_delta": 0.05}),
}

#: (function, metric, aggregation) for every aggregated assertion, aliases included.
AGG_FUNCTIONS = [
    (f"texts_agg_{name}_{how}", metric, "mean" if how == "average" else how)
    for name, metric in (
        ("f1", "f1"),
        ("precision", "precision"),
        ("recall", "recall"),
        ("completeness", "precision"),
        ("correctness", "recall"),
    )
    for how in ("min", "max", "median", "mean", "average")
]
