"""Elegy's mechanics as pure functions: the action and conclusion rolls, focus, harm, stress,
hunger and the impact chains. The outcome band comes from ``rules.ironsworn`` (never recomputed).

Source: elegy.md. Rulings are in ``system.py``; their ids are referenced here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from rules.dice import DiceSource
from rules.ironsworn import (
    ACTION_SCORE_CAP,
    Band,
    burn_band,
    is_match,
    momentum_reset,
    outcome_band,
)
from rules.models import Citation, Die, StateChange
from rules.registry import MeterSpec

SOURCE = "elegy.md"

Stat = Literal["dexterity", "heart", "force", "glamour", "intellect"]
STATS: list[str] = ["dexterity", "heart", "force", "glamour", "intellect"]
Rank = Literal["troublesome", "dangerous", "formidable", "extreme", "epic"]
RANKS: list[str] = ["troublesome", "dangerous", "formidable", "extreme", "epic"]
Impact = Literal[
    "wounded",
    "permanently_harmed",
    "shaken",
    "traumatized",
    "starving",
    "sinner",
    "cursed",
    "tormented",
]
Meter = Literal["health", "spirit", "blood"]

FOCUS_MIN = -6  # "Your focus value goes from -6 to +10"
FOCUS_MAX = 10
FOCUS_START = 2  # "The default reset is +2"
METER_MAX = 5  # ruling meter_range
STAT_MIN = 0  # the chassis' stat range (the text gives none): a stat's value is 0-5
STAT_MAX = 5
ADDS_MAX = 10  # every +x added to a roll (the action score is capped at 10 anyway)

# The engine's own list of meters (GameSystem.meters); the character sheet takes its ranges
# and starting values from here.
METERS = [
    MeterSpec(id="health", name="Health", min=0, max=METER_MAX, start=METER_MAX),
    MeterSpec(id="spirit", name="Spirit", min=0, max=METER_MAX, start=METER_MAX),
    MeterSpec(id="blood", name="Blood", min=0, max=METER_MAX, start=METER_MAX),
    MeterSpec(
        id="focus",
        name="Focus",
        min=FOCUS_MIN,
        max=FOCUS_MAX,
        start=FOCUS_START,
        note="reset +2, +1 with one impact, 0 with more than one",
    ),
]

# "Troublesome ... Progress marked: 3 boxes ... Epic ... Progress marked: 1 tick" (4 ticks a box)
RANK_TICKS: dict[str, int] = {
    "troublesome": 12,
    "dangerous": 8,
    "formidable": 4,
    "extreme": 2,
    "epic": 1,
}
# "Troublesome: 1 xp; Dangerous: 2 xp; Formidable: 3 xp; Extreme: 4 xp; Epic: 5 xp."
XP_BY_RANK: dict[str, int] = {
    "troublesome": 1,
    "dangerous": 2,
    "formidable": 3,
    "extreme": 4,
    "epic": 5,
}
# "Assets cost 3 xp to buy and 2 xp to upgrade."
ASSET_COST = {"new_asset": 3, "upgrade": 2}
# "Troublesome: ... deals 1 harm  Dangerous: ... deals 2 harm  Formidable: ... deals 2 harm
#  Extreme: ... deals 3 harm  Epic: ... deals 3 harm"
FOE_HARM: dict[str, int] = {
    "troublesome": 1,
    "dangerous": 2,
    "formidable": 2,
    "extreme": 3,
    "epic": 3,
}
Weapon = Literal["improvised", "light_impact", "sharp", "gunshot", "heavy_impact", "fire"]
# "1x harm: Improvised weapons, light impact  2x harm: Sharp weapons, gunshot, heavy impact, fire"
WEAPON_MULTIPLIER: dict[str, int] = {
    "improvised": 1,
    "light_impact": 1,
    "sharp": 2,
    "gunshot": 2,
    "heavy_impact": 2,
    "fire": 2,
}
STRESS_LEVELS: dict[int, str] = {
    1: "An unsettling or frustrating incident.",
    2: "A distressing or upsetting incident.",
    3: "A horrifying or demoralizing incident.",
    4: "A traumatic or heartrending incident.",
    5: "A soul-shattering incident, loss of all hope.",
}

# The three impact chains: the meter, its two impacts in order, and what follows them.
CHAINS: dict[str, tuple[str, str, str]] = {
    "health": ("wounded", "permanently_harmed", "final_death"),
    "spirit": ("shaken", "traumatized", "desolation"),
    "blood": ("starving", "sinner", "mind_lost"),
}
CHAIN_END_TEXT = {
    "final_death": "you face your final death (see Impacts)",
    "desolation": "you face desolation (see Impacts)",
    "mind_lost": "your mind is lost forever (see Impacts)",
}

BENEFITS = [
    "Your wounds are healed: gain +2 health or clear Wounded impact.",
    "You feed: gain +2 blood (+4 if you kill your victim) or uncheck Starving.",
    "You're feel calmer and more motivated: gain +2 spirit or clear the Shaken impact.",
    "You create or seize an opportunity: you or an ally gain +2 in the next related Action Roll",
    "You achieve something cool or dramatic: gain another +1 focus",
    "You harm a foe, develop a connection or advance in an elegy: mark progress",
]
COSTS = [
    "You are harmed or tired: lose health according to the situation (see Harm)",
    "You are stressed, scared, intimidated or despaired: lose spirit according to the situation "
    "(see Stress)",
    "You spend blood and get hungrier: lose 1 blood (see Hunger)",
    "You are put in disadvantage or in trouble: lose 1 focus",
]


def cite(heading: str) -> Citation:
    return Citation(source=SOURCE, heading=heading)


ACTION_ROLL = cite("The Action Roll > How To Make An Action Roll")
FOCUS = cite("The Action Roll > Focus")
CONCLUSION_ROLL = cite("Progress Tracks > The Conclusion Roll")
HARM = cite("Harm, Stress And Hunger > Harm")
STRESS = cite("Harm, Stress And Hunger > Stress")
HUNGER = cite("Harm, Stress And Hunger > Hunger")
EXPERIENCE = cite("Progress Tracks > Experience")


# --- the rolls ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChallengeRoll:
    dice: list[Die]
    challenge: tuple[int, int]
    rerolled: list[int]  # indices (0, 1) of the challenge dice that were rerolled

    @property
    def match(self) -> bool:
        return is_match(self.challenge)


def roll_challenge(source: DiceSource, focus: int = 0) -> ChallengeRoll:
    """Two challenge d10; with negative focus each die below |focus| is rerolled once.

    Dice order: challenge 1, challenge 2, then the reroll of challenge 1 (if any), then the
    reroll of challenge 2 (if any). A rerolled die stays in the record marked ``rerolled``.
    """
    first = [source.roll(10, "challenge"), source.roll(10, "challenge")]
    dice: list[Die] = []
    final = [d.value for d in first]
    rerolled: list[int] = []
    threshold = -focus if focus < 0 else 0
    replacements: list[Die] = []
    for index, die in enumerate(first):
        if die.value < threshold:
            rerolled.append(index)
            dice.append(die.model_copy(update={"rerolled": True}))
        else:
            dice.append(die)
    for index in rerolled:
        again = source.roll(10, f"challenge_{index + 1}_reroll")
        replacements.append(again)
        final[index] = again.value
    return ChallengeRoll(
        dice=dice + replacements, challenge=(final[0], final[1]), rerolled=rerolled
    )


def action_score(stat_value: int, adds: int) -> tuple[int, bool]:
    """stat + adds, capped at 10 (ruling action_score_cap); returns (score, was_capped)."""
    raw = stat_value + adds
    return min(ACTION_SCORE_CAP, raw), raw > ACTION_SCORE_CAP


@dataclass(frozen=True)
class ActionOutcome:
    band: Band
    score: int
    capped: bool
    roll: ChallengeRoll
    burned: bool
    burn_would_improve: bool
    rulings: list[str]
    reset: int

    @property
    def match(self) -> bool:
        return self.roll.match


def roll_action(
    source: DiceSource,
    *,
    stat_value: int,
    adds: int,
    focus: int,
    impacts: int,
    burn_focus: bool,
) -> ActionOutcome:
    """The Action Roll: stat + adds vs 2d10 (negative focus rerolls, burning focus)."""
    roll = roll_challenge(source, focus)
    score, capped = action_score(stat_value, adds)
    band = outcome_band(score, roll.challenge)
    rulings: list[str] = []
    if capped:
        rulings.append("action_score_cap")
    if focus < 0:
        rulings.append("negative_focus_reroll")
    better = burn_band(focus, band, roll.challenge)
    improves = better is not None
    burned = burn_focus and better is not None
    if burned and better is not None:
        band = better
        rulings.append("burn_focus")
    return ActionOutcome(
        band=band,
        score=score,
        capped=capped,
        roll=roll,
        burned=burned,
        burn_would_improve=improves and not burned,
        rulings=rulings,
        reset=momentum_reset(impacts),
    )


def roll_conclusion(source: DiceSource, progress: int) -> tuple[Band, ChallengeRoll]:
    """The Conclusion Roll: filled boxes vs 2d10; stats, focus and bonuses ignored."""
    roll = roll_challenge(source, 0)
    return outcome_band(progress, roll.challenge), roll


# --- state changes -----------------------------------------------------------------------------


@dataclass
class Changes:
    """Accumulates StateChange deltas in order, tracking focus so that it stays in -6..+10."""

    focus: int
    items: list[StateChange] = field(default_factory=list)
    setback: int = 0  # -focus suffered at the minimum: Face a Setback (ruling face_a_setback)

    def add(self, target: str, delta: int | None = None, note: str | None = None) -> None:
        self.items.append(StateChange(target=target, delta=delta, note=note))

    def mark(self, target: str, note: str) -> None:
        self.items.append(StateChange(target=target, set_to=1, note=note))

    def clear(self, target: str, note: str) -> None:
        self.items.append(StateChange(target=target, set_to=0, note=note))

    def change_focus(self, delta: int, note: str) -> None:
        new = max(FOCUS_MIN, min(FOCUS_MAX, self.focus + delta))
        if self.focus + delta < FOCUS_MIN:
            self.setback += FOCUS_MIN - (self.focus + delta)
        if new != self.focus:
            self.items.append(StateChange(target="focus", delta=new - self.focus, note=note))
        self.focus = new

    def reset_focus(self, reset: int) -> None:
        self.items.append(
            StateChange(target="focus", set_to=reset, delta=reset - self.focus, note="focus burned")
        )
        self.focus = reset


def next_impact(meter: str, impacts: Sequence[str]) -> str:
    """The next step of the meter's chain: its first unmarked impact, or what follows both."""
    first, second, end = CHAINS[meter]
    if first not in impacts:
        return first
    if second not in impacts:
        return second
    return end


