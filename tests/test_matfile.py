"""The ``.mat`` reader and writer: real files, dialects, broken inputs, round trips.

GNU Backgammon is the oracle for the writer: its own exports must come back byte for
byte, and a file we write for a Backgammon Galaxy transcript must import into gnubg
exactly as the Galaxy file does.
"""

from __future__ import annotations

import dataclasses
import doctest
import itertools
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gammoneye.engine import matfile
from gammoneye.engine.matfile import (
    Action,
    GameRecord,
    MatchRecord,
    MatError,
    gnubg_moves,
    read_mat,
    write_mat,
)

MAT_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "mat"
GNUBG = Path("/usr/games/gnubg")

needs_mat_dir = pytest.mark.skipif(
    not MAT_DIR.is_dir(), reason=f"match transcripts not found at {MAT_DIR}"
)
needs_gnubg = pytest.mark.skipif(
    not os.access(GNUBG, os.X_OK),
    reason=f"GNU Backgammon not installed at {GNUBG} (Debian package gnubg; scripts/setup)",
)

# Files GNU Backgammon wrote: the writer must reproduce them byte for byte.
GNUBG_EXPORTS = [
    "generated_gnubg_selfplay_7p_seed1.mat",
    "kevung_charlot1-charlot2_7p.mat",
    "kevung_gnubg_roll_then_resign_1p.mat",
    "kevung_gnubg_selfplay_drops_7p.mat",
    "lassehjorthmadsen_test-match01.mat",  # an older gnubg: no header tags
]
GALAXY_EXPORTS = [
    "lassehjorthmadsen_match1484923.mat",
    "lassehjorthmadsen_match1486073.mat",
]

# What each shared file holds: (file, match length, players, games, results per game as
# (winner, points), kinds that occur besides roll/win).
SHARED_FILES = [
    (
        "generated_gnubg_selfplay_7p_seed1.mat",
        7,
        ("gnubg", "root"),
        [(1, 1), (0, 2), (0, 1), (1, 1), (0, 2), (0, 1), (0, 1)],
        {"double", "take", "drop"},
    ),
    (
        "kevung_charlot1-charlot2_7p.mat",
        7,
        ("charlot1", "charlot2"),
        [(1, 2), (0, 2), (0, 4), (0, 3)],
        {"double", "take", "drop"},
    ),
    (
        "kevung_gnubg_roll_then_resign_1p.mat",
        1,
        ("charlot1", "charlot2"),
        [(0, 1)],
        set(),
    ),
    (
        "kevung_gnubg_selfplay_drops_7p.mat",
        7,
        ("charlot1", "charlot2"),
        [(0, 1), (1, 1), (1, 2), (1, 2), (0, 2), (1, 2)],
        {"double", "take", "drop"},
    ),
    (
        "lassehjorthmadsen_match1484923.mat",
        5,
        ("klara", "lasse"),
        [(1, 2), (0, 2), (1, 2), (1, 1)],
        {"double", "take", "lose"},
    ),
    (
        "lassehjorthmadsen_match1486073.mat",
        3,
        ("lasse", "jonnyb1169"),
        [(0, 2), (0, 1)],
        {"double", "take"},
    ),
    (
        "lassehjorthmadsen_test-match01.mat",
        3,
        ("gnubg", "LMDN"),
        [(1, 2), (0, 1), (1, 2)],
        {"double", "take"},
    ),
]


def test_doctests() -> None:
    result = doctest.testmod(matfile)
    assert result.failed == 0


def results(game: GameRecord) -> list[tuple[int, int]]:
    return [(a.player, a.points or 0) for a in game.actions if a.kind == "win"]


# --- the shared files ---------------------------------------------------------------------


@needs_mat_dir
def test_the_table_covers_every_shared_file() -> None:
    assert sorted(p.name for p in MAT_DIR.glob("*.mat")) == sorted(row[0] for row in SHARED_FILES)


