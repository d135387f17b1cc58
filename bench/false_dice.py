"""Which detected "dice" are no dice: how to drop them, and what that costs.

For each still of a labelled stills run, the board canvas is warped from the label's
true field corners (a calibrated match) and the detector finds the dice. A detection
is a true die when a labelled die's centre lies within half that die's box side of
it, else a false one (a point's tip, a checker's rim, a shadow). Every detected die is
read by the die reader. Vision drops a detection whose best value probability is
under ``MIN_VALUE_P`` while the detector's score is under ``MIN_SCORE``
(``gammoneye.vision.read.keep_die``): a die that is neither detected surely nor read
surely.

Prints, for a grid of both thresholds: true dice kept (of those detected) and false
ones kept, and marks the shipped pair. Choose on a run that is not held out
(``renders/val``), then report the held-out runs.

Usage: python bench/false_dice.py RUN [--n 400]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np
from detected_dice import stills

from gammoneye.calibration.boardspace import canonical_corners
from gammoneye.vision.crops import square_crop
from gammoneye.vision.detector import DiceCubeDetector, canvas_homography
from gammoneye.vision.dice import DiceReader
from gammoneye.vision.read import MIN_DIE_SCORE, MIN_DIE_VALUE_P

VALUE_PS = (0.0, 0.3, 0.35, 0.4, 0.5, 0.6)
SCORES = (0.35, 0.4, 0.45, 0.5, 1.01)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run", type=Path, help="a stills run (images/, labels/)")
    ap.add_argument("--n", type=int, default=400, help="how many stills (first N)")
    args = ap.parse_args()
    detector, reader = DiceCubeDetector.load(), DiceReader.load()
    true_found: list[tuple[float, float]] = []  # (score, best value p)
    false_found: list[tuple[float, float]] = []
    for path in stills(args.run, args.n):
        label = json.loads(path.read_text())
        field = label["board"]["field_corners_px"]
        image = cv2.imread(str(args.run / label["image"]), cv2.IMREAD_COLOR)
        if field is None or image is None:
            continue
        size = (image.shape[1], image.shape[0])
        corners = canonical_corners(np.array(field, np.float64), size, long_side_first=True)
        found = [
            d
            for d in detector.detect(image, canvas_homography(corners, ordered=True))
            if d.kind != "cube"
        ]
        if not found:
            continue
        values, _ = reader.read(np.stack([square_crop(image, d.box) for d in found]))
        labelled = [d for d in label["dice"] if d.get("box") and d["in_image"]]
        for d, v in zip(found, values, strict=True):
            is_die = any(
                np.hypot(*(np.array(d.centre) - np.array(t["centre_px"])))
                <= max(t["box"][2] - t["box"][0], t["box"][3] - t["box"][1]) / 2
                for t in labelled
            )
            (true_found if is_die else false_found).append((d.score, float(np.max(v))))
    if not true_found:
        print(f"{args.run}: no labelled die was detected", file=sys.stderr)
        return 1
    t, f = np.array(true_found), np.array(false_found).reshape(-1, 2)
    print(f"{args.run}: {len(t)} true dice and {len(f)} false ones detected")
    print("drop when value p < V and score < S: true dice kept / false dice kept")
    print("V \\ S " + "".join(f"{s:>16.2f}" for s in SCORES))
    for v in VALUE_PS:
        row = []
        for s in SCORES:
            kept_t = int(np.sum(~((t[:, 1] < v) & (t[:, 0] < s))))
            kept_f = int(np.sum(~((f[:, 1] < v) & (f[:, 0] < s))))
            mark = "*" if (v, s) == (MIN_DIE_VALUE_P, MIN_DIE_SCORE) else " "
            row.append(f"{100 * kept_t / len(t):7.2f}% {kept_f:5d}{mark}  ")
        print(f"{v:5.2f} " + "".join(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
