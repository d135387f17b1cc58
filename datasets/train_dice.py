"""Train the die reader: the face up (1..6) and whether the die is cocked, from a crop.

Input: a square crop around a die (``render export-crops`` cuts them from renders;
:func:`load_photo_dice` from real photos with YOLO boxes, such as
``../shared/data/dice-photos/``), 48 x 48 BGR. Output: 12 classes, value x flat or
cocked (class ``value - 1 + 6 * cocked``), so one softmax gives both the value
distribution and the cocked probability (:mod:`gammoneye.vision.dice`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from ..vision.dice import yolo_boxes
from .render.crops import square_crop
from .training import TrainError, TrainSummary, read_crops, train_classifier

SIZE = 48
CLASSES = 12
#: Rendered dice smaller than this (box side, pixels) are left out of the figures:
#: at that size few pictures show the pips.
MIN_BOX_PX = 14.0
#: ... and out of training below this: a camera far from the board sees its dice at
#: 10-14 px, where a reading is weak but, weighed against the legal plays, still helps.
TRAIN_MIN_BOX_PX = 10.0

#: (low, high, shift) of the box jitter in training: the detector's box over the
#: labelled one is 0.85 to 1.31 (p10, p90) on held-out renders, its centre a little
#: off (``bench/detector_boxes.py``).
BOX_ZOOM = (0.85, 1.35, 0.08)

U8 = NDArray[np.uint8]
__all__ = [
    "TrainError",
    "TrainSummary",
    "fit",
    "load_dice",
    "load_photo_dice",
    "readable_die",
    "train",
]


def readable_die(item: dict[str, Any], min_box_px: float = MIN_BOX_PX) -> bool:
    """Whether a crop's label (a row of ``dice.jsonl``) is a die to learn and measure
    on: its box at least ``min_box_px`` (at less, no picture shows the pips; a row
    with no ``box_px`` counts as large enough) and not cut off by the picture's edge
    (a cut-off die may hide its face).

    >>> readable_die({"box_px": 12.0}), readable_die({"box_px": 12.0}, 10.0)
    (False, True)
    >>> readable_die({"box_px": 30.0, "truncated": True}), readable_die({})
    (False, True)
    """
    return bool(item.get("box_px", min_box_px) >= min_box_px and not item.get("truncated"))


def load_dice(
    folders: Sequence[Path], min_box_px: float = MIN_BOX_PX, size: int = SIZE
) -> tuple[U8, NDArray[np.int64]]:
    """Rendered dice crops of ``render export-crops`` folders (at ``size`` x
    ``size``) and their classes."""
    images: list[U8] = []
    labels: list[int] = []
    for img, item in read_crops(
        folders, "dice.jsonl", (size, size), lambda item: readable_die(item, min_box_px)
    ):
        images.append(img)
        labels.append(item["value"] - 1 + 6 * int(bool(item["cocked"])))
    if not images:
        raise TrainError("no dice crops in " + ", ".join(str(f) for f in folders))
    return np.stack(images), np.array(labels, np.int64)


def load_photo_dice(
    folder: Path, seed: int = 0, jitter: bool = False, size: int = SIZE
) -> tuple[U8, NDArray[np.int64]]:
    """Dice of real photos with YOLO labels (``NAME.jpg`` + ``NAME.txt``: class
    0..5 = face 1..6, then the normalised box), cut like the renders' dice, ``size``
    x ``size``. They lie flat: class = face - 1."""
    if not folder.is_dir():
        raise TrainError(f"no such folder of photos: {folder}")
    rng = np.random.default_rng(seed)
    images: list[U8] = []
    labels: list[int] = []
    for txt in sorted(folder.glob("*.txt")):
        photo = txt.with_suffix(".jpg")
        if not photo.exists():
            continue
        img = cv2.imread(str(photo), cv2.IMREAD_COLOR)
        if img is None:
            raise TrainError(f"cannot read {photo}")
        h, w = img.shape[:2]
        for cls, box in yolo_boxes(txt.read_text(), w, h):
            images.append(square_crop(img, list(box), size, rng if jitter else None))
            labels.append(cls)
    if not images:
        raise TrainError(f"no labelled dice in {folder} (NAME.jpg with NAME.txt)")
    return np.stack(images), np.array(labels, np.int64)


def train(
    folders: Sequence[Path],
    out: Path,
    *,
    photos: Sequence[Path] = (),
    val: Sequence[Path] = (),
    epochs: int = 10,
    seed: int = 0,
    init: Path | None = None,
    arch: str = "wide",
    device: str = "cpu",
    turns: bool = True,
    max_lr: float | None = None,
    log: Callable[[str], None] = print,
) -> TrainSummary:
    """Train on rendered dice crops (and real ``photos`` folders, drawn 4 times as
    often: there are few of them) and write the ONNX model to ``out``. ``val``:
    held-out crop folders whose accuracy (value and cocked together) is logged after
    every epoch. ``init``: a die reader to go on training (its learning rate peaks
    lower). Every crop is seen as if cut at a box of :data:`BOX_ZOOM` times the die's
    size, as the detector's boxes are. ``turns``: also at a random quarter turn (as
    the shipped reader, read at four turns). ``max_lr``: the one-cycle schedule's
    peak (default :func:`peak_lr`). ``arch``, ``device``: as
    :func:`.training.train_classifier`'s."""
    images, labels = load_dice(folders, TRAIN_MIN_BOX_PX)
    held = load_dice(val) if val else None
    return fit(
        images,
        labels,
        out,
        photos=photos,
        val=held,
        epochs=epochs,
        seed=seed,
        init=init,
        arch=arch,
        device=device,
        turns=turns,
        max_lr=max_lr,
        log=log,
    )


