"""``gammoneye render export-yolo``: a stills run as an ultralytics YOLO dataset."""

from __future__ import annotations

import doctest
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from gammoneye.datasets.render import yolo
from gammoneye.datasets.render.stills import StillsConfig, render_stills
from gammoneye.datasets.render.yolo import TASKS, export_yolo, split_of, yolo_lines
from gammoneye.service.cli import app

runner = CliRunner()
N = 6


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("yolo") / "run"
    render_stills(StillsConfig(n=N, out=out, seed=32, width=320, height=180), workers=1)
    return out


def _labels(run: Path) -> dict[str, dict[str, Any]]:
    return {p.stem: json.loads(p.read_text()) for p in sorted((run / "labels").glob("*.json"))}


def _txt(dataset: Path) -> dict[str, tuple[str, list[list[str]]]]:
    """Per image stem: its split and its label lines, split into fields."""
    out = {}
    for split in ("train", "val"):
        for p in (dataset / "labels" / split).glob("*.txt"):
            out[p.stem] = (split, [line.split() for line in p.read_text().splitlines()])
    return out


def _kept(obj: dict[str, Any]) -> bool:
    return bool(obj["in_image"]) and obj["hidden_by_hand"] <= 0.5


def _expected(label: dict[str, Any], task: str) -> list[tuple[int, list[float]]]:
    """(class, box) of every object the export must write, in label order."""
    if task == "objects":
        objs = [(0, c) for c in label["checkers"]]
        objs += [(2 if d["cocked"] else 1, d) for d in label["dice"]]
        objs += [(3, label["cube"])] if label["cube"] is not None else []
    elif task == "dicecube":
        objs = [(1 if d["cocked"] else 0, d) for d in label["dice"]]
        objs += [(2, label["cube"])] if label["cube"] is not None else []
    else:
        objs = [(6 if d["cocked"] else d["value"] - 1, d) for d in label["dice"]]
    return [(cls, obj["box"]) for cls, obj in objs if _kept(obj)]


@pytest.mark.parametrize("task", list(TASKS))
def test_lines_are_the_kept_objects_normalised(run: Path, tmp_path: Path, task: str) -> None:
    dataset = tmp_path / "ds"
    summary = export_yolo(run, dataset, task=task, seed=1)
    labels, txt = _labels(run), _txt(dataset)
    assert sorted(txt) == sorted(labels)
    total = 0
    for stem, label in labels.items():
        expected = _expected(label, task)
        lines = txt[stem][1]
        assert len(lines) == len(expected), stem
        for fields, (cls, box) in zip(lines, expected, strict=True):
            assert len(fields) == 5
            assert int(fields[0]) == cls and 0 <= cls < len(TASKS[task])
            cx, cy, w, h = (float(v) for v in fields[1:])
            assert all(0.0 <= v <= 1.0 for v in (cx, cy, w, h)) and w > 0 and h > 0
            W, H = label["width"], label["height"]
            back = [(cx - w / 2) * W, (cy - h / 2) * H, (cx + w / 2) * W, (cy + h / 2) * H]
            assert back == pytest.approx(box, abs=0.01)
        total += len(expected)
    assert sum(summary.objects.values()) == total
    assert total > 0


def test_dice_task_counts_every_die_off_the_board_too(run: Path, tmp_path: Path) -> None:
    summary = export_yolo(run, tmp_path / "ds", task="dice")
    dice = [d for label in _labels(run).values() for d in label["dice"] if _kept(d)]
    assert summary.objects["cocked"] == sum(d["cocked"] for d in dice)
    for v in range(1, 7):
        assert summary.objects[str(v)] == sum(d["value"] == v and not d["cocked"] for d in dice)


def _label(**die: Any) -> dict[str, Any]:
    d = {"value": 3, "cocked": False, "box": [40.0, 20.0, 60.0, 30.0], "in_image": True}
    d |= {"hidden_by_hand": 0.0, "truncated": False} | die
    return {"width": 200, "height": 100, "checkers": [], "cube": None, "dice": [d]}


@pytest.mark.parametrize(
    ("label", "task", "min_visible", "expected"),
    [
        (_label(), "dice", 0.5, ["2 0.250000 0.250000 0.100000 0.100000"]),
        (_label(), "objects", 0.5, ["1 0.250000 0.250000 0.100000 0.100000"]),
        (_label(cocked=True), "dice", 0.5, ["6 0.250000 0.250000 0.100000 0.100000"]),
        (_label(cocked=True), "objects", 0.5, ["2 0.250000 0.250000 0.100000 0.100000"]),
        (_label(value=6), "dice", 0.5, ["5 0.250000 0.250000 0.100000 0.100000"]),
        (_label(in_image=False, box=None), "objects", 0.5, []),
        (_label(hidden_by_hand=0.51), "objects", 0.5, []),
        (_label(hidden_by_hand=0.5), "objects", 0.5, ["1 0.250000 0.250000 0.100000 0.100000"]),
        (_label(hidden_by_hand=0.3), "objects", 0.8, []),
        (_label(hidden_by_hand=0.9), "objects", 0.0, ["1 0.250000 0.250000 0.100000 0.100000"]),
        # cut by the image border: the clipped box stays
        (
            _label(truncated=True, box=[0.0, 90.0, 10.0, 100.0]),
            "objects",
            0.5,
            ["1 0.025000 0.950000 0.050000 0.100000"],
        ),
    ],
)
def test_yolo_lines(
    label: dict[str, Any], task: str, min_visible: float, expected: list[str]
) -> None:
    assert yolo_lines(label, task, min_visible) == expected


