"""roll_under character sheet (roll_under.md, "Playing the Game"): what a session keeps between
turns, and how each roll kind reads and changes it (the protocol is rules/sheets.py).

- ``Sheet`` (character.py): a name; the Abilities Brawn, Finesse and Intellect (0-20, and the
  maximum lost points heal back to); HP and its maximum; Armor; a shield; weapons (damage die,
  piercing, blast); Fatigue; conditions; scars. The text gives no starting Abilities or HP, so
  those are required; the rest starts empty. ``dead``, ``limbs_useless`` and ``madness`` follow
  Brawn, Finesse and Intellect at 0.
- ``roll_params`` (sheet_params.py): the character is the participant given without a name
  (the save's own params, ``actor``/``opponent``, ``savers.N``, ``characters.N``,
  ``targets.N``); its name, score, Finesse, Armor, HP, Brawn and shield come from the sheet. A
  weapon given by name (a string, or an object with ``name``) is one of the sheet's. ``harm``
  and ``ability_damage`` are the character's. ``table`` and ``expression`` take nothing.
- ``apply``: the character's HP, Abilities, Fatigue, conditions (unconscious, the Ability-0
  ones), scars and shield, named as the sheet names them (``hp``, not ``Ash.hp``); an
  opponent's changes go to ``other``.
- ``choices``: one, in ``attack``: a character with a shield equipped decides after the damage
  roll whether to sunder it (param ``sunder``; keeping it may roll the Brawn Save, more dice).
  No other kind leaves a decision after its roll: advantage, disadvantage, enhanced, impaired and
  the Ability are the GM's, before the roll; a deed's miserable failure "might" allow a save, the
  GM's call; initiative, opposed, aid and interfere are read off the dice.
- ``gm_params``: the Ability a save uses, advantage and disadvantage, enhanced and impaired
  damage, the damage a harm deals, and the opponents' Armor and scores.
- Track types: none; the text has no progress tracks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from rules.errors import UnknownError
from rules.models import Resolution, Ruling, StateChange
from rules.registry import get_system
from rules.sheets import Choice, ChoiceOption, GmParam, RestKind, SheetUpdate, TrackType
from rules.systems.roll_under.character import (
    CONDITIONS,
    ENGINE_NAME,
    STATUS_CONDITIONS,
    Sheet,
    Weapon,
    own,
    validate,
)
from rules.systems.roll_under.damage import ABILITY_LOSS, ARMOR_MAX, FATIGUE_MAX, SHIELDS
from rules.systems.roll_under.rest import REST_KINDS, rest
from rules.systems.roll_under.saves import ABILITIES, SCORE_MAX, cite
from rules.systems.roll_under.sheet_params import fill

__all__ = ["CONDITIONS", "ENGINE_NAME", "SHEET_RULES", "SHEET_RULINGS", "Sheet", "Weapon"]

SYSTEM_ID = "roll_under"
HEALING = cite("Damage, Death, and Debilities > Healing")
SCARS = cite("Damage, Death, and Debilities > Scars")
Entry = dict[str, Any]

# --- the readings of the text this sheet applies (each has a named test in test_sheet.py) -------

SHEET_RULINGS = [
    Ruling(
        id="sheet_maxima",
        text=(
            "The sheet keeps the maximum HP and each Ability's maximum next to the current "
            "values, since healing restores what was lost; the engine's damage never goes below "
            "0, and nothing here raises a value above its maximum."
        ),
        quote="Resting for a few moments after an encounter restores all lost HP.",
        citation=HEALING,
    ),
    Ruling(
        id="sheet_zero_abilities",
        text=(
            "An Ability at 0 shows its condition (dead, limbs_useless, madness) until it is "
            "restored, and no save or damage can be rolled with it; at Brawn 0 the character "
            "takes no roll at all."
        ),
        quote="If **Brawn** is reduced to zero, your character dies. It’s time to roll a new "
        "character.",
        citation=ABILITY_LOSS,
    ),
    Ruling(
        id="sheet_unconscious_out_of_the_fight",
        text=(
            "An unconscious character attacks with no weapon of its own, attempts no deed, rolls "
            "no initiative, no opposed roll and no save but the Brawn Save that damage to Brawn "
            "calls for, and neither aids nor interferes; harm still applies to it."
        ),
        quote="Your character adds a **Fatigue** debility to their inventory and is unconscious "
        "and out of the fight until revived.",
        citation=ABILITY_LOSS,
    ),
    Ruling(
        id="sheet_scar_recorded",
        text=(
            "HP falling to exactly 0 adds a scar entry (the Scars table is not part of the "
            "source, so the entry records the event; the session may describe it)."
        ),
        quote="When damage to your character reduces their HP to *exactly* zero, they are "
        "sometimes changed irrevocably.",
        citation=SCARS,
    ),
    Ruling(
        id="sheet_shield_choice",
        text=(
            "When the character has a shield equipped and an attack's damage is rolled against "
            "it, the player decides to sunder the shield (no damage, the shield is gone) or to "
            "take the damage."
        ),
        quote="If your character has a shield equipped, you could choose to ignore all damage in "
        "an attack by sundering their shield.",
        citation=SHIELDS,
    ),
]

# --- what the GM sets --------------------------------------------------------------------------

_SAVES = [("", ["save", "deed"]), ("actor.", ["opposed"]), ("opponent.", ["opposed"])]
_SAVES += [("savers.*.", ["aid", "interfere"])]
_BOOL = {"default": False, "choices": [False, True]}


def _save_gm_params() -> list[GmParam]:
    params: list[GmParam] = []
    for prefix, kinds in [*_SAVES, ("characters.*.", ["initiative"])]:
        if prefix != "characters.*.":
            params.append(
                GmParam(
                    param=f"{prefix}ability",
                    kinds=kinds,
                    description="the Ability the GM rules relevant to the save",
                    choices=list(ABILITIES),
                )
            )
        params += [
            GmParam(
                param=f"{prefix}advantage",
                kinds=kinds,
                description="careful preparation: an extra d20, the lowest kept",
                **_BOOL,
            ),
            GmParam(
                param=f"{prefix}disadvantage",
                kinds=kinds,
                description="great haste, no gear: an extra d20, the highest kept",
                **_BOOL,
            ),
        ]
    return params


GM_PARAMS = [
    *_save_gm_params(),
    GmParam(
        param="enhanced",
        kinds=["attack", "deed"],
        description="a deadlier attack (e.g. an unaware target): an extra d12, the highest kept",
        **_BOOL,
    ),
    GmParam(
        param="impaired",
        kinds=["attack", "deed"],
        description="a less deadly attack (e.g. through cover): an extra d4, the lowest kept",
        **_BOOL,
    ),
    GmParam(
        param="weapons.*.enhanced", kinds=["attack"], description="one weapon enhanced", **_BOOL
    ),
    GmParam(
        param="weapons.*.impaired", kinds=["attack"], description="one weapon impaired", **_BOOL
    ),
    GmParam(
        param="damage",
        kinds=["harm"],
        description="the damage dealt to the character, after armour (a fall ignores it)",
        minimum=0,
        maximum=200,
    ),
    GmParam(
        param="damage",
        kinds=["ability_damage"],
        description="the Ability points a creature, poison, disease or spell takes",
        minimum=1,
        maximum=SCORE_MAX,
    ),
    GmParam(
        param="ability",
        kinds=["ability_damage"],
        description="the Ability the creature, poison, disease or spell damages",
        choices=list(ABILITIES),
    ),
    GmParam(
        param="target_armor",
        kinds=["deed"],
        description="the opponent's Armor, for a spectacular deed's damage",
        default=0,
        minimum=0,
        maximum=ARMOR_MAX,
    ),
    GmParam(
        param="targets.*.armor",
        kinds=["attack"],
        description="each opponent's Armor (the character's comes from the sheet)",
        default=0,
        minimum=0,
        maximum=ARMOR_MAX,
    ),
    GmParam(
        param="opponent.score",
        kinds=["opposed"],
        description="the opponent's Ability score",
        minimum=1,
        maximum=SCORE_MAX,
    ),
]

TRACK_TYPES: list[TrackType] = []  # the text has no progress tracks

# --- applying a resolution ---------------------------------------------------------------------


def _local_target(sheet: Sheet, resolution: Resolution) -> Callable[[str], str | None]:
    """Which changes are the character's: a function from a change's target to the sheet's name
    for it, or None (an opponent's, a warband's)."""
    params = resolution.params
    if resolution.kind in ("harm", "ability_damage") and not params.get("warband"):
        return lambda target: target
    targets = (params.get("targets") or []) if resolution.kind == "attack" else []
    names = [t.get("name") for t in targets]
    me = sheet.engine_name
    if not any(t.get("name") == me and not t.get("warband") for t in targets):
        return lambda target: None  # a character is never a warband
    alone = len(names) == 1  # one listed target: its changes carry no name

    def local(target: str) -> str | None:
        if target.startswith(f"{me}."):
            return target[len(me) + 1 :]
        return target if alone and "." not in target else None

    return local


class _Changes:
    """The sheet's values as they change, with each change as applied."""

    def __init__(self, sheet: Sheet) -> None:
        self.data = sheet.model_dump()
        self.applied: list[StateChange] = []
        self.other: list[StateChange] = []

    def number(self, change: StateChange, path: tuple[str, ...], low: int, high: int) -> None:
        """A number of the sheet (``path`` into it) moved by the change, kept in low..high."""
        holder = self.data
        for key in path[:-1]:
            holder = holder[key]
        before: int = holder[path[-1]]
        wanted = change.set_to if change.set_to is not None else before + (change.delta or 0)
        after = min(high, max(low, wanted))
        note = change.note
        if after != wanted:
            note = f"{note or path[-1]}: kept within {low}..{high}"
        holder[path[-1]] = after
        self.applied.append(
            StateChange(target=path[-1], delta=after - before, set_to=after, note=note)
        )

    def take(self, change: StateChange, local: str) -> None:
        """A change of the character's, ``local`` its target without a target name."""
        data = self.data
        mine = change.model_copy(update={"target": local})
        if local == "hp":
            self.number(change, ("hp",), 0, data["max_hp"])
        elif local in ABILITIES:
            self.number(change, ("abilities", local), 0, data["max_abilities"][local])
        elif local == "fatigue":
            self.number(change, ("fatigue",), 0, FATIGUE_MAX)
        elif local == "status" and change.note in STATUS_CONDITIONS:
            condition = STATUS_CONDITIONS[change.note]
            if condition not in data["conditions"]:
                data["conditions"] = [*data["conditions"], condition]
            self.applied.append(mine)
        elif local == "scar":
            data["scars"] = [*data["scars"], change.note or "HP reduced to exactly 0"]
            self.applied.append(mine)
        elif local == "shield":
            data["shield"] = False
            self.applied.append(mine)
        else:
            self.other.append(change)


