"""The bar's width measured in a picture: on rendered boards of known geometry, narrow
bars and wide ones; no measure where the picture shows no points; the camera's eyes
take the measure into their calibration until the opening is seen, and keep the
opening's."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from gammoneye.calibration.barwidth import fit_bar_fraction
from gammoneye.calibration.boardspace import canonical_corners
from gammoneye.datasets.render.draw import Renderer
from gammoneye.datasets.render.labels import field_corners_px
from gammoneye.datasets.render.sampling import sample_board, sample_scene
from gammoneye.engine.position import Position


def _boards() -> list:  # type: ignore[type-arg]
    """Two boards with narrow bars, two with wide ones and two between, found by
    drawing boards from a fixed seed (nothing rendered yet)."""
    rng = np.random.default_rng(2311)
    wanted = {"narrow": 2, "middle": 2, "wide": 2}
    out = []
    for _ in range(500):
        board = sample_board(rng)
        f = board.geometry.bar_share
        kind = "narrow" if f < 0.068 else "wide" if f > 0.112 else "middle"
        if wanted[kind]:
            wanted[kind] -= 1
            out.append(board)
        if not any(wanted.values()):
            return out
    raise AssertionError(f"no boards of every bar width drawn: {wanted} left")


@pytest.fixture(scope="module")
def pictures() -> list[tuple[np.ndarray, np.ndarray, float]]:
    """(picture, canonical field corners, true bar share) for each board, the
    opening on it, with whatever hands and dice the scene draws."""
    out = []
    for k, board in enumerate(_boards()):
        rng = np.random.default_rng([2311, k])
        scene = sample_scene(rng, Position.initial(), "opening", board=board)
        image = Renderer().render(scene).image
        field = field_corners_px(scene)
        assert field is not None
        size = (image.shape[1], image.shape[0])
        corners = canonical_corners(np.array(field), size, long_side_first=True)
        out.append((image, corners, board.geometry.bar_share))
    return out


def test_the_bar_is_measured_within_a_fiftieth_of_a_point(
    pictures: list[tuple[np.ndarray, np.ndarray, float]],
) -> None:
    truths = [t for _, _, t in pictures]
    assert min(truths) < 0.068 and max(truths) > 0.112  # the boards differ enough
    for image, corners, truth in pictures:
        found = fit_bar_fraction(image, corners)
        assert found is not None
        # 0.012 of the field is a seventh of a point width at the bar's edge
        assert abs(found - truth) <= 0.012, (found, truth)


def test_the_measure_follows_the_corners_not_a_fixed_share(
    pictures: list[tuple[np.ndarray, np.ndarray, float]],
) -> None:
    """The widest bar and the narrowest are told apart by the picture alone."""
    by_truth = sorted(pictures, key=lambda p: p[2])
    narrow, wide = by_truth[0], by_truth[-1]
    a = fit_bar_fraction(narrow[0], narrow[1])
    b = fit_bar_fraction(wide[0], wide[1])
    assert a is not None and b is not None
    assert b - a >= 0.6 * (wide[2] - narrow[2])


def _painted(image: np.ndarray, corners: np.ndarray, fraction: float) -> np.ndarray:
    """``image`` with its field painted over, seen from above: 12 points' stripes,
    light and dark by turns, either side of a bar of ``fraction``."""
    from gammoneye.calibration.boardspace import BoardSpace

    space = BoardSpace(600, 480, fraction)
    top = np.zeros((480, 600, 3), np.uint8)
    pw = space.point_width
    _, right = space.bar_x
    top[:] = (40, 60, 120)  # the bar
    for k in range(6):
        for x0 in (k * pw, right + k * pw):
            colour = (200, 220, 230) if k % 2 else (30, 30, 30)
            top[:, round(x0) : round(x0 + pw)] = colour
    to_image = cv2.getPerspectiveTransform(
        space.corners().astype(np.float32), np.asarray(corners, np.float32)
    )
    size = (image.shape[1], image.shape[0])
    warped = cv2.warpPerspective(top, to_image, size)
    inside = cv2.warpPerspective(np.full((480, 600), 255, np.uint8), to_image, size) > 0
    out = image.copy()
    out[inside] = warped[inside]
    return out


@pytest.mark.parametrize("fraction", [0.05, 0.08, 0.13])
def test_a_painted_field_is_measured(
    pictures: list[tuple[np.ndarray, np.ndarray, float]], fraction: float
) -> None:
    image, corners, _ = pictures[0]
    found = fit_bar_fraction(_painted(image, corners, fraction), corners)
    assert found is not None and abs(found - fraction) <= 0.008, found


def test_a_picture_with_no_points_has_no_measure() -> None:
    plain = np.full((480, 640, 3), (40, 90, 30), np.uint8)
    corners = np.array([[100.0, 400], [540, 400], [540, 80], [100, 80]])
    assert fit_bar_fraction(plain, corners) is None


class _Reader:
    """Reads every picture as the opening, sure; remembers the profiles read with."""

    def __init__(self) -> None:
        self.fractions: list[float] = []

    def read(self, image, profile=None, **known):  # type: ignore[no-untyped-def]
        from gammoneye.vision.read import COLOURS
        from gammoneye.vision.reading import BoardReading
        from gammoneye.vision.selfcal import opening_layout

        self.fractions.append(profile.bar_fraction)
        return BoardReading.certain(opening_layout(COLOURS[0], True))


def test_the_eyes_measure_the_bar_until_the_opening_and_keep_its_measure(
    pictures: list[tuple[np.ndarray, np.ndarray, float]],
) -> None:
    from gammoneye.service.referee import CameraEyes, Frame

    image, corners, truth = max(pictures, key=lambda p: p[2])
    reader = _Reader()
    eyes = CameraEyes(0, corners, reader=reader)
    assert eyes.look(Frame(0, 0.0, image)) is not None  # the opening: colours learnt
    assert eyes.colours is not None
    learnt = eyes.profile.bar_fraction
    assert abs(learnt - truth) <= 0.012 and reader.fractions[-1] == learnt
    # a later picture, of a field with another bar, changes nothing: the opening's
    # measure stays
    other = _painted(image, corners, 0.05)
    assert abs(fit_bar_fraction(other, corners) - 0.05) <= 0.008  # type: ignore[operator]
    eyes.look(Frame(1, 0.1, other))
    assert eyes.profile.bar_fraction == learnt == reader.fractions[-1]
    # and it goes with what the eyes learnt
    again = CameraEyes(0, corners, reader=_Reader())
    again.restore(eyes.snapshot())
    assert again.profile is not None and again.profile.bar_fraction == learnt


def test_before_the_opening_each_picture_measures_the_bar_anew(
    pictures: list[tuple[np.ndarray, np.ndarray, float]],
) -> None:
    from gammoneye.service.referee import CameraEyes, Frame

    image, corners, truth = max(pictures, key=lambda p: p[2])
    eyes = CameraEyes(0, corners, reader=_NoOpening())
    # the first picture shows a bar of 0.05 (an arm, a cloth over the board) and no
    # opening: nothing is learnt but its measure
    assert eyes.look(Frame(0, 0.0, _painted(image, corners, 0.05))) is None
    assert eyes.colours is None and abs(eyes.profile.bar_fraction - 0.05) <= 0.008
    eyes.reader = _Reader()
    assert eyes.look(Frame(1, 0.1, image)) is not None
    assert abs(eyes.profile.bar_fraction - truth) <= 0.012


class _NoOpening(_Reader):
    def read(self, image, profile=None, **known):  # type: ignore[no-untyped-def]
        from gammoneye.vision.reading import BoardReading

        self.fractions.append(profile.bar_fraction)
        return BoardReading.certain({})


def test_a_calibration_from_the_opening_keeps_the_bar_measured(
    pictures: list[tuple[np.ndarray, np.ndarray, float]],
) -> None:
    from gammoneye.calibration.profile import CalibrationProfile
    from gammoneye.vision.selfcal import learn_from_opening

    image, corners, truth = max(pictures, key=lambda p: p[2])
    profile = CalibrationProfile.from_corners(
        corners, (image.shape[1], image.shape[0]), long_side_first=True
    )
    learned = learn_from_opening(_Reader(), image, replace(profile, bar_fraction=0.08))
    assert learned.profile is not None
    assert abs(learned.profile.bar_fraction - truth) <= 0.012
