"""Request and response models of the session routes.

``SessionCreate``'s OpenAPI schema is one schema per system that has a character sheet: its
``system`` and that system's sheet schema. A sheet is validated by the system's rules (their
messages, fields ``sheet.<field>``), then as strictly as its schema states it.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, GetJsonSchemaHandler, ValidationError
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema

from rules.errors import InvalidParameter
from rules.registry import SYSTEM_IDS, all_systems, get_system
from rules.sheets import SheetRules
from service.schemas import MAX_ID, NOT_BLANK, whole_numbers
from service.sessions.models import SessionRow

# At least one character other than white space; no NUL (PostgreSQL text cannot hold it).
NAME = Field(
    min_length=1,
    max_length=200,
    pattern=NOT_BLANK,
    description="a name for the session (1 to 200 characters, not only spaces)",
    examples=["The drowned lighthouse"],
)
NOT_YET = "sessions are not available for this system yet"


def sheet_rules(system_id: str) -> SheetRules:
    """The system's sheet rules; 422 naming ``system`` for an unknown system or one without."""
    rules = get_system(system_id).sheet
    if rules is None:
        raise InvalidParameter(NOT_YET, "system")
    return rules


def _field(loc: tuple[int | str, ...]) -> str:
    out = "sheet"
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def validate_sheet(system_id: str, data: dict[str, Any]) -> BaseModel:
    """The system's sheet; 422 (RulesError) naming ``sheet.<field>`` when it is not one."""
    rules = sheet_rules(system_id)
    data = whole_numbers(data)
    sheet = rules.validate(data)
    try:  # no coercion the schema does not allow: no "2" for 2
        rules.model.model_validate_json(json.dumps(data), strict=True)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        message = "; ".join(f"{_field(e['loc'])}: {e['msg']}" for e in errors)
        raise InvalidParameter(message, _field(errors[0]["loc"])) from None
    return sheet


def initial_state(sheet: BaseModel) -> dict[str, Any]:
    return {"sheet": sheet.model_dump(mode="json"), "tracks": {}, "clocks": {}}


class SessionCreate(BaseModel):
    """A new session: a system with a character sheet, a name, and the sheet."""

    model_config = ConfigDict(extra="forbid", strict=True)

    system: str = Field(max_length=MAX_ID, description="system id (one with a character sheet)")
    name: str = NAME
    sheet: dict[str, Any] = Field(description="the character sheet, as the system's schema says")

    def initial_state(self) -> dict[str, Any]:
        """The session's first state, the sheet validated (422 naming the field if not)."""
        return initial_state(validate_sheet(self.system, self.sheet))

    @classmethod
    def __get_pydantic_json_schema__(
        cls, core_schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        schema = handler.resolve_ref_schema(handler(core_schema))
        variants = [
            _variant(schema, s.id, handler(s.sheet.model.__pydantic_core_schema__))
            for s in all_systems()
            if s.sheet is not None
        ]
        if not variants:  # no system has a sheet yet: every request is refused
            schema["properties"]["system"]["enum"] = list(SYSTEM_IDS)
            return schema
        return {"title": "SessionCreate", "description": cls.__doc__, "oneOf": variants}


def _variant(schema: JsonSchemaValue, system: str, sheet: JsonSchemaValue) -> JsonSchemaValue:
    return {
        "title": f"SessionCreate.{system}",
        "type": "object",
        "properties": {
            "system": {"const": system},
            "name": schema["properties"]["name"],
            "sheet": sheet,
        },
        "required": ["system", "name", "sheet"],
        "additionalProperties": False,
    }


class SessionRename(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = NAME


class SessionOut(BaseModel):
    id: str
    system: str
    name: str
    status: Literal["active", "ended"] = Field(description="an ended session is read-only")
    state: dict[str, Any] = Field(
        description="the game state: `sheet`, `tracks` (by id) and `clocks` (by id)"
    )
    summary: str
    turns: int = Field(description="turns played (the last turn number used)")
    created_at: datetime
    updated_at: datetime

    @classmethod
    def of(cls, row: SessionRow) -> SessionOut:
        return cls(
            id=row.id,
            system=row.system,
            name=row.name,
            status="ended" if row.status == "ended" else "active",
            state=row.state,
            summary=row.summary,
            turns=row.turn_count,
            created_at=row.created_at,
            updated_at=row.updated_at,
        )
