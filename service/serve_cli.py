"""``gammoneye serve`` (tables from cameras, files or streams) and ``gammoneye demo``
(the bundled clip, no camera needed)."""

from __future__ import annotations

import json
import sys
import threading
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

import typer

from gammoneye.service.cliutil import fail


def bundled_clip() -> Path:
    """The short rendered clip the demo plays (service/data/demo-clip)."""
    return Path(str(resources.files("gammoneye.service") / "data" / "demo-clip"))


def _say(message: dict[str, Any], players: list[str]) -> str | None:
    """One terminal line for a stream message (events, and the source's changes)."""
    from gammoneye.engine.events import EVENT_TYPES
    from gammoneye.service.referee_cli import _say as say_event

    if message["type"] == "event":
        data = message["event"]
        event = EVENT_TYPES[data["type"]].from_dict(data)
        return say_event(event, (players[0], players[1]))
    return None


def _urls(host: str, port: int, table: str, token: str) -> list[str]:
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    base = f"http://{shown}:{port}"
    return [
        f"observer page:  {base}/tables/{table}/observer#token={token}",
        f"OBS overlay:    {base}/tables/{table}/overlay   (compact: ?compact=1)",
        f"REST API docs:  {base}/docs",
        f"event stream:   ws://{shown}:{port}/ws/tables/{table}",
    ]


def _serve(
    settings: Any,
    *,
    echo_events: bool,
    exit_when_done: bool,
    on_done: Any = None,
) -> None:
    """Run the app with uvicorn until Ctrl-C (or the recordings end, with
    ``exit_when_done``), printing the URLs and, with ``echo_events``, the events."""
    import socket

    import uvicorn

    from gammoneye.service.app import create_app
    from gammoneye.service.referee import SourceError

    if settings.port == 0:  # any free port, said before the server starts
        with socket.socket() as s:
            s.bind((settings.host, 0))
            settings.port = s.getsockname()[1]
    try:
        app = create_app(settings)
    except (SourceError, ValueError) as exc:
        raise fail(str(exc)) from None
    server = uvicorn.Server(
        uvicorn.Config(app, host=settings.host, port=settings.port, log_level="warning")
    )
    tables = app.state.tables
    done: set[str] = set()
    lock = threading.Lock()

    def listener_for(table: Any) -> Any:
        players = list(table.match.players)

        def listen(text: str) -> None:
            message = json.loads(text)
            if message["type"] == "state":
                players[:] = message["state"]["match"]["players"]
                source = message["state"]["source"]
                if source["status"] == "ended":
                    with lock:
                        if table.id in done:
                            return
                        done.add(table.id)
                        every = done == set(tables)
                    print(f"[{table.id}] {source['message']}", file=sys.stderr, flush=True)
                    if on_done:
                        on_done(table)
                    if exit_when_done and every:
                        server.should_exit = True
                return
            if echo_events:
                line = _say(message, players)
                if line:
                    print(f"[{table.id}] {line}", flush=True)

        return listen

    for table in tables.values():
        table.subscribe(listener_for(table))
    for table in tables.values():
        print(f"table {table.id}: {table.settings.source} -> {table.folder}", file=sys.stderr)
        for line in _urls(settings.host, settings.port, table.id, settings.token):
            print(f"  {line}", file=sys.stderr)
    print("Ctrl-C stops the server; the matches are journalled as they go.", file=sys.stderr)
    server.run()


def serve(
    source: Annotated[
        list[str],
        typer.Option(
            "--source",
            help="A camera index (0, 1, ...), a video file, a folder of frames, a rendered "
            "clip or a stream URL (rtsp://, http://). Repeat for more tables.",
        ),
    ],
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="0: any free port.")] = 8000,
    data_dir: Annotated[
        Path, typer.Option("--data-dir", help="Where each table keeps its matches.")
    ] = Path("gammoneye-data"),
    token: Annotated[
        str | None,
        typer.Option(
            "--token",
            envvar="GAMMONEYE_TOKEN",
            help="Observers' token for actions (default: a new random one, printed).",
        ),
    ] = None,
    profile: Annotated[
        str, typer.Option("--profile", help="Rule profile: wbf, konstanz or club.")
    ] = "wbf",
    match_length: Annotated[
        int, typer.Option("--match-length", min=0, help="Points to win (0: money game).")
    ] = 7,
    players: Annotated[
        tuple[str, str], typer.Option("--players", help="The two players' names (player 0 first).")
    ] = ("player 0", "player 1"),
    bottom_player: Annotated[
        int,
        typer.Option(
            "--bottom-player", min=0, max=1, help="The player seated at the picture's bottom."
        ),
    ] = 0,
    calibration: Annotated[
        Path | None,
        typer.Option("--calibration", help="A calibration file (gammoneye calibrate); else found."),
    ] = None,
    eyes: Annotated[
        str,
        typer.Option(
            "--eyes",
            help="camera: read the pictures; truth: a rendered clip's labels stand in for "
            "vision (to try the referee and the pages without vision's errors).",
        ),
    ] = "camera",
    quiet: Annotated[bool, typer.Option("--quiet", help="Print no events.")] = False,
) -> None:
    """Serve live tables: the referee on each source, the observer and overlay pages,
    the REST API and the event stream (docs/service.md).

    A restart on the same --data-dir resumes each table's unfinished match.

    Examples:

      gammoneye serve --source 0 --match-length 7 --players ann bob

      gammoneye serve --source rtsp://cam1/stream --source rtsp://cam2/stream --host 0.0.0.0
    """
    from pydantic import ValidationError

    from gammoneye.service.settings import MatchSettings, ServiceSettings, TableSettings

    if eyes not in ("camera", "truth"):
        raise fail(f"--eyes is camera or truth, not {eyes!r}")
    try:
        match = MatchSettings(
            players=players,
            match_length=match_length,
            profile=profile,  # type: ignore[arg-type]
            bottom_player=bottom_player,
        )
        tables = [
            TableSettings(
                id=f"table{i + 1}" if len(source) > 1 else "main",
                source=spec,
                eyes=eyes,  # type: ignore[arg-type]
                calibration=calibration,
                match=match,
            )
            for i, spec in enumerate(source)
        ]
        extra: dict[str, Any] = {"token": token} if token else {}
        settings = ServiceSettings(host=host, port=port, data_dir=data_dir, tables=tables, **extra)
    except ValidationError as exc:
        raise fail(f"bad settings: {exc.errors()[0]['loc']}: {exc.errors()[0]['msg']}") from None
    _serve(settings, echo_events=not quiet, exit_when_done=False)


