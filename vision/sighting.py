"""A :class:`~gammoneye.vision.reading.BoardReading` as the referee's sighting.

The referee thinks in players and positions; vision in colours and point numbers as
seen from the field's bottom side. :class:`ReadingEvidence` bridges them: given who
sits at the bottom and which colour each player has, it scores any engine
position against the reading's probabilities (rules-constrained decoding).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, cast

import numpy as np

from gammoneye.engine.position import BAR, CHECKERS, Position, PositionError
from gammoneye.engine.referee import SURE_CUBE_FACE, SeenCube, SeenDie, Sighting

from .reading import BoardReading, Cell, PointReading, layout_of_counts

#: log-likelihood cost of each checker on the bar that the reading does not show
#: (bar counts are hard numbers, and less sure than the points).
BAR_COST = 2.0

#: The cost where the bar holds, or is read to hold, no more than ``SHORT_BAR``
#: checkers: such a bar is read far better. In the A/B clips' still views (s87-s89,
#: readings kept, against each frame's truth) a checker was missed on 2 % of bars of
#: one and 0.6 % of bars of two, but on 23 % of bars of three (s133 clip 13001 at
#: 661.8 s: a checker entered on a held point, the bar read empty and the pile three
#: at 0.72, taken for the dance with its bar read short).
SHORT_BAR_COST = 4.0
SHORT_BAR = 2

#: A pile of this many checkers or more is a tall pile: the point counter reads it
#: far less surely than it says (rendered stills, renders/val, held_styles and
#: held_seeds, 20,000 points seen: piles of 6 read wrong 0.9 % of the time, of 7
#: 10.7 %, of 9 42 %, of 10 and more 75 %, some six checkers off, each at p 0.99; s34
#: clip 2904: a pile of seven on the 2-point read as nine, and 4/0 3/0 taken for the
#: illegal 4/2 3/2). Eight, not seven, since session 39: a pile read as seven is
#: seven (``python bench/pile_counts.py renders/val renders/held_seeds`` with the
#: session-38 models: of 40 piles of 7, 37 read 7 and 3 read 9 or more; no pile of 6
#: or 8 read 7, of 87 and 25), and believing it only roughly let a bear-off that left a
#: die unplayed pass as legal (s53 clip 4802 at 310.6 s: 3/0(3) with a 33, the pile of
#: seven on the 1-point read seven before and after, taken for the six of 3/0(3) 1/0).
TALL_PILE = 8
#: A tall pile's count is believed only this far: where the count read is a tall
#: pile, any count of its colour from ``TALL_PILE - 2`` up is given at least this
#: share of the reading's probability of a pile of that colour (of ``TALL_PILE - 2``
#: or more). Two checkers more or fewer than a tall pile read then cost at most 2 in
#: log-likelihood, not the 6 that make a play illegal. Only where the pile read is
#: tall: tall piles are read too many more often than too few, and a pile of 7 read
#: as 5 is two checkers borne off (s34 clip 2904 at 253 s).
TALL_SHARE = math.exp(-2.0)

#: A checker put on a point its opponent holds (an illegal play) sits on top of
#: their pile, which the point counter, knowing piles of one colour only, reads as
#: theirs: with that checker counted (s48 clip 4303 at 466 s: a light checker on two
#: dark read as three dark at 0.94), or with it unseen, the pile read as it was. A
#: board with such a point is weighed by whichever reading is likelier, the pile as
#: it was given this share of its probability (s155 clip 15202 at 9.9 s: the opening
#: 41 played 13/12 onto the opponent's five, read as their five at 0.61 and as six
#: at 1e-4; 13/9 9/8, with the 8-point's four read as three at 1.00, was taken for
#: it, the player's checker lost). No legal play leaves such a point, so only boards
#: of illegal plays are weighed so.
HIDDEN_TOP_SHARE = math.exp(-2.0)

#: A die read lying on a checker from this probability hides the colour of the pile
#: it lies on: the colour is sampled where the die is (s34 clip 2904 at 350 s: a light
#: checker under a die read dark, the board then no position, the play flagged and
#: the roll, invalid for the die on the checker, never judged).
DIE_ON_CHECKER_P = 0.5
#: A pile under a die is given, for either colour, at least this share of the
#: reading's probability of its count in the other colour.
UNDER_DIE_SHARE = math.exp(-2.0)

#: A field's width taken as this many cm when a die's place in board space is said
#: in cm (SeenDie.at): boards differ, this only needs to be about right, for the
#: referee's "the same die, still where it lay" (engine.referee.SAME_PLACE_CM).
FIELD_WIDTH_CM = 48.0


#: A die read less sure than this shows "some value" to the stabiliser: its reading
#: flickers from frame to frame (a die too small or blurred), and that must not keep
#: the view, with its checkers, from ever settling. The referee still gets the value
#: read, with its probability, and reads unsure dice again from the play.
SURE_VALUE_P = 0.5
#: A "die" on the bar or on the rail around the field read less sure than this is
#: left out of the sighting: a mark printed there (a maker's logo, a hinge) found as
#: a die in some frames and not in others, on every view of the match (s16 clip 1101,
#: a logo on the bar; s18 clip 1301, one on the rail: no game ever started, no still
#: view being without dice). A die rolled there and read surely stays.
BAR_MARK_P = 0.5


@dataclass(frozen=True)
class ReadingEvidence:
    """The checkers of one reading; ``colours[p]`` is player ``p``'s colour name."""

    reading: BoardReading
    colours: tuple[str, str]
    bottom_player: int

    def layout(self, position: Position) -> dict[int, tuple[str | None, int]]:
        return layout_of_counts(position.boards, self.colours, self.bottom_player)

    def log_likelihood(self, position: Position) -> float:
        layout = self.layout(position)
        tops = piles_with_top_unseen(position.boards, self.colours, self.bottom_player)
        under = self._under_dice()
        ll = 0.0
        for point in self.reading.points:
            n = point.number
            prob = point_p(point, layout.get(n, (None, 0)), n in under)
            if n in tops:
                prob = max(prob, HIDDEN_TOP_SHARE * point_p(point, tops[n], n in under))
            ll += math.log(prob)
        for p in (0, 1):
            seen = self.reading.bar.get(self.colours[p], 0)
            ll -= bar_cost(position.boards[p][BAR], seen)
        return ll

    def _under_dice(self) -> set[int]:
        """The points a die lies on the checkers of (read on a checker from
        ``DIE_ON_CHECKER_P``, over that point's pile)."""
        return {
            d.over[0]
            for d in self.reading.dice
            if d.over is not None and d.on_checker >= DIE_ON_CHECKER_P
        }

    def ceiling(self) -> float:
        return self._ceiling

    @functools.cached_property
    def _ceiling(self) -> float:
        """Every point as read likeliest, less, where more than thirty checkers are
        read, the least it costs to read no more: no board explains the view better
        (s192 clip 18904 at 63.9-85.1 s: a pile of five on the 13-point read six at
        1.00 in every view, with all thirty on the board; every legal play came about
        6 below the view's own best, each flagged as a play to no board that can
        stand, the closest legal play then recorded). Thirty in all, not fifteen a
        colour: a checker put on a pile its opponent holds (an illegal play) is
        counted with the pile in that pile's colour (:func:`layout_of_counts`), so a
        colour may read sixteen where a board explains the view as read (session
        44: such an entry from the bar, with a bound of fifteen a side, looked like
        a dance)."""
        best = sum(math.log(max(p.probs.values())) for p in self.reading.points)
        return best - self._cost_of_thirty()

    def _cost_of_thirty(self) -> float:
        """The least log-likelihood a reading of more than thirty checkers (on the
        points and the bars) gives up to read no more than thirty: piles read a
        checker or more shorter, in either colour, or empty (:func:`point_p`), a bar
        with fewer (:func:`bar_cost`), the cheapest combination."""
        piles = [(p, p.best()[1]) for p in self.reading.points if p.best()[1]]
        bars = [self.reading.bar.get(colour, 0) for colour in self.colours]
        over = sum(bars) + sum(n for _, n in piles) - 2 * CHECKERS
        if over <= 0:
            return 0.0
        under = self._under_dice()
        # each bar's and each pile's cost of 1, 2, ... checkers fewer
        steps = [[bar_cost(bar - k, bar) for k in range(1, min(bar, over) + 1)] for bar in bars]
        for point, n in piles:
            top = math.log(max(point.probs.values()))
            hidden = point.number in under
            kept = [point_p(point, (None, 0), hidden)]  # kept[m]: likeliest of m or fewer
            for m in range(1, n):
                kept.append(max(kept[-1], *(point_p(point, (c, m), hidden) for c in self.colours)))
            steps.append(
                [max(0.0, top - math.log(kept[n - k])) for k in range(1, min(n, over) + 1)]
            )
        least = [0.0] + [math.inf] * over  # least[r]: r checkers fewer (over: that or more)
        for costs in steps:
            now = least[:]
            for r, base in enumerate(least):
                for k, c in enumerate(costs, 1):
                    now[min(over, r + k)] = min(now[min(over, r + k)], base + c)
            least = now
        return least[over]

    def guess(self, turn: int) -> Position | None:
        boards = [[0] * 25, [0] * 25]
        for number, (colour, count) in self.reading.best_layout().items():
            if colour not in self.colours:
                return None
            player = self.colours.index(colour)
            own = number if player == self.bottom_player else 25 - number
            boards[player][own - 1] = count
        for p in (0, 1):
            boards[p][BAR] = self.reading.bar.get(self.colours[p], 0)
            if sum(boards[p]) > CHECKERS:
                return None
        try:
            return Position((tuple(boards[0]), tuple(boards[1])), turn)
        except PositionError:
            return None


