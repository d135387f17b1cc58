"""Read one settled picture of a board into a :class:`~.reading.BoardReading`.

The steps, each on known geometry once the field is found:

1. **Field.** From a calibration profile, or found in the picture
   (:func:`~gammoneye.calibration.find.find_field`); its corners are put in
   canonical order (:func:`~gammoneye.calibration.boardspace.canonical_corners`),
   which fixes board space: the side ``c0 c1`` is the bottom, points are numbered
   1..24 for the player sitting there, home board on the right unless the
   calibration's orientation says otherwise. The bar's share of the field's width
   is the calibration's, or measured in the picture
   (:func:`~gammoneye.calibration.barwidth.fit_bar_fraction`).
2. **Points.** Each point's strip (its base on the rail to the field's middle) is cut
   from the picture upright, as the point counter was trained
   (:mod:`gammoneye.datasets.render.crops`), and read for a count distribution 0..15.
   The first checker's colour is sampled at the base; the occupied points' colours
   are split in two (k-means in Lab) and named ``dark`` and ``light`` by lightness.
3. **Bar.** Each half of the bar is cut as a strip from the middle outwards and read
   the same way.
4. **Borne off** is inferred from 15-checker conservation (trays are often not seen).
5. **Dice and cube.** The detector (:mod:`.detector`) looks at the field with a
   margin; each die is read for value and cocked (:mod:`.dice`), placed in a half
   (left, right, bar, or off the board) and checked for lying on a checker pile; the
   cube is read for its face (:mod:`.cube`) and placed (centre, bottom, top, offered).
   A "die" neither detected surely nor read surely is dropped (:func:`keep_die`: a
   point's tip, a checker's rim); of two "cube" boxes, the one where a cube rests is
   the cube and the other, read surely as a die, a die (``BoardReader._one_cube``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from gammoneye.calibration.barwidth import fit_bar_fraction
from gammoneye.calibration.boardspace import BoardSpace, Orientation, canonical_corners
from gammoneye.calibration.profile import CalibrationProfile

from .crops import STRIP, cut_strip, quad_to_rect, square_crop, upright
from .cube import FACES, PARTNER_MODEL, CubeReader, faces_at
from .detector import Detection, DiceCubeDetector, Kept, board_canvas
from .dice import DiceReader
from .points import PointCounter
from .reading import MAX_COUNT, BoardReading, CubeReading, DieReading, PointReading

F64 = NDArray[np.float64]
F32 = NDArray[np.float32]
U8 = NDArray[np.uint8]
Box = tuple[float, float, float, float]  # image pixels x0, y0, x1, y1

WIDEN = 0.58  # half a strip's width, in point widths (8 % to spare on each side)
CHECKER = 0.9  # a checker's diameter, in point widths
#: How far past the bar's middle each half's strip is moved to find a checker lying
#: across it (:func:`across_the_middle`), in checkers' diameters. The renderer lays
#: the first checker on the bar 1.5 cm past the middle, an eighth to a quarter of a
#: checker beyond half a checker's reach.
ACROSS = 0.5
#: A die's half side over its image box's width at its foot (a die turned on the
#: board shows up to 1.4 of its side).
DIE_HALF_OF_BOX = 0.42
#: How soft the on-a-checker call is across a pile's edge, in point widths.
ON_CHECKER_SOFT = 0.08
#: A checker's height over its diameter: how far a die lying on one stands above the
#: board. Tournament checkers are about 40 x 7.5 mm (0.19), club sets 38 x 6 mm
#: (0.16); the renderer draws 0.16 to 0.26.
CHECKER_HEIGHT = 0.2
#: The most a die's box is believed to tell of the camera's slant (the tangent of its
#: angle from straight down) for :attr:`DieReading.over_raised`: a camera lower than
#: this (under 18 degrees above the board) is no camera a board is watched with.
MOST_SLANT = 3.0
#: A cube standing within this share of the field's width beside the bar lies on it (in
#: the middle, or a player's side): a cube in the middle is often pushed against a
#: checker on the bar and stands over the bar's edge.
CUBE_BAR_MARGIN = 0.025
#: A cube box standing beyond either end of the field by more than this share of its
#: width is no cube: the cube rests on the bar, on a player's rail or in the field,
#: never past the field's ends (s52 clip 4702, a held-out board style: a red token on
#: the table beyond the field's end boxed as the cube at 0.62 to 0.69 by the session-38
#: detector, and taken for the cube on a player's side).
CUBE_END_MARGIN = 0.05
COLOURS = ("dark", "light")
#: Lab distance (OpenCV's 8-bit Lab) at which a checker's colour is as likely one
#: side's as the other's; sets how sure the colour half of a point reading is.
COLOUR_SIGMA = 10.0
#: How much a difference in lightness counts, against one in hue, when a checker's
#: colour is matched to the two sides' (:func:`colour_distance2`). Light changes
#: lightness most: black checkers under glare read as light as red ones, their hue
#: unchanged (s20 clip 1503: five black checkers read as red). Two sides told apart
#: by lightness alone (black and white) still differ by far more than the noise.
LIGHTNESS_WEIGHT = 0.5
_LAB_WEIGHTS = np.array([LIGHTNESS_WEIGHT, 1.0, 1.0])


def colour_distance2(samples: F64, centres: F64) -> F64:
    """Squared distances (N, C) from Lab ``samples`` (N, 3) to ``centres`` (C, 3),
    lightness weighted by ``LIGHTNESS_WEIGHT``.

    >>> glared_black, red, black = [[80.0, 128, 130]], [[65.0, 167, 156]], [[21.0, 128, 130]]
    >>> colour_distance2(np.array(glared_black), np.array(red + black)).argmin(axis=1)
    array([1])
    """
    diff = (np.asarray(samples, np.float64)[:, None, :] - np.asarray(centres)[None]) * _LAB_WEIGHTS
    return (diff**2).sum(axis=2)  # type: ignore[no-any-return]


#: A bar checker's colour is the one a share of this many per cent of the pixels
#: around its place lie nearest to (chosen on renders/val, seed 505: bar read right
#: in 59.66 % of its pictures with checkers on it with a patch's median, 73.11 % at
#: 25, 77.31 % at 15, 78.15 % at 10; checkers on an empty bar 0.36 -> 1.07 %).
BAR_COLOUR_SHARE = 15.0
#: Where a bar strip is itself of one checker colour (its median within
#: ``BAR_OWN_SIGMAS`` of ``COLOUR_SIGMA``: a white board's narrow bar, the white
#: field on both sides of it), a run of places half covered by the other colour
#: (their median within ``BAR_OTHER_SIGMAS``) is checkers of that colour
#: (:func:`bar_colour`). Chosen on 161 stills with checkers on the bar (session 31):
#: any looser, and on black leather a light checker's glint beside three dark ones
#: on the bar turned them light; as set, no still's bar reads otherwise than before.
BAR_OWN_SIGMAS = 0.5
BAR_OTHER_SIGMAS = 2.5
#: A detected die is dropped when it is read this unsure of every value while the
#: detector found it with a score under ``MIN_DIE_SCORE``: neither sure it is a die
#: nor able to read one, it is most likely a point's tip or a checker's rim. Chosen on
#: a stills run neither trained on nor held out (``bench/false_dice.py``).
MIN_DIE_VALUE_P = 0.3
MIN_DIE_SCORE = 0.45
#: The detector's boxes are looked at from ``LOW_DETECTION_SCORE`` (its own default
#: is 0.3): a die it is unsure of, scored under ``FAINT_DIE_SCORE``, counts only when
#: the die reader reads it at ``FAINT_DIE_VALUE_P`` or more; cube boxes so faint are
#: left out. Chosen on renders/val (400 stills, neither trained on nor held out):
#: 21 more true dice found (833 against 812 of 1,038), 19 of them read right, and 7
#: more false ones (32 against 25).
LOW_DETECTION_SCORE = 0.15
FAINT_DIE_SCORE = 0.3
FAINT_DIE_VALUE_P = 0.9
#: A second "cube" box the die reader reads at least this surely is a die.
CUBE_AS_DIE_P = 0.9
#: With no cube box, a "die" the cube reader reads at least this surely, and the die
#: reader less surely, is the cube (:meth:`BoardReader._cube_among_dice`).
DIE_AS_CUBE_P = 0.9
#: With no cube box, a "die" the detector also boxed as the cube, scored at least this
#: share of its score as a die, is the cube, however surely the die reader reads it
#: (s52 clip 4702 at 199.7 s: a small offered cube boxed as a die at 0.32 and as the
#: cube at 0.31, read as a die's 1 at 1.00; the double was lost). Chosen on
#: renders/val (``python bench/cube_as_die.py renders/val``): from 0.8 no true die of
#: the pictures with no cube box (45 and 47, the session-37 and -38 detectors) is
#: taken for the cube; from 0.7 two are.
DIE_AS_CUBE_SHARE = 0.8
#: A "die" boxed with its middle this close to the cube's box (a share of the box's
#: larger side), read less surely than ``CUBE_AS_DIE_P``, is part of the cube: its
#: top face boxed apart from the whole (:func:`part_of_cube`).
CUBE_PART_REACH = 0.2
#: Among cube boxes where a cube rests, the detector's score counts this much beside
#: how much surer the cube reader is of the box than the die reader
#: (:meth:`BoardReader._one_cube`): the cube reader, trained on cubes alone, reads a
#: maker's mark on the rail as surely as a cube (s39 clip 3403 at 122 s: a rail logo
#: boxed as a cube at 0.31 and read as an 8 at 0.99 won over the cube in the middle,
#: boxed at 0.61, and a double and take were seen that never were). Chosen with the
#: stills of ``renders/val``, ``renders/held_styles`` and ``renders/held_seeds``
#: showing two cube boxes or more (21 of 1,400): the cube is chosen in 18 of them with
#: no weight, in 20 with any weight from 2 to 10.
CUBE_SCORE_WEIGHT = 3.0
__all__ = ["BoardReader", "NoBoardError", "ReadTimings", "keep_die"]


def keep_die(score: float, values: F32) -> bool:
    """Whether a detection of ``score`` whose value distribution is ``values`` counts
    as a die (see ``MIN_DIE_VALUE_P`` and, for a faint one, ``FAINT_DIE_SCORE``).

    >>> keep_die(0.33, np.array([0.22, 0.2, 0.18, 0.2, 0.1, 0.1]))
    False
    >>> keep_die(0.33, np.array([0.9, 0.02, 0.02, 0.02, 0.02, 0.02]))
    True
    >>> keep_die(0.2, np.array([0.85, 0.03, 0.03, 0.03, 0.03, 0.03]))  # faint: read surely?
    False
    >>> keep_die(0.2, np.array([0.95, 0.01, 0.01, 0.01, 0.01, 0.01]))
    True
    """
    if score < FAINT_DIE_SCORE:
        return float(np.max(values)) >= FAINT_DIE_VALUE_P
    return float(np.max(values)) >= MIN_DIE_VALUE_P or score >= MIN_DIE_SCORE


def part_of_cube(die: Box, cube: Box, values: F32) -> bool:
    """Whether a die box is the cube's own top boxed again: its middle within
    ``CUBE_PART_REACH`` of the cube's box and its face read less surely than a die's
    (``CUBE_AS_DIE_P``). The cube stands taller than a die, and the detector now and
    then boxes its top face as a die beside the box of the whole cube (s36 clip 3104
    at 61 s: a cube of 2 on the rail read as a third die, a 3 at 0.71, and the roll it
    lay beside was never taken).

    >>> cube = (654.7, 291.1, 694.3, 327.1)
    >>> unsure, sure = np.array([0.1, 0.2, 0.7, 0, 0, 0]), np.array([0, 0, 0.99, 0, 0, 0.01])
    >>> part_of_cube((663.0, 274.6, 683.5, 295.9), cube, unsure)
    True
    >>> part_of_cube((663.0, 274.6, 683.5, 295.9), cube, sure)
    False
    >>> part_of_cube((610.0, 300.0, 630.0, 320.0), cube, unsure)  # a die beside it
    False
    """
    if float(np.max(values)) >= CUBE_AS_DIE_P:
        return False
    x0, y0, x1, y1 = cube
    reach = CUBE_PART_REACH * max(x1 - x0, y1 - y0)
    cx, cy = (die[0] + die[2]) / 2, (die[1] + die[3]) / 2
    return x0 - reach <= cx <= x1 + reach and y0 - reach <= cy <= y1 + reach


#: A die is cocked only when something holds it tilted ("not flat" [001, 002]): a
#: checker, the rail or the field's end, the bar, the other die or the cube. One that
#: stands more than ``LEAN_NEAR`` of its widths from all of them (:func:`lean_gap`)
#: has its cocked probability scaled down, fully (by ``UNLEANED_COCKED_SCALE``) from
#: ``LEAN_FAR`` on: a scale, not a shift of the odds, because the detector's cocked
#: share saturates (a flat die seen from a low camera shows two of its sides and is
#: called cocked at 0.98 to 1.0: s53 clip 4803, six false invalid rolls). Chosen on
#: renders/val (``python bench/lean_gap.py renders/val``): the cocked dice the renderer
#: leans on something stand within 0.5 of their widths of it (95 %; clips: all within
#: 0.3), half of the flat dice farther.
LEAN_NEAR = 0.5
LEAN_FAR = 1.0
UNLEANED_COCKED_SCALE = 0.3


def piles(
    space: BoardSpace, orient: Orientation, counts: Sequence[int]
) -> Iterator[tuple[float, float, float, float, float]]:
    """Each occupied point's pile (``counts``, 24, point 1 first, as the bottom player
    numbers them) as (x, y, direction, reach, width) in board space: the base of its
    point, which way it grows across the field (+1 down, -1 up), how far it reaches
    (five checkers a row) and a checker's width."""
    along = CHECKER * space.point_width
    for n in range(1, 25):
        if counts[n - 1]:
            x, y, d = space.point_base(n, orient)
            yield x, y, d, min(counts[n - 1], 5) * along, along


