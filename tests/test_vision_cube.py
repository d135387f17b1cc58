"""The cube reader at run time (``vision/cube.py``): the turned network read at four
quarter turns, and a partner trained without turns read beside it at one view."""

from __future__ import annotations

import numpy as np
import pytest

from gammoneye.vision.classifier import ModelError, OnnxClassifier, model_path
from gammoneye.vision.crops import square_upright
from gammoneye.vision.cube import MODEL, SIZE, CubeReader


def _crops(n: int = 4) -> np.ndarray:
    return np.random.default_rng(41).integers(0, 255, (n, 70, 70, 3)).astype(np.uint8)


def test_a_partner_is_read_at_one_view_and_averaged_with_the_turned_network() -> None:
    turned = CubeReader.load(model_path(MODEL))
    assert turned.partner is None  # a model given alone is read alone
    net = turned.classifier
    paired = CubeReader(net, turned.views, partner=OnnxClassifier(model_path(MODEL), SIZE, SIZE))
    crops = _crops()
    upright = square_upright(net.sized(crops))
    one_view = net.probs(upright, 1)
    four = turned.read(crops)
    assert np.allclose(four, net.probs(upright, 4), atol=1e-6)
    both = paired.read(crops)
    assert np.allclose(both, (four + one_view) / 2, atol=1e-6)
    assert np.allclose(both.sum(axis=1), 1, atol=1e-5)
    assert not np.allclose(both, four, atol=1e-4)  # the partner's single view counts
    assert paired.read(crops[:0]).shape == (0, 6)


def test_networks_reading_crops_of_different_sizes_are_not_paired() -> None:
    turned = CubeReader.load(model_path(MODEL))
    small = OnnxClassifier(model_path("dice_upright.onnx"), SIZE, SIZE)
    assert small.height != turned.classifier.height
    with pytest.raises(ModelError, match="must agree"):
        CubeReader(turned.classifier, partner=small).read(_crops(1))
