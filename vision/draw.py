"""Pictures of readings: a reading drawn on its picture (``vision read --show``) and
a contact sheet of the worst cases of an evaluation (``eval vision --sheet``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np
from numpy.typing import NDArray

from .reading import BoardReading

if TYPE_CHECKING:
    from .evaluate import VisionReport
    from .read import BoardReader

U8 = NDArray[np.uint8]
INK = {"dark": (40, 40, 220), "light": (230, 200, 40), None: (180, 180, 180)}


def _text(
    img: U8, text: str, at: tuple[int, int], colour: tuple[int, int, int], scale: float = 0.5
) -> None:
    for c, t in (((0, 0, 0), 3), (colour, 1)):
        cv2.putText(img, text, at, cv2.FONT_HERSHEY_SIMPLEX, scale, c, t, cv2.LINE_AA)


def draw_reading(image: U8, reading: BoardReading) -> U8:
    """A copy of ``image`` with the field, each point's count (d/l for the colour),
    the dice and the cube drawn on it."""
    out = image.copy()
    if reading.corners_px:
        quad = np.round(np.array(reading.corners_px)).astype(np.int32)
        cv2.polylines(out, [quad], True, (0, 255, 255), 2, cv2.LINE_AA)
        _text(out, "c0", tuple(quad[0]), (0, 255, 255))
    for p in reading.points:
        colour, n = p.best()
        if p.image_xy is None:
            continue
        x, y = (round(v) for v in p.image_xy)
        label = f"{p.number}:{n}{colour[0] if colour else ''}"
        _text(out, label, (x - 14, y + (14 if p.number <= 12 else -4)), INK[colour], 0.4)
    for d in reading.dice:
        if d.image_xy is None:
            continue
        x, y = (round(v) for v in d.image_xy)
        cv2.circle(out, (x, y), 14, (0, 0, 255) if d.cocked >= 0.5 else (0, 220, 0), 2)
        _text(out, f"{d.value()}{' cocked' if d.cocked >= 0.5 else ''}", (x + 16, y), (0, 255, 0))
    if reading.cube is not None and reading.cube.image_xy is not None:
        x, y = (round(v) for v in reading.cube.image_xy)
        cv2.rectangle(out, (x - 14, y - 14), (x + 14, y + 14), (255, 0, 255), 2)
        _text(out, f"cube {reading.cube.value()} {reading.cube.place}", (x + 16, y), (255, 0, 255))
    return out


def worst_sheet(
    run: Path,
    report: VisionReport,
    path: Path,
    reader: BoardReader,
    *,
    calibrated: bool = False,
    n: int = 12,
    tile_w: int = 560,
) -> None:
    """The ``n`` worst pictures of ``report``, read again and drawn, 3 per row, each
    captioned with what went wrong."""
    from gammoneye.calibration.boardspace import canonical_corners

    from .read import NoBoardError

    worst = sorted(report.cases, key=lambda c: -c.badness)[:n]
    tiles = []
    for case in worst:
        image = cv2.imread(str(run / case.image), cv2.IMREAD_COLOR)
        if image is None:
            continue
        label = json.loads((run / "labels" / (Path(case.image).stem + ".json")).read_text())
        try:
            field = label["board"]["field_corners_px"]
            if calibrated and field is not None:
                size = (image.shape[1], image.shape[0])
                corners = canonical_corners(np.array(field, float), size, long_side_first=True)
                drawn = draw_reading(image, reader.read(image, corners=corners))
            else:
                drawn = draw_reading(image, reader.read(image))
        except NoBoardError:
            drawn = image.copy()
        scale = tile_w / drawn.shape[1]
        tile = cv2.resize(
            drawn, (tile_w, round(drawn.shape[0] * scale)), interpolation=cv2.INTER_AREA
        )
        caption = (
            f"{case.image}: "
            + ("NO FIELD" if not case.found else f"{case.wrong_points} pts wrong")
            + ("" if case.bar_right else ", bar")
            + (f", dice {case.dice_wrong}" if case.dice_wrong else "")
            + (", cube" if case.cube_wrong else "")
        )
        bar = np.zeros((22, tile_w, 3), np.uint8)
        _text(bar, caption, (4, 16), (255, 255, 255), 0.45)
        tiles.append(np.vstack([bar, tile]))
    if not tiles:
        tiles = [np.zeros((100, tile_w, 3), np.uint8)]
    h = max(t.shape[0] for t in tiles)
    tiles = [np.vstack([t, np.zeros((h - t.shape[0], tile_w, 3), np.uint8)]) for t in tiles]
    while len(tiles) % 3:
        tiles.append(np.zeros_like(tiles[0]))
    rows = [np.hstack(tiles[i : i + 3]) for i in range(0, len(tiles), 3)]
    path.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(path), np.vstack(rows)):
        raise OSError(f"cannot write {path}")