def lean_gap(
    space: BoardSpace,
    orient: Orientation,
    counts: Sequence[int],
    spot: tuple[float, float],
    half: float,
    others: Sequence[tuple[tuple[float, float], float]] = (),
) -> float:
    """How far a die standing at ``spot`` (board space, its half side ``half``) is
    from the nearest thing it could lean on, in its own widths (0: touching): the
    field's four edges, the bar, the piles of checkers on the points (``counts``, 24,
    point 1 first, as the bottom player numbers them), and ``others`` (the other dice
    and the cube: where each stands and its half side). A die on the bar or off the
    field is 0.

    >>> space = BoardSpace()  # 1000 x 800, bar 460..540, points 76.7 wide
    >>> empty = [0] * 24
    >>> round(lean_gap(space, Orientation(), empty, (250.0, 400.0), 10.0), 2)  # open field
    10.0
    >>> round(lean_gap(space, Orientation(), empty, (250.0, 785.0), 10.0), 2)  # at the rail
    0.25
    >>> round(lean_gap(space, Orientation(), empty, (250.0, 400.0), 10.0,
    ...                [((275.0, 400.0), 10.0)]), 2)  # against the other die
    0.25
    """
    u, v = spot
    x0, x1 = space.bar_x
    if x0 <= u <= x1 or not (0 <= u <= space.width and 0 <= v <= space.height):
        return 0.0
    near = min(u, space.width - u, v, space.height - v, x0 - u if u < x0 else u - x1)
    for x, y, d, reach, along in piles(space, orient, counts):
        depth = (v - y) * d
        across = max(abs(u - x) - along / 2, 0.0)
        beyond = max(-depth, depth - reach, 0.0)
        near = min(near, float(np.hypot(across, beyond)))
    for (ou, ov), oh in others:
        near = min(near, float(np.hypot(u - ou, v - ov)) - oh)
    return max(0.0, (near - half) / (2 * half))


def cocked_given_lean(p: float, gap: float) -> float:
    """The cocked probability ``p`` of a die standing ``gap`` of its widths from
    anything it could lean on (:func:`lean_gap`): unchanged within ``LEAN_NEAR``,
    scaled down towards ``UNLEANED_COCKED_SCALE`` of it at ``LEAN_FAR`` and beyond.

    >>> [round(cocked_given_lean(p, gap), 3) for p, gap in ((0.9, 0.4), (0.9, 0.75), (1.0, 3.0))]
    [0.9, 0.585, 0.3]
    """
    share = min(max((gap - LEAN_NEAR) / (LEAN_FAR - LEAN_NEAR), 0.0), 1.0)
    return p * (1.0 - share * (1.0 - UNLEANED_COCKED_SCALE))


#: How much of a point's reading is set aside when a die or the cube stands on or in
#: front of its strip in the picture (:func:`hidden`): the counter sees what shows
#: around it and reads the checkers it hides as none (s23 clip 1803: a pile of two
#: behind the cube read empty, a checker beside the dice the opponent had just
#: rolled not counted, and legal plays flagged), or, on an empty point, counts what
#: stands there as a checker (s82 clip 7901 at 331.4 s: a blue die the opponent had
#: just rolled onto an empty point read as a blue checker, 16 of that colour, and a
#: legal play flagged).
STANDING_IN_FRONT = 0.4
#: Where what stands in front of a strip begins this near its base (checkers'
#: lengths), it hides the first checker's middle, and a pile of up to
#: ``BASE_HIDDEN_PILE`` read there may be the other side's (:func:`hidden`).
BASE_HIDDEN = 0.5
BASE_HIDDEN_PILE = 2
#: A die's or the cube's box covers a strip when this share of the box lies on it.
COVERS_SHARE = 0.2
#: Checkers a strip holds in one row, base to the field's middle: a pile read shorter
#: has its next checker's place on the strip, which is hidden only where something
#: stands in front of it (:func:`hidden`'s ``covered_from``).
ROW = 5
#: What stands in front of a strip from this many checkers' lengths past the next
#: checker's place still may hide it: a checker's face stands above the board, seen
#: beyond its footprint, and a die's box is larger than the die.
HIDE_MARGIN = 1.0


