"""A saved calibration: where the field is in a camera's picture, and a check that it
still is (the board bumped, the camera moved).

A :class:`CalibrationProfile` is one JSON file per camera and board (format
``gammoneye-calibration``, version 1): the image size, the four field corners in
canonical order (:func:`~.boardspace.canonical_corners`), the bar's share of the
field, the orientation when known, how the corners were found, and a small
gradient picture of the empty-looking field for :meth:`CalibrationProfile.drift`.

>>> import numpy as np
>>> profile = CalibrationProfile.from_corners(
...     np.array([(100, 600), (1100, 620), (1050, 100), (150, 90)]), (1280, 720))
>>> [round(v) for v in profile.corners()[0]]
[100, 600]
>>> CalibrationProfile.from_json(profile.to_json()) == profile
True
"""

from __future__ import annotations

import base64
import json
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from .boardspace import BoardSpace, CalibrationError, Orientation, canonical_corners

F64 = NDArray[np.float64]
U8 = NDArray[np.uint8]

PROFILE_SCHEMA = "gammoneye-calibration"
PROFILE_VERSION = 1
SOURCES = ("auto", "manual", "markers")
#: Size of the drift reference (board space scaled down).
THUMB = (100, 80)


@dataclass(frozen=True)
class CalibrationProfile:
    image_size: tuple[int, int]  # width, height of the camera's pictures
    field_corners_px: tuple[tuple[float, float], ...]  # canonical c0..c3
    bar_fraction: float = 0.08
    orientation: Orientation | None = None
    source: str = "manual"
    score: float | None = None
    reference: str = ""  # base64 of the THUMB gradient picture, "" when not taken

    def __post_init__(self) -> None:
        if len(self.image_size) != 2 or min(self.image_size) < 16:
            raise CalibrationError(f"image size {self.image_size} is not a picture's")
        if self.source not in SOURCES:
            raise CalibrationError(f"source {self.source!r} is not one of {SOURCES}")
        corners = np.array(self.field_corners_px, np.float64)
        w, h = self.image_size
        margin = 0.5 * max(w, h)
        if (
            corners.shape != (4, 2)
            or (np.abs(corners - (w / 2, h / 2)) > margin + max(w, h) / 2).any()
        ):
            raise CalibrationError(f"field corners {corners.tolist()} do not fit a {w}x{h} picture")
        BoardSpace(bar_fraction=self.bar_fraction)  # checks the fraction

    # -- construction ----------------------------------------------------------------------
    @classmethod
    def from_corners(
        cls,
        corners_px: F64,
        image_size: tuple[int, int],
        *,
        source: str = "manual",
        score: float | None = None,
        long_side_first: bool = False,
        image: U8 | None = None,
        bar_fraction: float = 0.08,
    ) -> CalibrationProfile:
        """A profile from four field corners in any order; with ``image`` it also
        takes the drift reference from it."""
        c = canonical_corners(corners_px, image_size, long_side_first=long_side_first)
        profile = cls(
            (int(image_size[0]), int(image_size[1])),
            tuple((round(float(x), 2), round(float(y), 2)) for x, y in c),
            bar_fraction,
            None,
            source,
            None if score is None else round(float(score), 4),
        )
        return profile.with_reference(image) if image is not None else profile

    def with_reference(self, image: U8) -> CalibrationProfile:
        """This profile with the drift reference taken from ``image`` (a settled
        picture, no hands over the board)."""
        thumb = self._gradient_thumb(image)
        return replace(self, reference=base64.b64encode(thumb.tobytes()).decode("ascii"))

    # -- geometry --------------------------------------------------------------------------
    def corners(self) -> F64:
        return np.array(self.field_corners_px, np.float64)

    def space(self, width: int = 1000, height: int = 800) -> BoardSpace:
        return BoardSpace(width, height, self.bar_fraction)

    def homography(self, space: BoardSpace | None = None) -> F64:
        """Image -> board space (``space`` default: 1000 x 800)."""
        space = space or self.space()
        src = self.corners().astype(np.float32)
        return cv2.getPerspectiveTransform(src, space.corners().astype(np.float32))  # type: ignore[no-any-return]

    def warp(self, image: U8, space: BoardSpace | None = None) -> U8:
        """The field of ``image`` from above. The picture must be this camera's size."""
        self._check_size(image)
        space = space or self.space()
        return cv2.warpPerspective(  # type: ignore[no-any-return]
            image, self.homography(space), (space.width, space.height), flags=cv2.INTER_LINEAR
        )

    def _check_size(self, image: U8) -> None:
        if (image.shape[1], image.shape[0]) != self.image_size:
            raise CalibrationError(
                f"picture is {image.shape[1]}x{image.shape[0]}, the calibration is for "
                f"{self.image_size[0]}x{self.image_size[1]}: calibrate this camera again"
            )

    # -- drift -----------------------------------------------------------------------------
    def _gradient_thumb(self, image: U8) -> U8:
        self._check_size(image)
        space = BoardSpace(THUMB[0], THUMB[1], self.bar_fraction)
        small = cv2.warpPerspective(image, self.homography(space), THUMB, flags=cv2.INTER_AREA)
        grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
        gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
        mag = cv2.magnitude(gx, gy)
        return np.clip(mag / (mag.max() + 1e-6) * 255, 0, 255).astype(np.uint8)  # type: ignore[no-any-return]

    def drift(self, image: U8) -> float:
        """How far ``image`` is from the picture the reference was taken from, 0 (the
        field's edges are where they were) to 1 (nothing in common): one minus the
        normalised correlation of the field's gradient pictures. Meant for settled
        pictures: a hand over the board raises it too. Moving checkers changes little,
        the board moved by a few centimetres a lot."""
        if not self.reference:
            raise CalibrationError(
                "this calibration has no drift reference (take one with an image)"
            )
        ref = np.frombuffer(base64.b64decode(self.reference), np.uint8).astype(np.float32)
        now = self._gradient_thumb(image).astype(np.float32).ravel()
        ref, now = ref - ref.mean(), now - now.mean()
        denom = float(np.linalg.norm(ref) * np.linalg.norm(now))
        return 1.0 if denom == 0 else float(np.clip(1 - (ref @ now) / denom, 0.0, 1.0))

    # -- files -----------------------------------------------------------------------------
    def to_json(self) -> str:
        data: dict[str, Any] = {
            "schema": PROFILE_SCHEMA,
            "version": PROFILE_VERSION,
            "image_size": list(self.image_size),
            "field_corners_px": [list(c) for c in self.field_corners_px],
            "bar_fraction": self.bar_fraction,
            "orientation": None
            if self.orientation is None
            else {
                "bottom_player": self.orientation.bottom_player,
                "home_right": self.orientation.home_right,
            },
            "source": self.source,
            "score": self.score,
            "reference": self.reference,
        }
        return json.dumps(data, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str, where: str = "calibration") -> CalibrationProfile:
        """Read a profile; every problem is a :class:`CalibrationError` naming ``where``
        and the field."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CalibrationError(f"{where}: not JSON ({exc.msg}, line {exc.lineno})") from None
        if not isinstance(data, dict) or data.get("schema") != PROFILE_SCHEMA:
            raise CalibrationError(
                f"{where}: not a GammonEye calibration (schema {PROFILE_SCHEMA!r})"
            )
        if data.get("version") != PROFILE_VERSION:
            raise CalibrationError(
                f"{where}: calibration version {data.get('version')!r}; this GammonEye reads "
                f"version {PROFILE_VERSION}"
            )
        try:
            o = data.get("orientation")
            orientation = (
                None if o is None else Orientation(int(o["bottom_player"]), bool(o["home_right"]))
            )
            if orientation is not None and orientation.bottom_player not in (0, 1):
                raise ValueError("orientation.bottom_player must be 0 or 1")
            w, h = data["image_size"]
            corners = tuple((float(x), float(y)) for x, y in data["field_corners_px"])
            return cls(
                (int(w), int(h)),
                corners,
                float(data.get("bar_fraction", 0.08)),
                orientation,
                str(data.get("source", "manual")),
                None if data.get("score") is None else float(data["score"]),
                str(data.get("reference", "")),
            )
        except CalibrationError as exc:
            raise CalibrationError(f"{where}: {exc}") from None
        except (KeyError, TypeError, ValueError) as exc:
            raise CalibrationError(f"{where}: bad or missing field ({exc})") from None

    def save(self, path: Path) -> None:
        """Write atomically: a crash never leaves half a file."""
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(self.to_json(), encoding="utf-8")
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: Path) -> CalibrationProfile:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise CalibrationError(f"cannot read calibration {path}: {exc.strerror}") from None
        return cls.from_json(text, str(path))
