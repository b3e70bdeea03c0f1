"""The offline narrator: deterministic, built from the rules text and the engine's record, and
never rejected by the guard (it is the fallback when a model's reply is)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.registry import all_systems, get_system, resolve_roll
from service.narrator import offline
from service.narrator.guard import check_narration, expectation_from

EXAMPLES = [
    (s.id, k.id, params)
    for s in all_systems()
    for k in s.roll_kinds.values()
    for params in k.examples
    if k.id not in ("expression",)
]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(EXAMPLES), st.integers(0, 2**32))
def test_offline_narration_of_any_roll_passes_the_guard(
    example: tuple[str, str, dict[str, object]], seed: int
) -> None:
    system, kind, params = example
    resolution = resolve_roll(system, kind, params, seed=seed)
    text = offline.narration(resolution, "I press on")
    report = check_narration(text, expectation_from(resolution))
    assert report.passed, (text, report.reason())


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(["sundered_isles", "elegy"]),
    st.sampled_from(["small_chance", "unlikely", "50_50", "likely", "almost_certain"]),
    st.integers(1, 100),
)
def test_offline_oracle_answers_pass_the_guard(system: str, odds: str, roll: int) -> None:
    resolution = resolve_roll(system, "oracle", {"odds": odds}, dice=[roll])
    text = offline.oracle(get_system(system), "Is the harbour guarded?", resolution, odds)
    # Ask the Oracle: "On a 'yes,' the answer is yes; on a 'no,' the answer is no." The
    # narration begins with the engine's answer.
    assert text.startswith("Yes." if resolution.outcome == "yes" else "No.")
    assert check_narration(text, expectation_from(resolution)).passed


def test_offline_narration_is_deterministic_and_tells_the_rules_text() -> None:
    resolution = resolve_roll(
        "sundered_isles", "move", {"move": "face_danger", "stat": "edge", "stat_value": 2},
        dice=[6, 1, 3],
    )  # fmt: skip
    first = offline.narration(resolution, "I leap the gap")
    assert first == offline.narration(resolution, "I leap the gap")
    # Face Danger: "On a strong hit, you are successful. Take +1 momentum."
    assert "you are successful" in first.lower() and "+1 momentum" in first


def test_every_elegy_price_row_is_told_and_passes_the_guard() -> None:
    # Elegy's Face Danger: "On a weak hit, you succeed, but not without a cost. Pay the Price."
    # The row rolled on the list is the cost: told offline (the fallback the player reads when
    # a model's reply is refused) and passed by the guard, for each of the list's rows.
    table = get_system("elegy").tables["pay_the_price"]
    params = {"move": "face_danger", "stat": "dexterity", "stat_value": 3, "pay_the_price": True}
    for row in table.rows:
        dice = [7, 2, row.low] + ([1, 50] if row.roll_twice else [])
        resolution = resolve_roll("elegy", "move", params, dice=dice)
        text = offline.narration(resolution, "I climb the wall")
        for told in resolution.details["tables_rolled"][0]["results"]:
            assert told in text
        report = check_narration(text, expectation_from(resolution))
        assert report.passed, (row.text, report.reason())
