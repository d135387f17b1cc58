"""The service: REST API, WebSocket stream, observers' actions, a source that fails.

The tables here play the bundled demo clip (service/data/demo-clip) with its labels
standing in for the camera (eyes "truth"), so what is checked is the service, not
vision.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
from fastapi.testclient import TestClient

from gammoneye.engine.events import read_event_log
from gammoneye.service.app import create_app
from gammoneye.service.grabber import FrameGrabber
from gammoneye.service.referee import Frame, open_source
from gammoneye.service.serve_cli import bundled_clip
from gammoneye.service.settings import MatchSettings, ServiceSettings, TableSettings

CLIP = bundled_clip()
TOKEN = "s3cret-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
ACTIONS = [
    ("/api/tables/demo/actions/accept", None),
    ("/api/tables/demo/actions/dismiss", {}),
    ("/api/tables/demo/actions/correct", {"after": "4HPwATDgc/ABMA"}),
    ("/api/tables/demo/actions/resign", {"player": 0, "level": 1}),
    ("/api/tables/demo/actions/answer", {"accept": True}),
    ("/api/tables/demo/actions/undo", None),
    ("/api/tables/demo/calibration", {"auto": True}),
    ("/api/tables/demo/match", {"players": ["a", "b"]}),
]


def _clip_match() -> MatchSettings:
    start = json.loads((CLIP / "events.jsonl").read_text("utf-8").splitlines()[0])
    meta = json.loads((CLIP / "clip.json").read_text("utf-8"))
    return MatchSettings(
        players=tuple(start["players"]),
        match_length=start["match_length"],
        profile=start["profile"],
        bottom_player=meta["bottom_player"],
    )


def _settings(tmp: Path, *, start: bool, speed: float = 20.0, **table: Any) -> ServiceSettings:
    fields: dict[str, Any] = {
        "id": "demo",
        "source": str(CLIP),
        "eyes": "truth",
        "match": _clip_match(),
        "speed": speed,
    }
    fields.update(table)
    return ServiceSettings(
        token=TOKEN,
        data_dir=tmp,
        stall_s=0.5,
        retry_s=0.05,
        start_tables=start,
        tables=[TableSettings(**fields)],
    )


def _feed_until(app: Any, kind: str, after: int = 0) -> list[dict[str, Any]]:
    """Feed the clip's frames to the (not started) table until an event of ``kind``."""
    table = app.state.tables["demo"]
    frames = _frames(table)
    out: list[dict[str, Any]] = []
    for frame in frames:
        new = [e.to_dict() for e in table.feed(frame)]
        out += new
        if any(e["type"] == kind and e["seq"] >= after for e in new):
            return out
    raise AssertionError(f"the clip has no {kind} event")


def _frames(table: Any) -> Iterator[Frame]:
    it = getattr(table, "_test_frames", None)
    if it is None:
        it = table._test_frames = open_source(str(CLIP))
    return it


def test_reads_need_no_token_and_actions_need_it(tmp_path: Path) -> None:
    app = create_app(_settings(tmp_path, start=False))
    with TestClient(app) as client:
        tables = client.get("/api/tables").json()
        assert [t["id"] for t in tables] == ["demo"]
        state = client.get("/api/tables/demo/state").json()
        assert state["match"]["players"] == list(_clip_match().players)
        assert state["board"]["points"][5] == 5 and state["board"]["points"][18] == -5
        assert state["board"]["pips"] == [167, 167] and state["last_seq"] == 0
        assert client.get("/api/tables/nope/state").status_code == 404
        assert client.get("/api/tables/demo/events").json()[0]["type"] == "match_start"
        for path, body in ACTIONS:
            assert client.post(path, json=body).status_code == 401, path
            wrong = {"Authorization": "Bearer nope"}
            assert client.post(path, json=body, headers=wrong).status_code == 401, path
        # with the token: refused by the match (409), not by the door
        answer = client.post("/api/tables/demo/actions/accept", headers=AUTH)
        assert answer.status_code == 409 and "no illegal play" in answer.json()["detail"]
        assert client.post("/api/tables/demo/actions/undo", headers=AUTH).status_code == 409
        # the pages are served
        assert client.get("/tables/demo/overlay").status_code == 200
        assert client.get("/tables/nope/observer").status_code == 404