def colour_in_doubt(point: PointReading, covered_from: float) -> bool:
    """Whether what stands in front of ``point``'s strip from ``covered_from``
    (checkers' lengths from its base) hides its pile's first checker, a pile of up to
    ``BASE_HIDDEN_PILE``: its colour is then read from what shows round it, which may
    be the board (:func:`hidden`).

    >>> one = PointReading(7, {("dark", 1): 1.0})
    >>> colour_in_doubt(one, 0.2), colour_in_doubt(one, 1.5)
    (True, False)
    """
    colour, count = point.best()
    return colour is not None and count <= BASE_HIDDEN_PILE and covered_from < BASE_HIDDEN


def hidden(point: PointReading, weight: float, covered_from: float = 0.0) -> PointReading:
    """``point`` read with something standing in front of its strip: ``weight`` of its
    probability spread evenly over the cell read best and up to three checkers more
    of its colour (of either colour on a point read empty), on a point read with one
    checker, for none, and, where it hides the first checker's middle
    (:func:`colour_in_doubt`), for the same count of the other colour: what stands in
    front hides checkers, on an empty point it may be what was counted (a die of a
    checker's colour read as that checker), and round it the board may show. A
    pile's count is not lowered: a play that leaves one checker fewer on a pile with a
    die in front is not explained by the die (s85 clip 8201 at 344.5 s: a 51 read
    surely as 53, 5/2 5/0 would then have explained 5/4 5/0 on the board). The cell
    read best stays best.

    ``covered_from``: where along the strip what stands in front begins, in checkers'
    lengths from its base (:func:`covered_from`). A pile shorter than a row hides no
    checker more where that lies past its next checker's place by ``HIDE_MARGIN``,
    and its top checker is no die counted where it lies past that checker's: the cube
    on the bar, over the tips of the points beside it, hides no checker at the base of
    an empty one (s149 clip 14602 at 161.8 s: a checker put on the opponent's pile of
    four on the 19-point, read as their four, and 21/20 20/18 taken for legal with a
    checker on the 18-point, read empty with the cube over its tip).

    >>> p = hidden(PointReading(7, {(None, 0): 0.98, ("dark", 2): 0.02}), 0.4)
    >>> p.best(), round(p.probs[(None, 0)], 3), round(p.probs[("dark", 2)], 3)
    ((None, 0), 0.645, 0.069)
    >>> two = hidden(PointReading(7, {("dark", 2): 1.0}), 0.4, covered_from=1.0)
    >>> sorted((c, round(q, 3)) for c, q in two.probs.items())
    [(('dark', 2), 0.7), (('dark', 3), 0.1), (('dark', 4), 0.1), (('dark', 5), 0.1)]
    >>> one = hidden(PointReading(7, {("dark", 1): 1.0}), 0.4)  # in front of its base
    >>> round(one.probs[(None, 0)], 3), round(one.probs[("light", 1)], 3), one.best()
    (0.067, 0.067, ('dark', 1))
    """
    best = point.best()
    colours = COLOURS if best[0] is None else (best[0],)
    reaches = best[1] >= ROW or covered_from < best[1] + 1 + HIDE_MARGIN
    more = range(best[1] + 1, min(best[1] + 3, MAX_COUNT) + 1) if reaches else range(0)
    support = {best} | {(c, k) for c in colours for k in more}
    if best[1] == 1 and covered_from < 1 + HIDE_MARGIN:
        support.add((None, 0))
    if colour_in_doubt(point, covered_from):
        # what stands at the base hides the pile's first checker: its colour was read
        # from what shows round it, and that may be the board (s177 clip 17404 from
        # 392 s: the cube at the bar's end in front of a lone red checker on the
        # point beside the bar, which the raised bar half covers too; what showed was
        # the white triangle and the bar's white checker, and four legal plays were
        # flagged as plays onto it)
        support.add((COLOURS[1 - COLOURS.index(best[0])], best[1]))
    if len(support) == 1:
        return point
    share = weight / len(support)
    probs = {c: (1 - weight) * q for c, q in point.probs.items()}
    for c in support:
        probs[c] = probs.get(c, 0.0) + share
    return PointReading(point.number, probs, point.image_xy)


def _colour_seen_round(
    image: U8,
    point: PointReading,
    quad: F64,
    hiders: Sequence[tuple[float, float, float, float]],
    centres: F64,
) -> PointReading:
    """``point``, whose strip (image corners ``quad``) a die or the cube stands in front
    of, its colour read again from what of its checkers the ``hiders`` (image boxes)
    leave showing: the colour was sampled where the die stands (s139 clip 13601 from
    296 s: the cube on a player's side stood on a lone white checker and hid its
    middle, and the cube's black named it red, surely, for 80 s)."""
    counts = _count_probs(point)
    if max(counts) <= point.probs.get((None, 0), 0.0):
        return point  # read empty: no colour to read
    covered = covered_in_strip(quad, hiders)  # the strip's size is cut_strip's
    seen = checker_colours(cut_strip(image, quad), int(np.argmax(counts)) + 1, covered)
    if len(seen):
        # like neither side's: what stands in front, or the board round it
        near = colour_distance2(seen, centres).min(axis=1) <= (LIKE_NEITHER * COLOUR_SIGMA) ** 2
        seen = seen[near]
    return recoloured(point, colour_probs(seen, centres))


def _count_probs(point: PointReading) -> list[float]:
    """The probability of each count 1..``MAX_COUNT`` of ``point``, either colour."""
    return [sum(point.probs.get((c, k), 0.0) for c in COLOURS) for k in range(1, MAX_COUNT + 1)]


def covered_from(box: tuple[float, float, float, float], strip: F64, length: float) -> float | None:
    """Where an image ``box`` that lies on a strip by ``COVERS_SHARE`` of its area or
    more begins along it, in checkers' lengths from its base (``length`` of them from
    the base to its other end); None where it does not lie on it so. ``strip``: the
    strip's image corners, base-left, base-right, top-right, top-left.

    >>> strip = np.array([[0.0, 100.0], [20.0, 100.0], [20.0, 0.0], [0.0, 0.0]])
    >>> covered_from((0.0, 0.0, 20.0, 30.0), strip, 5.0)  # over its far end
    3.5
    >>> covered_from((5.0, 90.0, 15.0, 110.0), strip, 5.0)  # at its base, half off it
    0.0
    >>> covered_from((30.0, 0.0, 40.0, 20.0), strip, 5.0) is None  # beside it
    True
    """
    x0, y0, x1, y1 = box
    area = (x1 - x0) * (y1 - y0)
    if area <= 0:
        return None
    rect = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    quad = np.asarray(strip, np.float32)
    if cv2.contourArea(quad, oriented=True) < 0:
        quad = quad[::-1].copy()
    inter, part = cv2.intersectConvexConvex(rect, quad)
    if inter < COVERS_SHARE * area or part is None:
        return None
    # the strip onto a unit square, its base at y = 1
    to_unit = quad_to_rect(np.asarray(strip, np.float64), (1, 1))
    seen = cv2.perspectiveTransform(part.reshape(-1, 1, 2).astype(np.float64), to_unit)
    return round(float(np.clip(1.0 - seen[..., 1].max(), 0.0, 1.0)) * length, 6)


class NoBoardError(ValueError):
    """No board found in the picture (and no calibration given)."""


@dataclass
class ReadTimings:
    """Milliseconds spent per step of one :meth:`BoardReader.read`."""

    find: float = 0.0
    points: float = 0.0
    dice: float = 0.0
    total: float = 0.0
    extra: dict[str, float] = field(default_factory=dict)

    @property
    def recognition(self) -> float:
        """Everything but finding the field (what a calibrated match pays per frame)."""
        return self.total - self.find


def _checker_along(h: int) -> float:
    """A checker's length along a strip ``h`` pixels long (base to the field's middle)."""
    space = BoardSpace()
    return CHECKER * space.point_width / (space.height / 2) * h


#: A checker's colour is read from what of its patch no die or cube hides
#: (:func:`checker_colours`' ``covered``) where this share of the patch or more shows;
#: else that checker's colour is not read at all.
COLOUR_SHOWING = 0.25
#: A colour read round a die or the cube this many ``COLOUR_SIGMA`` or more from both
#: sides' is no checker's: the die, or the board round an empty point's die read as a
#: checker (held-out still 000080 of the unseen styles: a cocked die on an empty
#: point, counted as one checker, the board round it read as one side's colour, and
#: the point as that checker).
LIKE_NEITHER = 3.0
#: Where a checker's middle is hidden, its colour is read from its face's rim: an
#: ellipse this share of its face (``CHECKER`` of the strip's width, and a checker's
#: length along it), short of its edge.
RIM_SPAN = 0.85


