"""Small helpers to write test positions the way a player reads a diagram."""

from __future__ import annotations

from gammoneye.engine.position import Position


def make_position(
    mover: dict[int, int],
    opponent: dict[int, int] | None = None,
    *,
    mover_bar: int = 0,
    opponent_bar: int = 0,
    turn: int = 1,
) -> Position:
    """A position with ``turn`` on roll.

    ``mover`` maps the on-roll player's point numbers to checker counts;
    ``opponent`` maps **the on-roll player's** point numbers too (what the mover sees
    on the board), so a diagram in a comment reads directly. Missing checkers are
    borne off.
    """
    mine = [0] * 25
    theirs = [0] * 25
    for point, n in mover.items():
        mine[point - 1] = n
    for point, n in (opponent or {}).items():
        theirs[24 - point] = n  # the mover's point p is the opponent's 25 - p
    mine[24] = mover_bar
    theirs[24] = opponent_bar
    return Position.from_boards(mine, theirs, turn)


def side(**points: int) -> tuple[int, ...]:
    """One player's 25 counts in his own numbering: ``p6=2`` two on his 6-point,
    ``bar=1`` one on the bar; checkers not named are borne off."""
    out = [0] * 25
    for name, n in points.items():
        out[24 if name == "bar" else int(name[1:]) - 1] = n
    return tuple(out)
