"""The GammonEye web app: REST, WebSocket and the pages, made by :func:`create_app`.

The contract (paths, bodies, messages, the state's shape) is in ``docs/service.md``;
``/docs`` shows the OpenAPI document. Reads are open; observers' actions need the
token (``Authorization: Bearer TOKEN``).
"""

import asyncio
import contextlib
import hmac
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, HTTPException, Query, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, PlainTextResponse, Response, StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from gammoneye import __version__
from gammoneye.service.settings import MatchSettings, ServiceSettings
from gammoneye.service.table import ActionError, Table

log = logging.getLogger("gammoneye.app")

#: Messages a WebSocket client may fall behind by before it is dropped.
CLIENT_QUEUE = 2000


def web_dir() -> Path:
    return Path(str(resources.files("gammoneye.service") / "web"))


# --- request bodies --------------------------------------------------------------------------


class Corners(BaseModel):
    corners_px: list[Annotated[list[float], Field(min_length=2, max_length=2)]] | None = Field(
        None,
        min_length=4,
        max_length=4,
        description="the field's corners in image pixels: top-left, top-right, bottom-right, "
        "bottom-left as seen in the picture",
    )
    auto: bool = Field(False, description="find the field in the next settled frame")


class DismissBody(BaseModel):
    flag_id: str | None = Field(None, max_length=40)


class CorrectBody(BaseModel):
    after: str = Field(
        min_length=14, max_length=14, description="Position ID after the play, mover on roll"
    )


class ResignBody(BaseModel):
    player: int = Field(ge=0, le=1)
    level: int = Field(1, ge=1, le=3, description="1 single game, 2 gammon, 3 backgammon")


class AnswerBody(BaseModel):
    accept: bool


class ActionResult(BaseModel):
    events: list[dict[str, Any]]


# --- the app ---------------------------------------------------------------------------------


