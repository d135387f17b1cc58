"""Render a match clip: frames from a fixed camera, and their ground truth.

``OUT/frames/NNNNNN.jpg`` (one per frame at ``fps``), ``OUT/events.jsonl`` (what
happened, in the engine's event-log format, faults marked), ``OUT/frames.jsonl``
(per frame: phase, hands, the checkers at rest and in the air, dice, cube),
``OUT/faults.json`` (each injected fault with its frame and flag), ``OUT/match.mat``
(the rendered games as a canonical transcript) and ``OUT/clip.json`` (the options and
the camera).

The script (:mod:`.clipscript`) is rebuilt in every worker process from the seed;
each worker renders a share of the frames. Frames where nothing moved reuse the
previous clean picture and only get new sensor noise.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from gammoneye.engine.events import dumps_event
from gammoneye.engine.matfile import write_mat
from gammoneye.engine.position import Position
from gammoneye.engine.replay import Replay, record_from_events, replay_mat
from gammoneye.engine.rules import get_profile

from .clipscript import (
    ClipError,
    ClipScript,
    ClipSetup,
    FaultPlan,
    Frame,
    direct_match,
    layout_checkers,
)
from .draw import Renderer, camera_effects, sensor_noise
from .labels import field_corners_px
from .placing import CheckerStyle, dice_look
from .sampling import place_camera, sample_board, sample_effects, sample_light
from .scene import Checker, Scene
from .styles import CHECKER_SETS, SKIN_TONES, SLEEVES, CheckerLook, style_named
from .workers import atomic_write, run_workers


@dataclass(frozen=True)
class ClipConfig:
    mat_text: str
    mat_name: str
    out: Path
    seed: int = 0
    games: tuple[int, ...] = ()  # empty: every game of the match
    faults: str = "none"
    fps: float = 10.0
    profile: str = "wbf"
    width: int = 1280
    height: int = 720
    style: str | None = None
    jpeg_quality: int = 88


@dataclass(frozen=True)
class ClipLook:
    """Everything about the picture that stays fixed through a clip."""

    setup: ClipSetup
    scene: Scene  # board, camera, light, effects, looks; checkers/dice/hands empty


def parse_games(text: str) -> tuple[int, ...]:
    """``3`` (games 1..3), ``2-4``, ``1,3``; empty for all.

    >>> parse_games("2-4"), parse_games("3"), parse_games("1,5")
    ((2, 3, 4), (1, 2, 3), (1, 5))
    """
    text = text.strip()
    if not text or text == "all":
        return ()
    try:
        if "-" in text:
            a, b = (int(x) for x in text.split("-", 1))
            games = tuple(range(a, b + 1))
        elif "," in text:
            games = tuple(int(x) for x in text.split(","))
        else:
            games = tuple(range(1, int(text) + 1))
    except ValueError:
        raise ClipError(f"bad --games {text!r}: expected N, A-B or A,B,C") from None
    if not games or min(games) < 1:
        raise ClipError(f"bad --games {text!r}: games are numbered from 1")
    return games


def clip_look(cfg: ClipConfig, rng: np.random.Generator) -> ClipLook:
    style = style_named(cfg.style) if cfg.style else None
    board = sample_board(rng, style)
    g = board.geometry
    bottom = int(rng.integers(2))
    cs = CHECKER_SETS[int(rng.integers(len(CHECKER_SETS)))]
    colours = (cs.colours[0][1], cs.colours[1][1])
    names = (cs.colours[0][0], cs.colours[1][0])
    look = CheckerLook(
        diameter_fill=float(rng.uniform(0.82, 0.93)),
        height_ratio=float(rng.uniform(0.16, 0.24)),
        rim=bool(rng.random() < 0.6),
        engraving=("none", "rings", "dot")[int(rng.integers(3))],
        glossy=bool(rng.random() < 0.4),
    )
    stacking = "row" if rng.random() < 0.4 else "layer"
    style_c = CheckerStyle.of(g, look, colours, stacking, rng)
    dl = dice_look(rng)
    # each player's pair may be of another colour, of the same make; a colour comes
    # with its own pips (black pips on a black die could not be read by anyone)
    if rng.random() < 0.5:
        colour = dice_look(rng)
        other = replace(dl, body=colour.body, pips=colour.pips)
    else:
        other = dl
    setup = ClipSetup(
        geometry=g,
        bottom=bottom,
        checkers=style_c,
        dice_looks=(dl, other),
        skins=(
            SKIN_TONES[int(rng.integers(len(SKIN_TONES)))],
            SKIN_TONES[int(rng.integers(len(SKIN_TONES)))],
        ),
        sleeves=(
            SLEEVES[int(rng.integers(len(SLEEVES)))],
            SLEEVES[int(rng.integers(len(SLEEVES)))],
        ),
        hand_width=float(rng.uniform(6.5, 8.0)),
        cube_seed=int(rng.integers(2**31)),
    )
    camera = place_camera(rng, g, cfg.width, cfg.height, fill=float(rng.uniform(0.65, 0.92)))
    drawn = sample_effects(rng)
    effects = replace(
        drawn,
        motion_px=0.0,
        defocus_sigma=min(0.8, drawn.defocus_sigma),
        noise_sigma=float(rng.uniform(1.0, 4.0)),
    )
    scene = Scene(
        board=board,
        position=Position.initial(),
        origin="clip",
        bottom=bottom,
        checker_set=cs.name,
        colour_names=names,
        checker_look=look,
        stacking=stacking,
        checkers=(),
        dice=(),
        cube=None,
        hands=(),
        clutter=(),
        camera=camera,
        light=sample_light(rng),
        effects=effects,
    )
    return ClipLook(setup, scene)


def build_script(cfg: ClipConfig) -> tuple[ClipScript, ClipLook, Replay]:
    """The clip's script, look and replayed match: a pure function of ``cfg``."""
    replay = replay_mat(cfg.mat_text, get_profile(cfg.profile))
    if not replay.entries:
        raise ClipError(f"{cfg.mat_name}: no moves to render")
    if not replay.ok:
        # the ground truth must be a consistent match: refuse rather than guess
        found = [p.describe(replay.record.players) for p in replay.all_problems()]
        more = f" (and {len(found) - 3} more)" if len(found) > 3 else ""
        raise ClipError(
            f"{cfg.mat_name} does not replay cleanly: {'; '.join(found[:3])}{more}. "
            f"See: gammoneye engine replay {cfg.mat_name}"
        )
    games = cfg.games or tuple(sorted({e.game for e in replay.entries}))
    rng = np.random.default_rng([cfg.seed, 0xC11])
    look = clip_look(cfg, rng)
    plan = FaultPlan.parse(cfg.faults)
    script = direct_match(replay, games, look.setup, plan, cfg.fps, rng)
    return script, look, replay