def piles_with_top_unseen(
    counts: Sequence[Sequence[int]], colours: tuple[str, str], bottom: int = 0
) -> dict[int, Cell]:
    """The points (numbered from the field's bottom side, where player ``bottom``
    sits) holding checkers of both players, each as its pile reads with the fewer
    checkers on top unseen: the colour and count of the pile beneath
    (``HIDDEN_TOP_SHARE``). ``counts`` as :func:`~.reading.layout_of_counts`'s.

    >>> five = [0] * 12 + [5] + [0] * 12  # player 0's five on his 13-point
    >>> one = [0] * 11 + [1] + [0] * 13  # player 1's checker on his 12-point
    >>> piles_with_top_unseen((five, one), ("light", "dark"))
    {13: ('light', 5)}
    >>> piles_with_top_unseen((five, [0] * 25), ("light", "dark"))
    {}
    """
    out: dict[int, Cell] = {}
    for own in range(1, 25):
        mine, theirs = counts[bottom][own - 1], counts[1 - bottom][24 - own]
        if mine and theirs:
            out[own] = (colours[bottom], mine) if mine > theirs else (colours[1 - bottom], theirs)
    return out


def bar_cost(checkers: int, seen: int) -> float:
    """The log-likelihood cost of a bar of ``checkers`` read as ``seen``: ``BAR_COST``
    a checker, ``SHORT_BAR_COST`` where neither count is over ``SHORT_BAR``.

    >>> bar_cost(1, 1), bar_cost(1, 0), bar_cost(2, 1), bar_cost(3, 2), bar_cost(0, 3)
    (0.0, 4.0, 4.0, 2.0, 6.0)
    """
    per_checker = SHORT_BAR_COST if max(checkers, seen) <= SHORT_BAR else BAR_COST
    return per_checker * abs(checkers - seen)