@needs_mat_dir
@pytest.mark.parametrize(("name", "length", "players", "wins", "kinds"), SHARED_FILES)
def test_shared_file_reads_without_problems(
    name: str,
    length: int,
    players: tuple[str, str],
    wins: list[tuple[int, int]],
    kinds: set[str],
) -> None:
    record, problems = read_mat((MAT_DIR / name).read_text(encoding="utf-8"))
    assert problems == []
    assert record.match_length == length
    assert record.players == players
    assert [w for g in record.games for w in results(g)] == wins
    seen = {a.kind for g in record.games for a in g.actions} - {"roll", "win"}
    assert seen == kinds
    # Each game's score is the previous score plus the previous game's points: the
    # "Wins" lines went to the right columns.
    for before, after in zip(record.games, record.games[1:], strict=False):
        ((winner, points),) = results(before)
        expected = list(before.score)
        expected[winner] += points
        assert list(after.score) == expected, f"game {after.number}"
    for game in record.games:
        rollers = [a.player for a in game.actions if a.kind == "roll"]
        assert all(a != b for a, b in itertools.pairwise(rollers)), game.number
        assert all(a.dice is not None for a in game.actions if a.kind == "roll")
        numbers = [a.move_number for a in game.actions]
        assert numbers == sorted(numbers)


@needs_mat_dir
def test_line_numbers_point_at_the_text() -> None:
    text = (MAT_DIR / "generated_gnubg_selfplay_7p_seed1.mat").read_text(encoding="utf-8")
    lines = text.split("\n")
    record, _ = read_mat(text)
    for game in record.games:
        assert lines[game.line - 1].strip() == f"Game {game.number}"
        for action in game.actions:
            line = lines[action.line - 1]
            if action.kind == "roll":
                assert action.dice is not None
                assert f"{action.dice[0]}{action.dice[1]}: {action.play}".strip() in line
            elif action.kind != "win":
                assert action.kind[:4].lower() in line.lower()
            if line.lstrip()[:1].isdigit():
                assert line.lstrip().startswith(f"{action.move_number})")


@needs_mat_dir
@pytest.mark.parametrize("name", GNUBG_EXPORTS)
def test_writer_reproduces_gnubg_exports_byte_for_byte(name: str) -> None:
    text = (MAT_DIR / name).read_text(encoding="utf-8")
    assert write_mat(read_mat(text)[0]) == text


def comparable(record: MatchRecord) -> list[tuple[object, ...]]:
    """Games and actions without line numbers and without Galaxy's ``Losses`` lines."""
    return [
        (
            g.number,
            g.score,
            g.players,
            *(
                (a.player, a.kind, a.dice, a.play, a.cube, a.points, a.and_match)
                for a in g.actions
                if a.kind != "lose"
            ),
        )
        for g in record.games
    ]


@needs_mat_dir
@pytest.mark.parametrize("name", GALAXY_EXPORTS)
def test_galaxy_files_survive_write_and_read(name: str) -> None:
    record, _ = read_mat((MAT_DIR / name).read_text(encoding="utf-8"))
    again, problems = read_mat(write_mat(record))
    assert problems == []
    assert comparable(again) == comparable(record)
    assert again.tags == record.tags
    assert again.match_length == record.match_length


# --- dialects -----------------------------------------------------------------------------

XG_DIALECT = """\
; [Site "XG test"]

3 point match

 Game 1
 alice : 0                      bob : 0
  1) 31: 8/5 6/5                 64: 24/18 13/9
  2) 64: 13/7* 13/9              43: bar/21 24/21
  3) 55: 13/3(2)                 44: 13/5(2)
  4) 65: 24/13                   62: 21/15*/13
  5) 21: 6/off 5/4               43:
"""


def test_xg_notation_is_kept_as_written() -> None:
    record, problems = read_mat(XG_DIALECT)
    assert problems == []
    plays = [(a.player, a.play) for a in record.games[0].actions]
    assert plays == [
        (0, "8/5 6/5"),
        (1, "24/18 13/9"),
        (0, "13/7* 13/9"),
        (1, "bar/21 24/21"),
        (0, "13/3(2)"),
        (1, "13/5(2)"),
        (0, "24/13"),
        (1, "21/15*/13"),
        (0, "6/off 5/4"),
        (1, ""),
    ]
    assert record.tags == (("Site", "XG test"),)


def test_xg_notation_is_written_in_gnubg_numbers() -> None:
    written = write_mat(read_mat(XG_DIALECT)[0])
    assert "  2) 64: 13/7* 13/9              43: 25/21 24/21 \n" in written
    assert "  3) 55: 13/8 8/3 13/8 8/3       44: 13/9 9/5 13/9 9/5\n" in written
    assert "  4) 65: 24/13                   62: 21/15* 15/13 \n" in written
    assert "  5) 21: 6/0 5/4                 43: \n" in written


