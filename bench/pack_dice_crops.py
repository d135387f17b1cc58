"""Pack dice crop folders into one small folder that a lent GPU machine can be sent.

A lent machine takes 64 MiB with the checkout (``docs/vision-benchmarks.md``,
session 72), and the dice cut from clips' frames (``bench/clip_dice.py --crops``) are
64 px PNGs of about 7 KB each: some forty clips make 180 MB. This keeps every
``--every``-th die of each folder that training would use (not cut off by the
picture's edge, its box at least ``--min-box`` pixels), resized to the die reader's
input (48 px, as training resizes it) and saved as JPEG (the clips' frames are JPEGs
already), about 1.7 KB a die, with one ``dice.jsonl`` index, as ``gammoneye train
dice --crops`` and ``train_bulk --crops`` read it. Prints how many dice it kept, by
box size.

    python bench/pack_dice_crops.py crops/clipdice/* --out devcarry/clipdice --every 3

``--hard P`` also keeps, whatever row ``--every`` falls on, every die the shipped die
reader (both networks, as the referee reads a crop) gives its true face less than
``P``: the looks it reads wrong or unsure are kept whole, the rest thinned, so that a
fine-tune spends its steps where the reader is weak.

    python bench/pack_dice_crops.py crops/clipdice/* --out crops/clipdice80 --every 3 --hard 0.9

``--photos DIR`` packs real dice photos instead (``NAME.jpg`` with YOLO labels in
``NAME.txt``, as ``--photos`` of the trainers reads them): each photo cut to its
dice and a margin of 1.2 times the largest die's side (more than a crop of 1.6
times the box, jittered, reaches), its labels moved to match, JPEG at quality 95.
The photos' ``Train/`` falls from 17.7 to 5.5 MB; the crops training cuts from them
differ by about 1 of 255 per pixel (the JPEG saved again).

    python bench/pack_dice_crops.py --photos ../shared/data/dice-photos/Train \
        --out devcarry/photos_crop
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from itertools import islice
from pathlib import Path

import cv2
import numpy as np

from gammoneye.datasets.train_dice import TRAIN_MIN_BOX_PX, readable_die
from gammoneye.datasets.training import read_crops
from gammoneye.vision.dice import SIZE, DiceReader, labelled_photos

#: dice read by the shipped reader at a time (``--hard``)
HARD_BATCH = 256


def _true_face_p(folder: Path, rows: list[dict], reader: DiceReader) -> list[float]:
    """The probability ``reader`` gives each row's true face (``rows``: entries of
    the folder's ``dice.jsonl``, in its order), its crop loaded as training loads it."""
    wanted = {row["file"] for row in rows}
    loaded = read_crops([folder], "dice.jsonl", (SIZE, SIZE), lambda item: item["file"] in wanted)
    crops = (img for img, _ in loaded)  # a batch at a time, not the whole folder at once
    out: list[float] = []
    for start in range(0, len(rows), HARD_BATCH):
        batch = rows[start : start + HARD_BATCH]
        values, _ = reader.read(np.stack(list(islice(crops, len(batch)))))
        out.extend(float(values[i, int(r["value"]) - 1]) for i, r in enumerate(batch))
    return out


