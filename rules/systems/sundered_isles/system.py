"""Sundered Isles (Ironsworn: Starforged family): the system, SYSTEM, and its RULINGS.

Source: sundered_isles.md (Sundered Isles moves reference, Shawn Tomkin, CC BY 4.0), completed
where the text defers to the Starforged rulebook by the published Starforged core rules.

The mechanics live in the package's modules, one per concept (mapped in ``__init__.py``): core,
moves, meters, recover, legacy, tracks, sheet. This module assembles the system from their roll
kinds, their rulings and the character sheet.
"""

from __future__ import annotations

from rules.ironsworn import MOMENTUM_MAX, MOMENTUM_MIN
from rules.models import Ruling
from rules.registry import MeterSpec, RollKind, build_system
from rules.systems.sundered_isles.core import (
    CORE_RULINGS,
    QUICK_REFERENCE,
    SOURCE,
    ActionParams,
    OracleParams,
    ProgressParams,
    resolve_action,
    resolve_oracle,
    resolve_progress,
)
from rules.systems.sundered_isles.legacy import LEGACY_KINDS, LEGACY_RULINGS
from rules.systems.sundered_isles.meters import METER_KINDS, METER_RULINGS
from rules.systems.sundered_isles.moves import MOVE_RULINGS, MoveParams, resolve_move
from rules.systems.sundered_isles.outcomes import OUTCOME_RULINGS
from rules.systems.sundered_isles.recover import RECOVER_KINDS, RECOVER_RULINGS
from rules.systems.sundered_isles.sheet import RULES as SHEET_RULES
from rules.systems.sundered_isles.sheet import SHEET_RULINGS
from rules.systems.sundered_isles.tracks import TRACK_KINDS

STATS = ["edge", "heart", "iron", "shadow", "wits"]
METERS = [
    MeterSpec(id="health", name="Health", min=0, max=5, start=5),
    MeterSpec(id="spirit", name="Spirit", min=0, max=5, start=5),
    MeterSpec(id="supply", name="Supply", min=0, max=5, start=5),
    MeterSpec(
        id="momentum",
        name="Momentum",
        min=MOMENTUM_MIN,
        max=MOMENTUM_MAX,
        start=2,
        note="max is 10 less 1 per impact; reset +2, +1 with one impact, 0 with more",
    ),
]
RULINGS: list[Ruling] = [
    *CORE_RULINGS,
    *MOVE_RULINGS,
    *OUTCOME_RULINGS,
    *METER_RULINGS,
    *RECOVER_RULINGS,
    *LEGACY_RULINGS,
    *SHEET_RULINGS,
]
__all__ = ["QUICK_REFERENCE", "RULINGS", "SYSTEM"]

ACTION_DICE = "action d6, then challenge d10, challenge d10"

SYSTEM = build_system(
    id="sundered_isles",
    name="Sundered Isles",
    source=SOURCE,
    summary="Ironsworn: Starforged family. d6 action die + stat + adds vs two d10 challenge dice.",
    stats=STATS,
    meters=METERS,
    roll_kinds=[
        RollKind(
            id="action",
            summary="Action roll: d6 + stat + adds (max 10) vs two d10.",
            params=ActionParams,
            resolve=resolve_action,
            dice_order=ACTION_DICE,
            examples=[
                {"stat": "edge", "stat_value": 2, "adds": 1, "momentum": 3},
                {"stat": "iron", "stat_value": 3, "momentum": -4, "burn_momentum": True},
            ],
        ),
        RollKind(
            id="progress",
            summary=(
                "Progress roll: progress score (full boxes, or ticks // 4) vs two d10; no momentum."
            ),
            params=ProgressParams,
            resolve=resolve_progress,
            dice_order="challenge d10, challenge d10",
            examples=[{"score": 6}, {"ticks": 27}, {"legacy_cleared": True}],
        ),
        RollKind(
            id="oracle",
            summary="Ask the Oracle, yes/no: d100, yes if at or under the odds.",
            params=OracleParams,
            resolve=resolve_oracle,
            dice_order="one d100 (give 100 for 00)",
            examples=[{"odds": "likely"}, {"odds": "small_chance"}],
        ),
        RollKind(
            id="move",
            summary=(
                "Make a move of moves.yaml: its action or progress roll (or oracle), its outcome "
                "text, and, with roll_tables, the tables the outcome names."
            ),
            params=MoveParams,
            resolve=resolve_move,
            dice_order=(
                "Action moves: action d6, challenge d10, challenge d10. Progress moves: challenge "
                "d10, challenge d10. Ask the Oracle: one d100. Moves without a roll: none. Then, "
                "only with roll_tables=true, each table the outcome text names, in the order it "
                "names them (Pay the Price, Make a Discovery, Confront Chaos or the move's own "
                "table), each rolled as the `table` kind rolls it (d100; a 'roll twice' row adds "
                "two more d100, more when rerolled). Moves without a roll roll their own table "
                "(Confront Chaos: `aspects` times)."
            ),
            examples=[
                {"move": "face_danger", "stat": "edge", "stat_value": 2, "roll_tables": True},
                {"move": "endure_harm", "stats": {"health": 3, "iron": 2}},
                {"move": "fulfill_your_vow", "progress_score": 7, "rank": "dangerous"},
                {"move": "take_decisive_action", "progress_ticks": 30, "position": "bad_spot"},
                {
                    "move": "face_danger_scene_challenge",
                    "stat": "wits",
                    "stat_value": 2,
                    "rank": "dangerous",
                    "clock_filled": 2,
                },
                {"move": "finish_a_scene", "progress_score": 5},
                {"move": "ask_the_oracle", "odds": "unlikely"},
                {"move": "confront_chaos", "aspects": 2, "roll_tables": True},
                {"move": "pay_the_price", "roll_tables": True},
            ],
        ),
        *METER_KINDS,
        *RECOVER_KINDS,
        *LEGACY_KINDS,
        *TRACK_KINDS,
    ],
    rulings=RULINGS,
    sheet=SHEET_RULES,
)
