"""The one settings object. Only ``service/`` reads the environment (prefix FATEWEAVER_)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict


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
        # the blend ranks the right passage first more often on every retrieval set we have
        # (recall@1 0.85/0.81/0.88 against RRF's 0.80/0.81/0.85; make eval-retrieval)
        "score",
        description="hybrid search: reciprocal rank fusion (ties broken by the score blend), "
        "or the blend of normalised BM25 and cosine scores alone",
    )
    # Narrator: LangChain ChatOpenAI against OpenAI or any OpenAI-compatible server
    narrator: Literal["auto", "offline", "model"] = Field(
        "auto",
        description="auto: the model when one is configured (FATEWEAVER_MODEL, OPENAI_BASE_URL "
        "or OPENAI_API_KEY set), else the offline narrator; offline: never call a model; "
        "model: require one",
    )
    model: str | None = Field(
        None, description="chat model name; unset: gpt-4o-mini (a local server ignores it)"
    )
    model_timeout: float = Field(30.0, gt=0, description="seconds per model call")
    model_max_retries: int = Field(
        1, ge=0, le=5, description="retries of a model call that failed before any reply"
    )
    model_json_mode: Literal["json_object", "json_object_schema", "none"] = Field(
        "json_object",
        description="how JSON is asked for: response_format json_object (dropped for the "
        "process once a server refuses it); json_object with a JSON schema beside it, which "
        "llama.cpp's server turns into a grammar (move ids and stats as enums; dropped to "
        "json_object once a server refuses it); or only in the prompt",
    )
    model_grammar: Literal["auto", "gbnf", "none"] = Field(
        "auto",
        description="gbnf: send a grammar (llama.cpp's servers: llama-server, llama-cpp-python) "
        "that keeps the model's sentence after a lead free of 'you', 'player', the character's "
        "name, digits, tags and quotation marks, in the Latin alphabet "
        "(service/narrator/grammar.py; dropped for the process once a server refuses it); "
        "none: never; auto: gbnf for a server of one's own (OPENAI_BASE_URL set and not "
        "OpenAI's), none for OpenAI",
    )
    # 0.3, not 0.7: at 0.7 the same prompts to the same small model gave 4 and then 15 shown
    # narrations that contradicted the engine in runs 16 and 17 (bench/real_model.py); the
    # narrator tells an outcome already decided, where the likelier words are the safer ones.
    model_temperature: float | None = Field(
        0.3, ge=0, le=2, description="sampling temperature sent with each request"
    )
    model_max_tokens: int = Field(400, ge=16, le=4096, description="longest reply asked for")

    chroma_url: str | None = Field(
        None,
        description="a Chroma server (`chroma run`), e.g. http://localhost:8001; "
        "unset: a persistent folder under data_dir",
    )

    @property
    def model_configured(self) -> bool:
        if self.narrator == "offline":
            return False
        if self.narrator == "model":
            return True
        return bool(self.model or self.openai_base_url or self.openai_api_key)

    # Sessions: the store and who owns what
    database_url: str | None = Field(
        None,
        validation_alias=AliasChoices("DATABASE_URL", "FATEWEAVER_DATABASE_URL", "database_url"),
        description="the session store: a SQLAlchemy URL, e.g. postgresql://user@host/fateweaver "
        "(postgres:// and postgresql:// use psycopg); unset: SQLite, data_dir/fateweaver.db",
    )
    database_lock_timeout: float = Field(
        5.0,
        gt=0,
        le=600,
        description="seconds a request waits for a lock another transaction holds (SQLite's "
        "busy_timeout, PostgreSQL's lock_timeout) before it answers 503, retry",
    )
    database_pool_size: int = Field(
        10,
        ge=1,
        le=200,
        description="connections a process keeps open to the database; up to 30 more are "
        "opened under load (and closed after), as many as the worker threads that use them",
    )
    database_connect_timeout: int = Field(
        5,
        ge=2,
        le=600,
        description="seconds to connect to PostgreSQL (libpq's connect_timeout; 2 at least) "
        "before a request answers 503, retry",
    )
    api_keys: Annotated[list[SecretStr], NoDecode] = Field(
        default_factory=list,
        description="API keys, comma-separated (FATEWEAVER_API_KEYS=key1,key2): each key owns its "
        "sessions; unset: one implicit owner, and `serve` binds to localhost only",
    )

    @field_validator("api_keys", mode="before")
    @classmethod
    def _comma_separated(cls, value: Any) -> Any:
        if isinstance(value, str):
            return [key.strip() for key in value.split(",") if key.strip()]
        return value

    # Limits: request sizes, exports, ingested files, and requests per API key
    max_body_bytes: int = Field(
        256 * 1024,
        ge=1024,
        description="largest request body, in bytes (256 KiB): a sheet or a turn is a few KiB; "
        "a larger body (by Content-Length, or counted as a streamed one arrives) is a 413",
    )
    max_export_bytes: int = Field(
        10 * 1024 * 1024,
        ge=1024,
        description="largest journal export, in bytes (10 MiB, thousands of turns): a larger "
        "one is a 413 asking for a range of turns (from_turn, to_turn)",
    )
    max_ingest_bytes: int = Field(
        20 * 1024 * 1024,
        ge=1,
        description="largest file `fateweaver ingest add` takes, in bytes (20 MB, a whole "
        "rulebook as text several times over); a larger one is refused and nothing is ingested",
    )
    rate_limit: str = Field(
        "20/second;600/minute",
        description="requests per API key (per client address without API keys), as `limits` "
        "strings separated by ';' (e.g. 20/second;600/minute); empty: no limit. The default is "
        "about ten times what a player's front end sends in a burst and a minute, and stops a "
        "runaway script within a second; over it is a 429 with Retry-After. /healthz, /readyz "
        "and the docs are never limited",
    )
    rate_limit_storage: str = Field(
        "memory://",
        description="where the rate limit counts are kept, a `limits` storage URI: memory:// "
        "counts per worker process (with N workers a key may send N times the limit); "
        "redis://host:6379 (with the redis package installed) shares the counts between workers "
        "and machines",
    )

    @field_validator("rate_limit")
    @classmethod
    def _rate_limit(cls, value: str) -> str:
        from limits import parse_many

        if value.strip():
            parse_many(value)  # ValueError: not a `limits` string
        return value.strip()

    @field_validator("rate_limit_storage")
    @classmethod
    def _rate_limit_storage(cls, value: str) -> str:
        # The scheme is checked when the app is built (service.limits), with its driver.
        if "://" not in value or value.startswith("async+"):
            raise ValueError("a `limits` storage URI, e.g. memory:// or redis://host:6379")
        return value


@lru_cache
def get_settings() -> Settings:
    return Settings()
