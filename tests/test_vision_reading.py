"""BoardReading: probabilities checked and normalised on the way in, candidates scored
by likelihood, the JSON shape of ``vision read --json``."""

from __future__ import annotations

import math
from typing import Any

import pytest

from gammoneye.engine.moves import legal_positions
from gammoneye.engine.position import Position
from gammoneye.vision.reading import (
    BoardReading,
    CubeReading,
    DieReading,
    PointReading,
    ReadingError,
    layout_of_counts,
)

from boards import side

COLOURS = ("dark", "light")


@pytest.mark.parametrize(
    ("make", "error"),
    [
        (lambda: PointReading(0, {(None, 0): 1.0}), "not 1..24"),
        (lambda: PointReading(3, {("dark", 0): 1.0}), "is no cell"),
        (lambda: PointReading(3, {(None, 2): 1.0}), "is no cell"),
        (lambda: PointReading(3, {("dark", 16): 1.0}), "is no cell"),
        (lambda: PointReading(3, {("dark", 2): -0.1, (None, 0): 1.0}), "not a number >= 0"),
        (lambda: PointReading(3, {("dark", 2): float("nan")}), "not a number >= 0"),
        (lambda: PointReading(3, {("dark", 2): 0.0}), "add up to 0"),
        (lambda: DieReading({7: 1.0}, 0.0, "right"), "1..6"),
        (lambda: DieReading({3: 1.0}, 1.5, "right"), "not in 0..1"),
        (lambda: DieReading({3: 1.0}, 0.0, "up"), "die half"),
        (lambda: CubeReading({3: 1.0}, "centre"), "cube faces"),
        (lambda: CubeReading({2: 1.0}, "floor"), "cube place"),
        (lambda: BoardReading(("dark", "dark"), ()), "two checker colours"),
        (lambda: BoardReading(COLOURS, ()), "24 points"),
        (lambda: BoardReading.certain({4: ("red", 2)}), "not one of"),
        (lambda: BoardReading.certain({}, bar={"dark": 16}), "no count"),
    ],
)
def test_bad_readings_are_refused(make, error: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ReadingError, match=error):
        make()


def test_probabilities_are_normalised() -> None:
    p = PointReading(8, {("dark", 3): 3.0, ("dark", 2): 1.0})
    assert p.probs[("dark", 3)] == pytest.approx(0.75)
    assert p.best() == ("dark", 3)
    assert p.p((None, 0)) > 0  # never impossible


def test_the_legal_candidate_that_explains_the_picture_wins() -> None:
    # after 31 from the opening, the camera is unsure whether 5 holds 2 or 3 checkers
    before = Position.initial(turn=0)
    seen = layout_of_counts(legal_positions(before, (3, 1))[0].boards, COLOURS)
    truth = dict(seen)
    points = []
    for n in range(1, 25):
        cell = truth.get(n, (None, 0))
        probs = {cell: 0.9}
        if cell[1]:
            probs[(cell[0], cell[1] + 1)] = 0.1
        else:
            probs[("dark", 1)] = 0.1
        points.append(PointReading(n, probs))
    reading = BoardReading(COLOURS, tuple(points))
    candidates = legal_positions(before, (3, 1))
    scored = sorted(
        candidates, key=lambda p: reading.log_likelihood(layout_of_counts(p.boards, COLOURS))
    )
    assert layout_of_counts(scored[-1].boards, COLOURS) == truth
    assert math.isfinite(reading.log_likelihood({}))


def test_json_shape_of_vision_read() -> None:
    reading = BoardReading.certain(
        layout_of_counts(Position.initial().boards, COLOURS),
        bar={"dark": 1},
        off={"light": 2},
        dice=(DieReading({5: 0.8, 6: 0.2}, 0.1, "right", image_xy=(10.0, 20.0)),),
        cube=CubeReading({64: 1.0}, "centre"),
        corners_px=((0.0, 100.0), (200.0, 100.0), (200.0, 0.0), (0.0, 0.0)),
    )
    data = reading.to_json()
    assert set(data) == {"board", "points", "bar", "off", "dice", "cube"}
    assert len(data["points"]) == 24 and data["points"][5] == {
        "number": 6,
        "colour": "dark",
        "count": 5,
        "p": 1.0,
    }
    assert data["bar"] == {"dark": 1, "light": 0} and data["off"] == {"dark": 0, "light": 2}
    assert data["dice"] == [
        {
            "value": 5,
            "p": 0.8,
            "cocked": False,
            "half": "right",
            "on_checker": False,
            "image_xy": [10.0, 20.0],
        }
    ]
    assert data["cube"] == {"value": 64, "place": "centre", "image_xy": None}
    assert len(data["board"]["corners_px"]) == 4


def test_a_sighting_places_each_die_on_the_field_in_cm() -> None:
    """With the image-to-board homography, a die's place goes to the referee in cm from
    the field's centre (how it tells a re-roll from dice left lying)."""
    import numpy as np

    from gammoneye.vision.sighting import FIELD_WIDTH_CM, sighting_of

    points = tuple(PointReading(n, {(None, 0): 1.0}) for n in range(1, 25))
    dice = (
        DieReading({5: 1.0}, cocked=0.0, half="right", image_xy=(750.0, 400.0)),
        DieReading({2: 1.0}, cocked=0.0, half="left", image_xy=None),
    )
    reading = BoardReading(COLOURS, points, dice=dice)
    double = np.diag([2.0, 2.0, 1.0])  # image pixels are half the board space's
    seen = sighting_of(reading, COLOURS, 0, homography=double).dice
    # (1500, 800) in a 1000 x 800 space: 1000 px right of centre, 400 down
    assert seen[0].at == (1000 * FIELD_WIDTH_CM / 1000, 400 * FIELD_WIDTH_CM / 1000)
    assert seen[1].at is None  # no place read, none said
    assert sighting_of(reading, COLOURS, 0).dice[0].at is None


