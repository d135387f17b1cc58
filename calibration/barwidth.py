"""The bar's share of the field's width, measured in a picture of the board.

Four corners say where the playing field is, not where its points are: between the
two halves lies the bar, and boards differ in how wide it is (from a twentieth of
the field to more than an eighth). The reader cuts each point's strip where the bar's
share puts it; taken as 0.08 on a board whose bar is 0.13, the strips of the points
beside the bar lie a third of a point off their checkers, and a stack of six reads as
five, surely (s33 clip 2802: the 19-point for a whole game, and every play after the
first that touched it taken for an illegal one).

Measured along the field's long sides, where the points' bases meet the frame: seen
from above, that band is the 12 points' bases, one colour after the other, with the
bar, all of one piece, in the middle. Each share tried cuts the band into those 13
pieces; the share under which the pieces are each most nearly of one colour (least
squared distance of every column's mean Lab colour from its piece's mean) is the
bar's. Checkers on the points' bases do not spoil it: a checker is one colour, and
centred on its point.

On rendered stills of known geometry (renders/val, 400 pictures with their hands and
dice) the share found exceeds the true one by 0.004 on average (``BIAS``, taken off)
with a spread of 0.006: a twelfth of a point at the bar's edge.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from .boardspace import BoardSpace

U8 = NDArray[np.uint8]
F64 = NDArray[np.float64]

#: The field seen from above at this size (pixels) for the fit.
SIZE = (600, 480)
#: The band along each long side, from and to this share of the field's depth.
BAND = (0.01, 0.08)
#: The bar's shares tried.
FRACTIONS = np.round(np.arange(0.03, 0.16 + 1e-9, 0.0025), 4)
#: What the fit finds beyond the true share, on average (renders/val): taken off.
BIAS = 0.004
#: A band whose colours vary less than this (Lab units, standard deviation) shows no
#: points to fit: the share is not measured.
MIN_CONTRAST = 4.0


def band_profiles(image: U8, corners: F64) -> F64:
    """The mean Lab colour of every column of the two bands along the field's long
    sides (``corners`` canonical, ``c0 -> c1`` a long side), seen from above:
    shape (2, SIZE[0], 3)."""
    w, h = SIZE
    space = BoardSpace(w, h)
    to_board = cv2.getPerspectiveTransform(
        np.asarray(corners, np.float32), space.corners().astype(np.float32)
    )
    top = cv2.warpPerspective(image, to_board, (w, h), flags=cv2.INTER_AREA)
    lab = cv2.cvtColor(top, cv2.COLOR_BGR2LAB).astype(np.float64)
    a, b = round(BAND[0] * h), round(BAND[1] * h)
    return np.stack([lab[a:b].mean(axis=0), lab[h - b : h - a].mean(axis=0)])


def piece_costs(profiles: F64, fractions: F64 = FRACTIONS) -> F64:
    """For each share in ``fractions``: the squared distance of the bands' columns
    from their pieces' means (6 points, the bar, 6 points), each band's taken
    relative to its own spread; lower is a better fit.

    A band of 100 columns: points of 7.5 columns, light and dark by turns, either
    side of a bar of 10 (a share of 0.1):

    >>> cols = np.zeros((1, 100, 3))
    >>> edges = [round(k * 7.5) for k in range(7)] + [round(55 + k * 7.5) for k in range(7)]
    >>> for i in range(13):
    ...     cols[0, edges[i]:edges[i + 1]] = 50.0 if i == 6 else (10.0 * (i % 2))
    >>> cost = piece_costs(cols, np.array([0.06, 0.1, 0.14]))
    >>> int(np.argmin(cost))
    1
    """
    n = profiles.shape[1]
    zero = np.zeros((profiles.shape[0], 1, 3))
    s1 = np.concatenate([zero, profiles.cumsum(axis=1)], axis=1)
    s2 = np.concatenate([zero, (profiles**2).cumsum(axis=1)], axis=1)
    spread = (s2[:, -1] - s1[:, -1] ** 2 / n).sum(axis=1)  # (bands,)
    costs = []
    for f in fractions:
        pw = n * (1 - f) / 12
        edges = [k * pw for k in range(7)] + [6 * pw + f * n + k * pw for k in range(7)]
        cut = np.clip(np.round(edges).astype(int), 0, n)
        a, b = cut[:-1], cut[1:]
        size = np.maximum(b - a, 1)[None, :, None]
        sse = (s2[:, b] - s2[:, a]) - (s1[:, b] - s1[:, a]) ** 2 / size
        costs.append(float((sse.sum(axis=(1, 2)) / np.maximum(spread, 1e-9)).sum()))
    return np.array(costs)


def fit_bar_fraction(image: U8, corners: F64) -> float | None:
    """The bar's share of the field's width in ``image`` (BGR), the field at
    ``corners`` (canonical, a long side first); ``None`` where the bands show no
    points (a picture of no board, a field all of one colour)."""
    profiles = band_profiles(image, corners)
    if float(profiles.std(axis=1).max()) < MIN_CONTRAST:
        return None
    best = float(FRACTIONS[int(np.argmin(piece_costs(profiles)))])
    return round(max(0.0, best - BIAS), 4)