@pytest.mark.parametrize(
    ("play", "dice", "expected"),
    [
        ("24/18 13/11", (6, 2), ["24/18", "13/11"]),
        ("bar/22 6/off", (3, 6), ["25/22", "6/0"]),
        ("24/18*/13", (6, 5), ["24/18*", "18/13"]),
        ("13/7(2)", (6, 6), ["13/7", "13/7"]),
        ("13/1(2)", (6, 6), ["13/7", "7/1", "13/7", "7/1"]),
        ("6/off", (4, 4), ["6/2", "2/0"]),
        ("9/off", (4, 4), ["9/5", "5/1", "1/0"]),
        ("8/4*", (2, 2), ["8/6", "6/4*"]),
        ("24/13", (6, 5), ["24/13"]),  # which die first depends on the position
        ("24/4", (5, 5), ["24/19", "19/14", "14/9", "9/4"]),
        ("24/0", (5, 5), ["24/0"]),  # five dice: not a play, left as written
        ("", (3, 1), []),
    ],
)
def test_gnubg_moves(play: str, dice: tuple[int, int], expected: list[str]) -> None:
    assert gnubg_moves(play, dice) == expected


def test_windows_line_endings_bom_tabs_and_no_blank_lines() -> None:
    text = (
        '\ufeff; [Site "Ulm"]\r\n 3 point match\r\n Game 1\r\n'
        " alice : 0\t\t\t\tbob : 0\r\n"
        "  1) 31: 8/5 6/5\t\t\t64: 24/18 13/9\r\n"
        "  2)  Doubles => 2\t\t\tDrops\r\n"
        "      Wins 1 point\r\n"
        " Game 2\r\n alice : 1\t\t\t\tbob : 0\r\n"
        "  1)\t\t\t\t42: 8/4 6/4\r\n"
    )
    record, problems = read_mat(text)
    assert problems == []
    assert record.tags == (("Site", "Ulm"),)
    first, second = record.games
    assert [(a.player, a.kind) for a in first.actions] == [
        (0, "roll"),
        (1, "roll"),
        (0, "double"),
        (1, "drop"),
        (0, "win"),
    ]
    assert second.score == (1, 0)
    assert [(a.player, a.kind, a.play) for a in second.actions] == [(1, "roll", "8/4 6/4")]
    assert first.actions[-1].line == 7
    assert second.line == 8


def test_games_without_moves() -> None:
    text = " 5 point match\n\n Game 1\n a : 0     b : 0\n\n Game 2\n a : 0     b : 0\n"
    record, problems = read_mat(text)
    assert problems == []
    assert [len(g.actions) for g in record.games] == [0, 0]
    assert read_mat(write_mat(record))[0] == record


@pytest.mark.parametrize(
    ("line", "length"),
    [
        (" 7 point match", 7),
        ("7 point match", 7),
        ("1 Point Match", 1),
        (" 0 point match", 0),
        ("Unlimited point match", 0),
        ("unlimited", 0),
    ],
)
def test_match_length_line(line: str, length: int) -> None:
    record, problems = read_mat(f"{line}\n\n Game 1\n a : 0   b : 0\n")
    assert (record.match_length, problems) == (length, [])


