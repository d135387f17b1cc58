"""A small image classifier read from ONNX (:mod:`.onnxnet`: ONNX Runtime, or OpenCV's
DNN; no torch at run time): crops in, a probability per class out. The shipped models
are in ``vision/models/`` with the commands that trained them."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from .onnxnet import ModelError, OnnxNet

U8 = NDArray[np.uint8]
F32 = NDArray[np.float32]
__all__ = ["ModelError", "OnnxClassifier", "check_views", "model_path"]


def model_path(name: str) -> Path:
    """A shipped model's file."""
    path = Path(str(resources.files("gammoneye.vision").joinpath("models", name)))
    if not path.exists():
        raise ModelError(f"no model {path}: see vision/models/README.md to train it")
    return path


def check_views(views: int) -> int:
    """``views`` if it is a number of quarter turns to read (1..4), else ValueError."""
    if not 1 <= views <= 4:
        raise ValueError(f"views must be 1..4, not {views}")
    return views


class OnnxClassifier:
    """One loaded network taking (N, 3, height, width) BGR / 255; not thread-safe.
    ``width`` and ``height``: the input's size where the model does not fix it (a
    model trained at another size is read at its own: a reader's crops are resized to
    whatever its network takes)."""

    def __init__(self, path: Path, width: int, height: int, backend: str | None = None) -> None:
        self.net = OnnxNet(path, backend)
        fixed = self.net.input_hw()
        self.height, self.width = fixed if fixed is not None else (height, width)

    def probs(self, crops: U8, views: int = 1) -> F32:
        """(N, classes) probabilities for crops (N, H, W, 3) uint8 BGR of any size.
        ``views`` > 1 (square inputs only): the mean over that many quarter turns of
        each crop, for things seen from above that mean the same turned any way."""
        if crops.ndim != 4 or crops.shape[-1] != 3:
            raise ValueError(f"expected crops (N, H, W, 3), got shape {crops.shape}")
        if check_views(views) > 1 and self.width != self.height:
            raise ValueError(f"{views} views of a {self.width} x {self.height} input: not square")
        if views > 1 and len(crops):
            crops = self.sized(crops)
            turned = [np.rot90(crops, k, axes=(1, 2)) for k in range(views)]
            p = self.probs(np.ascontiguousarray(np.concatenate(turned)))
            return p.reshape(views, len(crops), -1).mean(axis=0)  # type: ignore[no-any-return]
        crops = self.sized(crops)
        blob = crops.astype(np.float32).transpose(0, 3, 1, 2) / 255.0
        logits = self.net.forward(blob)
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        return e / e.sum(axis=1, keepdims=True)  # type: ignore[no-any-return]

    def sized(self, crops: U8) -> U8:
        """``crops`` at the network's input size."""
        if crops.shape[1:3] != (self.height, self.width):
            crops = np.stack(
                [
                    cv2.resize(c, (self.width, self.height), interpolation=cv2.INTER_AREA)
                    for c in crops
                ]
            )
        return crops
