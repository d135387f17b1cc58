"""Is a reader as sure as it says? How often its best guess was right at each level of
the probability it gave that guess. Shared by ``bench/dice_calibration.py`` (the die
reader on labelled stills) and ``bench/clip_dice.py --calibration`` (on clips' still
frames).

Not a script.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

#: Band edges of the best probability; the last is past 1 so that 1.0 falls in a band.
EDGES = (0.0, 0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99, 1.01)


def band_lines(
    best_p: Sequence[float], right: Sequence[bool], edges: Sequence[float] = EDGES
) -> list[str]:
    """One line per band holding any reads: how many, their mean probability and the
    share read right. ``best_p``: each read's best probability; ``right``: whether
    that read was right.

    >>> band_lines([0.6, 0.65, 0.97, 1.0], [True, False, True, True])
    ['p 0.50-0.70:      2 read, mean p 0.625, right  50.00 %', \
'p 0.95-0.98:      1 read, mean p 0.970, right 100.00 %', \
'p 0.99-1.00:      1 read, mean p 1.000, right 100.00 %']
    """
    p = np.asarray(best_p, np.float64)
    ok = np.asarray(right, bool)
    if p.shape != ok.shape:
        raise ValueError(f"{p.size} probabilities against {ok.size} answers")
    lines = []
    for lo, hi in itertools.pairwise(edges):
        band = (p >= lo) & (p < hi)
        if band.any():
            lines.append(
                f"p {lo:.2f}-{min(hi, 1.0):.2f}: {int(band.sum()):6d} read,"
                f" mean p {p[band].mean():.3f}, right {ok[band].mean() * 100:6.2f} %"
            )
    return lines
