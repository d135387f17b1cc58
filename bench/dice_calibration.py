"""How far the die reader's probability can be trusted, through the board reader.

Each still of a labelled stills run is read as a calibrated match would read it (the
label's true field corners); every flat die the reader found (its centre within a
die's side of the label's) is counted by the probability of the value it read, and
whether that value is right. Prints, per band of that probability, how many dice
and how many read right; then, of the dice read at 0.5 or more and wrong, how often
the true face was the reader's second choice (what the referee's ``_die_log_p``
relies on).

Usage: python bench/dice_calibration.py RUN [--n 400]
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from confidence_bands import band_lines
from detected_dice import run_and_count, stills, with_corners

from gammoneye.vision.read import BoardReader


def matched_dice(run: Path, n: int) -> list[tuple[list[float], int]]:
    """(the reader's six face probabilities, the true face) of each flat die found."""
    reader = BoardReader.load()
    out = []
    for label, image, corners in with_corners(run, stills(run, n)):
        reading = reader.read(image, corners=corners)
        for die in label["dice"]:
            if not die["box"] or not die["in_image"] or die["hidden_by_hand"] > 0.5:
                continue
            if die["cocked"]:
                continue
            x0, y0, x1, y1 = die["box"]
            side = max(x1 - x0, y1 - y0)
            centre = np.array(die.get("centre_px") or [(x0 + x1) / 2, (y0 + y1) / 2])
            near = [
                (float(np.linalg.norm(np.array(d.image_xy) - centre)), d)
                for d in reading.dice
                if d.image_xy is not None
            ]
            near = [(dist, d) for dist, d in near if dist <= side]
            if near:
                seen = min(near, key=lambda x: x[0])[1]
                out.append(([seen.values.get(v, 0.0) for v in range(1, 7)], int(die["value"])))
    return out


def main() -> int:
    args = run_and_count(__doc__ or "", 400)
    rows = matched_dice(args.run, args.n)
    if not rows:
        print("no flat die found", file=sys.stderr)
        return 1
    probs = np.array([r[0] for r in rows])
    truth = np.array([r[1] for r in rows])
    read = probs.argmax(axis=1) + 1
    p = probs.max(axis=1)
    right = read == truth
    print(f"{args.run}: {len(rows)} flat dice found, read right {right.mean() * 100:.2f} %")
    for line in band_lines(p, right):
        print(f"  {line}")
    wrong = (~right) & (p >= 0.5)
    second = np.argsort(probs, axis=1)[:, -2] + 1
    print(
        f"read at 0.5 or more and wrong: {int(wrong.sum())}; "
        f"the true face the reader's second choice: {int((second[wrong] == truth[wrong]).sum())}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
