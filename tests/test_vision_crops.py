"""Crops set upright before a reader sees them (``vision.crops.square_upright``)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from gammoneye.vision.crops import square_turn, square_upright


def _turned_cube(angle: float, size: int = 48) -> np.ndarray:
    """A light square with a dark bar on one side (a numeral, roughly) on a dark
    ground, turned ``angle`` degrees anticlockwise as seen."""
    img = np.full((size, size, 3), 40, np.uint8)
    cv2.rectangle(img, (14, 14), (33, 33), (230, 230, 230), -1)
    cv2.rectangle(img, (18, 18), (22, 29), (20, 20, 20), -1)
    turn = cv2.getRotationMatrix2D(((size - 1) / 2, (size - 1) / 2), angle, 1.0)
    return cv2.warpAffine(img, turn, (size, size), borderMode=cv2.BORDER_REPLICATE)


@pytest.mark.parametrize("angle", [0.0, 12.0, 30.0, 44.0, -20.0, 67.0, 135.0])
def test_a_turned_square_is_set_upright(angle: float) -> None:
    """Whatever its turn, the square comes back with its sides along the crop's (to
    a quarter turn, which the readers' four views cover)."""
    # to a quarter turn: a square turned 45 degrees is one turned -45
    off = (square_turn(_turned_cube(angle)) - angle + 45.0) % 90.0 - 45.0
    assert abs(off) < 3.0, off
    upright = square_upright(_turned_cube(angle)[None])[0]
    assert abs(square_turn(upright)) < 3.0
    # the light square fills an axis-aligned box again: its rows and columns either
    # hold it across or not at all
    light = upright[..., 0] > 128
    rows = light.any(axis=1).sum()
    assert rows <= 22 and light.sum() >= 0.8 * rows * rows


def test_upright_keeps_each_crop_of_a_batch_apart() -> None:
    crops = np.stack([_turned_cube(a) for a in (10.0, 25.0, 40.0)])
    out = square_upright(crops)
    assert out.shape == crops.shape and out.dtype == np.uint8
    for one, crop in zip(out, crops, strict=True):
        assert np.array_equal(one, square_upright(crop[None])[0])
