"""Roll Under: resting and healing (source: roll_under.md, "Damage, Death, and Debilities >
Healing" and "> Deprivation and Fatigue").

    short    "Resting for a few moments after an encounter restores all lost HP."
    night    "Each Fatigue occupies one slot and lasts until they can recuperate (such as a whole
             night's rest in a safe spot)." All Fatigue goes, and HP is restored too.
    healer   "You can generally recover lost Ability points with a week or two of rest under a
             healer's care": every Ability back to its maximum (and HP, and Fatigue).

Rulings (``REST_RULINGS``): any rest revives an unconscious character; a deprived character
heals no HP or Ability (the text: "cannot heal HP or Ability scores") until a night's rest in a
safe spot meets the need; the dead do not rest.
"""

from __future__ import annotations

from typing import Any

from rules.errors import InvalidParameter
from rules.models import Ruling, StateChange
from rules.sheets import RestKind, SheetUpdate
from rules.systems.roll_under.character import Sheet
from rules.systems.roll_under.saves import ABILITIES, cite

HEALING = cite("Damage, Death, and Debilities > Healing")
DEPRIVATION = cite("Damage, Death, and Debilities > Deprivation and Fatigue")

REST_KINDS = [
    RestKind(
        id="short",
        name="A few moments' rest after an encounter",
        text="Resting for a few moments after an encounter restores all lost HP.",
        citation=HEALING,
    ),
    RestKind(
        id="night",
        name="A whole night's rest in a safe spot",
        text="Each Fatigue occupies one slot and lasts until they can recuperate (such as a "
        "whole night's rest in a safe spot).",
        citation=DEPRIVATION,
    ),
    RestKind(
        id="healer",
        name="A week or two of rest under a healer's care",
        text="You can generally recover lost Ability points with a week or two of rest under a "
        "healer's care or other sources of appropriate expertise.",
        citation=HEALING,
    ),
]

REST_RULINGS = [
    Ruling(
        id="rest_revives",
        text=(
            "Any rest revives an unconscious character (the text leaves them 'out of the fight "
            "until revived'); a dead character (Brawn 0) does not rest."
        ),
        quote="Your character adds a **Fatigue** debility to their inventory and is unconscious "
        "and out of the fight until revived.",
        citation=cite("Damage, Death, and Debilities > Ability Loss"),
    ),
    Ruling(
        id="rest_deprived",
        text=(
            "A deprived character heals no HP and no Ability by resting; a whole night's rest in "
            "a safe spot meets the need (the deprived condition goes), then heals as a rest does."
        ),
        quote="A character **deprived** of a crucial need (such as food or rest) cannot heal HP "
        "or Ability scores.",
        citation=DEPRIVATION,
    ),
]


def rest(sheet: Sheet, kind: str) -> SheetUpdate:
    if sheet.abilities["brawn"] == 0:
        raise InvalidParameter(
            "sheet.abilities.brawn is 0: the character is dead and does not rest",
            "sheet.abilities.brawn",
        )
    data: dict[str, Any] = sheet.model_dump()
    applied: list[StateChange] = []
    conditions: list[str] = data["conditions"]

    def drop(condition: str, why: str) -> None:
        if condition in conditions:
            conditions.remove(condition)
            applied.append(StateChange(target=f"conditions.{condition}", set_to=0, note=why))

    def restore(key: str, value: int, now: int, note: str) -> int:
        if value != now:
            applied.append(StateChange(target=key, delta=value - now, set_to=value, note=note))
        return value

    drop("unconscious", "revived")
    if kind == "night":
        drop("deprived", "the need met: a night's rest in a safe spot")
        data["fatigue"] = restore("fatigue", 0, sheet.fatigue, "recuperated")
    healing = "deprived" not in conditions
    if healing:
        data["hp"] = restore("hp", sheet.max_hp, sheet.hp, "all lost HP restored")
    if kind == "healer":
        data["fatigue"] = restore("fatigue", 0, sheet.fatigue, "recuperated")
        if healing:
            for ability in ABILITIES:
                top, now = sheet.max_abilities[ability], sheet.abilities[ability]
                data["abilities"][ability] = restore(
                    f"abilities.{ability}", top, now, "lost Ability points recovered"
                )
            for condition, ability in (("limbs_useless", "finesse"), ("madness", "intellect")):
                if data["abilities"][ability] > 0:
                    drop(condition, f"{ability} restored")
    other = (
        []
        if healing
        else [StateChange(target="hp", note="deprived: cannot heal HP or Ability scores")]
    )
    return SheetUpdate(sheet=Sheet.model_validate(data), applied=applied, other=other)
