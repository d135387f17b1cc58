"""Position: IDs, XGID board, pips, diagram, bad input."""

from __future__ import annotations

import pytest

from gammoneye.engine.position import Position, PositionError

from boards import make_position

START_ID = "4HPwATDgc/ABMA"
START_XGID = "-b----E-C---eE---c-e----B-"


def test_initial_position_ids() -> None:
    start = Position.initial(turn=1)
    assert start.position_id() == START_ID
    assert start.xgid_board() == START_XGID
    assert Position.from_position_id(START_ID, turn=1) == start
    assert Position.from_xgid(f"XGID={START_XGID}:0:0:1:52:0:0:0:7:10") == start
    assert Position.from_xgid(f"{START_XGID}:0:0:-1:00:0:0:0:7:10") == start.with_turn(0)
    assert start.pips(0) == start.pips(1) == 167
    assert start.off(0) == start.off(1) == 0


@pytest.mark.parametrize(
    ("position_id", "turn", "mover", "opponent"),
    [
        # gnubg_nn.moves(start, 3, 1) -> 8/5 6/5 (mover = on roll, encoded second)
        ("4HPwATDgc/ABMA", 0, {6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2}),
        # 24/21 24/23 as gnubg_nn returned it for the 3-1 from the start
        ("4HPwATDgc/ABEg", 1, {6: 5, 8: 3, 13: 5, 21: 1, 23: 1}, {6: 5, 8: 3, 13: 5, 24: 2}),
        # an empty board (all borne off) for both
        ("AAAAAAAAAAAAAA", 1, {}, {}),
    ],
)
def test_position_id_fixtures(
    position_id: str, turn: int, mover: dict[int, int], opponent: dict[int, int]
) -> None:
    pos = Position.from_position_id(position_id, turn)
    assert pos.on_roll == (*(mover.get(p, 0) for p in range(1, 25)), 0)
    assert pos.opponent == (*(opponent.get(p, 0) for p in range(1, 25)), 0)
    assert pos.position_id() == position_id


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("4HPwATDgc/AB", "expected 14 characters"),
        ("4HPwATDgc/AB!A", "not base64"),
        ("//////////////", "too many checkers"),
    ],
)
def test_bad_position_ids(text: str, error: str) -> None:
    with pytest.raises(PositionError, match=error):
        Position.from_position_id(text)


@pytest.mark.parametrize(
    ("boards", "turn", "error"),
    [
        (((0,) * 24, (0,) * 25), 0, "expected 25 counts"),
        (((16,) + (0,) * 24, (0,) * 25), 0, "16 checkers on point 1"),
        (((0,) * 24 + (-1,), (0,) * 25), 0, "on bar"),
        (((1,) * 16 + (0,) * 9, (0,) * 25), 0, "16 checkers on the board"),
        (((0,) * 25, (0,) * 25), 2, "turn must be 0 or 1"),
    ],
)
def test_bad_boards(boards: tuple[tuple[int, ...], tuple[int, ...]], turn: int, error: str) -> None:
    with pytest.raises(PositionError, match=error):
        Position(boards, turn)


@pytest.mark.parametrize(
    ("xgid", "error"),
    [
        ("XGID=-b----E-C---eE---c-e----B", "26 characters"),
        ("XGID=-b----E-C---eE---c-e----B?:0:0:1:00:0:0:0:7:10", "bad character"),
        ("XGID=Ab----E-C---eE---c-e----B-:0:0:1:00:0:0:0:7:10", "top player's bar"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:2:00:0:0:0:7:10", "turn must be 1 or -1"),
        ("XGID=-p----E-C---eE---c-e----B-:0:0:1:00:0:0:0:7:10", "must be 0..15"),
    ],
)
def test_bad_xgid(xgid: str, error: str) -> None:
    with pytest.raises(PositionError, match=error):
        Position.from_xgid(xgid)


def test_pips_and_off() -> None:
    # X (on roll): 2 on the bar, 3 on 1; O: 1 on X's 24 (= O's 1-point).
    pos = make_position({1: 3}, {24: 1}, mover_bar=2)
    assert pos.pips(pos.turn) == 2 * 25 + 3
    assert pos.pips(1 - pos.turn) == 1
    assert pos.off(pos.turn) == 10
    assert pos.off(1 - pos.turn) == 14


def test_problems_reports_shared_point() -> None:
    start = Position.initial(turn=1)
    assert start.problems() == []
    both = list(start.boards[1])
    both[5] -= 1
    both[18] = 1  # one X moved to its 19 = O's 6-point, where O has 5
    pos = Position.from_boards(both, start.boards[0], 1)
    assert pos.problems() == ["both players on one point (player 1's 19 = player 0's 6)"]
    with pytest.raises(PositionError, match="both players on point 19"):
        pos.xgid_board()


@pytest.mark.parametrize(
    ("winner_off", "loser", "expected", "konstanz"),
    [
        (15, {6: 15}, 2, 2),  # loser bore off nothing: gammon
        (15, {20: 1, 6: 14}, 3, 2),  # ... and a checker in the winner's home: backgammon
        (15, {6: 14}, 1, 1),  # loser bore off one: single
    ],
)
def test_result_multiplier(
    winner_off: int, loser: dict[int, int], expected: int, konstanz: int
) -> None:
    # [RULES.md §6, 002, 004]; Konstanz scores a backgammon as a gammon [000 s3].
    loser_board = [0] * 25
    for point, n in loser.items():
        loser_board[point - 1] = n
    pos = Position(((0,) * 25, tuple(loser_board)), 0)
    assert pos.off(0) == winner_off
    assert pos.winner() == 0
    assert pos.result_multiplier(0) == expected
    assert pos.result_multiplier(0, backgammons=False) == konstanz


def test_diagram_shows_checkers_and_counts() -> None:
    pos = make_position({6: 7, 1: 1}, {24: 2}, mover_bar=1, turn=1)
    text = pos.diagram(names=("alice", "bob"))
    assert " 7 " in text  # a stack of 7 shows its count
    assert "bar O:0  X:1" in text
    assert "bob: pips" in text and "on roll: X (bob)" in text
    assert repr(pos) == f"Position.from_position_id({pos.position_id()!r}, turn=1)"
    assert eval(repr(pos), {"Position": Position}) == pos
