"""Quotations are checked in code: verbatim in the cited passage once case, whitespace,
typographic quotes and markdown emphasis are normalised; otherwise marked and uncited."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from prompts import get_prompt
from rules.models import Citation
from service.narrator.quotes import PROMPT_PLACEHOLDER, check_quotations, normalise
from vectorstore.models import Passage

FACE_DANGER = (
    "When you attempt something risky or react to an imminent threat, envision your action and "
    "roll. On a **strong hit**, you are successful. Take +1 momentum. On a weak hit, you succeed, "
    "but not without a cost."
)


def passage(text: str, heading: str = "ADVENTURE MOVES > FACE DANGER") -> Passage:
    return Passage(
        id="p", system="sundered_isles", citation=Citation(source="s.md", heading=heading),
        score=1.0, text=text, start=0, end=len(text),
    )  # fmt: skip


P = [passage(FACE_DANGER), passage("Make a suffer move (-1).", "SUFFER MOVES")]


def test_exact_words_keep_their_citation() -> None:
    answer, (q,) = check_quotations('It says "you are successful. Take +1 momentum." [P1]', P)
    assert q.verified and q.citation == P[0].citation and answer.endswith("[P1]")


def test_case_spacing_curly_quotes_and_emphasis_do_not_matter() -> None:
    _, (q,) = check_quotations("“On a strong   HIT, you are successful.” [P1]", P)
    assert q.verified


def test_a_quotation_holding_quotes_of_its_own_is_one_quotation() -> None:
    # Storyteller: "A “10” is always a success." A model quoting that sentence whole was read
    # as no quotation at all, so its answer was refused.
    ten = [passage("A “10” is always a success.", "DICE")]
    _, (q,) = check_quotations("The rules say: “A “10” is always a success.” [P1]", ten)
    assert q.verified and q.text == "A “10” is always a success."
    _, quotes = check_quotations('"you are successful and more" or "Take +1 momentum." [P1]', P)
    assert [q.text for q in quotes] == ["you are successful and more", "Take +1 momentum."]


def test_words_not_in_the_cited_passage_lose_the_citation() -> None:
    answer, (q,) = check_quotations('"you are successful. Take +2 momentum." [P1]', P)
    assert not q.verified and q.citation is None
    assert "[unverified]" in answer and "[P1]" not in answer


def test_a_quotation_cited_to_the_wrong_passage_is_not_verified() -> None:
    _, (q,) = check_quotations('"you are successful. Take +1 momentum." [P2]', P)
    assert not q.verified


def test_an_uncited_quotation_is_found_in_any_passage() -> None:
    answer, (q,) = check_quotations('Then "make a suffer move (-1)."', P)
    assert q.verified and q.passage == 2 and "[P2]" in answer


def test_a_word_or_two_in_quotes_is_not_a_quotation() -> None:
    answer, quotes = check_quotations('A "weak hit" is a cost.', P)
    assert quotes == [] and answer == 'A "weak hit" is a cost.'


def test_marking_is_idempotent() -> None:
    once, _ = check_quotations('"you may reroll any die at all" [P1]', P)
    twice, _ = check_quotations(once, P)
    assert once == twice


@given(st.integers(0, len(FACE_DANGER) - 30), st.integers(20, 60))
def test_any_span_of_a_passage_is_verified(start: int, length: int) -> None:
    span = normalise(FACE_DANGER)[start : start + length].strip()
    if len(span.split()) < 3 or '"' in span:
        return
    _, quotes = check_quotations(f'"{span}" [P1]', P)
    assert quotes and all(q.verified for q in quotes)


def test_the_prompts_own_shape_of_a_quotation_is_left_out() -> None:
    # prompts/rules_answer.yaml shows the model the shape '"the passage's own words" [P1]'; runs
    # 73, 76 and 80 copied it before the real quotation, and it quotes nothing
    assert PROMPT_PLACEHOLDER in get_prompt("rules_answer").system
    copied = '"the passage\'s own words" [P1] "you are successful. Take +1 momentum." [P1]\n\nSo.'
    answer, quotations = check_quotations(copied, P)
    assert answer == '"you are successful. Take +1 momentum." [P1]\n\nSo.'
    assert [q.verified for q in quotations] == [True]
    # ... and a quotation that only mentions those words stays
    kept, _ = check_quotations('"the passage\'s own words were read aloud" [P1]', P)
    assert kept.startswith('"the passage\'s own words were read aloud"')
