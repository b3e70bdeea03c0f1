"""The rules chat: answers from passages only, quotations checked in code, worked examples
resolved by the engine (the model only proposes the roll, as JSON)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import respx
from fastapi.testclient import TestClient

from tests.service.narrator.mock_model import (
    CHAT_URL,
    completion,
    model_app,
    offline_app,
    prompt_text,
    sent,
    sse_events,
    stream,
)

ASK = {"system": "sundered_isles"}
ROLL_QUESTION = "I Face Danger with +2 edge and rolled 5 on the action die, 3 and 8. What happens?"
PROPOSAL = {"kind": "action", "params": {"stat": "edge", "stat_value": 2}, "dice": [5, 3, 8]}


def ask(question: str, **extra: object) -> dict[str, object]:
    return {**ASK, "messages": [{"role": "user", "content": question}], **extra}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(model_app(tmp_path)) as c:
        yield c


@pytest.fixture
def model() -> Iterator[respx.Route]:
    with respx.mock(assert_all_called=False) as mock:
        yield mock.post(CHAT_URL)


def test_a_verified_quotation_keeps_its_citation(client: TestClient, model: respx.Route) -> None:
    question = ask("What happens on a strong hit when I face danger?")
    model.return_value = completion("First look.")
    first = client.post("/v1/rules/ask", json=question).json()["passages"][0]
    sentence = next(s for s in first["text"].split(". ") if len(s.split()) >= 4)
    # Quoted with other case and spacing: still the passage's words.
    quoted = "  ".join(sentence.upper().split())
    model.return_value = completion(f'The rule: "{quoted}" [P1].')
    body = client.post("/v1/rules/ask", json=question).json()
    (quotation,) = body["quotations"]
    assert quotation["verified"] is True
    assert quotation["citation"] == first["citation"]
    assert "[unverified]" not in body["answer"]


def test_a_wrong_quotation_loses_its_citation_and_alone_is_no_answer(
    client: TestClient, model: respx.Route
) -> None:
    # Issue 15: a model's answer is shown only when it quotes a passage word for word.
    question = ask("What happens on a strong hit when I face danger?")
    model.return_value = completion("First look.")
    first = client.post("/v1/rules/ask", json=question).json()["passages"][0]
    sentence = next(s for s in first["text"].split(". ") if len(s.split()) >= 4)
    wrong = '"you may always reroll the challenge dice once per scene" [P1]'
    model.return_value = completion(f'The rule: "{sentence}" [P1]. Also {wrong}.')
    body = client.post("/v1/rules/ask", json=question).json()
    assert body["narrated"]["narrator"] == "model"
    assert [q["verified"] for q in body["quotations"]] == [True, False]
    assert body["quotations"][1]["citation"] is None and "[unverified]" in body["answer"]
    # the wrong quotation alone: the offline answer, which quotes the passages
    model.return_value = completion(f"The rule says {wrong}.")
    body = client.post("/v1/rules/ask", json=question).json()
    assert body["narrated"]["narrator"] == "offline"
    assert "quotes no passage word for word" in body["narrated"]["reason"]
    assert "reroll the challenge dice" not in body["answer"]
    assert body["quotations"] and all(q["verified"] for q in body["quotations"])


def test_not_covered_from_the_model_on_a_covered_question_is_not_shown(
    client: TestClient, model: respx.Route
) -> None:
    # Issue 15: a small model began 4 of 6 covered answers "NOT COVERED". The passages were
    # judged to cover the question before the model was asked (knowledge.covers), so its "not
    # covered" is wrong: the offline answer quotes them instead.
    model.return_value = completion("NOT COVERED\nIn D&D 5e, grappling uses Athletics.")
    # (Words of the texts beside one they lack: above the coverage threshold, so the model is
    # asked; a question of words the texts lack is "not in these rules" without it, below.)
    question = ask("Can I burn momentum when I grapple a foe in a fight?")
    body = client.post("/v1/rules/ask", json=question).json()
    assert body["narrated"]["narrator"] == "offline" and body["covered"] is not False
    assert "do not cover" in body["narrated"]["reason"]
    assert "Athletics" not in body["answer"]


def test_words_no_text_holds_are_not_in_these_rules_without_a_model_call(
    client: TestClient, model: respx.Route
) -> None:
    # Issue 16: "How do I make a pizza?" got quotations from Compel. No content word of it is
    # in any passage found: not in these rules, naming the texts searched; the model is spared.
    for question in ("How do I make a pizza?", "How does grappling work in D&D?"):
        body = client.post("/v1/rules/ask", json=ask(question)).json()
        assert body["covered"] is False and body["quotations"] == []
        assert (
            body["answer"].startswith("Not in these rules")
            and "sundered_isles.md" in body["answer"]
        )
    assert model.call_count == 0


def test_the_prompt_holds_the_passages_and_the_conversation(
    client: TestClient, model: respx.Route
) -> None:
    model.return_value = completion("It works as the passage says.")
    client.post(
        "/v1/rules/ask",
        json={
            **ASK,
            "messages": [
                {"role": "user", "content": "What is momentum?"},
                {"role": "assistant", "content": "A resource you build and burn."},
                {"role": "user", "content": "And what happens when I burn it?"},
            ],
        },
    )
    text = prompt_text(model.calls.last.request)
    assert '<passage id="P1"' in text and "<conversation>" in text
    assert "user: What is momentum?" in text
    assert "<question>And what happens when I burn it?</question>" in text


def test_a_concrete_roll_is_proposed_as_json_and_resolved_by_the_engine(
    client: TestClient, model: respx.Route
) -> None:
    model.side_effect = [
        completion(json.dumps(PROPOSAL)),
        completion("A strong hit: your action score of 7 beats both challenge dice."),
    ]
    body = client.post("/v1/rules/ask", json=ask(ROLL_QUESTION)).json()
    example = body["worked_example"]
    assert example["status"] == "resolved"
    # 5 + 2 = 7 beats 3 but not 8: a weak hit, whatever the model's prose says.
    assert example["resolution"]["outcome"] == "weak_hit"
    assert example["resolution"]["scores"]["action_score"] == 7
    assert body["narrated"]["calls"] == 2
    proposal_request = sent(model.calls[0].request)
    assert proposal_request["response_format"] == {"type": "json_object"}
    assert "Outcome: weak hit" in prompt_text(model.calls[1].request)


@pytest.mark.parametrize(
    "proposal_reply",
    [
        completion("```json\n" + json.dumps(PROPOSAL) + "\n```"),  # a server that ignores it
        completion("Here you go: " + json.dumps(PROPOSAL) + " Hope that helps."),
    ],
)
def test_json_amid_prose_or_fences_is_parsed(
    client: TestClient, model: respx.Route, proposal_reply: httpx.Response
) -> None:
    model.side_effect = [proposal_reply, completion("It is a weak hit.")]
    body = client.post("/v1/rules/ask", json=ask(ROLL_QUESTION)).json()
    assert body["worked_example"]["status"] == "resolved"


def test_a_server_that_refuses_response_format_is_asked_in_the_prompt(
    client: TestClient, model: respx.Route
) -> None:
    # llama.cpp's server refuses response_format types it does not know with a 400.
    refused = httpx.Response(
        400, json={"error": {"message": "response_format type json_object not supported"}}
    )
    model.side_effect = [refused, completion(json.dumps(PROPOSAL)), completion("A weak hit.")]
    body = client.post("/v1/rules/ask", json=ask(ROLL_QUESTION)).json()
    assert body["worked_example"]["status"] == "resolved"
    assert "response_format" not in sent(model.calls[1].request)
    assert body["narrated"]["calls"] == 3
    # ... and is not asked again in this process.
    model.side_effect = [completion(json.dumps(PROPOSAL)), completion("A weak hit.")]
    client.post("/v1/rules/ask", json=ask(ROLL_QUESTION))
    assert "response_format" not in sent(model.calls.last.request)


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ('{"kind": "action", "params": {"stat": "edge"', "not valid JSON"),
        ('{"kind": "teleport", "params": {}, "dice": [1]}', "engine refused"),
        (
            '{"kind": "action", "params": {"stat": "edge", "stat_value": 2}, "dice": [5, 3, 11]}',
            "engine refused",
        ),
    ],
)
def test_a_bad_proposal_is_rejected_never_trusted(
    client: TestClient, model: respx.Route, reply: str, reason: str
) -> None:
    model.side_effect = [completion(reply), completion("Here is how it works.")]
    body = client.post("/v1/rules/ask", json=ask(ROLL_QUESTION)).json()
    assert body["worked_example"]["status"] == "rejected"
    assert reason in body["worked_example"]["reason"]
    assert body["worked_example"]["resolution"] is None
    assert body["answer"] != "Here is how it works."  # it quotes nothing: the offline answer


def test_a_plain_question_costs_one_call(client: TestClient, model: respx.Route) -> None:
    model.return_value = completion("Momentum is a resource.")
    body = client.post("/v1/rules/ask", json=ask("What is momentum for?")).json()
    assert body["narrated"]["calls"] == 1 and model.call_count == 1


def test_streamed_answers_mark_wrong_quotations_as_they_go(
    client: TestClient, model: respx.Route
) -> None:
    model.return_value = stream(
        ['It says "you may reroll any die you like" [P1]. ', "That is all."]
    )
    r = client.post(
        "/v1/rules/ask",
        json=ask("Can I reroll the challenge dice?"),
        headers={"accept": "text/event-stream"},
    )
    events = sse_events(r.text)
    assert events[0][0] == "mechanics" and events[0][1]["passages"]
    discard = next(i for i, (e, _) in enumerate(events) if e == "discard")
    shown = "".join(d["text"] for e, d in events[:discard] if e == "token")
    assert "[unverified]" in shown and "[P1]" not in shown
    # no verified quotation in the whole answer: withdrawn, and the offline answer follows
    final = events[-1][1]
    assert final["narrated"]["narrator"] == "offline" and "reroll any die" not in final["answer"]


def test_offline_rules_answers_quote_the_best_passages(tmp_path: Path) -> None:
    with TestClient(offline_app(tmp_path)) as c:
        body = c.post("/v1/rules/ask", json=ask("What happens when I burn momentum?")).json()
    assert body["narrated"]["narrator"] == "offline" and body["covered"] is None
    assert body["quotations"] and all(q["verified"] for q in body["quotations"])
    assert "momentum" in body["answer"].lower()


def test_a_rule_the_engine_applies_is_answered_from_its_ruling(tmp_path: Path) -> None:
    # Issue 16: "What happens if I burn momentum on a weak hit?" got a companion's and a
    # vehicle's weak hits. The Sundered Isles text defers burning to Starforged; the engine's
    # ruling (GET /v1/systems: burn_momentum) answers, with the sentence it reads.
    with TestClient(offline_app(tmp_path)) as c:
        body = c.post("/v1/rules/ask",
                      json=ask("What happens if I burn momentum on a weak hit?")).json()  # fmt: skip
    assert body["answer"].startswith("fateweaver's rules engine applies this ruling: Burning")
    assert "a weak hit a strong hit" in body["answer"]
    quotation = body["quotations"][0]
    assert (
        quotation["verified"]
        and quotation["text"] == "You may not burn momentum on a progress move"
    )
    # and at most one sentence of the text besides, verified
    assert len(body["quotations"]) <= 2 and all(q["verified"] for q in body["quotations"])
    assert body["passages"][0]["citation"] == {"source": "sundered_isles.md",
                                               "heading": "QUICK REFERENCE"}  # fmt: skip


def test_a_moves_outcome_is_answered_with_that_bands_text(tmp_path: Path) -> None:
    # Strike: "On a strong hit, mark progress twice. You dominate your foe and stay in control."
    with TestClient(offline_app(tmp_path)) as c:
        body = c.post("/v1/rules/ask", json=ask("What does a strong hit on Strike do?")).json()
    assert body["answer"].startswith(
        'Strike, on a strong hit: "On a strong hit, mark progress twice. You dominate your foe'
    )
    assert body["quotations"][0]["verified"] is True


def test_the_model_gets_the_ruling_as_the_first_passage(
    client: TestClient, model: respx.Route
) -> None:
    model.return_value = completion("It replaces the action score [P1].")
    client.post("/v1/rules/ask", json=ask("Can I burn momentum on a progress roll?"))
    text = prompt_text(model.calls.last.request)
    first = text.split('<passage id="P1"', 1)[1].split("</passage>", 1)[0]
    assert "Burning momentum replaces the action score" in first


def test_an_offline_answer_works_its_example_out_with_the_engine(tmp_path: Path) -> None:
    # Sundered Isles, Face Danger: "On a weak hit, you succeed, but not without a cost."
    # 5 + 2 = 7 beats 3 but not 8: a weak hit, computed by the engine, not by the answer's words.
    with TestClient(offline_app(tmp_path)) as c:
        body = c.post("/v1/rules/ask", json=ask(ROLL_QUESTION)).json()
    example = body["worked_example"]
    assert example["status"] == "resolved"
    assert example["proposal"] == {
        "kind": "move",
        "params": {"move": "face_danger", "stat": "edge", "stat_value": 2},
        "dice": [5, 3, 8],
    }
    assert example["resolution"]["outcome"] == "weak_hit"
    assert example["resolution"]["scores"]["action_score"] == 7
    assert (
        "Worked example, resolved by fateweaver's rules engine: Face Danger: weak hit"
        in (body["answer"])
    )
    assert "action score 7" in body["answer"]


def test_an_offline_example_the_engine_refuses_is_not_shown(tmp_path: Path) -> None:
    question = "I Face Danger with +2 edge and rolled 5, 3, 8 and 9. What happens?"
    with TestClient(offline_app(tmp_path)) as c:
        body = c.post("/v1/rules/ask", json=ask(question)).json()
    assert body["worked_example"]["status"] == "rejected"
    assert "too many dice" in body["worked_example"]["reason"]
    assert "Worked example" not in body["answer"]


@pytest.mark.parametrize(
    ("system", "question", "proposal", "outcome", "said"),
    [
        # Storyteller: "The storyteller announces the difficulty and the players roll their
        # dice pools." 10 and 7 are successes at 6, the 1 cancels one: net 1.
        (
            "storyteller",
            "I roll 5 dice at difficulty 6 and get 10 7 1 3 2. How did I do?",
            {"kind": "simple", "params": {"pool": 5, "difficulty": 6}, "dice": [10, 7, 1, 3, 2]},
            "success",
            "net 1",
        ),
        # Roll Under: "If so, you roll an extra d20 and take the lowest single result of the
        # two dice." 4 is under 12: the save succeeds.
        (
            "roll_under",
            "I make a Finesse 12 save with advantage and roll 15 and 4. Do I make it?",
            {
                "kind": "save",
                "params": {"ability": "finesse", "score": 12, "advantage": True},
                "dice": [15, 4],
            },
            "success",
            "roll 4, score 12",
        ),
        # Roll Under, with disadvantage the highest of the two: 12 is not under 10.
        (
            "roll_under",
            "I make a Brawn save with disadvantage, my brawn is 10, and roll 3 and 12.",
            {
                "kind": "save",
                "params": {"ability": "brawn", "score": 10, "disadvantage": True},
                "dice": [3, 12],
            },
            "failure",
            "roll 12, score 10",
        ),
        # Go Forth: "The GM sets a baseline TN for the scene"; d20 12 + 3 = 15 against TN 13.
        (
            "go_forth",
            "I make a check with +3 against TN 13 and roll 12 on the d20. Do I succeed?",
            {"kind": "check", "params": {"tn": 13, "roll_bonus": 3}, "dice": [12]},
            "success",
            "total 15, tn 13",
        ),
    ],
)
def test_offline_examples_of_games_without_moves_are_worked_by_the_engine(
    tmp_path: Path,
    system: str,
    question: str,
    proposal: dict[str, object],
    outcome: str,
    said: str,
) -> None:
    body = {"system": system, "messages": [{"role": "user", "content": question}]}
    with TestClient(offline_app(tmp_path)) as c:
        answer = c.post("/v1/rules/ask", json=body).json()
    example = answer["worked_example"]
    assert example["status"] == "resolved" and example["proposal"] == proposal
    assert example["resolution"]["outcome"] == outcome
    assert "Worked example, resolved by fateweaver's rules engine" in answer["answer"]
    assert said in answer["answer"]


def test_a_roll_question_that_says_too_little_gets_no_example(tmp_path: Path) -> None:
    # "Does a 10 on a die always count?" names no difficulty: nothing to work out.
    body = {"system": "storyteller",
            "messages": [{"role": "user", "content": "Does a 10 on a die always count?"}]}  # fmt: skip
    with TestClient(offline_app(tmp_path)) as c:
        answer = c.post("/v1/rules/ask", json=body).json()
    assert answer["worked_example"]["status"] == "none"
    assert "Worked example" not in answer["answer"]


def test_a_ruling_reading_a_sentence_with_quotation_marks_is_quoted_verified(
    tmp_path: Path,
) -> None:
    # Storyteller, Difficulties: "A “10” is always a success." Quoted whole, its own quotation
    # marks would end the quotation at "A "; its longest part outside them is quoted instead.
    body = {"system": "storyteller",
            "messages": [{"role": "user", "content": "Does a 10 on a die always count?"}]}  # fmt: skip
    with TestClient(offline_app(tmp_path)) as c:
        answer = c.post("/v1/rules/ask", json=body).json()
    assert answer["answer"].startswith("fateweaver's rules engine applies this ruling")
    assert {"text": "is always a success.", "verified": True}.items() <= answer["quotations"][
        0
    ].items()


def test_offline_sentences_are_chosen_by_the_questions_content_words(tmp_path: Path) -> None:
    # Go Forth: "Each Heart = 10 Effort". "How much" is no reason to quote "how much progress".
    body = {"system": "go_forth",
            "messages": [{"role": "user", "content": "How much Effort is one Heart worth?"}]}  # fmt: skip
    with TestClient(offline_app(tmp_path)) as c:
        answer = c.post("/v1/rules/ask", json=body).json()
    assert "Each Heart = 10 Effort" in answer["answer"]
    assert all(q["verified"] for q in answer["quotations"])


def test_an_outcome_that_sends_to_a_table_is_answered_with_its_rows(tmp_path: Path) -> None:
    # Elegy, Perform Ritual: "On a miss, the ritual consumes your blood and has undesired
    # consequences. Spend 1 blood roll on the list below." The list: "The ritual has the
    # opposite effect", ... (the engine's ritual_miss table).
    body = {"system": "elegy", "messages": [
        {"role": "user", "content": "What happens if I miss when performing a ritual?"}]}  # fmt: skip
    with TestClient(offline_app(tmp_path)) as c:
        answer = c.post("/v1/rules/ask", json=body).json()
    assert answer["answer"].startswith("Perform Ritual, on a miss:")
    assert '"1-20: The ritual has the opposite effect" [P2]' in answer["answer"]
    assert answer["passages"][1]["text"].startswith("Table: Ritual miss (roll d100).")
    assert len(answer["quotations"]) == 6 and all(q["verified"] for q in answer["quotations"])
