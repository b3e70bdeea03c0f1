"""Sundered Isles legacy tracks, experience (Earn Experience, Advance) and recommitting.

Helper of ``system.py``. The track arithmetic is ``rules.progress``'s
LegacyTrack, checked here against the text: 2 experience per filled box, 1 once the track has
been cleared (the tenth box itself still earns 2).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.dice import DiceSource
from rules.errors import InvalidParameter
from rules.models import Resolution, Ruling, StateChange
from rules.progress import IRONSWORN_RANK_TICKS, MAX_TICKS, TICKS_PER_BOX, LegacyTrack
from rules.registry import RollKind
from rules.systems.sundered_isles.core import cite
from rules.systems.sundered_isles.moves import RANKS, Rank, get_move

EARN_EXPERIENCE = cite("LEGACY MOVES > EARN EXPERIENCE")
ADVANCE = cite("LEGACY MOVES > ADVANCE")
# "troublesome=1 tick; dangerous=2 ticks; formidable=1 box; extreme=2 boxes; epic=3 boxes"
LEGACY_REWARD_TICKS = dict(get_move("fulfill_your_vow").experience)
ADVANCE_COST = {"new_asset": 3, "upgrade": 2}

LEGACY_RULINGS = [
    Ruling(
        id="legacy_experience",
        text=(
            "Each box (4 ticks) filled on a legacy track earns 2 experience; filling the tenth "
            "box clears the track (that box still earns 2), and every box filled after a "
            "clearing earns 1. Ticks marked past the tenth box carry on to the cleared track."
        ),
        quote=(
            "When you fill a box (four ticks) on any legacy track, take 2 experience. ... earn "
            "experience at a reduced rate of 1 experience (instead of 2) for each filled "
            "progress box."
        ),
        citation=EARN_EXPERIENCE,
    ),
    Ruling(
        id="recommit_clears_lowest",
        text=(
            "Recommitting after a progress-move miss rolls both challenge dice, clears boxes "
            "equal to the lower die (not below 0 ticks) and raises the rank by one unless epic."
        ),
        quote=(
            "Roll both challenge dice, take the lowest value, and clear that number of progress "
            "boxes. Then, raise the vow’s rank by one (if not already epic)"
        ),
        citation=cite("QUEST MOVES > FULFILL YOUR VOW"),
    ),
]


class MarkLegacyParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    track: Literal["quests", "bonds", "discoveries"] = "quests"
    ticks: int = Field(0, ge=0, le=MAX_TICKS - 1, description="ticks on the track now (0..39)")
    cleared: bool = Field(False, description="the track has been filled and cleared before")
    mark: int | None = Field(None, ge=0, le=MAX_TICKS * 2, description="ticks to mark")
    reward_rank: Rank | None = Field(None, description="or: a progress-move reward of this rank")


def resolve_mark_legacy(params: MarkLegacyParams, source: DiceSource) -> Resolution:
    if (params.mark is None) == (params.reward_rank is None):
        raise InvalidParameter("give either mark (ticks) or reward_rank", "params.mark")
    ticks = (
        params.mark if params.mark is not None else LEGACY_REWARD_TICKS[params.reward_rank or ""]
    )
    before = LegacyTrack(ticks=params.ticks, cleared=1 if params.cleared else 0)
    after, xp = before.mark(ticks)
    target = f"legacy:{params.track}"
    changes = [StateChange(target=target, delta=after.ticks - before.ticks, note=f"+{ticks} ticks")]
    newly_cleared = after.cleared > before.cleared
    if newly_cleared:
        changes.append(
            StateChange(target=f"{target}:cleared", set_to=1, note="tenth box filled: cleared")
        )
    if xp:
        changes.append(StateChange(target="experience", delta=xp, note="Earn Experience"))
    return Resolution(
        outcome="cleared" if newly_cleared else "marked",
        scores={
            "ticks": after.ticks,
            "score": after.score,
            "experience": xp,
            "boxes_filled": after.ticks // TICKS_PER_BOX
            - before.score
            + (after.cleared - before.cleared) * 10,
        },
        changes=changes,
        citation=EARN_EXPERIENCE,
        rulings=["legacy_experience"],
        details={"cleared": after.cleared > 0, "xp_per_box": after.xp_per_box},
    )


class AdvanceParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    experience: int = Field(ge=0, le=200, description="unspent experience")
    purchase: Literal["new_asset", "upgrade"]


def resolve_advance(params: AdvanceParams, source: DiceSource) -> Resolution:
    cost = ADVANCE_COST[params.purchase]
    if params.experience < cost:
        raise InvalidParameter(
            f"{params.purchase} costs {cost} experience; {params.experience} available",
            "params.experience",
        )
    return Resolution(
        outcome=params.purchase,
        scores={"cost": cost, "experience_left": params.experience - cost},
        changes=[StateChange(target="experience", delta=-cost, note=f"Advance: {params.purchase}")],
        citation=ADVANCE,
    )


class RecommitParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ticks: int = Field(ge=0, le=MAX_TICKS, description="ticks on the track")
    rank: Rank


def resolve_recommit(params: RecommitParams, source: DiceSource) -> Resolution:
    dice = [source.roll(10, "challenge"), source.roll(10, "challenge")]
    lowest = min(d.value for d in dice)
    new_ticks = max(0, params.ticks - lowest * TICKS_PER_BOX)
    index = RANKS.index(params.rank)
    new_rank = RANKS[min(index + 1, len(RANKS) - 1)]
    changes = [
        StateChange(target="progress", delta=new_ticks - params.ticks, note=f"clear {lowest} boxes")
    ]
    if new_rank != params.rank:
        changes.append(StateChange(target="rank", note=new_rank))  # the track's rank, raised
    return Resolution(
        outcome=new_rank,
        scores={
            "cleared_boxes": lowest,
            "ticks": new_ticks,
            "challenge_1": dice[0].value,
            "challenge_2": dice[1].value,
        },
        dice=dice,
        changes=changes,
        citation=cite("QUEST MOVES > FULFILL YOUR VOW"),
        rulings=["recommit_clears_lowest"],
        details={"rank": new_rank, "ticks_per_mark": IRONSWORN_RANK_TICKS[new_rank]},
    )


LEGACY_KINDS = [
    RollKind(
        id="mark_legacy",
        summary="Mark ticks on a legacy track; the experience Earn Experience gives (no dice).",
        params=MarkLegacyParams,
        resolve=resolve_mark_legacy,
        dice_order="none",
        examples=[
            {"track": "quests", "ticks": 38, "mark": 4},
            {"track": "discoveries", "ticks": 6, "cleared": True, "reward_rank": "extreme"},
        ],
    ),
    RollKind(
        id="advance",
        summary="Advance: spend 3 experience for a new asset or 2 to upgrade one (no dice).",
        params=AdvanceParams,
        resolve=resolve_advance,
        dice_order="none",
        examples=[{"experience": 5, "purchase": "new_asset"}],
    ),
    RollKind(
        id="recommit",
        summary="Recommit after a progress-move miss: clear the lower challenge die in boxes.",
        params=RecommitParams,
        resolve=resolve_recommit,
        dice_order="challenge d10, challenge d10",
        examples=[{"ticks": 28, "rank": "formidable"}],
    ),
]
