"""Where a board read's time goes, on a rendered clip's frames read as the referee's
eyes read them (the field's corners from ``clip.json``): the whole read p50 / p95, the
points and the dice and cube (``ReadTimings``), and per read the detector, the die
readers and the cube reader (each its own time, nested calls apart).

Each frame read is followed by a read of the next frame, as the referee reads a still
board twice: those second reads are timed apart (a board whose canvas did not change
keeps its points and the detector's boxes, ``vision.read.BoardReader``; with
``--no-reuse`` it is read again whole). ``--backend`` runs the models with ONNX Runtime
(the default) or OpenCV's DNN, to compare the two.

    python bench/read_time.py clips/s49/selfplay_5p_seed6511-4401 --every 125
    python bench/read_time.py clips/s49/selfplay_5p_seed6511-4401 --backend opencv
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from gammoneye.calibration.profile import CalibrationProfile
from gammoneye.vision.onnxnet import BACKENDS, ENV
from gammoneye.vision.read import BoardReader, ReadTimings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("clip", type=Path, help="a rendered clip (gammoneye render clip)")
    parser.add_argument("--every", type=int, default=125, help="read every Nth frame")
    parser.add_argument("--backend", choices=BACKENDS, default="onnxruntime")
    parser.add_argument(
        "--no-reuse", action="store_true", help="read the whole board again in the second reads"
    )
    args = parser.parse_args()
    os.environ[ENV] = args.backend
    meta = json.loads((args.clip / "clip.json").read_text("utf-8"))
    size = (int(meta["width"]), int(meta["height"]))
    profile = CalibrationProfile.from_corners(
        np.array(meta["field_corners_px"], np.float64), size, long_side_first=True
    )
    reader = BoardReader.load()
    reader.reuse_still = reader.detector.reuse_still = not args.no_reuse
    spent: dict[str, float] = {}
    # time spent in the timed calls running now, for each its nested timed calls':
    # each call is charged its own time only (read_all calls read_turned)
    nested: list[float] = []

    def timed(obj: Any, name: str, key: str) -> None:
        inner: Callable[..., Any] = getattr(obj, name)

        def wrapper(*a: Any, **k: Any) -> Any:
            start = time.perf_counter()
            nested.append(0.0)
            try:
                return inner(*a, **k)
            finally:
                took = time.perf_counter() - start
                own = took - nested.pop()
                if nested:
                    nested[-1] += took
                spent[key] = spent.get(key, 0.0) + own

        setattr(obj, name, wrapper)

    timed(reader.detector, "detect_on_board", "detector")
    timed(reader.dice, "read_all", "die readers, the upright one and averaging")
    timed(reader.dice, "read_turned", "die reader turned (faces and box checks)")
    timed(reader.cube, "read", "cube reader")
    every = sorted((args.clip / "frames").glob("*.jpg"))
    frames = every[:: args.every]
    total, points, dice = [], [], []
    again: dict[bool, list[float]] = {True: [], False: []}  # by whether the board was kept
    for i, path in enumerate(frames):
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        t = ReadTimings()
        reader.read(image, profile, timings=t)
        total.append(t.total)
        points.append(t.points)
        dice.append(t.dice)
        # the next frame, untimed by the counters above (the detector's time in it is
        # left out of theirs too)
        following = every[i * args.every + 1] if i * args.every + 1 < len(every) else None
        if following is not None:
            saved = dict(spent)
            before = reader.reused
            t = ReadTimings()
            reader.read(cv2.imread(str(following), cv2.IMREAD_COLOR), profile, timings=t)
            again[reader.reused > before].append(t.total)
            spent.clear()
            spent.update(saved)
    n = len(frames)
    print(
        f"{n} frames: read p50 / p95 {np.percentile(total, 50):.0f} / "
        f"{np.percentile(total, 95):.0f} ms; points p50 {np.median(points):.0f} ms, "
        f"dice and cube p50 {np.median(dice):.0f} ms (OpenCV {cv2.__version__}, "
        f"{cv2.getNumThreads()} threads, {args.backend})"
    )
    for reused, times in again.items():
        if times:
            how = "unchanged: points and boxes kept" if reused else "changed: read again whole"
            print(
                f"the next frames, {how} ({len(times)}): read p50 / p95 "
                f"{np.percentile(times, 50):.0f} / {np.percentile(times, 95):.0f} ms"
            )
    for key, seconds in spent.items():
        print(f"  {key}: {1000 * seconds / n:.1f} ms a read")


if __name__ == "__main__":
    main()
