"""Lone cube boxes that are dice: for stills with one cube box (read as the reader
reads them: ``detect_on_board`` from the label's true field corners, boxes from
``LOW_DETECTION_SCORE``, cube boxes from ``FAINT_DIE_SCORE``), whether that box is the
true cube or a die, and how surely the die reader and the cube reader read it.

A die boxed as the cube, with no other cube box, becomes the cube; lying in the field
it reads as a cube offered, and the referee sees a double (s56 clip 5101 at 699 s: a
black 2 boxed as the cube at 0.38, read as a die's 2 at 1.00 and as a cube's face at
0.24 at most; in the Crawford game, an illegal double was flagged). This prints, for
the rule "a lone cube box the die reader reads at least ``CUBE_AS_DIE_P`` surely and
the cube reader under ``c`` is a die", how many true cubes it would lose against how
many dice it would put right, for several ``c``.

Usage: python bench/lone_cube_box.py RUN [RUN ...] [--n 400]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from detected_dice import side, stills, with_corners

from gammoneye.vision.crops import square_crop
from gammoneye.vision.read import CUBE_AS_DIE_P, FAINT_DIE_SCORE, BoardReader

LIMITS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1.01)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="+", type=Path)
    ap.add_argument("--n", type=int, default=400, help="stills per run")
    args = ap.parse_args()
    reader = BoardReader.load()
    detector = reader.detector
    lone = 0
    rows: list[tuple[str, float, float]] = []  # (truth, die p, cube p)
    for run in args.runs:
        for label, image, corners in with_corners(run, stills(run, args.n)):
            found = detector.detect_on_board(image, corners)
            cubes = [d for d in found if d.kind == "cube" and d.score >= FAINT_DIE_SCORE]
            if len(cubes) != 1:
                continue
            lone += 1
            box = cubes[0]
            c = np.array(box.centre)
            truth = "other"
            cube = label.get("cube")
            near = cube and cube.get("box")
            if near and np.hypot(*(c - np.array(cube["centre_px"]))) < side(cube["box"]) / 2:
                truth = "cube"
            for die in label.get("dice", []):
                if die.get("box") and np.hypot(*(c - np.array(die["centre_px"]))) < side(
                    die["box"]
                ) / 2:
                    truth = "die"
            crop = square_crop(image, box.box)[None]
            die_p = float(reader.dice.read_turned(crop)[0].max())
            cube_p = float(reader.cube.read(crop).max())
            rows.append((truth, die_p, cube_p))
    kinds = {k: sum(r[0] == k for r in rows) for k in ("cube", "die", "other")}
    print(f"{lone} stills with one cube box: the true cube {kinds['cube']}, a die "
          f"{kinds['die']}, neither {kinds['other']}")
    for truth, die_p, cube_p in rows:
        if truth != "cube" or die_p >= CUBE_AS_DIE_P:
            print(f"  {truth}: die p {die_p:.2f}, cube p {cube_p:.2f}")
    print(f"rule: die p >= {CUBE_AS_DIE_P} and cube p under c -> a die")
    for c in LIMITS:
        lost = sum(t == "cube" and d >= CUBE_AS_DIE_P and q < c for t, d, q in rows)
        mended = sum(t == "die" and d >= CUBE_AS_DIE_P and q < c for t, d, q in rows)
        print(f"  c {c:.2f}: true cubes lost {lost}, dice put right {mended} of {kinds['die']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
