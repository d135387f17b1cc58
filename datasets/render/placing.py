"""Where things go: checkers on points, the bar and in trays; dice flat or cocked, in
the right or wrong half, on a checker or off the board; the cube; hands and clutter.

Every function takes a seeded generator and returns :mod:`.scene` objects in world
coordinates (centimetres, see :mod:`.geometry`).
"""

from __future__ import annotations

import math

import numpy as np

from gammoneye.engine.position import Position

from .geometry import BoardGeometry
from .scene import (
    BGR,
    CUBE_FACES,
    Checker,
    Clutter,
    Cube,
    Die,
    Hand,
    _mat,
    faces_with_top,
    rest_height,
    rot_axis,
    rot_z,
)
from .styles import DICE_COLOURS, SKIN_TONES, SLEEVES, CheckerLook, DiceLook

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
