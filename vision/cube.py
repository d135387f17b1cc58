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

from .classifier import ModelError, OnnxClassifier, model_path

SIZE = 48
FACES = (64, 2, 4, 8, 16, 32)
MODEL = "cube.onnx"

U8 = NDArray[np.uint8]
F32 = NDArray[np.float32]
__all__ = ["FACES", "CubeReader", "ModelError"]


class CubeReader:
    """The loaded cube reader; not thread-safe (one per worker)."""

    def __init__(self, classifier: OnnxClassifier) -> None:
        self.classifier = classifier

    @classmethod
    def load(cls, path: Path | None = None) -> CubeReader:
        return cls(OnnxClassifier(path or model_path(MODEL), SIZE, SIZE))

    def read(self, crops: U8) -> F32:
        """(N, 6) face probabilities, in :data:`FACES` order."""
        return self.classifier.probs(crops)