def lose(
    changes: Changes,
    meter: str,
    amount: int,
    value: int | None,
    impacts: Sequence[str],
    note: str,
) -> str | None:
    """Lose ``amount`` of a meter; harm beyond 0 marks the next impact of its chain.

    Returns the impact marked (or the chain's end), None when no impact follows. With an
    unknown current ``value`` only the delta is recorded.
    """
    if amount <= 0:
        return None
    if value is None:
        changes.add(meter, -amount, note)
        return None
    lost = min(value, amount)
    if lost:
        changes.add(meter, -lost, note)
    if amount <= value:
        return None
    step = next_impact(meter, impacts)
    if step in CHAIN_END_TEXT:
        changes.mark(step, CHAIN_END_TEXT[step])
    else:
        changes.mark(step, f"at 0 {meter}: mark the {step.replace('_', ' ').title()} impact")
    return step


def rank_up(rank: str) -> str:
    return RANKS[min(len(RANKS) - 1, RANKS.index(rank) + 1)]


def foe_harm(rank: str, *, superstition: bool = False, authentic_faith: bool = False) -> int:
    """Harm a foe deals: by rank; authentic faith one rank up (max epic), then superstitions +1."""
    effective = rank_up(rank) if authentic_faith else rank
    return FOE_HARM[effective] + (1 if superstition else 0)


def harm_to_foe_ticks(rank: str, weapon: str, harm: int = 1) -> int:
    """Progress ticks marked on a foe's track: weapon multiplier x harm x the rank's ticks."""
    return WEAPON_MULTIPLIER[weapon] * harm * RANK_TICKS[rank]
