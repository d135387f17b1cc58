"""``gammoneye calibrate``: a saved calibration from given corners, the picture to check
it, and one clear line for every bad input."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from gammoneye.calibration.profile import CalibrationProfile
from gammoneye.datasets.render.draw import Renderer
from gammoneye.datasets.render.labels import scene_label
from gammoneye.datasets.render.sampling import sample_scene
from gammoneye.engine.position import Position
from gammoneye.service.cli import app


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, np.ndarray]:
    scene = sample_scene(np.random.default_rng(8), Position.initial(), "x", width=640, height=360)
    path = tmp_path_factory.mktemp("cal") / "frame.png"
    cv2.imwrite(str(path), Renderer().render(scene).image)
    return path, np.array(scene_label(scene, "x", [0])["board"]["field_corners_px"])


def test_given_corners_are_saved_with_a_check_picture(
    rendered: tuple[Path, np.ndarray], tmp_path: Path
) -> None:
    image, corners = rendered
    text = " ".join(f"{x},{y}" for x, y in corners[::-1])  # any order will do
    out, show = tmp_path / "cal.json", tmp_path / "check.png"
    result = CliRunner().invoke(
        app, ["calibrate", str(image), "--corners", text, "--out", str(out), "--show", str(show)]
    )
    assert result.exit_code == 0, result.output
    profile = CalibrationProfile.load(out)
    assert profile.source == "manual" and profile.reference
    found = {tuple(np.round(c, 1)) for c in profile.corners()}
    assert found == {tuple(np.round(c, 1)) for c in corners}
    assert cv2.imread(str(show)) is not None
    assert profile.drift(cv2.imread(str(image))) < 0.01
    assert "measured in the picture" in result.output


def test_the_bar_is_measured_in_the_picture(tmp_path: Path) -> None:
    """A board with a wide bar (0.121 of the field): the calibration says so, not 0.08."""
    scene = sample_scene(np.random.default_rng(19), Position.initial(), "x", width=640, height=360)
    truth = scene.board.geometry.bar_share
    assert truth > 0.1
    image = tmp_path / "wide.png"
    cv2.imwrite(str(image), Renderer().render(scene).image)
    corners = scene_label(scene, "x", [0])["board"]["field_corners_px"]
    out = tmp_path / "cal.json"
    text = " ".join(f"{x},{y}" for x, y in corners)
    result = CliRunner().invoke(
        app, ["calibrate", str(image), "--corners", text, "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    found = CalibrationProfile.load(out).bar_fraction
    assert abs(found - truth) <= 0.012, (found, truth)
    assert f"bar: {found:.3f} of the field's width (measured in the picture)" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--corners", "1,2 3,4"], "expected 4 corners"),
        (["--corners", "a,b c,d e,f g,h"], "expected four corners"),
        (["--corners", "0,0 100,0 20,20 0,100"], "no convex quadrilateral"),
        (["--home", "up"], "expected right or left"),
    ],
)
def test_bad_options(
    rendered: tuple[Path, np.ndarray], tmp_path: Path, args: list[str], message: str
) -> None:
    image, _ = rendered
    result = CliRunner().invoke(
        app, ["calibrate", str(image), "--out", str(tmp_path / "c.json"), *args]
    )
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output


def test_unreadable_picture(tmp_path: Path) -> None:
    bad = tmp_path / "not-a-picture.jpg"
    bad.write_text("hello")
    result = CliRunner().invoke(app, ["calibrate", str(bad), "--out", str(tmp_path / "c.json")])
    assert result.exit_code == 2
    assert "cannot read a picture" in result.output


def test_no_board_in_the_picture(tmp_path: Path) -> None:
    plain = tmp_path / "table.png"
    rng = np.random.default_rng(3)
    table = cv2.GaussianBlur(rng.integers(90, 140, (360, 640, 3), dtype=np.uint8), (0, 0), 3)
    cv2.imwrite(str(plain), table)
    result = CliRunner().invoke(app, ["calibrate", str(plain), "--out", str(tmp_path / "c.json")])
    assert result.exit_code == 2, result.output
    assert "no board found" in result.output and "--corners" in result.output
