"""The detector's least score for dice with no board (``vision dice``), on real photos.

For each score in ``--scores``, every photo of each folder (``NAME.jpg`` + YOLO
``NAME.txt``, as ``../shared/data/dice-photos/Train``) is searched the way
``vision dice`` searches it (:meth:`DiceCubeDetector.detect_anywhere`) with boxes
of that score or more, and the dice found are read. Prints, per score: labelled dice
found (the same die, :class:`gammoneye.vision.dice.FoundReport`), of those at
IoU >= 0.5, read right, and extra boxes; then the score with the most dice found less
extra boxes. ``ANYWHERE_MIN_SCORE`` was chosen this way on ``Train/`` (the split the
detector was fine-tuned on; ``Valid/`` is held out and only reported).

Usage: python bench/photo_threshold.py FOLDER [FOLDER ...] [--scores 0.3 0.2 0.15]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from gammoneye.vision.detector import ANYWHERE_MIN_SCORE, DiceCubeDetector
from gammoneye.vision.dice import DiceReader, evaluate_found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", type=Path, nargs="+", help="folders of labelled photos")
    ap.add_argument("--scores", type=float, nargs="+", default=[0.4, 0.3, 0.25, 0.2, 0.15, 0.1])
    args = ap.parse_args()
    for folder in args.folders:
        if not any(folder.glob("*.txt")):
            ap.error(f"{folder}: no labelled photos (NAME.jpg with NAME.txt) there")
    detector, reader = DiceCubeDetector.load(), DiceReader.load()
    print(f"shipped ANYWHERE_MIN_SCORE {ANYWHERE_MIN_SCORE}")
    for folder in args.folders:
        best = None
        for score in args.scores:
            r = evaluate_found(detector, reader, folder, min_score=score)
            print(
                f"{folder} score {score:.2f}: found {r.found}/{r.dice} (IoU >= 0.5: "
                f"{r.found_iou}), read right {r.read_right}, extra {r.extra}",
                flush=True,
            )
            if best is None or r.found - r.extra > best[1]:
                best = (score, r.found - r.extra)
        assert best is not None
        print(f"{folder}: most found less extra at score {best[0]:.2f} ({best[1]})")


if __name__ == "__main__":
    main()
