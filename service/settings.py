"""The one settings object. Only ``service/`` reads the environment (prefix FATEWEAVER_)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="FATEWEAVER_", env_file=".env", extra="ignore", populate_by_name=True
    )

    host: str = "127.0.0.1"
    port: int = 8000
    data_dir: Path = Field(Path("data"), description="where the index and the database live")
    log_level: str = "info"

    # Retrieval (rules search)
    embeddings: Literal["local", "openai"] = Field(
        "local", description="local: offline MiniLM (ONNX); openai: needs OPENAI_API_KEY"
    )
    openai_api_key: SecretStr | None = Field(
        None, validation_alias=AliasChoices("OPENAI_API_KEY", "FATEWEAVER_OPENAI_API_KEY")
    )
    openai_base_url: str | None = Field(
        None, validation_alias=AliasChoices("OPENAI_BASE_URL", "FATEWEAVER_OPENAI_BASE_URL")
    )
    openai_embedding_model: str = "text-embedding-3-small"
    retrieval_warm_start: bool = Field(
        True,
        description="open (or build) the index and load the model in the background at "
        "start-up, so the first search does not wait; tests turn it off",
    )
    retrieval_fusion: Literal["rrf", "score"] = Field(
        "rrf",
        description="hybrid search: reciprocal rank fusion (ties broken by the score blend), "
        "or the blend of normalised BM25 and cosine scores alone",
    )
    chroma_url: str | None = Field(
        None,
        description="a Chroma server (`chroma run`), e.g. http://localhost:8001; "
        "unset: a persistent folder under data_dir",
    )


@lru_cache
def get_settings() -> Settings:
    return Settings()
