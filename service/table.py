"""One table: a camera, its referee and its match, run by two threads.

The grabber thread keeps the newest frame (:mod:`gammoneye.service.grabber`); the
referee thread takes it when it is free (frames in between are dropped, as behind
any live camera), runs ``motion gate → board reader → stabiliser → referee`` on it,
writes the new events to the journal first, then to ``events.jsonl``/``match.mat``,
then tells the listeners (the WebSocket clients). Observers' actions (accept,
dismiss, correct, resign, undo, calibration, a new match) take the same lock, so
events are numbered, journalled and sent in one order.

A table keeps its matches in ``OUT/match-NNN/``. Started again (after a crash, a
restart) it resumes the newest match that is not over and was set up the same way.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from gammoneye.engine.events import (
    Event,
    GameStartEvent,
    MatchEndEvent,
    MoveEvent,
    withdrawn_seqs,
)
from gammoneye.engine.position import Position
from gammoneye.engine.referee import Referee, RefereeConfig, Sighting
from gammoneye.service.grabber import FrameGrabber
from gammoneye.service.journal import Journal, MatchFiles
from gammoneye.service.referee import (
    CameraEyes,
    EyesMemory,
    Frame,
    RefereeStep,
    SourceError,
    TruthEyes,
    last_judged_frame,
)
from gammoneye.service.settings import MatchSettings, ServiceSettings, TableSettings

log = logging.getLogger("gammoneye.table")

#: Gets each message as JSON text (made once for every listener).
Listener = Callable[[str], None]


class ActionError(ValueError):
    """An observer's action the match does not allow now (HTTP 409)."""


@dataclass
class LoopStats:
    frames: int = 0
    dropped: int = 0
    busy_s: float = 0.0
    started: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        wall = max(time.monotonic() - self.started, 1e-9) if self.started else 0.0
        return {
            "frames": self.frames,
            "dropped": self.dropped,
            "busy_ms_mean": round(1000 * self.busy_s / self.frames, 2) if self.frames else None,
            "fps": round(self.frames / wall, 2) if wall else 0.0,
        }


def _journal_settings(match: MatchSettings) -> dict[str, Any]:
    return {
        "profile": match.profile,
        "match_length": match.match_length,
        "players": list(match.players),
        "bottom_player": match.bottom_player,
    }


def _camera_dict(eyes: Any) -> dict[str, Any]:
    """How surely the camera reads the dice (``dice_read_p``: the mean probability of
    the face read over the dice read lately, None before enough of them or with the
    clip's truth as eyes) and what to tell the observer of it (``notice``, else None)."""
    confidence = getattr(eyes, "dice_confidence", None)
    mean = None if confidence is None else confidence.mean
    return {
        "dice_read_p": None if mean is None else round(mean, 3),
        "notice": None if confidence is None else confidence.notice(),
    }


