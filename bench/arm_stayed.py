"""How large, off the field, are the pieces the reach watch keeps as an arm from one
still stretch to the next: arms held still, and checkers borne off onto the table.

``ReachWatch._arm_stayed`` takes pieces that were taken for an arm before the table
moved, and lie where they lay, pixel for pixel, with nothing else reaching out, for
the board's own (checkers put beside the rim) only where they cover less than
``OFF_PILE_SHARE`` of the field's area off the field (``ReachWatch.off_share``: the
geometric mean of their share of the field's pixels and of its area in the board's
plane, for an oblique camera shows the near side larger). This runs the camera's gates
(the motion gate, the board's gate, the reach watch; no board reading) over rendered
clips and, on every still frame where such pieces are weighed and only that bound
decides, notes that share (and its two parts) and whether the clip's truth has a hand
over the table (or a checker in the air) in that frame:

    python bench/arm_stayed.py clips/s17[4-9]/m*-* clips/s18[0-4]/m*-*

One line per clip, then the least share of a hand and the largest share without one
over all clips, and what the bound does with them. Besides, whatever the cause: the
still frames (no hand, no checker in the air, nothing changed since the frame
before) the watch held back as ones with an arm in them, and the longest hold, from
the first such frame to the next frame it let through (or the clip's end).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

import gammoneye.service.referee as service_referee
from gammoneye.service.referee import CameraEyes, TruthEyes, open_source
from gammoneye.vision.gate import OFF_PILE_SHARE, ReachWatch


class _Weighed(list[tuple[float, bool, float, float]]):
    """(share off the field as the watch weighs it, a hand in the frame, that share in
    the board's plane, in the picture's pixels) for each weighing; the frame's hand is
    set from outside before each frame is shown to the gates."""

    hand = False


WEIGHED = _Weighed()


class RecordingWatch(ReachWatch):
    """The reach watch, noting the pieces ``_arm_stayed`` weighs where only their size
    off the field decides (``_pile_sized``)."""

    def _pile_sized(self, mask: Any) -> bool:
        masks = self._field_masks(mask.shape)
        off = mask & ~masks.on_field
        pixels = float(np.count_nonzero(off)) / masks.area
        WEIGHED.append((self.off_share(mask), WEIGHED.hand, self.plane_share(off), pixels))
        return super()._pile_sized(mask)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("clips", nargs="+", type=Path, help="rendered clips (gammoneye render clip)")
    args = ap.parse_args(argv)
    service_referee.ReachWatch = RecordingWatch  # type: ignore[misc]
    for clip in args.clips:
        if not (clip / "clip.json").is_file():
            ap.error(f"{clip} is no rendered clip (no clip.json)")
    totals = [0, 0.0]  # still frames held back without a hand; the longest hold (s)
    for n, clip in enumerate(args.clips, 1):
        meta = json.loads((clip / "clip.json").read_text("utf-8"))
        truth = TruthEyes(clip)  # the clip's rows, and its test of a still frame
        eyes = CameraEyes(0, meta.get("field_corners_px"), reader=object())
        start = len(WEIGHED)
        held, longest, since, end = 0, 0.0, None, 0.0
        for frame in open_source(str(clip)):
            row = truth.rows[frame.ref]
            WEIGHED.hand = bool(row.get("hands") or row.get("in_air"))
            still = truth.settled(frame)
            reached = eyes.reached
            passed = eyes.settled(frame)
            if still and eyes.reached > reached:
                held += 1
                since = frame.t if since is None else since
            elif passed and since is not None:
                longest, since = max(longest, frame.t - since), None
            end = frame.t
        if since is not None:  # held back to the clip's end
            longest = max(longest, end - since)
        totals[0] += held
        totals[1] = max(totals[1], longest)
        mine = WEIGHED[start:]
        hands = [w[0] for w in mine if w[1]]
        piles = [w[0] for w in mine if not w[1]]
        print(
            f"[{n}/{len(args.clips)}] {clip.name}: with a hand {len(hands)}"
            + (f" (least {min(hands):.4f})" if hands else "")
            + f", without {len(piles)}"
            + (f" (largest {max(piles):.4f})" if piles else "")
            + f"; still frames held back without a hand {held}"
            + (f", the longest hold from one {longest:.1f} s" if longest else ""),
            flush=True,
        )
    print(f"still frames weighed: {len(WEIGHED)} over {len(args.clips)} clips")
    for name, want in (("with a hand", True), ("without one", False)):
        mine = [w for w in WEIGHED if w[1] == want]
        if mine:
            low, high = min(mine), max(mine)
            print(
                f"{name}: {len(mine)}, off the field {low[0]:.4f} to {high[0]:.4f} "
                f"(plane, pixels: {low[2]:.4f}, {low[3]:.4f} to {high[2]:.4f}, {high[3]:.4f}); "
                f"in the plane alone {min(w[2] for w in mine):.4f} to {max(w[2] for w in mine):.4f}"
                f", in pixels alone {min(w[3] for w in mine):.4f} to {max(w[3] for w in mine):.4f}"
            )
    hands = [w[0] for w in WEIGHED if w[1]]
    piles = [w[0] for w in WEIGHED if not w[1]]
    print(
        f"still frames held back without a hand: {totals[0]}; "
        f"the longest hold from one: {totals[1]:.1f} s"
    )
    print(
        f"OFF_PILE_SHARE {OFF_PILE_SHARE}: hands taken for the board's own "
        f"{sum(off < OFF_PILE_SHARE for off in hands)}, frames without a hand held back "
        f"{sum(off >= OFF_PILE_SHARE for off in piles)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
