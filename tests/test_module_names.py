"""No module binds one top-level name twice.

The guard is one long module of regular expressions; stop 30 gave two of them a name already
taken (``_FIRST_PERSON``, ``_CAPITALISED``), and the later silently replaced the earlier for every
reading that used it. Ruff flags a function defined twice, not a constant assigned twice.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MODULES = sorted(
    p for d in ("rules", "service", "vectorstore", "prompts") for p in (ROOT / d).rglob("*.py")
)


def _top_level_names(tree: ast.Module) -> Counter[str]:
    names: Counter[str] = Counter()
    for node in tree.body:
        if isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] += node.value is not None
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names[node.name] += 1
    return names


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_top_level_name_is_bound_twice(path: Path) -> None:
    names = _top_level_names(ast.parse(path.read_text(encoding="utf-8")))
    assert not [n for n, count in names.items() if count > 1]


def test_a_name_bound_twice_is_found() -> None:
    names = _top_level_names(ast.parse("A = 1\ndef f(): ...\nA = 2\n"))
    assert names["A"] == 2 and names["f"] == 1
