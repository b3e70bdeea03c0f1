"""The four narrated tasks: oracle, spark, narrate and the rules chat.

Each task is prepared synchronously (the engine resolves, retrieval finds passages; a bad request
fails here, before any model call) and then told by ``runner.narrate``. A prepared task knows its
mechanics (sent first when streaming) and how to build its final response from the runner's
``Done``.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from prompts import RenderedPrompt, get_prompt
from rules.errors import RulesError
from rules.models import Resolution
from rules.registry import GameSystem, get_system, resolve_roll
from service.narrator import facts, knowledge, offline
from service.narrator.catalogue import catalogue
from service.narrator.grammar import continuation_gbnf
from service.narrator.guard import GuardCheck, GuardReport, expectation_from
from service.narrator.lead import CONTINUATION_ATTEMPTS, hero, narration_plan, spark_lead
from service.narrator.model import Calls, ChatModel, ModelError, parse_json_object
from service.narrator.quotes import check_quotations
from service.narrator.records import (
    AskRequest,
    AskResponse,
    Narrated,
    NarrateRequest,
    NarrateResponse,
    OracleRequest,
    OracleResponse,
    PassageRef,
    SparkRequest,
    SparkResponse,
    WorkedExample,
)
from service.narrator.runner import Done, Narration, Token, guard_for
from vectorstore.library import Library
from vectorstore.models import Passage

Search = Callable[[str, str | None, int], list[Passage]]
NOT_COVERED = "NOT COVERED"
NOT_COVERED_PREAMBLE = (
    "The rulebook passages found do not answer this, so no answer is given from memory."
)
NO_PASSAGES = "No passage of the indexed rulebooks matches this question."


def _refs(passages: list[Passage]) -> list[PassageRef]:
    return [
        PassageRef(tag=f"P{i}", citation=p.citation, text=p.text) for i, p in enumerate(passages, 1)
    ]


def _asked_numbers(*texts: str | None) -> set[int]:
    return {int(n) for t in texts if t for n in re.findall(r"\d+", t)}


@dataclass(kw_only=True)
class Task(Narration):
    """A prepared task: a narration with its mechanics and how its final response is built."""

    finish: Callable[[str, Narrated], BaseModel]
    mechanics: dict[str, Any]

    async def run(self) -> BaseModel:
        done: Done | None = None
        async for event in self.events(stream=False):
            if isinstance(event, Done):
                done = event
        assert done is not None
        return self.finish(done.text, done.narrated)


# --- the oracle ------------------------------------------------------------------------------


def prepare_oracle(req: OracleRequest, model: ChatModel | None, search: Search) -> Task:
    system = get_system(req.system)
    resolution = resolve_roll(system.id, "oracle", {"odds": req.odds}, dice=req.dice, seed=req.seed)
    passages = search(f"ask the oracle yes no {req.odds.replace('_', ' ')} match", system.id, 2)
    expect = expectation_from(
        resolution,
        extra_numbers=_asked_numbers(req.question, req.context),
        question=req.question,
    )

    def prompt(correction: str) -> RenderedPrompt:
        return get_prompt("oracle").render(
            system_name=system.name,
            question=facts.delimit(req.question),
            answer=facts.oracle_answer(resolution, req.odds),
            passages=facts.passages_block(passages, limit=700),
            context=facts.delimit(req.context or "(none given)"),
            correction=correction,
            first_word="Yes" if resolution.outcome == "yes" else "No",
        )

    def finish(text: str, narrated: Narrated) -> OracleResponse:
        return OracleResponse(
            system=system.id, question=req.question, answer=resolution.outcome,  # type: ignore[arg-type]
            match=bool(resolution.match), resolution=resolution, narration=text,
            narrated=narrated, passages=_refs(passages),
        )  # fmt: skip

    return Task(
        model=model, prompt=prompt, check=guard_for(expect), finish=finish,
        offline=offline.oracle(system, req.question, resolution, req.odds),
        mechanics={"resolution": resolution.model_dump(mode="json"),
                   "answer": resolution.outcome, "match": bool(resolution.match)},
    )  # fmt: skip


# --- a spark: one of the system's tables, interpreted -----------------------------------------


# A spark's words after its lead (the rows, said by code): asked for two to four sentences, a
# small model wrote up to eight, and its later sentences held most of the sparks'
# contradictions that reached the player in runs 12-16 ("You quickly gather your belongings",
# "you was excited to begin"). One is kept, as after a narration's lead.
SPARK_SENTENCES = 1
# ... and held by the continuation's grammar (grammar.py: no "you", no noun for the character):
# the prompt says so in words ('Begin it with "The", "A" or a name, never with "You"'), and 4 of
# the 91 sparks shown in runs 29-44 were told through "you" all the same ("You are chased by a
# pack of wolves" for "You are separated from something or someone", run 43; "as you carefully
# inspect the engine", run 43).


def prepare_spark(req: SparkRequest, model: ChatModel | None, search: Search) -> Task:
    system = get_system(req.system)
    table = system.table(req.table)
    resolution = resolve_roll(system.id, "table", {"table": table.id}, seed=req.seed)
    rows = facts.table_rows(resolution)
    passages = search(table.name, system.id, 2)
    lead = spark_lead(table.name, rows)
    expect = expectation_from(
        resolution, character=req.character, extra_numbers=_asked_numbers(req.situation)
    ).model_copy(update={"lead": lead})

    def prompt(correction: str) -> RenderedPrompt:
        # no passages: the model copied the move's options list from them ("- Make the most
        # obvious negative outcome happen", run 21); the rows are in the lead
        return get_prompt("table").render(
            system_name=system.name,
            lead=lead,
            situation=facts.delimit(req.situation or "(none given)"),
            hero=hero(req.character),
            correction=correction,
        )

    def finish(text: str, narrated: Narrated) -> SparkResponse:
        return SparkResponse(
            system=system.id, table=table.id, rows=rows, resolution=resolution,
            narration=text, narrated=narrated, passages=_refs(passages),
        )  # fmt: skip

    return Task(
        model=model, prompt=prompt, check=guard_for(expect), finish=finish,
        offline=offline.spark(resolution, req.situation),
        mechanics={"resolution": resolution.model_dump(mode="json"), "rows": rows},
        lead=lead, most_sentences=SPARK_SENTENCES, attempts=CONTINUATION_ATTEMPTS,
        grammar=continuation_gbnf(req.character, game=system.name),
    )  # fmt: skip


# --- narrate a resolution of POST /v1/rolls ---------------------------------------------------


class ResolutionConflict(Exception):
    """A well-formed resolution that the engine did not produce (a 409: it conflicts with the
    engine's record, which is the only record the narrator tells)."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def replay(claimed: Resolution) -> Resolution:
    """The engine's own record of a resolution a caller hands back: its parameters re-resolved
    with its dice. The caller's copy is only a key; a changed outcome or die is refused."""
    try:
        record = resolve_roll(
            claimed.system, claimed.kind, dict(claimed.params), dice=claimed.dice_values()
        )
    except RulesError as exc:
        field = f"resolution.{exc.field}" if exc.field else "resolution"
        raise ResolutionConflict(
            f"the resolution does not replay in the engine: {exc.message}", field
        ) from None
    mine = record.model_dump(exclude={"seed"})
    theirs = claimed.model_dump(exclude={"seed"})
    differing = [k for k in mine if mine[k] != theirs.get(k)]
    if differing:
        raise ResolutionConflict(
            "the resolution is not the engine's: replaying its parameters and dice gives a "
            f"different {', '.join(differing)} (outcome {record.outcome!r}); send it as "
            "POST /v1/rolls returned it",
            f"resolution.{differing[0]}",
        )
    return record.model_copy(update={"seed": claimed.seed})


def prepare_narration(req: NarrateRequest, model: ChatModel | None, search: Search) -> Task:
    resolution = replay(req.resolution)
    system = get_system(resolution.system)
    heading = resolution.citation.heading.split(">")[-1].strip()
    passages = search(f"{heading} {facts.outcome_words(resolution)}", system.id, 2)
    expect = expectation_from(
        resolution,
        character=req.character,
        extra_numbers=_asked_numbers(req.action, req.context),
        action=req.action,
    )

    plan = narration_plan(
        system_name=system.name, character=req.character or "unnamed", action=req.action,
        resolution=resolution, expect=expect, context=req.context or "(none given)",
    )  # fmt: skip

    def finish(text: str, narrated: Narrated) -> NarrateResponse:
        return NarrateResponse(
            resolution=resolution, narration=text, narrated=narrated, passages=_refs(passages)
        )

    return Task(
        model=model, prompt=plan.prompt, check=guard_for(plan.judged(expect)), finish=finish,
        offline=offline.narration(resolution, req.action),
        lead=plan.lead, most_sentences=plan.most_sentences, grammar=plan.grammar,
        attempts=CONTINUATION_ATTEMPTS if plan.lead else 2,
        mechanics={"resolution": resolution.model_dump(mode="json")},
    )  # fmt: skip


# --- the rules chat ----------------------------------------------------------------------------

# A question that describes a concrete roll: dice words and at least one number.
_ROLL_WORDS = re.compile(
    r"\b(roll(ed|s)?|dice|die|d\d+|action die|challenge dice|pool|save)\b", re.IGNORECASE
)


def describes_roll(question: str) -> bool:
    return bool(_ROLL_WORDS.search(question)) and bool(re.search(r"\d", question))


class RollProposal(BaseModel):
    kind: str | None
    params: dict[str, Any] = {}
    dice: list[int] | None = None


async def propose_roll(
    model: ChatModel, system: GameSystem, question: str, calls: Calls
) -> WorkedExample:
    """At most one model call: the roll as JSON, validated and resolved by the engine."""
    prompt = get_prompt("roll_proposal").render(
        system_name=system.name, catalogue=catalogue(system.id), question=facts.delimit(question)
    )
    try:
        reply = await model.complete(prompt, calls, json_reply=True)
        proposal = RollProposal.model_validate(parse_json_object(reply))
    except ModelError as exc:
        return WorkedExample(status="rejected", reason=exc.reason)
    except (ValueError, ValidationError):
        return WorkedExample(status="rejected", reason="the model's proposal was not valid JSON")
    if proposal.kind is None:
        return WorkedExample(status="none", reason="the model found no concrete roll")
    shown = proposal.model_dump()
    try:
        resolution = resolve_roll(system.id, proposal.kind, proposal.params, dice=proposal.dice)
    except RulesError as exc:
        return WorkedExample(
            status="rejected", proposal=shown, reason=f"the engine refused it: {exc.message}"
        )
    if proposal.dice is None:
        # The player gave no dice: an example rolled by the engine would answer a question
        # nobody asked, so it is not shown as theirs.
        return WorkedExample(
            status="rejected", proposal=shown, reason="the question gives no dice to resolve"
        )
    return WorkedExample(status="resolved", proposal=shown, resolution=resolution)


def _not_in_these_rules(req: AskRequest, passages: list[Passage], calls: Calls) -> Task:
    """No content word of the question is in any passage found: not in these rules, said
    without a model call (nothing there for a model to answer from)."""
    texts = sorted({p.citation.source for p in passages})
    answer = (
        "Not in these rules: nothing in the texts searched "
        f"({', '.join(texts)}) bears on this question."
    )

    def finish(text: str, narrated: Narrated) -> AskResponse:
        return AskResponse(
            question=req.question, system=req.system, answer=answer, covered=False,
            quotations=[], passages=[], worked_example=WorkedExample(status="none"),
            narrated=narrated.model_copy(
                update={"reason": "not in these rules: nothing for a model to answer from"}
            ),
        )  # fmt: skip

    return Task(
        model=None, prompt=lambda correction: None, offline=answer, check=None, finish=finish,
        mechanics={"passages": [], "worked_example": {"status": "none"}}, calls=calls,
    )  # fmt: skip


def _conversation(req: AskRequest) -> str:
    last_question = max(i for i, m in enumerate(req.messages) if m.role == "user")
    earlier = req.messages[:last_question][-6:]
    if not earlier:
        return "(none)"
    return "\n".join(f"{m.role}: {facts.delimit(m.content[:600])}" for m in earlier)


def _worked_text(example: WorkedExample) -> str:
    if example.resolution is None:
        return "(none)"
    r = example.resolution
    lines = [facts.resolution_brief(r)]
    if r.scores:
        lines.append("Scores: " + ", ".join(f"{k} {v}" for k, v in r.scores.items()))
    lines.append("Dice: " + ", ".join(f"{d.role} d{d.sides}={d.value}" for d in r.dice))
    return "\n".join(lines)


async def prepare_ask(req: AskRequest, model: ChatModel | None, library: Library) -> Task:
    question = req.question
    # A follow-up ("and on a miss?") is searched with the question before it.
    users = [m.content for m in req.messages if m.role == "user"]
    query = " ".join(users[-2:])[-1000:]
    passages = await asyncio.to_thread(library.search, query, system=req.system, k=4)
    calls = Calls()
    system_id = req.system or (passages[0].system if passages else None)
    # The engine's ruling or the move outcome the question asks for goes first (knowledge.py).
    known = knowledge.knowledge_passages(system_id, question, passages)
    passages = [*known, *(p for p in passages if p.id not in {k.id for k in known})][:5]
    similarity = None
    if passages and library.embedder_id in knowledge.SIMILARITY_FLOOR:
        similarity = await asyncio.to_thread(library.similarity, query, req.system)
    if passages and not knowledge.covers(
        query, passages, library.word_weight, system_id,
        similarity=similarity, embedder=library.embedder_id,
    ):  # fmt: skip
        return _not_in_these_rules(req, passages, calls)
    system = get_system(system_id) if system_id and system_id != "all" else None
    worked = WorkedExample(status="none")
    if model is not None and system is not None and describes_roll(question):
        worked = await propose_roll(model, system, question, calls)
    elif system is not None and describes_roll(question):
        worked = offline.worked_example(system, question)  # the engine, without a model
    system_name = system.name if system else "the games in the rulebooks"
    offline_text, _ = offline.rules_answer(
        question, passages, len(known), library.word_weight, worked.resolution
    )

    def prompt(correction: str) -> RenderedPrompt:
        return get_prompt("rules_answer").render(
            system_name=system_name,
            passages=facts.passages_block(passages),
            conversation=_conversation(req),
            question=facts.delimit(question),
            worked_example=_worked_text(worked),
            correction=correction,
        )

    def not_covered(text: str) -> str:
        if not text.lstrip().upper().startswith(NOT_COVERED):
            return text
        rest = text.lstrip()[len(NOT_COVERED) :].strip(" :.\n")
        return f"{NOT_COVERED_PREAMBLE} {rest}".strip()

    def shape(text: str, first: bool) -> str:
        return check_quotations(not_covered(text) if first else text, passages)[0]

    def accept(text: str) -> GuardReport:
        """A model's answer is shown only with a verified quotation of a passage, and never as
        "not covered" here: knowledge.covers judged the passages to cover the question (a small
        model began 4 of 6 covered answers "NOT COVERED"). Otherwise the offline answer."""
        if text.lstrip().upper().startswith(NOT_COVERED):
            reason = "it said the passages do not cover a question they cover"
        elif not any(q.verified for q in check_quotations(text, passages)[1]):
            reason = "it quotes no passage word for word"
        else:
            return GuardReport(passed=True, checks=[GuardCheck(id="quotation", passed=True)])
        failed = GuardCheck(id="quotation", passed=False, reason=reason)
        return GuardReport(passed=False, checks=[failed])

    def finish(text: str, narrated: Narrated) -> AskResponse:
        covered: bool | None = narrated.narrator == "model" or None
        if not passages:
            covered, text = False, NO_PASSAGES
        elif text.lstrip().upper().startswith(NOT_COVERED):
            covered = False
        marked, quotations = check_quotations(not_covered(text), passages)
        return AskResponse(
            question=question, system=req.system, answer=marked, covered=covered,
            quotations=quotations, passages=_refs(passages), worked_example=worked,
            narrated=narrated,
        )  # fmt: skip

    return Task(
        model=model, prompt=prompt, offline=offline_text, check=None, finish=finish,
        mechanics={"passages": [r.model_dump(mode="json") for r in _refs(passages)],
                   "worked_example": worked.model_dump(mode="json")},
        calls=calls, shape=shape, accept=accept if passages else None,
    )  # fmt: skip


__all__ = [
    "NOT_COVERED",
    "Task",
    "Token",
    "describes_roll",
    "prepare_ask",
    "prepare_narration",
    "prepare_oracle",
    "prepare_spark",
    "replay",
]
