"""The look of boards, checkers, dice, cubes, hands and tables.

Colours are BGR (OpenCV order). Every style has a stable ``name``: labels record
it, tests iterate over :data:`BOARD_STYLES`, and a dataset can be split by style.
"""

from __future__ import annotations

from dataclasses import dataclass

BGR = tuple[int, int, int]


def rgb(hex_colour: str) -> BGR:
    """``"#rrggbb"`` -> BGR."""
    h = hex_colour.lstrip("#")
    r, g, b = (int(h[i : i + 2], 16) for i in (0, 2, 4))
    return (b, g, r)


@dataclass(frozen=True)
class Material:
    kind: str  # see materials.make
    color: BGR
    color2: BGR | None = None


@dataclass(frozen=True)
class BoardStyle:
    """One kind of board: materials of frame, field, bar, trays; point colours."""

    name: str
    frame: Material
    field: Material
    point_pairs: tuple[tuple[BGR, BGR], ...]  # the two point colours, alternatives
    point_kind: str  # "paint", "felt", "leather", "inlay" (wood)
    trays: tuple[str, ...]  # allowed tray layouts
    outline: BGR | None = None  # a thin line around each point
    hinges: bool = True
    logo: bool = False
    wear: float = 0.0  # 0..1: scratches and rubbed corners
    gloss: float = 0.0  # 0..1: specular sheen of the surface


def _w(hex_a: str, hex_b: str) -> Material:
    return Material("wood", rgb(hex_a), rgb(hex_b))


BOARD_STYLES: tuple[BoardStyle, ...] = (
    BoardStyle(
        "walnut_green_felt",
        _w("#6b4428", "#3a2212"),
        Material("felt", rgb("#2f6b3a")),
        ((rgb("#e9e2cf"), rgb("#8c2a1f")), (rgb("#e6d9b8"), rgb("#1f1f1f"))),
        "felt",
        ("none", "right", "both"),
        hinges=True,
        logo=True,
        wear=0.3,
    ),
    BoardStyle(
        "maple_inlay",
        _w("#d8b98a", "#b08a58"),
        _w("#e3c99c", "#c4a06c"),
        ((rgb("#5a3a20"), rgb("#f1e3c4")), (rgb("#3b2616"), rgb("#b9824a"))),
        "inlay",
        ("none", "left"),
        outline=rgb("#4a3018"),
        wear=0.2,
        gloss=0.3,
    ),
    BoardStyle(
        "mahogany_cream_leather",
        _w("#6e2c1c", "#3c120a"),
        Material("leather", rgb("#e8dcc0")),
        ((rgb("#7b1d1d"), rgb("#2a3a5a")), (rgb("#8a1c2b"), rgb("#1d3d2b"))),
        "leather",
        ("none", "both"),
        outline=rgb("#c8b58a"),
        logo=True,
        gloss=0.2,
    ),
    BoardStyle(
        "black_leather",
        Material("leather", rgb("#1c1c1c")),
        Material("leather", rgb("#2a2a2a")),
        ((rgb("#b3202a"), rgb("#e8e4da")), (rgb("#c9a24a"), rgb("#e8e4da"))),
        "leather",
        ("none", "right", "both"),
        outline=rgb("#9a8a5a"),
        wear=0.1,
    ),
    BoardStyle(
        "tan_leather",
        Material("leather", rgb("#7a4e2a")),
        Material("leather", rgb("#caa27a")),
        ((rgb("#3d2616"), rgb("#f0e6d0")), (rgb("#6a2a1a"), rgb("#e9dcc0"))),
        "leather",
        ("none", "both"),
        outline=rgb("#3d2616"),
        logo=True,
        wear=0.4,
    ),
    BoardStyle(
        "cork_field",
        _w("#8a5a34", "#5a361c"),
        Material("cork", rgb("#b88a5a")),
        ((rgb("#1f1f1f"), rgb("#c21f1f")), (rgb("#244a8a"), rgb("#e2d2b0"))),
        "paint",
        ("none", "right"),
        wear=0.2,
    ),
    BoardStyle(
        "printed_paper",
        Material("paper", rgb("#2a4a8a")),
        Material("paper", rgb("#f2efe6")),
        ((rgb("#d0342c"), rgb("#222222")), (rgb("#2d6a4f"), rgb("#e0a030"))),
        "paint",
        ("none",),
        outline=rgb("#222222"),
        hinges=False,
        logo=True,
        wear=0.5,
    ),
    BoardStyle(
        "blue_tournament_felt",
        Material("vinyl", rgb("#1a1a1a")),
        Material("felt", rgb("#1f4e8c")),
        ((rgb("#f0f0f0"), rgb("#9fb6d6")), (rgb("#e8e8e8"), rgb("#202a3a"))),
        "felt",
        ("right", "both"),
        hinges=True,
    ),
    BoardStyle(
        "burgundy_felt",
        _w("#3a1e14", "#1e0e08"),
        Material("felt", rgb("#6e1a24")),
        ((rgb("#efe6cf"), rgb("#141414")), (rgb("#d8c08a"), rgb("#141414"))),
        "felt",
        ("none", "both"),
        outline=rgb("#c8a050"),
        logo=True,
    ),
    BoardStyle(
        "olive_leather",
        Material("leather", rgb("#4a4a2a")),
        Material("leather", rgb("#8a8a5a")),
        ((rgb("#2a1a10"), rgb("#e8dcb8")), (rgb("#5a1a1a"), rgb("#e8dcb8"))),
        "leather",
        ("none", "left", "both"),
        wear=0.3,
    ),
    BoardStyle(
        "white_acrylic",
        Material("plastic", rgb("#e6e6e6")),
        Material("plastic", rgb("#f7f7f5")),
        ((rgb("#9a9a9a"), rgb("#2f2f2f")), (rgb("#d03030"), rgb("#3050a0"))),
        "paint",
        ("none", "right"),
        hinges=False,
        gloss=0.5,
    ),
    BoardStyle(
        "travel_vinyl",
        Material("vinyl", rgb("#3a3a3a")),
        Material("vinyl", rgb("#5a5a5a")),
        ((rgb("#c0392b"), rgb("#ecf0f1")), (rgb("#f1c40f"), rgb("#ecf0f1"))),
        "paint",
        ("none",),
        hinges=True,
        wear=0.2,
    ),
    BoardStyle(
        "teak_pearl",
        _w("#9a6234", "#5e3418"),
        _w("#b87a44", "#7a4a22"),
        ((rgb("#efeae0"), rgb("#2a1a0e")), (rgb("#e0d4c0"), rgb("#6a1a10"))),
        "inlay",
        ("none", "both"),
        outline=rgb("#2a1a0e"),
        logo=True,
        wear=0.25,
        gloss=0.4,
    ),
    BoardStyle(
        "casino_red_felt",
        _w("#2a1a10", "#120a06"),
        Material("felt", rgb("#8c1c1c")),
        ((rgb("#e0c060"), rgb("#101010")), (rgb("#f0f0f0"), rgb("#101010"))),
        "felt",
        ("none", "right", "both"),
        outline=rgb("#e0c060"),
    ),
)


