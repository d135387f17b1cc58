"""How the die reader does on the frames of rendered clips, where the referee meets it.

The stills that ``gammoneye eval vision`` measures are cut from any camera, near or
far; a clip's camera stays where a player would put it, and its dice lie still for
seconds, read over and over. This reads every ``--every``-th still frame of each clip
with dice down (the clip's truth: settled, no hand, nothing in the air), the board
calibrated as the referee's is (the field's corners from ``clip.json``), matches each
die found to the truth's dice by where it lies in the picture (the truth's board
place projected through the clip's camera) and prints, per clip and in all: dice
found (and the detector's boxes' median size), value right (the reader's best), the
mean probability given to the true value and to the face read (what the referee's
``DiceConfidence`` watches, knowing no truth), cocked recall and flat dice called cocked,
and value right by the die's size in the picture, also for the dice read at
``SURE_P`` or more alone; with
``--calibration``, also how often the reader was right at each level of its best
probability (``confidence_bands``: is it as sure as it says?); with ``--confusion``,
for each clip and each player's dice, the true faces against the faces read.

``--crops OUT`` also cuts each matched die as ``gammoneye render export-crops`` does
(``OUT/dice.jsonl`` and ``OUT/dice/*.png``; the box is the detector's, shrunk to a
labelled box's size) so that ``gammoneye train dice --crops OUT`` can learn from them.

    python bench/clip_dice.py clips/s24 clips/s25 --every 10
    python bench/clip_dice.py clips/s22 --every 20 --crops crops/clips_s22
    python bench/clip_dice.py clips/s26 --dice-model old.onnx --dice-model new.onnx
    python bench/clip_dice.py clips/s172 --upright-model vision/models/dice_upright.onnx \
        --upright-model candidate.onnx
    python bench/clip_dice.py clips/s150 clips/s151 clips/s152 --every 5 --calibration
    python bench/clip_dice.py clips/s172/m18913_5p-16903 --every 2 --confusion
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from confidence_bands import band_lines

from gammoneye.datasets.render.camera import Camera
from gammoneye.datasets.render.crops import square_crop
from gammoneye.service.referee import CameraEyes, SourceError, rendered_clips
from gammoneye.vision.dice import VIEWS, DiceReader

#: The detector's boxes are about 1.18 times the labelled ones (bench/detector_boxes.py);
#: crops for training are cut at the labelled size, as export-crops cuts them.
DETECTOR_OVER_LABEL = 1.18
#: A found die is the truth's die when its centre is this near (pixels) its projection.
MATCH_PX = 14.0
#: Half a die's side (cm; rendered dice are 1.3 to 1.95): the height of its middle
#: over the board, where the truth's place is projected, and how far its edge lies
#: from there, for its size in the picture.
HALF_DIE_CM = 0.8
SIZES = ((0, 12), (12, 16), (16, 20), (20, 28), (28, 999))
#: A die read this sure: how often it is right, by its size (is the reader's
#: probability to be trusted on small dice?).
SURE_P = 0.95


def _project(camera: Camera, xy: list[tuple[float, float]], z: float) -> np.ndarray:
    """Board places (cm) at height ``z`` in the picture, as the renderer drew them."""
    return camera.project(np.array([(x, y, z) for x, y in xy], np.float64))


def still_frames(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows of a clip's ``frames.jsonl`` where the table is still: no hand,
    nothing in the air, no roll under way."""
    return [
        r
        for r in rows
        if not r.get("hands") and not r.get("in_air") and r.get("phase") != "rolling"
    ]


