"""A pinhole camera with radial lens distortion, in OpenCV's conventions.

World = board space (centimetres, ``z`` up, see :mod:`.geometry`). Camera axes are
OpenCV's: ``x`` right, ``y`` down, ``z`` forward. A world point ``X`` maps to
``K · distort(R X + t)``, the same model as ``cv2.projectPoints`` with distortion
coefficients ``(k1, k2, 0, 0)``, so calibration code can use OpenCV directly on the
recorded parameters.

The renderer draws into an undistorted *canvas* with its own, wider intrinsics and
then warps the canvas into the distorted image (``distortion_maps``); every label is
projected straight through the distorted model, so pixels and labels agree.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

F64 = NDArray[np.float64]

#: Nearer than this (cm, along the view) nothing is drawn or labelled.
NEAR_CM = 1.0


@dataclass(frozen=True)
class Camera:
    """Intrinsics, pose and distortion of one camera."""

    width: int
    height: int
    fx: float
    fy: float
    cx: float
    cy: float
    rotation: tuple[tuple[float, float, float], ...]  # world -> camera, 3x3
    translation: tuple[float, float, float]
    k1: float = 0.0
    k2: float = 0.0

    # -- construction ------------------------------------------------------------
    @classmethod
    def looking_at(
        cls,
        eye: tuple[float, float, float],
        target: tuple[float, float, float],
        *,
        width: int,
        height: int,
        hfov_deg: float,
        roll_deg: float = 0.0,
        k1: float = 0.0,
        k2: float = 0.0,
    ) -> Camera:
        """A camera at ``eye`` looking at ``target``, image "up" towards world +z
        (or +y when looking straight down), rolled by ``roll_deg``."""
        e, t = np.asarray(eye, float), np.asarray(target, float)
        fwd = t - e
        fwd /= np.linalg.norm(fwd)
        up = np.array([0.0, 0.0, 1.0])
        if abs(float(fwd @ up)) > 0.999:
            up = np.array([0.0, 1.0, 0.0])
        right = np.cross(fwd, up)
        right /= np.linalg.norm(right)
        down = np.cross(fwd, right)
        r = math.radians(roll_deg)
        right, down = (
            math.cos(r) * right + math.sin(r) * down,
            -math.sin(r) * right + math.cos(r) * down,
        )
        rot = np.stack([right, down, fwd])
        trans = -rot @ e
        f = width / 2 / math.tan(math.radians(hfov_deg) / 2)
        return cls(
            width,
            height,
            f,
            f,
            width / 2,
            height / 2,
            tuple((float(row[0]), float(row[1]), float(row[2])) for row in rot),
            (float(trans[0]), float(trans[1]), float(trans[2])),
            k1,
            k2,
        )

    @property
    def R(self) -> F64:
        return np.asarray(self.rotation, float)

    @property
    def t(self) -> F64:
        return np.asarray(self.translation, float)

    @property
    def K(self) -> F64:
        return np.array([[self.fx, 0, self.cx], [0, self.fy, self.cy], [0, 0, 1.0]])

    @property
    def eye(self) -> F64:
        return -self.R.T @ self.t

    # -- projection --------------------------------------------------------------
    def to_camera(self, points: F64) -> F64:
        """World points (N, 3) in camera coordinates."""
        return np.asarray(points, float).reshape(-1, 3) @ self.R.T + self.t

    def normalised(self, points: F64) -> F64:
        """Points on the image plane at distance 1; NaN for points less than
        :data:`NEAR_CM` in front of the camera (behind it, or too close to be drawn),
        which drawing and labels then leave out."""
        cam = self.to_camera(points)
        z = cam[:, 2:3]
        out = cam[:, :2] / np.maximum(z, NEAR_CM)
        out[z[:, 0] < NEAR_CM] = np.nan
        return out

    def distort(self, xy: F64) -> F64:
        # The radial polynomial only holds inside the lens's field: beyond it, barrel
        # distortion would fold far-away points back into the picture. The factor
        # stops changing at the radius where the mapping stops growing.
        r2 = np.minimum((xy * xy).sum(axis=1, keepdims=True), self._r2_limit())
        return xy * (1 + self.k1 * r2 + self.k2 * r2 * r2)

    def _r2_limit(self) -> float:
        # d/dr r(1 + k1 r^2 + k2 r^4) = 1 + 3 k1 r^2 + 5 k2 r^4 stays above 0.2 up to the
        # smallest positive root of 5 k2 x^2 + 3 k1 x + 0.8 (x = r^2); 4 at most
        a, b, c = 5 * self.k2, 3 * self.k1, 0.8
        if abs(a) < 1e-12:
            roots = [-c / b] if b < 0 else []
        else:
            disc = b * b - 4 * a * c
            roots = (
                []
                if disc < 0
                else [(-b - math.sqrt(disc)) / (2 * a), (-b + math.sqrt(disc)) / (2 * a)]
            )
        positive = [r for r in roots if r > 0]
        return min([4.0, *positive])

    def undistort(self, xy: F64) -> F64:
        """Inverse of :meth:`distort` (fixed-point iteration; the distortions we
        render are mild, so it converges in a few steps)."""
        und = xy.copy()
        for _ in range(8):
            r2 = (und * und).sum(axis=1, keepdims=True)
            und = xy / (1 + self.k1 * r2 + self.k2 * r2 * r2)
        return und

    def project(self, points: F64) -> F64:
        """World points (N, 3) -> image pixels (N, 2), lens distortion included."""
        d = self.distort(self.normalised(points))
        return np.column_stack([d[:, 0] * self.fx + self.cx, d[:, 1] * self.fy + self.cy])

    def depth(self, points: F64) -> F64:
        return self.to_camera(points)[:, 2]

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Camera:
        """The camera :meth:`to_dict` wrote (a rendered clip's ``clip.json``)."""
        (fx, _, cx), (_, fy, cy), _ = d["K"]
        tx, ty, tz = d["t"]
        return cls(
            int(d["width"]),
            int(d["height"]),
            float(fx),
            float(fy),
            float(cx),
            float(cy),
            tuple((float(a), float(b), float(c)) for a, b, c in d["R"]),
            (float(tx), float(ty), float(tz)),
            float(d["dist"][0]),
            float(d["dist"][1]),
        )

    def to_dict(self) -> dict[str, object]:
        eye = self.eye
        return {
            "width": self.width,
            "height": self.height,
            "K": [[round(float(v), 4) for v in row] for row in self.K],
            "dist": [self.k1, self.k2, 0.0, 0.0],
            "R": [[round(v, 6) for v in row] for row in self.rotation],
            "t": [round(v, 4) for v in self.translation],
            "eye_cm": [round(float(v), 3) for v in eye],
        }


@dataclass(frozen=True)
class Canvas:
    """Where the renderer draws before lens distortion: same pose, wider pinhole."""

    camera: Camera
    fx: float
    fy: float
    cx: float
    cy: float
    width: int
    height: int

    @classmethod
    def for_camera(cls, camera: Camera) -> Canvas:
        # Barrel distortion shows, at the image border, what a pinhole would see
        # beyond it: widen the canvas so every output pixel has a source.
        w, h = camera.width, camera.height
        border = np.array([[0, 0], [w, 0], [0, h], [w, h], [w / 2, 0], [0, h / 2]], float)
        xd = (border - [camera.cx, camera.cy]) / [camera.fx, camera.fy]
        xu = camera.undistort(xd)
        scale = float(np.min(np.abs(xd[np.abs(xu) > 1e-9]) / np.abs(xu[np.abs(xu) > 1e-9])))
        scale = min(1.0, scale) * 0.995
        return cls(camera, camera.fx * scale, camera.fy * scale, camera.cx, camera.cy, w, h)

    def project(self, points: F64) -> F64:
        """World points -> canvas pixels (no distortion)."""
        xy = self.camera.normalised(points)
        return np.column_stack([xy[:, 0] * self.fx + self.cx, xy[:, 1] * self.fy + self.cy])

    def distortion_maps(self, step: int = 16) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """``cv2.remap`` maps from the final image to the canvas. Computed on a
        coarse grid and interpolated: the mapping is smooth, the error sub-pixel."""
        cam = self.camera
        gx = np.arange(0, cam.width + step, step, dtype=float)
        gy = np.arange(0, cam.height + step, step, dtype=float)
        xx, yy = np.meshgrid(gx, gy)
        xd = np.column_stack([(xx.ravel() - cam.cx) / cam.fx, (yy.ravel() - cam.cy) / cam.fy])
        xu = cam.undistort(xd)
        mx = (xu[:, 0] * self.fx + self.cx).reshape(xx.shape).astype(np.float32)
        my = (xu[:, 1] * self.fy + self.cy).reshape(xx.shape).astype(np.float32)
        size = (len(gx) * step, len(gy) * step)
        mx = cv2.resize(mx, size, interpolation=cv2.INTER_LINEAR)[: cam.height, : cam.width]
        my = cv2.resize(my, size, interpolation=cv2.INTER_LINEAR)[: cam.height, : cam.width]
        # cv2.resize aligns pixel centres: grid node i sits at output pixel i*step + (step-1)/2
        # after resizing; shift back so node i lands on pixel i*step.
        shift = (step - 1) / 2
        m = np.array([[1, 0, -shift], [0, 1, -shift]], np.float32)
        mx = cv2.warpAffine(mx, m, (cam.width, cam.height), borderMode=cv2.BORDER_REPLICATE)
        my = cv2.warpAffine(my, m, (cam.width, cam.height), borderMode=cv2.BORDER_REPLICATE)
        return mx, my
