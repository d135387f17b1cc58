"""A scene in world coordinates: every object's place, pose and look, before drawing.

:func:`sample_scene` draws a whole scene from a seeded generator: board, position,
checkers (stacks, bar, borne off), dice (flat or cocked, right or wrong half, on a
checker, off the board), the doubling cube, hands, clutter, camera and light. The
result is plain data (:class:`Scene`); :mod:`.draw` turns it into pixels and
:mod:`.labels` into ground truth, so the two cannot disagree.

Seats: the *bottom* seat sits at ``y < 0`` (see :mod:`.geometry`); ``Scene.bottom``
says which engine player (0 or 1) sits there. A player's *right* half is ``x > 0``
for the bottom seat and ``x < 0`` for the top seat.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field, replace

import numpy as np

from gammoneye.engine.position import Position

from .camera import Camera
from .geometry import BoardGeometry, geometry_for
from .styles import (
    BOARD_STYLES,
    CHECKER_SETS,
    DICE_COLOURS,
    SKIN_TONES,
    SLEEVES,
    TABLES,
    BoardStyle,
    CheckerLook,
    DiceLook,
    Material,
)

BGR = tuple[int, int, int]
Vec3 = tuple[float, float, float]
Mat3 = tuple[Vec3, Vec3, Vec3]

#: Board texture variants per style: a scene picks one, and the renderer caches them.
VARIANTS_PER_STYLE = 6
CUBE_FACES = (64, 2, 4, 8, 16, 32)


# --- objects ------------------------------------------------------------------------------


@dataclass(frozen=True)
class BoardSetup:
    style: BoardStyle
    geometry: BoardGeometry
    variant: int  # texture seed within the style (see VARIANTS_PER_STYLE)
    table: Material
    table_variant: int


@dataclass(frozen=True)
class Checker:
    owner: int  # engine player
    where: str  # "point", "bar", "off"
    point: int | None  # 1..24 in the bottom seat's numbering (``where == "point"``)
    x: float
    y: float
    z: float  # bottom face
    radius: float
    height: float
    colour: BGR
    layer: int = 0  # 0 on the surface, 1 on top of another checker, ...


@dataclass(frozen=True)
class Die:
    """A die: ``rotation`` maps the die's own axes to the world; its own +z face
    carries ``faces[0]`` (see :func:`die_faces`)."""

    value: int  # the face most nearly up
    owner: int
    centre: Vec3
    rotation: Mat3
    size: float
    look: DiceLook
    cocked: bool
    tilt_deg: float
    leaning_on: str | None  # "checker", "rail", "bar", "die", "edge" when cocked
    on_checker: bool
    off_board: bool
    faces: tuple[int, int, int, int, int, int]  # values on own +z, -z, +x, -x, +y, -y


@dataclass(frozen=True)
class Cube:
    value: int  # the face up: 64 while centred
    place: str  # "centre", "player0", "player1", "offered"
    centre: Vec3
    rotation: Mat3
    size: float
    body: BGR
    ink: BGR
    faces: tuple[int, int, int, int, int, int]


@dataclass(frozen=True)
class Hand:
    """An arm reaching over the board from a seat to ``target`` (x, y) at height ``z``."""

    start: Vec3
    target: Vec3
    skin: BGR
    sleeve: BGR
    width: float  # forearm width, cm
    spread: float  # 0 closed .. 1 fingers apart
    yaw: float  # extra turn of the hand, radians


@dataclass(frozen=True)
class Clutter:
    kind: str  # "cup", "sheet", "phone", "clock"
    x: float
    y: float
    angle: float
    size: float
    colour: BGR


@dataclass(frozen=True)
class Light:
    azimuth_deg: float
    elevation_deg: float
    kelvin: float
    ambient: float
    shadow_softness_px: float
    shadow_strength: float
    spot_xy: tuple[float, float]  # image fraction
    spot_strength: float
    vignette: float
    glare: float


@dataclass(frozen=True)
class Effects:
    motion_px: float
    motion_angle_deg: float
    defocus_sigma: float
    noise_sigma: float
    jpeg_quality: int
    exposure: float
    gamma: float
    white_balance: tuple[float, float, float]
    noise_seed: int = 0


@dataclass(frozen=True)
class Scene:
    board: BoardSetup
    position: Position
    origin: str  # where the position came from
    bottom: int  # the engine player sitting at the bottom seat
    checker_set: str
    colour_names: tuple[str, str]  # per engine player
    checker_look: CheckerLook
    stacking: str  # "layer" or "row"
    checkers: tuple[Checker, ...]
    dice: tuple[Die, ...]
    cube: Cube | None
    hands: tuple[Hand, ...]
    clutter: tuple[Clutter, ...]
    camera: Camera
    light: Light
    effects: Effects
    seed: tuple[int, ...] = field(default=())

    def board_point(self, player: int, own_point: int) -> int:
        """The bottom seat's number of ``player``'s own point ``own_point``."""
        return own_point if player == self.bottom else 25 - own_point

    def right_half_sign(self, player: int) -> float:
        """+1 when the player's right half is ``x > 0``, -1 when it is ``x < 0``."""
        return 1.0 if player == self.bottom else -1.0


