"""The cube reader at run time: the face up, from a crop.

A small CNN (trained on rendered cubes, :mod:`gammoneye.datasets.train_cube`) read
from ``vision/models/cube.onnx`` by ONNX Runtime (:mod:`.onnxnet`) at four quarter
turns, and beside it since session 41 its partner ``cube_upright.onnx``, trained
without turns and read at one view (the top lies above the side faces a low camera
sees; :class:`CubeReader`), the two averaged. Input: square crops
around the cube (1.6 times its box), any size (resized to the model's input: 64 x 64
for the shipped one since session 40, :data:`SIZE` for a model that leaves it free);
output: a probability for each face in :data:`FACES` order. The 64 face up with the cube in
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
from .crops import square_upright

#: The input side of a model that does not fix its own, and of training by default.
SIZE = 48
FACES = (64, 2, 4, 8, 16, 32)
MODEL = "cube.onnx"
#: The network read beside :data:`MODEL` trained without quarter turns, or ``""``
#: where none is shipped (:class:`CubeReader`).
PARTNER_MODEL = "cube_upright.onnx"

U8 = NDArray[np.uint8]
F32 = NDArray[np.float32]
__all__ = ["FACES", "CubeReader", "ModelError", "evaluate_cube", "faces_at"]


#: Quarter turns of each crop read and averaged by default. Four: the shipped model
#: reads 65.22 % of the cubes of a stills run neither trained on nor held out with
#: four views against 62.03 % with one (``gammoneye eval cube --crops crops/val
#: --views 1 --views 4``, ``vision/models/README.md``); one cube a picture, so the
#: cost is small.
VIEWS = 4

#: Whether the shipped model reads crops set upright (:func:`.crops.square_upright`:
#: the cube's sides along the crop's) and was trained on them
#: (:func:`gammoneye.datasets.train_cube.fit`). A model and its readers must agree.
UPRIGHT = True


#: How likely each face is where the cube lies, before it is read (:func:`faces_at`).
#: In the middle the cube is the cube of 1, its 64 face up [001 4.4(i), 004]: it
#: leaves the middle at the first double and is back there, turned to 64, only for the
#: next game. On a player's side or offered, 64 is the sixth double in one game, which
#: matches practically never see: there a 64 read is far more likely a face misread.
PLACE_PRIOR: dict[str, dict[int, float]] = {
    "centre": {64: 1.0, 2: 0.001, 4: 0.001, 8: 0.001, 16: 0.001, 32: 0.001},
    "side": {64: 0.02, 2: 1.0, 4: 1.0, 8: 1.0, 16: 1.0, 32: 1.0},
}


def faces_at(faces: F32, place: str) -> F32:
    """The face probabilities the reader gave (:data:`FACES` order) weighed by where
    the cube lies (``centre``, ``bottom``, ``top``, ``offered``; :data:`PLACE_PRIOR`)
    and normalised.

    >>> p = np.array([0.3, 0.1, 0.1, 0.1, 0.1, 0.3], np.float32)  # a 64 or a 32?
    >>> [FACES[int(faces_at(p, where).argmax())] for where in ("centre", "bottom")]
    [64, 32]
    """
    prior = PLACE_PRIOR["centre" if place == "centre" else "side"]
    weighed = faces * np.array([prior[f] for f in FACES], np.float32)
    total = float(weighed.sum())
    return weighed / total if total > 0 else faces


class CubeReader:
    """The loaded cube reader; not thread-safe (one per worker). ``views``: how many
    quarter turns of each crop to read (1..4). ``upright``: set each crop upright
    first, as the model was trained (:data:`UPRIGHT` for the shipped one).
    ``partner``: a network trained without quarter turns (``train cube --no-turns``),
    read at one view beside the turned one and the two averaged: it keeps the picture's
    up, where the face on top lies above the side faces a low camera sees as large."""

    def __init__(
        self,
        classifier: OnnxClassifier,
        views: int = VIEWS,
        upright: bool = UPRIGHT,
        partner: OnnxClassifier | None = None,
    ) -> None:
        self.classifier = classifier
        self.views = check_views(views)
        self.upright = upright
        if partner is not None and partner.height != classifier.height:
            raise ModelError(
                f"the cube reader's two networks read {classifier.height} and "
                f"{partner.height} px crops; they must agree"
            )
        self.partner = partner

    @classmethod
    def load(
        cls,
        path: Path | None = None,
        views: int = VIEWS,
        upright: bool = UPRIGHT,
        partner: Path | None = None,
    ) -> CubeReader:
        """The shipped reader with no ``path`` (and its partner where one is shipped:
        :data:`PARTNER_MODEL`); else the network at ``path``, read alone unless
        ``partner`` names one."""
        if path is None and partner is None and PARTNER_MODEL:
            partner = model_path(PARTNER_MODEL)
        return cls(
            OnnxClassifier(path or model_path(MODEL), SIZE, SIZE),
            views,
            upright,
            OnnxClassifier(partner, SIZE, SIZE) if partner is not None else None,
        )

    def read(self, crops: U8) -> F32:
        """(N, 6) face probabilities, in :data:`FACES` order."""
        if not len(crops):
            return np.zeros((0, len(FACES)), np.float32)
        if self.upright:
            crops = square_upright(self.classifier.sized(crops))
        p = self.classifier.probs(crops, self.views)
        if self.partner is None:
            return p
        return ((p + self.partner.probs(crops)) / 2).astype(np.float32)


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
