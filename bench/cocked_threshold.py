"""Where to call a die cocked: recall and false alarms at every operating point.

For each still of a labelled stills run, the board canvas is warped from the label's
true field corners (a calibrated match), the detector finds the dice, each labelled die
is matched to the nearest detection (within half its box's side) and read by the die
reader. A die is called cocked when the reader's own cocked probability, moved by a
logit offset, reaches 0.5, or when the detector calls it a cocked die with a score of
at least a threshold. Vision does the same with the offset
``gammoneye.vision.dice.COCKED_LOGIT_SHIFT`` and the detector's minimum score, 0.3
(``Detection.cocked_probability``).

Prints, for a grid of offsets and detector scores: cocked recall (cocked dice called
cocked) and false alarms (flat dice called cocked), both over the matched dice, and
the operating point with the best recall at most ``--max-false`` false alarms. Choose
the point on a run that is not the held-out one (``renders/val``), then report the
held-out runs at it.

Usage: python bench/cocked_threshold.py RUN [--n 400] [--max-false 0.01]
"""

from __future__ import annotations

import sys

import numpy as np
from detected_dice import pairs, run_and_count, stills

from gammoneye.vision.crops import square_crop
from gammoneye.vision.detector import DiceCubeDetector
from gammoneye.vision.dice import COCKED_LOGIT_SHIFT, DiceReader

SHIFTS = (-2.0, -1.0, 0.0, 0.5, 1.0, 1.25, 1.5, 2.0, 3.0)
DETECTOR_MINS = (0.3, 0.5, 0.9, 1.01)


def main() -> int:
    args = run_and_count(__doc__ or "", 400, max_false=True)
    files = stills(args.run, args.n)
    detector = DiceCubeDetector.load()
    reader = DiceReader.load()
    rows: list[tuple[bool, float, float]] = []  # truth, reader's p, detector's cocked score
    for pair in pairs(args.run, files, detector):
        if pair.kind == "cube":
            continue
        _, cocked = reader.read(square_crop(pair.image, pair.found.box)[None])
        det = pair.found.score if pair.found.kind == "cocked_die" else 0.0
        rows.append((pair.kind == "cocked die", float(cocked[0]), det))
    truth = np.array([r[0] for r in rows])
    p = np.clip(np.array([r[1] for r in rows]), 1e-6, 1 - 1e-6)
    det = np.array([r[2] for r in rows])
    logit = np.log(p / (1 - p)) + COCKED_LOGIT_SHIFT  # the reader's own, unmoved
    n_cocked, n_flat = int(truth.sum()), int((~truth).sum())
    print(f"{args.run}: {len(files)} stills, {n_cocked} cocked and {n_flat} flat dice matched")
    best: tuple[float, float, float, float] | None = None
    for dmin in DETECTOR_MINS:
        cells = []
        for shift in SHIFTS:
            called = (logit - shift >= 0) | (det >= dmin)
            recall = float(called[truth].mean()) if n_cocked else 0.0
            false = float(called[~truth].mean()) if n_flat else 0.0
            cells.append(f"{shift:+.2f}: {recall * 100:5.1f}/{false * 100:4.1f}")
            if false <= args.max_false and (best is None or recall > best[0]):
                best = (recall, false, shift, dmin)
        name = "never" if dmin > 1 else f"{dmin:.2f}"
        print(f"detector cocked score >= {name}; shift: recall/false % " + "  ".join(cells))
    if best is None:
        print(f"no operating point has at most {args.max_false * 100:.1f} % false alarms")
    else:
        recall, false, shift, dmin = best
        print(
            f"best at most {args.max_false * 100:.1f} % false alarms: shift {shift:+.2f}, "
            f"detector score >= {dmin:.2f}: recall {recall * 100:.1f} %, false {false * 100:.2f} %"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