def test_a_mark_on_the_bar_read_unsure_as_a_die_is_no_die_for_the_referee() -> None:
    """A maker's logo printed on the bar is found as a die, read unsure, in some frames
    (s16 clip 1101): left out of the sighting, or no view is ever without dice. A die
    on the bar read surely, and dice in a half however unsure, still go."""
    import numpy as np

    from gammoneye.vision.sighting import BAR_MARK_P, sighting_of

    points = tuple(PointReading(n, {(None, 0): 1.0}) for n in range(1, 25))
    unsure = {3: 0.36, 1: 0.34, 2: 0.3}
    assert max(unsure.values()) < BAR_MARK_P
    dice = (
        DieReading(unsure, cocked=0.0, half="bar"),
        DieReading({5: 0.9, 6: 0.1}, cocked=0.0, half="bar"),
        DieReading(unsure, cocked=0.0, half="left"),
    )
    seen = sighting_of(BoardReading(COLOURS, points, dice=dice), COLOURS, 0).dice
    assert [(d.value, d.half) for d in seen] == [(5, "bar"), (3, "left")]
    # a logo on the rail beyond the field's far edge (s18 clip 1301), in the left half
    # by its place along the board: left out when read unsure, kept when read surely
    # or within the field (the board space is 1000 x 800, the picture's pixels)
    beyond = (300.0, 860.0)  # 60 px beyond the field's edge
    within = (300.0, 740.0)
    dice = (
        DieReading(unsure, cocked=0.0, half="left", image_xy=beyond),
        DieReading({4: 0.95, 6: 0.05}, cocked=0.0, half="left", image_xy=beyond),
        DieReading(unsure, cocked=0.0, half="left", image_xy=within),
    )
    reading = BoardReading(COLOURS, points, dice=dice)
    seen = sighting_of(reading, COLOURS, 0, homography=np.eye(3)).dice
    assert [(d.value, d.at is not None) for d in seen] == [(4, True), (3, True)]


def test_a_die_is_placed_over_the_point_whose_strip_it_stands_in() -> None:
    from gammoneye.calibration.boardspace import BoardSpace, Orientation
    from gammoneye.vision.read import CHECKER, BoardReader
    from gammoneye.vision.sighting import sighting_of

    space, orient = BoardSpace(), Orientation(0, home_right=True)
    along = CHECKER * space.point_width
    for n in (1, 10, 12, 13, 24):
        x, y, d = space.point_base(n, orient)
        over = BoardReader._over_point(space, orient, (x + 0.1 * along, y + d * 2.5 * along))
        assert over is not None and over[0] == n
        assert abs(over[1] - 2.5) < 1e-3 and abs(over[2] - (0.1 - 0.5)) < 1e-3
    # on the bar, more than half a checker's width from every strip: over none
    assert BoardReader._over_point(space, orient, (space.width / 2, space.height / 2)) is None
    # a mirrored board numbers its points the other way round
    x, y, d = space.point_base(1, Orientation(0, home_right=False))
    spot = (x, y + d * 0.5 * along)
    assert BoardReader._over_point(space, Orientation(0, home_right=False), spot)[0] == 1
    # and the referee gets it
    points = tuple(PointReading(n, {(None, 0): 1.0}) for n in range(1, 25))
    die = DieReading({5: 1.0}, cocked=0.0, half="right", over=(3, 0.5, -0.3))
    reading = BoardReading(COLOURS, points, dice=(die,))
    assert sighting_of(reading, COLOURS, 0).dice[0].over == (3, 0.5, -0.3)


def test_a_die_read_a_little_over_from_frame_to_frame_still_lets_the_view_settle() -> None:
    """A die's place as read jitters by about a cm from frame to frame; where it lies
    about a whole cm's edge, a key rounded to the cm changed every frame and the
    stabiliser never passed the view (s18 clip 1301: a whole turn went unseen). Places
    within ``KEY_PLACE_CM`` are one view; a die elsewhere is another."""
    from gammoneye.engine.position import Position
    from gammoneye.engine.referee import ExactCheckers, SeenDie, Sighting
    from gammoneye.vision.sighting import sighting_key
    from gammoneye.vision.stabilise import Stabiliser

    board = ExactCheckers(Position.initial())

    def key(*places: tuple[float, float]) -> object:
        dice = tuple(SeenDie(v, half="left", at=at) for v, at in zip((2, 3), places, strict=True))
        return sighting_key(Sighting(board, dice))

    frames = [key((-12.4, 5.1), (-18.6, -11.0)), key((-12.6, 5.0), (-18.4, -11.2))] * 2
    stab: Stabiliser[int] = Stabiliser(agree=2, window=3)
    assert [stab.push(k, n) for n, k in enumerate(frames)] == [None, 1, None, None]
    # the same numbers rolled again elsewhere in that half: a new view
    assert key((-12.4, 5.1), (-18.6, -11.0)) != key((-6.0, 5.1), (-18.6, -11.0))
    assert stab.push(key((-6.0, 5.1), (-18.6, -11.0)), 9) is None
    assert stab.push(key((-6.2, 5.0), (-18.5, -11.1)), 10) == 10


def test_a_cube_face_read_unsurely_does_not_keep_the_view_from_settling() -> None:
    """The cube reader's face flickers on still frames (s51 4602 at 191 s: 2, 16, 32);
    read under SURE_CUBE_FACE, which the referee does not act on, it is left out of the
    view's key, as an unsure die's value is; a face read surely, or a cube moved, is
    another view."""
    from gammoneye.engine.position import Position
    from gammoneye.engine.referee import SURE_CUBE_FACE, ExactCheckers, SeenCube, Sighting
    from gammoneye.vision.sighting import sighting_key
    from gammoneye.vision.stabilise import Stabiliser

    board = ExactCheckers(Position.initial())

    def key(value: int, p: float, place: str = "top") -> object:
        return sighting_key(Sighting(board, (), cube=SeenCube(value, place, p=p)))

    unsure = SURE_CUBE_FACE - 0.2
    frames = [key(2, unsure), key(16, unsure), key(32, unsure)]
    stab: Stabiliser[int] = Stabiliser(agree=2, window=3)
    assert [stab.push(k, n) for n, k in enumerate(frames)] == [None, 1, None]
    assert key(2, SURE_CUBE_FACE) != key(4, SURE_CUBE_FACE)  # a turn read surely
    assert key(2, SURE_CUBE_FACE) != key(2, unsure)
    assert key(2, unsure) != key(2, unsure, place="bottom")  # the cube moved
    assert key(64, 0.1, place="centre") == key(2, 0.1, place="centre")  # 1 in the middle


