"""A rendered still's label agrees with its scene, with the engine and with itself.

One small still per board style (640x360, a seeded scene each); the positions cycle
through random play and the edge cases (tall stacks, a crowded bar, bearing off), so
bar and borne-off checkers are covered. Then: the same seed gives the same bytes, and
an interrupted run resumes where it stopped.
"""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gammoneye.datasets.games import random_turns
from gammoneye.datasets.render.camera import Camera
from gammoneye.datasets.render.draw import Renderer
from gammoneye.datasets.render.labels import LABEL_SCHEMA, LABEL_VERSION, scene_label
from gammoneye.datasets.render.positions import EDGE_CASES, PILES, PositionSupply, edge_case
from gammoneye.datasets.render.sampling import sample_board, sample_scene
from gammoneye.datasets.render.scene import Scene
from gammoneye.datasets.render.stills import StillsConfig, render_stills
from gammoneye.datasets.render.styles import BOARD_STYLES, BoardStyle
from gammoneye.engine.position import Position

W, H = 640, 360
SEED = 32  # chosen so that the scenes hold every kind of thing checked below
KINDS = ("random_game", *EDGE_CASES)
_RANDOM = [t.before for t in random_turns(seed=SEED, limit=200)]
_RENDERER = Renderer()


def _position(i: int, rng: np.random.Generator) -> tuple[Position, str]:
    kind = KINDS[i % len(KINDS)]
    if kind == "random_game":
        return _RANDOM[int(rng.integers(len(_RANDOM)))], kind
    return edge_case(rng, kind), f"edge:{kind}"


Still = tuple[Scene, dict[str, Any]]


@pytest.fixture(scope="module")
def stills() -> dict[str, Still]:
    """One rendered scene and its label per board style."""
    out = {}
    for i, style in enumerate(BOARD_STYLES):
        rng = np.random.default_rng([SEED, i])
        position, origin = _position(i, rng)
        scene = sample_scene(rng, position, origin, width=W, height=H, style=style)
        image = _RENDERER.render(scene).image
        assert image.shape == (H, W, 3)
        out[style.name] = (scene, scene_label(scene, f"images/{i:06d}.jpg", [SEED, i]))
    return out


STYLE_NAMES = [s.name for s in BOARD_STYLES]


