"""The choose-one lists of Elegy's outcomes, each option with a stable id, the text's words and
what it does to the numbers: the Action Roll's benefits and costs, and the moves' "choose one".

Source: elegy.md, "The Action Roll > How To Make An Action Roll" (Benefits, Costs) and the moves
of "Optional Rule: Moves". A roll applies an option when its parameter names it (``benefit``,
``cost``, ``strong_hit_choice``, ``weak_hit_choice``, ``miss_choice``); left out, nothing is
applied and the options stay listed in details, as before these parameters existed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from rules.progress import MAX_TICKS
from rules.systems.elegy.mechanics import RANK_TICKS, STRESS_LEVELS, Changes, lose

# What an option does: ("focus", "", n) changes focus by n; ("gain", target, n) adds n;
# ("lose", meter, n) loses n through the meter's impact chain; ("mark", impact, 1) marks it.
Effect = tuple[Literal["focus", "gain", "lose", "mark", "clear"], str, int]


@dataclass(frozen=True)
class Option:
    id: str
    label: str  # the text's words
    effects: tuple[Effect, ...] = ()


# --- the Action Roll: "choose a fitting benefit" / "select one fitting cost" ----------------------

Benefit = Literal[
    "health",
    "clear_wounded",
    "blood",
    "blood_kill",
    "clear_starving",
    "spirit",
    "clear_shaken",
    "opportunity",
    "focus",
    "mark_progress",
]
# A benefit of the text offering "X or Y" is two options here, so that one id says what happens.
BENEFITS: tuple[Option, ...] = (
    Option("health", "Your wounds are healed: gain +2 health", (("gain", "health", 2),)),
    Option(
        "clear_wounded", "Your wounds are healed: clear Wounded impact", (("clear", "wounded", 0),)
    ),
    Option("blood", "You feed: gain +2 blood", (("gain", "blood", 2),)),
    Option("blood_kill", "You feed: gain +4 blood (you kill your victim)", (("gain", "blood", 4),)),
    Option("clear_starving", "You feed: uncheck Starving", (("clear", "starving", 0),)),
    Option(
        "spirit",
        "You're feel calmer and more motivated: gain +2 spirit",
        (("gain", "spirit", 2),),
    ),
    Option(
        "clear_shaken",
        "You're feel calmer and more motivated: clear the Shaken impact",
        (("clear", "shaken", 0),),
    ),
    Option(
        "opportunity",
        "You create or seize an opportunity: you or an ally gain +2 in the next related Action "
        "Roll",
        (("gain", "next_roll_adds", 2),),
    ),
    Option(
        "focus",
        "You achieve something cool or dramatic: gain another +1 focus",
        (("focus", "", 1),),
    ),
    # Marked on the track of params.rank/ticks (see apply_benefit).
    Option(
        "mark_progress",
        "You harm a foe, develop a connection or advance in an elegy: mark progress",
    ),
)

Cost = Literal[
    "harm_1",
    "harm_2",
    "harm_3",
    "harm_4",
    "harm_5",
    "stress_1",
    "stress_2",
    "stress_3",
    "stress_4",
    "stress_5",
    "blood",
    "focus",
]
# "lose health according to the situation (see Harm)" and "lose spirit ... (see Stress)": one
# option per amount, 1 to 5 (the meters' range; more than the meter holds is suffered at 0).
COSTS: tuple[Option, ...] = (
    *(
        Option(
            f"harm_{n}",
            f"You are harmed or tired: lose {n} health (see Harm)",
            (("lose", "health", n),),
        )
        for n in range(1, 6)
    ),
    *(
        Option(
            f"stress_{n}",
            f"You are stressed, scared, intimidated or despaired: lose {n} spirit "
            f"({STRESS_LEVELS[n]})",
            (("lose", "spirit", n),),
        )
        for n in range(1, 6)
    ),
    Option(
        "blood",
        "You spend blood and get hungrier: lose 1 blood (see Hunger)",
        (("lose", "blood", 1),),
    ),
    Option(
        "focus", "You are put in disadvantage or in trouble: lose 1 focus", (("focus", "", -1),)
    ),
)

BENEFIT_BY_ID = {o.id: o for o in BENEFITS}
COST_BY_ID = {o.id: o for o in COSTS}


# --- the moves' "choose one" -----------------------------------------------------------------------

MoveChoice = Literal[
    "focus",
    "next_roll",
    "health",
    "blood",
    "focus_and_blood",
    "spare",
    "kill",
    "shake_it_off",
    "embrace_the_pain",
    "embrace_the_monster_within",
    "embrace_the_darkness",
    "worse_than_you_thought",
    "overcome",
    "short_lived",
    "collateral_damage",
    "pay_for_it",
    "wont_forget",
    "lose_the_connection",
    "prove_your_loyalty",
    "reinforce",
    "expand",
    "noble_sacrifice",
    "death_desires",
    "dreaded_vision",
    "humanity_devoured",
    "frenzied",
]

_FEED = (
    Option("spare", "gain 2 blood and keep the victim alive", (("gain", "blood", 2),)),
    Option(
        "kill",
        "gain 4 blood and kill the victim, but lose 3 spirit",
        (("gain", "blood", 4), ("lose", "spirit", 3)),
    ),
)


def _endure(meter: str, embrace: str, label: str) -> tuple[Option, ...]:
    return (
        Option(
            "shake_it_off",
            f"Shake it off: If your {meter} is greater than 0, suffer -1 focus in exchange for "
            f"+1 {meter}",
            (("focus", "", -1), ("gain", meter, 1)),
        ),
        Option(embrace, f"{label}: Take +1 focus", (("focus", "", 1),)),
    )


# (move, band) -> the options its outcome text lets the player choose from.
MOVE_CHOICES: dict[tuple[str, str], tuple[Option, ...]] = {
    ("secure_an_advantage", "weak_hit"): (
        Option("focus", "Take +2 focus", (("focus", "", 2),)),
        Option(
            "next_roll",
            "Add +1 on your next roll (not a Conclusion Roll)",
            (("gain", "next_roll_adds", 1),),
        ),
    ),
    ("rest", "weak_hit"): (
        Option("health", "Restore 1 health", (("gain", "health", 1),)),
        Option("focus", "Gain +2 focus", (("focus", "", 2),)),
    ),
    ("rest", "miss"): (
        Option("blood", "You get hungrier: lose 1 blood", (("lose", "blood", 1),)),
        Option("focus", "You don't sleep well: lose 1 focus", (("focus", "", -1),)),
    ),
    ("heal", "weak_hit"): (
        Option(
            "focus_and_blood",
            "lose 2 focus and spend 1 blood",
            (("focus", "", -2), ("lose", "blood", 1)),
        ),
        Option("blood", "spend 2 blood", (("lose", "blood", 2),)),
    ),
    ("feed", "strong_hit"): _FEED,
    ("feed", "weak_hit"): _FEED,
    ("endure_harm", "strong_hit"): _endure("health", "embrace_the_pain", "Embrace the pain"),
    ("endure_hunger", "strong_hit"): _endure(
        "blood", "embrace_the_monster_within", "Embrace the monster within"
    ),
    ("endure_stress", "strong_hit"): _endure(
        "spirit", "embrace_the_darkness", "Embrace the darkness"
    ),
    ("end_the_fight", "weak_hit"): (
        Option("worse_than_you_thought", "It's worse than you thought: Endure Harm."),
        Option("overcome", "You are overcome: Endure Stress."),
        Option(
            "short_lived",
            "Your victory is short-lived: A new danger or foe appears, or an existing danger "
            "worsens.",
        ),
        Option(
            "collateral_damage",
            "You suffer collateral damage: Something of value is lost or broken, or someone "
            "important must pay the cost.",
        ),
        Option("pay_for_it", "You'll pay for it: An objective falls out of reach."),
        Option("wont_forget", "Others won't forget: You are marked for vengeance."),
    ),
    ("test_your_relationship", "miss"): (
        Option(
            "lose_the_connection",
            "Lose the connection: Envision how this impacts you and Pay the Price.",
        ),
        Option(
            "prove_your_loyalty",
            "Prove your loyalty: Envision what you offer or what they demand, and Sing an Elegy "
            "(formidable or greater) to see it done.",
        ),
    ),
    ("form_a_bond", "strong_hit"): (
        Option(
            "reinforce",
            "Reinforce their influence: When they support you in a move closely tied to their "
            "role, add +2 instead of +1.",
        ),
        Option(
            "expand",
            "Expand their influence: Grant them a second role. When they assist you in a move "
            "associated with either role, add +1 and gain +1 momentum on a hit.",
        ),
    ),
    ("face_last_death", "weak_hit"): (
        Option(
            "noble_sacrifice",
            "You die, but not before making a noble sacrifice. Envision your final moments.",
        ),
        Option(
            "death_desires",
            "Death desires something of you in exchange for your unlife: Sing an Elegy "
            "(formidable or extreme) to complete that quest; you return to the mortal world and "
            "are now cursed.",
            (("mark", "cursed", 1),),
        ),
    ),
    ("face_desolation", "weak_hit"): (
        Option(
            "noble_sacrifice",
            "Your spirit or sanity breaks, but not before you make a noble sacrifice. Envision "
            "your final moments.",
        ),
        Option(
            "dreaded_vision",
            "You see a vision of a dreaded event coming to pass: Sing an Elegy (formidable or "
            "extreme) to prevent it; you return to your senses and are now tormented.",
            (("mark", "tormented", 1),),
        ),
    ),
    ("face_starvation", "weak_hit"): (
        Option(
            "humanity_devoured",
            "Your humanity is devoured, but not before remembering a moment of your mortal life.",
        ),
        Option(
            "frenzied",
            "You get so frenzied, you commit something that angers your ruler: Sing an Elegy to "
            "her (formidable or extreme) when she asks something in return.",
        ),
    ),
}
# "Lose the connection: ... Pay the Price." Proving your loyalty pays no price.
NO_PRICE = {("test_your_relationship", "miss", "prove_your_loyalty")}


def move_options(move_id: str, band: str) -> tuple[Option, ...]:
    return MOVE_CHOICES.get((move_id, band), ())


def find_option(options: Sequence[Option], option_id: str) -> Option | None:
    return next((o for o in options if o.id == option_id), None)


# --- applying an option ----------------------------------------------------------------------------


def apply_effects(
    changes: Changes,
    option: Option,
    *,
    meters: dict[str, int | None],
    impacts: Sequence[str],
    note: str,
) -> str | None:
    """Apply an option's effects; a loss goes through the meter's impact chain (the meter's
    current value from ``meters``, None for a bare delta). Returns the impact a loss marked."""
    marked: str | None = None
    for kind, target, amount in option.effects:
        if kind == "focus":
            changes.change_focus(amount, note)
        elif kind == "gain":
            changes.add(target, amount, note)
        elif kind == "lose":
            marked = lose(changes, target, amount, meters.get(target), impacts, note) or marked
        elif kind == "mark":
            changes.mark(target, note)
        else:
            changes.clear(target, note)
    return marked


def current(
    changes: Changes, meters: dict[str, int | None], impacts: Sequence[str]
) -> tuple[dict[str, int | None], list[str]]:
    """The meters and impacts after ``changes`` so far: a later loss goes down the chain from
    where an earlier one left it (a power's blood, then a blood cost)."""
    now = dict(meters)
    marked = list(impacts)
    for change in changes.items:
        value = now.get(change.target)
        if value is not None and change.delta is not None:
            now[change.target] = max(0, value + change.delta)
        elif change.set_to == 1 and change.target not in marked:
            marked.append(change.target)
        elif change.set_to == 0 and change.target in marked:
            marked.remove(change.target)
    return now, marked


def mark_progress(
    changes: Changes, rank: str | None, ticks: int, details: dict[str, Any], note: str
) -> None:
    """Mark progress once on the track of ``rank`` holding ``ticks`` (capped at 40 ticks)."""
    if rank is None:
        details["mark_progress"] = "mark progress once (give rank to compute the ticks)"
        return
    new = min(MAX_TICKS, ticks + RANK_TICKS[rank])
    changes.add("progress", new - ticks, note)
