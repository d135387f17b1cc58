"""How well the bar's width is measured in a picture (``calibration.barwidth``).

For labelled stills runs (``gammoneye render stills``) every picture with its field
in view; for rendered clips (``gammoneye render clip``) each clip's first frame, its
board's geometry drawn again from the clip's seed. Prints, per run, the error of
the share measured against the board's (mean, spread, largest, how many beyond
0.01) and the time per picture:

    python bench/bar_width.py renders/val renders/held_styles clips/s33

A share off by 0.01 moves the strips of the points by the bar a twelfth of a
point width.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import cv2
import numpy as np

from gammoneye.calibration.barwidth import fit_bar_fraction
from gammoneye.calibration.boardspace import canonical_corners


def stills(run: Path) -> list[tuple[np.ndarray, np.ndarray, float]]:
    out = []
    for path in sorted((run / "labels").glob("*.json")):
        label = json.loads(path.read_text())
        field = label["board"]["field_corners_px"]
        if field is None:
            continue
        g = label["board"]["geometry"]
        image = cv2.imread(str(run / label["image"]), cv2.IMREAD_COLOR)
        share = g["bar_width"] / (12 * g["point_width"] + g["bar_width"])
        out.append((image, np.array(field, np.float64), share))
    return out


def clips(folder: Path) -> list[tuple[np.ndarray, np.ndarray, float]]:
    from gammoneye.datasets.render.clip import ClipConfig, clip_look

    out = []
    for meta_path in sorted(folder.glob("*/clip.json")):
        meta = json.loads(meta_path.read_text())
        cfg = ClipConfig(mat_text="", mat_name=meta["source_mat"], out=folder, seed=meta["seed"])
        g = clip_look(cfg, np.random.default_rng([cfg.seed, 0xC11])).setup.geometry
        first = sorted((meta_path.parent / "frames").glob("*.jpg"))[0]
        image = cv2.imread(str(first), cv2.IMREAD_COLOR)
        field = np.array(meta["field_corners_px"], np.float64)
        out.append((image, field, g.bar_share))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("runs", type=Path, nargs="+", help="stills runs or folders of clips")
    args = ap.parse_args()
    for run in args.runs:
        cases = stills(run) if (run / "labels").is_dir() else clips(run)
        if not cases:
            print(f"{run}: no labelled stills and no clips")
            continue
        errors, seconds, unmeasured = [], [], 0
        for image, field, truth in cases:
            corners = canonical_corners(
                field, (image.shape[1], image.shape[0]), long_side_first=True
            )
            start = time.perf_counter()
            found = fit_bar_fraction(image, corners)
            seconds.append(time.perf_counter() - start)
            if found is None:
                unmeasured += 1
            else:
                errors.append(found - truth)
        e = np.array(errors)
        print(
            f"{run}: {len(cases)} pictures, {unmeasured} not measured; error mean {e.mean():+.4f}, "
            f"sd {e.std():.4f}, largest {np.abs(e).max():.4f}, beyond 0.01: "
            f"{int((np.abs(e) > 0.01).sum())}; {np.median(seconds) * 1000:.1f} ms a picture"
        )


if __name__ == "__main__":
    main()