def test_a_mark_found_as_a_die_off_the_field_for_long_is_left_out_a_die_rolled_there_not() -> None:
    """A logo on the rail read surely as a die in some frames (s18 clip 1301) is found
    where it lay over ``MARK_SPAN_S`` seconds, and left out from then on; a die
    rolled onto the bar and picked up within seconds is no mark, nor is anything in
    the field however long it lies. The eyes' snapshot keeps the marks (resume)."""
    from gammoneye.engine.position import Position
    from gammoneye.engine.referee import ExactCheckers, SeenDie, Sighting
    from gammoneye.service.referee import CameraEyes
    from gammoneye.vision.sighting import MARK_SPAN_S, BoardMarks

    board = ExactCheckers(Position.initial())
    marks = BoardMarks()

    def seen(t: float, *dice: SeenDie) -> list[int]:
        return [d.value for d in marks.clean(Sighting(board, dice, t=t)).dice]

    logo = SeenDie(6, p=0.96, half="left", at=(-3.0, 22.0))  # on the rail
    on_bar = SeenDie(3, half="bar", at=(0.5, 5.0))  # a die rolled onto the bar
    lying = SeenDie(4, half="right", at=(12.0, 3.0))  # a die in the field
    for t in range(0, 8):
        assert seen(float(t), logo, on_bar, lying) == [6, 3, 4]
    for t in range(8, int(MARK_SPAN_S)):
        assert seen(float(t), logo, lying) == [6, 4]
    assert seen(MARK_SPAN_S, logo, lying) == [4]  # the logo is a mark now
    assert seen(MARK_SPAN_S + 3, logo, lying) == [4]
    assert seen(MARK_SPAN_S + 4, SeenDie(2, half="left", at=(-2.0, 21.0)), lying) == [4]
    # rolled onto the same place again: seen 7 s, then again after 13 s, not a mark
    assert seen(MARK_SPAN_S + 5, on_bar, lying) == [3, 4]
    assert seen(MARK_SPAN_S + 6, on_bar, lying) == [3, 4]
    assert marks.marks and all(abs(y) > 19 for _, y in marks.marks)

    eyes = CameraEyes(0, reader=object())
    eyes.marks = marks
    again = CameraEyes(0, reader=object())
    again.restore(eyes.snapshot())
    assert again.marks.marks == marks.marks


def test_a_mark_off_the_field_still_there_after_a_roll_came_is_left_out_at_once() -> None:
    """s43 clip 3802 at 0.3 s: a logo on the rail read as a 3 at 0.5 to 0.6 from the
    game's first view kept the opening roll, one die in each half 2.4 s later, from
    being judged (a third die). A place off the field that stays while dice come at
    ``MARK_OTHERS`` other places after it is a mark; a die rolled off the field with
    its partner in the field, or before the opponent's opening die, is not."""
    from gammoneye.engine.position import Position
    from gammoneye.engine.referee import ExactCheckers, SeenDie, Sighting
    from gammoneye.vision.sighting import MARK_BEFORE_S, MARK_OTHERS, BoardMarks

    assert MARK_OTHERS == 2
    board = ExactCheckers(Position.initial())
    logo = SeenDie(3, p=0.55, half="right", at=(9.0, -20.5))
    six = SeenDie(6, half="left", at=(-20.0, 9.0))
    two = SeenDie(2, half="right", at=(7.0, -11.0))
    marks = BoardMarks()

    def seen(t: float, *dice: SeenDie) -> list[int]:
        return [d.value for d in marks.clean(Sighting(board, dice, t=t)).dice]

    assert seen(0.3, logo) == [3]
    assert seen(1.0, logo) == [3]
    assert seen(2.7, logo, six) == [3, 6]
    assert seen(4.2, logo, six, two) == [3, 6, 2]  # the 2 seen once
    assert seen(4.8, logo, six, two) == [6, 2]  # both seen twice, the logo stayed
    assert marks.marks == [(9.0, -20.5)]

    # a roll with one die on the rail, its partner in the field: both dice, however
    # long they lie (a player slow to pick them up)
    rolled = BoardMarks()
    on_rail = SeenDie(5, half="right", at=(12.0, 20.5))
    partner = SeenDie(1, half="right", at=(15.0, 4.0))
    for k in range(8):
        out = rolled.clean(Sighting(board, (on_rail, partner), t=1.5 * k)).dice
        assert [d.value for d in out] == [5, 1]
    # an opening die on the rail, the opponent's die coming after it: one other place
    opening = BoardMarks()
    first = SeenDie(4, half="left", at=(-12.0, 20.5))
    for k in range(6):
        dice = (first,) if k < 2 else (first, six)
        out = opening.clean(Sighting(board, dice, t=MARK_BEFORE_S * 2 * k)).dice
        assert 4 in [d.value for d in out]
    assert not rolled.marks and not opening.marks


def test_a_thing_lying_in_the_field_while_rolls_come_and_go_is_no_die() -> None:
    """s42 clip 3703 at 306 s: the cube, taken and laid at the bar's end, read as a 6
    in nearly every view for the rest of the game and never as the cube: a third die
    in the half, and no roll judged for 21 turns. A place in the field where a die
    lies over ``FIXTURE_SPAN_S`` while dice come and go at ``FIXTURE_OTHERS`` other
    places is a fixture, left out while it stays and forgotten once gone; a player
    thinking long over his roll (no other dice meanwhile) keeps his dice."""
    from gammoneye.engine.position import Position
    from gammoneye.engine.referee import ExactCheckers, SeenDie, Sighting
    from gammoneye.vision.sighting import FIXTURE_SPAN_S, MARK_GAP_S, BoardMarks

    board = ExactCheckers(Position.initial())
    marks = BoardMarks()

    def seen(t: float, *dice: SeenDie) -> list[int]:
        return [d.value for d in marks.clean(Sighting(board, dice, t=t)).dice]

    cube = SeenDie(6, p=0.8, half="left", at=(-3.0, 18.0))
    rolls = [
        (
            SeenDie(5, half="right", at=(14.0 + k, -6.0)),
            SeenDie(3, half="right", at=(21.0, 4.0 - 2 * k)),
        )
        if k % 2
        else (
            SeenDie(1, half="left", at=(-12.0 - k, 5.0)),
            SeenDie(2, half="left", at=(-20.0, -8.0 + k)),
        )
        for k in range(6)
    ]
    t, kept = 0.0, []
    for roll in rolls:  # each roll seen in three views, four seconds apart
        for _ in range(3):
            kept.append(seen(t, cube, *roll))
            t += 1.5
        t += 1.0
    assert t >= FIXTURE_SPAN_S
    assert all(6 in k for k in kept[:9])  # at first it counts as a die
    assert kept[-1] == [d.value for d in rolls[-1]]  # then it is a fixture
    assert marks.fixtures and abs(marks.fixtures[0][1] - 18.0) < 1.0
    assert seen(t, cube) == []
    # taken away: forgotten, and a die rolled there later counts
    assert seen(t + MARK_GAP_S + 1.0, SeenDie(4, half="left", at=(-3.5, 17.5))) == [4]
    assert not marks.fixtures

    # a player thinking long over his dice, nothing else coming and going: his dice
    thinker = BoardMarks()
    his = (SeenDie(6, half="left", at=(-15.0, 2.0)), SeenDie(4, half="left", at=(-8.0, -7.0)))
    for k in range(40):
        out = thinker.clean(Sighting(board, his, t=1.5 * k)).dice
        assert [d.value for d in out] == [6, 4]


