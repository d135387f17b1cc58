"""Hypothesis properties of positions and plays, over positions from seeded random games."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gammoneye.datasets.games import random_turns
from gammoneye.engine.moves import legal_plays, legal_positions
from gammoneye.engine.position import CHECKERS, Position


def random_game_position(seed: int, plies: int) -> Position:
    """The position after ``plies`` random legal turns of one seeded game."""
    pos = Position.initial()
    for turn in random_turns(seed=seed, limit=plies):
        if turn.game > 1:
            break  # the first game is over
        pos = turn.after.swapped_turn()
    return pos


positions = st.builds(
    random_game_position, st.integers(0, 2**32 - 1), st.integers(0, 120)
)
rolls = st.tuples(st.integers(1, 6), st.integers(1, 6))


@given(positions, rolls)
def test_checkers_are_conserved(pos: Position, dice: tuple[int, int]) -> None:
    mover, opp = pos.turn, 1 - pos.turn
    for after, plays in legal_plays(pos, dice).items():
        bear_offs = sum(m.dst == 0 for m in plays[0].moves)
        # The opponent only ever goes to the bar, never off.
        assert sum(after.boards[opp]) == sum(pos.boards[opp])
        assert sum(after.boards[mover]) == sum(pos.boards[mover]) - bear_offs
        for p in (0, 1):
            assert sum(after.boards[p]) + after.off(p) == CHECKERS
        assert after.problems() == []


@given(positions, rolls)
def test_pips_fall_by_the_dice_used(pos: Position, dice: tuple[int, int]) -> None:
    mover, opp = pos.turn, 1 - pos.turn
    for after, plays in legal_plays(pos, dice).items():
        for play in plays:
            if any(m.dst == 0 for m in play.moves):
                continue  # bearing off may use less than the die
            assert pos.pips(mover) - after.pips(mover) == sum(m.src - m.dst for m in play.moves)
            per_move = dice[0] if dice[0] == dice[1] else None
            if per_move:
                assert all(m.src - m.dst == per_move for m in play.moves)
            elif len(play) == 2:
                assert sorted(m.src - m.dst for m in play.moves) == sorted(dice)
            # A hit blot on the mover's point p travels back p pips... from 25 - p.
            hit_pips = sum(m.dst for m in play.moves if m.hit)
            assert after.pips(opp) - pos.pips(opp) == hit_pips


@given(positions)
def test_ids_round_trip(pos: Position) -> None:
    assert Position.from_position_id(pos.position_id(), pos.turn) == pos
    xgid = f"XGID={pos.xgid_board()}:0:0:{1 if pos.turn == 1 else -1}:00:0:0:0:7:10"
    assert Position.from_xgid(xgid) == pos
    assert Position.from_gnubg_board(pos.gnubg_board(), pos.turn) == pos


@given(positions, rolls)
def test_dice_order_does_not_matter(pos: Position, dice: tuple[int, int]) -> None:
    assert set(legal_positions(pos, dice)) == set(legal_positions(pos, dice[::-1]))
