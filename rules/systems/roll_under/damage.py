"""roll_under: damage (attacks always hit), armour, harm to HP and Brawn, ability loss, deeds.

Source: roll_under.md, "Playing the Game > Combat" and "Damage, Death, and Debilities". The
rulings these functions apply are written down in ``system.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.dice import DiceSource
from rules.errors import InvalidParameter
from rules.models import Die, Resolution, StateChange
from rules.registry import MeterSpec
from rules.systems.roll_under.saves import (
    DEED,
    NAME_PATTERN,
    SCORE_MAX,
    Ability,
    SaveParams,
    _unique_names,
    cite,
    roll_save,
)

ATTACKS = cite("Combat > Attacks")
SHIELDS = cite("Combat > Sundered Shields")
ARMOUR = cite("Combat > Armour")
BLAST = cite("Combat > Blast")
DAMAGE = cite("Damage, Death, and Debilities")
ABILITY_LOSS = cite("Damage, Death, and Debilities > Ability Loss")
WEAPON_DICE = (4, 6, 8, 10, 12)
ENHANCED_DIE = 12
IMPAIRED_DIE = 4
HP_MAX = 100
ARMOR_MAX = 20
FATIGUE_MAX = 20
ZERO_EFFECTS = {
    "brawn": "dead",
    "finesse": "can no longer use limbs",
    "intellect": "stricken with madness",
}
UNCONSCIOUS = "unconscious and out of the fight until revived"

METERS = [
    MeterSpec(id="hp", name="HP", min=0, max=HP_MAX, note="damage reduces HP first"),
    MeterSpec(
        id="fatigue",
        name="Fatigue",
        min=0,
        max=FATIGUE_MAX,
        start=0,
        note="one inventory slot each",
    ),
]

# --- parameters --------------------------------------------------------------------------------


class Weapon(BaseModel):
    model_config = ConfigDict(extra="forbid")
    die: Literal[4, 6, 8, 10, 12] = Field(description="the weapon's damage die: 4, 6, 8, 10 or 12")
    enhanced: bool = Field(False, description="roll an extra d12, take the highest")
    impaired: bool = Field(False, description="roll an extra d4, take the lowest")
    piercing: int = Field(0, ge=0, le=ARMOR_MAX, description="armour points this attack ignores")
    ignores_armor: bool = Field(False, description="e.g. falling or burning")


class Target(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field("target", min_length=1, max_length=40, pattern=NAME_PATTERN)
    armor: int = Field(0, ge=0, le=ARMOR_MAX)
    hp: int | None = Field(None, ge=0, le=HP_MAX, description="current HP, to apply the damage")
    brawn: int | None = Field(None, ge=1, le=SCORE_MAX, description="current Brawn (with hp)")
    warband: bool = Field(False, description="a warband: a group treated as one unit")
    sunder_shield: bool = Field(False, description="sunder an equipped shield to ignore the damage")
    shield: bool = Field(
        False,
        description="has a shield equipped and decides after the damage roll whether to sunder "
        "it (params.sunder); one target at most",
    )


class AttackParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    weapons: list[Weapon] = Field(
        min_length=1,
        max_length=10,
        description="one per ally attacking the same opponent, or both weapons of a dual wielder",
    )
    targets: list[Target] | None = Field(
        None,
        max_length=20,
        description="one target; several only for a blast (none given: roll the die for how many)",
    )
    blast: bool = Field(False, description="affects all targets in a zone")
    attacker_warband: bool = Field(False, description="the attacker is a warband")
    enhanced: bool = Field(False, description="the GM rules every weapon's damage enhanced")
    impaired: bool = Field(False, description="the GM rules every weapon's damage impaired")
    sunder: bool | None = Field(
        None,
        description="the decision of the target with shield=true, after the damage roll: true "
        "sunders the shield (no damage, the shield is destroyed), false takes the damage; unset, "
        "that target's damage waits for the decision",
    )


class HarmParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    damage: int = Field(ge=0, le=200, description="damage after armour")
    hp: int = Field(ge=0, le=HP_MAX)
    brawn: int = Field(ge=1, le=SCORE_MAX)
    warband: bool = False


class AbilityDamageParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ability: Ability
    score: int = Field(ge=1, le=SCORE_MAX, description="the ability's current score")
    damage: int = Field(ge=1, le=SCORE_MAX)
    warband: bool = False


class DeedParams(SaveParams):
    weapon: Weapon | None = Field(None, description="the weapon whose damage a natural 1 adds")
    target_armor: int = Field(0, ge=0, le=ARMOR_MAX)
    enhanced: bool = Field(False, description="the GM rules that damage enhanced")
    impaired: bool = Field(False, description="the GM rules that damage impaired")


# --- damage dice -------------------------------------------------------------------------------


def effective_armor(armor: int, weapon: Weapon) -> int:
    if weapon.ignores_armor:
        return 0
    return max(0, armor - weapon.piercing)


@dataclass(frozen=True)
class DamageRoll:
    dice: list[Die]
    rolled: int
    armor: int
    mode: Literal["plain", "enhanced", "impaired", "cancelled"]

    @property
    def dealt(self) -> int:
        return max(0, self.rolled - self.armor)


def roll_damage(
    source: DiceSource,
    weapon: Weapon,
    armor: int,
    *,
    enhanced: bool = False,
    impaired: bool = False,
    prefix: str = "",
) -> DamageRoll:
    """Dice: the weapon die, then a d12 (enhanced) or a d4 (impaired); both cancel out."""
    enhanced = enhanced or weapon.enhanced
    impaired = impaired or weapon.impaired
    first = source.roll(weapon.die, f"{prefix}damage")
    armor = effective_armor(armor, weapon)
    if enhanced == impaired:
        mode: Literal["plain", "enhanced", "impaired", "cancelled"] = (
            "cancelled" if enhanced else "plain"
        )
        return DamageRoll([first], first.value, armor, mode)
    mode = "enhanced" if enhanced else "impaired"
    extra = source.roll(ENHANCED_DIE if enhanced else IMPAIRED_DIE, f"{prefix}{mode}")
    keep_extra = extra.value > first.value if enhanced else extra.value < first.value
    dice = [
        first.model_copy(update={"kept": not keep_extra}),
        extra.model_copy(update={"kept": keep_extra}),
    ]
    return DamageRoll(dice, extra.value if keep_extra else first.value, armor, mode)


# --- harm: HP, then Brawn, then the Brawn save ---------------------------------------------------


@dataclass
class Harm:
    changes: list[StateChange] = field(default_factory=list)
    dice: list[Die] = field(default_factory=list)
    scores: dict[str, int] = field(default_factory=dict)
    flags: dict[str, Any] = field(default_factory=dict)
    rulings: set[str] = field(default_factory=set)


def _zero_or_save(
    source: DiceSource,
    harm: Harm,
    ability: str,
    before: int,
    loss: int,
    *,
    warband: bool,
    prefix: str,
) -> None:
    """Ability damage: the effect at zero, or (Brawn only) the save for a critical injury."""
    after = before - loss
    harm.changes.append(StateChange(target=f"{prefix}{ability}", delta=-loss))
    harm.scores[f"{ability}_after"] = after
    if after == 0:
        effect = "destroyed" if warband and ability == "brawn" else ZERO_EFFECTS[ability]
        harm.changes.append(StateChange(target=f"{prefix}status", note=effect))
        harm.flags[ability + "_zero"] = effect
        return
    if ability != "brawn":
        return
    save = roll_save(source, after, prefix=f"{prefix}brawn_")
    harm.dice.extend(save.dice)
    harm.rulings.update({*save.rulings, "brawn_save_reduced_score"})
    harm.scores["brawn_save_roll"] = save.roll
    harm.flags["critical_injury"] = not save.success
    if save.success:
        return
    if warband:
        harm.changes.append(StateChange(target=f"{prefix}status", note="routed"))
        return
    harm.changes.append(StateChange(target=f"{prefix}fatigue", delta=1, note="critical injury"))
    harm.changes.append(StateChange(target=f"{prefix}status", note=UNCONSCIOUS))


def take_damage(
    source: DiceSource, damage: int, hp: int, brawn: int, *, warband: bool = False, prefix: str = ""
) -> Harm:
    """Damage reduces HP; the excess reduces Brawn (then a Brawn save, or death at 0)."""
    harm = Harm()
    harm.flags["harmed"] = damage > 0
    hp_loss = min(hp, damage)
    brawn_loss = min(brawn, damage - hp_loss)
    harm.scores.update({"hp_after": hp - hp_loss, "brawn_damage": brawn_loss})
    if hp_loss:
        harm.changes.append(StateChange(target=f"{prefix}hp", delta=-hp_loss))
    if hp > 0 and damage == hp:
        harm.changes.append(
            StateChange(target=f"{prefix}scar", note="HP reduced to exactly 0: see the Scars table")
        )
        harm.flags["scar"] = True
        harm.rulings.add("scar_exact_zero")
    if brawn_loss:
        _zero_or_save(source, harm, "brawn", brawn, brawn_loss, warband=warband, prefix=prefix)
    return harm


# --- resolvers ---------------------------------------------------------------------------------


def _roll_target(
    source: DiceSource, params: AttackParams, target: Target, *, blast: bool, prefix: str
) -> tuple[list[DamageRoll], dict[str, Any]]:
    """Every weapon's damage against one target; the single highest is the one dealt."""
    against_warband = target.warband and not params.attacker_warband
    by_warband = params.attacker_warband and not target.warband
    impaired = (against_warband and not blast) or params.impaired
    rolls = [
        roll_damage(
            source,
            w,
            target.armor,
            enhanced=by_warband or params.enhanced,
            impaired=impaired,
            prefix=prefix,
        )
        for w in params.weapons
    ]
    best = max(range(len(rolls)), key=lambda i: rolls[i].dealt)  # ties: the first listed
    info: dict[str, Any] = {
        "name": target.name,
        "rolled": [r.rolled for r in rolls],
        "armor": [r.armor for r in rolls],
        "modes": [r.mode for r in rolls],
        "dealt": rolls[best].dealt,
        "dealt_by": best,
    }
    return rolls, info