def test_rolls_that_come_to_rest_at_one_spot_turn_after_turn_are_dice_not_a_fixture() -> None:
    """s155 clip 15202 at 72-107 s: player 0's rolls came to rest at the same spot turn
    after turn (a 65, a 44, a 51, a cocked 22), each lifted before his next roll, the
    opponent rolling beside them before they were (a roll that stands under ``wbf``),
    the spot's looks never ``MARK_GAP_S`` apart. Timed as one die lying there 25 s
    while rolls came elsewhere, the spot became a fixture: the 51 was not seen and the
    cocked 22, seen by one die, was never a roll. Dice gone from ``LYING_GONE_LOOKS``
    looks in a row were picked up: a die there later is another. A thing found there
    only in some looks (every other one) is still a fixture."""
    from gammoneye.engine.position import Position
    from gammoneye.engine.referee import ExactCheckers, SeenDie, Sighting
    from gammoneye.vision.sighting import FIXTURE_SPAN_S, BoardMarks

    board = ExactCheckers(Position.initial())

    def look(marks: BoardMarks, t: float, dice: list[SeenDie]) -> list[int]:
        return [d.value for d in marks.clean(Sighting(board, tuple(dice), t=t)).dice]

    def turns(marks: BoardMarks, flicker: bool) -> list[list[int]]:
        """Player 0's dice at one spot, player 1's rolled beside them, then player 1's
        alone, turn after turn; each view read in a burst of five looks 0.1 s apart
        (as the still frames of a settled table are); with ``flicker``, a thing at
        player 0's spot found in every other look of player 1's views alone."""
        t, kept = 0.0, []
        mine = (SeenDie(5, half="left", at=(-8.0, 8.0)), SeenDie(2, half="left", at=(-16.0, 2.0)))
        for k in range(4):
            his = (
                SeenDie(3, half="right", at=(18.0 - 4 * k, -3.5)),
                SeenDie(4, half="right", at=(13.0 + 4 * k, -13.0)),
            )
            for dice in (mine, mine + his, his):
                for i in range(5):
                    thing = flicker and dice == his and i % 2 == 0
                    extra = (SeenDie(6, p=0.8, half="left", at=(-8.0, 8.0)),) if thing else ()
                    kept.append(look(marks, t, [*dice, *extra]))
                    t += 0.1
                t += 2.5
        assert t >= FIXTURE_SPAN_S
        return kept

    rolled = BoardMarks()
    kept = turns(rolled, flicker=False)
    assert [len(k) for k in kept] == ([2] * 5 + [4] * 5 + [2] * 5) * 4, kept  # every die
    assert not rolled.fixtures

    thing = BoardMarks()
    kept = turns(thing, flicker=True)
    assert thing.fixtures and abs(thing.fixtures[0][1] - 8.0) < 1.0
    assert kept[-1] == [3, 4]  # the thing left out at last


def test_a_thing_never_read_surely_that_stays_while_a_roll_comes_is_no_die() -> None:
    """s123 clip 12001 at 507.6 s: the cork beside a point's tip read as a 5 or a 6 at
    0.41-0.49, first beside player 1's 44, then beside player 0's 22 in his half: three
    dice there, the roll never judged, and his 14/6 read as 53's. A place in the field
    never read at ``FIXTURE_UNSURE_P`` or over that stays while dice come at two other
    places after it is a fixture at once. Read surely once, it is a die (as a die left
    lying with the opponent's roll beside it); unsure with no new roll, it is a die."""
    from gammoneye.engine.position import Position
    from gammoneye.engine.referee import ExactCheckers, SeenDie, Sighting
    from gammoneye.vision.sighting import FIXTURE_UNSURE_P, BoardMarks

    board = ExactCheckers(Position.initial())
    theirs = (SeenDie(4, half="left", at=(-8.0, 18.0)), SeenDie(4, half="left", at=(-6.0, -8.0)))
    his = (
        SeenDie(2, half="right", at=(9.0, 10.0)),
        SeenDie(2, p=0.8, half="right", at=(12.5, 7.0)),
    )

    def views(phantom_p: list[float]) -> list[list[int]]:
        marks, out = BoardMarks(), []
        times = [0.0, 0.1, 0.2, 2.2, 2.3, 2.4, 6.5]
        for t, p in zip(times, phantom_p, strict=True):
            phantom = SeenDie(5, p=p, half="right", at=(13.6, -7.2))
            roll = theirs if t < 1.0 else his
            out.append([d.value for d in marks.clean(Sighting(board, (*roll, phantom), t=t)).dice])
        return out

    unsure = [0.48, 0.46, 0.49, 0.44, 0.44, 0.43, 0.45]
    assert max(unsure) < FIXTURE_UNSURE_P
    seen = views(unsure)
    assert seen[:4] == [[4, 4, 5]] * 3 + [[2, 2, 5]]  # the 22's first view: not yet known
    assert seen[4:] == [[2, 2]] * 3  # then a fixture: the roll is the two
    once_sure = [0.48, 0.9, 0.49, 0.44, 0.44, 0.43, 0.45]
    assert views(once_sure)[4:] == [[2, 2, 5]] * 3
    # an unsure die of a roll, nothing else coming: a die
    marks = BoardMarks()
    lone = (
        SeenDie(3, half="right", at=(10.0, 4.0)),
        SeenDie(5, p=0.4, half="right", at=(14.0, -6.0)),
    )
    for k in range(20):
        assert [d.value for d in marks.clean(Sighting(board, lone, t=1.5 * k)).dice] == [3, 5]


def test_a_die_on_a_checker_that_stays_while_a_roll_comes_is_no_die() -> None:
    """s87 clip 8401 at 28-34 s: a light checker's ring read as a 1 at 0.93, on a
    checker at 0.99; beside player 1's 43 rolled into the wrong half it made three
    dice, and the roll was not judged. A place in the field always read on a checker
    (``FIXTURE_ON_CHECKER``) that stays while dice come at two other places after it is
    a fixture at once: a die on a checker is rolled again, both dice picked up
    [000 r9]. Once read off a checker, it is a die; a roll's own die on a checker,
    nothing else coming, is a die."""
    from gammoneye.engine.position import Position
    from gammoneye.engine.referee import ExactCheckers, SeenDie, Sighting
    from gammoneye.vision.sighting import FIXTURE_ON_CHECKER, BoardMarks

    board = ExactCheckers(Position.initial())
    wrong = (SeenDie(3, half="right", at=(19.0, 0.0)), SeenDie(4, half="right", at=(22.0, -8.0)))

    def views(on_checker: list[float]) -> list[list[int]]:
        marks, out = BoardMarks(), []
        times = [0.0, 1.0, 2.5, 2.6, 2.7, 2.8]
        for t, oc in zip(times, on_checker, strict=True):
            ring = SeenDie(1, p=0.93, half="left", on_checker=oc, at=(-9.0, -17.0))
            roll = wrong if t > 2.0 else ()
            out.append([d.value for d in marks.clean(Sighting(board, (*roll, ring), t=t)).dice])
        return out

    on_top = [0.99, 0.98, 0.99, 0.99, 0.97, 0.99]
    assert min(on_top) >= FIXTURE_ON_CHECKER
    seen = views(on_top)
    assert seen[:3] == [[1], [1], [3, 4, 1]]  # alone, then the 43's first view
    assert seen[3:] == [[3, 4]] * 3  # then a fixture: the roll is the two
    once_off = [0.99, 0.3, 0.99, 0.99, 0.97, 0.99]
    assert views(once_off)[3:] == [[3, 4, 1]] * 3
    # a roll with a die on a checker, nothing else coming: its dice
    marks = BoardMarks()
    cocked = (
        SeenDie(5, half="left", on_checker=0.99, at=(-20.0, 3.0)),
        SeenDie(2, half="left", at=(-10.0, -5.0)),
    )
    for k in range(20):
        assert [d.value for d in marks.clean(Sighting(board, cocked, t=0.5 * k)).dice] == [5, 2]


