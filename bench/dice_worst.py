"""Where the die reader fails on labelled dice crops, and a contact sheet of it.

For each crop folder (``gammoneye render export-crops`` of a stills run that still
lies beside it as ``renders/NAME`` for crops ``crops/NAME``), reads every die of at
least 14 px that the picture does not cut off, as ``gammoneye eval dice`` does, and
prints the value accuracy for sharp dice and for blurred ones: motion blur over
``--motion`` of the die's side, or defocus over ``--defocus`` of it (the still's
``effects``, ``docs/render-labels.md``). ``--sheet`` writes the flat dice of 20 px
and more read wrong (true -> read, p; size), up to 48.

    python bench/dice_worst.py crops/held_styles crops/held_seeds --sheet docs/dice-worst.png
"""

from __future__ import annotations

import argparse
import functools
import json
from pathlib import Path

import cv2
import numpy as np

from gammoneye.datasets.train_dice import MIN_BOX_PX
from gammoneye.datasets.training import read_crops
from gammoneye.vision.dice import DiceReader

SHEET_MIN_PX = 20.0
TILE = 128


@functools.cache
def _effects(crops: Path, image: str) -> dict[str, float]:
    """The still's ``effects`` (read once per still, however many dice it has)."""
    label = crops.parent.parent / "renders" / crops.name / "labels" / (Path(image).stem + ".json")
    if not label.is_file():
        raise SystemExit(f"no label {label}: the stills run must lie in renders/{crops.name}")
    return dict(json.loads(label.read_text())["effects"])


def _tile(crop: np.ndarray, top: str, bottom: str) -> np.ndarray:
    t = cv2.resize(crop, (TILE, TILE), interpolation=cv2.INTER_NEAREST)
    cv2.putText(t, top, (2, 12), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 255), 1)
    cv2.putText(t, bottom, (2, TILE - 4), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 255, 255), 1)
    return t


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("crops", type=Path, nargs="+", help="crop folders (crops/NAME)")
    ap.add_argument("--model", type=Path, help="the die reader (default: the shipped one)")
    ap.add_argument("--motion", type=float, default=0.15, help="blurred: motion / side")
    ap.add_argument("--defocus", type=float, default=0.08, help="blurred: defocus / side")
    ap.add_argument("--sheet", type=Path, help="contact sheet PNG of the worst dice")
    args = ap.parse_args()
    reader = DiceReader.load(args.model)
    tiles: list[np.ndarray] = []
    for folder in args.crops:
        items, crops = [], []
        for img, item in read_crops(
            [folder],
            "dice.jsonl",
            (64, 64),
            lambda it: it.get("box_px", MIN_BOX_PX) >= MIN_BOX_PX and not it.get("truncated"),
        ):
            items.append(item)
            crops.append(img)
        values, _ = reader.read(np.stack(crops))
        said = values.argmax(1) + 1
        ok = said == np.array([it["value"] for it in items])
        box = np.array([it["box_px"] for it in items])
        fx = [_effects(folder, it["image"]) for it in items]
        sharp = (np.array([f["motion_px"] for f in fx]) < args.motion * box) & (
            np.array([f["defocus_sigma"] for f in fx]) < args.defocus * box
        )
        print(
            f"{folder}: {len(ok)} dice, value right {ok.mean() * 100:.2f} %; sharp "
            f"{ok[sharp].mean() * 100:.2f} % of {int(sharp.sum())}, blurred "
            f"{ok[~sharp].mean() * 100:.2f} % of {int((~sharp).sum())}"
        )
        for k, item in enumerate(items):
            if not ok[k] and not item["cocked"] and item["box_px"] >= SHEET_MIN_PX:
                top = f"{item['value']}->{said[k]} {values[k].max():.2f}"
                tiles.append(_tile(crops[k], top, f"{item['box_px']}px"))
    if args.sheet and tiles:
        tiles = tiles[:48]
        while len(tiles) % 8:
            tiles.append(np.zeros_like(tiles[0]))
        rows = [np.hstack(tiles[i : i + 8]) for i in range(0, len(tiles), 8)]
        cv2.imwrite(str(args.sheet), np.vstack(rows))
        print(f"wrote {args.sheet}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
