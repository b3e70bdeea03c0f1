"""The OpenAPI document is the contract: schemathesis, with every check, over every operation.

Runs what ``schemathesis run URL --checks all`` runs (examples, coverage and fuzzing of every
operation, valid and invalid data; then stateful scenarios along the links it infers) over the
in-process app, bounded to about a minute. Rules search answers from a fake index, so that no
model is loaded; the contract is the same.

One refinement, and only for a 422 answered to data the schema allows: a request schema states
a request's shape exactly, but not the game's rules (which dice a roll consumes, momentum at most
10 less impacts, names given once...). Such a 422 passes only when the engine (``rules/``) raised
the very error answered; a 422 from the service's own validation of a schema-valid request fails
as ``positive_data_acceptance`` would.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any
from unittest.mock import patch

import schemathesis
from fastapi import FastAPI, Request, Response
from hypothesis import HealthCheck, settings
from hypothesis.errors import FlakyStrategyDefinition
from schemathesis.openapi.checks import RejectedPositiveData
from schemathesis.specs.openapi.checks import negative_data_rejection, positive_data_acceptance

from rules.errors import RulesError
from service.app import create_app
from service.retrieval import Retrieval
from service.settings import Settings
from tests.vectorstore.fakes import memory_library

EXAMPLES = int(os.environ.get("CONTRACT_EXAMPLES", "25"))  # fuzzing cases per operation
STATEFUL_EXAMPLES = int(os.environ.get("CONTRACT_STATEFUL_EXAMPLES", "20"))


class EngineRefusals:
    """Wraps the app's RulesError handler: the last rules error answered, and where it was raised."""

    def __init__(self) -> None:
        self.last: tuple[str, RulesError] | None = None  # (module that raised it, the error)

    def wrap(self, app: FastAPI) -> None:
        handler = app.exception_handlers[RulesError]

        async def recording(request: Request, exc: Exception) -> Response:
            assert isinstance(exc, RulesError)
            tb = exc.__traceback__
            while tb is not None and tb.tb_next is not None:
                tb = tb.tb_next
            module = tb.tb_frame.f_globals.get("__name__", "") if tb is not None else ""
            self.last = (module, exc)
            response: Response = await handler(request, exc)
            return response

        app.exception_handlers[RulesError] = recording


REFUSALS = EngineRefusals()


def _refused_by_engine(body: Any) -> bool:
    """Whether this answer is a rules error the engine itself raised."""
    if REFUSALS.last is None:
        return False
    module, error = REFUSALS.last
    answered = {"error": {"message": error.message, "field": error.field}}
    return module.startswith("rules.") and body == answered


def accepts_schema_valid_data(ctx: Any, response: Any, case: schemathesis.Case) -> bool | None:
    """``positive_data_acceptance``, except for a rule of the game the engine enforced."""
    try:
        return positive_data_acceptance(ctx, response, case)
    except RejectedPositiveData:
        if response.status_code == 422 and _refused_by_engine(response.json()):
            return None
        raise


def rejects_schema_invalid_data(ctx: Any, response: Any, case: schemathesis.Case) -> bool | None:
    """``negative_data_rejection``, with a 413 (a body over ``max_body_bytes``, documented on
    every operation with a body) counted as the rejection it is: an invalid body generated
    larger than the limit (the chat facade's history can be long) is refused before it is read."""
    if response.status_code == 413:
        return None
    return negative_data_rejection(ctx, response, case)


CHECKS: dict[str, Any] = {
    "excluded_checks": [positive_data_acceptance, negative_data_rejection],
    "additional_checks": [accepts_schema_valid_data, rejects_schema_invalid_data],
}


def _app(data: Path) -> FastAPI:
    settings_ = Settings(data_dir=data, retrieval_warm_start=False, rate_limit="")
    app = create_app(settings_)
    library, _, _ = memory_library(data)
    library.add_text("Crimson blows deal double harm.", source="house.md", system=None, house=True)
    library.add_text("Luck: roll 2d6 under it.", source="mine.md", system="my_game")
    app.state.retrieval = Retrieval(settings_, library=library)
    # Built before the first request: the error handlers are in place, not yet in the middleware.
    REFUSALS.wrap(app)
    return app


# Loaded when the module is collected: schemathesis' lazy fixture loader does not work with
# pytest 9.2 (it sets the node's `_nodeid`). The default configuration, whatever
# schemathesis.toml the working directory holds.
_DATA = Path(tempfile.mkdtemp(prefix="fateweaver-contract-"))
atexit.register(shutil.rmtree, _DATA, ignore_errors=True)  # also when no test here is selected
schema = schemathesis.openapi.from_asgi("/openapi.json", _app(_DATA), config=schemathesis.Config())


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
def test_operation_keeps_its_contract(case: schemathesis.Case) -> None:
    REFUSALS.last = None
    case.call_and_validate(**CHECKS)


def test_stateful_scenarios_keep_the_contract() -> None:
    base = schema.as_state_machine()

    class Workflow(base):  # type: ignore[valid-type, misc]
        def before_call(self, case: schemathesis.Case) -> None:
            REFUSALS.last = None

        def validate_response(self, response: Any, case: schemathesis.Case, **kwargs: Any) -> None:
            case.validate_response(
                response,
                **CHECKS,
                transport_kwargs=kwargs or None,
                recorder=getattr(self, "recorder", None),
            )

    # The app is one, its database shared by every scenario, and Hypothesis replays a
    # scenario's prefix expecting the same answers: a list of sessions that grew meanwhile
    # draws differently and Hypothesis stops with FlakyStrategyDefinition (seen before this
    # change too: 3 runs in 5 at 40 examples). That is no answer breaking the contract (a
    # broken check fails as itself), so a scenario set that hits it is run again, twice at most.
    # One seed for every roll given none keeps what the app can make deterministic so.
    for attempt in range(3):
        try:
            with patch("rules.registry.secrets.randbits", return_value=424242):
                Workflow.run(
                    settings=settings(
                        max_examples=STATEFUL_EXAMPLES,
                        deadline=None,
                        suppress_health_check=list(HealthCheck),
                        stateful_step_count=6,
                    )
                )
            return
        except FlakyStrategyDefinition:
            if attempt == 2:
                raise
