"""Shared by the detector benches: the dice and cube of labelled stills, each paired
with the detection nearest to it, seen as a calibrated match sees them.

Not a script; ``bench/detector_boxes.py`` and ``bench/cocked_threshold.py`` import it.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from gammoneye.calibration.boardspace import canonical_corners
from gammoneye.vision.detector import Detection, DiceCubeDetector, canvas_homography


@dataclass(frozen=True)
class Pair:
    kind: str  # "die", "cocked die" or "cube"
    truth: dict[str, Any]  # the label's die or cube
    found: Detection  # the detection nearest to it
    image: np.ndarray  # the still it is in (BGR)


def side(box: Any) -> float:
    """The larger side of a box (x0, y0, x1, y1)."""
    return float(max(box[2] - box[0], box[3] - box[1]))


def nearest(found: list[Detection], centre: np.ndarray, radius: float) -> Detection | None:
    """The detection whose centre is nearest to ``centre``, if within ``radius``."""
    best = min(found, key=lambda d: float(np.hypot(*(np.array(d.centre) - centre))), default=None)
    if best is None or float(np.hypot(*(np.array(best.centre) - centre))) > radius:
        return None
    return best


def run_and_count(doc: str, n: int, *, max_false: bool = False) -> argparse.Namespace:
    """A bench's command line: a stills run (``run``) and how many of its stills to
    read (``--n``, default ``n``); with ``max_false``, the share of flat dice an
    operating point may call cocked (``--max-false``, default 1 %). ``doc``'s first
    paragraph is the help."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("run", type=Path, help="a labelled stills run (gammoneye render stills)")
    ap.add_argument("--n", type=int, default=n, help=f"stills to read (default {n})")
    if max_false:
        ap.add_argument("--max-false", type=float, default=0.01, help="false alarms allowed")
    return ap.parse_args()


def stills(run: Path, n: int) -> list[Path]:
    """The first ``n`` label files of a stills run; exits with a message if none."""
    files = sorted((run / "labels").glob("*.json"))[:n]
    if not files:
        raise SystemExit(f"{run} has no labels/*.json: not a stills run")
    return files


def with_corners(
    run: Path, files: list[Path]
) -> Iterator[tuple[dict[str, Any], np.ndarray, np.ndarray]]:
    """Each still's label, picture (BGR) and the label's true field corners in
    canonical order (a calibrated match); stills without either skipped."""
    for path in files:
        label = json.loads(path.read_text())
        field = label["board"]["field_corners_px"]
        image = cv2.imread(str(run / label["image"]), cv2.IMREAD_COLOR)
        if field is None or image is None:
            continue
        size = (image.shape[1], image.shape[0])
        corners = canonical_corners(np.array(field, np.float64), size, long_side_first=True)
        yield label, image, corners


def calibrated(run: Path, files: list[Path]) -> Iterator[tuple[dict[str, Any], np.ndarray, Any]]:
    """Each still's label, picture (BGR) and image -> canvas homography from the
    label's true field corners (:func:`with_corners`)."""
    for label, image, corners in with_corners(run, files):
        yield label, image, canvas_homography(corners, ordered=True)


def pairs(run: Path, files: list[Path], detector: DiceCubeDetector) -> Iterator[Pair]:
    """Every labelled die and cube in view (not cut off by the picture's edge) with the
    detection nearest to it, within half its box's side; the detector looks at the
    canvas warped from the label's true field corners."""
    for label, image, homography in calibrated(run, files):
        found = detector.detect(image, homography)
        objects = [("cocked die" if d["cocked"] else "die", d) for d in label["dice"]]
        if label.get("cube"):
            objects.append(("cube", label["cube"]))
        for kind, obj in objects:
            if not obj.get("box") or not obj["in_image"] or obj["truncated"]:
                continue
            usable = [d for d in found if (d.kind == "cube") == (kind == "cube")]
            match = nearest(usable, np.array(obj["centre_px"]), side(obj["box"]) / 2)
            if match is not None:
                yield Pair(kind, obj, match, image)
