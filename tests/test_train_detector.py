"""The detector's training set: rendered stills warped onto the board canvas the
detector sees at run time, with every visible die and the cube boxed where they are
on it; real photos scaled onto it; a clear error for a folder that is neither."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from gammoneye.datasets.render.stills import StillsConfig, render_stills
from gammoneye.datasets.train_detector import TrainError, build_dataset, merge_datasets
from gammoneye.vision.detector import CANVAS_H, CANVAS_W, canvas_homography

PHOTOS = Path(__file__).resolve().parents[2] / "shared" / "data" / "dice-photos" / "Train"


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("stills")
    render_stills(StillsConfig(n=6, out=out, seed=31, width=640, height=360), workers=1)
    return out


def _boxes(txt: Path) -> list[tuple[int, float, float, float, float]]:
    rows = []
    for line in txt.read_text().splitlines():
        c, *v = line.split()
        rows.append((int(c), *(float(x) for x in v)))
    return rows  # type: ignore[return-value]


def test_stills_become_canvases_with_their_dice_and_cube(run: Path, tmp_path: Path) -> None:
    counts = build_dataset([run], [], tmp_path / "ds", seed=0, val_every=3)
    images = sorted((tmp_path / "ds" / "images").glob("*/*.jpg"))
    assert len(images) == counts["train"] + counts["val"] == 6 and counts["val"] >= 1
    labelled = 0
    for image in images:
        canvas = cv2.imread(str(image))
        assert canvas.shape == (CANVAS_H, CANVAS_W, 3)
        txt = image.parent.parent.parent / "labels" / image.parent.name / f"{image.stem}.txt"
        label = json.loads((run / "labels" / f"{image.stem.split('_', 1)[1]}.json").read_text())
        visible = [
            d for d in label["dice"] if d["box"] and d["in_image"] and d["hidden_by_hand"] <= 0.5
        ]
        rows = _boxes(txt)
        for cls, cx, cy, w, h in rows:
            assert cls in (0, 1, 2) and 0 <= cx <= 1 and 0 <= cy <= 1 and 0 < w <= 1 and 0 < h <= 1
        # each visible die is there (tiny ones may be dropped), with its class
        assert sum(1 for r in rows if r[0] in (0, 1)) <= len(visible)
        cocked = sum(1 for d in visible if d["cocked"])
        assert sum(1 for r in rows if r[0] == 1) <= cocked
        labelled += bool(rows)
    assert labelled >= 3
    assert (tmp_path / "ds" / "data.yaml").read_text().count(":") >= 5


def test_a_box_lands_where_the_die_is_on_the_canvas() -> None:
    field = np.array([(100, 300), (500, 300), (500, 60), (100, 60)], np.float64)
    h = canvas_homography(field, ordered=True)
    centre = cv2.perspectiveTransform(np.array([[[300.0, 180.0]]]), h)[0, 0]
    assert np.allclose(centre, (CANVAS_W / 2, CANVAS_H / 2), atol=0.5)


@pytest.mark.skipif(not PHOTOS.is_dir(), reason=f"no real dice photos at {PHOTOS}")
def test_photos_are_scaled_onto_the_canvas_as_dice(tmp_path: Path) -> None:
    few = tmp_path / "few"
    few.mkdir()
    for jpg in sorted(PHOTOS.glob("*.jpg"))[:3]:
        (few / jpg.name).write_bytes(jpg.read_bytes())
        (few / f"{jpg.stem}.txt").write_text(jpg.with_suffix(".txt").read_text())
    counts = build_dataset([], [few], tmp_path / "ds", photo_repeats=1, val_every=1000)
    assert counts["train"] == 3
    for txt in sorted((tmp_path / "ds" / "labels" / "train").glob("*.txt")):
        rows = _boxes(txt)
        assert rows and all(r[0] == 0 for r in rows)


def test_folders_that_are_no_data_are_refused(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(TrainError, match="not a stills run"):
        build_dataset([tmp_path / "empty"], [], tmp_path / "ds")
    with pytest.raises(TrainError, match="no labelled photos"):
        build_dataset([], [tmp_path / "empty"], tmp_path / "ds2")


def test_shards_made_side_by_side_train_as_one_dataset(run: Path, tmp_path: Path) -> None:
    """Each process of a bulk run makes its own shard; one data.yaml names them all."""
    a = build_dataset([run], [], tmp_path / "a", seed=0, val_every=3)
    b = build_dataset([run], [], tmp_path / "b", seed=1, val_every=2)
    data = merge_datasets([tmp_path / "a", tmp_path / "b"], tmp_path / "all")
    spec = (data / "data.yaml").read_text().splitlines()
    train = json.loads(spec[0].split(":", 1)[1].replace("'", '"'))
    val = json.loads(spec[1].split(":", 1)[1])
    assert train == [str((tmp_path / s / "images" / "train").resolve()) for s in "ab"]
    assert val == [str((tmp_path / s / "images" / "val").resolve()) for s in "ab"]
    assert sum(len(list(Path(f).glob("*.jpg"))) for f in train) == a["train"] + b["train"]
    assert "names:" in spec[2] and '"die"' in spec[3]


def test_a_folder_that_is_no_shard_is_refused(run: Path, tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(TrainError, match="no detector dataset"):
        merge_datasets([tmp_path / "empty"], tmp_path / "all")
    build_dataset([run], [], tmp_path / "only_train", seed=0, val_every=1000)
    with pytest.raises(TrainError, match="no training or no validation"):
        merge_datasets([tmp_path / "only_train"], tmp_path / "all2")


def test_training_from_missing_weights_fails_before_building_the_dataset(
    run: Path, tmp_path: Path
) -> None:
    from typer.testing import CliRunner

    from gammoneye.service.cli import app

    work = tmp_path / "work"
    args = ["train", "detector", "--stills", str(run), "--work", str(work)]
    result = CliRunner().invoke(app, [*args, "--from", str(tmp_path / "gone.onnx")])
    assert result.exit_code == 2
    assert "no such weights to start from" in result.output
    assert not work.exists()  # nothing built for a run that cannot start
