"""Close-up stills (``render stills --closeups``): the camera near the dice, the board
partly behind it. Labels stay valid JSON, the dice are large, nothing behind the
camera is labelled as if it were in the picture."""

from __future__ import annotations

import json

import pytest

from gammoneye.datasets.render.stills import StillsConfig, render_stills


def strict_json(text: str) -> dict:  # type: ignore[type-arg]
    def refuse(name: str) -> None:
        raise ValueError(f"{name} in a label")

    return json.loads(text, parse_constant=refuse)  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def labels(tmp_path_factory: pytest.TempPathFactory) -> list[dict]:  # type: ignore[type-arg]
    out = tmp_path_factory.mktemp("closeups")
    render_stills(
        StillsConfig(n=16, out=out, seed=77, width=640, height=360, closeups=1.0), workers=1
    )
    return [strict_json(p.read_text()) for p in sorted((out / "labels").iterdir())]


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