def point_p(point: PointReading, cell: Cell, under_die: bool = False) -> float:
    """The probability of ``cell`` on ``point`` as the referee weighs it: the
    reading's, but a tall pile's count believed only roughly (``TALL_PILE``), and,
    ``under_die`` (a die lying on its pile), the colour read only roughly
    (``UNDER_DIE_SHARE``).

    >>> sure_nine = PointReading(2, {("dark", 9): 0.99, ("dark", 8): 0.01})
    >>> sure_nine.p(("dark", 7)) < 1e-4, round(point_p(sure_nine, ("dark", 7)), 4)
    (True, 0.1353)
    >>> point_p(sure_nine, ("light", 7)) == sure_nine.p(("light", 7))  # not its colour
    True
    >>> sure_five = PointReading(2, {("dark", 5): 0.99, ("dark", 4): 0.01})
    >>> point_p(sure_five, ("dark", 7)) == sure_five.p(("dark", 7))  # no tall pile read
    True
    >>> one_dark = PointReading(23, {("dark", 1): 0.99, ("dark", 2): 0.01})
    >>> round(point_p(one_dark, ("light", 1), under_die=True), 4), point_p(one_dark, ("light", 1))
    (0.134, 1e-06)
    """
    p = point.p(cell)
    colour, count = cell
    if under_die and colour is not None:
        other = next((c for c, _ in point.probs if c is not None and c != colour), None)
        if other is not None:
            p = max(p, UNDER_DIE_SHARE * point.probs.get((other, count), 0.0))
    if colour is None or count < TALL_PILE - 2:
        return p
    read_colour, read_count = point.best()
    if read_colour != colour or read_count < TALL_PILE:
        return p
    pile = sum(q for (c, k), q in point.probs.items() if c == colour and k >= TALL_PILE - 2)
    return max(p, TALL_SHARE * pile)