def _harm_target(
    source: DiceSource, target: Target, info: dict[str, Any], *, sundered: bool, prefix: str
) -> Harm | None:
    """The damage dealt to one target: HP, Brawn and its save (with hp and brawn given)."""
    if sundered:
        info["dealt"] = 0
    harm: Harm | None = None
    if target.hp is not None and target.brawn is not None:
        harm = take_damage(
            source, info["dealt"], target.hp, target.brawn, warband=target.warband, prefix=prefix
        )
        info.update(harm.scores)
        info.update(harm.flags)
    if sundered:
        shield = StateChange(target=f"{prefix}shield", note="sundered: destroyed, damage ignored")
        harm = harm or Harm()
        harm.changes.insert(0, shield)
        harm.rulings.add("sundered_shield_after_roll")
    return harm


def _targets(
    params: AttackParams, blast: bool, source: DiceSource
) -> tuple[list[Target], Die | None]:
    if params.targets is not None:
        if not params.targets:
            raise InvalidParameter("params.targets: give at least one target", "params.targets")
        if len(params.targets) > 1 and not blast:
            raise InvalidParameter(
                "params.targets: only a blast attack hits several targets "
                "(several attackers on one target: list them in weapons)",
                "params.targets",
            )
        _unique_names([t.name for t in params.targets], "params.targets")
        for i, t in enumerate(params.targets):
            if (t.hp is None) != (t.brawn is None):
                missing = "brawn" if t.brawn is None else "hp"
                raise InvalidParameter(
                    f"params.targets.{i}.{missing}: give both hp and brawn to apply the damage",
                    f"params.targets.{i}.{missing}",
                )
        return params.targets, None
    if not blast:
        return [Target()], None
    die = params.weapons[0].die
    count = source.roll(die, "blast_targets")
    return [Target(name=f"target_{i + 1}") for i in range(count.value)], count


