"""Turn a :class:`~.scene.Scene` into pixels: a projective painter's renderer.

Planes (table, field, rails, bar) are textures warped by their homographies; solid
objects (checkers, dice, cube, cups, hands) are projected 3D polygons drawn far to
near with per-face shading (a die's faces are small pictures shaded texel by texel,
warped into place: see :mod:`.dice_draw`); shadows are the objects' outlines cast
along the light onto the board, blurred by the light's softness. Drawing happens on an
undistorted canvas; the lens distortion, light falloff, colour temperature, blur and
noise are applied to the whole frame at the end.

A :class:`Renderer` caches board and table textures (they are the slow part), so it
is meant to be reused for many scenes. Output depends only on the scene: the same
scene gives the same bytes whatever was rendered before.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import cv2
import numpy as np
from numpy.typing import NDArray

from . import boardtex, materials
from .camera import NEAR_CM, Canvas
from .dice_draw import die_contact, draw_die, resting
from .geometry import BoardGeometry, Box
from .scene import (
    Checker,
    Clutter,
    Cube,
    Effects,
    Hand,
    Light,
    Scene,
    cube_corners,
    hash_name,
)
from .shapes import (
    at_height,
    box_walls,
    cast_onto,
    circle_pts,
    clutter_hull,
    faces_camera,
    hand_parts,
    lambert,
    light_dir,
    plane_homography,
    rect_pts,
    visible_faces,
)
from .shapes import fill as _fill
from .shapes import hull as _hull
from .shapes import mix as _mix

U8 = NDArray[np.uint8]
F64 = NDArray[np.float64]
BGR = tuple[int, int, int]


def kelvin_gains(kelvin: float) -> tuple[float, float, float]:
    """BGR gains of a light of ``kelvin`` relative to 5500 K (a smooth fit of the
    blackbody locus, good to a few percent, which is all a renderer needs)."""
    t = (kelvin - 5500.0) / 2500.0
    return (1.0 + 0.22 * t, 1.0 + 0.03 * t, 1.0 - 0.2 * t)


def _shade(colour: BGR, f: float) -> BGR:
    return (
        min(255, int(colour[0] * f)),
        min(255, int(colour[1] * f)),
        min(255, int(colour[2] * f)),
    )


def project_clipped(canvas: Canvas, poly: F64) -> F64:
    """A planar polygon (world, 3D) cut at the camera's near plane, then projected:
    a board seen from close up runs behind the camera, and only what lies in front
    of it may be drawn."""
    cam = canvas.camera
    p = np.asarray(poly, np.float64)
    d = cam.depth(p) - NEAR_CM * 1.01
    if (d >= 0).all():
        return canvas.project(p)
    out = []
    for i in range(len(p)):
        a, b, da, db = p[i], p[(i + 1) % len(p)], d[i], d[(i + 1) % len(p)]
        if da >= 0:
            out.append(a)
        if (da >= 0) != (db >= 0):
            out.append(a + (b - a) * (da / (da - db)))
    if len(out) < 3:
        return np.full((1, 2), np.nan)
    return canvas.project(np.array(out))


def _line(img: U8, poly: F64, colour: BGR, closed: bool = True, thickness: int = 1) -> None:
    if not np.isfinite(poly).all():
        return
    cv2.polylines(
        img, [np.round(poly * 16).astype(np.int32)], closed, colour, thickness, cv2.LINE_AA, shift=4
    )


@dataclass(frozen=True)
class BoardAssets:
    texture: boardtex.BoardTexture
    frame_colour: BGR


@dataclass(frozen=True)
class RenderResult:
    image: U8  # BGR, final (distorted, lit, blurred, noisy); JPEG quality is the writer's
    canvas: Canvas


class _LRU(OrderedDict[object, object]):
    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def get_or(self, key: object, make: Callable[[], object]) -> object:
        if key in self:
            self.move_to_end(key)
            return self[key]
        value = make()
        self[key] = value
        if len(self) > self.size:
            self.popitem(last=False)
        return value


class Renderer:
    """Draws scenes; keeps board and table textures of recent scenes."""

    def __init__(self, px_per_cm: float = 10.0, cache_size: int = 96) -> None:
        self.px_per_cm = px_per_cm
        self._boards = _LRU(cache_size)
        self._tables = _LRU(24)
        self._faces = _LRU(64)
        self._maps = _LRU(4)

    # -- cached assets ------------------------------------------------------------------------
    def board_assets(self, scene: Scene) -> BoardAssets:
        b = scene.board

        def make() -> BoardAssets:
            rng = np.random.default_rng([hash_name(b.style.name), b.variant, 7])
            tex = boardtex.build(b.style, b.geometry, rng, self.px_per_cm)
            g = b.geometry
            rail = tex.to_px(
                [(g.x_min + 0.3, -g.y_max + 0.3), (g.x_max - 0.3, -g.y_max + g.rail_width - 0.3)]
            )
            u0, v0 = np.floor(rail.min(axis=0)).astype(int)
            u1, v1 = np.ceil(rail.max(axis=0)).astype(int)
            mean = tex.image[v0:v1, u0:u1].reshape(-1, 3).mean(axis=0)
            return BoardAssets(tex, (int(mean[0]), int(mean[1]), int(mean[2])))

        key = (b.style.name, b.variant, self.px_per_cm)
        return self._boards.get_or(key, make)  # type: ignore[return-value]

    def table_texture(self, scene: Scene) -> U8:
        b = scene.board

        def make() -> U8:
            rng = np.random.default_rng([b.table_variant, 11])
            return materials.make(b.table.kind, rng, 900, 1200, b.table.color, b.table.color2)

        return self._tables.get_or(b.table_variant, make)  # type: ignore[return-value]

    def _cube_face(self, value: int, body: BGR, ink: BGR) -> U8:
        def make() -> U8:
            n = 64
            img = np.empty((n, n, 3), np.uint8)
            img[:] = body
            text = str(value)
            scale = 1.25 if len(text) == 1 else 1.0
            (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, 2)
            cv2.putText(
                img,
                text,
                ((n - tw) // 2, (n + th) // 2),
                cv2.FONT_HERSHEY_DUPLEX,
                scale,
                ink,
                2,
                cv2.LINE_AA,
            )
            return img

        return self._faces.get_or((value, body, ink), make)  # type: ignore[return-value]

    def _distortion_maps(self, canvas: Canvas) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        cam = canvas.camera
        key = (cam.width, cam.height, cam.fx, cam.fy, cam.cx, cam.cy, cam.k1, cam.k2)
        return self._maps.get_or(key, canvas.distortion_maps)  # type: ignore[return-value]

    # -- the frame ------------------------------------------------------------------------------
    def render(
        self, scene: Scene, *, static: U8 | None = None, effects: bool = True
    ) -> RenderResult:
        """The image of ``scene``. ``static``: a canvas already holding the table and
        the empty board for this camera (see :meth:`render_static`), to skip redrawing
        them for every frame of a clip."""
        canvas = Canvas.for_camera(scene.camera)
        img = self.render_static(scene, canvas) if static is None else static.copy()
        light = light_dir(scene.light)
        self._shadows(img, scene, canvas, light)
        self._objects(img, scene, canvas, light)
        img = self._finish(img, scene, canvas, effects)
        return RenderResult(img, canvas)

    def render_static(self, scene: Scene, canvas: Canvas | None = None) -> U8:
        """The table and the board with nothing on it, on the undistorted canvas."""
        canvas = canvas or Canvas.for_camera(scene.camera)
        cam = scene.camera
        w, h = cam.width, cam.height
        g = scene.board.geometry
        assets = self.board_assets(scene)
        tex = assets.texture
        light = light_dir(scene.light)

        table = self.table_texture(scene)
        th, tw = table.shape[:2]
        span = 300.0  # cm across the table texture (mirrored beyond)
        s = tw / span
        uv_to_table = np.array([[1 / s, 0, -span / 2], [0, -1 / s, th / s / 2], [0, 0, 1.0]])
        # the table is soft background: warped at half size and scaled up
        half = np.diag([0.5, 0.5, 1.0])
        img = cv2.resize(
            cv2.warpPerspective(
                table,
                half @ plane_homography(canvas, -g.floor) @ uv_to_table,
                (w // 2, h // 2),
                flags=cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_REFLECT,
            ),
            (w, h),
            interpolation=cv2.INTER_LINEAR,
        )
        # the board's textures are warped only over the board's own bounding box
        box = canvas.project(
            np.array([(x, y, z) for x, y in g.outer_corners() for z in (-g.floor, g.rail_height)])
        )
        if np.isfinite(box).all():
            x0, y0 = (max(0, int(v) - 2) for v in box.min(axis=0))
            x1, y1 = (min(lim, int(v) + 3) for v, lim in zip(box.max(axis=0), (w, h), strict=True))
        else:  # part of the board is behind the camera: warp the whole frame
            x0, y0, x1, y1 = 0, 0, w, h
        if x1 - x0 < 2 or y1 - y0 < 2:  # the board's box is out of the frame
            x0, y0, x1, y1 = 0, 0, w, h
        roi = img[y0:y1, x0:x1]
        shift = np.array([[1.0, 0, -x0], [0, 1.0, -y0], [0, 0, 1.0]])

        # the board's outer walls, then the field (z = 0) and the raised parts
        outer = Box("outer", g.x_min, g.x_max, -g.y_max, g.y_max, g.rail_height)
        for quad, normal in box_walls(outer, -g.floor, outward=True):
            if faces_camera(cam, quad, normal):
                _fill(
                    img,
                    [project_clipped(canvas, quad)],
                    _shade(assets.frame_colour, 0.45 + 0.35 * lambert(normal, light)),
                )

        def paste(z: float, boxes: list[Box]) -> None:
            # the texture seen on the plane at height z, inside the boxes' tops only
            plane = cv2.warpPerspective(
                tex.image,
                shift @ plane_homography(canvas, z) @ tex.uv_to_board(),
                (x1 - x0, y1 - y0),
                flags=cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_REPLICATE,
            )
            mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
            tops = [project_clipped(canvas, np.array(b.corners(z))) - (x0, y0) for b in boxes]
            _fill(mask, tops, (255,) * 3)
            cv2.copyTo(plane, mask, roi)

        sunk = g.field_halves() + g.tray_boxes()
        paste(0.0, sunk)
        for b in sunk:
            walls = box_walls(b, 0.0, outward=False, top=g.rail_height)
            for quad, normal in walls:
                if faces_camera(cam, quad, normal):
                    _fill(
                        img,
                        [project_clipped(canvas, quad)],
                        _shade(assets.frame_colour, 0.4 + 0.3 * lambert(normal, light)),
                    )
        paste(g.rail_height, [*g.rails(), g.bar()])
        return img

    # -- shadows ---------------------------------------------------------------------------------
    def _shadows(self, img: U8, scene: Scene, canvas: Canvas, light: F64) -> None:
        cam = scene.camera
        sw, sh = cam.width // 2, cam.height // 2
        mask = np.zeros((sh, sw), np.uint8)
        polys = []
        for c in scene.checkers:
            ring = circle_pts(c.x, c.y, c.z + c.height, c.radius)
            base = circle_pts(c.x, c.y, c.z, c.radius)
            polys.append(np.vstack([cast_onto(ring, light, c.z), base]))
        for d in scene.dice:
            polys.append(
                cast_onto(
                    cube_corners(d.centre, d.rotation, d.size), light, d.centre[2] - d.size / 2
                )
            )
        if scene.cube is not None:
            k = scene.cube
            polys.append(
                cast_onto(
                    cube_corners(k.centre, k.rotation, k.size), light, k.centre[2] - k.size / 2
                )
            )
        for hand in scene.hands:
            for part, _ in hand_parts(hand):
                polys.append(cast_onto(part, light, 0.0))
        for item in scene.clutter:
            polys.append(
                cast_onto(
                    clutter_hull(item, scene.board.geometry), light, -scene.board.geometry.floor
                )
            )
        hulls = []
        for p in polys:
            q = canvas.project(p) / 2
            hulls.append(_hull(q))
        _fill(mask, hulls, (255,) * 3)
        sigma = max(0.6, scene.light.shadow_softness_px / 2)
        mask = cv2.GaussianBlur(mask, (0, 0), sigma)
        # ambient occlusion: whatever stands on the board darkens it close around its
        # foot, whatever the light (a tight, faint second shadow)
        feet = [
            canvas.project(circle_pts(c.x, c.y, c.z, c.radius * 1.12)) / 2
            for c in scene.checkers
            if c.layer == 0
        ]
        if feet:
            ao = np.zeros_like(mask)
            _fill(ao, feet, (255,) * 3)
            ao = cv2.GaussianBlur(ao, (0, 0), 1.2)
            mask = cv2.max(
                mask, (ao * (0.45 / max(scene.light.shadow_strength, 0.3))).astype(np.uint8)
            )
        # and so does a die lying on something (what falls outside its own picture)
        for d in scene.dice:
            if resting(d):
                die_contact(mask, canvas, d, scene.light.shadow_strength)
        mask = cv2.resize(mask, (cam.width, cam.height), interpolation=cv2.INTER_LINEAR)
        keep = 255 - (mask.astype(np.float32) * scene.light.shadow_strength).astype(np.uint8)
        cv2.multiply(img, cv2.merge([keep, keep, keep]), dst=img, scale=1 / 255)

    # -- solid objects ----------------------------------------------------------------------------
    def _objects(self, img: U8, scene: Scene, canvas: Canvas, light: F64) -> None:
        cam = scene.camera
        jobs: list[tuple[float, Callable[[], None]]] = []
        look = scene.checker_look
        for c in scene.checkers:
            depth = float(cam.depth(np.array([[c.x, c.y, c.z + c.height]]))[0])
            jobs.append((depth, partial(self._checker, img, canvas, c, look, light, scene.light)))
        for d in scene.dice:
            jobs.append(
                (
                    float(cam.depth(np.array([d.centre]))[0]),
                    partial(draw_die, img, canvas, d, light, scene.light),
                )
            )
        if scene.cube is not None:
            k = scene.cube
            jobs.append(
                (
                    float(cam.depth(np.array([k.centre]))[0]),
                    partial(self._cube, img, canvas, k, light, scene.light),
                )
            )
        g = scene.board.geometry
        for item in scene.clutter:
            jobs.append(
                (
                    float(cam.depth(np.array([[item.x, item.y, -g.floor]]))[0]),
                    partial(self._clutter, img, canvas, item, g, light, scene.light),
                )
            )
        for _, job in sorted(jobs, key=lambda j: -j[0]):
            job()
        for hand in scene.hands:
            self._hand(img, canvas, hand, light, scene.light)

    def _checker(
        self, img: U8, canvas: Canvas, c: Checker, look: object, light: F64, lt: Light
    ) -> None:
        top_z = c.z + c.height
        top = canvas.project(circle_pts(c.x, c.y, top_z, c.radius))
        base = canvas.project(circle_pts(c.x, c.y, c.z, c.radius))
        hull = _hull(np.vstack([top, base]))
        k_top = lt.ambient + (1 - lt.ambient) * max(0.0, float(light[2]))
        # no two checkers are quite alike: a stable few percent of brightness each
        vary = 1.0 + 0.05 * (((int(c.x * 37.0) * 7919 + int(c.y * 53.0) * 104729) % 201) / 100 - 1)
        colour = _shade(c.colour, vary)
        side = _shade(colour, k_top * 0.72)
        _fill(img, [hull], side)
        face = _shade(colour, k_top)
        bright = _mix(face, (255, 255, 255), 0.22)
        dark = _shade(face, 0.82)
        # the bevelled edge: lit on the lamp's side, shaded on the other, drawn as the
        # top disc in shade, the same disc nudged towards the light, then the flat face
        lx, ly = float(light[0]), float(light[1])
        n = math.hypot(lx, ly) or 1.0
        nudge = c.radius * 0.07 * min(1.0, n * 2)
        _fill(img, [top], _shade(face, 0.8))
        lit = circle_pts(c.x + nudge * lx / n, c.y + nudge * ly / n, top_z, c.radius * 0.96)
        _fill(img, [canvas.project(lit)], _mix(face, (255, 255, 255), 0.18))
        _fill(img, [canvas.project(circle_pts(c.x, c.y, top_z, c.radius * 0.86))], face)
        rim = getattr(look, "rim", False)
        engraving = getattr(look, "engraving", "none")
        if rim:
            _line(img, canvas.project(circle_pts(c.x, c.y, top_z, c.radius * 0.8)), dark)
        if engraving == "rings":
            _line(img, canvas.project(circle_pts(c.x, c.y, top_z, c.radius * 0.5)), dark)
        elif engraving == "dot":
            _fill(img, [canvas.project(circle_pts(c.x, c.y, top_z, c.radius * 0.18))], dark)
        elif engraving == "star":
            pts = [
                (c.x + c.radius * 0.55 * math.cos(a), c.y + c.radius * 0.55 * math.sin(a), top_z)
                for a in np.linspace(0, 4 * math.pi, 6)[:-1]
            ]
            _line(img, canvas.project(np.array(pts)), dark)
        _line(img, top, bright)
        if getattr(look, "glossy", False):
            hx = c.x + c.radius * 0.45 * lx / n
            hy = c.y + c.radius * 0.45 * ly / n
            _fill(
                img,
                [canvas.project(circle_pts(hx, hy, top_z, c.radius * 0.2))],
                _mix(face, (255, 255, 255), 0.45),
            )

    def _cube_faces(
        self,
        img: U8,
        canvas: Canvas,
        centre: tuple[float, float, float],
        rotation: object,
        size: float,
        body: BGR,
        light: F64,
        lt: Light,
        rounding: float,
        decorate: Callable[[int, F64, F64, F64, BGR], None],
    ) -> None:
        h = size / 2
        for i, nw, aw, bw, fc in visible_faces(canvas, centre, rotation, h):
            shade = lt.ambient + (1 - lt.ambient) * max(0.0, float(nw @ light))
            colour = _shade(body, 0.35 + 0.75 * shade)
            cut = rounding
            outline = []
            for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
                corner = fc + aw * su * h + bw * sv * h
                outline.append(corner - aw * su * cut * size)
                outline.append(corner - bw * sv * cut * size)
            # keep the polygon's winding: the points around a corner go u-edge, v-edge
            ordered = []
            for k in range(4):
                p, q = outline[2 * k], outline[2 * k + 1]
                ordered.extend([q, p] if k % 2 == 0 else [p, q])
            face = canvas.project(np.array(ordered))
            _fill(img, [face], colour)
            # rounded edges catch the light: a thin bright rim around each face
            _line(img, face, _mix(colour, (255, 255, 255), 0.3))
            decorate(i, fc, aw, bw, colour)

    def _cube(self, img: U8, canvas: Canvas, k: Cube, light: F64, lt: Light) -> None:
        h = k.size / 2

        def number(face: int, fc: F64, aw: F64, bw: F64, colour: BGR) -> None:
            tex = self._cube_face(k.faces[face], colour, k.ink)
            n = tex.shape[0]
            quad = np.array(
                [
                    fc + (-aw + bw) * h * 0.8,
                    fc + (aw + bw) * h * 0.8,
                    fc + (aw - bw) * h * 0.8,
                    fc + (-aw - bw) * h * 0.8,
                ]
            )
            dst = canvas.project(quad).astype(np.float32)
            if not np.isfinite(dst).all():
                return
            x0, y0 = np.floor(dst.min(axis=0)).astype(int)
            x1, y1 = np.ceil(dst.max(axis=0)).astype(int) + 1
            hh, ww = img.shape[:2]
            x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, ww), min(y1, hh)
            if x1 - x0 < 3 or y1 - y0 < 3:
                return
            src = np.array([[0, 0], [n, 0], [n, n], [0, n]], np.float32)
            m = cv2.getPerspectiveTransform(src, dst - np.array([x0, y0], np.float32))
            roi = img[y0:y1, x0:x1]
            warped = cv2.warpPerspective(tex, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
            inside = cv2.warpPerspective(np.full((n, n), 255, np.uint8), m, (x1 - x0, y1 - y0))
            np.copyto(roi, warped, where=inside[..., None] > 200)

        self._cube_faces(img, canvas, k.centre, k.rotation, k.size, k.body, light, lt, 0.06, number)

    def _clutter(
        self, img: U8, canvas: Canvas, item: Clutter, g: BoardGeometry, light: F64, lt: Light
    ) -> None:
        z0 = -g.floor
        k = lt.ambient + (1 - lt.ambient) * max(0.0, float(light[2]))
        if item.kind == "cup":
            r, hgt = item.size / 2, item.size * 1.1
            top = canvas.project(circle_pts(item.x, item.y, z0 + hgt, r))
            base = canvas.project(circle_pts(item.x, item.y, z0, r * 0.85))
            hull = _hull(np.vstack([top, base]))
            _fill(img, [hull], _shade(item.colour, k * 0.8))
            _fill(img, [top], _shade(item.colour, k * 1.05))
            _fill(
                img,
                [canvas.project(circle_pts(item.x, item.y, z0 + hgt, r * 0.85))],
                _shade(item.colour, 0.35),
            )
            return
        quad = rect_pts(
            item.x,
            item.y,
            item.size,
            item.size * (1.35 if item.kind == "sheet" else 0.5),
            item.angle,
        )
        if item.kind == "sheet":
            _fill(img, [canvas.project(at_height(quad, z0 + 0.05))], _shade((238, 240, 242), k))
            ca, sa = math.cos(item.angle), math.sin(item.angle)
            for i in range(1, 12):
                off = -item.size * 0.62 + i * item.size * 0.1
                p0 = (
                    item.x - sa * off - ca * item.size * 0.4,
                    item.y + ca * off - sa * item.size * 0.4,
                )
                p1 = (
                    item.x - sa * off + ca * item.size * 0.4,
                    item.y + ca * off + sa * item.size * 0.4,
                )
                _line(
                    img,
                    canvas.project(np.array([(*p0, z0 + 0.06), (*p1, z0 + 0.06)])),
                    (150, 140, 130),
                    False,
                )
            return
        height = 0.8 if item.kind == "phone" else item.size * 0.45
        box_top = canvas.project(at_height(quad, z0 + height))
        box_base = canvas.project(at_height(quad, z0))
        hull = _hull(np.vstack([box_top, box_base]))
        _fill(img, [hull], _shade(item.colour, k * 0.6))
        _fill(img, [box_top], _shade(item.colour, k))
        if item.kind == "phone":
            screen = rect_pts(item.x, item.y, item.size * 0.9, item.size * 0.42, item.angle)
            _fill(img, [canvas.project(at_height(screen, z0 + height + 0.01))], (50, 35, 30))
        else:
            for sx in (-0.25, 0.25):
                cx = item.x + math.cos(item.angle) * item.size * sx
                cy = item.y + math.sin(item.angle) * item.size * sx
                _fill(
                    img,
                    [canvas.project(circle_pts(cx, cy, z0 + height + 0.01, item.size * 0.16))],
                    (225, 225, 225),
                )

    def _hand(self, img: U8, canvas: Canvas, hand: Hand, light: F64, lt: Light) -> None:
        k = lt.ambient + (1 - lt.ambient) * max(0.0, float(light[2]))
        parts = [(canvas.project(part), what) for part, what in hand_parts(hand)]
        if not all(np.isfinite(p).all() for p, _ in parts):
            return  # reaching past the camera: nothing to draw of it
        allpts = np.vstack([p for p, _ in parts])
        h, w = img.shape[:2]
        x0, y0 = (max(0, int(v) - 2) for v in allpts.min(axis=0))
        x1, y1 = (min(lim, int(v) + 3) for v, lim in zip(allpts.max(axis=0), (w, h), strict=True))
        if x1 - x0 < 2 or y1 - y0 < 2:
            return
        # limbs are round: shade each part darker towards its outline, on a copy that
        # is then blurred into smooth gradients and pasted back inside the silhouette
        roi = img[y0:y1, x0:x1]
        layer = roi.copy()
        mask = np.zeros(roi.shape[:2], np.uint8)
        for poly, what in parts:
            colour = hand.sleeve if what == "sleeve" else hand.skin
            f = k * (0.9 if what == "finger" else 1.0)
            local = poly - (x0, y0)
            centre = local.mean(axis=0)
            _fill(layer, [local], _shade(colour, f * 0.7))
            _fill(layer, [centre + (local - centre) * 0.7], _shade(colour, f * 0.92))
            _fill(layer, [centre + (local - centre) * 0.4], _shade(colour, f * 1.05))
            _fill(mask, [local], (255, 255, 255))
        width_px = float(np.linalg.norm(parts[1][0][0] - parts[1][0][3]))  # the forearm's width
        layer = cv2.GaussianBlur(layer, (0, 0), max(1.0, width_px * 0.12))
        cv2.copyTo(layer, mask, roi)
        for poly, what in parts:
            colour = hand.sleeve if what == "sleeve" else hand.skin
            _line(img, poly, _shade(colour, k * 0.5))

    # -- the whole frame ---------------------------------------------------------------------------
    def _finish(self, img: U8, scene: Scene, canvas: Canvas, effects: bool) -> U8:
        cam, lt, fx = scene.camera, scene.light, scene.effects
        w, h = cam.width, cam.height
        # light falloff, spot, vignette, colour temperature, exposure, white balance
        gw, gh = 64, 36
        yy, xx = np.mgrid[0:gh, 0:gw].astype(np.float32)
        u, v = (xx + 0.5) / gw, (yy + 0.5) / gh
        spot = np.exp(-(((u - lt.spot_xy[0]) ** 2 + (v - lt.spot_xy[1]) ** 2) / 0.08))
        r2 = (u - 0.5) ** 2 + (v - 0.5) ** 2
        gain = (1 + lt.spot_strength * (spot - 0.4)) * (1 - lt.vignette * r2 * 1.6)
        kg = kelvin_gains(lt.kelvin)
        gains = [gain * kg[i] * fx.white_balance[i] * fx.exposure for i in range(3)]
        gmap = cv2.resize(
            cv2.merge([np.clip(g * 128, 0, 255).astype(np.uint8) for g in gains]),
            (w, h),
            interpolation=cv2.INTER_LINEAR,
        )
        img = cv2.multiply(img, gmap, scale=1 / 128)
        if lt.glare > 0:
            glare = np.clip(spot**4 * lt.glare * 140, 0, 255).astype(np.uint8)
            img = cv2.add(img, cv2.merge([cv2.resize(glare, (w, h))] * 3))
        lut = np.clip(255 * (np.arange(256) / 255.0) ** (1 / fx.gamma), 0, 255).astype(np.uint8)
        img = cv2.LUT(img, lut)
        mx, my = self._distortion_maps(canvas)
        img = cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        return camera_effects(img, fx) if effects else img


def sensor_noise(shape: tuple[int, ...], sigma: float, seed: int) -> NDArray[np.int16]:
    """Sensor noise from OpenCV's seeded generator: per-pixel luminance noise, plus
    blotchy colour noise at half its strength (what a webcam's denoiser leaves of the
    per-channel noise). Cheaper than full per-channel noise, which mattered at 20
    stills per second."""
    h, w = shape[:2]
    cv2.setRNGSeed(seed)
    luma = np.empty((h, w), np.int16)
    cv2.randn(luma, 0, sigma)
    chroma = np.empty((max(1, h // 4), max(1, w // 4), 3), np.int16)
    cv2.randn(chroma, 0, sigma * 0.5)
    chroma = cv2.resize(chroma, (w, h), interpolation=cv2.INTER_LINEAR)
    return cv2.add(cv2.merge([luma, luma, luma]), chroma)  # type: ignore[no-any-return]


def camera_effects(img: U8, fx: Effects, noise: NDArray[np.int16] | None = None) -> U8:
    """What the camera adds: defocus, motion blur, sensor noise (``noise``, else drawn
    with ``fx.noise_seed``). Applied last, so a clip can reuse one clean frame."""
    if fx.defocus_sigma > 0:
        img = cv2.GaussianBlur(img, (0, 0), fx.defocus_sigma)
    if fx.motion_px >= 1.5:
        n = round(fx.motion_px) | 1
        kern = np.zeros((n, n), np.float32)
        a = math.radians(fx.motion_angle_deg)
        c = (n - 1) / 2
        cv2.line(
            kern,
            (round(c - c * math.cos(a)), round(c - c * math.sin(a))),
            (round(c + c * math.cos(a)), round(c + c * math.sin(a))),
            1.0,
            1,
        )
        img = cv2.filter2D(img, -1, kern / kern.sum())
    if noise is None and fx.noise_sigma > 0.3:
        noise = sensor_noise(img.shape, fx.noise_sigma, fx.noise_seed)
    if noise is not None:
        img = cv2.add(img, noise, dtype=cv2.CV_8U)
    return img