def sighting_of(
    reading: BoardReading,
    colours: tuple[str, str],
    bottom_player: int,
    *,
    t: float | None = None,
    frame: int | str | None = None,
    homography: Any = None,
    space: tuple[int, int] = (1000, 800),
) -> Sighting:
    """The referee's view of ``reading``. With ``homography`` (image to a board space
    of ``space`` pixels, e.g. ``CalibrationProfile.homography()``), each die's place
    on the field goes with it, in cm from the field's centre."""
    dice = tuple(
        SeenDie(
            d.value(),
            p=d.values[d.value()],
            cocked=d.cocked,
            half=d.half,
            on_checker=d.on_checker,
            at=at,
            over=d.over,
            over_raised=d.over_raised,
            values=tuple(float(d.values.get(v, 0.0)) for v in range(1, 7)),
        )
        for d, at in ((d, _place_cm(d.image_xy, homography, space)) for d in reading.dice)
        if d.values[d.value()] >= BAR_MARK_P or not _off_field(d.half, at, space)
    )
    cube = None
    if reading.cube is not None:
        face = reading.cube.value()
        cube = SeenCube(face, reading.cube.place, reading.cube.values[face])
    return Sighting(
        ReadingEvidence(reading, colours, bottom_player), dice=dice, cube=cube, t=t, frame=frame
    )


def _place_cm(
    xy: tuple[float, float] | None, homography: Any, space: tuple[int, int]
) -> tuple[float, float] | None:
    if xy is None or homography is None:
        return None
    h = np.asarray(homography, np.float64)
    x, y, w = h @ np.array([xy[0], xy[1], 1.0])
    if abs(w) < 1e-12:
        return None
    scale = FIELD_WIDTH_CM / space[0]
    return (round((x / w - space[0] / 2) * scale, 2), round((y / w - space[1] / 2) * scale, 2))


def _off_field(half: str | None, at: tuple[float, float] | None, space: tuple[int, int]) -> bool:
    """Whether a die in ``half`` at ``at`` lies off the playing field: on the bar, or
    beyond the field's edge (:func:`_on_rail`)."""
    return half == "bar" or _on_rail(at, space)


def _on_rail(at: tuple[float, float] | None, space: tuple[int, int]) -> bool:
    """Whether a place in cm from the field's centre (:func:`_place_cm`) lies beyond
    the field's edge (on the rail or frame around it).

    >>> _on_rail((-3.0, 22.0), (1000, 800)), _on_rail((-3.0, 18.0), (1000, 800))
    (True, False)
    """
    if at is None:
        return False
    half_w = FIELD_WIDTH_CM / 2
    half_h = half_w * space[1] / space[0]
    return abs(at[0]) > half_w or abs(at[1]) > half_h


