"""Where things go: checkers on points, the bar and in trays; dice flat or cocked, in
the right or wrong half, on a checker or off the board; the cube; hands and clutter.

Every function takes a seeded generator and returns :mod:`.scene` objects in world
coordinates (centimetres, see :mod:`.geometry`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

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

#: Checker counts of both players: per player 26 numbers, own points 1..24 at index
#: 0..23, then the bar (24) and borne off (25). Unlike a Position it may hold any
#: counts (a checker in a hand is on no point) and both players on one point (an
#: illegal play onto a blocked point, a hit checker not yet on the bar).
Layout = tuple[tuple[int, ...], tuple[int, ...]]
BAR, OFF = 24, 25


def layout_of(position: Position) -> Layout:
    """The layout of a position (borne-off checkers counted at index 25)."""
    return tuple(  # type: ignore[return-value]
        (*position.boards[p], position.off(p)) for p in (0, 1)
    )


def _jitter(seed: int, *keys: int) -> tuple[float, float]:
    """Two stable numbers in [-1, 1) for a checker: it keeps its small offset while
    other checkers move (a seeded generator per checker would be too slow)."""
    h = seed & 0xFFFFFFFF
    for k in keys:
        h = ((h ^ (k & 0xFFFFFFFF)) * 0x9E3779B1 + 0x7F4A7C15) & 0xFFFFFFFF
        h ^= h >> 15
    return ((h & 0xFFFF) / 32768.0 - 1.0, ((h >> 16) & 0xFFFF) / 32768.0 - 1.0)


@dataclass(frozen=True)
class CheckerStyle:
    """How checkers of one scene are sized, coloured and piled."""

    radius: float
    height: float
    colours: tuple[BGR, BGR]
    stacking: str  # "layer": a second layer above five; "row": a longer row first
    gap: float  # spacing between neighbours along a point, cm
    seed: int  # for the per-checker jitter

    @classmethod
    def of(
        cls,
        g: BoardGeometry,
        look: CheckerLook,
        colours: tuple[BGR, BGR],
        stacking: str,
        rng: np.random.Generator,
    ) -> CheckerStyle:
        radius = g.point_width * look.diameter_fill / 2
        return cls(
            radius,
            2 * radius * look.height_ratio,
            colours,
            stacking,
            2 * radius * float(rng.uniform(0.0, 0.04)),
            int(rng.integers(2**31)),
        )


def _point_slot(
    g: BoardGeometry, cs: CheckerStyle, point: int, k: int
) -> tuple[float, float, float, int]:
    """(x, y, z, layer) of the ``k``-th checker on a point (0: at the rail)."""
    x0, y0, d = g.point_base(point)
    dia = 2 * cs.radius
    # a row stops short of the field's middle line, so stacks on opposite points
    # never meet; "row" piles make it as long as it fits (up to six), "layer" piles
    # stop at five; each layer above holds one fewer, in the gaps of the one below
    row_fit = max(1, int((g.field_depth / 2 - 0.2) // (dia + cs.gap)))
    row = min(row_fit, 6) if cs.stacking == "row" else min(row_fit, 5)
    layer, slot = 0, k
    while slot >= row - min(layer, 1) and row > 1:
        slot -= row - min(layer, 1)
        layer += 1
    along = cs.radius + (slot + 0.5 * min(layer, 1)) * (dia + cs.gap)
    jx, jy = _jitter(cs.seed, point, k)
    return (
        x0 + jx * 0.05 * dia,
        y0 + d * (along + 0.05) + jy * 0.035 * dia,
        layer * cs.height,
        layer,
    )


def _bar_slot(
    g: BoardGeometry, cs: CheckerStyle, side: float, k: int, shift: float = 0.0
) -> tuple[float, float, float, int]:
    """The ``k``-th checker on the bar on ``side`` (+1 / -1 along the bar), from the
    middle out, ``shift`` cm further out than where the first would lie."""
    layer, slot = divmod(k, 4)
    jx, _ = _jitter(cs.seed, 25, k, int(side))
    y = side * (cs.radius + 1.5 + shift + slot * 2.05 * cs.radius)
    return (jx * 0.15, y, g.bar_height + layer * cs.height, layer)


def _bar_shift(
    g: BoardGeometry, cs: CheckerStyle, side: float, avoid: Sequence[Spot], start: float = 0.0
) -> float:
    """How far out (cm) the checkers on the bar on ``side`` start, from ``start`` on,
    so that the first stands clear of ``avoid`` (the cube resting on the bar): a
    player puts a checker hit beside the cube, never under it."""
    if not avoid:
        return start
    for step in range(80):
        x, y, _, _ = _bar_slot(g, cs, side, 0, start + step * 0.25)
        if is_clear(x, y, cs.radius, avoid):
            return start + step * 0.25
    return start


#: The share of players who lay a checker hit across the bar's middle rather than
#: in their own half of the bar (:func:`_lays_across`).
ACROSS_SHARE = 0.25


def _lays_across(cs: CheckerStyle, player: int, layout: Layout) -> bool:
    """Whether ``player`` lays his first checker on the bar across its middle: players
    put a checker hit anywhere on the bar (the reader must count one lying half in
    each of its halves, ``vision.read.across_the_middle``). One player in
    ``ACROSS_SHARE``, the same all match long (a stable draw from the checkers'
    seed), and only while his opponent has none on the bar."""
    if layout[1 - player][BAR]:
        return False
    return (_jitter(cs.seed, 27, player)[0] + 1.0) / 2.0 < ACROSS_SHARE


def _off_slot(
    g: BoardGeometry, cs: CheckerStyle, seat_sign: float, k: int
) -> tuple[float, float, float, int]:
    """Borne-off checkers: piles of five in a tray on the owner's half, or on the
    table beside the board when it has no tray."""
    trays = g.tray_boxes()
    col, lay = divmod(k, 5)
    jx, _ = _jitter(cs.seed, 26, k, int(seat_sign))
    if trays:
        tray = trays[-1] if seat_sign < 0 else trays[0]
        y = seat_sign * (g.field_depth / 2 - cs.radius - 0.4 - col * 2.05 * cs.radius)
        return ((tray.x0 + tray.x1) / 2 + jx * 0.1, y, lay * cs.height, lay)
    side = g.x_max + cs.radius + 2.5 if seat_sign < 0 else g.x_min - cs.radius - 2.5
    y = seat_sign * (g.field_depth / 2 - cs.radius - col * 2.1 * cs.radius)
    return (side + jx * 0.12, y, -g.floor + lay * cs.height, lay)


def place_layout(
    g: BoardGeometry,
    layout: Layout,
    bottom: int,
    cs: CheckerStyle,
    first: int | None = None,
    avoid: Sequence[Spot] = (),
) -> list[Checker]:
    """Every checker of ``layout``. On a point both players hold (an illegal play, a
    hit not yet finished) the player ``first`` (default: the one not at the bottom)
    lies at the rail and the other's checkers pile on after his. Checkers on the bar
    stand clear of ``avoid`` (:func:`_bar_shift`; :func:`cube_spot`)."""
    out: list[Checker] = []
    used: dict[int, int] = {}
    order = (1 - bottom, bottom) if first is None else (first, 1 - first)
    for player in order:
        counts = layout[player]
        seat_sign = -1.0 if player == bottom else 1.0
        colour = cs.colours[player]
        for own in range(1, 25):
            point = own if player == bottom else 25 - own
            for _ in range(counts[own - 1]):
                k = used.get(point, 0)
                used[point] = k + 1
                x, y, z, layer = _point_slot(g, cs, point, k)
                out.append(
                    Checker(player, "point", point, x, y, z, cs.radius, cs.height, colour, layer)
                )
        shift = 0.0
        if counts[BAR]:
            # the first checker across the bar's middle where he alone has any there
            start = -(cs.radius + 1.5) if _lays_across(cs, player, layout) else 0.0
            shift = _bar_shift(g, cs, -seat_sign, avoid, start)
        for k in range(counts[BAR]):
            x, y, z, layer = _bar_slot(g, cs, -seat_sign, k, shift)
            out.append(Checker(player, "bar", None, x, y, z, cs.radius, cs.height, colour, layer))
        for k in range(counts[OFF]):
            x, y, z, layer = _off_slot(g, cs, seat_sign, k)
            out.append(Checker(player, "off", None, x, y, z, cs.radius, cs.height, colour, layer))
    return out


Spot = tuple[float, float, float]  # x, y, radius of something standing on the board


def is_clear(x: float, y: float, r: float, taken: Sequence[Spot], margin: float = 0.1) -> bool:
    """Whether a round footprint of radius ``r`` at (x, y) touches nothing in ``taken``."""
    return all(math.hypot(x - tx, y - ty) >= r + tr + margin for tx, ty, tr in taken)


def cube_spot(g: BoardGeometry, cube: Cube | None) -> list[Spot]:
    """The footprint of ``cube`` where it rests on the bar (none while it is carried,
    or elsewhere): what checkers put on the bar stand clear of."""
    if cube is None or abs(cube.centre[0]) > g.bar_width / 2:
        return []
    if abs(cube.centre[2] - (g.bar_height + cube.size / 2)) > 0.05:
        return []
    return [(cube.centre[0], cube.centre[1], cube.size * 0.72)]


def spots_of(checkers: Sequence[Checker], dice: Sequence[Die] = ()) -> list[Spot]:
    return [(c.x, c.y, c.radius) for c in checkers] + [
        (d.centre[0], d.centre[1], d.size * 0.72) for d in dice
    ]


def place_checkers(
    g: BoardGeometry, position: Position, bottom: int, cs: CheckerStyle
) -> list[Checker]:
    return place_layout(g, layout_of(position), bottom, cs)


# --- dice and cube --------------------------------------------------------------------------


def dice_look(rng: np.random.Generator) -> DiceLook:
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
    *,
    values: tuple[int, int] | None = None,
    look: DiceLook | None = None,
) -> list[Die]:
    """The roller's two dice (``values``, else random); ``fault`` one of
    :data:`DIE_FAULTS` or None; ``lean``: what a cocked die leans on."""
    look = look or dice_look(rng)
    values = values or (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
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
    """A die resting tilted against ``lean`` (a checker, the rail, the board's edge,
    the bar), at a spot clear of everything else; with no such spot nearby it leans
    on nothing visible (a crumb, an uneven felt) and stays where it fell."""
    tilt = float(rng.uniform(12, 42))
    s = look.size_cm
    x, y = xy
    half = 1.0 if x > 0 else -1.0
    taken = spots_of(checkers, dice)
    r = s * 0.72
    tries: list[tuple[float, float, float, Checker | None]] = []  # x, y, lean direction
    if lean == "checker":
        near = [c for c in checkers if c.where == "point" and c.layer == 0 and x * c.x > 0]
        for _ in range(12 if near else 0):
            c = near[int(rng.integers(len(near)))]
            ang = float(rng.uniform(0, 2 * math.pi))
            dist = c.radius + s * 0.45
            tries.append((c.x + dist * math.cos(ang), c.y + dist * math.sin(ang), ang + math.pi, c))
    elif lean in ("rail", "edge"):
        for _ in range(12):
            top = 1.0 if rng.random() < 0.5 else -1.0
            px = half * float(rng.uniform(g.bar_width / 2 + s, g.bar_width / 2 + g.field_width - s))
            tries.append((px, top * (g.field_depth / 2 - s * 0.45), math.atan2(top, 0.0), None))
    elif lean == "bar":
        for _ in range(12):
            py = float(rng.uniform(-g.field_depth / 2 + s, g.field_depth / 2 - s))
            tries.append((half * (g.bar_width / 2 + s * 0.45), py, math.atan2(0.0, -half), None))
    for tx, ty, direction, against in tries:
        others = [t for t in taken if against is None or (t[0], t[1]) != (against.x, against.y)]
        if is_clear(tx, ty, r, others):
            return make_die(
                rng,
                value,
                owner,
                (tx, ty),
                0.0,
                look,
                tilt_deg=tilt,
                lean_dir=direction,
                leaning_on=lean,
            )
    # "die" is handled by the caller
    return make_die(
        rng,
        value,
        owner,
        (x, y),
        0.0,
        look,
        tilt_deg=tilt,
        lean_dir=float(rng.uniform(0, 2 * math.pi)),
        leaning_on="die" if lean == "die" else None,
    )


def place_idle_dice(
    rng: np.random.Generator,
    g: BoardGeometry,
    owner: int,
    seat_sign: float,
    taken: Sequence[Spot] = (),
) -> list[Die]:
    """The other player's pair, waiting side by side on his side: on the rail in
    front of him, on the bar end, or on the table by the board when neither has room
    (tournament boards have four dice [001 3.3])."""
    look = dice_look(rng)
    s = look.size_cm
    step = s * 1.45
    x0 = float(rng.uniform(-g.field_width, g.field_width)) * 0.6
    y_rail = seat_sign * (g.field_depth / 2 + g.rail_width / 2)
    y_bar = seat_sign * (g.field_depth / 2 - s * 0.9)
    y_table = seat_sign * (g.y_max + s * 1.5)
    Pair = tuple[list[tuple[float, float]], float]
    rail: Pair = ([(x0, y_rail), (x0 + step, y_rail)], g.rail_height)
    bar: Pair = ([(0.0, y_bar), (0.0, y_bar - seat_sign * step)], g.bar_height)
    table: Pair = ([(x0, y_table), (x0 + step, y_table)], -g.floor)
    options = [rail, bar] if rng.random() < 0.6 else [bar, rail]
    if g.rail_width <= s * 1.2:
        options = [bar]
    for xy, z in [*options, table]:
        if z == -g.floor or all(is_clear(x, y, s * 0.72, taken) for x, y in xy):
            return [make_die(rng, int(rng.integers(1, 7)), owner, p, z, look) for p in xy]
    raise AssertionError("unreachable: the table always has room")


def place_cube(
    rng: np.random.Generator,
    g: BoardGeometry,
    bottom: int,
    place: str,
    value: int,
    taken: Sequence[Spot] = (),
) -> Cube:
    """The cube showing ``value`` at ``place`` ("centre": the middle of the bar;
    "player0"/"player1": the owner's end of the bar or his rail; "offered": on the
    field), moved along its place until it stands clear of ``taken``."""
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
    xy = _clear_along(xy, size * 0.72, taken, place, g)
    rot = rot_z(float(rng.uniform(0, 2 * math.pi)))
    faces = (value, *[f for f in CUBE_FACES if f != value])
    return Cube(value, place, (xy[0], xy[1], z + size / 2), _mat(rot), size, body, ink, faces)  # type: ignore[arg-type]


def _clear_along(
    xy: tuple[float, float], r: float, taken: Sequence[Spot], place: str, g: BoardGeometry
) -> tuple[float, float]:
    """The nearest clear spot to ``xy`` along the cube's place: up and down the bar
    for the bar, sideways on a rail or the field."""
    if is_clear(xy[0], xy[1], r, taken):
        return xy
    on_bar = abs(xy[0]) < g.bar_width / 2 and abs(xy[1]) <= g.field_depth / 2
    for k in range(1, 60):
        d = (k + 1) // 2 * 0.5 * (1 if k % 2 else -1)
        cand = (xy[0], xy[1] + d) if on_bar else (xy[0] + d, xy[1])
        if on_bar and abs(cand[1]) > g.field_depth / 2 - r:
            continue
        if is_clear(cand[0], cand[1], r, taken):
            return cand
    return xy


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
