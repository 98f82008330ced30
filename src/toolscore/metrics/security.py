"""Credentials passed into tools: API keys, tokens and private keys found in arguments.

Only well-known credential formats with distinctive prefixes are reported, so ordinary values
are not; a finding names the call, the argument path (``headers.Authorization``,
``files[0].content``) and the kind, with a redacted preview, never the credential itself.

Example:
    >>> from toolscore.adapters.base import ToolCall
    >>> found = find_secrets([ToolCall("http_get", {"headers": {
    ...     "Authorization": "Bearer ghp_" + "a1B2" * 9}})])
    >>> found["secret_count"], found["secrets"][0]["path"], found["secrets"][0]["kind"]
    (1, 'headers.Authorization', 'github_token')
"""

from toolscore._engine.score.metrics.secrets import (
    find_secrets,
    redact_secrets,
    secret_findings,
    secret_values,
)

__all__ = ["find_secrets", "redact_secrets", "secret_findings", "secret_values"]