def demo(
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="0: any free port.")] = 8000,
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    out: Annotated[
        Path, typer.Option("--out", help="Folder for the demo's matches (journal, .mat, events).")
    ] = Path("gammoneye-demo"),
    eyes: Annotated[
        str,
        typer.Option(
            "--eyes",
            help="truth (default): the clip's own labels stand in for the camera, so the "
            "referee and pages show what they do with a perfect reading; camera: read the "
            "video with GammonEye's vision (its accuracy: docs/vision-benchmarks.md).",
        ),
    ] = "truth",
    speed: Annotated[
        float, typer.Option("--speed", min=0.1, max=100.0, help="Play the clip this much faster.")
    ] = 1.0,
    exit_when_done: Annotated[
        bool,
        typer.Option(
            "--exit-when-done/--keep-serving",
            help="Stop once the clip has played (default: keep the pages up until Ctrl-C).",
        ),
    ] = False,
    token: Annotated[
        str | None, typer.Option("--token", envvar="GAMMONEYE_TOKEN", help="Observers' token.")
    ] = None,
) -> None:
    """See GammonEye referee a match, no camera needed.

    Plays a short bundled video of a rendered game (75 s: an opening, a double and a
    drop, with illegal plays flagged and corrected, invalid rolls and a taken-back move)
    through the referee, serves the observer page and the OBS overlay while it runs
    (open the printed URLs), prints every event, and writes the transcript (match.mat)
    and the event log into --out.

    The engine-only replay of a whole match that this command used to run is now
    `gammoneye engine demo`.

    Examples:

      gammoneye demo

      gammoneye demo --port 8080 --speed 2 --exit-when-done
    """
    from gammoneye.service.settings import MatchSettings, ServiceSettings, TableSettings

    if eyes not in ("camera", "truth"):
        raise fail(f"--eyes is camera or truth, not {eyes!r}")
    clip = bundled_clip()
    if not (clip / "clip.json").is_file():
        raise fail(f"the demo clip is missing from this installation ({clip})")
    meta = json.loads((clip / "clip.json").read_text("utf-8"))
    events = (clip / "events.jsonl").read_text("utf-8").splitlines()
    start = json.loads(events[0])
    match = MatchSettings(
        players=tuple(start["players"]),  # type: ignore[arg-type]
        match_length=start["match_length"],
        profile=start["profile"],
        bottom_player=int(meta["bottom_player"]),
    )
    extra: dict[str, Any] = {"token": token} if token else {}
    calibration = None
    if eyes == "camera" and meta.get("field_corners_px"):
        # the clip's camera as calibrated once, as `eval referee` reads clips: found
        # anew, the field's side lower in the picture would be taken for the bottom
        # player's, and this camera looks from the other side (the players swapped)
        from gammoneye.service.referee import clip_calibration

        calibration = out / "demo-calibration.json"
        clip_calibration(meta).save(calibration)
    settings = ServiceSettings(
        host=host,
        port=port,
        data_dir=out,
        tables=[
            TableSettings(
                id="demo",
                source=str(clip),
                eyes=eyes,  # type: ignore[arg-type]
                match=match,
                out=out,
                resume=False,
                speed=speed,
                calibration=calibration,
            )
        ],
        **extra,
    )
    if eyes == "truth":
        print(
            "demo: the clip's labels stand in for the camera (--eyes camera reads the video).",
            file=sys.stderr,
        )

    def done(table: Any) -> None:
        print(
            f"demo: the clip has played; transcript {table.folder / 'match.mat'}, "
            f"events {table.folder / 'events.jsonl'}",
            file=sys.stderr,
            flush=True,
        )

    _serve(settings, echo_events=True, exit_when_done=exit_when_done, on_done=done)
