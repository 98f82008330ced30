"""Judges for the dataset tests, importable by worker processes (and Ray workers).

``SentenceJudge`` asks one question per sentence and answers 1.0 exactly when the other text
holds that sentence word for word, so every score of a pair can be worked out by hand.
``LoggedSentenceJudge`` is the same judge, cached, that logs its calls and can stop answering.
"""

from __future__ import annotations

import json
import os
import threading

from scorekit.judges import PermanentJudgeError


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in text.split(".") if s.strip()]


class SentenceJudge:
    """One question per sentence; 1.0 when the other text has the sentence, else 0.0."""

    name = "sentences"

    def make_questions(self, text: str) -> list[str]:
        return [f"{s}?" for s in _sentences(text)]

    def answer_questions(self, text: str, questions: list[str]) -> list[float]:
        have = set(_sentences(text))
        return [1.0 if q[:-1] in have else 0.0 for q in questions]


class LoggedSentenceJudge(SentenceJudge):
    """:class:`SentenceJudge` with a reply cache identity, that logs every call it answers.

    ``SCRIPTED_JUDGE_LOG``: the file each answered call appends one JSON line to
    (``[kind, text]``). ``SCRIPTED_JUDGE_CALLS``: the calls answered; every later call waits
    for ever (the run is killed while it waits), so a kill lands after exactly that many.
    """

    name = "logged-sentences"
    _lock = threading.Lock()
    _started = 0

    def cache_identity(self) -> dict[str, str]:
        return {"provider": "logged-sentences", "version": "1"}

    def _call(self, kind: str, text: str) -> None:
        limit = os.environ.get("SCRIPTED_JUDGE_CALLS")
        with LoggedSentenceJudge._lock:
            LoggedSentenceJudge._started += 1
            number = LoggedSentenceJudge._started
        if limit is not None and number > int(limit):
            threading.Event().wait()  # until the kill
        log = os.environ.get("SCRIPTED_JUDGE_LOG")
        if log:
            fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                os.write(fd, (json.dumps([kind, text]) + "\n").encode())
            finally:
                os.close(fd)

    def make_questions(self, text: str) -> list[str]:
        self._call("questions", text)
        return super().make_questions(text)

    def answer_questions(self, text: str, questions: list[str]) -> list[float]:
        self._call("answers", text + " | " + " ".join(questions))
        return super().answer_questions(text, questions)


class DownJudge:
    """A judge that is down: every call fails for good (no retries)."""

    name = "down"

    def make_questions(self, text: str) -> list[str]:
        raise PermanentJudgeError("401 Unauthorized: the key was revoked")

    def answer_questions(self, text: str, questions: list[str]) -> list[float]:
        raise PermanentJudgeError("401 Unauthorized: the key was revoked")


#: Pairs with their scores by hand: (expected, given, precision, recall).
PAIRS = [
    ("A b. C d. E f.", "A b. C d. E f.", 1.0, 1.0),
    ("A b. C d. E f.", "A b. C d.", 1.0, 2 / 3),
    ("A b. C d.", "A b. C d. X y. Z w.", 0.5, 1.0),
    ("A b.", "Q r.", 0.0, 0.0),
]


def pair_rows(n: int) -> list[dict[str, object]]:
    """``n`` rows cycling through :data:`PAIRS`, ids ``p<i>``."""
    return [
        {"id": f"p{i}", "expected": PAIRS[i % 4][0], "given": PAIRS[i % 4][1]} for i in range(n)
    ]


def unique_pair_rows(n: int) -> list[dict[str, object]]:
    """:func:`pair_rows` whose every sentence names its row, the given text's sentences two
    spaces apart: no two calls of the judge are the same, in a row or across rows (four a row)."""

    def mark(text: str, i: int, gap: str) -> str:
        return gap.join(f"{s.strip()} {i}." for s in text.split(".") if s.strip())

    return [
        {
            "id": f"p{i}",
            "expected": mark(PAIRS[i % 4][0], i, " "),
            "given": mark(PAIRS[i % 4][1], i, "  "),
        }
        for i in range(n)
    ]


def f1(p: float, r: float) -> float:
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)