class Table:
    def __init__(self, settings: TableSettings, service: ServiceSettings) -> None:
        self.settings = settings
        self.id = settings.id
        self.service = service
        self.out = service.table_out(settings)
        self.lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.eyes = self._make_eyes()
        self.stats = LoopStats()
        self._jpeg: tuple[int, bool, bytes] | None = None
        self._last_status = ""
        self.match = settings.match
        self.folder, self.journal, self.referee = self._open_match(
            settings.match, fresh=not settings.resume
        )
        # A recording resumed is taken up at the frame of its last event: looked at
        # again (RefereeStep.recall), not judged; what the camera eyes had learnt
        # (field, home side, colours) comes back from the journal.
        self._recall_frame = last_judged_frame(settings.source, self.referee.events)
        self.memory = EyesMemory(self.eyes, self.journal)
        if len(self.referee.events) > 1:
            problem = self.memory.restore()
            if problem:
                log.warning("table %s: %s", self.id, problem)
        self.grabber = FrameGrabber(
            settings.source,
            fps=settings.fps,
            first=self._recall_frame or 0,
            speed=settings.speed,
            stall_s=service.stall_s,
            reconnect_s=service.reconnect_s,
            retry_s=service.retry_s,
        )
        self.step = RefereeStep(self.eyes, self.referee)
        self.files = MatchFiles(self.folder)
        self.files.write(self.referee.events)

    # --- set-up ----------------------------------------------------------------------------
    def _make_eyes(self) -> CameraEyes | TruthEyes:
        s = self.settings
        if s.eyes == "truth":
            clip = Path(s.source)
            if not (clip / "frames.jsonl").is_file():
                raise SourceError(f"eyes 'truth' needs a rendered clip; {clip} has no frames.jsonl")
            return TruthEyes(clip)
        corners = None
        if s.calibration is not None:
            from gammoneye.calibration.profile import CalibrationProfile

            if not s.calibration.is_file():
                raise SourceError(f"no such calibration file: {s.calibration}")
            text = s.calibration.read_text("utf-8")
            corners = CalibrationProfile.from_json(text, str(s.calibration)).corners()
        return CameraEyes(s.match.bottom_player, corners)

    def _open_match(self, match: MatchSettings, *, fresh: bool) -> tuple[Path, Journal, Referee]:
        """The newest unfinished match set up as ``match`` (unless ``fresh``), else a
        new one in the next ``match-NNN`` folder."""
        self.out.mkdir(parents=True, exist_ok=True)
        folders = sorted(p for p in self.out.glob("match-[0-9][0-9][0-9]") if p.is_dir())
        want = _journal_settings(match)
        config = RefereeConfig(
            profile=match.profile,
            match_length=match.match_length,
            players=match.players,
            bottom_player=match.bottom_player,
        )
        if folders and not fresh:
            journal = Journal(folders[-1] / "journal.sqlite")
            events = journal.events()
            gone = withdrawn_seqs(events)
            over = any(isinstance(e, MatchEndEvent) and e.seq not in gone for e in events)
            if events and journal.settings() == want and not over:
                log.info("table %s: resuming %s (%d events)", self.id, folders[-1], len(events))
                return folders[-1], journal, Referee.resume(config, events)
            journal.close()
        number = int(folders[-1].name.split("-")[1]) + 1 if folders else 1
        folder = self.out / f"match-{number:03d}"
        journal = Journal(folder / "journal.sqlite")
        journal.set_settings(want)
        referee = Referee(config, t=0.0)
        journal.append(referee.events)
        return folder, journal, referee

    # --- threads ---------------------------------------------------------------------------
    def start(self) -> None:
        if self._thread is not None:
            return
        self.stats.started = time.monotonic()
        self.grabber.start()
        self._thread = threading.Thread(target=self._run, name=f"table {self.id}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self.grabber.stop()
        if self._thread is not None:
            self._thread.join(5.0)
        with self.lock:
            self.journal.close()

    def _run(self) -> None:
        seen = 0
        while not self._stop.is_set():
            count, frame = self.grabber.wait_newer(seen, timeout=0.25)
            self._check_source()
            if frame is None:
                continue
            self.stats.dropped += max(0, count - seen - 1)
            seen = count
            try:
                self.feed(frame)
            except Exception:  # a bug must not stop the table: say it, go on
                log.exception("table %s: frame %s failed", self.id, frame.ref)

    def feed(self, frame: Frame) -> list[Event]:
        """Judge one frame (the referee thread does this with the newest frame; tests
        and tools may call it directly on a table not started)."""
        start = time.perf_counter()
        try:
            with self.lock:
                self._frame = frame
                if self._recall_frame is not None:
                    recall, self._recall_frame = self._recall_frame, None
                    if frame.ref == recall:
                        self.step.recall(frame)
                        return []
                new = self.step(frame)
                self.memory.keep()
                if new:
                    self._publish(new)
                return new
        finally:
            self.stats.busy_s += time.perf_counter() - start
            self.stats.frames += 1

    def _check_source(self) -> None:
        status = self.grabber.status()
        key = f"{status.status}|{status.message}"
        if key != self._last_status:
            self._last_status = key
            with self.lock:
                self._send({"type": "state", "state": self.state()})

    # --- events out ------------------------------------------------------------------------
    def _publish(self, new: list[Event]) -> None:
        """Journal first (on disk when this returns), then the files, then listeners.
        Called with the lock held."""
        self.journal.append(new)
        self.files.write(self.referee.events)
        for e in new:
            self._send({"type": "event", "event": e.to_dict()})
        self._send({"type": "state", "state": self.state()})

    def _send(self, message: dict[str, Any]) -> None:
        text = json.dumps(message)
        for listener in list(self._listeners):
            try:
                listener(text)
            except Exception:
                log.exception("table %s: a listener failed; dropping it", self.id)
                self._listeners.remove(listener)

    def subscribe(self, listener: Listener, since: int | None = None) -> None:
        """Add a listener; it gets the current state at once, then (with ``since``) the
        events from that seq on, then every new message: nothing missed, nothing twice."""
        with self.lock:
            listener(json.dumps({"type": "state", "state": self.state()}))
            if since is not None:
                for e in self.referee.events[max(0, since) :]:
                    listener(json.dumps({"type": "event", "event": e.to_dict()}))
            self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        with self.lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    @property
    def listeners(self) -> int:
        return len(self._listeners)

    # --- what the pages show ---------------------------------------------------------------
    def events_since(self, since: int = 0) -> list[dict[str, Any]]:
        with self.lock:
            return [e.to_dict() for e in self.referee.events[max(0, since) :]]

    def state(self) -> dict[str, Any]:
        with self.lock:
            ref = self.referee
            st = ref.state
            pos = st.position
            points = [pos.boards[0][i] - pos.boards[1][23 - i] for i in range(24)]
            moves, game = [], 0
            gone = withdrawn_seqs(ref.events)
            for e in ref.events:
                if e.seq in gone:
                    continue
                if isinstance(e, GameStartEvent):
                    game = e.game
                elif isinstance(e, MoveEvent):
                    moves.append(
                        {
                            "seq": e.seq,
                            "game": game,
                            "player": e.player,
                            "dice": list(e.dice),
                            "play": e.play,
                            "legal": e.legal,
                        }
                    )
            flag = None
            if ref.flag is not None:
                flag = next(
                    (
                        e.to_dict()
                        for e in reversed(ref.events)
                        if e.TYPE == "flag" and getattr(e, "flag_id", None) == ref.flag.flag_id
                    ),
                    None,
                )
            result = st.last_result
            over = st.phase.value == "match_over"
            return {
                "table": self.id,
                "source": self.grabber.status().to_dict(),
                "loop": self.stats.to_dict(),
                "eyes": self.settings.eyes,
                "folder": str(self.folder),
                "match": {
                    "id": self.folder.name,
                    "players": list(ref.config.players),
                    "match_length": st.match_length,
                    "profile": st.profile.name,
                    "score": list(st.score),
                    "game": st.game_number,
                    "crawford": st.is_crawford_game,
                    "phase": st.phase.value,
                    "on_roll": st.on_roll
                    if st.phase.value in ("roll", "move", "doubled")
                    else None,
                    "winner": result.winner if over and result is not None else None,
                    "bottom_player": ref.config.bottom_player,
                },
                "board": {
                    "points": points,
                    "bar": [pos.bar(0), pos.bar(1)],
                    "off": [pos.off(0), pos.off(1)],
                    "pips": [pos.pips(0), pos.pips(1)],
                },
                "dice": list(st.dice) if st.dice else None,
                "cube": {
                    "value": st.cube_value,
                    "owner": st.cube_owner,
                    "offered": st.offered_cube,
                },
                "flag": flag,
                "moves": moves,
                "last_seq": ref.events[-1].seq if ref.events else -1,
                "reading": _reading_dict(self.step.last),
                "camera": _camera_dict(self.eyes),
            }

    def frame_jpeg(self, overlay: bool = True) -> bytes | None:
        """The newest frame as JPEG, with the last reading drawn on it."""
        import cv2

        count, frame = self.grabber.newest()
        if frame is None or frame.image is None:
            return None
        cached = self._jpeg
        if cached is not None and cached[0] == count and cached[1] == overlay:
            return cached[2]
        image = frame.image
        if overlay:
            image = self._drawn(image)
        ok, buf = cv2.imencode(
            ".jpg", image, [int(cv2.IMWRITE_JPEG_QUALITY), self.service.jpeg_quality]
        )
        if not ok:
            return None
        data = buf.tobytes()
        self._jpeg = (count, overlay, data)
        return data

    def _drawn(self, image: np.ndarray) -> np.ndarray:
        import cv2

        out = image.copy()
        corners = self.calibration()["corners_px"]
        reading = getattr(self.eyes, "last_reading", None)
        if reading is not None:
            from gammoneye.vision.draw import draw_reading

            out = draw_reading(out, reading)
        elif corners:
            pts = np.asarray(corners, np.int32).reshape(-1, 1, 2)
            cv2.polylines(out, [pts], True, (60, 220, 60), 2, cv2.LINE_AA)
        return out

    def calibration(self) -> dict[str, Any]:
        eyes = self.eyes
        if isinstance(eyes, CameraEyes):
            prof = eyes.profile
            corners = None if eyes.corners is None else np.asarray(eyes.corners).tolist()
            return {
                "corners_px": corners,
                "source": None if prof is None else prof.source,
                "image_size": None if prof is None else list(prof.image_size),
            }
        meta = json.loads((Path(self.settings.source) / "clip.json").read_text("utf-8"))
        return {
            "corners_px": meta.get("field_corners_px"),
            "source": "clip",
            "image_size": [meta.get("width"), meta.get("height")],
        }

    # --- observers' actions ----------------------------------------------------------------
    def _act(self, action: Callable[[], list[Event]]) -> list[dict[str, Any]]:
        with self.lock:
            try:
                new = action()
            except ValueError as exc:
                raise ActionError(str(exc)) from None
            if new:
                self._publish(new)
            return [e.to_dict() for e in new]

    def accept(self) -> list[dict[str, Any]]:
        def run() -> list[Event]:
            if self.referee.flag is None:
                raise ActionError("no illegal play is flagged")
            return self.referee.accept_illegal_play(source="observer")

        return self._act(run)

    def dismiss(self, flag_id: str | None) -> list[dict[str, Any]]:
        def run() -> list[Event]:
            flag = self.referee.flag
            if flag is None:
                raise ActionError("no flag is open")
            if flag_id is not None and flag_id != flag.flag_id:
                raise ActionError(f"flag {flag_id} is not the open one ({flag.flag_id})")
            return self.referee.dismiss_flag(flag_id)

        return self._act(run)

    def correct(self, after: str) -> list[dict[str, Any]]:
        return self._act(lambda: self.referee.correct_play(after, t=self._now()))

    def resign(self, player: int, level: int) -> list[dict[str, Any]]:
        return self._act(lambda: self.referee.resign(player, level, t=self._now()))

    def answer(self, accept: bool) -> list[dict[str, Any]]:
        return self._act(lambda: self.referee.answer_resignation(accept, t=self._now()))

    def undo(self) -> list[dict[str, Any]]:
        return self._act(lambda: self.referee.undo(t=self._now()))

    def _now(self) -> float | None:
        frame = getattr(self, "_frame", None)
        return None if frame is None else float(frame.t)

    def set_corners(self, corners: list[list[float]] | None) -> dict[str, Any]:
        """New field corners (``None``: find the field again) for the frames to come."""
        with self.lock:
            if not isinstance(self.eyes, CameraEyes):
                raise ActionError("this table replays a clip's labels: there is no calibration")
            self.eyes.corners = None if corners is None else np.asarray(corners, np.float64)
            self.eyes.profile = None
            self.step.stab.reset()
            self._send({"type": "state", "state": self.state()})
        return self.calibration()

    def new_match(self, match: MatchSettings) -> dict[str, Any]:
        with self.lock:
            self.journal.close()
            self.match = match
            self.folder, self.journal, self.referee = self._open_match(match, fresh=True)
            if isinstance(self.eyes, CameraEyes):
                self.eyes.bottom_player = match.bottom_player
                self.eyes.colours = None  # learnt again from the next opening
            self.step = RefereeStep(self.eyes, self.referee)
            self._recall_frame = None
            self.memory = EyesMemory(self.eyes, self.journal)
            self.memory.kept = None  # the new journal gets the field already known
            self.memory.keep()
            self.files = MatchFiles(self.folder)
            self.files.write(self.referee.events)
            for e in self.referee.events:
                self._send({"type": "event", "event": e.to_dict()})
            state = self.state()
            self._send({"type": "state", "state": state})
            return state

    # --- files ---------------------------------------------------------------------------------
    def mat_text(self) -> str | None:
        path = self.folder / "match.mat"
        return path.read_text("utf-8") if path.is_file() else None

    def events_text(self) -> str:
        return (self.folder / "events.jsonl").read_text("utf-8")


def _reading_dict(s: Sighting | None) -> dict[str, Any] | None:
    if s is None:
        return None
    guess = s.checkers.guess(0)
    return {
        "t": s.t,
        "frame": s.frame,
        "position": None if guess is None else _position_id(guess),
        "dice": [
            {"value": d.value, "p": round(d.p, 3), "cocked": round(d.cocked, 3), "half": d.half}
            for d in s.dice
        ],
        "cube": None if s.cube is None else {"value": s.cube.value, "place": s.cube.place},
    }


def _position_id(p: Position) -> str | None:
    try:
        return p.position_id()
    except ValueError:
        return None
