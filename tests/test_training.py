"""The small classifiers' trainer: warm starts from an exported model, box jitter.

Training needs torch (the ``train`` extra); without it these tests skip."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="training needs torch (pip install -e '.[train]')")
pytest.importorskip("onnx", reason="warm starts read ONNX with the onnx package")

from gammoneye.datasets import train_bulk  # noqa: E402
from gammoneye.datasets.training import (  # noqa: E402
    TrainError,
    _net,
    _recolour,
    _warm_start,
    _zoom,
    train_classifier,
)
from gammoneye.vision.cube import CubeReader  # noqa: E402
from gammoneye.vision.dice import DiceReader  # noqa: E402
from gammoneye.vision.points import PointCounter  # noqa: E402


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


def test_recolour_gives_each_picture_its_channels_reordered_grey_or_inverted() -> None:
    torch.manual_seed(5)
    x = torch.rand(64, 3, 4, 4)
    y = _recolour(x.clone())
    orders = set()
    for a, b in zip(x, y, strict=True):
        grey = a.mean(dim=0, keepdim=True).expand(3, -1, -1)
        candidates = [a[list(p)] for p in _PERMS] + [grey]
        candidates += [1.0 - c for c in candidates]
        match = [k for k, c in enumerate(candidates) if torch.allclose(b, c, atol=1e-6)]
        assert match, "a recoloured picture is none of its reorderings, grey or inverses"
        orders.add(match[0] % 7)
    assert len(orders) >= 4  # not the same choice for every picture


_PERMS = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]


def test_a_checkpoint_after_every_epoch_leaves_that_epochs_model(tmp_path: Path) -> None:
    images, labels = _data()
    out = tmp_path / "net.onnx"
    seen: list[tuple[int, bytes]] = []
    train_classifier(
        images, labels, 3, out, epochs=3, seed=0, log=lambda s: None,
        checkpoint=lambda epoch, path: seen.append((epoch, path.read_bytes())),
    )
    assert [e for e, _ in seen] == [1, 2, 3]
    assert seen[0][1] != seen[1][1]  # each epoch's own weights
    assert seen[-1][1] == out.read_bytes()  # the last checkpoint is the model written
    dnn = cv2.dnn.readNetFromONNX(str(out))
    dnn.setInput(images[:4].transpose(0, 3, 1, 2).astype(np.float32) / 255.0)
    assert dnn.forward().shape == (4, 3)


def test_an_unknown_device_is_refused_before_training(tmp_path: Path) -> None:
    images, labels = _data()
    with pytest.raises(TrainError, match="'nodevice': not one torch knows"):
        train_classifier(
            images, labels, 3, tmp_path / "x.onnx", epochs=1, seed=0, device="nodevice",
            log=lambda s: None,
        )
    assert not (tmp_path / "x.onnx").exists()
    if not torch.cuda.is_available():
        with pytest.raises(TrainError, match="sees no CUDA GPU"):
            train_classifier(
                images, labels, 3, tmp_path / "x.onnx", epochs=1, seed=0, device="cuda",
                log=lambda s: None,
            )


def test_train_bulk_renders_cuts_and_trains_the_three_readers(tmp_path: Path) -> None:
    out = tmp_path / "models"
    args = ["--work", str(tmp_path / "work"), "--out", str(out), "--runs", "2", "--n", "3",
            "--pile-runs", "1", "--dice-epochs", "1", "--points-epochs", "1",
            "--cube-epochs", "1", "--device", "cpu", "--processes", "2"]
    assert train_bulk.main(args) == 0
    log = (out / "train_bulk.log").read_text()
    assert "rendered and cut 6 stills" in log and "train_bulk: done" in log
    piles = (tmp_path / "work" / "run000" / "stills" / "manifest.json").read_text()
    assert '"piles": 1.0' in piles  # the first --pile-runs runs have tall piles
    values, cocked = DiceReader.load(out / "dice.onnx").read(np.zeros((2, 48, 48, 3), np.uint8))
    assert values.shape == (2, 6) and cocked.shape == (2,)
    probs = PointCounter.load(out / "point_counts.onnx").count_probs(
        np.zeros((3, 128, 32, 3), np.uint8)
    )
    assert probs.shape == (3, 16)
    faces = CubeReader.load(out / "cube.onnx").read(np.zeros((2, 48, 48, 3), np.uint8))
    assert faces.shape == (2, 6)


def _record_fits(monkeypatch: pytest.MonkeyPatch) -> dict[str, dict[str, object]]:
    """Stand in for the three readers' trainings: each records the ``init`` it would
    start from, its ``turns`` (where given) and its ``out``, and trains nothing."""
    from gammoneye.datasets import train_cube, train_dice, train_points

    seen: dict[str, dict[str, object]] = {}

    def fake(name: str):
        def fit(*args: object, init: Path | None = None, **kwargs: object) -> str:
            seen[name] = {"init": init, "turns": kwargs.get("turns"), "out": kwargs.get("out")}
            return "skipped"

        return fit

    for module, name in ((train_dice, "dice"), (train_points, "points"), (train_cube, "cube")):
        monkeypatch.setattr(module, "fit", fake(name))
    return seen


def _starts(seen: dict[str, dict[str, object]]) -> dict[str, object]:
    return {name: fit["init"] for name, fit in seen.items()}


def test_train_bulk_from_shipped_starts_each_reader_from_its_shipped_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gammoneye.vision.classifier import model_path

    seen = _record_fits(monkeypatch)
    common = ["--work", str(tmp_path / "work"), "--runs", "1", "--n", "2", "--pile-runs", "0",
              "--device", "cpu", "--processes", "1"]
    assert train_bulk.main([*common, "--out", str(tmp_path / "a"), "--from-shipped"]) == 0
    assert _starts(seen) == {
        "dice": model_path("dice.onnx"),
        "points": model_path("point_counts.onnx"),
        "cube": model_path("cube.onnx"),
    }
    assert train_bulk.main([*common, "--out", str(tmp_path / "b")]) == 0
    assert _starts(seen) == {"dice": None, "points": None, "cube": None}  # from scratch


def test_train_bulk_without_turns_trains_the_upright_partners(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--no-turns``: the die and cube readers learn crops as the picture has them and
    are written as the partners' files, going on from the shipped partners; the point
    counter is as without it."""
    from gammoneye.vision.classifier import model_path

    seen = _record_fits(monkeypatch)
    out = tmp_path / "o"
    assert train_bulk.main(["--work", str(tmp_path / "work"), "--runs", "1", "--n", "2",
                            "--pile-runs", "0", "--device", "cpu", "--processes", "1",
                            "--out", str(out), "--no-turns", "--from-shipped"]) == 0
    assert seen == {
        "dice": {"init": model_path("dice_upright.onnx"), "turns": False,
                 "out": out / "dice_upright.onnx.part"},
        "cube": {"init": model_path("cube_upright.onnx"), "turns": False,
                 "out": out / "cube_upright.onnx.part"},
        "points": {"init": model_path("point_counts.onnx"), "turns": None,
                   "out": out / "point_counts.onnx.part"},
    }