def _open_shield(params: AttackParams, targets: list[Target]) -> int | None:
    """The target whose shield decision is left open (shield=true), if any."""
    shielded = [i for i, t in enumerate(targets) if t.shield]
    if len(shielded) > 1:
        where = f"params.targets.{shielded[1]}.shield"
        raise InvalidParameter(f"{where}: one target at most decides after the roll", where)
    if shielded and targets[shielded[0]].sunder_shield:
        where = f"params.targets.{shielded[0]}.shield"
        raise InvalidParameter(
            f"{where}: the shield is already sundered (sunder_shield): give one of the two", where
        )
    if params.sunder is not None and not shielded:
        raise InvalidParameter(
            "params.sunder: no target has its shield decision open (targets.N.shield)",
            "params.sunder",
        )
    return shielded[0] if shielded else None


def resolve_attack(params: AttackParams, source: DiceSource) -> Resolution:
    blast = params.blast or params.attacker_warband
    targets, count_die = _targets(params, blast, source)
    several = len(targets) > 1 or count_die is not None
    shield_at = _open_shield(params, targets)
    dice: list[Die] = [count_die] if count_die else []
    changes: list[StateChange] = []
    rulings: set[str] = {"weapon_dice", "armour_after_roll"}
    per_target: list[dict[str, Any]] = []
    harms: dict[int, Harm] = {}
    deferred: int | None = None
    details: dict[str, Any] = {"blast": blast, "targets": per_target}

    def harm(i: int, sundered: bool) -> None:
        prefix = f"{targets[i].name}." if several else ""
        done = _harm_target(source, targets[i], per_target[i], sundered=sundered, prefix=prefix)
        if done:
            harms[i] = done
            dice.extend(done.dice)
            changes.extend(done.changes)
            rulings.update(done.rulings)

    for i, target in enumerate(targets):
        prefix = f"{target.name}." if several else ""
        rolls, info = _roll_target(source, params, target, blast=blast, prefix=prefix)
        per_target.append(info)
        for r in rolls:
            dice.extend(r.dice)
            if r.mode == "cancelled":
                rulings.add("enhanced_impaired_cancel")
        if i != shield_at:
            harm(i, target.sunder_shield)
        elif params.sunder is None and info["dealt"] > 0:
            # The decision comes after the damage roll: nothing is dealt until it is made.
            info["shield_pending"] = True
            details["shield_pending"] = target.name
            rulings.add("sundered_shield_after_roll")
        elif params.sunder is False:
            deferred = i  # its Brawn save, if any, comes after every other die
        else:
            harm(i, bool(params.sunder))
    if deferred is not None:
        rulings.add("sundered_shield_after_roll")
        harm(deferred, False)
    if len(params.weapons) > 1:
        rulings.add("highest_after_armour")
    if count_die:
        rulings.add("blast_unknown_count")
    if params.attacker_warband or any(t.warband for t in targets):
        rulings.add("warband_modifiers")
    if several:
        scores = {f"{t['name']}_damage": t["dealt"] for t in per_target}
    else:
        scores = {"damage": per_target[0]["dealt"]}
    outcome = "damage" if any(t["dealt"] for t in per_target) else "no_damage"
    if not several and "shield_pending" in details:
        outcome = "shield_choice"
    elif not several and 0 in harms and targets[0].hp is not None:
        outcome = _harm_outcome(harms[0], targets[0].warband)
    return Resolution(
        outcome=outcome,
        scores=scores,
        dice=dice,
        changes=changes,
        citation=BLAST if blast else ATTACKS,
        rulings=sorted(rulings),
        details=details,
    )