def still_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows of a clip's ``frames.jsonl`` whose dice lie still: dice down on a
    still table (:func:`still_frames`)."""
    return [r for r in still_frames(rows) if r.get("dice")]


@dataclass
class Tally:
    n: int = 0
    found: int = 0
    read: int = 0
    right: int = 0
    p_true: float = 0.0
    cocked: int = 0
    cocked_called: int = 0
    flat: int = 0
    flat_called: int = 0
    by_size: dict[tuple[int, int], list[int]] = field(
        default_factory=lambda: defaultdict(lambda: [0, 0])
    )
    #: by size, the dice read at ``SURE_P`` or more: [right, read]
    sure_by_size: dict[tuple[int, int], list[int]] = field(
        default_factory=lambda: defaultdict(lambda: [0, 0])
    )
    #: each die read: the reader's best probability, and whether its best was right
    best_p: list[float] = field(default_factory=list)
    best_right: list[bool] = field(default_factory=list)
    #: each die found: the detector's box, its larger side (pixels)
    box_px: list[float] = field(default_factory=list)
    #: each player's dice (the truth's ``owner``): [owner, true face - 1, face read - 1]
    confusion: np.ndarray = field(default_factory=lambda: np.zeros((2, 6, 6), np.int64))
    #: ... the dice of those read at ``SURE_P`` or more
    sure_confusion: np.ndarray = field(default_factory=lambda: np.zeros((2, 6, 6), np.int64))

    def add(self, other: Tally) -> None:
        """Counts add up, lists join, and the tables by size add cell by cell."""
        tables = ("by_size", "sure_by_size")
        for f in fields(self):
            if f.name not in tables:
                setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))
        for name in tables:
            mine = getattr(self, name)
            for key, cell in getattr(other, name).items():
                for k, v in enumerate(cell):
                    mine[key][k] += v

    def calibration(self) -> list[str]:
        """How often the dice read at each level of the best probability were right."""
        return band_lines(self.best_p, self.best_right)

    def confusion_lines(self) -> list[str]:
        """Each player's dice as a table, true faces down, faces read across (all
        read / read at ``SURE_P`` or more): is a look's misreading the same each time?"""
        lines = []
        for owner in (0, 1):
            table, sure = self.confusion[owner], self.sure_confusion[owner]
            if not table.sum():
                continue
            right = int(np.trace(table))
            lines.append(
                f"player {owner}'s dice: {right} / {int(table.sum())} read right;"
                f" true face down, read as 1..6 across (all / read at {SURE_P} or more)"
            )
            for face in range(6):
                cells = " ".join(
                    f"{int(table[face, k]):>4}/{int(sure[face, k]):<4}" for k in range(6)
                )
                lines.append(f"  {face + 1}: {cells}")
        return lines

    def line(self) -> str:
        def pct(a: float, b: float) -> str:
            return f"{100 * a / b:.2f} %" if b else "-"

        def sized(table: dict[tuple[int, int], list[int]]) -> str:
            parts = []
            for lo, hi in SIZES:
                right, n = table[(lo, hi)]
                if n:
                    parts.append(f"{lo}-{hi if hi < 999 else ''}px {pct(right, n)} ({n})")
            return " ".join(parts)

        boxed = f", boxed at {np.median(self.box_px):.1f} px (median)" if self.box_px else ""
        if not self.read:
            return f"dice {self.n}, found {pct(self.found, self.n)}{boxed} (none read)"
        return (
            f"dice {self.n}, found {pct(self.found, self.n)}{boxed},"
            f" value right {pct(self.right, self.read)} of found,"
            f" p(true) {self.p_true / max(1, self.read):.3f},"
            f" p(best) {np.mean(self.best_p):.3f}; cocked recall"
            f" {pct(self.cocked_called, self.cocked)} of {self.cocked}, flat called cocked"
            f" {pct(self.flat_called, self.flat)}; by size: {sized(self.by_size)};"
            f" read at {SURE_P} or more, by size: {sized(self.sure_by_size)}"
        )