def test_flag_actions_accept_undo_correct_and_the_transcript(tmp_path: Path) -> None:
    app = create_app(_settings(tmp_path, start=False))
    with TestClient(app) as client:
        events = _feed_until(app, "flag")
        flag = events[-1]
        state = client.get("/api/tables/demo/state").json()
        assert state["flag"]["flag_id"] == flag["flag_id"]
        assert state["moves"][-1]["legal"] is False
        accepted = client.post("/api/tables/demo/actions/accept", headers=AUTH).json()["events"]
        # the clip's first illegal play lands on a blocked point: no position can show
        # it, so the play that stands is recorded as the likeliest legal one
        assert [e["type"] for e in accepted] == ["flag_cleared", "move"]
        assert accepted[0]["how"] == "accepted" and accepted[1]["source"] == "observer"
        assert client.get("/api/tables/demo/state").json()["flag"] is None
        undone = client.post("/api/tables/demo/actions/undo", headers=AUTH).json()["events"]
        assert undone[0]["type"] == "correction" and undone[0]["data"]["action"] == "undo"
        state = client.get("/api/tables/demo/state").json()
        assert state["flag"]["flag_id"] == flag["flag_id"]  # open again
        pick = flag["suggestions"][0]
        fixed = client.post(
            "/api/tables/demo/actions/correct", json={"after": pick["after"]}, headers=AUTH
        ).json()["events"]
        assert [e["type"] for e in fixed] == ["correction", "flag_cleared", "move"]
        assert fixed[-1]["after"] == pick["after"] and fixed[-1]["legal"]
        state = client.get("/api/tables/demo/state").json()
        assert state["flag"] is None and state["moves"][-1]["play"] == pick["play"]
        # what was journalled is what the API says, and a .mat comes out
        log = client.get("/api/tables/demo/events.jsonl").text
        parsed, problems = read_event_log(log)
        assert not problems and [e.seq for e in parsed] == list(range(len(parsed)))
        mat = client.get("/api/tables/demo/match.mat")
        assert mat.status_code == 200 and pick["play"] in mat.text
        bad = client.post(
            "/api/tables/demo/actions/correct", json={"after": "4HPwATDgc/ABMA"}, headers=AUTH
        )
        assert bad.status_code == 409
        assert client.post("/api/tables/demo/actions/resign", json={"player": 3}).status_code in (
            401,
            422,
        )


def test_resignation_new_match_and_restart(tmp_path: Path) -> None:
    app = create_app(_settings(tmp_path, start=False))
    with TestClient(app) as client:
        _feed_until(app, "opening_roll")
        r = client.post(
            "/api/tables/demo/actions/resign", json={"player": 1, "level": 2}, headers=AUTH
        )
        assert r.status_code == 200 and r.json()["events"][0]["type"] == "resign"
        r = client.post("/api/tables/demo/actions/answer", json={"accept": True}, headers=AUTH)
        kinds = [e["type"] for e in r.json()["events"]]
        assert kinds == ["resign_accept", "game_end"]
        assert client.get("/api/tables/demo/state").json()["match"]["score"] == [2, 0]
        seq = client.get("/api/tables/demo/state").json()["last_seq"]
    # a restart on the same folder resumes the match where it stood
    app = create_app(_settings(tmp_path, start=False))
    with TestClient(app) as client:
        state = client.get("/api/tables/demo/state").json()
        assert state["last_seq"] == seq and state["match"]["score"] == [2, 0]
        new = {"players": ["ann", "bob"], "match_length": 5, "profile": "club"}
        state = client.post("/api/tables/demo/match", json=new, headers=AUTH).json()
        assert state["match"]["players"] == ["ann", "bob"] and state["match"]["profile"] == "club"
        assert state["folder"].endswith("match-002") and state["last_seq"] == 0
        bad = {"players": ["", "bob"]}
        assert client.post("/api/tables/demo/match", json=bad, headers=AUTH).status_code == 422


