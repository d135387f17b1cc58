"""The dice vision reads on single frames of a rendered clip, beside the clip's truth.

Each frame at the given times (seconds) is read as the referee's eyes read it (the
field's corners from ``clip.json``, a calibrated match), and each die read is printed
with its value (how sure), cocked probability, gap to the nearest thing it could lean
on (in its widths, ``vision.read.lean_gap``), half and place in the picture; then the
truth's dice at that frame (value, cocked, where the renderer put it in board cm).

    python bench/frame_dice.py clips/s53/selfplay_5p_seed6913-4803 18.4 321.5 616.5
    python bench/frame_dice.py CLIP --cocked     # the first settled frames of each cocked die

A tool for looking at a clip's invalid rolls, false or missed, one frame at a time.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from gammoneye.calibration.boardspace import canonical_corners
from gammoneye.vision.read import BoardReader


def cocked_times(rows: list[dict[str, Any]], after: float = 0.6) -> list[float]:
    """``after`` seconds into each run of settled frames showing a cocked die."""
    out = []
    for k in range(1, len(rows)):

        def cocked(r: dict[str, Any]) -> bool:
            return r["phase"] == "settled" and any(d["cocked"] for d in r["dice"])

        if cocked(rows[k]) and not cocked(rows[k - 1]):
            out.append(round(rows[k]["t"] + after, 1))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("clip", type=Path, help="a rendered clip (gammoneye render clip)")
    ap.add_argument("times", type=float, nargs="*", help="seconds into the clip")
    ap.add_argument("--cocked", action="store_true", help="also the truth's cocked dice")
    args = ap.parse_args()
    meta = json.loads((args.clip / "clip.json").read_text("utf-8"))
    rows = [json.loads(line) for line in (args.clip / "frames.jsonl").open(encoding="utf-8")]
    fps = float(meta["fps"])
    times = list(args.times) + (cocked_times(rows) if args.cocked else [])
    reader = BoardReader.load()
    for t in times:
        frame = min(round(t * fps), len(rows) - 1)
        image = cv2.imread(str(args.clip / "frames" / f"{frame:06d}.jpg"), cv2.IMREAD_COLOR)
        if image is None:
            raise SystemExit(f"no frame {frame} in {args.clip / 'frames'}")
        corners = canonical_corners(
            np.array(meta["field_corners_px"], np.float64),
            (image.shape[1], image.shape[0]),
            long_side_first=True,
        )
        reading = reader.read(image, corners=corners)
        read = [
            f"{d.value()} ({d.values[d.value()]:.2f}) cocked {d.cocked:.2f} gap {d.lean_gap} "
            f"on checker {d.on_checker:.2f} over {d.over} {d.half} "
            f"at ({d.image_xy[0]:.0f}, {d.image_xy[1]:.0f})"
            for d in reading.dice
            if d.image_xy is not None
        ]
        truth = [
            f"{d['value']}{' cocked' if d['cocked'] else ''}"
            f"{' on a checker' if d.get('on_checker') else ''} at {d['at']}"
            for d in rows[frame]["dice"]
        ]
        print(
            f"t={t:.1f} f={frame}: read {'; '.join(read) or '-'} | truth {'; '.join(truth) or '-'}"
        )


if __name__ == "__main__":
    main()
