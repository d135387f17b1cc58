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


def zoom_box(box: Sequence[float], factor: float) -> tuple[float, float, float, float]:
    """The box (x0, y0, x1, y1) made ``factor`` times larger round its centre.

    >>> zoom_box((10, 20, 30, 30), 1.5)
    (5.0, 17.5, 35.0, 32.5)
    """
    x0, y0, x1, y1 = (float(v) for v in box)
    cx, cy, hx, hy = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2 * factor, (y1 - y0) / 2 * factor
    return (cx - hx, cy - hy, cx + hx, cy + hy)


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


def square_turn(crop: U8) -> float:
    """How far a square thing at the crop's middle (a die, the cube) is turned from
    lying with its sides along the crop's, in degrees anticlockwise as seen (-45 to
    45): the mean direction of the picture's edges counted four-fold (a square's sides
    lie a quarter turn apart), each edge weighed by its strength and by how near the
    middle it lies.

    >>> img = np.zeros((48, 48, 3), np.uint8)
    >>> turned = cv2.warpAffine(cv2.rectangle(img, (14, 14), (33, 33), (255, 255, 255), -1),
    ...                         cv2.getRotationMatrix2D((24, 24), 30, 1.0), (48, 48))
    >>> round(square_turn(turned))
    30
    """
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    h, w = grey.shape
    yy, xx = np.mgrid[0:h, 0:w]
    r = np.hypot(xx - (w - 1) / 2, yy - (h - 1) / 2) / (w / 2)
    weight = np.hypot(gx, gy) * np.clip(1.2 - r, 0.0, 1.0)
    angle = 4 * np.arctan2(gy, gx)
    c, s = float((weight * np.cos(angle)).sum()), float((weight * np.sin(angle)).sum())
    # the picture's y axis points down: an edge turned anticlockwise as seen has a
    # direction turned clockwise in (x, y)
    return float(-np.degrees(np.arctan2(s, c) / 4))


def square_upright(crops: U8) -> U8:
    """Each crop (N, H, W, 3) turned about its middle by :func:`square_turn`, so the
    square thing in it stands with its sides along the crop's: a reader then only has
    to learn its face at four quarter turns, not at every angle. The corners the turn
    brings in repeat the crop's edge."""
    out = np.empty_like(crops)
    for i, crop in enumerate(crops):
        h, w = crop.shape[:2]
        turn = cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), -square_turn(crop), 1.0)
        out[i] = cv2.warpAffine(
            crop, turn, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
    return out