def test_yolo_lines_classes_per_object_kind() -> None:
    box = {"box": [0.0, 0.0, 10.0, 10.0], "in_image": True, "hidden_by_hand": 0.0}
    label = {
        "width": 10,
        "height": 10,
        "checkers": [box, box],
        "dice": [box | {"value": 4, "cocked": False}, box | {"value": 2, "cocked": True}],
        "cube": box,
    }
    assert [x.split()[0] for x in yolo_lines(label, "objects")] == ["0", "0", "1", "2", "3"]
    assert [x.split()[0] for x in yolo_lines(label, "dice")] == ["3", "6"]


def test_split_is_by_image_deterministic_and_seeded(run: Path, tmp_path: Path) -> None:
    a = export_yolo(run, tmp_path / "a", val_fraction=0.34, seed=4)
    b = export_yolo(run, tmp_path / "b", val_fraction=0.34, seed=4)
    split_a = {stem: split for stem, (split, _) in _txt(tmp_path / "a").items()}
    split_b = {stem: split for stem, (split, _) in _txt(tmp_path / "b").items()}
    assert split_a == split_b
    assert a.images == b.images == {"train": 4, "val": 2}
    for split in ("train", "val"):
        images = sorted(p.stem for p in (tmp_path / "a" / "images" / split).iterdir())
        assert images == sorted(s for s, sp in split_a.items() if sp == split)
    names = [f"{i:06d}.json" for i in range(200)]
    assert split_of(names, 0.1, seed=4) == split_of(list(reversed(names)), 0.1, seed=4)
    assert split_of(names, 0.1, seed=4) != split_of(names, 0.1, seed=5)
    assert list(split_of(names, 0.1, seed=4).values()).count("val") == 20


@pytest.mark.parametrize(
    ("n", "fraction", "val"), [(1, 0.5, 0), (2, 0.01, 1), (3, 0.9, 2), (10, 0.0, 0)]
)
def test_split_keeps_both_sides_when_it_can(n: int, fraction: float, val: int) -> None:
    names = [f"{i}.json" for i in range(n)]
    assert list(split_of(names, fraction, seed=0).values()).count("val") == val


def test_images_are_linked_and_data_yaml_names_the_classes(run: Path, tmp_path: Path) -> None:
    dataset = tmp_path / "ds"
    export_yolo(run, dataset, task="dice")
    for p in (dataset / "images").glob("*/*.jpg"):
        src = run / "images" / p.name
        assert p.read_bytes() == src.read_bytes()
        assert p.stat().st_ino == src.stat().st_ino  # a hard link, same file system
    text = (dataset / "data.yaml").read_text()
    assert f'path: "{dataset.resolve()}"' in text.splitlines()
    assert "train: images/train" in text and "val: images/val" in text
    names = [line.split(": ", 1)[1] for line in text.splitlines() if line.startswith("  ")]
    assert names == ['"1"', '"2"', '"3"', '"4"', '"5"', '"6"', '"cocked"']
    record = json.loads((dataset / "export.json").read_text())
    assert (record["task"], record["label_version"]) == ("dice", 1)


def test_cli_exports_and_reports(run: Path, tmp_path: Path) -> None:
    dataset = tmp_path / "ds"
    result = runner.invoke(
        app, ["render", "export-yolo", str(run), "--out", str(dataset), "--val-fraction", "0.2"]
    )
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"wrote 5 train + 1 val images to {dataset} (checker ")
    assert (dataset / "data.yaml").is_file()


def _edit_label(key: str, value: object) -> Callable[[Path], None]:
    def edit(run: Path) -> None:
        path = run / "labels" / "000002.json"
        label = json.loads(path.read_text())
        label[key] = value
        path.write_text(json.dumps(label))

    return edit


def _not_empty_out(run: Path) -> None:
    (run.parent / "ds").mkdir()
    (run.parent / "ds" / "keep.txt").write_text("x")


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda run: shutil.rmtree(run / "labels"), "is not a stills run: it has no labels/"),
        (lambda run: [p.unlink() for p in (run / "labels").iterdir()], "holds no labels"),
        (_edit_label("version", 2), "000002.json: label schema 'gammoneye-render-label' version 2"),
        (_edit_label("schema", "other"), "000002.json: label schema 'other' version 1"),
        (lambda run: (run / "labels" / "000002.json").write_text("{"), "not a readable JSON"),
        (lambda run: (run / "images" / "000002.jpg").unlink(), "images/000002.jpg is missing"),
        (_not_empty_out, "exists and is not empty"),
    ],
)
def test_cli_errors_exit_2_with_one_line(
    run: Path, tmp_path: Path, damage: Callable[[Path], object], message: str
) -> None:
    copy = tmp_path / "run"
    shutil.copytree(run, copy)
    damage(copy)
    out = tmp_path / "ds"
    result = runner.invoke(app, ["render", "export-yolo", str(copy), "--out", str(out)])
    assert result.exit_code == 2
    assert result.output.startswith("error: ") and message in result.output
    assert result.output.count("\n") == 1 and "Traceback" not in result.output
    if message != "exists and is not empty":
        assert not out.exists()  # everything is checked before anything is written


def test_cli_refuses_an_unknown_task(run: Path, tmp_path: Path) -> None:
    args = ["render", "export-yolo", str(run), "--out", str(tmp_path / "ds"), "--task", "cube"]
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert "'cube' is not one of 'objects', 'dice'" in result.output


def test_docstring_examples() -> None:
    assert doctest.testmod(yolo).failed == 0
