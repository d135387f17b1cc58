"""Training crops: one upright strip per point with its labels, a square per die and
cube, the same crops for the same seed, clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from gammoneye.datasets.render.crops import CropConfig, CropError, export_crops
from gammoneye.datasets.render.stills import StillsConfig, render_stills
from gammoneye.service.cli import app


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("stills")
    render_stills(StillsConfig(n=4, out=out, seed=21, width=640, height=360), workers=1)
    return out


def lines(path: Path) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_crops_and_their_labels(run: Path, tmp_path: Path) -> None:
    out = tmp_path / "crops"
    summary = export_crops(run, out, CropConfig(strip=(32, 128), square=48))
    points = lines(out / "points.jsonl")
    assert summary.points == len(points) == 4 * 24
    labels = {p.name: json.loads(p.read_text()) for p in (run / "labels").iterdir()}
    for item in points:
        crop = cv2.imread(str(out / item["file"]))
        assert crop.shape == (128, 32, 3)
        label = labels[Path(item["image"]).stem + ".json"]
        cell = label["position"]["points"][item["point"] - 1]
        assert (item["count"], item["owner"], item["colour"]) == (
            cell["count"],
            cell["owner"],
            cell["colour"],
        )
    dice = lines(out / "dice.jsonl")
    assert len(dice) == summary.dice and all(
        cv2.imread(str(out / d["file"])).shape == (48, 48, 3) for d in dice
    )
    assert all(d["value"] in range(1, 7) for d in dice)
    assert len(lines(out / "cube.jsonl")) == summary.cubes


def test_each_strip_holds_its_own_checkers(run: Path, tmp_path: Path) -> None:
    out = tmp_path / "crops"
    export_crops(run, out, CropConfig(strip=(32, 128), jitter=0.0))
    labels = {p.name: json.loads(p.read_text()) for p in (run / "labels").iterdir()}
    own = other = 0
    for item in lines(out / "points.jsonl"):
        quad = np.array(item["quad_px"], np.float32).reshape(-1, 1, 2)
        label = labels[Path(item["image"]).stem + ".json"]
        for c in label["checkers"]:
            if c["where"] != "point" or c["layer"] != 0:
                continue
            inside = cv2.pointPolygonTest(quad, tuple(c["centre_px"]), False) >= 0
            if c["point"] == item["point"]:
                assert inside, (item["file"], c)
                own += 1
            else:
                other += inside
    assert own > 50 and other == 0


def test_same_seed_same_crops(run: Path, tmp_path: Path) -> None:
    export_crops(run, tmp_path / "a", CropConfig(seed=3))
    export_crops(run, tmp_path / "b", CropConfig(seed=3))
    for item in lines(tmp_path / "a" / "points.jsonl")[:30]:
        assert (tmp_path / "a" / item["file"]).read_bytes() == (
            tmp_path / "b" / item["file"]
        ).read_bytes()


def test_errors(run: Path, tmp_path: Path) -> None:
    with pytest.raises(CropError, match="no labels/ folder"):
        export_crops(tmp_path, tmp_path / "x")
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "file").write_text("x")
    with pytest.raises(CropError, match="not empty"):
        export_crops(run, busy)
    result = CliRunner().invoke(
        app, ["render", "export-crops", str(run), "--out", str(tmp_path / "c"), "--strip", "wide"]
    )
    assert result.exit_code == 2 and "WIDTHxHEIGHT" in result.output


def test_only_some_kinds(run: Path, tmp_path: Path) -> None:
    everything = tmp_path / "all"
    export_crops(run, everything, CropConfig(seed=4))
    result = CliRunner().invoke(
        app,
        ["render", "export-crops", str(run), "--out", str(tmp_path / "d"), "--only", "dice"],
    )
    assert result.exit_code == 0, result.output
    dice = lines(tmp_path / "d" / "dice.jsonl")
    assert [d["value"] for d in dice] == [d["value"] for d in lines(everything / "dice.jsonl")]
    assert dice and all((tmp_path / "d" / d["file"]).exists() for d in dice)
    for kind in ("points", "bar", "cube"):
        assert (tmp_path / "d" / f"{kind}.jsonl").read_text() == ""
    result = CliRunner().invoke(
        app, ["render", "export-crops", str(run), "--out", str(tmp_path / "e"), "--only", "pips"]
    )
    assert result.exit_code == 2 and "choose from points, bar, dice, cube" in result.output


def test_eval_cube_reads_the_cut_cubes(run: Path, tmp_path: Path) -> None:
    out = tmp_path / "c"
    summary = export_crops(run, out, CropConfig(seed=5, kinds=frozenset({"cube"})))
    result = CliRunner().invoke(
        app, ["eval", "cube", "--crops", str(out), "--views", "1", "--views", "4"]
    )
    assert result.exit_code == 0, result.output
    totals = [line for line in result.output.splitlines() if "cubes, face right" in line]
    # one view, four views, then the shipped pair (four views and the partner's one)
    assert len(totals) == 3 and all(line.startswith(f"{summary.cubes} cubes") for line in totals)
    assert "turned at 4 views + upright at 1, faces averaged" in result.output
