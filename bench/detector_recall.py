"""How many dice and cubes the detector finds, by how they lie, for one or more models
compared in the same run.

For every still of a labelled stills run (``gammoneye render stills``) the detector
looks at the board canvas warped from the label's true field corners (as a calibrated
match does). A labelled die or cube in view (not cut off by the picture's edge, not
mostly under a hand) is found when a detection of its kind (a die, flat or cocked, or
the cube) has its centre within half the labelled box's side of the label's.

Prints per model: recall of flat dice lying free (all, and by their side in the
picture), dice on a checker, cocked dice (all, and by what they lean on), dice off the
board, the cube; detections matching nothing per still; the canvas' detection time p50.

Usage: python bench/detector_recall.py RUN [RUN ...] [--model A.onnx --model B.onnx]
Report on runs rendered with seeds and styles never trained on (issue 4's held-out
runs, ``docs/vision-benchmarks.md``).
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

import numpy as np
from detected_dice import calibrated, nearest, side, stills

from gammoneye.vision.classifier import model_path
from gammoneye.vision.detector import MODEL, DiceCubeDetector


def kinds(die: dict) -> list[str]:
    """The rows a labelled die counts in."""
    if die["cocked"]:
        return ["cocked die", f"  cocked, leaning on {die.get('leaning_on') or 'nothing'}"]
    if die.get("on_checker"):
        return ["die on a checker"]
    if die.get("off_board"):
        return ["die off the board"]
    size = side(die["box"]) if die.get("box") else 0.0
    band = "under 15 px" if size < 15 else "15-20 px" if size < 20 else "20 px and more"
    return ["flat die, free", f"  flat, free, {band}"]


def measure(runs: list[Path], n: int, detector: DiceCubeDetector) -> tuple[Counter, Counter, float]:
    seen: Counter = Counter()
    found: Counter = Counter()
    times = []
    for run in runs:
        for label, image, homography in calibrated(run, stills(run, n)):
            start = time.perf_counter()
            detections = detector.detect(image, homography)
            times.append(time.perf_counter() - start)
            objects = [(kinds(d), d, False) for d in label["dice"]]
            if label.get("cube"):
                objects.append((["cube"], label["cube"], True))
            used = set()
            for rows, obj, is_cube in objects:
                if not obj.get("box") or not obj["in_image"] or obj["truncated"]:
                    continue
                if obj.get("hidden_by_hand", 0) > 0.5:
                    continue
                usable = [d for d in detections if (d.kind == "cube") == is_cube]
                match = nearest(usable, np.array(obj["centre_px"]), side(obj["box"]) / 2)
                for row in rows:
                    seen[row] += 1
                    found[row] += match is not None
                if match is not None:
                    used.add(id(match))
            found["extra"] += sum(id(d) not in used for d in detections)
            seen["stills"] += 1
    return seen, found, float(np.median(times) * 1000) if times else 0.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", type=Path, nargs="+", help="stills runs (images/, labels/)")
    ap.add_argument("--n", type=int, default=300, help="at most this many stills per run")
    ap.add_argument(
        "--model", type=Path, action="append", help="an ONNX detector (repeat; default: shipped)"
    )
    args = ap.parse_args()
    models = args.model or [model_path(MODEL)]
    results = [measure(args.runs, args.n, DiceCubeDetector.load(m)) for m in models]
    print("runs:", " ".join(str(r) for r in args.runs))
    print(f"{'':34}" + "".join(f"{m.name[-24:]:>26}" for m in models))
    rows = [r for r in results[0][0] if r not in ("stills",)]
    order = ["flat die, free", "die on a checker", "die off the board", "cocked die"]
    bands = [f"  flat, free, {b}" for b in ("under 15 px", "15-20 px", "20 px and more")]
    rows = (
        [r for r in order if r in rows]
        + [r for r in bands if r in rows]
        + sorted(r for r in rows if r.startswith("  cocked"))
        + ["cube"]
    )
    for row in rows:
        cells = []
        for seen, found, _ in results:
            total = seen[row]
            cells.append(f"{100 * found[row] / total:6.2f} % of {total:4d}" if total else "-")
        print(f"{row:34}" + "".join(f"{c:>26}" for c in cells))
    print(
        f"{'extra detections per still':34}"
        + "".join(f"{f['extra'] / max(1, s['stills']):>26.3f}" for s, f, _ in results)
    )
    print(f"{'detection ms p50':34}" + "".join(f"{t:>26.1f}" for _, _, t in results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
