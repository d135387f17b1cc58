"""What the camera saw, with probabilities: the one type vision hands to the referee.

A :class:`BoardReading` says, for each of the 24 points, how likely each
(colour, count) is; how many checkers of each colour are on the bar and borne off;
every die with a distribution over its value, how likely it is cocked, where it
lies; the cube's value and place. It is built once from a recogniser's outputs and
never changed (frozen).

Colours are the two checker colours of this board, ``dark`` and ``light`` here
(any two names, used consistently); which player has which is the calibration's
orientation. Points are numbered from the field's bottom side (board space, see
:mod:`gammoneye.calibration.boardspace`), 1..24 as for the player sitting there.

The referee never takes a reading's single best guess: it scores the legal
candidates with :meth:`BoardReading.log_likelihood` and picks the best
(rules-constrained decoding, ``DESIGN.md``).

>>> r = BoardReading.certain({6: ("dark", 5), 19: ("light", 5)})
>>> r.points[5].best(), r.points[0].best()
(('dark', 5), (None, 0))
>>> r.log_likelihood({6: ("dark", 5), 19: ("light", 5)}) > r.log_likelihood({6: ("dark", 4)})
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

#: The largest count a point reading distinguishes (15: every checker of a side).
MAX_COUNT = 15
#: Probability floor: nothing a camera reads is ever impossible.
FLOOR = 1e-6

Colour = str | None  # None: an empty point
Cell = tuple[Colour, int]  # (colour, count); (None, 0) is empty
Layout = Mapping[int, Cell]  # point number -> (colour, count); absent points are empty


class ReadingError(ValueError):
    """A reading whose numbers are not probabilities, or that names no two colours."""


def _normalised(probs: Mapping[Any, float], what: str) -> dict[Any, float]:
    total = 0.0
    for key, p in probs.items():
        if not (isinstance(p, (int, float)) and math.isfinite(p) and p >= 0):
            raise ReadingError(f"{what}: probability of {key!r} is {p!r}, not a number >= 0")
        total += p
    if total <= 0:
        raise ReadingError(f"{what}: probabilities add up to {total}")
    return {k: p / total for k, p in probs.items()}


@dataclass(frozen=True)
class PointReading:
    """One point: probability of each (colour, count); (None, 0) is the empty point."""

    number: int
    probs: Mapping[Cell, float]
    image_xy: tuple[float, float] | None = None  # the middle of its base in the picture

    def __post_init__(self) -> None:
        if not 1 <= self.number <= 24:
            raise ReadingError(f"point number {self.number} is not 1..24")
        for colour, count in self.probs:
            if (colour is None) != (count == 0) or not 0 <= count <= MAX_COUNT:
                raise ReadingError(f"point {self.number}: ({colour!r}, {count}) is no cell")
        object.__setattr__(self, "probs", _normalised(self.probs, f"point {self.number}"))

    def p(self, cell: Cell) -> float:
        """Probability of ``cell`` (an unlisted cell gets the floor)."""
        return max(self.probs.get(cell, 0.0), FLOOR)

    def best(self) -> Cell:
        return max(self.probs, key=lambda c: self.probs[c])


@dataclass(frozen=True)
class DieReading:
    """One die: its value distribution (1..6) and where and how it lies."""

    values: Mapping[int, float]
    cocked: float  # probability it is not flat
    half: str | None  # "left", "right" (of the field's bottom side), "bar", or None (off)
    on_checker: float = 0.0
    off_board: float = 0.0
    image_xy: tuple[float, float] | None = None
    #: The point whose strip it stands in (the bottom player's number), how far from
    #: that point's base and how far outside the strip's edge (< 0: inside), both in
    #: checker diameters; None off the points. A referee who knows the checkers
    #: there tells from it whether the die lies on one, without trusting the counts
    #: read around a die (a die alone on a point is often counted as a checker).
    over: tuple[int, float, float] | None = None
    #: ``over`` for the die standing on a checker: a die a checker's height above the
    #: board maps onto the board plane beyond where it stands, as seen from the
    #: camera, so its footprint is moved back towards the camera by that height times
    #: the camera's slant (as the die's box tells it). None off the points.
    over_raised: tuple[int, float, float] | None = None
    #: How far it stands from the nearest thing it could lean on (a checker, the
    #: rail, the bar, the other die, the cube), in its own widths; the cocked
    #: probability already weighs it. None where not measured.
    lean_gap: float | None = None

    def __post_init__(self) -> None:
        if any(v not in range(1, 7) for v in self.values):
            raise ReadingError(f"die values must be 1..6, got {sorted(self.values)}")
        for name in ("cocked", "on_checker", "off_board"):
            p = getattr(self, name)
            if not (isinstance(p, (int, float)) and 0.0 <= p <= 1.0):
                raise ReadingError(f"die {name} probability {p!r} is not in 0..1")
        if self.half not in ("left", "right", "bar", None):
            raise ReadingError(f"die half {self.half!r} is not left, right, bar or None")
        object.__setattr__(self, "values", _normalised(self.values, "die"))

    def value(self) -> int:
        return max(self.values, key=lambda v: self.values[v])


@dataclass(frozen=True)
class CubeReading:
    """The doubling cube: the face up (64 while centred) and its place."""

    values: Mapping[int, float]
    place: str  # "centre", "bottom", "top" (the side it is on), "offered"
    image_xy: tuple[float, float] | None = None

    def __post_init__(self) -> None:
        if any(v not in (1, 2, 4, 8, 16, 32, 64) for v in self.values):
            raise ReadingError(f"cube faces are 2..64 (64 = 1), got {sorted(self.values)}")
        if self.place not in ("centre", "bottom", "top", "offered"):
            raise ReadingError(f"cube place {self.place!r} is not centre, bottom, top or offered")
        object.__setattr__(self, "values", _normalised(self.values, "cube"))

    def value(self) -> int:
        return max(self.values, key=lambda v: self.values[v])


@dataclass(frozen=True)
class BoardReading:
    """Everything read from one settled picture."""

    colours: tuple[str, str]
    points: tuple[PointReading, ...]
    bar: Mapping[str, int] = field(default_factory=dict)  # colour -> checkers on the bar
    off: Mapping[str, int] = field(default_factory=dict)  # colour -> borne off
    dice: tuple[DieReading, ...] = ()
    cube: CubeReading | None = None
    corners_px: tuple[tuple[float, float], ...] = ()  # the field's corners (canonical order)
    #: The checkers' colour behind each name of ``colours`` (same order), as the reader
    #: measured it (CIE Lab, OpenCV's 8-bit scale); empty when not measured.
    colour_lab: tuple[tuple[float, float, float], ...] = ()

    def __post_init__(self) -> None:
        if len(self.colours) != 2 or self.colours[0] == self.colours[1]:
            raise ReadingError(f"a reading names two checker colours, got {self.colours!r}")
        if len(self.colour_lab) not in (0, 2) or any(len(c) != 3 for c in self.colour_lab):
            raise ReadingError(f"colour_lab is two Lab triples or none, got {self.colour_lab!r}")
        if [p.number for p in self.points] != list(range(1, 25)):
            raise ReadingError("a reading has the 24 points in order 1..24")
        for p in self.points:
            for colour, _ in p.probs:
                if colour is not None and colour not in self.colours:
                    raise ReadingError(
                        f"point {p.number}: colour {colour!r} is not one of {self.colours}"
                    )
        for where in (self.bar, self.off):
            for colour, n in where.items():
                if colour not in self.colours or not 0 <= n <= MAX_COUNT:
                    raise ReadingError(f"bar/off: {colour!r}: {n} is no count of {self.colours}")

    @classmethod
    def certain(
        cls, layout: Layout, colours: tuple[str, str] = ("dark", "light"), **kw: Any
    ) -> BoardReading:
        """A reading that is sure of ``layout`` (for tests and ground truth)."""
        points = tuple(PointReading(n, {layout.get(n, (None, 0)): 1.0}) for n in range(1, 25))
        return cls(colours, points, **kw)

    def swapped(self) -> BoardReading:
        """The same reading with the two colour names exchanged: each name now stands
        for the checkers the other one did (a camera that names colours by lightness
        can see the two nearly alike in one picture and name them the other way round).

        >>> r = BoardReading.certain({1: ("dark", 2), 6: ("light", 5)}, bar={"dark": 1})
        >>> s = r.swapped()
        >>> s.best_layout(), dict(s.bar), s.swapped() == r
        ({1: ('light', 2), 6: ('dark', 5)}, {'light': 1}, True)
        """
        a, b = self.colours
        other = {a: b, b: a}

        def cell(c: Cell) -> Cell:
            return (None if c[0] is None else other[c[0]], c[1])

        points = tuple(
            PointReading(p.number, {cell(c): q for c, q in p.probs.items()}, p.image_xy)
            for p in self.points
        )
        return BoardReading(
            self.colours,
            points,
            {other[c]: n for c, n in self.bar.items()},
            {other[c]: n for c, n in self.off.items()},
            self.dice,
            self.cube,
            self.corners_px,
            self.colour_lab[::-1],
        )

    def best_layout(self) -> dict[int, Cell]:
        """The single most likely cell of every non-empty point."""
        out = {}
        for p in self.points:
            cell = p.best()
            if cell[1]:
                out[p.number] = cell
        return out

    def log_likelihood(self, layout: Layout) -> float:
        """log P(reading | the board is ``layout``), points taken as independent: how
        well a candidate position explains what was seen. Compare candidates with it;
        its absolute value means little."""
        return sum(math.log(p.p(layout.get(p.number, (None, 0)))) for p in self.points)

    def to_json(self) -> dict[str, Any]:
        """The shape of ``gammoneye vision read --json`` (issue 4's contract), without
        ``board.corners_px`` when the reading has none."""

        def cell_json(p: PointReading) -> dict[str, Any]:
            colour, count = p.best()
            out: dict[str, Any] = {
                "number": p.number,
                "colour": colour,
                "count": count,
                "p": round(p.probs[(colour, count)], 4),
            }
            if p.image_xy is not None:
                out["image_xy"] = [round(v, 1) for v in p.image_xy]
            return out

        return {
            "board": {"corners_px": [list(c) for c in self.corners_px]},
            "points": [cell_json(p) for p in self.points],
            "bar": {c: self.bar.get(c, 0) for c in self.colours},
            "off": {c: self.off.get(c, 0) for c in self.colours},
            "dice": [
                {
                    "value": d.value(),
                    "p": round(d.values[d.value()], 4),
                    "cocked": d.cocked >= 0.5,
                    "half": d.half,
                    "on_checker": d.on_checker >= 0.5,
                    "image_xy": None if d.image_xy is None else [round(v, 1) for v in d.image_xy],
                }
                for d in self.dice
            ],
            "cube": None
            if self.cube is None
            else {
                "value": self.cube.value(),
                "place": self.cube.place,
                "image_xy": None
                if self.cube.image_xy is None
                else [round(v, 1) for v in self.cube.image_xy],
            },
        }


def layout_of_counts(
    counts: Sequence[Sequence[int]], colours: tuple[str, str], bottom: int = 0
) -> dict[int, Cell]:
    """The layout of engine-style counts (per player, own points 1..24 at index 0..23)
    seen from the field's bottom side, where player ``bottom`` sits; player 0 has
    ``colours[0]``.

    A point with checkers of both players (a checker put on a point the opponent
    holds, an illegal play a camera sees) reads as one pile of the colour with more
    checkers there, all of them counted: the checker on top of the pile is counted
    with it and its base gives the colour (s48 clip 4303 at 466 s: a light checker
    put on two dark read as three dark at 0.94).

    >>> from gammoneye.engine.position import Position
    >>> layout_of_counts(Position.initial().boards, ("dark", "light"))[6]
    ('dark', 5)
    >>> mixed = ([2] + [0] * 24, [0] * 23 + [1, 0])
    >>> layout_of_counts(mixed, ("dark", "light"))[1]
    ('dark', 3)
    """
    out: dict[int, Cell] = {}
    for player in (0, 1):
        for own in range(1, 25):
            n = counts[player][own - 1]
            if n:
                point = own if player == bottom else 25 - own
                colour, there = out.get(point, (colours[player], 0))
                if n > there:
                    colour = colours[player]
                out[point] = (colour, n + there)
    return out