def _objects(label: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    out = [("checker", c) for c in label["checkers"]]
    out += [("die", d) for d in label["dice"]]
    out += [("cube", label["cube"])] if label["cube"] is not None else []
    out += [("hand", h) for h in label["hands"]]
    out += [("clutter", c) for c in label["clutter"]]
    return out


def _inside(pts: list[list[float]], w: int = W, h: int = H) -> bool:
    return all(0 <= x <= w and 0 <= y <= h for x, y in pts)


@pytest.mark.parametrize("style", STYLE_NAMES)
def test_header_names_schema_image_and_size(stills: dict[str, Still], style: str) -> None:
    scene, label = stills[style]
    assert (label["schema"], label["version"]) == (LABEL_SCHEMA, LABEL_VERSION)
    assert (label["width"], label["height"]) == (W, H)
    assert label["board"]["style"] == style
    assert label["position"]["bottom_player"] == scene.bottom


@pytest.mark.parametrize("style", STYLE_NAMES)
def test_boxes_in_image_have_positive_area_inside_it(stills: dict[str, Still], style: str) -> None:
    _, label = stills[style]
    for kind, obj in _objects(label):
        if not obj["in_image"]:
            assert obj["box"] is None, (kind, obj)
            continue
        x0, y0, x1, y1 = obj["box"]
        assert 0 <= x0 < x1 <= W and 0 <= y0 < y1 <= H, (kind, obj)
        assert 0.0 <= obj["hidden_by_hand"] <= 1.0, (kind, obj)
        if "centre_px" in obj and not obj["truncated"]:
            cx, cy = obj["centre_px"]
            assert x0 <= cx <= x1 and y0 <= cy <= y1, (kind, obj)


@pytest.mark.parametrize("style", STYLE_NAMES)
def test_checkers_add_up_to_the_labelled_position(stills: dict[str, Still], style: str) -> None:
    _, label = stills[style]
    pos = label["position"]
    for player in (0, 1):
        mine = [c for c in label["checkers"] if c["owner"] == player]
        assert len(mine) == 15
        assert Counter(c["where"] for c in mine).keys() <= {"point", "bar", "off"}
        on_points = Counter(c["point"] for c in mine if c["where"] == "point")
        for point in pos["points"]:
            expected = point["count"] if point["owner"] == player else 0
            assert on_points[point["number"]] == expected, (player, point)
        assert sum(c["where"] == "bar" for c in mine) == pos["bar"][player]
        assert sum(c["where"] == "off" for c in mine) == pos["off"][player]


@pytest.mark.parametrize("style", STYLE_NAMES)
def test_labelled_points_are_the_scenes_position(stills: dict[str, Still], style: str) -> None:
    scene, label = stills[style]
    pos, bottom = scene.position, scene.bottom
    assert [p["number"] for p in label["position"]["points"]] == list(range(1, 25))
    for point in label["position"]["points"]:
        n = point["number"]
        counts = {p: pos.boards[p][(n if p == bottom else 25 - n) - 1] for p in (0, 1)}
        owners = [p for p in (0, 1) if counts[p]]
        assert point["owner"] == (owners[0] if owners else None), point
        assert point["count"] == sum(counts.values()), point
    assert label["position"]["bar"] == [pos.bar(0), pos.bar(1)]
    assert label["position"]["off"] == [pos.off(0), pos.off(1)]


@pytest.mark.parametrize("style", STYLE_NAMES)
def test_position_id_and_xgid_decode_to_the_labelled_points(
    stills: dict[str, Still], style: str
) -> None:
    _, label = stills[style]
    pos = label["position"]
    bottom = pos["bottom_player"]
    from_id = Position.from_position_id(pos["position_id"], turn=pos["turn"])
    from_xgid = Position.from_xgid(pos["xgid"])
    assert from_xgid.boards == from_id.boards
    for point in pos["points"]:
        n = point["number"]
        for player in (0, 1):
            own = n if player == bottom else 25 - n  # the top player's own n is board 25-n
            expected = point["count"] if point["owner"] == player else 0
            assert from_id.boards[player][own - 1] == expected, (player, point)
    assert [from_id.bar(0), from_id.bar(1)] == pos["bar"]
    assert [from_id.off(0), from_id.off(1)] == pos["off"]


@pytest.mark.parametrize("style", STYLE_NAMES)
def test_regions_have_24_point_triangles(stills: dict[str, Still], style: str) -> None:
    _, label = stills[style]
    points = label["regions"]["points"]
    assert [p["number"] for p in points] == list(range(1, 25))
    for p in points:
        assert len(p["polygon_px"]) == 3
        assert all(math.isfinite(v) for xy in p["polygon_px"] for v in xy)
    assert len(label["regions"]["bar"]) == 4
    assert [h["name"] for h in label["regions"]["field_halves"]] == ["left_field", "right_field"]
    assert (
        len(label["regions"]["trays"])
        == {"none": 0, "left": 1, "right": 1, "both": 2}[label["board"]["trays"]]
    )


# Own axes +z, -z, +x, -x, +y, -y of a die, in the order of ``Die.faces``.
_DIE_AXES = np.array([[0, 0, 1], [0, 0, -1], [1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0]], float)


@pytest.mark.parametrize("style", STYLE_NAMES)
def test_dice_labels_match_the_scene(stills: dict[str, Still], style: str) -> None:
    scene, label = stills[style]
    assert len(label["dice"]) == len(scene.dice)
    for die, item in zip(scene.dice, label["dice"], strict=True):
        assert item["value"] == die.value
        # the face most nearly up, from the die's own pose
        world_z = (_DIE_AXES @ np.asarray(die.rotation).T)[:, 2]
        assert die.faces[int(np.argmax(world_z))] == item["value"], item
        assert item["cocked"] == (die.tilt_deg > 0) == (item["tilt_deg"] > 0), item
        assert item["owner"] == die.owner
        if item["off_board"]:
            assert item["board_half"] is None, item
            assert item["half_of_player"] == {"0": None, "1": None}, item
        else:
            assert item["board_half"] in ("left", "right", "bar"), item
        if item["board_half"] in ("left", "right"):
            # left and right are the bottom seat's; the top seat sees them swapped
            other = {"left": "right", "right": "left"}[item["board_half"]]
            assert item["half_of_player"][str(scene.bottom)] == item["board_half"], item
            assert item["half_of_player"][str(1 - scene.bottom)] == other, item


def test_scenes_cover_bar_off_dice_faults_and_hands(stills: dict[str, Still]) -> None:
    """The checks above are only as good as what the scenes hold."""
    labels = [label for _, label in stills.values()]
    wheres = Counter(c["where"] for lab in labels for c in lab["checkers"])
    assert wheres["bar"] and wheres["off"] and wheres["point"]
    dice = [d for lab in labels for d in lab["dice"]]
    assert any(d["cocked"] for d in dice) and any(not d["cocked"] for d in dice)
    assert any(d["off_board"] for d in dice)
    assert any(c["hidden_by_hand"] > 0.5 for lab in labels for c in lab["checkers"])
    assert any(lab["hands"] for lab in labels)
    assert any(lab["cube"] is not None for lab in labels)


@pytest.mark.parametrize("style", BOARD_STYLES, ids=STYLE_NAMES)
def test_field_and_points_inside_image_when_board_in_frame(style: BoardStyle) -> None:
    rng = np.random.default_rng([SEED, 99])
    board = sample_board(rng, style)
    # straight overhead from 1.5 m with a 60 degree lens: a 75 cm board fits easily
    camera = Camera.looking_at(
        (0.0, 0.0, 150.0), (0.0, 0.0, 0.0), width=W, height=H, hfov_deg=60.0, k1=-0.1, k2=0.02
    )
    scene = sample_scene(rng, _RANDOM[0], "random_game", board=board, camera=camera)
    label = scene_label(scene, "images/x.jpg", [SEED, 99])
    assert _inside(label["board"]["corners_px"])
    assert _inside(label["board"]["field_corners_px"])
    for p in label["regions"]["points"]:
        assert _inside(p["polygon_px"]), p


def test_a_camera_read_back_from_its_dict_projects_as_it_did() -> None:
    """clip.json keeps the camera as :meth:`Camera.to_dict` writes it (rounded);
    :meth:`Camera.from_dict` gives back one that puts points where the renderer did."""
    camera = Camera.looking_at(
        (20.0, -60.0, 70.0), (0.0, 0.0, 0.0), width=W, height=H, hfov_deg=60.0, k1=-0.1, k2=0.02
    )
    back = Camera.from_dict(camera.to_dict())
    points = np.array([(x, y, 0.8) for x in (-30.0, 0.0, 30.0) for y in (-20.0, 0.0, 20.0)])
    assert (back.width, back.height, back.k1, back.k2) == (W, H, -0.1, 0.02)
    assert np.abs(back.project(points) - camera.project(points)).max() < 0.05


@pytest.mark.parametrize("style", STYLE_NAMES)
def test_sampled_camera_keeps_the_whole_board_in_frame(
    stills: dict[str, Still], style: str
) -> None:
    # place_camera means to: it fits the board to 40..95 % of the frame and clamps
    # the off-centre shift so that the board stays inside.
    _, label = stills[style]
    assert _inside(label["board"]["corners_px"]), label["board"]["corners_px"]
    assert _inside(label["board"]["field_corners_px"]), label["board"]["field_corners_px"]


# --- scenes a picture can show --------------------------------------------------------
# Two solid objects in one place make a picture that no label describes: one die drawn
# through another is labelled as two dice, a die inside a checker stack is half hidden
# with hidden_by_hand 0. Labels only (no drawing), so many scenes are cheap.

N_SCENES = 300


def _scenes(position: Position | None = None) -> list[Scene]:
    out = []
    for i in range(N_SCENES):
        rng = np.random.default_rng([SEED, 1000 + i])
        pos = position or _RANDOM[int(rng.integers(len(_RANDOM)))]
        out.append(sample_scene(rng, pos, "random_game", width=W, height=H))
    return out


def test_checker_stacks_on_opposite_points_do_not_collide() -> None:
    # The opening position has 5-stacks on opposite points (6 and 19, 12 and 13).
    collisions = []
    for i, scene in enumerate(_scenes(Position.initial())):
        on_points = [c for c in scene.checkers if c.where == "point"]
        for k, a in enumerate(on_points):
            for b in on_points[k + 1 :]:
                apart = math.hypot(a.x - b.x, a.y - b.y)
                if a.point != b.point and a.layer == b.layer and apart < 1.9 * a.radius:
                    collisions.append((i, scene.stacking, a.point, b.point, round(apart, 2)))
    assert not collisions, collisions


def test_dice_do_not_overlap_each_other() -> None:
    overlaps = []
    for i, scene in enumerate(_scenes()):
        for k, a in enumerate(scene.dice):
            for b in scene.dice[k + 1 :]:
                apart = math.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1])
                level = abs(a.centre[2] - b.centre[2]) < (a.size + b.size) / 2
                if level and apart < 0.9 * min(a.size, b.size):
                    overlaps.append((i, a.value, b.value, a.centre, b.centre))
    assert not overlaps, overlaps