def test_a_table_restarted_mid_match_goes_on_as_if_it_never_stopped(tmp_path: Path) -> None:
    """A crash (the app dropped, nothing stopped or closed) after the second flag, then
    a new app on the same folder: it takes the recording up at the last event's frame
    and ends with the very events of a run that never stopped."""
    whole = create_app(_settings(tmp_path / "whole", start=False))
    table = whole.state.tables["demo"]
    for frame in open_source(str(CLIP)):
        table.feed(frame)
    want = [e.to_dict() for e in table.referee.events]

    crashed = create_app(_settings(tmp_path / "cut", start=False))
    flags = 0
    for frame in open_source(str(CLIP)):
        flags += sum(e.TYPE == "flag" for e in crashed.state.tables["demo"].feed(frame))
        if flags == 2:
            break
    cut = len(crashed.state.tables["demo"].referee.events)
    again = create_app(_settings(tmp_path / "cut", start=False)).state.tables["demo"]
    assert len(again.referee.events) == cut
    first = again._recall_frame
    assert first == max(e.frame for e in again.referee.events if isinstance(e.frame, int))
    for frame in open_source(str(CLIP), first=first):  # what its grabber would deliver
        again.feed(frame)
    assert [e.to_dict() for e in again.referee.events] == want
    assert again.files.out == again.folder and (again.folder / "match.mat").read_text("utf-8") == (
        table.folder / "match.mat"
    ).read_text("utf-8")


def _collect(ws: Any, until: Any, limit: float = 60.0) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        message = json.loads(ws.receive_text())
        out.append(message)
        if until(message):
            return out
    raise AssertionError("the stream did not get there in time")


def test_websocket_sends_every_event_in_order_and_late_joiners_catch_up(tmp_path: Path) -> None:
    app = create_app(_settings(tmp_path, start=True, speed=25.0))

    def ended(m: dict[str, Any]) -> bool:
        return m["type"] == "state" and m["state"]["source"]["status"] == "ended"

    with TestClient(app) as client:
        with client.websocket_connect("/ws/tables/demo") as early:
            first = json.loads(early.receive_text())
            assert first["type"] == "state"
            start = first["state"]["last_seq"]
            # a late joiner, once the game is under way, asks for everything
            seen = _collect(early, lambda m: m["type"] == "event" and m["event"]["seq"] >= 8)
            with client.websocket_connect("/ws/tables/demo?since=0") as late:
                hello = json.loads(late.receive_text())
                assert hello["type"] == "state" and hello["state"]["last_seq"] >= 8
                seen += _collect(early, ended)
                late_seen = _collect(late, ended)
        truth = client.get("/api/tables/demo/events").json()
    early_seqs = [m["event"]["seq"] for m in seen if m["type"] == "event"]
    assert early_seqs == list(range(start + 1, len(truth)))
    late_seqs = [m["event"]["seq"] for m in late_seen if m["type"] == "event"]
    assert late_seqs == list(range(len(truth)))  # everything, once, in order
    assert [m["event"] for m in late_seen if m["type"] == "event"] == truth
    final = [m for m in seen if m["type"] == "state"][-1]["state"]
    assert final["last_seq"] == len(truth) - 1 and final["match"]["phase"] == "game_over"
    # (at 25 times real time a busy machine may drop frames, so not every flag of the
    # clip need be there; the stream must carry what the referee decided)
    assert any(e["type"] == "flag" for e in truth)


class _FlakyCamera:
    """A camera that delivers a few frames, raises (unplugged), stalls, recovers."""

    def __init__(self) -> None:
        self.opened = 0
        self.stall = threading.Event()

    def __call__(self) -> Iterator[Frame]:
        self.opened += 1
        image = np.zeros((48, 64, 3), np.uint8)
        for i in range(5):
            time.sleep(0.02)
            yield Frame(i, i * 0.02, image)
        if self.opened == 1:
            raise OSError("camera unplugged")
        while not self.stall.is_set():  # a stream that hangs, then goes on
            time.sleep(0.02)
        while True:
            time.sleep(0.02)
            yield Frame(0, 0.0, image)


def test_a_camera_that_fails_is_reported_and_reopened() -> None:
    camera = _FlakyCamera()
    grabber = FrameGrabber(
        "0", opener=camera, live=True, stall_s=0.3, retry_s=0.05, reconnect_s=60.0
    )
    statuses: list[str] = []

    def wait_for(status: str, limit: float = 5.0) -> None:
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            now = grabber.status().status
            if not statuses or statuses[-1] != now:
                statuses.append(now)
            if now == status:
                return
            time.sleep(0.01)
        raise AssertionError(f"never {status}: {statuses}")

    grabber.start()
    try:
        wait_for("reconnecting")
        assert "camera unplugged" in grabber.status().message
        wait_for("live")
        wait_for("stalled")
        assert "no frame for" in grabber.status().message
        camera.stall.set()
        wait_for("live")
    finally:
        grabber.stop()
    assert camera.opened == 2
    count, frame = grabber.newest()
    assert count > 10 and frame is not None and frame.ref == count - 1