# --- the sheet's rules -------------------------------------------------------------------------


def _sunder_choice(params: Entry, resolution: Resolution) -> Choice | None:
    pending = resolution.details.get("shield_pending")
    if pending is None or params.get("sunder") is not None:
        return None
    info = next(t for t in resolution.details["targets"] if t["name"] == pending)
    target = next(t for t in resolution.params["targets"] if t["name"] == pending)
    hp, brawn, dealt = target.get("hp"), target.get("brawn"), info["dealt"]
    # Keeping the shield rolls the Brawn Save when the damage reaches a Brawn it leaves above 0.
    brawn_save = hp is not None and brawn is not None and hp < dealt < hp + brawn
    return Choice(
        param="sunder",
        prompt=f"The attack deals {dealt} damage. Sunder the shield to ignore all of it?",
        options=[
            ChoiceOption(value=True, label="sunder the shield: ignore all damage; it is destroyed"),
            ChoiceOption(value=False, label="keep the shield and take the damage"),
        ],
        citation=SHIELDS,
        extra_dice=brawn_save,
    )


class RollUnderSheetRules:
    model: type[BaseModel] = Sheet
    gm_params: list[GmParam] = GM_PARAMS
    track_types: list[TrackType] = TRACK_TYPES
    rest_kinds: list[RestKind] = REST_KINDS

    def rest(self, sheet: BaseModel, kind: str) -> SheetUpdate:
        return rest(own(sheet), kind)

    def validate(self, data: dict[str, Any]) -> BaseModel:
        return validate(data)

    def roll_params(self, sheet: BaseModel, kind: str, given: dict[str, Any]) -> dict[str, Any]:
        get_system(SYSTEM_ID).roll_kind(kind)  # an unknown kind: UnknownError naming "kind"
        return fill(own(sheet), kind, given)

    def apply(self, sheet: BaseModel, resolution: Resolution) -> SheetUpdate:
        mine = own(sheet)
        local = _local_target(mine, resolution)
        changes = _Changes(mine)
        for change in resolution.changes:
            target = local(change.target)
            if target is None:
                changes.other.append(change)
            else:
                changes.take(change, target)
        return SheetUpdate(
            sheet=Sheet.model_validate(changes.data),
            applied=changes.applied,
            other=changes.other,
        )

    def choices(self, kind: str, params: dict[str, Any], resolution: Resolution) -> list[Choice]:
        choice = _sunder_choice(params, resolution) if kind == "attack" else None
        return [choice] if choice else []

    def progress_roll(
        self, sheet: BaseModel, track_type: str, progress: int, given: dict[str, Any]
    ) -> tuple[str, dict[str, Any]]:
        raise UnknownError("track type", track_type, [], field="track_type")


SHEET_RULES = RollUnderSheetRules()
