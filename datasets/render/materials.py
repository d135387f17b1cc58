"""Procedural surface textures: wood, felt, leather, cork, paper, plastic, vinyl.

Each maker fills an ``(h, w, 3)`` BGR ``uint8`` array from a seeded generator.
They are built once per board variant and cached by the renderer, so they may take
a few tens of milliseconds.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
from numpy.typing import NDArray

U8 = NDArray[np.uint8]
F32 = NDArray[np.float32]
BGR = tuple[int, int, int]


def smooth_noise(rng: np.random.Generator, h: int, w: int, cell: float, aspect: float = 1.0) -> F32:
    """Value noise with features about ``cell`` pixels wide (``aspect`` stretches
    them along x), roughly in [-1, 1]."""
    gh = max(2, int(h / cell))
    gw = max(2, int(w / (cell * aspect)))
    grid = rng.uniform(-1, 1, (gh, gw)).astype(np.float32)
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)


def _mix(base: BGR, other: BGR, t: F32) -> U8:
    """Per-pixel blend of two colours by ``t`` (0 = base, 1 = other)."""
    b = np.asarray(base, np.float32)
    o = np.asarray(other, np.float32)
    out = b + (o - b) * np.clip(t, 0, 1)[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def _shade(img: U8, factor: F32) -> U8:
    return np.clip(img.astype(np.float32) * factor[..., None], 0, 255).astype(np.uint8)


def wood(
    rng: np.random.Generator, h: int, w: int, base: BGR, dark: BGR, vertical: bool = False
) -> U8:
    """Long grain with rings and fine streaks, running along x (or y)."""
    if vertical:
        return np.ascontiguousarray(wood(rng, w, h, base, dark).transpose(1, 0, 2))
    period = rng.uniform(18, 45)
    warp = smooth_noise(rng, h, w, cell=rng.uniform(40, 90), aspect=6.0) * rng.uniform(1.5, 3.5)
    yy = np.arange(h, dtype=np.float32)[:, None] + np.zeros((1, w), np.float32)
    rings = 0.5 + 0.5 * np.sin(2 * np.pi * (yy / period + warp))
    rings = rings ** rng.uniform(2.0, 5.0)
    streaks = smooth_noise(rng, h, w, cell=1.5, aspect=30.0) * 0.35
    t = (np.clip(0.55 * rings + 0.25 * streaks + 0.2, 0, 1) * rng.uniform(0.5, 0.9)).astype(
        np.float32
    )
    return _mix(base, dark, t)


def felt(rng: np.random.Generator, h: int, w: int, base: BGR) -> U8:
    fine = rng.normal(0, 1, (h, w)).astype(np.float32)
    fine = cv2.GaussianBlur(fine, (0, 0), 0.8)
    low = smooth_noise(rng, h, w, cell=80)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = base
    return _shade(img, 1 + 0.07 * fine + 0.04 * low)


def leather(rng: np.random.Generator, h: int, w: int, base: BGR) -> U8:
    pebbles = smooth_noise(rng, h, w, cell=3.0)
    pebbles = (np.abs(pebbles) ** 0.6).astype(np.float32)
    low = smooth_noise(rng, h, w, cell=120)
    creases = np.zeros((h, w), np.float32)
    for _ in range(int(rng.integers(2, 7))):
        p0 = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        p1 = (p0[0] + int(rng.integers(-200, 200)), p0[1] + int(rng.integers(-60, 60)))
        cv2.line(creases, p0, p1, 1.0, 1, cv2.LINE_AA)
    creases = cv2.GaussianBlur(creases, (0, 0), 1.2)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = base
    return _shade(img, 0.92 + 0.12 * pebbles + 0.06 * low - 0.25 * creases)


def cork(rng: np.random.Generator, h: int, w: int, base: BGR) -> U8:
    grain = rng.uniform(-1, 1, (h // 2 + 1, w // 2 + 1)).astype(np.float32)
    grain = cv2.resize(grain, (w, h), interpolation=cv2.INTER_NEAREST)
    grain = cv2.GaussianBlur(grain, (0, 0), 0.7)
    speck = (rng.random((h, w)) < 0.015).astype(np.float32)
    speck = cv2.GaussianBlur(speck, (0, 0), 1.0) * 3
    img = np.empty((h, w, 3), np.uint8)
    img[:] = base
    return _shade(img, 0.9 + 0.18 * grain - 0.5 * np.clip(speck, 0, 1))


def paper(rng: np.random.Generator, h: int, w: int, base: BGR) -> U8:
    fine = rng.normal(0, 1, (h, w)).astype(np.float32)
    fine = cv2.GaussianBlur(fine, (0, 0), 0.6)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = base
    return _shade(img, 1 + 0.025 * fine + 0.02 * smooth_noise(rng, h, w, cell=200))


def plastic(rng: np.random.Generator, h: int, w: int, base: BGR) -> U8:
    img = np.empty((h, w, 3), np.uint8)
    img[:] = base
    ramp = np.linspace(-1, 1, w, dtype=np.float32)[None, :] * np.ones((h, 1), np.float32)
    return _shade(img, 1 + 0.04 * ramp + 0.015 * smooth_noise(rng, h, w, cell=6))


def vinyl(rng: np.random.Generator, h: int, w: int, base: BGR) -> U8:
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    # a period of about seven pixels: finer aliases into moire once warped
    weave = np.sin(xx * 0.9) * np.sin(yy * 0.9)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = base
    return _shade(img, 1 + 0.05 * weave + 0.03 * smooth_noise(rng, h, w, cell=50))


Maker = Callable[[np.random.Generator, int, int], U8]


def make(
    kind: str, rng: np.random.Generator, h: int, w: int, color: BGR, color2: BGR | None = None
) -> U8:
    """A texture of ``kind`` ("wood", "wood_v", "felt", "leather", "cork", "paper",
    "plastic", "vinyl") in ``color`` (``color2``: the dark grain of wood)."""
    if kind in ("wood", "wood_v"):
        dark = color2 or tuple(int(c * 0.6) for c in color)  # type: ignore[assignment]
        return wood(rng, h, w, color, dark, vertical=kind == "wood_v")  # type: ignore[arg-type]
    makers: dict[str, Callable[[np.random.Generator, int, int, BGR], U8]] = {
        "felt": felt,
        "leather": leather,
        "cork": cork,
        "paper": paper,
        "plastic": plastic,
        "vinyl": vinyl,
    }
    if kind not in makers:
        raise ValueError(
            f"unknown material {kind!r}; expected wood, wood_v or one of {sorted(makers)}"
        )
    return makers[kind](rng, h, w, color)