def checker_colours(strip: U8, count: int, covered: NDArray[np.bool_] | None = None) -> F64:
    """Lab colours (OpenCV 8-bit) of the first ``count`` checkers (at most 5, one row)
    along a strip from its base: the median of a patch at each checker's middle,
    (M, 3). ``covered``: the strip's pixels a die or the cube stands in front of
    (:func:`covered_in_strip`), left out; a checker whose patch shows less than
    ``COLOUR_SHOWING`` of itself is read from what shows of its whole face
    (:func:`_rim_showing`), or left out where that shows too little, so M may be under
    the count, or 0."""
    h, w = strip.shape[:2]
    along = _checker_along(h)
    lab = cv2.cvtColor(strip, cv2.COLOR_BGR2LAB)
    out = []
    for k in range(max(1, min(count, 5))):
        cy = h - along * (k + 0.5)
        rows = slice(int(cy - along * 0.2), int(cy + along * 0.2))
        cols = slice(int(w * 0.35), int(w * 0.65))
        patch = lab[rows, cols].reshape(-1, 3).astype(np.float64)
        if covered is not None:
            showing = ~covered[rows, cols].reshape(-1)
            if not showing.any() or showing.sum() < COLOUR_SHOWING * len(patch):
                patch = _rim_showing(lab, covered, cy, along)
                if not len(patch):
                    continue  # (an empty patch too: the strip too short to hold it)
            else:
                patch = patch[showing]
        out.append(np.median(patch, axis=0))
    return np.array(out).reshape(-1, 3)


def _rim_showing(lab: U8, covered: NDArray[np.bool_], cy: float, along: float) -> F64:
    """The Lab pixels (M, 3) of the checker whose middle lies ``cy`` along the strip
    that ``covered`` leaves showing over its whole face (an ellipse ``RIM_SPAN`` of
    it), where ``COLOUR_SHOWING`` of the face shows; else none. A die standing on a
    lone checker hides the middle of its face and leaves the rim round it (held-out
    still 000175 of seed 303: a yellow die on a cream checker; a false die boxed on a
    white checker's star, 000031: both read as the other colour, nothing of their
    middles showing)."""
    h, w = covered.shape
    face = np.zeros((h, w), np.uint8)
    centre = (round(w / 2), round(cy))
    axes = (max(1, int(w * CHECKER * RIM_SPAN / 2)), max(1, int(along * RIM_SPAN / 2)))
    cv2.ellipse(face, centre, axes, 0.0, 0.0, 360.0, 1, -1)
    inside = face.astype(bool)
    showing = inside & ~covered
    if not inside.any() or showing.sum() < COLOUR_SHOWING * inside.sum():
        return np.zeros((0, 3))
    return lab[showing].astype(np.float64)  # type: ignore[no-any-return]


def covered_in_strip(
    quad: F64, boxes: Sequence[tuple[float, float, float, float]], size: tuple[int, int] = STRIP
) -> NDArray[np.bool_]:
    """The pixels of the strip cut from the image ``quad`` (:func:`cut_strip`) that the
    image ``boxes`` (x0, y0, x1, y1) lie on, (h, w) for a ``size`` (w, h) strip.

    >>> quad = np.array([(0.0, 256.0), (64.0, 256.0), (64.0, 0.0), (0.0, 0.0)])
    >>> m = covered_in_strip(quad, [(0.0, 200.0, 32.0, 256.0)])
    >>> m.shape, bool(m[230, 10]), bool(m[230, 50]), bool(m[100, 10])
    ((256, 64), True, False, False)
    """
    w, h = size
    to_strip = quad_to_rect(upright(np.asarray(quad, np.float64)), size)
    mask = np.zeros((h, w), np.uint8)
    for x0, y0, x1, y1 in boxes:
        corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)
        inside = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), to_strip).reshape(-1, 2)
        cv2.fillConvexPoly(mask, np.round(inside).astype(np.int32), 1)
    return mask.astype(bool)


def colour_probs(samples: F64, centres: F64) -> F64:
    """How likely checkers whose Lab colours are ``samples`` (M, 3) are of each of the
    two ``centres``' colours: by their mean squared distance to each
    (:func:`colour_distance2`), ``COLOUR_SIGMA`` apart; even where nothing was seen.

    >>> centres = np.array([[60.0, 170, 155], [170.0, 122, 148]])
    >>> colour_probs(np.array([[168.0, 121, 147]]), centres).round(3).tolist()
    [0.0, 1.0]
    >>> colour_probs(np.zeros((0, 3)), centres).tolist()
    [0.5, 0.5]
    """
    if not len(samples):
        return np.full(len(centres), 1.0 / len(centres))
    d2 = colour_distance2(samples, centres).mean(axis=0)
    p = np.exp(-(d2 - d2.min()) / (2 * COLOUR_SIGMA**2))
    return p / p.sum()  # type: ignore[no-any-return]


def recoloured(point: PointReading, p_colour: F64) -> PointReading:
    """``point`` with each count's probability shared between the two colours as
    ``p_colour`` (in ``COLOURS``' order) says; empty as it was.

    >>> p = PointReading(3, {(None, 0): 0.1, ("dark", 1): 0.9})
    >>> even = recoloured(p, np.array([0.5, 0.5])).probs
    >>> [round(even[c], 2) for c in ((None, 0), ("dark", 1), ("light", 1))]
    [0.1, 0.45, 0.45]
    """
    probs: dict[tuple[str | None, int], float] = {(None, 0): point.probs.get((None, 0), 0.0)}
    for k, total in enumerate(_count_probs(point), start=1):
        for c, q in zip(COLOURS, p_colour, strict=True):
            probs[(c, k)] = total * float(q)
    return PointReading(point.number, probs, point.image_xy)


def across_the_middle(
    plain: tuple[int, int], shifted: tuple[int, int], shifted_strips: U8
) -> tuple[int, U8]:
    """A checker lying across the bar's middle, which players put anywhere on the bar:
    half of it in each half's strip, neither counts it (rendered stills with the
    first checker on the bar across the middle: the bar read right in 19 of 60,
    against 55 of 60 as the renderer lays them). Each half's strip moved
    ``ACROSS`` of a checker past the middle holds it whole at its base. A checker
    counted there beyond the half's own count is one across the middle where the
    other half's strip counts none (else it is that half's first checker, reached
    into); beside checkers the half counts, only where the other moved strip sees
    it too. Returns (count, strip): no checker (0), or the one across the middle and
    the moved strip holding it, for its colour.

    >>> strips = np.zeros((2, 4, 4, 3), np.uint8)
    >>> across_the_middle((0, 0), (1, 1), strips)[0]  # seen by both moved strips
    1
    >>> across_the_middle((0, 2), (1, 2), strips)[0]  # the other half's first one
    0
    >>> across_the_middle((0, 0), (0, 1), strips)[0]  # lying more in the second half
    1
    >>> across_the_middle((2, 0), (3, 0), strips)[0]  # seen by one moved strip only
    0
    >>> across_the_middle((2, 0), (3, 1), strips)[0]  # the first of three across it
    1
    """
    for half in (0, 1):
        if shifted[half] <= plain[half] or plain[1 - half] > 0:
            continue
        # beside checkers counted in this half, a count one higher is as likely the
        # counter's own wavering: the other moved strip must see the checker too
        if plain[half] == 0 or shifted[1 - half] > 0:
            return 1, shifted_strips[half]
    return 0, shifted_strips[0]


#: Whether checkers on the bar read as a side that has all fifteen on the points are
#: given to the other side where it has room (:func:`bar_within_fifteen`).
BAR_OTHER_SIDE = True
#: A bar strip's count is believed where its checkers lie within this many
#: ``COLOUR_SIGMA`` of a checker colour (:func:`bar_colours`' distance) ...
BAR_BELIEVED_SIGMAS = 2.5
#: ... and may be the other side's (:func:`bar_within_fifteen`) where they lie within
#: this many of its colour too.
BAR_EITHER_SIGMAS = 2.5


def bar_within_fifteen(
    bar: dict[str, int], on_points: dict[str, int], either: dict[str, int] | None = None
) -> dict[str, int]:
    """The bar's counts, so that no side has more than 15 checkers on the board; the
    points are believed (a reading of 17 is no position at all). Checkers the bar
    holds beyond a side's room are the other side's where it has room
    (``BAR_OTHER_SIDE``): a bar strip's colour is read from part of a checker's face
    against the bar's own wood, and a dark bar's bare wood beside a light checker is
    as near the dark checkers (rendered stills of seed 8401: of 91 bar pictures read
    wrong, most a lone checker counted on the bar and named the colour with fifteen
    on the points); else they are cut. ``either``: of each side's, how many its strip
    showed as near the other side's colour too (``BAR_EITHER_SIGMAS``); only those
    go over (by default all).

    >>> bar_within_fifteen({"dark": 1, "light": 0}, {"dark": 15, "light": 14})
    {'dark': 0, 'light': 1}
    >>> bar_within_fifteen({"dark": 2, "light": 1}, {"dark": 15, "light": 13})
    {'dark': 0, 'light': 2}
    """
    room = {c: max(0, 15 - on_points.get(c, 0)) for c in bar}
    out = {c: min(n, room[c]) for c, n in bar.items()}
    if BAR_OTHER_SIDE:
        for c, n in bar.items():
            movable = min(n - out[c], n if either is None else either.get(c, 0))
            for other in out:
                if other != c and movable > 0:
                    out[other] = min(room[other], out[other] + movable)
    return out


