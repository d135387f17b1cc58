"""The ``.mat`` match transcript (Jellyfish / GNU Backgammon text), at the syntax level.

:func:`read_mat` turns the text of a transcript into a :class:`MatchRecord`: the
header tags, the match length and, per game, the players, the score at the start
and the actions in the order they happened. It checks syntax only — whether a play
is legal, a double allowed or a score right is for the replay, which applies the
rules. It is lenient: every problem comes back as a :class:`MatProblem` with its
line number and what was expected, and reading goes on; ``strict=True`` raises
:class:`MatError` at the first one instead.

:func:`write_mat` writes the one canonical form: the column layout GNU Backgammon's
``export match mat`` uses, so that a file GNU Backgammon exported comes back byte for
byte (see ``docs`` in :func:`write_mat` for what is normalised).

This module is the reader and the one place to import from: the record types live in
``engine/matrecord.py``, the writer in ``engine/matwrite.py``, and both are re-exported
here.

Dialects read (see ``../shared/data/mat/README.md``):

* GNU Backgammon exports: ``25/22`` (bar), ``6/0`` (off), ``13/7*`` (hit), a roll
  with nothing after it for a dance, ``Wins N point(s)`` indented in the winner's
  column, ``; [Tag "value"]`` header lines.
* Backgammon Galaxy / eXtreme Gammon: ``bar/22``, ``6/off``, ``13/7(2)``,
  ``24/18*/13``; ``Wins 2 point`` (singular for plural), ``Losses 1 point`` in the
  loser's column, ``Wins 1 point and the match``; blank lines doubled or missing.
* Windows line endings, a byte-order mark, tabs (at 8-column stops).

A numbered line holds the left player's action, then the right player's. The split
between the two columns is found from the second roll token (``41:``) on the line
where there is one; otherwise from where the right column starts in that game (the
second roll token's usual column, or the second name of the score line): an action
or a ``Wins`` line that starts left of it belongs to the left player.

>>> text = '''
...  5 point match
...
...  Game 1
...  alice : 0                      bob : 0
...   1)                             41: 13/9 24/23
...   2) 31: 8/5 6/5                  Doubles => 2
...   3)  Drops                       Wins 1 point
... '''
>>> record, problems = read_mat(text)
>>> problems
[]
>>> [(a.player, a.kind) for a in record.games[0].actions]
[(1, 'roll'), (0, 'roll'), (1, 'double'), (0, 'drop'), (1, 'win')]
>>> record.games[0].actions[1].play, record.games[0].actions[2].cube
('8/5 6/5', 2)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from .matrecord import Action as Action
from .matrecord import ActionKind as ActionKind
from .matrecord import GameRecord as GameRecord
from .matrecord import MatchRecord as MatchRecord
from .matwrite import RIGHT_COLUMN as RIGHT_COLUMN
from .matwrite import gnubg_moves as gnubg_moves
from .matwrite import write_mat as write_mat
from .moves import parse_play_text

# A line's first action this far after the move number's ")" is the right player's
# (a left action starts one or two columns after it, or at the next tab stop).
_EMPTY_LEFT_GAP = 8


class MatError(ValueError):
    """A ``.mat`` text that cannot be read (strict mode), with its line number."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


