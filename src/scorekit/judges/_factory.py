"""Build the backend the settings name: local, openai, azure or ``package.module:attr``."""

from __future__ import annotations

import importlib
from typing import Any, cast

from scorekit.judges._backend import Backend
from scorekit.judges._errors import JudgeConfigError
from scorekit.judges._settings import JudgeSettings, setting_with_env, unknown_provider


def load_custom_backend(spec: str, label: str = "--llm-provider") -> Backend:
    """Import ``package.module:attr``; call ``attr`` with no arguments when it is a class or
    function that returns a backend.

    ``label`` names the setting in messages (``--provider`` on the ``texts-score`` command
    line, ``configure(provider=...)`` in plain Python).

    Raises:
        JudgeConfigError: the module or attribute is missing, or the object is no backend.
    """
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise JudgeConfigError(unknown_provider(label, spec))
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise JudgeConfigError(f"{label} {spec!r}: cannot import {module_name!r}: {exc}") from None
    try:
        obj: Any = getattr(module, attr)
    except AttributeError:
        raise JudgeConfigError(
            f"{label} {spec!r}: module {module_name!r} has no attribute {attr!r}"
        ) from None
    is_backend = hasattr(obj, "make_questions") and hasattr(obj, "answer_questions")
    # A class has the methods too, unbound: it (or a factory function) is called for an instance.
    if isinstance(obj, type) or (not is_backend and callable(obj)):
        try:
            obj = obj()
        except Exception as exc:
            raise JudgeConfigError(
                f"{label} {spec!r}: calling {attr}() with no arguments failed: {exc}"
            ) from exc
    if not (hasattr(obj, "make_questions") and hasattr(obj, "answer_questions")):
        raise JudgeConfigError(
            f"{label} {spec!r} gives {type(obj).__name__}, which has no"
            " make_questions(text) and answer_questions(text, questions) methods"
        )
    return obj  # type: ignore[no-any-return]


def build_backend(settings: JudgeSettings) -> Backend:
    """Return the backend for ``settings.resolved_provider``.

    Raises:
        JudgeConfigError: the provider is unknown or its settings are incomplete.
    """
    provider = settings.resolved_provider
    if provider == "local":
        from scorekit.local import LocalBackend

        # Messages name the model setting as the user gives it: where their path came from,
        # or how to give one.
        setting = (
            settings.given_as("local_model")
            if settings.local_model
            else setting_with_env("local_model", settings.surface)
        )
        return cast(Backend, LocalBackend(model_path=settings.local_model, setting=setting))
    if provider in ("openai", "azure"):
        from scorekit.judges._openai import build_openai_backend

        # Built-in backends return Reply objects (value + usage), which the Judge unwraps.
        return cast(Backend, build_openai_backend(settings))
    return load_custom_backend(provider, settings.given_as("provider"))
