"""Board geometry in centimetres: where the points, bar, trays and rails are.

Board space (the renderer's world frame): origin at the centre of the playing
surface (the middle of the bar), ``x`` to the right, ``y`` away from the *bottom*
seat, ``z`` up; the playing field is the plane ``z = 0``, the table lies below it.

Points are numbered from the bottom seat's side (the usual diagram): its home
board is bottom-right (points 1..6, point 1 at the right rail), 7..12 bottom-left,
13..18 top-left, 19..24 top-right. ``mirrored`` boards have the home boards on the
left. The top seat's point ``n`` is the bottom seat's point ``25 - n``.

Sizes follow [RULES.md 001 §3.1]: the closed-up outer board is 44x55 to 66x88 cm.

>>> g = BoardGeometry.standard()
>>> round(g.outer_width, 1), round(g.outer_depth, 1)
(60.0, 50.0)
>>> g.point_base(1)[0] > g.point_base(6)[0] > 0 > g.point_base(7)[0]
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: Point triangle length as a fraction of half the field depth.
POINT_LENGTH = 0.86


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned block of the board: ``x0 < x1``, ``y0 < y1``, top at ``z``."""

    name: str
    x0: float
    x1: float
    y0: float
    y1: float
    z: float

    def corners(self, z: float | None = None) -> list[tuple[float, float, float]]:
        """The four top corners, counter-clockwise from (x0, y0)."""
        h = self.z if z is None else z
        return [
            (self.x0, self.y0, h),
            (self.x1, self.y0, h),
            (self.x1, self.y1, h),
            (self.x0, self.y1, h),
        ]


@dataclass(frozen=True, slots=True)
class BoardGeometry:
    """The measurements of one board, in centimetres."""

    point_width: float
    field_depth: float
    bar_width: float
    rail_width: float
    rail_height: float
    bar_height: float
    tray_width: float  # 0: no trays (borne-off checkers go beside the board)
    trays: str  # "none", "left", "right" or "both"
    floor: float  # thickness of the board below the field (the table is at -floor)
    mirrored: bool = False

    @classmethod
    def standard(cls) -> BoardGeometry:
        """A mid-sized tournament board without trays."""
        return cls(
            point_width=4.0,
            field_depth=42.0,
            bar_width=4.0,
            rail_width=4.0,
            rail_height=1.2,
            bar_height=1.2,
            tray_width=0.0,
            trays="none",
            floor=0.8,
        )

    # -- overall sizes -----------------------------------------------------------
    @property
    def field_width(self) -> float:
        """The width of one half of the playing field (six points)."""
        return 6 * self.point_width

    @property
    def bar_share(self) -> float:
        """The bar's share of the playing field's width (both halves and the bar):
        board space's ``bar_fraction``."""
        return self.bar_width / (2 * self.field_width + self.bar_width)

    @property
    def tray_count(self) -> int:
        return {"none": 0, "left": 1, "right": 1, "both": 2}[self.trays]

    @property
    def outer_width(self) -> float:
        return (
            2 * self.field_width
            + self.bar_width
            + 2 * self.rail_width
            + self.tray_count * (self.tray_width + self.rail_width)
        )

    @property
    def outer_depth(self) -> float:
        return self.field_depth + 2 * self.rail_width

    @property
    def x_min(self) -> float:
        """The left outer edge (trays make the board asymmetric)."""
        left = self.bar_width / 2 + self.field_width + self.rail_width
        if self.trays in ("left", "both"):
            left += self.tray_width + self.rail_width
        return -left

    @property
    def x_max(self) -> float:
        return self.x_min + self.outer_width

    @property
    def y_max(self) -> float:
        return self.outer_depth / 2

    def outer_corners(self) -> list[tuple[float, float]]:
        return [
            (self.x_min, -self.y_max),
            (self.x_max, -self.y_max),
            (self.x_max, self.y_max),
            (self.x_min, self.y_max),
        ]

    def field_corners(self) -> list[tuple[float, float]]:
        """The playing field's outer corners (both halves and the bar, no trays)."""
        x = self.bar_width / 2 + self.field_width
        y = self.field_depth / 2
        return [(-x, -y), (x, -y), (x, y), (-x, y)]

    # -- points ------------------------------------------------------------------
    def _sx(self, x: float) -> float:
        return -x if self.mirrored else x

    def point_base(self, point: int) -> tuple[float, float, float]:
        """(x, y, direction): centre of the point's base at the rail and the sign of
        ``y`` going towards its tip. ``point`` is 1..24 in the bottom seat's numbering."""
        if not 1 <= point <= 24:
            raise ValueError(f"point must be 1..24, got {point}")
        half, pw = self.bar_width / 2, self.point_width
        if point <= 6:
            x, top = half + (6 - point + 0.5) * pw, False
        elif point <= 12:
            x, top = -(half + (point - 7 + 0.5) * pw), False
        elif point <= 18:
            x, top = -(half + (18 - point + 0.5) * pw), True
        else:
            x, top = half + (point - 19 + 0.5) * pw, True
        y = self.field_depth / 2
        return (self._sx(x), y if top else -y, -1.0 if top else 1.0)

    def point_triangle(self, point: int) -> list[tuple[float, float]]:
        """The point's triangle: two base corners and the tip."""
        x, y, d = self.point_base(point)
        w = self.point_width / 2
        tip = y + d * POINT_LENGTH * self.field_depth / 2
        return [(x - w, y), (x + w, y), (x, tip)]

    # -- raised parts and trays --------------------------------------------------
    def field_halves(self) -> list[Box]:
        """Left and right half of the playing field (z = 0)."""
        x0, x1, y = self.bar_width / 2, self.bar_width / 2 + self.field_width, self.field_depth / 2
        return [Box("left_field", -x1, -x0, -y, y, 0.0), Box("right_field", x0, x1, -y, y, 0.0)]

    def bar(self) -> Box:
        y = self.field_depth / 2
        return Box("bar", -self.bar_width / 2, self.bar_width / 2, -y, y, self.bar_height)

    def tray_boxes(self) -> list[Box]:
        """Borne-off trays (floor at z = 0), outside the rails of the playing field."""
        out = []
        y = self.field_depth / 2
        inner = self.bar_width / 2 + self.field_width + self.rail_width
        if self.trays in ("left", "both"):
            out.append(Box("left_tray", -inner - self.tray_width, -inner, -y, y, 0.0))
        if self.trays in ("right", "both"):
            out.append(Box("right_tray", inner, inner + self.tray_width, -y, y, 0.0))
        return out

    def rails(self) -> list[Box]:
        """The raised frame: bottom and top rails over the whole width, end rails,
        and the dividers between the field and each tray."""
        h, y, rw = self.rail_height, self.field_depth / 2, self.rail_width
        inner = self.bar_width / 2 + self.field_width
        out = [
            Box("bottom_rail", self.x_min, self.x_max, -self.y_max, -y, h),
            Box("top_rail", self.x_min, self.x_max, y, self.y_max, h),
            Box("left_rail", self.x_min, self.x_min + rw, -y, y, h),
            Box("right_rail", self.x_max - rw, self.x_max, -y, y, h),
        ]
        if self.trays in ("left", "both"):
            out.append(Box("left_divider", -inner - rw, -inner, -y, y, h))
        if self.trays in ("right", "both"):
            out.append(Box("right_divider", inner, inner + rw, -y, y, h))
        return out