@dataclass(frozen=True, slots=True)
class MatProblem:
    """Something :func:`read_mat` could not read as written, and what it expected."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


# --- reading ---------------------------------------------------------------------------

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_TAG = re.compile(r'^;\s*\[\s*([^"\]]*?)\s+"(.*)"\s*\]\s*$')
_MATCH_LENGTH = re.compile(
    r"^\s*(?:(\d+)|unlimited)\s+points?\s+match\s*$|^\s*unlimited(?:\s+game)?\s*$", re.I
)
_GAME = re.compile(r"^\s*game\s+(\d+)\s*$", re.I)
_SCORE = re.compile(r"^\s*(\S.*?)\s*:\s*(\d+)\s+(\S.*?)\s*:\s*(\d+)\s*$")
_NUMBERED = re.compile(r"^\s*(\d+)\)")
# The start of an action: a roll ("41:") or a cube / result keyword.
_ITEM = re.compile(
    r"(?<!\S)(?:(?P<roll>\d\d):|(?P<word>doubles?|takes?|drops?|wins|losses|loses)(?!\w))",
    re.I,
)
_DOUBLE = re.compile(r"doubles?(?:\s*=>\s*(\d+))?", re.I)
_TAKE = re.compile(r"takes?", re.I)
_DROP = re.compile(r"drops?", re.I)
_RESULT = re.compile(r"(wins|losses|loses)\s+(\d+)\s+points?(\s+and\s+the\s+match)?", re.I)

_EXPECTED_ACTION = (
    "expected a roll ('41: 13/9 24/23'), 'Doubles => N', 'Takes', 'Drops' or 'Wins N points'"
)


class _Problems:
    """Collects problems; in strict mode the first one raises."""

    def __init__(self, strict: bool) -> None:
        self.strict = strict
        self.found: list[MatProblem] = []

    def add(self, line: int, message: str) -> None:
        if self.strict:
            raise MatError(line, message)
        self.found.append(MatProblem(line, message))


@dataclass(frozen=True, slots=True)
class _Item:
    """One action's text on a line: where it starts and what it says."""

    column: int
    text: str
    is_roll: bool