def test_a_stream_that_hangs_is_abandoned_and_opened_again() -> None:
    hung = threading.Event()
    opened: list[int] = []

    def stream() -> Iterator[Frame]:
        opened.append(1)
        image = np.zeros((8, 8, 3), np.uint8)
        if len(opened) == 1:
            yield Frame(0, 0.0, image)
            hung.wait(30)  # a read that never returns (until the test ends)
            return
        while True:
            time.sleep(0.02)
            yield Frame(0, 0.0, image)

    grabber = FrameGrabber(
        "0", opener=stream, live=True, stall_s=0.2, retry_s=0.05, reconnect_s=0.5
    )
    grabber.start()
    try:
        deadline = time.monotonic() + 10
        while len(opened) < 2 or grabber.status().status != "live":
            assert time.monotonic() < deadline, grabber.status()
            time.sleep(0.02)
        count = grabber.newest()[0]
        time.sleep(0.2)
        assert grabber.newest()[0] > count  # frames flow again from the new connection
    finally:
        hung.set()
        grabber.stop()


def test_a_table_whose_source_fails_says_so_and_keeps_its_match(tmp_path: Path) -> None:
    app = create_app(
        _settings(tmp_path, start=False, source="rtsp://camera.invalid/stream", eyes="camera")
    )
    table = app.state.tables["demo"]
    camera = _FlakyCamera()
    table.grabber._opener = camera  # the stream above cannot be reached: a stand-in
    table.grabber.live = True
    table.grabber.retry_s = 0.5  # long enough to be seen reconnecting on a busy machine
    with TestClient(app) as client:
        with client.websocket_connect("/ws/tables/demo") as ws:
            assert json.loads(ws.receive_text())["state"]["source"]["status"] == "starting"
            table.start()
            seen = _collect(
                ws,
                lambda m: m["type"] == "state" and m["state"]["source"]["status"] == "stalled",
                limit=10,
            )
            statuses = [m["state"]["source"]["status"] for m in seen if m["type"] == "state"]
            assert "reconnecting" in statuses
            camera.stall.set()
            _collect(
                ws,
                lambda m: m["type"] == "state" and m["state"]["source"]["status"] == "live",
                limit=10,
            )
        state = client.get("/api/tables/demo/state").json()
        assert state["last_seq"] == 0 and state["match"]["players"] == list(_clip_match().players)
        assert client.get("/api/tables/demo/frame.jpg").headers["content-type"] == "image/jpeg"


def test_calibration_is_set_and_refound_on_a_camera_table(tmp_path: Path) -> None:
    app = create_app(_settings(tmp_path, start=False, eyes="camera"))
    meta = json.loads((CLIP / "clip.json").read_text("utf-8"))
    with TestClient(app) as client:
        assert client.get("/api/tables/demo/calibration").json()["corners_px"] is None
        corners = meta["field_corners_px"]
        r = client.post("/api/tables/demo/calibration", json={"corners_px": corners}, headers=AUTH)
        assert r.status_code == 200 and r.json()["corners_px"] == corners
        r = client.post(
            "/api/tables/demo/calibration", json={"corners_px": corners[:3]}, headers=AUTH
        )
        assert r.status_code == 422
        r = client.post("/api/tables/demo/calibration", json={"auto": True}, headers=AUTH)
        assert r.status_code == 200 and r.json()["corners_px"] is None
    truth = create_app(_settings(tmp_path / "t", start=False))
    with TestClient(truth) as client:
        r = client.post("/api/tables/demo/calibration", json={"auto": True}, headers=AUTH)
        assert r.status_code == 409


def test_the_demo_command_serves_referees_the_clip_and_writes_the_transcript(
    tmp_path: Path,
) -> None:
    """The README's first command, at 25 times real time, stopping when the clip ends."""
    import subprocess
    import sys

    out = tmp_path / "demo"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "gammoneye",
            "demo",
            "--port",
            "0",
            "--speed",
            "25",
            "--exit-when-done",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert "observer page:  http://localhost:" in run.stderr and "#token=" in run.stderr
    assert "game_start" in run.stdout and "the clip has played" in run.stderr
    mat = (out / "match-001" / "match.mat").read_text("utf-8")
    assert "Game 1" in mat and "charlot1" in mat
    events, problems = read_event_log((out / "match-001" / "events.jsonl").read_text("utf-8"))
    assert not problems and events[0].TYPE == "match_start"
