"""Elegy: a solo vampire game on the Ironsworn chassis.

Source: elegy.md (Chapter III "Playing the Game" and the optional moves chapter; the text names
no authors or licence). Mechanics in mechanics.py, parameters in params.py, the ``move`` kind
in moves.py, the roll-free kinds in tracks.py; this module holds the rulings, the resolvers of
the dice roll kinds and SYSTEM.
"""

from __future__ import annotations

from typing import Any

from rules.dice import DiceSource
from rules.ironsworn import is_oracle_match
from rules.models import Citation, Resolution, Ruling
from rules.progress import TICKS_PER_BOX, ProgressTrack
from rules.registry import RollKind, build_system
from rules.systems.elegy import mechanics as m
from rules.systems.elegy import options as o
from rules.systems.elegy.moves import MOVE_DICE_ORDER, TABLES, resolve_move
from rules.systems.elegy.params import (
    ActionParams,
    AdvanceParams,
    ConclusionParams,
    FoeHarmParams,
    HarmParams,
    HungerParams,
    MoveParams,
    OracleParams,
    PowerParams,
    ProgressParams,
    RitualParams,
    StressParams,
)
from rules.systems.elegy.sheet import SHEET_RULES
from rules.systems.elegy.tracks import (
    resolve_advance,
    resolve_foe_harm,
    resolve_harm,
    resolve_hunger,
    resolve_progress,
    resolve_stress,
)
from rules.tables import roll_table

SOURCE = m.SOURCE
cite = m.cite

# --- rulings -----------------------------------------------------------------------------------