#: A "die" off the field (on the bar or the rail) found where it lay over at least
#: this many seconds is a mark on the board (:class:`BoardMarks`).
MARK_SPAN_S = 15.0
#: How near (cm, city-block) a die off the field must lie to a mark, or to where such
#: a die was seen before, to be the same.
MARK_CM = 3.0
#: A place off the field not seen again for this long is forgotten (a die rolled
#: there, picked up and rolled again); one seen again after this long is timed afresh
#: (another die rolled to the same place).
MARK_GAP_S = 10.0
#: A "die" on the playing field found where it lay over at least this many seconds,
#: while dice came and went at ``FIXTURE_OTHERS`` other places or more, each seen in
#: two sightings, is no die but a thing lying there: the cube read as a die where it
#: rests (s42 clip 3703 at 306 s: a red cube taken, lying at the bar's end, read as a
#: 6 at 0.7 to 0.9 and never as the cube for the rest of the game; a third die in the
#: half, and no roll judged for 21 turns). A roll's dice are lifted before the next
#: roll [001 4.1(vi)(a)]: two rolls come and go in far less time only around a thing
#: that stays. A player thinking long over his dice shows no other dice meanwhile.
FIXTURE_SPAN_S = 20.0
FIXTURE_OTHERS = 4
#: A "die" on the playing field read under this in every sighting is a fixture sooner,
#: as a mark off the field is (``MARK_OTHERS``, ``MARK_BEFORE_S``): it lay there before
#: a roll came at other places and is still there after (s123 clip 12001 at 507.6-531
#: s: the cork beside a point's tip read as a 5 or 6 at 0.41-0.49, in the half of the
#: player on roll; found beside his 22, the roll was three dice and never judged, and
#: his play was read as 53's). A die of a roll is read surer in some view.
FIXTURE_UNSURE_P = 0.5
#: A "die" on the playing field read lying on a checker at this or over in every
#: sighting is a fixture as soon as a roll came elsewhere while it stayed, as an
#: unsure one is (``MARK_OTHERS``, ``MARK_BEFORE_S``): a checker's top taken for a die
#: (s87 clip 8401 at 28-34 s: a light checker's ring read as a 1 at 0.93, on a checker
#: at 0.99, in every other frame; seen beside player 1's 43 rolled into the wrong half,
#: the roll was three dice and not judged, and once his 61 came it was taken for a
#: die of a roll made again, a void roll recorded). A die resting on a checker makes
#: its roll invalid in every profile [000 r9], and both its dice are picked up to be
#: rolled again: a die of a roll does not stay there while another roll comes.
FIXTURE_ON_CHECKER = 0.9
#: A "die" off the field is a mark sooner, once dice came at ``MARK_OTHERS`` other
#: places (each seen in two sightings) at least ``MARK_BEFORE_S`` after it was first
#: seen, while it stayed: a thing there before a roll and still there after it (s43
#: clip 3802 at 0.3 s: a maker's logo on the rail read as a 3 at 0.5 to 0.6 from the
#: game's first view; beside the opening roll's die in that half it kept the opening
#: from being judged, and the first play, illegal, went unflagged). A roll's dice
#: come down together, and a die rolled off the field is picked up to be rolled
#: again [001 4.1(iv)]: a real die off the field sees at most the opponent's opening
#: die come after it.
MARK_OTHERS = 2
MARK_BEFORE_S = 1.0
#: A place on the playing field where a die was found, and no die in this many looks
#: in a row since, is forgotten: the die was picked up, and a die found there later
#: is another, timed afresh. The still frames after the table settles are read a few
#: at a time (4 to 6), so dice lifted leave a run of looks without them, where a
#: thing lying there and found only in some frames (a checker's ring read as a die
#: in every other frame, s87 clip 8401) is missed a look or two. Without it, one
#: player's rolls that came to rest at the same spot turn after turn, under
#: ``MARK_GAP_S`` apart, were timed as one die lying 25 s while rolls came elsewhere
#: (``FIXTURE_SPAN_S``): a fixture, and every die that landed there was left out
#: (s155 clip 15202 at 97.1 s, a 51 not seen, and at 106.9 s a cocked 22 seen by one
#: die, the roll made again missed as invalid).
LYING_GONE_LOOKS = 4


