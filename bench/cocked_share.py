"""How the die reader and the detector together tell cocked dice from flat ones.

For each still of a labelled stills run, the board canvas is warped from the label's
true field corners (a calibrated match), the detector finds the dice (from vision's
low score, ``LOW_DETECTION_SCORE``), each labelled die is matched to the nearest
detection (within half its box's side) and read by the die reader. Three ways to call
a die cocked are compared over the matched dice:

- the reader alone (its cocked probability, moved by ``COCKED_LOGIT_SHIFT``), raised
  to the detector's score where the detector's winning class is the cocked die: what
  vision did before the detector's cocked share was weighed in;
- the shipped rule, :meth:`Detection.cocked_probability` with ``COCKED_SHARE_WEIGHT``
  and ``COCKED_SHARE_BIAS``;
- for a grid of weights, the bias with the best recall at most ``--max-false`` false
  alarms (the way the shipped pair was chosen, on ``renders/val``).

Prints recall (cocked dice called cocked) and false alarms (flat dice called cocked)
at 0.5, where vision calls a die cocked, and at the referee's ``COCKED_P``. Choose on a
run neither trained on nor held out (``renders/val``); report the held-out runs.

Usage: python bench/cocked_share.py RUN [--n 400] [--max-false 0.01]
"""

from __future__ import annotations

import sys

import numpy as np
from detected_dice import pairs, run_and_count, stills

from gammoneye.engine.referee import COCKED_P
from gammoneye.vision.crops import square_crop
from gammoneye.vision.detector import COCKED_SHARE_BIAS, COCKED_SHARE_WEIGHT, DiceCubeDetector
from gammoneye.vision.dice import DiceReader
from gammoneye.vision.read import LOW_DETECTION_SCORE

WEIGHTS = (0.5, 1.0, 1.5, 2.0, 3.0)


def logit(p: np.ndarray) -> np.ndarray:
    q = np.clip(p, 1e-6, 1 - 1e-6)
    return np.log(q / (1 - q))


def rates(called: np.ndarray, truth: np.ndarray) -> tuple[float, float]:
    recall = float(called[truth].mean()) if truth.any() else 0.0
    false = float(called[~truth].mean()) if (~truth).any() else 0.0
    return recall, false


def main() -> int:
    args = run_and_count(__doc__ or "", 400, max_false=True)
    files = stills(args.run, args.n)
    detector = DiceCubeDetector.load(min_score=LOW_DETECTION_SCORE)
    reader = DiceReader.load()
    truth_l, read_l, share_l, old_l, new_l = [], [], [], [], []
    for pair in pairs(args.run, files, detector):
        if pair.kind == "cube" or pair.found.cocked_share is None:
            continue
        _, cocked = reader.read(square_crop(pair.image, pair.found.box)[None])
        read = float(cocked[0])
        found = pair.found
        truth_l.append(pair.kind == "cocked die")
        read_l.append(read)
        share_l.append(found.cocked_share)
        old_l.append(max(read, found.score) if found.kind == "cocked_die" else read)
        new_l.append(found.cocked_probability(read))
    truth = np.array(truth_l, bool)
    print(
        f"{args.run}: {len(files)} stills, {int(truth.sum())} cocked and "
        f"{int((~truth).sum())} flat dice matched"
    )
    for name, p in (
        ("reader (and the detector's winning class)", np.array(old_l)),
        (
            f"reader and detector's share (weight {COCKED_SHARE_WEIGHT}, "
            f"bias {COCKED_SHARE_BIAS}), shipped",
            np.array(new_l),
        ),
    ):
        cells = []
        for at in (0.5, COCKED_P):
            recall, false = rates(p >= at, truth)
            cells.append(f"from {at:.2f}: recall {recall * 100:.1f} %, false {false * 100:.2f} %")
        print(f"{name}: " + "; ".join(cells))
    z_read, z_share = logit(np.array(read_l)), logit(np.array(share_l))
    for w in WEIGHTS:
        z = z_read + w * z_share
        best: tuple[float, float, float] | None = None
        for cut in np.unique(z):
            recall, false = rates(z >= cut, truth)
            if false <= args.max_false and (best is None or recall > best[0]):
                best = (recall, false, float(-cut))
        if best is None:
            print(f"weight {w}: no bias keeps false alarms under {args.max_false * 100:.1f} %")
        else:
            recall, false, bias = best
            print(
                f"weight {w}: bias {bias:+.2f}: recall {recall * 100:.1f} %, "
                f"false {false * 100:.2f} %"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
