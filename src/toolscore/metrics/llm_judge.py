"""The tool-call judge: are arguments that exact matching rejected right in meaning?

A thin door onto the shared judge layer (``scorekit.judges``): the same providers (OpenAI,
Azure OpenAI, any OpenAI-compatible server, custom judges), retries with backoff, concurrency
limit, reply validation, cache and replay, and usage counters as ``pytest_texts_score``, so
one configuration (``--llm-*`` options, their ini twins, the environment, or
``pytest_texts_score.configure()``) serves both packages.

Only argument pairs that exact matching rejected go to the judge, many per call and the calls
concurrent. Without a configured LLM the offline MiniLM similarity decides (equivalent from a
cosine similarity of 0.85, numbers must match), and the results say so.

Example:
    >>> from toolscore.adapters.base import ToolCall
    >>> result = calculate_semantic_correctness(
    ...     [ToolCall("get_weather", {"city": "New York City"})],
    ...     [ToolCall("get_weather", {"city": "new york city"})],
    ... )
    >>> result["semantic_score"]
    1.0
"""

from toolscore._engine.judge.config import JudgeConfig, Provider, infer_provider, resolve_judge
from toolscore._engine.judge.evaluation import (
    calculate_batch_semantic_correctness,
    calculate_semantic_correctness,
)

__all__ = [
    "JudgeConfig",
    "Provider",
    "calculate_batch_semantic_correctness",
    "calculate_semantic_correctness",
    "infer_provider",
    "resolve_judge",
]