def test_galaxy_losses_and_the_match() -> None:
    text = (
        "5 point match\n\n Game 1\n klara : 2                       lasse : 4\n"
        "  1)                             43: 24/20 13/10\n"
        "  2)  Losses 1 point                                               "
        "Wins 1 point and the match\n"
    )
    record, problems = read_mat(text)
    assert problems == []
    lose, win = record.games[0].actions[1:]
    assert (lose.player, lose.kind, lose.points, lose.and_match) == (0, "lose", 1, False)
    assert (win.player, win.kind, win.points, win.and_match) == (1, "win", 1, True)
    written = write_mat(record)
    assert "Losses" not in written
    assert written.endswith("\n" + " " * 34 + "Wins 1 point and the match\n\n")


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        # gnubg's resignations after a bare roll (MOVE_SETDICE): the "Wins" sits in
        # the winner's column, sometimes one column early, sometimes on the roll's line.
        (["  1) 51:       Wins 1 point"], [(0, "roll"), (0, "win")]),
        (["  1) 51: " + " " * 24 + "Wins 1 point"], [(0, "roll"), (1, "win")]),
        (
            ["  1) 62: 13/7* 24/22             51:  Wins 1 point"],
            [(0, "roll"), (1, "roll"), (1, "win")],
        ),
        (
            ["  1) 62: 13/7* 24/22             51: ", "      Wins 1 point"],
            [(0, "roll"), (1, "roll"), (0, "win")],
        ),
        # A left column wider than 27 characters pushes the right one along.
        (
            ["  1) 11: 17/16 16/15 15/14 14/13* 41: 25/21"],
            [(0, "roll"), (1, "roll")],
        ),
        (
            ["  1) 11: 17/16 16/15 15/14 14/13*  Doubles => 2"],
            [(0, "roll"), (1, "double")],
        ),
        # A dance on the left, then the right player's cube action.
        (["  1) 43:                          Doubles => 2"], [(0, "roll"), (1, "double")]),
        (["  1)  Takes                      31: 13/10 10/9"], [(0, "take"), (1, "roll")]),
        (["  1)  Doubles => 2                Takes"], [(0, "double"), (1, "take")]),
        # Narrow columns (another writer): one cube action per player per line.
        (["  1)  Doubles => 2  Takes"], [(0, "double"), (1, "take")]),
        (["                                  Wins 2 points"], [(1, "win")]),
        (["      Wins 2 point"], [(0, "win")]),
    ],
)
def test_column_assignment(rows: list[str], expected: list[tuple[int, str]]) -> None:
    text = " 7 point match\n\n Game 1\n a : 0                      b : 0\n" + "\n".join(rows) + "\n"
    record, problems = read_mat(text)
    assert problems == []
    assert [(a.player, a.kind) for a in record.games[0].actions] == expected


def test_narrow_columns_are_found_from_the_rolls() -> None:
    text = (
        " 3 point match\n Game 1\n a : 0  b : 0\n"
        "  1) 31: 8/5 6/5  64: 24/18 13/9\n"
        "  2) 42: 8/4 6/4  Doubles => 2\n"
        "  3)  Takes       21: 13/11 6/5\n"
        "  4)              33: 8/5(2)\n"
    )
    record, problems = read_mat(text)
    assert problems == []
    assert [(a.player, a.kind) for a in record.games[0].actions] == [
        (0, "roll"),
        (1, "roll"),
        (0, "roll"),
        (1, "double"),
        (0, "take"),
        (1, "roll"),
        (1, "roll"),
    ]


# --- broken inputs: every problem with its line -----------------------------------------

HEAD = " 7 point match\n\n Game 1\n a : 0                      b : 0\n"  # lines 1-4

BROKEN = [
    # (name, text, expected problems as (line, words in the message))
    ("bad die", HEAD + "  1) 71: 8/1 6/5\n", [(5, "dice '71' out of range")]),
    ("bad play", HEAD + "  1) 31: 8/5 6/x\n", [(5, "cannot read the play in '31: 8/5 6/x'")]),
    (
        "backwards move",
        HEAD + "  1) 31: 8/5 6/5                 64: 18/24\n",
        [(5, "goes backwards")],
    ),
    ("unknown word", HEAD + "  1) 31: 8/5 6/5\n  2)  Beavers\n", [(6, "cannot read 'Beavers'")]),
    (
        "garbage after a cube word",
        HEAD + "  1)  Doubles to 2\n",
        [(5, "cannot read 'Doubles to 2'")],
    ),
    ("bad result", HEAD + "      Wins two points\n", [(5, "cannot read 'Wins two points'")]),
    (
        "move numbers out of order",
        HEAD + "  1) 31: 8/5 6/5\n  3) 31: 8/5 6/5\n",
        [(6, "move number 3 out of order in game 1: expected 2")],
    ),
    ("roll without a move number", HEAD + "      31: 8/5 6/5\n", [(5, "no move number")]),
    (
        "no score line",
        " 7 point match\n\n Game 1\n  1) 31: 8/5 6/5\n",
        [(4, "expected the score line")],
    ),
    ("no match length", " Game 1\n a : 0   b : 0\n", [(1, "before the 'N point match' line")]),
    ("empty text", "", [(1, "no 'N point match' line")]),
    (
        "garbage in the header",
        '; [Site "x"]\nhello\n 7 point match\n',
        [(2, "cannot read 'hello': expected '; [Tag \"value\"]' or 'N point match'")],
    ),
    (
        "games out of order",
        HEAD + "\n Game 3\n a : 0   b : 0\n",
        [(6, "game 3 out of order: expected Game 2")],
    ),
    (
        "players change",
        HEAD + "\n Game 2\n c : 0   b : 0\n",
        [(7, "players ('c', 'b') differ")],
    ),
    ("action before any game", " 7 point match\n  1) 31: 8/5 6/5\n", [(2, "expected ' Game N'")]),
    (
        "several problems, all reported",
        HEAD + "  1) 71: 8/1\n  2) 31: x\n  3)  Hello 31: 8/5 6/5\n",
        [(5, "out of range"), (6, "cannot read the play"), (7, "cannot read 'Hello'")],
    ),
]


