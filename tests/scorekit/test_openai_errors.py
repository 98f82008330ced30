"""Small parts of the SDK error translation: Retry-After forms and key scrubbing."""

from __future__ import annotations

import email.utils
import time

import httpcore
import httpx
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


@pytest.mark.parametrize(
    ("exc", "message"),
    [
        (httpx.ReadTimeout("timed out"), "the judge did not answer within 0.2 s"),
        (httpx.ConnectTimeout("timed out"), "the judge did not answer within 0.2 s"),
        (httpx.RemoteProtocolError("peer closed connection"), "cannot connect to the judge"),
        (httpcore.ReadTimeout("timed out"), "the judge did not answer within 0.2 s"),
        (httpcore.ReadError("reset"), "cannot connect to the judge"),
    ],
    ids=["read-timeout", "connect-timeout", "protocol", "httpcore-timeout", "httpcore-read"],
)
def test_an_httpx_error_outside_the_sdk_is_a_transient_outage(exc: Exception, message: str) -> None:
    # The SDK wraps httpx's errors; one that escapes its wrapper is still an outage to retry,
    # not a "judge raised ReadTimeout" that stops the run.
    out = translate_sdk_error(
        exc, provider="openai", where="judge", timeout=0.2, fix_404="-", key="sk-secret"
    )
    assert isinstance(out, TransientJudgeError)
    assert str(out).startswith(message)


def test_a_transport_timeout_is_known_by_its_class_names_not_its_identity() -> None:
    # CI saw a bare ReadTimeout that isinstance checks on httpx's and httpcore's classes
    # missed; a class of the same name and library from another copy must still read as one.
    copy = type("ReadTimeout", (Exception,), {"__module__": "httpcore._exceptions"})
    assert transport_failure(copy("")) == "timeout"
    out = translate_sdk_error(
        copy(""), provider="openai", where="judge", timeout=0.2, fix_404="-", key=None
    )
    assert isinstance(out, TransientJudgeError)
    assert str(out).startswith("the judge did not answer within 0.2 s")
    vendored = type("ReadTimeout", (Exception,), {"__module__": "pkg._vendor.httpcore._exceptions"})
    assert transport_failure(vendored("")) == "timeout"
    other = type("ReadTimeout", (Exception,), {"__module__": "mylib.errors"})
    assert transport_failure(other("")) is None
