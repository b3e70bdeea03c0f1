"""One narrated reply: ask the model, check what it says, retry once, or fall back offline.

The same generator serves a plain JSON response and a server-sent event stream, so the two can
never disagree. It yields ``Token`` (narration text the caller may show), ``Discard`` (the
tokens shown so far are withdrawn: the guard rejected them or the stream broke) and finally
``Done`` with the authoritative text and the ``Narrated`` record.

While streaming, text is released a sentence at a time, and only after the guard has passed the
whole text so far; so a contradiction is normally caught before any of it reaches the caller,
and when it is caught later the caller is told to discard what it has. A sentence the guard
rejects is held until the next one, which may qualify it ("You reach the ledge. But it
crumbles"); rejected twice in a row, the reply is.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field

from prompts import RenderedPrompt
from service.narrator.guard import Expectation, GuardReport, check_narration
from service.narrator.model import Calls, ChatModel, ModelError
from service.narrator.records import Narrated

NO_MODEL = "no model configured"


@dataclass(frozen=True)
class Token:
    text: str


@dataclass(frozen=True)
class Discard:
    reason: str


@dataclass(frozen=True)
class Done:
    text: str
    narrated: Narrated


Event = Token | Discard | Done
# A check of the text so far; None when it passes.
Check = Callable[[str], GuardReport]
# The guard over a narration: (text, complete). A prefix streamed so far is checked with
# complete=False: only what the text says is flagged, never what it has not said yet.
Guard = Callable[[str, bool], GuardReport]

# The end of a sentence: terminal punctuation (and closing quotes), then white space.
_BOUNDARY = re.compile(r"[.!?…][\"”’)]*\s+")


def _release_point(buffer: str) -> int:
    """How much of the buffer is whole sentences (outside an open quotation)."""
    last = 0
    for m in _BOUNDARY.finditer(buffer):
        head = buffer[: m.end()]
        if (head.count('"') % 2 == 0) and head.count("“") <= head.count("”"):
            last = m.end()
    return last


_ENDED = re.compile(r"[.!?…][\"”’)\]]*$")


def whole_sentences(text: str) -> str:
    """The text without a last sentence cut off mid-way (a reply stopped by the token limit:
    "The ghoul turned around and spotted you, but he"), when whole sentences come before it."""
    text = text.strip()
    if _ENDED.search(text):
        return text
    cut = _release_point(text)
    return text[:cut].strip() if cut else text


def _sentence_ends(text: str) -> list[int]:
    return [m.end() for m in _BOUNDARY.finditer(text + " ")]


def first_sentences(text: str, most: int) -> str:
    """The text's first ``most`` sentences (a continuation runs on past what was asked)."""
    ends = _sentence_ends(text)
    return text[: ends[most - 1]].strip() if len(ends) > most else text.strip()


