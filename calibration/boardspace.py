"""Board space: the playing field seen from straight above, at a fixed size.

Every board, whatever its size, style or the camera's angle, is warped to the same
top-down rectangle, ``BoardSpace.width`` x ``height`` pixels: the playing field
(both halves and the bar, inside the rails, without trays). Recognition then works
on known geometry: 24 point triangles, the bar in the middle.

The four field corners found in an image are put in the *canonical order*
(:func:`canonical_corners`): ``c0 -> c1`` runs along a long side of the field and
the corners go counter-clockwise as seen on the screen, the way the bottom-left,
bottom-right, top-right, top-left corners of a board look from the bottom seat.
``c0, c1, c2, c3`` map to board space ``(0, H), (W, H), (W, 0), (0, 0)``: the
picture is not mirrored, and the side ``c0 c1`` is at the bottom.

Which player sits at that bottom side and on which end his home board lies is the
:class:`Orientation`, learned later (from the opening layout) or given by hand.

>>> space = BoardSpace()
>>> space.width, space.height
(1000, 800)
>>> [round(x) for x in space.point_polygon(1, Orientation())[2]]  # tip of point 1
[962, 456]
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

F64 = NDArray[np.float64]
U8 = NDArray[np.uint8]

#: Point length as a fraction of half the field's depth (the renderer's boards use
#: 0.86; real boards are 0.8 to 0.9).
POINT_LENGTH = 0.86


class CalibrationError(ValueError):
    """Corners that make no board, or a calibration that does not fit an image."""


@dataclass(frozen=True, slots=True)
class Orientation:
    """Who sits where, in board space. ``bottom_player`` (engine player 0 or 1)
    sits at the bottom side (``c0 c1``); ``home_right``: his home board is at the
    right end of that side (the usual layout; False for a mirrored board)."""

    bottom_player: int = 0
    home_right: bool = True

    def board_point(self, player: int, own_point: int) -> int:
        """The bottom player's number (1..24) of ``player``'s own point."""
        if not 1 <= own_point <= 24:
            raise ValueError(f"a point is 1..24, got {own_point}")
        return own_point if player == self.bottom_player else 25 - own_point


@dataclass(frozen=True, slots=True)
class BoardSpace:
    """The top-down field at ``width`` x ``height`` pixels; ``bar_fraction`` is the
    bar's share of the field's width (real boards: about 0.05 to 0.12)."""

    width: int = 1000
    height: int = 800
    bar_fraction: float = 0.08

    def __post_init__(self) -> None:
        if self.width < 48 or self.height < 32:
            raise CalibrationError(f"board space {self.width}x{self.height} is too small")
        if not 0.0 <= self.bar_fraction < 0.3:
            raise CalibrationError(f"bar fraction {self.bar_fraction} is not in 0..0.3")

    @property
    def point_width(self) -> float:
        return self.width * (1 - self.bar_fraction) / 12

    @property
    def bar_x(self) -> tuple[float, float]:
        """Left and right edge of the bar, in pixels."""
        half = self.width * self.bar_fraction / 2
        return (self.width / 2 - half, self.width / 2 + half)

    def point_base(self, point: int, orientation: Orientation) -> tuple[float, float, float]:
        """(x, y, direction): the middle of a point's base on the rail, and +1/-1 for
        the way its tip points in y. ``point`` is the bottom player's number."""
        if not 1 <= point <= 24:
            raise ValueError(f"a point is 1..24, got {point}")
        pw = self.point_width
        left_edge, right_edge = self.bar_x
        if point <= 12:  # the bottom row, 1 at the home end
            k = point - 1 if point <= 6 else point - 7  # 0..5 from the bar's far side
            x = self.width - (k + 0.5) * pw if point <= 6 else left_edge - (k + 0.5) * pw
            y, direction = float(self.height), -1.0
        else:
            k = point - 13 if point <= 18 else point - 19
            x = (k + 0.5) * pw if point <= 18 else right_edge + (k + 0.5) * pw
            y, direction = 0.0, 1.0
        if not orientation.home_right:
            x = self.width - x
        return (x, y, direction)

    def point_polygon(self, point: int, orientation: Orientation) -> F64:
        """The point's triangle: two base corners on the rail and the tip."""
        x, y, d = self.point_base(point, orientation)
        w = self.point_width / 2
        tip = y + d * POINT_LENGTH * self.height / 2
        return np.array([(x - w, y), (x + w, y), (x, tip)])

    def point_region(self, point: int, orientation: Orientation) -> F64:
        """The strip a point's checkers stand in: its base to the field's middle."""
        x, y, _ = self.point_base(point, orientation)
        w = self.point_width / 2
        mid = self.height / 2
        return np.array([(x - w, y), (x + w, y), (x + w, mid), (x - w, mid)])

    def corners(self) -> F64:
        """Board-space images of the canonical corners c0..c3."""
        w, h = float(self.width), float(self.height)
        return np.array([(0.0, h), (w, h), (w, 0.0), (0.0, 0.0)])

    def homography(self, corners_px: F64, image_size: tuple[int, int] | None = None) -> F64:
        """Image -> board space, from four field corners (any order, see
        :func:`canonical_corners`; ``image_size`` (w, h) helps it judge perspective)."""
        src = canonical_corners(corners_px, image_size).astype(np.float32)
        return cv2.getPerspectiveTransform(src, self.corners().astype(np.float32))  # type: ignore[no-any-return]

    def warp(self, image: U8, corners_px: F64) -> U8:
        """The field of ``image`` seen from above."""
        size = (image.shape[1], image.shape[0])
        return cv2.warpPerspective(  # type: ignore[no-any-return]
            image,
            self.homography(corners_px, size),
            (self.width, self.height),
            flags=cv2.INTER_LINEAR,
        )

    def to_image(self, corners_px: F64, points: F64) -> F64:
        """Board-space points (N, 2) to image pixels."""
        h = np.linalg.inv(self.homography(corners_px))
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, h).reshape(-1, 2)  # type: ignore[no-any-return]

    def draw_grid(self, board: U8, orientation: Orientation) -> U8:
        """A copy of a board-space image with the points drawn and numbered."""
        out = board.copy()
        for n in range(1, 25):
            poly = self.point_polygon(n, orientation)
            cv2.polylines(
                out, [np.round(poly).astype(np.int32)], True, (0, 255, 255), 1, cv2.LINE_AA
            )
            x, y, d = self.point_base(n, orientation)
            ty = int(y + d * 22) if d > 0 else int(y - 8)
            for colour, thickness in (((0, 0, 0), 3), ((255, 255, 255), 1)):  # outlined
                cv2.putText(
                    out,
                    str(n),
                    (int(x) - 8, ty),
                    cv2.FONT_HERSHEY_SIMPLEX,
                    0.5,
                    colour,
                    thickness,
                    cv2.LINE_AA,
                )
        x0, x1 = self.bar_x
        cv2.rectangle(out, (int(x0), 0), (int(x1), self.height - 1), (255, 0, 255), 1)
        return out


