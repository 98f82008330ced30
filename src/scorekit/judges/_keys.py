"""Cache keys for judge replies: everything a reply depends on, hashed."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any


def reply_key(
    identity: Mapping[str, Any],
    kind: str,
    text: str,
    questions: Sequence[str] | None,
    run: Sequence[int],
    repeat: int = 0,
) -> str:
    """Return a stable hex key for one judge reply.

    ``run`` is part of the key, so repeated runs of an aggregated assertion stay distinct
    samples.

    Example:
        >>> k = reply_key({"model": "m"}, "questions", "Paris is in France.", None, (0,))
        >>> len(k)
        64
    """
    payload: dict[str, Any] = {
        "identity": dict(sorted(identity.items())),
        "kind": kind,
        "text": text,
        "questions": list(questions) if questions is not None else None,
        "run": list(run),
    }
    if repeat:
        payload["repeat"] = repeat
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()
