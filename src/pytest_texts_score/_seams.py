"""The reference API's functions as seams a test may replace, and the retries around them.

Teams test their suites without an LLM by patching the documented functions with
``unittest.mock.patch``: ``evaluate_score.make_questions`` and ``evaluate_questions`` (the names
``evaluate_score`` imports from ``communication``), ``evaluate_score.texts_multiple_f1``, the
``api_wrappers`` aliases, and so on. A patch replaces the *module attribute*, so every caller
here looks the name up on its module at call time (:func:`current`) and compares it with the
function the module defined (:func:`register` keeps those):

* still the original: the call goes into the one scoring pipeline, which sends the judge calls
  of a call together and keeps the evidence for failure messages;
* replaced: the replacement is called with the arguments, and in the order, the reference
  implementation uses, so call counts, arguments and ``side_effect`` lists behave as they did.

Retries at the seams behave as the reference's (:class:`RetryBudget`,
:class:`RetriesExhaustedError`). Our own errors are not retried here: a
:class:`~scorekit.judges.JudgeError` was classified, and retried when transient, inside the
judge layer, and a ``pytest.UsageError`` cannot change. Any other exception, such as a patch
raising ``Exception``, counts as worth another try.
"""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Awaitable, Callable, Coroutine, Generator, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import pytest

from scorekit.judges import InvalidReplyError, JudgeError, parse_questions

if TYPE_CHECKING:
    from scorekit.session import ScoreSession

__all__ = [
    "API",
    "EVALUATE_SCORE",
    "WRAPPERS",
    "DoorCall",
    "RetriesExhaustedError",
    "RetryBudget",
    "SeamCalls",
    "current",
    "door_call",
    "door_context",
    "first_replacement",
    "is_replaced",
    "parse_question_text",
    "register",
    "run_inline",
]

EVALUATE_SCORE = "pytest_texts_score.evaluate_score"
API = "pytest_texts_score.api"
WRAPPERS = "pytest_texts_score.api_wrappers"

_log = logging.getLogger("pytest_texts_score")
T = TypeVar("T")

_originals: dict[tuple[str, str], object] = {}


def register(module_name: str, *names: str) -> None:
    """Remember the objects ``module_name`` binds to ``names`` now, as the originals.

    Each seam module calls this once, at the end of its import.
    """
    module = sys.modules[module_name]
    for name in names:
        _originals[(module_name, name)] = getattr(module, name)


def current(module_name: str, name: str) -> Any:
    """What ``module_name.name`` is right now (a patch, or the original)."""
    return getattr(sys.modules[module_name], name)


def is_replaced(module_name: str, *names: str) -> bool:
    """True when any of ``names`` on ``module_name`` is no longer the registered original."""
    return any(current(module_name, n) is not _originals[(module_name, n)] for n in names)


def first_replacement(candidates: Sequence[tuple[str, str]]) -> Callable[..., Any] | None:
    """The first ``(module, name)`` in ``candidates`` that is replaced, or None."""
    for module_name, name in candidates:
        if is_replaced(module_name, name):
            fn: Callable[..., Any] = current(module_name, name)
            return fn
    return None


@dataclass(frozen=True)
class DoorCall:
    """What the real ``make_questions`` / ``evaluate_questions`` cannot take as arguments:
    the run, so that repeated runs stay distinct judge samples (the cache key holds it), the
    judge layer's retries, and the session (None: the current one)."""

    run: tuple[int, int] = (0, 0)
    retry: bool = True
    session: ScoreSession | None = None


_door: ContextVar[DoorCall | None] = ContextVar("pytest_texts_score_door", default=None)


def door_call() -> DoorCall:
    """The context of the pipeline calling a door (defaults when a user calls it directly)."""
    return _door.get() or DoorCall()


@contextlib.contextmanager
def door_context(run: tuple[int, int], retry: bool, session: ScoreSession | None) -> Iterator[None]:
    """Call the seams inside this block as run ``run`` of the pipeline."""
    token = _door.set(DoorCall(run, retry, session))
    try:
        yield
    finally:
        _door.reset(token)


class RetriesExhaustedError(Exception):
    """A replaced ``make_questions`` / ``evaluate_questions`` kept failing with ``retry_on_error``.

    The message is the reference's, ``Operation failed after {n} retries. Last error: {error}``
    (``n`` is ``MAXIMAL_RETRY_ON_ERROR + 1``, the number of failed tries, as the reference counts
    them), so tests that match on it keep passing. The last error is ``__cause__``.

    Attributes:
        retries: the ``n`` of the message.
        last_error: the exception the last try raised (also ``__cause__``).
        what: the public function that gave up, such as ``"score_one_side"``.
    """

    def __init__(self, retries: int, last_error: BaseException, what: str = "") -> None:
        super().__init__(f"Operation failed after {retries} retries. Last error: {last_error}")
        self.retries = retries
        self.last_error = last_error
        self.what = what


