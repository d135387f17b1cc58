"""World-space shapes of the scene's objects, and the plane geometry the painter needs:
circles, casts along the light, box walls, the polygons of an arm and hand.

Pure geometry on numpy arrays (centimetres, board space, see :mod:`.geometry`), so
:mod:`.draw` and :mod:`.labels` share one definition of every outline. No pixels are
touched here but by the few drawing primitives at the end (:func:`fill`, :func:`hull`,
:func:`mix`), kept here so that :mod:`.draw` and :mod:`.dice_draw` share them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import cv2
import numpy as np
from numpy.typing import NDArray

from .camera import Camera, Canvas
from .geometry import BoardGeometry, Box
from .scene import Clutter, Hand, Light

F64 = NDArray[np.float64]
U8 = NDArray[np.uint8]
BGR = tuple[int, int, int]

CIRCLE_STEPS = 28
ANGLES = np.linspace(0, 2 * np.pi, CIRCLE_STEPS, endpoint=False)
_COS, _SIN = np.cos(ANGLES), np.sin(ANGLES)
# own axis of each face (+z, -z, +x, -x, +y, -y) and two in-plane axes
FACE_AXES = (
    ((0, 0, 1), (1, 0, 0), (0, 1, 0)),
    ((0, 0, -1), (1, 0, 0), (0, -1, 0)),
    ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    ((-1, 0, 0), (0, -1, 0), (0, 0, 1)),
    ((0, 1, 0), (0, 0, 1), (1, 0, 0)),
    ((0, -1, 0), (0, 0, -1), (1, 0, 0)),
)


def light_dir(lt: Light) -> F64:
    az, el = math.radians(lt.azimuth_deg), math.radians(lt.elevation_deg)
    return np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])


def lambert(normal: F64, light: F64) -> float:
    return max(0.0, float(np.asarray(normal) @ light))


def plane_homography(canvas: Canvas, z: float) -> F64:
    """Homography from board (x, y) on the plane at height ``z`` to canvas pixels."""
    cam = canvas.camera
    r, t = cam.R, cam.t
    k = np.array([[canvas.fx, 0, canvas.cx], [0, canvas.fy, canvas.cy], [0, 0, 1.0]])
    return k @ np.column_stack([r[:, 0], r[:, 1], r[:, 2] * z + t])


def circle_pts(x: float, y: float, z: float, r: float) -> F64:
    return np.column_stack([x + r * _COS, y + r * _SIN, np.full(CIRCLE_STEPS, z)])


def cast_onto(points: F64, light: F64, z: float) -> F64:
    """Points cast along the light onto the plane at height ``z``."""
    p = np.asarray(points, float)
    k = (p[:, 2] - z) / max(float(light[2]), 0.15)
    return np.column_stack([p[:, 0] - light[0] * k, p[:, 1] - light[1] * k, np.full(len(p), z)])


def rect_pts(x: float, y: float, w: float, d: float, angle: float) -> list[tuple[float, float]]:
    ca, sa = math.cos(angle), math.sin(angle)
    return [
        (x + ca * u - sa * v, y + sa * u + ca * v)
        for u, v in ((-w / 2, -d / 2), (w / 2, -d / 2), (w / 2, d / 2), (-w / 2, d / 2))
    ]


def at_height(pts: list[tuple[float, float]], z: float) -> F64:
    return np.array([(x, y, z) for x, y in pts])


def clutter_hull(item: Clutter, g: BoardGeometry) -> F64:
    z0 = -g.floor
    if item.kind == "cup":
        return np.vstack(
            [
                circle_pts(item.x, item.y, z0 + item.size * 1.1, item.size / 2),
                circle_pts(item.x, item.y, z0, item.size / 2),
            ]
        )
    quad = rect_pts(
        item.x, item.y, item.size, item.size * (1.35 if item.kind == "sheet" else 0.5), item.angle
    )
    height = {"sheet": 0.05, "phone": 0.8}.get(item.kind, item.size * 0.45)
    return np.vstack([at_height(quad, z0), at_height(quad, z0 + height)])


def box_walls(
    box: Box, z0: float, *, outward: bool, top: float | None = None
) -> list[tuple[F64, F64]]:
    """The four vertical walls of ``box`` from ``z0`` to its top, with normals
    pointing out of the box (``outward``) or into it (the walls around a sunken field)."""
    z1 = box.z if top is None else top
    s = 1.0 if outward else -1.0
    walls = [
        ((box.x0, box.y0), (box.x1, box.y0), (0.0, -s)),
        ((box.x1, box.y0), (box.x1, box.y1), (s, 0.0)),
        ((box.x1, box.y1), (box.x0, box.y1), (0.0, s)),
        ((box.x0, box.y1), (box.x0, box.y0), (-s, 0.0)),
    ]
    out = []
    for (ax, ay), (bx, by), (nx, ny) in walls:
        quad = np.array([(ax, ay, z0), (bx, by, z0), (bx, by, z1), (ax, ay, z1)])
        out.append((quad, np.array([nx, ny, 0.0])))
    return out


def faces_camera(cam: Camera, quad: F64, normal: F64) -> bool:
    centre = quad.mean(axis=0)
    return float(normal @ (cam.eye - centre)) > 0


def visible_faces(
    canvas: Canvas, centre: tuple[float, float, float], rotation: object, h: float
) -> list[tuple[int, F64, F64, F64, F64]]:
    """The faces of a cube (half-side ``h``) that face the camera, far to near: index
    into :data:`FACE_AXES`, the face's normal and two in-plane axes, and its centre."""
    cam = canvas.camera
    r = np.asarray(rotation)
    ctr = np.asarray(centre)
    faces = []
    for i, (n, a, b) in enumerate(FACE_AXES):
        nw = r @ np.asarray(n, float)
        fc = ctr + nw * h
        if float(nw @ (cam.eye - fc)) <= 0:
            continue
        faces.append(
            (
                float(cam.depth(fc[None])[0]),
                i,
                nw,
                r @ np.asarray(a, float),
                r @ np.asarray(b, float),
                fc,
            )
        )
    return [(i, nw, aw, bw, fc) for _, i, nw, aw, bw, fc in sorted(faces, key=lambda f: -f[0])]


