"""Does the motion gate see dice still rolling, and let still frames through?

For every frame of rendered clips (``gammoneye render clip``) each gate compares
the frame with the one before, as the referee's eyes (``CameraEyes``) run them
(one still frame is enough). The clip's truth (``frames.jsonl``) says what moved:

- *tumbling*: dice rolling with no hand in the picture (``phase`` ``rolling``,
  ``hands`` 0). A gate that calls such a frame still lets the board reader read dice
  that have not come to rest; the stabiliser then needs only two frames alike.
- *still*: nothing changed since the frame before, no hand, nothing in the air, and
  the frame before had no hand either. A gate that calls such a frame moving costs a
  view, or latency.

Gates compared: ``whole`` (:class:`MotionGate` on the whole picture, as before the
board was watched), ``board`` (:meth:`MotionGate.on_board` on the field's corners
from ``clip.json``) and ``both`` (what ``CameraEyes`` uses once the field is known:
still only when both are). Prints, per clip and in all: tumbling frames called
still, still frames called moving, and each gate's frames per second.

Usage: python bench/gate_rolling.py CLIP_OR_SET [...] [--width 480] [--still-px 5]
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path

import cv2

from gammoneye.service.referee import SourceError, rendered_clips
from gammoneye.vision.gate import MotionGate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path, help="clips, or folders of clips")
    parser.add_argument("--width", type=int, default=480, help="board gate's width (px)")
    parser.add_argument("--still-px", type=int, default=5, help="board gate's still limit")
    parser.add_argument("--speck", type=int, default=2, help="board gate's speck side (px)")
    args = parser.parse_args()
    try:
        clips = rendered_clips(args.paths)
    except SourceError as e:
        parser.error(str(e))
    total: Counter[str] = Counter()
    seconds: Counter[str] = Counter()
    print(f"{'clip':34}{'tumbling':>9}{'still':>7}   tumbling called still / still called moving")
    for clip in clips:
        meta = json.loads((clip / "clip.json").read_text())
        rows = [json.loads(line) for line in (clip / "frames.jsonl").read_text().splitlines()]
        gates = {
            "whole": MotionGate(settle_frames=1),
            "board": MotionGate.on_board(
                meta["field_corners_px"],
                width=args.width,
                still_px=args.still_px,
                speck_px=args.speck,
            ),
        }
        count: Counter[str] = Counter()
        previous, had_hand = None, True
        for row in rows:
            image = cv2.imread(str(clip / "frames" / f"{row['frame']:06d}.jpg"))
            if image is None:
                raise SystemExit(f"{clip}: frame {row['frame']} missing")
            key = json.dumps([row.get("checkers"), row.get("dice"), row.get("cube")])
            hand = bool(row.get("hands"))
            tumbling = row.get("phase") == "rolling" and not hand
            still = (
                key == previous
                and not hand
                and not had_hand
                and not row.get("in_air")
                and row.get("phase") != "rolling"
            )
            previous, had_hand = key, hand
            settled = {}
            for name, gate in gates.items():
                start = time.perf_counter()
                settled[name] = gate.update(image).settled
                seconds[name] += time.perf_counter() - start
            settled["both"] = settled["whole"] and settled["board"]
            count["tumbling"] += tumbling
            count["still"] += still
            for name, ok in settled.items():
                count[f"{name} tumbling"] += tumbling and ok
                count[f"{name} still"] += still and not ok
        total.update(count)
        total["frames"] += len(rows)
        cells = "  ".join(
            f"{n} {count[f'{n} tumbling']:4d} / {count[f'{n} still']:3d}"
            for n in ("whole", "board", "both")
        )
        print(f"{clip.name[-34:]:34}{count['tumbling']:9d}{count['still']:7d}   {cells}")
    print()
    for name in ("whole", "board", "both"):
        t, s = total[f"{name} tumbling"], total[f"{name} still"]
        print(
            f"{name:6}: tumbling frames called still {t} of {total['tumbling']} "
            f"({100 * t / max(1, total['tumbling']):.2f} %); still frames called moving "
            f"{s} of {total['still']} ({100 * s / max(1, total['still']):.2f} %)"
        )
    for name in ("whole", "board"):
        print(f"{name} gate: {total['frames'] / max(seconds[name], 1e-9):.0f} frames/s")


if __name__ == "__main__":
    main()
