"""The one settings object. Only ``service/`` reads the environment (prefix FATEWEAVER_)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="FATEWEAVER_", env_file=".env", extra="ignore")

    host: str = "127.0.0.1"
    port: int = 8000
    data_dir: Path = Field(Path("data"), description="where the index and the database live")
    log_level: str = "info"


@lru_cache
def get_settings() -> Settings:
    return Settings()
