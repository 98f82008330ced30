"""The ``audit`` object of a report row: how a scored assertion reached its verdict.

:func:`audit_record` turns the judge requests an assertion logged
(:class:`scorekit.judges.AuditLog`), the facts of the session's judge (:func:`judge_facts`) and
the assertion's runs into the row's ``audit`` object (schema in ``docs/reports.md``).

Nothing here holds a key: the judge's endpoint is reduced to its host (and port); user info,
path and query string of the URL are dropped.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from scorekit.format._rounding import round_score
from scorekit.judges._audit_log import AuditLog, CallRecord

if TYPE_CHECKING:
    from scorekit.report._rows import Evidence, RunScore
    from scorekit.session._session import ScoreSession

__all__ = ["audit_record", "endpoint_host", "judge_facts", "prompt_hash"]


def endpoint_host(url: object) -> str | None:
    """The host (and port) of an endpoint URL: never its user info, path or query string.

    Example:
        >>> endpoint_host("https://user:sk-secret@example.com:8443/v1?api-key=sk-secret")
        'example.com:8443'
        >>> endpoint_host("http://127.0.0.1:8000/v1"), endpoint_host(None)
        ('127.0.0.1:8000', None)
    """
    if not isinstance(url, str) or not url.strip():
        return None
    text = url.strip()
    try:
        parts = urlsplit(text if "//" in text else f"//{text}")
        host = parts.hostname
        port = parts.port
    except ValueError:
        return None
    if not host:
        return None
    if ":" in host:  # an IPv6 address keeps its brackets
        host = f"[{host}]"
    return f"{host}:{port}" if port is not None else host


@functools.cache
def prompt_hash() -> str:
    """``sha256:`` and the first 16 hex digits of the hash of the LLM judges' prompt texts
    (both system prompts and both user templates), so a record tells which prompts scored it
    even if ``PROMPT_VERSION`` was not bumped.

    Example:
        >>> prompt_hash().startswith("sha256:") and len(prompt_hash()) == 7 + 16
        True
    """
    from scorekit.judges import _prompts as p

    parts = [
        p.get_system_questions_prompt(),
        p.get_user_questions_prompt("{text}"),
        p.get_system_answers_prompt(),
        p.get_user_answers_prompt("{text}", "{questions}"),
    ]
    digest = hashlib.sha256("\x00".join(parts).encode("utf-8")).hexdigest()
    return f"sha256:{digest[:16]}"


def _text_or_none(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _number_or_none(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _int_or_none(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value


def judge_facts(session: ScoreSession) -> dict[str, Any]:
    """Provider, model, endpoint host, prompt version and hash, temperature of the session's
    judge (from the judge itself once built, else from the settings). Never the key.

    Example:
        >>> from scorekit.session._session import ScoreSession
        >>> from scorekit.judges import resolve_settings
        >>> s = ScoreSession(resolve_settings(overrides={"provider": "openai", "model": "m",
        ...     "base_url": "http://u:pw@127.0.0.1:9/v1?k=1", "api_key": "sk-x"}, env={}))
        >>> facts = judge_facts(s)
        >>> facts["provider"], facts["model"], facts["endpoint_host"], facts["temperature"]
        ('openai', 'm', '127.0.0.1:9', 0.0)
    """
    from scorekit.judges._backend import backend_identity, backend_name
    from scorekit.judges._prompts import PROMPT_VERSION

    settings = session.settings
    judge = session.built_judge
    if judge is None:
        provider = session.judge_name
        llm = provider in ("openai", "azure")
        endpoint = (settings.endpoint or settings.base_url) if llm else None
        if provider == "openai" and endpoint is None:
            endpoint = "https://api.openai.com/v1"
        model = (settings.model or settings.deployment) if llm else settings.local_model
        return {
            "provider": provider,
            "model": model,
            "deployment": settings.deployment if provider == "azure" else None,
            "endpoint_host": endpoint_host(endpoint),
            "api_version": settings.api_version if provider == "azure" else None,
            "temperature": settings.temperature if llm else None,
            "max_tokens": settings.max_tokens if llm else None,
            "prompt_version": PROMPT_VERSION if llm else None,
            "prompt_hash": prompt_hash() if llm else None,
        }
    backend = judge.backend
    identity: Mapping[str, Any] = backend_identity(backend) or {}

    def fact(name: str) -> Any:
        return identity.get(name, getattr(backend, name, None))

    version = _text_or_none(fact("prompt_version"))
    model = _text_or_none(fact("model")) or _text_or_none(getattr(backend, "model_path", None))
    return {
        "provider": backend_name(backend),
        "model": model,
        "deployment": _text_or_none(fact("deployment")),
        "endpoint_host": endpoint_host(fact("endpoint")),
        "api_version": _text_or_none(fact("api_version")),
        "temperature": _number_or_none(fact("temperature")),
        "max_tokens": _int_or_none(fact("max_tokens")),
        "prompt_version": version,
        "prompt_hash": prompt_hash() if version == PROMPT_VERSION else None,
    }


def _side_of(record: CallRecord, expected: str, given: str) -> str | None:
    # Precision: questions from given, answered from expected; recall the other way round.
    first, second = (given, expected) if record.kind == "questions" else (expected, given)
    if record.text == first:
        return "precision"
    return "recall" if record.text == second else None


def _question_sets(evidence: Sequence[Evidence]) -> list[dict[str, Any]]:
    """Each (side, question run)'s questions, and each answer run's answers to them."""
    sets: dict[tuple[str, int], dict[int, list[Evidence]]] = {}
    for ev in evidence:
        q, a = [*ev.run, 0, 0][:2]
        sets.setdefault((ev.side, int(q)), {}).setdefault(int(a), []).append(ev)
    return [
        {
            "side": side,
            "question_run": q,
            "questions": [ev.question for ev in by_answer_run[min(by_answer_run)]],
            "answers": [
                {"answer_run": a, "answers": [round_score(ev.answer) for ev in evs]}
                | ({"reasons": [ev.reason for ev in evs]} if any(ev.reason for ev in evs) else {})
                for a, evs in sorted(by_answer_run.items())
            ],
        }
        for (side, q), by_answer_run in sorted(
            sets.items(), key=lambda kv: (kv[0][0] != "precision", kv[0][1])
        )
    ]


def audit_record(
    *,
    facts: Mapping[str, Any],
    log: AuditLog,
    runs: Sequence[RunScore],
    evidence: Sequence[Evidence],
    expected: str,
    given: str,
    repeat_run: int = 0,
) -> dict[str, Any]:
    """The ``audit`` object of one assertion (see ``docs/reports.md``).

    Example:
        >>> log = AuditLog()
        >>> _ = log.add(CallRecord("questions", [0], "b", "judge", 1, 10, 5))
        >>> _ = log.add(CallRecord("answers", [0, 0], "a", "cache"))
        >>> rec = audit_record(facts={"model": "gpt-4o-mini"}, log=log, runs=[], evidence=[],
        ...                    expected="a", given="b")
        >>> rec["totals"]["calls"], rec["totals"]["cache_hits"], rec["totals"]["tokens"]
        (1, 1, 15)
        >>> rec["calls"][0]["side"], rec["calls"][1]["source"]
        ('precision', 'cache')
    """
    from scorekit.report._prices import estimate_cost

    records = log.records()
    calls: list[dict[str, Any]] = []
    prompt = completion = 0
    has_usage = False
    for r in records:
        call = {"kind": r.kind, "side": _side_of(r, expected, given)} | asdict(r)
        del call["text"]  # only to tell the side; never written out
        calls.append(call | {"seconds": round(r.seconds, 4)})
        if r.prompt_tokens is not None or r.completion_tokens is not None:
            has_usage = True
            prompt += r.prompt_tokens or 0
            completion += r.completion_tokens or 0
    model = facts.get("model")
    cost = estimate_cost(model if isinstance(model, str) else None, prompt, completion)
    return {
        "judge": dict(facts),
        "repeat_run": repeat_run,
        "runs": [asdict(run) for run in runs],
        "question_sets": _question_sets(evidence),
        "calls": calls,
        "totals": {
            "calls": sum(1 for r in records if r.source == "judge"),
            "requests_sent": sum(r.tries for r in records),
            "cache_hits": sum(1 for r in records if r.source == "cache"),
            "shared": sum(1 for r in records if r.source == "shared"),
            "prompt_tokens": prompt if has_usage else None,
            "completion_tokens": completion if has_usage else None,
            "tokens": prompt + completion if has_usage else None,
            "estimated_cost_usd": round(cost, 8) if cost is not None else None,
        },
    }
