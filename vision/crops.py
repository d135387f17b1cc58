"""Cutting crops out of a picture: upright point strips and squares round a box.

One implementation for run time (:mod:`.read`) and for cutting training crops
(:mod:`gammoneye.datasets.render.crops`), so a model sees at run time exactly the
kind of crop it was trained on.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

F64 = NDArray[np.float64]
U8 = NDArray[np.uint8]

#: A point strip's size, width x height (``render export-crops`` and ``vision read``).
STRIP = (64, 256)


def quad_to_rect(quad: F64, size: tuple[int, int]) -> F64:
    """The homography taking ``quad`` (bottom-left, bottom-right, top-right, top-left)
    onto a ``size`` (w, h) rectangle."""
    w, h = size
    dst = np.array([(0, h), (w, h), (w, 0), (0, 0)], np.float32)
    return cv2.getPerspectiveTransform(quad.astype(np.float32), dst)  # type: ignore[no-any-return]


def upright(quad: F64) -> F64:
    """The quad's corners ordered so that its strip is upright and not mirrored: the
    base at the bottom, its left on the left."""
    edge, up = quad[1] - quad[0], quad[3] - quad[0]
    return quad[[1, 0, 3, 2]] if edge[0] * up[1] - edge[1] * up[0] > 0 else quad


def warp_quad(image: U8, quad: F64, size: tuple[int, int]) -> U8:
    """The picture inside ``quad`` as a ``size`` rectangle (corners in
    :func:`quad_to_rect`'s order)."""
    return cv2.warpPerspective(  # type: ignore[no-any-return]
        image,
        quad_to_rect(quad, size),
        size,
        flags=cv2.INTER_AREA,
        borderMode=cv2.BORDER_REPLICATE,
    )


def cut_strip(image: U8, quad: F64, size: tuple[int, int] = STRIP) -> U8:
    """An upright strip from an image quad (base-left, base-right, top-right,
    top-left), not mirrored."""
    return warp_quad(image, upright(quad), size)


def square_crop(
    image: U8,
    box: Sequence[float],
    side: int = 64,
    offset: tuple[float, float] = (0.0, 0.0),
) -> U8:
    """A square 1.6 times the box's (x0, y0, x1, y1) larger side round its centre,
    moved by ``offset`` pixels."""
    x0, y0, x1, y1 = box
    half = max(x1 - x0, y1 - y0) * 0.8
    cx, cy = (x0 + x1) / 2 + offset[0], (y0 + y1) / 2 + offset[1]
    quad = np.array(
        [
            (cx - half, cy + half),
            (cx + half, cy + half),
            (cx + half, cy - half),
            (cx - half, cy - half),
        ]
    )
    return warp_quad(image, quad, (side, side))


def box_cover(quad: F64, boxes: Iterable[Sequence[float]]) -> float:
    """The largest share of the quad's bounding box that one of ``boxes`` (x0, y0,
    x1, y1) covers."""
    pts = np.asarray(quad, np.float64)
    x0, y0 = pts.min(axis=0)
    x1, y1 = pts.max(axis=0)
    area = max((x1 - x0) * (y1 - y0), 1e-6)
    covered = 0.0
    for bx0, by0, bx1, by1 in boxes:
        w = max(0.0, min(x1, bx1) - max(x0, bx0))
        h = max(0.0, min(y1, by1) - max(y0, by0))
        covered = max(covered, w * h / area)
    return float(covered)