RULINGS = [
    Ruling(
        id="action_score_cap",
        text="The text sets no cap; the chassis rule applies: stat + adds is capped at 10, so a "
        "challenge die of 10 is never beaten by the action score (burned focus is at most 10).",
        quote="The total of your stat and any adds is your action score.",
        citation=m.ACTION_ROLL,
    ),
    Ruling(
        id="negative_focus_reroll",
        text="With negative focus, each challenge die strictly lower than the absolute value of "
        "focus is rerolled, once: the reroll stands even if it is low again (so -1 focus never "
        "rerolls, -6 rerolls 1-5). Rerolls follow the two challenge dice, the first die's first; "
        "the replaced die stays in the record marked rerolled.",
        quote="For example, when you make a roll at -3 focus and score an 8 and an 1, you must "
        "reroll the 1. You only need to do this once - if you score an 1 again, count it as a hit.",
        citation=m.FOCUS,
    ),
    Ruling(
        id="match_after_reroll",
        text="A match is judged on the final challenge dice, after any negative-focus reroll.",
        quote="If the values on your challenge dice are the same, you've rolled a match.",
        citation=cite("The Action Roll > Match"),
    ),
    Ruling(
        id="burn_focus",
        text="Burning focus (positive focus only, Action Rolls only) replaces the action score "
        "when it improves the outcome; focus is then reset (+2, +1 with one impact, 0 with more) "
        "and the outcome's own focus gain applies to the reset value.",
        quote="When you have positive focus, after you make an Action Roll, you may replace your "
        "action score with your current focus value.",
        citation=m.FOCUS,
    ),
    Ruling(
        id="conclusion_ignores_focus",
        text="Conclusion rolls (and the conclusion moves) ignore focus entirely: no reroll for "
        "negative focus, no burning.",
        quote="Roll the dice and compare their value to the number of filled boxes in the track "
        "(ignore stats, focus, and bonuses).",
        citation=m.CONCLUSION_ROLL,
    ),
    Ruling(
        id="elegy_weak_hit_xp",
        text="On a weak hit concluding an elegy, experience is the rank's less 1, or the full "
        "amount when you sing an elegy to set things right (set_things_right).",
        quote="If you sing an elegy to set things right, take full xp. Otherwise, take -1 xp.",
        citation=cite("Progress Tracks > The Conclusion Roll > Weak Hit"),
    ),
    Ruling(
        id="connection_miss_half",
        text="Recommitting after a connection miss clears half the filled boxes rounded up and "
        "raises the rank by one (not above epic).",
        quote="If you recommit to this relationship, clear half your progress boxes and raise the "
        "connection's rank by one.",
        citation=cite("Progress Tracks > The Conclusion Roll > Miss"),
    ),
    Ruling(
        id="oracle_match",
        text="A yes/no oracle roll with equal digits is a match: 11, 22, ... 99, and 100 (00).",
        quote="On a match, an extreme result or twist has occurred.",
        citation=cite("Using Oracles > Asking The Oracle > Yes/No"),
    ),
    Ruling(
        id="meter_range",
        text="The text gives no maximum for health, spirit and blood; the chassis range 0-5 is "
        "used.",
        quote="you reduce your health track by the amount of harm suffered",
        citation=m.HARM,
    ),
    Ruling(
        id="impact_overflow",
        text="Harm, stress or blood beyond what the meter holds is suffered 'at 0': the meter "
        "drops to 0 and the next impact of its chain is marked (one per instance, not per point).",
        quote="When you are at 0 health and suffer harm, you must mark the Wounded impact.",
        citation=m.HARM,
    ),
    Ruling(
        id="superstition_and_faith",
        text="Authentic faith raises the foe one rank (not above epic) first; superstitions then "
        "add +1 harm.",
        quote="When they deal damage, you suffer +1 harm.",
        citation=cite("Harm, Stress And Hunger > Optional Rules > Superstitions"),
    ),
    Ruling(
        id="stress_from_foe",
        text="Stress 'equal to your foe's rank' uses the harm a foe of that rank deals.",
        quote="suffer -spirit equal to your foe's rank or as appropriate to the situation",
        citation=cite("Optional Rule: Moves > Suffer Moves > Endure Stress"),
    ),
    Ruling(
        id="powers_are_action_rolls",
        text="Powers and rituals are Action Rolls: a hit gives +1 focus as any Action Roll; a "
        "power's weak hit or miss also spends 1 blood, and a miss needs a second cost.",
        quote="To use a supernatural ability or power, you make an Action Roll based on the "
        "asset's associated stat.",
        citation=cite("The Action Roll > Using Powers"),
    ),
    Ruling(
        id="ritual_stat_intellect",
        text="A ritual rolls +intellect (the text's 'intelligence stat').",
        quote="you make an Action Roll based on the intelligence stat",
        citation=cite("The Action Roll > Rituals"),
    ),
    Ruling(
        id="recommit_all_but_one",
        text="Recommitting after a Fulfill Your Elegy miss keeps one filled box (4 ticks) and "
        "clears the rest; the rank rises by one unless epic.",
        quote="You recommit: Clear all but one filled progress, and raise the quest's rank by one",
        citation=cite("Optional Rule: Moves > Quest Moves > Fulfill Your Elegy"),
    ),
    Ruling(
        id="form_a_bond_experience",
        text="Elegy has no legacy tracks: a bond formed with the move earns the experience points "
        "of the Experience section (1-5 by rank), not the ticks the move lists.",
        quote="When you conclude an elegy or create a bond, you gain experience ponts per the "
        "challenge's rank",
        citation=m.EXPERIENCE,
    ),
    Ruling(
        id="endure_sequence",
        text="Endure moves suffer first (meter loss; loss beyond 0 becomes -focus, and the "
        "Endure Hunger text's 'remaining -focus' is read as remaining -blood), then roll with the "
        "resulting focus; Endure Stress's 'corrupted' is the Traumatized impact.",
        quote="If your health is 0, suffer -focus equal to any remaining -health. Then, roll "
        "+force.",
        citation=cite("Optional Rule: Moves > Suffer Moves > Endure Harm"),
    ),
    Ruling(
        id="endure_table_when_both_marked",
        text="On an Endure miss at 0, the first unmarked impact of the chain is marked; the table "
        "is rolled only when both are already marked.",
        quote="you must mark wounded or permanently harmed (if currently unmarked) or roll on the "
        "following table.",
        citation=cite("Optional Rule: Moves > Suffer Moves > Endure Harm"),
    ),
    Ruling(
        id="face_a_setback",
        text="Focus never goes below -6; -focus suffered beyond it is reported as Face a "
        "Setback (details.face_a_setback), to exchange as the move says.",
        quote="When your focus is at its minimum (-6), and you suffer additional -focus, choose "
        "one.",
        citation=cite("Optional Rule: Moves > Suffer Moves > Face A Setback"),
    ),
]

METERS = m.METERS

# --- resolvers ---------------------------------------------------------------------------------


