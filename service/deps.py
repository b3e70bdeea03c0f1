"""Typed dependency aliases: routers declare what they need, tests override it."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path

from rules.errors import UnknownError
from rules.registry import SYSTEM_IDS, GameSystem, get_system
from service.errors import UnknownInUrl
from service.settings import Settings, get_settings

SettingsDep = Annotated[Settings, Depends(get_settings)]


def load_system(
    system_id: Annotated[
        str,
        Path(
            description="system id; any other answers 404",
            json_schema_extra={"enum": list(SYSTEM_IDS)},
        ),
    ],
) -> GameSystem:
    try:
        return get_system(system_id)
    except UnknownError as exc:
        raise UnknownInUrl.of(exc, "path.system_id") from None


SystemDep = Annotated[GameSystem, Depends(load_system)]
