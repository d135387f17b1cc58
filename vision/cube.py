"""The cube reader at run time: the face up, from a crop.

A small CNN (trained on rendered cubes, :mod:`gammoneye.datasets.train_cube`) read
from ``vision/models/cube.onnx`` with OpenCV's DNN module. Input: square crops
around the cube (1.6 times its box), any size (resized to 48 x 48); output: a
probability for each face in :data:`FACES` order. The 64 face up with the cube in
the middle is a cube of 1 (nobody has doubled).

>>> reader = CubeReader.load()
>>> p = reader.read(np.zeros((1, 48, 48, 3), np.uint8))
>>> p.shape, bool(np.isclose(p.sum(), 1.0))
((1, 6), True)
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from .classifier import ModelError, OnnxClassifier, check_views, model_path

SIZE = 48
FACES = (64, 2, 4, 8, 16, 32)
MODEL = "cube.onnx"

U8 = NDArray[np.uint8]
F32 = NDArray[np.float32]
__all__ = ["FACES", "CubeReader", "ModelError", "evaluate_cube"]


#: Quarter turns of each crop read and averaged by default. Four: the shipped model
#: reads 65.22 % of the cubes of a stills run neither trained on nor held out with
#: four views against 62.03 % with one (``gammoneye eval cube --crops crops/val
#: --views 1 --views 4``, ``vision/models/README.md``); one cube a picture, so the
#: cost is small.
VIEWS = 4


class CubeReader:
    """The loaded cube reader; not thread-safe (one per worker). ``views``: how many
    quarter turns of each crop to read (1..4)."""

    def __init__(self, classifier: OnnxClassifier, views: int = VIEWS) -> None:
        self.classifier = classifier
        self.views = check_views(views)

    @classmethod
    def load(cls, path: Path | None = None, views: int = VIEWS) -> CubeReader:
        return cls(OnnxClassifier(path or model_path(MODEL), SIZE, SIZE), views)

    def read(self, crops: U8) -> F32:
        """(N, 6) face probabilities, in :data:`FACES` order."""
        return self.classifier.probs(crops, self.views)


def evaluate_cube(reader: CubeReader, crops: U8, classes: NDArray[np.int64]) -> list[str]:
    """Lines saying how many of the cube ``crops`` (classes in :data:`FACES` order)
    the reader reads right: all of them, then face by face."""
    faces = np.concatenate(
        [reader.read(crops[i : i + 64]).argmax(axis=1) for i in range(0, len(crops), 64)]
    )
    right = faces == classes
    out = [
        f"{len(crops)} cubes, face right {right.mean() * 100:.2f} % ({right.sum()}/{len(crops)})"
    ]
    for k, face in enumerate(FACES):
        mine = classes == k
        if mine.any():
            out.append(f"  {face:>2}: {right[mine].mean() * 100:.2f} % of {mine.sum()}")
    return out
