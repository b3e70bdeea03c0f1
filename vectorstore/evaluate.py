"""Retrieval evaluation: recall@1, recall@5 and MRR for vector, keyword and hybrid (RRF; blend).

A question is answered at rank r when the r-th passage contains ``must_contain`` (case-insensitive,
markdown emphasis and whitespace normalised). Questions are asked with their ``system`` filter.
Usage: python -m vectorstore.evaluate [questions.json] [--data-dir DIR]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from vectorstore.library import Library
from vectorstore.models import Fusion, Mode

# The retrieval set the project was given, kept in the repository: a clone alone evaluates.
DEFAULT_QUESTIONS = Path(__file__).resolve().parent / "eval" / "rules_questions.json"
# (row name, mode, fusion): "hybrid" is reciprocal rank fusion; "hybrid-score" the blend, the
# service's default (FATEWEAVER_RETRIEVAL_FUSION).
RUNS: tuple[tuple[str, Mode, Fusion | None], ...] = (
    ("vector", "vector", None),
    ("keyword", "keyword", None),
    ("hybrid", "hybrid", "rrf"),
    ("hybrid-score", "hybrid", "score"),
)


def normalise(text: str) -> str:
    text = re.sub(r"[*_]+", "", text.lower())
    text = text.replace("’", "'").replace("“", '"').replace("”", '"')
    return re.sub(r"\s+", " ", text).strip()


def first_hit(passages: list[str], needle: str) -> int | None:
    n = normalise(needle)
    for rank, text in enumerate(passages, start=1):
        if n in normalise(text):
            return rank
    return None


def evaluate(library: Library, questions: list[dict], k: int = 10) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for name, mode, fusion in RUNS:
        ranks = []
        for q in questions:
            hits = library.search(q["q"], system=q.get("system"), k=k, mode=mode, fusion=fusion)
            ranks.append(first_hit([p.text for p in hits], q["must_contain"]))
        n = len(questions)
        out[name] = {
            "recall@1": sum(r == 1 for r in ranks) / n,
            "recall@5": sum(r is not None and r <= 5 for r in ranks) / n,
            "mrr": sum(1 / r for r in ranks if r) / n,
            "misses": [q["id"] for q, r in zip(questions, ranks, strict=True) if r != 1],  # type: ignore[dict-item]
        }
    return out


def main(argv: list[str] | None = None) -> int:
    from service.retrieval import build_library
    from service.settings import get_settings

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("questions", nargs="?", type=Path, default=DEFAULT_QUESTIONS)
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--show-misses", action="store_true")
    args = parser.parse_args(argv)
    settings = get_settings()
    if args.data_dir:
        settings = settings.model_copy(update={"data_dir": args.data_dir})
    library = build_library(settings)
    questions = json.loads(args.questions.read_text())
    results = evaluate(library, questions)
    sys.stdout.write(f"{len(questions)} questions from {args.questions.resolve()}\n")
    sys.stdout.write(f"{'mode':<13} {'recall@1':>9} {'recall@5':>9} {'MRR':>6}\n")
    for mode, r in results.items():
        sys.stdout.write(
            f"{mode:<13} {r['recall@1']:>9.3f} {r['recall@5']:>9.3f} {r['mrr']:>6.3f}\n"
        )
        if args.show_misses and r["misses"]:
            sys.stdout.write(f"              not first: {', '.join(r['misses'])}\n")  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
