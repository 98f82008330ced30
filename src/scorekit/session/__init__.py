"""A scoring session and what it holds: settings, the judge, its cache, budget, question sets
and the audit of each assertion.

Example:
    >>> from scorekit.session import ScoreSession
    >>> from scorekit.judges import resolve_settings
    >>> ScoreSession(resolve_settings(env={})).judge_name
    'local'
"""

from scorekit.session._audit import audit_record, endpoint_host, judge_facts, prompt_hash
from scorekit.session._budget import (
    BudgetCaps,
    BudgetExhaustedError,
    JudgeBudget,
    budget_lines,
    price_of,
)
from scorekit.session._cache import (
    CACHE_FILE_NAME,
    JudgeCache,
    JudgeCacheError,
    JudgeCacheWarning,
    open_cache,
)
from scorekit.session._questions import MODES, QuestionsMissingError, QuestionStore
from scorekit.session._questions_file import QuestionsFileError
from scorekit.session._session import ScoreSession, current_session, set_default_session

__all__ = [
    "CACHE_FILE_NAME",
    "MODES",
    "BudgetCaps",
    "BudgetExhaustedError",
    "JudgeBudget",
    "JudgeCache",
    "JudgeCacheError",
    "JudgeCacheWarning",
    "QuestionStore",
    "QuestionsFileError",
    "QuestionsMissingError",
    "ScoreSession",
    "audit_record",
    "budget_lines",
    "current_session",
    "endpoint_host",
    "judge_facts",
    "open_cache",
    "price_of",
    "prompt_hash",
    "set_default_session",
]
