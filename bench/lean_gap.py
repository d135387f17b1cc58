"""How far cocked and flat dice stand from anything they could lean on.

A die is cocked only when something holds it tilted: a checker, the rail, the bar, the
other die or the cube. Vision measures each die's distance to the nearest of them in
the die's own widths (``vision.read.lean_gap``) and scales down the cocked probability of a die
standing in the open (``cocked_given_lean``). This script reads every still of a
labelled stills run as ``gammoneye eval vision --calibrated`` does (the field's
corners from the label), with that lowering turned off, matches each labelled die to
the nearest die read (within its box's side), and prints:

- the gap's spread for cocked dice by what the renderer leaned them on, and for flat
  dice, with how many of each were called cocked before the lowering;
- recall (cocked dice called cocked) and false alarms (flat dice called cocked) at
  vision's 0.5 and at the referee's ``COCKED_P``, without the lowering, with the
  shipped ``LEAN_NEAR`` / ``LEAN_FAR`` / ``UNLEANED_COCKED_SCALE``, and for a small
  grid of them.

Choose on a run neither trained on nor held out (``renders/val``); report held-out
runs.

Usage: python bench/lean_gap.py RUN [RUN ...] [--n 400]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

from gammoneye.calibration.boardspace import canonical_corners
from gammoneye.engine.referee import COCKED_P
from gammoneye.vision import read as vread
from gammoneye.vision.read import BoardReader, NoBoardError


def collect(run: Path, n: int, reader: BoardReader) -> list[tuple[bool, str, float, float]]:
    """(cocked, what it leans on, cocked probability without the lowering, gap) of
    every labelled die matched to a die read."""
    out = []
    files = sorted((run / "labels").glob("*.json"))[:n]
    for k, path in enumerate(files):
        label = json.loads(path.read_text())
        field = label["board"]["field_corners_px"]
        if field is None:
            continue
        image = cv2.imread(str(run / label["image"]), cv2.IMREAD_COLOR)
        corners = canonical_corners(
            np.array(field, np.float64), (image.shape[1], image.shape[0]), long_side_first=True
        )
        try:
            reading = reader.read(image, corners=corners)
        except NoBoardError:
            continue
        used: set[int] = set()
        for d in label["dice"]:
            if not (d["box"] and d["in_image"] and d["hidden_by_hand"] <= 0.5):
                continue
            x0, y0, x1, y1 = d["box"]
            centre = np.array(d.get("centre_px") or [(x0 + x1) / 2, (y0 + y1) / 2])
            best = None
            for j, r in enumerate(reading.dice):
                if j in used or r.image_xy is None:
                    continue
                dist = float(np.linalg.norm(np.array(r.image_xy) - centre))
                if dist <= max(x1 - x0, y1 - y0) and (best is None or dist < best[0]):
                    best = (dist, j)
            if best is None:
                continue
            used.add(best[1])
            r = reading.dice[best[1]]
            lean = str(d.get("leaning_on")) if d["cocked"] else "flat"
            out.append((bool(d["cocked"]), lean, r.cocked, float(r.lean_gap or 0.0)))
        if (k + 1) % 50 == 0:
            print(f"  {run}: {k + 1}/{len(files)} stills", file=sys.stderr)
    return out


def lowered(p: np.ndarray, gap: np.ndarray, near: float, far: float, scale: float) -> np.ndarray:
    share = np.clip((gap - near) / (far - near), 0.0, 1.0)
    return np.asarray(p * (1.0 - share * (1.0 - scale)))


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("runs", nargs="+", type=Path)
    ap.add_argument("--n", type=int, default=400, help="stills of each run to read")
    args = ap.parse_args()
    shipped = (vread.LEAN_NEAR, vread.LEAN_FAR, vread.UNLEANED_COCKED_SCALE)
    vread.UNLEANED_COCKED_SCALE = 1.0  # read without the lowering; applied below
    reader = BoardReader.load()
    for run in args.runs:
        rows = collect(run, args.n, reader)
        truth = np.array([r[0] for r in rows], bool)
        lean = np.array([r[1] for r in rows])
        p = np.array([r[2] for r in rows])
        gap = np.array([r[3] for r in rows])
        print(f"{run}: {int(truth.sum())} cocked and {int((~truth).sum())} flat dice matched")
        for kind in sorted(set(lean)):
            g = gap[lean == kind]
            called = int((p[lean == kind] >= 0.5).sum())
            qs = ", ".join(f"{q:.2f}" for q in np.quantile(g, [0.5, 0.9, 0.95, 1.0]))
            print(
                f"  {kind:>8}: {len(g):4d} dice, called cocked {called:4d}; "
                f"gap p50/p90/p95/max {qs}"
            )
        called_flat = (~truth) & (p >= 0.5)
        if called_flat.any():
            gaps = ", ".join(f"{g:.2f}" for g in sorted(gap[called_flat]))
            print(f"  flat dice called cocked, their gaps: {gaps}")
        grid = [(None, None, 1.0), shipped] + [
            (near, near + width, scale)
            for near in (0.5, 0.75, 1.0)
            for width in (0.5, 1.0)
            for scale in (0.3, 0.6)
            if (near, near + width, scale) != shipped
        ]
        print("  near  far  scale | recall, false at 0.5 | at COCKED_P")
        for near, far, scale in grid:
            q = p if near is None else lowered(p, gap, near, far, scale)
            cells = []
            for at in (0.5, COCKED_P):
                c = q >= at
                cells.append(f"{c[truth].mean() * 100:6.2f} %, {c[~truth].mean() * 100:5.2f} %")
            name = "   off          " if near is None else f"  {near:4.2f} {far:4.2f} {scale:5.1f}"
            mark = "  (shipped)" if (near, far, scale) == shipped else ""
            print(f"{name} | {cells[0]} | {cells[1]}{mark}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
