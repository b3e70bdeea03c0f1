"""The grammar of the model's sentence after a lead (service/narrator/grammar.py), its GBNF, and
how it reaches a server that takes one.

Issue 15: "The character made to act or feel: 'causes them to panic and leave the building',
'Kell feels the weight of his vow… sets a new goal', 'You make a quick retreat'." After a lead,
the real model's sentences that did so held "you" or the character's name (run 34: "As you
ascend, the wind picks up, and you feel a chill down your spine"; the ninth words' run: "The
island is now your home, and you feel a sense of belonging"; a resent prompt: "Kell's calm voice
soothes it").
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import httpx
import pytest
import respx
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from prompts import RenderedPrompt
from rules.models import Resolution
from rules.registry import resolve_roll
from service.narrator.grammar import (
    BANNED,
    BENT,
    EXCLUDED,
    LEAD_WORDS,
    OFFERED_PER_SENSE,
    PROMPT_WORDS,
    ROLES,
    SCENE_OPENERS,
    VOICE,
    WRITTEN,
    SentenceGrammar,
    continuation_grammar,
    doer_words,
    scene_openers,
)
from service.narrator.guard import Expectation, expectation_from, unbent
from service.narrator.lead import narration_plan
from service.narrator.model import Calls, OpenAICompatibleModel
from service.settings import Settings
from tests.service.narrator.mock_model import (
    BASE_URL,
    CHAT_URL,
    completion,
    model_app,
    sent,
    stream,
)

# Real replies after a lead (runs 32-34, the ninth words' run, a resent prompt): each held the
# character acting or feeling, or the outcome retold through "you" or the name.
REAL_REPLIES_WITH_YOU = [
    "As you ascend, the wind picks up, and you feel a chill down your spine.",
    "The island is now your home, and you feel a sense of belonging.",
    "As you look around the room, you notice that the catch is hidden behind a shelf.",
    "You hear a loud crash as the gate locks behind you, trapping you inside.",
    "The mule's eyes flicker with fear, but Kell's calm voice soothes it.",
    "YOU fall.",
    "The siren's song makes it difficult for the player to focus.",
]
# Real replies after a lead that told the world's response (resent with the grammar)
REAL_REPLIES_WITHOUT_YOU = [
    "The storm is raging, and the water is rising rapidly.",
    "The noble wakes up, disoriented and confused.",
    "The admiral reluctantly agrees, but only after a long debate.",
    "The bosun shouts for the crew to hold fast!",
]


def test_real_replies_with_you_or_the_name_are_outside_the_grammar() -> None:
    grammar = continuation_grammar("Kell")
    assert not [r for r in REAL_REPLIES_WITH_YOU if grammar.accepts(r)]
    assert all(grammar.accepts(r) for r in REAL_REPLIES_WITHOUT_YOU)


def test_no_number_tag_or_second_sentence() -> None:
    grammar = continuation_grammar(None)
    for text in [
        "Three guards, 3 of them.", "<story>The rain.", "# Scene", "Rain. Wind.", "Rain",
        'The bosun shouts, "Forward!',
    ]:  # fmt: skip
        assert not grammar.accepts(text), text


def test_a_name_too_short_or_unnamed_bans_nothing_more() -> None:
    plain = (*BANNED, *BENT, *VOICE, *ROLES, *LEAD_WORDS, *PROMPT_WORDS)
    assert continuation_grammar("unnamed").banned == plain
    assert continuation_grammar("Bo").banned == plain
    assert continuation_grammar("Mara Vell").banned == (
        *BANNED,
        *BENT,
        *VOICE,
        *ROLES,
        *LEAD_WORDS,
        *PROMPT_WORDS,
        "mara",
        "vell",
    )


def test_the_one_who_does_the_attempt_is_never_named_by_it() -> None:
    # runs 44 and 49, a haggle tied: "The dwarf looks at the price and shakes his head, while
    # the haggler sighs in frustration" (the character, named by the player's verb, made to feel)
    haggle = continuation_grammar("Kell", attempt="haggle with the dwarf over the price")
    assert not haggle.accepts("The dwarf shakes his head, while the haggler sighs in frustration.")
    assert not haggle.accepts("The dwarf eyes the hagglers.")
    assert haggle.accepts("The dwarf folds his arms and haggles on.")
    assert not continuation_grammar("Kell", attempt="swim for the wreck").accepts(
        "The current drags the swimmer under."
    )
    assert not continuation_grammar("Kell", attempt="filch the purse").accepts(
        "The merchant never sees the thief."
    )
    assert doer_words("track the goblins") == (" tracker",)
    assert doer_words(None) == () and doer_words("a") == ()


def test_the_prompts_word_for_its_ask_is_never_written() -> None:
    # stop 28's paired trial: "The next sentence could be: The door to the secret room opens"
    # and "The second sentence: The card dealer's eyes light up" (the prompt's own words, no
    # narration); "sentence" is in no consistent labelled reply
    grammar = continuation_grammar("Kell")
    assert not grammar.accepts("The next sentence could be: The door to the secret room opens.")
    assert not grammar.accepts("The second sentence: The card dealer's eyes light up.")
    assert grammar.accepts("The card dealer's eyes stay on his cards.")


def test_the_games_name_is_no_name_in_its_story_save_a_settings() -> None:
    # the sixteenth words: "Elegy feels a sense of pride and accomplishment" (a story "of Elegy"
    # read as Elegy's story); the Sundered Isles are a place in their own game
    elegy = continuation_grammar("unnamed", game="Elegy")
    assert not elegy.accepts("Elegy feels a sense of pride and accomplishment.")
    assert not elegy.accepts("The doorman smiles warmly at Elegy.")
    assert elegy.accepts("The doorman smiles warmly and steps aside.")
    assert not continuation_grammar("Kell", game="Go Forth").accepts(
        "The crowd looks up to see the victorious Go Forth."
    )
    isles = continuation_grammar("Kell", game="Sundered Isles")
    assert isles.accepts("The wind drives the cutter across the Sundered Isles.")
    assert isles.banned == continuation_grammar("Kell").banned


def test_the_character_is_not_named_by_a_role_either() -> None:
    # run 40: "a gust of wind blows through the narrow corridor, sending a chilling shiver down
    # the spine of the lone adventurer" (a failed pick: the character made to feel)
    grammar = continuation_grammar("Kell")
    assert not grammar.accepts(
        "A gust of wind blows through the narrow corridor, sending a chilling shiver down the "
        "spine of the lone adventurer."
    )
    assert not grammar.accepts("The gatekeeper's eyes widen as he realizes the intruder.")
    assert grammar.accepts("A gust of wind blows through the narrow corridor.")


def test_your_bent_is_barred_too() -> None:
    # runs 44 and 49: "The quartermaster looks at the suspicious look on yur face" (the
    # character made to feel, "you" spelt round the bar)
    grammar = continuation_grammar("Kell")
    assert not grammar.accepts("The quartermaster looks at the suspicious look on yur face.")
    assert grammar.accepts("The quartermaster looks at the ledger and frowns.")
    # run 54: "The guard's strength is too great for a novice like myself"
    assert not grammar.accepts("The guard's strength is too great for a novice like myself.")


def test_the_leads_words_are_not_said_again() -> None:
    # the fifteenth words: "You watch the customs cutter from the lighthouse gallery, but not
    # without a cost." followed by "The customs cutter from the lighthouse gallery, but not
    # without a cost."
    grammar = continuation_grammar("Kell")
    assert not grammar.accepts(
        "The customs cutter from the lighthouse gallery, but not without a cost."
    )
    assert not grammar.accepts("And it works.")
    assert grammar.accepts("The customs cutter turns about, its lanterns hooded.")


LETTERS = "yYoOuUkKeElL aA'\".,!?3<\né你^-\\]"


def _allowed(text: str, banned: tuple[str, ...]) -> bool:
    """What the grammar is meant to allow, said plainly."""
    if not text or text[-1] not in ".!?":
        return False
    body = text[:-1]
    if any(c not in WRITTEN or c in EXCLUDED or c in ".!?" for c in body):
        return False
    # the sentence is read as after a space: a word banned with a leading space is banned at
    # a word's start, the first word's too
    return not any(w in f" {body.lower()}" for w in banned)


@given(st.text(alphabet=LETTERS, max_size=14))
def test_the_automaton_allows_exactly_sentences_without_a_banned_word(text: str) -> None:
    grammar = continuation_grammar("Kell")
    assert grammar.accepts(text) == _allowed(text, grammar.banned)


# words barred at a word's start only (unsaid.py), beside words barred anywhere
WORD_STARTS = ("you", " ke", " a ku")


@given(st.text(alphabet=LETTERS, max_size=14))
def test_a_word_banned_with_a_leading_space_is_banned_at_word_starts(text: str) -> None:
    assert SentenceGrammar(WORD_STARTS).accepts(text) == _allowed(text, WORD_STARTS)


def test_unnoticed_is_not_noticed() -> None:
    # " notic" bars "The guards notice the intruder", not "The guards sleep on, unnoticed"
    grammar = continuation_grammar("Kell", (" notic",))
    assert grammar.accepts("The guards sleep on, unnoticed.")
    assert not grammar.accepts("The guards notice the intruder.")
    assert not grammar.accepts("Noticing nothing, the guards sleep.")


# --- the GBNF, run by a reader of its own shape (rules "name ::= [class] next | ... | \"\"") ---

_RULE = re.compile(r"^(\w+) ::= (.*)$")


_ESCAPE = re.compile(r"\\(x[0-9A-F]{2}|n|r)")


def _tokens(body: str) -> list[tuple[str, bool]]:
    """A class's characters, each with whether it is a bare "-" (a range's mark)."""
    out, i = [], 0
    while i < len(body):
        if escape := _ESCAPE.match(body, i):
            code = escape[1]
            out.append(({"n": "\n", "r": "\r"}.get(code) or chr(int(code[1:], 16)), False))
            i = escape.end()
        else:
            out.append((body[i], body[i] == "-"))
            i += 1
    return out


def in_class(c: str, body: str) -> bool:
    negated = body.startswith("^")
    tokens = _tokens(body[1:] if negated else body)
    found, k = False, 0
    while k < len(tokens):
        if k + 2 < len(tokens) and tokens[k + 1][1]:
            found |= ord(tokens[k][0]) <= ord(c) <= ord(tokens[k + 2][0])
            k += 3
        else:
            found |= tokens[k][0] == c
            k += 1
    return found != negated


def _gbnf_accepts(gbnf: str, text: str) -> bool:
    rules: dict[str, str] = {}
    for line in gbnf.splitlines():
        rule = _RULE.match(line)
        assert rule is not None, line
        rules[rule[1]] = rule[2]
    root = re.fullmatch(r"(s\d+) \[(.*)\]", rules.pop("root"))
    assert root is not None

    state = root.group(1)
    for i, c in enumerate(text):
        if i == len(text) - 1 and in_class(c, root.group(2)):
            return True
        moves = re.findall(r"\[((?:\\x[0-9A-F]{2}|\\.|[^\]\\])*)\] (\w+)", rules[state])
        nexts = [name for body, name in moves if in_class(c, body)]
        assert len(nexts) <= 1, (state, c)  # one way on: the grammar is deterministic
        if not nexts:
            return False
        state = nexts[0]
    return False


@given(st.text(alphabet=LETTERS.replace("é", ""), max_size=14))
def test_the_gbnf_allows_what_the_automaton_allows(text: str) -> None:
    grammar = continuation_grammar("Kell")
    assert _gbnf_accepts(grammar.gbnf(), text) == grammar.accepts(text)
    at_starts = SentenceGrammar(WORD_STARTS)
    assert _gbnf_accepts(at_starts.gbnf(), text) == at_starts.accepts(text)


def _next_by_definition(words: tuple[str, ...], states: set[str], state: str, c: str) -> str | None:
    """The automaton's move as its definition says, one suffix at a time: None when ``state +
    c`` ends in a banned word, else its longest suffix that is a prefix of one."""
    text = state + c
    if any(text.endswith(w) for w in words):
        return None
    return next(text[i:] for i in range(len(text) + 1) if text[i:] in states or i == len(text))


@given(st.lists(st.text(alphabet="ab ", min_size=1, max_size=5), min_size=1, max_size=6))
def test_the_automatons_moves_are_those_of_their_definition(words: list[str]) -> None:
    # the moves are worked out from failure links (Aho-Corasick's) for speed; on two letters
    # and a space, words overlap in every way a longer list of real words can
    grammar = SentenceGrammar(tuple(words))
    banned = tuple(w.lower() for w in words)
    states = {w[:i] for w in banned for i in range(len(w))}
    for state in states:
        for c in grammar._letters:
            assert grammar._next(state, c) == _next_by_definition(banned, states, state, c)


def test_the_gbnf_has_only_escapes_llama_cpp_knows() -> None:
    # llama-cpp-python's server, given "\\^" in a class, failed to parse the grammar and went
    # down: every backslash is \\xNN, \\n or \\r
    gbnf = continuation_grammar("Ma^ra [Vell]-\\").gbnf()
    assert re.findall(r"\\.", gbnf) and all(
        _ESCAPE.match(gbnf, m.start()) for m in re.finditer(r"\\", gbnf)
    )


def test_the_gbnf_has_one_rule_per_prefix_of_a_banned_word() -> None:
    # "you" and "kell": "", y, yo, k, ke, kel
    assert len(SentenceGrammar(("you", "kell")).gbnf().splitlines()) == 1 + 6


# --- where the grammar goes ----------------------------------------------------------------


def _resolution(outcome_dice: list[int]) -> Resolution:
    params = {"move": "face_danger", "stat": "edge", "stat_value": 2}
    return resolve_roll("sundered_isles", "move", params, dice=outcome_dice)


def test_a_lead_brings_the_grammar_and_a_whole_narration_none() -> None:
    hit = _resolution([5, 3, 4])
    expect = expectation_from(hit, action="I leap to the deck")
    plan = narration_plan(
        system_name="Sundered Isles", character="Kell", action="I leap to the deck",
        resolution=hit, expect=expect, context="",
    )  # fmt: skip
    offered = scene_openers(f"leap to the deck|{hit.dice_values()}")
    assert (
        plan.lead
        and plan.grammar
        == continuation_grammar("Kell", attempt="leap to the deck", openers=offered).gbnf()
    )
    table = resolve_roll("sundered_isles", "table", {"table": "pay_the_price"}, seed=1)
    told = narration_plan(
        system_name="Sundered Isles", character="Kell", action=None, resolution=table,
        expect=expectation_from(table), context="",
    )  # fmt: skip
    assert not told.lead and told.grammar is None


def _model(grammar: str) -> OpenAICompatibleModel:
    settings = Settings(
        model="gpt-test", openai_base_url=BASE_URL, openai_api_key="sk-test",
        model_grammar=grammar, model_max_retries=0, model_max_tokens=120,
    )  # fmt: skip
    return OpenAICompatibleModel(settings)


PROMPT = RenderedPrompt(system="Write one sentence.", user="The first sentence: It works.")
GBNF = continuation_grammar("Kell").gbnf()


@respx.mock
def test_the_grammar_is_sent_with_max_tokens_plain_and_streamed() -> None:
    route = respx.post(CHAT_URL)
    route.side_effect = [completion("The rain stops."), stream(["The rain ", "stops."])]
    model = _model("gbnf")
    asyncio.run(model.complete(PROMPT, Calls(), grammar=GBNF))

    async def streamed() -> str:
        return "".join([d async for d in model.stream(PROMPT, Calls(), grammar=GBNF)])

    assert asyncio.run(streamed()) == "The rain stops."
    for call in route.calls:
        body = sent(call.request)
        assert body["grammar"] == GBNF and body["max_tokens"] == 120


@respx.mock
def test_a_server_that_refuses_the_grammar_is_asked_without_it_from_then_on() -> None:
    route = respx.post(CHAT_URL)
    refused = httpx.Response(
        400, json={"error": {"message": "Unrecognized request argument supplied: grammar"}}
    )
    route.side_effect = [refused, completion("The rain stops."), completion("Wind.")]
    model = _model("gbnf")
    calls = Calls()
    assert asyncio.run(model.complete(PROMPT, calls, grammar=GBNF)) == "The rain stops."
    assert calls.count == 2 and "grammar" not in sent(route.calls[1].request)
    asyncio.run(model.complete(PROMPT, Calls(), grammar=GBNF))
    assert "grammar" not in sent(route.calls[2].request)


@respx.mock
def test_without_the_setting_no_grammar_is_sent() -> None:
    route = respx.post(CHAT_URL).mock(return_value=completion("The rain stops."))
    asyncio.run(_model("none").complete(PROMPT, Calls(), grammar=GBNF))
    assert "grammar" not in sent(route.calls[0].request)


def test_narrate_sends_the_continuation_grammar_to_a_llama_cpp_server(tmp_path: Path) -> None:
    roll = resolve_roll(
        "sundered_isles", "move", {"move": "face_danger", "stat": "edge", "stat_value": 2},
        dice=[6, 1, 3],
    )  # fmt: skip
    body = {"resolution": roll.model_dump(mode="json"), "action": "I leap the gap"}
    with respx.mock() as mock, TestClient(model_app(tmp_path, model_grammar="gbnf")) as client:
        route = mock.post(CHAT_URL).mock(return_value=completion("The far roof holds."))
        r = client.post("/v1/narrate", json={**body, "character": "Kell"})
        assert r.json()["narration"] == "You leap the gap, and it works. The far roof holds."
        grammar = sent(route.calls.last.request)["grammar"]
    offered = scene_openers(f"leap the gap|{roll.dice_values()}")
    assert grammar == continuation_grammar("Kell", attempt="leap the gap", openers=offered).gbnf()
    assert " leaper" in continuation_grammar("Kell", attempt="leap the gap").banned


def test_a_spark_sends_the_continuation_grammar_too(tmp_path: Path) -> None:
    # run 43: "Pay the Price: You are separated from something or someone. You are chased by a
    # pack of wolves." (the prompt says 'never with "You"'; the grammar holds it)
    body = {"system": "sundered_isles", "table": "make_a_discovery", "seed": 2,
            "situation": "Kell explores a sunken temple", "character": "Kell"}  # fmt: skip
    with respx.mock() as mock, TestClient(model_app(tmp_path, model_grammar="gbnf")) as client:
        route = mock.post(CHAT_URL).mock(return_value=completion("The temple's altar is bare."))
        r = client.post("/v1/oracle/spark", json=body)
        assert r.status_code == 200, r.text
        assert r.json()["narration"].endswith(" The temple's altar is bare.")
        grammar = sent(route.calls.last.request)["grammar"]
    assert grammar == continuation_grammar("Kell").gbnf()
    assert not continuation_grammar("Kell").accepts("You are chased by a pack of wolves.")


def test_auto_sends_the_grammar_to_a_server_of_ones_own_never_to_openai() -> None:
    from service.narrator.model import _sends_grammar

    local = Settings(openai_base_url="http://127.0.0.1:8088/v1")
    openai = Settings(openai_base_url="https://api.openai.com/v1", openai_api_key="sk-test")
    assert local.model_grammar == "auto" and _sends_grammar(local)
    assert not _sends_grammar(openai) and not _sends_grammar(Settings(openai_api_key="sk-test"))
    assert _sends_grammar(openai.model_copy(update={"model_grammar": "gbnf"}))
    assert not _sends_grammar(local.model_copy(update={"model_grammar": "none"}))


# --- what the model bent round the bars, read as what it stands for (guard.unbent) ------------

# "you" and "your" bent ("the suspicious look on yor face", runs 56, 57) and the character's or
# the game's name bent ("K ell", "Kall", "Eleg y", "Go For th") are read as "you", "your" and the
# character's name; English words of the same letters, another game's name and a setting's name
# are let be.
UNBENT = [
    ("sundered_isles", "Yor heart races as the guards pass.", "Your heart races as the guards pass."),
    ("sundered_isles", "the suspicious look on yur face", "the suspicious look on your face"),
    ("sundered_isles", "Kall draws his sword.", "Kell draws his sword."),
    ("sundered_isles", "K ell draws his sword.", "Kell draws his sword."),
    ("sundered_isles", "A chill runs down Kiel's spine.", "A chill runs down Kell's spine."),
    ("sundered_isles", "Captain Kerr nods.", "Captain Kerr nods."),
    ("elegy", "The doorman smiles at Eleg y.", "The doorman smiles at Kell."),
    ("go_forth", "too great for even a skilled fighter like Go For th", "too great for even a skilled fighter like Kell"),
    ("elegy", "too great for even a skilled fighter like Go For th", "too great for even a skilled fighter like Go For th"),
    ("sundered_isles", "Yon hill rises; yes, the yoke holds.", "Yon hill rises; yes, the yoke holds."),
    ("sundered_isles", "the winds of the Sundered Isles", "the winds of the Sundered Isles"),
    ("elegy", "As the bell tower looms before thee, thy heart races.", "As the bell tower looms before you, your heart races."),
    ("elegy", "They thought the theme thin.", "They thought the theme thin."),
]  # fmt: skip


@pytest.mark.parametrize(("system", "words", "read"), UNBENT)
def test_bent_words_are_read_as_what_they_stand_for(system: str, words: str, read: str) -> None:
    expect = Expectation(system=system, outcome="strong_hit", character="Kell", polarity="success")
    assert unbent(words, expect) == read


@given(st.text(alphabet="abcdefghijklmnopqrsuvwxz ,.'", max_size=60))
def test_unbending_leaves_words_with_no_y_or_th_word_and_no_name_as_they_are(words: str) -> None:
    expect = Expectation(system="storyteller", outcome="success", polarity="success")
    assert unbent(words, expect) == words


# --- the scene after a narration's lead ----------------------------------------------------------


def test_a_narrations_sentence_begins_with_an_offered_opener_at_a_words_end() -> None:
    # the thirty-fifth words, offered every opener: "The winder's eyes widen" (a wight, bent round
    # "The wind"), "The dustellist's eyes widen" (a duellist, round "The dust")
    offered = scene_openers("drive your spear into the wight's chest|[7, 3]")
    grammar = continuation_grammar("Kell", attempt="drive your spear into the wight's chest",
                                   openers=offered)  # fmt: skip
    first = offered[0]
    assert grammar.accepts(f"{first}settles over the barrow.")
    assert not grammar.accepts(f"{first.rstrip()}er's eyes widen.")
    assert not grammar.accepts("The wight's eyes widen.")
    assert not grammar.accepts(f"{first}settles as you fall.")  # the bars still hold after it


def test_each_request_is_offered_two_openers_of_each_sense_the_same_each_time() -> None:
    offered = scene_openers("leap to the deck|[5, 3, 4]")
    assert offered == scene_openers("leap to the deck|[5, 3, 4]")
    assert len(offered) == OFFERED_PER_SENSE * len(SCENE_OPENERS)
    for sense, openers in SCENE_OPENERS.items():
        assert sum(o.rstrip() in openers for o in offered) == OFFERED_PER_SENSE, sense
    assert all(o.endswith(" ") and not o.endswith("  ") for o in offered)
    # other dice or words, another offer (over many requests, not always the same two suns)
    offers = {scene_openers(f"leap to the deck|[{d}, 3, 4]") for d in range(1, 7)}
    assert len(offers) > 1


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz ,'", max_size=40))
def test_the_gbnf_root_offers_exactly_the_openers(rest: str) -> None:
    offered = scene_openers("climb the wall|[1]")
    grammar = continuation_grammar(None, openers=offered)
    root = grammar.gbnf().splitlines()[0]
    assert all(f'"{o}"' in root for o in offered)
    # after the opener, the same bars as a sentence without openers
    unopened = SentenceGrammar(grammar.banned)
    assert grammar.accepts(f"{offered[1]}{rest}.") == unopened.accepts(f"{offered[1]}{rest}.")
    assert not grammar.accepts(f"Then {rest}.")


# What the scene's sentence may not say, barred at a word's start, and what it keeps
SCENE_BARS = [
    # the thirty-fifth words, told with the openers: "The sun was setting as we approached the
    # harbor" after "I sweet-talk the bosun into lending us the longboat"
    ("sweet-talk the bosun|[4, 2, 9]",
     ["sets as we approached the harbor.", "rises over our ship."],
     "turns within the hour, and the weather worsens.", "As we set sail, the wind rises."),
    # runs 66 and 67, the thirty-seventh and thirty-eighth words: "casting long shadows" in 35 of
    # 89 scene sentences ("forecast", "overcast" stay)
    ("climb the sea wall|[5, 2, 8]",
     ["sets, casting long shadows over the wall.", "Casts a pale light."],
     "hangs overcast, and the forecast is grim.", "The sun sets, casting long shadows."),
]  # fmt: skip


@pytest.mark.parametrize(("key", "barred", "kept", "spark"), SCENE_BARS)
def test_the_scene_bars_we_and_cast_but_keeps_hours_and_forecasts(
    key: str, barred: list[str], kept: str, spark: str
) -> None:
    offered = scene_openers(key)
    grammar = continuation_grammar("Kell", openers=offered)
    assert not any(grammar.accepts(f"{offered[0]}{rest}") for rest in barred)
    assert grammar.accepts(f"{offered[0]}{kept}")
    assert continuation_grammar("Kell").accepts(spark)  # a spark's sentence keeps them


def test_openers_all_barred_leave_the_sentence_unopened() -> None:
    # a name or an outcome's words could bar every opener offered: the grammar then begins as it
    # likes rather than offer llama.cpp an empty choice, which it cannot parse
    grammar = SentenceGrammar(banned=("you", "the", "rain", "fog"), openers=("The wind ", "Fog "))
    assert grammar.gbnf().splitlines()[0].startswith("root ::= s0 ")
    assert grammar.accepts("A gull cries.") and not grammar.accepts("The wind rises.")
    some = SentenceGrammar(banned=("you", "fog"), openers=("The wind ", "Fog "))
    assert '"The wind "' in some.gbnf() and '"Fog "' not in some.gbnf()
    assert some.accepts("The wind rises.") and not some.accepts("A gull cries.")
