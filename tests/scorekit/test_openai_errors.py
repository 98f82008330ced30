"""Small parts of the SDK error translation: Retry-After forms and key scrubbing."""

from __future__ import annotations

import email.utils
import time

import pytest

from scorekit.judges._errors import TransientJudgeError
from scorekit.judges._openai_errors import (
    retry_after_seconds,
    scrub,
    translate_sdk_error,
    transport_failure,
)


@pytest.mark.parametrize(
    ("headers", "seconds"),
    [
        ({}, None),
        (None, None),
        ({"retry-after": "3"}, 3.0),
        ({"retry-after": "0.25"}, 0.25),
        ({"retry-after": "-5"}, 0.0),
        ({"retry-after-ms": "1500", "retry-after": "9"}, 1.5),
        ({"retry-after-ms": "soon", "retry-after": "2"}, 2.0),
        ({"retry-after": "whenever"}, None),
    ],
)
def test_retry_after_forms(headers: dict[str, str] | None, seconds: float | None) -> None:
    assert retry_after_seconds(headers) == seconds


def test_retry_after_http_date() -> None:
    when = email.utils.formatdate(time.time() + 30, usegmt=True)
    value = retry_after_seconds({"retry-after": when})
    assert value is not None and 25 <= value <= 31


def test_scrub_removes_the_key_pieces_and_masked_keys() -> None:
    key = "sk-proj-ABCDEFGHIJKLMNOP0123"
    message = f"bad key {key}; tail ...MNOP0123; masked sk-proj-***0123; model gpt-4o"
    cleaned = scrub(message, key)
    assert "ABCDEF" not in cleaned and "MNOP0123" not in cleaned and "sk-proj" not in cleaned
    assert "model gpt-4o" in cleaned
    assert scrub("nothing secret", None) == "nothing secret"


def _transport(name: str, module: str, *bases: type) -> type:
    return type(name, bases or (Exception,), {"__module__": module})


@pytest.mark.parametrize(
    ("exc", "message"),
    [
        (_transport("ReadTimeout", "httpx")("timed out"), "the judge did not answer within 0.2 s"),
        (_transport("ConnectTimeout", "httpx2")(""), "the judge did not answer within 0.2 s"),
        (_transport("ReadTimeout", "httpcore2._exceptions")(""), "the judge did not answer within"),
        (_transport("PoolTimeout", "pkg._vendor.httpcore._exceptions")(""), "the judge did not"),
        (
            _transport("RemoteProtocolError", "httpx", _transport("ProtocolError", "httpx"))("x"),
            "cannot connect to the judge",
        ),
        (
            _transport(
                "ReadError", "httpcore2._exceptions", _transport("NetworkError", "httpcore2")
            )(""),
            "cannot connect to the judge",
        ),
    ],
    ids=["httpx-read", "httpx2-connect", "httpcore2-read", "vendored-pool", "protocol", "network"],
)
def test_an_error_of_the_transport_outside_the_sdk_is_a_transient_outage(
    exc: Exception, message: str
) -> None:
    # The SDK wraps its transport's errors; one that escapes the wrapper (CI saw a bare
    # httpcore2 ReadTimeout) is still an outage to retry, not "the judge raised ReadTimeout".
    out = translate_sdk_error(
        exc, provider="openai", where="judge", timeout=0.2, fix_404="-", key="sk-secret"
    )
    assert isinstance(out, TransientJudgeError)
    assert str(out).startswith(message)


def test_an_error_of_another_library_is_no_transport_failure() -> None:
    assert transport_failure(_transport("ReadTimeout", "mylib.errors")("")) is None
    assert transport_failure(ValueError("x")) is None
    assert transport_failure(TimeoutError("x")) is None
