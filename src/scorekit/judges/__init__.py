"""The judge layer: backends, settings, retries, the concurrency limit and the Judge.

Two kinds of request: questions and answers (texts), and equivalence verdicts (tool-call
arguments).
"""

from typing import TYPE_CHECKING, Any

from scorekit.judges._audit_log import AuditLog, CallRecord, auditing, current_log
from scorekit.judges._backend import (
    Answers,
    Backend,
    Reply,
    Usage,
    backend_identity,
    backend_name,
    reasons_of,
)
from scorekit.judges._equivalence import EquivalenceItem, Verdict
from scorekit.judges._errors import (
    CacheMissError,
    InvalidReplyError,
    JudgeConfigError,
    JudgeError,
    JudgeUnavailableError,
    PermanentJudgeError,
    TransientJudgeError,
)
from scorekit.judges._judge import MAXIMAL_RETRY_ON_ERROR, Judge, ReplyCache
from scorekit.judges._parse import parse_questions
from scorekit.judges._prompts import (
    PROMPT_VERSION,
    get_system_answers_prompt,
    get_system_questions_prompt,
    get_user_answers_prompt,
    get_user_questions_prompt,
    number_questions,
)
from scorekit.judges._settings import (
    OPTIONS,
    OPTIONS_BY_NAME,
    JudgeSettings,
    Option,
    SettingsError,
    resolve_settings,
)
from scorekit.judges._stats import JudgeStats
from scorekit.runtime import run_sync

if TYPE_CHECKING:
    from scorekit.judges._factory import build_backend
    from scorekit.judges._similarity import SIMILARITY_THRESHOLD, SimilarityJudge

# The backends (and the SDKs behind them) load on first use, not with the judge layer.
_LAZY = {
    "build_backend": "_factory",
    "SIMILARITY_THRESHOLD": "_similarity",
    "SimilarityJudge": "_similarity",
}

__all__ = [
    "MAXIMAL_RETRY_ON_ERROR",
    "OPTIONS",
    "OPTIONS_BY_NAME",
    "PROMPT_VERSION",
    "SIMILARITY_THRESHOLD",
    "Answers",
    "AuditLog",
    "Backend",
    "CacheMissError",
    "CallRecord",
    "EquivalenceItem",
    "InvalidReplyError",
    "Judge",
    "JudgeConfigError",
    "JudgeError",
    "JudgeSettings",
    "JudgeStats",
    "JudgeUnavailableError",
    "Option",
    "PermanentJudgeError",
    "Reply",
    "ReplyCache",
    "SettingsError",
    "SimilarityJudge",
    "TransientJudgeError",
    "Usage",
    "Verdict",
    "auditing",
    "backend_identity",
    "backend_name",
    "build_backend",
    "current_log",
    "get_system_answers_prompt",
    "get_system_questions_prompt",
    "get_user_answers_prompt",
    "get_user_questions_prompt",
    "number_questions",
    "parse_questions",
    "reasons_of",
    "resolve_settings",
    "run_sync",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