def test_dice_stand_clear_of_checkers_unless_placed_on_or_against_one() -> None:
    inside = []
    for i, scene in enumerate(_scenes()):
        for die in scene.dice:
            if die.on_checker or die.off_board or die.leaning_on == "checker":
                continue
            x, y, z = die.centre
            for c in scene.checkers:
                near = math.hypot(x - c.x, y - c.y) < c.radius + die.size / 2
                if near and z - die.size / 2 < c.z + c.height - 0.05:
                    inside.append((i, die.value, die.leaning_on, c.where, c.point))
                    break
    assert not inside, inside


def test_cube_stands_clear_of_dice_and_checkers() -> None:
    inside = []
    for i, scene in enumerate(_scenes()):
        if scene.cube is None:
            continue
        x, y, z = scene.cube.centre
        half = scene.cube.size / 2
        for c in scene.checkers:
            near = math.hypot(x - c.x, y - c.y) < c.radius + 0.9 * half
            if near and z - half < c.z + c.height - 0.05 and c.z < z + half:
                inside.append((i, scene.cube.place, "checker", c.where))
                break
        for d in scene.dice:
            near = math.hypot(x - d.centre[0], y - d.centre[1]) < 0.9 * (half + d.size / 2)
            if near and abs(z - d.centre[2]) < half + d.size / 2:
                inside.append((i, scene.cube.place, "die", d.owner))
    assert not inside, inside