@pytest.mark.parametrize(("name", "text", "expected"), BROKEN, ids=[row[0] for row in BROKEN])
def test_problems_name_the_line(name: str, text: str, expected: list[tuple[int, str]]) -> None:
    _, problems = read_mat(text)
    assert [p.line for p in problems] == [line for line, _ in expected], problems
    for problem, (_, words) in zip(problems, expected, strict=True):
        assert words in problem.message


@pytest.mark.parametrize(("name", "text", "expected"), BROKEN, ids=[row[0] for row in BROKEN])
def test_strict_raises_at_the_first_problem(
    name: str, text: str, expected: list[tuple[int, str]]
) -> None:
    with pytest.raises(MatError) as info:
        read_mat(text, strict=True)
    assert info.value.line == expected[0][0]
    assert expected[0][1] in str(info.value)
    assert str(info.value).startswith(f"line {expected[0][0]}: ")


def test_lenient_reading_keeps_what_it_can() -> None:
    record, problems = read_mat(HEAD + "  1) 71: 8/1 6/5                 64: 24/18 13/9\n")
    assert len(problems) == 1
    assert [(a.player, a.play) for a in record.games[0].actions] == [(1, "24/18 13/9")]


# --- writing --------------------------------------------------------------------------------


def game_of(*actions: Action, players: tuple[str, str] = ("a", "b")) -> MatchRecord:
    return MatchRecord(3, players, (), (GameRecord(1, (0, 0), players, actions, 0),))


@pytest.mark.parametrize(
    ("actions", "last_lines"),
    [
        (
            [Action(0, "double", 0, 1), Action(1, "take", 0, 1), Action(0, "double", 0, 2)],
            ["  1)  Doubles => 2                Takes", "  2)  Doubles => 4".ljust(33), ""],
        ),
        (
            [Action(0, "roll", 0, 1, dice=(6, 6)), Action(1, "win", 0, 1, points=1)],
            ["  1) 66:                          Wins 1 point", ""],
        ),
        (
            [
                Action(1, "roll", 0, 1, dice=(2, 1), play="13/11 6/5"),
                Action(1, "win", 0, 1, points=6),
            ],
            ["  1)                             21: 13/11 6/5 ", " " * 34 + "Wins 6 points", ""],
        ),
        (
            [
                Action(0, "roll", 0, 1, dice=(2, 1), play="2/0 1/0"),
                Action(0, "win", 0, 1, points=3),
            ],
            ["  1) 21: 2/0 1/0                 ", "      Wins 3 points", ""],
        ),
        (
            [
                Action(1, "double", 0, 1, cube=16),
                Action(0, "drop", 0, 1),
                Action(1, "win", 0, 1, points=8, and_match=True),
            ],
            [
                "  1)                              Doubles => 16",
                "  2)  Drops                       Wins 8 points and the match ",
                "",
            ],
        ),
        (
            # Two left actions in a row: the first line is left without a right column.
            [
                Action(0, "roll", 0, 1, dice=(3, 1), play="8/5 6/5"),
                Action(0, "roll", 0, 2, dice=(4, 2), play="8/4 6/4"),
            ],
            ["  1) 31: 8/5 6/5                 ", "  2) 42: 8/4 6/4                 ", ""],
        ),
    ],
)
def test_writer_layout(actions: list[Action], last_lines: list[str]) -> None:
    written = write_mat(game_of(*actions))
    assert written.split("\n")[-1 - len(last_lines) : -1] == last_lines
    again, problems = read_mat(written)
    assert problems == []
    assert [(a.player, a.kind, a.points) for a in again.games[0].actions] == [
        (a.player, a.kind, a.points) for a in actions
    ]