def _lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, line) with the BOM, line endings and tabs dealt with."""
    text = text.removeprefix("\ufeff")
    for number, line in enumerate(_LINE_BREAK.split(text), start=1):
        yield number, line.expandtabs(8).rstrip()


def _items(line: str, start: int) -> tuple[str, list[_Item]]:
    """The text before the first action (should be blank) and the actions from ``start``."""
    matches = list(_ITEM.finditer(line, start))
    items = []
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(line)
        items.append(_Item(m.start(), line[m.start() : end].strip(), m.group("roll") is not None))
    lead = line[start : matches[0].start()] if matches else line[start:]
    return lead.strip(), items


def _second_roll_column(line: str) -> int | None:
    numbered = _NUMBERED.match(line)
    start = numbered.end() if numbered else 0
    rolls = [m.start() for m in _ITEM.finditer(line, start) if m.group("roll")]
    return rolls[1] if len(rolls) >= 2 else None


def _split_columns(
    items: list[_Item], right_column: int, left_start: int | None
) -> tuple[list[_Item], list[_Item]]:
    """Which actions of one line are the left player's and which the right player's.

    ``left_start`` is the column after a move number's ``)``, None without one.
    """
    rolls = [item for item in items if item.is_roll]
    # Without two rolls, anything from two columns before the right column's start
    # is the right player's: gnubg writes a right "Wins" one column early after a
    # bare roll, and the score line's second name one column early.
    split = rolls[1].column if len(rolls) >= 2 else right_column - 2
    if items and left_start is not None and items[0].column - left_start >= _EMPTY_LEFT_GAP:
        # Far from the move number: the left column is empty (tab-separated files).
        split = min(split, items[0].column)
    left = [item for item in items if item.column < split]
    right = [item for item in items if item.column >= split]

    def primaries(column: list[_Item]) -> list[int]:
        return [i for i, item in enumerate(column) if not _RESULT_WORD.match(item.text)]

    # One roll or cube action per player per line: a second one on the left is the
    # right player's (columns narrower than expected), and vice versa.
    left_primary, right_primary = primaries(left), primaries(right)
    if len(left_primary) >= 2 and not right_primary:
        cut = left_primary[1]
        left, right = left[:cut], left[cut:] + right
    elif len(right_primary) >= 2 and not left_primary:
        cut = right_primary[1]
        left, right = left + right[:cut], right[cut:]
    return left, right


_RESULT_WORD = re.compile(r"(wins|losses|loses)\b", re.I)


def _parse_item(
    item: _Item, player: int, line_no: int, move_number: int, problems: _Problems
) -> Action | None:
    text = item.text
    if item.is_roll:
        d0, d1 = int(text[0]), int(text[1])
        play = " ".join(text[3:].split())
        if not (1 <= d0 <= 6 and 1 <= d1 <= 6):
            problems.add(line_no, f"dice {text[:2]!r} out of range in {text!r}: expected 1..6")
            return None
        if play:
            try:
                parse_play_text(play)
            except ValueError as e:
                problems.add(line_no, f"cannot read the play in {text!r}: {e}")
        return Action(player, "roll", line_no, move_number, dice=(d0, d1), play=play)
    if m := _DOUBLE.fullmatch(text):
        cube = int(m.group(1)) if m.group(1) else None
        return Action(player, "double", line_no, move_number, cube=cube)
    if _TAKE.fullmatch(text):
        return Action(player, "take", line_no, move_number)
    if _DROP.fullmatch(text):
        return Action(player, "drop", line_no, move_number)
    if m := _RESULT.fullmatch(text):
        kind: ActionKind = "win" if m.group(1).lower() == "wins" else "lose"
        return Action(
            player,
            kind,
            line_no,
            move_number,
            points=int(m.group(2)),
            and_match=m.group(3) is not None,
        )
    problems.add(line_no, f"cannot read {text!r}: {_EXPECTED_ACTION}")
    return None


@dataclass
class _GameBuilder:
    number: int
    line: int
    score: tuple[int, int] = (0, 0)
    players: tuple[str, str] = ("", "")
    right_column: int = RIGHT_COLUMN
    has_score_line: bool = False
    last_move_number: int = 0

    def __post_init__(self) -> None:
        self.actions: list[Action] = []

    def build(self) -> GameRecord:
        return GameRecord(self.number, self.score, self.players, tuple(self.actions), self.line)


def _right_columns(lines: list[tuple[int, str]]) -> tuple[dict[int, int], int | None]:
    """Where the right column starts, per game (keyed by its header line) and overall.

    The leftmost second roll token of a game's lines: a longer left column only ever
    pushes the right one further right.
    """
    per_game: dict[int, int] = {}
    overall: int | None = None
    game_line: int | None = None
    for number, line in lines:
        if _GAME.match(line):
            game_line = number
            continue
        column = _second_roll_column(line)
        if column is None or game_line is None:
            continue
        per_game[game_line] = min(per_game.get(game_line, column), column)
        overall = column if overall is None else min(overall, column)
    return per_game, overall


def read_mat(text: str, *, strict: bool = False) -> tuple[MatchRecord, list[MatProblem]]:
    """Read a ``.mat`` transcript; return the record and the problems found.

    Lenient: a line that cannot be read is reported (line number, the text, what
    was expected) and skipped. With ``strict=True`` the first problem raises
    :class:`MatError` instead.

    >>> text = " 3 point match\\n\\n Game 1\\n a : 0   b : 0\\n  1) 65: 24/13 kaput\\n"
    >>> record, problems = read_mat(text)
    >>> record.match_length, record.players, record.games[0].actions[0].play
    (3, ('a', 'b'), '24/13 kaput')
    >>> [str(p) for p in problems]
    ["line 5: cannot read the play in '65: 24/13 kaput': cannot read move 'kaput' in '24/13 kaput'"]
    >>> try:
    ...     read_mat(text, strict=True)
    ... except MatError as e:
    ...     print(e.line)
    5
    """
    problems = _Problems(strict)
    lines = list(_lines(text))
    per_game_right, overall_right = _right_columns(lines)

    tags: list[tuple[str, str]] = []
    comments: list[str] = []
    match_length: int | None = None
    games: list[_GameBuilder] = []
    game: _GameBuilder | None = None
    awaiting_score = False

    for number, line in lines:
        if not line.strip():
            continue
        if match_length is None and not _GAME.match(line):
            # The header: tags, comments, then "N point match".
            stripped = line.lstrip()
            if stripped.startswith((";", "#")):
                if tag := _TAG.match(stripped):
                    tags.append((tag.group(1), tag.group(2)))
                else:
                    comments.append(stripped[1:].strip())
                continue
            if m := _MATCH_LENGTH.match(line):
                match_length = int(m.group(1)) if m.group(1) else 0
                continue
            problems.add(
                number,
                f"cannot read {line.strip()!r}: expected '; [Tag \"value\"]' or 'N point match'",
            )
            continue
        if m := _GAME.match(line):
            if match_length is None:
                problems.add(number, f"{line.strip()!r} before the 'N point match' line")
                match_length = 0
            if game is not None and awaiting_score:
                problems.add(game.line, f"no score line after 'Game {game.number}'")
            game_number = int(m.group(1))
            # the first game may be any: an excerpt of a match (a recording that
            # began late) starts from its first game's written score
            expected = games[-1].number + 1 if games else game_number
            if game_number != expected:
                problems.add(number, f"game {game_number} out of order: expected Game {expected}")
            right = per_game_right.get(number, overall_right)
            game = _GameBuilder(game_number, number)
            if games:
                game.players = games[-1].players
            if right is not None:
                game.right_column = right
            games.append(game)
            awaiting_score = True
            continue
        if game is None:
            problems.add(number, f"cannot read {line.strip()!r}: expected ' Game N'")
            continue
        if awaiting_score:
            awaiting_score = False
            if m := _SCORE.match(line):
                game.players = (m.group(1), m.group(3))
                game.score = (int(m.group(2)), int(m.group(4)))
                game.has_score_line = True
                if game.line not in per_game_right and overall_right is None:
                    game.right_column = m.start(3)
                continue
            problems.add(
                number,
                f"cannot read {line.strip()!r}: expected the score line "
                f"'name : score   name : score' after 'Game {game.number}'",
            )
        _read_action_line(game, number, line, problems)

    if match_length is None:
        problems.add(len(lines), "no 'N point match' line")
        match_length = 0
    if game is not None and awaiting_score:
        problems.add(game.line, f"no score line after 'Game {game.number}'")

    players = games[0].players if games else _players_from_tags(tags)
    for g in games[1:]:
        if g.has_score_line and g.players != players:
            problems.add(
                g.line + 1,
                f"players {g.players!r} differ from game {games[0].number}'s {players!r}",
            )
    record = MatchRecord(
        match_length,
        players,
        tuple(tags),
        tuple(g.build() for g in games),
        tuple(comments),
    )
    return record, problems.found


def _players_from_tags(tags: list[tuple[str, str]]) -> tuple[str, str]:
    named = {k.casefold(): v for k, v in tags}
    return named.get("player 1", ""), named.get("player 2", "")


def _read_action_line(game: _GameBuilder, number: int, line: str, problems: _Problems) -> None:
    numbered = _NUMBERED.match(line)
    start = numbered.end() if numbered else 0
    lead, items = _items(line, start)
    if lead:
        problems.add(number, f"cannot read {lead!r} in {line.strip()!r}: {_EXPECTED_ACTION}")
    if numbered:
        move_number = int(numbered.group(1))
        if move_number != game.last_move_number + 1:
            problems.add(
                number,
                f"move number {move_number} out of order in game {game.number}: "
                f"expected {game.last_move_number + 1}",
            )
        game.last_move_number = move_number
    else:
        move_number = game.last_move_number
        if any(item.is_roll or not _RESULT_WORD.match(item.text) for item in items):
            problems.add(number, f"no move number ('N)') on {line.strip()!r}")
    left, right = _split_columns(items, game.right_column, start if numbered else None)
    for player, column in ((0, left), (1, right)):
        for item in column:
            action = _parse_item(item, player, number, move_number, problems)
            if action is not None:
                game.actions.append(action)