# --- dice orientation ------------------------------------------------------------------------

# Own axes +z, -z, +x, -x, +y, -y of a canonical die; opposite faces sum to 7.
_CANON = (1, 6, 3, 4, 2, 5)
_AXES = np.array([[0, 0, 1], [0, 0, -1], [1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0]], float)


def _rotations() -> list[np.ndarray]:
    out = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            m = np.zeros((3, 3))
            for r, (c, s) in enumerate(zip(perm, signs, strict=True)):
                m[r, c] = s
            if round(np.linalg.det(m)) == 1:
                out.append(m)
    return out


_ROTATIONS = _rotations()


def die_faces(
    rotation_index: int, canon: tuple[int, ...] = _CANON
) -> tuple[int, int, int, int, int, int]:
    """The values on own axes (+z, -z, +x, -x, +y, -y) after one of the 24 cube
    rotations of the canonical die."""
    m = _ROTATIONS[rotation_index]
    out = []
    for axis in _AXES:
        # the canonical face that the rotation carries onto this axis
        src = m.T @ axis
        k = int(np.argmax(_AXES @ src))
        out.append(canon[k])
    return tuple(out)  # type: ignore[return-value]


def faces_with_top(
    value: int, rng: np.random.Generator, canon: tuple[int, ...] = _CANON
) -> tuple[int, ...]:
    options = [die_faces(i, canon) for i in range(24) if die_faces(i, canon)[0] == value]
    return options[int(rng.integers(len(options)))]


def rot_z(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])


def rot_axis(axis: np.ndarray, angle: float) -> np.ndarray:
    a = axis / np.linalg.norm(axis)
    k = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * (k @ k)


def _mat(m: np.ndarray) -> Mat3:
    return tuple(tuple(float(v) for v in row) for row in m)  # type: ignore[return-value]


def cube_corners(centre: Vec3, rotation: Mat3, size: float) -> np.ndarray:
    """The 8 corners (8, 3) of a cube of edge ``size``."""
    h = size / 2
    local = np.array(list(itertools.product((-h, h), repeat=3)))
    return local @ np.asarray(rotation).T + np.asarray(centre)


def rest_height(rotation: np.ndarray, size: float) -> float:
    """Height of the centre above the support when the lowest corner touches it."""
    corners = cube_corners((0.0, 0.0, 0.0), _mat(rotation), size)
    return float(-corners[:, 2].min())


# --- checkers -----------------------------------------------------------------------------


