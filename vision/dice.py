"""The die reader at run time: the face up and whether the die is cocked, from a crop.

A small CNN (trained on rendered dice and real dice photos,
:mod:`gammoneye.datasets.train_dice`) read from ``vision/models/dice.onnx`` with
OpenCV's DNN module. Input: square crops around dice (1.6 times the die's box),
any size (resized to 48 x 48); output per crop: a probability for each value 1..6
and the probability that the die is cocked.

>>> reader = DiceReader.load()
>>> values, cocked = reader.read(np.zeros((1, 48, 48, 3), np.uint8))
>>> values.shape, bool(np.isclose(values.sum(), 1.0)), cocked.shape
((1, 6), True, (1,))
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from .classifier import ModelError, OnnxClassifier, model_path

SIZE = 48
MODEL = "dice.onnx"

U8 = NDArray[np.uint8]
F32 = NDArray[np.float32]
__all__ = ["DiceReader", "ModelError", "evaluate_dice"]


class DiceReader:
    """The loaded die reader; not thread-safe (one per worker)."""

    def __init__(self, classifier: OnnxClassifier) -> None:
        self.classifier = classifier

    @classmethod
    def load(cls, path: Path | None = None) -> DiceReader:
        return cls(OnnxClassifier(path or model_path(MODEL), SIZE, SIZE))

    def read(self, crops: U8) -> tuple[F32, F32]:
        """(N, 6) value probabilities (faces 1..6) and (N,) cocked probabilities."""
        p = self.classifier.probs(crops)  # class = value - 1 + 6 * cocked
        values = p[:, :6] + p[:, 6:]
        return values, p[:, 6:].sum(axis=1)


@dataclass(frozen=True)
class DiceReport:
    name: str
    n: int
    value_accuracy: float
    cocked_truth: int
    cocked_found: int
    flat_alarms: int
    flat: int
    latency_ms: float  # per crop, batches of 4

    def line(self) -> str:
        out = f"{self.name}: {self.n} dice, value accuracy {self.value_accuracy * 100:.2f} %"
        if self.cocked_truth:
            out += (
                f"; cocked recall {self.cocked_found}/{self.cocked_truth} "
                f"({self.cocked_found / self.cocked_truth * 100:.1f} %)"
            )
        if self.flat:
            out += (
                f"; false cocked {self.flat_alarms}/{self.flat} "
                f"({self.flat_alarms / self.flat * 100:.2f} %)"
            )
        return out + f"; {self.latency_ms:.2f} ms per die"


def evaluate_dice(
    reader: DiceReader, name: str, crops: U8, classes: NDArray[np.int64]
) -> DiceReport:
    """Measure the reader on crops labelled with classes ``value - 1 + 6 * cocked``."""
    start = time.perf_counter()
    values, cocked = [], []
    for i in range(0, len(crops), 4):
        v, c = reader.read(crops[i : i + 4])
        values.append(v)
        cocked.append(c)
    per_die = (time.perf_counter() - start) * 1000 / max(len(crops), 1)
    v_all, c_all = np.concatenate(values), np.concatenate(cocked)
    true_value, true_cocked = classes % 6, classes >= 6
    said_cocked = c_all >= 0.5
    return DiceReport(
        name,
        len(crops),
        float((v_all.argmax(1) == true_value).mean()),
        int(true_cocked.sum()),
        int((said_cocked & true_cocked).sum()),
        int((said_cocked & ~true_cocked).sum()),
        int((~true_cocked).sum()),
        per_die,
    )
