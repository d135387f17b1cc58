"""A whole random scene: :func:`sample_scene` draws board, position layout, dice,
cube, hands, clutter, camera and light from one seeded generator.

Seats: the *bottom* seat sits at ``y < 0`` (see :mod:`.geometry`); ``Scene.bottom``
says which engine player sits there.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from gammoneye.engine.position import Position

from .camera import Camera
from .geometry import BoardGeometry, geometry_for
from .placing import (
    CheckerStyle,
    place_checkers,
    place_clutter,
    place_cube,
    place_dice,
    place_hands,
    place_idle_dice,
    spots_of,
)
from .scene import (
    CUBE_FACES,
    VARIANTS_PER_STYLE,
    BoardSetup,
    Die,
    Effects,
    Light,
    Scene,
    _mat,
    hash_name,
    rot_axis,
)
from .styles import BOARD_STYLES, CHECKER_SETS, TABLES, BoardStyle, CheckerLook

# --- camera and light ---------------------------------------------------------------------------


def _board_extent_px(cam: Camera, g: BoardGeometry) -> tuple[float, float, float, float]:
    pts = np.array([(x, y, z) for x, y in g.outer_corners() for z in (-g.floor, g.rail_height)])
    p = cam.project(pts)
    return float(p[:, 0].min()), float(p[:, 1].min()), float(p[:, 0].max()), float(p[:, 1].max())


def place_camera(
    rng: np.random.Generator, g: BoardGeometry, width: int, height: int, fill: float | None = None
) -> Camera:
    """A camera between straight overhead and 45 degrees oblique, any yaw, with the
    board filling ``fill`` (40..95 %) of the frame's limiting side."""
    fill = float(rng.uniform(0.4, 0.95)) if fill is None else fill
    elev = math.radians(float(rng.uniform(45, 90)))
    yaw = float(rng.uniform(0, 2 * math.pi))
    hfov = float(rng.uniform(45, 78))
    roll = float(rng.normal(0, 3))
    k1 = float(rng.uniform(-0.22, 0.04))
    k2 = float(rng.uniform(-0.01, 0.04))
    target = (float(rng.normal(0, 2)), float(rng.normal(0, 2)), 0.0)
    dist = 150.0
    for _ in range(4):
        eye = (
            target[0] + dist * math.cos(elev) * math.sin(yaw),
            target[1] - dist * math.cos(elev) * math.cos(yaw),
            dist * math.sin(elev),
        )
        cam = Camera.looking_at(
            eye, target, width=width, height=height, hfov_deg=hfov, roll_deg=roll, k1=k1, k2=k2
        )
        x0, y0, x1, y1 = _board_extent_px(cam, g)
        now = max((x1 - x0) / width, (y1 - y0) / height)
        dist *= now / fill
    # shift the board off centre as far as the frame allows
    x0, y0, x1, y1 = _board_extent_px(cam, g)
    free_x, free_y = max(0.0, width - (x1 - x0)), max(0.0, height - (y1 - y0))
    dx = float(rng.uniform(-0.4, 0.4)) * free_x - ((x0 + x1) / 2 - width / 2)
    dy = float(rng.uniform(-0.4, 0.4)) * free_y - ((y0 + y1) / 2 - height / 2)
    dx = max(-x0, min(dx, width - x1))
    dy = max(-y0, min(dy, height - y1))
    # turning the camera is not a pure shift (and the lens bends the board's edge
    # differently off centre): back off until the whole board is in the frame
    for back in (1.0, 0.8, 0.6, 0.4, 0.2):
        moved = _shifted(cam, dx * back, dy * back)
        x0, y0, x1, y1 = _board_extent_px(moved, g)
        if x0 >= 0 and y0 >= 0 and x1 <= width and y1 <= height:
            return moved
    return cam


