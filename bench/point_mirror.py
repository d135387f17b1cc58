"""Does reading each point strip with its mirror image help the point counter?

Reads every labelled point strip of each crops folder (``gammoneye render
export-crops``; strips a hand covers more than 20 % of left out, as ``gammoneye eval
points`` does) once as it is and once averaged with its mirror image
(``vision.points.MIRRORED``), in the same run, and prints for each: per-point error,
strips of 6 or more checkers read wrong, and the time per strip.

Usage: python bench/point_mirror.py CROPS [CROPS ...]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

from gammoneye.datasets.train_points import TrainError, load_strips
from gammoneye.vision import points
from gammoneye.vision.points import PointCounter


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    counter = PointCounter.load()
    for run in map(Path, argv):
        try:
            images, truth, _ = load_strips([run])
        except TrainError as exc:
            raise SystemExit(str(exc)) from None
        tall = truth >= 6
        for mirrored in (False, True):
            points.MIRRORED = mirrored
            start = time.perf_counter()
            # 26 strips a picture, as the board reader reads them
            batches = [images[i : i + 26] for i in range(0, len(images), 26)]
            guess = np.concatenate([counter.count_probs(b).argmax(1) for b in batches])
            ms = (time.perf_counter() - start) / len(images) * 1000
            wrong = guess != truth
            print(
                f"{run} {'mirrored' if mirrored else 'as is   '}: per-point error"
                f" {wrong.mean() * 100:.3f} % ({int(wrong.sum())} of {len(wrong)}), 6 or more"
                f" checkers wrong {int(wrong[tall].sum())} of {int(tall.sum())},"
                f" {ms:.2f} ms a strip"
            )
    points.MIRRORED = True
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
