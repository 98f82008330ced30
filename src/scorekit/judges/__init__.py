"""The judge layer: backends, settings, retries, the concurrency limit and the Judge.

Two kinds of request: questions and answers (texts), and equivalence verdicts (tool-call
arguments).
"""

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
from scorekit.judges._runner import run_sync
from scorekit.judges._settings import (
    OPTIONS,
    OPTIONS_BY_NAME,
    JudgeSettings,
    Option,
    SettingsError,
    resolve_settings,
)
from scorekit.judges._stats import JudgeStats

__all__ = [
    "MAXIMAL_RETRY_ON_ERROR",
    "OPTIONS",
    "OPTIONS_BY_NAME",
    "Answers",
    "Backend",
    "CacheMissError",
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
    "TransientJudgeError",
    "Usage",
    "Verdict",
    "backend_identity",
    "backend_name",
    "reasons_of",
    "resolve_settings",
    "run_sync",
]
