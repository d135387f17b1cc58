"""The shipped point counter reads rendered strips it never saw, through OpenCV's DNN
module; the train and eval commands fail with one clear line on bad input."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from gammoneye.datasets.render.crops import CropConfig, export_crops
from gammoneye.datasets.render.stills import StillsConfig, render_stills
from gammoneye.service.cli import app
from gammoneye.vision.points import ModelError, PointCounter, evaluate


@pytest.fixture(scope="module")
def crops(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # a seed and a style the shipped model was not trained on (vision/models/README.md)
    run = tmp_path_factory.mktemp("stills")
    render_stills(StillsConfig(n=10, out=run, seed=9090, styles=("casino_red_felt",)), workers=1)
    out = tmp_path_factory.mktemp("crops") / "c"
    export_crops(run, out, CropConfig(seed=4))
    return out


def test_the_shipped_counter_reads_unseen_strips(crops: Path) -> None:
    report = evaluate(PointCounter.load(), [crops])
    assert len(report.truth) >= 150  # 240 strips, those under a hand left out
    # the model's measured error on held-out renders is a few percent (README); a
    # broken model, a wrong input layout or a strip cut wrongly reads far worse
    assert report.error_rate < 0.12, report.lines()


def test_a_strip_and_its_mirror_image_read_alike(crops: Path) -> None:
    """Each strip is read with its mirror image and the two averaged
    (``MIRRORED``): a strip and its mirror give the same probabilities, which the
    network alone does not."""
    import cv2

    files = sorted((crops / "points").glob("*.png"))[:26]
    strips = np.stack([cv2.resize(cv2.imread(str(f)), (32, 128)) for f in files])
    counter = PointCounter.load()
    mirrored = strips[:, :, ::-1].copy()
    assert np.allclose(counter.count_probs(strips), counter.count_probs(mirrored), atol=1e-5)
    alone = counter.classifier.probs(strips), counter.classifier.probs(mirrored)
    assert not np.allclose(*alone, atol=1e-5)


def test_probabilities_and_shapes() -> None:
    counter = PointCounter.load()
    probs = counter.count_probs(np.full((3, 200, 50, 3), 128, np.uint8))  # any size
    assert probs.shape == (3, 16) and np.allclose(probs.sum(axis=1), 1)
    with pytest.raises(ValueError, match="expected strips"):
        counter.count_probs(np.zeros((128, 32, 3), np.uint8))


def test_a_missing_model_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not a model")
    with pytest.raises(ModelError, match="cannot read model"):
        PointCounter.load(bad)


@pytest.mark.parametrize("command", ["train", "eval"])
def test_commands_refuse_a_folder_without_crops(tmp_path: Path, command: str) -> None:
    result = CliRunner().invoke(app, [command, "points", "--crops", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert "no points.jsonl" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("reader", ["points", "dice", "cube"])
def test_train_refuses_an_unknown_network_size_before_reading_crops(
    reader: str, tmp_path: Path
) -> None:
    result = CliRunner().invoke(
        app, ["train", reader, "--crops", str(tmp_path), "--arch", "huge"]
    )
    assert result.exit_code != 0
    assert "--arch huge: not one of small, wide, wider" in result.output
