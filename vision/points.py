"""The point counter at run time: how many checkers stand on each point strip.

A small CNN (trained on rendered strips, :mod:`gammoneye.datasets.train_points`)
run by ONNX Runtime (:mod:`.onnxnet`) from ``vision/models/point_counts.onnx``: no torch
at run time. Input: upright strips (base at the bottom), BGR, any size (resized to
32 x 128); output: for each strip a probability for every count 0..15.

>>> counter = PointCounter.load()
>>> probs = counter.count_probs(np.zeros((2, 128, 32, 3), np.uint8))
>>> probs.shape, bool(np.allclose(probs.sum(axis=1), 1.0))
((2, 16), True)
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from .classifier import ModelError, OnnxClassifier, model_path

INPUT_W, INPUT_H = 32, 128
CLASSES = 16
MODEL = "point_counts.onnx"
#: Read each strip and its mirror image (left for right: a pile is a pile either
#: way) and average: per-point error on the held-out strips 0.576 -> 0.468 % (unseen
#: styles) and 0.421 -> 0.316 % (unseen seeds), for about 0.6 ms more a strip
#: (``python bench/point_mirror.py crops/held_styles crops/held_seeds``).
MIRRORED = True

U8 = NDArray[np.uint8]
F32 = NDArray[np.float32]
__all__ = ["ModelError", "PointCounter", "evaluate"]


class PointCounter:
    """The loaded point counter; not thread-safe (one per worker)."""

    def __init__(self, classifier: OnnxClassifier) -> None:
        self.classifier = classifier

    @classmethod
    def load(cls, path: Path | None = None) -> PointCounter:
        return cls(OnnxClassifier(path or model_path(MODEL), INPUT_W, INPUT_H))

    def count_probs(self, strips: U8) -> F32:
        """(N, 16) probabilities for strips (N, H, W, 3) uint8 BGR: the mean of each
        strip's and its mirror image's (``MIRRORED``)."""
        if strips.ndim != 4 or strips.shape[-1] != 3:
            raise ValueError(f"expected strips (N, H, W, 3), got shape {strips.shape}")
        if not MIRRORED or not len(strips):
            return self.classifier.probs(strips)
        n = len(strips)
        probs = self.classifier.probs(np.concatenate([strips, strips[:, :, ::-1]]))
        return ((probs[:n] + probs[n:]) / 2).astype(np.float32)


class PointReport:
    """What :func:`evaluate` measured."""

    def __init__(
        self,
        truth: NDArray[np.int64],
        guess: NDArray[np.int64],
        styles: list[str],
        latency_ms: list[float],
        hidden: int = 0,
    ) -> None:
        self.truth, self.guess, self.styles, self.latency_ms = truth, guess, styles, latency_ms
        self.hidden = hidden  # strips left out: under a hand

    @property
    def error_rate(self) -> float:
        return float((self.truth != self.guess).mean())

    def lines(self) -> list[str]:
        wrong = self.truth != self.guess
        out = [
            f"strips: {len(self.truth)} ({self.hidden} under a hand left out); per-point "
            f"error {self.error_rate * 100:.3f} % ({int(wrong.sum())} wrong)"
        ]
        by_count = []
        for c in range(CLASSES):
            sel = self.truth == c
            if sel.any():
                by_count.append(f"{c}: {wrong[sel].mean() * 100:.1f}% of {int(sel.sum())}")
        out.append("error by true count: " + ", ".join(by_count))
        styles = sorted(set(self.styles))
        parts = []
        for s in styles:
            sel = np.array([x == s for x in self.styles])
            parts.append(f"{s} {wrong[sel].mean() * 100:.2f}%")
        out.append("error by board style: " + ", ".join(parts))
        off = np.abs(self.truth - self.guess)[wrong]
        if len(off):
            out.append(f"wrong by 1: {int((off == 1).sum())}, by more: {int((off > 1).sum())}")
        lat = np.array(self.latency_ms)
        out.append(
            f"24 strips (one picture): p50 {np.percentile(lat, 50):.2f} ms, "
            f"p95 {np.percentile(lat, 95):.2f} ms"
        )
        return out


def evaluate(counter: PointCounter, folders: list[Path]) -> PointReport:
    """Run the counter on the labelled strips of ``folders`` (from ``render
    export-crops``), 24 at a time as it will read them."""
    import time

    from gammoneye.datasets.train_points import load_strips

    images, counts, meta = load_strips(folders)
    listed = sum(len((f / "points.jsonl").read_text().splitlines()) for f in folders)
    guesses = np.empty(len(images), np.int64)
    latency = []
    for i in range(0, len(images), 24):
        start = time.perf_counter()
        probs = counter.count_probs(images[i : i + 24])
        latency.append((time.perf_counter() - start) * 1000)
        guesses[i : i + 24] = probs.argmax(axis=1)
    return PointReport(
        counts, guesses, [m.get("style", "?") for m in meta], latency, listed - len(images)
    )
