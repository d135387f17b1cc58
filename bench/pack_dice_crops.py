"""Pack dice crop folders into one small folder that a lent GPU machine can be sent.

A lent machine takes 64 MiB with the checkout (``vision/models/README.md``), and the
dice cut from clips' frames (``bench/clip_dice.py --crops``) are 64 px PNGs of about
7 KB each: some forty clips make 180 MB. This keeps every ``--every``-th die of each
folder that training would use (not cut off by the picture's edge, its box at least
``--min-box`` pixels), resized to the die reader's input (48 px, as training resizes
it) and saved as JPEG (the clips' frames are JPEGs already), about 1.7 KB a die, with
one ``dice.jsonl`` index, as ``gammoneye train dice --crops`` and ``train_bulk
--crops`` read it. Prints how many dice it kept, by box size.

    python bench/pack_dice_crops.py crops/clipdice/* --out devcarry/clipdice --every 3
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import cv2

from gammoneye.datasets.train_dice import TRAIN_MIN_BOX_PX
from gammoneye.vision.dice import SIZE


def pack(
    folders: list[Path],
    out: Path,
    every: int = 1,
    min_box: float = TRAIN_MIN_BOX_PX,
    quality: int = 95,
) -> Counter[int]:
    """Pack ``folders`` into ``out`` (see the module's docstring); returns how many
    dice were kept by box size (pixels, rounded down to a multiple of 4)."""
    if out.exists() and any(out.iterdir()):
        raise ValueError(f"{out} is not empty: choose a new folder")
    (out / "dice").mkdir(parents=True, exist_ok=True)
    sizes: Counter[int] = Counter()
    with (out / "dice.jsonl").open("w") as index:
        for folder in folders:
            rows = [json.loads(line) for line in (folder / "dice.jsonl").read_text().splitlines()]
            for k, row in enumerate(rows):
                if k % every or row.get("truncated") or row.get("box_px", 0.0) < min_box:
                    continue
                img = cv2.imread(str(folder / row["file"]), cv2.IMREAD_COLOR)
                if img is None:
                    raise ValueError(f"cannot read {folder / row['file']}")
                img = cv2.resize(img, (SIZE, SIZE), interpolation=cv2.INTER_AREA)
                name = f"dice/{folder.name}-{Path(row['file']).stem}.jpg"
                cv2.imwrite(str(out / name), img, [cv2.IMWRITE_JPEG_QUALITY, quality])
                index.write(json.dumps({**row, "file": name}) + "\n")
                sizes[int(row["box_px"] // 4 * 4)] += 1
    return sizes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", type=Path, nargs="+", help="crop folders with a dice.jsonl")
    ap.add_argument("--out", type=Path, required=True, help="the folder to make (absent or empty)")
    ap.add_argument("--every", type=int, default=1, help="keep every n-th die of each folder")
    ap.add_argument(
        "--min-box", type=float, default=TRAIN_MIN_BOX_PX, help="smallest box kept (pixels)"
    )
    args = ap.parse_args(argv)
    if args.every < 1:
        ap.error("--every must be 1 or more")
    for folder in args.folders:
        if not (folder / "dice.jsonl").is_file():
            ap.error(f"{folder}: no dice.jsonl there (not a crop folder)")
    try:
        sizes = pack(args.folders, args.out, args.every, args.min_box)
    except ValueError as exc:
        ap.error(str(exc))
    by_size = ", ".join(f"{s}-{s + 4} px {n}" for s, n in sorted(sizes.items()))
    print(f"kept {sum(sizes.values())} dice in {args.out} ({by_size})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
