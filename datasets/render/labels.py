"""Ground truth for a rendered image: one JSON object per image.

The format is documented in ``docs/render-labels.md``; :data:`LABEL_SCHEMA` and
:data:`LABEL_VERSION` name it, and a reader must refuse a version it does not know.
Everything is computed from the :class:`~.scene.Scene` with the camera's distorted
projection, the same model the pixels went through, so boxes and polygons land on
the drawn objects.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from gammoneye.engine.matchid import MatchInfo, encode_xgid

from .scene import Checker, Scene, cube_corners
from .shapes import circle_pts, clutter_hull, hand_polygons

LABEL_SCHEMA = "gammoneye-render-label"
LABEL_VERSION = 1

F64 = NDArray[np.float64]


def _r(v: float) -> float:
    return round(float(v), 2)


def field_corners_px(scene: Scene, proj: _Projector | None = None) -> list[list[float]] | None:
    """The playing field's four corners in the picture (``None`` when behind the camera)."""
    g = scene.board.geometry
    proj = proj or _Projector(scene)
    return _pts(proj.project(np.array([(x, y, 0.0) for x, y in g.field_corners()])))


def _pts(p: F64) -> list[list[float]] | None:
    """Pixel points, or None when some lie behind the camera (a close-up)."""
    if not np.isfinite(p).all():
        return None
    return [[_r(x), _r(y)] for x, y in p]


