"""Shows the narration guard's measured rates (test_guard.py) at the end of every test run."""

from __future__ import annotations

import pytest

GUARD_RATES = pytest.StashKey[dict[str, str]]()


@pytest.fixture
def guard_rates(request: pytest.FixtureRequest) -> dict[str, str]:
    """Where test_guard.py records one line per labelled split, for the terminal summary."""
    return request.config.stash.setdefault(GUARD_RATES, {})


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    rates = terminalreporter.config.stash.get(GUARD_RATES, {})
    if rates:
        terminalreporter.section("narration guard: labelled narrations")
        for line in rates.values():
            terminalreporter.write_line(line)
