"""The one place where judge calls happen: cache -> limiter -> backend -> retries -> validation.

Every public function of ``pytest_texts_score`` reaches a judge through :class:`Judge`. The
judge methods are coroutines: callers plan all independent calls and ``asyncio.gather`` them.

Over 400 lines: one class, whose steps share the state of a call (the cache key, the
single-flight entry, the audit record, the retry budget); split, each part would need them all.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import math
import random
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from functools import partial
from pathlib import Path
from typing import Any, Protocol

from scorekit.format._shorten import shorten
from scorekit.judges._audit_log import CallRecord, current_log
from scorekit.judges._backend import Answers, Backend, Reply, backend_identity, backend_name
from scorekit.judges._equivalence import (
    EQUIVALENCE_PROMPT_VERSION,
    EquivalenceItem,
    Verdict,
    validate_verdicts,
)
from scorekit.judges._errors import (
    CacheMissError,
    InvalidReplyError,
    JudgeConfigError,
    JudgeError,
    JudgeUnavailableError,
    TransientJudgeError,
)
from scorekit.judges._keys import reply_key
from scorekit.judges._parse import validate_answers, validate_questions
from scorekit.judges._settings import setting_value, setting_with_env
from scorekit.judges._stats import JudgeStats
from scorekit.stats._repeat import current_repeat_run

MAXIMAL_RETRY_ON_ERROR = 5
#: Equivalence items sent to an LLM judge in one call.
EQUIVALENCE_BATCH = 10


class ReplyCache(Protocol):
    """What the judge needs of a cache (see ``scorekit.session._cache``)."""

    def get(self, key: str) -> Any | None: ...

    def put(self, key: str, value: Any) -> None: ...


class QuestionSource(Protocol):
    """What the judge needs of a question source (``scorekit.session._questions``)."""

    mode: str

    async def questions(self, judge: Judge, text: str, *, run: int, retry: bool) -> list[str]: ...


class SpendBudget(Protocol):
    """What the judge needs of a budget (see ``scorekit.session._budget.JudgeBudget``)."""

    def reserve(self) -> None: ...

    def spend(self, prompt_tokens: int, completion_tokens: int) -> None: ...


_semaphores: dict[tuple[int, int], asyncio.Semaphore] = {}


def limiter(limit: int) -> asyncio.Semaphore:
    """Return the shared semaphore for ``limit`` on the running event loop.

    All judge calls run on one background loop (see ``scorekit.runtime``), so one semaphore
    per limit bounds the whole process.
    """
    loop = asyncio.get_running_loop()
    key = (id(loop), limit)
    if key not in _semaphores:
        _semaphores[key] = asyncio.Semaphore(limit)
    return _semaphores[key]


async def _call(method: Callable[..., Any], *args: Any) -> Any:
    if inspect.iscoroutinefunction(method):
        return await method(*args)
    # Plain methods may block (HTTP, model inference); a thread keeps other calls in flight.
    result = await asyncio.to_thread(method, *args)
    if inspect.isawaitable(result):
        return await result
    return result


def _as_transient(exc: Exception) -> TransientJudgeError | None:
    """A backend's own exception as a transient one when retrying may help (a dropped
    connection, a timeout), else None."""
    if isinstance(exc, (ConnectionError, TimeoutError, asyncio.TimeoutError)):
        return TransientJudgeError(str(exc))
    return None


def _where(exc: BaseException) -> str:
    """``RuntimeError: boom (my_judge.py:12, in answer_questions)``: the exception and the
    line of the backend that raised it."""
    text = f"{type(exc).__name__}: {exc}"
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return text
    code = tb.tb_frame.f_code
    return f"{text} ({Path(code.co_filename).name}:{tb.tb_lineno}, in {code.co_name})"


def _explained(pairs: object) -> Answers:
    """``(support, reason)`` pairs of ``explain_answers`` as :class:`Answers`."""
    if not isinstance(pairs, (list, tuple)) or not all(
        isinstance(p, (list, tuple)) and len(p) == 2 for p in pairs
    ):
        raise InvalidReplyError(
            f"the judge's explain_answers returned {pairs!r}; expected (support, reason) pairs"
        )
    return Answers([p[0] for p in pairs], [p[1] if isinstance(p[1], str) else None for p in pairs])


def _consume(future: asyncio.Future[Any]) -> None:
    """Mark a shared future's exception as seen: its callers get it; an orphan must not warn."""
    if not future.cancelled():
        future.exception()


