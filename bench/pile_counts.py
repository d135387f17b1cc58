"""How surely the point counter reads piles of each height, on labelled stills.

For every point not under a hand, with the field taken from the label (a calibrated
match): the pile's true height, whether the reading's best cell is the true one, the
log-probability the reading gives the truth, and, for piles of 6 and more of the
colour read, how many checkers the count read is off. The referee's evidence believes
a tall pile's count only roughly (``vision.sighting.TALL_PILE``) from what this prints:

    python bench/pile_counts.py renders/val renders/held_styles renders/held_seeds
"""

from __future__ import annotations

import argparse
import json
import math
from collections import Counter, defaultdict
from pathlib import Path

import cv2
import numpy as np

from gammoneye.calibration.boardspace import canonical_corners
from gammoneye.vision.evaluate import _colour_map, _label_points, _under_hand
from gammoneye.vision.read import BoardReader


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("runs", type=Path, nargs="+", help="labelled stills runs")
    args = ap.parse_args()
    reader = BoardReader.load()
    seen: dict[int, list[float]] = defaultdict(list)  # height -> log p(truth)
    wrong: Counter[int] = Counter()
    off: dict[int, Counter[str]] = defaultdict(Counter)
    for run in args.runs:
        for path in sorted((run / "labels").glob("*.json")):
            label = json.loads(path.read_text())
            field = label["board"]["field_corners_px"]
            if field is None:
                continue
            image = cv2.imread(str(run / label["image"]), cv2.IMREAD_COLOR)
            size = (image.shape[1], image.shape[0])
            corners = canonical_corners(np.array(field, np.float64), size, long_side_first=True)
            reading = reader.read(image, corners=corners)
            bases, truth = _label_points(label)
            named = {v: k for k, v in _colour_map(reading, bases, truth).items()}
            regions = label["regions"]["points"]
            for p in reading.points:
                assert p.image_xy is not None
                j = int(np.argmin(np.linalg.norm(bases - np.array(p.image_xy), axis=1)))
                if _under_hand(regions[j]["polygon_px"], label):
                    continue
                colour, n = truth[j]
                cell = (named.get(colour), n) if n else (None, 0)
                height = min(n, 10)
                seen[height].append(math.log(max(p.p(cell), 1e-12)))
                best = p.best()
                wrong[height] += int(best != cell)
                if n >= 6:
                    off[height]["colour" if best[0] != cell[0] else f"{best[1] - n:+d}"] += 1
    for height in sorted(seen):
        lp = np.array(seen[height])
        label = f"{height}+" if height == 10 else str(height)
        share = wrong[height] / len(lp) * 100
        print(
            f"pile {label:>3}: {len(lp):5d} points, read wrong {share:6.2f} %, "
            f"mean log p(truth) {lp.mean():7.3f}, 5th percentile {np.percentile(lp, 5):7.2f}"
            + (f"; count read off by {dict(sorted(off[height].items()))}" if off[height] else "")
        )


if __name__ == "__main__":
    main()