def bar_and_off(
    points: Sequence[PointReading],
    bar: dict[str, int],
    either: dict[str, int],
    in_doubt: Collection[int] = (),
) -> tuple[dict[str, int], dict[str, int]]:
    """The bar (as counted, ``either`` of it as near the other side's colour) put
    within fifteen a side of ``points`` as read best (:func:`bar_within_fifteen`), and
    the checkers off that leaves each side. Checkers on the bar plainly of their
    colour (not of ``either``) are not cut for the checkers of points whose colour is
    in doubt (``in_doubt``, point numbers: :func:`colour_in_doubt`): the bar's white
    checker seen whole is likelier than a white one on a point whose base the cube
    hides (s177 clip 17404 from 392 s: a red checker there, read white round the cube,
    and one, then two, of white's checkers on the bar cut; four legal plays flagged).

    >>> two = [PointReading(1, {("dark", 15): 1.0}), PointReading(2, {("light", 14): 1.0})]
    >>> bar_and_off(two, {"dark": 1, "light": 0}, {"dark": 1, "light": 0})
    ({'dark': 0, 'light': 1}, {'dark': 0, 'light': 0})
    >>> bar_and_off(two, {"dark": 1, "light": 0}, {"dark": 0, "light": 0}, in_doubt=(1,))
    ({'dark': 1, 'light': 0}, {'dark': 0, 'light': 1})
    """
    on_points = {c: 0 for c in bar}
    doubtless = {c: 0 for c in bar}  # ... of them on points whose colour is not in doubt
    for p in points:
        colour, n = p.best()
        if colour is not None:
            on_points[colour] += n
            if p.number not in in_doubt:
                doubtless[colour] += n
    within = bar_within_fifteen(bar, on_points, either)
    for c, n in bar.items():
        plain = n - either.get(c, 0)
        if within[c] < n and plain > 0:
            within[c] = max(within[c], min(plain, 15 - doubtless[c]))
    off = {c: max(0, 15 - on_points[c] - within[c]) for c in bar}
    return within, off


_SIZE = MAX_COUNT + 1
_STEP = np.subtract.outer(np.arange(_SIZE), np.arange(_SIZE))
#: ``_LAG[a, a2]``: a - a2 where that is 0 or more, else an index to a zero
_LAG = np.where(_STEP >= 0, _STEP, _SIZE)
#: the upper triangle's places and their diagonal (j - i), for summing diagonals
_UPPER = np.triu_indices(_SIZE)
_DIAGONAL = np.eye(_SIZE)[_UPPER[1] - _UPPER[0]]


def _adding(cells: F64) -> tuple[F64, F64]:
    """The two matrices that add a point of ``cells`` to the two sides' sums:
    ``sums`` -> ``down @ sums + sums @ across`` (sums over 15 dropped)."""
    padded = np.concatenate([cells, np.zeros((len(cells), 2, 1))], axis=2)
    padded[:, 1, 0] = 0.0  # the empty point is side 0's cell only
    steps = padded[:, :, _LAG]  # [i, side, a, a2]: the chance of adding a - a2
    return steps[:, 0], steps[:, 1].transpose(0, 2, 1)


def fifteen_a_side(cells: F64) -> F64:
    """Each point's reading given that neither side has more than 15 checkers on the
    points [004]: ``cells[i, c, k]`` is point ``i``'s probability of side ``c``
    with ``k`` checkers (the empty point at ``[i, 0, 0]``, ``[i, 1, 0]`` unused and
    0). The exact posterior of each point (sums over the others by dynamic
    programming), so a point read unsure gives way where the rest are read surely:
    on held-out stills most points read wrong in pictures with no hand over the
    board were a tall pile counted too high or a lone checker named the wrong side,
    and the reading then held 16 or more of a side. Returned as given where no
    reading of the points keeps both sides within 15.

    >>> cells = np.zeros((3, 2, 16))
    >>> cells[0, 0, 15] = cells[1, 1, 2] = 1.0      # 15 dark, 2 light: sure
    >>> cells[2, 0, 1], cells[2, 1, 1] = 0.6, 0.4   # a lone checker, dark or light?
    >>> out = fifteen_a_side(cells)
    >>> round(float(out[2, 0, 1]), 3), round(float(out[2, 1, 1]), 3)
    (0.0, 1.0)
    """
    n = len(cells)
    down, across = _adding(cells)
    # before[i]: the two sides' sums over the points before i; after[i]: over the
    # points from i on (each scaled to sum to 1)
    before = np.zeros((n + 1, _SIZE, _SIZE))
    after = np.zeros((n + 1, _SIZE, _SIZE))
    before[0, 0, 0] = after[n, 0, 0] = 1.0
    for i in range(n):
        nxt = down[i] @ before[i] + before[i] @ across[i]
        total = nxt.sum()
        if total <= 0:
            return cells
        before[i + 1] = nxt / total
    for i in range(n - 1, -1, -1):
        nxt = down[i] @ after[i + 1] + after[i + 1] @ across[i]
        after[i] = nxt / nxt.sum()
    # within[i, x, y]: the chance that the points after i sum to at most 15 - x and
    # 15 - y; with the points before i at (a, b), point i may add k to a side where
    # within[a + k, b] (or [a, b + k]): the sums along the diagonals of these products
    within = after[1:].cumsum(axis=1).cumsum(axis=2)[:, ::-1, ::-1]
    lag0 = before[:n] @ within.transpose(0, 2, 1)  # [i, a, a2]: sum over b
    lag1 = before[:n].transpose(0, 2, 1) @ within  # [i, b, b2]: sum over a
    room0 = lag0[:, _UPPER[0], _UPPER[1]] @ _DIAGONAL
    room1 = lag1[:, _UPPER[0], _UPPER[1]] @ _DIAGONAL
    out = cells * np.stack([room0, room1], axis=1)
    out[:, 1, 0] = 0.0
    total = out.sum(axis=(1, 2), keepdims=True)
    if (total <= 0).any():
        return cells
    return out / total


def bar_colour(strip: U8, centres: F64, count: int = 1) -> tuple[int, float]:
    """:func:`bar_colours`' colour and its distance."""
    best, nearest = bar_colours(strip, centres, count)
    return best, float(nearest[best])


def bar_colours(strip: U8, centres: F64, count: int = 1) -> tuple[int, F64]:
    """Which checker colour (index into ``centres``, Lab) the ``count`` checkers a bar
    strip was counted to hold show, and how far from each colour their nearest run of
    places lies. A checker on the bar lies
    anywhere on it, not from the field's middle out as on a point: players put it
    across the bar or at its far end by the rail, and a patch at the strip's middle
    catches the bar's wood or a checker's engraving. So every run of ``count``
    checker places along the strip (at half a checker's steps) is tried, and for
    each place the distance within which ``BAR_COLOUR_SHARE`` per cent of the pixels
    around it lie: part of a checker's face is enough. The run whose farthest place
    is nearest a colour decides; but where the strip itself (its median) is of one
    checker colour, a run the other colour half covers decides for it
    (``BAR_OWN_SIGMAS``, ``BAR_OTHER_SIGMAS``): a bare place matches the strip's own
    colour whatever lies elsewhere (s44 clip 3904 at 551 s: red checkers on a white
    board's narrow bar read as white, the board's white beside them matching the
    white checkers' colour)."""
    h, w = strip.shape[:2]
    along = _checker_along(h)
    if not len(centres) or along <= 0 or h < along:
        return 0, np.full(max(1, len(centres)), np.inf)
    places = h / along  # checker places along the strip
    n = max(1, min(count, int(places)))
    lab = cv2.cvtColor(strip, cv2.COLOR_BGR2LAB)
    # a place's offset from the base -> distance per colour at the share, and at half
    near: dict[float, tuple[F64, F64]] = {}

    def at(offset: float) -> tuple[F64, F64]:
        if offset not in near:
            y0, y1 = int(h - along * (offset + 0.9)), int(h - along * (offset + 0.1))
            px = lab[max(0, y0) : y1, int(w * 0.1) : int(w * 0.9)].reshape(-1, 3)
            d = np.sqrt(colour_distance2(px, centres))
            share, half = np.percentile(d, [BAR_COLOUR_SHARE, 50.0], axis=0)
            near[offset] = (share, half)
        return near[offset]

    # per colour, the distance of its nearest run: by part of a face, and by half
    nearest = np.full(len(centres), np.inf)
    covered = np.full(len(centres), np.inf)
    for start in np.arange(0.0, places - n + 1e-9, 0.5):
        runs = [at(float(start + k)) for k in range(n)]
        nearest = np.minimum(nearest, np.max([r[0] for r in runs], axis=0))
        covered = np.minimum(covered, np.max([r[1] for r in runs], axis=0))
    best = int(np.argmin(nearest))
    middle = np.median(lab[:, int(w * 0.1) : int(w * 0.9)].reshape(-1, 3), axis=0)
    own = np.sqrt(colour_distance2(middle[None, :].astype(np.float64), centres))[0]
    if own[best] < BAR_OWN_SIGMAS * COLOUR_SIGMA:
        # the strip is of this colour: another colour covering half of each place of
        # a run is checkers of it
        others = [c for c in range(len(centres)) if c != best]
        other = min(others, key=lambda c: covered[c], default=None)
        if other is not None and covered[other] < BAR_OTHER_SIGMAS * COLOUR_SIGMA:
            best = other
    return best, nearest