def create_app(settings: ServiceSettings | None = None) -> FastAPI:
    """The app for ``settings`` (from the environment when ``None``). Its tables start
    with the app (``settings.start_tables``) and stop with it."""
    settings = settings or ServiceSettings()
    tables: dict[str, Table] = {}
    for ts in settings.tables:
        if ts.id in tables:
            raise ValueError(f"two tables are called {ts.id!r}")
        tables[ts.id] = Table(ts, settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if settings.start_tables:
            for table in tables.values():
                table.start()
        try:
            yield
        finally:
            for table in tables.values():
                await run_in_threadpool(table.stop)

    app = FastAPI(
        title="GammonEye",
        version=__version__,
        description="A camera referee for physical backgammon: live state, events, "
        "transcripts and observers' actions. Actions need `Authorization: Bearer TOKEN`.",
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.tables = tables
    bearer = HTTPBearer(auto_error=False)

    def table_of(table_id: str) -> Table:
        table = tables.get(table_id)
        if table is None:
            raise HTTPException(404, f"no table {table_id!r}")
        return table

    def observer(
        creds: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
    ) -> None:
        if creds is None or not hmac.compare_digest(
            creds.credentials.encode(), settings.token.encode()
        ):
            raise HTTPException(
                401, "this action needs the table's token", headers={"WWW-Authenticate": "Bearer"}
            )

    TableDep = Annotated[Table, Depends(table_of)]
    errors: dict[int | str, dict[str, Any]] = {
        401: {"description": "no token, or a wrong one"},
        404: {"description": "no such table"},
        409: {"description": "the match does not allow this now"},
    }

    def act(fn: Any, *args: Any) -> ActionResult:
        try:
            return ActionResult(events=fn(*args))
        except ActionError as exc:
            raise HTTPException(409, str(exc)) from None

    # --- reads ---------------------------------------------------------------------------
    @app.get("/api/tables", tags=["tables"], summary="The tables and how they are doing")
    def list_tables() -> list[dict[str, Any]]:
        out = []
        for t in tables.values():
            state = t.state()
            out.append({"id": t.id, "source": state["source"], "match": state["match"]})
        return out

    @app.get(
        "/api/tables/{table_id}/state",
        tags=["tables"],
        summary="The table's live state (TableState in docs/service.md)",
        responses={404: errors[404]},
    )
    def get_state(table: TableDep) -> dict[str, Any]:
        return table.state()

    @app.get(
        "/api/tables/{table_id}/events",
        tags=["tables"],
        summary="The match's events from seq SINCE on (the engine's event-log format)",
        responses={404: errors[404]},
    )
    def get_events(table: TableDep, since: Annotated[int, Query(ge=0)] = 0) -> list[dict[str, Any]]:
        return table.events_since(since)

    @app.get(
        "/api/tables/{table_id}/match.mat",
        tags=["transcripts"],
        summary="The transcript (.mat, imports into GNU Backgammon and eXtreme Gammon)",
        response_class=PlainTextResponse,
        responses={404: {"description": "no such table, or no game begun yet"}},
    )
    def get_mat(table: TableDep) -> PlainTextResponse:
        text = table.mat_text()
        if text is None:
            raise HTTPException(404, "no game has begun: there is no transcript yet")
        return PlainTextResponse(
            text, headers={"Content-Disposition": f'attachment; filename="{table.id}.mat"'}
        )

    @app.get(
        "/api/tables/{table_id}/events.jsonl",
        tags=["transcripts"],
        summary="The event log (one JSON object a line)",
        response_class=PlainTextResponse,
        responses={404: errors[404]},
    )
    def get_events_file(table: TableDep) -> Response:
        return Response(
            table.events_text(),
            media_type="application/x-ndjson",
            headers={"Content-Disposition": f'attachment; filename="{table.id}-events.jsonl"'},
        )

    @app.get(
        "/api/tables/{table_id}/frame.jpg",
        tags=["video"],
        summary="The newest frame, with the reading drawn on it",
        response_class=Response,
        responses={
            200: {"content": {"image/jpeg": {}}},
            404: {"description": "no such table, or no frame yet"},
        },
    )
    async def get_frame(table: TableDep, overlay: bool = True) -> Response:
        data = await run_in_threadpool(table.frame_jpeg, overlay)
        if data is None:
            raise HTTPException(404, "no frame yet")
        return Response(data, media_type="image/jpeg", headers={"Cache-Control": "no-store"})

    @app.get(
        "/api/tables/{table_id}/video.mjpg",
        tags=["video"],
        summary="The frames as an MJPEG stream (multipart/x-mixed-replace)",
        response_class=StreamingResponse,
        responses={200: {"content": {"multipart/x-mixed-replace": {}}}, 404: errors[404]},
    )
    async def get_video(table: TableDep, overlay: bool = True) -> StreamingResponse:
        async def frames() -> AsyncIterator[bytes]:
            last = None
            while True:
                data = await run_in_threadpool(table.frame_jpeg, overlay)
                if data is not None and data is not last:
                    last = data
                    yield (
                        b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: "
                        + str(len(data)).encode()
                        + b"\r\n\r\n"
                        + data
                        + b"\r\n"
                    )
                await asyncio.sleep(1 / settings.video_fps)

        return StreamingResponse(
            frames(),
            media_type="multipart/x-mixed-replace; boundary=frame",
            headers={"Cache-Control": "no-store"},
        )

    @app.get(
        "/api/tables/{table_id}/calibration",
        tags=["calibration"],
        summary="The field's corners in use",
        responses={404: errors[404]},
    )
    def get_calibration(table: TableDep) -> dict[str, Any]:
        return table.calibration()

    # --- actions (token) -----------------------------------------------------------------
    guarded = [Depends(observer)]

    @app.post(
        "/api/tables/{table_id}/calibration",
        tags=["calibration"],
        summary="Set the field's corners, or find the field again",
        dependencies=guarded,
        responses=errors,
    )
    def set_calibration(table: TableDep, body: Corners) -> dict[str, Any]:
        if body.corners_px is None and not body.auto:
            raise HTTPException(422, "give corners_px (4 points) or auto: true")
        try:
            return table.set_corners(None if body.auto else body.corners_px)
        except ActionError as exc:
            raise HTTPException(409, str(exc)) from None

    @app.post(
        "/api/tables/{table_id}/match",
        tags=["match"],
        summary="Start a new match at this table (the old one's files stay)",
        dependencies=guarded,
        responses=errors,
    )
    def new_match(table: TableDep, body: MatchSettings) -> dict[str, Any]:
        return table.new_match(body)

    @app.post(
        "/api/tables/{table_id}/actions/accept",
        tags=["actions"],
        summary="The flagged illegal play stands (the players agree) [001 4.2(iii)(a)]",
        dependencies=guarded,
        responses=errors,
    )
    def accept(table: TableDep) -> ActionResult:
        return act(table.accept)

    @app.post(
        "/api/tables/{table_id}/actions/dismiss",
        tags=["actions"],
        summary="The open flag was a misreading",
        dependencies=guarded,
        responses=errors,
    )
    def dismiss(table: TableDep, body: DismissBody | None = None) -> ActionResult:
        return act(table.dismiss, body.flag_id if body else None)

    @app.post(
        "/api/tables/{table_id}/actions/correct",
        tags=["actions"],
        summary="The last play was really the legal play reaching this position",
        dependencies=guarded,
        responses=errors,
    )
    def correct(table: TableDep, body: CorrectBody) -> ActionResult:
        return act(table.correct, body.after)

    @app.post(
        "/api/tables/{table_id}/actions/resign",
        tags=["actions"],
        summary="A player offers to resign [001 4.5]",
        dependencies=guarded,
        responses=errors,
    )
    def resign(table: TableDep, body: ResignBody) -> ActionResult:
        return act(table.resign, body.player, body.level)

    @app.post(
        "/api/tables/{table_id}/actions/answer",
        tags=["actions"],
        summary="The answer to a resignation",
        dependencies=guarded,
        responses=errors,
    )
    def answer(table: TableDep, body: AnswerBody) -> ActionResult:
        return act(table.answer, body.accept)

    @app.post(
        "/api/tables/{table_id}/actions/undo",
        tags=["actions"],
        summary="Withdraw the last observer action, if nothing happened on the board since",
        dependencies=guarded,
        responses=errors,
    )
    def undo(table: TableDep) -> ActionResult:
        return act(table.undo)

    # --- the event stream ----------------------------------------------------------------
    @app.websocket("/ws/tables/{table_id}")
    async def stream(websocket: WebSocket, table_id: str, since: int | None = None) -> None:
        table = tables.get(table_id)
        if table is None:
            await websocket.close(code=4404, reason=f"no table {table_id!r}")
            return
        await websocket.accept()
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[str | None] = asyncio.Queue()

        def put(text: str) -> None:
            if queue.qsize() > CLIENT_QUEUE:
                queue.put_nowait(None)  # too far behind: hang up; it reconnects with since
            else:
                queue.put_nowait(text)

        def listener(text: str) -> None:
            loop.call_soon_threadsafe(put, text)

        await run_in_threadpool(table.subscribe, listener, since)

        async def ask() -> None:  # {"since": N}: resend from N (a reconnecting page)
            while True:
                message = await websocket.receive_text()
                with contextlib.suppress(ValueError, TypeError, AttributeError):
                    want = int(json.loads(message).get("since"))
                    for e in await run_in_threadpool(table.events_since, want):
                        queue.put_nowait(json.dumps({"type": "event", "event": e}))

        reader = asyncio.create_task(ask())
        try:
            while True:
                getter = asyncio.create_task(queue.get())
                done, _ = await asyncio.wait({getter, reader}, return_when=asyncio.FIRST_COMPLETED)
                if reader in done:
                    getter.cancel()
                    break
                text = getter.result()
                if text is None:
                    await websocket.close(code=1013, reason="too far behind")
                    break
                await websocket.send_text(text)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            if reader.done() and not reader.cancelled():
                reader.exception()  # the client left: nothing to report
            reader.cancel()
            table.unsubscribe(listener)

    # --- pages ---------------------------------------------------------------------------
    web = web_dir()

    def page(name: str) -> FileResponse:
        path = web / name
        if not path.is_file():
            raise HTTPException(404, f"page {name} is missing from this installation")
        return FileResponse(path, media_type="text/html", headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return page("index.html")

    @app.get("/tables/{table_id}/observer", include_in_schema=False)
    def observer_page(table: TableDep) -> FileResponse:
        return page("observer.html")

    @app.get("/tables/{table_id}/overlay", include_in_schema=False)
    def overlay_page(table: TableDep) -> FileResponse:
        return page("overlay.html")

    if web.is_dir():
        app.mount("/static", StaticFiles(directory=web), name="static")
    return app
