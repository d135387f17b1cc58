"""The cube reader at run time (``vision/cube.py``): the turned network read at four
quarter turns, and a partner trained without turns read beside it at one view."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from gammoneye.service.cli import app
from gammoneye.vision.classifier import ModelError, OnnxClassifier, model_path
from gammoneye.vision.crops import square_upright
from gammoneye.vision.cube import FACES, MODEL, SIZE, CubeReader


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


def test_the_shipped_reader_reads_with_its_partner_and_a_models_folder_gives_both(
    tmp_path,
) -> None:
    import shutil

    from gammoneye.vision.cube import PARTNER_MODEL
    from gammoneye.vision.read import BoardReader

    assert PARTNER_MODEL
    shipped = CubeReader.load()
    assert shipped.partner is not None
    models = tmp_path / "models"
    models.mkdir()
    for name in (
        "point_counts.onnx",
        "dice.onnx",
        "dice_upright.onnx",
        "dicecube.onnx",
        MODEL,
        PARTNER_MODEL,
    ):
        shutil.copyfile(model_path(name), models / name)
    reader = BoardReader.load(models)
    assert reader.cube.partner is not None
    crops = _crops(2)
    assert np.allclose(reader.cube.read(crops), shipped.read(crops), atol=1e-6)
    (models / PARTNER_MODEL).unlink()
    with pytest.raises(ModelError):
        BoardReader.load(models)


def test_train_cube_trains_the_network_and_input_size_asked_for(tmp_path: Path) -> None:
    """``train cube --arch --size``: the network is read at the size it was trained at
    (the shipped cube readers: ``wider4`` at 64 px; here ``small`` at 32 to be quick)."""
    pytest.importorskip("torch", reason="training needs torch (pip install -e '.[train]')")
    crops = tmp_path / "crops"
    (crops / "cube").mkdir(parents=True)
    rng = np.random.default_rng(3)
    rows = []
    for k in range(12):
        name = f"cube/{k:03d}.png"
        cv2.imwrite(str(crops / name), rng.integers(0, 255, (64, 64, 3)).astype(np.uint8))
        rows.append(json.dumps({"file": name, "value": FACES[k % 6]}))
    (crops / "cube.jsonl").write_text("\n".join(rows) + "\n")
    out = tmp_path / "cube.onnx"
    args = ["train", "cube", "--crops", str(crops), "--out", str(out), "--epochs", "1"]
    result = CliRunner().invoke(app, [*args, "--arch", "small", "--size", "32"])
    assert result.exit_code == 0, result.output
    reader = CubeReader.load(out)
    assert (reader.classifier.height, reader.classifier.width) == (32, 32)
    assert "trained on 12 cubes" in result.output


def test_train_cube_refuses_a_crop_size_no_numeral_can_be_read_at(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["train", "cube", "--crops", str(tmp_path), "--size", "8"])
    assert result.exit_code == 2 and "--size" in result.output and "Traceback" not in result.output