def place_closeup_camera(rng: np.random.Generator, die: Die, width: int, height: int) -> Camera:
    """A camera close to a die, the way a phone or a dice-tray camera sees dice: the
    die 28 to 90 pixels wide, somewhere in the frame, from overhead to 40 degrees."""
    hfov = float(rng.uniform(50, 75))
    f = width / 2 / math.tan(math.radians(hfov) / 2)
    dist = f * die.size / float(rng.uniform(28, 90))
    elev = math.radians(float(rng.uniform(40, 90)))
    yaw = float(rng.uniform(0, 2 * math.pi))
    # aim beside the die so that it is not always in the middle of the picture
    aim = (
        die.centre[0] + float(rng.normal(0, 2.5)),
        die.centre[1] + float(rng.normal(0, 2.0)),
        die.centre[2] - die.size / 2,
    )
    eye = (
        aim[0] + dist * math.cos(elev) * math.sin(yaw),
        aim[1] - dist * math.cos(elev) * math.cos(yaw),
        aim[2] + dist * math.sin(elev),
    )
    return Camera.looking_at(
        eye,
        aim,
        width=width,
        height=height,
        hfov_deg=hfov,
        roll_deg=float(rng.normal(0, 4)),
        k1=float(rng.uniform(-0.08, 0.02)),
    )


def _shifted(cam: Camera, dx: float, dy: float) -> Camera:
    # Moving the principal point would skew the optics; turn the camera instead
    # (a small pan/tilt) so the image shifts by about (dx, dy) pixels.
    ax, ay = math.atan2(dx, cam.fx), math.atan2(dy, cam.fy)
    r = cam.R
    pan = rot_axis(np.array([0.0, 1.0, 0.0]), ax)  # about camera y
    tilt = rot_axis(np.array([1.0, 0.0, 0.0]), -ay)
    new_r = pan @ tilt @ r  # camera coordinates turned: p' = Q p
    eye = cam.eye
    t = -new_r @ eye
    return replace(cam, rotation=_mat(new_r), translation=(float(t[0]), float(t[1]), float(t[2])))


def sample_light(rng: np.random.Generator) -> Light:
    hard = rng.random() < 0.4
    return Light(
        azimuth_deg=float(rng.uniform(0, 360)),
        elevation_deg=float(rng.uniform(30, 80)),
        kelvin=float(rng.uniform(2700, 7500)),
        ambient=float(rng.uniform(0.35, 0.7)),
        shadow_softness_px=float(rng.uniform(0.8, 2.5) if hard else rng.uniform(5, 16)),
        shadow_strength=float(rng.uniform(0.25, 0.55)),
        spot_xy=(float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.1, 0.9))),
        spot_strength=float(rng.uniform(0.0, 0.35)),
        vignette=float(rng.uniform(0.0, 0.4)),
        glare=float(rng.uniform(0.0, 0.5) if rng.random() < 0.4 else 0.0),
    )


def sample_effects(rng: np.random.Generator) -> Effects:
    return Effects(
        motion_px=float(rng.uniform(2, 10)) if rng.random() < 0.15 else 0.0,
        motion_angle_deg=float(rng.uniform(0, 180)),
        defocus_sigma=float(rng.uniform(0.5, 1.8)) if rng.random() < 0.3 else 0.0,
        noise_sigma=float(rng.uniform(0, 7)),
        jpeg_quality=int(rng.integers(55, 96)),
        exposure=float(rng.uniform(0.75, 1.25)),
        gamma=float(rng.uniform(0.85, 1.15)),
        white_balance=tuple(float(v) for v in rng.uniform(0.92, 1.08, 3)),  # type: ignore[arg-type]
        noise_seed=int(rng.integers(1, 2**31 - 1)),
    )


# --- the whole scene ------------------------------------------------------------------


def sample_board(rng: np.random.Generator, style: BoardStyle | None = None) -> BoardSetup:
    style = style or BOARD_STYLES[int(rng.integers(len(BOARD_STYLES)))]
    variant = int(rng.integers(VARIANTS_PER_STYLE))
    # the geometry belongs to the variant, so a cached texture always fits it
    vr = np.random.default_rng([hash_name(style.name), variant])
    trays = style.trays[int(vr.integers(len(style.trays)))]
    g = geometry_for([float(u) for u in vr.random(7)], trays)
    if vr.random() < 0.2:
        g = replace(g, mirrored=True)
    table_variant = int(rng.integers(len(TABLES) * 3))
    return BoardSetup(style, g, variant, TABLES[table_variant % len(TABLES)], table_variant)


