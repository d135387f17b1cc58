"""Does the arm watch hold back the frames with a hand over the board, and only those?

For every frame of rendered clips (``gammoneye render clip``) that the motion gate
calls still, :class:`~gammoneye.vision.gate.ReachWatch` (the field's corners from
``clip.json``, as a calibrated match) says whether someone reaches in. The clip's
truth says how many hands are in the picture (``hands`` in ``frames.jsonl``). Prints,
for each rim share asked for: still frames with a hand that the watch let through
(an arm missed: the board read under it), and still frames without a hand that it
held back (a board not read; a run of them makes the referee miss whole turns).

The motion gate settles after one still frame, as the referee's eyes
(``CameraEyes``) run it; ``--settle 3`` is the gate's own default.

Usage: python bench/reach_watch.py CLIP_OR_SET [...] [--rim 0.2 --rim 0.3] [--reach 0.03]
    [--hold 0.08] [--cover 0.085 --cover inf] [--solid 0.8 --solid 0] [--settle 1]

``--hold inf`` measures the watch as it was before ``hold_share`` (every clear view
became the reference, a hand over the field included); ``--cover inf`` as it was
before ``cover_share`` (a changed piece over the field reaching nowhere let through);
``--solid 0`` as it was before ``solid_share`` (such a piece held back however little
of it changed).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2

from gammoneye.service.referee import SourceError, rendered_clips
from gammoneye.vision.gate import MotionGate, ReachWatch


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--rim", type=float, action="append", help="rim shares to compare")
    parser.add_argument("--reach", type=float, default=0.03, help="reach share (default 0.03)")
    parser.add_argument("--hold", type=float, default=0.08, help="hold share (default 0.08)")
    parser.add_argument(
        "--cover", type=float, action="append", help="cover shares to compare (default 0.085)"
    )
    parser.add_argument(
        "--solid", type=float, action="append", help="solid shares to compare (default 0.8)"
    )
    parser.add_argument("--settle", type=int, default=1, help="gate's still frames (default 1)")
    args = parser.parse_args()
    try:
        clips = rendered_clips(args.paths)
    except SourceError as e:
        parser.error(str(e))
    # each watch the same frames: rim, cover and solid shares, every triple asked for
    kinds = [
        (r, c, f)
        for r in args.rim or [0.2, 0.3]
        for c in args.cover or [0.085]
        for f in args.solid or [0.8]
    ]
    total = {k: [0, 0] for k in kinds}
    frames = [0, 0]
    for clip in clips:
        meta = json.loads((clip / "clip.json").read_text())
        rows = [json.loads(line) for line in (clip / "frames.jsonl").read_text().splitlines()]
        gate = MotionGate(settle_frames=args.settle)
        watches = {
            (r, c, f): ReachWatch(
                meta["field_corners_px"],
                rim_share=r,
                reach_share=args.reach,
                hold_share=args.hold,
                cover_share=c,
                solid_share=f,
            )
            for r, c, f in kinds
        }
        still = hand_still = 0
        missed = dict.fromkeys(kinds, 0)
        held = dict.fromkeys(kinds, 0)
        for row in rows:
            image = cv2.imread(str(clip / "frames" / f"{row['frame']:06d}.jpg"))
            if not gate.update(image).settled:
                for w in watches.values():
                    w.moved()
                continue
            still += 1
            hand = bool(row.get("hands"))
            hand_still += hand
            for k, w in watches.items():
                reach = w.update(image, row["t"])
                missed[k] += hand and not reach
                held[k] += (not hand) and reach
        line = f"{clip.name}: {still} still frames, {hand_still} with a hand"
        for k in kinds:
            line += f"; rim {k[0]} cover {k[1]} solid {k[2]}: hand let through {missed[k]}, "
            line += f"no hand held back {held[k]}"
            total[k][0] += missed[k]
            total[k][1] += held[k]
        frames[0] += still
        frames[1] += hand_still
        print(line, flush=True)
    print(f"all {len(clips)} clips: {frames[0]} still frames, {frames[1]} with a hand")
    for k in kinds:
        print(
            f"  rim {k[0]} cover {k[1]} solid {k[2]}: hand let through {total[k][0]}, "
            f"no hand held back {total[k][1]}"
        )


if __name__ == "__main__":
    main()
