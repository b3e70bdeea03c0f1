"""The page's files as the service serves them (no browser): the HTML at / and /play/{id} with
its Content-Security-Policy, the assets under /ui (never rate limited), the sheet schemas the
new-session form is built from, and no code path that puts text in the page as HTML."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from rules.registry import all_systems
from service.app import create_app
from service.settings import Settings
from service.web import STATIC

ASSETS = sorted(p.name for p in STATIC.iterdir() if p.suffix in (".js", ".css"))


def test_the_page_is_served_at_the_root_and_per_session(client: TestClient) -> None:
    for path in ("/", "/play/3949ed853beb43c9b7a9ed1fd1435112"):
        page = client.get(path)
        assert page.status_code == 200
        assert page.headers["content-type"].startswith("text/html")
        assert "script-src 'self'" in page.headers["content-security-policy"]
        assert '<script type="module" src="/ui/app.js">' in page.text
    assert client.head("/").status_code == 200


def test_every_asset_is_served_from_the_service_itself(client: TestClient) -> None:
    """Offline: each file the page loads is one of ours, under /ui, none from elsewhere."""
    html = (STATIC / "index.html").read_text()
    loaded = re.findall(r'(?:src|href)="(/ui/[^"]+)"', html)
    for module in STATIC.glob("*.js"):  # the ES modules import one another by relative path
        for imported in re.findall(r'from "\./([^"]+)"', module.read_text()):
            assert (STATIC / imported).is_file(), f"{module.name} imports a missing {imported}"
    assert {"/ui/app.css", "/ui/app.js"} <= set(loaded)
    for name in ASSETS:
        answer = client.get(f"/ui/{name}")
        assert answer.status_code == 200, name
        kind = "javascript" if name.endswith(".js") else "css"
        assert kind in answer.headers["content-type"], name
    text = "".join((STATIC / n).read_text() for n in [*ASSETS, "index.html"])
    assert not re.search(r"https?://(?!127\.0\.0\.1)", text), "a URL elsewhere"


def test_assets_are_revalidated_so_a_new_version_is_picked_up(client: TestClient) -> None:
    """Kept by the browser, asked again each load (no-cache + ETag): unchanged is a 304."""
    for name in ASSETS:
        first = client.get(f"/ui/{name}")
        assert first.headers["cache-control"] == "no-cache", name
        assert first.headers["etag"] and first.headers["last-modified"], name
        again = client.get(f"/ui/{name}", headers={"if-none-match": first.headers["etag"]})
        assert again.status_code == 304, name
        assert again.headers["cache-control"] == "no-cache", name
        changed = client.get(f"/ui/{name}", headers={"if-none-match": '"an-older-version"'})
        assert changed.status_code == 200 and changed.content == first.content, name


def test_no_text_reaches_the_page_as_html() -> None:
    """Model and player text goes in as text nodes: no HTML sink anywhere in the modules."""
    sinks = re.compile(
        r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function"
    )
    for name in ASSETS:
        if name.endswith(".js"):
            assert not sinks.search((STATIC / name).read_text()), name


def test_the_page_and_its_assets_are_not_rate_limited(tmp_path: Path) -> None:
    """A page load fetches several files at once; only the API requests count."""
    settings = Settings(
        data_dir=tmp_path, retrieval_warm_start=False, narrator="offline", rate_limit="2/minute"
    )
    with TestClient(create_app(settings)) as limited:
        for _ in range(3):
            assert limited.get("/").status_code == 200
            for name in ASSETS:
                assert limited.get(f"/ui/{name}").status_code == 200
        statuses = [limited.get("/v1/systems").status_code for _ in range(3)]
        assert statuses == [200, 200, 429]


def test_each_system_gives_its_sheet_schema(client: TestClient) -> None:
    """The new-session form is built from GET /v1/systems: each system's sheet schema, with
    its fields' ranges and descriptions."""
    systems = {s["id"]: s for s in client.get("/v1/systems").json()}
    for system in all_systems():
        schema = systems[system.id]["sheet_schema"]
        if system.sheet is None:
            assert schema is None
            continue
        assert schema == system.sheet.model.model_json_schema()
    stats = systems["sundered_isles"]["sheet_schema"]["$defs"]["Stats"]["properties"]
    assert stats["edge"] == {"maximum": 5, "minimum": 0, "title": "Edge", "type": "integer"}
