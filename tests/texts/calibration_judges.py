"""Scripted judges for the ``texts-score calibrate`` tests, named with ``--provider
calibration_judges:NAME`` (each is built with no arguments, once per command run).

``SentenceJudge``: one question per sentence of the text (``"<sentence>?"``), answered 1.0 when
the sentence occurs in the answering text, else 0.0. So an item's precision is the share of
its ``given`` sentences found word for word in ``expected``. A sentence holding ``(wobbly)``
is answered 1.0, 0.0, 1.0, ... on the successive calls for one (text, question): its repeats
disagree, in an order that depends on timing, but the set of an item's repeat scores does not.

``InFlightSentenceJudge``: the same answers, as async calls that record how many are in flight
at once (see ``texts_judges.InFlightJudge``); the last one built is ``InFlightSentenceJudge.last``.
"""

from __future__ import annotations

import threading
from typing import ClassVar

from texts_judges import InFlightJudge, sentences

WOBBLY = "(wobbly)"


def _answer(text: str, question: str) -> float:
    return 1.0 if question[:-1] in text else 0.0


class SentenceJudge:
    name = "sentences"
    #: Every instance built, so a test can count the calls of the one its command used.
    built: ClassVar[list[SentenceJudge]] = []

    def __init__(self) -> None:
        self.calls = {"questions": 0, "answers": 0}
        self._wobbles: dict[tuple[str, str], int] = {}
        self._lock = threading.Lock()
        SentenceJudge.built.append(self)

    def make_questions(self, text: str) -> list[str]:
        with self._lock:
            self.calls["questions"] += 1
        return [s + "?" for s in sentences(text)]

    def answer_questions(self, text: str, questions: list[str]) -> list[float]:
        out = []
        with self._lock:
            self.calls["answers"] += 1
            for q in questions:
                if WOBBLY in q:
                    k = self._wobbles.get((text, q), 0)
                    self._wobbles[(text, q)] = k + 1
                    out.append(1.0 if k % 2 == 0 else 0.0)
                else:
                    out.append(_answer(text, q))
        return out


class InFlightSentenceJudge(InFlightJudge):
    name = "inflight"
    #: How many calls of each kind each test expects at once (set before the command runs).
    expect_in_flight: ClassVar[int] = 1
    last: ClassVar[InFlightSentenceJudge | None] = None

    def __init__(self) -> None:
        n = InFlightSentenceJudge.expect_in_flight
        super().__init__(questions=n, answers=n)
        InFlightSentenceJudge.last = self

    async def answer_questions(self, text: str, questions: list[str]) -> list[float]:
        await self._visit("answers")
        return [_answer(text, q) for q in questions]