class BoardMarks:
    """Marks on the bar or the rail that the die finder takes for dice: a maker's logo
    read 0.96 sure as a 6 in some frames, as nothing in others (s18 clip 1301: a roll
    judged in the wrong half with it, whole turns unseen as the view flickered).

    A die off the playing field lies there seconds at most: one that rolled there is
    picked up and rolled again [001 4.1(iv)]. A place off the field where a die is
    found, seen again and again (never ``MARK_GAP_S`` seconds apart) over
    ``MARK_SPAN_S`` seconds, is a mark; from then on dice found there are left out of
    every sighting (:meth:`clean`). So is one that stayed while dice came at
    ``MARK_OTHERS`` other places after it (``MARK_BEFORE_S``): a roll came and it is
    still there.

    >>> from gammoneye.engine.referee import ExactCheckers
    >>> from gammoneye.engine.position import Position
    >>> marks, board = BoardMarks(), ExactCheckers(Position.initial())
    >>> logo = SeenDie(6, p=0.96, half="bar", at=(-0.8, 22.2))
    >>> roll = SeenDie(2, half="right", at=(15.0, -8.0))
    >>> [len(marks.clean(Sighting(board, (logo,), t=t)).dice) for t in (0.0, 9.0, 14.0, 16.0)]
    [1, 1, 1, 0]
    >>> [d.value for d in marks.clean(Sighting(board, (roll, logo), t=20.0)).dice]
    [2]

    On the playing field a die may lie long (a player thinking over his roll), so a
    place there is a thing, not a die, only where dice came and went elsewhere
    meanwhile (``FIXTURE_SPAN_S``, ``FIXTURE_OTHERS``): a fixture; or where it was
    never read surely (``FIXTURE_UNSURE_P``), or always read lying on a checker
    (``FIXTURE_ON_CHECKER``), and a roll came elsewhere while it stayed
    (``MARK_OTHERS``, ``MARK_BEFORE_S``). It is left out while it stays and forgotten
    once not seen for ``MARK_GAP_S``, or in ``LYING_GONE_LOOKS`` looks in a row (the
    cube taken up again): dice rolled there later count.
    """

    def __init__(self, marks: list[tuple[float, float]] | None = None) -> None:
        #: The marks found: places in cm from the field's centre.
        self.marks: list[tuple[float, float]] = list(marks or [])
        #: Places off the field where a die was found (:class:`_Lying`).
        self._seen: list[_Lying] = []
        #: Places on the field where a die was found (:class:`_Lying`).
        self._lying: list[_Lying] = []

    def clean(self, s: Sighting, space: tuple[int, int] = (1000, 800)) -> Sighting:
        """``s`` less the dice lying on a mark or a fixture; notes the other dice."""
        keep, on_field = [], []
        places = [d.at for d in s.dice if d.at is not None]
        for d in s.dice:
            if d.at is not None and _off_field(d.half, d.at, space):
                if s.t is not None and not self._on_mark(d.at):
                    self._note(d.at, s.t, places)
                if self._on_mark(d.at):
                    continue
            elif d.at is not None:
                on_field.append((d.at, d.p, d.on_checker))
            keep.append(d)
        if s.t is not None:
            fixed = self._note_lying(on_field, s.t)
            keep = [
                d for d in keep if d.at is None or not any(_city(d.at, f) <= MARK_CM for f in fixed)
            ]
        return s if len(keep) == len(s.dice) else replace(s, dice=tuple(keep))

    @property
    def fixtures(self) -> list[tuple[float, float]]:
        """The places on the field taken for things lying there, not dice."""
        return [(p.x, p.y) for p in self._lying if p.fixed]

    def _note_lying(
        self, dice: list[tuple[tuple[float, float], float, float]], t: float
    ) -> list[tuple[float, float]]:
        """Notes the dice seen on the field at ``t`` (their places, ``p`` and
        ``on_checker``); returns the fixtures among them."""
        self._lying = [p for p in self._lying if t - p.last <= MARK_GAP_S]
        places = [at for at, _, _ in dice]
        seen = [_Lying.at_place(self._lying, at, t) for at in places]
        for p in self._lying:
            p.missed = 0 if any(p is q for q in seen) else p.missed + 1
        self._lying = [p for p in self._lying if p.missed < LYING_GONE_LOOKS]
        for p, (_, sure, on_checker) in zip(seen, dice, strict=True):
            p.surest = max(p.surest, sure)
            p.least_on_checker = min(p.least_on_checker, on_checker)
            p.beside(places, t)
        for p in seen:
            if p.fixed:
                continue
            long = p.last - p.first >= FIXTURE_SPAN_S and p.others_seen() >= FIXTURE_OTHERS
            # unsure, or on a checker, in every sighting, and a roll came since
            like_no_die = p.surest < FIXTURE_UNSURE_P or p.least_on_checker >= FIXTURE_ON_CHECKER
            came = p.others_seen(since=p.first + MARK_BEFORE_S) >= MARK_OTHERS
            p.fixed = long or (like_no_die and came)
        return [(p.x, p.y) for p in seen if p.fixed]

    def _on_mark(self, at: tuple[float, float]) -> bool:
        return any(_city(at, m) <= MARK_CM for m in self.marks)

    def _note(self, at: tuple[float, float], t: float, places: list[tuple[float, float]]) -> None:
        """Notes a die off the field at ``at`` seen at ``t`` beside dice at ``places``;
        learns it for a mark where it lay long, or while a roll came elsewhere."""
        self._seen = [p for p in self._seen if t - p.last <= MARK_GAP_S]
        p = _Lying.at_place(self._seen, at, t)
        p.beside(places, t)
        if (
            p.last - p.first >= MARK_SPAN_S
            or p.others_seen(since=p.first + MARK_BEFORE_S) >= MARK_OTHERS
        ):
            self.marks.append((round(p.x, 2), round(p.y, 2)))
            self._seen.remove(p)


