"""Dice: the faces, pips, highlight and contact shadow of a die.

A die is a cube with edges and corners rounded by its look's ``rounding``. Each face
that faces the camera is shaded as a small square picture in the face's own plane,
texel by texel: Lambert over its rounded edges, a little darker away from its centre
and towards the surface the die stands on, a soft highlight where the lamp's mirror
image falls, and its pips stamped in as shallow concave dishes (a crescent of shadow
under the rim on the light's side, ink in the bottom). The picture is then warped
into place by the face's homography through the camera's projection (the canvas is a
pinhole, so a plane maps exactly), and the faces together are cut to the outline of
the rounded cube. A die at rest also darkens what it lies on around its foot
(:func:`die_contact`, into the shadow mask that :mod:`.draw` applies).
"""

from __future__ import annotations

import math

import cv2
import numpy as np
from numpy.typing import NDArray

from .camera import Canvas
from .scene import Die, Light, cube_corners
from .shapes import fill as _fill
from .shapes import hull as _hull
from .shapes import mix as _mix
from .shapes import visible_faces

U8 = NDArray[np.uint8]
F64 = NDArray[np.float64]


# pip centres per value in face coordinates (-1..1)
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}


def resting(d: Die) -> bool:
    """Whether a die lies on something (flat or cocked), not tumbling in the air."""
    return d.cocked or float(np.abs(np.asarray(d.rotation, float)[2]).max()) > 0.995


def die_contact(mask: U8, canvas: Canvas, d: Die, strength: float) -> None:
    """Ambient occlusion around a lying die, into the half-size shadow ``mask``: its
    footprint on what it lies on, blurred by a seventh of its width, worked on a patch
    around it only."""
    foot = cube_corners(d.centre, d.rotation, d.size)
    foot[:, 2] = foot[:, 2].min()
    hull = _hull(canvas.project(foot) / 2)
    if hull is None:
        return
    sigma = max(0.8, 0.14 * math.sqrt(max(1.0, cv2.contourArea(hull.astype(np.float32)))))
    pad = math.ceil(3 * sigma) + 1
    mh, mw = mask.shape[:2]
    x0, y0 = (max(math.floor(v) - pad, 0) for v in hull.min(axis=0))
    x1, y1 = (
        min(math.ceil(v) + pad + 1, lim) for v, lim in zip(hull.max(axis=0), (mw, mh), strict=True)
    )
    if x1 - x0 < 2 or y1 - y0 < 2:
        return
    patch = np.zeros((y1 - y0, x1 - x0), np.uint8)
    _fill(patch, [hull - (x0, y0)], (255, 255, 255))
    patch = cv2.GaussianBlur(patch, (0, 0), sigma)
    patch = cv2.convertScaleAbs(patch, alpha=0.5 / max(strength, 0.3))
    roi = mask[y0:y1, x0:x1]
    np.maximum(roi, patch, out=roi)


# Face coordinates run from -1 to 1 across a face; pips sit on a grid of step _PIP_STEP.
_PIP_STEP = 0.52
_FACE_REACH = 1.06  # a face's picture runs a little past its edge, under its neighbour
_SILHOUETTE = np.linspace(0, 2 * np.pi, 24, endpoint=False)  # round corners, outlined


def _die_texels(face_px: float) -> tuple[int, float]:
    """Side in texels and texel step (face units) of a face's picture about
    ``face_px`` wide, chosen so that the pip grid falls on texel centres."""
    k = max(2, round(_PIP_STEP * face_px / (2 * _FACE_REACH)))
    step = _PIP_STEP / k
    return 2 * round(_FACE_REACH / step) + 1, step


def _edge_slope(t: NDArray[np.float32], r: float) -> NDArray[np.float32]:
    """How far a rounded edge of radius ``r`` tips the surface normal at face
    coordinate ``t`` (the tangent of the tilt): 0 on the flat, 1 at the edge itself,
    where the face's half of the rounding meets its neighbour's at 45°."""
    b = np.clip((np.abs(t) - (1 - r)) / max(r, 1e-3), 0, 1) * math.sqrt(0.5)
    return (np.sign(t) * b / np.sqrt(1 - b * b)).astype(np.float32, copy=False)


