"""Self-calibration from the opening position.

The first settled picture of a game shows a known layout: for each player 2
checkers on his 24-point, 5 on his 13, 3 on his 8 and 5 on his 6. Reading it under
every hypothesis of who sits where tells

- the **orientation**: which colour sits at the field's bottom side, and whether
  his home board is on the right or (a mirrored board) on the left;
- the **point geometry**: the bar's share of the field's width, the one thing about
  a board's points that differs from board to board, measured in the picture
  (:func:`~gammoneye.calibration.barwidth.fit_bar_fraction`). (It was once chosen
  as the share under which the opening reads most surely; but the point counter is
  sure of the opening over a wide range of shares, from 0.09 to 0.14 on a board of
  0.129, s33 clip 2802, and the pick among them was chance.)

A picture that is not the opening (or not read well enough to tell) teaches
nothing: :func:`learn_from_opening` says so rather than guessing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from gammoneye.calibration.barwidth import fit_bar_fraction
from gammoneye.calibration.boardspace import Orientation
from gammoneye.calibration.profile import CalibrationProfile

from .read import COLOURS, BoardReader
from .reading import BoardReading, Cell

U8 = NDArray[np.uint8]
#: The opening, in a player's own numbering.
OPENING = {24: 2, 13: 5, 8: 3, 6: 5}
#: How much likelier (natural log) the best hypothesis must be than the runner-up.
MARGIN = 5.0


@dataclass(frozen=True)
class OpeningMatch:
    bottom_colour: str
    home_right: bool
    log_likelihood: float
    margin: float  # over the next best hypothesis
    points_agreeing: int  # of 24, the reading's best cell equal to the opening's
    #: Of the others, the piles of five read a checker more or fewer, of their colour:
    #: a tall pile's count is the point counter's likeliest slip (its top checkers
    #: overlap), and no play leaves one pile a checker off and every other point as
    #: it was.
    piles_one_off: int = 0

    @property
    def reads_as_opening(self) -> bool:
        """Whether the reading shows the opening: every point as it, or all but a
        pile of five read a checker off (s192 clip 18904, a small far board: its
        top player's 12-point read as six at 1.00 in every picture, the colours never
        learnt, and no view of the match was passed on)."""
        return self.points_agreeing == 24 or (
            self.points_agreeing == 23 and self.piles_one_off == 1
        )


def opening_layout(bottom_colour: str, home_right: bool) -> dict[int, Cell]:
    """The opening as the reader numbers points: 1..24 for the bottom player with his
    home on the right (the reader's default); a mirrored board swaps left and right."""
    top_colour = COLOURS[1] if bottom_colour == COLOURS[0] else COLOURS[0]
    out: dict[int, Cell] = {}
    for own, n in OPENING.items():
        out[own] = (bottom_colour, n)
        out[25 - own] = (top_colour, n)
    if home_right:
        return out
    return {(13 - k if k <= 12 else 37 - k): cell for k, cell in out.items()}


def match_opening(reading: BoardReading) -> OpeningMatch:
    """The orientation under which ``reading`` is likeliest the opening, and how sure."""
    scored = []
    for colour in COLOURS:
        for home_right in (True, False):
            layout = opening_layout(colour, home_right)
            scored.append((reading.log_likelihood(layout), colour, home_right, layout))
    scored.sort(key=lambda s: -s[0])
    best, runner = scored[0], scored[1]
    best_cells = reading.best_layout()
    agree = off = 0
    for n in range(1, 25):
        seen, want = best_cells.get(n, (None, 0)), best[3].get(n, (None, 0))
        agree += seen == want
        off += seen[0] == want[0] and want[1] == 5 and abs(seen[1] - want[1]) == 1
    return OpeningMatch(best[1], best[2], best[0], best[0] - runner[0], agree, off)


@dataclass(frozen=True)
class Learned:
    profile: CalibrationProfile | None  # None: not the opening, nothing learned
    match: OpeningMatch
    bar_fraction: float
    message: str


def learn_from_opening(
    reader: BoardReader,
    image: U8,
    profile: CalibrationProfile,
    *,
    dark_player: int = 0,
) -> Learned:
    """Read ``image`` (the opening, settled) with the bar measured in it; keep the
    orientation under which it reads likeliest as the opening. ``dark_player``: the
    engine's player (0 or 1) who plays the darker checkers, which sets the
    orientation's ``bottom_player``."""
    fraction = fit_bar_fraction(image, profile.corners())
    if fraction is None:
        fraction = profile.bar_fraction
    match = match_opening(
        reader.read(image, replace(profile, bar_fraction=fraction, orientation=None))
    )
    if match.points_agreeing < 24 or match.margin < MARGIN:
        return Learned(
            None,
            match,
            fraction,
            f"this picture does not read as the opening ({match.points_agreeing}/24 points "
            "agree): take one of the first settled position of a game, no hands over the board",
        )
    bottom_is_dark = match.bottom_colour == COLOURS[0]
    bottom_player = dark_player if bottom_is_dark else 1 - dark_player
    learned = replace(
        profile,
        bar_fraction=fraction,
        orientation=Orientation(bottom_player, match.home_right),
    )
    side = "right" if match.home_right else "left"
    return Learned(
        learned,
        match,
        fraction,
        f"opening read: {match.bottom_colour} sits at the bottom, home board on the {side}; "
        f"bar {fraction:.3f} of the field's width",
    )