def pack(
    folders: list[Path],
    out: Path,
    every: int = 1,
    min_box: float = TRAIN_MIN_BOX_PX,
    quality: int = 95,
    hard: float | None = None,
    hard_kept: list[int] | None = None,
) -> Counter[int]:
    """Pack ``folders`` into ``out`` (see the module's docstring); returns how many
    dice were kept by box size (pixels, rounded down to a multiple of 4; -1: a row
    with no ``box_px``, kept as training keeps it). ``hard``: also keep the dice the
    shipped reader gives their true face less than this; how many of those
    ``--every`` would have left out is added to ``hard_kept[0]``."""
    if out.exists() and any(out.iterdir()):
        raise ValueError(f"{out} is not empty: choose a new folder")
    (out / "dice").mkdir(parents=True, exist_ok=True)
    sizes: Counter[int] = Counter()
    reader = DiceReader.load() if hard is not None else None
    with (out / "dice.jsonl").open("w") as index:
        for folder in folders:
            rows = [json.loads(line) for line in (folder / "dice.jsonl").read_text().splitlines()]
            readable = [k for k, row in enumerate(rows) if readable_die(row, min_box)]
            keep = {k for k in readable if k % every == 0}
            if reader is not None and hard is not None:
                unread = [k for k in readable if k not in keep]
                p = _true_face_p(folder, [rows[k] for k in unread], reader)
                more = {k for k, pk in zip(unread, p, strict=True) if pk < hard}
                keep |= more
                if hard_kept is not None:
                    hard_kept[0] += len(more)
            for k, row in enumerate(rows):
                if k not in keep:
                    continue
                img = cv2.imread(str(folder / row["file"]), cv2.IMREAD_COLOR)
                if img is None:
                    raise ValueError(f"cannot read {folder / row['file']}")
                img = cv2.resize(img, (SIZE, SIZE), interpolation=cv2.INTER_AREA)
                name = f"dice/{folder.name}-{Path(row['file']).stem}.jpg"
                cv2.imwrite(str(out / name), img, [cv2.IMWRITE_JPEG_QUALITY, quality])
                index.write(json.dumps({**row, "file": name}) + "\n")
                sizes[int(row["box_px"] // 4 * 4) if "box_px" in row else -1] += 1
    return sizes


#: A packed photo keeps this many times its largest die's side round its dice.
PHOTO_MARGIN = 1.2


def pack_photos(src: Path, out: Path, quality: int = 95) -> int:
    """Pack the dice photos of ``src`` into ``out`` (see the module's docstring);
    returns how many dice they hold. Photos with no labelled die are left out."""
    if out.exists() and any(out.iterdir()):
        raise ValueError(f"{out} is not empty: choose a new folder")
    out.mkdir(parents=True, exist_ok=True)
    dice = 0
    for photo, img, labelled in labelled_photos(src):
        h, w = img.shape[:2]
        boxes = [(cls, *box) for cls, box in labelled]
        if not boxes:
            continue
        margin = PHOTO_MARGIN * max(max(b[3] - b[1], b[4] - b[2]) for b in boxes)
        x0 = max(0, int(min(b[1] for b in boxes) - margin))
        y0 = max(0, int(min(b[2] for b in boxes) - margin))
        x1 = min(w, int(max(b[3] for b in boxes) + margin + 1))
        y1 = min(h, int(max(b[4] for b in boxes) + margin + 1))
        cw, ch = x1 - x0, y1 - y0
        cv2.imwrite(str(out / photo.name), img[y0:y1, x0:x1], [cv2.IMWRITE_JPEG_QUALITY, quality])
        labels = [
            f"{c} {((a + b) / 2 - x0) / cw:.6f} {((t + u) / 2 - y0) / ch:.6f} "
            f"{(b - a) / cw:.6f} {(u - t) / ch:.6f}"
            for c, a, t, b, u in boxes
        ]
        (out / photo.with_suffix(".txt").name).write_text("\n".join(labels) + "\n")
        dice += len(boxes)
    return dice


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", type=Path, nargs="*", help="crop folders with a dice.jsonl")
    ap.add_argument("--photos", type=Path, help="pack this folder of dice photos instead")
    ap.add_argument("--out", type=Path, required=True, help="the folder to make (absent or empty)")
    ap.add_argument("--every", type=int, default=1, help="keep every n-th die of each folder")
    ap.add_argument(
        "--min-box", type=float, default=TRAIN_MIN_BOX_PX, help="smallest box kept (pixels)"
    )
    ap.add_argument(
        "--hard",
        type=float,
        help="also keep every die the shipped reader gives its true face less than this"
        " probability (0..1), whatever row --every falls on",
    )
    args = ap.parse_args(argv)
    if args.hard is not None and not 0.0 < args.hard <= 1.0:
        ap.error("--hard is a probability: give a number in (0, 1]")
    if args.photos is not None:
        if args.folders:
            ap.error("--photos packs photos alone: give no crop folders with it")
        if not args.photos.is_dir():
            ap.error(f"--photos {args.photos}: no such folder")
        try:
            dice = pack_photos(args.photos, args.out)
        except ValueError as exc:
            ap.error(str(exc))
        print(f"kept {dice} dice of the photos of {args.photos} in {args.out}")
        return 0
    if not args.folders:
        ap.error("give crop folders to pack, or --photos DIR")
    if args.every < 1:
        ap.error("--every must be 1 or more")
    for folder in args.folders:
        if not (folder / "dice.jsonl").is_file():
            ap.error(f"{folder}: no dice.jsonl there (not a crop folder)")
    hard_kept = [0]
    try:
        sizes = pack(
            args.folders, args.out, args.every, args.min_box, hard=args.hard, hard_kept=hard_kept
        )
    except ValueError as exc:
        ap.error(str(exc))
    by_size = ", ".join(
        f"{s}-{s + 4} px {n}" if s >= 0 else f"size unknown {n}" for s, n in sorted(sizes.items())
    )
    print(f"kept {sum(sizes.values())} dice in {args.out} ({by_size})")
    if args.hard is not None:
        print(f"of them {hard_kept[0]} read below {args.hard} that --every left out")
    return 0


if __name__ == "__main__":
    sys.exit(main())