def _action_resolution(
    params: ActionParams | RitualParams, source: DiceSource, stat: str
) -> tuple[m.ActionOutcome, m.Changes, dict[str, Any]]:
    outcome = m.roll_action(
        source,
        stat_value=params.stat_value,
        adds=params.adds,
        focus=params.focus,
        impacts=len(params.impacts),
        burn_focus=params.burn_focus,
    )
    changes = m.Changes(focus=params.focus)
    if outcome.burned:
        changes.reset_focus(outcome.reset)
    if outcome.band != "miss":
        changes.change_focus(1, "Action Roll hit: +1 focus")
    details: dict[str, Any] = {
        "stat": stat,
        "burned_focus": outcome.burned,
        "burn_would_improve": outcome.burn_would_improve,
        "rerolled": outcome.roll.rerolled,
        "benefits": {"strong_hit": 1, "weak_hit": 1, "miss": 0}[outcome.band],
        "costs": {"strong_hit": 0, "weak_hit": 1, "miss": 1}[outcome.band],
        "benefit_options": m.BENEFITS,
        "cost_options": m.COSTS,
    }
    return outcome, changes, details


def _meters(params: ActionParams | RitualParams) -> dict[str, int | None]:
    return {"health": params.health, "spirit": params.spirit, "blood": params.blood}


def _benefit(
    changes: m.Changes, params: ActionParams | RitualParams, band: str, details: dict[str, Any]
) -> None:
    """On a hit, the benefit chosen in params.benefit ("choose a fitting benefit"), applied after
    the roll's own effects (a power's blood, a ritual's consumption)."""
    if params.benefit is None or band == "miss":
        return
    option = o.BENEFIT_BY_ID[params.benefit]
    note = f"benefit: {option.label}"
    details["benefit"] = option.label
    if option.id == "mark_progress":
        o.mark_progress(changes, params.rank, params.ticks, details, note)
    else:
        meters, impacts = o.current(changes, _meters(params), params.impacts)
        o.apply_effects(changes, option, meters=meters, impacts=impacts, note=note)


def _cost(changes: m.Changes, params: ActionParams, details: dict[str, Any]) -> None:
    """The cost chosen in params.cost ("select one fitting cost"), down its meter's chain."""
    if params.cost is None:
        return
    option = o.COST_BY_ID[params.cost]
    details["cost"] = option.label
    meters, impacts = o.current(changes, _meters(params), params.impacts)
    step = o.apply_effects(
        changes, option, meters=meters, impacts=impacts, note=f"cost: {option.label}"
    )
    if step is not None:
        details["cost_impact"] = step


def _resolution(
    focus: int,
    outcome: m.ActionOutcome,
    changes: m.Changes,
    details: dict[str, Any],
    citation: Citation,
    rulings: list[str],
) -> Resolution:
    return Resolution(
        outcome=outcome.band,
        match=outcome.match,
        scores={
            "action_score": outcome.score,
            "focus": focus,
            "challenge_1": outcome.roll.challenge[0],
            "challenge_2": outcome.roll.challenge[1],
        },
        dice=outcome.roll.dice,
        changes=changes.items,
        citation=citation,
        rulings=[*outcome.rulings, *rulings],
        details=details,
    )


def resolve_action(params: ActionParams, source: DiceSource) -> Resolution:
    outcome, changes, details = _action_resolution(params, source, params.stat)
    _benefit(changes, params, outcome.band, details)
    if outcome.band != "strong_hit":
        _cost(changes, params, details)
    return _resolution(params.focus, outcome, changes, details, m.ACTION_ROLL, [])


def resolve_power(params: PowerParams, source: DiceSource) -> Resolution:
    outcome, changes, details = _action_resolution(params, source, params.stat)
    if outcome.band != "strong_hit":
        step = m.lose(changes, "blood", 1, params.blood, params.impacts, "power: spend 1 blood")
        details["impact"] = step
    _benefit(changes, params, outcome.band, details)
    details["costs"] = 0 if outcome.band == "strong_hit" else 1 if outcome.band == "weak_hit" else 2
    details["second_cost"] = outcome.band == "miss"
    if outcome.band == "miss":
        _cost(changes, params, details)
    return _resolution(
        params.focus,
        outcome,
        changes,
        details,
        cite("The Action Roll > Using Powers"),
        ["powers_are_action_rolls"],
    )


