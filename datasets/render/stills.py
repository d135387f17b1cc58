"""Labelled stills: ``OUT/images/NNNNNN.jpg`` + ``OUT/labels/NNNNNN.json``.

Image ``i`` of a run depends only on ``(seed, i)`` and the options, never on the
worker that drew it or on what was drawn before, so a run is reproducible byte for
byte, can be split across processes, and resumes after a crash (images whose label
is already written are kept). ``OUT/manifest.json`` records the options.

>>> import tempfile
>>> from pathlib import Path
>>> out = Path(tempfile.mkdtemp())
>>> summary = render_stills(StillsConfig(n=2, out=out, seed=7, width=320, height=180), workers=1)
>>> sorted(p.name for p in (out / "labels").iterdir())
['000000.json', '000001.json']
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from gammoneye.engine.position import Position

from .draw import Renderer
from .labels import LABEL_SCHEMA, LABEL_VERSION, scene_label
from .positions import PositionSupply, mat_positions, positions_from_mat
from .sampling import sample_scene
from .styles import BOARD_STYLES, style_named
from .workers import atomic_write, run_workers


class StillsError(ValueError):
    """Options that cannot make a run (unknown style, a manifest of another run)."""


@dataclass(frozen=True)
class StillsConfig:
    n: int
    out: Path
    seed: int = 0
    width: int = 1280
    height: int = 720
    styles: tuple[str, ...] = ()  # only these board styles (default: all)
    exclude_styles: tuple[str, ...] = ()
    mats: tuple[Path, ...] = ()  # extra .mat files or folders for real positions
    first: int = 0  # index of the first image (to extend a run)
    closeups: float = 0.0  # share of scenes where the camera looks closely at the dice
    piles: float = 0.0  # share of positions with piles of 5 to 15 checkers
    extra: dict[str, Any] = field(default_factory=dict)

    def manifest(self) -> dict[str, Any]:
        d = asdict(self)
        d["out"] = str(self.out)
        d["mats"] = [str(p) for p in self.mats]
        if not self.piles:
            del d["piles"]  # as runs made before the option wrote it: they resume
        return {"schema": LABEL_SCHEMA, "version": LABEL_VERSION, **d}

    def style_pool(self) -> tuple[str, ...]:
        for name in (*self.styles, *self.exclude_styles):
            style_named(name)  # raises with the list of names
        pool = self.styles or tuple(s.name for s in BOARD_STYLES)
        pool = tuple(s for s in pool if s not in self.exclude_styles)
        if not pool:
            raise StillsError("no board style left after --exclude-style")
        return pool


@dataclass(frozen=True)
class StillsSummary:
    written: int
    skipped: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.written / self.seconds if self.seconds > 0 else 0.0


def _bundled_positions() -> list[Position]:
    from gammoneye.service.demo import bundled_match_text

    return positions_from_mat(bundled_match_text())


class _Worker:
    """Per-process state: the position supply and the renderer's texture caches."""

    def __init__(self, cfg: StillsConfig) -> None:
        cv2.setNumThreads(1)
        self.cfg = cfg
        mats = _bundled_positions() + mat_positions(cfg.mats)
        self.supply = PositionSupply(cfg.seed, mats, piles=cfg.piles)
        self.styles = [style_named(s) for s in cfg.style_pool()]
        self.renderer = Renderer()

    def render(self, index: int) -> tuple[bytes, dict[str, Any]]:
        cfg = self.cfg
        rng = np.random.default_rng([cfg.seed, index])
        position, origin = self.supply.draw(rng)
        style = self.styles[int(rng.integers(len(self.styles)))]
        # drawn only when asked for, so runs without close-ups keep their bytes
        closeup = cfg.closeups > 0 and bool(rng.random() < cfg.closeups)
        scene = sample_scene(
            rng, position, origin, width=cfg.width, height=cfg.height, style=style, closeup=closeup
        )
        result = self.renderer.render(scene)
        ok, jpg = cv2.imencode(
            ".jpg", result.image, [cv2.IMWRITE_JPEG_QUALITY, scene.effects.jpeg_quality]
        )
        if not ok:
            raise RuntimeError(f"JPEG encoding failed for image {index}")
        name = f"{index:06d}.jpg"
        return jpg.tobytes(), scene_label(scene, f"images/{name}", [cfg.seed, index])

    def write(self, index: int) -> int:
        jpg, label = self.render(index)
        out = self.cfg.out
        atomic_write(out / "images" / f"{index:06d}.jpg", jpg)
        # the label last: its presence says the image is complete
        atomic_write(
            out / "labels" / f"{index:06d}.json", json.dumps(label, separators=(",", ":")).encode()
        )
        return index


_WORKER: _Worker | None = None


def _init(cfg: StillsConfig) -> None:
    global _WORKER
    _WORKER = _Worker(cfg)


def _work(index: int) -> int:
    assert _WORKER is not None
    return _WORKER.write(index)


def _prepare(cfg: StillsConfig) -> list[int]:
    if cfg.n < 1:
        raise StillsError(f"--n must be at least 1, got {cfg.n}")
    cfg.style_pool()
    for p in cfg.mats:
        if not p.exists():
            raise StillsError(f"no such .mat file or folder: {p}")
    if cfg.out.exists() and not cfg.out.is_dir():
        raise StillsError(f"--out {cfg.out} is a file, not a folder")
    try:
        (cfg.out / "images").mkdir(parents=True, exist_ok=True)
        (cfg.out / "labels").mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StillsError(f"cannot make the output folders in {cfg.out}: {exc.strerror}") from None
    manifest = cfg.out / "manifest.json"
    want = json.loads(json.dumps(cfg.manifest()))  # as it reads back: tuples are lists
    if manifest.exists():
        have = json.loads(manifest.read_text())
        same = {k: v for k, v in have.items() if k not in ("n", "first")} == {
            k: v for k, v in want.items() if k not in ("n", "first")
        }
        if not same:
            raise StillsError(
                f"{cfg.out} holds a run with other options ({manifest}); choose another --out "
                "or delete it"
            )
    manifest.write_text(json.dumps(want, indent=2) + "\n")
    todo = [
        i
        for i in range(cfg.first, cfg.first + cfg.n)
        if not (cfg.out / "labels" / f"{i:06d}.json").exists()
    ]
    return todo


def render_stills(
    cfg: StillsConfig,
    *,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> StillsSummary:
    """Render ``cfg.n`` stills with ``workers`` processes (default: one per core);
    ``progress(k)`` is called as each image is written."""
    todo = _prepare(cfg)
    skipped = cfg.n - len(todo)
    workers = max(1, min(workers or os.cpu_count() or 1, len(todo) or 1))
    start = time.perf_counter()
    for _ in run_workers(_init, _work, cfg, todo, workers, chunksize=4):
        if progress:
            progress(1)
    return StillsSummary(len(todo), skipped, time.perf_counter() - start)