def _point_checkers(
    scene_rng: np.random.Generator,
    g: BoardGeometry,
    point: int,
    owner: int,
    count: int,
    radius: float,
    height: float,
    colour: BGR,
    stacking: str,
) -> list[Checker]:
    x0, y0, d = g.point_base(point)
    dia = 2 * radius
    gap = dia * float(scene_rng.uniform(0.0, 0.04))
    row_fit = max(1, int((g.field_depth / 2 - 0.2) // (dia + gap)))
    row = min(row_fit + 1, 6) if stacking == "row" else min(row_fit, 5)
    out = []
    for k in range(count):
        layer, slot = divmod(k, row)
        along = radius + slot * (dia + gap) + (layer % 2) * radius * 0.5
        jx = float(scene_rng.normal(0, 0.03 * dia))
        jy = float(scene_rng.normal(0, 0.02 * dia))
        out.append(
            Checker(
                owner,
                "point",
                point,
                x0 + jx,
                y0 + d * (along + 0.05) + jy,
                layer * height,
                radius,
                height,
                colour,
                layer,
            )
        )
    return out


def _bar_checkers(
    g: BoardGeometry,
    owner_sign: float,
    owner: int,
    count: int,
    radius: float,
    height: float,
    colour: BGR,
    rng: np.random.Generator,
) -> list[Checker]:
    out = []
    for k in range(count):
        layer, slot = divmod(k, 4)
        y = owner_sign * (radius + 1.5 + slot * 2.05 * radius)
        out.append(
            Checker(
                owner,
                "bar",
                None,
                float(rng.normal(0, 0.1)),
                y,
                g.bar_height + layer * height,
                radius,
                height,
                colour,
                layer,
            )
        )
    return out


def _off_checkers(
    g: BoardGeometry,
    seat_sign: float,
    owner: int,
    count: int,
    radius: float,
    height: float,
    colour: BGR,
    rng: np.random.Generator,
) -> list[Checker]:
    """Borne-off checkers: in a tray on the owner's half, or on the table beside
    the board (at the owner's right)."""
    trays = g.tray_boxes()
    out = []
    if trays:
        tray = trays[-1] if seat_sign < 0 else trays[0]
        cx = (tray.x0 + tray.x1) / 2
        per_col = 5
        for k in range(count):
            col, lay = divmod(k, per_col)
            y = seat_sign * (g.field_depth / 2 - radius - 0.4 - col * 2.05 * radius)
            out.append(
                Checker(
                    owner,
                    "off",
                    None,
                    cx + float(rng.normal(0, 0.08)),
                    y,
                    lay * height,
                    radius,
                    height,
                    colour,
                    lay,
                )
            )
        return out
    side = g.x_max + radius + 2.5 if seat_sign < 0 else g.x_min - radius - 2.5
    for k in range(count):
        col, lay = divmod(k, 5)
        y = seat_sign * (g.field_depth / 2 - radius - col * 2.1 * radius)
        out.append(
            Checker(
                owner,
                "off",
                None,
                side + float(rng.normal(0, 0.1)),
                y,
                -g.floor + lay * height,
                radius,
                height,
                colour,
                lay,
            )
        )
    return out


def place_checkers(
    rng: np.random.Generator,
    g: BoardGeometry,
    position: Position,
    bottom: int,
    colours: tuple[BGR, BGR],
    look: CheckerLook,
    stacking: str,
) -> list[Checker]:
    radius = g.point_width * look.diameter_fill / 2
    height = 2 * radius * look.height_ratio
    out: list[Checker] = []
    for player in (0, 1):
        board = position.boards[player]
        seat_sign = -1.0 if player == bottom else 1.0
        for own in range(1, 25):
            n = board[own - 1]
            if n:
                point = own if player == bottom else 25 - own
                out += _point_checkers(
                    rng, g, point, player, n, radius, height, colours[player], stacking
                )
        out += _bar_checkers(g, -seat_sign, player, board[24], radius, height, colours[player], rng)
        out += _off_checkers(
            g, seat_sign, player, position.off(player), radius, height, colours[player], rng
        )
    return out


# --- dice and cube --------------------------------------------------------------------------


def _dice_look(rng: np.random.Generator) -> DiceLook:
    _, body, pips = DICE_COLOURS[int(rng.integers(len(DICE_COLOURS)))]
    precision = rng.random() < 0.3
    style = (
        "square"
        if precision and rng.random() < 0.5
        else ("inked" if rng.random() < 0.2 else "round")
    )
    return DiceLook(
        size_cm=float(rng.uniform(1.5, 1.95) if precision else rng.uniform(1.3, 1.7)),
        body=body,
        pips=pips,
        pip_style=style,
        rounding=float(rng.uniform(0.03, 0.08) if precision else rng.uniform(0.12, 0.3)),
        pip_size=float(rng.uniform(0.08, 0.12)),
    )


DIE_FAULTS = ("cocked", "wrong_half", "different_halves", "on_checker", "off_board")


def _surface_z(g: BoardGeometry, x: float, y: float) -> float:
    """Height of whatever is under (x, y) when nothing stands on it."""
    if g.on_field(x, y):
        return 0.0
    if abs(x) <= g.bar_width / 2 and abs(y) <= g.field_depth / 2:
        return g.bar_height
    if any(t.x0 <= x <= t.x1 and t.y0 <= y <= t.y1 for t in g.tray_boxes()):
        return 0.0
    if g.x_min <= x <= g.x_max and -g.y_max <= y <= g.y_max:
        return g.rail_height
    return -g.floor


def _free_spot(
    rng: np.random.Generator,
    g: BoardGeometry,
    half_sign: float,
    size: float,
    taken: list[tuple[float, float, float]],
) -> tuple[float, float]:
    """A point in the half (+1 right of the bar, -1 left, bottom seat's view) that
    keeps a die clear of checkers and other dice (``taken``: x, y, radius)."""
    lo, hi = g.bar_width / 2 + size, g.bar_width / 2 + g.field_width - size
    ylim = g.field_depth / 2 - size
    best, best_clear = (half_sign * (lo + hi) / 2, 0.0), -1e9
    for _ in range(60):
        x = half_sign * float(rng.uniform(lo, hi))
        y = float(rng.uniform(-ylim, ylim))
        clear = (
            min((math.hypot(x - tx, y - ty) - tr for tx, ty, tr in taken), default=1e9) - size * 0.8
        )
        if clear > 0.3:
            return x, y
        if clear > best_clear:
            best, best_clear = (x, y), clear
    return best


def make_die(
    rng: np.random.Generator,
    value: int,
    owner: int,
    xy: tuple[float, float],
    base_z: float,
    look: DiceLook,
    *,
    tilt_deg: float = 0.0,
    lean_dir: float = 0.0,
    leaning_on: str | None = None,
    on_checker: bool = False,
    off_board: bool = False,
) -> Die:
    """A die showing ``value`` (the face most nearly up) at ``xy`` on a surface at
    ``base_z``; a positive ``tilt_deg`` cocks it towards direction ``lean_dir``."""
    faces = faces_with_top(value, rng)
    yaw = float(rng.uniform(0, 2 * math.pi))
    rot = rot_z(yaw)
    if tilt_deg:
        axis = np.array([-math.sin(lean_dir), math.cos(lean_dir), 0.0])
        rot = rot_axis(axis, math.radians(tilt_deg)) @ rot
    z = base_z + rest_height(rot, look.size_cm)
    if tilt_deg:
        # leaning: the support holds the high side up, so the die sits a little lower
        # than on its corner alone; half the tilt's lift is a fair middle
        z = base_z + look.size_cm / 2 + (z - base_z - look.size_cm / 2) * 0.5
    return Die(
        value,
        owner,
        (xy[0], xy[1], z),
        _mat(rot),
        look.size_cm,
        look,
        bool(tilt_deg),
        float(tilt_deg),
        leaning_on,
        on_checker,
        off_board,
        faces,
    )


def place_dice(
    rng: np.random.Generator,
    g: BoardGeometry,
    scene_checkers: list[Checker],
    roller: int,
    roller_right: float,
    fault: str | None,
    lean: str | None,
) -> list[Die]:
    """The roller's two dice; ``fault`` one of :data:`DIE_FAULTS` or None."""
    look = _dice_look(rng)
    values = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
    taken = [(c.x, c.y, c.radius) for c in scene_checkers if c.where == "point"]
    half = roller_right if fault != "wrong_half" else -roller_right
    dice: list[Die] = []
    for i, v in enumerate(values):
        h = half
        if fault == "different_halves" and i == 1:
            h = -half
        if fault == "off_board" and i == 1:
            side = 1 if rng.random() < 0.5 else -1
            x = half * float(rng.uniform(g.bar_width, g.field_width))
            y = side * (g.y_max + float(rng.uniform(2.5, 8)))
            dice.append(make_die(rng, v, roller, (x, y), -g.floor, look, off_board=True))
            continue
        if fault == "on_checker" and i == 0:
            mine = [c for c in scene_checkers if c.where == "point" and half * c.x > 0]
            if mine:
                # the top checker of a random point of the half
                pick = mine[int(rng.integers(len(mine)))]
                c = max((k for k in mine if k.point == pick.point), key=lambda k: k.z)
                off = (float(rng.normal(0, c.radius * 0.2)), float(rng.normal(0, c.radius * 0.2)))
                dice.append(
                    make_die(
                        rng,
                        v,
                        roller,
                        (c.x + off[0], c.y + off[1]),
                        c.z + c.height,
                        look,
                        on_checker=True,
                    )
                )
                taken.append((c.x, c.y, c.radius))
                continue
        xy = _free_spot(rng, g, h, look.size_cm, taken)
        if fault == "cocked" and i == 0:
            dice.append(_cocked_die(rng, g, v, roller, xy, look, scene_checkers, dice, lean))
        else:
            dice.append(make_die(rng, v, roller, xy, 0.0, look))
        taken.append((dice[-1].centre[0], dice[-1].centre[1], look.size_cm * 0.75))
    if fault == "cocked" and lean == "die" and len(dice) == 2:
        # lean the second die against the first
        first, second = dice
        ang = float(rng.uniform(0, 2 * math.pi))
        gap = look.size_cm * 0.95
        xy2 = (first.centre[0] + gap * math.cos(ang), first.centre[1] + gap * math.sin(ang))
        tilt = float(rng.uniform(14, 40))
        dice[0] = make_die(rng, first.value, roller, (first.centre[0], first.centre[1]), 0.0, look)
        dice[1] = make_die(
            rng,
            second.value,
            roller,
            xy2,
            0.0,
            look,
            tilt_deg=tilt,
            lean_dir=ang + math.pi,
            leaning_on="die",
        )
    return dice


def _cocked_die(
    rng: np.random.Generator,
    g: BoardGeometry,
    value: int,
    owner: int,
    xy: tuple[float, float],
    look: DiceLook,
    checkers: list[Checker],
    dice: list[Die],
    lean: str | None,
) -> Die:
    tilt = float(rng.uniform(12, 42))
    s = look.size_cm
    x, y = xy
    if lean == "checker":
        near = [c for c in checkers if c.where == "point" and c.layer == 0 and x * c.x > 0]
        if near:
            c = near[int(rng.integers(len(near)))]
            ang = float(rng.uniform(0, 2 * math.pi))
            dist = c.radius + s * 0.45
            x, y = c.x + dist * math.cos(ang), c.y + dist * math.sin(ang)
            return make_die(
                rng,
                value,
                owner,
                (x, y),
                0.0,
                look,
                tilt_deg=tilt,
                lean_dir=ang + math.pi,
                leaning_on="checker",
            )
    if lean in ("rail", "edge"):
        top = 1.0 if rng.random() < 0.5 else -1.0
        y = top * (g.field_depth / 2 - s * 0.45)
        return make_die(
            rng,
            value,
            owner,
            (x, y),
            0.0,
            look,
            tilt_deg=tilt,
            lean_dir=math.atan2(top, 0.0),
            leaning_on=lean,
        )
    if lean == "bar":
        side = 1.0 if x > 0 else -1.0
        x = side * (g.bar_width / 2 + s * 0.45)
        return make_die(
            rng,
            value,
            owner,
            (x, y),
            0.0,
            look,
            tilt_deg=tilt,
            lean_dir=math.atan2(0.0, -side),
            leaning_on="bar",
        )
    # "die" is handled by the caller; anything else leans on nothing visible (a
    # crumb, the felt's edge): still cocked
    return make_die(
        rng,
        value,
        owner,
        (x, y),
        0.0,
        look,
        tilt_deg=tilt,
        lean_dir=float(rng.uniform(0, 2 * math.pi)),
        leaning_on=lean,
    )


def place_idle_dice(
    rng: np.random.Generator, g: BoardGeometry, owner: int, seat_sign: float
) -> list[Die]:
    """The other player's pair, waiting on his side: on the rail in front of him
    or on the bar end (tournament boards have four dice [001 3.3])."""
    look = _dice_look(rng)
    out = []
    on_rail = rng.random() < 0.6
    for i in range(2):
        v = int(rng.integers(1, 7))
        if on_rail and g.rail_width > look.size_cm * 1.2:
            x = float(rng.uniform(-g.field_width, g.field_width)) * 0.6 + i * look.size_cm * 1.3
            y = seat_sign * (g.field_depth / 2 + g.rail_width / 2)
            out.append(make_die(rng, v, owner, (x, y), g.rail_height, look))
        else:
            y = seat_sign * (g.field_depth / 2 - look.size_cm * (1.0 + 1.3 * i))
            out.append(make_die(rng, v, owner, (0.0, y), g.bar_height, look))
    return out


def place_cube(
    rng: np.random.Generator, g: BoardGeometry, bottom: int, place: str, value: int
) -> Cube:
    size = float(rng.uniform(2.0, 2.8))
    body = (
        (235, 238, 240)
        if rng.random() < 0.6
        else ((30, 30, 30) if rng.random() < 0.5 else (40, 40, 150))
    )
    ink = (20, 20, 20) if sum(body) > 300 else (235, 235, 235)
    if place == "centre":
        xy, z = (float(rng.normal(0, 0.2)), float(rng.normal(0, 1.0))), g.bar_height
        if g.bar_width < size:
            z = g.bar_height
    elif place in ("player0", "player1"):
        owner = int(place[-1])
        sign = -1.0 if owner == bottom else 1.0
        if rng.random() < 0.5:
            xy, z = (
                (float(rng.normal(0, 0.2)), sign * (g.field_depth / 2 - size * 0.8)),
                g.bar_height,
            )
        else:
            xy = (
                float(rng.uniform(-g.field_width, g.field_width)) * 0.5,
                sign * (g.field_depth / 2 + g.rail_width / 2),
            )
            z = g.rail_height if g.rail_width > size else -g.floor
            if z < 0:
                xy = (xy[0], sign * (g.y_max + size))
    elif place == "offered":
        side = 1.0 if rng.random() < 0.5 else -1.0
        xy = (
            side * float(rng.uniform(g.bar_width, g.field_width * 0.7)),
            float(rng.normal(0, 2.0)),
        )
        z = 0.0
    else:
        raise ValueError(f"unknown cube place {place!r}")
    rot = rot_z(float(rng.uniform(0, 2 * math.pi)))
    faces = (value, *[f for f in CUBE_FACES if f != value])
    return Cube(value, place, (xy[0], xy[1], z + size / 2), _mat(rot), size, body, ink, faces)  # type: ignore[arg-type]


# --- people and things ----------------------------------------------------------------------


def place_hands(
    rng: np.random.Generator, g: BoardGeometry, count: int, bottom_first: bool
) -> list[Hand]:
    out = []
    for i in range(count):
        sign = -1.0 if (i == 0) == bottom_first else 1.0
        tx = float(rng.uniform(-g.field_width, g.field_width))
        ty = float(rng.uniform(-g.field_depth / 2, g.field_depth / 2)) * 0.9
        start = (
            tx * 0.5 + float(rng.normal(0, 10)),
            sign * (g.y_max + float(rng.uniform(25, 45))),
            float(rng.uniform(12, 25)),
        )
        out.append(
            Hand(
                start,
                (tx, ty, float(rng.uniform(2.5, 12))),
                SKIN_TONES[int(rng.integers(len(SKIN_TONES)))],
                SLEEVES[int(rng.integers(len(SLEEVES)))],
                float(rng.uniform(6.5, 8.5)),
                float(rng.uniform(0, 1)),
                float(rng.normal(0, 0.35)),
            )
        )
    return out


def place_clutter(rng: np.random.Generator, g: BoardGeometry, count: int) -> list[Clutter]:
    kinds = ("cup", "cup", "sheet", "phone", "clock")
    colours: tuple[BGR, ...] = (
        (40, 40, 40),
        (30, 60, 120),
        (20, 20, 110),
        (60, 40, 20),
        (200, 200, 200),
    )
    out = []
    for _ in range(count):
        kind = kinds[int(rng.integers(len(kinds)))]
        size = {"cup": 8.0, "sheet": 24.0, "phone": 15.0, "clock": 14.0}[kind] * float(
            rng.uniform(0.85, 1.15)
        )
        side = int(rng.integers(4))
        margin = size * 0.75 + 2
        if side < 2:
            x = (g.x_max + margin) if side == 0 else (g.x_min - margin)
            y = float(rng.uniform(-g.y_max, g.y_max))
        else:
            x = float(rng.uniform(g.x_min, g.x_max))
            y = (g.y_max + margin) if side == 2 else -(g.y_max + margin)
        out.append(
            Clutter(
                kind,
                x,
                y,
                float(rng.uniform(0, math.pi)),
                size,
                colours[int(rng.integers(len(colours)))],
            )
        )
    return out


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
    return _shifted(cam, dx, dy)


def _shifted(cam: Camera, dx: float, dy: float) -> Camera:
    # Moving the principal point would skew the optics; turn the camera instead
    # (a small pan/tilt) so the image shifts by about (dx, dy) pixels.
    ax, ay = math.atan2(dx, cam.fx), math.atan2(dy, cam.fy)
    r = cam.R
    pan = rot_axis(np.array([0.0, 1.0, 0.0]), ax)  # about camera y
    tilt = rot_axis(np.array([1.0, 0.0, 0.0]), -ay)
    new_r = (pan @ tilt).T @ r
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


def hash_name(name: str) -> int:
    """A stable small integer for a name (Python's hash() is salted per process)."""
    h = 2166136261
    for ch in name.encode():
        h = ((h ^ ch) * 16777619) & 0xFFFFFFFF
    return h


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
) -> Scene:
    """A random scene showing ``position``: everything not given is drawn from ``rng``."""
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
    checkers = place_checkers(rng, g, position, bottom, colours, look, stacking)

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
        dice += place_idle_dice(rng, g, other, -1.0 if other == bottom else 1.0)

    cube = None
    c = rng.random()
    if c < 0.9:
        r = rng.random()
        if r < 0.4:
            cube = place_cube(rng, g, bottom, "centre", 64)
        else:
            value = CUBE_FACES[1 + int(rng.integers(5))]
            place = "offered" if r > 0.85 else ("player0" if rng.random() < 0.5 else "player1")
            cube = place_cube(rng, g, bottom, place, value)

    n_hands = 0 if rng.random() < 0.6 else (1 if rng.random() < 0.8 else 2)
    hands = place_hands(rng, g, n_hands, rng.random() < 0.5)
    clutter = place_clutter(rng, g, int(rng.integers(0, 4)))
    camera = camera or place_camera(rng, g, width, height)
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
        light=sample_light(rng),
        effects=sample_effects(rng),
    )