def test_train_bulk_from_models_starts_each_reader_from_the_model_of_its_name_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--from-models DIR``: a reader goes on from the model of its name in DIR (the
    partner's name with ``--no-turns``, else the turned model's); one with none there
    starts from scratch."""
    import shutil

    from gammoneye.vision.classifier import model_path

    seen = _record_fits(monkeypatch)
    models = tmp_path / "models"
    models.mkdir()
    shutil.copyfile(model_path("cube.onnx"), models / "cube.onnx")
    shutil.copyfile(model_path("dice_upright.onnx"), models / "dice_upright.onnx")
    common = ["--work", str(tmp_path / "work"), "--runs", "1", "--n", "2", "--pile-runs", "0",
              "--device", "cpu", "--processes", "1", "--from-models", str(models)]
    assert train_bulk.main([*common, "--out", str(tmp_path / "a")]) == 0
    assert _starts(seen) == {"dice": None, "points": None, "cube": models / "cube.onnx"}
    assert train_bulk.main([*common, "--out", str(tmp_path / "b"), "--no-turns"]) == 0
    # no cube_upright.onnx there: the turned cube reader is where its partner starts
    assert _starts(seen) == {
        "dice": models / "dice_upright.onnx", "points": None, "cube": models / "cube.onnx"
    }
    with pytest.raises(SystemExit):
        train_bulk.main([*common[:-1], str(tmp_path / "absent"), "--out", str(tmp_path / "c")])


def test_train_bulk_refuses_a_missing_photos_folder(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        train_bulk.main(["--work", str(tmp_path), "--out", str(tmp_path / "o"),
                         "--photos", str(tmp_path / "absent")])


def test_train_bulk_refuses_more_closeup_runs_than_runs_left(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        train_bulk.main(["--work", str(tmp_path), "--out", str(tmp_path / "o"), "--runs", "4",
                         "--pile-runs", "2", "--closeup-runs", "3"])


def test_train_bulk_refuses_an_unknown_device_before_rendering(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        train_bulk.main(["--work", str(tmp_path / "w"), "--out", str(tmp_path / "o"),
                         "--device", "gpu"])
    assert not (tmp_path / "w").exists()


def test_train_on_device_runs_train_bulk_from_a_shim_outside_the_checkout(
    tmp_path: Path,
) -> None:
    """The script for a machine without the package installed: run from the checkout's
    root, where its own gammoneye/ folder would hide the shim, it still trains."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    out = tmp_path / "out"
    done = subprocess.run(
        ["scripts/train-on-device", str(out), "--runs", "1", "--n", "2", "--pile-runs", "0",
         "--dice-epochs", "1", "--points-epochs", "1", "--only", "points", "--device", "cpu",
         "--work", str(tmp_path / "work")],
        cwd=root, env={**os.environ, "PYTHON": sys.executable}, capture_output=True,
        text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "train_bulk: done" in (out / "train_bulk.log").read_text()
    assert PointCounter.load(out / "point_counts.onnx").count_probs(
        np.zeros((1, 128, 32, 3), np.uint8)
    ).shape == (1, 16)
    assert not (out / "dice.onnx").exists()  # --only points


def test_a_reader_reads_crops_at_its_own_models_input_size(tmp_path: Path) -> None:
    """A cube reader trained at 64 px with a fourth pool (``wide4``) is read at 64 px,
    whatever size its crops come in; the same network with three pools is far larger
    (its dense layer sees 8 x 8, not 4 x 4)."""
    from gammoneye.datasets import train_cube

    rng = np.random.default_rng(5)
    images = rng.integers(0, 255, (12, 64, 64, 3)).astype(np.uint8)
    labels = np.arange(12, dtype=np.int64) % 6
    sizes = {}
    for arch in ("wide4", "wide"):
        out = tmp_path / f"{arch}.onnx"
        train_cube.fit(images, labels, out, epochs=1, arch=arch, log=lambda s: None)
        sizes[arch] = out.stat().st_size
    reader = CubeReader.load(tmp_path / "wide4.onnx")
    assert (reader.classifier.height, reader.classifier.width) == (64, 64)
    assert reader.read(np.zeros((2, 48, 48, 3), np.uint8)).shape == (2, 6)
    assert sizes["wide"] > 2 * sizes["wide4"]


def test_train_dice_lr_sets_the_schedules_peak(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``train dice --lr`` reaches the one-cycle schedule; without it the peak is the
    default, lower when going on from a trained reader."""
    from typer.testing import CliRunner

    from gammoneye.datasets import train_dice
    from gammoneye.service.cli import app

    peaks: list[float] = []

    def record(*args: object, max_lr: float, **kwargs: object) -> object:
        peaks.append(max_lr)
        return train_dice.TrainSummary(1, 1, 0.0, 1.0)

    monkeypatch.setattr(train_dice, "train_classifier", record)
    images, labels = _data(8)
    init = tmp_path / "init.onnx"
    train_dice.fit(images, labels % 12, tmp_path / "a.onnx")
    train_dice.fit(images, labels % 12, tmp_path / "b.onnx", init=init)
    train_dice.fit(images, labels % 12, tmp_path / "c.onnx", init=init, max_lr=1e-4)
    assert peaks == [1.5e-3, 7e-4, 1e-4]

    seen: list[object] = []
    monkeypatch.setattr(
        train_dice, "train", lambda *a, max_lr=None, **k: seen.append(max_lr) or record(max_lr=0)
    )
    for extra, want in (([], None), (["--lr", "2e-4"], 2e-4)):
        args = ["train", "dice", "--crops", str(tmp_path), "--out", str(tmp_path / "d.onnx")]
        result = CliRunner().invoke(app, [*args, *extra])
        assert result.exit_code == 0, result.output
        assert seen[-1] == want
    bad = CliRunner().invoke(app, ["train", "dice", "--crops", str(tmp_path), "--lr", "0"])
    assert bad.exit_code != 0


def test_train_bulk_teaches_the_die_reader_the_dice_of_more_crop_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--crops DIR``: the dice cut into DIR (from a clip's frames, say) join those of
    the runs for the die reader alone, at ``--dice-lr``; a folder with no dice index
    is refused before anything is rendered."""
    import json

    from gammoneye.datasets import train_dice

    seen: dict[str, object] = {}

    def fit(images: np.ndarray, labels: np.ndarray, **kwargs: object) -> str:
        seen["labels"] = labels.tolist()
        seen["max_lr"] = kwargs.get("max_lr")
        return "skipped"

    monkeypatch.setattr(train_dice, "fit", fit)
    more = tmp_path / "clipdice"
    (more / "dice").mkdir(parents=True)
    rows = []
    for k, (value, cocked) in enumerate([(3, False), (5, True), (2, False)]):
        cv2.imwrite(str(more / "dice" / f"d{k}.png"), np.full((64, 64, 3), 40 * k, np.uint8))
        rows.append({"file": f"dice/d{k}.png", "value": value, "cocked": cocked, "box_px": 12.0})
    (more / "dice.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    common = ["--work", str(tmp_path / "work"), "--runs", "1", "--n", "2", "--pile-runs", "0",
              "--device", "cpu", "--processes", "1", "--only", "dice"]
    assert train_bulk.main([*common, "--out", str(tmp_path / "a")]) == 0
    alone = list(seen["labels"])  # type: ignore[call-overload]
    assert train_bulk.main([*common, "--out", str(tmp_path / "b"), "--crops", str(more),
                            "--dice-lr", "2e-4"]) == 0
    assert seen["labels"] == [*alone, 2, 10, 1]  # class: value - 1 + 6 * cocked
    assert seen["max_lr"] == 2e-4
    with pytest.raises(SystemExit):
        train_bulk.main([*common, "--out", str(tmp_path / "c"), "--crops", str(tmp_path)])
