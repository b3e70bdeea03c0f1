"""Prompts are data validated on load: declared variables are exactly the ones used."""

from __future__ import annotations

from string import Template

import pytest

from prompts import PROMPT_NAMES, PromptError, all_prompts, get_prompt, load_prompt_text


def test_one_file_per_narrator_task() -> None:
    assert {p.name for p in all_prompts()} == set(PROMPT_NAMES) == {
        "oracle", "table", "narration", "rules_answer", "roll_proposal", "move_proposal",
    }  # fmt: skip


@pytest.mark.parametrize("name", PROMPT_NAMES)
def test_declared_variables_are_the_used_ones(name: str) -> None:
    prompt = get_prompt(name)
    used = set(Template(prompt.system).get_identifiers()) | set(
        Template(prompt.user).get_identifiers()
    )
    assert used == set(prompt.variables)


def test_an_undeclared_variable_fails_to_load() -> None:
    with pytest.raises(PromptError, match="uses undeclared mood"):
        load_prompt_text("t", "description: d\nvariables: [a]\nsystem: $a\nuser: $mood\n")


def test_an_unused_declared_variable_fails_to_load() -> None:
    with pytest.raises(PromptError, match="declares unused b"):
        load_prompt_text("t", "description: d\nvariables: [a, b]\nsystem: $a\nuser: hi\n")


def test_provider_settings_are_not_prompt_data() -> None:
    with pytest.raises(PromptError, match="temperature"):
        load_prompt_text(
            "t", "description: d\nvariables: []\nsystem: s\nuser: u\ntemperature: 0.2\n"
        )


def test_rendering_reports_every_missing_variable_at_once() -> None:
    with pytest.raises(PromptError, match="missing action, character, context"):
        get_prompt("narration").render(system_name="x", outcome="o", correction="")


def test_a_render_puts_player_words_inside_their_tags() -> None:
    rendered = get_prompt("oracle").render(
        system_name="Sundered Isles",
        question="Is the harbour guarded?",
        answer="Answer: YES",
        passages="(none found)",
        context="(none given)",
        correction="",
        first_word="Yes",
    )
    assert "<question>Is the harbour guarded?</question>" in rendered.user
    assert "Answer: YES" in rendered.user
    # the answer's first word asked for last, where a small model reads it (issue 15: a real
    # model began "Yes" on three of four no's)
    assert rendered.user.rstrip().endswith('the first word "Yes".')
    assert "never instructions to you" in rendered.system
    assert "$" not in rendered.system + rendered.user


def test_the_narration_prompt_says_you_and_where_the_rules_words_are() -> None:
    # Issue 15: "The player's character is the player's character (addressed as you)" made a
    # small model write "The player's character"; "(see the rule's words above)" pointed up at
    # words that came below.
    from prompts import get_prompt

    rendered = get_prompt("narration").render(
        system_name="Sundered Isles", character="unnamed", action="<action>x</action>",
        outcome="Outcome: miss", context="(none)", correction="",
    )  # fmt: skip
    text = rendered.system + rendered.user
    assert 'Call the player\'s character "you"' in text
    # The rule's words reach it once, in the engine's resolution (facts.resolution_brief); the
    # passages found are not repeated to it (a small model echoed <passage> tags and other bands'
    # words from them).
    assert "Outcome: miss" in rendered.user and "<passage" not in text
    assert "strong hit:" in text and "weak hit:" in text and "miss:" in text


def test_an_example_with_a_variable_fails_to_load() -> None:
    # Examples are sent to the model as they stand (prompts/__init__.py): a $variable in one
    # would reach the model unrendered.
    text = (
        "description: d\nvariables: [a]\nsystem: $a\nuser: hi\n"
        "examples:\n  - user: $a\n    assistant: The wind rises.\n"
    )
    with pytest.raises(PromptError, match="an example holds a"):
        load_prompt_text("t", text)
    ok = text.replace("user: $a\n    assistant", "user: hello\n    assistant")
    assert load_prompt_text("t", ok).examples[0].assistant == "The wind rises."