def frame_checkers(setup: ClipSetup, frame: Frame) -> list[Checker]:
    """The checkers of ``frame`` where they stand (:func:`.clipscript.layout_checkers`)."""
    return layout_checkers(setup, frame.layout, frame.first, frame.cube)


class _FrameRenderer:
    def __init__(self, cfg: ClipConfig) -> None:
        cv2.setNumThreads(1)
        self.cfg = cfg
        self.script, self.look, _ = build_script(cfg)
        self.renderer = Renderer()
        self.static = self.renderer.render_static(self.look.scene)
        self._last: tuple[Frame, np.ndarray] | None = None
        # sensor noise changes every frame; a small bank of seeded noise images,
        # cycled, looks the same and costs a fraction of drawing it anew
        fx = self.look.scene.effects
        shape = (cfg.height, cfg.width, 3)
        self.noise = [sensor_noise(shape, fx.noise_sigma, fx.noise_seed + k) for k in range(7)]

    def clean(self, frame: Frame) -> np.ndarray:
        if self._last is not None and self._last[0] == frame:
            return self._last[1]
        checkers = frame_checkers(self.look.setup, frame)
        scene = replace(
            self.look.scene,
            checkers=(*checkers, *frame.carried),
            dice=frame.dice,
            cube=frame.cube,
            hands=frame.hands,
        )
        img = self.renderer.render(scene, static=self.static, effects=False).image
        self._last = (frame, img)
        return img

    def write(self, indexes: Sequence[int]) -> int:
        fx = self.look.scene.effects
        for i in indexes:
            img = camera_effects(
                self.clean(self.script.frames[i]), fx, self.noise[i % len(self.noise)]
            )
            ok, jpg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, self.cfg.jpeg_quality])
            if not ok:
                raise RuntimeError(f"JPEG encoding failed for frame {i}")
            atomic_write(self.cfg.out / "frames" / f"{i:06d}.jpg", jpg.tobytes())
        return len(indexes)