def signed_area(pts: F64) -> float:
    """Shoelace area in image coordinates (y down): negative for a polygon that runs
    counter-clockwise on the screen."""
    p = np.asarray(pts, np.float64)
    x, y = p[:, 0], p[:, 1]
    return float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)) / 2


def rectangle_aspect(quad: F64, image_size: tuple[int, int] | None = None) -> float:
    """Width / height of the real rectangle whose image is ``quad`` (``quad[0] ->
    quad[1]`` along its width), undoing perspective.

    A rectangle's image fixes the camera's focal length (its two sides must be at a
    right angle in space), given the principal point, taken at the image centre; the
    ratio of the rectified sides is then the aspect. When the view is nearly straight
    on, the focal length is undetermined and does not matter: an assumed one is used.
    """
    q = np.asarray(quad, np.float64)
    cx, cy = (image_size[0] / 2, image_size[1] / 2) if image_size else tuple(q.mean(axis=0))
    unit = np.array([(0, 0), (1, 0), (1, 1), (0, 1)], np.float32)
    h = cv2.getPerspectiveTransform(unit, q.astype(np.float32)).astype(np.float64)
    g = np.array([[1, 0, -cx], [0, 1, -cy], [0, 0, 1.0]]) @ h
    g1, g2 = g[:, 0], g[:, 1]
    # focal lengths of real cameras: a horizontal field of view of about 30 to 100
    # degrees; nearly straight on, the estimate is noise and gets clamped
    width = float(image_size[0]) if image_size else 2.0 * float(np.ptp(q, axis=0).max())
    lo, hi = 0.42 * width, 1.9 * width
    denom = g1[2] * g2[2]
    f2 = -(g1[0] * g2[0] + g1[1] * g2[1]) / denom if abs(denom) > 1e-15 else -1.0
    f = min(max(float(np.sqrt(f2)), lo), hi) if f2 > 0 else 0.9 * width
    a1 = np.array([g1[0] / f, g1[1] / f, g1[2]])
    a2 = np.array([g2[0] / f, g2[1] / f, g2[2]])
    return float(np.linalg.norm(a1) / np.linalg.norm(a2))


