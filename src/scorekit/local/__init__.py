"""The embedded offline judge (``local``): no key, no network, deterministic."""

from __future__ import annotations

from typing import Any

__all__ = ["LocalBackend"]


def __getattr__(name: str) -> Any:
    # onnxruntime and the model load only when the local judge is first used.
    if name == "LocalBackend":
        from scorekit.local._backend import LocalBackend

        return LocalBackend
    raise AttributeError(name)
