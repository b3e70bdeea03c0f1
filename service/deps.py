"""Typed dependency aliases: routers declare what they need, tests override it."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path

from rules.errors import UnknownError
from rules.registry import GameSystem, get_system
from service.settings import Settings, get_settings

SettingsDep = Annotated[Settings, Depends(get_settings)]


def load_system(
    system_id: Annotated[str, Path(description="system id, e.g. sundered_isles")],
) -> GameSystem:
    try:
        return get_system(system_id)
    except UnknownError as exc:
        raise UnknownError(exc.what, exc.value, exc.known, field="path.system_id") from None


SystemDep = Annotated[GameSystem, Depends(load_system)]