def _squashed(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def without_echo(text: str, lead: str) -> str:
    """The model's continuation without the lead repeated at its start ("The first sentence:
    You leap ... You leap ...")."""
    if not lead:
        return text
    stripped = text.lstrip()
    for m in _BOUNDARY.finditer(stripped + " "):
        if _squashed(stripped[: m.end()]) == _squashed(lead):
            return stripped[m.end() :]
        break
    return text


class GuardFailed(Exception):
    def __init__(self, report: GuardReport) -> None:
        super().__init__(report.reason())
        self.report = report


@dataclass(kw_only=True)
class Narration:
    """One narrated reply, ready to run: plain (``stream=False``) or streamed."""

    model: ChatModel | None
    prompt: Callable[[str], RenderedPrompt]
    offline: str
    check: Guard | None
    calls: Calls = field(default_factory=Calls)
    shape: Callable[[str, bool], str] | None = None
    accept: Check | None = None
    lead: str = ""
    most_sentences: int | None = None
    attempts: int = 2
    grammar: str | None = None

    def events(self, *, stream: bool) -> AsyncIterator[Event]:
        return narrate(
            model=self.model, prompt=self.prompt, offline=self.offline, check=self.check,
            calls=self.calls, stream=stream, shape=self.shape, accept=self.accept,
            lead=self.lead, most_sentences=self.most_sentences, attempts=self.attempts,
            grammar=self.grammar,
        )  # fmt: skip


# What a retry asks for, by the check that failed: what to fix, never the rejected words (a
# model repeated "Your previous narration was rejected because..." to the player).
FIXES = {
    "outcome": "tell the outcome exactly as the engine's resolution gives it",
    "answer": "give the oracle's answer exactly as the engine decided it",
    "numbers": "mention no number but those the facts give, and no change they do not list",
    "player_agency": 'never make "you" speak, decide, choose, act or feel',
    "changes": "claim no gain or loss but the state changes the facts list, with their amounts",
    "names": "name only the move and the stat the facts give",
    "form": "write only the story, in plain prose to you: no tags, headings or labels",
}


def retry_instruction(failed: Sequence[str], *, continuing: bool = False) -> str:
    """``continuing``: after a code's lead, where "the narration again" made a model write the
    lead again and nothing else (run 13: 7 empty replies of 25 retries)."""
    fixes = "; ".join(FIXES.get(check, check) for check in failed) or "follow the rules above"
    if continuing:
        return (
            f"\nWrite a different next sentence (not the first one again), and this time: {fixes}."
        )
    return f"\nWrite the narration again, and this time: {fixes}."


def guard_for(expectation: Expectation | None) -> Guard | None:
    if expectation is None:
        return None
    return lambda text, complete: check_narration(text, expectation, complete=complete)


async def narrate(
    *,
    model: ChatModel | None,
    prompt: Callable[[str], RenderedPrompt],
    offline: str,
    check: Guard | None,
    calls: Calls,
    stream: bool,
    shape: Callable[[str, bool], str] | None = None,
    accept: Check | None = None,
    lead: str = "",
    most_sentences: int | None = None,
    attempts: int = 2,
    grammar: str | None = None,
) -> AsyncIterator[Event]:
    """``prompt(correction)`` renders the task's prompt; the correction is empty the first time
    and names the guard's reason on the retry. ``shape(text, first)`` rewrites each piece of
    model text before it is shown (the rules chat marks unverified quotations with it).
    ``accept(whole)`` judges the finished reply only (never a prefix): one it refuses is not
    asked for again, the offline text is shown instead (the rules chat: no verified quotation,
    no answer). ``lead`` is a first sentence written by code (service/narrator/lead.py): it is
    shown before the model's words, checked with them, and a repeat of it by the model is
    dropped; ``most_sentences`` caps the model's words (a continuation asked for one sentence
    ran on to five). ``attempts``: 2 asks again once after a guard failure, 1 never does.
    ``grammar`` (GBNF) constrains the model's words where the server takes one (grammar.py)."""
    before = f"{lead} " if lead else ""

    def show(text: str, first: bool) -> str:
        text = before + text if first else text
        return shape(text, first) if shape is not None else text

    def judged(text: str, complete: bool) -> GuardReport | None:
        return check(before + text, complete) if check is not None else None

    if model is None:
        yield Token(offline)
        yield Done(offline, Narrated(narrator="offline", reason=NO_MODEL, calls=0))
        return

    rejected: list[str] = []
    correction = ""
    fallback_reason = ""
    last_report: GuardReport | None = None
    for attempt in range(1, attempts + 1):
        released = ""
        held: GuardReport | None = None
        try:
            buffer = ""
            replies = model.stream(prompt(correction), calls, grammar=grammar) if stream else None
            if replies is None:
                buffer = await model.complete(prompt(correction), calls, grammar=grammar)
            else:
                async for delta in replies:
                    buffer += delta
                    if not released:
                        buffer = without_echo(buffer, lead)
                    cut = _release_point(buffer)
                    if cut:
                        candidate = released + buffer[:cut]
                        report = judged(candidate, False)
                        if report is not None and not report.passed:
                            if held is not None:
                                await replies.aclose()  # type: ignore[attr-defined]
                                raise GuardFailed(report)
                            # Held, not failed: the next sentence may qualify this one ("You
                            # reach the ledge. But it crumbles..."); two in a row fail.
                            held = report
                            continue
                        held = None
                        yield Token(show(buffer[:cut], not released))
                        released, buffer = candidate, buffer[cut:]
                        if most_sentences and len(_sentence_ends(released)) >= most_sentences:
                            await replies.aclose()  # type: ignore[attr-defined]
                            buffer = ""
                            break
            if check is not None:
                # a narration's last sentence cut off by the token limit is not shown
                if replies is None:
                    buffer = whole_sentences(without_echo(buffer, lead))
                elif released and not _ENDED.search(buffer.strip()):
                    buffer = ""
            if most_sentences and replies is None:
                buffer = first_sentences(buffer, most_sentences)
            said = (released + buffer).strip()
            if not said:
                raise ModelError("the model's reply was empty")
            full = before + said
            report = judged(said, True)
            if report is not None and not report.passed:
                raise GuardFailed(report)
            verdict = accept(full) if accept is not None else None
            if verdict is not None and not verdict.passed:
                last_report = verdict
                rejected.append(f"attempt {attempt}: {verdict.reason()}")
                if released:
                    yield Discard(f"the reply was not accepted: {verdict.reason()}")
                fallback_reason = f"the model's reply was not accepted: {verdict.reason()}"
                break
            if buffer.strip():
                yield Token(show(buffer, not released))
            yield Done(
                full,
                Narrated(
                    narrator="model",
                    reason="model",
                    model=model.name,
                    calls=calls.count,
                    guard=report,
                    rejected=rejected,
                ),
            )
            return
        except GuardFailed as failed:
            last_report = failed.report
            reason = failed.report.reason()
            rejected.append(f"attempt {attempt}: {reason}")
            if released:
                yield Discard(f"the narration failed the guard: {reason}")
            if attempt < attempts:
                correction = retry_instruction(failed.report.failed, continuing=bool(lead))
                continue
            fallback_reason = (
                f"the model's narration failed the {', '.join(failed.report.failed)} check"
                + (" twice" if attempts == 2 else "")
            )
        except ModelError as exc:
            if released:
                yield Discard(exc.reason)
            fallback_reason = exc.reason
            break
    yield Token(offline)
    yield Done(
        offline,
        Narrated(
            narrator="offline",
            reason=fallback_reason,
            model=model.name,
            calls=calls.count,
            guard=last_report,
            rejected=rejected,
        ),
    )
