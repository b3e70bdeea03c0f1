"""Storyteller rulings: the readings of storyteller.txt this engine applies, each with its quote.

Served by GET /v1/systems; each has a named test in tests/rules/systems/storyteller/test_system.py.
"""

from __future__ import annotations

from rules.models import Citation, Ruling
from rules.systems.storyteller.pool import MAX_POOL, SOURCE


def _cite(heading: str) -> Citation:
    return Citation(source=SOURCE, heading=heading)


DIFFICULTIES = _cite("Difficulties")
BOTCHES = _cite("Botches")
AUTOMATIC = _cite("Automatic Success")
EXTENDED = _cite("Extended Actions")
RESISTED = _cite("Resisted Actions")
TEAMWORK = _cite("Teamwork")
MULTIPLE = _cite("Multiple Actions")
SUMMARY = _cite("Summary")

# The difficulty table of the text ("Difficulties"): 3..10 do not fit a rollable table's die
# range, so the labels are kept here, verbatim, to describe a roll's difficulty.
DIFFICULTY_LABELS = {
    3: "Trivial (scanning a small crowd for a familiar face)",
    4: "Easy (following a trail by blood scent)",
    5: "Straightforward (harrying prey that is old or ill)",
    6: "Standard (firing a gun)",
    7: "Challenging (discovering a hiding spirit)",
    8: "Difficult (convincing a cop that your unlicensed gun is not his problem)",
    9: "Extremely difficult (walking a tightrope)",
    10: "Essentially impossible",
}

# --- rulings -----------------------------------------------------------------------------------