_WORKER: _FrameRenderer | None = None


def _init(cfg: ClipConfig) -> None:
    global _WORKER
    _WORKER = _FrameRenderer(cfg)


def _work(indexes: list[int]) -> int:
    assert _WORKER is not None
    return _WORKER.write(indexes)


@dataclass(frozen=True)
class ClipSummary:
    frames: int
    seconds: float
    video_seconds: float
    events: int
    faults: dict[str, int]
    not_injected: tuple[str, ...]


def render_clip(
    cfg: ClipConfig,
    *,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
    on_script: Callable[[int], None] | None = None,
) -> ClipSummary:
    """Write the clip of ``cfg`` (see the module docstring); ``on_script(frames)`` is
    called once the script is known, ``progress(k)`` as frames are written."""
    start = time.perf_counter()
    script, look, _replay = build_script(cfg)
    out = cfg.out
    if out.exists() and not out.is_dir():
        raise ClipError(f"--out {out} is a file, not a folder")
    (out / "frames").mkdir(parents=True, exist_ok=True)
    _write_truth(cfg, script, look)
    if on_script:
        on_script(len(script.frames))
    todo = [i for i in range(len(script.frames)) if not (out / "frames" / f"{i:06d}.jpg").exists()]
    if progress and len(todo) < len(script.frames):
        progress(len(script.frames) - len(todo))
    chunks = [todo[i : i + 48] for i in range(0, len(todo), 48)]
    workers = max(1, min(workers or os.cpu_count() or 1, len(chunks) or 1))
    for n in run_workers(_init, _work, cfg, chunks, workers):
        if progress:
            progress(n)
    counts: dict[str, int] = {}
    for f in script.faults:
        counts[f["kind"]] = counts.get(f["kind"], 0) + 1
    return ClipSummary(
        len(script.frames),
        time.perf_counter() - start,
        len(script.frames) / cfg.fps,
        len(script.events),
        counts,
        script.not_injected,
    )


def _write_truth(cfg: ClipConfig, script: ClipScript, look: ClipLook) -> None:
    out = cfg.out
    atomic_write(out / "events.jsonl", "".join(dumps_event(e) + "\n" for e in script.events))
    atomic_write(
        out / "frames.jsonl",
        "".join(
            json.dumps(script.frame_truth(i), separators=(",", ":")) + "\n"
            for i in range(len(script.frames))
        ),
    )
    atomic_write(
        out / "faults.json",
        json.dumps({"faults": script.faults, "not_injected": list(script.not_injected)}, indent=1)
        + "\n",
    )
    atomic_write(out / "match.mat", write_mat(record_from_events(script.events)))
    scene = look.scene
    manifest: dict[str, Any] = {
        "schema": "gammoneye-render-clip",
        "version": 1,
        "source_mat": cfg.mat_name,
        "games": list(script.games),
        "seed": cfg.seed,
        "faults": cfg.faults,
        "fps": cfg.fps,
        "profile": cfg.profile,
        "width": cfg.width,
        "height": cfg.height,
        "frames": len(script.frames),
        "duration_s": round(len(script.frames) / cfg.fps, 2),
        "board": {
            "style": scene.board.style.name,
            "variant": scene.board.variant,
            "trays": scene.board.geometry.trays,
            "mirrored": scene.board.geometry.mirrored,
        },
        "bottom_player": scene.bottom,
        # Where the playing field's corners are in every frame (the camera is fixed):
        # what a calibration would find, for a referee run that takes it as known.
        "field_corners_px": field_corners_px(scene),
        "colours": list(scene.colour_names),
        "camera": scene.camera.to_dict(),
        "light": asdict(scene.light),
    }
    atomic_write(out / "clip.json", json.dumps(manifest, indent=1) + "\n")


def write_clip_truth(cfg: ClipConfig) -> ClipScript:
    """Write a clip's ground truth (events, frames.jsonl, faults, match.mat, clip.json)
    without rendering a single frame: enough to drive the referee from perfect
    readings (``eval referee --vision truth``) in seconds."""
    script, look, _replay = build_script(cfg)
    if cfg.out.exists() and not cfg.out.is_dir():
        raise ClipError(f"--out {cfg.out} is a file, not a folder")
    cfg.out.mkdir(parents=True, exist_ok=True)
    _write_truth(cfg, script, look)
    return script