# --- runs -------------------------------------------------------------------------------


def _run(out: Path, seed: int, n: int = 2) -> tuple[Any, dict[str, bytes]]:
    summary = render_stills(StillsConfig(n=n, out=out, seed=seed, width=320, height=180), workers=1)
    files = {
        str(p.relative_to(out)): p.read_bytes()
        for sub in ("images", "labels")
        for p in sorted((out / sub).iterdir())
    }
    return summary, files


def test_same_seed_same_bytes_other_seed_other_bytes(tmp_path: Path) -> None:
    _, first = _run(tmp_path / "a", seed=5)
    _, again = _run(tmp_path / "b", seed=5)
    _, other = _run(tmp_path / "c", seed=6)
    assert sorted(first) == [
        "images/000000.jpg",
        "images/000001.jpg",
        "labels/000000.json",
        "labels/000001.json",
    ]
    assert first == again
    assert sorted(other) == sorted(first)
    for name in first:
        assert other[name] != first[name], name


def test_interrupted_run_renders_only_what_is_missing(tmp_path: Path) -> None:
    out = tmp_path / "run"
    summary, before = _run(out, seed=3, n=3)
    assert (summary.written, summary.skipped) == (3, 0)
    inodes = {p.name: p.stat().st_ino for p in (out / "images").iterdir()}
    (out / "labels" / "000001.json").unlink()  # as if killed before the label was written

    summary, after = _run(out, seed=3, n=3)

    assert (summary.written, summary.skipped) == (1, 2)
    assert after == before
    # images are replaced atomically (a new file), so the inode says what was rewritten
    now = {p.name: p.stat().st_ino for p in (out / "images").iterdir()}
    assert [name for name in sorted(now) if now[name] != inodes[name]] == ["000001.jpg"]
    assert not list(out.glob("*/*.tmp"))