def geometry_for(rng_uniform: list[float], trays: str) -> BoardGeometry:
    """A board of plausible proportions from seven numbers in [0, 1).

    The outer size stays within 44x55..66x88 cm [001 §3.1]."""
    u = rng_uniform
    rail = 2.5 + 2.5 * u[0]
    tray = 0.0 if trays == "none" else 4.5 + 2.0 * u[1]
    bar = 3.5 + 2.5 * u[2]
    n_trays = {"none": 0, "left": 1, "right": 1, "both": 2}[trays]
    outer_w = 56.0 + 31.0 * u[3]
    pw = (outer_w - bar - 2 * rail - n_trays * (tray + rail)) / 12
    pw = max(3.2, min(pw, 5.8))
    outer_w = 12 * pw + bar + 2 * rail + n_trays * (tray + rail)
    # depth: the classic board is about 0.75..0.82 as deep as it is wide (without trays)
    ratio = 0.74 + 0.08 * u[4]
    outer_d = max(44.5, min((12 * pw + bar + 2 * rail) * ratio, 65.5))
    g = BoardGeometry(
        point_width=pw,
        field_depth=outer_d - 2 * rail,
        bar_width=bar,
        rail_width=rail,
        rail_height=0.6 + 1.4 * u[5],
        bar_height=0.6 + 1.4 * u[5],
        tray_width=tray,
        trays=trays,
        floor=0.6 + 0.8 * u[6],
        mirrored=False,
    )
    if not (
        min(g.outer_depth, g.outer_width) >= 43.9 and max(g.outer_depth, g.outer_width) <= 88.1
    ):
        raise RuntimeError(f"board size out of range: {g.outer_width:.1f}x{g.outer_depth:.1f}")
    return g


def circle(cx: float, cy: float, r: float, n: int = 20) -> list[tuple[float, float]]:
    return [
        (cx + r * math.cos(2 * math.pi * i / n), cy + r * math.sin(2 * math.pi * i / n))
        for i in range(n)
    ]
