"""The local judge's entailment model: does this passage entail this statement?

A cross-encoder (all-MiniLM-L6-v2 fine-tuned on sentence/passage pairs by
``tools/train_entailment.py``), shipped as ``data/entailment.onnx`` (int8) and checked by sha256
before it is loaded. It reads ``[CLS] statement [SEP] passage [SEP]`` and gives three logits:
entailed, neutral, contradicted. The judge uses the log-odds of "entailed" against the other two.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from scorekit.judges._errors import JudgeConfigError
from scorekit.local._lexicon import TOKENIZER_FILE
from scorekit.local._model import ModelFile, open_session, verify

ENTAILMENT_FILE = Path(__file__).parent / "data" / "entailment.onnx"
#: sha256 of the shipped file, written by ``tools/train_entailment.py``'s run (see the docs).
ENTAILMENT_SHA256 = "29f751c04cf8f9e0380ba73fd2902d81777e5c900d524cc44467b4da62dfd0c0"
#: Longest pair the model was trained on, in tokens (the passage is cut first).
MAX_PAIR_TOKENS = 128
#: Log-odds are clipped here: beyond it the model's confidence carries no more information.
CLIP = 12.0
#: Two runs at once, one thread each (as the encoder): results never depend on the machine.
_WORKERS = 2
_CACHE_ENTRIES = 16_384
_HINT = "reinstall the package with `pip install --force-reinstall llm-scorekit`"


class Entailer:
    """Entailment log-odds of (statement, passage) pairs, one pair per model run.

    One pair per run keeps every answer independent of what else is asked at the same time
    (int8 activations are quantised per run, so padding next to a longer pair would move it).

    Example:
        >>> e = load_entailer()
        >>> yes, no = e.log_odds([
        ...     ("The tower was finished in 1889.", "Work on the tower ended in 1889."),
        ...     ("The tower was finished in 1925.", "Work on the tower ended in 1889."),
        ... ])
        >>> yes > 0 > no
        True
    """

    def __init__(self, session: Any, tokenizer: Any, path: Path) -> None:
        self.path = path
        self._session = session
        self._tokenizer = tokenizer
        self._cache: OrderedDict[tuple[str, str], float] = OrderedDict()
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None

    def log_odds(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """``log P(entailed) - log P(not entailed)`` per ``(statement, passage)``, in
        ``[-CLIP, CLIP]``, rounded to 4 decimals."""
        with self._lock:
            known = {p: self._cache[p] for p in pairs if p in self._cache}
        todo = list(dict.fromkeys(p for p in pairs if p not in known))
        if todo:
            if len(todo) == 1:
                values = [self._run(todo[0])]
            else:
                values = list(self._workers().map(self._run, todo))
            with self._lock:
                for pair, value in zip(todo, values, strict=True):
                    self._cache[pair] = value
                    known[pair] = value
                while len(self._cache) > _CACHE_ENTRIES:
                    self._cache.popitem(last=False)
        return [known[p] for p in pairs]

    def _workers(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(_WORKERS, thread_name_prefix="scorekit-entail")
            return self._pool

    def _run(self, pair: tuple[str, str]) -> float:
        enc = self._tokenizer.encode(pair[0], pair[1])
        ids = np.asarray([enc.ids], dtype=np.int64)
        feeds = {
            "input_ids": ids,
            "attention_mask": np.ones_like(ids),
            "token_type_ids": np.asarray([enc.type_ids], dtype=np.int64),
        }
        logits = self._session.run(["logits"], feeds)[0][0].astype(np.float64)
        value = float(logits[0] - np.logaddexp(logits[1], logits[2]))
        return round(max(-CLIP, min(CLIP, value)), 4)

    def __repr__(self) -> str:
        return f"Entailer(model={str(self.path)!r})"


_entailer: Entailer | None = None
_entailer_lock = threading.Lock()


def load_entailer(path: Path = ENTAILMENT_FILE, sha256: str = ENTAILMENT_SHA256) -> Entailer:
    """The process-wide entailment model, verified and loaded on first use.

    Raises:
        JudgeConfigError: the file is missing, corrupt or cannot be loaded.
    """
    global _entailer
    with _entailer_lock:
        if _entailer is not None and _entailer.path == path:
            return _entailer
        model = ModelFile(path, sha256)
        try:
            verify(model)
        except JudgeConfigError as exc:
            # verify()'s hint names the embedding model's package; this file ships with ours.
            message = str(exc).split("; ")[0]
            raise JudgeConfigError(
                f"{message.replace('model', 'entailment model', 1)}; {_HINT}."
            ) from None
        _entailer = _load(path)
        return _entailer


def _load(path: Path) -> Entailer:
    try:
        import onnxruntime  # noqa: F401
        from tokenizers import Tokenizer
    except ImportError as exc:
        raise JudgeConfigError(
            f"The local judge needs onnxruntime and tokenizers ({exc}); `pip install llm-scorekit`"
            " installs them."
        ) from None
    session = open_session(path, _HINT)
    tokenizer = Tokenizer.from_file(str(TOKENIZER_FILE))
    tokenizer.no_padding()
    tokenizer.enable_truncation(MAX_PAIR_TOKENS, strategy="longest_first")
    entailer = Entailer(session, tokenizer, path)
    # onnxruntime sets up its kernels on the first run; do that now, as part of loading.
    entailer._run(("The model runs once.", "The model runs once on a short pair."))
    return entailer