RULINGS = [
    Ruling(
        id="pool_size",
        text=(
            f"A dice pool has 1 to {MAX_POOL} dice: a pool of 0 rolls nothing, and ratings are "
            f"usually 1-5 (10 at most for Rage, Willpower and Gnosis), so {MAX_POOL} is a generous cap."
        ),
        quote="You roll one die for each point in the required trait(s).",
        citation=_cite("Dice Pools"),
    ),
    Ruling(
        id="ten_always_succeeds",
        text=(
            "A 10 is a success at every difficulty (with difficulties 2-10 this holds by "
            "construction). It is not protected from 1s: each 1 cancels any success, a 10 "
            "included; the record marks the lowest successes cancelled first, a 10 last."
        ),
        quote="A “10” is always a success.",
        citation=_cite("Difficulties > Note"),
    ),
    Ruling(
        id="ones_cancel_successes",
        text=(
            "Each 1 cancels one success; net successes never go below zero, and 1s beyond the "
            "successes only matter for a botch."
        ),
        quote="Every botched roll cancels out 1 success.",
        citation=BOTCHES,
    ),
    Ruling(
        id="botch_needs_zero_successes",
        text=(
            "A roll botches only when it shows at least one 1 and no success at all: successes "
            "cancelled by 1s still prevent a botch (the roll is then a plain failure)."
        ),
        quote=(
            "If you roll a botch while having zero successes (does not matter if they are "
            "cancelled out by a botched roll, they count as a success for this) the action is "
            "botched."
        ),
        citation=BOTCHES,
    ),
    Ruling(
        id="degree_by_net_successes",
        text=(
            "The degree of success is read from the Degree of Success table with the net "
            "successes (after 1s cancel, a willpower success included); five or more read the "
            "last row (Phenomenal). Zero net successes is a failure (or a botch)."
        ),
        quote=(
            "One success is marginal success, three or more is a complete success. Five or more "
            "is a momentous occasion."
        ),
        citation=DIFFICULTIES,
    ),
    Ruling(
        id="automatic_success",
        text=(
            "When the pool is at least the difficulty, outside combat or other stressful "
            "situations (param `stressful`), the action succeeds automatically with exactly one "
            "success: no dice are rolled, so it cannot botch, and no willpower is spent on it. "
            "The player may decline it and roll (param `decline_automatic`)."
        ),
        quote=(
            "If the number of dice in a given dice pool is equal to or greater than the "
            "difficulty, the character succeeds automatically. This does not apply to combat or "
            "other stressful situations. Automatic successes only count as having a single "
            "success. A player may risk failure and not use an automatic success."
        ),
        citation=AUTOMATIC,
    ),
    Ruling(
        id="automatic_success_simple_only",
        text=(
            "Automatic success applies to a simple action only (roll kind `simple`); extended, "
            "resisted, teamwork and multiple actions always roll."
        ),
        quote="Automatic success is possible.",
        citation=SUMMARY,
    ),
    Ruling(
        id="willpower_success",
        text=(
            "A willpower point adds one success after the 1s cancel, so it cannot be cancelled "
            "and the roll cannot botch (the success is guaranteed). One per roll: in a multiple "
            "action turn only one action may have it; each roll of an extended action is a turn."
        ),
        quote=(
            "Players may spend a willpower point to guarantee a success on a roll, applying one "
            "success to the role. This can only be performed once per turn."
        ),
        citation=AUTOMATIC,
    ),
    Ruling(
        id="extended_accumulates_net_successes",
        text=(
            "Each roll of an extended action adds its net successes to the total; the action is "
            "done when the total reaches the goal."
        ),
        quote="it will take a collective 15 successes to break in.",
        citation=EXTENDED,
    ),
    Ruling(
        id="extended_botch_wipes_progress",
        text="A botched roll of an extended action sets the accumulated successes back to 0.",
        quote="Botching an extended action removes all progress up to that point",
        citation=EXTENDED,
    ),
    Ruling(
        id="resisted_compares_net_successes",
        text=(
            "Both parties roll their pools (each against its own difficulty) and compare net "
            "successes; the margin is the difference. A party that botches is reported as "
            "botched; the acting character's botch is the outcome `botch`."
        ),
        quote="They compare their number of successes; the character with the most successes wins.",
        citation=SUMMARY,
    ),
    Ruling(
        id="resisted_tie_status_quo",
        text=(
            "Equal net successes is a tie: neither party wins and the situation stays as it was "
            "(the acting character does not get what the action sought)."
        ),
        quote="Whoever gets more successes wins.",
        citation=RESISTED,
    ),
    Ruling(
        id="extended_resisted_first_to_goal",
        text=(
            "Each turn both parties roll and add their net successes to their own totals (a "
            "botch wipes that party's total). The first to reach the goal wins; if both reach it "
            "on the same turn, the higher total wins, and equal totals are a tie (neither wins)."
        ),
        quote=(
            "An extended resisted action has a fixed success goal, and each party rolls their "
            "dice pools. The first to reach the goal wins."
        ),
        citation=RESISTED,
    ),
    Ruling(
        id="teamwork_adds_net_successes",
        text=(
            "Each member rolls separately against the same difficulty; each member's 1s cancel "
            "only that member's successes, and the members' net successes are added together."
        ),
        quote="each player makes a separate roll and adds their successes together.",
        citation=TEAMWORK,
    ),
    Ruling(
        id="teamwork_botch_affects_all",
        text=(
            "If any member botches, the team's action is a botch for everyone (outcome `botch`); "
            "the team's successes are still reported for a storyteller who rules otherwise."
        ),
        quote="However, one member botching can affect everyone involved.",
        citation=TEAMWORK,
    ),
    Ruling(
        id="multiple_actions_split_smallest_pool",
        text=(
            "The dice to split are the smallest pool among the declared actions; all of them are "
            "allocated, at least one die per action, as the player chooses (param `allocated`) "
            "or, when no allocation is given, evenly (earlier actions take the remainder). "
            "Raised difficulties for disparate actions are given per action."
        ),
        quote=(
            "The player first declares how many actions they wish to take, and determines which "
            "one has the smallest dice pool. They may then allocate that number of dice among the "
            "actions as they see fit."
        ),
        citation=MULTIPLE,
    ),
    Ruling(
        id="rage_actions_not_split",
        text=(
            "An extra action gained from Rage (param `rage`) rolls its full pool: it takes no "
            "part in the split and does not count towards the smallest pool."
        ),
        quote="Extra actions gained from Rage cannot be split but do not suffer a dice penalty.",
        citation=MULTIPLE,
    ),
]
