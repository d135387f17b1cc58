"""The motion gate: a cheap test on every frame of whether the board is still.

Full recognition costs tens of milliseconds; the gate costs about one. It shrinks
each frame to a small grey thumbnail (optionally only the board's area, given as a
quadrilateral), compares it with the previous one and calls the picture *settled*
once ``settle_frames`` frames in a row changed in less than ``still_share`` of their
pixels. A hand reaching in, dice tumbling or a checker being carried all move many
pixels; sensor noise and a flickering light do not (the thumbnail averages them
away, and the threshold is above them).

>>> gate = MotionGate(settle_frames=2)
>>> frame = np.full((720, 1280, 3), 90, np.uint8)
>>> [gate.update(frame).settled for _ in range(3)]
[False, False, True]
>>> frame[200:500, 300:700] = 250  # a hand
>>> gate.update(frame).settled, round(gate.update(frame).motion, 3)
(False, 0.0)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

U8 = NDArray[np.uint8]
F64 = NDArray[np.float64]
__all__ = ["GateState", "MotionGate"]


@dataclass(frozen=True, slots=True)
class GateState:
    motion: float  # share of thumbnail pixels that changed since the last frame
    still_frames: int  # frames in a row below the threshold (this one included)
    settled: bool


class MotionGate:
    """Frame-to-frame change on a grey thumbnail; not thread-safe."""

    def __init__(
        self,
        size: tuple[int, int] = (160, 96),
        threshold: int = 14,
        still_share: float = 0.002,
        settle_frames: int = 3,
        region_px: F64 | None = None,
    ) -> None:
        if settle_frames < 1 or not 0.0 <= still_share < 1.0:
            raise ValueError("settle_frames >= 1 and 0 <= still_share < 1")
        self.size, self.threshold = size, threshold
        self.still_share, self.settle_frames = still_share, settle_frames
        self.region = None if region_px is None else np.asarray(region_px, np.float32)
        self._previous: U8 | None = None
        self._still = 0

    def thumbnail(self, frame: U8) -> U8:
        """The grey thumbnail of the watched area (the region's bounding box, or the
        whole frame)."""
        if self.region is not None:
            x0, y0 = np.floor(self.region.min(axis=0)).astype(int).clip(0)
            x1, y1 = np.ceil(self.region.max(axis=0)).astype(int)
            frame = frame[y0 : y1 + 1, x0 : x1 + 1]
        small = cv2.resize(frame, self.size, interpolation=cv2.INTER_AREA)
        grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
        return cv2.GaussianBlur(grey, (3, 3), 0)  # type: ignore[no-any-return]

    def update(self, frame: U8) -> GateState:
        thumb = self.thumbnail(frame)
        if self._previous is None or self._previous.shape != thumb.shape:
            motion = 1.0  # nothing to compare with yet: not known to be still
        else:
            diff = cv2.absdiff(thumb, self._previous)
            motion = float(np.count_nonzero(diff > self.threshold)) / diff.size
        self._previous = thumb
        self._still = self._still + 1 if motion <= self.still_share else 0
        return GateState(motion, self._still, self._still >= self.settle_frames)

    def reset(self) -> None:
        self._previous, self._still = None, 0
