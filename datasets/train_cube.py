"""Train the cube reader: which face is up (64, 2, 4, 8, 16, 32), from a crop.

Input: a square crop around the cube (``render export-crops`` cuts them, 1.6 times
its box), 48 x 48 BGR (or the ``size`` :func:`load_cubes` is given), set upright as
the reader sets it (:func:`gammoneye.vision.crops.square_upright`); output: 6 classes, the faces in
:data:`FACES` order (:mod:`gammoneye.vision.cube`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from gammoneye.vision.crops import square_upright
from gammoneye.vision.cube import FACES, SIZE, UPRIGHT

from .train_dice import BOX_ZOOM
from .training import TrainError, TrainSummary, read_crops, train_classifier

U8 = NDArray[np.uint8]
__all__ = ["TrainError", "fit", "load_cubes", "train"]


def load_cubes(folders: Sequence[Path], size: int = SIZE) -> tuple[U8, NDArray[np.int64]]:
    """Cube crops of ``render export-crops`` folders (at ``size`` x ``size``) and
    their classes."""
    images, labels = [], []
    for img, item in read_crops(folders, "cube.jsonl", (size, size)):
        if item["value"] not in FACES:
            raise TrainError(f"cube face {item['value']} is not one of {FACES}")
        images.append(img)
        labels.append(FACES.index(item["value"]))
    if not images:
        raise TrainError("no cube crops in " + ", ".join(str(f) for f in folders))
    return np.stack(images), np.array(labels, np.int64)


def train(
    folders: Sequence[Path],
    out: Path,
    *,
    val: Sequence[Path] = (),
    epochs: int = 15,
    seed: int = 0,
    init: Path | None = None,
    turns: bool = True,
    arch: str = "wide",
    size: int = SIZE,
    device: str = "cpu",
    log: Callable[[str], None] = print,
) -> TrainSummary:
    """Train on rendered cube crops and write the ONNX model to ``out``. ``val``:
    held-out crop folders whose accuracy is logged after every epoch. ``init``: a
    cube reader to go on training. ``turns``, ``arch`` and ``device``: as
    :func:`fit`'s; ``size``: the crops' side in pixels (the shipped readers: 64, with
    ``wider4``). Crops are seen as if cut at the detector's boxes (:data:`BOX_ZOOM`,
    as for dice)."""
    if size < 16:
        raise TrainError(f"size {size}: a cube crop needs 16 px at least")
    images, labels = load_cubes(folders, size)
    return fit(
        images,
        labels,
        out,
        val=load_cubes(val, size) if val else None,
        epochs=epochs,
        seed=seed,
        init=init,
        turns=turns,
        arch=arch,
        device=device,
        log=log,
    )


def fit(
    images: U8,
    labels: NDArray[np.int64],
    out: Path,
    *,
    val: tuple[U8, NDArray[np.int64]] | None = None,
    epochs: int = 15,
    seed: int = 0,
    init: Path | None = None,
    arch: str = "wide",
    device: str = "cpu",
    batch: int = 128,
    checkpoint: Callable[[int, Path], None] | None = None,
    upright: bool = UPRIGHT,
    turns: bool = True,
    log: Callable[[str], None] = print,
) -> TrainSummary:
    """:func:`train` on cube crops already loaded (:func:`load_cubes`): ``arch``,
    ``device``, ``batch`` and ``checkpoint`` as :func:`.training.train_classifier`'s.
    ``upright``: train on the crops set upright, as the cube reader reads them
    (:data:`gammoneye.vision.cube.UPRIGHT`). ``turns``: also at a random quarter turn
    (the reader reads four); without, the crops keep the picture's up (a reader of the
    face on top as the camera sees it, read at one view: the top lies above the side
    faces a low camera sees as large)."""
    if upright:
        images = square_upright(images)
        val = None if val is None else (square_upright(val[0]), val[1])
    # the centred cube (64) is as common as all the others together
    weights = np.where(labels == 0, 1, 4).astype(np.int64)
    log(f"{len(images)} cubes")
    # a mirrored numeral is not a real face
    return train_classifier(
        images,
        labels,
        len(FACES),
        out,
        epochs=epochs,
        seed=seed,
        weights=weights,
        flips=False,
        turns=turns,
        recolour=True,  # cubes come in any colour; the numeral is what counts
        arch=arch,  # ``wide``: numerals of 10-20 px, like the pips of a die
        max_lr=1.5e-3 if init is None else 7e-4,
        val=val,
        init=init,
        zoom=BOX_ZOOM,
        device=device,
        batch=batch,
        checkpoint=checkpoint,
        log=log,
    )
