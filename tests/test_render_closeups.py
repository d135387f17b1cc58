"""Close-up stills (``render stills --closeups``): the camera near the dice, the board
partly behind it. Labels stay valid JSON, the dice are large, nothing behind the
camera is labelled as if it were in the picture."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gammoneye.datasets.render.crops import export_crops
from gammoneye.datasets.render.stills import StillsConfig, render_stills


def strict_json(text: str) -> dict:  # type: ignore[type-arg]
    def refuse(name: str) -> None:
        raise ValueError(f"{name} in a label")

    return json.loads(text, parse_constant=refuse)  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("closeups")
    render_stills(
        StillsConfig(n=16, out=out, seed=77, width=640, height=360, closeups=1.0), workers=1
    )
    return out


@pytest.fixture(scope="module")
def labels(run: Path) -> list[dict]:  # type: ignore[type-arg]
    return [strict_json(p.read_text()) for p in sorted((run / "labels").iterdir())]


def test_dice_are_large_in_close_ups(labels: list[dict]) -> None:  # type: ignore[type-arg]
    sizes = []
    for label in labels:
        for die in label["dice"]:
            if die["in_image"] and not die["truncated"]:
                x0, y0, x1, y1 = die["box"]
                sizes.append(max(x1 - x0, y1 - y0))
    assert len(sizes) >= 16
    # 28-90 px at 1280 wide: 14-45 px here, bigger when tilted towards the camera
    assert sorted(sizes)[len(sizes) // 2] > 14


def test_boxes_stay_in_the_picture(labels: list[dict]) -> None:  # type: ignore[type-arg]
    for label in labels:
        w, h = label["width"], label["height"]
        for item in [
            *label["checkers"],
            *label["dice"],
            *([label["cube"]] if label["cube"] else []),
        ]:
            if item["in_image"]:
                x0, y0, x1, y1 = item["box"]
                assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h
            else:
                assert item["box"] is None


def test_close_ups_give_dice_crops_and_no_partial_point_strips(run: Path, tmp_path: Path) -> None:
    summary = export_crops(run, tmp_path / "crops")
    assert summary.dice >= 16
    assert summary.points % 24 == 0  # whole boards only
