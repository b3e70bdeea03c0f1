"""roll_under: ability saves (d20 strictly under a score), opposed, aid, interfere, initiative, deeds.

Source: roll_under.md, "Playing the Game". The rulings these functions apply are written down in
``system.py`` (ids are cited in each resolution's ``rulings``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.dice import DiceSource
from rules.errors import InvalidParameter
from rules.models import Citation, Die, Resolution

SOURCE = "roll_under.md"
ABILITIES = ["brawn", "finesse", "intellect"]
Ability = Literal["brawn", "finesse", "intellect"]
SCORE_MIN = 1
SCORE_MAX = 20
NAME_PATTERN = r"^[A-Za-z0-9 _'.-]+$"


def cite(heading: str) -> Citation:
    return Citation(source=SOURCE, heading=f"Playing the Game > {heading}")


SAVES = cite("Actions and Ability Saves > Ability Saves")
ADVANTAGE = cite("Actions and Ability Saves > Advantage and Disadvantage")
OPPOSED = cite("Actions and Ability Saves > Opposed Actions")
AID = cite("Actions and Ability Saves > Aiding and Interfering")
INITIATIVE = cite("Combat > Initiative")
DEED = cite("Combat > Heroic Deeds > Critical Deed Saves")

# --- the save itself ---------------------------------------------------------------------------


def save_succeeds(roll: int, score: int) -> bool:
    """A d20 strictly under the score succeeds; a 1 always succeeds, a 20 always fails."""
    if roll == 1:
        return True
    if roll == 20:
        return False
    return roll < score


@dataclass(frozen=True)
class SaveRoll:
    """One ability save: every die rolled (discarded one marked kept=False) and its result."""

    dice: list[Die]
    roll: int
    score: int
    success: bool
    mode: Literal["plain", "advantage", "disadvantage", "cancelled"]

    @property
    def rulings(self) -> list[str]:
        ids = ["save_strictly_under"]
        if self.mode == "cancelled":
            ids.append("advantage_disadvantage_cancel")
        return ids

    @property
    def natural(self) -> Literal["one", "twenty"] | None:
        return "one" if self.roll == 1 else "twenty" if self.roll == 20 else None


def roll_save(
    source: DiceSource,
    score: int,
    *,
    advantage: bool = False,
    disadvantage: bool = False,
    prefix: str = "",
) -> SaveRoll:
    """Roll one save. Dice: the save d20, then (advantage xor disadvantage) one more d20."""
    first = source.roll(20, f"{prefix}save")
    if advantage == disadvantage:
        mode: Literal["plain", "advantage", "disadvantage", "cancelled"] = (
            "cancelled" if advantage else "plain"
        )
        return SaveRoll([first], first.value, score, save_succeeds(first.value, score), mode)
    mode = "advantage" if advantage else "disadvantage"
    second = source.roll(20, f"{prefix}{mode}")
    # Ties keep the first die; advantage keeps the lowest, disadvantage the highest.
    keep_second = second.value < first.value if advantage else second.value > first.value
    dice = [
        first.model_copy(update={"kept": not keep_second}),
        second.model_copy(update={"kept": keep_second}),
    ]
    roll = second.value if keep_second else first.value
    return SaveRoll(dice, roll, score, save_succeeds(roll, score), mode)


# --- parameters --------------------------------------------------------------------------------

Score = Field(ge=SCORE_MIN, le=SCORE_MAX, description="the ability's current score (1-20)")


class SaveParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ability: Ability = Field(description="brawn, finesse or intellect")
    score: int = Score
    advantage: bool = Field(False, description="roll an extra d20, keep the lowest")
    disadvantage: bool = Field(False, description="roll an extra d20, keep the highest")


class Saver(SaveParams):
    name: str = Field(min_length=1, max_length=40, pattern=NAME_PATTERN)


class OpposedParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    actor: Saver = Field(description="the character attempting the action")
    opponent: Saver = Field(description="the one attempting the same action against them")


class GroupParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    savers: list[Saver] = Field(
        min_length=2,
        max_length=20,
        description="the acting character first, then everyone aiding (or interfering)",
    )


class Combatant(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=40, pattern=NAME_PATTERN)
    finesse: int = Score
    advantage: bool = False
    disadvantage: bool = False


class InitiativeParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    characters: list[Combatant] = Field(min_length=1, max_length=20)
    opponents_surprised: bool = Field(False, description="surprised opponents act after everyone")


def _unique_names(names: list[str], field: str) -> None:
    seen: set[str] = set()
    for i, name in enumerate(names):
        if name in seen:
            raise InvalidParameter(
                f"{field}.{i}.name: {name!r} is given twice", f"{field}.{i}.name"
            )
        seen.add(name)


# --- resolvers ---------------------------------------------------------------------------------


def _save_scores(save: SaveRoll) -> dict[str, int]:
    return {"roll": save.roll, "score": save.score}


def resolve_save(params: SaveParams, source: DiceSource) -> Resolution:
    save = roll_save(
        source, params.score, advantage=params.advantage, disadvantage=params.disadvantage
    )
    return Resolution(
        outcome="success" if save.success else "failure",
        scores=_save_scores(save),
        dice=save.dice,
        citation=SAVES,
        rulings=save.rulings,
        details={"ability": params.ability, "mode": save.mode, "natural": save.natural},
    )


def _roll_saver(source: DiceSource, saver: Saver, prefix: str) -> SaveRoll:
    return roll_save(
        source,
        saver.score,
        advantage=saver.advantage,
        disadvantage=saver.disadvantage,
        prefix=prefix,
    )


def opposed_winner(actor: SaveRoll, opponent: SaveRoll) -> Literal["actor", "opponent", None]:
    """A success beats a failure; of two successes the lower roll wins, then the higher score;
    two failures (or a perfect tie) win nothing: the situation stays as it was."""
    if actor.success != opponent.success:
        return "actor" if actor.success else "opponent"
    if not actor.success:
        return None
    if actor.roll != opponent.roll:
        return "actor" if actor.roll < opponent.roll else "opponent"
    if actor.score != opponent.score:
        return "actor" if actor.score > opponent.score else "opponent"
    return None


def resolve_opposed(params: OpposedParams, source: DiceSource) -> Resolution:
    if params.actor.name == params.opponent.name:
        raise InvalidParameter(
            f"params.opponent.name: {params.opponent.name!r} is also the actor's name",
            "params.opponent.name",
        )
    actor = _roll_saver(source, params.actor, "actor_")
    opponent = _roll_saver(source, params.opponent, "opponent_")
    winner = opposed_winner(actor, opponent)
    return Resolution(
        outcome=f"{winner}_wins" if winner else "stalemate",
        scores={
            "actor_roll": actor.roll,
            "actor_score": actor.score,
            "opponent_roll": opponent.roll,
            "opponent_score": opponent.score,
        },
        dice=[*actor.dice, *opponent.dice],
        citation=OPPOSED,
        rulings=sorted({*actor.rulings, *opponent.rulings, "opposed_lowest_success"}),
        details={
            "winner": {"actor": params.actor.name, "opponent": params.opponent.name}.get(
                winner or ""
            ),
            "actor_success": actor.success,
            "opponent_success": opponent.success,
        },
    )


def _group(
    params: GroupParams, source: DiceSource, mode: Literal["aid", "interfere"]
) -> Resolution:
    _unique_names([s.name for s in params.savers], "params.savers")
    saves = [_roll_saver(source, s, f"{s.name}:") for s in params.savers]

    def goodness(i: int) -> tuple[bool, int]:
        return (saves[i].success, -saves[i].roll)

    indexes = range(len(saves))
    # aid: the best result decides; interfere: the worst one. Ties go to the first listed.
    decider = max(indexes, key=goodness) if mode == "aid" else min(indexes, key=goodness)
    success = saves[decider].success
    rulings = {r for s in saves for r in s.rulings}
    rulings.add("aid_best_result" if mode == "aid" else "interfere_worst_result")
    details: dict[str, object] = {
        "decided_by": params.savers[decider].name,
        "results": [
            {"name": p.name, "ability": p.ability, "roll": s.roll, "success": s.success}
            for p, s in zip(params.savers, saves, strict=True)
        ],
    }
    if mode == "aid" and not success:
        details["share_consequences"] = [p.name for p in params.savers]
    return Resolution(
        outcome="success" if success else "failure",
        scores={"roll": saves[decider].roll, "score": saves[decider].score},
        dice=[d for s in saves for d in s.dice],
        citation=AID,
        rulings=sorted(rulings),
        details=details,
    )


def resolve_aid(params: GroupParams, source: DiceSource) -> Resolution:
    return _group(params, source, "aid")


def resolve_interfere(params: GroupParams, source: DiceSource) -> Resolution:
    return _group(params, source, "interfere")


OPPONENTS = "opponents"


def resolve_initiative(params: InitiativeParams, source: DiceSource) -> Resolution:
    _unique_names([c.name for c in params.characters], "params.characters")
    if any(c.name == OPPONENTS for c in params.characters):
        i = next(i for i, c in enumerate(params.characters) if c.name == OPPONENTS)
        raise InvalidParameter(
            f"params.characters.{i}.name: {OPPONENTS!r} is reserved for the opposing side",
            f"params.characters.{i}.name",
        )
    names = [c.name for c in params.characters]
    if params.opponents_surprised:
        return Resolution(
            outcome="characters_first",
            dice=[],
            citation=INITIATIVE,
            rulings=["initiative_order"],
            details={"order": [*names, OPPONENTS], "before": names, "after": []},
        )
    saves = [
        roll_save(
            source,
            c.finesse,
            advantage=c.advantage,
            disadvantage=c.disadvantage,
            prefix=f"{c.name}:",
        )
        for c in params.characters
    ]
    ranked = sorted(range(len(saves)), key=lambda i: saves[i].roll)  # stable: listed order on ties
    before = [names[i] for i in ranked if saves[i].success]
    after = [names[i] for i in ranked if not saves[i].success]
    outcome = "characters_first" if not after else "opponents_first" if not before else "split"
    return Resolution(
        outcome=outcome,
        scores={f"{n}_roll": s.roll for n, s in zip(names, saves, strict=True)},
        dice=[d for s in saves for d in s.dice],
        citation=INITIATIVE,
        rulings=sorted({r for s in saves for r in s.rulings} | {"initiative_order"}),
        details={"order": [*before, OPPONENTS, *after], "before": before, "after": after},
    )
