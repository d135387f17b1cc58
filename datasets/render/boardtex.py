"""The board seen from straight above, as one texture in board space.

Texture pixel ``(u, v)`` is the board point ``x = x_min + u / s``, ``y = y_max - v / s``
(``s`` pixels per centimetre): row 0 is the top rail. The renderer maps this image
onto the field plane and its rail strips onto the raised rails, so one texture makes
the whole board, whatever the camera.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from . import materials
from .geometry import BoardGeometry
from .styles import BGR, BoardStyle

U8 = NDArray[np.uint8]


@dataclass(frozen=True)
class BoardTexture:
    image: U8
    px_per_cm: float
    geometry: BoardGeometry
    point_colours: tuple[BGR, BGR]
    table_of: str = ""

    def to_px(self, pts: list[tuple[float, float]]) -> NDArray[np.float64]:
        g, s = self.geometry, self.px_per_cm
        return np.array([((x - g.x_min) * s, (g.y_max - y) * s) for x, y in pts])

    def uv_to_board(self) -> NDArray[np.float64]:
        """3x3 matrix from texture pixels to board (x, y, 1)."""
        g, s = self.geometry, self.px_per_cm
        return np.array([[1 / s, 0, g.x_min], [0, -1 / s, g.y_max], [0, 0, 1.0]])


def _poly(img: U8, pts: NDArray[np.float64], colour: BGR | int) -> None:
    cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32)], colour, cv2.LINE_AA, shift=4)


def build(
    style: BoardStyle, geometry: BoardGeometry, rng: np.random.Generator, px_per_cm: float = 11.0
) -> BoardTexture:
    """Paint the board of ``style`` with ``geometry``: frame, field, 24 points, bar,
    trays, hinges, logo and wear."""
    g, s = geometry, px_per_cm
    w, h = round(g.outer_width * s), round(g.outer_depth * s)
    pair = style.point_pairs[int(rng.integers(len(style.point_pairs)))]
    tex = BoardTexture(np.empty((0, 0, 3), np.uint8), s, g, pair)

    img = materials.make(style.frame.kind, rng, h, w, style.frame.color, style.frame.color2)
    field = materials.make(style.field.kind, rng, h, w, style.field.color, style.field.color2)
    mask = np.zeros((h, w), np.uint8)
    for half in g.field_halves() + g.tray_boxes():
        _poly(
            mask,
            tex.to_px(
                [(half.x0, half.y0), (half.x1, half.y0), (half.x1, half.y1), (half.x0, half.y1)]
            ),
            255,
        )
    np.copyto(img, field, where=mask[..., None] > 127)
    # trays are sunk a little: darker
    for tray in g.tray_boxes():
        p = tex.to_px([(tray.x0, tray.y0), (tray.x1, tray.y1)]).astype(int)
        u0, u1 = sorted((p[0][0], p[1][0]))
        v0, v1 = sorted((p[0][1], p[1][1]))
        img[v0:v1, u0:u1] = (img[v0:v1, u0:u1] * 0.78).astype(np.uint8)

    # points
    for i, colour in enumerate(pair):
        if style.point_kind == "paint":
            layer = np.empty((h, w, 3), np.uint8)
            layer[:] = colour
            layer = materials.paper(rng, h, w, colour) if style.wear > 0.3 else layer
        elif style.point_kind == "inlay":
            dark = tuple(int(c * 0.7) for c in colour)
            layer = materials.wood(rng, h, w, colour, dark, vertical=True)  # type: ignore[arg-type]
        else:
            layer = materials.make(style.point_kind, rng, h, w, colour)
        pmask = np.zeros((h, w), np.uint8)
        for point in range(1, 25):
            if point % 2 == i:
                _poly(pmask, tex.to_px(g.point_triangle(point)), 255)
        alpha = (pmask.astype(np.float32) / 255)[..., None]
        img = (img * (1 - alpha) + layer * alpha).astype(np.uint8)
    if style.outline is not None:
        for point in range(1, 25):
            pts = np.round(tex.to_px(g.point_triangle(point)) * 16).astype(np.int32)
            cv2.polylines(
                img, [pts], True, style.outline, max(1, int(s * 0.12)), cv2.LINE_AA, shift=4
            )

    # the bar (rail material), hinges and a logo
    bar = g.bar()
    _fill_rect(
        img,
        tex,
        (bar.x0, bar.y0, bar.x1, bar.y1),
        materials.make(style.frame.kind, rng, h, w, style.frame.color, style.frame.color2),
    )
    if style.hinges:
        metal = (150, 160, 170) if rng.random() < 0.5 else (60, 140, 190)
        for yc in (-g.field_depth / 4, g.field_depth / 4):
            hw, hh = g.bar_width * 0.35, min(4.0, g.field_depth * 0.08)
            _poly(
                img,
                tex.to_px([(-hw, yc - hh), (hw, yc - hh), (hw, yc + hh), (-hw, yc + hh)]),
                metal,
            )
            for dy in (-hh * 0.6, 0.0, hh * 0.6):
                c = tex.to_px([(0.0, yc + dy)])[0]
                cv2.circle(
                    img,
                    (int(c[0]), int(c[1])),
                    max(1, int(s * 0.12)),
                    (40, 40, 40),
                    -1,
                    cv2.LINE_AA,
                )
    if style.logo:
        _logo(img, tex, rng)
    if style.wear > 0:
        _wear(img, rng, style.wear, s)
    return BoardTexture(img, s, g, pair)


def _fill_rect(
    img: U8, tex: BoardTexture, rect: tuple[float, float, float, float], source: U8
) -> None:
    p = tex.to_px([(rect[0], rect[1]), (rect[2], rect[3])])
    u0, u1 = sorted((round(p[0][0]), round(p[1][0])))
    v0, v1 = sorted((round(p[0][1]), round(p[1][1])))
    img[v0:v1, u0:u1] = source[v0:v1, u0:u1]


def _logo(img: U8, tex: BoardTexture, rng: np.random.Generator) -> None:
    g, s = tex.geometry, tex.px_per_cm
    rail_y = -(g.field_depth / 2 + g.rail_width / 2) * (1 if rng.random() < 0.5 else -1)
    x = float(rng.uniform(-g.field_width * 0.6, g.field_width * 0.6))
    c = tex.to_px([(x, rail_y)])[0]
    colour: BGR = (70, 170, 210) if rng.random() < 0.6 else (235, 235, 235)
    ax = (int(g.rail_width * s * 0.9), int(g.rail_width * s * 0.32))
    cv2.ellipse(
        img, (int(c[0]), int(c[1])), ax, 0, 0, 360, colour, max(1, int(s * 0.1)), cv2.LINE_AA
    )
    letters = "".join(chr(int(rng.integers(65, 91))) for _ in range(2))
    scale = g.rail_width * s / 90
    (tw, th), _ = cv2.getTextSize(letters, cv2.FONT_HERSHEY_TRIPLEX, scale, 1)
    cv2.putText(
        img,
        letters,
        (int(c[0] - tw / 2), int(c[1] + th / 2)),
        cv2.FONT_HERSHEY_TRIPLEX,
        scale,
        colour,
        1,
        cv2.LINE_AA,
    )


def _wear(img: U8, rng: np.random.Generator, amount: float, s: float) -> None:
    h, w = img.shape[:2]
    scratches = np.zeros((h, w), np.uint8)
    for _ in range(int(40 * amount)):
        p0 = np.array([rng.integers(0, w), rng.integers(0, h)])
        d = rng.normal(0, 1, 2)
        p1 = p0 + (d / (np.linalg.norm(d) + 1e-9) * rng.uniform(0.5, 6) * s).astype(int)
        cv2.line(scratches, (int(p0[0]), int(p0[1])), (int(p1[0]), int(p1[1])), 255, 1, cv2.LINE_AA)
    lighter = cv2.add(img, np.full_like(img, 40))
    alpha = (scratches.astype(np.float32) / 255 * 0.35 * amount)[..., None]
    rubbed = materials.smooth_noise(rng, h, w, cell=max(h, w) / 4)
    shade = 1 - 0.12 * amount * np.clip(rubbed, 0, 1)
    out = (img * (1 - alpha) + lighter * alpha) * shade[..., None]
    img[:] = np.clip(out, 0, 255).astype(np.uint8)
