"""roll_under: d20 roll-under ability saves (Brawn, Finesse, Intellect), always-hit damage dice.

Source: roll_under.md, "Playing the Game" (the text names no game, authors or licence). Its Scars
table lives in another file (4a-Scars.md) that is not part of the source, so this system has no
random tables; a scar is flagged as a state change for the caller to roll elsewhere.

Mechanics: ``saves.py`` (saves, opposed, aid, interfere, initiative) and ``damage.py``
(attacks, armour, harm, ability loss, deeds); the character sheet is ``sheet.py``; this module
holds the rulings and SYSTEM.
"""

from __future__ import annotations

from rules.models import Ruling
from rules.oracle import ORACLE_KIND, oracle_ruling
from rules.registry import RollKind, build_system
from rules.systems.roll_under import damage as dmg
from rules.systems.roll_under import saves as sv
from rules.systems.roll_under.rest import REST_RULINGS
from rules.systems.roll_under.sheet import SHEET_RULES

SOURCE = sv.SOURCE
cite = sv.cite

# --- rulings -----------------------------------------------------------------------------------

RULINGS = [
    Ruling(
        id="save_strictly_under",
        text=(
            "A save succeeds only when the kept d20 is strictly less than the score: equal to "
            "the score fails. A natural 1 always succeeds and a natural 20 always fails."
        ),
        quote="If the result is **less than** your character's Ability score, the Action "
        "**succeeds**. Otherwise, it **fails**.",
        citation=sv.SAVES,
    ),
    Ruling(
        id="ability_score_range",
        text=(
            "The text gives no range for Ability scores: a save is made with a score of 1 to 20 "
            "(0 is the loss state the text describes — death, useless limbs, madness — and any "
            "score above 20 behaves as 20, since a 20 always fails)."
        ),
        quote="Regardless of Ability scores, a roll of 1 always succeeds, while a 20 always fails.",
        citation=sv.SAVES,
    ),
    Ruling(
        id="advantage_disadvantage_cancel",
        text=(
            "Advantage and disadvantage are yes/no: any advantage with any disadvantage is one "
            "plain d20; several advantages still roll only one extra d20. With two dice, the "
            "discarded one is marked kept=false (on a tie, the first die is kept)."
        ),
        quote="Ability Saves with both Advantages and Disadvantages are rolled as usual with one d20.",
        citation=sv.ADVANTAGE,
    ),
    Ruling(
        id="opposed_lowest_success",
        text=(
            "Opposed saves: a success beats a failure; of two successes the lower roll wins (equal "
            "rolls: the higher score, i.e. the wider margin, wins; equal scores too: stalemate). "
            "If both fail, nobody wins: stalemate, the situation stays as it was (the door holds)."
        ),
        quote="both opponents make Ability Saves, and the lowest roll succeeds.",
        citation=sv.OPPOSED,
    ),
    Ruling(
        id="aid_best_result",
        text=(
            "Aid: the action succeeds if any save succeeds (the decider is the successful save "
            "with the lowest roll); on a failure every saver shares the consequences."
        ),
        quote="Everyone involved makes separate Abilities Saves, and the best result decides the "
        "outcome.",
        citation=sv.AID,
    ),
    Ruling(
        id="interfere_worst_result",
        text=(
            "Interfere: the action succeeds only if every save (the actor's and each "
            "interferer's) succeeds; the decider is the failed save with the highest roll."
        ),
        quote="Everyone involved makes an Ability Save, and the worst roll decides the outcome.",
        citation=sv.AID,
    ),
    Ruling(
        id="initiative_order",
        text=(
            "Each character makes a Finesse Save. Those who succeed act first, lowest roll first; "
            "then the opponents; then those who failed, also lowest roll first. Equal rolls keep "
            "the listed order. Against surprised opponents nobody rolls: all characters, in the "
            "listed order, act first."
        ),
        quote="The lowest roll goes first, and then in order of increasing results. Characters "
        "who failed the Finesse Save go after their opponents.",
        citation=sv.INITIATIVE,
    ),
    Ruling(
        id="weapon_dice",
        text="Weapon damage dice are d4, d6, d8, d10 or d12 (the text names no others).",
        quote="The attacker rolls their weapon’s damage die and deals that much damage to their "
        "opponent's HP.",
        citation=dmg.ATTACKS,
    ),
    Ruling(
        id="enhanced_impaired_cancel",
        text=(
            "An attack both enhanced and impaired rolls only its weapon die, as advantage and "
            "disadvantage cancel. With two dice, the discarded one is marked kept=false (on a "
            "tie, the weapon die is kept)."
        ),
        quote="If the attack is Impaired, such as firing through cover, roll your damage die and "
        "an extra **d4**. Take the single lowest result.",
        citation=dmg.ATTACKS,
    ),
    Ruling(
        id="armour_after_roll",
        text=(
            "Damage dealt is the kept damage die minus armour, never below 0. Piercing lowers the "
            "armour by its value (never below 0); attacks that ignore armour subtract nothing."
        ),
        quote="Before dealing damage to HP, subtract the target's **Armor** rating from the "
        "result of your damage roll.",
        citation=dmg.ARMOUR,
    ),
    Ruling(
        id="highest_after_armour",
        text=(
            "Several attackers on one opponent, or two weapons: each damage roll is reduced by "
            "armour (with its own piercing) and the single highest is dealt."
        ),
        quote="roll each damage separately, but deal the single highest result.",
        citation=cite("Combat > Multiple Attacks"),
    ),
    Ruling(
        id="blast_unknown_count",
        text=(
            "A blast with no targets listed rolls the (first) weapon's damage die for the number "
            "of targets, each unarmoured unless listed; each target's damage is rolled separately."
        ),
        quote="If unsure how many targets can be affected in the zone, roll the related damage "
        "die for the number.",
        citation=dmg.BLAST,
    ),
    Ruling(
        id="warband_modifiers",
        text=(
            "Individuals attacking a warband are impaired unless the attack is a blast; a warband "
            "attacking individuals is enhanced and a blast. Warband against warband: neither."
        ),
        quote="Attacks against Warbands by individuals are **impaired** unless they deal blast "
        "damage.",
        citation=cite("Combat > Warband"),
    ),
    Ruling(
        id="scar_exact_zero",
        text=(
            "A scar is flagged when damage equals the remaining HP exactly (HP above 0 falls to "
            "0 with no excess to Brawn)."
        ),
        quote="When damage to your character reduces their HP to *exactly* zero, they are "
        "sometimes changed irrevocably.",
        citation=cite("Damage, Death, and Debilities > Scars"),
    ),
    Ruling(
        id="brawn_save_reduced_score",
        text=(
            "The Brawn Save after Brawn damage is made against the reduced Brawn; at 0 Brawn the "
            "character is dead (a warband destroyed) and no save is rolled."
        ),
        quote="After taking damage to Brawn, roll a Brawn Save.",
        citation=dmg.ABILITY_LOSS,
    ),
    Ruling(
        id="ability_damage_brawn_save",
        text=(
            "Brawn damage from any source (poison, disease, spells) also calls for the Brawn "
            "Save; Finesse and Intellect damage has no save, only its effect at 0."
        ),
        quote="Some creatures, poisons, diseases, or spells can potentially damage your "
        "character’s other Abilities.",
        citation=dmg.ABILITY_LOSS,
    ),
    Ruling(
        id="sundered_shield_after_roll",
        text=(
            "The damage is rolled first; a target choosing to sunder its shield takes none of it "
            "and the shield is destroyed. A target whose choice is left open (shield) has its "
            "damage rolled and reported but not dealt until it decides (sunder); keeping the "
            "shield deals the damage, and the Brawn Save that may follow is rolled after every "
            "other die of the attack."
        ),
        quote="you could choose to ignore all damage in an attack by sundering their shield.",
        citation=cite("Combat > Sundered Shields"),
    ),
    Ruling(
        id="deed_critical_kept_die",
        text=(
            "A deed's critical is read on the kept die (after advantage or disadvantage). On a 1 "
            "the weapon's damage (if a weapon is given) is rolled, armour applies. On a 20 the "
            "save to avoid the effect is the GM's call and is not rolled here."
        ),
        quote="If you roll a one or a twenty on your Ability Save for completing a deed, see the "
        "following outcomes.",
        citation=sv.DEED,
    ),
]