def sample_scene(
    rng: np.random.Generator,
    position: Position,
    origin: str = "",
    *,
    width: int = 1280,
    height: int = 720,
    style: BoardStyle | None = None,
    board: BoardSetup | None = None,
    camera: Camera | None = None,
    closeup: bool = False,
) -> Scene:
    """A random scene showing ``position``: everything not given is drawn from ``rng``.
    ``closeup``: the camera looks closely at the dice (see :func:`place_closeup_camera`)."""
    board = board or sample_board(rng, style)
    g = board.geometry
    bottom = int(rng.integers(2))
    cs = CHECKER_SETS[int(rng.integers(len(CHECKER_SETS)))]
    order = (0, 1) if rng.random() < 0.5 else (1, 0)
    names = (cs.colours[order[0]][0], cs.colours[order[1]][0])
    colours = (cs.colours[order[0]][1], cs.colours[order[1]][1])
    look = CheckerLook(
        diameter_fill=float(rng.uniform(0.8, 0.94)),
        height_ratio=float(rng.uniform(0.16, 0.26)),
        rim=bool(rng.random() < 0.6),
        engraving=("none", "rings", "star", "dot")[int(rng.integers(4))],
        glossy=bool(rng.random() < 0.4),
    )
    stacking = "row" if rng.random() < 0.4 else "layer"
    checkers = place_checkers(g, position, bottom, CheckerStyle.of(g, look, colours, stacking, rng))

    dice: list[Die] = []
    u = rng.random()
    roller = position.turn
    if u < 0.85:
        fault: str | None = None
        lean: str | None = None
        f = rng.random()
        if f < 0.3:
            fault = "cocked"
            lean = ("checker", "rail", "bar", "die", "edge", None)[int(rng.integers(6))]
        elif f < 0.42:
            fault = "wrong_half"
        elif f < 0.5:
            fault = "different_halves"
        elif f < 0.6:
            fault = "on_checker"
        elif f < 0.66:
            fault = "off_board"
        right = 1.0 if roller == bottom else -1.0
        dice += place_dice(rng, g, checkers, roller, right, fault, lean)
    if rng.random() < 0.45:
        other = 1 - roller
        seat = -1.0 if other == bottom else 1.0
        dice += place_idle_dice(rng, g, other, seat, spots_of(checkers, dice))

    cube = None
    c = rng.random()
    if c < 0.9:
        r = rng.random()
        if r < 0.4:
            cube = place_cube(rng, g, bottom, "centre", 64, spots_of(checkers, dice))
        else:
            value = CUBE_FACES[1 + int(rng.integers(5))]
            place = "offered" if r > 0.85 else ("player0" if rng.random() < 0.5 else "player1")
            cube = place_cube(rng, g, bottom, place, value, spots_of(checkers, dice))

    n_hands = 0 if rng.random() < 0.6 else (1 if rng.random() < 0.8 else 2)
    if closeup:
        n_hands = 0  # a close-up camera would sit in the arm's way
    hands = place_hands(rng, g, n_hands, rng.random() < 0.5)
    clutter = place_clutter(rng, g, int(rng.integers(0, 4)))
    if camera is None and closeup and dice:
        camera = place_closeup_camera(rng, dice[int(rng.integers(len(dice)))], width, height)
    camera = camera or place_camera(rng, g, width, height)
    light = sample_light(rng)
    if board.style.gloss > 0:  # a glossy surface catches the lamp
        light = replace(
            light, glare=max(light.glare, board.style.gloss * float(rng.uniform(0.3, 0.9)))
        )
    return Scene(
        board=board,
        position=position,
        origin=origin,
        bottom=bottom,
        checker_set=cs.name,
        colour_names=names,
        checker_look=look,
        stacking=stacking,
        checkers=tuple(checkers),
        dice=tuple(dice),
        cube=cube,
        hands=tuple(hands),
        clutter=tuple(clutter),
        camera=camera,
        light=light,
        effects=sample_effects(rng),
    )
