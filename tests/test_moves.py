"""Legal plays: hand-written edge cases of RULES.md §3, each with its diagram.

In the diagrams the mover's checkers are ``X`` and the opponent's ``O``; point
numbers are the mover's (24 → 1, bar = 25, off = 0).
"""

from __future__ import annotations

import pytest

from gammoneye.engine.moves import (
    IllegalPlayError,
    checkers_out_of_place,
    infer_play,
    legal_plays,
    legal_positions,
    parse_play_text,
    play_result,
    resolve_play,
)
from gammoneye.engine.position import Position

from boards import make_position
from oracle import agrees_with_gnubg, load_gnubg_nn


def play_texts(pos: Position, dice: tuple[int, int]) -> set[str]:
    """Every legal play, as text, over all distinct results."""
    return {str(play) for plays in legal_plays(pos, dice).values() for play in plays}


# Each case: (name, position, dice, expected plays as text, distinct results, rule tag)
CASES = [
    (
        # X: one checker on 13, the rest off. O holds 2 (two checkers).
        #   13/7 then 7/2 is blocked; 13/8 then 8/2 is blocked.
        # Either die alone can be played, both cannot: the larger must be [000 r12].
        "larger die when only one can be played",
        make_position({13: 1}, {2: 2}),
        (6, 5),
        {"13/7"},
        1,
        "000 r12",
    ),
    (
        # X: 13 (one). O holds 7 and 2. The 6 is blocked at once (13/7);
        # 13/8 with the 5 works but 8/2 is blocked: only the smaller die plays.
        "only the smaller die can be played",
        make_position({13: 1}, {7: 2, 2: 2}),
        (6, 5),
        {"13/8"},
        1,
        "000 r12",
    ),
    (
        # X: two on the bar, 13 on the 6-point. O holds 19 (X's entry point for a 6).
        # The 4 enters (bar/21); the 6 cannot be used while a checker is still on the bar.
        "bar first: second checker cannot enter",
        make_position({6: 13}, {19: 2}, mover_bar=2),
        (6, 4),
        {"bar/21"},
        1,
        "000 r10b, r15",
    ),
    (
        # X: one on the bar, 14 on 6. O holds 19: only the 4 enters (bar/21); then the 6
        # is free, but only 21/15 uses it: 6/off would bear off with a checker still out.
        "bar entry with one die, then the other die",
        make_position({6: 14}, {19: 2}, mover_bar=1),
        (6, 4),
        {"bar/21 21/15"},
        1,
        "000 r15",
    ),
    (
        # X: one on 3 and one on 2, 13 off. A 6 and a 5 are larger than the highest
        # point, so each bears off the highest checker [000 r16].
        "bear off with larger dice",
        make_position({3: 1, 2: 1}),
        (6, 5),
        {"3/off 2/off"},
        1,
        "000 r16",
    ),
    (
        # X: one on 6, one on 2. Roll 5-3. The 5 matches an empty point and may not
        # bear off the 2 while the 6 is occupied; bearing off is not compulsory.
        # Results: 6/1 2/off (5 first) and 6/3 3/off (3 first, then 5 from the highest).
        "die matching an empty point with a higher checker",
        make_position({6: 1, 2: 1}),
        (5, 3),
        {"6/1 2/off", "6/3 3/off"},
        2,
        "000 r16",
    ),
    (
        # X: one on 24, 14 on the 6-point. O holds 18 and 19: 24/13 would have to stop
        # on one of them, so the back checker cannot move; the 6 cannot bear off (one
        # checker is out), so only the 5 plays: 6/1.
        "blocked intermediate points",
        make_position({24: 1, 6: 14}, {18: 2, 19: 2}),
        (6, 5),
        {"6/1"},
        1,
        "000 r13",
    ),
    (
        # X: one on the bar. O has a closed board (X's 19..24). Dance: no move.
        "no legal move (dance)",
        make_position({6: 14}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2}, mover_bar=1),
        (6, 6),
        {""},
        1,
        "000 r15",
    ),
    (
        # X: one on 24, the rest off (can't bear off: 24 is out). O holds 12.
        # 4-4: 24/20/16, then 16/12 is blocked: two of the four 4s are played.
        "doubles partly playable",
        make_position({24: 1}, {12: 2}),
        (4, 4),
        {"24/20 20/16"},
        1,
        "000 r11, r12",
    ),
    (
        # X: one on 13. O has a blot on 7. 6-1: via 7 hits (13/7* 7/6), via 12 does not
        # (13/12 12/6). Same X checkers, different O: two distinct results.
        "hit on the way makes a distinct result",
        make_position({13: 1}, {7: 1}),
        (6, 1),
        {"13/7* 7/6", "13/12 12/6"},
        2,
        "000 r14",
    ),
]


@pytest.mark.parametrize(
    ("name", "pos", "dice", "expected", "n_results", "rule"), CASES, ids=[c[0] for c in CASES]
)
def test_edge_cases(
    name: str,
    pos: Position,
    dice: tuple[int, int],
    expected: set[str],
    n_results: int,
    rule: str,
) -> None:
    assert play_texts(pos, dice) == expected, f"{name} [{rule}]"
    assert len(legal_positions(pos, dice)) == n_results
    # Dice order does not matter.
    assert play_texts(pos, (dice[1], dice[0])) == expected


def test_edge_cases_agree_with_gnubg() -> None:
    gnubg_nn = load_gnubg_nn()
    for name, pos, dice, *_ in CASES:
        assert agrees_with_gnubg(gnubg_nn, pos, dice), name


