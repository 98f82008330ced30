"""Credentials in tool arguments: found with their path, never shown whole."""

from __future__ import annotations

from toolscore import evaluate
from toolscore.adapters.base import ToolCall
from toolscore.metrics import find_secrets, redact_secrets

# Built at run time so the repository holds no credential-shaped literal.
GITHUB = "ghp_" + "A1b2C3d4E5" * 3 + "F6g7H8"
AWS = "AKIA" + "Q3EXAMPLE7KEY9ZZ"
ANTHROPIC = "sk-ant-api03-" + "Xy7" * 10
OPENAI_PROJECT = "sk-proj-" + "aB3dE5fG7h" * 4
PRIVATE_KEY = "-----BEGIN RSA PRIVATE KEY-----\nMIIB...\n-----END RSA PRIVATE KEY-----"


def test_findings_name_call_path_kind_and_a_preview() -> None:
    calls = [
        ToolCall("http_get", {"headers": {"Authorization": f"token {GITHUB}"}}),
        ToolCall("upload", {"files": [{"content": PRIVATE_KEY}], "note": "ok"}),
        ToolCall("configure", {"aws": AWS, "llm": [ANTHROPIC, OPENAI_PROJECT]}),
    ]
    found = find_secrets(calls)
    assert [(s["index"], s["tool"], s["path"], s["kind"]) for s in found["secrets"]] == [
        (0, "http_get", "headers.Authorization", "github_token"),
        (1, "upload", "files[0].content", "private_key"),
        (2, "configure", "aws", "aws_access_key_id"),
        (2, "configure", "llm[0]", "anthropic_api_key"),
        (2, "configure", "llm[1]", "openai_api_key"),
    ]
    assert found["secret_count"] == 5
    for s in found["secrets"]:
        assert "…" in s["preview"]
        for secret in (GITHUB, AWS, ANTHROPIC, OPENAI_PROJECT, "MIIB"):
            assert secret not in s["preview"]


def test_ordinary_values_are_not_reported() -> None:
    calls = [
        ToolCall("search", {"q": "sk-some-very-long-kebab-case-identifier-name-here"}),
        ToolCall("open", {"path": "AKIA-is-not-a-key", "id": "ghp_short"}),
    ]
    assert find_secrets(calls) == {"secret_count": 0, "secrets": []}


def test_redact_secrets_keeps_the_text_around() -> None:
    text = f"use {AWS} and {GITHUB} please"
    out = redact_secrets(text)
    assert AWS not in out and GITHUB not in out
    assert out.startswith("use [REDACTED aws_access_key_id: AKIA…ZZ] and [REDACTED github_token:")
    assert out.endswith("] please")


def test_evaluate_reports_credentials_in_security_metrics() -> None:
    result = evaluate([], [{"tool": "login", "args": {"password": AWS}}])
    assert result.metrics["security_metrics"]["secret_count"] == 1