def resolve_ritual(params: RitualParams, source: DiceSource) -> Resolution:
    outcome, changes, details = _action_resolution(params, source, "intellect")
    dice = list(outcome.roll.dice)
    lost = 1 if outcome.band == "weak_hit" else 0
    if outcome.band == "miss":
        result = roll_table(TABLES["ritual_miss"], source, TABLES)
        dice.extend(result.dice)
        details["ritual_miss"] = result.texts()
        lost = 2 if result.row.low == 81 else 0
    details["consumes"] = lost
    if lost:
        meters = _meters(params)
        if params.meter_value is not None:
            meters[params.consume] = params.meter_value
        step = m.lose(
            changes,
            params.consume,
            lost,
            meters[params.consume],
            params.impacts,
            "the ritual consumes you",
        )
        details["impact"] = step
    _benefit(changes, params, outcome.band, details)
    resolution = _resolution(
        params.focus,
        outcome,
        changes,
        details,
        cite("The Action Roll > Rituals"),
        ["powers_are_action_rolls", "ritual_stat_intellect"],
    )
    return resolution.model_copy(update={"dice": dice})


def resolve_conclusion(params: ConclusionParams, source: DiceSource) -> Resolution:
    track = ProgressTrack(rank=params.rank, ticks=params.ticks)
    band, roll = m.roll_conclusion(source, track.score)
    changes = m.Changes(focus=0)
    rulings = ["conclusion_ignores_focus"]
    xp = m.XP_BY_RANK[params.rank]
    if params.track != "combat" and band == "strong_hit":
        changes.add("experience", xp, f"{params.track} concluded ({params.rank})")
    if params.track == "elegy" and band == "weak_hit":
        rulings.append("elegy_weak_hit_xp")
        earned = xp if params.set_things_right else xp - 1
        if earned:
            changes.add("experience", earned, "elegy fulfilled, more to do")
    if params.track == "connection" and band == "miss" and params.recommit:
        rulings.append("connection_miss_half")
        cleared = -(-track.score // 2)
        changes.add("progress", -cleared * TICKS_PER_BOX, f"recommit: clear {cleared} boxes")
        if params.rank != m.RANKS[-1]:
            changes.add("rank", 1, f"{params.rank} -> {m.rank_up(params.rank)}")
    return Resolution(
        outcome=band,
        text=CONCLUSION_TEXT[params.track][band],
        match=roll.match,
        scores={
            "progress": track.score,
            "challenge_1": roll.challenge[0],
            "challenge_2": roll.challenge[1],
        },
        dice=roll.dice,
        changes=changes.items,
        citation=m.CONCLUSION_ROLL,
        rulings=rulings,
    )


CONCLUSION_TEXT = {
    "combat": {
        "strong_hit": "You've defeated your enemy, and their fate is in your hands.",
        "weak_hit": "You achieve your objective, but not for free. Envision an appropriate "
        "trouble, disadvantage, or loss that comes from the situation.",
        "miss": "You are defeated, or your objective is lost. Envision an appropriate, dire "
        "outcome.",
    },
    "connection": {
        "strong_hit": "You now share a bond. Give it a title as a trophy, mark experience, and "
        "pick one: Give her a new role When she aids you, add +2 and gain +1 focus on a hit.",
        "weak_hit": "You share a bond, but they request something from you. To mark experience "
        "for this bond, sing an elegy for them and fulfill it.",
        "miss": "They reveal a motivation or background that puts you at odds. If you recommit "
        "to this relationship, clear half your progress boxes and raise the connection's rank by "
        "one.",
    },
    "elegy": {
        "strong_hit": "Your quest is complete. Give it a title as a trophy and mark experience.",
        "weak_hit": "Your promise is fulfilled, but there's more to do. If you sing an elegy to "
        "set things right, take full xp. Otherwise, take -1 xp.",
        "miss": "The goal is lost to you. Envision an appropriate, dire outcome. This also "
        "happens if you abandon an elegy.",
    },
}


def resolve_oracle(params: OracleParams, source: DiceSource) -> Resolution:
    table = TABLES[f"yes_no_{params.odds}"]
    die = source.roll(100, "oracle")
    row = table.row_for(die.value)
    threshold = next(r.low for r in table.rows if r.text == "Yes")
    match = is_oracle_match(die.value)
    return Resolution(
        outcome=row.text.lower(),
        match=match,
        scores={"roll": die.value, "yes_on": threshold},
        dice=[die],
        citation=table.citation,
        rulings=["oracle_match"] if match else [],
        details={"table": table.id},
    )


ACTION_DICE = (
    "challenge d10, challenge d10; then, with negative focus, one reroll d10 for each challenge "
    "die lower than |focus| (the first die's reroll first)"
)

SYSTEM = build_system(
    id="elegy",
    name="Elegy",
    source=SOURCE,
    summary="Solo vampire game on the Ironsworn chassis: stat + adds vs two d10 (no action die); "
    "focus -6..+10; d100 oracle, yes on N or greater.",
    stats=m.STATS,
    meters=METERS,
    roll_kinds=[
        RollKind(
            id="action",
            summary="Action Roll: stat + adds (max 10) vs two d10; negative focus rerolls; burn focus.",
            params=ActionParams,
            resolve=resolve_action,
            dice_order=ACTION_DICE,
            examples=[{"stat": "glamour", "stat_value": 2, "adds": 1, "focus": 3}],
        ),
        RollKind(
            id="conclusion",
            summary="Conclusion Roll: filled boxes vs two d10 (stats, focus and bonuses ignored).",
            params=ConclusionParams,
            resolve=resolve_conclusion,
            dice_order="challenge d10, challenge d10",
            examples=[{"track": "elegy", "rank": "dangerous", "ticks": 24}],
        ),
        RollKind(
            id="power",
            summary="Use a power: an Action Roll; a weak hit or miss spends 1 blood, a miss needs "
            "a second cost.",
            params=PowerParams,
            resolve=resolve_power,
            dice_order=ACTION_DICE,
            examples=[{"stat": "force", "stat_value": 2, "blood": 3}],
        ),
        RollKind(
            id="ritual",
            summary="Perform a ritual: Action Roll +intellect; weak hit consumes 1, miss rolls the "
            "ritual table.",
            params=RitualParams,
            resolve=resolve_ritual,
            dice_order=f"{ACTION_DICE}; then on a miss the ritual_miss d100",
            examples=[{"stat_value": 3, "consume": "blood", "meter_value": 2}],
        ),
        RollKind(
            id="oracle",
            summary="Ask the oracle, yes/no: d100, yes on N or greater.",
            params=OracleParams,
            resolve=resolve_oracle,
            dice_order="one d100 (give 100 for 00)",
            examples=[{"odds": "likely"}],
        ),
        RollKind(
            id="move",
            summary="Any move of the optional moves chapter, with its outcome text and tables.",
            params=MoveParams,
            resolve=resolve_move,
            dice_order=MOVE_DICE_ORDER,
            examples=[
                {"move": "face_danger", "stat": "dexterity", "stat_value": 2},
                {"move": "fulfill_your_elegy", "rank": "formidable", "ticks": 28},
            ],
        ),
        RollKind(
            id="progress",
            summary="Mark progress by rank (no dice).",
            params=ProgressParams,
            resolve=resolve_progress,
            dice_order="no dice",
            examples=[{"rank": "dangerous", "ticks": 8, "times": 1}],
        ),
        RollKind(
            id="foe_harm",
            summary="Harm dealt to a foe: weapon multiplier x harm x the rank's ticks (no dice).",
            params=FoeHarmParams,
            resolve=resolve_foe_harm,
            dice_order="no dice",
            examples=[{"rank": "dangerous", "weapon": "sharp"}],
        ),
        RollKind(
            id="harm",
            summary="Harm taken (by amount or foe rank); at 0 health: Wounded, Permanently "
            "Harmed, final death (no dice).",
            params=HarmParams,
            resolve=resolve_harm,
            dice_order="no dice",
            examples=[{"foe_rank": "extreme", "health": 2, "impacts": ["wounded"]}],
        ),
        RollKind(
            id="stress",
            summary="Stress taken (1-5 or by foe rank); at 0 spirit: Shaken, Traumatized, "
            "desolation (no dice).",
            params=StressParams,
            resolve=resolve_stress,
            dice_order="no dice",
            examples=[{"amount": 3, "spirit": 4}],
        ),
        RollKind(
            id="hunger",
            summary="Spend blood; at 0 blood: Starving, Sinner, mind lost (no dice).",
            params=HungerParams,
            resolve=resolve_hunger,
            dice_order="no dice",
            examples=[{"blood": 0, "spend": 1}],
        ),
        RollKind(
            id="advance",
            summary="Spend experience: 3 xp for a new asset, 2 xp to upgrade one (no dice).",
            params=AdvanceParams,
            resolve=resolve_advance,
            dice_order="no dice",
            examples=[{"purchase": "new_asset", "experience": 4}],
        ),
    ],
    rulings=RULINGS,
    sheet=SHEET_RULES,
)
