"""Turn ``openai`` SDK errors into the judge layer's errors, with what to fix and no key.

Transient (retried): HTTP 429 (with ``Retry-After``), 408, 409, 5xx, timeouts, connection
errors, malformed responses. Permanent (fail at once): 401/403 (check the key), 404 (check the
model, deployment, endpoint), 400 and other 4xx (the server's message, quoted).
"""

from __future__ import annotations

import contextlib
import email.utils
import re
import time
from collections.abc import Mapping
from typing import Any

from scorekit.judges._errors import (
    InvalidReplyError,
    JudgeError,
    PermanentJudgeError,
    TransientJudgeError,
)
from scorekit.judges._settings import setting_label

__all__ = ["retry_after_seconds", "scrub", "translate_sdk_error", "transport_failure"]


def _key_hint(provider: str, surface: str) -> str:
    var = "AZURE_OPENAI_API_KEY" if provider == "azure" else "OPENAI_API_KEY"
    return f"{setting_label('api_key', surface)} or {var}"


def scrub(message: str, key: str | None) -> str:
    """Remove the key, and any 6+ character piece of it, from a server message."""
    if key:
        if key in message:
            message = message.replace(key, "***")
        for size in range(min(len(key), 12), 5, -1):
            for start in range(len(key) - size + 1):
                piece = key[start : start + size]
                if piece in message:
                    message = message.replace(piece, "***")
    # Servers echo masked keys ("sk-abc***xyz"); drop those too.
    return re.sub(r"\b(?:sk|key)-[A-Za-z0-9_*.\-]{3,}", "***", message)


def retry_after_seconds(headers: Mapping[str, str] | None) -> float | None:
    if headers is None:
        return None
    for name, scale in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = headers.get(name)
        if value:
            with contextlib.suppress(ValueError):
                return max(0.0, float(value) / scale)
    if not value:  # the ``retry-after`` header: an HTTP date, or nothing
        return None
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _server_message(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and inner.get("message"):
            return str(inner["message"])
        if body.get("message"):
            return str(body["message"])
    message = getattr(exc, "message", None) or str(exc)
    return str(message)


def transport_failure(exc: BaseException) -> str | None:
    """``"timeout"`` or ``"network"`` for an exception of the HTTP transport (``httpx``,
    ``httpcore`` or a fork of them), else None. Read from the class names and modules, so an
    exception of whichever copy of the library the SDK uses is recognised.

    Example:
        >>> ReadTimeout = type("ReadTimeout", (Exception,), {"__module__": "httpcore2._exceptions"})
        >>> transport_failure(ReadTimeout("slow")), transport_failure(ValueError())
        ('timeout', None)
    """
    classes = type(exc).__mro__
    # Any module path through httpx or httpcore, or their forks (the openai SDK now speaks
    # httpx2 / httpcore2), also vendored under another package.
    parts = {part for c in classes for part in c.__module__.split(".")}
    if not any(part.startswith(("httpx", "httpcore")) for part in parts):
        return None
    names = {c.__name__ for c in classes}
    if any(n.endswith("Timeout") or n == "TimeoutException" for n in names):
        return "timeout"
    return "network" if names & {"TransportError", "NetworkError", "ProtocolError"} else None


def translate_sdk_error(
    exc: Exception,
    *,
    provider: str,
    where: str,
    timeout: float,
    fix_404: str,
    key: str | None,
    surface: str = "pytest",
) -> JudgeError:
    """Return the judge error for an SDK exception (or an ``httpx`` / ``httpcore`` transport
    error that escaped it); ``key`` is scrubbed from every quoted server message."""
    import openai

    transport = transport_failure(exc)
    if isinstance(exc, openai.APITimeoutError) or transport == "timeout":
        return TransientJudgeError(
            f"the {where} did not answer within {timeout:g} s"
            f" ({setting_label('timeout', surface, 'cli')})"
        )
    if transport == "network":
        return TransientJudgeError(f"cannot connect to the {where}: {scrub(str(exc), key)}")
    if isinstance(exc, openai.APIConnectionError):
        cause = exc.__cause__ or exc.__context__
        detail = f": {scrub(str(cause), key)}" if cause else ""
        return TransientJudgeError(f"cannot connect to the {where}{detail}")
    if isinstance(exc, openai.APIStatusError):
        code = exc.status_code
        server = scrub(_server_message(exc), key)
        if code == 429 or code >= 500 or code in (408, 409):
            what = "is rate limiting" if code == 429 else "failed"
            return TransientJudgeError(
                f"the {where} {what} (HTTP {code}): {server}",
                retry_after=retry_after_seconds(exc.response.headers),
            )
        if code in (401, 403):
            # Never quote the server here: it may echo part of the key.
            return PermanentJudgeError(
                f"the {where} rejected the API key (HTTP {code}):"
                f" check {_key_hint(provider, surface)}"
            )
        if code == 404:
            return PermanentJudgeError(f"the {where} was not found (HTTP 404): {fix_404}: {server}")
        return PermanentJudgeError(f"the {where} rejected the request (HTTP {code}): {server}")
    if isinstance(exc, openai.APIResponseValidationError):
        return InvalidReplyError(f"the {where} sent a malformed response: {exc}")
    return PermanentJudgeError(f"the {where} failed: {type(exc).__name__}: {scrub(str(exc), key)}")
