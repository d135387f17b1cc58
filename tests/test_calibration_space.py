"""Board space and calibration profiles: corner order under perspective, the homography
against the renderer's ground truth, profile files and their errors, drift."""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from gammoneye.calibration.boardspace import (
    BoardSpace,
    CalibrationError,
    Orientation,
    canonical_corners,
    rectangle_aspect,
)
from gammoneye.calibration.profile import CalibrationProfile
from gammoneye.datasets.games import random_turns
from gammoneye.datasets.render.draw import Renderer
from gammoneye.datasets.render.labels import scene_label
from gammoneye.datasets.render.sampling import sample_scene
from gammoneye.datasets.render.scene import Scene
from gammoneye.engine.position import Position

W, H = 640, 360
POSITIONS = [t.before for t in random_turns(seed=4, limit=200)]


def scenes(n: int, seed: int = 31) -> list[Scene]:
    out = []
    for i in range(n):
        rng = np.random.default_rng([seed, i])
        out.append(
            sample_scene(rng, POSITIONS[i % len(POSITIONS)], "random_game", width=W, height=H)
        )
    return out


SCENES = scenes(120)


def same_quad(a: np.ndarray, b: np.ndarray, tol: float = 1e-6) -> int | None:
    """The cyclic shift k with ``np.roll(b, -k) == a``, or None."""
    for k in range(4):
        if np.allclose(a, np.roll(b, -k, axis=0), atol=tol):
            return k
    return None


# --- corner order ------------------------------------------------------------------------------


def test_any_order_of_the_corners_gives_the_same_canonical_order() -> None:
    truth = np.array([(100.0, 600.0), (1100.0, 620.0), (1050.0, 100.0), (150.0, 90.0)])
    for perm in itertools.permutations(range(4)):
        assert np.allclose(canonical_corners(truth[list(perm)], (1280, 720)), truth)


def test_canonical_order_matches_the_renderers_field_corners() -> None:
    # the label's corners run bottom-left, bottom-right, top-right, top-left of the
    # bottom seat: the canonical order, or the same turned by 180 degrees
    wrong = []
    for i, scene in enumerate(SCENES):
        label = scene_label(scene, "x.jpg", [0])
        truth = np.array(label["board"]["field_corners_px"])
        shuffled = np.random.default_rng(i).permutation(truth)
        if same_quad(canonical_corners(shuffled, (W, H)), truth) not in (0, 2):
            wrong.append(i)
    # strong barrel distortion bends the sides; a few near-square views may flip
    assert len(wrong) <= 0.03 * len(SCENES), wrong


def test_aspect_undoes_perspective() -> None:
    errors = []
    for scene in SCENES:
        g = scene.board.geometry
        truth = (12 * g.point_width + g.bar_width) / g.field_depth
        corners = np.array(scene_label(scene, "x.jpg", [0])["board"]["field_corners_px"])
        errors.append(abs(rectangle_aspect(corners, (W, H)) / truth - 1))
    assert np.median(errors) < 0.03


def test_a_finder_that_knows_the_long_side_is_trusted() -> None:
    # a square-looking quad: perspective alone cannot tell, the caller can
    quad = np.array([(0.0, 100.0), (100.0, 100.0), (100.0, 0.0), (0.0, 0.0)])
    given = np.roll(quad, -1, axis=0)  # says: the side (100,100)-(100,0) is long
    c = canonical_corners(given, long_side_first=True)
    assert {tuple(c[0]), tuple(c[1])} == {(100.0, 100.0), (100.0, 0.0)}


@pytest.mark.parametrize(
    ("corners", "error"),
    [
        ([(0, 0), (10, 0), (10, 10)], "expected 4 corners"),
        ([(0, 0), (100, 0), (20, 20), (0, 100)], "no convex quadrilateral"),
        ([(0, 0), (3, 0), (3, 3), (0, 3)], "too close together"),
        ([(0, 0), (1, float("nan")), (1, 1), (0, 1)], "expected 4 corners"),
    ],
)
def test_bad_corners(corners: list[tuple[float, float]], error: str) -> None:
    with pytest.raises(CalibrationError, match=error):
        canonical_corners(np.array(corners, np.float64))


# --- board space against the ground truth -----------------------------------------------------


def test_points_land_where_the_renderer_drew_them() -> None:
    worst = 0.0
    for scene in SCENES[:40]:
        label = scene_label(scene, "x.jpg", [0])
        g = scene.board.geometry
        space = BoardSpace(1000, 800, g.bar_share)
        truth = np.array(label["board"]["field_corners_px"])
        canon = canonical_corners(truth, (W, H))
        turned = same_quad(canon, truth) == 2
        # seen from the other side, the bottom seat's home (on his right) is on the left
        orientation = Orientation(
            bottom_player=(1 - scene.bottom) if turned else scene.bottom,
            home_right=g.mirrored if turned else not g.mirrored,
        )
        h = space.homography(truth, (W, H))
        for p in label["regions"]["points"]:
            seen = np.array([[p["base_px"]]], np.float64)
            x, y = cv2.perspectiveTransform(seen, h)[0, 0]
            n = p["number"] if not turned else 25 - p["number"]
            ex, ey, _ = space.point_base(n, orientation)
            worst = max(worst, float(np.hypot(x - ex, y - ey)))
    # lens distortion bends the field a little; a point is 77 px wide here
    assert worst < 20, worst