# --- the system --------------------------------------------------------------------------------

METERS = dmg.METERS

SAVE_DICE = "one d20 (save); with advantage xor disadvantage, a second d20"

ORACLE_RULING = oracle_ruling(
    cite("Playing the Game"),
    "The GM will answer your questions and will always respect your freedom of choice.",
)

SYSTEM = build_system(
    id="roll_under",
    name="Roll Under",
    source=SOURCE,
    summary="d20 roll-under ability saves (Brawn, Finesse, Intellect); attacks always hit.",
    stats=sv.ABILITIES,
    meters=METERS,
    roll_kinds=[
        ORACLE_KIND,
        RollKind(
            id="save",
            summary="Ability Save: d20 strictly under the score succeeds; 1 succeeds, 20 fails.",
            params=sv.SaveParams,
            resolve=sv.resolve_save,
            dice_order=SAVE_DICE,
            examples=[{"ability": "finesse", "score": 12, "advantage": True}],
        ),
        RollKind(
            id="opposed",
            summary="Opposed Action: both save; a success beats a failure, then the lowest roll.",
            params=sv.OpposedParams,
            resolve=sv.resolve_opposed,
            dice_order=f"the actor's save ({SAVE_DICE}), then the opponent's save",
            examples=[
                {
                    "actor": {"name": "Ash", "ability": "brawn", "score": 12},
                    "opponent": {"name": "Orc", "ability": "brawn", "score": 14},
                }
            ],
        ),
        RollKind(
            id="aid",
            summary="Aid: everyone saves; the best result decides.",
            params=sv.GroupParams,
            resolve=sv.resolve_aid,
            dice_order=f"each saver's save in the listed order ({SAVE_DICE})",
            examples=[
                {
                    "savers": [
                        {"name": "Ash", "ability": "brawn", "score": 9},
                        {"name": "Bo", "ability": "brawn", "score": 13},
                    ]
                }
            ],
        ),
        RollKind(
            id="interfere",
            summary="Interfere: everyone saves; the worst result decides.",
            params=sv.GroupParams,
            resolve=sv.resolve_interfere,
            dice_order=f"each saver's save in the listed order ({SAVE_DICE})",
            examples=[
                {
                    "savers": [
                        {"name": "Ash", "ability": "finesse", "score": 14},
                        {"name": "Bo", "ability": "intellect", "score": 11},
                    ]
                }
            ],
        ),
        RollKind(
            id="initiative",
            summary="Initiative: Finesse Saves; successes lowest first, then opponents, then fails.",
            params=sv.InitiativeParams,
            resolve=sv.resolve_initiative,
            dice_order=(
                f"each character's Finesse save in the listed order ({SAVE_DICE}); "
                "no dice when the opponents are surprised"
            ),
            examples=[
                {"characters": [{"name": "Ash", "finesse": 12}, {"name": "Bo", "finesse": 9}]}
            ],
        ),
        RollKind(
            id="deed",
            summary="Heroic deed: an Ability Save; a 1 succeeds spectacularly, a 20 backfires.",
            params=dmg.DeedParams,
            resolve=dmg.resolve_deed,
            dice_order=(
                f"the save ({SAVE_DICE}); on a kept 1 with a weapon, its damage "
                "(weapon die, then the d12/d4 of enhanced/impaired)"
            ),
            examples=[{"ability": "finesse", "score": 13, "weapon": {"die": 8}}],
        ),
        RollKind(
            id="attack",
            summary=(
                "Attack (always hits): weapon die (enhanced +d12 highest, impaired +d4 lowest), "
                "minus armour; several weapons deal the highest; blasts roll per target; with "
                "hp and brawn, the damage is applied (HP, then Brawn and a Brawn Save)."
            ),
            params=dmg.AttackParams,
            resolve=dmg.resolve_attack,
            dice_order=(
                "for a blast with no targets listed, first the first weapon's die for the number "
                "of targets; then for each target in order: each weapon in order (its damage die, "
                "then a d12 if enhanced or a d4 if impaired), then, if that target's Brawn was "
                "damaged and is above 0, its Brawn save d20, except for the target with shield "
                "and sunder=false, whose Brawn save d20 comes last. With several targets, state "
                "changes are named '<target name>.hp' etc."
            ),
            examples=[
                {
                    "weapons": [{"die": 8, "enhanced": True}],
                    "targets": [{"name": "orc", "armor": 1, "hp": 4, "brawn": 10}],
                },
                {"weapons": [{"die": 6}], "blast": True},
            ],
        ),
        RollKind(
            id="harm",
            summary="Apply damage: HP first, the excess to Brawn; Brawn Save or death at 0.",
            params=dmg.HarmParams,
            resolve=dmg.resolve_harm,
            dice_order="the Brawn save d20, only if Brawn was damaged and is still above 0",
            examples=[{"damage": 7, "hp": 4, "brawn": 12}],
        ),
        RollKind(
            id="ability_damage",
            summary="Damage to an ability (poison, spells): effect at 0; Brawn Save for Brawn.",
            params=dmg.AbilityDamageParams,
            resolve=dmg.resolve_ability_damage,
            dice_order="the Brawn save d20, only for Brawn damage that leaves Brawn above 0",
            examples=[{"ability": "intellect", "score": 8, "damage": 3}],
        ),
    ],
    rulings=[*RULINGS, *REST_RULINGS, ORACLE_RULING],
    sheet=SHEET_RULES,
)