def _sure_reading(position: Position, **misread: tuple[str, int]) -> BoardReading:
    """A reading sure (0.99) of ``position``'s checkers, player 0 dark at the bottom,
    but for the points named ``p23=("light", 9)``, read surely as that."""
    layout = layout_of_counts(position.boards, COLOURS)
    for name, cell in misread.items():
        layout[int(name[1:])] = cell
    points = []
    for n in range(1, 25):
        cell = layout.get(n, (None, 0))
        other = (cell[0], cell[1] + 1) if cell[1] else ("dark", 1)
        points.append(PointReading(n, {cell: 0.99, other: 0.01}))
    return BoardReading(COLOURS, tuple(points))


def _player_1_to_roll_at(before: Position) -> Any:
    """A referee of a match where player 1 is to roll, the checkers as ``before``
    (taken from the board after player 0's opening, as when turns went by unseen)."""
    from gammoneye.engine.events import CorrectionEvent
    from gammoneye.engine.referee import ExactCheckers, Referee, RefereeConfig, SeenDie, Sighting

    ref = Referee(RefereeConfig(match_length=3, bottom_player=0))
    start = Position.initial()
    ref.see(Sighting(ExactCheckers(start)))
    opening = (SeenDie(5, half="right", at=(20.0, 0.0)), SeenDie(2, half="left", at=(-20.0, 0.0)))
    ref.see(Sighting(ExactCheckers(start), dice=opening))
    data = {
        "action": "resync",
        "player": 0,
        "after": before.with_turn(0).position_id(),
        "on_roll": 1,
    }
    return Referee.resume(
        ref.config, [*ref.events, CorrectionEvent(seq=len(ref.events), data=data, target_seq=None)]
    )


def test_a_pile_of_seven_read_as_seven_is_believed() -> None:
    """s53 clip 4802 at 310.6 s: player 1 bore off three checkers from his 3-point
    with a 33 and left the fourth 3 unplayed, his pile of seven on the 1-point read as
    seven before and after; with that pile believed only roughly, 3/0(3) 1/0 (legal,
    six left there) explained the board and nothing was flagged. A pile read as seven
    is seven (``TALL_PILE``): the unplayed die is flagged [000 r12]."""
    from gammoneye.engine.referee import SeenDie, Sighting
    from gammoneye.vision.sighting import TALL_PILE, ReadingEvidence

    before = Position((side(p6=5, p8=5, p13=5), side(p1=7, p3=3)), 1)
    left_one = Position((before.boards[0], side(p1=7)), 1)  # 3/0(3): a 3 unplayed
    ref = _player_1_to_roll_at(before)

    def view(position: Position, dice: tuple[SeenDie, ...] = ()) -> Sighting:
        return Sighting(ReadingEvidence(_sure_reading(position), COLOURS, 0), dice=dice)

    his_33 = (SeenDie(3, half="left", at=(-20.0, 5.0)), SeenDie(3, half="left", at=(-25.0, 5.0)))
    assert [e.TYPE for e in ref.see(view(before, his_33))] == ["roll"]
    events = ref.see(view(left_one))
    assert [e.TYPE for e in events] == ["move", "flag"], events
    assert not events[0].legal and events[1].kind == "illegal_play"
    assert TALL_PILE > 7


def test_a_tall_pile_read_two_too_many_does_not_make_a_bear_off_illegal() -> None:
    """s34 clip 2904 at 534 s: player 1's pile of seven on his 2-point read as nine,
    before his 63 and after it; 4/0 3/0 (legal) left the nine as it was, and the board
    fitted the illegal 4/2 3/2 best, flagged and then accepted. A tall pile's count is
    believed only roughly (``TALL_PILE``): the legal bear-off is recorded."""
    from gammoneye.engine.referee import SeenDie, Sighting
    from gammoneye.vision.sighting import ReadingEvidence

    before = Position((side(p6=5, p8=5, p13=5), side(p1=2, p2=7, p3=3, p4=3)), 1)
    after = Position((before.boards[0], side(p1=2, p2=7, p3=2, p4=2)), 1)
    ref = _player_1_to_roll_at(before)

    def view(position: Position, dice: tuple[SeenDie, ...] = ()) -> Sighting:
        reading = _sure_reading(position, p23=("light", 9))  # his 2-point, two too many
        return Sighting(ReadingEvidence(reading, COLOURS, 0), dice=dice)

    his_63 = (SeenDie(6, half="left", at=(-20.0, 5.0)), SeenDie(3, half="left", at=(-25.0, 5.0)))
    assert [e.TYPE for e in ref.see(view(before, his_63))] == ["roll"]
    events = ref.see(view(after))
    assert [e.TYPE for e in events] == ["move"], events
    assert events[0].legal and events[0].after == after.with_turn(1).position_id()
    assert ref.flag is None


def test_the_colour_of_a_pile_a_die_lies_on_is_believed_only_roughly() -> None:
    """s34 clip 2904 at 350 s: a die rolled onto player 1's lone checker on point 23
    (read lying on a checker at 0.99); the checker's colour was sampled on the die and
    read dark. The position with the light checker there still explains the board,
    within the referee's margin, where a die lies on the pile; not elsewhere."""
    from dataclasses import replace

    from gammoneye.engine.referee import ILLEGAL_MARGIN
    from gammoneye.vision.sighting import ReadingEvidence

    truth = Position.initial()
    reading = _sure_reading(truth, p1=("dark", 2))  # light's 24-point (2) read dark
    points = list(reading.points)
    points[0] = PointReading(1, {("dark", 2): 0.9, ("light", 2): 0.1 * 1e-4, ("dark", 3): 0.1})
    reading = replace(reading, points=tuple(points))
    on_pile = DieReading({3: 1.0}, 0.0, "right", on_checker=0.99, over=(1, 0.5, -0.4))
    beside = DieReading({3: 1.0}, 0.0, "right", on_checker=0.01, over=(1, 0.5, -0.4))

    def shortfall(*dice: DieReading) -> float:
        ev = ReadingEvidence(replace(reading, dice=dice), COLOURS, 0)
        return ev.ceiling() - ev.log_likelihood(truth)

    assert shortfall(on_pile) < ILLEGAL_MARGIN < shortfall(beside)
    assert shortfall() == shortfall(beside)


