"""Printed markers: the field's corners come back from a photographed board with
the four markers laid at its corners, any way round, in canonical order; missing or
misplaced markers are named; the sheet prints and reads."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from gammoneye.calibration.boardspace import CalibrationError
from gammoneye.calibration.markers import DICTIONARY, detect, find_markers
from gammoneye.calibration.profile import CalibrationProfile
from gammoneye.service.cli import app

FIELD = np.array([(300.0, 840.0), (1100.0, 840.0), (1100.0, 200.0), (300.0, 200.0)])


def _table(rng: np.random.Generator, order: tuple[int, ...] = (0, 1, 2, 3)) -> np.ndarray:
    """A top-down table with a field and marker ``order[k]`` outside corner k, one of
    its corners on the field's corner, turned a random quarter."""
    img = np.full((1100, 1400, 3), (60, 110, 160), np.uint8)
    cv2.rectangle(img, (300, 200), (1100, 840), (40, 40, 150), -1)
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    black, pad = 60, 5  # the marker's black square, and the paper's white edge
    outward = np.array([(-1, 1), (1, 1), (1, -1), (-1, -1)])  # away from the field
    for k in range(4):
        marker = cv2.aruco.generateImageMarker(dictionary, order[k], black, borderBits=1)
        marker = cv2.copyMakeBorder(marker, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=255)
        marker = np.rot90(marker, int(rng.integers(4)))
        x, y = FIELD[k].astype(int)
        dx, dy = outward[k]
        # the black square's corner on the field's corner; the paper's edge overlaps
        x0 = (x if dx > 0 else x - black) - pad
        y0 = (y if dy > 0 else y - black) - pad
        img[y0 : y0 + black + 2 * pad, x0 : x0 + black + 2 * pad] = marker[..., None]
    return img


def _photograph(img: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The table seen at an angle by a 1280 x 720 camera; the field's corners there."""
    src = np.array([(0, 1100), (1400, 1100), (1400, 0), (0, 0)], np.float32)
    jitter = rng.uniform(-60, 60, (4, 2))
    dst = np.array([(80, 700), (1200, 690), (1000, 40), (280, 60)], np.float32) + jitter
    h = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    photo = cv2.warpPerspective(img, h, (1280, 720), flags=cv2.INTER_AREA)
    noise = rng.normal(0, 3, photo.shape)
    photo = np.clip(photo + noise, 0, 255).astype(np.uint8)
    return photo, cv2.perspectiveTransform(FIELD.reshape(-1, 1, 2), h).reshape(-1, 2)


@pytest.mark.parametrize("seed", range(5))
def test_the_field_corners_come_back_in_canonical_order(seed: int) -> None:
    rng = np.random.default_rng(seed)
    photo, truth = _photograph(_table(rng), rng)
    corners = find_markers(photo)
    assert corners is not None
    # markers 0..3 give c0..c3; a marker's corner is found to a pixel or two
    assert np.abs(corners - truth).max() < 3.0, (corners, truth)


def test_no_markers_is_none_and_missing_ones_are_named() -> None:
    rng = np.random.default_rng(7)
    assert find_markers(np.full((480, 640, 3), 128, np.uint8)) is None
    photo, truth = _photograph(_table(rng), rng)
    x, y = truth[2].astype(int)
    cv2.circle(photo, (x, y), 60, (90, 90, 90), -1)  # a cup over marker 2
    with pytest.raises(CalibrationError, match=r"markers not found: 2 \(top-right\)"):
        find_markers(photo)


def test_markers_out_of_order_are_refused() -> None:
    rng = np.random.default_rng(8)
    photo, _ = _photograph(_table(rng, order=(1, 0, 2, 3)), rng)
    with pytest.raises(CalibrationError, match="not laid in order"):
        find_markers(photo)


def test_the_printed_sheet_reads_and_calibrate_uses_the_markers(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.png"
    result = CliRunner().invoke(app, ["markers", str(sheet)])
    assert result.exit_code == 0, result.output
    assert sorted(detect(cv2.imread(str(sheet)))) == [0, 1, 2, 3]
    rng = np.random.default_rng(9)
    photo, truth = _photograph(_table(rng), rng)
    picture = tmp_path / "frame.png"
    cv2.imwrite(str(picture), photo)
    out = tmp_path / "cal.json"
    result = CliRunner().invoke(app, ["calibrate", str(picture), "--markers", "--out", str(out)])
    assert result.exit_code == 0, result.output
    profile = CalibrationProfile.load(out)
    assert profile.source == "markers"
    assert np.abs(profile.corners() - truth).max() < 3.0
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 128, np.uint8))
    result = CliRunner().invoke(app, ["calibrate", str(blank), "--markers"])
    assert result.exit_code == 2 and "no markers" in result.output
