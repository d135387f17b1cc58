"""What the board reader reads wrong on labelled stills, picture by picture, and how
the wrong piles are stacked.

Each picture with no hand over the board (as ``gammoneye eval vision`` counts its
clear pictures) is read with the field's corners from its label (a calibrated
match). For each one not read exactly, one line: every point read wrong (truth and
reading, the layers its checkers lie in, and any die or cube standing on it) and the
bar when it is wrong. Then the totals: points wrong, piles of 7 or more among them
(counted low; holding a checker in a third layer or higher, which a camera above the
board cannot see: the renderer lays every layer above the second straight over it),
and bars wrong (five read as four: the fifth lies on top of the first).

    python bench/stills_wrong.py renders/held_styles renders/held_seeds
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from gammoneye.calibration.boardspace import canonical_corners
from gammoneye.vision import evaluate as ev
from gammoneye.vision.read import BoardReader

TALL = 7  # a pile this high or higher is counted among the tall ones


def _inside(polygon: list[list[float]], xy: list[float] | None) -> bool:
    if not xy:
        return False
    contour = np.array(polygon, np.float32)
    return cv2.pointPolygonTest(contour, (float(xy[0]), float(xy[1])), False) >= 0


def _on_point(label: dict[str, Any], polygon: list[list[float]]) -> list[str]:
    """The dice and the cube whose centres stand on a point's region."""
    out = [
        f"die {d['value']}{' cocked' if d.get('cocked') else ''}"
        for d in label["dice"]
        if _inside(polygon, d.get("centre_px"))
    ]
    cube = label.get("cube")
    if cube and _inside(polygon, cube.get("centre_px")):
        out.append("cube")
    return out


def look(run: Path, reader: BoardReader, totals: Counter[str]) -> None:
    for path in sorted((run / "labels").glob("*.json")):
        label = json.loads(path.read_text())
        image = cv2.imread(str(run / label["image"]))
        size = (image.shape[1], image.shape[0])
        field = np.array(label["board"]["field_corners_px"])
        reading = reader.read(image, corners=canonical_corners(field, size, long_side_first=True))
        report = ev.VisionReport()
        case = ev.Case(label["image"], True, 24, False, 0, False)
        ev.compare(reading, label, report, case)
        if report.clear_pictures == 0:
            continue  # a hand over the board
        totals["pictures"] += 1
        if report.exact:
            totals["exact"] += 1
            continue
        bases, truth = ev._label_points(label)
        names = ev._colour_map(reading, bases, truth)
        regions = label["regions"]["points"]
        wrong = []
        for p in reading.points:
            j = int(np.argmin(np.linalg.norm(bases - np.array(p.image_xy), axis=1)))
            colour, n = p.best()
            true_colour, true_n = truth[j]
            if n == true_n and (not n or names.get(colour or "", "") == true_colour):
                continue
            number = regions[j]["number"]
            layers = Counter(
                c["layer"]
                for c in label["checkers"]
                if c["where"] == "point" and c["point"] == number
            )
            totals["points wrong"] += 1
            if true_n >= TALL:
                totals[f"piles of {TALL}+ wrong"] += 1
                totals[f"piles of {TALL}+ counted low"] += int(n < true_n)
                totals[f"piles of {TALL}+ with a third layer"] += int(max(layers, default=0) >= 2)
            stack = "+".join(str(layers[k]) for k in sorted(layers))
            over = " ".join(_on_point(label, regions[j]["polygon_px"]))
            read = f"{names.get(colour or '', colour)} {n}" if n else "empty"
            was = f"{true_colour} {true_n}" if true_n else "empty"
            wrong.append(
                f"point {number}: {was} read {read}"
                + (f" [{stack}]" if stack else "")
                + (f" ({over})" if over else "")
            )
        if not case.bar_right:
            totals["bars wrong"] += 1
            colours = {q["player"]: q["colour"] for q in label["position"]["players"]}
            true_bar = {colours[k]: label["position"]["bar"][k] for k in (0, 1)}
            read_bar = {names.get(c, c): n for c, n in reading.bar.items()}
            if 5 in true_bar.values() and 4 in read_bar.values():
                totals["bars of five read as four"] += 1
            wrong.append(f"bar {true_bar} read {read_bar}")
        print(f"{run.name}/{label['image']} {label['board']['style']}: " + "; ".join(wrong))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("runs", type=Path, nargs="+", help="labelled stills runs")
    args = ap.parse_args()
    reader = BoardReader.load()
    for run in args.runs:
        totals: Counter[str] = Counter()
        look(run, reader, totals)
        print(f"== {run}: " + ", ".join(f"{k} {v}" for k, v in totals.items()))


if __name__ == "__main__":
    main()