def test_writer_header() -> None:
    # Without games the players are nowhere but in Galaxy's "Player 1"/"Player 2" tags.
    record = MatchRecord(
        5, ("", ""), (("Site", "Ulm"), ("Player 1 Elo", "1500")), (), ("written by hand",)
    )
    assert write_mat(record) == (
        '; [Site "Ulm"]\n; [Player 1 Elo "1500"]\n; written by hand\n\n 5 point match\n\n'
    )
    assert read_mat(write_mat(record))[0] == record


@pytest.mark.parametrize(
    ("record", "error"),
    [
        (game_of(Action(0, "roll", 0, 1)), "a roll needs dice"),
        (game_of(Action(0, "roll", 0, 1, dice=(7, 1))), "out of range"),
        (game_of(Action(0, "roll", 0, 1, dice=(3, 1), play="8/5 x")), "cannot read move 'x'"),
        (game_of(Action(0, "win", 0, 1)), "'Wins' needs points"),
        (game_of(players=("a:b", "c")), "names need text and no ':'"),
        (MatchRecord(1, ("a", "b"), (("Site", 'say "hi"'),), ()), "cannot be written as a tag"),
    ],
)
def test_writer_refuses_what_the_format_cannot_hold(record: MatchRecord, error: str) -> None:
    with pytest.raises(ValueError, match=error):
        write_mat(record)


def test_long_first_name_keeps_a_space() -> None:
    record = game_of(players=("a_very_long_player_name_indeed", "b"))
    written = write_mat(record)
    assert " a_very_long_player_name_indeed : 0 b : 0\n" in written
    assert read_mat(written)[0].players == record.players


# --- round trip property ------------------------------------------------------------------

NAMES = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABC_0123456789", min_size=1, max_size=24)
MOVES = st.sampled_from(["24/18", "13/11", "6/5*", "25/22", "8/0", "2/0", "13/7*", "10/4"])


@st.composite
def actions(draw: st.DrawFn) -> Action:
    player = draw(st.integers(0, 1))
    kind = draw(st.sampled_from(["roll", "roll", "roll", "double", "take", "drop", "win"]))
    if kind == "roll":
        dice = (draw(st.integers(1, 6)), draw(st.integers(1, 6)))
        play = " ".join(draw(st.lists(MOVES, max_size=4)))
        return Action(player, "roll", 0, 0, dice=dice, play=play)
    if kind == "double":
        return Action(player, "double", 0, 0, cube=draw(st.sampled_from([2, 4, 8, 16, 64])))
    if kind == "win":
        return Action(
            player, "win", 0, 0, points=draw(st.integers(0, 12)), and_match=draw(st.booleans())
        )
    return Action(player, kind, 0, 0)


@st.composite
def records(draw: st.DrawFn) -> MatchRecord:
    players = (draw(NAMES), draw(NAMES))
    games = tuple(
        GameRecord(
            i + 1,
            (draw(st.integers(0, 30)), draw(st.integers(0, 30))),
            players,
            tuple(draw(st.lists(actions(), max_size=12))),
            0,
        )
        for i in range(draw(st.integers(0, 3)))
    )
    tags = tuple(
        draw(
            st.lists(
                st.tuples(
                    st.from_regex(r"[A-Z][a-z]{0,8}( [0-9])?", fullmatch=True),
                    st.from_regex(r"[\w .,:/\[\]-]{0,20}", fullmatch=True),
                ),
                max_size=3,
            )
        )
    )
    # Players are written on the games' score lines: without games there are none.
    return MatchRecord(draw(st.integers(0, 25)), players if games else ("", ""), tags, games)


def without_lines(record: MatchRecord) -> MatchRecord:
    return dataclasses.replace(
        record,
        games=tuple(
            dataclasses.replace(
                g,
                line=0,
                actions=tuple(dataclasses.replace(a, line=0, move_number=0) for a in g.actions),
            )
            for g in record.games
        ),
    )


def in_gnubg_numbers(record: MatchRecord) -> MatchRecord:
    """The record with each play as the writer writes it (doubles cut into single dice,
    the higher die first)."""

    def play(a: Action) -> Action:
        if a.kind != "roll" or a.dice is None:
            return a
        return dataclasses.replace(
            a,
            dice=(max(a.dice), min(a.dice)),
            play=" ".join(gnubg_moves(a.play, a.dice)),
        )

    return dataclasses.replace(
        record,
        games=tuple(
            dataclasses.replace(g, actions=tuple(play(a) for a in g.actions)) for g in record.games
        ),
    )