def hand_parts(hand: Hand) -> list[tuple[F64, str]]:
    """Polygons (world, 3D) of an arm and hand: sleeve, forearm, palm, fingers."""
    sx, sy, sz = hand.start
    tx, ty, tz = hand.target
    dx, dy = tx - sx, ty - sy
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length  # along the arm
    px, py = -uy, ux  # across
    w = hand.width
    palm_len = w * 1.35
    wrist = (tx - ux * palm_len * 0.55, ty - uy * palm_len * 0.55, tz + 1.0)

    def at(t: float) -> tuple[float, float, float]:
        return (sx + (wrist[0] - sx) * t, sy + (wrist[1] - sy) * t, sz + (wrist[2] - sz) * t)

    def band(t0: float, t1: float, w0: float, w1: float) -> F64:
        a, b = at(t0), at(t1)
        return np.array(
            [
                (a[0] + px * w0 / 2, a[1] + py * w0 / 2, a[2]),
                (b[0] + px * w1 / 2, b[1] + py * w1 / 2, b[2]),
                (b[0] - px * w1 / 2, b[1] - py * w1 / 2, b[2]),
                (a[0] - px * w0 / 2, a[1] - py * w0 / 2, a[2]),
            ]
        )

    parts: list[tuple[F64, str]] = [
        (band(0.0, 0.62, w * 1.6, w * 1.35), "sleeve"),
        (band(0.58, 1.0, w * 1.05, w * 0.85), "arm"),
    ]
    ca, sa = math.cos(hand.yaw), math.sin(hand.yaw)
    hx, hy = ux * ca - uy * sa, ux * sa + uy * ca  # the hand's own forward
    qx, qy = -hy, hx
    cx, cy = tx, ty
    palm = np.array(
        [
            (
                cx + hx * palm_len / 2 * math.cos(t) + qx * w * 0.55 * math.sin(t),
                cy + hy * palm_len / 2 * math.cos(t) + qy * w * 0.55 * math.sin(t),
                tz,
            )
            for t in np.linspace(0, 2 * math.pi, 18, endpoint=False)
        ]
    )
    parts.append((palm, "palm"))
    fw = w * 0.2
    for i, (off, length_f) in enumerate(((-0.33, 0.9), (-0.11, 1.0), (0.11, 0.95), (0.33, 0.75))):
        spread = (i - 1.5) * 0.12 * hand.spread
        fx, fy = (
            hx * math.cos(spread) - hy * math.sin(spread),
            hx * math.sin(spread) + hy * math.cos(spread),
        )
        bx, by = cx + hx * palm_len * 0.4 + qx * off * w, cy + hy * palm_len * 0.4 + qy * off * w
        ln = w * length_f
        gx, gy = -fy, fx
        parts.append(
            (
                np.array(
                    [
                        (bx + gx * fw / 2, by + gy * fw / 2, tz),
                        (bx + fx * ln + gx * fw * 0.42, by + fy * ln + gy * fw * 0.42, tz - 0.8),
                        (bx + fx * (ln + fw * 0.3), by + fy * (ln + fw * 0.3), tz - 0.9),
                        (bx + fx * ln - gx * fw * 0.42, by + fy * ln - gy * fw * 0.42, tz - 0.8),
                        (bx - gx * fw / 2, by - gy * fw / 2, tz),
                    ]
                ),
                "finger",
            )
        )
    tside = 1.0 if hand.spread > 0.5 else -1.0
    bx, by = cx + qx * tside * w * 0.45, cy + qy * tside * w * 0.45
    tdx, tdy = hx * 0.6 + qx * tside * 0.8, hy * 0.6 + qy * tside * 0.8
    n = math.hypot(tdx, tdy)
    tdx, tdy = tdx / n, tdy / n
    gx, gy = -tdy, tdx
    ln = w * 0.7
    parts.append(
        (
            np.array(
                [
                    (bx + gx * fw * 0.6, by + gy * fw * 0.6, tz),
                    (bx + tdx * ln + gx * fw * 0.45, by + tdy * ln + gy * fw * 0.45, tz - 0.5),
                    (bx + tdx * ln - gx * fw * 0.45, by + tdy * ln - gy * fw * 0.45, tz - 0.5),
                    (bx - gx * fw * 0.6, by - gy * fw * 0.6, tz),
                ]
            ),
            "finger",
        )
    )
    return parts


def hand_polygons(hand: Hand) -> list[F64]:
    """The hand's world polygons (for labels: what it hides)."""
    return [p for p, _ in hand_parts(hand)]


# -- drawing primitives shared by the painters ------------------------------------------------
def mix(a: BGR, b: BGR, t: float) -> BGR:
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def _finite(polys: Iterable[F64]) -> list[F64]:
    """The polygons that lie wholly in front of the camera (see ``Camera.normalised``)."""
    return [p for p in polys if np.isfinite(p).all()]


def hull(points: F64) -> F64 | None:
    if not np.isfinite(points).all():
        return None
    return cv2.convexHull(points.astype(np.float32)).reshape(-1, 2).astype(np.float64)  # type: ignore[no-any-return]


def fill(img: U8, polys: Iterable[F64 | None], colour: BGR) -> None:
    pts = [
        np.round(np.asarray(p) * 16).astype(np.int32)
        for p in _finite(p for p in polys if p is not None)
    ]
    if pts:
        cv2.fillPoly(img, pts, colour, cv2.LINE_AA, shift=4)