def _pip_stamp(
    style: str, radius: float, step: float, lu: float, lv: float, lz: float
) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """One pip as (shade factor, ink cover) on a square of texels centred on it.
    ``lu, lv, lz``: the light in the face's frame. A pip is a shallow dish with ink in
    its bottom, a little narrower than the dish and soft-edged; the rim on the light's
    side shades a crescent of the dish, the far wall and lip catch the light. Inked
    pips are flat print."""
    m = math.ceil(radius * 1.3 / step) + 1
    t = np.arange(-m, m + 1, dtype=np.float32) * step

    def dist(a: NDArray[np.float32], b: NDArray[np.float32]) -> NDArray[np.float32]:
        if style == "square":  # a square with rounded corners
            return np.sqrt(np.sqrt((a**4)[None, :] + (b**4)[:, None]))  # type: ignore[no-any-return]
        return np.sqrt((a * a)[None, :] + (b * b)[:, None])  # type: ignore[no-any-return]

    r = radius * 0.85 if style == "square" else radius
    d = dist(t, t)
    dish = np.clip((r - d) / step + 0.5, 0, 1)
    if style == "inked":
        return np.ones_like(d), dish
    # the ink leaves a bare ring of dish wall where there are texels enough to show it
    core = r - min(0.18 * r, 0.4 * step)
    ink = np.clip((core - d) / max(step, 0.12 * r) + 0.5, 0, 1)
    shade = 1 - 0.12 * dish
    if lz > 0.02:
        # > 0 on the side away from the light, whose wall faces it
        facing = -((t * lu)[None, :] + (t * lv)[:, None]) / r
        wall = np.clip(dish - ink, 0, 1)
        lip = np.clip(1 - np.abs(d - r) / (1.5 * step), 0, 1)
        shade = shade + (0.5 * wall + 0.25 * lip) * facing
        # the rim's shadow: where the way to the light leaves the dish below its rim
        k = 0.5 * r / max(lz, 0.3)
        ou, ov = lu * k, lv * k
        far = math.hypot(ou, ov) / (0.9 * r)
        if far > 1:
            ou, ov = ou / far, ov / far
        lit = np.clip((r - dist(t + ou, t + ov)) / step + 0.5, 0, 1)
        shade *= 1 - 0.55 * dish * (1 - lit)
    return shade.astype(np.float32), ink


def _paste(
    dst: NDArray[np.float32], src: NDArray[np.float32], row: int, col: int, mul: bool
) -> None:
    """``src`` centred on ``dst[row, col]``, clipped to ``dst``: multiplied in, or
    kept where larger."""
    m = src.shape[0] // 2
    n0, n1 = dst.shape
    r0, r1, c0, c1 = row - m, row + m + 1, col - m, col + m + 1
    a, b = max(0, -r0), max(0, -c0)
    part = src[a : src.shape[0] - max(0, r1 - n0), b : src.shape[1] - max(0, c1 - n1)]
    view = dst[max(r0, 0) : min(r1, n0), max(c0, 0) : min(c1, n1)]
    if mul:
        view *= part
    else:
        np.maximum(view, part, out=view)


def _sheen(
    nw: F64,
    aw: F64,
    bw: F64,
    fc: F64,
    h: float,
    light: F64,
    eye: F64,
    t: NDArray[np.float32],
    gloss: float,
) -> NDArray[np.float32] | None:
    """A soft highlight on a face (0..1 towards white, texels), centred where the
    lamp's mirror image falls (kept on the face), as strong as the face turns towards
    the half-way vector between lamp and eye; None where it is too faint to show."""
    nl = float(nw @ light)
    view = eye - fc
    dist = float(view @ nw)
    if nl <= 0.02 or dist <= 0:
        return None
    half = light + view / np.linalg.norm(view)
    half /= np.linalg.norm(half)
    strength = gloss * max(0.0, float(nw @ half)) ** 8
    if strength < 0.01:
        return None
    mirror = eye - (2 * nl * nw - light) * (dist / nl) - fc
    pu = min(0.7, max(-0.7, float(mirror @ aw) / h))
    pv = min(0.7, max(-0.7, float(mirror @ bw) / h))
    gu = np.exp(-(((t - pu) / 0.6) ** 2))
    gv = np.exp(-(((t - pv) / 0.6) ** 2))
    return (strength * gv[:, None] * gu[None, :]).astype(np.float32)  # type: ignore[no-any-return]