@given(records())
def test_write_then_read_gives_the_record_back(record: MatchRecord) -> None:
    again, problems = read_mat(write_mat(record))
    assert problems == []
    assert without_lines(again) == in_gnubg_numbers(record)
    assert write_mat(again) == write_mat(record)


# --- GNU Backgammon as the oracle ------------------------------------------------------------


def gnubg_export(src: Path, workdir: Path, out_name: str) -> str:
    """Import ``src`` into gnubg, export the match again; the text without EventDate.

    gnubg fills a missing EventDate with today's date, so that line is dropped.
    """
    import gnubg_cli  # tests/ is on sys.path under pytest

    out = workdir / out_name
    gnubg_cli.roundtrip_mat(src, out)
    text = out.read_text(encoding="utf-8")
    return "".join(line for line in text.splitlines(True) if "[EventDate " not in line)


def moves_of(record: MatchRecord) -> list[tuple[object, ...]]:
    """What gnubg keeps: per game the score and per action who, what, dice, cube and
    points, with each play's moves as a sorted multiset without hit marks (gnubg adds
    missing '*' and reorders moves). Galaxy's ``Losses`` lines, which gnubg ignores,
    are left out, and so is the ``and the match`` of a Wins line."""
    return [
        (
            g.score,
            g.players,
            *(
                (
                    a.player,
                    a.kind,
                    a.dice,
                    sorted(a.play.replace("*", "").split()),
                    a.cube,
                    a.points,
                )
                for a in g.actions
                if a.kind != "lose"
            ),
        )
        for g in record.games
    ]


@needs_mat_dir
@needs_gnubg
@pytest.mark.oracle
@pytest.mark.parametrize("name", [*GALAXY_EXPORTS, "lassehjorthmadsen_test-match01.mat"])
def test_gnubg_imports_our_file_like_the_original(name: str) -> None:
    source = MAT_DIR / name
    with tempfile.TemporaryDirectory(prefix="matfile-") as tmp:
        workdir = Path(tmp)
        ours = workdir / "ours.mat"
        original, _ = read_mat(source.read_text(encoding="utf-8"))
        ours.write_text(write_mat(original), encoding="utf-8")
        from_original = gnubg_export(source, workdir, "from-original.mat")
        from_ours = gnubg_export(ours, workdir, "from-ours.mat")
    # The same match inside gnubg, down to the byte of its export ...
    assert from_ours == from_original
    # ... and that match is the one we read: moves, cube actions and scores.
    reimported, problems = read_mat(from_ours)
    assert problems == []
    assert moves_of(reimported) == moves_of(original)


@needs_mat_dir
@needs_gnubg
@pytest.mark.oracle
@pytest.mark.parametrize("name", GNUBG_EXPORTS[:-1])
def test_gnubg_reads_our_writing_of_its_exports(name: str) -> None:
    """gnubg re-imports our writing of its own export as the same match.

    Not byte for byte: gnubg's own records keep a play's moves in the order played
    (``21: 8/7 13/11``), its import sorts them (``13/11 8/7``).
    """
    source = MAT_DIR / name
    original, _ = read_mat(source.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="matfile-") as tmp:
        workdir = Path(tmp)
        ours = workdir / "ours.mat"
        ours.write_text(write_mat(original), encoding="utf-8")
        again, problems = read_mat(gnubg_export(ours, workdir, "again.mat"))
    assert problems == []
    assert moves_of(again) == moves_of(original)


@needs_gnubg
@pytest.mark.oracle
def test_gnubg_reads_xg_notation_the_way_we_write_it() -> None:
    with tempfile.TemporaryDirectory(prefix="matfile-") as tmp:
        workdir = Path(tmp)
        xg = workdir / "xg.mat"
        xg.write_text(XG_DIALECT.replace("  5) 21: 6/off 5/4               43:\n", ""))
        ours = workdir / "ours.mat"
        ours.write_text(write_mat(read_mat(xg.read_text())[0]))
        assert gnubg_export(ours, workdir, "a.mat") == gnubg_export(xg, workdir, "b.mat")