class Judge:
    """A backend wrapped with caching, the process-wide limit, retries and validation.

    Args:
        backend: any :class:`Backend`.
        max_concurrency: calls in flight at once across the process.
        cache: a reply cache, or None.
        cache_mode: ``"off"``, ``"on"`` or ``"replay"`` (never call; a miss is an error).
        stats: counters to update (shared with the session report).
        max_retries: retries per call on transient failures.
        sleep: the coroutine that waits between tries (tests inject one that records the
            delays instead of sleeping).
        surface: where the settings are given (``pytest``, ``cli``, ``python``), so that a
            message names them as the user writes them (``--llm-cache=on``, ``--cache on``).
        budget: the session's judge budget (``--llm-budget-*``): every call is reserved
            against it first and raises ``BudgetExhaustedError`` once a cap is reached.
        questions: where question sets come from (``--llm-questions``, a
            ``scorekit.session._questions.QuestionStore``); None: the judge writes them.

    Example:
        >>> from scorekit.runtime import run_sync
        >>> class Echo:
        ...     def make_questions(self, text): return ["Is it so?"]
        ...     def answer_questions(self, text, qs): return [1.0] * len(qs)
        >>> run_sync(Judge(Echo()).questions("It is so."))
        ['Is it so?']
    """

    #: Base delay of the exponential backoff, in seconds (tests may lower it).
    backoff_base: float = 0.5
    #: Replies a deterministic judge keeps for reuse (least recently used go first).
    memo_size: int = 4096
    #: Longest single wait between two tries, in seconds.
    backoff_cap: float = 20.0
    #: Longest wait a server's ``Retry-After`` may ask for, in seconds.
    retry_after_cap: float = 60.0

    def __init__(
        self,
        backend: Backend,
        *,
        max_concurrency: int = 16,
        cache: ReplyCache | None = None,
        cache_mode: str = "on",
        stats: JudgeStats | None = None,
        max_retries: int = MAXIMAL_RETRY_ON_ERROR,
        sleep: Callable[[float], Awaitable[None]] | None = None,
        surface: str = "pytest",
        budget: SpendBudget | None = None,
        questions: QuestionSource | None = None,
    ) -> None:
        self.backend = backend
        self.question_source = questions
        self.budget = budget
        self.name = backend_name(backend)
        self.identity = backend_identity(backend)
        self.max_concurrency = max_concurrency
        self.cache = cache if (cache is not None and self.identity is not None) else None
        self.cache_mode = cache_mode
        self.stats = stats if stats is not None else JudgeStats()
        self.max_retries = max_retries
        self.deterministic = bool(getattr(backend, "deterministic", False))
        self._sleep = sleep or asyncio.sleep
        self.surface = surface
        self._memo: OrderedDict[tuple[Any, ...], asyncio.Future[Any]] = OrderedDict()
        self._in_flight: OrderedDict[str, asyncio.Future[Any]] = OrderedDict()

    # -- public -------------------------------------------------------------------------
    async def questions(self, text: str, *, run: int = 0, retry: bool = True) -> list[str]:
        """Questions for ``text`` in question run ``run``: from the question source when one
        is set (``--llm-questions=record|frozen``), else written by the judge."""
        source = self.question_source
        if source is not None and source.mode != "generate":
            return await source.questions(self, text, run=run, retry=retry)
        return await self.write_questions(text, run=run, retry=retry)

    async def write_questions(self, text: str, *, run: int = 0, retry: bool = True) -> list[str]:
        """Questions the judge writes from ``text`` for question run ``run`` (cached)."""
        result: list[str] = await self._reply("questions", text, None, (run,), retry)
        return result

    async def answers(
        self,
        text: str,
        questions: Sequence[str],
        *,
        run: tuple[int, int] = (0, 0),
        retry: bool = True,
    ) -> list[float]:
        """Support numbers for ``questions`` read from ``text``, for run ``(q_run, a_run)``.

        A backend with ``explain_answers`` gives :class:`~scorekit.judges.Answers`: the same
        numbers with each one's reason (``reasons_of`` reads them; a cached reply has none).
        """
        result: list[float] = await self._reply("answers", text, list(questions), run, retry)
        return result

    # -- internals ------------------------------------------------------------------------
    async def _reply(
        self,
        kind: str,
        text: str,
        questions: list[str] | None,
        run: tuple[int, ...],
        retry: bool,
    ) -> Any:
        key = None
        repeat = current_repeat_run()
        if self.identity is not None and self.cache_mode != "off":
            key = reply_key(self.identity, kind, text, questions, run, repeat)

        def start() -> Coroutine[Any, Any, Any]:
            return self._cached(kind, text, questions, run, retry, key)

        log = current_log()
        # An audited request may get the reply of an identical one (memo, single flight).
        joined = (
            None if log is None else partial(log.add, CallRecord(kind, list(run), text, "shared"))
        )
        if self.deterministic:
            # One reply serves every run with the same inputs; kept in a bounded memo (LRU).
            memo_key = (kind, text, tuple(questions) if questions is not None else None, repeat)
            return await self._shared(self._memo, memo_key, start, keep=True, joined=joined)
        if key is not None:
            # Single flight: identical requests in flight together share one judge call, so
            # the number of calls (and the reply every user of the key sees) does not depend
            # on timing.
            return await self._shared(self._in_flight, key, start, keep=False, joined=joined)
        return await start()

    async def _shared(
        self,
        table: OrderedDict[Any, asyncio.Future[Any]],
        key: Any,
        start: Callable[[], Coroutine[Any, Any, Any]],
        *,
        keep: bool,
        joined: Callable[[], object] | None = None,
    ) -> Any:
        """Await the future ``table`` holds for ``key``, starting it if there is none (or the
        last one failed). ``keep`` leaves it there as a memo (bounded); otherwise it leaves
        the table when it lands. ``joined`` is noted in the audit log when the reply is
        another request's."""
        fut = table.get(key)
        if fut is None or (fut.done() and (fut.cancelled() or fut.exception() is not None)):
            fut = asyncio.ensure_future(start())
            table[key] = fut
            if keep:
                while len(table) > self.memo_size:
                    table.popitem(last=False)
            else:

                def _landed(done: asyncio.Future[Any], k: Any = key) -> None:
                    if table.get(k) is done:
                        del table[k]

                fut.add_done_callback(_landed)
            fut.add_done_callback(_consume)
        else:
            if keep:
                table.move_to_end(key)
            if joined is not None:
                joined()
        return await asyncio.shield(fut)

    async def _cached(
        self,
        kind: str,
        text: str,
        questions: list[str] | None,
        run: tuple[int, ...],
        retry: bool,
        key: str | None,
    ) -> Any:
        stale = False  # an entry exists but failed validation: the new reply replaces it
        log = current_log()
        if key is not None:
            if self.cache is not None:
                hit = self.cache.get(key)
                stale = hit is not None
                if hit is not None:
                    try:
                        value = self._validate(kind, hit, questions)
                    except InvalidReplyError:
                        value = None
                    if value is not None:
                        self.stats.add(cache_hits=1)
                        if log is not None:
                            log.add(CallRecord(kind, list(run), text, "cache"))
                        return value
            if self.cache_mode == "replay":
                where = (
                    "no cached"
                    if self.cache is not None
                    # Outside pytest the cache needs a folder; say so rather than "no entry".
                    else "there is no judge reply cache (set"
                    f" {setting_with_env('cache_dir', self.surface)}), so no cached"
                )
                raise CacheMissError(
                    f"{setting_value('cache', 'replay', self.surface)}: {where} {kind} reply of"
                    f" the {self.name} judge for text {shorten(text, 60)!r} (run"
                    f" {'/'.join(map(str, run))}, key {key[:12]}); run once with"
                    f" {setting_value('cache', 'on', self.surface)} to record it"
                )
        record = None if log is None else log.add(CallRecord(kind, list(run), text))
        value = await self._with_retries(kind, text, questions, retry, record)
        if key is not None and self.cache is not None:
            first_writer = getattr(self.cache, "put_if_absent", None)
            if stale or first_writer is None:
                self.cache.put(key, value)
            else:
                # Another call (this process or an xdist worker) may have stored a reply to
                # the same request meanwhile: use that one, so every user of this key, and
                # every rerun from the cache, scores with the same reply.
                stored = first_writer(key, value)
                if stored is not None and stored != value:
                    try:
                        value = self._validate(kind, stored, questions)
                    except InvalidReplyError:
                        self.cache.put(key, value)
        return value

    def _validate(self, kind: str, value: object, questions: list[str] | None) -> Any:
        if kind == "questions":
            return validate_questions(value)
        assert questions is not None
        return validate_answers(value, len(questions))

    def _delay(self, attempt: int, error: TransientJudgeError) -> float:
        """Seconds to wait before try ``attempt + 2``: the server's ``Retry-After`` when it
        sent one (capped), else exponential backoff with "equal jitter" (half fixed, half
        random) so that concurrent callers do not retry in lockstep."""
        if error.retry_after is not None and math.isfinite(error.retry_after):
            return min(max(float(error.retry_after), 0.0), self.retry_after_cap)
        base = min(self.backoff_cap, self.backoff_base * (2.0**attempt))
        return base / 2 + random.uniform(0, base / 2)

    async def _with_retries(
        self,
        kind: str,
        text: str,
        questions: list[str] | None,
        retry: bool,
        record: CallRecord | None = None,
    ) -> Any:
        explain = getattr(self.backend, "explain_answers", None)

        async def invoke() -> Any:
            if kind == "questions":
                return await _call(self.backend.make_questions, text)
            if explain is not None:
                return _explained(await _call(explain, text, questions))
            return await _call(self.backend.answer_questions, text, questions)

        def validate(raw: Any) -> Any:
            if isinstance(raw, Answers):  # keep the reasons beside the checked numbers
                return Answers(self._validate(kind, list(raw), questions), raw.reasons)
            return self._validate(kind, raw, questions)

        return await self._retrying(kind, invoke, validate, retry, record)

    async def _retrying(
        self,
        kind: str,
        invoke: Callable[[], Awaitable[Any]],
        validate: Callable[[Any], Any],
        retry: bool,
        record: CallRecord | None = None,
    ) -> Any:
        """One judge call under the limit, validated, retried on transient failures
        (``record``: the audit record of the request, updated with each try)."""
        try:
            return await self._tries(kind, invoke, validate, retry, record)
        except Exception as exc:
            if record is not None:
                record.error = str(exc)
            raise

    async def _tries(
        self,
        kind: str,
        invoke: Callable[[], Awaitable[Any]],
        validate: Callable[[Any], Any],
        retry: bool,
        record: CallRecord | None,
    ) -> Any:
        budget = self.max_retries if retry else 0
        attempt = 0
        while True:
            try:
                async with limiter(self.max_concurrency):
                    if self.budget is not None:
                        self.budget.reserve()
                    started = time.perf_counter()
                    try:
                        raw = await invoke()
                    finally:
                        seconds = time.perf_counter() - started
                        self.stats.add(calls=1, judge_seconds=seconds)
                        if record is not None:
                            record.tries += 1
                            record.seconds += seconds
                if isinstance(raw, Reply):
                    if raw.usage is not None:
                        self.stats.add(
                            prompt_tokens=raw.usage.prompt_tokens,
                            completion_tokens=raw.usage.completion_tokens,
                        )
                        if record is not None:
                            record.add_usage(raw.usage.prompt_tokens, raw.usage.completion_tokens)
                        if self.budget is not None:
                            self.budget.spend(raw.usage.prompt_tokens, raw.usage.completion_tokens)
                    raw = raw.value
                return validate(raw)
            except JudgeError as exc:
                if not isinstance(exc, TransientJudgeError):
                    # A settings problem (the local judge given text it cannot read) is
                    # the user's to fix, and reaches them under its own class.
                    if isinstance(exc, (JudgeUnavailableError, JudgeConfigError)):
                        raise
                    raise JudgeUnavailableError(
                        f"The {self.name} judge cannot be used: {exc}"
                    ) from exc
                transient, cause = exc, str(exc)
                origin: Exception = exc
            except Exception as exc:
                # Anything else a backend raises (a custom judge's RuntimeError, a bug in its
                # code) is an outage of the judge, not a score: classified here like HTTP errors.
                as_transient = _as_transient(exc)
                if as_transient is None:
                    raise JudgeUnavailableError(
                        f"The {self.name} judge raised {_where(exc)}"
                    ) from exc
                transient, cause, origin = as_transient, _where(exc), exc
            if attempt >= budget:
                tries = attempt + 1
                raise JudgeUnavailableError(
                    f"The {self.name} judge failed to produce {kind} after {tries}"
                    f" {'try' if tries == 1 else 'tries'}: {cause}"
                ) from origin
            await self._sleep(self._delay(attempt, transient))
            attempt += 1
            self.stats.add(retries=1)

    # -- equivalence ----------------------------------------------------------------------
    async def equivalence(
        self, items: Sequence[EquivalenceItem], *, batch_size: int = EQUIVALENCE_BATCH
    ) -> list[Verdict]:
        """One verdict per item: does the actual value mean the same as the expected one?

        Identical items are judged once; cached verdicts are reused (per item, so a rerun
        with other items around them still hits); the rest go to the judge ``batch_size`` at
        a time, all batches at once under the process-wide limit. A judge without
        ``judge_equivalence`` (the ``local`` judge, custom judges that lack it) falls back to
        the offline similarity judge.

        Raises:
            JudgeUnavailableError: the judge failed after its retries, or cannot be used.
            CacheMissError: ``--llm-cache=replay`` and a verdict is not cached.
        """
        method = getattr(self.backend, "judge_equivalence", None)
        if method is None:
            from scorekit.judges._similarity import SimilarityJudge

            model = getattr(self.backend, "model_path", None)
            similarity = SimilarityJudge.shared(model if isinstance(model, str) else None)
            return await asyncio.to_thread(similarity.judge_equivalence, list(items))
        unique: dict[str, EquivalenceItem] = {}
        for item in items:
            unique.setdefault(item.key_text(), item)
        found: dict[str, Verdict] = {}
        keys: dict[str, str] = {}
        if self.identity is not None and self.cache_mode != "off":
            repeat = current_repeat_run()
            for text in unique:
                key = keys[text] = reply_key(
                    self.identity, EQUIVALENCE_PROMPT_VERSION, text, None, (0,), repeat
                )
                hit = self.cache.get(key) if self.cache is not None else None
                if hit is not None:
                    with contextlib.suppress(InvalidReplyError):
                        (found[text],) = validate_verdicts([hit], 1, self.name)
                        self.stats.add(cache_hits=1)
        missing = [text for text in unique if text not in found]
        if missing and self.cache_mode == "replay":
            raise CacheMissError(
                f"{setting_value('cache', 'replay', self.surface)}: no cached equivalence"
                f" verdict of the {self.name} judge for {shorten(missing[0], 80)}"
                f" ({len(missing)} missing); run once with"
                f" {setting_value('cache', 'on', self.surface)} to record it"
            )
        batches = [missing[i : i + batch_size] for i in range(0, len(missing), batch_size)]

        async def run(batch: list[str]) -> None:
            batch_items = [unique[t] for t in batch]
            verdicts = await self._retrying(
                "equivalence verdicts",
                lambda: _call(method, batch_items),
                lambda raw: validate_verdicts(raw, len(batch_items), self.name),
                True,
            )
            for text, verdict in zip(batch, verdicts, strict=True):
                found[text] = verdict
                if text in keys and self.cache is not None:
                    self.cache.put(keys[text], verdict.to_dict())

        await asyncio.gather(*(run(batch) for batch in batches))
        return [found[item.key_text()] for item in items]
