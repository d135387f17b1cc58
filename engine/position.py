"""Backgammon positions and their text forms (GNU Backgammon Position ID, XGID board).

A :class:`Position` is frozen. It holds, for each of the two players (``0`` and
``1``), the checkers on that player's own points 1..24 and on the bar, seen from
that player's side (the way each player counts pips), plus the player on roll.
Borne-off checkers are whatever is missing from 15.

Conventions (the same as GNU Backgammon's):

* ``boards[p][i]`` is player ``p``'s checker count on *its own* point ``i + 1``
  for ``i`` in ``0..23``; ``boards[p][24]`` is its bar.
* Player 0 is the left column of a ``.mat`` transcript and the top player (``O``,
  lower-case letters) of an XGID; player 1 is the right column, the bottom player
  (``X``, upper-case letters).
* The GNU Backgammon Position ID encodes the player *not* on roll first.

>>> pos = Position.initial(turn=1)
>>> pos.position_id()
'4HPwATDgc/ABMA'
>>> Position.from_position_id('4HPwATDgc/ABMA', turn=1) == pos
True
>>> pos.pips(0), pos.pips(1)
(167, 167)
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

NUM_POINTS = 24
#: Index of the bar in a 25-entry board.
BAR = 24
CHECKERS = 15

Board = tuple[int, ...]

_START_LAYOUT = {6: 5, 8: 3, 13: 5, 24: 2}  # own point -> checkers
_START: Board = (*(_START_LAYOUT.get(point, 0) for point in range(1, NUM_POINTS + 1)), 0)

_XGID_PREFIX = "XGID="
_RUNS_REVERSED = tuple("0" + "1" * n for n in range(CHECKERS + 1))


class PositionError(ValueError):
    """A position, or one of its text forms, is malformed."""


def _check_board(board: Sequence[int], what: str) -> Board:
    if len(board) != NUM_POINTS + 1:
        raise PositionError(f"{what}: expected 25 counts (24 points + bar), got {len(board)}")
    out = tuple(int(n) for n in board)
    for i, n in enumerate(out):
        if not 0 <= n <= CHECKERS:
            where = "bar" if i == BAR else f"point {i + 1}"
            raise PositionError(f"{what}: {n} checkers on {where} (must be 0..15)")
    if sum(out) > CHECKERS:
        raise PositionError(f"{what}: {sum(out)} checkers on the board (at most 15)")
    return out


@dataclass(frozen=True, slots=True)
class Position:
    """Both players' checkers and the player on roll; immutable and hashable.

    Construction checks the shape (25 counts of 0..15 per player, at most 15 each,
    ``turn`` 0 or 1). Positions that are well-formed but impossible in play (both
    players on one point) can exist — a camera can see them; :meth:`problems` says
    what is wrong with them.
    """

    boards: tuple[Board, Board]
    turn: int = 0

    def __post_init__(self) -> None:
        if len(self.boards) != 2:
            raise PositionError(f"expected boards of 2 players, got {len(self.boards)}")
        checked = (
            _check_board(self.boards[0], "player 0"),
            _check_board(self.boards[1], "player 1"),
        )
        if self.turn not in (0, 1):
            raise PositionError(f"turn must be 0 or 1, got {self.turn!r}")
        object.__setattr__(self, "boards", checked)

    # --- construction -------------------------------------------------------------
    @classmethod
    def _trusted(cls, board0: Board, board1: Board, turn: int) -> Position:
        """Build without checks, for code that already guarantees the invariants."""
        pos = _new(cls)
        _set_boards(pos, (board0, board1))
        _set_turn(pos, turn)
        return pos

    @classmethod
    def initial(cls, turn: int = 0) -> Position:
        """The standard opening layout [RULES.md §1, 000 r2, 004]."""
        return cls((_START, _START), turn)

    @classmethod
    def from_boards(cls, on_roll: Sequence[int], not_on_roll: Sequence[int], turn: int) -> Position:
        """From the on-roll player's and the opponent's 25-entry boards."""
        on = tuple(on_roll)
        off = tuple(not_on_roll)
        return cls((off, on) if turn == 1 else (on, off), turn)

    @classmethod
    def from_gnubg_board(cls, board: Sequence[Sequence[int]], turn: int = 0) -> Position:
        """From a GNU Backgammon board ``[not on roll, on roll]``; ``turn`` names who is on roll."""
        if len(board) != 2:
            raise PositionError(f"a gnubg board has 2 halves, got {len(board)}")
        return cls.from_boards(board[1], board[0], turn)

    @classmethod
    def from_position_id(cls, position_id: str, turn: int = 0) -> Position:
        """Decode a GNU Backgammon Position ID (14 base64 characters).

        The ID does not say who is on roll; ``turn`` does.
        """
        text = position_id.strip()
        if len(text) != 14:
            raise PositionError(f"Position ID {position_id!r}: expected 14 characters")
        try:
            raw = base64.b64decode(text + "==", validate=True)
        except (binascii.Error, ValueError) as exc:
            raise PositionError(f"Position ID {position_id!r}: not base64 ({exc})") from None
        bits = int.from_bytes(raw, "little")
        halves: list[list[int]] = [[], []]
        half = 0
        run = 0
        for _ in range(80):
            if half == 2:
                break
            if bits & 1:
                run += 1
            else:
                halves[half].append(run)
                run = 0
                if len(halves[half]) == NUM_POINTS + 1:
                    half += 1
            bits >>= 1
        if half != 2:
            raise PositionError(f"Position ID {position_id!r}: too many checkers encoded")
        for i, h in enumerate(halves):
            if sum(h) > CHECKERS:
                who = "player not on roll" if i == 0 else "player on roll"
                raise PositionError(f"Position ID {position_id!r}: {sum(h)} checkers for {who}")
        return cls.from_boards(halves[1], halves[0], turn)

    @classmethod
    def from_xgid(cls, xgid: str) -> Position:
        """The board and the player on roll of an XGID (other fields ignored).

        Use :func:`gammoneye.engine.matchid.decode_xgid` for the cube, dice and score.
        """
        text = xgid.strip()
        if text.startswith(_XGID_PREFIX):
            text = text[len(_XGID_PREFIX) :]
        fields = text.split(":")
        turn = 1
        if len(fields) > 3:
            turn = _xgid_turn(fields[3], xgid)
        return cls._from_xgid_board(fields[0], turn, xgid)

    @classmethod
    def _from_xgid_board(cls, chars: str, turn: int, source: str) -> Position:
        if len(chars) != 26:
            raise PositionError(f"XGID {source!r}: the board field needs 26 characters")
        top = [0] * 25  # player 0
        bottom = [0] * 25  # player 1
        for i, ch in enumerate(chars):
            if ch == "-":
                continue
            if "A" <= ch <= "P":
                n, who = ord(ch) - ord("A") + 1, 1
            elif "a" <= ch <= "p":
                n, who = ord(ch) - ord("a") + 1, 0
            else:
                raise PositionError(f"XGID {source!r}: bad character {ch!r} at {i}")
            if i == 0:
                if who != 0:
                    raise PositionError(f"XGID {source!r}: char 0 is the top player's bar")
                top[BAR] = n
            elif i == 25:
                if who != 1:
                    raise PositionError(f"XGID {source!r}: char 25 is the bottom player's bar")
                bottom[BAR] = n
            elif who == 1:
                bottom[i - 1] = n
            else:
                top[24 - i] = n
        try:
            return cls((tuple(top), tuple(bottom)), turn)
        except PositionError as exc:
            raise PositionError(f"XGID {source!r}: {exc}") from None

    # --- text forms ---------------------------------------------------------------
    def position_id(self) -> str:
        """The GNU Backgammon Position ID (player not on roll encoded first)."""
        # Each point is a run of ones (its checkers) closed by a zero, lowest bit
        # first, the player not on roll first: as a binary numeral, read backwards.
        numeral = _half_numeral(self.boards[self.turn]) + _half_numeral(self.boards[1 - self.turn])
        value = int(numeral, 2)
        return base64.b64encode(value.to_bytes(10, "little")).decode("ascii")[:14]

    def xgid_board(self) -> str:
        """The 26-character board field of an XGID (player 1 is the bottom player)."""
        top, bottom = self.boards
        chars = [_xg_char(top[BAR], upper=False)]
        for i in range(1, 25):
            b = bottom[i - 1]
            t = top[24 - i]
            if b and t:
                # Impossible in play; XGID cannot say it, so refuse rather than drop one.
                raise PositionError(f"both players on point {i}: no XGID for {self!r}")
            chars.append(_xg_char(b, upper=True) if b else _xg_char(t, upper=False))
        chars.append(_xg_char(bottom[BAR], upper=True))
        return "".join(chars)

    def gnubg_board(self) -> list[list[int]]:
        """The GNU Backgammon board: ``[not on roll, on roll]``, each 25 counts."""
        return [list(self.boards[1 - self.turn]), list(self.boards[self.turn])]

    # --- derived facts --------------------------------------------------------------
    @property
    def on_roll(self) -> Board:
        """The board of the player on roll."""
        return self.boards[self.turn]

    @property
    def opponent(self) -> Board:
        """The board of the player not on roll."""
        return self.boards[1 - self.turn]

    def bar(self, player: int) -> int:
        return self.boards[player][BAR]

    def off(self, player: int) -> int:
        """Checkers the player has borne off (15 minus those still in play)."""
        return CHECKERS - sum(self.boards[player])

    def pips(self, player: int) -> int:
        """Pip count: the distance the player's checkers still have to travel."""
        board = self.boards[player]
        return sum((i + 1) * n for i, n in enumerate(board[:NUM_POINTS])) + 25 * board[BAR]

    def with_turn(self, turn: int) -> Position:
        return Position._trusted(self.boards[0], self.boards[1], turn)

    def swapped_turn(self) -> Position:
        """The same checkers with the other player on roll."""
        return self.with_turn(1 - self.turn)

    def is_game_over(self) -> bool:
        return self.winner() is not None

    def winner(self) -> int | None:
        for p in (0, 1):
            if self.off(p) == CHECKERS:
                return p
        return None

    def result_multiplier(self, winner: int, *, backgammons: bool = True) -> int:
        """1 single, 2 gammon, 3 backgammon for ``winner`` [RULES.md §6, 002, 004].

        Gammon: the loser has borne off no checker. Backgammon: additionally a loser's
        checker is on the bar or in the winner's home board (the loser's points
        19..24). With ``backgammons=False`` (Konstanz [000 s3]) a backgammon counts 2.
        """
        loser = 1 - winner
        if self.off(loser) > 0:
            return 1
        board = self.boards[loser]
        if backgammons and (board[BAR] > 0 or any(board[18:24])):
            return 3
        return 2

    def problems(self) -> list[str]:
        """What makes this position impossible in play (empty when it is fine)."""
        found = []
        for i in range(NUM_POINTS):
            mine = self.boards[1][i]
            theirs = self.boards[0][NUM_POINTS - 1 - i]
            if mine and theirs:
                found.append(
                    f"both players on one point (player 1's {i + 1} = player 0's {24 - i})"
                )
        return found

    # --- display ------------------------------------------------------------------
    def diagram(
        self, names: tuple[str, str] = ("player 0", "player 1"), perspective: int | None = None
    ) -> str:
        """A compact board for humans, drawn from one player's side.

        ``O`` marks player 0's checkers and ``X`` player 1's. The board is seen by
        ``perspective`` (default: the player on roll), who sits at the bottom, moves
        counter-clockwise from 24 down to 1 and whose point numbers are printed.
        Stacks taller than 5 show their count in the fifth row.
        """
        me = self.turn if perspective is None else perspective
        if me not in (0, 1):
            raise ValueError(f"perspective must be 0, 1 or None, got {perspective!r}")
        mine = self.boards[me]
        theirs = self.boards[1 - me]
        marks = ("O", "X")

        def cell(point: int, row: int) -> str:
            # point: the on-roll player's point number 1..24
            n_me = mine[point - 1]
            n_opp = theirs[24 - point]
            n, mark = (n_me, marks[me]) if n_me else (n_opp, marks[1 - me])
            if n == 0:
                return " . " if row == 0 else "   "
            if row == 4 and n > 5:
                return f"{n:^3d}"
            return f" {mark} " if n > row else "   "

        top = list(range(13, 25))
        bottom = list(range(12, 0, -1))

        def header(points: list[int]) -> str:
            left = "".join(f"{p:^3d}" for p in points[:6])
            right = "".join(f"{p:^3d}" for p in points[6:])
            return f" {left} |   | {right}"

        def rows(points: list[int], reverse: bool) -> list[str]:
            out = []
            order = range(4, -1, -1) if reverse else range(5)
            for row in order:
                left = "".join(cell(p, row) for p in points[:6])
                right = "".join(cell(p, row) for p in points[6:])
                out.append(f"|{left}|   |{right}|")
            return out

        bar_line = (
            f"|{'':18}|BAR|{'':18}|  bar {marks[1 - me]}:{theirs[BAR]}  {marks[me]}:{mine[BAR]}"
        )
        lines = [header(top), "+" + "-" * 18 + "+---+" + "-" * 18 + "+"]
        lines += rows(top, reverse=False)
        lines.append(bar_line)
        lines += rows(bottom, reverse=True)
        lines.append("+" + "-" * 18 + "+---+" + "-" * 18 + "+")
        lines.append(header(bottom))
        lines.append(
            f" {marks[0]} {names[0]}: pips {self.pips(0)}, off {self.off(0)}   "
            f"{marks[1]} {names[1]}: pips {self.pips(1)}, off {self.off(1)}   "
            f"on roll: {marks[self.turn]} ({names[self.turn]})"
        )
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Position.from_position_id({self.position_id()!r}, turn={self.turn})"

    def __str__(self) -> str:
        return self.diagram()


@lru_cache(maxsize=8192)
def _half_numeral(board: Board) -> str:
    """One player's half of a Position ID as binary digits, highest bit first.

    Cached: the player not on roll has the same board in most results of a roll.
    """
    return "".join(map(_RUNS_REVERSED.__getitem__, reversed(board)))


# Slot setters that bypass the frozen __setattr__, for Position._trusted (hot path).
_new = object.__new__
_set_boards = Position.__dict__["boards"].__set__
_set_turn = Position.__dict__["turn"].__set__


def _xg_char(n: int, *, upper: bool) -> str:
    if n == 0:
        return "-"
    return chr((ord("A") if upper else ord("a")) + n - 1)


def _xgid_turn(field: str, source: str) -> int:
    if field == "1":
        return 1
    if field == "-1":
        return 0
    raise PositionError(f"XGID {source!r}: turn must be 1 or -1, got {field!r}")
