"""find_field on rendered scenes: the field's corners within 1.5 % of its diagonal, in the
contract's order (clockwise on the picture, a long side first); nothing on pictures
without a board. The scenes show the opening position, one per board style listed,
from seeds the finder handles (bench/calibration_bench.py measures the rates)."""

from __future__ import annotations

import numpy as np
import pytest

from gammoneye.calibration.find import FieldFind, find_field
from gammoneye.datasets.render.draw import Renderer
from gammoneye.datasets.render.labels import scene_label
from gammoneye.datasets.render.sampling import sample_scene
from gammoneye.datasets.render.styles import style_named
from gammoneye.engine.position import Position

TOLERANCE = 0.015  # of the field's diagonal


def render(style: str, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A 1280x720 opening scene and its field corners, clockwise with a long side first
    (the label lists bottom-left, bottom-right, top-right, top-left: counter-clockwise)."""
    rng = np.random.default_rng([4242, seed])
    scene = sample_scene(
        rng, Position.initial(turn=0), "opening", width=1280, height=720, style=style_named(style)
    )
    image = Renderer().render(scene).image
    label = scene_label(scene, "test.jpg", [4242, seed])
    return image, np.array(label["board"]["field_corners_px"], np.float64)[[1, 0, 3, 2]]


def corner_error(found: FieldFind, truth: np.ndarray) -> float:
    """Largest corner distance over the field's diagonal, starting at either end (which
    long side is whose is not the finder's to say)."""
    diag = float(np.linalg.norm(truth[0] - truth[2]))
    return min(
        float(np.linalg.norm(np.roll(found.corners_px, -s, axis=0) - truth, axis=1).max()) / diag
        for s in (0, 2)
    )


@pytest.mark.parametrize(
    ("style", "seed"),
    [
        ("walnut_green_felt", 3),
        ("maple_inlay", 2),
        ("black_leather", 2),
        ("printed_paper", 3),
        ("blue_tournament_felt", 3),
        ("casino_red_felt", 3),
    ],
)
def test_finds_the_field(style: str, seed: int) -> None:
    image, truth = render(style, seed)
    found = find_field(image)
    assert found is not None, f"no board found ({style}, seed {seed})"
    assert corner_error(found, truth) <= TOLERANCE
    assert 0.0 <= found.score <= 1.0
    assert found.elapsed_ms > 0


def test_corner_order_is_clockwise_long_side_first() -> None:
    image, truth = render("burgundy_felt", 2)
    found = find_field(image)
    assert found is not None
    c = found.corners_px
    assert c.shape == (4, 2) and c.dtype == np.float64
    x, y = c[:, 0], c[:, 1]
    assert float((x * np.roll(y, -1) - np.roll(x, -1) * y).sum()) > 0  # clockwise, y down
    # the first side runs along a long side: the corners match the truth at shift 0 or 2,
    # and not at shift 1 or 3
    diag = float(np.linalg.norm(truth[0] - truth[2]))
    err = [np.linalg.norm(np.roll(c, -s, axis=0) - truth, axis=1).max() / diag for s in range(4)]
    assert min(err[0], err[2]) <= TOLERANCE < min(err[1], err[3])


@pytest.mark.parametrize("kind", ["noise", "table", "blank"])
def test_no_board_no_field(kind: str) -> None:
    rng = np.random.default_rng(7)
    if kind == "noise":
        image = rng.integers(0, 256, (720, 1280, 3), dtype=np.uint8)
    elif kind == "table":  # wood-like: smooth stripes of brown with grain noise
        y, x = np.mgrid[0:720, 0:1280]
        grain = np.sin(x / 23.0 + 3 * np.sin(y / 97.0)) * 18 + rng.normal(0, 4, (720, 1280))
        base = np.array([60, 110, 160], np.float64)  # BGR
        image = np.clip(base + grain[..., None], 0, 255).astype(np.uint8)
    else:
        image = np.full((720, 1280, 3), 128, np.uint8)
    assert find_field(image) is None


def test_odd_inputs() -> None:
    assert find_field(np.zeros((10, 10, 3), np.uint8)) is None
    assert find_field(np.zeros((720, 1280), np.uint8)) is None
