"""Training crops for the small recognisers: point strips, dice and the cube.

``DESIGN.md`` asks vision to read in board space, on crops, with small models. This
turns a stills run into those crops, cut from each object's true outline in the
picture, with a calibration's errors imitated by a small seeded jitter.

- ``points/``: one strip per point, from its base on the rail to the field's middle,
  upright (base at the bottom; top-row points are turned round), with the number of
  checkers, their colour and owner.
- ``dice/``: a square around each die, with its value, cocked flag and tilt.
- ``cube/``: a square around the cube, with its face and place.
- ``bar/``: the bar's two halves as strips from the field's middle outwards (where
  hit checkers wait), cut like the point strips, with the number of checkers on
  each and their colour: the point counter learns to read the bar from them.

Each folder has a JSON-lines index (``points.jsonl``, ...) naming the crop file and
its labels. Same run and seed, same crops.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from gammoneye.calibration.boardspace import POINT_LENGTH, BoardSpace
from gammoneye.vision.crops import box_cover, upright, warp_quad
from gammoneye.vision.crops import square_crop as centred_crop

from .labels import LABEL_SCHEMA, LABEL_VERSION
from .scene import hash_name

U8 = NDArray[np.uint8]
F64 = NDArray[np.float64]


class CropError(ValueError):
    """A folder that is no stills run, or options that make no crops."""


@dataclass(frozen=True)
class CropConfig:
    strip: tuple[int, int] = (64, 256)  # width, height of a point strip
    square: int = 64  # side of a die or cube crop
    jitter: float = 0.01  # corner jitter, share of the field's diagonal
    seed: int = 0
    # What to cut (a subset of KINDS). The jitter of one kind depends on the kinds cut
    # before it in a still, so the same seed cuts the same crops only for the same kinds.
    kinds: frozenset[str] = frozenset(("points", "bar", "dice", "cube"))


#: The kinds of crop, each a folder and a JSON-lines index of the output.
KINDS = ("points", "bar", "dice", "cube")


def point_strips(
    image: U8, label: dict[str, Any], cfg: CropConfig, rng: np.random.Generator
) -> Iterator[tuple[U8, dict[str, Any]]]:
    """The 24 upright point strips of a labelled still, with their labels.

    A strip runs from the point's base to the field's middle, 8 % wider than the
    point on each side. It is cut from the point's true outline in the picture (the
    label's polygon, lens distortion included), shifted and stretched a little at
    random like a calibration's error would. A close-up, whose field runs behind the
    camera, has no strips: vision reads points only where it sees the whole field."""
    board = label["board"]
    if board["field_corners_px"] is None:
        return
    field = np.array(board["field_corners_px"], np.float64)
    diag = float(np.linalg.norm(field[2] - field[0]))
    bottom = label["position"]["bottom_player"]
    cells = {c["number"]: c for c in label["position"]["points"]}
    for region in label["regions"]["points"]:
        n = region["number"]
        left, right, tip = (np.array(v, np.float64) for v in region["polygon_px"])
        base = (left + right) / 2
        axis = (tip - base) / POINT_LENGTH  # base to the field's middle
        across = (right - left) * 0.58  # half the strip's width, 8 % to spare
        shift = rng.normal(0, cfg.jitter * diag / 2, 2)
        stretch = 1 + rng.normal(0, cfg.jitter * 2)
        bl, br = base - across + shift, base + across + shift
        quad = np.array([bl, br, br + axis * stretch, bl + axis * stretch])
        quad = upright(quad)
        crop = warp_quad(image, quad, cfg.strip)
        cell = cells[n]
        owner = cell["owner"]
        yield (
            crop,
            {
                "point": n,
                "count": cell["count"],
                "owner": owner,
                "colour": cell["colour"],
                "owner_is_bottom": None if owner is None else owner == bottom,
                "quad_px": [[round(float(v), 1) for v in c] for c in quad],
                "hand_overlap": round(_hand_overlap(quad, label), 3),
            },
        )


def bar_strips(
    image: U8, label: dict[str, Any], cfg: CropConfig, rng: np.random.Generator
) -> Iterator[tuple[U8, dict[str, Any]]]:
    """The bar's two halves (``top``, ``bottom`` of board space), each an upright
    strip from the field's middle outwards, as wide as a point strip, mapped through
    the field's corners; labelled with the checkers on the bar whose centre falls in
    that half."""
    board = label["board"]
    if board["field_corners_px"] is None:
        return
    field = np.array(board["field_corners_px"], np.float64)
    geometry = board["geometry"]
    width = 12 * geometry["point_width"] + geometry["bar_width"]
    space = BoardSpace(bar_fraction=min(0.29, geometry["bar_width"] / width))
    to_board = cv2.getPerspectiveTransform(
        field.astype(np.float32), space.corners().astype(np.float32)
    )
    to_image = np.linalg.inv(to_board)
    diag = float(np.linalg.norm(field[2] - field[0]))
    on_bar = [c for c in label["checkers"] if c["where"] == "bar" and c["centre_px"]]
    ys = (
        cv2.perspectiveTransform(
            np.array([c["centre_px"] for c in on_bar], np.float64).reshape(-1, 1, 2), to_board
        ).reshape(-1, 2)[:, 1]
        if on_bar
        else np.zeros(0)
    )
    half_w, mid, x = space.point_width * 0.58, space.height / 2, space.width / 2
    for name, end in (("top", 0.0), ("bottom", float(space.height))):
        board_quad = np.array(
            [(x - half_w, mid), (x + half_w, mid), (x + half_w, end), (x - half_w, end)]
        )
        quad = cv2.perspectiveTransform(board_quad.reshape(-1, 1, 2), to_image).reshape(-1, 2)
        quad = upright(quad + rng.normal(0, cfg.jitter * diag / 2, 2))
        crop = warp_quad(image, quad, cfg.strip)
        here = [c for c, y in zip(on_bar, ys, strict=True) if (y < mid) == (name == "top")]
        colours = sorted({c["colour"] for c in here})
        yield (
            crop,
            {
                "half": name,
                "count": len(here),
                "colour": colours[0] if len(colours) == 1 else (colours or None),
                "quad_px": [[round(float(v), 1) for v in c] for c in quad],
                "hand_overlap": round(_hand_overlap(quad, label), 3),
            },
        )


def _hand_overlap(quad: F64, label: dict[str, Any]) -> float:
    """The share of the strip's bounding box that hands' boxes cover (a count under
    a hand cannot be read; training leaves such strips out)."""
    return box_cover(quad, (h["box"] for h in label.get("hands", []) if h.get("box")))


def square_crop(
    image: U8, box: list[float], side: int, rng: np.random.Generator | None, shift: float = 0.08
) -> U8:
    """A square around ``box`` (x0, y0, x1, y1), 1.6 times its larger side, shifted by
    ``shift`` of its half-side at random (a detector's box is never centred exactly);
    ``rng`` None: centred."""
    half = max(box[2] - box[0], box[3] - box[1]) * 0.8
    dx, dy = rng.normal(0, half * shift, 2) if rng is not None else (0.0, 0.0)
    return centred_crop(image, box, side, (float(dx), float(dy)))


@dataclass(frozen=True)
class CropSummary:
    images: int
    points: int
    dice: int
    cubes: int


def export_crops(
    run: Path,
    out: Path,
    cfg: CropConfig = CropConfig(),
    progress: Callable[[int], None] | None = None,
) -> CropSummary:
    """Cut the crops of every labelled still of ``run`` into ``out``."""
    labels_dir = run / "labels"
    if not labels_dir.is_dir():
        raise CropError(f"{run} is not a stills run: it has no labels/ folder")
    files = sorted(labels_dir.glob("*.json"))
    if not files:
        raise CropError(f"no labels in {labels_dir}")
    if out.exists() and any(out.iterdir()):
        raise CropError(f"{out} is not empty: choose a new folder")
    for sub in ("points", "dice", "cube", "bar"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    counts = {"points": 0, "dice": 0, "cube": 0, "bar": 0}
    with (
        (out / "points.jsonl").open("w") as pj,
        (out / "dice.jsonl").open("w") as dj,
        (out / "cube.jsonl").open("w") as cj,
        (out / "bar.jsonl").open("w") as bj,
    ):
        index = {"points": pj, "dice": dj, "cube": cj, "bar": bj}
        for path in files:
            label = json.loads(path.read_text())
            if label.get("schema") != LABEL_SCHEMA or label.get("version") != LABEL_VERSION:
                raise CropError(f"{path}: not a version {LABEL_VERSION} render label")
            image = cv2.imread(str(run / label["image"]), cv2.IMREAD_COLOR)
            if image is None:
                raise CropError(f"{path}: cannot read its image {label['image']}")
            stem = path.stem
            rng = np.random.default_rng([cfg.seed, hash_name(stem)])

            def keep(
                kind: str,
                name: str,
                crop: U8,
                meta: dict[str, Any],
                image_name: str = label["image"],
            ) -> None:
                cv2.imwrite(str(out / kind / name), crop)
                entry = {"file": f"{kind}/{name}", "image": image_name, **meta}
                index[kind].write(json.dumps(entry) + "\n")
                counts[kind] += 1

            for crop, meta in point_strips(image, label, cfg, rng) if "points" in cfg.kinds else ():
                keep(
                    "points",
                    f"{stem}_p{meta['point']:02d}.png",
                    crop,
                    {**meta, "style": label["board"]["style"]},
                )
            for crop, meta in bar_strips(image, label, cfg, rng) if "bar" in cfg.kinds else ():
                keep(
                    "bar",
                    f"{stem}_bar_{meta['half']}.png",
                    crop,
                    {**meta, "style": label["board"]["style"]},
                )
            for k, die in enumerate(label["dice"] if "dice" in cfg.kinds else ()):
                if die["box"] and die["hidden_by_hand"] <= 0.5:
                    fields = ("value", "cocked", "tilt_deg", "on_checker", "off_board", "truncated")
                    x0, y0, x1, y1 = die["box"]
                    keep(
                        "dice",
                        f"{stem}_d{k}.png",
                        square_crop(image, die["box"], cfg.square, rng),
                        {**{f: die[f] for f in fields}, "box_px": round(max(x1 - x0, y1 - y0), 1)},
                    )
            cube = label.get("cube") if "cube" in cfg.kinds else None
            if cube and cube["box"] and cube["hidden_by_hand"] <= 0.5:
                keep(
                    "cube",
                    f"{stem}_c.png",
                    square_crop(image, cube["box"], cfg.square, rng),
                    {"value": cube["value"], "place": cube["place"]},
                )
            if progress:
                progress(1)
    return CropSummary(len(files), counts["points"], counts["dice"], counts["cube"])
