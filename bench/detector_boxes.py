"""How well the dice and cube detector's boxes fit, and what that costs the die reader.

For every still of a labelled stills run (``gammoneye render stills``), the detector
looks at the board canvas warped from the label's true field corners (as a calibrated
match does), each labelled die and cube is matched to the detection whose centre is
nearest (within half the labelled box's side), and the detected box is compared with
the labelled one. Then every matched flat die is read by the die reader twice: cut at
the labelled box and cut at the detected box.

Prints, per kind (die, cocked die, cube): how many were matched, the detected side over
the labelled side (larger side of each box; median, p10, p90, and the median per band
of labelled sizes), and the die reader's value accuracy at the two boxes.

Usage: python bench/detector_boxes.py RUN [--n 300]
Report on a run rendered with a seed and styles never trained on (issue 4's held-out
runs, ``docs/vision-benchmarks.md``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from detected_dice import pairs, side, stills

from gammoneye.vision.crops import square_crop
from gammoneye.vision.detector import DiceCubeDetector
from gammoneye.vision.dice import DiceReader

BANDS = ((0, 12), (12, 16), (16, 22), (22, 1000))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run", type=Path, help="a stills run (images/, labels/)")
    ap.add_argument("--n", type=int, default=300, help="at most this many stills")
    args = ap.parse_args()
    files = stills(args.run, args.n)
    detector, reader = DiceCubeDetector.load(), DiceReader.load()
    sides: dict[str, list[tuple[float, float]]] = {"die": [], "cocked die": [], "cube": []}
    right = {"labelled box": 0, "detected box": 0}
    read = 0
    for pair in pairs(args.run, files, detector):
        truth = side(pair.truth["box"])
        sides[pair.kind].append((truth, side(pair.found.box)))
        if pair.kind == "die":
            crops = np.stack(
                [
                    square_crop(pair.image, pair.truth["box"]),
                    square_crop(pair.image, pair.found.box),
                ]
            )
            values, _ = reader.read(crops)
            read += 1
            right["labelled box"] += int(values[0].argmax() + 1 == pair.truth["value"])
            right["detected box"] += int(values[1].argmax() + 1 == pair.truth["value"])
    print(f"{args.run}: {len(files)} stills")
    for kind, rows in sides.items():
        if not rows:
            continue
        a = np.array(rows)
        q = a[:, 1] / a[:, 0]
        p10, p50, p90 = np.percentile(q, [10, 50, 90])
        bands = ", ".join(
            f"{lo}-{hi if hi < 1000 else ''} px: {np.median(q[m]):.2f} ({m.sum()})"
            for lo, hi in BANDS
            if (m := (a[:, 0] >= lo) & (a[:, 0] < hi)).any()
        )
        print(
            f"{kind}: {len(a)} matched; detected side / labelled side median {p50:.3f} "
            f"(p10 {p10:.3f}, p90 {p90:.3f}); by labelled side {bands}"
        )
    for where, n in right.items():
        print(f"die value read at the {where}: {n / max(read, 1) * 100:.2f} % ({n}/{read})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