def canonical_corners(
    corners_px: F64, image_size: tuple[int, int] | None = None, *, long_side_first: bool = False
) -> F64:
    """Four corners of a field, in any order, as ``c0..c3``: counter-clockwise on the
    screen with ``c0 -> c1`` along a long side of the real field (judged after undoing
    perspective, see :func:`rectangle_aspect`: at 45 degrees the far long side can
    look shorter than the short ones). Of the two starts that satisfy this, the one
    whose side ``c0 c1`` is lower in the image (nearer a camera that looks from that
    side) comes first. With ``long_side_first`` the caller vouches that
    ``corners_px[0] -> corners_px[1]`` is a long side (a finder that saw the points
    along it knows better than perspective under lens distortion). Raises
    :class:`CalibrationError` for four points that make no convex quadrilateral."""
    p = np.asarray(corners_px, np.float64).reshape(-1, 2)
    if p.shape != (4, 2) or not np.isfinite(p).all():
        raise CalibrationError(f"expected 4 corners (x, y), got {p.tolist()}")
    centre = p.mean(axis=0)
    angles = np.arctan2(p[:, 1] - centre[1], p[:, 0] - centre[0])
    # decreasing angle in y-down coordinates is counter-clockwise on the screen
    ring = p[np.argsort(-angles)]
    if (
        signed_area(ring) >= 0
        or cv2.isContourConvex(ring.astype(np.float32).reshape(-1, 1, 2)) is False
    ):
        raise CalibrationError(f"the corners {p.round(1).tolist()} make no convex quadrilateral")
    sides = [np.linalg.norm(ring[(i + 1) % 4] - ring[i]) for i in range(4)]
    if min(sides) < 8:
        raise CalibrationError(f"the corners {p.round(1).tolist()} are too close together")
    if long_side_first:
        # the ring keeps p0 p1 as neighbours: start where that edge is
        i0 = int(np.argmin(np.linalg.norm(ring - p[0], axis=1)))
        i1 = int(np.argmin(np.linalg.norm(ring - p[1], axis=1)))
        long_first = min(i0, i1) % 2 if {i0, i1} != {0, 3} else 1
    else:
        long_first = 0 if rectangle_aspect(ring, image_size) >= 1.0 else 1
    options = [np.roll(ring, -k, axis=0) for k in (long_first, long_first + 2)]
    return max(options, key=lambda c: float(c[0, 1] + c[1, 1]))