@dataclass(frozen=True)
class CheckerColours:
    """A pair of checker colours (first: one side, second: the other)."""

    name: str
    colours: tuple[tuple[str, BGR], tuple[str, BGR]]


CHECKER_SETS: tuple[CheckerColours, ...] = tuple(
    CheckerColours(f"{a}/{b}", ((a, rgb(ca)), (b, rgb(cb))))
    for a, ca, b, cb in (
        ("white", "#f1efe8", "black", "#1c1c1c"),
        ("ivory", "#eee2c4", "brown", "#5a3218"),
        ("red", "#b01e22", "white", "#efede6"),
        ("red", "#a81c1c", "black", "#181818"),
        ("green", "#1f6a3a", "white", "#eeeeea"),
        ("blue", "#1f3f8a", "ivory", "#ece0c0"),
        ("brown", "#6a3a1a", "cream", "#e8dab8"),
        ("black", "#141414", "red", "#c0282a"),
        ("yellow", "#e0b020", "green", "#1a5a2a"),
        ("white", "#f4f4f0", "red", "#b41c28"),
        ("amber", "#c87a1a", "ivory", "#efe6cc"),
        ("grey", "#7a7a7a", "burgundy", "#6a1420"),
    )
)


@dataclass(frozen=True)
class CheckerLook:
    """Per-match details of the checkers (both sides share the make)."""

    diameter_fill: float  # checker diameter / point width
    height_ratio: float  # thickness / diameter
    rim: bool
    engraving: str  # "none", "rings", "star", "dot"
    glossy: bool


@dataclass(frozen=True)
class DiceLook:
    size_cm: float
    body: BGR
    pips: BGR
    pip_style: str  # "round", "square", "inked"
    rounding: float  # corner radius / size (0.05 precision .. 0.35 pebble-like)
    pip_size: float  # pip radius / size


DICE_COLOURS: tuple[tuple[str, BGR, BGR], ...] = tuple(
    (name, rgb(body), rgb(pips))
    for name, body, pips in (
        ("white", "#f4f2ea", "#111111"),
        ("ivory", "#ede3c8", "#1a1a1a"),
        ("red", "#b01818", "#f4f4f4"),
        ("black", "#151515", "#f0f0f0"),
        ("green", "#1a6a3a", "#f4f4f4"),
        ("blue", "#1a3a8a", "#f4f4f4"),
        ("yellow", "#e8c020", "#111111"),
        ("amber", "#c06a10", "#f8f0e0"),
        ("white_red_pips", "#f4f4f4", "#b01818"),
    )
)

SKIN_TONES: tuple[BGR, ...] = tuple(
    rgb(c) for c in ("#f1c7a8", "#e0ac8a", "#c68863", "#a0674a", "#7a4a32", "#4e2f22")
)
SLEEVES: tuple[BGR, ...] = tuple(
    rgb(c) for c in ("#1f2a44", "#7a1f1f", "#e8e8e8", "#2f5f3a", "#444444", "#b89a70", "#5a3a7a")
)
TABLES: tuple[Material, ...] = (
    Material("wood", rgb("#c9a676"), rgb("#a27e4e")),
    Material("wood", rgb("#5a3a22"), rgb("#2e1c0e")),
    Material("felt", rgb("#2a5a3a")),
    Material("plastic", rgb("#d8d8d4")),
    Material("vinyl", rgb("#3a3a3e")),
    Material("paper", rgb("#e8e0d0")),
    Material("wood", rgb("#e3cfa8"), rgb("#c9ad80")),
)


def style_named(name: str) -> BoardStyle:
    for s in BOARD_STYLES:
        if s.name == name:
            return s
    raise ValueError(
        f"unknown board style {name!r}; expected one of {[s.name for s in BOARD_STYLES]}"
    )
