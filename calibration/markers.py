"""Printed markers for hard setups: four ArUco markers at the field's corners.

Where the board cannot be found on its own (a low camera, a busy board, poor
light), print the sheet of :func:`marker_sheet` (``gammoneye markers sheet.png``),
cut out the four markers and lay each on the rail at one corner of the playing
field, **one corner of its black square on the field's corner**, any way round:

- marker 0 at the bottom-left corner, seen from the seat of the player who will sit
  at the field's bottom side; 1 bottom-right; 2 top-right; 3 top-left.

:func:`find_markers` then gives the field's corners in canonical order (c0 .. c3 =
markers 0 .. 3): the corner of each marker nearest the middle of the four. The
markers' numbers also fix which side is the bottom.

>>> sheet = marker_sheet(dpi=100)
>>> sorted(detect(sheet))  # all four markers read off the printed sheet
[0, 1, 2, 3]
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from .boardspace import CalibrationError, signed_area

F64 = NDArray[np.float64]
U8 = NDArray[np.uint8]
DICTIONARY = cv2.aruco.DICT_4X4_50
NAMES = ("bottom-left", "bottom-right", "top-right", "top-left")
__all__ = ["detect", "find_markers", "marker_sheet"]


def _detector() -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(DICTIONARY), params)


def detect(image: U8) -> dict[int, F64]:
    """The markers 0..3 seen in ``image``: id -> its four corners (image pixels)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    corners, ids, _ = _detector().detectMarkers(grey)
    found: dict[int, F64] = {}
    if ids is None:
        return found
    for quad, marker in zip(corners, ids.reshape(-1), strict=True):
        if 0 <= int(marker) <= 3 and int(marker) not in found:
            found[int(marker)] = np.asarray(quad, np.float64).reshape(4, 2)
    return found


def find_markers(image: U8) -> F64 | None:
    """The field's corners c0..c3 from the four markers, or None when no marker is
    seen; :class:`CalibrationError` naming the missing ones when only some are, or
    when they do not go round a field in order."""
    found = detect(image)
    if not found:
        return None
    missing = [f"{k} ({NAMES[k]})" for k in range(4) if k not in found]
    if missing:
        raise CalibrationError(
            "markers not found: " + ", ".join(missing) + "; all four must be in view"
        )
    middle = np.mean([found[k].mean(axis=0) for k in range(4)], axis=0)
    corners = np.array(
        [found[k][np.argmin(np.linalg.norm(found[k] - middle, axis=1))] for k in range(4)]
    )
    # c0..c3 go counter-clockwise on the screen (y down: negative shoelace area)
    if signed_area(corners) >= 0 or _crossed(corners):
        raise CalibrationError(
            "the markers are not laid in order round the field: 0 bottom-left, "
            "1 bottom-right, 2 top-right, 3 top-left, seen from the bottom seat"
        )
    return corners


def _crossed(quad: F64) -> bool:
    """Whether the quadrilateral's sides cross (a bow tie): its corners out of order."""

    def cross(o: F64, a: F64, b: F64) -> float:
        return float((a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]))

    turns = [cross(quad[i], quad[(i + 1) % 4], quad[(i + 2) % 4]) for i in range(4)]
    return not (all(t > 0 for t in turns) or all(t < 0 for t in turns))


def marker_sheet(size_cm: float = 4.0, dpi: int = 300) -> U8:
    """A printable A4 sheet (portrait, ``dpi``) of the four markers, ``size_cm`` wide,
    each captioned with its number and corner."""
    px_cm = dpi / 2.54
    sheet = np.full((round(29.7 * px_cm), round(21.0 * px_cm)), 255, np.uint8)
    side = round(size_cm * px_cm)
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    for k in range(4):
        marker = cv2.aruco.generateImageMarker(dictionary, k, side, borderBits=1)
        col, row = k % 2, k // 2
        x = round((3 + col * 9) * px_cm)
        y = round((3 + row * 11) * px_cm)
        sheet[y : y + side, x : x + side] = marker
        cv2.putText(
            sheet,
            f"{k}: {NAMES[k]}",
            (x, y + side + round(0.8 * px_cm)),
            cv2.FONT_HERSHEY_SIMPLEX,
            dpi / 300,
            0,
            max(1, dpi // 150),
            cv2.LINE_AA,
        )
    note = "GammonEye: a corner of each black square on a corner of the playing field"
    cv2.putText(
        sheet,
        note,
        (round(1.5 * px_cm), round(27 * px_cm)),
        cv2.FONT_HERSHEY_SIMPLEX,
        dpi / 450,
        0,
        max(1, dpi // 200),
        cv2.LINE_AA,
    )
    return cv2.cvtColor(sheet, cv2.COLOR_GRAY2BGR)  # type: ignore[no-any-return]
