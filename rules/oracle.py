"""fateweaver's own yes/no oracle, for the systems whose texts have none (Go Forth, Storyteller,
Roll Under), so that a player of those games can ask a question too. It is labelled as ours
everywhere it shows: its citation's source is "fateweaver", and each system serves the ruling.

It is the Starforged family's oracle (Sundered Isles' Ask the Oracle): one d100, a yes when it is
at most the odds; 11, 22, ... 99 or 100 is a match, an extreme answer or a twist.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from rules.dice import DiceSource
from rules.ironsworn import ODDS, OracleOdds, is_oracle_match
from rules.models import Citation, Resolution, Ruling
from rules.registry import RollKind

Odds = OracleOdds
CITATION = Citation(source="fateweaver", heading="fateweaver oracle (not in this game's text)")


class OracleParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    odds: Odds = Field("50_50", description="the odds of a yes")


def resolve_oracle(params: OracleParams, source: DiceSource) -> Resolution:
    die = source.roll(100, "oracle")
    threshold = ODDS[params.odds]
    match = is_oracle_match(die.value)
    return Resolution(
        outcome="yes" if die.value <= threshold else "no",
        match=match,
        scores={"roll": die.value, "threshold": threshold},
        dice=[die],
        citation=CITATION,
        rulings=["fateweaver_oracle"],
        details={"odds": params.odds, "oracle": "fateweaver"},
    )


ORACLE_KIND = RollKind(
    id="oracle",
    summary="fateweaver's yes/no oracle (this game's text has none): d100 at most the odds is "
    "a yes; doubles are a match",
    params=OracleParams,
    resolve=resolve_oracle,
    dice_order="one d100",
    examples=[{"odds": "likely"}],
)


def oracle_ruling(citation: Citation, quote: str) -> Ruling:
    """The ruling a system without an oracle serves: ``quote`` is the text's own sentence that
    leaves such questions to the game master, whom a solo player does not have."""
    return Ruling(
        id="fateweaver_oracle",
        text=(
            "This game's text has no yes/no oracle; a solo player has no game master to ask. "
            "fateweaver offers its own, labelled as ours (not the text's): roll d100, a yes when "
            "it is at most the odds (small chance 10, unlikely 25, 50/50 50, likely 75, almost "
            "certain 90); 11, 22 ... 99 or 100 is a match, an extreme answer or a twist. It is "
            "the Starforged family's oracle."
        ),
        quote=quote,
        citation=citation,
    )