def test_a_checker_hit_and_unseen_on_the_bar_is_no_illegal_play_of_the_hitter() -> None:
    """s63 clip 5902 at 316.7 s: player 1's 66 hit a blot, and the checker hit lay on
    the bar behind the cube, read empty; player 0 rolled early and played 21/20 with
    it there, before any view (bar not first [000 r15]). The view's player-0 checkers
    are one short, which looked like a checker of his gone from the board, so no play
    of player 0's explained the board: player 1's legal play was flagged and player
    0's missed. A checker missing where the hitter's play put one on the bar is on
    the bar, unseen (a bar's count is the least sure; nothing is borne off while a
    checker is on the bar): player 1's play is recorded, then player 0's roll, and
    player 0's play is flagged once he lifts his dice."""
    from gammoneye.engine.events import FlagEvent, MoveEvent, RollEvent
    from gammoneye.engine.referee import PREMATURE_NOTE, SeenDie, Sighting
    from gammoneye.vision.sighting import ReadingEvidence

    before = Position((side(p6=5, p8=3, p11=1, p13=4, p24=2), side(p6=5, p8=3, p13=5, p24=2)), 1)
    hit = side(p6=5, p8=3, p13=5, p14=1, p24=1)  # 24/18 18/14*
    early = side(p5=2, p6=4, p8=2, p13=4, p24=2)  # 8/5 6/5, his checker on the bar unseen
    ref = _player_1_to_roll_at(before)

    def view(position: Position, dice: tuple[SeenDie, ...] = ()) -> Sighting:
        return Sighting(ReadingEvidence(_sure_reading(position), COLOURS, 0), dice=dice)

    his_64 = (SeenDie(6, half="left", at=(-20.0, 5.0)), SeenDie(4, half="left", at=(-25.0, 5.0)))
    p0_31 = (SeenDie(3, half="right", at=(20.0, 5.0)), SeenDie(1, half="right", at=(25.0, 5.0)))
    assert [e.TYPE for e in ref.see(view(before, his_64))] == ["roll"]
    seen = Position((early, hit), 1)
    assert sum(seen.boards[0]) == 14  # the bar read empty
    events = ref.see(view(seen, his_64 + p0_31))
    assert [e.TYPE for e in events] == ["move", "roll"], events
    move, roll = events
    assert isinstance(move, MoveEvent) and move.legal and move.player == 1
    recorded = set(Position.from_position_id(move.after).boards)
    assert recorded == {side(p6=5, p8=3, p13=4, p24=2, bar=1), hit} and "14*" in move.play
    assert isinstance(roll, RollEvent) and roll.player == 0 and roll.note == PREMATURE_NOTE
    events = ref.see(view(seen))
    assert [e.TYPE for e in events] == ["move", "flag"], events
    assert isinstance(events[0], MoveEvent) and not events[0].legal and events[0].player == 0
    assert isinstance(events[1], FlagEvent) and events[1].kind == "illegal_play"
    # named as played, with his checker still on the bar, not as a bear-off
    assert events[0].play == "8/5 6/5" and events[1].rule == "000 r15"


def test_a_die_on_an_empty_point_read_as_a_checker_flags_no_legal_play() -> None:
    """s82 clip 7901 at 331.4 s: player 0's dice, just rolled, landed beside player
    1's finished play, and one of them, on an empty point, was read as a checker of
    its colour: 16 dark checkers, no position at all, and player 1's legal play was
    flagged. A point read with one checker and a die standing in front of it
    (``hidden``) keeps a share for none, the die maybe what was counted: the legal
    play is recorded and player 0's roll taken, nothing flagged."""
    from dataclasses import replace

    from gammoneye.engine.referee import SeenDie, Sighting
    from gammoneye.vision.read import STANDING_IN_FRONT, hidden
    from gammoneye.vision.sighting import ReadingEvidence

    start = side(p6=5, p8=3, p13=5, p24=2)
    before = Position((start, start), 1)
    after = Position((start, side(p5=1, p6=4, p8=3, p11=1, p13=4, p24=2)), 1)  # 13/11 6/5
    ref = _player_1_to_roll_at(before)
    his_21 = (SeenDie(2, half="left", at=(-20.0, 5.0)), SeenDie(1, half="left", at=(-25.0, 5.0)))
    seen = ref.see(Sighting(ReadingEvidence(_sure_reading(before), COLOURS, 0), dice=his_21))
    assert [e.TYPE for e in seen] == ["roll"]
    # player 0's 31 in his half; the 3 stands on his empty 10-point, read as a checker
    reading = _sure_reading(after, p10=("dark", 1))
    points = list(reading.points)
    points[9] = hidden(points[9], STANDING_IN_FRONT)
    view = replace(reading, points=tuple(points))
    assert ReadingEvidence(view, COLOURS, 0).guess(1) is None  # 16 dark checkers
    his_31 = (SeenDie(3, half="right", at=(20.0, 5.0)), SeenDie(1, half="right", at=(25.0, 5.0)))
    events = ref.see(Sighting(ReadingEvidence(view, COLOURS, 0), dice=his_31))
    assert [e.TYPE for e in events] == ["move", "roll"], events
    assert events[0].legal and events[0].after == after.with_turn(1).position_id()
    assert ref.flag is None