def test_point_numbers_follow_the_orientation() -> None:
    space = BoardSpace()
    usual = Orientation(bottom_player=0, home_right=True)
    mirrored = Orientation(bottom_player=0, home_right=False)
    assert space.point_base(1, usual)[0] > space.point_base(6, usual)[0] > space.width / 2
    assert space.point_base(1, mirrored)[0] < space.width / 2
    assert space.point_base(13, usual)[1] == 0 and space.point_base(12, usual)[1] == space.height
    assert usual.board_point(1, 1) == 24 and usual.board_point(0, 1) == 1


# --- profiles ----------------------------------------------------------------------------------


def test_profile_round_trip_and_file(tmp_path: Path) -> None:
    p = CalibrationProfile.from_corners(
        np.array([(100, 600), (1100, 620), (1050, 100), (150, 90)]),
        (1280, 720),
        source="auto",
        score=0.93,
    )
    p = replace(p, orientation=Orientation(1, False))
    path = tmp_path / "cam" / "calibration.json"
    p.save(path)
    assert CalibrationProfile.load(path) == p


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("{", "not JSON"),
        ('{"schema": "other"}', "not a GammonEye calibration"),
        ('{"schema": "gammoneye-calibration", "version": 9}', "version 9"),
        ('{"schema": "gammoneye-calibration", "version": 1}', "bad or missing field"),
        (
            '{"schema": "gammoneye-calibration", "version": 1, "image_size": [1280, 720], '
            '"field_corners_px": [[0, 0], [1, 0]]}',
            "do not fit",
        ),
        (
            '{"schema": "gammoneye-calibration", "version": 1, "image_size": [1280, 720], '
            '"field_corners_px": [[0,0],[9,0],[9,9],[0,9]], "source": "guess"}',
            "source 'guess'",
        ),
    ],
)
def test_bad_profile_files(text: str, error: str) -> None:
    with pytest.raises(CalibrationError, match=error):
        CalibrationProfile.from_json(text, "cal.json")


def test_missing_profile_file(tmp_path: Path) -> None:
    with pytest.raises(CalibrationError, match="cannot read calibration"):
        CalibrationProfile.load(tmp_path / "nope.json")


def test_a_picture_of_another_size_is_refused() -> None:
    p = CalibrationProfile.from_corners(
        np.array([(10, 60), (110, 62), (105, 10), (15, 9)]), (128, 72)
    )
    with pytest.raises(CalibrationError, match="calibrate this camera again"):
        p.warp(np.zeros((100, 100, 3), np.uint8))


# --- drift ---------------------------------------------------------------------------------------


def test_drift_sees_the_board_move_but_not_the_checkers() -> None:
    renderer = Renderer()
    rng = np.random.default_rng(5)
    scene = sample_scene(rng, Position.initial(), "edge:opening", width=W, height=H)
    scene = replace(scene, hands=(), effects=replace(scene.effects, motion_px=0.0))
    corners = np.array(scene_label(scene, "x.jpg", [0])["board"]["field_corners_px"])
    first = renderer.render(scene).image
    profile = CalibrationProfile.from_corners(corners, (W, H), image=first)
    later = sample_scene(
        np.random.default_rng(6),
        POSITIONS[50],
        "random_game",
        width=W,
        height=H,
        board=scene.board,
        camera=scene.camera,
    )
    later = replace(later, hands=(), light=scene.light, effects=scene.effects, bottom=scene.bottom)
    moved_checkers = renderer.render(later).image
    eye = scene.camera.eye
    from gammoneye.datasets.render.camera import Camera

    bumped_cam = Camera.looking_at(
        (eye[0] + 4.0, eye[1] + 3.0, eye[2]),
        (3.0, 2.0, 0.0),
        width=W,
        height=H,
        hfov_deg=float(np.degrees(2 * np.arctan(W / 2 / scene.camera.fx))),
        k1=scene.camera.k1,
        k2=scene.camera.k2,
    )
    bumped = renderer.render(replace(scene, camera=bumped_cam)).image
    d_same = profile.drift(first)
    d_checkers = profile.drift(moved_checkers)
    d_bumped = profile.drift(bumped)
    assert d_same < 0.01
    assert d_bumped > 2 * d_checkers, (d_checkers, d_bumped)
