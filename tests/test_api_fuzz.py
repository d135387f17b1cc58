"""Schemathesis over the app's OpenAPI document: no request it can make, with the
token or without, gets a server error (5xx), and each answer fits the document."""

from __future__ import annotations

from pathlib import Path

import pytest

schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402

from gammoneye.service.app import create_app  # noqa: E402
from gammoneye.service.serve_cli import bundled_clip  # noqa: E402
from gammoneye.service.settings import MatchSettings, ServiceSettings, TableSettings  # noqa: E402

TOKEN = "fuzz-token"


def _app(tmp: Path):  # type: ignore[no-untyped-def]
    return create_app(
        ServiceSettings(
            token=TOKEN,
            data_dir=tmp,
            start_tables=False,
            tables=[
                TableSettings(
                    id="demo",
                    source=str(bundled_clip()),
                    eyes="truth",
                    match=MatchSettings(match_length=3),
                )
            ],
        )
    )


APP = _app(Path(__import__("tempfile").mkdtemp(prefix="gammoneye-fuzz-")))
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@schema.parametrize()
@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
@pytest.mark.parametrize("token", [True, False], ids=["token", "no-token"])
def test_no_request_makes_a_server_error(case, token: bool) -> None:  # type: ignore[no-untyped-def]
    headers = {"Authorization": f"Bearer {TOKEN}"} if token else {}
    if case.path.endswith("video.mjpg"):
        return  # an endless stream: checked in test_service
    response = case.call(headers=headers)
    assert response.status_code < 500, (case.method, case.path, response.text[:300])
    if not token and case.method == "POST" == case.operation.method.upper():
        # 400: a body that is no JSON at all is refused before anything else
        assert response.status_code in (400, 401, 404, 422), (case.path, response.status_code)
    case.validate_response(response, checks=[not_a_server_error])
