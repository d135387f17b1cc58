"""The small classifiers' trainer: warm starts from an exported model, box jitter.

Training needs torch (the ``train`` extra); without it these tests skip."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="training needs torch (pip install -e '.[train]')")
pytest.importorskip("onnx", reason="warm starts read ONNX with the onnx package")

from gammoneye.datasets.training import (  # noqa: E402
    TrainError,
    _net,
    _warm_start,
    _zoom,
    train_classifier,
)


def _data(n: int = 96, seed: int = 3) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 3, n)
    images = rng.integers(0, 60, (n, 16, 16, 3)).astype(np.uint8)
    for img, y in zip(images, labels, strict=True):  # a bright square whose place is the class
        img[2 + 4 * y : 6 + 4 * y, 4:12] = 220
    return images, labels.astype(np.int64)


def test_a_warm_start_computes_what_the_exported_model_computes(tmp_path: Path) -> None:
    images, labels = _data()
    first = tmp_path / "first.onnx"
    train_classifier(images, labels, 3, first, epochs=2, seed=0, log=lambda s: None)
    net = _net(16, 16, 3, "small")
    x = torch.from_numpy(images).permute(0, 3, 1, 2).float() / 255.0
    _warm_start(net, first, x)
    dnn = cv2.dnn.readNetFromONNX(str(first))
    dnn.setInput(x.numpy())
    net.eval()
    with torch.no_grad():
        assert np.allclose(net(x).numpy(), dnn.forward(), atol=1e-3)
        running = net[:-3](x)  # up to the first dense layer, before the dropout
        net.train()
        batch = net[:-3](x)  # batch norms on the batch's (the sample's) statistics
    assert torch.allclose(running, batch, atol=1e-3)


def test_a_warm_start_from_another_network_is_refused(tmp_path: Path) -> None:
    images, labels = _data()
    first = tmp_path / "first.onnx"
    train_classifier(images, labels, 3, first, epochs=1, seed=0, log=lambda s: None)
    with pytest.raises(TrainError, match="not a model of this network"):
        _warm_start(_net(16, 16, 3, "wide"), first, torch.zeros(4, 3, 16, 16))


def test_a_warm_start_from_a_missing_or_broken_file_says_so(tmp_path: Path) -> None:
    net = _net(16, 16, 3, "small")
    with pytest.raises(TrainError, match="no such file"):
        _warm_start(net, tmp_path / "absent.onnx", torch.zeros(4, 3, 16, 16))
    junk = tmp_path / "junk.onnx"
    junk.write_text("not a model")
    with pytest.raises(TrainError, match="not an ONNX model"):
        _warm_start(net, junk, torch.zeros(4, 3, 16, 16))


def test_zoom_one_is_the_crop_itself_and_above_one_shrinks_it() -> None:
    x = torch.zeros(1, 3, 32, 32)
    x[:, :, 8:24, 8:24] = 1.0  # a 16 px square in the middle
    assert torch.allclose(_zoom(x, 1.0, 1.0, 0.0), x, atol=1e-5)
    small = _zoom(x, 2.0, 2.0, 0.0)[0, 0]
    side = float((small > 0.5).sum()) ** 0.5
    assert 7 <= side <= 9  # the box twice the size: the square half as wide
    assert float(small[16, 16]) > 0.9 and float(small[2, 2]) < 0.1