def _final(exc: BaseException) -> bool:
    return isinstance(exc, (JudgeError, pytest.UsageError, RetriesExhaustedError))


class RetryBudget:
    """The retries one public call may spend on failed units (shared by its question runs):
    ``evaluate_score.MAXIMAL_RETRY_ON_ERROR``. Without ``retry_on_error`` the first failure is
    raised unchanged; ``what`` names the public function in the log line and the error."""

    def __init__(self, retry_on_error: bool, what: str) -> None:
        self.enabled = bool(retry_on_error)
        self.what = what
        # Read at call time, as the reference does: a test may patch the constant.
        self.limit = int(current(EVALUATE_SCORE, "MAXIMAL_RETRY_ON_ERROR"))
        self.used = 0

    def absorb(self, exc: Exception) -> None:
        """Return when the failed unit may run again; otherwise raise.

        Raises:
            Exception: ``exc`` itself without ``retry_on_error`` or when it is one of ours
                (final); :class:`RetriesExhaustedError` from ``exc`` when the budget is spent.
        """
        __tracebackhide__ = True
        if not self.enabled or _final(exc):
            raise exc
        if self.used >= self.limit:
            # The reference counts the failed tries, the first one included, as "retries".
            raise RetriesExhaustedError(self.used + 1, exc, self.what) from exc
        self.used += 1
        _log.warning(
            "%s: %s: %s; retrying (%d of %d)",
            self.what,
            type(exc).__name__,
            exc,
            self.used,
            self.limit,
        )


# -- the adapter: the scoring pipeline's calls made through the seams -------------------------


def parse_question_text(questions_text: object) -> list[str] | None:
    """The questions in a ``make_questions`` reply, or None when it holds none we can read."""
    if not isinstance(questions_text, str) or not questions_text.strip():
        return None
    try:
        return parse_questions(questions_text)
    except InvalidReplyError:
        return None


class _Turn:
    """Awaited before each seam call: hands the turn to the next side of a unit."""

    def __await__(self) -> Generator[None, None, None]:
        yield


class SeamCalls:
    """The scoring pipeline's calls through ``evaluate_score.make_questions`` and
    ``evaluate_questions`` as they are at call time, one after the other.

    The pipeline starts every side run at once and gathers them unit by unit; here a started
    run only waits for its unit, and the sides of a unit take turns call by call, so the calls
    come in the reference's order: per question run, the question sets side by side, then each
    answer run side by side. Nothing here waits on anything else: :func:`run_inline` runs the
    pipeline to its end in the calling thread, where the real seams may use the judge loop.
    """

    def __init__(self, retry: bool, session: ScoreSession | None) -> None:
        self.retry = retry
        self.session = session

    def start(self, coro: Coroutine[Any, Any, T]) -> Coroutine[Any, Any, T]:
        return coro  # runs when its unit's turn comes

    async def gather(self, aws: Sequence[Awaitable[T]]) -> list[T]:
        __tracebackhide__ = True
        out: list[T] = []
        try:
            for aw in aws:
                out.append(await aw)
        finally:
            await self.discard(aws[len(out) + 1 :])
        return out

    async def side_by_side(self, runs: Sequence[Awaitable[T]]) -> list[T]:
        """Step each side run to its next call in turn, until all are done."""
        __tracebackhide__ = True
        coros: list[Coroutine[Any, Any, T]] = list(runs)  # type: ignore[arg-type]
        results: dict[int, T] = {}
        try:
            while len(results) < len(coros):
                for i, coro in enumerate(coros):
                    if i not in results:
                        try:
                            coro.send(None)
                        except StopIteration as stop:
                            results[i] = stop.value
        except BaseException:
            await self.discard(coros)
            raise
        return [results[i] for i in range(len(coros))]

    async def discard(self, started: Sequence[Awaitable[Any]]) -> None:
        for coro in started:
            coro.close()  # type: ignore[attr-defined]

    async def questions(self, base: str, q: int) -> tuple[object, list[str] | None]:
        __tracebackhide__ = True
        await _Turn()
        with door_context((q, 0), self.retry, self.session):
            text = current(EVALUATE_SCORE, "make_questions")(base)
        # Parsed only to name the questions when a replaced evaluate_questions does not.
        return text, parse_question_text(text)

    async def answers(
        self, answer: str, asked: object, questions: list[str] | None, run: tuple[int, int]
    ) -> object:
        __tracebackhide__ = True
        await _Turn()
        with door_context(run, self.retry, self.session):
            return current(EVALUATE_SCORE, "evaluate_questions")(answer, asked)


def run_inline(coro: Coroutine[Any, Any, T]) -> T:
    """Run the pipeline over :class:`SeamCalls` (which never waits) in this thread."""
    __tracebackhide__ = True
    try:
        coro.send(None)
    except StopIteration as stop:
        result: T = stop.value
        return result
    coro.close()
    raise RuntimeError("the seams adapter waited outside a unit; it must not")
