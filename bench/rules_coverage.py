"""Whether the rules chat says "not in these rules" for exactly the questions the texts do not
answer: each question's lexical coverage (knowledge.coverage) and best similarity to a passage
(Library.similarity), over the index the service builds (MiniLM by default), for the covered
questions (the public, dev and held-out retrieval sets) and the uncovered ones
(tests/service/narrator/rules_chat_questions.yaml), with what the thresholds in
service/narrator/knowledge.py refuse. Then the offline rules chat itself (POST /v1/rules/ask, no
model) on that labelled set: covered questions answered with a verified quotation of the passage
that holds the answer, uncovered ones "Not in these rules". The suite scores the same set on the
tests' hashed embeddings; this is the service's own. Run: ``make bench-rules-coverage`` (builds
the index in ``FATEWEAVER_DATA_DIR`` the first time: a few minutes on a CPU).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, TextIO

import yaml
from fastapi.testclient import TestClient

from service.app import create_app
from service.narrator import knowledge
from service.narrator.quotes import normalise
from service.retrieval import Retrieval, build_library
from service.settings import get_settings
from vectorstore.library import Library

ROOT = Path(__file__).resolve().parent.parent
COVERED = (
    ROOT / "vectorstore" / "eval" / "rules_questions.json",
    ROOT / "tests" / "vectorstore" / "dev_questions.json",
    ROOT / "tests" / "vectorstore" / "heldout_questions.json",
)
UNCOVERED = ROOT / "tests" / "service" / "narrator" / "rules_chat_questions.yaml"


def main() -> int:
    library = build_library(get_settings())
    questions = [
        ("covered", q.get("system"), q["q"]) for f in COVERED for q in json.loads(f.read_text())
    ]
    chat = yaml.safe_load(UNCOVERED.read_text(encoding="utf-8"))
    for split in ("uncovered", "uncovered_heldout"):
        questions += [(split, q.get("system"), q["q"]) for q in chat[split]]
    floor = knowledge.SIMILARITY_FLOOR.get(library.embedder_id)
    rows = []
    for split, system, q in questions:
        found = library.search(q, system=system, k=4)
        known = knowledge.knowledge_passages(system, q, found)
        passages = [*known, *(p for p in found if p.id not in {k.id for k in known})][:5]
        cov = knowledge.coverage(q, passages, library.word_weight, system)
        sim = library.similarity(q, system)
        refused = not knowledge.covers(
            q, passages, library.word_weight, system, similarity=sim, embedder=library.embedder_id
        )
        rows.append((split, q, cov, sim, refused))
    out = sys.stdout
    out.write(f"embeddings {library.embedder_id}; coverage threshold "
              f"{knowledge.COVERAGE_THRESHOLD}, similarity floor {floor}\n")  # fmt: skip
    for split in ("covered", "uncovered", "uncovered_heldout"):
        mine = [r for r in rows if r[0] == split]
        n_refused = sum(r[4] for r in mine)
        lowest = min(r[3] for r in mine)
        out.write(f"{split:>17}: {len(mine)} questions, refused {n_refused}, "
                  f"lowest similarity {lowest:.3f}, lowest coverage {min(r[2] for r in mine):.2f}\n")  # fmt: skip
    out.write("answered although uncovered:\n")
    for split, q, cov, sim, refused in rows:
        if split != "covered" and not refused:
            out.write(f"  {q} (coverage {cov:.2f}, similarity {sim:.3f})\n")
    out.write("refused although covered:\n")
    for split, q, cov, sim, refused in rows:
        if split == "covered" and refused:
            out.write(f"  {q} (coverage {cov:.2f}, similarity {sim:.3f})\n")
    _offline_chat(library, chat, out)
    return 0


def _offline_chat(library: Library, chat: dict[str, list[dict[str, str]]], out: TextIO) -> None:
    settings = get_settings().model_copy(update={"narrator": "offline", "rate_limit": ""})
    app = create_app(settings)
    app.state.retrieval = Retrieval(settings, library=library)
    with TestClient(app) as client:

        def ask(q: dict[str, str]) -> Any:
            body = {"system": q["system"], "messages": [{"role": "user", "content": q["q"]}]}
            return client.post("/v1/rules/ask", json=body).json()

        def answers(body: Any, expect: str) -> bool:
            """A verified quotation whose passage holds the words that answer."""
            cited = {q["passage"] for q in body["quotations"] if q["verified"]}
            return any(
                normalise(expect) in normalise(p["text"])
                for i, p in enumerate(body["passages"], start=1)
                if i in cited
            )

        covered = chat["covered"]
        answered = sum(answers(ask(q), q["expect"]) for q in covered)
        out.write(
            f"offline rules chat: {answered}/{len(covered)} covered answered with a verified "
            "quotation of the answering passage\n"
        )
        for split in ("uncovered", "uncovered_heldout"):
            refused = sum(ask(q)["answer"].startswith("Not in these rules") for q in chat[split])
            out.write(f"offline rules chat: {refused}/{len(chat[split])} {split} refused\n")


if __name__ == "__main__":
    raise SystemExit(main())
