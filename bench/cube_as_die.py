"""How often the cube is boxed as a die with no cube box beside it, and how nearly the
detector called each such "die" the cube (its cube class score over its own score).

With no cube box the reader looks among the dice for the cube
(``BoardReader._cube_among_dice``). This prints, for stills of a labelled run read as
the reader reads them (``detect_on_board`` from the label's true field corners, boxes
from ``LOW_DETECTION_SCORE``), how many pictures show the cube only as a "die", and
for each share ``r`` how many of those a rule "the die whose cube score is at least
``r`` times its score is the cube" would find, against how many pictures with no cube
box it would wrongly make a true die the cube.

Usage: python bench/cube_as_die.py RUN [RUN ...] [--n 400] [--model M.onnx]
Choose on a run neither trained on nor held out (``renders/val``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from detected_dice import side, stills, with_corners

from gammoneye.vision.detector import DiceCubeDetector
from gammoneye.vision.read import LOW_DETECTION_SCORE

SHARES = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="+", type=Path)
    ap.add_argument("--n", type=int, default=400, help="stills per run")
    ap.add_argument("--model", type=Path, default=None, help="detector (default: shipped)")
    args = ap.parse_args()
    detector = DiceCubeDetector.load(args.model, min_score=LOW_DETECTION_SCORE)
    detector.reuse_still = False
    pictures = no_cube_box = 0
    cube_as_die: list[float] = []  # the true cube's ratio, where it is only a "die"
    best_die: list[float] = []  # the highest ratio among true dice, with no cube box
    for run in args.runs:
        for label, image, corners in with_corners(run, stills(run, args.n)):
            pictures += 1
            found = detector.detect_on_board(image, corners)
            if any(d.kind == "cube" for d in found):
                continue
            no_cube_box += 1
            cube = label.get("cube")
            cube_ratio, die_ratios = None, []
            for d in found:
                ratio = (d.cube_score or 0.0) / max(d.score, 1e-6)
                c = np.array(d.centre)
                on_cube = bool(
                    cube
                    and cube.get("box")
                    and np.hypot(*(c - np.array(cube["centre_px"]))) < side(cube["box"]) / 2
                )
                if on_cube:
                    cube_ratio = max(ratio, cube_ratio or 0.0)
                else:
                    die_ratios.append(ratio)
            if cube_ratio is not None:
                cube_as_die.append(cube_ratio)
            elif die_ratios:
                best_die.append(max(die_ratios))
    print(f"runs: {' '.join(map(str, args.runs))}; pictures {pictures}, no cube box {no_cube_box}")
    print(f"the cube boxed only as a die: {len(cube_as_die)} pictures")
    print(f"no cube box, dice boxed, the cube not among them: {len(best_die)} pictures")
    print("share r   cube found   a die taken for the cube")
    for r in SHARES:
        found_n = sum(x >= r for x in cube_as_die)
        false_n = sum(x >= r for x in best_die)
        print(f"  {r:4.1f}    {found_n:4d} / {len(cube_as_die):<4d}", end="")
        print(f"  {false_n:4d} / {len(best_die)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