class _Projector:
    def __init__(self, scene: Scene) -> None:
        self.cam = scene.camera
        self.w, self.h = self.cam.width, self.cam.height
        self.hand_mask: NDArray[np.uint8] | None = None
        if scene.hands:
            q = 4
            mask = np.zeros((self.h // q, self.w // q), np.uint8)
            for hand in scene.hands:
                for poly in hand_polygons(hand):
                    p = self.cam.project(poly) / q
                    if np.isfinite(p).all():
                        cv2.fillPoly(mask, [np.round(p).astype(np.int32)], 255)
            self.hand_mask = mask

    def project(self, pts: F64) -> F64:
        return self.cam.project(np.asarray(pts, float))

    def box(self, pts: F64) -> dict[str, Any]:
        """Box of the 3D points: clipped to the image, with ``truncated`` when it was
        cut, ``in_image`` false when nothing of it is inside, and the fraction of it
        that a hand covers."""
        p = self.project(pts)
        if not np.isfinite(p).all():  # partly behind the camera: not in the picture
            return {"box": None, "in_image": False, "truncated": False, "hidden_by_hand": 0.0}
        x0, y0 = p.min(axis=0)
        x1, y1 = p.max(axis=0)
        cx0, cy0 = max(0.0, float(x0)), max(0.0, float(y0))
        cx1, cy1 = min(float(self.w), float(x1)), min(float(self.h), float(y1))
        inside = cx1 > cx0 and cy1 > cy0
        out: dict[str, Any] = {
            "box": [_r(cx0), _r(cy0), _r(cx1), _r(cy1)] if inside else None,
            "in_image": bool(inside),
            "truncated": bool(inside and (cx0 > x0 or cy0 > y0 or cx1 < x1 or cy1 < y1)),
        }
        out["hidden_by_hand"] = self._hidden(p) if inside else 0.0
        return out

    def _hidden(self, p: F64) -> float:
        if self.hand_mask is None:
            return 0.0
        q = 4
        hull = cv2.convexHull((p / q).astype(np.float32)).reshape(-1, 2)
        x0, y0 = np.floor(hull.min(axis=0)).astype(int)
        x1, y1 = np.ceil(hull.max(axis=0)).astype(int) + 1
        mh, mw = self.hand_mask.shape
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, mw), min(y1, mh)
        if x1 <= x0 or y1 <= y0:
            return 0.0
        own = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(own, [np.round(hull - [x0, y0]).astype(np.int32)], 255)
        area = int((own > 0).sum())
        if area == 0:
            return 0.0
        covered = int(((own > 0) & (self.hand_mask[y0:y1, x0:x1] > 0)).sum())
        return round(covered / area, 3)

    def point(self, x: float, y: float, z: float) -> list[float] | None:
        p = self.project(np.array([[x, y, z]]))[0]
        return [_r(p[0]), _r(p[1])] if np.isfinite(p).all() else None


def _checker_pts(c: Checker) -> F64:
    return np.vstack(
        [circle_pts(c.x, c.y, c.z, c.radius), circle_pts(c.x, c.y, c.z + c.height, c.radius)]
    )


def position_label(scene: Scene) -> dict[str, Any]:
    pos = scene.position
    info = MatchInfo(dice_owner=pos.turn, turn=pos.turn)
    points = []
    for number in range(1, 25):
        owner = None
        count = 0
        for player in (0, 1):
            own = number if player == scene.bottom else 25 - number
            n = pos.boards[player][own - 1]
            if n:
                owner, count = player, n
        points.append(
            {
                "number": number,
                "owner": owner,
                "colour": None if owner is None else scene.colour_names[owner],
                "count": count,
            }
        )
    return {
        "position_id": pos.position_id(),
        "xgid": encode_xgid(pos, info),
        "turn": pos.turn,
        "bottom_player": scene.bottom,
        "players": [
            {
                "player": p,
                "seat": "bottom" if p == scene.bottom else "top",
                "colour": scene.colour_names[p],
                "home": _home(scene, p),
            }
            for p in (0, 1)
        ],
        "points": points,
        "bar": [pos.bar(0), pos.bar(1)],
        "off": [pos.off(0), pos.off(1)],
        "origin": scene.origin,
    }


def _home(scene: Scene, player: int) -> str:
    """Where the player's home board is, in the bottom seat's view: e.g. ``bottom-right``."""
    g = scene.board.geometry
    row = "bottom" if player == scene.bottom else "top"
    right = not g.mirrored
    return f"{row}-{'right' if right else 'left'}"


def scene_label(scene: Scene, image: str, seed: list[int]) -> dict[str, Any]:
    """The label of ``scene`` rendered as ``image``."""
    proj = _Projector(scene)
    g = scene.board.geometry
    board = scene.board

    regions = {
        "points": [
            {
                "number": n,
                "polygon_px": _pts(
                    proj.project(np.array([(x, y, 0.0) for x, y in g.point_triangle(n)]))
                ),
                "base_px": proj.point(g.point_base(n)[0], g.point_base(n)[1], 0.0),
            }
            for n in range(1, 25)
        ],
        "bar": _pts(proj.project(np.array(g.bar().corners()))),
        "trays": [
            {"name": t.name, "polygon_px": _pts(proj.project(np.array(t.corners(0.0))))}
            for t in g.tray_boxes()
        ],
        "field_halves": [
            {"name": b.name, "polygon_px": _pts(proj.project(np.array(b.corners(0.0))))}
            for b in g.field_halves()
        ],
    }
    checkers = []
    for c in scene.checkers:
        item = {
            "owner": c.owner,
            "colour": scene.colour_names[c.owner],
            "where": c.where,
            "point": c.point,
            "layer": c.layer,
            "centre_px": proj.point(c.x, c.y, c.z + c.height),
        }
        item.update(proj.box(_checker_pts(c)))
        checkers.append(item)
    dice = []
    for d in scene.dice:
        x = d.centre[0]
        if d.off_board:
            half = None
        elif abs(x) < g.bar_width / 2:
            half = "bar"
        else:
            half = "right" if x > 0 else "left"
        rel = {}
        for p in (0, 1):
            sign = scene.right_half_sign(p)
            rel[str(p)] = None if half in (None, "bar") else ("right" if x * sign > 0 else "left")
        item = {
            "value": d.value,
            "owner": d.owner,
            "cocked": d.cocked,
            "tilt_deg": _r(d.tilt_deg),
            "leaning_on": d.leaning_on,
            "board_half": half,
            "half_of_player": rel,
            "on_checker": d.on_checker,
            "off_board": d.off_board,
            "size_cm": _r(d.size),
            "centre_px": proj.point(*d.centre),
        }
        item.update(proj.box(cube_corners(d.centre, d.rotation, d.size)))
        dice.append(item)
    cube = None
    if scene.cube is not None:
        k = scene.cube
        cube = {
            "value": k.value,
            "place": k.place,
            "size_cm": _r(k.size),
            "centre_px": proj.point(*k.centre),
        }
        cube.update(proj.box(cube_corners(k.centre, k.rotation, k.size)))
    hands = []
    for hand in scene.hands:
        pts = np.vstack(hand_polygons(hand))
        hands.append(proj.box(pts) | {"hidden_by_hand": 0.0})
    return {
        "schema": LABEL_SCHEMA,
        "version": LABEL_VERSION,
        "image": image,
        "width": scene.camera.width,
        "height": scene.camera.height,
        "seed": seed,
        "position": position_label(scene),
        "board": {
            "style": board.style.name,
            "variant": board.variant,
            "size_cm": [_r(g.outer_width), _r(g.outer_depth)],
            "trays": g.trays,
            "mirrored": g.mirrored,
            "geometry": {
                k: (_r(v) if isinstance(v, float) else v) for k, v in dataclasses.asdict(g).items()
            },
            "table": board.table.kind,
            "corners_px": _pts(
                proj.project(np.array([(x, y, g.rail_height) for x, y in g.outer_corners()]))
            ),
            "field_corners_px": field_corners_px(scene, proj),
        },
        "checker_set": scene.checker_set,
        "checker_look": dataclasses.asdict(scene.checker_look),
        "stacking": scene.stacking,
        "regions": regions,
        "checkers": checkers,
        "dice": dice,
        "cube": cube,
        "hands": hands,
        "clutter": [
            {"kind": c.kind} | proj.box(clutter_hull(c, scene.board.geometry))
            for c in scene.clutter
        ],
        "camera": scene.camera.to_dict(),
        "light": dataclasses.asdict(scene.light),
        "effects": dataclasses.asdict(scene.effects),
    }
