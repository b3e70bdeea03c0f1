"""The session routes: create (a sheet validated by its system), list, get, rename, end, delete."""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rules.registry import GameSystem, get_system
from service.sessions import schemas
from tests.service.sessions.conftest import EXAMPLE_SHEETS, create, systems_with_sheets


@pytest.mark.parametrize("system", systems_with_sheets())
def test_a_session_starts_with_the_validated_sheet(client: TestClient, system: str) -> None:
    sheet = EXAMPLE_SHEETS[system]
    created = create(client, system, sheet, name="The drowned lighthouse")
    validated = get_system(system).sheet.validate(sheet).model_dump(mode="json")  # type: ignore[union-attr]
    assert created["state"] == {"sheet": validated, "tracks": {}, "clocks": {}}
    assert (created["system"], created["name"], created["status"]) == (
        system,
        "The drowned lighthouse",
        "active",
    )
    assert (created["summary"], created["turns"]) == ("", 0)
    assert datetime.fromisoformat(created["created_at"]).utcoffset() is not None
    assert client.get(f"/v1/sessions/{created['id']}").json() == created
    assert client.get("/v1/sessions").json() == [created]


def test_a_bad_sheet_field_is_a_422_naming_it(
    client: TestClient, sheet_system: tuple[str, dict[str, Any]]
) -> None:
    system, sheet = sheet_system
    response = client.post(
        "/v1/sessions",
        json={"system": system, "name": "x", "sheet": {**sheet, "charisma_bonus": 3}},
    )
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "sheet.charisma_bonus"
    assert client.get("/v1/sessions").json() == []


@pytest.mark.skipif(
    "sundered_isles" not in systems_with_sheets(), reason="Sundered Isles has no sheet yet"
)
@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"health": 6}, "sheet.health"),  # a meter out of range (0..5)
        ({"stats": {"edge": 1, "heart": 2, "iron": 3, "shadow": 1, "luck": 2}}, "sheet.stats"),
        (
            {"stats": {"edge": "1", "heart": 2, "iron": 3, "shadow": 1, "wits": 2}},
            "sheet.stats.edge",
        ),
    ],
    ids=["meter-out-of-range", "unknown-stat", "a-string-for-a-number"],
)
def test_sundered_isles_sheet_errors_name_the_field(
    client: TestClient, change: dict[str, Any], field: str
) -> None:
    sheet = {**EXAMPLE_SHEETS["sundered_isles"], **change}
    response = client.post(
        "/v1/sessions", json={"system": "sundered_isles", "name": "x", "sheet": sheet}
    )
    assert response.status_code == 422, response.text
    assert response.json()["error"]["field"].startswith(field)


def test_a_system_without_a_sheet_has_no_sessions_yet(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def without_sheet(system_id: str) -> GameSystem:
        return dataclasses.replace(get_system(system_id), sheet=None)

    monkeypatch.setattr(schemas, "get_system", without_sheet)
    response = client.post(
        "/v1/sessions", json={"system": "elegy", "name": "x", "sheet": {"name": "Mara"}}
    )
    assert response.status_code == 422
    assert response.json() == {
        "error": {"message": "sessions are not available for this system yet", "field": "system"}
    }


def test_an_unknown_system_is_a_422_naming_it(client: TestClient) -> None:
    response = client.post("/v1/sessions", json={"system": "chess", "name": "x", "sheet": {}})
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "system"


@pytest.mark.parametrize("name", ["", "   ", "x" * 201, "nul\x00"])
def test_a_name_needs_a_character_other_than_space(
    client: TestClient, sheet_system: tuple[str, dict[str, Any]], name: str
) -> None:
    system, sheet = sheet_system
    response = client.post("/v1/sessions", json={"system": system, "name": name, "sheet": sheet})
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "name"


def test_rename_then_end_then_read_only(
    client: TestClient, sheet_system: tuple[str, dict[str, Any]]
) -> None:
    created = create(client, *sheet_system)
    url = f"/v1/sessions/{created['id']}"
    renamed = client.patch(url, json={"name": "The lighthouse, relit"})
    assert renamed.status_code == 200
    assert renamed.json()["name"] == "The lighthouse, relit"
    assert renamed.json()["updated_at"] > created["updated_at"]
    assert renamed.json()["created_at"] == created["created_at"]

    ended = client.post(f"{url}/end")
    assert (ended.status_code, ended.json()["status"]) == (200, "ended")
    read_only = {"message": "the session has ended; it is read-only", "field": "path.session_id"}
    for response in (client.patch(url, json={"name": "again"}), client.post(f"{url}/end")):
        assert response.status_code == 409
        assert response.json() == {"error": read_only}
    assert client.get(url).json() == ended.json()  # still readable

    assert client.delete(url).status_code == 204  # and deletable
    assert client.get(url).status_code == 404


def test_an_unknown_session_is_a_404_on_every_route(client: TestClient) -> None:
    url = "/v1/sessions/0123456789abcdef0123456789abcdef"
    for response in (
        client.get(url),
        client.patch(url, json={"name": "x"}),
        client.post(f"{url}/end"),
        client.delete(url),
    ):
        assert response.status_code == 404
        assert response.json()["error"]["field"] == "path.session_id"


def test_rename_refuses_other_fields(
    client: TestClient, sheet_system: tuple[str, dict[str, Any]]
) -> None:
    created = create(client, *sheet_system)
    response = client.patch(f"/v1/sessions/{created['id']}", json={"name": "x", "status": "active"})
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "status"


def test_delete_answers_no_content(
    client: TestClient, sheet_system: tuple[str, dict[str, Any]]
) -> None:
    created = create(client, *sheet_system)
    response = client.delete(f"/v1/sessions/{created['id']}")
    assert (response.status_code, response.content) == (204, b"")
    assert client.get("/v1/sessions").json() == []


def test_the_create_schema_is_one_per_system_with_a_sheet(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    variants = spec["components"]["schemas"]["SessionCreate"]["oneOf"]
    with_sheets = [s for s in (v["properties"]["system"]["const"] for v in variants)]
    assert set(systems_with_sheets()) <= set(with_sheets)
    for variant in variants:
        assert variant["required"] == ["system", "name", "sheet"]
        assert variant["additionalProperties"] is False
    operations = spec["paths"]["/v1/sessions/{session_id}"]
    assert set(operations["patch"]["responses"]) >= {"200", "401", "404", "409", "422"}
    assert set(operations["delete"]["responses"]) >= {"204", "401", "404"}