def _harm_outcome(harm: Harm, warband: bool) -> str:
    for key in ("brawn_zero", "finesse_zero", "intellect_zero"):
        if key in harm.flags:
            return str(harm.flags[key]).replace(" ", "_")
    if harm.flags.get("critical_injury"):
        return "routed" if warband else "critical_injury"
    if harm.flags.get("scar"):
        return "scar"
    return "harmed" if harm.flags.get("harmed") else "unharmed"


def resolve_harm(params: HarmParams, source: DiceSource) -> Resolution:
    harm = take_damage(source, params.damage, params.hp, params.brawn, warband=params.warband)
    outcome = _harm_outcome(harm, params.warband)
    return Resolution(
        outcome=outcome,
        scores=harm.scores,
        dice=harm.dice,
        changes=harm.changes,
        citation=DAMAGE,
        rulings=sorted(harm.rulings),
        details=harm.flags,
    )


def resolve_ability_damage(params: AbilityDamageParams, source: DiceSource) -> Resolution:
    harm = Harm(flags={"harmed": True})
    loss = min(params.score, params.damage)
    _zero_or_save(
        source, harm, params.ability, params.score, loss, warband=params.warband, prefix=""
    )
    outcome = _harm_outcome(harm, params.warband)
    return Resolution(
        outcome=outcome,
        scores=harm.scores,
        dice=harm.dice,
        changes=harm.changes,
        citation=ABILITY_LOSS,
        rulings=sorted(harm.rulings | {"ability_damage_brawn_save"} if harm.dice else harm.rulings),
        details=harm.flags,
    )


def resolve_deed(params: DeedParams, source: DiceSource) -> Resolution:
    save = roll_save(
        source, params.score, advantage=params.advantage, disadvantage=params.disadvantage
    )
    dice = list(save.dice)
    scores = {"roll": save.roll, "score": save.score}
    details: dict[str, Any] = {
        "ability": params.ability,
        "mode": save.mode,
        "natural": save.natural,
    }
    rulings = set(save.rulings) | {"deed_critical_kept_die"}
    if save.roll == 1:
        outcome = "spectacular_success"
        details["text"] = "succeeds spectacularly; the opponent has no chance to avoid it"
        if params.weapon is not None:
            damage = roll_damage(
                source,
                params.weapon,
                params.target_armor,
                enhanced=params.enhanced,
                impaired=params.impaired,
            )
            dice.extend(damage.dice)
            scores["damage"] = damage.dealt
            rulings.add("armour_after_roll")
            if damage.mode == "cancelled":
                rulings.add("enhanced_impaired_cancel")
    elif save.roll == 20:
        outcome = "miserable_failure"
        details["text"] = "fails miserably: the intended result happens to the character instead"
        details["may_save_to_avoid"] = True
    else:
        outcome = "success" if save.success else "failure"
    return Resolution(
        outcome=outcome,
        scores=scores,
        dice=dice,
        citation=DEED,
        rulings=sorted(rulings),
        details=details,
    )