def two_colours(samples: F64, tau: float = 35.0, candidates: int = 16) -> F64:
    """Two Lab centres for the checkers' colours (darker first): 2-means over one
    sample per checker seen, with a truncated cost (a sample farther than ``tau``
    from both centres costs no more than ``tau``), so that a die on a strip, a glint
    or a bare triangle sampled by mistake does not become a colour of its own. It
    starts from the best pair of ``candidates`` samples spread over the lightness
    range, every pair tried."""
    if len(samples) < 2:
        return np.array([[60.0, 128, 128], [200.0, 128, 128]])
    order = np.argsort(samples[:, 0])
    picks = samples[
        order[np.linspace(0, len(samples) - 1, min(candidates, len(samples))).astype(int)]
    ]
    d = np.minimum(np.linalg.norm(samples[:, None, :] - picks[None], axis=2), tau)  # (N, C)
    pair_cost = (np.minimum(d[:, :, None], d[:, None, :]) ** 2).sum(axis=0)  # (C, C)
    np.fill_diagonal(pair_cost, np.inf)
    a, b = np.unravel_index(int(np.argmin(pair_cost)), pair_cost.shape)
    return _two_means(samples, picks[[a, b]], tau)


def _two_means(samples: F64, start: F64, tau: float) -> F64:
    """2-means over ``samples`` from the two centres ``start``, a sample farther than
    ``tau`` from its centre not counted; the darker centre first."""
    centres = np.asarray(start, np.float64).copy()
    for _ in range(10):
        dist = np.linalg.norm(samples[:, None, :] - centres[None], axis=2)
        side = dist.argmin(axis=1)
        for k in (0, 1):
            near = (side == k) & (dist[:, k] < tau)
            if near.any():
                centres[k] = samples[near].mean(axis=0)
    if centres[0, 0] > centres[1, 0]:
        centres = centres[::-1].copy()
    return centres


def anchored_colours(samples: F64, centres: F64, known: F64 | None, tau: float = 35.0) -> F64:
    """``centres`` (two found in one picture, darker first), unless the checkers'
    two colours are ``known`` (Lab, learnt from the opening) and both found centres
    lie nearer one of them: the picture showed one colour split in two (a single
    dark checker left at the end of a bear-off, the light ones lit and shadowed, s34
    clip 2904 at 610 s: the dark checker named light, three light ones dark). The
    centres are then 2-means from the known colours, costs truncated at ``tau``.

    >>> known = np.array([[50.0, 130, 140], [200.0, 120, 140]])
    >>> lights = np.array([[205.0, 120, 140]] * 6 + [[165.0, 122, 140]] * 3)
    >>> samples = np.vstack([lights, [[55.0, 131, 140]]])
    >>> split = np.array([[165.0, 122, 140], [205.0, 120, 140]])  # two lights
    >>> anchored_colours(samples, split, known).round()[:, 0].tolist()
    [55.0, 205.0]
    >>> anchored_colours(samples, split, None) is split  # nothing known: as found
    True

    Fewer than two checkers seen (one red checker left at the end of a bear-off)
    give no two colours to find: the known ones are the centres (s50 clip 4503 at
    339.8 s: the last red checker named dark against :func:`two_colours`' stand-ins).

    >>> red = np.array([[75.0, 175, 159]])
    >>> anchored_colours(red, two_colours(red), known[::-1]).round()[:, 0].tolist()
    [50.0, 200.0]
    """
    if known is None or len(known) != 2:
        return centres
    if len(samples) < 2:
        k = np.asarray(known, np.float64)
        return k[np.argsort(k[:, 0], kind="stable")]
    nearest = colour_distance2(centres, known).argmin(axis=1)
    if nearest[0] != nearest[1]:
        return centres
    return _two_means(samples, known, tau)


#: What :meth:`BoardReader._read_points` reads: the points, the bar as counted and of
#: those how many are as near the other side's colour (:func:`bar_within_fifteen`'s
#: ``bar`` and ``either``), the two checker colours (Lab) and the points' strips in
#: the picture.
_Points = tuple[list[PointReading], dict[str, int], dict[str, int], F64, list[F64]]


