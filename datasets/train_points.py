"""Train the point counter: a small CNN that reads how many checkers stand on a point.

Input: the upright point strips of ``gammoneye render export-crops`` (base at the
bottom, 32 x 128 pixels, BGR), output: a distribution over 0..15 checkers. Colour is
not its job: which of the board's two colours a pile has is read against the colours
learned from the opening position.

Training needs the ``train`` extra (torch); the trained net is exported to ONNX and
read at run time by OpenCV's DNN module (:mod:`gammoneye.vision.points`), so the
runtime needs no torch. Everything is seeded; the command that made the committed
model is in ``vision/models/README.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .training import TrainError, TrainSummary, read_crops, train_classifier

INPUT_W, INPUT_H = 32, 128
CLASSES = 16  # 0..15 checkers

U8 = NDArray[np.uint8]
__all__ = ["TrainError", "TrainSummary", "fit", "load_strips", "train"]


def load_strips(
    folders: Sequence[Path], skip_hidden: bool = True, with_bar: bool = False
) -> tuple[U8, NDArray[np.int64], list[dict[str, Any]]]:
    """The point strips of the crop folders: images (N, H, W, 3), counts (N,), index;
    with ``skip_hidden`` not those a hand covers (``hand_overlap`` > 0.2); with
    ``with_bar`` the bar's half strips too (``bar.jsonl``)."""
    images: list[U8] = []
    counts: list[int] = []
    meta: list[dict[str, Any]] = []

    # under a hand no picture can tell the count
    def visible(item: dict[str, Any]) -> bool:
        return not skip_hidden or item.get("hand_overlap", 0.0) <= 0.2

    for img, item in read_crops(folders, "points.jsonl", (INPUT_W, INPUT_H), visible):
        images.append(img)
        counts.append(min(int(item["count"]), CLASSES - 1))
        meta.append(item)
    if with_bar:  # the bar's halves, where the crops have them (older exports do not)
        for folder in folders:
            if (folder / "bar.jsonl").exists():
                for img, item in read_crops([folder], "bar.jsonl", (INPUT_W, INPUT_H), visible):
                    images.append(img)
                    counts.append(min(int(item["count"]), CLASSES - 1))
                    meta.append(item)
    if not images:
        raise TrainError("no point strips in " + ", ".join(str(f) for f in folders))
    return np.stack(images), np.array(counts, np.int64), meta


def train(
    folders: Sequence[Path],
    out: Path,
    *,
    epochs: int = 8,
    seed: int = 0,
    arch: str = "small",
    device: str = "cpu",
    log: Callable[[str], None] = print,
) -> TrainSummary:
    """Train on the strips of ``folders`` and write the ONNX model to ``out``
    (``arch``, ``device``: as :func:`.training.train_classifier`'s)."""
    images, counts, meta = load_strips(folders, with_bar=True)  # bad crops fail fast
    return fit(
        images, counts, meta, out, epochs=epochs, seed=seed, arch=arch, device=device, log=log
    )


def fit(
    images: U8,
    counts: NDArray[np.int64],
    meta: list[dict[str, Any]],
    out: Path,
    *,
    epochs: int = 8,
    seed: int = 0,
    arch: str = "small",
    device: str = "cpu",
    batch: int = 128,
    init: Path | None = None,
    checkpoint: Callable[[int, Path], None] | None = None,
    log: Callable[[str], None] = print,
) -> TrainSummary:
    """:func:`train` on strips already loaded (:func:`load_strips` with the bar):
    ``arch``, ``device``, ``batch``, ``init`` (a counter of the same ``arch`` to go on
    training) and ``checkpoint`` as :func:`.training.train_classifier`'s."""
    # tall piles are rare in play but must be read: each epoch sees them more often;
    # so are checkers on the bar
    weights = np.where(counts >= 6, 6, np.where(counts >= 4, 2, 1)).astype(np.int64)
    on_bar = np.array(["half" in m and m["count"] > 0 for m in meta])
    weights[on_bar] = np.maximum(weights[on_bar], 4)
    return train_classifier(
        images, counts, CLASSES, out, epochs=epochs, seed=seed, weights=weights, arch=arch,
        device=device, batch=batch, init=init, checkpoint=checkpoint, log=log,
    )