def test_a_pile_read_a_checker_tall_in_every_view_flags_no_legal_play() -> None:
    """s192 clip 18904 at 63.9-85.1 s: player 0's 13-point, five checkers, read as six
    in every view, thirty-one checkers on the board; each legal play came about 6
    below the view's own best and was flagged as a play to an impossible board. No
    board explains such a view better than its likeliest with thirty: the legal play
    is recorded, while an illegal play beside the same misread pile is still
    flagged. And a colour read sixteen where thirty are read in all may be a board:
    player 1's checker entered from the bar onto player 0's 6-point, counted in his
    pile, is still flagged, not taken for a dance (session 44)."""
    from gammoneye.engine.referee import SeenDie, Sighting
    from gammoneye.vision.sighting import ReadingEvidence

    start = side(p6=5, p8=3, p13=5, p24=2)
    before = Position((start, start), 1)
    legal = Position((start, side(p4=2, p6=4, p8=2, p13=5, p24=2)), 1)  # 8/4 6/4
    illegal = Position((start, side(p3=1, p4=1, p6=4, p8=2, p13=5, p24=2)), 1)  # 8/4 6/3
    on_bar = Position((start, side(p6=5, p8=3, p13=5, p24=1, bar=1)), 1)
    entered = Position((start, side(p6=5, p8=3, p13=5, p19=1, p24=1)), 1)  # 25/19 with 66

    def view(position: Position, **misread: tuple[str, int]) -> ReadingEvidence:
        return ReadingEvidence(_sure_reading(position, **misread), COLOURS, 0)

    assert view(legal, p13=("dark", 6)).guess(1) is None  # sixteen dark checkers
    tall = view(legal, p13=("dark", 6))
    assert tall.ceiling() - tall.log_likelihood(legal) < 1e-9
    assert view(entered).ceiling() == view(entered).log_likelihood(entered)
    for start_at, roll, after, misread, flagged in (
        (before, (4, 2), legal, {"p13": ("dark", 6)}, False),
        (before, (4, 2), illegal, {"p13": ("dark", 6)}, True),
        (on_bar, (6, 6), entered, {}, True),
    ):
        ref = _player_1_to_roll_at(start_at)
        dice = tuple(SeenDie(v, half="left", at=(-20.0 - 5 * i, 5.0)) for i, v in enumerate(roll))
        assert [e.TYPE for e in ref.see(Sighting(view(start_at, **misread), dice=dice))] == ["roll"]
        events = ref.see(Sighting(view(after, **misread)))
        assert [e.TYPE for e in events] == (["move", "flag"] if flagged else ["move"]), events
        assert events[0].legal is not flagged
        if not flagged:
            assert events[0].after == legal.with_turn(1).position_id()


def test_the_ceiling_bounds_every_board_and_is_the_reading_s_own_where_it_can_stand() -> None:
    """:meth:`ReadingEvidence.ceiling` is what the referee measures every board
    against: no board may score above it, a board of an illegal play with a
    checker on its opponent's pile among them, and where the reading's likeliest
    cells could stand as a board (thirty checkers or fewer) it is their score.
    Random games, each board read with some piles a checker off, some of the
    other colour, a die on a pile and a checker more on the bar now and then."""
    import random

    from gammoneye.vision.sighting import ReadingEvidence

    rng = random.Random(87)
    over_thirty = 0
    for _ in range(300):
        position = Position.initial()
        for _ in range(rng.randrange(40)):
            results = legal_positions(position, (rng.randint(1, 6), rng.randint(1, 6)))
            position = rng.choice(results).with_turn(1 - position.turn)
        layout = layout_of_counts(position.boards, COLOURS)
        points = []
        for n in range(1, 25):
            truth = layout.get(n, (None, 0))
            read = truth
            if rng.random() < 0.06:
                colour = rng.choice(COLOURS)
                read = (colour, max(1, min(15, truth[1] + rng.choice((-1, 1)))))
            other = (rng.choice(COLOURS), rng.randint(1, 6))
            probs = {read: rng.uniform(0.5, 0.99)}
            for cell in (truth, other):
                probs[cell] = probs.get(cell, 0.0) + rng.uniform(0.0, 0.2)
            points.append(PointReading(n, probs))
        bar = {c: position.boards[i][24] + (rng.random() < 0.2) for i, c in enumerate(COLOURS)}
        dice = ()
        if rng.random() < 0.5:
            dice = (
                DieReading(
                    {3: 1.0}, 0.0, "right", on_checker=0.9, over=(rng.randint(1, 24), 0.5, -0.4)
                ),
            )
        reading = BoardReading(COLOURS, tuple(points), bar=bar, dice=dice)
        ev = ReadingEvidence(reading, COLOURS, 0)
        own = sum(math.log(max(p.probs.values())) for p in points)
        if sum(bar.values()) + sum(k for _, k in reading.best_layout().values()) <= 30:
            assert ev.ceiling() == pytest.approx(own)
        else:
            over_thirty += 1
            assert ev.ceiling() < own
        boards = [position, *legal_positions(position, (rng.randint(1, 6), rng.randint(1, 6)))]
        for mover in (0, 1):  # a checker of his onto a pile of his opponent's
            mine, theirs = list(position.boards[mover]), position.boards[1 - mover]
            held = [i for i in range(24) if theirs[23 - i]]
            source = rng.choice([i for i in range(25) if mine[i]])
            mine[source] -= 1
            mine[rng.choice(held)] += 1
            two = (tuple(mine), theirs) if mover == 0 else (theirs, tuple(mine))
            boards.append(Position(two, mover))
        for board in boards:
            assert ev.log_likelihood(board) <= ev.ceiling() + 1e-9
    assert 30 < over_thirty < 270  # the bound was put to the test, both ways


def test_a_pile_with_a_die_in_front_of_it_is_not_made_shorter() -> None:
    """s85 clip 8201 at 344.5 s: a 51 read surely as 53; 5/4 5/0 on the board, the
    4-point's pile of three behind the opponent's new dice. Had the die in front
    made that pile maybe one shorter, 5/2 5/0 (legal with 53, two left there) would
    have explained the board and been recorded, the position lost; as it is, a play
    taking a checker from a pile read behind a die is not explained by the die."""
    from dataclasses import replace

    from gammoneye.engine.referee import ILLEGAL_MARGIN
    from gammoneye.vision.read import STANDING_IN_FRONT, hidden
    from gammoneye.vision.sighting import ReadingEvidence

    truth = Position((side(p1=2, p2=2, p3=3, p4=3, p5=2), side(p1=5, p2=3, p3=5)), 0)
    short = Position((side(p1=2, p2=3, p3=3, p4=2, p5=2), truth.boards[1]), 0)
    reading = _sure_reading(truth)
    points = list(reading.points)
    points[1] = PointReading(2, {("dark", 2): 0.9, ("dark", 3): 0.1})  # his 2-point, unsure
    points[3] = hidden(points[3], STANDING_IN_FRONT)  # his 4-point, three read
    ev = ReadingEvidence(replace(reading, points=tuple(points)), COLOURS, 0)
    assert ev.ceiling() - ev.log_likelihood(truth) < 1.0
    assert ev.ceiling() - ev.log_likelihood(short) > ILLEGAL_MARGIN


