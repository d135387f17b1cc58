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
import json
import sys
from pathlib import Path

import cv2
import numpy as np

from gammoneye.calibration.boardspace import canonical_corners
from gammoneye.vision.crops import square_crop
from gammoneye.vision.detector import Detection, DiceCubeDetector, canvas_homography
from gammoneye.vision.dice import DiceReader

BANDS = ((0, 12), (12, 16), (16, 22), (22, 1000))


def side(box: list[float] | tuple[float, ...]) -> float:
    return max(box[2] - box[0], box[3] - box[1])


def nearest(found: list[Detection], centre: np.ndarray, radius: float) -> Detection | None:
    best = min(found, key=lambda d: float(np.hypot(*(np.array(d.centre) - centre))), default=None)
    if best is None or float(np.hypot(*(np.array(best.centre) - centre))) > radius:
        return None
    return best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run", type=Path, help="a stills run (images/, labels/)")
    ap.add_argument("--n", type=int, default=300, help="at most this many stills")
    args = ap.parse_args()
    files = sorted((args.run / "labels").glob("*.json"))[: args.n]
    if not files:
        print(f"{args.run} has no labels/*.json: not a stills run", file=sys.stderr)
        return 2
    detector, reader = DiceCubeDetector.load(), DiceReader.load()
    sides: dict[str, list[tuple[float, float]]] = {"die": [], "cocked die": [], "cube": []}
    right = {"labelled box": 0, "detected box": 0}
    read = 0
    for path in files:
        label = json.loads(path.read_text())
        field = label["board"]["field_corners_px"]
        image = cv2.imread(str(args.run / label["image"]), cv2.IMREAD_COLOR)
        if field is None or image is None:
            continue
        size = (image.shape[1], image.shape[0])
        corners = canonical_corners(np.array(field, np.float64), size, long_side_first=True)
        found = detector.detect(image, canvas_homography(corners, ordered=True))
        objects = [("cocked die" if d["cocked"] else "die", d) for d in label["dice"]]
        if label.get("cube"):
            objects.append(("cube", label["cube"]))
        for kind, obj in objects:
            if not obj.get("box") or not obj["in_image"] or obj["truncated"]:
                continue
            truth = side(obj["box"])
            match = nearest(found, np.array(obj["centre_px"]), truth / 2)
            if match is None:
                continue
            sides[kind].append((truth, side(match.box)))
            if kind == "die":
                crops = np.stack([square_crop(image, obj["box"]), square_crop(image, match.box)])
                values, _ = reader.read(crops)
                read += 1
                right["labelled box"] += int(values[0].argmax() + 1 == obj["value"])
                right["detected box"] += int(values[1].argmax() + 1 == obj["value"])
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
