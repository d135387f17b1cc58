"""Contact sheets: many images on one PNG, to look at a run (or a model's failures).

``contact_sheet`` tiles the images of a folder (a stills run's ``images/`` or any
folder of JPEG/PNG files), optionally with their labels drawn on (``boxes``) and a
second group of images (``beside``, e.g. real photos) under a caption of its own.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

U8 = NDArray[np.uint8]
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")


class SheetError(ValueError):
    """Nothing to put on a sheet, or an image that cannot be read."""


def image_files(folder: Path) -> list[Path]:
    """The images of a folder, or of its ``images/`` subfolder for a stills run."""
    if not folder.is_dir():
        raise SheetError(f"not a folder: {folder}")
    if (folder / "images").is_dir():
        folder = folder / "images"
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not files:
        raise SheetError(f"no images (.jpg, .png) in {folder}")
    return files


def _label_for(image: Path) -> dict | None:  # type: ignore[type-arg]
    label = image.parent.parent / "labels" / (image.stem + ".json")
    if label.exists():
        return json.loads(label.read_text())  # type: ignore[no-any-return]
    return None


def draw_label(img: U8, label: dict) -> None:  # type: ignore[type-arg]
    """Draw a label's board corners, point bases, checker/die/cube boxes onto ``img``."""
    if label["board"]["field_corners_px"] is not None:  # None: partly behind a close-up camera
        corners = np.array(label["board"]["field_corners_px"], np.float32)
        cv2.polylines(
            img, [np.round(corners).astype(np.int32)], True, (0, 255, 255), 2, cv2.LINE_AA
        )
    for p in label["regions"]["points"]:
        if p["base_px"] is not None:
            x, y = p["base_px"]
            cv2.circle(img, (int(x), int(y)), 3, (255, 255, 0), -1)
    for c in label["checkers"]:
        if c["box"]:
            x0, y0, x1, y1 = (int(v) for v in c["box"])
            cv2.rectangle(
                img, (x0, y0), (x1, y1), (0, 200, 0) if c["owner"] == 0 else (200, 0, 200), 1
            )
    for d in label["dice"]:
        if d["box"]:
            x0, y0, x1, y1 = (int(v) for v in d["box"])
            colour = (0, 0, 255) if d["cocked"] else (255, 128, 0)
            cv2.rectangle(img, (x0, y0), (x1, y1), colour, 2)
            cv2.putText(
                img, str(d["value"]), (x0, y0 - 3), cv2.FONT_HERSHEY_SIMPLEX, 0.8, colour, 2
            )
    cube = label.get("cube")
    if cube and cube["box"]:
        x0, y0, x1, y1 = (int(v) for v in cube["box"])
        cv2.rectangle(img, (x0, y0), (x1, y1), (0, 128, 255), 2)
        cv2.putText(
            img,
            f"{cube['value']} {cube['place']}",
            (x0, y0 - 3),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.8,
            (0, 128, 255),
            2,
        )


def _tile(path: Path, size: tuple[int, int], boxes: bool, caption: str) -> U8:
    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if img is None:
        raise SheetError(f"cannot read image {path}")
    if boxes:
        label = _label_for(path)
        if label is not None:
            draw_label(img, label)
    return _fit(img, size, caption or path.name)


def _fit(img: U8, size: tuple[int, int], caption: str) -> U8:
    tw, th = size
    h, w = img.shape[:2]
    s = min(tw / w, th / h)
    small = cv2.resize(img, (max(1, int(w * s)), max(1, int(h * s))), interpolation=cv2.INTER_AREA)
    tile = np.full((th, tw, 3), 32, np.uint8)
    y, x = (th - small.shape[0]) // 2, (tw - small.shape[1]) // 2
    tile[y : y + small.shape[0], x : x + small.shape[1]] = small
    for colour, width in (((0, 0, 0), 3), ((255, 255, 255), 1)):
        cv2.putText(
            tile,
            caption[:48],
            (4, th - 6),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.4,
            colour,
            width,
            cv2.LINE_AA,
        )
    return tile


def dice_tiles(files: Sequence[Path], size: tuple[int, int], n: int) -> list[U8]:
    """Square crops around the labelled dice of rendered images (three times a die's
    box), captioned with value and cocked: to compare with photos of real dice."""
    tiles: list[U8] = []
    for path in files:
        label = _label_for(path)
        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if label is None or img is None:
            continue
        h, w = img.shape[:2]
        for d in label["dice"]:
            if not d["box"] or d["truncated"] or d["hidden_by_hand"] > 0.2:
                continue
            x0, y0, x1, y1 = d["box"]
            half = max(x1 - x0, y1 - y0) * 1.5
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            a, b = int(max(0, cx - half)), int(max(0, cy - half))
            c, e = int(min(w, cx + half)), int(min(h, cy + half))
            caption = f"{d['value']}{' cocked' if d['cocked'] else ''} {path.stem}"
            tiles.append(_fit(img[b:e, a:c], size, caption))
            if len(tiles) == n:
                return tiles
    if not tiles:
        raise SheetError("no labelled dice in those images (is it a stills run?)")
    return tiles


def _grid(tiles: Sequence[U8], cols: int, title: str, width: int) -> U8:
    rows = []
    th, tw = tiles[0].shape[:2]
    for i in range(0, len(tiles), cols):
        row = list(tiles[i : i + cols])
        row += [np.full((th, tw, 3), 32, np.uint8)] * (cols - len(row))
        rows.append(np.hstack(row))
    body = np.vstack(rows)
    head = np.full((34, width, 3), 20, np.uint8)
    cv2.putText(
        head, title, (8, 24), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (240, 240, 240), 1, cv2.LINE_AA
    )
    return np.vstack([head, body])


def contact_sheet(
    folder: Path,
    *,
    n: int = 24,
    cols: int = 6,
    tile_width: int = 320,
    boxes: bool = False,
    beside: Path | None = None,
    beside_n: int = 12,
    title: str = "",
    dice: bool = False,
) -> U8:
    """One image: the first ``n`` images of ``folder`` (with ``dice``: crops around
    their first ``n`` labelled dice) in ``cols`` columns, then (if given) ``beside_n``
    images of ``beside`` under their own heading."""
    size = (tile_width, tile_width * 3 // 4) if dice else (tile_width, tile_width * 9 // 16)
    width = cols * tile_width
    if dice:
        tiles = dice_tiles(image_files(folder), size, n)
        heading = title or f"dice in {folder} ({len(tiles)} crops)"
    else:
        files = image_files(folder)[:n]
        tiles = [_tile(f, size, boxes, "") for f in files]
        heading = title or f"{folder} ({len(files)} images)"
    parts = [_grid(tiles, cols, heading, width)]
    if beside is not None:
        real = image_files(beside)[:beside_n]
        parts.append(
            _grid(
                [_tile(f, size, False, "") for f in real],
                cols,
                f"for comparison: {beside} ({len(real)} images)",
                width,
            )
        )
    return np.vstack(parts)
