"""Reading a camera in its own thread, keeping only the newest frame.

A live camera must be read as fast as it delivers, whatever the referee is doing:
OpenCV's capture buffers otherwise fill and the referee sees the past. The grabber
owns the source, keeps the newest frame only, and says how the source is doing:

``starting`` → ``live`` ⇄ ``stalled`` (no frame for ``stall_s``) → ``reconnecting``
(the source raised or closed, or stayed silent for ``reconnect_s``; it is reopened
with a growing wait) → ``live``; a
finite source (a file, a folder, a rendered clip) ends as ``ended``; ``error`` when
it cannot be opened at all in the first place is reported and retried too.

Finite sources are paced at their own frame rate, so a recorded clip plays as a
camera would deliver it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gammoneye.service.referee import Frame, is_live, open_source

Opener = Callable[[], Iterator[Frame]]


@dataclass(frozen=True)
class SourceStatus:
    spec: str
    status: str
    message: str
    fps: float
    frames: int
    since: float  # wall clock (epoch seconds) of the last status change

    def to_dict(self) -> dict[str, Any]:
        return {
            "spec": self.spec,
            "status": self.status,
            "message": self.message,
            "fps": round(self.fps, 2),
            "frames": self.frames,
            "since": self.since,
        }


class FrameGrabber:
    def __init__(
        self,
        spec: str,
        *,
        fps: float | None = None,
        first: int = 0,
        speed: float = 1.0,
        opener: Opener | None = None,
        live: bool | None = None,
        stall_s: float = 3.0,
        retry_s: float = 1.0,
        max_retry_s: float = 10.0,
        reconnect_s: float | None = None,
    ) -> None:
        self.spec = spec
        self.live = is_live(spec) if live is None else live
        self._opener = opener or (lambda: open_source(spec, fps, first=first))
        self.speed = speed
        self.stall_s = stall_s
        self.retry_s = retry_s
        self.max_retry_s = max_retry_s
        #: A live source silent this long is opened again (default: 3 x ``stall_s``).
        self.reconnect_s = reconnect_s if reconnect_s is not None else 3 * stall_s
        self._generation = 0
        self._cond = threading.Condition()
        self._frame: Frame | None = None
        self._count = 0  # frames delivered so far; the newest one's number
        self._status = "starting"
        self._message = f"opening {spec}"
        self._since = time.time()
        self._last_frame_at = time.monotonic()
        self._rate = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"grab {spec}", daemon=True)

    # --- the thread ------------------------------------------------------------------------
    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _set(self, status: str, message: str) -> None:
        with self._cond:
            if (status, message) != (self._status, self._message):
                self._status, self._message, self._since = status, message, time.time()
            self._cond.notify_all()

    def _run(self) -> None:
        """Open the source, let a pump thread read it, and open it again when it
        fails, closes, or (live) delivers nothing for ``reconnect_s``: a hung read
        cannot be interrupted, so a stalled connection is abandoned to its thread."""
        wait = self.retry_s
        t0 = time.monotonic()
        while not self._stop.is_set():
            self._generation += 1
            outcome: dict[str, Any] = {}
            opened_at = time.monotonic()
            pump = threading.Thread(
                target=self._pump,
                args=(self._generation, outcome, t0),
                name=f"read {self.spec}",
                daemon=True,
            )
            pump.start()
            while pump.is_alive() and not self._stop.is_set():
                pump.join(0.1)
                quiet = time.monotonic() - max(self._last_frame_at, opened_at)
                if self.live and quiet > self.reconnect_s:
                    outcome["problem"] = f"no frame for {quiet:.0f} s"
                    self._generation += 1  # the hung connection's frames are ignored
                    break
            if self._stop.is_set():
                return
            if outcome.get("ended"):
                self._set("ended", f"{describe_spec(self.spec)} played to its end")
                return
            problem = outcome.get("problem", "the source closed")
            if outcome.get("got"):
                wait = self.retry_s
            status = "reconnecting" if self._count else "error"
            self._set(status, f"{problem}; trying again in {wait:.0f} s")
            if self._stop.wait(wait):
                return
            wait = min(self.max_retry_s, wait * 2)

    def _pump(self, generation: int, outcome: dict[str, Any], t0: float) -> None:
        """Read one connection of the source until it ends, fails or is abandoned."""
        try:
            frames = self._opener()
            start, t_first = time.monotonic(), None
            for frame in frames:
                if self._stop.is_set() or generation != self._generation:
                    return
                if not self.live:  # play a recording at its own pace
                    t_first = frame.t if t_first is None else t_first
                    delay = start + (frame.t - t_first) / self.speed - time.monotonic()
                    if delay > 0 and self._stop.wait(delay):
                        return
                else:  # times from one clock across reconnections
                    frame = Frame(self._count, time.monotonic() - t0, frame.image)
                if generation != self._generation:
                    return
                self._deliver(frame)
                outcome["got"] = True
            if not self.live:
                outcome["ended"] = True
        except Exception as exc:  # a camera unplugged, a stream gone, a bad file
            outcome["problem"] = f"{type(exc).__name__}: {exc}"

    def _deliver(self, frame: Frame) -> None:
        now = time.monotonic()
        with self._cond:
            gap = now - self._last_frame_at
            if self._count and gap > 0:
                self._rate = 1 / gap if self._rate == 0 else 0.9 * self._rate + 0.1 / gap
            self._frame = frame
            self._count += 1
            self._last_frame_at = now
            if self._status != "live":
                self._status, self._message, self._since = "live", "", time.time()
            self._cond.notify_all()

    # --- for the consumers -----------------------------------------------------------------
    def newest(self) -> tuple[int, Frame | None]:
        with self._cond:
            return self._count, self._frame

    def wait_newer(self, seen: int, timeout: float) -> tuple[int, Frame | None]:
        """The newest frame once there is one after frame number ``seen`` (or ``None``
        after ``timeout`` seconds)."""
        with self._cond:
            self._cond.wait_for(lambda: self._count > seen or self._stop.is_set(), timeout)
            if self._count > seen:
                return self._count, self._frame
            return self._count, None

    def status(self) -> SourceStatus:
        with self._cond:
            status, message, since = self._status, self._message, self._since
            quiet = time.monotonic() - self._last_frame_at
            if status == "live" and quiet > self.stall_s:
                status = "stalled"
                message = f"no frame for {quiet:.0f} s"
                since = time.time() - quiet
            fps = self._rate if quiet < max(self.stall_s, 1.0) else 0.0
            return SourceStatus(self.spec, status, message, fps, self._count, since)


def describe_spec(spec: str) -> str:
    if spec.isdigit():
        return f"camera {spec}"
    if "://" in spec:
        return spec
    return Path(spec).name or spec
