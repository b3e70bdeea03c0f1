"""Narrator prompt templates: one YAML file per narrator task, loaded into a strict model.

Each file declares its ``variables``; the templates use ``$name`` placeholders (``string.Template``,
so JSON braces in a prompt need no escaping). Loading fails when a template uses a variable it
does not declare, or declares one it never uses; rendering reports every missing variable at once.
Prompts hold words only: no model names, temperatures or other provider settings. A file may
also hold ``examples``: exchanges in our own words (a user turn and the reply wanted), sent to
the model as earlier turns before the request.

    oracle          interpret a yes/no oracle answer in the fiction
    table           continue a spark whose first sentence gives the rows rolled on a table
    narration       narrate a resolved move or roll for a described action
    narration_next  continue a narration whose first sentence (code's) tells the outcome
    rules_answer    answer a rules question from retrieved passages, quoting them
    roll_proposal   propose the engine roll a rules question describes, as JSON
    move_proposal   propose the move (and a game master's parameters) a player's words describe
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from string import Template
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

PromptName = Literal[
    "oracle", "table", "narration", "rules_answer", "roll_proposal", "move_proposal"
]
PROMPT_NAMES: tuple[PromptName, ...] = (
    "oracle",
    "table",
    "narration",
    "rules_answer",
    "roll_proposal",
    "move_proposal",
)


class PromptError(ValueError):
    """A template that does not match its declared variables, or a render missing some."""


class Example(BaseModel):
    """One worked exchange shown to the model before the request, as a user turn and the reply
    it should give (a small model follows a shown reply more closely than a rule in words)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    user: str
    assistant: str


class RenderedPrompt(BaseModel):
    model_config = ConfigDict(frozen=True)
    system: str
    user: str
    examples: tuple[Example, ...] = ()


class Prompt(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    description: str
    variables: list[str] = Field(description="every $variable the templates use, and no other")
    system: str = Field(description="the system message: the narrator's standing instructions")
    user: str = Field(description="the user message: the data of this one request")
    examples: tuple[Example, ...] = Field(
        (), description="exchanges sent before the user message, in our own words (no $variables)"
    )

    @model_validator(mode="after")
    def _declared_is_used(self) -> Prompt:
        used: set[str] = set()
        for part in (self.system, self.user):
            template = Template(part)
            if not template.is_valid():
                raise PromptError(f"prompt {self.name!r}: a '$' that is not a $variable")
            used.update(template.get_identifiers())
        declared = set(self.variables)
        problems = []
        if undeclared := sorted(used - declared):
            problems.append(f"uses undeclared {', '.join(undeclared)}")
        if unused := sorted(declared - used):
            problems.append(f"declares unused {', '.join(unused)}")
        if any("$" in e.user + e.assistant for e in self.examples):
            # an example is sent as it stands: a $variable in it would reach the model unrendered
            problems.append("an example holds a '$' (examples are our words, never rendered)")
        if problems:
            raise PromptError(f"prompt {self.name!r} " + "; ".join(problems))
        return self

    def render(self, **values: str) -> RenderedPrompt:
        missing = sorted(set(self.variables) - values.keys())
        extra = sorted(values.keys() - set(self.variables))
        if missing or extra:
            raise PromptError(
                f"prompt {self.name!r}: "
                + "; ".join(
                    part
                    for part in (
                        f"missing {', '.join(missing)}" if missing else "",
                        f"unexpected {', '.join(extra)}" if extra else "",
                    )
                    if part
                )
            )
        return RenderedPrompt(
            system=Template(self.system).substitute(values),
            user=Template(self.user).substitute(values),
            examples=self.examples,
        )


def load_prompt_text(name: str, text: str) -> Prompt:
    raw = yaml.safe_load(text)
    if not isinstance(raw, dict):
        raise PromptError(f"prompt {name!r}: expected a mapping")
    try:
        return Prompt.model_validate({"name": name, **raw})
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'prompt'}: {e['msg']}".replace(
                "Value error, ", ""
            )
            for e in exc.errors()
        )
        raise PromptError(problems) from None


@cache
def get_prompt(name: PromptName) -> Prompt:
    path = resources.files("prompts") / f"{name}.yaml"
    return load_prompt_text(name, path.read_text(encoding="utf-8"))


def all_prompts() -> list[Prompt]:
    return [get_prompt(name) for name in PROMPT_NAMES]