def measure(
    clip: Path,
    every: int,
    crops: Path | None,
    index: Any,
    rng: np.random.Generator,
    dice_model: Path | None = None,
    cut_only: bool = False,
    views: int | None = None,
    upright_model: Path | None = None,
) -> Tally:
    """Read the still frames with dice of ``clip`` (every ``every``-th) and tally the
    dice; with ``crops``, cut the matched dice there (``index``: its dice.jsonl, open).
    ``cut_only``: only find the dice (the detector, not the whole reading) and cut
    them; the tally then counts dice found, none read. ``views``: quarter turns of
    each crop the die reader reads (default: what vision uses). ``upright_model``:
    the shipped turned reader paired with this upright one (``dice_upright.onnx``'s
    place; ignored with ``dice_model``, which is read alone)."""
    meta = json.loads((clip / "clip.json").read_text("utf-8"))
    camera = Camera.from_dict(meta["camera"])
    rows = [json.loads(line) for line in (clip / "frames.jsonl").read_text().splitlines()]
    eyes = CameraEyes(meta["bottom_player"], meta.get("field_corners_px"))
    if dice_model is not None or views is not None or upright_model is not None:
        eyes.reader.dice = DiceReader.load(
            dice_model, views=views or VIEWS, upright=None if dice_model else upright_model
        )
    detector = eyes.reader.detector
    found_boxes: list[Any] = []
    detect = detector.detect_on_board

    def recording(image: Any, corners: Any, **kw: Any) -> Any:
        out = detect(image, corners, **kw)
        found_boxes[:] = out
        return out

    detector.detect_on_board = recording  # type: ignore[method-assign]
    tally = Tally()
    for row in still_rows(rows)[::every]:
        image = cv2.imread(str(clip / "frames" / f"{row['frame']:06d}.jpg"), cv2.IMREAD_COLOR)
        if image is None:
            continue
        truth = [d for d in row["dice"] if d.get("at") is not None]
        profile = eyes._profile(image)
        if profile is None or not truth:
            continue
        if cut_only:
            detections = [
                b for b in detector.detect_on_board(image, profile.corners()) if b.kind != "cube"
            ]
            reading = None
        else:
            reading = eyes.reader.read(image, profile)
            detections = list(found_boxes)
        centres = _project(camera, [tuple(d["at"]) for d in truth], HALF_DIE_CM)
        side = _project(
            camera, [(d["at"][0] + HALF_DIE_CM, d["at"][1]) for d in truth], HALF_DIE_CM
        )
        # each found die: its centre, and its reading where read
        found: list[tuple[tuple[float, float], Any]] = (
            [(b.centre, None) for b in detections]
            if reading is None
            else [(r.image_xy, r) for r in reading.dice if r.image_xy is not None]
        )
        boxes = {tuple(np.round(b.centre, 1)): b.box for b in detections}
        used: set[int] = set()
        for d, c, s in zip(truth, centres, side, strict=True):
            tally.n += 1
            size = 2 * float(np.linalg.norm(s - c))
            bucket = next(b for b in SIZES if b[0] <= size < b[1])
            best, dist = None, MATCH_PX
            for k, (xy, _) in enumerate(found):
                e = float(np.hypot(xy[0] - c[0], xy[1] - c[1]))
                if k not in used and e < dist:
                    best, dist = k, e
            if best is None:
                continue
            used.add(best)
            xy, r = found[best]
            tally.found += 1
            box = boxes.get(tuple(np.round(xy, 1)))
            if box is not None:
                tally.box_px.append(float(max(box[2] - box[0], box[3] - box[1])))
            if crops is not None and box is not None:
                _cut(image, box, crops, index, rng, f"{clip.name}-{row['frame']:06d}-{best}", d)
            if r is None:
                continue
            tally.read += 1
            value = max(r.values, key=lambda v: r.values[v])
            ok = value == d["value"]
            tally.right += ok
            tally.p_true += r.values.get(d["value"], 0.0)
            tally.by_size[bucket][0] += ok
            tally.by_size[bucket][1] += 1
            tally.best_p.append(r.values[value])
            tally.best_right.append(ok)
            owner = int(d.get("owner", 0)) % 2
            tally.confusion[owner, d["value"] - 1, value - 1] += 1
            if r.values[value] >= SURE_P:
                tally.sure_by_size[bucket][0] += ok
                tally.sure_by_size[bucket][1] += 1
                tally.sure_confusion[owner, d["value"] - 1, value - 1] += 1
            if d.get("cocked"):
                tally.cocked += 1
                tally.cocked_called += r.cocked >= 0.5
            else:
                tally.flat += 1
                tally.flat_called += r.cocked >= 0.5
    return tally