@dataclass
class _Lying:
    """A place where a die was found: when first and last, the other places where
    dice were found meanwhile ([x, y, sightings, first seen]), whether a fixture."""

    x: float
    y: float
    first: float
    last: float
    others: list[list[float]] = field(default_factory=list)
    fixed: bool = False
    #: the surest read of a die found here (on the field only)
    surest: float = 0.0
    #: the least ``on_checker`` of a die found here (on the field only)
    least_on_checker: float = 1.0
    #: looks in a row since without a die here (on the field only, ``LYING_GONE_LOOKS``)
    missed: int = 0

    @staticmethod
    def at_place(known: list[_Lying], at: tuple[float, float], t: float) -> _Lying:
        """The place of ``known`` within ``MARK_CM`` of ``at``, seen now at ``t``; else
        a new one, added to ``known``."""
        for p in known:
            if _city(at, (p.x, p.y)) <= MARK_CM:
                p.last = t
                return p
        known.append(_Lying(at[0], at[1], t, t))
        return known[-1]

    def beside(self, places: list[tuple[float, float]], t: float) -> None:
        """Notes the dice found at ``t`` at ``places`` other than this one."""
        for at in places:
            if _city(at, (self.x, self.y)) > MARK_CM:
                self.other(at, t)

    def other(self, at: tuple[float, float], t: float) -> None:
        for o in self.others:
            if _city(at, (o[0], o[1])) <= MARK_CM:
                o[2] += 1
                return
        self.others.append([at[0], at[1], 1.0, t])

    def others_seen(self, since: float | None = None) -> int:
        """Other places where a die was found in two sightings or more (first found
        at ``since`` or later)."""
        return sum(1 for o in self.others if o[2] >= 2 and (since is None or o[3] >= since))


def _city(a: tuple[float, float], b: tuple[float, float]) -> float:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


#: How far (cm) a die may seem to move between frames and still show the same view
#: to the stabiliser (:class:`Spot`): a die's place as read jitters by about a cm.
KEY_PLACE_CM = 2.0


class Spot:
    """A die's place (cm) in a stabiliser key: equal to any place within
    ``KEY_PLACE_CM`` of it (city-block), so a die read half a cm over from frame to
    frame does not keep a view from settling (s18 clip 1301: a place rounded to the
    cm flipped between -12 and -13 every other frame and a whole turn went unseen).
    All spots hash alike: keys that differ only by where their dice lie hash alike.

    >>> Spot(-12.6, 5.1) == Spot(-12.4, 5.0), Spot(-12.6, 5.1) == Spot(-9.0, 5.0)
    (True, False)
    >>> hash((3, Spot(1.0, 2.0))) == hash((3, Spot(20.0, 2.0)))
    True
    """

    __slots__ = ("x", "y")

    def __init__(self, x: float, y: float) -> None:
        self.x, self.y = float(x), float(y)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Spot):
            return NotImplemented
        return _city((self.x, self.y), (other.x, other.y)) <= KEY_PLACE_CM

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return f"Spot({self.x:.1f}, {self.y:.1f})"


def still_key(key: Hashable) -> Hashable:
    """What a sighting of stabiliser key ``key`` (:func:`sighting_key`) shows but its
    dice: the checkers' best reading and the cube. Frames of one still table agree on
    it while small dice, read unsure, flicker in number and even in being found at
    all (:func:`fused_dice`)."""
    cells, _, cube = cast(tuple[Any, Any, Any], key)
    return (cells, cube)


def dice_read_otherwise(before: Sequence[SeenDie], now: Sequence[SeenDie]) -> bool:
    """Whether ``now`` are the dice ``before`` (as many, each lying where one lay: in
    its half, within ``KEY_PLACE_CM``) and any reads as another number.

    >>> a = SeenDie(5, 0.4, half="right", at=(-26.0, 15.0))
    >>> b = SeenDie(3, 0.3, half="right", at=(-21.0, 16.0))
    >>> dice_read_otherwise((a, b), (a, replace(b, value=2, at=(-21.5, 16.0))))
    True
    >>> dice_read_otherwise((a, b), (a, replace(b, at=(-12.0, 16.0), value=2)))
    False
    >>> dice_read_otherwise((a, b), (a, b))
    False
    """
    if len(before) != len(now) or any(d.at is None for d in (*before, *now)):
        return False
    left = list(before)
    changed = False
    for d in now:
        near = [
            b
            for b in left
            if b.half == d.half
            and b.at is not None
            and d.at is not None
            and _city(b.at, d.at) <= KEY_PLACE_CM
        ]
        if len(near) != 1:
            return False
        left.remove(near[0])
        changed |= near[0].value != d.value
    return changed


