"""A camera lens's radial distortion, one coefficient, and taking it out of pictures.

A wide-angle webcam close over a board bows the field's straight sides. Four field
corners and a homography place the point strips well on a flat picture, but beside
the checkers on a bowed one (clips/s17 1201: half a point off next to the bar, a
pile of five read as an empty point). The model is the usual radial one with a
single coefficient, ``k1``, about the picture's centre, with radii in units of half
the picture's diagonal (so one ``k1`` means the same bowing at any resolution):
a point at undistorted radius ``r`` is seen at ``r * (1 + k1 * r**2)`` (OpenCV's
model: ``k1`` is the pictures' distortion, which ``undistort`` removes). Barrel
distortion, the sides bowed outwards as wide-angle webcams show them, has ``k1 < 0``.

The coefficient is not measured with a chessboard: the camera learns it from the
opening layout (``gammoneye.service.referee.CameraEyes``), trying the coefficients of
``TRIES`` on the first picture that nearly reads as the opening and keeping the one
under which it reads best.

>>> lens = Lens(-0.15)
>>> corners = np.array([[100.0, 100.0], [1180.0, 620.0]])
>>> flat = lens.undistort_points(corners, (1280, 720))
>>> bool(np.all(np.abs(flat - corners) > 1.0))
True
>>> Lens(0.0).undistort_points(corners, (1280, 720)).tolist()
[[100.0, 100.0], [1180.0, 620.0]]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

F64 = NDArray[np.float64]
U8 = NDArray[np.uint8]

#: Coefficients tried, in this order, when the opening layout does not read as one
#: on the picture as taken (0, no lens, is the picture as taken).
TRIES = (-0.05, -0.1, -0.15, -0.2, -0.25, 0.05, 0.1)


def camera_matrix(size: tuple[int, int]) -> F64:
    """The pinhole matrix the coefficient is stated in: focal length half the
    picture's diagonal, centre in the middle."""
    w, h = size
    f = float(np.hypot(w, h)) / 2
    return np.array([[f, 0.0, w / 2], [0.0, f, h / 2], [0.0, 0.0, 1.0]], np.float64)


@dataclass
class Lens:
    """One radial coefficient (see the module's doc); ``0`` is no distortion."""

    k1: float = 0.0
    _maps: dict[tuple[int, int], tuple[Any, Any]] = field(
        default_factory=dict, repr=False, compare=False
    )

    @property
    def flat(self) -> bool:
        return self.k1 == 0.0

    def _coefficients(self) -> F64:
        return np.array([self.k1, 0.0, 0.0, 0.0], np.float64)

    def undistort_image(self, image: U8) -> U8:
        """The picture as a lens without distortion would have taken it (same size and
        centre; maps made once per picture size)."""
        if self.flat:
            return image
        size = (image.shape[1], image.shape[0])
        maps = self._maps.get(size)
        if maps is None:
            k = camera_matrix(size)
            maps = cv2.initUndistortRectifyMap(k, self._coefficients(), None, k, size, cv2.CV_16SC2)
            self._maps[size] = maps
        return cv2.remap(image, maps[0], maps[1], cv2.INTER_LINEAR)  # type: ignore[return-value]

    def undistort_points(self, points: F64, size: tuple[int, int]) -> F64:
        """Where points of a picture of ``size`` lie in :meth:`undistort_image`'s."""
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        if self.flat:
            return pts.copy()
        k = camera_matrix(size)
        out = cv2.undistortPoints(pts.reshape(-1, 1, 2), k, self._coefficients(), P=k)
        return np.asarray(out, np.float64).reshape(-1, 2)