class BoardReader:
    """Vision's models, loaded once; :meth:`read` a picture. Not thread-safe.

    A picture of a board that has not changed since the last one read (the same
    field, bar and colours, the board's canvas unchanged:
    :data:`~gammoneye.vision.detector.STILL_LEVEL`) keeps that picture's points, bar
    and checkers off, and the detector its boxes: only the dice and the cube are read
    again, in the new picture (``reuse_still``; ``reused`` counts those reads). The
    referee reads a still board twice before it believes it; the second read then
    costs a fifth of the first.
    """

    reuse_still = True
    reused = 0
    #: Whether each point is read given that neither side has more than 15 checkers
    #: on the points (:func:`fifteen_a_side`): the reading of a still with nothing
    #: else to go by. The referee's eyes read without it: the boards they weigh keep
    #: fifteen a side already, and a checker entered onto a point the opponent holds
    #: shows as one checker too many of a side there, which the bound would take
    #: away (s57 5202 at 138 s, s58 5301 at 91 s: illegal plays let through).
    points_within_fifteen = True
    #: The points last read, keyed by the field, board space, side and colours.
    _last_points: Kept[_Points] | None = None

    def __init__(
        self,
        counter: PointCounter,
        dice: DiceReader,
        cube: CubeReader,
        detector: DiceCubeDetector,
    ) -> None:
        self.counter, self.dice, self.cube, self.detector = counter, dice, cube, detector

    @classmethod
    def load(cls, models: Path | None = None) -> BoardReader:
        """The shipped models (or those of the same names in ``models``)."""
        return cls(
            PointCounter.load(models / "point_counts.onnx" if models else None),
            DiceReader.load(
                models / "dice.onnx" if models else None,
                upright=models / "dice_upright.onnx" if models else None,
            ),
            CubeReader.load(
                models / "cube.onnx" if models else None,
                partner=models / PARTNER_MODEL if models and PARTNER_MODEL else None,
            ),
            DiceCubeDetector.load(
                models / "dicecube.onnx" if models else None, min_score=LOW_DETECTION_SCORE
            ),
        )

    def locate(
        self, image: U8, profile: CalibrationProfile | None, timings: ReadTimings
    ) -> tuple[F64, BoardSpace, Orientation]:
        h, w = image.shape[:2]
        if profile is not None:
            if tuple(profile.image_size) != (w, h):
                raise NoBoardError(
                    f"the calibration is for {profile.image_size[0]}x{profile.image_size[1]} "
                    f"pictures, this one is {w}x{h}"
                )
            corners = profile.corners()
            return corners, profile.space(), profile.orientation or Orientation()
        from gammoneye.calibration.find import find_field

        start = time.perf_counter()
        found = find_field(image)
        timings.find = (time.perf_counter() - start) * 1000
        if found is None:
            raise NoBoardError(
                "no board found in the picture; calibrate with four corners "
                "(gammoneye calibrate IMAGE --corners ...) and pass --calibration"
            )
        corners = canonical_corners(found.corners_px, (w, h), long_side_first=True)
        return corners, BoardSpace(), Orientation()

    def read(
        self,
        image: U8,
        profile: CalibrationProfile | None = None,
        *,
        corners: F64 | None = None,
        timings: ReadTimings | None = None,
        colours_lab: F64 | None = None,
    ) -> BoardReading:
        """Read ``image`` (BGR). The field comes from ``corners`` (canonical order),
        else ``profile``, else is found; :class:`NoBoardError` when there is none.
        ``colours_lab``: the two checker colours (Lab) where known, learnt from the
        opening (:func:`anchored_colours`)."""
        if image.ndim != 3 or image.shape[2] != 3:
            raise ValueError(f"expected a BGR image (H, W, 3), got shape {image.shape}")
        t = timings if timings is not None else ReadTimings()
        start = time.perf_counter()
        if corners is not None:
            field_px, space, orient = np.asarray(corners, np.float64), BoardSpace(), Orientation()
            if profile is not None:
                space, orient = profile.space(), profile.orientation or Orientation()
        else:
            field_px, space, orient = self.locate(image, profile, t)
        if profile is None:
            # no calibration says how wide the bar is: measured in this picture
            fraction = fit_bar_fraction(image, field_px)
            if fraction is not None:
                space = replace(space, bar_fraction=fraction)
        to_board = cv2.getPerspectiveTransform(
            field_px.astype(np.float32), space.corners().astype(np.float32)
        )
        to_image = np.linalg.inv(to_board)

        def img(pts: F64) -> F64:
            return cv2.perspectiveTransform(  # type: ignore[no-any-return]
                np.asarray(pts, np.float64).reshape(-1, 1, 2), to_image
            ).reshape(-1, 2)

        # points and bar: strips, counts, colours; those of the last picture where
        # the board has not changed since (STILL_LEVEL)
        t0 = time.perf_counter()
        canvas = board_canvas(image, field_px)
        grey = cv2.cvtColor(canvas, cv2.COLOR_BGR2GRAY)
        key = (
            field_px.tobytes(),
            space,
            orient,
            None if colours_lab is None else np.asarray(colours_lab, np.float64).tobytes(),
            self.points_within_fifteen,
        )
        last = self._last_points
        if self.reuse_still and last is not None and last.still(key, grey):
            points, counted, either, centres, quads_px = last.value
            points = list(points)
            self.reused += 1
        else:
            seen_points = self._read_points(image, space, orient, img, colours_lab)
            self._last_points = Kept(key, grey, seen_points)
            points, counted, either, centres, quads_px = seen_points
        t.points = (time.perf_counter() - t0) * 1000

        # dice and cube
        t0 = time.perf_counter()
        found = [
            d
            for d in self.detector.detect_on_board(image, field_px, canvas=canvas)
            if d.kind != "cube" or d.score >= FAINT_DIE_SCORE
        ]
        dice_found = [d for d in found if d.kind != "cube"]

        def place_of(d: Detection) -> str:
            # where the cube stands, not where its middle, above the board, maps to
            return self._cube_place(space, *self._footprint(d.box, to_board))

        def within_ends(d: Detection) -> bool:
            u = self._footprint(d.box, to_board)[0]
            return -CUBE_END_MARGIN <= u / space.width <= 1 + CUBE_END_MARGIN

        cube_found, more_dice = self._one_cube(
            image, [d for d in found if d.kind == "cube" and within_ends(d)], place_of
        )
        dice_found = sorted(dice_found + more_dice, key=lambda d: -d.score)[:4]
        cubes = cube_found[:1]
        dice: list[DieReading] = []
        kept_boxes: list[tuple[float, float, float, float]] = []
        if dice_found:
            r, crops = self.dice.read_boxes(image, [d.box for d in dice_found])
            # whether a box is a die: the turned network's confidence (see .dice)
            values, cocked, sure = r.values, r.cocked, r.turned
            as_cube = None if cubes else self._cube_among_dice(dice_found, crops, sure)
            if as_cube is not None:
                d = dice_found[as_cube]
                cubes = [Detection("cube", d.score, d.box)]
                keep = [i for i in range(len(dice_found)) if i != as_cube]
                dice_found = [dice_found[i] for i in keep]
                values, cocked, sure = values[keep], cocked[keep], sure[keep]
        if dice_found:
            centres_b = cv2.perspectiveTransform(
                np.array([d.centre for d in dice_found], np.float64).reshape(-1, 1, 2), to_board
            ).reshape(-1, 2)
            counts = [p.best()[1] for p in points]
            kept = [
                i
                for i, d in enumerate(dice_found)
                if keep_die(d.score, sure[i])
                and not (cubes and part_of_cube(d.box, cubes[0].box, sure[i]))
            ]
            slants = {i: self._stand_and_slant(dice_found[i].box, to_board) for i in kept}
            stands = {i: (spot, half) for i, (spot, half, _) in slants.items()}
            cube_stand = [self._stand(cubes[0].box, to_board)] if cubes else []
            lift = CHECKER_HEIGHT * CHECKER * space.point_width
            for i in kept:
                d, v, (u, w) = dice_found[i], values[i], centres_b[i]
                kept_boxes.append(d.box)
                half, off_board = self._half(space, u, w)
                spot, die_half = stands[i]
                dx, dy = slants[i][2]
                raised = (spot[0] - dx * lift, spot[1] - dy * lift)
                others = [stands[k] for k in kept if k != i] + cube_stand
                gap = lean_gap(space, orient, counts, spot, die_half, others)
                dice.append(
                    DieReading(
                        {k + 1: float(v[k]) for k in range(6)},
                        cocked_given_lean(d.cocked_probability(cocked[i]), gap),
                        half,
                        on_checker=self._on_checker(space, orient, counts, spot),
                        off_board=off_board,
                        image_xy=d.centre,
                        over=None if half is None else self._over_point(space, orient, spot),
                        over_raised=(
                            None if half is None else self._over_point(space, orient, raised)
                        ),
                        lean_gap=round(gap, 3),
                    )
                )
        hiders = kept_boxes + [d.box for d in cubes]
        in_doubt: set[int] = set()  # points whose colour what stands in front hides
        if hiders:
            # a point's strip runs from its base to the field's middle
            length = space.height / 2 / (CHECKER * space.point_width)
            points = list(points)  # (not the kept reading's own list)
            for i, p in enumerate(points):
                froms = [covered_from(b, quads_px[i], length) for b in hiders]
                starts = [f for f in froms if f is not None]
                if starts:
                    seen_round = _colour_seen_round(image, p, quads_px[i], hiders, centres)
                    points[i] = hidden(seen_round, STANDING_IN_FRONT, min(starts))
                    if colour_in_doubt(seen_round, min(starts)):
                        in_doubt.add(p.number)
        # the bar within fifteen a side of the points as read at last: a point a die
        # stands on is coloured again above (s165 clip 16203 at 231.1 s: a white die
        # on two dark checkers named them light, and the lone light checker on the
        # bar, as near the dark, was then taken as dark, sixteen of them)
        bar, off = bar_and_off(points, counted, either, in_doubt)
        cube = None
        if cubes:
            d = cubes[0]
            place = place_of(d)
            faces = faces_at(self.cube.read(square_crop(image, d.box)[None])[0], place)
            cube = CubeReading(
                {FACES[k]: float(faces[k]) for k in range(len(FACES))},
                place,
                d.centre,
            )
        t.dice = (time.perf_counter() - t0) * 1000
        t.total = (time.perf_counter() - start) * 1000
        return BoardReading(
            COLOURS,
            tuple(points),
            bar,
            off,
            tuple(dice),
            cube,
            tuple((float(x), float(y)) for x, y in field_px),
            tuple((float(c[0]), float(c[1]), float(c[2])) for c in centres),
        )

    def _read_points(
        self,
        image: U8,
        space: BoardSpace,
        orient: Orientation,
        img: Callable[[F64], F64],
        colours_lab: F64 | None,
    ) -> _Points:
        """The points, the bar as counted and how many of it as near the other side's
        colour, the two checker colours (Lab) and the points' strips (image quads) of
        a picture (``_Points``); ``img``: board space -> image. The bar is put within
        fifteen a side of the points once dice are read (:func:`bar_and_off`)."""
        pw, mid = space.point_width, space.height / 2
        quads, bases = [], []
        for n in range(1, 25):
            x, y, _ = space.point_base(n, orient)
            quads.append(
                [
                    (x - WIDEN * pw, y),
                    (x + WIDEN * pw, y),
                    (x + WIDEN * pw, mid),
                    (x - WIDEN * pw, mid),
                ]
            )
            bases.append((x, y))
        bx = space.width / 2
        # the bar's halves, from the middle out; then the same strips moved a
        # checker's half past the middle (:func:`across_the_middle`)
        reach = ACROSS * CHECKER * pw
        for shift in (0.0, reach):
            for y_end in (0.0, float(space.height)):
                out = -1.0 if y_end < mid else 1.0
                y0, y1 = mid - out * shift, y_end - out * shift
                quads.append(
                    [
                        (bx - WIDEN * pw, y0),
                        (bx + WIDEN * pw, y0),
                        (bx + WIDEN * pw, y1),
                        (bx - WIDEN * pw, y1),
                    ]
                )
        quads_px = [img(np.array(q)) for q in quads]
        strips = np.stack([cut_strip(image, q) for q in quads_px])
        counts = self.counter.count_probs(strips)  # (28, 16)
        shifted_strips, shifted = strips[26:], counts[26:].argmax(axis=1)
        strips, counts, quads_px = strips[:26], counts[:26], quads_px[:26]
        best_counts = counts.argmax(axis=1)
        seen = [checker_colours(s, int(n)) for s, n in zip(strips, best_counts, strict=True)]
        occupied = [i for i in range(len(strips)) if best_counts[i] > 0]
        samples = np.concatenate([seen[i] for i in occupied] or [np.zeros((0, 3))])
        centres = anchored_colours(samples, two_colours(samples), colours_lab)
        # a strip's colour: its checkers' mean squared distance to each centre
        p_colour = np.array([colour_probs(x, centres) for x in seen])
        base_px = img(np.array(bases))
        cells = counts[:24, None, :] * p_colour[:24, :, None]
        cells[:, 0, 0], cells[:, 1, 0] = counts[:24, 0], 0.0
        if self.points_within_fifteen:
            cells = fifteen_a_side(cells)
        points = []
        for i in range(24):
            probs: dict[tuple[str | None, int], float] = {(None, 0): float(cells[i, 0, 0])}
            for k in range(1, MAX_COUNT + 1):
                for c in (0, 1):
                    probs[(COLOURS[c], k)] = float(cells[i, c, k])
            points.append(PointReading(i + 1, probs, (float(base_px[i, 0]), float(base_px[i, 1]))))
        bar = {c: 0 for c in COLOURS}
        either = {c: 0 for c in COLOURS}  # ... of them as near the other colour too
        plain = (int(counts[24].argmax()), int(counts[25].argmax()))
        for n, strip in (
            (plain[0], strips[24]),
            (plain[1], strips[25]),
            across_the_middle(plain, (int(shifted[0]), int(shifted[1])), shifted_strips),
        ):
            # believe a count only where the checkers counted show a checker colour
            # (not the bar's wood, not the cube)
            if n:
                c, nearest = bar_colours(strip, centres, n)
                if nearest[c] < BAR_BELIEVED_SIGMAS * COLOUR_SIGMA:
                    bar[COLOURS[c]] += n
                    other = min(np.delete(nearest, c), default=np.inf)
                    if other < BAR_EITHER_SIGMAS * COLOUR_SIGMA:
                        either[COLOURS[c]] += n
        return points, bar, either, centres, quads_px

    def _one_cube(
        self, image: U8, found: list[Detection], place_of: Callable[[Detection], str]
    ) -> tuple[list[Detection], list[Detection]]:
        """The cube among the detector's cube boxes, and those of them that are dice.

        There is one cube, but a die is now and then boxed as one too, sometimes with
        the higher score: a die in the field then reads as a cube offered, and the
        referee as a double. With more than one box, the cube is one lying where a
        cube rests (the middle, a player's side: ``place_of``) rather than in the
        field, where dice lie and a cube only while offered; among those, the box the
        cube reader is surest of against the die reader, with the detector's score
        weighed in (``CUBE_SCORE_WEIGHT``). The others that the die reader reads surely
        (``CUBE_AS_DIE_P``) are dice."""
        if len(found) < 2:
            return found, []
        found = found[:3]
        crops = np.stack([square_crop(image, d.box) for d in found])
        cube_p = self.cube.read(crops).max(axis=1)
        die_p = self.dice.read_turned(crops)[0].max(axis=1)
        resting = np.array([place_of(d) != "offered" for d in found])
        scores = np.array([d.score for d in found])
        best = int(np.argmax(cube_p - die_p + 2.0 * resting + CUBE_SCORE_WEIGHT * scores))
        dice = [
            Detection("die", d.score, d.box)
            for i, d in enumerate(found)
            if i != best and die_p[i] >= CUBE_AS_DIE_P
        ]
        return [found[best]], dice

    def _cube_among_dice(self, found: list[Detection], crops: U8, values: F32) -> int | None:
        """No cube box: the cube may have been boxed as a die (a small cube offered in
        the field looks like a die to the detector; s31 clip 2602 at 422.5 s, a red
        cube on blue felt read as a die's 1 at 0.77, and the double was lost). A "die"
        the die reader reads less surely than ``DIE_AS_CUBE_P`` and the cube reader at
        least that surely is the cube: a die's pips read as a cube's face only vaguely
        (0.2 to 0.45 on the dice of that clip), a cube's digits as a die's face at 0.7
        to 0.85. Else a "die" the detector nearly called the cube (``DIE_AS_CUBE_SHARE``)
        is. ``found``, ``crops`` and ``values``: the dice's detections, crops and the
        die reader's face probabilities. Returns the index of the cube among them, or
        ``None``."""
        die_p = values.max(axis=1)
        unsure = [i for i in range(len(crops)) if die_p[i] < DIE_AS_CUBE_P]
        near = [
            (d.cube_score / d.score, i)
            for i, d in enumerate(found)
            if d.cube_score is not None and d.cube_score >= DIE_AS_CUBE_SHARE * d.score
        ]
        if unsure:
            cube_p = self.cube.read(crops[unsure]).max(axis=1)
            likely = [
                (float(c - die_p[i]), i)
                for c, i in zip(cube_p, unsure, strict=True)
                if c >= DIE_AS_CUBE_P
            ]
            if likely:
                return max(likely)[1]
        return max(near)[1] if near else None

    @staticmethod
    def _half(space: BoardSpace, u: float, v: float) -> tuple[str | None, float]:
        """(half, off-board probability) of a board-space point. The half is decided
        along the board alone, so a die on a rail is in the half beside it; off the
        board means beyond the field by more than a rail's width (taken as 8 % of the
        field's width and 10 % of its depth)."""
        if not (
            -0.08 * space.width <= u <= 1.08 * space.width
            and -0.1 * space.height <= v <= 1.1 * space.height
        ):
            return None, 1.0
        x0, x1 = space.bar_x
        if x0 <= u <= x1:
            return "bar", 0.0
        return ("left" if u < space.width / 2 else "right"), 0.0

    @staticmethod
    def _footprint(box: tuple[float, float, float, float], to_board: F64) -> tuple[float, float]:
        """Where a die stands on the board (board space), from its image box
        (:meth:`_stand`)."""
        return BoardReader._stand(box, to_board)[0]

    @staticmethod
    def _stand(
        box: tuple[float, float, float, float], to_board: F64
    ) -> tuple[tuple[float, float], float]:
        """Where a die stands on the board (board space), from its image box, and
        its half side there (:meth:`_stand_and_slant`)."""
        spot, half, _ = BoardReader._stand_and_slant(box, to_board)
        return spot, half

    @staticmethod
    def _stand_and_slant(
        box: tuple[float, float, float, float], to_board: F64
    ) -> tuple[tuple[float, float], float, tuple[float, float]]:
        """Where a die stands on the board (board space), from its image box; its half
        side there; and how a height above the board maps onto the board plane there
        (board-space units per unit of height, pointing away from the camera).

        A die's box centre is its middle, a die's height above the board: mapped onto
        the board plane it lands beyond the die, the farther the lower the camera, on a
        pile lying behind a die beside it. The box's bottom edge is the die's near foot
        on the board (the camera looks down; the picture's bottom is nearer to it); the
        die stands half its width beyond that, towards where its middle maps. The middle
        maps half a side beyond the die's middle for each unit of the camera's slant
        (the tangent of its angle from straight down), and the foot half a side before
        it, so the slant is how much farther than one half side the middle maps from
        the foot."""
        x0, y0, x1, y1 = box
        pts = np.array([[(x0 + x1) / 2, (y0 + y1) / 2], [(x0 + x1) / 2, y1], [x0, y1], [x1, y1]])
        centre, foot, left, right = cv2.perspectiveTransform(
            pts.reshape(-1, 1, 2).astype(np.float64), to_board
        ).reshape(-1, 2)
        half = float(np.linalg.norm(right - left)) * DIE_HALF_OF_BOX
        away = centre - foot
        length = float(np.linalg.norm(away))
        if length <= half:  # seen from straight above: the middle is the footprint
            return (float(centre[0]), float(centre[1])), half, (0.0, 0.0)
        unit = away / length
        slant = min(MOST_SLANT, length / half - 1.0) if half > 0 else 0.0
        spot = foot + unit * half
        per_height = unit * slant
        return (
            (float(spot[0]), float(spot[1])),
            half,
            (float(per_height[0]), float(per_height[1])),
        )

    @staticmethod
    def _on_checker(
        space: BoardSpace,
        orient: Orientation,
        counts: Sequence[int],
        spot: tuple[float, float],
    ) -> float:
        """The probability that a die standing at ``spot`` (board space) lies on a
        point's pile of checkers (``counts``, :func:`piles`): 1 well inside a pile's
        reach, 0 well outside, soft over ``ON_CHECKER_SOFT`` point widths across its
        edge."""
        u, v = spot
        pw = space.point_width
        nearest = np.inf  # signed distance outside the nearest pile (< 0: inside)
        for x, y, d, reach, along in piles(space, orient, counts):
            depth = (v - y) * d
            outside = max(abs(u - x) - along / 2, -depth, depth - reach)
            nearest = min(nearest, outside)
        if not np.isfinite(nearest):
            return 0.0
        return float(1.0 / (1.0 + np.exp(nearest / (ON_CHECKER_SOFT * pw))))

    @staticmethod
    def _over_point(
        space: BoardSpace, orient: Orientation, spot: tuple[float, float]
    ) -> tuple[int, float, float] | None:
        """The point a die standing at ``spot`` (board space) is over, for
        :attr:`DieReading.over`: the one whose strip's middle is nearest across,
        counted from the base of its own row (within half the field's depth); None
        when the die stands half a checker's width or more outside every strip."""
        u, v = spot
        along = CHECKER * space.point_width
        best: tuple[int, float, float] | None = None
        for n in range(1, 25):
            x, y, d = space.point_base(n, orient)
            depth = (v - y) * d / along
            if not -1.0 <= depth <= space.height / 2 / along:
                continue
            side = (abs(u - x) - along / 2) / along
            if best is None or side < best[2]:
                best = (n, round(depth, 3), round(side, 3))
        return best if best is not None and best[2] < 0.5 else None

    @staticmethod
    def _cube_place(space: BoardSpace, u: float, v: float) -> str:
        """Where a cube standing at board-space (u, v) lies: in the field off the bar
        (offered), on the bar near the middle (centre), else the side it is on."""
        x0, x1 = space.bar_x
        margin = CUBE_BAR_MARGIN * space.width
        inside = 0 <= u <= space.width and 0 <= v <= space.height
        if inside and not (x0 - margin <= u <= x1 + margin):
            return "offered"
        if inside and abs(v - space.height / 2) < space.height * 0.2:
            return "centre"
        return "bottom" if v > space.height / 2 else "top"