def test_opening_counts() -> None:
    # Known counts of distinct results from the opening position.
    start = Position.initial(turn=1)
    assert len(legal_positions(start, (3, 1))) == 16
    assert len(legal_positions(start, (6, 5))) == 7


def test_results_keep_mover_on_roll() -> None:
    start = Position.initial(turn=0)
    assert all(p.turn == 0 for p in legal_positions(start, (4, 2)))


@pytest.mark.parametrize(
    ("dice", "error"),
    [((0, 3), "dice must be 1..6"), ((7, 1), "dice must be 1..6"), ((1,), "two dice")],
)
def test_bad_dice(dice: tuple[int, ...], error: str) -> None:
    with pytest.raises(ValueError, match=error):
        legal_positions(Position.initial(), dice)


@pytest.mark.parametrize(
    ("text", "moves", "error"),
    [
        ("24/18 13/11", [(24, 18), (13, 11)], None),
        ("25/22 6/0", [(25, 22), (6, 0)], None),
        ("bar/22 6/off", [(25, 22), (6, 0)], None),
        ("13/7(2)", [(13, 7), (13, 7)], None),
        ("24/18*/13", [(24, 13)], None),
        ("Bar/20*", [(25, 20)], None),
        ("", [], None),
        ("13-7", None, "cannot read move"),
        ("7/13", None, "goes backwards"),
        ("off/3", None, "cannot start off"),
        ("13/26", None, "no point 26"),
        ("6/bar", None, "cannot end on the bar"),
    ],
)
def test_parse_play_text(text: str, moves: list[tuple[int, int]] | None, error: str | None) -> None:
    if error:
        with pytest.raises(IllegalPlayError, match=error):
            parse_play_text(text)
    else:
        assert [(w.src, w.dst) for w in parse_play_text(text)] == moves


@pytest.mark.parametrize(
    ("text", "dice", "result_play", "error"),
    [
        ("24/13", (6, 5), "24/18 18/13", None),  # XG notation, via 18 (19 is blocked)
        ("24/18 18/13", (6, 5), "24/18 18/13", None),
        ("13/7 13/8", (6, 5), "13/8 13/7", None),  # canonical order: by source, then dest
        ("13/7(2) 8/2(2)", (6, 6), "13/7 13/7 8/2 8/2", None),
        ("24/23 13/9", (4, 1), "24/23 13/9", None),
        ("13/9", (4, 1), None, "each using 2 dice"),  # the 1 left unplayed
        ("13/7 13/8", (6, 6), None, "illegal play"),
        ("5/1", (4, 1), None, "no checker on 5"),
    ],
)
def test_resolve_play(
    text: str, dice: tuple[int, int], result_play: str | None, error: str | None
) -> None:
    start = Position.initial(turn=1)
    if error:
        with pytest.raises(IllegalPlayError, match=error):
            resolve_play(start, dice, text)
        return
    after, play = resolve_play(start, dice, text)
    assert str(play) == result_play
    assert play_result(start, dice, result_play) == after


def test_resolve_play_chooses_by_hit_mark() -> None:
    # X: one on 13; O blot on 7. "13/6" can go via 7 (hitting) or via 12; an unmarked
    # move means no hit, as every writer marks hits with '*'.
    pos = make_position({13: 1}, {7: 1})
    after, play = resolve_play(pos, (6, 1), "13/6")
    assert str(play) == "13/12 12/6"
    after, play = resolve_play(pos, (6, 1), "13/7*/6")
    assert str(play) == "13/7* 7/6"
    assert after.bar(1 - pos.turn) == 1
    after, play = resolve_play(pos, (6, 1), "13/12 12/6")
    assert after.bar(1 - pos.turn) == 0


def test_infer_play_legal_and_illegal() -> None:
    start = Position.initial(turn=1)
    after = play_result(start, (3, 1), "8/5 6/5")
    found = infer_play(start, (3, 1), after)
    assert found.is_legal
    assert [str(p) for p in found.plays] == ["8/5 6/5"]
    # The turn marker of the observed position does not matter.
    assert infer_play(start, (3, 1), after.swapped_turn()).is_legal

    # One checker playing both dice (8/5/4) is legal too, by either order.
    both = infer_play(start, (3, 1), play_result(start, (3, 1), "8/4"))
    assert sorted(str(p) for p in both.plays) == ["8/5 5/4", "8/7 7/4"]


def test_infer_play_suggests_nearest() -> None:
    start = Position.initial(turn=1)
    # 13/7 with a 3-1 (moved 6 pips): illegal.
    moved = list(start.boards[1])
    moved[12] -= 1
    moved[6] += 1
    seen = Position.from_boards(moved, start.boards[0], 1)
    found = infer_play(start, (3, 1), seen, suggestions=3)
    assert not found.is_legal
    assert len(found.nearest) == 3
    assert found.nearest[0].distance == 1
    for s in found.nearest:
        assert checkers_out_of_place(seen, s.position) == s.distance
        assert s.plays


def test_checkers_out_of_place_counts_missing_checker() -> None:
    start = Position.initial(turn=1)
    fewer = list(start.boards[1])
    fewer[5] -= 1  # a checker the camera missed (it now counts as borne off)
    seen = Position.from_boards(fewer, start.boards[0], 1)
    assert checkers_out_of_place(start, seen) == 1
    assert checkers_out_of_place(start, start) == 0
