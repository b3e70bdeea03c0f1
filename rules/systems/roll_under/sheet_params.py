"""roll_under: the values a character sheet holds, filled into a roll's parameters.

The character is the participant given without a name (the save's own params, ``actor`` or
``opponent``, ``savers.N``, ``characters.N``, ``targets.N``); its name, score, Finesse, Armor,
HP, Brawn and shield come from the sheet. A weapon given by name (a string, or an object with
``name``) is one of the sheet's, its die and qualities from the sheet; weapons without a name
are someone else's (an ally's, an opponent's). ``harm`` and ``ability_damage`` are the
character's. A value the sheet holds, given, is refused naming it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rules.errors import InvalidParameter, UnknownError
from rules.systems.roll_under.character import Sheet, Weapon
from rules.systems.roll_under.damage import UNCONSCIOUS, ZERO_EFFECTS
from rules.systems.roll_under.saves import ABILITIES

Entry = dict[str, Any]


def _refuse(entry: Entry, keys: Iterable[str], where: str, held: str) -> None:
    for key in keys:
        if key in entry:
            raise InvalidParameter(
                f"params.{where}{key} comes from the character sheet ({held})",
                f"params.{where}{key}",
            )


def _alive(sheet: Sheet) -> None:
    if sheet.abilities["brawn"] == 0:
        raise InvalidParameter(
            "sheet.abilities.brawn is 0: the character is dead; it's time to roll a new character",
            "sheet.abilities.brawn",
        )


def _conscious(sheet: Sheet, what: str) -> None:
    _alive(sheet)
    if "unconscious" in sheet.conditions:
        raise InvalidParameter(
            f"the character is {UNCONSCIOUS} (sheet.conditions): {what}", "sheet.conditions"
        )


def _score(sheet: Sheet, ability: Any, field: str) -> int:
    """The character's current score in ``ability``; 0 (its loss state) rolls nothing."""
    if ability is None:
        raise InvalidParameter(f"{field}: the GM names the Ability: {', '.join(ABILITIES)}", field)
    if not isinstance(ability, str) or ability not in ABILITIES:
        raise UnknownError("ability", str(ability), ABILITIES, field=field)
    _alive(sheet)
    score = sheet.abilities[ability]
    if score == 0:
        raise InvalidParameter(
            f"sheet.abilities.{ability} is 0 ({ZERO_EFFECTS[ability]}): nothing can be rolled "
            "with it until it is restored",
            f"sheet.abilities.{ability}",
        )
    return score


def _saver(sheet: Sheet, entry: Entry, where: str, *, named: bool) -> Entry:
    _refuse(entry, ["score"], where, "sheet.abilities")
    score = _score(sheet, entry.get("ability"), f"params.{where}ability")
    return {**({"name": sheet.engine_name} if named else {}), **entry, "score": score}


def _is_character(entry: Any) -> bool:
    return isinstance(entry, dict) and "name" not in entry


def _not_the_character(sheet: Sheet, entry: Any, where: str) -> None:
    if isinstance(entry, dict) and entry.get("name") == sheet.engine_name:
        raise InvalidParameter(
            f"params.{where}name: {sheet.engine_name!r} is the character's name in the roll: "
            "give the character's entry without a name (its values come from the sheet)",
            f"params.{where}name",
        )


def _participants(
    sheet: Sheet, given: Entry, key: str, fill: Callable[[Entry, str], Entry]
) -> Entry:
    """``given[key]`` with the entry without a name (the character's, one at most) filled."""
    entries = given.get(key)
    if not isinstance(entries, list):
        return dict(given)
    out: list[Any] = []
    found = False
    for i, entry in enumerate(entries):
        where = f"{key}.{i}."
        if not _is_character(entry):
            _not_the_character(sheet, entry, where)
            out.append(entry)
            continue
        if found:
            raise InvalidParameter(
                f"params.{where}name: only one entry is the character (the one without a "
                "name): name the others",
                f"params.{where}name",
            )
        found = True
        out.append(fill(entry, where))
    return {**given, key: out}


def _save(sheet: Sheet, given: Entry) -> Entry:
    """Out of the fight, the one save the text still calls for is the Brawn Save that damage to
    Brawn brings ("After taking damage to Brawn, roll a Brawn Save")."""
    if given.get("ability") != "brawn":
        _conscious(sheet, "no save but the Brawn Save after damage to Brawn")
    return _saver(sheet, given, "", named=False)


def _savers(sheet: Sheet, given: Entry) -> Entry:
    def fill(entry: Entry, where: str) -> Entry:
        _conscious(sheet, "no help or hindrance to another's save")
        return _saver(sheet, entry, where, named=True)

    return _participants(sheet, given, "savers", fill)


def _opposed(sheet: Sheet, given: Entry) -> Entry:
    out = dict(given)
    if _is_character(given.get("actor")) and _is_character(given.get("opponent")):
        raise InvalidParameter(
            "params.opponent.name: the character is the entry without a name: name the opponent",
            "params.opponent.name",
        )
    for side in ("actor", "opponent"):
        entry = given.get(side)
        if isinstance(entry, dict) and _is_character(entry):
            _conscious(sheet, "no opposed roll")
            out[side] = _saver(sheet, entry, f"{side}.", named=True)
        else:
            _not_the_character(sheet, entry, f"{side}.")
    return out


