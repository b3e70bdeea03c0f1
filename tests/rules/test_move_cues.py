"""The move cues (our own words, not source text) name only moves and stats that exist."""

from __future__ import annotations

import pytest

from rules.catalog import load_move_cues
from rules.registry import get_system


@pytest.mark.parametrize("system_id", ["sundered_isles", "elegy"])
def test_cues_name_real_action_moves_and_stats(system_id: str) -> None:
    system = get_system(system_id)
    cues = load_move_cues(system_id)
    assert cues is not None
    actions = {m.id for m in system.moves if m.roll == "action"}
    assert cues.default in actions
    assert set(cues.moves) <= actions
    assert set(cues.stats) <= set(system.stats)
    assert all(words for words in cues.moves.values())


@pytest.mark.parametrize("system_id", ["go_forth", "storyteller", "roll_under"])
def test_systems_without_moves_cue_only_game_master_parameters(system_id: str) -> None:
    system = get_system(system_id)
    cues = load_move_cues(system_id)
    assert cues is not None and cues.default is None and not cues.moves
    kinds = system.roll_kinds.values()
    for param, values in cues.gm.items():
        # every cued value is one the engine accepts for that parameter
        schemas = [k.params.model_json_schema()["properties"].get(param) for k in kinds]
        enums = {v for s in schemas if s for o in s.get("anyOf", [s]) for v in o.get("enum", [])}
        assert set(values) <= enums, (param, set(values) - enums)