def draw_die(img: U8, canvas: Canvas, d: Die, light: F64, lt: Light) -> None:
    """A die: a cube with edges and corners rounded by ``look.rounding``, each face
    shaded texel by texel (Lambert over its rounded edges, a little darker away from
    its centre and towards the surface the die stands on, a soft highlight where
    the lamp's reflection falls) and carrying dished pips (:func:`_pip_stamp`)."""
    look = d.look
    cam = canvas.camera
    h = d.size / 2
    corners3 = cube_corners(d.centre, d.rotation, d.size)
    corners = canvas.project(corners3)
    if not np.isfinite(corners).all():
        return
    hh, ww = img.shape[:2]
    x0, y0 = (max(math.floor(v) - 2, 0) for v in corners.min(axis=0))
    x1, y1 = (
        min(math.ceil(v) + 3, lim) for v, lim in zip(corners.max(axis=0), (ww, hh), strict=True)
    )
    if x1 - x0 < 2 or y1 - y0 < 2:
        return
    origin = np.array([x0, y0], float)
    # corners i and i ^ bit share an edge
    ends = np.arange(8)
    edge = max(float(np.hypot(*(corners - corners[ends ^ bit]).T).max()) for bit in (1, 2, 4))
    n, step = _die_texels(min(edge * 1.2, 160.0))
    t = (np.arange(n, dtype=np.float32) - (n - 1) / 2) * step  # texel centres
    slope = _edge_slope(t, min(0.7, 2 * look.rounding))
    upright = 1 / np.sqrt(1 + (slope * slope)[None, :] + (slope * slope)[:, None])
    middle = n // 2
    pip_step = round(_PIP_STEP / step)
    # a little darker away from the face's centre
    dome = (1.0 - 0.05 * ((t * t)[None, :] + (t * t)[:, None])).astype(np.float32)
    body = np.array(look.body, np.float32)
    ink_colour = look.pips if look.pip_style != "inked" else _mix(look.pips, look.body, 0.25)
    ink = np.array(_mix(ink_colour, look.body, 0.12), np.float32)
    # a stable gloss per set of dice
    gloss = 0.2 + 0.2 * ((look.pip_size * 977 + look.rounding * 631) % 1.0)
    lying = resting(d)
    low = float(corners3[:, 2].min())
    ext = n * step / 2
    src = np.array([[-0.5, -0.5], [n - 0.5, -0.5], [n - 0.5, n - 0.5], [-0.5, n - 0.5]], np.float32)
    k0, k1 = 0.35 + 0.75 * lt.ambient, 0.75 * (1 - lt.ambient)
    buf = img[y0:y1, x0:x1].copy()
    for i, nw, aw, bw, fc in visible_faces(canvas, d.centre, d.rotation, h):
        lu, lv, lz = float(light @ aw), float(light @ bw), float(light @ nw)
        lambert = ((lu * slope)[None, :] + (lv * slope + lz)[:, None]) * upright
        k = ((k0 + k1 * np.maximum(lambert, 0)) * dome).astype(np.float32, copy=False)
        if lying and nw[2] < 0.7:
            # the surface below keeps some of the room's light off the foot of a side
            along_u = (h * aw[2] / d.size) * t
            along_v = (fc[2] - low + h * bw[2] * t) / d.size
            up = along_u[None, :] + along_v[:, None]  # height over the die's foot / size
            k *= 1 - 0.2 * np.clip(1 - 3 * up, 0, 1) ** 2
        cover = np.zeros((n, n), np.float32)
        shade, dot = _pip_stamp(look.pip_style, 2 * look.pip_size, step, lu, lv, lz)
        for pu, pv in PIPS[d.faces[i]]:
            row, col = middle + round(pv) * pip_step, middle + round(pu) * pip_step
            _paste(k, shade, row, col, mul=True)
            _paste(cover, dot, row, col, mul=False)
        colour = (body + (ink - body) * cover[..., None]) * k[..., None]
        np.minimum(colour, 255, out=colour)
        sheen = _sheen(nw, aw, bw, fc, h, light, cam.eye, t, gloss)
        if sheen is not None:
            colour += (255 - colour) * sheen[..., None]
        tex = colour.astype(np.uint8)
        quad = [
            fc + (aw * su + bw * sv) * ext * h for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1))
        ]
        dst = (canvas.project(np.array(quad)) - origin).astype(np.float32)
        if not np.isfinite(dst).all():
            continue
        cv2.warpPerspective(
            tex,
            cv2.getPerspectiveTransform(src, dst),
            (x1 - x0, y1 - y0),
            dst=buf,
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_TRANSPARENT,
        )
    # the outline of the rounded cube: the hull of its corners' spheres
    rho = min(look.rounding, 0.35) * d.size
    centres = cube_corners(d.centre, d.rotation, d.size - 2 * rho)
    ring = np.cos(_SILHOUETTE)[:, None] * cam.R[0] + np.sin(_SILHOUETTE)[:, None] * cam.R[1]
    outline = _hull(canvas.project((centres[:, None, :] + rho * ring[None]).reshape(-1, 3)))
    if outline is None:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    _fill(mask, [outline - origin], (255, 255, 255))
    roi = img[y0:y1, x0:x1]
    a = mask.astype(np.float32)[..., None] * (1 / 255)
    roi[:] = (roi + (buf.astype(np.float32) - roi) * a + 0.5).astype(np.uint8)