def test_piles_put_five_or_more_on_a_point_for_both_sides() -> None:
    supply = PositionSupply(7, random_pool=20, piles=1.0)
    rng = np.random.default_rng(7)
    for _ in range(50):
        position, origin = supply.draw(rng)
        assert origin == f"edge:{PILES}"
        mine, theirs = position.boards
        assert sum(mine) == sum(theirs) == 15
        assert max(mine[:24]) >= 5 and max(theirs[:24]) >= 5
        assert not any(mine[i] and theirs[23 - i] for i in range(24))  # no shared point


def test_no_piles_asked_draws_as_before() -> None:
    """The share is drawn only when asked for: runs without it keep their positions."""
    plain, zero = PositionSupply(9, random_pool=50), PositionSupply(9, random_pool=50, piles=0.0)
    a, b = np.random.default_rng(1), np.random.default_rng(1)
    assert [plain.draw(a)[1] for _ in range(30)] == [zero.draw(b)[1] for _ in range(30)]
    assert "piles" not in StillsConfig(n=1, out=Path("x")).manifest()
    assert StillsConfig(n=1, out=Path("x"), piles=0.5).manifest()["piles"] == 0.5


def test_some_players_lay_a_checker_hit_across_the_bars_middle() -> None:
    """Players put a checker hit anywhere on the bar, some across its middle, half in
    each half (the reader must count it once: ``vision.read.across_the_middle``). A
    quarter of the players do, all match long; never while the opponent has a checker
    on the bar, and never under the cube."""
    from gammoneye.datasets.render.placing import (
        ACROSS_SHARE,
        CheckerStyle,
        layout_of,
        place_layout,
    )
    from gammoneye.datasets.render.styles import CheckerLook

    start = Position.initial()
    mine = list(start.boards[0])
    mine[23], mine[24] = 1, 1  # one of his back checkers hit
    theirs = list(start.boards[1])
    theirs[23], theirs[24] = 1, 1
    alone = layout_of(Position((tuple(mine), start.boards[1]), 0))
    both = layout_of(Position((tuple(mine), tuple(theirs)), 0))
    across = 0
    trials = 200
    for seed in range(trials):
        rng = np.random.default_rng([9090, seed])
        g = sample_board(rng).geometry
        look = CheckerLook(
            diameter_fill=0.88, height_ratio=0.2, rim=True, engraving="none", glossy=False
        )
        cs = CheckerStyle.of(g, look, ((20, 20, 20), (230, 230, 230)), "layer", rng)
        bar = [c for c in place_layout(g, alone, 0, cs) if c.where == "bar"]
        assert len(bar) == 1
        if abs(bar[0].y) < 0.5:
            across += 1
            # the same player, the same layout: the same place (a stable choice)
            again = [c for c in place_layout(g, alone, 0, cs) if c.where == "bar"]
            assert again[0].y == bar[0].y
            two = [c for c in place_layout(g, both, 0, cs) if c.where == "bar"]
            assert all(abs(c.y) > c.radius for c in two)
        # a cube resting in the middle: beside it, never under it
        spot = [(0.0, 0.0, 2.0)]
        for c in [c for c in place_layout(g, alone, 0, cs, avoid=spot) if c.where == "bar"]:
            assert all(math.hypot(c.x - x, c.y - y) >= c.radius + r for x, y, r in spot)
    assert abs(across / trials - ACROSS_SHARE) < 0.1, across
