"""How far a field's edges drift between views of a still camera, and when the camera
moved: the figures behind ``DRIFT_LIMIT`` (``service/referee.py``).

Clips: each stretch of frames with no hand and nothing in the air showing the same
checkers, dice and cube is one view (its last frame); the drift
(:meth:`CalibrationProfile.drift`, 0 to 1) of each view from the one before, through
the clip's field corners. Moved: rendered openings (no hands, no motion blur), the
camera moved sideways by each shift (cm, along the picture's x and 0.6 of it along y),
its drift from the picture before and how far the corners moved (px).

    python bench/drift.py clips/s39 --openings 5
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from gammoneye.calibration.profile import CalibrationProfile


def views_of(clip: Path) -> list[int]:
    """The last frame of each still stretch of ``clip`` (its ``frames.jsonl``)."""
    last: list[int] = []
    key: Any = None
    for line in (clip / "frames.jsonl").read_text().splitlines():
        row = json.loads(line)
        if row["hands"] or row["in_air"]:
            key = None
            continue
        now = json.dumps([row["checkers"], row["dice"], row["cube"]])
        if now == key:
            last[-1] = row["frame"]
        else:
            last.append(row["frame"])
            key = now
    return last


def clip_drifts(clip: Path) -> np.ndarray:
    meta = json.loads((clip / "clip.json").read_text())
    corners = np.array(meta["field_corners_px"], np.float64)
    profile = CalibrationProfile.from_corners(
        corners, (meta["width"], meta["height"]), long_side_first=True
    )
    drifts, before = [], None
    for frame in views_of(clip):
        image = cv2.imread(str(clip / "frames" / f"{frame:06d}.jpg"), cv2.IMREAD_COLOR)
        if image is None:
            continue
        if before is not None:
            drifts.append(profile.with_reference(before).drift(image))
        before = image
    return np.array(drifts)


def moved(openings: int, shifts: list[float]) -> None:
    from gammoneye.datasets.render.draw import Renderer
    from gammoneye.datasets.render.labels import scene_label
    from gammoneye.datasets.render.sampling import sample_scene
    from gammoneye.engine.position import Position

    renderer = Renderer()
    for seed in range(openings):
        scene = sample_scene(np.random.default_rng(seed), Position.initial(), "edge:opening")
        scene = replace(scene, hands=(), effects=replace(scene.effects, motion_px=0.0))
        size = (scene.camera.width, scene.camera.height)
        corners = np.array(scene_label(scene, "a.png", [0])["board"]["field_corners_px"])
        profile = CalibrationProfile.from_corners(corners, size, image=renderer.render(scene).image)
        out = []
        for shift in shifts:
            t = scene.camera.translation
            camera = replace(scene.camera, translation=(t[0] + shift, t[1] + 0.6 * shift, t[2]))
            there = replace(scene, camera=camera)
            now = np.array(scene_label(there, "b.png", [0])["board"]["field_corners_px"])
            d = profile.drift(renderer.render(there).image)
            out.append(f"{shift:g} cm: {d:.3f} ({np.abs(now - corners).max():.1f} px)")
        print(f"opening {seed}: " + ", ".join(out), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("clips", type=Path, nargs="*", help="rendered clips, or folders of them")
    ap.add_argument("--openings", type=int, default=0, help="rendered openings to move")
    ap.add_argument(
        "--shifts", type=float, nargs="+", default=[0.25, 0.5, 1.0, 2.0, 4.0], help="cm"
    )
    args = ap.parse_args()
    everything = []
    for folder in args.clips:
        found = [folder] if (folder / "frames.jsonl").is_file() else sorted(folder.glob("*/"))
        clips = [c for c in found if (c / "frames.jsonl").is_file()]
        if not clips:
            ap.error(f"{folder}: no rendered clip (a folder with frames.jsonl)")
        for clip in clips:
            d = clip_drifts(clip)
            everything.append(d)
            if len(d):
                print(
                    f"{clip.name}: {len(d)} pairs of views, drift p50 {np.median(d):.3f} "
                    f"p99 {np.percentile(d, 99):.3f} max {d.max():.3f}",
                    flush=True,
                )
    if everything and sum(len(d) for d in everything):
        d = np.concatenate(everything)
        print(
            f"all: {len(d)} pairs, p50 {np.median(d):.3f} p99 {np.percentile(d, 99):.3f} "
            f"max {d.max():.3f}"
        )
    if args.openings:
        moved(args.openings, args.shifts)


if __name__ == "__main__":
    main()
