"""Requests and responses of the narrator endpoints, and the record every narrated reply carries."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
)

from rules.models import Citation, Resolution
from service.narrator.guard import GuardReport
from service.narrator.quotes import Quotation
from service.schemas import DICE_OR_SEED, MAX_ID, NOT_BLANK, StrictRequest

MAX_QUESTION = 2_000
MAX_CONTEXT = 4_000
MAX_MESSAGES = 40

SystemId = Literal["sundered_isles", "elegy", "go_forth", "storyteller", "roll_under"]
Odds = Literal["small_chance", "unlikely", "50_50", "likely", "almost_certain"]
# Words must have a letter or digit: an all-blank question is no question.
Words = Annotated[str, Field(min_length=1, max_length=MAX_QUESTION, pattern=NOT_BLANK)]

# Every system answers a yes/no question: Sundered Isles and Elegy by their texts' oracles, Go
# Forth, Storyteller and Roll Under by fateweaver's own (rules/oracle.py, labelled as ours).
OracleSystemId = SystemId
D100 = Annotated[int, Field(ge=1, le=100)]


class _Request(StrictRequest):
    """Strict: what the JSON schema says, nothing coerced (service.schemas.StrictRequest)."""


class Narrated(BaseModel):
    """Who told this reply, why, at what cost, and what the guard found."""

    narrator: Literal["model", "offline"]
    reason: str = Field(
        description="why this narrator: 'model', 'no model configured', or the failure that "
        "made the service fall back to the offline narrator"
    )
    model: str | None = Field(None, description="the model's name, when one was configured")
    calls: int = Field(description="HTTP requests sent to the model for this response")
    guard: GuardReport | None = Field(
        None,
        description="the consistency check: of the model's reply shown, or after a fallback, "
        "of the last reply rejected (which checks failed); null when no model replied",
    )
    rejected: list[str] = Field(
        default_factory=list, description="why earlier replies of the model were not shown"
    )


class PassageRef(BaseModel):
    tag: str = Field(description="P1, P2, ... as the answer cites them")
    citation: Citation
    text: str


# --- POST /v1/oracle -------------------------------------------------------------------------


class OracleRequest(_Request):
    model_config = ConfigDict(json_schema_extra=DICE_OR_SEED)
    system: OracleSystemId = Field(
        description="a system whose text has a yes/no oracle; go_forth, storyteller and "
        "roll_under have none, and are answered with a 422 saying what their text offers"
    )
    question: Words = Field(examples=["Is the harbour guarded?"])
    odds: Odds = "50_50"
    context: str | None = Field(None, max_length=MAX_CONTEXT, description="the situation, briefly")
    dice: list[D100] | None = Field(
        None, min_length=1, max_length=1, description="the d100 rolled by hand (100 for 00)"
    )
    seed: int | None = Field(None, ge=0, le=2**63 - 1)


class OracleResponse(BaseModel):
    system: str
    question: str
    answer: Literal["yes", "no"]
    match: bool
    resolution: Resolution
    narration: str
    narrated: Narrated
    passages: list[PassageRef]


# --- POST /v1/oracle/spark -------------------------------------------------------------------


def _spark_schema(schema: dict[str, Any]) -> None:
    """Document the request exactly: each system with the ids of its own tables."""
    from rules.registry import all_systems

    common = {k: v for k, v in schema["properties"].items() if k not in ("system", "table")}
    variants = [
        {
            "type": "object",
            "title": f"{s.name}: a table",
            "properties": {
                "system": {"const": s.id},
                "table": {"enum": list(s.tables)},
                **common,
            },
            "required": ["system", "table"],
            "additionalProperties": False,
        }
        for s in all_systems()
        if s.tables
    ]
    description = schema.get("description", "")
    schema.clear()
    schema.update({"title": "SparkRequest", "description": description, "oneOf": variants})


class SparkRequest(_Request):
    """A table to roll (one of the system's, as GET /v1/systems/{id}/tables lists them) and the
    situation to read it against. Tables are rolled by the engine, from `seed` when given; dice
    rolled by hand go through POST /v1/rolls (kind table) and POST /v1/narrate."""

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra=_spark_schema)
    system: SystemId
    table: str = Field(max_length=MAX_ID, examples=["pay_the_price"])
    situation: str | None = Field(None, max_length=MAX_CONTEXT)
    character: str | None = Field(
        None, max_length=80, description="the player's character (its feelings are the player's)"
    )
    seed: int | None = Field(None, ge=0, le=2**63 - 1)

    @field_validator("table")
    @classmethod
    def _table_of_system(cls, table: str, info: ValidationInfo) -> str:
        from rules.registry import get_system

        system = info.data.get("system")
        if system is None:
            return table  # the system's own error is reported
        tables = get_system(system).tables
        if table not in tables:
            raise ValueError(
                f"{system} has no table {table!r}; its tables: {', '.join(tables) or 'none'}"
            )
        return table


class SparkResponse(BaseModel):
    system: str
    table: str
    rows: list[str]
    resolution: Resolution
    narration: str
    narrated: Narrated
    passages: list[PassageRef]


# --- POST /v1/narrate ------------------------------------------------------------------------


class NarrateRequest(_Request):
    resolution: Resolution = Field(description="a resolution as POST /v1/rolls returned it")
    action: Words = Field(examples=["I leap the gap between the rooftops"])
    context: str | None = Field(None, max_length=MAX_CONTEXT)
    character: str | None = Field(None, max_length=80, description="the player's character")


class NarrateResponse(BaseModel):
    resolution: Resolution
    narration: str
    narrated: Narrated
    passages: list[PassageRef]


# --- POST /v1/rules/ask ----------------------------------------------------------------------


class ChatMessage(_Request):
    role: Literal["user", "assistant"]
    content: Words


class AskRequest(_Request):
    messages: list[ChatMessage] = Field(
        min_length=1,
        max_length=MAX_MESSAGES,
        description="the conversation, oldest first; the question is the last user message",
        json_schema_extra={"contains": {"properties": {"role": {"const": "user"}}}},
    )
    system: SystemId | None = Field(None, description="only this system's rules (and house rules)")

    @field_validator("messages")
    @classmethod
    def _has_question(cls, messages: list[ChatMessage]) -> list[ChatMessage]:
        if not any(m.role == "user" for m in messages):
            raise ValueError("no user message, so there is no question to answer")
        return messages

    @property
    def question(self) -> str:
        return next(m.content for m in reversed(self.messages) if m.role == "user")


class WorkedExample(BaseModel):
    status: Literal["resolved", "rejected", "none"]
    proposal: dict[str, object] | None = Field(None, description="the roll as proposed")
    reason: str | None = None
    resolution: Resolution | None = Field(None, description="the engine's resolution")


class AskResponse(BaseModel):
    question: str
    system: str | None
    answer: str
    covered: bool | None = Field(
        description="false when the passages do not answer the question (the answer then says "
        "so instead of answering from memory); null from the offline narrator, which quotes the "
        "closest passages without judging them"
    )
    quotations: list[Quotation]
    passages: list[PassageRef]
    worked_example: WorkedExample
    narrated: Narrated