def _cut(
    image: Any,
    box: tuple[float, float, float, float],
    crops: Path,
    index: Any,
    rng: np.random.Generator,
    name: str,
    die: dict[str, Any],
) -> None:
    """Cut one die as export-crops does, at the labelled size the detector's ``box``
    stands for, with the truth's labels."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    h = max(box[2] - box[0], box[3] - box[1]) / DETECTOR_OVER_LABEL / 2
    cv2.imwrite(
        str(crops / "dice" / f"{name}.png"),
        square_crop(image, [cx - h, cy - h, cx + h, cy + h], 64, rng),
    )
    entry = {
        "file": f"dice/{name}.png",
        "value": die["value"],
        "cocked": bool(die.get("cocked")),
        "on_checker": bool(die.get("on_checker")),
        "off_board": bool(die.get("off_board")),
        "truncated": False,
        "box_px": round(2 * h, 1),
    }
    index.write(json.dumps(entry) + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("clips", type=Path, nargs="+", help="rendered clips or folders of them")
    ap.add_argument("--every", type=int, default=10, help="read every n-th still frame with dice")
    ap.add_argument("--crops", type=Path, help="also cut the matched dice into this folder")
    ap.add_argument("--seed", type=int, default=0, help="seed of the crops' shift")
    ap.add_argument(
        "--cut-only",
        action="store_true",
        help="with --crops: only find and cut the dice (the detector alone, much faster)",
    )
    ap.add_argument(
        "--dice-model",
        type=Path,
        action="append",
        default=[],
        help="read with this die reader (ONNX) in place of the shipped one; repeat to"
        " compare several in one run (each printed in turn)",
    )
    ap.add_argument(
        "--upright-model",
        type=Path,
        action="append",
        default=[],
        help="read with the shipped dice.onnx paired with this upright reader (ONNX) in"
        " place of dice_upright.onnx; repeat to compare several (each printed in turn)",
    )
    ap.add_argument(
        "--views",
        type=int,
        choices=(1, 2, 3, 4),
        help="quarter turns of each crop the die reader reads (default: what vision uses)",
    )
    ap.add_argument(
        "--calibration",
        action="store_true",
        help="also print, by the reader's best probability, how often it was right",
    )
    ap.add_argument(
        "--confusion",
        action="store_true",
        help="also print, for each clip and each player's dice, the true faces against"
        " the faces read",
    )
    args = ap.parse_args(argv)
    try:
        clips = rendered_clips(args.clips)
    except SourceError as e:
        ap.error(str(e))
    if args.every < 1:
        ap.error("--every must be 1 or more")
    if args.cut_only and args.crops is None:
        ap.error("--cut-only cuts dice: give --crops OUT")
    readers = [(m, None) for m in args.dice_model] + [(None, u) for u in args.upright_model]
    if args.crops is not None and len(readers) > 1:
        ap.error("--crops cuts the dice once: give at most one --dice-model or --upright-model")
    for model in args.dice_model + args.upright_model:
        if not model.is_file():
            ap.error(f"{model}: no such model file")
    index = None
    if args.crops is not None:
        (args.crops / "dice").mkdir(parents=True, exist_ok=True)
        index = (args.crops / "dice.jsonl").open("a")
    rng = np.random.default_rng(args.seed)
    for model, upright in readers or [(None, None)]:
        if model is not None:
            print(f"die reader {model}")
        if upright is not None:
            print(f"die reader: the shipped dice.onnx with {upright} upright")
        total = Tally()
        for clip in clips:
            t = measure(
                clip, args.every, args.crops, index, rng, model, args.cut_only, args.views, upright
            )
            print(f"{clip.name}: {t.line()}", flush=True)
            if args.confusion:
                for line in t.confusion_lines():
                    print(f"  {line}", flush=True)
            total.add(t)
        print(f"all: {total.line()}")
        if args.calibration:
            print("all, by the best probability:")
            for band in total.calibration():
                print(f"  {band}")
    if index is not None:
        index.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