def fused_dice(views: list[Sighting], *, share: float = 0.5) -> Sighting | None:
    """The last of ``views`` — views of one still table, alike by :func:`still_key`
    — with its dice read from all of them, or ``None`` where none is left. A die is
    followed from view to view by its place (within ``KEY_PLACE_CM``, in the same
    half); one found in ``share`` of the views or more is kept, its number read as
    the mean of the reader's probabilities of each face over the views that found it
    (its cocked and on-a-checker probabilities and its place too). A die read 6,
    then 2, then 6, then unsure is a 6 read less than surely, and the referee weighs
    it so; a die found in one view of four is left out. Dice whose place is unknown
    are not followed: they are left out.

    >>> from gammoneye.engine.referee import ExactCheckers
    >>> board = ExactCheckers(Position.initial())
    >>> def die(v, p, x=-9.0): return SeenDie(v, p, half="left", at=(x, 10.0))
    >>> views = [Sighting(board, (die(6, 0.6), die(3, 0.5, -20.0))),
    ...          Sighting(board, (die(2, 0.55), die(1, 0.9, 9.0))),
    ...          Sighting(board, (die(6, 0.7, -9.5), die(3, 0.4, -20.0))),
    ...          Sighting(board, (die(4, 0.4),))]
    >>> [(d.value, round(d.p, 2), d.half, d.at) for d in fused_dice(views).dice]
    [(6, 0.38, 'left', (-9.125, 10.0)), (3, 0.45, 'left', (-20.0, 10.0))]
    """
    tracks: list[list[SeenDie]] = []
    for view in views:
        taken: set[int] = set()
        for d in view.dice:
            if d.at is None:
                continue
            for k, track in enumerate(tracks):
                was = track[-1]  # followed dice all have a place
                if k in taken or was.half != d.half:
                    continue
                if _city(cast(tuple[float, float], was.at), d.at) <= KEY_PLACE_CM:
                    track.append(d)
                    taken.add(k)
                    break
            else:
                tracks.append([d])
                taken.add(len(tracks) - 1)
    dice = []
    for track in tracks:
        if len(track) < share * len(views):
            continue
        faces = np.mean([d.faces() for d in track], axis=0)
        x, y = np.mean([d.at for d in track if d.at is not None], axis=0)
        dice.append(
            replace(
                track[-1],
                value=int(np.argmax(faces)) + 1,
                p=float(np.max(faces)),
                values=tuple(float(f) for f in faces),
                cocked=float(np.mean([d.cocked for d in track])),
                on_checker=float(np.mean([d.on_checker for d in track])),
                at=(float(x), float(y)),
            )
        )
    return replace(views[-1], dice=tuple(dice)) if dice else None


def sighting_key(s: Sighting) -> Hashable:
    """What a sighting shows, for the stabiliser: the checkers' best reading, the
    dice (value, half, cocked, on a checker, where when known: a :class:`Spot`) and
    the cube."""
    ev = s.checkers
    if isinstance(ev, ReadingEvidence):
        cells: Hashable = (
            tuple(sorted(ev.reading.best_layout().items())),
            tuple(sorted(ev.reading.bar.items())),
        )
    else:
        cells = ev.guess(0)
    dice = tuple(
        sorted(
            (
                (
                    d.value if d.p >= SURE_VALUE_P else 0,
                    d.half or "",
                    d.cocked >= 0.5,
                    d.on_checker >= 0.5,
                    None if d.at is None else Spot(*d.at),
                )
                for d in s.dice
            ),
            key=lambda k: (k[:4], (0.0, 0.0) if k[4] is None else (k[4].x, k[4].y)),
        )
    )
    # the cube by what the referee makes of it: a face misread in the middle is 1, and
    # a face read unsurely (under SURE_CUBE_FACE, which the referee does not act on)
    # is 0, as a die's unsure value is: the cube reader's face flickers from frame to
    # frame (2, 16, 32 on three still frames of s51 4602 at 191 s) and must not keep
    # the view from settling (a flag raised 0.2 s later)
    cube = None
    if s.cube is not None:
        sure = s.cube.place == "centre" or s.cube.p >= SURE_CUBE_FACE
        cube = (s.cube.place, s.cube.level if sure else 0)
    return (cells, dice, cube)
