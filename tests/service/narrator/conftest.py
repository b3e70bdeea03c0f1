"""Shows the narration guard's and the rules chat's measured rates at the end of every test run."""

from __future__ import annotations

import pytest

GUARD_RATES = pytest.StashKey[dict[str, str]]()


@pytest.fixture
def guard_rates(request: pytest.FixtureRequest) -> dict[str, str]:
    """Where test_guard.py records one line per labelled split, for the terminal summary."""
    return request.config.stash.setdefault(GUARD_RATES, {})


@pytest.fixture
def chat_rates(request: pytest.FixtureRequest) -> dict[str, str]:
    """Where test_rules_chat_set.py records its figures, for the terminal summary."""
    return request.config.stash.setdefault(GUARD_RATES, {})


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    rates = terminalreporter.config.stash.get(GUARD_RATES, {})
    if rates:
        terminalreporter.section("narrator: labelled sets (the guard, the rules chat)")
        for line in rates.values():
            terminalreporter.write_line(line)