def test_a_checker_left_on_the_bar_unseen_is_no_pile_read_one_short() -> None:
    """s86 clip 8303 at 339.2 s: player 1's checker, hit, lay on the bar, and no view
    showed it there; he played 24/23 with his 21, the checker left on the bar (bar
    not first [000 r15]). The board, one checker of his short against 25/23 24/23,
    was taken for that legal play with his 23-point, read surely as one, read one
    short, and the illegal play went unflagged. The bar's count is the least sure of
    a reading: the checker left there, unseen, explains the board, and the play is
    flagged; put right with the checker entered, the flag clears."""
    from dataclasses import replace

    from gammoneye.engine.events import FlagEvent, MoveEvent
    from gammoneye.engine.referee import SeenDie, Sighting
    from gammoneye.vision.sighting import ReadingEvidence

    theirs = side(p6=5, p8=3, p13=5, p24=2)
    before = Position((theirs, side(p6=5, p8=3, p13=5, p24=1, bar=1)), 1)
    played = Position((theirs, side(p6=5, p8=3, p13=5, p23=1, bar=1)), 1)  # 24/23
    right = Position((theirs, side(p6=5, p8=3, p13=5, p23=2)), 1)  # 25/23 24/23
    ref = _player_1_to_roll_at(before)

    def view(position: Position, dice: tuple[SeenDie, ...] = ()) -> Sighting:
        reading = _sure_reading(position)  # no bar read: his checker there unseen
        points = list(reading.points)
        if position == played:
            points[1] = PointReading(2, {("light", 1): 1.0})  # his 23-point: one, surely
        reading = replace(reading, points=tuple(points))
        return Sighting(ReadingEvidence(reading, COLOURS, 0), dice=dice)

    his_21 = (SeenDie(2, half="left", at=(-20.0, 5.0)), SeenDie(1, half="left", at=(-25.0, 5.0)))
    assert [e.TYPE for e in ref.see(view(before, his_21))] == ["roll"]
    events = ref.see(view(played))
    assert [type(e) for e in events] == [MoveEvent, FlagEvent], events
    assert not events[0].legal and events[0].after == played.with_turn(1).position_id()
    events = ref.see(view(right))
    assert [e.TYPE for e in events] == ["flag_cleared", "move"], events
    assert events[1].legal and events[1].after == right.with_turn(1).position_id()


@pytest.mark.parametrize(("pile_of_three", "flagged"), [(0.72, True), (0.01, False)])
def test_a_checker_entered_on_a_held_point_with_the_bar_read_empty_is_flagged(
    pile_of_three: float, flagged: bool
) -> None:
    """s133 clip 13001 at 661.8 s (and s131 clip 12803 at 355.4 s): a player on the bar
    with a roll that dances put a checker on a point his opponent holds [000 r13];
    the bar read empty and the pile as three at 0.72 (two at 0.28). A checker missed
    on a bar of one or two is rare in the readings (2 % and 0.6 % of the A/B clips'
    still views; bars of three 23 %), yet each cost 2 nats: the dance, its bar read
    one short, explained the view within the odds against an illegal play, and
    nothing was flagged. Such a bar's count is believed more; the entry is flagged.
    With the pile read as two surely, the bar read short alone is still the dance."""
    from dataclasses import replace

    from gammoneye.engine.events import FlagEvent, MoveEvent
    from gammoneye.engine.referee import SeenDie, Sighting
    from gammoneye.vision.sighting import ReadingEvidence

    # player 0 holds his 3 and 4 points: player 1's 22 and 21, where a 43 enters
    before = Position(
        (side(p3=2, p4=2, p6=5, p8=2, p13=4), side(p6=5, p8=3, p13=4, p24=2, bar=1)), 1
    )
    ref = _player_1_to_roll_at(before)

    def view(entered: bool, dice: tuple[SeenDie, ...] = ()) -> Sighting:
        reading = replace(_sure_reading(before), bar={"light": 1})
        if entered:  # his checker on top of their pile of two at the 3 point, bar empty
            points = list(reading.points)
            pile = {("dark", 3): pile_of_three, ("dark", 2): 1.0 - pile_of_three}
            points[2] = PointReading(3, pile)
            reading = replace(reading, points=tuple(points), bar={})
        return Sighting(ReadingEvidence(reading, COLOURS, 0), dice=dice)

    his_43 = (SeenDie(4, half="left", at=(-20.0, 5.0)), SeenDie(3, half="left", at=(-25.0, 5.0)))
    assert [e.TYPE for e in ref.see(view(False, his_43))] == ["roll"]
    events = ref.see(view(True))
    if flagged:
        assert [type(e) for e in events] == [MoveEvent, FlagEvent], events
        assert not events[0].legal and events[1].rule == "000 r13"
    else:
        assert [e.TYPE for e in events] == ["move"] and events[0].legal, events


@pytest.mark.parametrize(("eight_of_four", "flagged"), [(1e-6, True), (0.1, False)])
def test_a_checker_put_on_a_held_pile_and_unseen_there_is_flagged(
    eight_of_four: float, flagged: bool
) -> None:
    """s155 clip 15202 at 9.9 s: player 1 played the
    opening 41 13/12, onto player 0's five on his 13-point [000 r13]. The pile read as
    player 0's five (0.61; as six, his checker counted on top, hardly at all), and
    his checker was nowhere: the board with it there explained the view no better
    than 13/9 9/8 with his 8-point's four read as three at 1.00, and that legal play
    was recorded. His checker may be unseen on top of their pile: the board with it
    there is weighed by the pile read as it was (``HIDDEN_TOP_SHARE``) and the play
    flagged. With his 8-point read as three only at 0.9 (four at 0.1), the legal play
    stands."""
    from gammoneye.engine.events import FlagEvent, MoveEvent
    from gammoneye.engine.referee import SeenDie, Sighting
    from gammoneye.vision.sighting import ReadingEvidence

    before = Position.initial().with_turn(1)
    ref = _player_1_to_roll_at(before)
    # player 1's 13-point is the bottom's 12, his 12 the bottom's 13, his 8 the 17
    moved = Position((before.boards[0], side(p6=5, p8=3, p12=1, p13=4, p24=2)), 1)

    def view(played: bool, dice: tuple[SeenDie, ...] = ()) -> Sighting:
        if not played:
            return Sighting(ReadingEvidence(_sure_reading(before), COLOURS, 0), dice=dice)
        points = list(_sure_reading(moved, p13=("dark", 5)).points)
        points[12] = PointReading(13, {("dark", 5): 0.61, ("dark", 14): 0.39, ("dark", 6): 1e-4})
        eight = {("light", 3): 1.0 - eight_of_four, ("light", 4): eight_of_four}
        points[16] = PointReading(17, eight)
        return Sighting(ReadingEvidence(BoardReading(COLOURS, tuple(points)), COLOURS, 0))

    his_41 = (SeenDie(4, half="left", at=(-20.0, 5.0)), SeenDie(1, half="left", at=(-25.0, 5.0)))
    assert [e.TYPE for e in ref.see(view(False, his_41))] == ["roll"]
    events = ref.see(view(True))
    if flagged:
        assert [type(e) for e in events] == [MoveEvent, FlagEvent], events
        assert not events[0].legal and events[0].play == "13/12" and events[1].rule == "000 r13"
    else:
        assert [e.TYPE for e in events] == ["move"] and events[0].legal, events
        assert events[0].play == "13/9 9/8"
