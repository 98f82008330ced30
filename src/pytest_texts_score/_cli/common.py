"""What the ``texts-score`` commands share: the parser, bad input, the judge options."""

from __future__ import annotations

import argparse
from typing import Any, NoReturn

from scorekit.cli import EXIT_BAD_INPUT

__all__ = ["PROG", "BadInput", "Parser", "add_judge_arguments", "judge_values"]

PROG = "texts-score"

#: Judge options of every command: setting name of ``resolve_settings(overrides=...)`` -> help.
#: Each is the flag ``--name-with-dashes``; the order is the order of ``--help``.
JUDGE_OPTIONS: dict[str, str] = {
    "provider": "local, openai, azure or package.module:attr",
    "model": "model name of the LLM judge",
    "base_url": "OpenAI-compatible server URL (selects openai)",
    "api_key": "API key of the LLM judge (never printed)",
    "endpoint": "Azure OpenAI endpoint (selects azure)",
    "deployment": "Azure OpenAI deployment name",
    "api_version": "Azure OpenAI API version",
    "temperature": "sampling temperature (default 0)",
    "timeout": "seconds per judge request (default 60)",
    "max_tokens": "maximum tokens per judge reply",
    "max_concurrency": "judge calls in flight at once",
    "cache": "judge reply cache: off, on or replay",
    "cache_dir": "folder of the judge reply cache",
    "local_model": "another ONNX model file for the local judge",
}


class BadInput(Exception):
    """Input the command cannot use; the message is one line for the user."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit with code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{PROG}: error: {message} (see `{PROG} --help`)\n")


def add_judge_arguments(parser: argparse.ArgumentParser, description: str) -> None:
    """Add the judge options (``--provider``, ``--model``...) as a group of ``parser``."""
    judge = parser.add_argument_group("judge", description)
    for name, help_text in JUDGE_OPTIONS.items():
        judge.add_argument("--" + name.replace("_", "-"), help=help_text)
    parser.set_defaults(judge_option_names=tuple(JUDGE_OPTIONS))


def judge_values(args: argparse.Namespace) -> dict[str, Any]:
    """The judge options given, keyed by setting (``llm_model``): command-line values."""
    return {
        f"llm_{name}": getattr(args, name)
        for name in args.judge_option_names
        if getattr(args, name) is not None
    }
