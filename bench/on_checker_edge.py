"""Where flat dice stand against the pile of checkers on the point they are over: the
evidence for the referee's ``ON_CHECKER_INSET`` (``engine/referee.py``).

For every flat die of a labelled stills run (``gammoneye render stills``) that the
reader finds (the field's corners from the label, as a calibrated match has them) over
a point with checkers, prints how far outside that point's pile its footprint stands,
in checker diameters (negative: inside; the referee's ``pile_outside``, before
``on_checker_p`` moves the edge in), and whether the label has it on a checker;
sorted, with the edge's neighbourhood listed and a summary.

Usage: python bench/on_checker_edge.py RUN [RUN ...] [--n 400] [--window 1.0]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
from detected_dice import stills, with_corners

from gammoneye.engine.referee import pile_outside
from gammoneye.vision.read import BoardReader


def stands(runs: list[Path], n: int) -> list[tuple[float, bool, str]]:
    """(outside, on a checker, still) for each flat die found over a pile."""
    reader = BoardReader.load()
    out = []
    for run in runs:
        for label, image, corners in with_corners(run, stills(run, n)):
            reading = reader.read(image, corners=corners)
            for die in label["dice"]:
                if die["cocked"] or not die.get("box") or not die["in_image"]:
                    continue
                if die["hidden_by_hand"] > 0.5:
                    continue
                centre = np.array(die["centre_px"], np.float64)
                near = [
                    (float(np.linalg.norm(np.array(d.image_xy) - centre)), i)
                    for i, d in enumerate(reading.dice)
                    if d.image_xy is not None
                ]
                if not near or min(near)[0] > 20:
                    continue
                read = reading.dice[min(near)[1]]
                if read.over is None:
                    continue
                number, depth, side = read.over
                count = reading.points[number - 1].best()[1]
                if count:
                    outside = pile_outside(depth, side, count)
                    out.append((outside, bool(die["on_checker"]), f"{run}/{label['image']}"))
    return sorted(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", type=Path, nargs="+", help="stills runs (images/, labels/)")
    ap.add_argument("--n", type=int, default=400, help="at most this many stills per run")
    ap.add_argument("--window", type=float, default=1.0, help="list dice this near the edge")
    ap.add_argument("--json", type=Path, help="also write every row here")
    args = ap.parse_args()
    rows = stands(args.runs, args.n)
    if args.json:
        args.json.write_text(json.dumps(rows))
    for outside, on, still in rows:
        if abs(outside) <= args.window:
            print(f"{outside:+.3f}  {'on a checker' if on else 'beside':13} {still}")
    on = [o for o, t, _ in rows if t]
    beside_inside = [o for o, t, _ in rows if not t and o < 0]
    print(f"dice over a pile: {len(rows)}; on a checker: {len(on)}")
    if on:
        print(f"on a checker: nearest the edge {max(on):+.3f} (median {np.median(on):+.3f})")
    print(f"beside a pile yet inside its edge: {len(beside_inside)} {sorted(beside_inside)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
