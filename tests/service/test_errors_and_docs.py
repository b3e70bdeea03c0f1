"""Every error is JSON naming what was wrong, a bug included; the docs work offline."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from service.app import create_app
from service.settings import Settings


def _app(tmp_path: Path) -> TestClient:
    settings = Settings(
        data_dir=tmp_path, retrieval_warm_start=False, narrator="offline", database_url=None,
        api_keys=[], rate_limit="",
    )  # fmt: skip
    return TestClient(create_app(settings), raise_server_exceptions=False)


def test_an_unexpected_error_is_json_not_plain_text(tmp_path: Path) -> None:
    # Issue 14: a failure inside rules search answered a plain-text "Internal Server Error".
    client = _app(tmp_path)

    @client.app.get("/boom")  # type: ignore[attr-defined,untyped-decorator]
    def boom() -> None:
        raise RuntimeError("secret detail")

    answer = client.get("/boom")
    assert answer.status_code == 500
    assert answer.headers["content-type"] == "application/json"
    assert "internal error" in answer.json()["error"]["message"]
    assert "secret detail" not in answer.text


def test_unknown_paths_and_methods_name_what_was_wrong(tmp_path: Path) -> None:
    client = _app(tmp_path)
    assert client.get("/v1/nowhere").json()["error"]["field"] == "path"
    assert client.delete("/v1/systems").json()["error"]["field"] == "method"


def test_docs_load_their_assets_from_the_service(tmp_path: Path) -> None:
    # Issue 14: /docs was blank offline, its Swagger UI JS and CSS came from a CDN.
    client = _app(tmp_path)
    for page in ("/docs", "/redoc"):
        html = client.get(page).text
        assets = re.findall(r'(?:src|href)="([^"]+)"', html)
        assert assets, page
        for asset in assets:
            assert asset.startswith("/"), f"{page} loads {asset} from elsewhere"
            assert client.get(asset).status_code == 200, asset
        assert "fonts.googleapis" not in html