def peak_lr(init: Path | None) -> float:
    """The one-cycle schedule's default peak: lower when going on from a trained
    reader. The wide net's loss jumped about at 3e-3."""
    return 1.5e-3 if init is None else 7e-4


def fit(
    images: U8,
    labels: NDArray[np.int64],
    out: Path,
    *,
    photos: Sequence[Path] = (),
    val: tuple[U8, NDArray[np.int64]] | None = None,
    epochs: int = 10,
    seed: int = 0,
    init: Path | None = None,
    arch: str = "wide",
    device: str = "cpu",
    batch: int = 128,
    checkpoint: Callable[[int, Path], None] | None = None,
    turns: bool = True,
    max_lr: float | None = None,
    log: Callable[[str], None] = print,
) -> TrainSummary:
    """:func:`train` on rendered crops already loaded (:func:`load_dice`): ``max_lr``
    as :func:`train`'s; ``arch``, ``device``, ``batch`` and ``checkpoint`` as
    :func:`.training.train_classifier`'s."""
    weights = [np.where(labels >= 6, 4, 1).astype(np.int64)]  # cocked dice are few
    parts_x, parts_y = [images], [labels]
    for k, folder in enumerate(photos):
        # at the rendered crops' size
        px, py = load_photo_dice(folder, seed=seed + k, jitter=True, size=images.shape[1])
        parts_x.append(px)
        parts_y.append(py)
        weights.append(np.full(len(px), 4, np.int64))
    log(
        f"{len(images)} rendered dice"
        + (f", {sum(len(x) for x in parts_x[1:])} from photos" if photos else "")
    )
    # a mirrored die still shows its pips (dice come in both handednesses)
    return train_classifier(
        np.concatenate(parts_x),
        np.concatenate(parts_y),
        CLASSES,
        out,
        epochs=epochs,
        seed=seed,
        weights=np.concatenate(weights),
        turns=turns,
        recolour=True,
        arch=arch,
        max_lr=peak_lr(init) if max_lr is None else max_lr,
        val=val,
        init=init,
        zoom=BOX_ZOOM,
        device=device,
        batch=batch,
        checkpoint=checkpoint,
        log=log,
    )
