"""How well the lens of a rendered clip's camera can be told from its opening picture.

Session 82 tried learning the lens even where the opening reads 24/24 (a camera that
bows the field's sides a little): for each coefficient ``k1`` of
:class:`~gammoneye.calibration.lens.Lens` on a grid, and with it the bar's share that
lays the strips best, how evenly the opening's bare triangles lie in their strips
(the mean absolute difference of each strip's middle from its mirror image). A lens
is taken only where it beats none by ``--gain``. The clip's own camera says the true
coefficient (``clip.json``), converted to the lens module's units. The fit was right
but not shipped: through the referee it changed nothing or made a clip worse
(``docs/vision-benchmarks.md``, session 82). This prints, per clip, the true and the
fitted coefficient::

    python bench/lens_fit.py clips/s177/m19414_7p-17404 clips/s173/*-17004
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import sys
from pathlib import Path

import cv2
import numpy as np

from gammoneye.calibration.boardspace import BoardSpace, Orientation
from gammoneye.calibration.lens import Lens
from gammoneye.calibration.profile import CalibrationProfile
from gammoneye.service.referee import CameraEyes, clip_referee_config, open_source, read_truth
from gammoneye.vision.crops import cut_strip
from gammoneye.vision.read import WIDEN

GRID = [round(-0.25 + 0.025 * i, 3) for i in range(15)]
BARS = np.arange(0.04, 0.16 + 1e-9, 0.01)
STRIP = (32, 128)
SPAN = 0.9  # point widths of a strip compared with its mirror image


def lopsided(image, corners, space: BoardSpace, empty: list[int]) -> float:
    to_image = cv2.getPerspectiveTransform(
        space.corners().astype(np.float32), np.asarray(corners, np.float32)
    )
    cut = round(STRIP[0] * (0.5 - SPAN / (4 * WIDEN)))
    total = 0.0
    for n in empty:
        x, y, _ = space.point_base(n, Orientation())
        half, mid = WIDEN * space.point_width, space.height / 2
        quad = np.array([(x - half, y), (x + half, y), (x + half, mid), (x - half, mid)])
        quad = cv2.perspectiveTransform(quad.reshape(-1, 1, 2), to_image).reshape(-1, 2)
        grey = cv2.cvtColor(cut_strip(image, quad, STRIP), cv2.COLOR_BGR2GRAY).astype(float)
        middle = grey[:, cut : STRIP[0] - cut]
        total += float(np.abs(middle - middle[:, ::-1]).mean())
    return total / max(1, len(empty))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("clips", nargs="+", type=Path)
    ap.add_argument("--gain", type=float, default=0.85, help="take a lens beating none by this")
    args = ap.parse_args(argv)
    for clip in args.clips:
        meta = json.loads((clip / "clip.json").read_text("utf-8"))
        cam = meta["camera"]
        cam = ast.literal_eval(cam) if isinstance(cam, str) else cam
        size = (int(meta["width"]), int(meta["height"]))
        half_diagonal = math.hypot(*size) / 2
        true_k1 = cam["dist"][0] * (half_diagonal / cam["K"][0][0]) ** 2
        eyes = CameraEyes(
            clip_referee_config(clip, read_truth(clip)).bottom_player, meta["field_corners_px"]
        )
        frame = next(f for f in open_source(str(clip)) if eyes.settled(f))
        best = eyes.reader.read(frame.image, eyes._profile(frame.image)).best_layout()
        empty = [n for n in range(1, 25) if best.get(n, (None, 0))[1] == 0]
        scores = {}
        for k1 in sorted({0.0, *GRID}):
            lens = Lens(k1)
            flat = lens.undistort_image(frame.image)
            taken = lens.undistort_points(np.asarray(meta["field_corners_px"], float), size)
            corners = CalibrationProfile.from_corners(taken, size, long_side_first=True).corners()

            def uneven(f: float, flat=flat, corners=corners, empty=empty) -> float:
                return lopsided(flat, corners, BoardSpace(bar_fraction=float(f)), empty)

            tried = {round(float(f), 4): uneven(f) for f in BARS}
            first = min(tried, key=tried.__getitem__)
            for f in (first - 0.005, first + 0.005):  # then either side of the best
                if 0.04 - 1e-9 <= f <= 0.16 + 1e-9:
                    tried[round(f, 4)] = uneven(f)
            scores[k1] = min(tried.values())
        k1 = min(scores, key=scores.__getitem__)
        if not scores[k1] < args.gain * scores[0.0]:
            k1 = 0.0
        print(
            f"{clip.name}: true k1 {true_k1:+.3f}, fitted {k1:+.3f} "
            f"(lopsided {scores[k1]:.1f} against {scores[0.0]:.1f} with none)",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