def _initiative(sheet: Sheet, given: Entry) -> Entry:
    def fill(entry: Entry, where: str) -> Entry:
        _conscious(sheet, "no initiative")
        _refuse(entry, ["finesse"], where, "sheet.abilities.finesse")
        finesse = _score(sheet, "finesse", f"params.{where}finesse")
        return {"name": sheet.engine_name, **entry, "finesse": finesse}

    return _participants(sheet, given, "characters", fill)


def _sheet_weapon(sheet: Sheet, entry: Any, where: str) -> tuple[Any, Weapon | None]:
    """A weapon given by name (a string, or an object with ``name``) is the sheet's: its die and
    qualities from the sheet, enhanced/impaired from the GM. Others are passed on as given."""
    if isinstance(entry, str):
        entry = {"name": entry}
    if not isinstance(entry, dict) or "name" not in entry:
        return entry, None
    _refuse(entry, ["die", "piercing", "ignores_armor"], where, "sheet.weapons")
    weapon = sheet.weapon(str(entry["name"]), f"params.{where}name")
    rest = {k: v for k, v in entry.items() if k != "name"}
    held = {"die": weapon.die, "piercing": weapon.piercing, "ignores_armor": weapon.ignores_armor}
    return {**held, **rest}, weapon


def _deed(sheet: Sheet, given: Entry) -> Entry:
    _conscious(sheet, "no deed")
    out = _saver(sheet, given, "", named=False)
    if given.get("weapon") is None:
        return out
    weapon, own = _sheet_weapon(sheet, given["weapon"], "weapon.")
    if own is None:
        raise InvalidParameter(
            "params.weapon comes from the character sheet: name one of its weapons "
            f"({', '.join(w.name for w in sheet.weapons) or 'the sheet has none'})",
            "params.weapon",
        )
    return {**out, "weapon": weapon}


def _character_target(sheet: Sheet, entry: Entry, where: str) -> Entry:
    _refuse(entry, ["armor", "hp", "brawn", "warband", "shield"], where, "sheet")
    if entry.get("sunder_shield") and not sheet.shield:
        raise InvalidParameter(
            f"params.{where}sunder_shield: the character has no shield equipped (sheet.shield)",
            f"params.{where}sunder_shield",
        )
    _alive(sheet)
    target = {
        "name": sheet.engine_name,
        **entry,
        "armor": sheet.armor,
        "hp": sheet.hp,
        "brawn": sheet.abilities["brawn"],
    }
    if sheet.shield and not entry.get("sunder_shield"):
        target["shield"] = True  # the player decides after the damage roll (choices)
    return target


def _attack(sheet: Sheet, given: Entry) -> Entry:
    out = dict(given)
    weapons = given.get("weapons")
    if isinstance(weapons, list):
        pairs = [_sheet_weapon(sheet, w, f"weapons.{i}.") for i, w in enumerate(weapons)]
        if any(own is not None for _, own in pairs):
            _conscious(sheet, "no attack with the character's weapons")
        out["weapons"] = [w for w, _ in pairs]
        if any(own is not None and own.blast for _, own in pairs):
            out["blast"] = True
    targets = given.get("targets")
    if isinstance(targets, list):
        for i, target in enumerate(targets):
            if not _is_character(target) and isinstance(target, dict) and "shield" in target:
                raise InvalidParameter(
                    f"params.targets.{i}.shield: only the character's shield waits for a "
                    "decision (from the sheet); an opponent who sunders its shield: sunder_shield",
                    f"params.targets.{i}.shield",
                )
        out = _participants(sheet, out, "targets", lambda e, w: _character_target(sheet, e, w))
    return out


def _harm(sheet: Sheet, given: Entry) -> Entry:
    _refuse(given, ["hp", "brawn", "warband"], "", "sheet")
    _alive(sheet)
    return {**given, "hp": sheet.hp, "brawn": sheet.abilities["brawn"]}


def _ability_damage(sheet: Sheet, given: Entry) -> Entry:
    _refuse(given, ["score", "warband"], "", "sheet")
    return {**given, "score": _score(sheet, given.get("ability"), "params.ability")}


_FILL: dict[str, Callable[[Sheet, Entry], Entry]] = {
    "save": lambda sheet, given: _save(sheet, given),
    "deed": _deed,
    "opposed": _opposed,
    "aid": _savers,
    "interfere": _savers,
    "initiative": _initiative,
    "attack": _attack,
    "harm": _harm,
    "ability_damage": _ability_damage,
}


def fill(sheet: Sheet, kind: str, given: Entry) -> Entry:
    """``given`` with the values the sheet holds for this roll kind (as given for the others)."""
    filler = _FILL.get(kind)
    return filler(sheet, given) if filler else dict(given)
