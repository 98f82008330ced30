"""The errors of the judge layer.

A judge problem is never a failed assertion: the public faces turn these into test *errors*.
"""

from __future__ import annotations


class JudgeError(Exception):
    """A judge call could not produce a valid reply.

    Attributes:
        transient: True when trying again may help (rate limit, 5xx, timeout, connection,
            invalid model output); False when it cannot (authentication, not found, bad request).
    """

    transient: bool = False

    def __init__(self, message: str, *, transient: bool | None = None) -> None:
        super().__init__(message)
        if transient is not None:
            self.transient = transient


class TransientJudgeError(JudgeError):
    """Worth retrying: HTTP 429, 5xx, a timeout, a refused connection.

    Attributes:
        retry_after: seconds the server asked us to wait (``Retry-After``), if it said.
    """

    transient = True

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message, transient=True)
        self.retry_after = retry_after


class InvalidReplyError(TransientJudgeError):
    """The judge answered, but not in a shape we accept (quoted in the message)."""


class PermanentJudgeError(JudgeError):
    """Retrying cannot help: fix the configuration (key, endpoint, model, request)."""

    transient = False


class JudgeUnavailableError(JudgeError):
    """Raised to the user after the retry budget is spent or on a permanent error."""


class CacheMissError(JudgeError):
    """``--llm-cache=replay`` and the reply is not in the cache."""


class JudgeConfigError(JudgeError):
    """The judge settings are unusable (unknown provider, missing endpoint, bad model file)."""
