"""A scene in world coordinates: every object's place, pose and look, before drawing.

A :class:`Scene` holds the board, position, checkers (stacks, bar, borne off), dice
(flat or cocked, right or wrong half, on a checker, off the board), the doubling
cube, hands, clutter, camera and light. It is plain data: :mod:`.sampling` draws one
from a seed, :mod:`.draw` turns it into pixels and :mod:`.labels` into ground truth,
so the two cannot disagree.

Seats: the *bottom* seat sits at ``y < 0`` (see :mod:`.geometry`); ``Scene.bottom``
says which engine player (0 or 1) sits there. A player's *right* half is ``x > 0``
for the bottom seat and ``x < 0`` for the top seat.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np

from gammoneye.engine.position import Position

from .camera import Camera
from .geometry import BoardGeometry
from .styles import BoardStyle, CheckerLook, DiceLook, Material

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
) -> tuple[int, int, int, int, int, int]:
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


def hash_name(name: str) -> int:
    """A stable small integer for a name (Python's hash() is salted per process)."""
    h = 2166136261
    for ch in name.encode():
        h = ((h ^ ch) * 16777619) & 0xFFFFFFFF
    return h
