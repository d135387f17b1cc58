"""Where a board read's time goes, on a rendered clip's frames read as the referee's
eyes read them (the field's corners from ``clip.json``): the whole read p50 / p95, the
points and the dice and cube (``ReadTimings``), and per read the detector, the die
readers and the cube reader (each its own time, nested calls apart).

    python bench/read_time.py clips/s49/selfplay_5p_seed6511-4401 --every 125
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from gammoneye.calibration.profile import CalibrationProfile
from gammoneye.vision.read import BoardReader, ReadTimings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("clip", type=Path, help="a rendered clip (gammoneye render clip)")
    parser.add_argument("--every", type=int, default=125, help="read every Nth frame")
    args = parser.parse_args()
    meta = json.loads((args.clip / "clip.json").read_text("utf-8"))
    size = (int(meta["width"]), int(meta["height"]))
    profile = CalibrationProfile.from_corners(
        np.array(meta["field_corners_px"], np.float64), size, long_side_first=True
    )
    reader = BoardReader.load()
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
    frames = sorted((args.clip / "frames").glob("*.jpg"))[:: args.every]
    total, points, dice = [], [], []
    for path in frames:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        t = ReadTimings()
        reader.read(image, profile, timings=t)
        total.append(t.total)
        points.append(t.points)
        dice.append(t.dice)
    n = len(frames)
    print(
        f"{n} frames: read p50 / p95 {np.percentile(total, 50):.0f} / "
        f"{np.percentile(total, 95):.0f} ms; points p50 {np.median(points):.0f} ms, "
        f"dice and cube p50 {np.median(dice):.0f} ms (OpenCV {cv2.__version__}, "
        f"{cv2.getNumThreads()} threads)"
    )
    for key, seconds in spent.items():
        print(f"  {key}: {1000 * seconds / n:.1f} ms a read")


if __name__ == "__main__":
    main()
